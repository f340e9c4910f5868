"""Is a read die a box printed on a board? The Roll dice reader's last look at printed squares (stage ``boxed``,
:func:`vision.roll_dice.reader.RollDiceReader.read`).

A numbered box of a player board's track is a square of the board's own surface inside a printed line, a digit in
it: read as a die, its square sits just inside that line. Going out from the face's middle across any of its sides,
the colour leaves the face's own near its edge (the line) and comes back to it within a fraction of a face beyond
(the board again, between the lines). A die stands on the table: beyond its top's edges lie its bevel, its side
faces (its body shaded), its shadow and the table, which turn back to the top's colour only where a like die or a
table of that colour touches it, on a side or two, not all round.

The test takes, per side of the face's square, the median log-RGB colour (:func:`vision.roll_dice.shape.to_log`) of
thin bands parallel to that side, each ``boxed_step`` half faces deep, on an upright patch round the face
(:func:`vision.roll_dice.shape.surrounding_logs`): the face's own colour there is the mean of the bands ``boxed_inner``
(half faces from the middle, inside the edge); a side is framed where a band starting within ``boxed_line`` differs
from it by more than ``boxed_off`` and one of the next ``boxed_return`` bands beyond lies within ``boxed_same`` of it
again. A face framed on ``boxed_sides`` sides or more, with no good symbol match (best NCC at most the bottom of
``flat_match_ramp``), is a printed box and is dropped whatever its weight. A face framed on all four sides
(``boxed_closed``) sits inside a closed printed line with the board's surface beyond it, which no die standing on the
table shows (its side faces, bevel and shadow beyond its top are not the top's colour again): only a near-perfect
symbol match (best NCC above the top of ``flat_match_ramp``) keeps it, since a board's digit inside such a box can
match a symbol well (a "0" matched an explore symbol at NCC 0.84). A good match is looked at for that closed line
only where the printed-square test (:func:`vision.roll_dice.shape.surface_returns`, stage ``surface``) saw the table
come back in at least ``boxed_closed_returns`` of the ring round it: beyond a printed box's line lies the board again,
beyond a die's top its side faces and shadow, so the reads of dice standing on the table (most of them match well)
cost no bands. A face whose bands would reach past the frame's border (within ``boxed_edge`` x its side: the border
is repeated there) is not judged.

A box read off centre, or a corner of a track, shows its line on two sides only, as a real die does where the
cloth's band of its own colour runs past its side faces (a white die on a white check). What tells them apart there is
the colour: a die's body is one of the game's dice colours and reads like the frame's other dice of that colour under
the same light, while the board's surface inside a box is whatever the board is printed in. A read framed on
``boxed_half_sides`` sides, with no good symbol match, whose squared colour distance to its colour's prototype under
the frame's light (:func:`vision.roll_dice.colours.lit_distances`) exceeds the median of the frame's other reads of
that colour weighing at least ``boxed_peer_weight`` (:func:`colour_excess`; none: the distance itself) by at least
``boxed_unlike`` is a box too.

The printed-square test of the candidates (:func:`vision.roll_dice.shape.surface_returns`) asks a broader ring round
the face for the body colour again; between a track's lines and its neighbouring boxes' digits that ring returns on
only about a third of its sectors, under that test's bar, where the bands right beyond a side see the line and the
board behind it.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from .assemble import die_weights
from .blank import cut_off
from .config import RollDiceConfig
from .foreground import median_last
from .observations import RollDieObservation, TopFaces
from .shape import surrounding_logs

__all__ = ["colour_excess", "drop_boxed", "framed_sides"]


@lru_cache(maxsize=8)
def _bands(q: int, span: float, step: float, first: float, count: int, along: float) -> tuple[tuple[np.ndarray, ...],
                                                                                            ...]:
    """Per side (right, left, bottom, top of the upright patch), the flat pixel indices of ``count`` bands parallel to
    it, band ``k`` from ``first + k * step`` to ``first + (k + 1) * step`` half faces from the middle (Chebyshev),
    within ``along`` x its distance (at least one half face) of the side's middle. ``q`` px patch spanning ``span``
    face sides."""
    c = (q - 1) / 2.0
    half = q / span / 2.0
    yy, xx = np.mgrid[0:q, 0:q]
    dx, dy = (xx - c) / half, (yy - c) / half
    cheb = np.maximum(np.abs(dx), np.abs(dy))
    horizontal = np.abs(dx) >= np.abs(dy)
    side = np.where(horizontal, np.where(dx > 0, 0, 1), np.where(dy > 0, 2, 3))
    off = np.where(horizontal, np.abs(dy), np.abs(dx))
    out = []
    for s in range(4):
        rows = []
        for k in range(count):
            a = first + k * step
            m = (cheb >= a) & (cheb < a + step) & (side == s) & (off < along * max(a, 1.0))
            rows.append(np.flatnonzero(m.ravel()))
        out.append(tuple(rows))
    return tuple(out)


def framed_sides(frame: np.ndarray, rects: np.ndarray, config: RollDiceConfig) -> np.ndarray:
    """``int[N]``: on how many of its four sides each face's colour leaves near its edge and comes back just beyond
    (a printed line with the face's surface behind it; module doc).

    Args:
        frame: ``uint8[H, W, 3]`` BGR.
        rects: ``float[N, 5]`` top faces (cx, cy, w, h, angle deg; frame px).
        config: ``boxed_patch``, ``boxed_span``, ``boxed_step``, ``boxed_inner``, ``boxed_line``, ``boxed_return``,
            ``boxed_off``, ``boxed_same``.

    Returns ``int[N]`` 0..4; no face gives an empty array. Raises ``ValueError`` for settings with no band inside
    the edge or no line band beyond ``boxed_inner``, or ``boxed_along`` of 1 or more (the sides' bands would meet at
    the corners and no longer mirror each other).
    """
    step = float(config.boxed_step)
    inner = tuple(float(v) for v in config.boxed_inner)
    line = tuple(float(v) for v in config.boxed_line)
    first = inner[0]
    k_in = range(0, int(round((inner[1] - first) / step)))
    k_line = range(int(round((line[0] - first) / step)), int(round((line[1] - first) / step)) + 1)
    if step <= 0 or len(k_in) == 0 or len(k_line) == 0 or k_line[0] < len(k_in) or not 0 < config.boxed_along < 1:
        raise ValueError(f"framed_sides: boxed_step {step}, boxed_inner {inner}, boxed_line {line} and boxed_along "
                         f"{config.boxed_along} give no bands inside the edge, no line beyond them or bands that meet")
    rects = np.asarray(rects, np.float64).reshape(-1, 5)
    n = len(rects)
    if n == 0:
        return np.zeros(0, np.int64)
    ret = int(config.boxed_return)
    count = k_line[-1] + ret + 1
    q, span = int(config.boxed_patch), float(config.boxed_span)
    bands = _bands(q, span, step, first, count, float(config.boxed_along))
    logs = surrounding_logs(frame, rects, np.arange(n), q, span, config).reshape(n, q * q, 3)
    chans = np.ascontiguousarray(logs.transpose(0, 2, 1))                    # [N, 3, q*q]: a pixel set's row
    # the four sides' bands are mirror images of each other, of as many pixels: each band's median over all four at once
    prof = np.ascontiguousarray(np.stack([median_last(chans[:, :, np.stack([bands[s][k] for s in range(4)])])
                                          for k in range(count)], 3).transpose(0, 2, 3, 1))  # float[N, 4, count, 3]
    own = prof[:, :, list(k_in)].mean(2)                                               # float[N, 4, 3]
    d = np.sqrt(((prof - own[:, :, None, :]) ** 2).sum(3))                             # float[N, 4, count]
    hit = np.zeros((n, 4), bool)
    for k in k_line:
        back = d[:, :, k + 1:k + 1 + ret].min(2) < config.boxed_same
        hit |= (d[:, :, k] > config.boxed_off) & back
    return hit.sum(1).astype(np.int64)


def colour_excess(gaps: np.ndarray, colours: Sequence[str], weights: np.ndarray, peer_weight: float) -> np.ndarray:
    """``float[N]``: how much further each of N reads lies from its colour's prototype than the frame's other reads of
    that colour: its squared colour distance ``gaps[i]`` less the median of those of the other reads of the same
    colour weighing at least ``peer_weight`` (the light model's misfit for that colour in this frame, which all its
    dice share), or the distance itself where there is no such read. ``gaps``: ``float[N]`` each read's squared
    distance to its own colour's prototype under the frame's light; ``colours``: N colour names; ``weights``:
    ``float[N]`` die weights. Raises ``ValueError`` when the three differ in length."""
    gaps = np.asarray(gaps, np.float64).reshape(-1)
    weights = np.asarray(weights, np.float64).reshape(-1)
    if not len(gaps) == len(colours) == len(weights):
        raise ValueError(f"colour_excess: {len(gaps)} distances, {len(colours)} colours and {len(weights)} weights: "
                         "one each")
    names = np.asarray(list(colours), dtype=object)
    out = gaps.copy()
    for i in range(len(gaps)):
        peers = (names == names[i]) & (weights >= peer_weight)
        peers[i] = False
        if peers.any():
            out[i] = gaps[i] - float(median_last(gaps[peers]))
    return out


def drop_boxed(frame: np.ndarray, tops: TopFaces, ncc: np.ndarray, kept: Sequence[tuple[int, RollDieObservation]],
               dice: Sequence[RollDieObservation], cfg: RollDiceConfig, gaps: np.ndarray | None = None,
               colours: Sequence[str] = (), returns: np.ndarray | None = None
               ) -> tuple[list[tuple[int, RollDieObservation]], tuple[RollDieObservation, ...]]:
    """``(kept, dice)`` less the printed boxes: the reads ``dice`` are in the order of ``kept`` (``[(top face index,
    read)]``), both kept in step; a box is a face not within ``boxed_edge`` x its side of the ``frame``'s border
    (:func:`.blank.cut_off`) that is framed on at least ``boxed_closed`` sides (:func:`framed_sides`: a closed printed
    line) with best template NCC at most the top of ``flat_match_ramp`` (only a near-perfect symbol match is a die
    inside such a line), or with best NCC at most the bottom of ``flat_match_ramp`` framed on at least ``boxed_sides``
    sides, or on at least ``boxed_half_sides`` with a :func:`colour_excess` of at least ``boxed_unlike``. ``gaps``:
    ``float[N, C]`` squared colour distances of the N top faces to the C prototypes named ``colours`` under the frame's
    light (:func:`vision.roll_dice.colours.lit_distances`; None: the two-sided test is not made). ``returns``:
    ``float[N]`` how much of the ring round each top face the table comes back in
    (:func:`vision.roll_dice.shape.surface_returns`, -1 where not measured; None: not known): a read with a good symbol
    match is looked at for a closed line only where that is unknown or at least ``boxed_closed_returns`` (a board
    round a box comes back beyond its line; a die on the table has its sides and shadow there). ``boxed_sides`` None
    or no reads: both as they are. Raises ``ValueError`` when ``kept`` and ``dice`` differ in length, or for a read of
    a colour ``colours`` does not name."""
    kept, dice = list(kept), tuple(dice)
    if len(kept) != len(dice):
        raise ValueError(f"drop_boxed: {len(kept)} kept faces and {len(dice)} reads: one each")
    if returns is not None and np.asarray(returns).size != len(tops.rects):
        raise ValueError(f"drop_boxed: {np.asarray(returns).size} ring shares for {len(tops.rects)} top faces: "
                         "one each")
    if cfg.boxed_sides is None or not dice:
        return kept, dice
    idx = np.array([i for i, _ in kept], np.int64)
    rects = np.asarray(tops.rects, np.float64)[idx]
    best = ncc.max(1)[idx] if ncc.size else np.zeros(len(idx))
    edge = cut_off(rects, int(frame.shape[1]), int(frame.shape[0]), cfg, cfg.boxed_edge)
    loose = best <= cfg.flat_match_ramp[0]                 # no good symbol match
    closed = cfg.boxed_closed is not None
    near = best <= cfg.flat_match_ramp[1]                  # short of a near-perfect symbol match
    if closed and returns is not None and cfg.boxed_closed_returns is not None:
        back = np.asarray(returns, np.float64).reshape(-1)[idx]
        near &= (back < 0) | (back >= cfg.boxed_closed_returns)
    todo = ~edge & (loose | near if closed else loose)
    boxed = np.zeros(len(dice), bool)
    if todo.any():
        framed = framed_sides(frame, rects[todo], cfg)
        boxed[todo] = (framed >= cfg.boxed_sides) & loose[todo]
        if closed:
            boxed[todo] |= framed >= cfg.boxed_closed
        if gaps is not None and cfg.boxed_half_sides is not None:
            names = list(colours)
            unknown = sorted({d.colour for d in dice} - set(names))
            if unknown:
                raise ValueError(f"drop_boxed: reads of colours {unknown} not among the prototypes' {names}")
            own = np.asarray(gaps, np.float64)[idx, [names.index(d.colour) for d in dice]]
            excess = colour_excess(own, [d.colour for d in dice], die_weights(tops, ncc, cfg)[idx],
                                   cfg.boxed_peer_weight)
            boxed[todo] |= (framed >= cfg.boxed_half_sides) & (excess[todo] >= cfg.boxed_unlike) & loose[todo]
    keep = np.flatnonzero(~boxed)
    return [kept[i] for i in keep], tuple(dice[i] for i in keep)
