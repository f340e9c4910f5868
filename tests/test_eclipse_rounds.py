"""Eclipse rounds (rules/eclipse/rounds.py): nine rounds of Action, Combat, Upkeep, Cleanup; turns, passing,
reactions, the next start player, the Turn Order card (Rise of the Ancients p.9) and simultaneous play (p.13)."""

from __future__ import annotations

from dataclasses import replace

from rules.eclipse.rounds import act, choose_direction, end_phase, opposite_seat, pass_turn, start

SEATS = ("Ann", "Bob", "Cy", "Dee")


def kinds(verdicts) -> list[str]:
    return [v.rule_kind for v in verdicts]


def run(r, *plays):
    """Apply ``(player, action or "pass")`` plays; the verdicts of each."""
    out = []
    for player, what in plays:
        r, verdicts = pass_turn(r, player) if what == "pass" else act(r, player, what)
        out.append(kinds(verdicts))
    return r, out


def test_the_start_player_acts_first_then_clockwise_and_the_first_to_pass_starts_next():
    r = start(SEATS)
    assert (r.round, r.phase, r.current, r.waiting) == (1, "action", "Ann", SEATS)
    r, said = run(r, ("Ann", "explore"), ("Bob", "influence"), ("Cy", "pass"), ("Dee", "research"), ("Ann", "build"),
                  ("Bob", "pass"), ("Cy", "move"), ("Dee", "pass"))
    # Cy passed first; after passing a Move is a reaction (an Upgrade, Build or Move), allowed
    assert all(v == [] for v in said)
    assert r.passed == ("Cy", "Bob", "Dee") and r.next_start == "Cy" and r.current == "Ann" and r.waiting == ("Ann",)
    r, said = run(r, ("Ann", "pass"))
    assert r.phase == "combat" and r.current is None and r.waiting == ()
    for phase in ("upkeep", "cleanup", "action"):
        r, verdicts = end_phase(r)
        assert r.phase == phase and verdicts == []
    assert (r.round, r.start, r.current, r.passed) == (2, 2, "Cy", ())


def test_a_passed_player_only_reacts_and_a_turn_out_of_order_is_a_question():
    r, said = run(start(SEATS), ("Ann", "pass"), ("Bob", "pass"), ("Cy", "pass"), ("Dee", "explore"),
                  ("Ann", "research"))
    assert said[-1] == ["reaction_only"]  # Ann passed: Research is no reaction
    r2, said = run(start(SEATS), ("Cy", "explore"))
    assert said == [["out_of_turn"]] and r2.current == "Dee"  # the turn goes on from the player who acted
    assert "it is Ann's turn" in act(start(SEATS), "Cy", "move")[1][0].message
    r3, verdicts = act(replace(start(SEATS), phase="combat"), "Ann", "move")
    assert kinds(verdicts) == ["not_action_phase"] and r3.phase == "combat"


def test_passing_again_is_a_turn_without_a_reaction():
    r, said = run(start(SEATS), ("Ann", "pass"), ("Bob", "explore"), ("Cy", "explore"), ("Dee", "explore"),
                  ("Ann", "pass"))
    assert said == [[]] * 5 and r.passed == ("Ann",) and r.current == "Bob"


def test_nine_rounds_then_the_end():
    r = start(SEATS)
    for _ in range(8 * 4):
        r, _ = end_phase(r)  # the Action phase ended by the table (a warning while players have not passed)
    assert (r.round, r.phase) == (9, "action")
    r, verdicts = end_phase(r)
    assert kinds(verdicts) == ["players_still_acting"]
    for _ in range(3):
        r, _ = end_phase(r)
    assert r.over and r.phase == "end"
    assert kinds(end_phase(r)[1]) == ["game_over"]
    short = replace(start(SEATS, last_round_upkeep=False), round=9, phase="combat")
    assert end_phase(short)[0].over  # without round 9's Upkeep and Cleanup the game ends after its Combat


def test_the_turn_order_card_goes_to_the_second_to_pass_who_turns_the_next_round():
    r = start(SEATS, turn_order_card=True)
    r, _ = run(r, ("Ann", "explore"), ("Bob", "pass"), ("Cy", "explore"), ("Dee", "pass"), ("Ann", "pass"),
               ("Cy", "pass"))
    assert r.card_holder == "Dee" and r.phase == "combat"  # Bob first, Dee second
    r, _ = end_phase(r)
    assert kinds(choose_direction(r, "Dee", False)[1]) == ["turn_order_card"]  # in Upkeep: not yet
    r, _ = end_phase(r)
    assert kinds(choose_direction(r, "Bob", False)[1]) == ["turn_order_card"]  # Bob does not hold it
    r, said = choose_direction(r, "Dee", False)
    assert said == []
    r, _ = end_phase(r)
    assert (r.round, r.current, r.clockwise) == (2, "Bob", False)
    r, said = run(r, ("Bob", "explore"))
    assert r.current == "Ann" and said == [[]]  # counter-clockwise: Bob, Ann, Dee, Cy
    assert kinds(choose_direction(start(SEATS), "Ann", True)[1]) == ["turn_order_card"]  # variant not in play


def test_simultaneous_play_two_markers_and_only_the_first_researches():
    seats = tuple(f"P{k}" for k in range(8))
    assert [opposite_seat(0, n) for n in (7, 8, 9)] == [3, 4, 4]
    r = start(seats, simultaneous=True)
    assert r.holders == ("P0", "P4") and r.current == "P0"
    r, said = run(r, ("P4", "research"), ("P0", "research"))
    assert said == [["research_first_marker"], []]
    assert r.holders == ("P1", "P5")
    r, said = run(r, ("P3", "move"))
    assert said == [["out_of_turn"]] and r.holders == ("P1", "P5")  # no marker moves for a player without one


def test_a_marker_waits_while_the_next_player_holds_the_other():
    seats = tuple(f"P{k}" for k in range(7))
    r = replace(start(seats, simultaneous=True), first=2, second=3)
    r, _ = act(r, "P2", "explore")  # the next player, P3, still holds the Second Action marker
    assert (r.first, r.first_waits, r.holders) == (2, True, ("P3",))
    r, _ = act(r, "P3", "move")  # P3 hands its marker to P4, and the waiting First marker comes to P3
    assert (r.first, r.second, r.first_waits) == (3, 4, False)


def test_the_first_to_pass_takes_the_first_action_marker_for_the_next_round():
    seats = tuple(f"P{k}" for k in range(8))
    r = start(seats, simultaneous=True)
    r, _ = pass_turn(r, "P4")  # the Second Action holder passes first
    for k in range(8):
        if seats[k] not in r.passed:
            r = replace(r, first=k, second=(k + 1) % 8)
            r, _ = pass_turn(r, seats[k])
    assert r.phase == "combat"
    for _ in range(3):
        r, _ = end_phase(r)
    assert (r.round, r.first, r.second, r.current) == (2, 4, 0, "P4")  # opposite P4 in 8 seats: P0


def test_a_second_pass_out_of_turn_changes_nothing():
    """Eclipse 1.2, Passing: after passing a player only reacts, on their own turns (a pass then lets such a turn go).
    Ann passed, Bob explored: it is Cy's turn. Ann's second pass now was recorded as an out-of-turn warning and moved
    the turn on from Ann's seat, to Bob, so Cy lost the turn. It is illegal and changes nothing: still Cy's turn."""
    r, said = run(start(SEATS), ("Ann", "pass"), ("Bob", "explore"))
    assert r.current == "Cy" and said == [[], []]
    r2, verdicts = pass_turn(r, "Ann")
    assert kinds(verdicts) == ["passed_again"] and not verdicts[0].legal
    assert "Ann has already passed this round" in verdicts[0].message and "it is Cy's turn" in verdicts[0].message
    assert r2 == r  # the turn stays with Cy, Ann passed once
    r3, said = run(r2, ("Cy", "pass"), ("Dee", "explore"), ("Ann", "pass"))  # on Ann's own turn: letting it go
    assert said == [[], [], []] and r3.current == "Bob" and r3.passed == ("Ann", "Cy")


def test_a_second_pass_out_of_turn_with_the_action_markers_changes_nothing():
    seats = ("P1", "P2", "P3", "P4", "P5", "P6", "P7")
    r = start(seats, simultaneous=True)
    holders = r.holders
    r, _ = pass_turn(r, holders[0])
    out = next(p for p in r.passed if p not in r.holders)
    r2, verdicts = pass_turn(r, out)
    assert kinds(verdicts) == ["passed_again"] and "only the marker holders" in verdicts[0].message and r2 == r


def test_a_holder_waiting_to_hand_on_a_marker_has_acted_and_acts_no_more():
    """Rise of the Ancients p.13 (digest 1.4): after acting a holder hands the marker clockwise at once; if that
    player still holds the other marker, the holder waits until it is handed on. The waiting holder has acted:
    only the other holder acts now. Before, the waiting holder still counted as one who may act: the turn showed
    them, a second action of theirs drew no warning, and in 9 players' last passes their Pass was taken again and
    again without the marker ever moving (590 passes recorded in one Action phase)."""
    seats = tuple(f"P{k}" for k in range(9))
    r = replace(start(seats, simultaneous=True), first=2, second=3)
    r, said = run(r, ("P2", "explore"))
    assert said == [[]] and (r.first, r.first_waits) == (2, True)
    assert r.holders == ("P3",) and r.current == "P3"
    r2, said = run(r, ("P2", "influence"))  # a second action before P3 has acted
    assert said == [["out_of_turn"]]
    r, said = run(r, ("P3", "pass"))  # P3 hands its marker to P4; the waiting First marker comes to P3
    assert said == [[]] and (r.first, r.second, r.first_waits) == (3, 4, False) and r.holders == ("P3", "P4")
    r, said = run(r, ("P3", "pass"))  # P3, having passed, lets the turn go; P4 still holds the other marker
    assert said == [[]] and r.first_waits and r.holders == ("P4",) and r.current == "P4"
    r2, verdicts = pass_turn(r, "P3")  # P3's pass again, waiting: no play, nothing changes
    assert kinds(verdicts) == ["passed_again"] and r2 == r


def test_a_passed_players_turn_goes_by_when_the_next_player_acts():
    """Eclipse, Action phase, Passing: after passing a player only reacts, on their own turns; the phase ends when
    everyone has passed. A turn with no reaction goes by when the next player acts, so nobody passes twice.
    Hand-worked: Ann and Bob pass (Cy's turn); Cy explores: Dee's turn; Dee researches: Ann's and Bob's turns come
    first (each may react), then Cy's, so Cy acts in turn; then Bob reacts with a Build on his turn (Ann's goes by),
    and Cy, whose turn follows Bob's, passes; Dee passes last: Combat, with no warning anywhere."""
    r, said = run(start(SEATS), ("Ann", "pass"), ("Bob", "pass"), ("Cy", "explore"), ("Dee", "research"))
    assert all(v == [] for v in said)
    assert (r.current, r.may_react, r.holders) == ("Cy", ("Ann", "Bob"), ("Ann", "Bob", "Cy"))
    assert r.to_json()["turn"] == "Cy" and r.to_json()["may_react"] == ["Ann", "Bob"]
    r, said = run(r, ("Bob", "build"), ("Cy", "pass"))
    assert said == [[], []] and (r.current, r.may_react) == ("Dee", ())
    r, said = run(r, ("Dee", "pass"))
    assert said == [[]] and r.phase == "combat" and r.next_start == "Ann"


def test_a_passed_player_reacting_after_the_turn_passed_them_is_out_of_turn():
    """Eclipse, Action phase, Passing: reactions are taken on one's own turn. Ann passed; Bob, Cy and Dee act, and
    Ann's turn comes round with Bob after her; Bob explores, so Ann's turn has gone by. Ann's Move then is out of turn
    (a warning, recorded: the table decides) and the turn moves on from her to Bob."""
    r, said = run(start(SEATS), ("Ann", "pass"), ("Bob", "explore"), ("Cy", "explore"), ("Dee", "explore"),
                  ("Bob", "explore"))
    assert all(v == [] for v in said) and (r.current, r.may_react) == ("Cy", ())
    r, said = run(r, ("Ann", "move"))
    assert said == [["out_of_turn"]] and r.current == "Bob" and r.moving == ("Ann",)
