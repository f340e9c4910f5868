"""Result types of the readers: one :class:`DieObservation` per d6, one :class:`DiceRead` per frame of the d6
reader; and the plug-in contract of every reader: :class:`Reader` (``name``, ``read(frame) -> Sighting``) and
:class:`Sighting`, what one reader saw in one frame (the adapters: :mod:`vision.readers`); one
:class:`CardObservation` per card or tile and one :class:`CardsRead` per frame of the card reader
(:mod:`vision.cards`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, Union, runtime_checkable

if TYPE_CHECKING:  # pragma: no cover - types only: the readers import this module
    import numpy as np

    from .hexes import HexObservation
    from .roll_dice import RollDieObservation
    from .table import MarkerCheck


def point_json(point) -> list[float]:
    """``[x, y]`` rounded to 0.1 (px or mm): how observations write a point in JSON."""
    return [round(float(point[0]), 1), round(float(point[1]), 1)]


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


#: A die as a reader reports it: a pip die (``kind`` ``"d6"``) or a Roll for the Galaxy die (``"roll"``).
Die = Union[DieObservation, "RollDieObservation"]


@dataclass(frozen=True)
class CardObservation:
    """One card or tile on the table.

    Attributes:
        id: card id from the deck, or None ('not in the deck' or unreadable).
        corners: float[4, 2] pixel corners, clockwise from the card's top-left as it reads.
        center_px: pixel centre.
        center_mm: table-mm centre (with calibration), else estimated from the deck's card size
            with the image origin (``mm_estimated`` True).
        rotation_deg: clockwise angle of the card's up direction from the table's up.
        row, col: tableau row / column (0-based, top-left first).
        cell: [row offset, column offset] from the anchor card, or None.
        zone: player zone name or None.
        confidence: 0..1 that ``id`` is right (for id None: that the card is not in the deck).
        source: how the id was found: ``"reference"`` (enrolled image matching) or ``"sticker"`` (ArUco).
    """

    id: str | None
    corners: np.ndarray
    center_px: tuple[float, float]
    center_mm: tuple[float, float]
    rotation_deg: float
    row: int
    col: int
    cell: tuple[int, int] | None
    zone: str | None
    confidence: float
    source: str = "reference"
    mm_estimated: bool = False
    crop: np.ndarray | None = field(default=None, repr=False, compare=False)

    def to_json(self) -> dict:
        return {
            "id": self.id,
            "corners": [point_json(p) for p in self.corners],
            "center_mm": point_json(self.center_mm),
            "rotation_deg": round(float(self.rotation_deg), 1),
            "row": int(self.row),
            "col": int(self.col),
            "cell": None if self.cell is None else [int(self.cell[0]), int(self.cell[1])],
            "zone": self.zone,
            "confidence": round(float(self.confidence), 3),
        }


@dataclass(frozen=True)
class CardsRead:
    """Everything read about cards in one frame.

    Attributes:
        width, height: frame size.
        cards: observations sorted by (row, col).
        markers: MarkerCheck against the calibration, or None without calibration.
        timings_ms: per-stage wall times.
        notes: what the reader must tell the players about this read (e.g. :data:`MIRROR_NOTE`).
    """

    width: int
    height: int
    cards: tuple[CardObservation, ...]
    markers: MarkerCheck | None = None
    timings_ms: dict[str, float] = field(default_factory=dict, compare=False)
    notes: tuple[str, ...] = ()

    def to_json(self, image: str | None = None) -> dict:
        """``{"image": image, "cards": [...]}`` exactly as issue 5 specifies."""
        return {"image": image, "cards": [c.to_json() for c in self.cards]}


@dataclass(frozen=True)
class Sighting:
    """What one reader saw in one frame.

    Attributes:
        reader: the ``name`` of the reader that saw it.
        width, height: size of the frame read, px.
        dice: dice found, in the reader's order (:class:`vision.DieObservation` or
            :class:`vision.roll_dice.RollDieObservation`; boxes in frame px).
        cards: cards and tiles found (:class:`vision.cards.CardObservation`), by row and column.
        hexes: sector hexes found (:class:`vision.hexes.HexObservation`), by axial position.
        markers: the calibration markers re-checked in this frame (:class:`vision.table.MarkerCheck`),
            or None (no calibration, or not checked).
        timings_ms: wall time of each of the reader's named stages, ms (not compared by ``==``).
        notes: what the reader must tell the players about this sighting, plain sentences (e.g. the cards
            read as if the camera image were mirrored); empty when all is well.
        light: the light a colour reader measured on the whole table (the Roll dice reader: log-RGB offset
            and saturation scale), kept by a read of the changed windows only, which see too few dice to
            measure it; None for other readers (not compared by ``==``).
        die_size: the die size the Roll dice reader's last full read chose
            (:attr:`vision.roll_dice.RollDiceRead.die_size`), kept by a read of the changed windows only, which
            reads at that size and searches no other; None for other readers (not compared by ``==``).
    """

    reader: str
    width: int
    height: int
    dice: tuple[Die, ...] = ()
    cards: tuple[CardObservation, ...] = ()
    hexes: tuple[HexObservation, ...] = ()
    markers: MarkerCheck | None = None
    timings_ms: dict[str, float] = field(default_factory=dict, compare=False)
    notes: tuple[str, ...] = ()
    light: tuple[float, ...] | None = field(default=None, compare=False)
    die_size: float | None = field(default=None, compare=False)

    @property
    def frame_size(self) -> tuple[int, int]:
        """``(width, height)`` of the frame read, px."""
        return int(self.width), int(self.height)

    @property
    def confidence(self) -> float | None:
        """How sure the reader is of the whole sighting, 0..1: the confidence of its least sure
        observation (a die, card or hex reported as unreadable or not in the deck counts with the
        confidence it was given); None when nothing was seen."""
        seen = [float(o.confidence) for o in (*self.dice, *self.cards, *self.hexes)]
        return min(seen) if seen else None

    @property
    def total_ms(self) -> float:
        """Sum of the stage timings, ms."""
        return float(sum(self.timings_ms.values()))

    def to_json(self) -> dict:
        """``{"reader", "width", "height", "confidence": 0-1 | null, "dice": [...], "cards": [...],
        "hexes": [...], "markers": null | {"moved": [ids], "missing": [ids]}, "timings_ms": {stage: ms}}``,
        plus ``"notes": [sentences]`` when there are any.

        Each observation is its own ``to_json()`` (the shapes ``companion read --json`` prints);
        confidence is rounded to 3 decimals, timings to 0.01 ms.
        """
        conf = self.confidence
        return {
            "reader": self.reader,
            "width": int(self.width),
            "height": int(self.height),
            "confidence": None if conf is None else round(conf, 3),
            "dice": [d.to_json() for d in self.dice],
            "cards": [c.to_json() for c in self.cards],
            "hexes": [h.to_json() for h in self.hexes],
            "markers": None if self.markers is None else {"moved": [int(i) for i in self.markers.moved],
                                                          "missing": [int(i) for i in self.markers.missing]},
            "timings_ms": {k: round(float(v), 2) for k, v in self.timings_ms.items()},
            **({"notes": list(self.notes)} if self.notes else {}),
        }


@runtime_checkable
class Reader(Protocol):
    """A camera reader: a ``name`` (how flows declare it) and ``read(frame) -> Sighting``.

    ``read`` takes a ``uint8[H, W, 3]`` BGR frame and raises :class:`vision.BadFrame` for anything else;
    it never changes the frame. Any object with these two members is a reader (``isinstance(obj,
    Reader)`` checks that they exist).
    """

    name: str

    def read(self, frame: np.ndarray) -> Sighting:
        """Everything this reader sees in ``frame``."""
        ...
