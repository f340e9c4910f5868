"""Eclipse combat dice: one ship type's volley, which dice hit and the damage; Rise of the Ancients' additions.

The rules (Eclipse, Combat; Rise of the Ancients p.4, p.6, p.10, p.17-18):

- Each weapon rolls dice of its colour: yellow (ion) 1 damage, orange (plasma) 2, red (antimatter) 4
  (:data:`DAMAGE`). Missiles fire first, in their own volley (Plasma Missiles roll orange dice, Rise of the
  Ancients' Flux Missiles yellow ones).
- A die hits a target when ``face + attacker's computers - target's shields >= 6``; a 6 always hits and a
  1 always misses (:func:`hits`). Shields are given as positive numbers (the blueprint's -1 is 1).
- Distortion Shield: enemy missiles get -2 to hit (p.4).
- Antimatter Splitter: a red die's 4 damage may be split among targets, each of which that die's roll
  must hit (p.4, p.17 example: a 5 splits into two hits that destroy two Cruisers).
- Point Defense: after the opponent has rolled one ship type's missiles and assigned them, fire every
  cannon once at the missiles aimed at your own ships; your computers count, their shields do not; each
  hit destroys one missile (with Antimatter Splitter a red die destroys up to 4) (p.4, p.17-18).
- Allies fight on one side; if one ally defends, all do, and win initiative ties (p.10). Ancients always
  defend (p.7).
- Ancients' targeting: they destroy the biggest ship they can, else do as much damage as they can to the
  biggest ship, whoever owns it; between equal targets they hit the player who entered the hex last
  (p.10).

A die read that cannot be (a face outside 1-6, an unknown colour) is a question for the players: the
volley leaves it out and says so (:class:`rules.eclipse.verdict.Verdict` ``impossible_die``), never changes it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rules.eclipse.verdict import Verdict

__all__ = [
    "DAMAGE",
    "FACES",
    "DISTORTION_SHIELD_MALUS",
    "Die",
    "DieResult",
    "Target",
    "Volley",
    "ancients_targets",
    "expected_damage",
    "firing_order",
    "hit_probability",
    "hits",
    "point_defense",
    "resolve_volley",
    "sides",
    "split_antimatter",
]

DAMAGE: Mapping[str, int] = {"yellow": 1, "orange": 2, "red": 4}
"""Damage per hit by die colour: ion cannon (yellow) 1, plasma (orange) 2, antimatter (red) 4."""

FACES = (1, 2, 3, 4, 5, 6)
"""The faces of a combat die, as the rules count them (a 6 always hits, a 1 always misses)."""

DISTORTION_SHIELD_MALUS = 2
"""Enemy missiles' malus to hit a ship with Distortion Shield (Rise of the Ancients p.4)."""

COMBAT = "Combat (dice, computers and shields)"
RARE = "Rise of the Ancients p.4 Rare Technologies"


@dataclass(frozen=True)
class Die:
    """One combat die as read: its ``colour`` (yellow, orange, red) and ``face`` (1-6)."""

    colour: str
    face: int

    @property
    def damage(self) -> int:
        """Damage of a hit: :data:`DAMAGE` of its colour (KeyError for an unknown colour)."""
        return DAMAGE[self.colour]

    def to_json(self) -> dict[str, Any]:
        return {"colour": self.colour, "face": self.face}


@dataclass(frozen=True)
class DieResult:
    """A die of a volley: whether it hits, and its damage (0 on a miss)."""

    die: Die
    hit: bool

    @property
    def damage(self) -> int:
        return self.die.damage if self.hit else 0

    def to_json(self) -> dict[str, Any]:
        return {**self.die.to_json(), "hit": self.hit, "damage": self.damage}


@dataclass(frozen=True)
class Volley:
    """One ship type's volley against one target's shields: each readable die's result, the questions.

    Attributes:
        results: the readable dice, in the order read, each with whether it hits.
        questions: verdicts on dice that cannot be (left out of the results).
    """

    results: tuple[DieResult, ...]
    questions: tuple[Verdict, ...] = ()

    @property
    def hits(self) -> int:
        """How many dice hit."""
        return sum(1 for r in self.results if r.hit)

    @property
    def damage(self) -> int:
        """Total damage of the hits."""
        return sum(r.damage for r in self.results)

    def to_json(self) -> dict[str, Any]:
        """``{"dice": [{"colour", "face", "hit", "damage"}], "hits", "damage"}``."""
        return {"dice": [r.to_json() for r in self.results], "hits": self.hits, "damage": self.damage}


def hits(face: int, computers: int = 0, shields: int = 0) -> bool:
    """Whether a die showing ``face`` hits: a 6 always, a 1 never, else ``face + computers - shields >= 6``."""
    if face == 6:
        return True
    if face == 1:
        return False
    return face + computers - shields >= 6


def hit_probability(computers: int = 0, shields: int = 0) -> Fraction:
    """The chance one die hits (exact): the faces 1-6 that :func:`hits`, over 6 (from 1/6 to 5/6)."""
    return Fraction(sum(1 for face in range(1, 7) if hits(face, computers, shields)), 6)


def expected_damage(colours: Iterable[str], computers: int = 0, shields: int = 0) -> Fraction:
    """The mean damage of a volley of dice of ``colours`` (exact)."""
    p = hit_probability(computers, shields)
    return sum((DAMAGE[c] * p for c in colours), Fraction(0))


def _question(k: int, raw: Any, why: str) -> Verdict:
    return Verdict("impossible_die", True, COMBAT, f"die {k + 1} read as {raw!r}: {why}; left out of the volley",
                   "read it again or tap its face", warning=True)


def resolve_volley(dice: Iterable[Die | Mapping[str, Any]], computers: int = 0, shields: int = 0, *,
                   missiles: bool = False, distortion_shield: bool = False) -> Volley:
    """Which dice of one ship type's volley hit a target, and the damage.

    Args:
        dice: the dice as read (:class:`Die` or ``{"colour", "face"}``).
        computers: the firing ships' computer bonus (+1, +2, ...).
        shields: the target's shields, as a positive number.
        missiles: a missile volley (Distortion Shield applies).
        distortion_shield: the target has Distortion Shield (-2 to hit with missiles).
    """
    malus = DISTORTION_SHIELD_MALUS if missiles and distortion_shield else 0
    results: list[DieResult] = []
    questions: list[Verdict] = []
    for k, raw in enumerate(dice):
        colour = raw.colour if isinstance(raw, Die) else raw.get("colour") if isinstance(raw, Mapping) else None
        face = raw.face if isinstance(raw, Die) else raw.get("face") if isinstance(raw, Mapping) else None
        if colour not in DAMAGE:
            questions.append(_question(k, raw if not isinstance(raw, Die) else raw.to_json(),
                                       f"Eclipse dice are {', '.join(DAMAGE)}"))
            continue
        if not isinstance(face, int) or isinstance(face, bool) or not 1 <= face <= 6:
            questions.append(_question(k, face, "a die shows 1-6"))
            continue
        results.append(DieResult(Die(colour, face), hits(face, computers, shields + malus)))
    return Volley(tuple(results), tuple(questions))


@dataclass(frozen=True)
class Target:
    """A ship (or Orbital, Starbase, Ancient) a volley may hit.

    Attributes:
        name: how players call it (``"Bob's Cruiser"``).
        owner: its player, or ``"Ancients"``.
        size: 1 Interceptor or Starbase, 2 Cruiser, 3 Dreadnought (bigger first for the Ancients' targeting).
        hull: Hull points; the ship is destroyed by more damage than that (``hull + 1``).
        shields: its shields, as a positive number.
        damage: damage already on it.
        entered: when its owner entered the hex (higher: later); breaks ties between equal targets.
    """

    name: str
    owner: str
    size: int = 1
    hull: int = 0
    shields: int = 0
    damage: int = 0
    entered: int = 0

    @property
    def left(self) -> int:
        """Damage still needed to destroy it."""
        return max(0, self.hull + 1 - self.damage)


def split_antimatter(face: int, computers: int, targets: Sequence[Target]) -> list[Target]:
    """The targets a red die showing ``face`` may share its 4 damage among with Antimatter Splitter: those its
    roll hits (Rise of the Ancients p.4: "you must be able to hit all targets with the roll")."""
    return [t for t in targets if hits(face, computers, t.shields)]


def point_defense(cannons: Iterable[Die], computers: int, missiles: int, *, splitter: bool = False) -> int:
    """How many incoming missiles Point Defense destroys (Rise of the Ancients p.4, p.17-18).

    Args:
        cannons: the defender's cannon dice, one roll of each (their computers count; shields do not).
        computers: the defender's computer bonus.
        missiles: the missiles of one ship type aimed at the defender's own ships.
        splitter: Antimatter Splitter: a hitting red die destroys up to 4 missiles (its damage split).
    """
    destroyed = 0
    for die in cannons:
        if hits(die.face, computers, 0):
            destroyed += DAMAGE[die.colour] if splitter and die.colour == "red" else 1
    return min(destroyed, missiles)


def ancients_targets(dice: Sequence[Die], computers: int, targets: Sequence[Target]) -> dict[int, int]:
    """Where the Ancients' hits go (Eclipse, Ancients; Rise of the Ancients p.10): die index -> target index.

    Each round they destroy the biggest ship their hits can (size first; between equal targets, the one whose
    owner entered the hex last), using the largest dice first and none they do not need; hits that can
    destroy nothing more go to the biggest ship each can hit. Misses are not assigned.
    """
    order = sorted(range(len(targets)), key=lambda t: (-targets[t].size, -targets[t].entered, t))
    free = [k for k, d in enumerate(dice) if hits(d.face, computers, min(t.shields for t in targets) if targets else 0)]
    left = {t: targets[t].left for t in range(len(targets))}
    out: dict[int, int] = {}
    destroyed: set[int] = set()
    progress = True
    while progress and free:
        progress = False
        for t in order:
            if t in destroyed:
                continue
            usable = sorted((k for k in free if hits(dice[k].face, computers, targets[t].shields)),
                            key=lambda k: -dice[k].damage)
            if sum(dice[k].damage for k in usable) < left[t]:
                continue
            chosen: list[int] = []
            for k in usable:
                if sum(dice[j].damage for j in chosen) >= left[t]:
                    break
                chosen.append(k)
            for k in sorted(chosen, key=lambda k: dice[k].damage):  # drop a die the kill does not need
                if sum(dice[j].damage for j in chosen if j != k) >= left[t]:
                    chosen.remove(k)
            for k in chosen:
                out[k] = t
                free.remove(k)
            destroyed.add(t)
            progress = True
            break
    for k in free:
        for t in order:
            if t not in destroyed and hits(dice[k].face, computers, targets[t].shields):
                out[k] = t
                break
    return out


def sides(present: Sequence[str], *, alliance: Mapping[str, str | None], defender: str | None) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The defending and attacking players of a battle: allies fight on one side, and if one ally is the
    defender (controls the hex, or was there first) all of them defend (Rise of the Ancients p.10).

    Args:
        present: the players with ships in the hex, in the order they entered.
        alliance: player -> the alliance whose tile they hold face up, or None.
        defender: the player who defends, or None when the Ancients defend (they always do, p.7).
    """
    if defender is None:
        return (), tuple(present)
    team = alliance.get(defender)
    defending = tuple(p for p in present if p == defender or (team is not None and alliance.get(p) == team))
    return defending, tuple(p for p in present if p not in defending)


def firing_order(groups: Sequence[tuple[str, str, int]], defenders: Iterable[str]) -> list[tuple[str, str, int]]:
    """Ship types ``(owner, ship type, initiative)`` in the order they fire: highest initiative first, the
    defending side first on a tie (Rise of the Ancients p.10: allies of a defender win initiative ties too)."""
    defending = set(defenders)
    return sorted(groups, key=lambda g: (-g[2], g[0] not in defending))
