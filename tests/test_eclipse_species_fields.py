"""Eclipse's final position asks each player only what their species scores (Rise of the Ancients p.14, the species
sheets; scoring rows 20 and 21): Orbitals holding cubes score for the Exiles alone, Discoveries discarded or used
as ship parts for Magellan alone. Before, the form offered both fields at every table and an Orion player's count in
one was taken and scored 0 without a word.
"""

from __future__ import annotations

import pytest

from companion import i18n
from companion.errors import BadEntry
from tests.test_eclipse_flow import start

SPECIES_FIELDS = {"orbitals_with_cubes", "magellan"}


def _to_final_positions(flow):
    """Every player passes in every round, Next ends the other phases: nine rounds, then the final positions."""
    while flow.progress().stage != "reporting":
        progress = flow.progress()
        if progress.stage == "action":
            flow.report(progress.turn, "pass", {})
        else:
            flow.next_phase()


def _position_fields(flow) -> set[str]:
    form = next(f for f in flow.view()["forms"] if f["id"] == "position")
    return {f["name"] for f in form["fields"]}


def test_a_table_without_the_exiles_or_magellan_is_not_asked_their_counts(store):
    """Terran and Orion (base game boards): neither row 20 nor row 21 can score, so neither field is on the form;
    a table with the Exiles gets the Orbitals, and not Magellan's Discoveries."""
    flow = start(store, species=["Terran Directorate", "Orion Hegemony"])
    assert _position_fields(flow) & SPECIES_FIELDS == set()
    assert {"reputation_4", "money", "discoveries"} <= _position_fields(flow)
    flow = start(store, species=["Exiles", "Orion Hegemony"])
    assert _position_fields(flow) & SPECIES_FIELDS == {"orbitals_with_cubes"}


def test_a_count_in_another_species_field_is_refused_and_each_species_scores_its_own(store):
    """Ann plays the Exiles, Bob the Orion Hegemony, Cy Magellan; nobody holds a hex. Bob's 1 in the Exiles'
    Orbitals is refused naming both species and the rule, and nothing is recorded; his 0 there is taken. Worked by
    hand (Eclipse, End of the game: row 1 reputation; Rise of the Ancients p.14: rows 20 and 21):
    Ann 3 + 2 Orbitals = 5; Bob 4; Cy 2 + 3 Discoveries = 5."""
    flow = start(store, "Ann,Bob,Cy", species=["Exiles", "Orion Hegemony", "Magellan"])
    _to_final_positions(flow)
    assert _position_fields(flow) & SPECIES_FIELDS == SPECIES_FIELDS
    before = flow.session.last_seq
    with pytest.raises(BadEntry) as refused:
        flow.report("Bob", "position", {"reputation_4": 1, "orbitals_with_cubes": 1})
    assert str(refused.value) == ("Final position: Exiles: Orbitals holding your cubes: only Exiles players score it "
                                  "(Rise of the Ancients p.14); Bob plays Orion Hegemony: leave it blank or 0")
    with pytest.raises(BadEntry, match="only Magellan players score it"):
        flow.report("Ann", "position", {"orbitals_with_cubes": 2, "magellan": 1})
    assert flow.session.last_seq == before
    flow.report("Ann", "position", {"reputation_3": 1, "orbitals_with_cubes": 2})
    flow.report("Bob", "position", {"reputation_4": 1, "orbitals_with_cubes": 0, "magellan": 0})
    flow.report("Cy", "position", {"reputation_2": 1, "magellan": 3})
    flow.next_phase()  # Score the game
    assert {p["name"]: p["total"] for p in flow.view()["result"]["players"]} == {"Ann": 5, "Bob": 4, "Cy": 5}


def test_a_player_without_a_species_is_told_so_in_their_language(store):
    """Cy plays without a species noted at setup: a Magellan count cannot score for them (row 21 is Magellan's);
    the refusal says that no species was noted, in Polish too."""
    flow = start(store, "Ann,Cy", species=["Magellan", ""])
    _to_final_positions(flow)
    with pytest.raises(BadEntry) as refused:
        flow.report("Cy", "position", {"magellan": 2})
    assert "Cy has no species noted at setup" in str(refused.value)
    polish = str(i18n.localize(refused.value.args[0], "pl"))
    assert polish.startswith("Pozycja końcowa: ") and "Cy nie ma rasy zapisanej przy przygotowaniu" in polish
