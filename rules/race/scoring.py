"""Race for the Galaxy final scoring: VP chips + printed VP + cost-6 development bonuses.

Digest §7: score = VP chips + printed VP of every tableau card + the bonus of each cost-6
("?") development. A cost-6 development's ``vp_bonus`` rules are tried *in order* for
every card of its owner's tableau (itself included); a card scores the first rule it
matches and no other. Global rules count once: ``three_vp_chips`` (1 per 3 chips,
rounded down) and ``military_strength`` (the owner's plain Military, may be negative).
Tie-break: cards in hand + goods on worlds; still tied, all tied players win.

The input is one game record, the shape of one line of ``keldon_oracle_games.jsonl``
(schema: ``schemas/race-score-input.schema.json``)::

    {"players": [{"name": "Ann", "chips": 12, "hand": 3,
                  "tableau": [{"card": "Old Earth", "goods": 0}, "Gem World", ...]}, ...]}

Other keys (the oracle's own ``vp``, ``bonus``, ``total``, ``winner``...) are ignored.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rules.core import RulesError, ScoreBreakdown, ScoreLine
from rules.race.cards import Card, CardSet, VpRule, cards, facts
from rules.scoring import Fields, ScoreInputError, check_distinct_names, field_path, winners
from rules.text import N_, Listing, Text, in_game, plural

__all__ = [
    "BONUS",
    "CHIPS",
    "DEVELOPMENTS",
    "WORLDS",
    "PlayerRecord",
    "final_scores",
    "military_strength",
    "read_game",
    "score_player",
    "six_cost_bonus",
    "winners",
]

CHIPS, DEVELOPMENTS, WORLDS = Text("VP chips"), in_game("Race for the Galaxy", "developments"), Text("worlds")
"""Score categories, as Race for the Galaxy names them (developments in its own words: the Polish rulebook's
"technologie"); each cost-6 development adds ``"<name> bonus"``."""
BONUS = N_("{development} bonus")


@dataclass(frozen=True)
class PlayerRecord:
    """One player's end-of-game position as the scorer needs it."""

    name: str
    chips: int
    tableau: tuple[Card, ...]
    goods: int  # goods lying on worlds (tie-break)
    hand: int  # cards in hand (tie-break)


def military_strength(tableau: Sequence[Card]) -> int:
    """Total non-specialised Military: the sum of plain phase-III ``EXTRA_MILITARY`` powers.

    Powers qualified against Alien, Rare or Rebel worlds and New Military Tactics'
    one-off discard do not count (cards.json ``_meta.schema.per_values.military_strength``).
    """
    return sum(p.value for card in tableau for p in card.powers_in(3) if p.code == ("EXTRA_MILITARY",))


def _matches(rule: VpRule, card: Card) -> bool:  # noqa: C901 - a flat {per: test} dispatch, one branch per rule kind
    per = rule.per
    if per == "production_world":
        return card.is_world and card.is_production and rule.goods in (None, card.goods)
    if per == "windfall_world":
        return card.is_world and card.is_windfall and rule.goods in (None, card.goods)
    if per == "development_with_power":
        return card.is_development and bool(card.powers_in(rule.phase or 0))
    if per == "world_with_power":
        return card.is_world and bool(card.powers_in(rule.phase or 0))
    if per == "development_with_trade_power":
        return card.is_development and any(p.is_trade for p in card.powers)
    if per == "world_with_trade_power":
        return card.is_world and any(p.is_trade for p in card.powers)
    if per == "development_with_consume_power":
        return card.is_development and any(p.is_consume for p in card.powers)
    if per == "world_with_consume_power":
        return card.is_world and any(p.is_consume for p in card.powers)
    if per == "six_cost_development":
        return card.is_six_cost
    if per == "development":
        return card.is_development
    if per == "world":
        return card.is_world
    if per == "alien_card":
        return card.is_alien
    if per == "military_world":
        return card.is_world and card.military
    if per == "rebel_military_world":
        return card.is_world and card.military and card.is_rebel
    if per == "card_named":
        return card.name == rule.name
    raise RulesError(f"cards.json: unknown vp_bonus rule per={per!r}")


def six_cost_bonus(development: Card, tableau: Sequence[Card], chips: int) -> tuple[int, str]:
    """The bonus VP of one cost-6 ``development`` in ``tableau``, and how it was counted, said in the players'
    language.

    Returns:
        (VP, detail), detail like ``"Genes production world: 3 x 2 VP + military world: 1 x 1 VP"``.
    """
    total = 0
    parts: list[Any] = []
    for rule in development.vp_bonus:
        if not rule.is_global:
            continue
        if rule.per == "three_vp_chips":
            count = chips // 3
            what: Any = Text("{chips} VP in chips / 3", chips=chips)
        elif rule.per == "military_strength":
            count = military_strength(tableau)
            what = rule.describe()
        else:
            raise RulesError(f"cards.json: unknown global vp_bonus rule {rule.per!r}")
        total += rule.points * count
        parts.append(Text("{what}: {count} x {points} VP", what=what, count=count, points=rule.points))
    matched: Counter[VpRule] = Counter()
    for card in tableau:
        for rule in development.vp_bonus:
            if not rule.is_global and _matches(rule, card):
                matched[rule] += 1
                break
    for rule in development.vp_bonus:
        if matched[rule]:
            total += rule.points * matched[rule]
            parts.append(Text("{what}: {count} x {points} VP", what=rule.describe(), count=matched[rule],
                              points=rule.points))
    return total, Listing(parts, " + ") if parts else Text("nothing counted")


def score_player(player: PlayerRecord) -> ScoreBreakdown:
    """One player's breakdown (digest §7): lines ``VP chips``, ``developments`` and ``worlds``
    (printed VP), then ``<development> bonus`` for each cost-6 development in tableau order.
    The tie-break is cards in hand + goods on worlds."""
    worlds = [c for c in player.tableau if c.is_world]
    developments = [c for c in player.tableau if c.is_development]
    lines = [
        ScoreLine(CHIPS, player.chips, plural("{n} VP in chips", "{n} VP in chips", player.chips)),
        ScoreLine(DEVELOPMENTS, sum(c.vp for c in developments), " + ".join(f"{c.name} {c.vp}" for c in developments)),
        ScoreLine(WORLDS, sum(c.vp for c in worlds), " + ".join(f"{c.name} {c.vp}" for c in worlds)),
    ]
    for development in developments:
        if development.is_six_cost:
            vp, detail = six_cost_bonus(development, player.tableau, player.chips)
            lines.append(ScoreLine(Text(BONUS, development=development.name), vp, detail))
    return ScoreBreakdown(player=player.name, lines=tuple(lines), tiebreak=(player.hand + player.goods,))


def read_game(game: Any, deck: CardSet | None = None) -> tuple[PlayerRecord, ...]:
    """Check a game record and turn it into :class:`PlayerRecord` s.

    Raises:
        ScoreInputError: naming the field (``players[0].tableau[2].card``) and, for an
            unknown card name, suggesting close matches.
    """
    deck = deck or cards()
    top = Fields(game, "")
    raw_players = top.list("players")
    limits = facts()["players"]
    if not limits["min"] <= len(raw_players) <= limits["max"]:
        raise ScoreInputError.coded("players", "race.player_count", low=limits["min"], high=limits["max"],
                                    count=len(raw_players))
    goods_max = facts()["goods_per_world"]["value"]
    chips_max = vp_chips_in_box()
    players: list[PlayerRecord] = []
    copies: Counter[str] = Counter()
    for i, raw in enumerate(raw_players):
        f = Fields(raw, field_path("players", i))
        name = f.str("name")
        check_distinct_names([p.name for p in players] + [name])
        chips = f.int("chips", low=0, high=chips_max)
        hand = f.int("hand", low=0, default=0)
        raw_tableau = f.list("tableau")
        if not raw_tableau:
            raise ScoreInputError.coded(f.path("tableau"), "race.empty_tableau")
        tableau: list[Card] = []
        goods = 0
        for j, entry in enumerate(raw_tableau):
            at = field_path(f.path("tableau"), j)
            if isinstance(entry, str):
                card_field, card, good = at, deck.lookup(entry, at), 0
            else:
                e = Fields(entry, at)
                card_field = e.path("card")
                card = deck.lookup(e.get("card"), card_field)
                good = e.int("goods", low=0, high=goods_max, default=0)
                if good and not (card.is_world and card.goods):
                    raise ScoreInputError.coded(e.path("goods"), "race.no_goods", card=card.name)
            if card.is_development and card in tableau:
                raise ScoreInputError.coded(card_field, "race.second_development", card=repr(card.name))
            copies[card.name] += 1
            if copies[card.name] > card.count:
                raise ScoreInputError.coded(card_field, "race.too_many_copies", card=repr(card.name),
                                            count=copies[card.name], most=card.count)
            tableau.append(card)
            goods += good
        players.append(PlayerRecord(name=name, chips=chips, tableau=tuple(tableau), goods=goods, hand=hand))
    held = sum(p.chips for p in players)
    if held > chips_max:
        raise ScoreInputError.coded("players", "vp_chips_in_box", held=held, most=chips_max,
                                    chips=_chips_note(len(players)))
    return tuple(players)


def vp_chips_in_box() -> int:
    """VP of all the chips in the box (digest §1: 18 x 1, 6 x 5, 4 x 10 = 88 VP).

    The pool is 12 VP per player (digest §2); once it is empty the 10s and the leftover
    chips set aside still pay out (digest §6), so no player, and no table, can hold more.
    """
    chips = facts()["vp_chips"]
    return sum(int(value) * chips[value] for value in ("1", "5", "10"))


def _chips_note(players: int) -> Text:
    per = facts()["vp_pool_per_player"]["value"]
    return Text("a pool of {per} VP per player = {pool} VP, then the 10s and leftover chips set aside; Race for the "
                "Galaxy setup, VP chips", per=per, pool=per * players)


def final_scores(game: Any) -> list[ScoreBreakdown]:
    """Every player's final score breakdown, in the order of ``game["players"]``.

    ``winners(final_scores(game))`` names the winner(s) with the tie-break applied.

    Raises:
        ScoreInputError: the record cannot be scored; the message names the field.
    """
    return [score_player(p) for p in read_game(game)]
