"""Roll for the Galaxy: the die a tile that says "remove one of your dice" takes, said on the phone (Die removed).

Rulebook p.11 FAQ, Immediate effects: such a tile takes any one of its owner's dice, from anywhere, back to the
supply, once, when it is built. Conscription (cost 4, the other side of Gem World): "remove any one of your dice,
then gain two red dice into your cup". Ann builds it in II Develop; the box asks which die, the phone's Die removed
says it (a white die of her Citizenry), Undo takes it back; a tile that owes no die and a die she does not have are
refused, naming them, with nothing recorded."""

from __future__ import annotations

import pytest

from companion import i18n
from companion.errors import BadEntry
from companion.flow import GameFlow
from companion.flows import FLOWS
from companion.player_names import parse_players
from rules.roll import ROLL_GAME


def roll_at_develop(store) -> GameFlow:
    """Ann (faction 3 on Alpha Centauri) and Bob (faction 1 on Old Earth), both selected Develop; the table is at II
    Develop. Nobody set up with Gem World, so its Conscription side is free to build."""
    roll = GameFlow(store.start("roll", FLOWS["roll"].settings(parse_players("Ann,Bob"), {})), FLOWS["roll"])
    for player, faction, home in (("Ann", 3, "Alpha Centauri"), ("Bob", 1, "Old Earth")):
        roll.report(player, "setup", {"faction": " / ".join(ROLL_GAME.cat.faction(faction).names),
                                      "home_world": home, "development": "Investment Credits", "world": "Spice World"})
    roll.report("Ann", "select", {"phase": "develop"})
    roll.report("Bob", "select", {"phase": "develop"})
    roll.next_phase()  # Reveal
    roll.next_phase()  # II Develop
    return roll


def ann(roll) -> dict:
    return next(p for p in roll.engine_view()["players"] if p["name"] == "Ann")


def test_conscription_opens_die_removed_and_the_die_goes(store):
    roll = roll_at_develop(store)
    assert "remove" not in roll.view()["open_forms"]["Ann"]
    before = ann(roll)
    roll.report("Ann", "tile", {"tile": "Conscription"})
    built = ann(roll)
    assert built["removals_owed"] == ["Conscription"]
    assert built["cup"].get("red", 0) == before["cup"].get("red", 0) + 2  # "gain two red dice into your cup"
    view = roll.view()
    assert view["open_forms"]["Ann"][0] == "remove" and "remove" not in view["open_forms"]["Bob"]
    assert view["choices_now"]["Ann"]["remove"]["source"]["choices"] == ["Conscription"]
    roll.report("Ann", "remove", {"source": "Conscription", "colour": "white", "from": "citizenry"})
    after = ann(roll)
    assert after["citizenry"]["white"] == built["citizenry"]["white"] - 1 and after["cup"] == built["cup"]
    assert after["removals_owed"] == [] and "remove" not in roll.view()["open_forms"]["Ann"]
    roll.undo_report("Ann")  # the die comes back and the form opens again
    assert ann(roll)["citizenry"] == built["citizenry"] and ann(roll)["removals_owed"] == ["Conscription"]


def test_a_die_ann_does_not_have_there_is_refused_naming_it(store):
    roll = roll_at_develop(store)
    roll.report("Ann", "tile", {"tile": "Conscription"})
    seq = roll.session.last_seq
    with pytest.raises(BadEntry) as refused:
        roll.report("Ann", "remove", {"source": "Conscription", "colour": "purple", "from": "cup"})
    assert str(refused.value) == ("Die removed: the box knows of no purple die of Ann's in the cup: choose where the "
                                  "die is (p.11 FAQ, Immediate effects: any one of your dice, from anywhere)")
    assert roll.session.last_seq == seq and ann(roll)["removals_owed"] == ["Conscription"]
    with pytest.raises(BadEntry) as refused:
        roll.report("Ann", "remove", {"source": "Space Marines", "colour": "white", "from": "citizenry"})
    assert str(refused.value) == ("Die removed: Ann owes no die for Space Marines: a tile removes one of your dice "
                                  "once, when it is built, and Tile built says it (p.11 FAQ, Immediate effects)")
    with pytest.raises(BadEntry) as refused:  # nothing of Ann's is on the Ship column: no dice are assigned
        roll.report("Ann", "remove", {"source": "Conscription", "colour": "white", "from": "ship"})
    assert str(refused.value) == ("Die removed: the box knows of no die of Ann's in the Ship column (p.11 FAQ, "
                                  "Immediate effects: any one of your dice, from anywhere)")
    assert roll.session.last_seq == seq


def test_a_tile_that_owes_no_die_is_refused_naming_it(store):
    roll = roll_at_develop(store)
    roll.report("Ann", "tile", {"tile": "Conscription"})
    roll.report("Ann", "remove", {"source": "Conscription", "colour": "white", "from": "citizenry"})
    seq = roll.session.last_seq
    with pytest.raises(BadEntry) as refused:  # a page opened before the die was said, sent again
        roll.report("Ann", "remove", {"source": "Conscription", "colour": "white", "from": "cup"})
    assert "Die removed" in str(refused.value)
    assert roll.session.last_seq == seq


def test_bob_owes_nothing_so_his_die_removed_is_closed_with_the_reason(store):
    roll = roll_at_develop(store)
    roll.report("Ann", "tile", {"tile": "Conscription"})
    with pytest.raises(BadEntry) as refused:
        roll.report("Bob", "remove", {"source": "Conscription", "colour": "white", "from": "cup"})
    assert str(refused.value) == ("Die removed: no tile Bob built owes a die: a tile that removes one of your dice "
                                  "opens it once it is built (Tile built; p.11 FAQ, Immediate effects)")


@pytest.mark.parametrize("lang, said", [
    ("el", "Ζάρι αφαιρέθηκε: Ann: το κουτί δεν ξέρει μωβ ζάρι σε: το κύπελλο"),
    ("pl", "Usunięto kość: Ann: pudełko nie zna tam kości w kolorze "),
    ("hu", "Kocka eltávolítva: a doboz nem tud Ann "),
])
def test_the_refusal_is_said_in_each_language(store, lang, said):
    roll = roll_at_develop(store)
    roll.report("Ann", "tile", {"tile": "Conscription"})
    with pytest.raises(BadEntry) as refused:
        roll.report("Ann", "remove", {"source": "Conscription", "colour": "purple", "from": "cup"})
    assert i18n.localize(refused.value.args[0], lang).startswith(said)


def test_the_say_which_note_goes_once_the_die_is_said_and_comes_back_with_undo(store):
    """The note "Conscription: Ann removes one of their dice; say which (Die removed)" asks the table for something;
    once Die removed says the die, nothing is asked any more (p.11 FAQ: the tile removes one die, once), so the note
    leaves the notes; Undo of that report owes the die again and the note comes back."""
    roll = roll_at_develop(store)
    asks = "Conscription: Ann removes one of their dice; say which (Die removed)"
    roll.report("Ann", "tile", {"tile": "Conscription"})
    assert asks in [f["what"] for f in roll.findings(limit=None)]
    assert asks in [f["what"] for f in roll.view()["findings"]]
    roll.report("Ann", "remove", {"source": "Conscription", "colour": "white", "from": "citizenry"})
    assert asks not in [f["what"] for f in roll.findings(limit=None)]
    assert asks not in [f["what"] for f in roll.view()["findings"]]
    roll.undo_report("Ann")
    assert asks in [f["what"] for f in roll.findings(limit=None)]
