"""A camera question answered twice: the second answer is told the table moved on (HTTP 409, as any tap on a screen
grown stale), not that the phone sent a malformed answer (400, as before). Roll for the Galaxy p.3 Assign: "Bob
selected Explore?" asked from Bob's dice."""

from __future__ import annotations

from companion.flow_actions import BAD_INPUT, STALE
from tests.test_camera_browser import bob_asked_about_his_phase


def test_an_answer_to_a_question_no_longer_waiting_is_stale_and_a_wrong_answer_is_bad_input(store, hub):
    flow, loop = bob_asked_about_his_phase(store, hub)
    [question] = hub.snapshot().view["camera"]["questions"]
    wrong = loop.dispatch({"action": "camera_confirm", "origin": "phone", "id": question["id"], "choice": "dance"})
    assert wrong.status == BAD_INPUT and not wrong.events  # a choice the question does not offer: the phone's fault
    recorded = loop.dispatch({"action": "camera_confirm", "origin": "touchscreen", "id": question["id"]})
    assert [(e.kind, e.player) for e in recorded.events] == [("phase_selected", "Bob")]
    late = loop.dispatch({"action": "camera_dismiss", "origin": "phone", "id": question["id"]})
    assert late.status == STALE == 409 and not late.events
    assert "was already answered (Bob: Phase selected recorded)" in late.error
    gone = loop.dispatch({"action": "camera_confirm", "origin": "phone", "id": question["id"] + 40})
    assert gone.status == STALE and "is no longer waiting" in gone.error and not gone.events
    assert [e.kind for e in flow.session.events()].count("phase_selected") == 1
