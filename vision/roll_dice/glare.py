"""Glare spots in the face match of the Roll dice reader: the lamp's reflection on a glossy die is left out of the
comparison instead of being read as ink.

A glossy die reflects the lamp as a small bright spot that the camera clips to white (every channel at or near 255),
with a halo round it. On a die with light symbols it is light "ink" no symbol has; on a die with dark symbols it is
taken out as far as it is brighter than the body (:func:`vision.roll_dice.faces.keep_ink_polarity`). Replacing it by
a made-up value (the body, the mean of the face) leaves a hole in a stroke that no template has either. Here the spot
and its halo are *masked*: the normalised cross-correlation of a window with a template is taken over the pixels
outside the spot only, both the window's and the template's mean and spread measured on those pixels
(:func:`masked_window_scores`), so a face is compared with each template on what the spot leaves of it, and a template
gains nothing from the pixels it cannot see.
"""

from __future__ import annotations

import cv2
import numpy as np

from .config import RollDiceConfig
from .foreground import channel_min
from .tops import upright_patch

__all__ = ["face_glare", "glare_masks", "masked_window_scores"]


def glare_masks(patches: np.ndarray, bright: np.ndarray, config: RollDiceConfig) -> np.ndarray:
    """``bool[N, h, w]``: the glare of each upright face patch ``uint8[N, h, w, 3]`` (BGR): the pixels whose every
    channel is at least ``glare_min`` (0..255: clipped to white) and that are brighter than the face's body by
    ``glare_log`` or more (``bright``: ``float[N, h, w]``, the ink map's signed brightness, log units: a white body
    clipped by a bright exposure is its body, not glare), grown by ``glare_grow`` px (a square of
    ``2 glare_grow + 1``: the spot's halo). All False with ``glare_min`` above 255. Raises nothing."""
    patches = np.asarray(patches)
    if len(patches) == 0 or config.glare_min > 255:
        return np.zeros(patches.shape[:3], bool)
    core = (channel_min(patches) >= config.glare_min) & (np.asarray(bright) >= config.glare_log)
    g = int(config.glare_grow)
    if g <= 0:
        return core
    out = core.copy()
    kernel = np.ones((2 * g + 1, 2 * g + 1), np.uint8)
    for i in np.flatnonzero(core.any(axis=(1, 2))):
        out[i] = cv2.dilate(core[i].astype(np.uint8), kernel) > 0
    return out


def face_glare(frame: np.ndarray, rects: np.ndarray, inks: np.ndarray, config: RollDiceConfig) -> np.ndarray:
    """:func:`glare_masks` ``bool[N, q, q]`` of the top faces ``rects`` (``float[N, 5]``: cx, cy, w, h, angle deg;
    frame px) of ``frame`` (``uint8[H, W, 3]`` BGR), cut as their ink maps ``inks`` (``float32[N, C, q, q]``, the
    canonical patch and margin) were; all False with ``glare_min`` above 255. Only the faces with a pixel at least
    ``glare_log`` brighter than their body (``inks[:, 0]``) can hold glare: only their patches are cut."""
    n, q = len(rects), inks.shape[-1]
    out = np.zeros((n, q, q), bool)
    if n == 0 or config.glare_min > 255:
        return out
    bright = np.asarray(inks[:, 0])
    lit = np.flatnonzero((bright >= config.glare_log).any(axis=(1, 2)))
    if len(lit) == 0:
        return out
    m = (q - config.patch) // 2
    patches = np.stack([upright_patch(frame, cx, cy, float(np.sqrt(w * h)), ang, config.patch, m)
                        for cx, cy, w, h, ang in np.asarray(rects, np.float64)[lit]])
    out[lit] = glare_masks(patches, bright[lit], config)
    return out


def masked_window_scores(inks: np.ndarray, glare: np.ndarray, rows: np.ndarray, tpl: np.ndarray,
                         weights: np.ndarray, config: RollDiceConfig) -> np.ndarray:
    """Masked NCC ``float32[M, 4K]`` of the ``template``-sized windows ``rows`` (``int[M, 3]``: patch, dy, dx) of ink
    patches ``float32[N, C, q, q]`` with the turned templates ``tpl`` (``[4K, C, T*T]``, each channel zero-mean
    with norm 1/sqrt(C), :func:`vision.roll_dice.faces.normalise_rows`), leaving out the glare ``bool[N, q, q]``.

    Per channel, over the ``n`` pixels of the window outside the glare: (sum x t - sum x sum t / n) /
    sqrt((sum x^2 - (sum x)^2 / n + n ink_noise^2) (sum t^2 - (sum t)^2 / n)), the window's spread with the same
    noise floor per pixel as the unmasked score; the channels weighted by ``weights`` ``float[C]`` (summing to 1).
    With no glare in a window this is the unmasked score (the template's sum is 0 and its sum of squares 1/C). A
    window whose glare leaves fewer than ``glare_keep`` of its pixels scores NaN (the caller keeps its unmasked
    score: too little is left to compare).

    Worked in float32, as the unmasked score is: the sums run over at most ``T*T`` (484) pixels of ink a few log
    units large, the window's spread has the noise floor under it and the template's is about 1/C, so no
    difference cancels to a rounding (the same formula in float64 differs by about 2e-7)."""
    t = config.template
    d = t * t
    rows = np.asarray(rows, np.int64).reshape(-1, 3)
    nn, yy, xx = rows.T
    g = np.ascontiguousarray(glare, bool)
    gs = g.strides
    gv = np.lib.stride_tricks.as_strided(g, (len(g), g.shape[1] - t + 1, g.shape[2] - t + 1, t, t),
                                         (*gs, gs[1], gs[2]), writeable=False)                 # every window's glare
    m = 1.0 - gv[nn, yy, xx].reshape(len(rows), d).astype(np.float32)                            # 1 off the glare
    n = m.sum(1)                                                                                 # exact: whole counts
    # only the windows with enough left are scored (each row's score is its own): the others are NaN whatever
    # their sums, and cost three matrix products per channel for nothing
    scored = np.flatnonzero(n >= config.glare_keep * d)
    out = np.full((len(rows), len(tpl)), np.nan, np.float32)
    if len(scored) == 0:
        return out
    nn, yy, xx, m, n = nn[scored], yy[scored], xx[scored], m[scored], np.maximum(n[scored], 1.0)
    x = np.asarray(inks, np.float32)
    xs = x.strides
    xv = np.lib.stride_tricks.as_strided(x, (*x.shape[:2], x.shape[2] - t + 1, x.shape[3] - t + 1, t, t),
                                         (*xs, xs[2], xs[3]), writeable=False)
    x = xv[nn, :, yy, xx]                                                                        # [S, C, T, T]
    tp = np.asarray(tpl, np.float32)
    noise = np.float32(float(config.ink_noise) ** 2)
    got = np.zeros((len(scored), len(tpl)), np.float32)
    for c, w in enumerate(weights):
        if w == 0:
            continue
        xm = x[:, c].reshape(len(scored), d) * m
        tc = tp[:, c]                                                                            # [4K, d]
        sx, sxx = xm.sum(1), (xm * xm).sum(1)
        st, stt = m @ tc.T, m @ (tc * tc).T                                                      # [S, 4K]
        num = xm @ tc.T - sx[:, None] * st / n[:, None]
        var_x = np.maximum(sxx - sx * sx / n, 0.0) + n * noise
        var_t = np.maximum(stt - st * st / n[:, None], np.float32(1e-12))
        with np.errstate(invalid="ignore", divide="ignore"):   # no spread left: NaN
            got += np.float32(w) * num / np.sqrt(var_x[:, None] * var_t)
    out[scored] = got
    return out
