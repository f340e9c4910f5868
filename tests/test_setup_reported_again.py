"""A player who taps the wrong setup and reports it again on the phone: the newest report replaces the first, as
Eclipse's starting sector does (``corrects``). Found at the table: Roll for the Galaxy kept the first setup's error
in red all game beside a "the new setup replaces it" warning; Race for the Galaxy put a second start world into the
tableau, which scored both."""

from __future__ import annotations

import pytest

from companion.errors import BadEntry
from companion.flow import GameFlow
from companion.flows import FLOWS
from companion.player_names import parse_players
from rules.roll.data import catalogue as roll_catalogue


def start(store, game: str, players: str) -> GameFlow:
    spec = FLOWS[game]
    return GameFlow(store.start(game, spec.settings(parse_players(players), {})), spec)


def faction_label(number: int) -> str:
    return " / ".join(roll_catalogue().faction(number).names)


def misplays(flow: GameFlow) -> list[str]:
    return [f["what"] for f in flow.view()["findings"] if f["severity"] in ("error", "warning")]


def test_roll_a_setup_reported_again_replaces_the_first_and_its_findings(store):
    """Roll for the Galaxy, p.2 Setup: two tiles are drawn, one laid development side up, the other world side up.
    Ann first reports Galactic Bankers and Former Penal Colony, the two sides of one tile (an error), then again with
    Plague World. Her setup is the second one alone: faction 5 (Genetics Lab / The Last of the Gnarssh, 2 tiles) and
    Ancient Race make 3 tiles; The Last of the Gnarssh puts a green die in the citizenry and Ancient Race a green good
    on itself (tiles.json); 3 white dice in the cup, 2 in the citizenry, $1. No finding is left."""
    flow = start(store, "roll", "Ann,Bob")
    flow.report("Ann", "setup", {"faction": faction_label(5), "home_world": "Ancient Race",
                                 "development": "Galactic Bankers", "world": "Former Penal Colony"})
    assert any("two sides of one tile" in what for what in misplays(flow)), misplays(flow)
    event = flow.report("Ann", "setup", {"faction": faction_label(5), "home_world": "Ancient Race",
                                         "development": "Galactic Bankers", "world": "Plague World"})
    assert misplays(flow) == []
    kinds = [(e.kind, e.payload.get("seq")) for e in flow.session.events()]
    assert kinds == [("player_setup", None), ("undo", 1), ("player_setup", None)] and event.seq == 3
    ann = next(p for p in flow.engine_view()["players"] if p["name"] == "Ann")
    assert ann["tiles"] == 3 and ann["credits"] == 1
    assert ann["construction_zone"]["development"] == ["Galactic Bankers"]
    assert ann["construction_zone"]["world"] == ["Plague World"]
    assert ann["cup"] == {"white": 3} and ann["citizenry"] == {"white": 2, "green": 1}
    assert ann["goods"] == {"Ancient Race": ["green"]}
    # Bob's setup is his own: it replaces nothing of Ann's; a tile Ann holds is still hers
    flow.report("Bob", "setup", {"faction": faction_label(8), "home_world": "Alpha Centauri",
                                 "development": "Homeworld Patriotism", "world": "Asteroid Belt"})
    assert misplays(flow) == ["Homeworld Patriotism's tile is not in the bag (another player has it)"]
    assert len([e for e in flow.session.events() if e.kind == "player_setup"]) == 3


def test_roll_a_setup_is_not_replaced_once_the_player_selected_a_phase(store):
    """p.2 Setup closes for a player who has selected a phase: reported again then, it is refused and the setup in
    force stays (withdraw the selection first)."""
    flow = start(store, "roll", "Ann,Bob")
    flow.report("Ann", "setup", {"faction": faction_label(1), "home_world": "Old Earth",
                                 "development": "Advanced Logistics", "world": "Spice World"})
    flow.report("Ann", "select", {"phase": "develop"})
    before = flow.session.last_seq
    with pytest.raises(BadEntry, match="Ann has selected a phase, so their setup is done"):
        flow.report("Ann", "setup", {"faction": faction_label(2), "home_world": "Old Earth",
                                     "development": "Advanced Logistics", "world": "Spice World"})
    assert flow.session.last_seq == before
    assert next(p for p in flow.engine_view()["players"] if p["name"] == "Ann")["faction"] == 1


def test_race_a_start_world_reported_again_replaces_the_first(store):
    """Race for the Galaxy, Setup: one start world is dealt to each player. Cy taps Epsilon Eridani, Bob's (an
    error), then New Sparta: her tableau holds New Sparta alone (1 card, 1 VP), the error is gone and her role is
    New Sparta; before, both start worlds lay in her tableau and scored 1 + 1."""
    flow = start(store, "race", "Ann,Bob,Cy")
    flow.report("Ann", "start", {"card": "Old Earth"})
    flow.report("Bob", "start", {"card": "Epsilon Eridani"})
    flow.report("Cy", "start", {"card": "Epsilon Eridani"})
    assert any("Epsilon Eridani is already Bob's start world" in what for what in misplays(flow)), misplays(flow)
    flow.report("Cy", "start", {"card": "New Sparta"})
    assert misplays(flow) == []
    cy = next(p for p in flow.engine_view()["players"] if p["name"] == "Cy")
    assert [c["card"] for c in cy["tableau"]] == ["New Sparta"]
    row = next(p for p in flow.view()["players"] if p["name"] == "Cy")
    assert row["tableau"] == 1 and row["role"] == "New Sparta"
    cy_score = next(s for s in flow.spec.scores(flow.session.replay().state) if s.player == "Cy")
    assert cy_score.total == 1
    # Ann's and Bob's start worlds stay theirs
    assert [(e.kind, e.payload.get("seq")) for e in flow.session.events()][-2:] == [("undo", 3), ("start_world", None)]
    assert {p["name"]: p["role"] for p in flow.view()["players"]} == {"Ann": "Old Earth", "Bob": "Epsilon Eridani",
                                                                      "Cy": "New Sparta"}
