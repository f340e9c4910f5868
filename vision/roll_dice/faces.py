"""Stage 7 of the Roll dice reader: each die's ink map against every enrolled (colour, face) template, over the
four quarter turns and small shifts (normalised cross-correlation), glare of the wrong polarity taken out
first, and a second look around the dice that match poorly."""

from __future__ import annotations

import cv2
import numpy as np

from .config import RollDiceConfig
from .glare import glare_masks, masked_window_scores
from .observations import TopFaces
from .tops import INK_CHANNELS, ink_maps, upright_patch

__all__ = ["best_turn", "distinctive_templates", "grid_shifts", "keep_ink_polarity", "match_faces",
           "match_faces_polarised", "normalise_rows", "polarised_scores", "polarised_scores_at", "relocate_faces",
           "rotated_templates", "search_faces", "template_of", "template_polarity", "window_integrals",
           "window_scores", "window_scores_at", "windows_of"]


def normalise_rows(x: np.ndarray, channels: int = INK_CHANNELS) -> np.ndarray:
    """Zero-mean, unit-norm each of the ``channels`` equal parts of the last axis, then scale by
    1/sqrt(channels): the dot product of two such vectors is the mean of the per-channel NCCs."""
    shape = x.shape
    x = x.reshape(*shape[:-1], channels, shape[-1] // channels)
    x = x - x.mean(axis=-1, keepdims=True)
    x = x / (np.linalg.norm(x, axis=-1, keepdims=True) + 1e-6)
    return (x / np.sqrt(channels)).reshape(shape).astype(np.float32)


def best_turn(score: np.ndarray) -> np.ndarray:
    """``float[..., K]``: the best of each template's four quarter turns in scores ``float[..., 4K]`` (column 4k + r
    is template k at turn r, :func:`rotated_templates`): ``score.reshape(..., K, 4).max(-1)``, the same numbers (a
    maximum is exact), as three element-wise maxima instead of numpy's reduction per element (several times
    faster)."""
    t = score.reshape(*score.shape[:-1], score.shape[-1] // 4, 4)
    return np.maximum(np.maximum(t[..., 0], t[..., 1]), np.maximum(t[..., 2], t[..., 3]))


def template_of(ink: np.ndarray, config: RollDiceConfig) -> np.ndarray:
    """The central ``template`` x ``template`` region of an ink patch ``[C, q, q]``, as a normalised vector."""
    q = ink.shape[-1]
    t = config.template
    o = (q - t) // 2
    return normalise_rows(ink[:, o:o + t, o:o + t].reshape(-1).astype(np.float32))


def windows_of(inks: np.ndarray, config: RollDiceConfig) -> np.ndarray:
    """All ``template``-sized windows of each ink patch ``[N, C, q, q]``, at 4 quarter turns:
    ``float32[N, 4*S, C*T*T]`` normalised."""
    n, c, q = inks.shape[:3]
    t = config.template
    rots = np.stack([np.rot90(inks, k, axes=(2, 3)) for k in range(4)], axis=1)  # [N, 4, C, q, q]
    shifts = [(dy, dx) for dy in range(q - t + 1) for dx in range(q - t + 1)]
    out = np.empty((n, 4, len(shifts), c * t * t), np.float32)
    for k, (dy, dx) in enumerate(shifts):
        out[:, :, k] = rots[:, :, :, dy:dy + t, dx:dx + t].reshape(n, 4, c * t * t)
    return normalise_rows(out.reshape(n, 4 * len(shifts), c * t * t), c)


def distinctive_templates(templates: np.ndarray, config: RollDiceConfig) -> np.ndarray:
    """Templates minus ``template_centering`` x their mean (over the four turns of every template),
    renormalised: what all faces share (the face rim, a central blob) no longer scores."""
    if config.template_centering <= 0 or len(templates) < 2:
        return templates
    rot = rotated_templates(templates, config)
    return normalise_rows(templates - config.template_centering * rot.mean(0, keepdims=True))


def rotated_templates(templates: np.ndarray, config: RollDiceConfig) -> np.ndarray:
    """``[K, C*T*T]`` templates -> ``[4K, C*T*T]``: each at its four quarter turns (row 4k + r = turn r)."""
    k = len(templates)
    t = config.template
    tpl = templates.reshape(k, INK_CHANNELS, t, t)
    rots = np.stack([np.rot90(tpl, r, axes=(2, 3)) for r in range(4)], axis=1)  # [K, 4, C, T, T]
    return np.ascontiguousarray(rots.reshape(4 * k, INK_CHANNELS * t * t), dtype=np.float32)


def match_faces(inks: np.ndarray, rot_templates: np.ndarray, config: RollDiceConfig) -> np.ndarray:
    """Best NCC ``[N, K]`` of each ink patch ``[N, C, q, q]`` against each template, over the four
    quarter turns (``rot_templates`` from :func:`rotated_templates`) and every shift of the
    template inside the patch (step ``shift_step``). NCC per channel, averaged over channels."""
    n, k4 = len(inks), len(rot_templates)
    if n == 0 or k4 == 0:
        return np.zeros((n, k4 // 4), np.float32)
    score, _ = window_scores(inks, rot_templates, config, config.shift_step)
    return best_turn(score).max(1)


def _integrals(ink: np.ndarray) -> np.ndarray:
    """``float64[2, N, C, q+1, q+1]`` integral images of ink patches ``[N, C, q, q]`` and of their squares.

    Each patch's channel is summed on its own by ``cv2.integral2`` (float64 sums of the float32 values and of their
    exact squares), several times faster than running sums in numpy: a window's sums can differ from those of running
    sums in another order by a rounding of the float64 sums (about 1e-16 of them), far below the float32 the scores
    are kept in."""
    x = np.asarray(ink, np.float64)
    n, c, q = x.shape[:3]
    x = np.ascontiguousarray(x).reshape(n * c, q, q)
    ii = np.empty((2, n * c, q + 1, q + 1))
    for k in range(n * c):                                   # written in place: each is contiguous
        cv2.integral2(x[k], ii[0, k], ii[1, k], cv2.CV_64F, cv2.CV_64F)
    return ii.reshape(2, n, c, q + 1, q + 1)


def _window_views(ink: np.ndarray, t: int) -> np.ndarray:
    """Read-only view ``[N, C, P, P, T, T]`` (``P = q - t + 1``) of every ``t`` x ``t`` window of ink patches
    ``[N, C, q, q]``: ``np.lib.stride_tricks.sliding_window_view(ink, (t, t), axis=(2, 3))``, the same view made
    directly from the strides (without that function's checks and moved axes, a large share of the cost of scoring
    a few patches). Raises ValueError when ``t`` is larger than a patch."""
    n, c, qy, qx = ink.shape
    if not 1 <= t <= min(qy, qx):
        raise ValueError(f"window of {t} px does not fit patches of {qy} x {qx} px")
    s0, s1, s2, s3 = ink.strides
    return np.lib.stride_tricks.as_strided(ink, (n, c, qy - t + 1, qx - t + 1, t, t), (s0, s1, s2, s3, s2, s3),
                                           writeable=False)


def _windows(ink: np.ndarray, t: int, at: np.ndarray | int,
             ii: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The ``t`` x ``t`` windows of ink patches ``float32[N, C, q, q]`` and their (sum, sum of squares):
    (``float32[M, C, T, T]`` contiguous, ``float64[2, M, C]``).

    ``at``: an ``int`` step (every window whose top-left corner is on that grid, patch-major then row-major:
    one strided copy) or ``int[M, 3]`` rows (patch, dy, dx) (a gather of a few windows). The sums come from
    the integral images ``ii`` (:func:`_integrals` of ``ink``, computed when None), four look-ups per window."""
    n, c, q = ink.shape[:3]
    views = _window_views(ink, t)                                                   # [N, C, P, P, T, T]
    ii = _integrals(ink) if ii is None else ii
    if isinstance(at, int | np.integer):
        st = max(1, int(at))
        lo, hi = slice(0, q - t + 1, st), slice(t, q + 1, st)
        s = ii[:, :, :, hi, hi] - ii[:, :, :, lo, hi] - ii[:, :, :, hi, lo] + ii[:, :, :, lo, lo]
        win = np.ascontiguousarray(views[:, :, ::st, ::st].transpose(0, 2, 3, 1, 4, 5)).reshape(-1, c, t, t)
        return win, s.transpose(0, 1, 3, 4, 2).reshape(2, -1, c)
    nn, yy, xx = np.asarray(at, np.int64).T
    win = views[nn, :, yy, xx]                                                  # [M, C, T, T]: advanced axes first
    s = ii[:, nn, :, yy + t, xx + t] - ii[:, nn, :, yy, xx + t] - ii[:, nn, :, yy + t, xx] + ii[:, nn, :, yy, xx]
    return win, s.transpose(1, 0, 2)                                            # advanced axes first: [M, 2, C]


def _used_channels(c: int, config: RollDiceConfig) -> tuple[np.ndarray, np.ndarray]:
    """(weight of each of ``c`` ink channels, the channels with a weight): brightness 1, chroma
    ``chroma_ink_weight``."""
    weights = np.array((1.0, config.chroma_ink_weight)[:c])
    return weights, np.flatnonzero(weights != 0)


def _channels(inks: np.ndarray, used: np.ndarray) -> np.ndarray:
    """``float32[N, len(used), q, q]`` C-contiguous: the channels ``used`` of ink patches ``[N, C, q, q]`` (the
    patches themselves when they are all used and already so; the windows are cut from a contiguous copy, not
    gathered through a strided one)."""
    x = np.asarray(inks, np.float32)
    return np.ascontiguousarray(x if len(used) == x.shape[1] else x[:, used])


def window_integrals(inks: np.ndarray, config: RollDiceConfig) -> np.ndarray:
    """The integral images :func:`window_scores_at` sums windows with (``float64[2, N, C', q+1, q+1]``, the
    channels it uses of ink patches ``[N, C, q, q]``), for scoring the same inks more than once."""
    _, used = _used_channels(inks.shape[1], config)
    return _integrals(_channels(inks, used))


def window_scores_at(inks: np.ndarray, rot_templates: np.ndarray, config: RollDiceConfig,
                     at: np.ndarray | int = 1, integrals: np.ndarray | None = None,
                     glare: np.ndarray | None = None) -> np.ndarray:
    """NCC ``float32[M, 4K]`` of ``template``-sized windows of ink patches ``[N, C, q, q]`` with every turned
    template ``[4K, C*T*T]``; NCC per channel, weighted by ``chroma_ink_weight``, over the channels.

    ``at``: which windows (:func:`_windows`): a step (every window on that grid, ``M = N * S``, patch-major)
    or ``int[M, 3]`` rows (patch, dy, dx) of top-left corners. ``integrals``: :func:`window_integrals` of
    ``inks`` when the caller scores the same inks more than once (the coarse and the fine pass of a search).

    The templates are zero-mean and unit-norm per channel, so each window only needs its own norm (from
    integral images), not a normalised copy; that norm has a floor of ``ink_noise`` per pixel, so only a
    window with real ink (a symbol's contrast) can score high. The windows are copied once, divided by
    their norms, and scored against all templates and channels in one matrix product
    ``[M, C*T*T] @ [C*T*T, 4K]`` (BLAS).

    ``glare``: optional ``bool[N, q, q]`` glare of each patch (:func:`vision.roll_dice.glare.glare_masks`): a window
    it touches is scored over its other pixels only (:func:`vision.roll_dice.glare.masked_window_scores`), and left
    out of the matrix product (where too little is left of it, it is scored as it is)."""
    k4 = len(rot_templates)
    c = inks.shape[1]
    t = config.template
    d = t * t
    weights, used = _used_channels(c, config)
    masked = None
    if glare is not None and np.any(glare):
        masked = _glare_scores(inks, rot_templates, config, at, glare, weights)
    plain = None
    if masked is not None:                            # the windows scored without their glare: not scored again
        plain = np.ones(masked[0], bool)
        plain[masked[1]] = False
        if not isinstance(at, int | np.integer):
            at = np.asarray(at, np.int64).reshape(-1, 3)[plain]          # those left out not even cut
    win, (s1, s2) = _windows(_channels(inks, used), t, at, integrals)
    if plain is not None and len(win) != plain.sum():                   # a grid's windows are cut all at once
        win, s1, s2 = win[plain], s1[plain], s2[plain]
    # a noise floor (``ink_noise`` log units per pixel) under each window's spread: a smooth patch of
    # table (a cloud of a painted playmat, a shadow) normalised to unit spread would look like anything
    den = np.sqrt(np.maximum(s2 - s1 * s1 / d, 0.0) + d * float(config.ink_noise) ** 2 + 1e-12)
    win *= (weights[used] * (np.sqrt(c) / weights.sum()) / den).astype(np.float32)[:, :, None, None]
    tpl = np.asarray(rot_templates, np.float32)
    if len(used) != c:                                  # the templates' unused channels left out (else: as they are)
        tpl = tpl.reshape(k4, c, d)[:, used].reshape(k4, -1)
    if masked is None:
        return win.reshape(len(win), -1) @ tpl.T
    score = np.empty((len(plain), k4), np.float32)
    if len(win):
        score[plain] = win.reshape(len(win), -1) @ tpl.T
    score[masked[1]] = masked[2]
    return score


def _glare_scores(inks: np.ndarray, rot_templates: np.ndarray, config: RollDiceConfig, at: np.ndarray | int,
                  glare: np.ndarray, weights: np.ndarray) -> tuple[int, np.ndarray, np.ndarray] | None:
    """(how many windows ``at`` names (:func:`window_scores_at`: ``M``), the indices ``int[G]`` of those that the glare
    ``bool[N, q, q]`` touches and that keep enough of their pixels to be scored without it, those scores
    ``float32[G, 4K]``, :func:`vision.roll_dice.glare.masked_window_scores`), or None when no window is so: a window
    the glare touches but leaves too little of is scored as it is."""
    n, c, q = inks.shape[:3]
    t = config.template
    if isinstance(at, int | np.integer):
        corners = np.asarray(grid_shifts(q, t, int(at)), np.int64)
        rows = np.concatenate([np.repeat(np.arange(n, dtype=np.int64), len(corners))[:, None],
                               np.tile(corners, (n, 1))], 1)
    else:
        rows = np.asarray(at, np.int64).reshape(-1, 3)
    if not len(rows):
        return None
    ii = cv2.integral(np.ascontiguousarray(glare.reshape(n * q, q), dtype=np.uint8))  # stacked patches
    nn, yy, xx = rows.T
    y0, y1 = nn * q + yy, nn * q + yy + t
    hit = (ii[y1, xx + t] - ii[y0, xx + t] - ii[y1, xx] + ii[y0, xx]) > 0
    # the integral runs on across the stacked patches' rows, so a window's sum is its own (its rows are one patch's)
    if not hit.any():
        return None
    w = weights / weights.sum()
    got = masked_window_scores(np.asarray(inks, np.float32), np.asarray(glare, bool), rows[hit],
                               np.asarray(rot_templates, np.float32).reshape(len(rot_templates), c, t * t), w, config)
    ok = np.isfinite(got[:, 0])
    return (len(rows), np.flatnonzero(hit)[ok], got[ok]) if ok.any() else None


def grid_shifts(q: int, t: int, step: int) -> list[tuple[int, int]]:
    """Top-left corners ``(dy, dx)`` of the ``t`` x ``t`` windows of a ``q`` x ``q`` patch on the ``step``
    grid, row-major (the order of :func:`window_scores`)."""
    offs = range(0, q - t + 1, max(1, int(step)))
    return [(dy, dx) for dy in offs for dx in offs]


def window_scores(inks: np.ndarray, rot_templates: np.ndarray, config: RollDiceConfig,
                  step: int = 1) -> tuple[np.ndarray, list[tuple[int, int]]]:
    """NCC ``float32[N, S, 4K]`` of every ``template``-sized window (top-left corners ``(dy, dx)``,
    every ``step`` px, returned as the second item) of each ink patch ``[N, C, q, q]`` with every
    turned template ``[4K, C*T*T]`` (:func:`window_scores_at` on the grid)."""
    shifts = grid_shifts(inks.shape[2], config.template, step)
    score = window_scores_at(inks, rot_templates, config, max(1, int(step)))
    return score.reshape(len(inks), len(shifts), -1), shifts


def polarised_scores_at(inks: np.ndarray, rot_templates: np.ndarray, template_pol: np.ndarray | None,
                        config: RollDiceConfig, at: np.ndarray | int = 1) -> np.ndarray:
    """:func:`window_scores_at` where each template is compared with the ink maps as its own colour prints
    them: the brightness of the wrong sign for that template's polarity taken out first
    (:func:`keep_ink_polarity`: -1 dark symbols, +1 light), so a die is read without first deciding its
    colour (a coloured die with light symbols is not read as a white die with dark ones).

    Args:
        inks: ``float32[N, C, q, q]`` ink patches.
        rot_templates: ``[4K, C*T*T]`` (:func:`rotated_templates`).
        template_pol: ``float[K]`` polarity of each template (:func:`template_polarity`, or per colour);
            None: the inks are compared as they are (their polarity already kept).
        config, at: as :func:`window_scores_at`.

    Returns:
        NCC ``float32[M, 4K]``.
    """
    if template_pol is None:
        return window_scores_at(inks, rot_templates, config, at)
    rows = np.repeat(np.asarray(template_pol, np.float64), 4)
    score = None
    for pol in (-1.0, 1.0):
        sel = rows == pol
        if not sel.any():
            continue
        ink = keep_ink_polarity(inks, np.full(len(inks), pol), config)
        part = window_scores_at(ink, rot_templates[sel], config, at)
        if score is None:
            score = np.zeros((len(part), len(rot_templates)), np.float32)
        score[:, sel] = part
    return window_scores_at(inks, rot_templates, config, at) if score is None else score


def polarised_scores(inks: np.ndarray, rot_templates: np.ndarray, template_pol: np.ndarray | None,
                     config: RollDiceConfig, step: int = 1) -> tuple[np.ndarray, list[tuple[int, int]]]:
    """:func:`polarised_scores_at` on every window of the ``step`` grid: (NCC ``float32[N, S, 4K]``, the
    ``S`` window corners ``(dy, dx)``)."""
    shifts = grid_shifts(inks.shape[2], config.template, step)
    score = polarised_scores_at(inks, rot_templates, template_pol, config, max(1, int(step)))
    return score.reshape(len(inks), len(shifts), -1), shifts


def _runs(v: np.ndarray) -> np.ndarray:
    """``int[R]``: where each run of equal values of ``v`` (``int[M]``, M > 0, sorted) starts; for sorted values the
    indices ``np.unique(v, return_index=True)`` gives, without its sort."""
    return np.flatnonzero(np.concatenate(([True], v[1:] != v[:-1])))


#: The eight neighbours of a window corner, in steps.
_AROUND = np.array([(a, b) for a in (-1, 0, 1) for b in (-1, 0, 1) if (a, b) != (0, 0)], np.int64)


def search_faces(inks: np.ndarray, rot_templates: np.ndarray, template_pol: np.ndarray | None,
                 config: RollDiceConfig, step: int = 1, refine: int = 0,
                 glare: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Best NCC of each ink patch with each turned template over the windows of the ``step`` grid.

    ``refine`` 0: every window of the grid (:func:`polarised_scores`, exact). ``refine`` r > 0: coarse to
    fine: every window of a grid ``shift_coarse`` times as coarse (3: 9x fewer; its last row and column on the
    far edge of the ``step`` grid), then the eight neighbours on the ``step`` grid of the ``r`` coarse windows
    of each patch that match their best template best and of each template's own best coarse window (with a
    grid three times as coarse, these 3 x 3 blocks tile the ``step`` grid). A symbol's NCC peak is wider than
    one step, so each patch's best template and its window are those of the exact search
    (``tests/test_roll_dice_faces.py`` checks it on generated dice); a template's score may be a little lower
    than the exact search's where its peak is sharper than that.

    Args:
        inks: ``float32[N, C, q, q]`` ink patches.
        rot_templates, template_pol, config: as :func:`polarised_scores_at`.
        step: the window grid (patch px).
        refine: coarse windows refined per patch (0: exhaustive).
        glare: optional ``bool[N, q, q]`` glare of each patch, left out of the windows it touches
            (:func:`window_scores_at`).

    Returns:
        (NCC ``float32[N, 4K]``, corner ``int[N, 2]`` ``(dy, dx)`` patch px of each patch's best window).
    """
    n, k4 = len(inks), len(rot_templates)
    rows = None if template_pol is None else np.repeat(np.asarray(template_pol, np.float64), 4)
    if n == 0 or rows is None or not np.isin(rows, (-1.0, 1.0)).any():
        return _search(inks, rot_templates, config, step, refine, glare)
    best, corner = np.zeros((n, k4), np.float32), np.zeros((n, 2), np.int64)
    top = np.full(n, -np.inf, np.float32)
    for pol in (-1.0, 1.0):  # each polarity's templates on the inks as that polarity prints them
        sel = rows == pol
        if not sel.any():
            continue
        part, at = _search(keep_ink_polarity(inks, np.full(n, pol), config), rot_templates[sel], config, step, refine,
                           glare)
        best[:, sel] = part
        up = part.max(1) > top
        top[up], corner[up] = part.max(1)[up], at[up]
    return best, corner


def _search(inks: np.ndarray, rot_templates: np.ndarray, config: RollDiceConfig, step: int,
            refine: int, glare: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """:func:`search_faces` of inks as they are (:func:`window_scores_at`)."""
    n, k4 = len(inks), len(rot_templates)
    q, t, st = inks.shape[2], config.template, max(1, int(step))
    if n == 0:
        return np.zeros((0, k4), np.float32), np.zeros((0, 2), np.int64)
    factor = max(2, int(config.shift_coarse))
    coarse = st * factor if refine > 0 and q - t >= 2 * st else st
    shifts = grid_shifts(q, t, coarse)
    last = (q - t) // st * st                                  # the last window of the fine grid
    ii = window_integrals(inks, config)                                                 # shared by both passes
    if coarse > st and last - shifts[-1][0] > st:              # the coarse grid's neighbours miss the far edge
        offs = [*range(0, q - t + 1, coarse), last]
        shifts = [(a, b) for a in offs for b in offs]
        at = np.concatenate([np.repeat(np.arange(n, dtype=np.int64), len(shifts))[:, None],
                             np.tile(np.asarray(shifts, np.int64), (n, 1))], 1)
        score = window_scores_at(inks, rot_templates, config, at, ii, glare).reshape(n, len(shifts), k4)
    else:
        score = window_scores_at(inks, rot_templates, config, coarse, ii, glare).reshape(n, len(shifts), k4)
    corners = np.asarray(shifts, np.int64)
    peak = score.max(2)                                                                 # [N, S]
    best, corner = score.max(1), corners[peak.argmax(1)]
    if coarse == st:
        return best, corner
    # refined: the r best coarse windows of each patch and each template's own best coarse window
    family = best_turn(score).argmax(1)                                                # [N, K]
    top = np.concatenate([np.argsort(-peak, axis=1, kind="stable")[:, :refine], family], axis=1)
    near = corners[top][:, :, None, :] + st * _AROUND[None, None]                       # [N, r + K, 8, 2]
    die = np.repeat(np.arange(n), near.shape[1] * near.shape[2])
    near = near.reshape(-1, 2)
    ok = (near >= 0).all(1) & (near <= q - t).all(1)
    seen = np.zeros(n * (q + 1) ** 2, bool)     # each window once, in order: np.unique's keys without a sort
    seen[(die[ok] * (q + 1) + near[ok, 0]) * (q + 1) + near[ok, 1]] = True
    key = np.flatnonzero(seen)
    rows = np.stack([key // (q + 1) ** 2, key // (q + 1) % (q + 1), key % (q + 1)], 1)  # (patch, dy, dx), sorted
    if not len(rows):
        return best, corner
    fine = window_scores_at(inks, rot_templates, config, rows, ii, glare)               # [M, 4K]
    starts = _runs(rows[:, 0])                                  # each patch's first row: the rows are sorted by patch
    dice = rows[starts, 0]
    fine_best = np.maximum.reduceat(fine, starts, axis=0)                               # [D, 4K]
    fine_peak = fine.max(1)
    group = np.repeat(np.arange(len(starts)), np.diff(starts, append=len(rows)))        # each row's die
    tops = np.flatnonzero(fine_peak == np.maximum.reduceat(fine_peak, starts)[group])
    arg = tops[_runs(group[tops])]                                                      # each die's first best row
    better = fine_peak[arg] > peak[dice].max(1)
    corner[dice[better]] = rows[arg[better], 1:]
    best[dice] = np.maximum(best[dice], fine_best)
    return best, corner


def match_faces_polarised(inks: np.ndarray, rot_templates: np.ndarray, template_pol: np.ndarray,
                          config: RollDiceConfig, glare: np.ndarray | None = None) -> np.ndarray:
    """:func:`match_faces` with each template read in its own print polarity (:func:`polarised_scores`):
    best NCC ``[N, K]`` over the quarter turns and shifts (step ``shift_step``, coarse to fine with
    ``shift_refine``: :func:`search_faces`); ``glare`` (optional ``bool[N, q, q]``, :func:`vision.roll_dice.glare.
    face_glare`) left out of the windows it touches."""
    n, k4 = len(inks), len(rot_templates)
    if n == 0 or k4 == 0:
        return np.zeros((n, k4 // 4), np.float32)
    best, _ = search_faces(inks, rot_templates, template_pol, config, config.shift_step, config.shift_refine, glare)
    return best_turn(best)


def relocate_faces(frame: np.ndarray, tops: TopFaces, ncc: np.ndarray, polarity: np.ndarray | None,
                   rot_templates: np.ndarray, config: RollDiceConfig,
                   todo: np.ndarray | None = None,
                   template_pol: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Second look at the dice whose best NCC is below ``relocate_below`` (a top face found a little
    off: cut with a strip of a neighbour, or too large): a wider shift search (``relocate_margin``
    x the face side each way, step ``relocate_step``, coarse to fine with ``shift_refine``:
    :func:`search_faces`) at the side scales ``relocate_scales``, in order, stopping at the first scale
    whose best NCC reaches ``relocate_below``. The dice still looked at are searched together, one
    scale at a time (one matrix product per scale); each keeps the body colour of its top face
    (``tops.body``) at every scale, so its ink is not measured against a new body colour per scale.

    Args:
        frame: ``uint8[H, W, 3]`` BGR.
        tops: the top faces; ``ncc``: their ``[N, K]`` scores; ``polarity``: ``[N]`` ink polarity
            of each die (unused with ``template_pol``).
        rot_templates: ``[4K, C*T*T]`` from :func:`rotated_templates`.
        config: ``relocate_*``, ``patch``, ``template``, ``glare_log``, ``shift_refine``.
        todo: optional ``bool[N]``: only these dice may be looked at again (e.g. the ones that
            will be reported).
        template_pol: optional ``[K]`` polarity of each template: each template then sees the ink as
            its own colour prints it (:func:`polarised_scores_at`) instead of by the die's ``polarity``.

    Returns:
        (ncc ``[N, K]``, rects ``float[N, 5]``): a die's row and rect are replaced when the wider
        search beats its best NCC by ``relocate_gain``; the rect then moves to where the best
        template matched, with the side of the best scale.
    """
    ncc, rects = ncc.copy(), tops.rects.copy()
    if len(ncc) == 0 or config.relocate_below <= 0:
        return ncc, rects
    p, t = config.patch, config.template
    m = round(config.relocate_margin * p)
    low = ncc.max(1) < config.relocate_below
    if todo is not None:
        low &= todo
    pending = np.nonzero(low)[0]
    best = ncc.max(1).astype(np.float64) + config.relocate_gain
    for sc in config.relocate_scales:
        if not len(pending):
            break
        cx, cy, w, h, ang = tops.rects[pending].T
        side = np.sqrt(w * h) * sc
        patches = np.stack([upright_patch(frame, *r, p, m) for r in zip(cx, cy, side, ang, strict=True)])
        inks, _ = ink_maps(patches, config, m, None if tops.body is None else tops.body[pending])
        glare = glare_masks(patches, inks[:, 0], config)
        if template_pol is None:
            inks = keep_ink_polarity(inks, polarity[pending], config)
        score, corner = search_faces(inks, rot_templates, template_pol, config, config.relocate_step,
                                     config.shift_refine, glare)                     # [P, 4K], [P, 2]
        top = score.max(1).astype(np.float64)
        up = top > best[pending]
        if not up.any():
            continue
        i = pending[up]
        best[i] = top[up]
        ncc[i] = best_turn(score[up])
        # window offset from the centred window, patch px -> frame px, turned back by the angle
        f = side[up] / p
        oy, ox = ((corner[up] - (p + 2 * m - t) / 2.0) * f[:, None]).T
        a = np.deg2rad(ang[up])
        rects[i] = np.stack([cx[up] + ox * np.cos(a) - oy * np.sin(a), cy[up] + ox * np.sin(a) + oy * np.cos(a),
                             side[up], side[up], ang[up]], 1)
        pending = pending[~(up & (top >= config.relocate_below))]
    return ncc, rects


def template_polarity(templates: np.ndarray, config: RollDiceConfig) -> np.ndarray:
    """Ink polarity ``float[K]`` of ``[K, C*T*T]`` templates: -1 when the symbol is darker than the
    body (the brightness channel has a long negative tail: negative skew), +1 when lighter."""
    t = config.template
    b = np.asarray(templates, np.float64).reshape(len(templates), INK_CHANNELS, t * t)[:, 0]
    b = b - b.mean(1, keepdims=True)
    skew = (b ** 3).mean(1) / np.maximum((b ** 2).mean(1), 1e-12) ** 1.5
    return np.where(skew < 0, -1.0, 1.0)


def keep_ink_polarity(inks: np.ndarray, polarity: np.ndarray, config: RollDiceConfig) -> np.ndarray:
    """Ink maps ``[N, C, q, q]`` with the brightness of the wrong sign taken out.

    On a die whose symbols are darker than its body (``polarity`` -1), anything brighter than the
    body is a glare spot, not ink: its brightness is set to 0 and its chroma faded (fully at
    ``glare_log`` log units brighter); on a die with light symbols (+1), anything darker is a
    shadow or a strip of a neighbouring die's side, treated the same way."""
    if config.glare_log <= 0 or len(inks) == 0:
        return inks
    out = inks.copy()
    pol = np.asarray(polarity, np.float32).reshape(-1, 1, 1)
    wrong = np.maximum(-pol * out[:, 0], 0.0)  # brightness of the wrong sign, >= 0
    out[:, 0] += pol * wrong
    out[:, 1] *= 1.0 - np.minimum(wrong / np.float32(config.glare_log), 1.0)
    return out
