"""Is a read die's face blank beside the printed faces of its colour? The Roll dice reader's last look at false dice
(stage ``blank``, :func:`vision.roll_dice.reader.RollDiceReader.read`).

Every face of a Roll die carries a printed symbol, drawn in sharp strokes, so the middle of a die's top varies at the
scale of a stroke (:func:`vision.roll_dice.shape.stroke_spread`). How much depends on the print: dark ink on a white
body varies far more than light ink on a purple one, so no one bar holds for every colour, printing and light. The
frame itself gives the bar: the other dice read in the same colour are the same print under the same light. An empty
check of a gingham or a board's empty box read as a die of a colour has a middle as flat as paper beside them (a
stroke spread about a fifth of theirs on the second scene generator's tables), while a real die of that colour, even
tilted, in a soft lamp spot or unsure of its face, keeps at least about two fifths of theirs.

The test takes the surest printed face of the colour as that bar (the largest stroke spread of the other dice of the
colour at die weight ``blank_ref_weight`` or more, at least ``blank_refs`` of them), so a few blank checks read in a
colour cannot lower the bar for each other, and a colour with too few dice read is left alone. Only a wholly blank face
is judged: a stroke spread at most ``blank_share`` of the bar with no good symbol match (best NCC at most the bottom of
``flat_match_ramp``); a face part-way is left to the other tests. A face already sure to be a die by its shape and
symbol together (die weight at least ``blank_sure``) is not judged: a lamp spot on a die's symbol, or a faint print,
flattens its middle as much as a check's, while the empty checks and boxes read as dice weigh far less (0.16-0.62 on the
second scene generator's tables, against 0.81-1.00 for the real dice the test took there). A face the frame's edge may
cut off (its square reaching within ``blank_edge`` of its side of the border, half a die) is neither judged nor taken as
a bar: a die the border cuts shows only part of its top, and the square found for it may hold that part off centre, its
middle away from the symbol (a white die read as a square 63 px across whose corner came 7 px from the border had a
middle as flat as a check's: 0.14 of its colour's bar).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from .assemble import die_weights
from .config import RollDiceConfig
from .observations import RollDieObservation, TopFaces
from .shape import stroke_spread

__all__ = ["blank_faces", "cut_off"]


def cut_off(rects: np.ndarray, width: int, height: int, config: RollDiceConfig,
            edge: float | None = None) -> np.ndarray:
    """``bool[N]``: which faces the frame's edge may cut off: a corner of the face's square ``rects`` (``float[N, 5]``
    frame px: centre x, y, width, height, angle in degrees) lies within ``edge`` (default ``blank_edge``) x its longer
    side of the border of a ``width`` x ``height`` frame, or beyond it. Raises ``ValueError`` for a frame of no
    pixels."""
    if width <= 0 or height <= 0:
        raise ValueError(f"cut_off: a frame of {width} x {height} px has no pixels")
    r = np.asarray(rects, np.float64).reshape(-1, 5)
    a = np.deg2rad(r[:, 4])
    c, s = np.abs(np.cos(a)), np.abs(np.sin(a))
    half_x = (r[:, 2] * c + r[:, 3] * s) / 2.0                              # the rotated square's half extents
    half_y = (r[:, 2] * s + r[:, 3] * c) / 2.0
    margin = (config.blank_edge if edge is None else float(edge)) * np.maximum(r[:, 2], r[:, 3])
    return ((r[:, 0] - half_x < margin) | (r[:, 0] + half_x > width - 1 - margin)
            | (r[:, 1] - half_y < margin) | (r[:, 1] + half_y > height - 1 - margin))


def blank_faces(stroke: np.ndarray, colours: Sequence[str], weights: np.ndarray, best: np.ndarray,
                edge: np.ndarray, config: RollDiceConfig, prints: Mapping[str, float] | None = None) -> np.ndarray:
    """Which read dice' faces are wholly blank beside the printed faces of their colour, ``bool[N]``.

    Args:
        stroke: ``float[N]`` each die's :func:`vision.roll_dice.shape.stroke_spread` (log units).
        colours: the N dice' read colours.
        weights: ``float[N]`` each die's weight (:func:`vision.roll_dice.assemble.die_weights`, 0..1).
        best: ``float[N]`` each die's best template NCC.
        edge: ``bool[N]`` the faces the frame's edge may cut off (:func:`cut_off`): never blank, never a bar.
        config: ``blank_share`` (None: no test, all False), ``blank_ref_weight``, ``blank_refs``,
            ``flat_match_ramp``, ``blank_sure`` (None: a face of any weight is judged), ``blank_alike_refs``.
        prints: each colour's print (its symbols' ink: -1 dark, +1 light, as the profile's templates show it); a
            colour it does not name, or None, has no colours printed alike.

    Returns ``bool[N]``: True where the die's stroke spread is at most ``blank_share`` of the largest of the other
    dice of its colour not cut off with weight at least ``blank_ref_weight`` (at least ``blank_refs`` of them), its
    best NCC at most the bottom of ``flat_match_ramp``, its weight below ``blank_sure`` and it is not cut off itself.
    A colour with fewer such dice takes as its bar ``blank_share`` of the median of the dice (of any colour, that
    die left out) printed as it is printed in ``prints``, at least ``blank_alike_refs`` of them (None: no such bar):
    the same ink on bodies of other colours, so a check read as a colour no other die of the frame has (a pinkish
    check read as a red washed out, with one red die beside it) is still held to a die's print. The median, not the
    largest: one print's strokes stand out more on some bodies than on others (light ink on brown or green varies
    more than on purple), so only a face flatter than about a third of the middle die printed so is blank.
    Raises ``ValueError`` when the inputs' lengths differ.
    """
    stroke = np.asarray(stroke, np.float64).reshape(-1)
    weights = np.asarray(weights, np.float64).reshape(-1)
    best = np.asarray(best, np.float64).reshape(-1)
    edge = np.asarray(edge, bool).reshape(-1)
    n = len(stroke)
    if not (len(colours) == len(weights) == len(best) == len(edge) == n):
        raise ValueError(f"blank_faces: {n} stroke spreads, {len(colours)} colours, {len(weights)} weights, "
                         f"{len(best)} matches and {len(edge)} edge flags: one each per die")
    out = np.zeros(n, bool)
    if config.blank_share is None or n < 2:
        return out
    names = np.asarray(list(colours), dtype=object)
    ref = (weights >= config.blank_ref_weight) & ~edge
    judged = ~edge & (best <= config.flat_match_ramp[0])
    if config.blank_sure is not None:
        judged &= weights < config.blank_sure
    ink = np.array([np.nan if prints is None or c not in prints else float(prints[c]) for c in names], np.float64)
    for i in np.flatnonzero(judged):
        others = ref & (names == names[i])
        others[i] = False
        if others.sum() >= config.blank_refs:
            bar = float(stroke[others].max())
        else:                                   # too few of its colour: the dice printed as it is
            alike = ref & (ink == ink[i])
            alike[i] = False
            if config.blank_alike_refs is None or np.isnan(ink[i]) or alike.sum() < config.blank_alike_refs:
                continue
            bar = float(np.median(stroke[alike]))
        out[i] = bar > 0.0 and stroke[i] <= config.blank_share * bar
    return out


def not_blank(size: tuple[int, int], tops: TopFaces, ncc: np.ndarray, kept: Sequence[tuple[int, RollDieObservation]],
              dice: Sequence[RollDieObservation], cfg: RollDiceConfig,
              prints: Mapping[str, float] | None = None) -> tuple[RollDieObservation, ...]:
    """The reads ``dice`` (in the order of ``kept``, ``[(top face index, read)]``) less those whose face is wholly
    blank beside the printed faces of its colour, or of the colours printed alike (``prints``: each colour's ink,
    -1 dark, +1 light) where its own are too few (:func:`blank_faces` of its top face's :func:`stroke_spread`,
    below ``blank_sure`` die weight); a face the edge of the frame of ``size`` (height, width px) may cut off
    (:func:`cut_off`) is neither judged nor a bar. ``blank_share`` None or fewer than two reads: ``dice`` as they
    are."""
    dice = tuple(dice)
    if cfg.blank_share is None or len(dice) < 2 or tops.ink is None:
        return dice
    idx = np.array([i for i, _ in kept], np.int64)
    weights = die_weights(tops, ncc, cfg)[idx]
    best = (ncc.max(1) if ncc.size else np.zeros(len(tops.rects)))[idx]
    edge = cut_off(tops.rects[idx], int(size[1]), int(size[0]), cfg)
    blank = blank_faces(stroke_spread(tops.ink[idx], cfg), [d.colour for d in dice], weights, best, edge, cfg,
                        prints)
    return tuple(d for d, b in zip(dice, blank, strict=True) if not b)
