"""A last look at the hidden entries before the game is scored (companion.flow.GameFlow.hidden_missing, the shared
flow; rules.eclipse.state.EclipseState.confirm_scores).

Eclipse (End of the game): each player enters their final position on their own phone. The last one entered scored the
game at once, so that player could neither withdraw nor correct it. The game now waits for the table's "Score the game"
once every position is in; until then each player may still withdraw theirs. Among the Stars (Races: Qualeen): the
Qualeen's secret objective is a hidden entry too; the Next that scores the game asks first when she has entered none,
as Eclipse's Next does for a missing final position: both through the one shared question.

Totals are worked by hand: each Eclipse player controls their starting sector (221 Procyon, 232 Rigel: 3 VP each,
rules/data/eclipse/hexes.json) and a reputation tile scores its value (Eclipse, End of the game). Among the Stars: every
player discards every round, 4 x 10 + 24 x 3 = 112 credits, 112 // 3 = 37 VP (rulebook 6 'Game end').
"""

from __future__ import annotations

import pytest

from companion import i18n
from companion.errors import BadEntry
from companion.flow_reports import REPORTS_CLOSED
from tests.test_among_secret import every_round_discarded, qualeen_table, totals
from tests.test_eclipse_flow import at_final_scoring
from tests.test_eclipse_game import play


def test_the_last_final_position_entered_can_still_be_withdrawn_until_the_table_scores_the_game(store):
    """Ann enters reputation 3, Bob (the last) reputation 4 by a slip: the game is not scored yet, Next reads "Score the
    game" and asks nothing, and Bob's phone still withdraws his entry. He enters reputation 2 instead; Score the game
    scores it: Ann 3 + 3 = 6, Bob 3 + 2 = 5. Only then are reports closed."""
    flow = at_final_scoring(store)
    flow.report("Ann", "position", {"reputation_3": 1})
    flow.report("Bob", "position", {"reputation_4": 1})
    view = flow.view()
    assert (view["stage"], view["over"], view["result"]) == ("reporting", False, None)
    assert [p["waiting"] for p in view["players"]] == [False, False]
    assert view["next"] == {"label": "Score the game", "enabled": True, "why": "", "asked": ""}
    assert view["note"] == ("every final position is in; each player may still withdraw or correct theirs on their "
                            "phone until the table presses Score the game")
    assert i18n.localize(view["next"]["label"], "pl") == "Podlicz grę"
    assert view["undo"]["Bob"] == {"label": "Withdraw my entry: Final position", "shown": True}
    undo = flow.undo_report("Bob")
    assert undo is not None and flow.view()["players"][1]["waiting"]
    flow.report("Bob", "position", {"reputation_2": 1})
    flow.next_phase()  # Score the game: nothing missing, so nothing asked
    result = flow.view()["result"]
    assert {p["name"]: p["total"] for p in result["players"]} == {"Ann": 6, "Bob": 5}
    assert result["winners"] == ["Ann"]
    with pytest.raises(BadEntry) as refused:
        flow.undo_report("Bob")
    assert str(refused.value) == REPORTS_CLOSED


def test_a_log_recorded_before_the_last_look_still_ends_on_its_last_final_position():
    """A game recorded before (no ``confirm_scores`` in its settings) replays as it was played: the last final position
    entered ended it, with no Score the game in its log."""
    two = {"players": ["Ann", "Bob"]}
    positions = [("phase_ended", None, {})] * 36 + [("position_reported", "Ann", {"reputation": [3]}),
                                                    ("position_reported", "Bob", {"reputation": [4]})]
    assert play(two, *positions).state.over
    assert not play({**two, "confirm_scores": True}, *positions).state.over
    assert play({**two, "confirm_scores": True}, *positions, ("game_ended", None, {})).state.over


def test_the_qualeens_missing_secret_objective_is_asked_about_before_the_game_is_scored(store):
    """Ágnes (Qualeen) entered no secret objective: the last round's End year, which scores the game, first names
    what is missing (the same question as Eclipse's missing final position); pressed again, it scores without it:
    37 each."""
    flow = qualeen_table(store, secret=None)
    every_round_discarded(flow, 23)  # the rounds before the last end without a question: the game goes on
    for name in flow.names:
        flow.report(name, "discard", {})
    with pytest.raises(BadEntry) as asked:
        flow.next_phase()
    assert str(asked.value) == ("Ágnes: nothing entered yet (Secret objective (Qualeen)); press Next again to score "
                                "the game without it, or enter it on the phone first")
    assert i18n.localize(i18n.message_of(asked.value), "hu").startswith("Ágnes: még nincs megadva semmi (")
    assert not flow.over()
    flow.next_phase()
    assert flow.over() and totals(flow.view()["result"]["players"]) == {"Ágnes": 37, "Bálint": 37, "Csilla": 37}


def test_a_final_position_entered_again_keeps_what_the_first_gave_unless_entered_again(store):
    """Ann enters reputation tiles 3 and 4, money 4, science 2, military 5. Her phone reloads (the form shows empty)
    and she sends money 6 alone to correct it: it would replace her entry whole and drop the tiles, the science and
    the military track, so it is refused naming them, in each language, and nothing is recorded. Entered again in
    full (science 0 now) it replaces the first. By hand (Eclipse, End of the game: the scoring table): Procyon 3 +
    reputation 3 + 4 = 10, military 5 tiles 2 VP: 12; Bob: Rigel 3 + reputation 2 = 5."""
    flow = at_final_scoring(store)
    flow.report("Ann", "position", {"reputation_3": 1, "reputation_4": 1, "money": 4, "science": 2, "military": 5})
    before = flow.session.last_seq
    with pytest.raises(BadEntry) as refused:
        flow.report("Ann", "position", {"money": 6})
    assert str(refused.value) == (
        "Final position: Ann's entry in force has Reputation tiles worth 3, Reputation tiles worth 4, Science in "
        "storage and Military track tiles, and this one leaves them blank: enter them again (0 for none), or withdraw "
        "the entry first (“Withdraw my entry: Final position”) to start afresh")
    for lang, start in (("el", "Τελική θέση: η καταχώριση σε ισχύ για Ann έχει "),
                        ("pl", "Pozycja końcowa: obowiązujący wpis (Ann) ma "),
                        ("hu", "Végső állás: Ann érvényes bejegyzésében szerepel: ")):
        assert i18n.localize(i18n.message_of(refused.value), lang).startswith(start)
    assert flow.session.last_seq == before
    flow.report("Ann", "position", {"reputation_3": 1, "reputation_4": 1, "money": 6, "science": 0, "military": 5})
    flow.report("Bob", "position", {"reputation_2": 1})
    flow.next_phase()
    assert {p["name"]: p["total"] for p in flow.view()["result"]["players"]} == {"Ann": 12, "Bob": 5}


def test_an_entry_withdrawn_first_may_leave_blank_what_it_gave(store):
    """Withdrawn first ("Withdraw my entry"), a new final position may leave blank what the old one gave: Ann's
    reputation 4 withdrawn, her new entry gives reputation 1 alone: Procyon 3 + 1 = 4."""
    flow = at_final_scoring(store)
    flow.report("Ann", "position", {"reputation_4": 1})
    assert flow.undo_report("Ann") is not None
    flow.report("Ann", "position", {"reputation_1": 1})
    flow.report("Bob", "position", {})
    flow.next_phase()
    assert {p["name"]: p["total"] for p in flow.view()["result"]["players"]}["Ann"] == 4
