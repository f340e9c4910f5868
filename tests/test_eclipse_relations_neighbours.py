"""Eclipse: diplomatic relations are made with a player whose controlled hex is next to yours (Eclipse 1.2,
Diplomacy), or joined to it by Warp Portals (Rise of the Ancients p.8: portal hexes are adjacent to one another).
Found at a four-player table: Bartek's phone reported relations with Ζωή while their starting sectors lay two
hexes apart, with nothing between them, and the box said nothing.

Hand-worked map, four players: Ann on 221 Procyon at [0, -2], Bob on 238 at [2, -2], Cy on 228 Sigma Draconis at
[0, 2], Dee on 226 61 Cygni at [-2, 0]. [0, -2] and [2, -2] are two steps apart (the hex between is [1, -2]);
[0, -2] and [0, 2] four.
"""

from __future__ import annotations

import pytest

from companion import i18n
from rules import Event, Severity, replay
from rules.eclipse import ECLIPSE_GAME

FOUR = {"players": [{"name": "Ann", "species": "Terran Directorate"}, {"name": "Bob", "species": "Enlightened of Lyra"},
                    {"name": "Cy", "species": "Descendants of Draco"}, {"name": "Dee", "species": "Planta"}],
        "developments": True, "warp_portals": True}
HOMES = [("hex_placed", "Ann", {"sector": "221", "q": 0, "r": -2, "rotation": 3}),
         ("hex_placed", "Bob", {"sector": "238", "q": 2, "r": -2, "rotation": 4}),
         ("hex_placed", "Cy", {"sector": "228", "q": 0, "r": 2, "rotation": 0}),
         ("hex_placed", "Dee", {"sector": "226", "q": -2, "r": 0, "rotation": 1})]
BETWEEN = [("hex_placed", "Ann", {"sector": "201", "q": 1, "r": -2, "rotation": 0}),  # 201 Alpha Centauri, no Ancients
           ("influence_placed", "Ann", {"q": 1, "r": -2})]


def play(*rows):
    events = [Event(seq=k, kind=kind, payload=payload, player=player)
              for k, (kind, player, payload) in enumerate([*HOMES, *rows], 1)]
    return replay(ECLIPSE_GAME, FOUR, events)


def said_on(result, seq: int) -> list[tuple[str, Severity]]:
    return [(f.rule_kind, f.severity) for f in result.findings if f.seq == seq and f.severity is not Severity.INFO]


def test_relations_between_hexes_two_apart_are_an_error_and_still_recorded():
    result = play(("relations_formed", "Bob", {"with": "Ann"}))
    assert said_on(result, 5) == [("relations_not_neighbours", Severity.ERROR)]
    assert result.state.player("Ann").relations == ("Bob",)  # recorded as reported, until undone


def test_a_hex_between_makes_them_neighbours():
    result = play(*BETWEEN, ("relations_formed", "Bob", {"with": "Ann"}))
    assert said_on(result, 7) == []


def test_portal_hexes_are_next_to_one_another():
    """Ann lays the Warp Portal token on her starting sector; Cy explores the printed portal hex 281 at [1, 1] and
    places a disc there: their hexes, four apart on the map, are joined by the portals."""
    portals = [("structure_built", "Ann", {"structure": "warp_portal", "q": 0, "r": -2}),
               ("hex_placed", "Cy", {"sector": "281", "q": 1, "r": 1, "rotation": 0}),
               ("influence_placed", "Cy", {"q": 1, "r": 1})]
    result = play(*portals, ("relations_formed", "Cy", {"with": "Ann"}))
    assert said_on(result, 8) == []
    without = play(*portals[1:], ("relations_formed", "Cy", {"with": "Ann"}))
    assert said_on(without, 7) == [("relations_not_neighbours", Severity.ERROR)]


def test_a_table_that_reports_no_hexes_is_not_told():
    """No starting sector reported: the box cannot tell where the players are."""
    events = [Event(seq=1, kind="relations_formed", payload={"with": "Ann"}, player="Bob")]
    result = replay(ECLIPSE_GAME, FOUR, events)
    assert [f.rule_kind for f in result.findings if f.severity is Severity.ERROR] == []


NOT_NEIGHBOURS = {
    "en": "Bob and Ann control no hexes next to each other: relations are made with a player whose controlled hex is "
          "next to yours, or joined to it by Warp Portals",
    "el": "Bob και Ann δεν ελέγχουν γειτονικά εξάγωνα: διπλωματικές σχέσεις γίνονται με παίκτη που το εξάγωνο που "
          "ελέγχει γειτονεύει με το δικό σας ή συνδέεται μαζί του μέσω Πυλών Στρεβλώσεως",
    "pl": "Bob i Ann nie kontrolują sąsiednich heksów: stosunki dyplomatyczne nawiązuje się z graczem, którego "
          "kontrolowany heks sąsiaduje z twoim albo łączy się z nim przez portale warp",
    "hu": "Bob és Ann nem ellenőriz egymás melletti hexeket: diplomáciai kapcsolatot olyan játékossal lehet kötni, "
          "akinek az ellenőrzött hexe a tiéd mellett van, vagy Warp portálokon át kapcsolódik hozzá",
}


@pytest.mark.parametrize("lang", ["en", "el", "pl", "hu"])
def test_the_finding_is_said_in_each_language(lang):
    result = play(("relations_formed", "Bob", {"with": "Ann"}))
    finding = next(f for f in result.findings if f.rule_kind == "relations_not_neighbours")
    assert i18n.say(finding.what, lang) == NOT_NEIGHBOURS[lang]
