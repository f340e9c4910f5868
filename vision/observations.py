"""Result types of the dice readers: one :class:`DieObservation` per die, one :class:`DiceRead` per frame."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class DieObservation:
    """One die found in a frame.

    Attributes:
        kind: die type, ``"d6"``.
        value: face value on top, 1..6, or ``None`` when the die was found but its face
            could not be read with enough confidence (unreadable, never a guess).
        box: ``(x, y, w, h)`` of the top face in input-image pixels (x, y = top-left corner).
        confidence: 0..1, probability that the observation is right as reported
            (die detection score times the probability of the reported value, or of
            "this is a die" when ``value`` is ``None``).
    """

    kind: str
    value: int | None
    box: tuple[int, int, int, int]
    confidence: float

    def to_json(self) -> dict:
        """Return ``{"kind", "value", "box": [x, y, w, h], "confidence"}`` (confidence rounded to 3 decimals)."""
        return {
            "kind": self.kind,
            "value": self.value,
            "box": [int(v) for v in self.box],
            "confidence": round(float(self.confidence), 3),
        }


@dataclass(frozen=True)
class DiceRead:
    """Everything read from one frame.

    Attributes:
        width, height: size of the input frame in pixels.
        dice: the dice found, highest confidence first.
        timings_ms: wall time of each named stage in milliseconds.
    """

    width: int
    height: int
    dice: tuple[DieObservation, ...]
    timings_ms: dict[str, float] = field(default_factory=dict, compare=False)

    def to_json(self) -> dict:
        """Return ``{"width": W, "height": H, "dice": [...]}`` (no image key; the CLI adds it)."""
        return {
            "width": int(self.width),
            "height": int(self.height),
            "dice": [d.to_json() for d in self.dice],
        }
