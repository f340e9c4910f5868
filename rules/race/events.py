"""Race for the Galaxy's event kinds (the payload each carries) and the readers of an event's player, card and world.

Every event reports what happened at the table (the round: select, then the selected phases in order I Explore,
II Develop, III Settle, IV Consume, V Produce, then the end of round); the handlers live in :mod:`.tableau` (start
worlds, Develop and Settle, a card discarded for its power), :mod:`.goods` (goods put on worlds and consumed),
:mod:`.vp_pool` (VP chips from the pool) and :mod:`.rounds` (the selection, the phases, hands, the end of round),
and :data:`rules.race.game.RACE_GAME` maps each kind to one.

Event kinds (``payload`` keys; ``player`` is a player name):

- ``start_world`` ``{player, card}``: the start world dealt in setup (Alpha Centauri comes
  with its windfall good unless ``"good": false``).
- ``hand_counted`` ``{player, cards}``: cards in a player's hand, as counted at the table.
- ``actions_selected`` ``{choices: {player: action id or [ids]}}``: the revealed action
  cards; ids are those of game.json (``explore_5``, ``explore_1_1``, ``develop``,
  ``develop_2``, ``settle``, ``settle_2``, ``consume_trade``, ``consume_x2``, ``produce``).
- ``action_chosen`` ``{player, actions: action id or [ids]}``: one player's choice, reported
  on their own (phone); kept hidden until every player has chosen, then revealed together
  exactly as ``actions_selected`` (a player who chooses again before that replaces their choice).
- ``card_placed`` ``{player, card, good?, paid?, method?}``: a development (Develop) or a
  world (Settle) joins the tableau. ``good``: the windfall good placed with it (default:
  yes for windfall worlds). ``paid``: cards discarded to pay, when known. ``method`` for a
  military world: ``"conquer"`` or ``"pay"`` (Contact Specialist); without it, conquered, unless the
  player's Military falls short and their Contact Specialist may pay for that (non-Alien) world.
- ``card_discarded`` ``{player, card}``: a card leaves the tableau (New Military Tactics
  for +3 Military, Colony Ship for a free world).
- ``good_placed`` ``{player, world}`` / ``good_removed`` ``{player, world}``: a good put
  on a world (windfall, Produce) / consumed or sold.
- ``vp_changed`` ``{player, delta}``: VP chips taken, in the Consume phase, from the pool
  (never below 0) and then from the chips set aside (``vp_chips`` ``{player, vp}`` before issue 13).
- ``phase_done`` ``{phase?}``: the current phase is over.
- ``round_ended`` ``{hands?: {player: cards}}``: the round is over; hands after discarding (``round_end``
  before issue 13).
"""

from __future__ import annotations

from rules.core import Severity
from rules.engine import EventContext
from rules.race.cards import Card, cards
from rules.race.state import PlayerState, RaceState
from rules.refusals import wrong_kind
from rules.scoring import ScoreInputError
from rules.text import OR, Listing, Text

__all__ = [
    "ACTIONS_SELECTED",
    "ACTION_CHOSEN",
    "CARD_DISCARDED",
    "CARD_PLACED",
    "GOOD_PLACED",
    "GOOD_REMOVED",
    "HAND_COUNTED",
    "PHASE_DONE",
    "ROUND_ENDED",
    "START_WORLD",
    "VP_CHANGED",
    "card_of",
    "placed_card",
    "player_of",
    "world_of",
]

START_WORLD = "start_world"
HAND_COUNTED = "hand_counted"
ACTIONS_SELECTED = "actions_selected"
ACTION_CHOSEN = "action_chosen"
CARD_PLACED = "card_placed"
CARD_DISCARDED = "card_discarded"
GOOD_PLACED = "good_placed"
GOOD_REMOVED = "good_removed"
VP_CHANGED = "vp_changed"
PHASE_DONE = "phase_done"
ROUND_ENDED = "round_ended"


def player_of(state: RaceState, ctx: EventContext, key: str = "player") -> PlayerState:
    """The event's player (``event.player``, else ``payload[key]``). Raises BadEvent for a name not at the table."""
    return state.player(ctx.player(key))


def card_of(ctx: EventContext, key: str) -> Card:
    """The card named by ``payload[key]`` (exact, else ignoring case and spaces around it; Race for the Galaxy,
    Components: the base game's 95 cards).

    Raises:
        BadEvent: the field not given, not text, or no card of that name, naming the field as the phone's form labels
            it ("Start world", "World") and up to three close card names.
    """
    value = ctx.require(key)
    if not isinstance(value, str):
        raise wrong_kind(ctx, value, ctx.word(key), Text("a card's name"))
    try:
        return cards().lookup(value, key)
    except ScoreInputError as error:
        if error.suggestions:
            raise ctx.bad(Text("{what}: no card is named {value}; did you mean {names}?", what=ctx.word(key),
                               value=repr(value), names=Listing([repr(s) for s in error.suggestions], OR))) from None
        raise ctx.bad(Text("{what}: no card is named {value}", what=ctx.word(key), value=repr(value))) from None


def placed_card(ctx: EventContext, player: PlayerState, card: Card, rule: str) -> int | None:
    """The index of ``card`` in ``player``'s tableau, or None after an error finding "{card} is not in {player}'s
    tableau" at ``"{player}: {card}"`` citing ``rule`` (the rulebook section of the event's use of the card: Race for
    the Galaxy, "three uses of a card" for a good on a world, "card powers" for a card discarded for its power)."""
    index = player.find(card.name)
    if index is None:
        ctx.finding(Text("{card} is not in {player}'s tableau",
                         card=card.name, player=player.name), f"{player.name}: {card.name}", Severity.ERROR, rule)
    return index


def world_of(state: RaceState, ctx: EventContext) -> tuple[PlayerState, Card, int | None]:
    """The event's player, the world named by ``payload["world"]`` and its index in their tableau (None: not there).

    Raises:
        BadEvent: a player not at the table, or no card of that name (with the closest card names).
    """
    player, card = player_of(state, ctx), card_of(ctx, "world")
    return player, card, player.find(card.name)
