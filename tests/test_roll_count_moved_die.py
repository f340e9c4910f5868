"""Roll for the Galaxy's end-of-game dice count in two steps (p.8 Victory: every die is counted once, by colour, for
the cost-6 bonuses; the dice in the cup break ties): a die the first step (cups closed) left out as unsure, then
moved more than half a die before the cup step (a hand brushed it while emptying the cup) and read surely there, is
counted once, by its colour, in citizenry and construction zone: the cup step's question says so in each player's
language and records the first count made whole with the cup's. Before, the cup step took it off the cup as a die
the first count had counted, and the first count had left it out: it was counted nowhere. Counts worked by hand from
the dice listed (Ann's zone is the left half, Bob's the right)."""

from __future__ import annotations

import pytest

from companion import i18n
from tests.test_roll_count_first_unsure_cup_sure import counted

FIRST = [("white", "explore", (20, 40, 30, 30), 0.95), ("red", "develop", (60, 40, 30, 30), 0.45),
         ("white", "explore", (340, 40, 30, 30), 0.9)]
"""Step 1: Ann a white read surely and a die that looks red at 0.45 (left out: her first count is 1 white); Bob a
white."""


def test_a_moved_die_and_a_cup_die_of_its_colour_are_each_counted_once(store):
    # step 2: Ann's red moved 60 px down-right, read at 0.9; her cup adds a red and a blue, read surely far from it.
    # Reds: 1 unsure then, none now; sure reds 0 then, 2 now: 1 is the moved die, 1 the cup's. Her dice: 1 white,
    # 2 red, 1 blue; the cup 1 red, 1 blue; citizenry 1 white, 1 red.
    second = [("white", "explore", (20, 40, 30, 30), 0.95), ("red", "develop", (120, 100, 30, 30), 0.9),
              ("red", "ship", (60, 160, 30, 30), 0.92), ("blue", "ship", (200, 160, 30, 30), 0.9),
              ("white", "explore", (340, 40, 30, 30), 0.9)]
    flow, cam, firsts, q_ann = counted(store, FIRST, second)
    assert firsts["Ann"].payload["citizenry"] == {"white": 1}
    assert q_ann["text"] == (
        "Ann: 1 red, 1 blue in the cup?; 1 die the first count left out, its colour unsure, was moved and reads surely "
        "now (1 red): counted once, by its colour, in citizenry and construction zone 1 white, 1 red; if it is a die "
        "the cup brought, correct the count with Dice counted")
    event = cam.confirm(q_ann["id"])
    assert event.payload["cup"] == {"red": 1, "blue": 1}
    assert event.payload["citizenry"] == {"white": 1, "red": 1}
    ann = next(p for p in flow.engine_view()["players"] if p["name"] == "Ann")
    assert ann["cup"] == {"red": 1, "blue": 1} and ann["citizenry"] == {"white": 1, "red": 1}  # 2 red in all


def test_a_moved_die_still_unsure_stays_left_out_and_is_named_again(store):
    # step 2: the red moved and still reads 0.5: nothing says what it is, so it is counted nowhere yet and the first
    # count is not asked again (its question named it); the cup brought a sure white
    second = [("white", "explore", (20, 40, 30, 30), 0.95), ("red", "develop", (120, 100, 30, 30), 0.5),
              ("white", "ship", (60, 160, 30, 30), 0.9), ("white", "explore", (340, 40, 30, 30), 0.9)]
    _flow, cam, _firsts, q_ann = counted(store, FIRST, second)
    assert q_ann["text"] == "Ann: 1 white in the cup?"
    event = cam.confirm(q_ann["id"])
    assert event.payload["cup"] == {"white": 1} and "citizenry" not in event.payload


def test_of_two_unsure_dice_only_the_one_read_surely_is_counted(store):
    # step 1: Ann has a sure white and two dice that look red at 0.4 and 0.45 (both left out). Step 2: one red moved
    # and reads 0.9, the other lies where it lay, still 0.4; her cup brought nothing. Unsure reds 2 then, 1 now; sure
    # reds 0 then, 1 now: 1 red counted, in citizenry; the other stays left out.
    first = [("white", "explore", (20, 40, 30, 30), 0.95), ("red", "develop", (60, 40, 30, 30), 0.45),
             ("red", "settle", (120, 40, 30, 30), 0.4), ("white", "explore", (340, 40, 30, 30), 0.9)]
    second = [("white", "explore", (20, 40, 30, 30), 0.95), ("red", "develop", (60, 120, 30, 30), 0.9),
              ("red", "settle", (120, 40, 30, 30), 0.4), ("white", "explore", (340, 40, 30, 30), 0.9)]
    _flow, cam, _firsts, q_ann = counted(store, first, second)
    event = cam.confirm(q_ann["id"])
    assert event.payload["cup"] == {} and event.payload["citizenry"] == {"white": 1, "red": 1}


SAID = {
    "el": "Ann: κανένα στο κύπελλο;· 1 ζάρι που έμεινε εκτός από την πρώτη μέτρηση, με αβέβαιο χρώμα, μετακινήθηκε "
          "και διαβάζεται τώρα με βεβαιότητα (1 κόκκινο): μετριέται μία φορά, με το χρώμα του· Πολίτες και ζώνη "
          "κατασκευών 1 λευκό, 1 κόκκινο· αν είναι ζάρι που έφερε το κύπελλο, διορθώστε τη μέτρηση (Ζάρια μετρήθηκαν)",
    "pl": "Ann: brak w kubku?; 1 kość pominięta w pierwszym liczeniu (niepewny kolor) została przesunięta i teraz jest "
          "odczytana pewnie (1 czerwony): liczona raz, według koloru; obywatele i strefa budowy 1 biały, 1 czerwony; "
          "jeśli to kość z kubka, popraw liczbę (Policzono kości)",
    "hu": "Ann: nincs a pohárban?; 1 kocka, amely bizonytalan színe miatt kimaradt az első számolásból, elmozdult, és "
          "most biztosan leolvasható (1 piros): egyszer számolva, a színe szerint; polgárság és építési terület "
          "1 fehér, 1 piros; ha ez a pohárból jött kocka, javítsd a számot (Kockák megszámolva)",
}


@pytest.mark.parametrize("lang", ["el", "pl", "hu"])
def test_the_moved_die_is_said_in_each_players_language(store, lang):
    second = [("white", "explore", (20, 40, 30, 30), 0.95), ("red", "develop", (100, 40, 30, 30), 0.9),
              ("white", "explore", (340, 40, 30, 30), 0.9)]
    _flow, cam, _firsts, _q = counted(store, FIRST, second)
    [shown] = [q for q in i18n.localize(cam.view(), lang)["questions"] if q["player"] == "Ann"]
    assert str(shown["text"]) == SAID[lang]
