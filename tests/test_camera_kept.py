"""The camera's one-tap questions are kept with the game: the box restarting while they wait asks the same
questions (the same ids, the same words in each player's language); a damaged or stale kept question is dropped,
never a crash. Expectations worked by hand from the dice laid (Roll for the Galaxy p.4: the phase a player's
workers choose is the one with the most dice, a tie going to the earlier phase)."""

from __future__ import annotations

import numpy as np
import pytest

from companion import i18n, records
from companion.camera import CameraFlow
from companion.flow import GameFlow
from companion.flows import FLOWS
from tests.camera_tables import read_twice
from tests.test_camera_flow import FakeDiceReader, flow_of, halves, setup_roll


def _asked(store, tmp_path):
    box = lambda x: (x, 100, 30, 30)  # noqa: E731
    reader = FakeDiceReader([("white", "develop", box(20)), ("white", "develop", box(60)), ("blue", "ship", box(140)),
                             ("white", "explore", box(340)), ("green", "settle", box(420))])
    flow = flow_of(store, "roll")
    setup_roll(flow)
    cam = CameraFlow(flow, dice_reader=reader, zones=halves(), image_dir=tmp_path / "reads")
    read_twice(cam, np.full((240, 640, 3), 70, np.uint8))
    return flow, cam


def restarted(store, flow) -> CameraFlow:
    """The box restarted: the game resumed from the session database, its camera part made anew."""
    return CameraFlow(GameFlow(store.get(flow.session.id), FLOWS["roll"]), dice_reader=FakeDiceReader([]),
                      zones=halves())


def test_questions_waiting_when_the_box_stops_are_asked_again_after_it(store, tmp_path):
    flow, cam = _asked(store, tmp_path)
    before = cam.view()["questions"]
    assert [q["text"] for q in before] == ["Ann selected Develop? (dice: Develop 2, Ship 1)",
                                           "Bob selected Explore? (dice: Explore 1, Settle 1)"]
    again = restarted(store, flow)
    after = again.view()["questions"]
    assert after == before  # the same ids, words, choices and payloads
    with i18n.use_language("hu"):  # said in the table's language, not frozen in English
        assert i18n.localize(again.questions[0].proposal.text) == i18n.localize(cam.questions[0].proposal.text)
        assert i18n.localize(again.questions[1].proposal.labels) == i18n.localize(cam.questions[1].proposal.labels)
    # the second player's answer, a correction, records what it would have before the restart
    bob = again.confirm(after[1]["id"], choice="settle")
    assert (bob.player, bob.payload["phase"], bob.payload["read"]["corrected"]) == ("Bob", "settle", True)
    # the answered question is not asked after another restart; the other still waits; new ids never reuse kept ones
    third = restarted(store, flow)
    assert [q["id"] for q in third.view()["questions"]] == [after[0]["id"]]
    third.dismiss(after[0]["id"])
    fourth = restarted(store, flow)
    assert fourth.view()["questions"] == []
    assert fourth._next_id > after[1]["id"]


def test_a_damaged_or_stale_kept_question_is_dropped_and_the_others_kept(store, tmp_path):
    flow, cam = _asked(store, tmp_path)
    good = [q.to_kept() for q in cam.questions]
    bad_words = {**good[1], "id": 9, "text": {"text": "{player} selected {phase}?", "plural": None, "n": None,
                                              "params": {"player": "Bob"}}}  # a template missing a parameter
    gone = {**good[1], "id": 10, "player": "Zoë"}  # not a player of this game
    huge = {**good[1], "id": 2**53 + 1}  # past what a phone's JavaScript holds exactly: it could never answer it
    rows = [good[0], {"id": "7"}, 5, bad_words, gone, huge,
            {**good[1], "labels": [{"term": "roll.phase", "id": "nope"}]}]
    records.save_questions(flow.session.store, flow.session.id, rows, 11)
    again = restarted(store, flow)
    assert [q["text"] for q in again.view()["questions"]] == ["Ann selected Develop? (dice: Develop 2, Ship 1)"]
    assert again._next_id == 11
    records._save_state(flow.session.store, f"questions:{flow.session.id}", {"questions": "x"}, "a damaged row")
    assert restarted(store, flow).view()["questions"] == []


@pytest.mark.parametrize("words", [{"text": 3}, {"listing": "a"}, {"term": 1, "id": "x"}, [1], {"x": 1}])
def test_kept_words_of_another_shape_are_refused_by_name(words):
    from companion.kept_words import from_kept

    with pytest.raises(ValueError, match="kept"):
        from_kept(words)



@pytest.mark.parametrize("template, params", [
    ("{player.upper}", {"player": "Ann"}),  # an attribute of a parameter
    ("{player[0]}", {"player": 7}),  # an index into a number
    ("{player:>99999999}", {"player": "Ann"}),  # a width that would fill the memory
    ("{0}", {"player": "Ann"}),  # a position
])
def test_kept_words_whose_template_reads_past_its_parameters_are_refused_by_name(template, params):
    """A hand-edited or damaged row may hold any template; the box's own words name each parameter bare, so anything
    else is a damaged row (a ValueError the resume drops), never a TypeError, an AttributeError or a 100 MB line."""
    from companion.kept_words import from_kept

    with pytest.raises(ValueError, match="kept text"):
        from_kept({"text": template, "plural": None, "n": None, "params": params})


def test_kept_words_with_conversions_short_formats_and_plurals_come_back_the_same():
    from companion.kept_words import from_kept, to_kept
    from rules.text import Text, plural

    for words in (Text("{card!r} at {n:>3}, {error:.2f}", card="Alien Tech", n=4, error=0.5),
                  plural("{n} good", "{n} goods", 3), Text('tap "Undo" (POST {"player": name})')):
        assert from_kept(to_kept(words)) == words


def test_a_kept_question_whose_words_read_past_their_parameters_is_dropped_and_the_box_goes_on(store, tmp_path):
    flow, cam = _asked(store, tmp_path)
    good = [q.to_kept() for q in cam.questions]
    prying = {**good[1], "id": 9, "text": {"text": "{player[0]}", "plural": None, "n": None,
                                           "params": {"player": 5}}}
    records.save_questions(flow.session.store, flow.session.id, [good[0], prying], 10)
    again = restarted(store, flow)
    assert [q["text"] for q in again.view()["questions"]] == ["Ann selected Develop? (dice: Develop 2, Ship 1)"]
