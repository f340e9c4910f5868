"""Seeded frame sequences of a table in play: dice rolled, hands reaching in, shadows passing, camera noise.

:func:`play_sequence` strings events on a :class:`vision.synth_full.FullTable` and renders every frame with
fresh sensor noise. Each :class:`SequenceFrame` carries its truth: whether something moved since the frame
before, whether a hand is in view, and which settled layout (if any) it shows; :class:`MotionSequence` says
where each layout came to rest and whether it differs from the layout before. A read that happens while
something moves or a hand is in view is a false read; a changed layout that comes to rest and is not read
before the next event is a missed settle.

Events (:data:`EVENTS`):

* ``"roll"``: a hand reaches in from the nearest edge, picks up one to four dice and leaves; the dice are
  thrown back in from that edge, tumble (new faces, turning) with a decaying wobble at the end, and rest;
* ``"hover"``: a hand reaches over the table, holds nearly still (a tremor of a pixel) for 0.3-0.8 s over the
  components, and leaves: nothing changes;
* ``"shadow"``: a soft shadow (a head, a lamp knocked) drifts across the table and away: nothing changes;
* ``"card"``: a hand brings a card to a free place at a tableau's end and leaves (card games).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from .synth_full import FullTable, Piece, add_card, reroll

__all__ = ["EVENTS", "MotionSequence", "SequenceFrame", "play_sequence"]

EVENTS: tuple[str, ...] = ("roll", "hover", "shadow", "card")
#: A die that moves less than this (frame px) between two frames has not visibly moved (the last rock of a
#: die coming to rest; a camera cannot tell it from noise).
VISIBLE_PX = 2.0
SKIN_BGR = np.array([120.0, 150.0, 205.0], np.float32)


@dataclass(frozen=True)
class SequenceFrame:
    """One frame of a sequence and its truth.

    Attributes:
        image: ``uint8[H, W, 3]`` BGR.
        t: timestamp, s.
        moving: something moved visibly since the previous frame (a die by :data:`VISIBLE_PX` or more, a
            hand, a shadow, a card).
        hand: a hand or arm is in view.
        layout: index of the settled layout shown (into :attr:`MotionSequence.layouts`), or None while a
            die is in the air or rocking visibly off its place.
    """

    image: np.ndarray
    t: float
    moving: bool
    hand: bool
    layout: int | None


@dataclass
class MotionSequence:
    """A rendered sequence.

    Attributes:
        table: the table the frames show (its camera maps a piece to frame pixels).
        frames: the frames in order.
        fps: frames per second.
        layouts: the pieces of each settled layout, in the order they appear.
        settles: (frame index where layout k comes to rest with nothing moving and no hand in view, k,
            whether layout k differs from the layout read before it).
        events: (event name, first frame, last frame).
    """

    table: FullTable
    frames: list[SequenceFrame]
    fps: float
    layouts: list[tuple[Piece, ...]] = field(default_factory=list)
    settles: list[tuple[int, int, bool]] = field(default_factory=list)
    events: list[tuple[str, int, int]] = field(default_factory=list)


# ----------------------------------------------------------------------------------------------- overlays


def hand_overlay(edge: np.ndarray, tip: np.ndarray, width: float) -> object:
    """An arm from ``edge`` (px, outside the frame) to ``tip`` (px), ``width`` px thick, with its soft
    shadow: a function that paints it on a lit float32 BGR frame."""
    def paint(f: np.ndarray) -> None:
        h, w = f.shape[:2]
        mask = np.zeros((h, w), np.uint8)
        e, t = tuple(int(v) for v in edge), tuple(int(v) for v in tip)
        cv2.line(mask, e, t, 255, int(width))
        cv2.circle(mask, t, int(width * 0.6), 255, -1)
        m = cv2.GaussianBlur(mask.astype(np.float32) / 255.0, (0, 0), 1.5)[:, :, None]
        shadow = np.roll(np.roll(m, int(width * 0.4), axis=0), int(width * 0.3), axis=1)
        f *= 1.0 - 0.35 * cv2.GaussianBlur(shadow, (0, 0), width * 0.3)[:, :, None]
        shade = 0.85 + 0.15 * np.linspace(0, 1, w, dtype=np.float32)[None, :, None]
        f[:] = f * (1.0 - m) + SKIN_BGR * shade * m
    return paint


def shadow_overlay(centre: np.ndarray, axes: tuple[float, float], darkness: float) -> object:
    """A soft elliptical shadow (``darkness`` 0..1) centred on ``centre`` px: a function that paints it."""
    def paint(f: np.ndarray) -> None:
        h, w = f.shape[:2]
        mask = np.zeros((h, w), np.float32)
        cv2.ellipse(mask, (int(centre[0]), int(centre[1])), (int(axes[0]), int(axes[1])), 20.0, 0, 360, 1.0, -1)
        mask = cv2.GaussianBlur(mask, (0, 0), 0.05 * w)
        f *= (1.0 - darkness * mask)[:, :, None]
    return paint


# ----------------------------------------------------------------------------------------------- the timeline


class _Timeline:
    """Frames appended one by one, each with its truth."""

    def __init__(self, table: FullTable, fps: float, rng: np.random.Generator) -> None:
        self.table = table
        self.fps = fps
        self.rng = rng
        self.seq = MotionSequence(table, [], fps)
        self.pieces = tuple(table.pieces)
        self.seq.layouts.append(self.pieces)
        self.last_read_layout = -1          # the layout a perfect reader read last

    def frame(self, moving: bool, hand: bool, in_air: Sequence[Piece] = (), overlays: Sequence[object] = (),
              pieces: Sequence[Piece] | None = None, layout: int | None = -1) -> None:
        """Append a frame; ``layout`` -1: the current layout when nothing is in the air, else None."""
        k = len(self.seq.frames)
        img = self.table.render(self.pieces if pieces is None else pieces, frame_seed=int(self.rng.integers(1 << 30)),
                                moving=in_air, overlays=overlays)
        if layout == -1:
            layout = None if in_air or pieces is not None else len(self.seq.layouts) - 1
        self.seq.frames.append(SequenceFrame(img, k / self.fps, moving, hand, layout))

    def rest(self, seconds: float) -> None:
        """Nothing moves for ``seconds``; the layout shown comes to rest on the first of these frames."""
        n = max(1, int(round(seconds * self.fps)))
        k = len(self.seq.layouts) - 1
        changed = k != self.last_read_layout
        self.seq.settles.append((len(self.seq.frames), k, changed))
        self.last_read_layout = k
        for _ in range(n):
            self.frame(False, False)

    def new_layout(self, pieces: Sequence[Piece]) -> None:
        self.pieces = tuple(pieces)
        self.seq.layouts.append(self.pieces)

    def edge_towards(self, target: np.ndarray) -> np.ndarray:
        """The point just outside the frame's nearest edge from ``target`` (px)."""
        w, h = self.table.image_size
        x, y = target
        d = [y, h - y, x, w - x]
        e = int(np.argmin(d))
        return np.array([(x, -40.0), (x, h + 40.0), (-40.0, y), (w + 40.0, y)][e])

    def reach(self, target: np.ndarray, hold: float, width: float, carry: Sequence[Piece] = (),
              drop: Sequence[Piece] | None = None, tremor: float = 0.6) -> None:
        """A hand reaches from the nearest edge to ``target``, holds ``hold`` s (``carry``: pieces drawn
        under the hand on the way in), then (``drop``: the layout changes) leaves."""
        edge = self.edge_towards(target)
        n_in = max(3, int(0.35 * self.fps))
        for i in range(1, n_in + 1):
            tip = edge + (target - edge) * (1 - (1 - i / n_in) ** 2)
            self.frame(True, True, overlays=[hand_overlay(edge, tip, width)])
        for _ in range(max(1, int(round(hold * self.fps)))):
            tip = target + self.rng.normal(0, tremor, 2)
            self.frame(False, True, overlays=[hand_overlay(edge, tip, width)])
        if drop is not None:
            self.new_layout(drop)
        for i in range(1, n_in + 1):
            tip = target + (edge - target) * (i / n_in) ** 2
            self.frame(True, i < n_in or _inside(tip, self.table.image_size), overlays=[hand_overlay(edge, tip, width)])


def _inside(p: np.ndarray, size: tuple[int, int]) -> bool:
    return 0 <= p[0] < size[0] and 0 <= p[1] < size[1]


def _roll(tl: _Timeline, faces, width: float) -> None:
    table, rng = tl.table, tl.rng
    dice = [k for k, p in enumerate(tl.pieces) if p.kind == "die"]
    if not dice:
        return
    pieces = list(tl.pieces)
    k = int(rng.integers(1, min(4, len(dice)) + 1))
    moved: dict[int, Piece] = {}
    for _ in range(k):
        after, old, new = reroll(table, pieces, int(rng.integers(1 << 30)), faces)
        moved[pieces.index(old)] = new
        pieces = after
    centre = np.mean([table.to_px(np.array([tl.pieces[i].centre_mm]))[0] for i in moved], axis=0)
    # the hand picks the dice up: they leave the table with it
    without = [p for j, p in enumerate(tl.pieces) if j not in moved]
    tl.reach(centre, float(rng.uniform(0.15, 0.35)), width, drop=without)
    # thrown back in from the edge: tumbling, then a decaying wobble
    edge = tl.edge_towards(centre)
    edge_mm = _px_to_mm(table, edge)
    n_fly = max(4, int(rng.uniform(0.35, 0.6) * tl.fps))
    n_wobble = max(2, int(0.15 * tl.fps))
    finals = list(moved.values())
    for i in range(1, n_fly + 1):
        a = 1 - (1 - i / n_fly) ** 2
        air = []
        for new in finals:
            c = edge_mm + (np.asarray(new.centre_mm) - edge_mm) * a
            spin = (1 - a) * 720.0
            face = new if i == n_fly else _random_face(new, rng, faces)
            air.append(replace(face, centre_mm=(float(c[0]), float(c[1])), angle_deg=new.angle_deg + spin))
        tl.frame(True, False, in_air=air, pieces=without)
    rock = [rng.uniform(0, 2 * math.pi) for _ in finals]
    tl.new_layout(pieces)
    prev = air
    for i in range(n_wobble):   # rocking over an edge: the top face tips a little and turns back
        amp = (1 - (i + 1) / (n_wobble + 1)) * (-1) ** i
        air = [replace(new, angle_deg=new.angle_deg + 8.0 * amp,
                       centre_mm=(new.centre_mm[0] + 0.2 * amp * new.size_mm[0] * math.cos(a),
                                  new.centre_mm[1] + 0.2 * amp * new.size_mm[0] * math.sin(a)))
               for new, a in zip(finals, rock)]
        at_rest = _shift_px(table, air, finals) < VISIBLE_PX
        tl.frame(_shift_px(table, prev, air) >= VISIBLE_PX, False, in_air=air, pieces=without,
                 layout=len(tl.seq.layouts) - 1 if at_rest else None)
        prev = air
    tl.frame(_shift_px(table, prev, finals) >= VISIBLE_PX, False)   # the last rock back to rest


def _shift_px(table: FullTable, a: Sequence[Piece], b: Sequence[Piece]) -> float:
    """The largest distance (frame px) any corner moved between two placements of the same dice."""
    return max((float(np.abs(table.polygon_px(p) - table.polygon_px(q)).max()) for p, q in zip(a, b)), default=0.0)


def _random_face(p: Piece, rng: np.random.Generator, faces) -> Piece:
    if p.value is not None:
        return replace(p, value=int(rng.integers(1, 7)))
    options = list(faces[p.colour]) if faces else [p.face]
    return replace(p, face=options[int(rng.integers(len(options)))])


def _px_to_mm(table: FullTable, p: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(np.asarray(p, np.float64).reshape(1, 1, 2), np.linalg.inv(table.H)).reshape(2)


def _hover(tl: _Timeline, width: float) -> None:
    p = tl.pieces[int(tl.rng.integers(len(tl.pieces)))]
    target = tl.table.to_px(np.array([p.centre_mm]))[0]
    tl.reach(target, float(tl.rng.uniform(0.3, 0.8)), width)


def _shadow(tl: _Timeline) -> None:
    w, h = tl.table.image_size
    rng = tl.rng
    a = np.array([rng.uniform(-0.3, 0.1) * w, rng.uniform(0.2, 0.8) * h])
    b = np.array([rng.uniform(0.9, 1.3) * w, rng.uniform(0.2, 0.8) * h])
    if rng.random() < 0.5:
        a, b = b, a
    n = max(4, int(rng.uniform(0.6, 1.2) * tl.fps))
    axes = (0.22 * w, 0.3 * h)
    dark = float(rng.uniform(0.25, 0.45))
    for i in range(1, n + 1):
        tl.frame(True, False, overlays=[shadow_overlay(a + (b - a) * i / n, axes, dark)])
    tl.frame(True, False)


def _card(tl: _Timeline, card_ids: Sequence[str], width: float) -> bool:
    try:
        pieces, new = add_card(tl.table, tl.pieces, card_ids, int(tl.rng.integers(1 << 30)))
    except ValueError:
        return False
    target = tl.table.to_px(np.array([new.centre_mm]))[0]
    tl.reach(target, float(tl.rng.uniform(0.1, 0.3)), width, drop=pieces)
    return True


def play_sequence(table: FullTable, events: Sequence[str], seed: int, fps: float = 15.0,
                  rest: tuple[float, float] = (0.6, 1.0), faces=None, card_ids: Sequence[str] = ()) -> MotionSequence:
    """Render ``events`` (names from :data:`EVENTS`) one after another on ``table``, each followed by a rest
    of ``rest`` seconds (the table at rest first too).

    Args:
        table: the table (:func:`vision.synth_full.full_table`).
        events: event names, in order.
        seed: seeds every choice and every frame's noise.
        fps: frames per second.
        faces: Roll dice faces per colour (rolls draw from them).
        card_ids: ids a played card is drawn from (``"card"`` events).

    Raises:
        ValueError: an unknown event.
    """
    rng = np.random.default_rng(seed)
    tl = _Timeline(table, fps, rng)
    width = 0.06 * table.image_size[0]
    tl.rest(float(rng.uniform(*rest)))
    for name in events:
        if name not in EVENTS:
            raise ValueError(f"unknown event {name!r}; expected one of {', '.join(EVENTS)}")
        first = len(tl.seq.frames)
        if name == "roll":
            _roll(tl, faces, width)
        elif name == "hover":
            _hover(tl, width)
        elif name == "shadow":
            _shadow(tl)
        elif not _card(tl, card_ids, width):
            continue
        tl.seq.events.append((name, first, len(tl.seq.frames) - 1))
        tl.rest(float(rng.uniform(*rest)))
    return tl.seq
