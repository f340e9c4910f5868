"""A phone's Undo while the players enter their hidden end-of-game information (companion.flow.GameFlow.undo_report,
companion.flow_spec.FlowBase.entry_forms).

Eclipse (End of the game): after round 9 each player enters their final position (reputation tiles face down,
resources, tech tracks) on their own phone. "Undo my last report" sat beside "Report" there and withdrew the player's
newest report in force: with no position entered yet, their round-9 Pass, which put the game back at round 9's
Cleanup. While the hidden entry is open a phone's Undo now withdraws only that player's own entry, is labelled so,
and reaches no further back; reopening the last round stays the touchscreen's Undo. An entry made again replaces the
earlier one, so the Undo withdraws the entry whole. Race and Roll have no hidden form; Among the Stars'
Qualeen secret objective is hidden but open all game beside the public forms, so it is no such entry.

Totals are worked by hand: each player controls their starting sector (221 Procyon, 232 Rigel: 3 VP each,
rules/data/eclipse/hexes.json) and a reputation tile scores its value (Eclipse, End of the game).
"""

from __future__ import annotations

import pytest

from companion import i18n
from companion.errors import BadEntry
from companion.flow import GameFlow
from companion.flows import FLOWS
from companion.player_names import parse_players
from tests.test_among_secret import qualeen_table
from tests.test_eclipse_flow import at_final_scoring

NOTHING = ("Ann has entered nothing to withdraw (Final position): the last round is over, and only the table's Undo "
           "reopens it (the touchscreen's, or “Undo the table's last entry” on a phone)")
WITHDRAW = "Withdraw my entry: Final position"


def test_undo_before_any_final_position_keeps_the_game_at_its_end(store):
    """The play-through's case: Ann taps Undo before entering her position. Before, her round-9 Pass was withdrawn
    and the game stood at round 9's Cleanup; now nothing is recorded, the game still waits for the final positions,
    and the refusal says why (in the phone's language)."""
    flow = at_final_scoring(store)
    before = flow.session.last_seq
    assert flow.view()["undo"] == {"Ann": {"label": WITHDRAW, "shown": False},
                                   "Bob": {"label": WITHDRAW, "shown": False}}
    with pytest.raises(BadEntry) as refused:
        flow.undo_report("Ann")
    assert str(refused.value) == NOTHING
    assert i18n.localize(i18n.message_of(refused.value), "el").startswith(
        "Ann: δεν έχει καταχωριστεί τίποτα για απόσυρση (Τελική θέση)")
    assert flow.session.last_seq == before
    view = flow.view()
    assert (view["stage"], view["round_label"]) == ("reporting", "Game end: final positions")
    assert [p["waiting"] for p in view["players"]] == [True, True]


def test_undo_withdraws_the_players_own_final_position_whole_and_the_game_is_scored_from_the_next(store):
    """Ann enters reputation 4 + 4 and 9 Money, enters it again as reputation 2, with 0 tiles worth 4 and 0 Money
    (a correction: it replaces the first; what the first gave is said again), then withdraws it: she is waited for
    again and her button is hidden, Bob's entry is untouched. She enters reputation 3, Bob reputation 4, and Score the
    game scores it: Ann 3 + 3 = 6, Bob 4 + 3 = 7 (neither withdrawn entry counts)."""
    flow = at_final_scoring(store)
    flow.report("Ann", "position", {"reputation_4": 2, "money": 9})
    first = flow.session.last_seq
    assert flow.view()["undo"]["Ann"] == {"label": WITHDRAW, "shown": True}
    assert flow.view()["undo"]["Bob"] == {"label": WITHDRAW, "shown": False}
    corrected = flow.report("Ann", "position", {"reputation_2": 1, "reputation_4": 0, "money": 0})
    undone = [e for e in flow.session.events() if e.kind == "undo"]
    assert [(e.seq, e.payload["seq"]) for e in undone] == [(corrected.seq - 1, first)]  # the first entry replaced

    undo = flow.undo_report("Ann")
    assert undo is not None and undo.player == "Ann" and undo.payload == {"seq": corrected.seq}
    view = flow.view()
    assert view["stage"] == "reporting" and [p["waiting"] for p in view["players"]] == [True, True]
    assert view["undo"]["Ann"] == {"label": WITHDRAW, "shown": False}
    with pytest.raises(BadEntry, match="Ann has entered nothing to withdraw"):  # not the entry replaced before it
        flow.undo_report("Ann")

    flow.report("Ann", "position", {"reputation_3": 1})
    flow.report("Bob", "position", {"reputation_4": 1})
    flow.next_phase()  # Score the game
    result = flow.view()["result"]
    assert {p["name"]: p["total"] for p in result["players"]} == {"Ann": 6, "Bob": 7}
    assert result["winners"] == ["Bob"]


@pytest.mark.parametrize(("lang", "label"), [("el", "Απόσυρση της καταχώρισής μου: Τελική θέση"),
                                             ("pl", "Wycofaj mój wpis: Pozycja końcowa"),
                                             ("hu", "Bejegyzésem visszavonása: Végső állás")])
def test_the_undo_button_names_the_entry_in_each_players_language(store, lang, label):
    flow = at_final_scoring(store)
    assert i18n.localize(flow.view()["undo"]["Ann"]["label"], lang) == label


def test_before_the_rounds_end_undo_still_withdraws_the_newest_report(store):
    """Round 1's Action phase: no hidden entry is open, the button keeps the page's own words and Ann's Pass is
    withdrawn as before (it is her turn again)."""
    session = store.start("eclipse", FLOWS["eclipse"].settings(
        parse_players("Ann,Bob", FLOWS["eclipse"].info.colours), {"species": ["Terran Directorate", "Orion Hegemony"]}))
    flow = GameFlow(session, FLOWS["eclipse"])
    flow.report("Ann", "pass", {})
    assert flow.view()["turn"] == "Bob"
    assert flow.view()["undo"]["Ann"] == {"label": None, "shown": True}
    undo = flow.undo_report("Ann")
    assert undo is not None and flow.view()["turn"] == "Ann"


@pytest.mark.parametrize("game", ["roll", "race"])
def test_roll_and_race_have_no_hidden_end_entry(store, game):
    """Roll and Race for the Galaxy declare no private form: their phones' Undo is "Undo my last report" at every
    stage (their face-down choices are public forms, withdrawn only while open: ``report_forms``)."""
    spec = FLOWS[game]
    flow = GameFlow(store.start(game, spec.settings(parse_players("Ann,Bob", spec.info.colours), {})), spec)
    assert not [f.id for f in spec.forms(flow.engine_view()) if f.private]
    assert flow.view()["undo"] == {"Ann": {"label": None, "shown": True}, "Bob": {"label": None, "shown": True}}


def test_a_qualeens_secret_objective_is_no_end_entry_and_her_undo_is_as_before(store):
    """Among the Stars: a Qualeen keeps a secret objective (rulebook 'Races': a private form open beside the public
    ones all game), so the table never waits for hidden entries alone: her Undo keeps its words and withdraws her
    newest report, here the VP correction she made after entering the objective."""
    flow = qualeen_table(store)
    assert flow.spec.entry_forms(*flow._now(), "Ágnes") == []
    flow.report("Ágnes", "vp", {"delta": 2})
    assert flow.view()["undo"]["Ágnes"] == {"label": None, "shown": True}
    undo = flow.undo_report("Ágnes")
    assert undo is not None and flow.session.events()[-2].kind == "vp_changed"
    assert undo.payload == {"seq": flow.session.events()[-2].seq}
