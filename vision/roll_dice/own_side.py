"""Is a read die another die's side face? The Roll dice reader's look at pairs of reads of one colour (stage
``own_side``, :meth:`vision.roll_dice.reader.RollDiceReader.read`, after the printed boxes are dropped).

A die seen from above at a slant shows its top and, towards the camera, one or two of its side faces. Under an even
light a side face is lit nearly like the top, carries a symbol of its own, and is the same colour: a second box on
the die, read as a die of that colour touching it. The box is a whole die's side across, but the side face it lies on
is foreshortened, so the box runs past the die's silhouette: the side of the box turned away from the die it hangs
on lies on the table, not on the die's colour. A real die touching a like die lies wholly on its own top: its side
turned away from its neighbour is its own body colour (its symbol lies in the middle, well inside that band).

So a read is dropped when it overlaps (at least ``own_side_overlap`` of its box) a read of its own colour at least
as sure as it is, and the band just inside its side turned away from that read holds less than ``own_side_far_body``
of pixels within ``own_side_distance`` of its own body colour (log-RGB, :func:`vision.roll_dice.foreground.to_log`;
the thresholds are :class:`vision.roll_dice.config.RollDiceConfig`'s).

Measured on the reads of the second scene generator's seeds 1000-1059 (the captured reads, before this stage;
1,112 reads): 7 false reads and 0 real dice below 0.2 of the band in body colour, the nearest real die at 0.23;
``own_side_far_body`` is set at 0.17, below the gap. Reads of other colours are not judged: a box half on a die and half
on the cloth beside it, tested the same way, does not come apart from real dice pressed against dice of other
colours (their boxes off their tops by a fifth of a side in steep views).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .config import RollDiceConfig
from .foreground import to_log
from .observations import RollDieObservation, TopFaces
from .tops import upright_patch

__all__ = ["drop_own_sides", "far_band_body"]


def _overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> float:
    """Share of box ``a``'s area ``(x, y, w, h)`` that lies on box ``b``."""
    ix = max(0, min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0]))
    iy = max(0, min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1]))
    return ix * iy / float(max(a[2] * a[3], 1))


def far_band_body(frame: np.ndarray, rect: np.ndarray, body: np.ndarray, towards: np.ndarray,
                  cfg: RollDiceConfig) -> float:
    """Share 0..1 of the pixels of the band just inside the side of a top face turned away from the point
    ``towards`` that lie within ``cfg.own_side_distance`` of the face's body colour.

    Args:
        frame: ``uint8[H, W, 3]`` BGR.
        rect: ``float[5]`` the top face (cx, cy, w, h, angle deg; frame px); cut as a square of side sqrt(w h).
        body: ``float[3]`` its body colour, log-RGB (:func:`vision.roll_dice.tops.body_colour`).
        towards: ``float[2]`` frame px (x, y), the middle of the read it overlaps.
        cfg: ``log_offset`` (the log-RGB scale), ``own_side_band``, ``own_side_patch``, ``own_side_distance``.

    Returns a float. Raises nothing for a face at the frame's border (the border is repeated).
    """
    q = int(cfg.own_side_patch)
    side = float(np.sqrt(max(float(rect[2]) * float(rect[3]), 1.0)))
    logp = to_log(upright_patch(frame, float(rect[0]), float(rect[1]), side, float(rect[4]), q, 0), cfg)
    near = np.sqrt(((logp - np.asarray(body, np.float32)[None, None, :]) ** 2).sum(-1)) < cfg.own_side_distance
    # the direction to the other read in the patch's upright frame (the patch is the frame turned by the angle)
    a, b = np.cos(np.radians(float(rect[4]))), np.sin(np.radians(float(rect[4])))
    dx, dy = float(towards[0]) - float(rect[0]), float(towards[1]) - float(rect[1])
    px, py = a * dx + b * dy, -b * dx + a * dy
    lo, hi = (int(round(v * q)) for v in cfg.own_side_band)
    inner = slice(lo, q - lo)
    if abs(px) > abs(py):      # the other read lies left or right: the far band is the opposite column band
        band = near[inner, q - hi:q - lo] if px < 0 else near[inner, lo:hi]
    else:
        band = near[q - hi:q - lo, inner] if py < 0 else near[lo:hi, inner]
    return float(band.mean()) if band.size else 1.0


def drop_own_sides(frame: np.ndarray, tops: TopFaces, kept: Sequence[tuple[int, RollDieObservation]],
                   dice: Sequence[RollDieObservation], cfg: RollDiceConfig
                   ) -> tuple[list[tuple[int, RollDieObservation]], tuple[RollDieObservation, ...]]:
    """``(kept, dice)`` less the reads that are a like die's side face: a read overlapping (``cfg.own_side_overlap`` of
    its box) a read of its own colour at least as sure (equal confidence: the one read first counts as surer) whose
    far band (:func:`far_band_body`, the side turned from that read) holds less than ``cfg.own_side_far_body`` of its
    body colour. ``kept`` is ``[(top face index into tops, read)]`` in the order of ``dice``; both are kept in step.
    ``cfg.own_side_far_body`` None or fewer than two reads: both as they are.
    Raises ``ValueError`` when ``kept`` and ``dice`` differ in length."""
    kept, dice = list(kept), tuple(dice)
    if len(kept) != len(dice):
        raise ValueError(f"drop_own_sides: {len(kept)} kept faces and {len(dice)} reads: one each")
    if cfg.own_side_far_body is None or len(dice) < 2:
        return kept, dice
    drop = np.zeros(len(dice), bool)
    for j, d in enumerate(dice):
        for k, e in enumerate(dice):
            if k == j or e.colour != d.colour or d.colour is None:
                continue
            if e.confidence < d.confidence or (e.confidence == d.confidence and k > j):
                continue
            if _overlap(d.box, e.box) < cfg.own_side_overlap:
                continue
            ti, tk = kept[j][0], kept[k][0]
            if far_band_body(frame, tops.rects[ti], tops.body[ti], tops.rects[tk][:2], cfg) < cfg.own_side_far_body:
                drop[j] = True
                break
    if not drop.any():
        return kept, dice
    return ([kv for kv, x in zip(kept, drop, strict=True) if not x],
            tuple(d for d, x in zip(dice, drop, strict=True) if not x))
