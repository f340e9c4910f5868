"""What the Roll dice reader gives: one observation per die, one read per frame, and the stages' hand-offs."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["MEASURED_SIZE", "Candidates", "RollDiceRead", "RollDieObservation", "TopFaces"]

#: :attr:`RollDiceRead.die_size` of dice read at the side measured on the frame's square blobs (no size tried, or
#: none showed a plain die), not at a factor of the default side.
MEASURED_SIZE = 0.0


@dataclass(frozen=True)
class RollDieObservation:
    """One Roll for the Galaxy die found in a frame.

    Attributes:
        colour: die colour name (as enrolled), e.g. ``"white"``.
        face: face name (as enrolled), e.g. ``"explore"``, or ``None`` when unreadable or when the
            best reading is a colour/face pair the profile does not allow.
        box: ``(x, y, w, h)`` of the top face in frame pixels.
        confidence: 0..1, probability the (colour, face) reported is right.
        kind: always ``"roll"``.
    """

    colour: str
    face: str | None
    box: tuple[int, int, int, int]
    confidence: float
    kind: str = "roll"

    @property
    def value(self) -> None:
        """Roll dice have no numeric value (kept for the d6 JSON shape)."""
        return None

    def to_json(self) -> dict:
        """``{"kind": "roll", "colour", "face", "value": None, "box": [x, y, w, h], "confidence"}``."""
        return {
            "kind": self.kind,
            "colour": self.colour,
            "face": self.face,
            "value": None,
            "box": [int(v) for v in self.box],
            "confidence": round(float(self.confidence), 3),
        }


@dataclass(frozen=True)
class RollDiceRead:
    """Everything read from one frame (same JSON shape as :class:`vision.DiceRead`); ``light``: the light the
    colours were read under (:func:`vision.roll_dice.colours.estimate_light`: log-RGB offset, saturation scale),
    for a later read of a window of the same table; ``die_size``: the die size the dice were read at, as a factor of
    the default side (``RollDiceConfig.default_side_frac``, the units of ``size_hypotheses``), or
    :data:`MEASURED_SIZE` where it was the side measured on the frame's square blobs; a later read of a window of
    the same table reads at that size only (None: not known)."""

    width: int
    height: int
    dice: tuple[RollDieObservation, ...]
    timings_ms: dict
    light: tuple[float, ...] | None = None
    die_size: float | None = None

    def to_json(self) -> dict:
        return {"width": int(self.width), "height": int(self.height), "dice": [d.to_json() for d in self.dice]}


@dataclass(frozen=True)
class Candidates:
    """Die candidates in frame pixels: rotated rects ``float[N, 5]`` (cx, cy, w, h, angle deg) and die-ness scores."""

    rects: np.ndarray
    scores: np.ndarray
    work_scale: float

    def take(self, index: np.ndarray) -> Candidates:
        """The candidates at ``index`` (``int[K]``), in that order."""
        return Candidates(self.rects[index], self.scores[index], self.work_scale)


@dataclass(frozen=True)
class TopFaces:
    """Top faces: rects ``float[N, 5]`` (frame px), die-ness scores ``float[N]``, ink patches
    ``float32[N, 2, P+2m, P+2m]``, body log-RGB ``float[N, 3]`` and the shape evidence ``float[N, 3]``
    (rim, outline, ink: :func:`vision.roll_dice.shape.face_evidence`), or None when not measured."""

    rects: np.ndarray
    scores: np.ndarray
    ink: np.ndarray
    body: np.ndarray
    evidence: np.ndarray | None = None

    def take(self, index: np.ndarray) -> TopFaces:
        """The faces at ``index`` (``int[K]``), in that order; ink that no stage may change (read-only, as the top-face
        stage makes it: its per-face measures are kept, :mod:`vision.roll_dice.memo`) stays so."""
        ev = None if self.evidence is None else self.evidence[index]
        ink = self.ink
        if ink is not None:
            ink = ink[index] if ink.flags.writeable else _frozen(ink[index])
        return TopFaces(self.rects[index], self.scores[index], ink, self.body[index], ev)

    def lowered(self, keep: np.ndarray) -> TopFaces:
        """These faces with each one's die score scaled by ``keep`` ``float[N]`` (0..1)."""
        return TopFaces(self.rects, np.asarray(self.scores, np.float64) * keep, self.ink, self.body, self.evidence)


def _frozen(ink: np.ndarray) -> np.ndarray:
    """``ink`` read-only and owning its pixels (copied when it is a view of another array)."""
    out = ink if ink.base is None else ink.copy()
    out.setflags(write=False)
    return out
