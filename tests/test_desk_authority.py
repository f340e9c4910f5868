"""companion.desk through the main loop, who may act: a phone acts only for the seat it claimed (a private report only
from it), the touchscreen's own actions and the table's undo are refused to phones, claims survive a restart and
follow a rename, and a phone's spelling of a player's name (any case, without accents) is the table's player."""

from __future__ import annotations

import numpy as np
import pytest

from companion.app import MainLoop
from companion.flow import GameFlow
from companion.flows import FLOWS
from companion.hub import StateHub
from companion.player_names import parse_players
from device import FakeCamera
from tests.test_desk import ANN_PHONE, BOB_PHONE, act, box, race
from vision.motion import StillnessDetector


def test_a_phone_claims_a_seat_and_then_only_that_phone_reports_for_it(store):
    loop = box(race(store))
    assert loop.hub.pairing().secret and loop.hub.pairing().claims == {}
    claimed = act(loop, "claim_seat", player="Bob", client=BOB_PHONE)
    assert claimed["status"] == 200 and claimed["recorded"] == []
    assert loop.hub.pairing().claims == {"Bob": BOB_PHONE}
    players = {p["name"]: p["claimed"] for p in claimed["_view"]["game"]["players"]}
    assert players == {"Ann": False, "Bob": True}
    assert BOB_PHONE not in str(claimed["_view"]) and loop.hub.pairing().secret not in str(claimed["_view"])
    # another phone may not report for, withdraw or claim Bob's seat while Bob's phone is here
    for name, payload in (("report", {"form": "hand", "values": {"cards": 2}}), ("undo_report", {})):
        refused = act(loop, name, player="Bob", client=ANN_PHONE, **payload)
        assert refused["status"] == 403, name
        assert refused["error"] == "Bob's seat is claimed by another phone; the touchscreen can reassign it"
    loop.hub.presence.heard(BOB_PHONE)  # a request of Bob's phone (the phone view hears every one)
    refused = act(loop, "claim_seat", player="Bob", client=ANN_PHONE)
    assert refused["status"] == 403 and refused["error"].startswith("Bob's seat is held by a phone that is still here")
    assert act(loop, "report", player="Bob", form="hand", values={"cards": 2})["status"] == 403  # no client at all
    assert act(loop, "report", player="Bob", form="hand", values={"cards": 2}, client=BOB_PHONE)["status"] == 200
    # an unclaimed seat is open to any joined phone (a player without a phone)
    assert act(loop, "report", player="Ann", form="hand", values={"cards": 3}, client=BOB_PHONE)["status"] == 200
    # the touchscreen may do anything, and frees Bob's seat for another phone
    assert act(loop, "report", "touchscreen", player="Bob", form="hand", values={"cards": 1})["status"] == 200
    assert act(loop, "release_seat", player="Bob", client=ANN_PHONE)["status"] == 403  # not another phone's
    assert act(loop, "release_seat", "touchscreen", player="Bob")["status"] == 200
    assert act(loop, "claim_seat", player="Bob", client=ANN_PHONE)["status"] == 200
    assert loop.hub.pairing().claims == {"Bob": ANN_PHONE}


class HiddenHandRace:
    """Race for the Galaxy whose "Cards in hand" form is private (hidden information, as an end-of-game
    position with face-down tiles is: :attr:`companion.flow_spec.Form.private`)."""

    def __init__(self) -> None:
        self._race = FLOWS["race"]

    def __getattr__(self, name):
        return getattr(self._race, name)

    def forms(self, view):
        from dataclasses import replace

        return tuple(replace(f, private=True) if f.id == "hand" else f for f in self._race.forms(view))


def test_a_private_report_comes_only_from_the_phone_that_holds_the_seat(store):
    session = store.start("race", FLOWS["race"].settings(parse_players("Ann,Bob"), {}))
    loop = box(GameFlow(session, HiddenHandRace()))
    hand = {"form": "hand", "values": {"cards": 4}}
    assert next(f for f in loop.flow.view()["forms"] if f["id"] == "hand")["private"] is True
    # an unclaimed seat: no phone may enter its hidden information (it would not be the player's own)
    refused = act(loop, "report", player="Ann", client=BOB_PHONE, **hand)
    assert refused["status"] == 403 and "Ann enters it on their own phone" in refused["error"]
    assert act(loop, "report", player="Ann", client=ANN_PHONE, **hand)["status"] == 403
    act(loop, "claim_seat", player="Ann", client=ANN_PHONE)
    assert act(loop, "report", player="Ann", client=BOB_PHONE, **hand)["status"] == 403  # another phone
    assert act(loop, "report", player="Ann", client=ANN_PHONE, **hand)["status"] == 200  # her own
    # a report that is not private is open as before; the box itself (the touchscreen) may do anything
    assert act(loop, "report", player="Bob", client=ANN_PHONE, form="start",
               values={"card": "Old Earth"})["status"] == 200
    assert act(loop, "report", "touchscreen", player="Bob", **hand)["status"] == 200
    assert [e.kind for e in session.events()] == ["hand_counted", "start_world", "hand_counted"]


def test_revoke_makes_a_new_secret_and_drops_every_claim_durably(store, tmp_path):
    flow = race(store)
    loop = box(flow)
    first = loop.hub.pairing().secret
    act(loop, "claim_seat", player="Ann", client=ANN_PHONE)
    assert act(loop, "revoke_phones", client=ANN_PHONE)["status"] == 403
    assert act(loop, "revoke_phones", "touchscreen")["status"] == 200
    pairing = loop.hub.pairing()
    assert pairing.secret != first and pairing.claims == {}
    # a restart (a new loop on the same database) keeps the new secret and no claims
    again = box(GameFlow(store.get(flow.session.id), FLOWS["race"]))
    assert again.hub.pairing().secret == pairing.secret and again.hub.pairing().claims == {}


def test_claims_survive_a_restart(store):
    flow = race(store)
    loop = box(flow)
    act(loop, "claim_seat", player="Ann", client=ANN_PHONE)
    again = box(GameFlow(store.get(flow.session.id), FLOWS["race"]))
    assert again.hub.pairing().claims == {"Ann": ANN_PHONE}
    assert again.hub.pairing().secret == loop.hub.pairing().secret


def test_camera_questions_about_a_claimed_player_are_answered_by_that_phone_or_the_touchscreen(store):
    from companion.camera import CameraFlow, Proposal

    flow = race(store)
    cam = CameraFlow(flow, deck=object())
    loop = box(flow, camera_flow=cam)
    act(loop, "claim_seat", player="Ann", client=ANN_PHONE)
    q = cam._ask(Proposal("Ann", "Ann placed Old Earth?", "start_world", {"player": "Ann", "card": "Old Earth"}))
    refused = act(loop, "camera_confirm", id=q.id, client=BOB_PHONE)
    assert refused["status"] == 403 and "Ann's seat is claimed" in refused["error"] and cam.questions == [q]
    assert act(loop, "camera_confirm", id=q.id, client=ANN_PHONE)["status"] == 200


def test_touchscreen_only_actions_and_the_table_undo_are_refused_to_phones(store):
    flow = race(store)
    loop = box(flow)
    act(loop, "report", "touchscreen", player="Ann", form="hand", values={"cards": 3})
    for name in ("quit", "revoke_phones", "undo"):
        assert act(loop, name, player="Ann", client=ANN_PHONE)["status"] == 403, name
    assert not loop._stop and flow.session.last_seq == 1


def test_a_setup_rename_carries_the_claim_and_a_removal_drops_it(store):
    from companion.setup_flow import TableSetup

    hub = StateHub()
    setup = TableSetup(store, FLOWS["race"])
    loop = MainLoop(source=FakeCamera([np.zeros((60, 80, 3), np.uint8)] * 5), reader=None, session=None, hub=hub,
                    stillness=StillnessDetector(), setup=setup, sleep=lambda s: None)
    act(loop, "setup_player", "touchscreen", player="Player 1")
    act(loop, "setup_player", player="Bob", client=BOB_PHONE)
    assert act(loop, "claim_seat", player="Player 1", client=ANN_PHONE)["status"] == 200
    # Bob's phone may not rename the seat Ann's phone holds; Ann's phone may
    assert act(loop, "setup_rename", player="Player 1", name="Bo", client=BOB_PHONE)["status"] == 403
    renamed = act(loop, "setup_rename", player="Player 1", name="Ann", client=ANN_PHONE)
    assert renamed["status"] == 200 and hub.pairing().claims == {"Ann": ANN_PHONE}
    assert [p["claimed"] for p in renamed["_view"]["game"]["players"]] == [True, False]
    act(loop, "claim_seat", player="Bob", client=BOB_PHONE)
    act(loop, "setup_remove", player="Bob", client=BOB_PHONE)
    assert hub.pairing().claims == {"Ann": ANN_PHONE}


def test_a_phone_names_a_player_in_any_case_and_the_table_s_spelling_is_kept(store):
    """A phone that sends "ann" (or "ANN", " ann ") for the player the table entered as "Ann" acts for Ann's seat:
    it claims it, reports and withdraws for it, and what is recorded and shown is "Ann" (NFC, ignoring case, as the
    rule that keeps two players' names from differing only by case)."""
    loop = box(race(store, "Ann,Zoë,Łukasz"))
    claimed = act(loop, "claim_seat", player="ann", client=ANN_PHONE)
    assert claimed["status"] == 200 and claimed["message"] == "Ann's seat is claimed by this phone"
    assert loop.hub.pairing().claims == {"Ann": ANN_PHONE}
    assert act(loop, "claim_seat", player="ANN", client=ANN_PHONE)["message"] == "Ann's seat is already this phone's"
    # another phone, in another case, is refused the seat as Ann's (the seat rule sees the one player)
    refused = act(loop, "report", player=" ANN ", form="hand", values={"cards": 2}, client=BOB_PHONE)
    assert refused["status"] == 403
    assert refused["error"] == "Ann's seat is claimed by another phone; the touchscreen can reassign it"
    reported = act(loop, "report", player="aNN", form="hand", values={"cards": 2}, client=ANN_PHONE)
    assert reported["status"] == 200 and reported["message"].startswith("Ann: ")
    # "ZOË" typed with a combining diaeresis
    zoe = act(loop, "report", player="ZOE\u0308", form="hand", values={"cards": 3}, client=BOB_PHONE)
    assert zoe["status"] == 200 and zoe["message"].startswith("Zoë: ")
    assert act(loop, "report", player="ŁUKASZ", form="hand", values={"cards": 1}, client=BOB_PHONE)["status"] == 200
    assert [(e.kind, e.player, e.payload["player"]) for e in loop.session.events()] == [
        ("hand_counted", "Ann", "Ann"), ("hand_counted", "Zoë", "Zoë"), ("hand_counted", "Łukasz", "Łukasz")]
    assert [p["name"] for p in reported["_view"]["game"]["players"]] == ["Ann", "Zoë", "Łukasz"]
    # a tap made against an older state is stale for Ann's own later entries, whatever case it names her in
    version = loop.session.last_seq
    assert act(loop, "report", "touchscreen", player="Ann", form="hand", values={"cards": 4})["status"] == 200
    stale = act(loop, "report", player="ann", form="hand", values={"cards": 5}, version=version, client=ANN_PHONE)
    assert stale["status"] == 409 and stale["error"].startswith("Ann's entries changed since this was tapped")
    withdrawn = act(loop, "undo_report", player="ANN", client=ANN_PHONE)
    assert withdrawn["status"] == 200 and withdrawn["message"].startswith("Ann's report withdrawn")
    assert act(loop, "release_seat", "touchscreen", player="aNn")["status"] == 200 and loop.hub.pairing().claims == {}
    # a name that is nobody's, in any case, is refused naming what was sent
    unknown = act(loop, "claim_seat", player="annie", client=ANN_PHONE)
    assert unknown["status"] == 400 and unknown["error"] == "unknown player 'annie'; players: Ann, Zoë, Łukasz"


def test_the_setup_matches_a_phone_s_player_in_any_case_and_refuses_names_differing_only_by_case(store):
    from companion.setup_flow import TableSetup

    setup = TableSetup(store, FLOWS["race"])
    loop = MainLoop(source=FakeCamera([np.zeros((60, 80, 3), np.uint8)] * 5), reader=None, session=None,
                    hub=StateHub(), stillness=StillnessDetector(), setup=setup, sleep=lambda s: None)
    assert act(loop, "setup_player", player="Ann", client=ANN_PHONE)["status"] == 200
    assert act(loop, "setup_player", player="Player 2", client=BOB_PHONE)["status"] == 200
    # a second "ann" is another player of the same name: refused, saying whose name it is
    twice = act(loop, "setup_player", player="ann", colour="green", client=BOB_PHONE)
    assert twice["status"] == 400
    assert twice["error"] == "'ann' (as 'Ann') is already playing; names must differ (ignoring case and accents)"
    renamed = act(loop, "setup_rename", player="player 2", name="ANN", client=BOB_PHONE)
    assert renamed["status"] == 400 and renamed["error"] == "'ANN' (as 'Ann') is already playing; names must differ " \
                                                             "(ignoring case and accents)"
    assert act(loop, "setup_rename", player="PLAYER 2", name="Bob", client=BOB_PHONE)["status"] == 200
    # the rest of the setup names a player in any case, and the table's spelling is what is kept
    assert act(loop, "claim_seat", player="bob", client=BOB_PHONE)["status"] == 200
    assert act(loop, "setup_seat", "touchscreen", player="BOB", point=[70, 50])["status"] == 200
    assert act(loop, "setup_seat", "touchscreen", player="ann", point=[10, 10])["status"] == 200
    assert setup.names == ["Ann", "Bob"] and set(setup.seats) == {"Ann", "Bob"}
    assert loop.hub.pairing().claims == {"Bob": BOB_PHONE}
    assert act(loop, "setup_remove", player="BOB", client=BOB_PHONE)["status"] == 200
    assert setup.names == ["Ann"] and loop.hub.pairing().claims == {}


# hand-written: what a Greek, Polish and Hungarian player reads for a name already playing
ALREADY_PLAYING = {"el": "παίζει ήδη", "pl": "już gra", "hu": "már játszik"}


@pytest.mark.parametrize("lang", ["el", "pl", "hu"])
def test_names_differing_only_by_case_are_refused_in_the_phone_s_language(store, lang):
    from companion.setup_flow import TableSetup
    from tests.phones import joined_phone, post_through_loop

    setup = TableSetup(store, FLOWS["race"])
    loop = MainLoop(source=FakeCamera([np.zeros((60, 80, 3), np.uint8)] * 5), reader=None, session=None,
                    hub=StateHub(), stillness=StillnessDetector(), setup=setup, sleep=lambda s: None)
    loop.publish()  # the setup view the phone page opens on
    phone = joined_phone(loop.hub)
    phone.client.environ_base["HTTP_ACCEPT_LANGUAGE"] = lang
    assert post_through_loop(phone, loop, "/api/setup", {"action": "player", "name": "Ann"}).status_code == 200
    answer = post_through_loop(phone, loop, "/api/setup", {"action": "player", "name": "ANN"})
    error = answer.get_json()["error"]
    assert answer.status_code == 400 and ALREADY_PLAYING[lang] in error and "'ANN'" in error and "'Ann'" in error
    assert setup.names == ["Ann"]
    # the phone's "ann" is Ann's seat over HTTP too
    assert post_through_loop(phone, loop, "/api/seat", {"player": "ann"}).status_code == 200
    assert list(loop.hub.pairing().claims) == ["Ann"]


@pytest.mark.parametrize("said", ["ελενη", "ΕΛΕΝΗ", " Ελενη "])
def test_a_greek_name_without_its_accent_is_the_table_s_player_on_the_phone(store, said):
    """A Greek phone's keyboard in capitals drops the accent: "ΕΛΕΝΗ" or "ελενη" claimed nobody's seat when the table
    wrote "Ελένη", and could be added as a second player of that name."""
    from companion.setup_flow import TableSetup
    from tests.phones import joined_phone, post_through_loop

    setup = TableSetup(store, FLOWS["race"])
    loop = MainLoop(source=FakeCamera([np.zeros((60, 80, 3), np.uint8)] * 5), reader=None, session=None,
                    hub=StateHub(), stillness=StillnessDetector(), setup=setup, sleep=lambda s: None)
    loop.publish()
    phone = joined_phone(loop.hub)
    phone.client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "el"
    for name in ("Ελένη", "Σπύρος"):
        assert post_through_loop(phone, loop, "/api/setup", {"action": "player", "name": name}).status_code == 200
    answer = post_through_loop(phone, loop, "/api/setup", {"action": "player", "name": said})
    assert answer.status_code == 400 and "παίζει ήδη" in answer.get_json()["error"], answer.get_json()
    assert post_through_loop(phone, loop, "/api/seat", {"player": said}).status_code == 200
    assert list(loop.hub.pairing().claims) == ["Ελένη"] and setup.names == ["Ελένη", "Σπύρος"]
