"""Roll for the Galaxy's dice counted on a phone at the end (p.8 Victory): a table without the camera's count enters
each player's cup and citizenry by colour in the last Manage Empire, for the cost-6 bonuses that count dice (New
Galactic Order, Galactic Exchange) and the tie-break (dice in the cup + credits). Expectations worked by hand from
the rulebook: New Galactic Order scores 2 VP per 3 red dice owned, rounded up; Galactic Exchange 1 VP per colour
owned; a purple die is only purple there."""

from __future__ import annotations

import numpy as np
import pytest

from companion import i18n
from companion.app import MainLoop
from companion.camera import CameraFlow
from companion.errors import BadEntry
from companion.hub import StateHub
from device import FakeCamera
from tests.phones import joined_phone
from tests.test_camera_flow import FakeDiceReader, flow_of, halves, setup_roll
from vision.motion import StillnessDetector


def in_develop(store):
    """A 2-player Roll table (Ann, Bob; :func:`tests.test_camera_flow.setup_roll`) where both selected Develop: the
    table is in round 1's II Develop (p.3 Rounds: Reveal, then the selected phases)."""
    flow = flow_of(store, "roll")
    setup_roll(flow)
    for name in ("Ann", "Bob"):
        flow.report(name, "select", {"phase": "develop"})
    flow.next_phase()  # Reveal
    flow.next_phase()  # II Develop
    return flow

def last_manage(store):
    """Ann (faction 1: Hidden Fortress's red die in the citizenry; Old Earth's purple die) builds New Galactic
    Order and Galactic Exchange; the two players take the 2-player pool's 24 VP (p.2 Setup: 12 per player), which
    ends the game after this round (p.8 End check); the table is in the last Manage Empire."""
    flow = in_develop(store)
    flow.report("Ann", "tile", {"tile": "New Galactic Order"})
    flow.report("Ann", "tile", {"tile": "Galactic Exchange"})
    flow.report("Ann", "vp", {"vp": 12})
    flow.report("Bob", "vp", {"vp": 12})
    flow.next_phase()  # Manage Empire, the last one
    return flow


def manage_with_rounds_to_come(store):
    """Both players select Develop and nobody takes VP: the table is in a Manage Empire with rounds to come (p.8
    End check: the pool is not empty, no tableau has 12 tiles)."""
    flow = in_develop(store)
    flow.next_phase()  # Manage Empire
    return flow


def bonuses(flow, player="Ann"):
    row = next(p for p in flow.view()["result"]["players"] if p["name"] == player)
    return {c["category"]: c["vp"] for c in row["categories"]}, row["tiebreak"]


def test_the_dice_counted_on_a_phone_score_the_dice_bonuses_and_the_tiebreak(store):
    flow = last_manage(store)
    assert "count" in flow.view()["open_forms"]["Ann"]
    flow.report("Ann", "count", {"place": "cup", "white": 2, "red": 3})
    flow.report("Ann", "count", {"place": "citizenry", "red": 1, "green": 1})
    flow.next_phase()  # End game
    lines, tiebreak = bonuses(flow)
    # owned: white 2, red 4, green 1 (the setup's purple die is no longer there)
    assert lines["New Galactic Order bonus"] == 2 * 2  # 2 x ceil(4 / 3)
    assert lines["Galactic Exchange bonus"] == 3
    assert tiebreak == [5 + 1]  # 5 dice in the cup + $1


def test_without_a_count_the_setup_dice_are_scored(store):
    flow = last_manage(store)
    flow.next_phase()  # End game
    lines, tiebreak = bonuses(flow)
    # p.2 Setup: 3 white in the cup, 2 white in the citizenry, Hidden Fortress's red, Old Earth's purple
    assert lines["New Galactic Order bonus"] == 2 and lines["Galactic Exchange bonus"] == 3
    assert tiebreak == [3 + 1]


def test_the_count_is_taken_only_in_the_last_manage_empire(store):
    flow = manage_with_rounds_to_come(store)  # the dice still move
    assert "count" not in flow.view()["open_forms"]["Ann"]
    with pytest.raises(BadEntry):
        flow.report("Ann", "count", {"place": "cup", "red": 3})
    assert not any(e.kind == "dice_counted" for e in flow.session.events())


def test_a_count_over_the_dice_of_a_colour_in_the_box_is_refused(store):
    flow = last_manage(store)
    with pytest.raises(BadEntry):
        flow.report("Ann", "count", {"place": "cup", "purple": 10})  # the game has 9 purple dice (p.1 Components)


@pytest.mark.parametrize("lang, said", [
    # the form's name after a colon, as pl and hu say it: Greek put "το" before every form's name, whatever its
    # gender and number ("το Ζάρια μετρήθηκαν", "το Κάρτα δράσης επιλέχθηκε")
    ("el", "δεν μπορεί να αναφερθεί τώρα: Ζάρια μετρήθηκαν ("),
    ("pl", "nie można teraz zgłosić: Policzono kości ("),
    ("hu", "most nem jelenthető be: Kockák megszámolva ("),
])
def test_a_count_refused_before_the_last_manage_empire_names_the_form_in_each_language(store, lang, said):
    from companion.i18n import localize, message_of

    flow = flow_of(store, "roll")
    setup_roll(flow)
    with pytest.raises(BadEntry) as refused:
        flow.report("Ann", "count", {"place": "cup", "red": 3})
    assert localize(message_of(refused.value), lang).startswith(said)


def test_a_cup_and_citizenry_over_the_games_dice_of_a_colour_are_refused(store):
    """Each place alone is within the box's 9 purple dice (rulebook p.1 Components: "μωβ, 9"), but 9 in the
    citizenry and 9 in the cup are 18 purple dice: the second count is refused, naming the colour and the total,
    and the first count stands."""
    flow = last_manage(store)
    flow.report("Ann", "count", {"place": "citizenry", "purple": 9})  # the cup holds no purple die (p.2 Setup)
    with pytest.raises(BadEntry) as refused:
        flow.report("Ann", "count", {"place": "cup", "purple": 9})
    assert i18n.say(refused.value, "en") == "purple: 9 in the cup and 9 in the citizenry is 18; the game has 9"
    assert [e.payload for e in flow.session.events() if e.kind == "dice_counted"] == [{"citizenry": {"purple": 9}}]


def test_the_dice_the_setup_gave_count_until_their_place_is_counted(store):
    """Old Earth's purple die lies in Ann's citizenry since setup (p.2 Setup): a cup of all 9 purple dice makes 10
    with it; counted again without it, the citizenry leaves room for them."""
    flow = last_manage(store)
    with pytest.raises(BadEntry) as refused:
        flow.report("Ann", "count", {"place": "cup", "purple": 9})
    assert i18n.say(refused.value, "en") == "purple: 9 in the cup and 1 in the citizenry is 10; the game has 9"
    flow.report("Ann", "count", {"place": "citizenry", "white": 2})
    flow.report("Ann", "count", {"place": "cup", "purple": 9})
    assert [e.payload for e in flow.session.events() if e.kind == "dice_counted"] == [
        {"citizenry": {"white": 2}}, {"cup": {"purple": 9}}]


def test_the_limit_is_the_box_of_each_colour(store):
    """All 22 red dice of the box (p.1 Components) may be one player's, 11 in each place; one more is refused."""
    flow = last_manage(store)
    flow.report("Ann", "count", {"place": "cup", "red": 11})
    with pytest.raises(BadEntry) as refused:
        flow.report("Ann", "count", {"place": "citizenry", "red": 12})
    assert i18n.say(refused.value, "en") == "red: 11 in the cup and 12 in the citizenry is 23; the game has 22"
    flow.report("Ann", "count", {"place": "citizenry", "red": 11})
    assert len([e for e in flow.session.events() if e.kind == "dice_counted"]) == 2


@pytest.mark.parametrize(("lang", "said"), [
    ("pl", "w kubku i 9 wśród obywateli to razem 18; gra ma 9"),
    ("el", "στο κύπελλο και 9 στους Πολίτες κάνουν 18· το παιχνίδι έχει 9"),
    ("hu", "a pohárban és 9 a polgárságban, összesen 18; a játékban 9 van"),
])
def test_the_refusal_is_in_the_phones_language(store, lang, said):
    flow = last_manage(store)
    flow.report("Ann", "count", {"place": "citizenry", "purple": 9})
    with pytest.raises(BadEntry) as refused:
        flow.report("Ann", "count", {"place": "cup", "purple": 9})
    assert said in i18n.say(refused.value, lang)
    assert "purple" not in i18n.say(refused.value, lang)


LAST_MANAGE_PHONES = "Last Manage Empire: recruit, then count your dice on your phone (Dice counted) before End game"


def _box(flow, camera=None):
    """The box's main loop over ``flow``, with ``camera`` as its camera part (None: played from the phones)."""
    frames = [np.full((60, 80, 3), 90, np.uint8)] * 4
    loop = MainLoop(source=FakeCamera(frames), reader=None, session=flow.session, hub=StateHub(),
                    stillness=StillnessDetector(), flow=flow, camera_flow=camera, stop_at_end=True,
                    sleep=lambda s: None)
    loop.publish()
    return loop


def test_without_the_cameras_dice_count_the_last_manage_empire_says_to_count_on_the_phones(store):
    """No camera part: the last Manage Empire's note (the touchscreen's line and every phone's) says the dice are
    counted on each phone before End game, as the scoring needs them (p.8 Victory), in the phone's language."""
    flow = last_manage(store)
    loop = _box(flow)
    assert loop.hub.snapshot().view["game"]["note"] == LAST_MANAGE_PHONES
    phone = joined_phone(loop.hub)
    phone.set_cookie("lang", "pl")
    assert phone.get("/api/state").get_json()["game"]["note"] == (
        "Ostatnie zarządzanie imperium: rekrutacja, potem policz swoje kości na telefonie (Policzono kości) przed "
        "dotknięciem „Koniec gry”")


def test_a_camera_without_a_dice_reader_leaves_the_count_to_the_phones(store):
    """A camera that reads only the tiles (an enrolled deck, no dice profile) does not count the dice."""
    flow = last_manage(store)
    loop = _box(flow, CameraFlow(flow, deck=object()))
    assert loop.hub.snapshot().view["game"]["note"] == LAST_MANAGE_PHONES


def test_with_the_cameras_dice_count_the_note_is_as_before(store):
    """A box with a dice reader counts the dice itself once the game is over: its last Manage Empire note is the
    round's own, and an earlier Manage Empire's note is the same on every box."""
    flow = last_manage(store)
    loop = _box(flow, CameraFlow(flow, dice_reader=FakeDiceReader([]), zones=halves()))
    assert loop.hub.snapshot().view["game"]["note"] == "Manage Empire: recruit, then the end check"


def test_a_manage_empire_with_rounds_to_come_keeps_its_note(store):
    flow = manage_with_rounds_to_come(store)
    loop = _box(flow)
    assert loop.hub.snapshot().view["game"]["note"] == "Manage Empire: recruit, then the end check"


def consume_purple_goods(flow, rounds: int) -> None:
    """Ann builds Spice World (p.6 Settle) and, ``rounds`` rounds running, produces a good with her purple die on it
    (p.7 Produce) and consumes it (p.7 Ship): the same die, back to her citizenry and recruited each Manage Empire
    (p.8); the last round's VP chips empty the 2-player pool (12 per player, p.2 Setup), so its Manage Empire is the
    last one."""
    setup_roll(flow)
    for name in ("Ann", "Bob"):
        flow.report(name, "select", {"phase": "settle"})
    flow.next_phase()  # Reveal
    flow.next_phase()  # III Settle
    flow.report("Ann", "tile", {"tile": "Spice World"})
    flow.next_phase()  # Manage Empire
    for last in [False] * (rounds - 1) + [True]:
        flow.report("Ann", "select", {"phase": "produce"})
        flow.report("Bob", "select", {"phase": "ship"})
        flow.next_phase()  # Reveal
        flow.next_phase()  # IV Produce
        flow.report("Ann", "good", {"world": "Spice World", "colour": "purple"})
        flow.next_phase()  # V Ship
        flow.report("Ann", "ship", {"world": "Spice World", "mode": "consume", "good": "purple", "shipper": "white"})
        if last:
            flow.report("Ann", "vp", {"vp": 12})
            flow.report("Bob", "vp", {"vp": 12})
        flow.next_phase()  # Manage Empire


def test_a_good_shipped_puts_back_only_the_die_it_took(store):
    """Without the camera no die is followed (tracking "tableau"), yet a good is a die (p.7 Produce) and a good
    shipped goes to the citizenry (p.7 Ship): Ann's one purple die (Old Earth's, in her citizenry since p.2 Setup)
    made a good and was consumed 3 times; her citizenry as the engine holds it is still what the setup gave (2
    white, Hidden Fortress's red die, 1 purple), not 1 + 3 purple dice."""
    flow = flow_of(store, "roll")
    consume_purple_goods(flow, 3)
    ann = next(p for p in flow.engine_view()["players"] if p["name"] == "Ann")
    assert ann["citizenry"] == {"white": 2, "red": 1, "purple": 1}
    assert ann["goods"] == {}  # each good left Spice World when shipped


def test_a_cup_counted_after_many_goods_consumed_is_not_refused(store):
    """Ann consumed a purple good in each of 6 rounds (her citizenry as set up holds Old Earth's purple die) and
    recruited: her cup holds 4 purple dice, her citizenry 1 (4 + 1 = 5 of the box's 9, p.1 Components). Counted
    cup first, as the form offers, the count is taken; each good shipped is not one more purple die in the
    citizenry (1 + 6 = 7 held there, + 4 = 11 over 9 was refused)."""
    flow = flow_of(store, "roll")
    consume_purple_goods(flow, 6)
    assert "count" in flow.view()["open_forms"]["Ann"]
    flow.report("Ann", "count", {"place": "cup", "white": 3, "purple": 4})
    flow.report("Ann", "count", {"place": "citizenry", "white": 2, "red": 1, "purple": 1})
    assert [e.payload for e in flow.session.events() if e.kind == "dice_counted"] == [
        {"cup": {"white": 3, "purple": 4}}, {"citizenry": {"white": 2, "red": 1, "purple": 1}}]
