"""Eclipse rounds: nine rounds of Action, Combat, Upkeep and Cleanup; turns, passing, the next start player.

The rules followed (Eclipse, Game round; Rise of the Ancients p.9, p.12-13):

- 9 rounds (:data:`rules.eclipse.data.ROUNDS`), each of four phases in order: Action, Combat, Upkeep,
  Cleanup (:data:`PHASES`). The game ends after round 9 (:data:`LAST_ROUND_UPKEEP`).
- Action phase: the start player acts first, then play goes clockwise. On a turn a player takes one action
  (Explore, Influence, Research, Upgrade, Build, Move; the same one again later is allowed) or passes. A
  player who has passed still gets turns, and may then only take a reaction (a weaker Upgrade, Build or
  Move). The phase ends when every player has passed. A passed player's turn with no reaction goes by when the
  next player acts (:attr:`Rounds.holders`): nobody passes twice in a round.
- The first player to pass is the start player of the next round (:data:`FIRST_TO_PASS_STARTS_NEXT`).
- Turn Order card (variant, p.9): the second player to pass takes it and, at the end of Cleanup, chooses
  clockwise or counter-clockwise play for the next round.
- Simultaneous play (variant for 7-9 players, p.13): the First Action marker starts with the start player,
  the Second Action marker with the player opposite (:func:`opposite_seat`). The two holders act at the
  same time; only the First Action holder may Research. After acting, a holder hands the marker clockwise
  at once, unless the next player still holds the other marker: then it waits until that one is handed on.
  Nobody holds both. The first to pass takes the First Action marker and the start player marker for the
  next round, the Second Action marker goes opposite them. A player who has passed still receives a marker: p.13
  says the variant "follows the basic rules, with the following changes", and none of them is about passing, so
  the basic rules' Passing holds (a passed player's turn: a reaction or nothing); with the marker they react or pass
  again, and either hands it on (:func:`pass_turn`). Nobody acts for them: the next player waits for the marker.
- A Move's further steps (Move action; Rise of the Ancients p.4, Ship activation: a Move is several activations,
  each moving one ship as far as its drives allow, hex by hex) belong to the Move its player took as their latest
  action, after passing too (a Move reaction): :attr:`Rounds.moving` keeps whose Move that is, until the next
  action or pass ends it (in simultaneous play, the next action taken with the same marker) or the phase ends.

Pure: every function returns a new :class:`Rounds` and the verdicts on the play
(:class:`rules.eclipse.verdict.Verdict`); a play off turn is recorded with a warning, never refused.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from rules.eclipse.data import ROUNDS
from rules.eclipse.verdict import Verdict
from rules.eclipse.words import ACTION_WORDS, PHASE_WORDS
from rules.text import AND, N_, Listing, Text, plural

__all__ = [
    "ACTIONS",
    "FIRST_TO_PASS_STARTS_NEXT",
    "LAST_ROUND_UPKEEP",
    "PHASES",
    "REACTIONS",
    "Rounds",
    "act",
    "choose_direction",
    "end_phase",
    "holders_now",
    "may_step",
    "opposite_seat",
    "pass_turn",
    "start",
    "step_verdicts",
]

PHASES = ("action", "combat", "upkeep", "cleanup")
"""The phases of a round, in order."""

ACTIONS = ("explore", "influence", "research", "upgrade", "build", "move")
"""The six actions of the Action phase."""

REACTIONS = ("upgrade", "build", "move")
"""What a player who has passed may still do on their turn (weaker versions of these three)."""

FIRST_TO_PASS_STARTS_NEXT = True
"""The first player to pass is the next round's start player (False: the start player stays). UNCONFIRMED for
the first edition (Second Dawn's rule; the Rise of the Ancients simultaneous variant, p.13, gives the first
passer the start player marker)."""

LAST_ROUND_UPKEEP = True
"""Whether round 9's Upkeep and Cleanup are played before the game ends (the default of the
``last_round_upkeep`` option). UNCONFIRMED for the first edition; they change no VP, only the resources
that break ties."""

ROUND = N_("Game round (Action, Combat, Upkeep, Cleanup)")
TURNS = N_("Action phase (turn order, passing, reactions)")
TURN_ORDER = N_("Rise of the Ancients p.9 Turn Order variant")
SIMULTANEOUS = N_("Rise of the Ancients p.13 Simultaneous play variant")
MOVE = N_("Move action; Rise of the Ancients p.4 Ship activation")


@dataclass(frozen=True)
class Rounds:
    """Where the rounds stand.

    Attributes:
        seats: the players in seat order (clockwise).
        round: 1-9.
        phase: one of :data:`PHASES`, or ``"end"`` after the last round.
        start: the start player's seat.
        turn: the seat whose turn it is in the Action phase (normal play).
        clockwise: play goes clockwise this round (the Turn Order card may turn it).
        passed: the players who have passed this round, in the order they passed.
        turn_order_card: the variant is in play.
        card_holder: who took the Turn Order card this round (the second to pass), or None.
        next_clockwise: the direction the card's holder chose for the next round, or None.
        simultaneous: the simultaneous-play variant is in play.
        first, second: the seats holding the First and Second Action markers (simultaneous play).
        first_waits, second_waits: that marker's holder has acted and waits to hand it on.
        last_round_upkeep: round 9's Upkeep and Cleanup are played.
        moving: the players whose latest action this Action phase is a Move, so one more step of a ship belongs to
            it (:func:`may_step`): one at most in normal play, where any action or pass ends the Move before it;
            in simultaneous play one per marker (a Move ends when the next holder of that marker acts).
        moving_with: for each of :attr:`moving`, the marker its Move was taken with in simultaneous play
            (``"first"``, ``"second"``, or ``""``: none, or normal play).
    """

    seats: tuple[str, ...]
    round: int = 1
    phase: str = "action"
    start: int = 0
    turn: int = 0
    clockwise: bool = True
    passed: tuple[str, ...] = ()
    turn_order_card: bool = False
    card_holder: str | None = None
    next_clockwise: bool | None = None
    simultaneous: bool = False
    first: int = 0
    second: int = 0
    first_waits: bool = False
    second_waits: bool = False
    last_round_upkeep: bool = LAST_ROUND_UPKEEP
    moving: tuple[str, ...] = ()
    moving_with: tuple[str, ...] = ()

    @property
    def over(self) -> bool:
        """The last round has ended."""
        return self.phase == "end"

    @property
    def current(self) -> str | None:
        """Whose turn it is: the turn's player, or the First Action marker's holder (the Second's while the First's
        holder waits to hand it on); None outside the Action phase."""
        if self.phase != "action":
            return None
        if not self.simultaneous:
            return self.seats[self._chain()[-1]]
        return self.seats[self.second if self.first_waits and not self.second_waits else self.first]

    def _chain(self) -> list[int]:
        """Normal play: the seats from the turn's seat, in play order, up to and including the first player who has
        not passed (Eclipse, Action phase, Passing: the passed players on the way may react on their turns; a turn
        with no reaction goes by when a later one acts). Just the turn's seat when nobody on the way has passed."""
        seat, out = self.turn, [self.turn]
        while self.seats[seat] in self.passed and len(out) < len(self.seats):
            seat = _step(self, seat)
            out.append(seat)
        return out

    @property
    def may_react(self) -> tuple[str, ...]:
        """Normal play, Action phase: the players who have passed and whose turn comes before :attr:`current`'s; each
        may react now (Upgrade, Build or Move) or let the turn go by (:attr:`holders`)."""
        if self.phase != "action" or self.simultaneous:
            return ()
        return tuple(self.seats[s] for s in self._chain() if self.seats[s] in self.passed)

    @property
    def holders(self) -> tuple[str, ...]:
        """The players who may act now: the turn's player with the passed players whose turns come first (normal play:
        :attr:`may_react`, then :attr:`current`; Eclipse, Action phase, Passing), or the marker holders (simultaneous
        play) but one who has acted and waits to hand the marker on (Rise of the Ancients p.13: the next player still
        holds the other)."""
        if self.phase != "action":
            return ()
        if self.simultaneous:
            return tuple(self.seats[seat] for seat, waits in ((self.first, self.first_waits),
                                                               (self.second, self.second_waits)) if not waits)
        return tuple(self.seats[s] for s in self._chain())

    @property
    def waiting(self) -> tuple[str, ...]:
        """In the Action phase, the players who have not passed (in seat order)."""
        if self.phase != "action":
            return ()
        return tuple(p for p in self.seats if p not in self.passed)

    @property
    def next_start(self) -> str:
        """The next round's start player: the first to pass (:data:`FIRST_TO_PASS_STARTS_NEXT`), else this round's."""
        return self.passed[0] if self.passed and FIRST_TO_PASS_STARTS_NEXT else self.seats[self.start]

    def to_json(self) -> dict[str, Any]:
        """``{"round", "phase", "start_player", "turn", "may_react", "direction", "passed", "next_start_player",
        "turn_order_card", "markers", "moving"}`` (``turn``: :attr:`current`; ``may_react``: :attr:`may_react`;
        ``markers`` null without simultaneous play; ``moving``: the players whose Move is their latest action, in the
        order they moved)."""
        markers = None
        if self.simultaneous:
            markers = {"first": self.seats[self.first], "second": self.seats[self.second],
                       "first_waits": self.first_waits, "second_waits": self.second_waits}
        return {"round": self.round, "phase": self.phase, "start_player": self.seats[self.start],
                "turn": self.current, "may_react": list(self.may_react),
                "direction": "clockwise" if self.clockwise else "counter-clockwise",
                "passed": list(self.passed), "next_start_player": self.next_start,
                "turn_order_card": self.card_holder, "markers": markers, "moving": list(self.moving)}


def holders_now(holders: tuple[str, ...] | list[str]) -> Text:
    """Who may act now in simultaneous play, said as one holder or two (a holder who waits to hand a marker on is not
    one: :attr:`Rounds.holders`)."""
    return plural("only the marker holder ({holders}) acts now", "only the marker holders ({holders}) act now",
                  len(holders), holders=Listing(holders, AND))


def opposite_seat(seat: int, players: int) -> int:
    """The seat directly opposite ``seat``: ``players // 2`` seats clockwise (with 7 or 9 players, the nearer
    of the two opposite seats going clockwise; the rulebook's diagrams, p.13, were not legible)."""
    return (seat + players // 2) % players


def start(seats: tuple[str, ...], *, turn_order_card: bool = False, simultaneous: bool = False,
          last_round_upkeep: bool = LAST_ROUND_UPKEEP, start_player: int = 0) -> Rounds:
    """Round 1's Action phase, ``start_player`` (a seat) to act first."""
    n = len(seats)
    return Rounds(seats, start=start_player, turn=start_player, turn_order_card=turn_order_card,
                  simultaneous=simultaneous, first=start_player, second=opposite_seat(start_player, n) if n > 1 else 0,
                  last_round_upkeep=last_round_upkeep)


def _step(r: Rounds, seat: int, clockwise: bool | None = None) -> int:
    forward = r.clockwise if clockwise is None else clockwise
    return (seat + (1 if forward else -1)) % len(r.seats)


def _hand_on(r: Rounds, which: str) -> Rounds:
    """Simultaneous play: the ``which`` marker's holder has acted; hand it on clockwise, or wait; then free the
    other marker if it was waiting for this one."""
    mine, other = (r.first, r.second) if which == "first" else (r.second, r.first)
    target = (mine + 1) % len(r.seats)
    if target == other:
        r = replace(r, **{f"{which}_waits": True})
    else:
        r = replace(r, **{which: target, f"{which}_waits": False})
    partner = "second" if which == "first" else "first"
    if getattr(r, f"{partner}_waits"):
        held = r.first if which == "first" else r.second
        theirs = r.second if which == "first" else r.first
        if (theirs + 1) % len(r.seats) != held:
            r = replace(r, **{partner: (theirs + 1) % len(r.seats), f"{partner}_waits": False})
    return r


def _turn_check(r: Rounds, player: str) -> list[Verdict]:
    """Whether ``player`` may act now (a warning when not: the table may have moved on)."""
    if r.phase != "action":
        return [Verdict("not_action_phase", False, ROUND, Text("{player} acts in the {phase} phase; actions and "
                                                               "passes belong to the Action phase of round {round}",
                                                               player=player, phase=PHASE_WORDS.get(r.phase, r.phase),
                                                               round=r.round),
                        Text("end the phase only when everyone has passed"))]
    if player not in r.seats:
        return []
    if player not in r.holders:
        if r.simultaneous:
            why = holders_now(r.holders)
            rule = SIMULTANEOUS
        else:
            why = Text("it is {player}'s turn", player=r.current)
            rule = TURNS
        return [Verdict("out_of_turn", True, rule, Text("{player} acts out of turn: {why}", player=player, why=why),
                        Text("take back the action, or carry on "
                        "if the table agrees"), warning=True)]
    return []


def _advance(r: Rounds, player: str) -> Rounds:
    """After ``player``'s turn: the next player's turn, or the marker handed on."""
    seat = r.seats.index(player)
    if r.simultaneous:
        if seat == r.first:
            return _hand_on(r, "first")
        if seat == r.second:
            return _hand_on(r, "second")
        return r
    return replace(r, turn=_step(r, seat))


def _marker(r: Rounds, player: str) -> str:
    """The Action marker ``player`` acts with in simultaneous play (``"first"``, ``"second"``), or ``""`` (none:
    normal play, or a seat holding neither), as :func:`_advance` hands it on."""
    if not r.simultaneous or player not in r.seats:
        return ""
    seat = r.seats.index(player)
    return "first" if seat == r.first else "second" if seat == r.second else ""


def _acted(before: Rounds, r: Rounds, player: str, move: bool) -> Rounds:
    """``r`` (the rounds after ``player``'s action or pass; ``before``: as they were when it was taken) with
    :attr:`Rounds.moving` after it (``move``: a Move action). In normal play it ends whatever Move came before (a
    player's action is their whole turn: Eclipse, Action phase); in simultaneous play (Rise of the Ancients p.13)
    only ``player``'s own and the one taken with the marker ``player`` acts with (that marker has moved on from it:
    a marker that waits to be handed on keeps the Move taken with it until its next holder acts with it)."""
    marker = _marker(before, player)
    kept = [(p, m) for p, m in zip(r.moving, r.moving_with, strict=True)
            if r.simultaneous and p != player and (not marker or m != marker)]
    if move:
        kept.append((player, marker))
    return replace(r, moving=tuple(p for p, _ in kept), moving_with=tuple(m for _, m in kept))


def may_step(r: Rounds, player: str) -> bool:
    """Whether one more step of a ship reported by ``player`` belongs to a Move: ``player``'s Move (a Move reaction
    after passing too) is their latest action this Action phase (Move action; Rise of the Ancients p.4, Ship
    activation: each activation moves one ship as far as its drives allow)."""
    return r.phase == "action" and player in r.moving


def step_verdicts(r: Rounds, player: str) -> list[Verdict]:
    """The verdict on one more step of a ship (``ship_moved`` on its own) reported by ``player``: none when it belongs
    to their Move (:func:`may_step`), else ``step_without_move`` (illegal: ships move only in a Move action, and a
    Move ends with the next action or pass). The step is recorded all the same (the table decides)."""
    if may_step(r, player):
        return []
    if r.phase != "action":
        return [Verdict("step_without_move", False, MOVE,
                        Text("{player} reports one more step of a Move in the {phase} phase: ships move in a Move "
                             "action, in the Action phase", player=player, phase=PHASE_WORDS.get(r.phase, r.phase)),
                        Text("take the step back"))]
    return [Verdict("step_without_move", False, MOVE,
                    Text("{player} reports one more step of a Move, but {player}'s latest action is not a Move: "
                         "each activation of a Move moves one ship as far as its drives allow, and the Move ends "
                         "with the next action or pass", player=player),
                    Text("report the Move first, or take the step back"))]


def act(r: Rounds, player: str, action: str) -> tuple[Rounds, list[Verdict]]:
    """``player`` takes ``action`` (:data:`ACTIONS`) on their turn; a player who has passed may only react.

    Verdicts: ``not_action_phase`` (illegal, nothing changes), ``out_of_turn`` (a warning; the turn moves on
    from the player who acted), ``reaction_only`` (illegal: a passed player's Explore, Influence or
    Research), ``research_first_marker`` (illegal: simultaneous play, Research without the First Action
    marker).
    """
    verdicts = _turn_check(r, player)
    if r.phase != "action":
        return r, verdicts
    if player in r.passed and action not in REACTIONS:
        verdicts.append(Verdict("reaction_only", False, TURNS,
            Text("{player} has passed: only a reaction (Upgrade, Build or Move) is allowed, not {action}",
                 player=player, action=ACTION_WORDS.get(action, action)),
            Text("take it back; react instead, or let the turn go by")))
    if r.simultaneous and action == "research" and r.seats.index(player) != r.first:
        verdicts.append(Verdict("research_first_marker", False, SIMULTANEOUS,
                                Text("{player} researches without the First Action marker; only its holder may "
                                     "Research", player=player),
                                Text("research when the First Action marker reaches you")))
    return _acted(r, _advance(r, player), player, action == "move"), verdicts


def passed_again(r: Rounds, player: str) -> Verdict | None:
    """The verdict on a pass by ``player`` who has already passed this round, when it is not their turn: it changes
    nothing (Eclipse, Action phase, Passing: after passing a player only takes reactions, on their own turns, and such
    a turn with no reaction goes by when the next player acts), so it is no play; None when the pass is one (not
    passed yet, or their turn: it lets that turn go)."""
    if r.phase != "action" or player not in r.passed or player in r.holders or player not in r.seats:
        return None
    if r.simultaneous:
        now = holders_now(r.holders)
    else:
        now = Text("it is {player}'s turn", player=r.current)
    return Verdict("passed_again", False, TURNS,
                   Text("{player} has already passed this round: after passing, a player only reacts (Upgrade, "
                        "Build or Move) on their own turns, and a turn with no reaction goes by when the next player "
                        "acts ({now})", player=player, now=now),
                   Text("nothing to record: the turn stays where it is"))


def pass_turn(r: Rounds, player: str) -> tuple[Rounds, list[Verdict]]:
    """``player`` passes (or, having passed, lets their turn go without a reaction: in normal play not needed, the next
    player's action lets it go too, :attr:`Rounds.holders`; in simultaneous play it hands on the Action marker the
    passed player holds, Rise of the Ancients p.13 with the basic rules' Passing). The first to pass becomes the next
    start player; with the Turn Order card the second takes the card; once everyone has passed the Combat phase
    begins. A pass by a player who has passed, out of turn, changes nothing (:func:`passed_again`: the turn stays with
    whoever has it)."""
    again = passed_again(r, player)
    if again is not None:
        return r, [again]
    verdicts = _turn_check(r, player)
    if r.phase != "action":
        return r, verdicts
    r = _acted(r, r, player, False)
    if player not in r.passed:
        r = replace(r, passed=r.passed + (player,))
        if r.turn_order_card and len(r.passed) == 2:
            r = replace(r, card_holder=player)
    if set(r.passed) >= set(r.seats):
        return replace(r, phase="combat", moving=(), moving_with=()), verdicts
    return _advance(r, player), verdicts


def choose_direction(r: Rounds, player: str, clockwise: bool) -> tuple[Rounds, list[Verdict]]:
    """The Turn Order card's holder chooses the next round's direction, at the end of Cleanup (p.9)."""
    if not r.turn_order_card:
        return r, [Verdict("turn_order_card", False, TURN_ORDER,
                           Text("the Turn Order variant is not in play; play goes clockwise"),
                           Text("choose the variant at setup"))]
    out: list[Verdict] = []
    if player != r.card_holder:
        out.append(Verdict("turn_order_card", False, TURN_ORDER,
            Text("{player} does not hold the Turn Order card ({holder} does: the second player to pass takes it)",
                 player=player, holder=r.card_holder or Text("nobody")), Text("the holder chooses")))
    if r.phase != "cleanup":
        out.append(Verdict("turn_order_card", False, TURN_ORDER,
            Text("the direction is chosen at the end of Cleanup, not in the {phase} phase",
                 phase=PHASE_WORDS.get(r.phase, r.phase)), Text("choose it when Cleanup ends")))
    if out:
        return r, out
    return replace(r, next_clockwise=clockwise), out


def end_phase(r: Rounds) -> tuple[Rounds, list[Verdict]]:
    """The current phase ends: Action -> Combat -> Upkeep -> Cleanup -> the next round's Action (its start
    player the first to pass, its direction the Turn Order card's choice), or the end after round 9 (after
    its Combat when :attr:`Rounds.last_round_upkeep` is off)."""
    out: list[Verdict] = []
    if r.phase == "end":
        return r, [Verdict("game_over", False, ROUND, Text("the game ended after round {round}",
                                                           round=ROUNDS), Text("score the game"))]
    if r.phase == "action":
        missing = [p for p in r.seats if p not in r.passed]
        if missing:
            out.append(Verdict("players_still_acting", True, TURNS,
                Text("the Action phase ends before {players} passed",
                     players=Listing(missing)), Text("each player passes before Combat"), warning=True))
        return replace(r, phase="combat", moving=(), moving_with=()), out
    if r.round >= ROUNDS and (r.phase == "cleanup" or (r.phase == "combat" and not r.last_round_upkeep)):
        return replace(r, phase="end"), out
    if r.phase != "cleanup":
        return replace(r, phase=PHASES[PHASES.index(r.phase) + 1]), out
    first = r.seats.index(r.next_start)
    clockwise = True
    if r.turn_order_card:
        clockwise = r.next_clockwise if r.next_clockwise is not None else True
        if r.card_holder is not None and r.next_clockwise is None:
            out.append(Verdict("turn_order_card", True, TURN_ORDER,
                Text("{player} chose no direction with the Turn Order card: play goes clockwise",
                     player=r.card_holder), Text("choose before Cleanup ends"), warning=True))
    n = len(r.seats)
    return replace(r, round=r.round + 1, phase="action", start=first, turn=first, clockwise=clockwise, passed=(),
                   card_holder=None, next_clockwise=None, first=first, second=opposite_seat(first, n) if n > 1 else 0,
                   first_waits=False, second_waits=False), out
