"""Game options chosen at the start: Race's advanced 2-player game and Among the Stars' aggressive mode."""

from __future__ import annotations

import pytest

from companion.cli import main
from companion.errors import BadEntry
from companion.flow import GameFlow
from companion.flows import FLOWS
from companion.player_names import parse_players
from companion.session import SessionStore


def test_race_advanced_game_offers_the_variant_action_cards(tmp_path) -> None:
    spec = FLOWS["race"]
    settings = spec.settings(parse_players("Ann,Bob"), {"advanced": True})
    assert settings["advanced"] is True
    with SessionStore(tmp_path / "s.sqlite3") as store:
        flow = GameFlow(store.start("race", settings), spec)
        assert flow.engine_view()["advanced"] is True
        base = GameFlow(store.start("race", spec.settings(parse_players("Ann,Bob"), {})), spec)
        assert base.engine_view()["advanced"] is False
        # the advanced game: a second action card, and the variant Explore and Develop/Settle cards
        def select_form(f: GameFlow) -> dict:
            return next(form for form in f.view()["forms"] if form["id"] == "select")
        adv, plain = select_form(flow), select_form(base)
        assert [fld["name"] for fld in adv["fields"]] == ["action", "second"]
        assert [fld["name"] for fld in plain["fields"]] == ["action"]
        assert set(adv["fields"][0]["choices"]) > set(plain["fields"][0]["choices"])


def test_race_advanced_refuses_one_action_card_chosen_as_both(tmp_path) -> None:
    """Advanced 2-player game: each player has nine action cards and chooses two of them a round, two Develop
    phases taking both Develop cards (Race for the Galaxy rulebook, Advanced 2-player game). "Develop" in both fields
    is one card twice: refused at the phone, in its language, and nothing is recorded; before, it was recorded and
    the reveal ran one Develop phase with an error."""
    from companion import i18n

    spec = FLOWS["race"]
    with SessionStore(tmp_path / "s.sqlite3") as store:
        flow = GameFlow(store.start("race", spec.settings(parse_players("Ann,Bob"), {"advanced": True})), spec)
        flow.report("Ann", "start", {"card": "Old Earth"})
        flow.report("Bob", "start", {"card": "New Sparta"})
        before = flow.session.last_seq
        with pytest.raises(BadEntry) as refused:
            flow.report("Ann", "select", {"action": "Develop", "second": "Develop"})
        assert str(refused.value).startswith("Develop is chosen as both action cards")
        assert i18n.localize(refused.value.args[0], "pl").startswith("Rozwój: wybrano jako obie karty akcji")
        assert flow.session.last_seq == before
        flow.report("Ann", "select", {"action": "Develop", "second": "Develop (second card)"})  # both Develop cards
        flow.report("Bob", "select", {"action": "Produce", "second": "Settle"})
        assert [s["phase"] for s in flow.engine_view()["steps"]] == ["develop", "develop", "settle", "produce"]


def test_race_advanced_needs_two_players() -> None:
    with pytest.raises(BadEntry, match="advanced game is for 2 players, not 3"):
        FLOWS["race"].settings(parse_players("Ann,Bob,Cy"), {"advanced": True})


def test_among_aggressive_mode_has_seven_rounds_from_year_two(tmp_path) -> None:
    spec = FLOWS["among"]
    settings = spec.settings(parse_players("Ann,Bob"), {"aggressive": True})
    assert settings["aggressive"] is True
    with SessionStore(tmp_path / "s.sqlite3") as store:
        session = store.start("among", settings)
        game, state = session.game, session.replay().state
        assert state.aggressive is True
        assert game.rounds_in_year(state, 1) == 6
        assert game.rounds_in_year(state, 2) == 7  # rulebook 7 'Aggressive mode'


def test_options_for_another_game_are_refused(tmp_path, capsys) -> None:
    code = main(["demo", "--game", "roll", "--players", "Ann,Bob", "--advanced", "--db", str(tmp_path / "x.sqlite3"),
                 "--no-screen", "--no-web", "--no-gpio", "--once", "--fast"])
    assert code == 2
    assert "--advanced does not go with --game roll" in capsys.readouterr().err
    code = main(["demo", "--game", "race", "--players", "Ann,Bob", "--aggressive", "--db", str(tmp_path / "x.sqlite3"),
                 "--no-screen", "--no-web", "--no-gpio", "--once", "--fast"])
    assert code == 2
