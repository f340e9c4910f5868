"""Eclipse's Action phase as the phones see it: who may act now, and why an action, a pass or one more step of a Move
is closed to a player (the flow sees only the engine's view; the rules are :mod:`rules.eclipse.rounds`').

Eclipse 1.2, Action phase: on their turn a player takes one action or passes; after passing, only a reaction (Upgrade,
Build or Move) on their own turns, and such a turn with no reaction goes by when the next player acts (Passing), so a
passed player's phone offers no second pass. A Move is several ship activations, each moving one ship
as far as its drives allow (Move action; Rise of the Ancients p.4, Ship activation), so its further steps belong to
the Move that is the player's latest action (the view's ``moving``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.i18n import Text
from rules import Progress
from rules.eclipse.rounds import ACTIONS, REACTIONS, holders_now
from rules.eclipse.words import ACTION_WORDS

__all__ = ["holders", "may_step", "passed_already", "passed_holders", "turn_closed_why", "waits_for_marker"]


def holders(view: Mapping[str, Any]) -> list[str]:
    """The players who may act now in the Action phase: the passed players who may react before the turn's player
    (the view's ``may_react``) and the turn's player, or the marker holders but one who waits to hand the marker on
    (:attr:`rules.eclipse.rounds.Rounds.holders`)."""
    markers = view.get("markers")
    if markers:
        return [markers[which] for which in ("first", "second") if not markers.get(f"{which}_waits")]
    return [*(view.get("may_react") or ()), view["turn"]] if view.get("turn") else []


def passed_already(view: Mapping[str, Any], progress: Progress, player: str) -> bool:
    """Whether ``player`` has passed this Action phase and holds no Action marker: a second pass is not needed
    (Eclipse 1.2, Passing: after passing only reactions, on one's own turns, and a turn with no reaction goes by when
    the next player acts; :func:`rules.eclipse.rounds.passed_again`), so the phone does not offer one. A passed player
    holding an Action marker in simultaneous play (:func:`passed_holders`) is offered Pass: it hands the marker on."""
    return (progress.stage == "action" and player in (view.get("passed") or ())
            and player not in passed_holders(view))


def passed_holders(view: Mapping[str, Any]) -> list[str]:
    """Simultaneous play: the marker holders who may act now (:func:`holders`) and have passed. Rise of the Ancients
    p.13: "the game follows the basic rules, with the following changes", and none of them is about passing but the
    first passer's markers for the next round; so the basic rules' Passing holds: a passed player still gets turns,
    here a marker, and with it reacts (Upgrade, Build or Move, one activation) or lets it go by, and either way hands
    the marker on at once (p.13: "after taking an action, hand the marker clockwise at once"). Nobody else may act
    for them: the next player waits for the marker. ``[]`` in normal play."""
    if not view.get("markers"):
        return []
    passed = view.get("passed") or ()
    return [p for p in holders(view) if p in passed]


def waits_for_marker(view: Mapping[str, Any], progress: Progress, player: str) -> bool:
    """Simultaneous play, Action phase: whether ``player`` has passed and holds no Action marker they may act with now
    (none, or one they acted with and wait to hand on). Rise of the Ancients p.13: only the marker holders act, and the
    basic rules' Passing holds (a passed player reacts on their own turns), so a passed player's turn is the marker
    reaching them: until it does, no reaction (Upgrade, Build or Move) is theirs to take. False in normal play."""
    return (progress.stage == "action" and bool(view.get("markers")) and player in (view.get("passed") or ())
            and player not in holders(view))


def may_step(view: Mapping[str, Any], progress: Progress, player: str) -> bool:
    """Whether ``player`` may report one more step of a Move: in the Action phase, their Move (a Move reaction after
    passing too) is their latest action (the view's ``moving``: :func:`rules.eclipse.rounds.may_step`)."""
    return progress.stage == "action" and player in (view.get("moving") or ())


def turn_closed_why(form: str, view: Mapping[str, Any], progress: Progress, player: str) -> str | None:
    """Why the Action phase closes ``form`` (a form id) to ``player``, in the rules' words, or None when it does not
    say: Explore, Influence or Research after passing (only reactions are left: Eclipse 1.2, Passing); one more step
    of a Move without that Move (:func:`may_step`); a reaction by a passed player without an Action marker in
    simultaneous play (:func:`waits_for_marker`); a second pass by a player who has passed."""
    if progress.stage != "action":
        return None
    if form in REACTIONS and waits_for_marker(view, progress, player):
        return Text("{player} has passed and holds no Action marker: in simultaneous play a passed player reacts "
                    "(Upgrade, Build or Move) only when an Action marker reaches them (Rise of the Ancients p.13, "
                    "with the basic rules' Passing; {now})", player=player, now=holders_now(holders(view)))
    if form in ACTIONS and form not in REACTIONS and player in (view.get("passed") or ()):
        return Text("{player} has passed: only a reaction (Upgrade, Build or Move) is allowed, not {action}",
                    player=player, action=ACTION_WORDS[form])
    if form == "step" and not may_step(view, progress, player):
        if player in (view.get("passed") or ()):
            return Text("{player} has passed and {player}'s latest action is not a Move: after passing, ships move "
                        "only in a Move taken as a reaction (Passing), which ends with the next action or pass; "
                        "report the Move first", player=player)
        return Text("{player} has no Move under way: one more step belongs to the Move that is {player}'s latest "
                    "action (Move action: each activation moves one ship as far as its drives allow); report the Move "
                    "first", player=player)
    if form == "pass" and passed_already(view, progress, player):
        now = (holders_now(holders(view)) if view.get("markers")
               else Text("it is {player}'s turn", player=view.get("turn")))
        return Text("{player} has already passed this round: after passing, a player only reacts (Upgrade, Build or "
                    "Move) on their own turns, and a turn with no reaction goes by when the next player acts ({now})",
                    player=player, now=now)
    return None
