"""One more step of a Move belongs to the Move its player just took (rules/eclipse/rounds.py, map_events.ship_moved;
companion/flows/eclipse_turns.py).

Rise of the Ancients p.4, Ship activation: "the Move action consists of several ship activations ... with each
activation you move one ship as far as its Drives allow"; Eclipse 1.2, Action phase: on a turn a player takes one
action or passes; Passing: after passing only a reaction (Upgrade, Build or Move). So a further step (``ship_moved``
on its own, the phone's "Move: one more step (same Move)") belongs to the Move that is the same player's latest
action this Action phase: a Move, or a Move reaction after passing. Any other action or pass ends that Move (in
simultaneous play, Rise of the Ancients p.13, the next action taken with the same marker), and so does the end of
the Action phase. The phone refuses a step without its Move (409, nothing recorded); a stored log or a report made
another way replays it with a ``step_without_move`` misplay.

The map, worked from the printed tiles (rules/data/eclipse/hexes.json), as in tests/test_eclipse_flow.py: Ann's
221 Procyon at (0, -2), rotation 0 (wormholes 12, 2, 6, 8); 106 Capella explored at (0, -1), rotation 0 (12, 2,
4, 6): Procyon's 6 meets Capella's 12, and Capella's 6 the Galactic Center's 12, so (0, -2) -> (0, -1) -> (0, 0)
are steps through full wormholes either way. Bob's 232 Rigel at (0, 2).
"""

from __future__ import annotations

import pytest

from companion import i18n
from companion.errors import MovedOn
from rules import UNDO, Event, Severity, replay
from rules.eclipse import ECLIPSE_GAME
from rules.eclipse.rounds import act, end_phase, may_step, pass_turn, start
from tests.test_eclipse_flow import start as start_flow

TWO = {"players": [{"name": "Ann", "species": "Terran Directorate"}, {"name": "Bob", "species": "Orion Hegemony"}]}
SET_UP = [("hex_placed", "Ann", {"sector": "221", "q": 0, "r": -2, "rotation": 0}),
          ("hex_placed", "Bob", {"sector": "232", "q": 0, "r": 2, "rotation": 0}),
          ("action_taken", "Ann", {"action": "explore", "sector": "106", "q": 0, "r": -1, "rotation": 0,
                                   "from": {"q": 0, "r": -2}}),
          ("action_taken", "Bob", {"action": "upgrade"})]  # Ann's turn, Bob's, then Ann's again (events 1-4)
HOME, CAPELLA, CENTRE = {"q": 0, "r": -2}, {"q": 0, "r": -1}, {"q": 0, "r": 0}
MOVE = ("action_taken", "Ann", {"action": "move", "from": HOME, "to": CAPELLA})
STEP = ("ship_moved", "Ann", {"from": CAPELLA, "to": CENTRE})
STEP_BACK = ("ship_moved", "Ann", {"from": CENTRE, "to": CAPELLA})


def play(*rows):
    """The set-up and Ann's Explore, then ``rows`` (``(kind, player, payload)``), replayed as a stored log."""
    events = [Event(seq=k, kind=kind, payload=payload, player=player)
              for k, (kind, player, payload) in enumerate([*SET_UP, *rows], 1)]
    return replay(ECLIPSE_GAME, TWO, events)


def said_on(result, seq: int) -> list[tuple[str, Severity]]:
    """The rule kinds found on event ``seq``, with their severity."""
    return [(f.rule_kind, f.severity) for f in result.findings if f.seq == seq]


def test_a_move_then_two_steps_are_one_move():
    """Ann Moves (0, -2) -> (0, -1), then reports two more steps: (0, -1) -> (0, 0) and back. Each is checked for its
    wormhole (full: legal) and none is a misplay; the turn stays with Bob."""
    result = play(MOVE, STEP, STEP_BACK)
    assert [said_on(result, seq) for seq in (5, 6, 7)] == [[("full_wormhole", Severity.INFO)]] * 3
    assert result.state.rounds.moving == ("Ann",) and result.state.rounds.current == "Bob"
    assert ECLIPSE_GAME.view(result.state)["moving"] == ["Ann"]


def test_a_step_with_no_move_is_a_misplay_and_keeps_its_wormhole_check():
    """Ann's latest action is Explore (and Bob has upgraded since); her step is recorded with the misplay naming the
    rule, and its wormhole check (a full wormhole) still comes with it. Bob's, after his Upgrade, neither."""
    result = play(STEP)
    assert said_on(result, 5) == [("step_without_move", Severity.ERROR), ("full_wormhole", Severity.INFO)]
    finding = next(f for f in result.findings if f.rule_kind == "step_without_move")
    assert finding.what == ("Ann reports one more step of a Move, but Ann's latest action is not a Move: each "
                               "activation of a Move moves one ship as far as its drives allow, and the Move ends "
                               "with the next action or pass")
    assert finding.fix == "report the Move first, or take the step back"
    assert "Move action; Rise of the Ancients p.4 Ship activation" in finding.rule and finding.cell == (0, 0)
    bob = play(("ship_moved", "Bob", {"from": {"q": 0, "r": 2}, "to": CENTRE}))
    assert ("step_without_move", Severity.ERROR) in said_on(bob, 5)


def test_a_step_after_another_players_action_is_a_misplay():
    """Ann Moves, Bob takes an Upgrade: Ann's Move is over (her action was her whole turn), so her step is not."""
    result = play(MOVE, ("action_taken", "Bob", {"action": "upgrade"}), STEP)
    assert said_on(result, 5) == [("full_wormhole", Severity.INFO)]  # the Move's own step
    assert said_on(result, 7) == [("step_without_move", Severity.ERROR), ("full_wormhole", Severity.INFO)]
    assert result.state.rounds.moving == ()


def test_a_step_after_ones_own_pass_needs_a_move_reaction():
    """Ann Moves, Bob upgrades, Ann passes: her step is a misplay (a pass ends the Move). Bob builds; Ann, passed,
    takes a Move as a reaction on her turn (Passing), and its further step is fine."""
    result = play(MOVE, ("action_taken", "Bob", {"action": "upgrade"}), ("passed", "Ann", {}), STEP)
    assert ("step_without_move", Severity.ERROR) in said_on(result, 8)
    reaction = play(MOVE, ("action_taken", "Bob", {"action": "upgrade"}), ("passed", "Ann", {}),
                    ("action_taken", "Bob", {"action": "build", "ship": "Interceptor"}),
                    ("action_taken", "Ann", {"action": "move"}), STEP)
    assert said_on(reaction, 9) == []  # a Move reaction on her turn: no finding
    assert said_on(reaction, 10) == [("full_wormhole", Severity.INFO)]


def test_a_step_after_its_move_was_undone_is_a_misplay():
    """Ann Moves, the Move is undone (the state is the log replayed without it): the step that follows has no Move;
    without the undo the same step is the Move's."""
    undone = play(MOVE, (UNDO, None, {"seq": 5}), STEP)
    assert ("step_without_move", Severity.ERROR) in said_on(undone, 7)
    assert undone.state.rounds.moving == () and undone.state.rounds.current == "Ann"
    kept = play(MOVE, STEP)
    assert said_on(kept, 6) == [("full_wormhole", Severity.INFO)]


def test_a_step_in_the_next_round_or_another_phase_is_a_misplay():
    """Ann's Move is the latest action when the Action phase is ended (a warning: Bob had not passed); in Combat a
    step is no Move's; after Upkeep and Cleanup, in round 2's Action phase, still none."""
    combat = play(MOVE, ("phase_ended", None, {}), STEP)
    finding = next(f for f in combat.findings if f.seq == 7 and f.rule_kind == "step_without_move")
    assert finding.what == ("Ann reports one more step of a Move in the Combat phase: ships move in a Move action, "
                               "in the Action phase")
    assert finding.fix == "take the step back"
    ended = [("phase_ended", None, {})] * 4
    next_round = play(MOVE, *ended, STEP)
    assert next_round.state.rounds.round == 2 and next_round.state.rounds.phase == "action"
    assert ("step_without_move", Severity.ERROR) in said_on(next_round, 10)


def test_who_is_moving_follows_each_action_and_pass():
    """At the rules' level (no map): set by a Move (a reaction too), ended by any other action or pass, by any other
    player's, and by the end of the Action phase."""
    seats = ("Ann", "Bob", "Cy")
    r, _ = act(start(seats), "Ann", "move")
    assert r.moving == ("Ann",) and may_step(r, "Ann") and not may_step(r, "Bob")
    r2, _ = act(r, "Bob", "move")  # Bob's own Move replaces Ann's
    assert r2.moving == ("Bob",)
    r3, _ = act(r2, "Cy", "research")
    assert r3.moving == ()
    r4, _ = pass_turn(r2, "Cy")  # a pass ends it too
    assert r4.moving == ()
    r5, _ = end_phase(r)
    assert r5.phase == "combat" and r5.moving == () and not may_step(r5, "Ann")


def test_simultaneous_play_keeps_a_move_until_its_marker_moves_on():
    """Rise of the Ancients p.13: the First Action marker starts with P0, the Second with P3 (opposite, 7 players);
    the two act at once. P0 Moves while P3 explores: P0's Move goes on (P3 acts with the other marker). P1, the
    First marker's next holder, then acts: P0's Move is over."""
    seats = tuple(f"P{k}" for k in range(7))
    r = start(seats, simultaneous=True)
    r, _ = act(r, "P0", "move")
    r, _ = act(r, "P3", "explore")
    assert r.moving == ("P0",) and may_step(r, "P0")
    r, _ = act(r, "P4", "move")  # the Second marker's next holder moves too: both Moves go on
    assert r.moving == ("P0", "P4")
    r, _ = act(r, "P1", "upgrade")
    assert r.moving == ("P4",) and not may_step(r, "P0")


def test_simultaneous_play_a_move_taken_with_a_waiting_marker_lasts_until_that_marker_moves_on():
    """Rise of the Ancients p.13, 4 players: the First Action marker starts with P0, the Second with P2 (opposite).
    P2 upgrades (the Second goes to P3), P0 and P1 act (the First reaches P2). P2 Moves with the First: it cannot go
    on to P3, who holds the Second, so it waits with P2. P3 acts with the Second (which goes to P0), and the First is
    freed to P3: P2's Move was taken with the First, which P3 has not acted with yet, so it goes on. P3 then acts with
    the First: now it is over."""
    r = start(("P0", "P1", "P2", "P3"), simultaneous=True)
    for player, action in (("P2", "upgrade"), ("P0", "upgrade"), ("P1", "build"), ("P2", "move")):
        r, _ = act(r, player, action)
    assert (r.seats[r.first], r.first_waits, r.seats[r.second]) == ("P2", True, "P3") and r.moving == ("P2",)
    r, _ = act(r, "P3", "upgrade")  # with the Second
    assert (r.seats[r.first], r.first_waits, r.seats[r.second]) == ("P3", False, "P0")
    assert r.moving == ("P2",) and may_step(r, "P2")
    r, _ = act(r, "P3", "build")  # with the First
    assert r.moving == () and not may_step(r, "P2")


# -- through the phones -------------------------------------------------------------------------------------------

def _set_up(store):
    flow = start_flow(store, species=["Terran Directorate", "Orion Hegemony"])
    flow.report("Ann", "home", {"sector": "221 Procyon", "hex": [0, -2], "rotation": 0})
    flow.report("Bob", "home", {"sector": "232 Rigel", "hex": [0, 2], "rotation": 0})
    flow.report("Ann", "explore", {"sector": "106 Capella", "hex": [0, -1], "rotation": 0, "from": [0, -2]})
    flow.report("Bob", "upgrade", {})  # Ann's turn again
    return flow


NO_MOVE = {
    "en": "Ann has no Move under way: one more step belongs to the Move that is Ann's latest action (Move action: "
          "each activation moves one ship as far as its drives allow); report the Move first",
    "el": "Ann δεν έχει Μετακίνηση σε εξέλιξη: ένα ακόμη βήμα ανήκει στη Μετακίνηση που είναι η τελευταία ενέργεια που "
          "έκανε Ann (ενέργεια Μετακίνησης: κάθε ενεργοποίηση μετακινεί ένα σκάφος τόσο μακριά όσο επιτρέπουν οι "
          "Προωθητήρες του)· δηλώστε πρώτα τη Μετακίνηση",
    "pl": "Ann nie ma Ruchu w toku: jeszcze jeden krok należy do Ruchu będącego ostatnią akcją (Ann), a w akcji Ruchu "
          "każda aktywacja przesuwa jeden statek tak daleko, jak pozwalają jego napędy; najpierw zgłoś Ruch",
    "hu": "Ann nem mozog éppen: még egy lépés ahhoz a Mozgáshoz tartozik, amely Ann legutóbbi akciója (Mozgás akció: "
          "minden aktiválás egy hajót mozgat annyit, amennyit a hajtóművei engednek); előbb jelentsd a Mozgást",
}


def _refused(flow, player: str, cell_from, cell_to) -> MovedOn:
    before = flow.session.last_seq
    with pytest.raises(MovedOn) as refused:
        flow.report(player, "step", {"from": cell_from, "to": cell_to})
    assert flow.session.last_seq == before  # nothing recorded
    return refused.value


@pytest.mark.parametrize("lang", ["en", "el", "pl", "hu"])
def test_the_phone_refuses_a_step_with_no_move_naming_the_player_and_what_to_report(store, lang):
    """Ann explored, Bob upgraded: Ann's phone offers no further step, and one sent all the same is refused in her
    language."""
    flow = _set_up(store)
    assert "step" not in flow.view()["open_forms"]["Ann"]
    assert i18n.say(_refused(flow, "Ann", [0, -1], [0, 0]), lang) == NO_MOVE[lang]


def test_the_phone_takes_steps_of_the_move_and_refuses_them_once_the_move_is_over(store):
    """Ann Moves: two more steps are recorded (each with its wormhole), the turn stays with Bob. Bob upgrades: Ann's
    Move is over, her step is refused. On her turn Ann Moves and withdraws it: the step is refused again."""
    flow = _set_up(store)
    flow.report("Ann", "move", {"from": [0, -2], "to": [0, -1]})
    assert "step" in flow.view()["open_forms"]["Ann"] and "step" not in flow.view()["open_forms"]["Bob"]
    first = flow.report("Ann", "step", {"from": [0, -1], "to": [0, 0]})
    second = flow.report("Ann", "step", {"from": [0, 0], "to": [0, -1]})
    view = flow.view()
    assert view["turn"] == "Bob" and not [f for f in view["findings"] if f["severity"] != "info"]
    assert {f["seq"]: f["what"] for f in view["findings"] if f["seq"] in (first.seq, second.seq)} == {
        first.seq: "106 Capella and 001 Galactic Center are joined by a full wormhole",
        second.seq: "001 Galactic Center and 106 Capella are joined by a full wormhole"}
    _refused(flow, "Bob", [0, 2], [0, 0])  # someone else's Move is not Bob's
    flow.report("Bob", "upgrade", {})
    assert str(_refused(flow, "Ann", [0, -1], [0, 0])) == NO_MOVE["en"]
    flow.report("Ann", "move", {"from": [0, -1], "to": [0, 0]})
    assert flow.undo_report("Ann") is not None  # the Move withdrawn
    assert str(_refused(flow, "Ann", [0, 0], [0, -1])) == NO_MOVE["en"]


@pytest.mark.parametrize("lang", ["en", "el", "pl", "hu"])
def test_after_passing_a_step_needs_a_move_reaction(store, lang):
    """Ann Moves, Bob upgrades, Ann passes: her step is refused, saying she passed and what to report (a Move as a
    reaction: Passing). Bob upgrades; Ann reacts with a Move: its step is taken."""
    flow = _set_up(store)
    flow.report("Ann", "move", {"from": [0, -2], "to": [0, -1]})
    flow.report("Bob", "upgrade", {})
    flow.report("Ann", "pass", {})
    said = i18n.say(_refused(flow, "Ann", [0, -1], [0, 0]), lang)
    assert said == i18n.say(i18n.Text(
        "{player} has passed and {player}'s latest action is not a Move: after passing, ships move only in a Move "
        "taken as a reaction (Passing), which ends with the next action or pass; report the Move first",
        player="Ann"), lang)
    assert said.startswith("Ann ") and (lang == "en") == ("report the Move first" in said)
    flow.report("Bob", "upgrade", {})
    flow.report("Ann", "move", {})  # a Move reaction
    assert flow.report("Ann", "step", {"from": [0, -1], "to": [0, 0]}).kind == "ship_moved"


def test_the_phone_answers_a_step_without_its_move_with_409(store):
    """Posted as a phone posts it: 409 (the table has moved on from the Move), with the reason; nothing recorded."""
    from tests.test_desk import ANN_PHONE, act, box

    flow = _set_up(store)
    loop = box(flow)
    act(loop, "claim_seat", player="Ann", client=ANN_PHONE)
    before = flow.session.last_seq
    step = {"form": "step", "values": {"from": [0, -1], "to": [0, 0]}}
    answer = act(loop, "report", player="Ann", client=ANN_PHONE, **step)
    assert answer["status"] == 409 and answer["recorded"] == [] and "report the Move first" in str(answer["error"])
    assert flow.session.last_seq == before
    assert act(loop, "report", player="Ann", client=ANN_PHONE, form="move",
               values={"from": [0, -2], "to": [0, -1]})["status"] == 200
    assert act(loop, "report", player="Ann", client=ANN_PHONE, **step)["status"] == 200


PASSED_NO_MOVE = {
    "en": "Ann has passed and Ann's latest action is not a Move: after passing, ships move only in a Move taken as a "
          "reaction (Passing), which ends with the next action or pass; report the Move first",
    "el": "Ann έχει πάει πάσο και η τελευταία ενέργεια που έκανε Ann δεν είναι Μετακίνηση: μετά το πάσο, τα σκάφη "
          "μετακινούνται μόνο με Μετακίνηση ως αντίδραση (Πάσο), η οποία τελειώνει με την επόμενη ενέργεια ή το "
          "επόμενο πάσο· δηλώστε πρώτα τη Μετακίνηση",
    "pl": "Ann jest po spasowaniu, a ostatnią akcją (Ann) nie jest Ruch: po spasowaniu statki poruszają się tylko w "
          "Ruchu wykonanym jako reakcja (Pasowanie), który kończy się wraz z następną akcją lub spasowaniem; najpierw "
          "zgłoś Ruch",
    "hu": "Ann passzolt, és Ann legutóbbi akciója nem Mozgás: passzolás után a hajók csak reakcióként végrehajtott "
          "Mozgással mozognak (Passzolás), amely a következő akcióval vagy passzolással véget ér; előbb jelentsd a "
          "Mozgást",
}


@pytest.mark.parametrize("lang", ["en", "el", "pl", "hu"])
def test_a_move_reaction_ended_by_the_next_action_is_not_said_to_be_no_move_since_passing(store, lang):
    """Ann passes; on her next turn she reacts with a Move (Passing) and takes a step of it; Bob upgrades, which ends
    her Move. Her next step is refused, and the reason does not say she has not moved since passing (she has): her
    latest action is not a Move, and a reaction Move ends with the next action or pass."""
    flow = _set_up(store)
    flow.report("Ann", "pass", {})
    flow.report("Bob", "upgrade", {})
    flow.report("Ann", "move", {"from": [0, -2], "to": [0, -1]})  # a Move reaction
    flow.report("Ann", "step", {"from": [0, -1], "to": [0, 0]})
    flow.report("Bob", "upgrade", {})
    assert i18n.say(_refused(flow, "Ann", [0, 0], [0, -1]), lang) == PASSED_NO_MOVE[lang]
