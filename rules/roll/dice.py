"""Counts of Roll for the Galaxy dice by colour, as an immutable value."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from rules.roll.data import COLOURS

__all__ = ["Dice"]


@dataclass(frozen=True)
class Dice:
    """How many dice of each colour (``COLOURS`` order) sit in one place: cup, Citizenry, a column...

    Immutable: ``+``/``-`` and :meth:`add` return new values. Subtraction never goes below 0
    per colour; use :meth:`covers` first when the difference matters.
    """

    counts: tuple[int, ...] = (0,) * len(COLOURS)

    @classmethod
    def of(cls, mapping: Mapping[str, int] | None = None, **colours: int) -> Dice:
        """``Dice.of({"white": 3})`` or ``Dice.of(white=3)``. Unknown colours raise ``KeyError``."""
        merged = dict(mapping or {}, **colours)
        for colour in merged:
            if colour not in COLOURS:
                raise KeyError(colour)
        return cls(tuple(int(merged.get(c, 0)) for c in COLOURS))

    @classmethod
    def from_list(cls, colours: Iterable[str]) -> Dice:
        """Counts of a list of colour names (``["red", "red", "blue"]``)."""
        counts = dict.fromkeys(COLOURS, 0)
        for colour in colours:
            if colour not in counts:
                raise KeyError(colour)
            counts[colour] += 1
        return cls(tuple(counts[c] for c in COLOURS))

    def __getitem__(self, colour: str) -> int:
        return self.counts[COLOURS.index(colour)]

    def __add__(self, other: Dice) -> Dice:
        return Dice(tuple(a + b for a, b in zip(self.counts, other.counts, strict=True)))

    def __sub__(self, other: Dice) -> Dice:
        return Dice(tuple(max(0, a - b) for a, b in zip(self.counts, other.counts, strict=True)))

    def add(self, colour: str, n: int = 1) -> Dice:
        """These dice with ``n`` more of ``colour`` (``n`` may be negative; floors at 0)."""
        return self + Dice.of({colour: n}) if n >= 0 else self - Dice.of({colour: -n})

    def covers(self, other: Dice) -> bool:
        """Whether every colour here is at least as many as in ``other``."""
        return all(a >= b for a, b in zip(self.counts, other.counts, strict=True))

    @property
    def total(self) -> int:
        return sum(self.counts)

    @property
    def colours(self) -> tuple[str, ...]:
        """The colours present (count > 0), in ``COLOURS`` order."""
        return tuple(c for c, n in zip(COLOURS, self.counts, strict=True) if n)

    def to_json(self) -> dict[str, int]:
        """``{colour: count}`` for the colours present."""
        return {c: n for c, n in zip(COLOURS, self.counts, strict=True) if n}

    def describe(self) -> str:
        """``"2 red, 1 blue"`` (``"none"`` when empty)."""
        return ", ".join(f"{n} {c}" for c, n in zip(COLOURS, self.counts, strict=True) if n) or "none"

    def __repr__(self) -> str:
        return f"Dice({self.to_json()!r})"

    def as_mapping(self) -> dict[str, Any]:
        return {c: n for c, n in zip(COLOURS, self.counts, strict=True)}
