"""A glare spot on a Roll die's face is left out of the face match (vision/roll_dice/glare.py): hand-worked windows
small enough to work the normalised cross-correlation out on paper, and hand-made patches with a spot clipped to
white."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from vision.roll_dice import RollDiceConfig
from vision.roll_dice.faces import window_scores_at
from vision.roll_dice.glare import glare_masks

# a 2 x 2 template, brightness only, no noise floor: every number below is worked by hand
TINY = replace(RollDiceConfig(), template=2, ink_noise=0.0, chroma_ink_weight=0.0)
A = 1.0 / (2.0 * np.sqrt(2.0))   # the template's brightness channel: zero mean, norm 1/sqrt(2) (two channels)


def tiny_template() -> np.ndarray:
    """``float32[1, 8]``: brightness (a, -a; a, -a) (a light stroke down the left column), chroma 0."""
    return np.array([[A, -A, A, -A, 0.0, 0.0, 0.0, 0.0]], np.float32)


def test_a_glare_pixel_is_left_out_of_both_the_window_and_the_template():
    # brightness 2 0 / 2 9: the stroke (2) down the left, the body (0), and a glare spot (9) where the body should be
    ink = np.zeros((1, 2, 2, 2), np.float32)
    ink[0, 0] = [[2.0, 0.0], [2.0, 9.0]]
    glare = np.zeros((1, 2, 2), bool)
    glare[0, 1, 1] = True
    # with the spot: mean 13/4, centred spread 46.75; sum x t = a (2 - 0 + 2 - 9) = -5a; NCC = -5a sqrt(2) / sqrt(46.75)
    at = np.array([[0, 0, 0]])                 # the one window: patch 0, corner (0, 0)
    plain = window_scores_at(ink, tiny_template(), TINY, at)
    assert plain[0, 0] == pytest.approx(-2.5 / np.sqrt(46.75), abs=1e-5)      # -0.366: the spot turns the match over
    # without it: window (2, 0, 2), template (a, -a, a): both centred to (2/3, -4/3, 2/3) times a factor: NCC 1
    masked = window_scores_at(ink, tiny_template(), TINY, at, None, glare)
    assert masked[0, 0] == pytest.approx(1.0, abs=1e-5)


def test_a_window_the_spot_does_not_touch_scores_as_before():
    # a 3 x 3 patch: four 2 x 2 windows; the spot in the bottom right corner touches only the last one
    ink = np.zeros((1, 2, 3, 3), np.float32)
    ink[0, 0] = [[2.0, 0.0, 1.0], [2.0, 0.0, 3.0], [1.0, 0.0, 9.0]]
    glare = np.zeros((1, 3, 3), bool)
    glare[0, 2, 2] = True
    plain = window_scores_at(ink, tiny_template(), TINY, 1)
    masked = window_scores_at(ink, tiny_template(), TINY, 1, None, glare)
    assert np.array_equal(masked[:3], plain[:3])
    # the last window, (0, 3; 0, [9]): left out, (0, 3, 0) against (a, -a, a) is the stroke on the wrong side: NCC -1
    assert masked[3, 0] == pytest.approx(-1.0, abs=1e-5)
    # a window left with fewer than glare_keep of its pixels keeps its plain score: too little to compare
    most = np.zeros((1, 3, 3), bool)
    most[0, 1:, 1:] = True
    few = window_scores_at(ink, tiny_template(), replace(TINY, glare_keep=0.5), 1, None, most)
    assert few[3, 0] == plain[3, 0]


def test_glare_is_a_clipped_spot_brighter_than_the_body_and_its_halo():
    cfg = RollDiceConfig()
    patch = np.empty((1, 12, 12, 3), np.uint8)
    patch[:] = (190, 120, 30)                  # a blue die's body (BGR)
    patch[0, 4:7, 4:7] = 255                   # a 3 x 3 spot clipped to white
    bright = np.zeros((1, 12, 12), np.float32)
    bright[0, 4:7, 4:7] = 1.0                  # a log unit brighter than the body
    mask = glare_masks(patch, bright, cfg)
    g = cfg.glare_grow
    assert mask[0].sum() == (3 + 2 * g) ** 2                          # the spot grown by its halo, no farther
    assert mask[0, 4 - g:7 + g, 4 - g:7 + g].all()
    # a white die's body clipped by a bright exposure is its body (no brighter than itself): not glare
    white = np.full((1, 12, 12, 3), 255, np.uint8)
    assert not glare_masks(white, np.zeros((1, 12, 12), np.float32), cfg).any()
    # and nothing is masked with glare_min above 255
    assert not glare_masks(patch, bright, replace(cfg, glare_min=256)).any()


def masked_scores_of_every_window(inks, glare, rows, tpl, weights, config):
    """The masked NCC worked out for every window named, then NaN where the glare leaves fewer than ``glare_keep``
    of its pixels: the plain formula :func:`masked_window_scores` gives, without leaving those windows out first."""
    t = config.template
    d = t * t
    nn, yy, xx = np.asarray(rows, np.int64).T
    x = np.lib.stride_tricks.sliding_window_view(inks, (t, t), axis=(2, 3))[nn, :, yy, xx]
    m = np.lib.stride_tricks.sliding_window_view(~glare, (t, t), axis=(1, 2))[nn, yy, xx].reshape(len(rows), d)
    m = m.astype(np.float64)
    n = np.maximum(m.sum(1), 1.0)
    out = np.zeros((len(rows), len(tpl)), np.float64)
    for c, w in enumerate(weights):
        if w == 0:
            continue
        xm = x[:, c].reshape(len(rows), d).astype(np.float64) * m
        tc = np.asarray(tpl[:, c], np.float64)
        sx, sxx = xm.sum(1), (xm * xm).sum(1)
        st, stt = m @ tc.T, m @ (tc * tc).T
        num = xm @ tc.T - sx[:, None] * st / n[:, None]
        var_x = np.maximum(sxx - sx * sx / n, 0.0) + n * float(config.ink_noise) ** 2
        var_t = np.maximum(stt - st * st / n[:, None], 1e-12)
        with np.errstate(invalid="ignore", divide="ignore"):
            out += w * num / np.sqrt(var_x[:, None] * var_t)
    out[n < config.glare_keep * d] = np.nan
    return out.astype(np.float32)


@pytest.mark.parametrize("seed", [3, 17, 40])
def test_windows_the_glare_leaves_too_little_of_score_nan_as_when_all_were_scored(seed):
    """The windows left with fewer than ``glare_keep`` of their pixels are not scored at all (NaN), the others as
    the formula worked out in float64 for every window named scores them, to float32's rounding (the reader's
    score is kept in float32): random inks, spots of every size, templates of the reader's shape."""
    from vision.roll_dice.faces import normalise_rows
    from vision.roll_dice.glare import masked_window_scores

    cfg = RollDiceConfig()
    rng = np.random.default_rng(seed)
    t, q, n = cfg.template, cfg.patch + 2 * cfg.patch_margin, 5
    inks = rng.normal(0.0, 0.3, (n, 2, q, q)).astype(np.float32)
    glare = np.zeros((n, q, q), bool)
    for i in range(n):                          # a spot per patch, from a few pixels to most of the face
        r = int(rng.integers(1, q // 2))
        cy, cx = rng.integers(0, q, 2)
        yy, xx = np.mgrid[0:q, 0:q]
        glare[i] = (yy - cy) ** 2 + (xx - cx) ** 2 <= r * r
    glare[0, : q // 2 + 4] = True               # most of the first patch: its windows keep too little
    tpl = normalise_rows(rng.normal(0.0, 1.0, (12, 2 * t * t)).astype(np.float32)).reshape(12, 2, t * t)
    rows = np.stack([rng.integers(0, n, 60), rng.integers(0, q - t + 1, 60), rng.integers(0, q - t + 1, 60)], 1)
    weights = np.array([1.0, cfg.chroma_ink_weight]) / (1.0 + cfg.chroma_ink_weight)
    got = masked_window_scores(inks, glare, rows, tpl, weights, cfg)
    want = masked_scores_of_every_window(inks, glare, rows, tpl, weights, cfg)
    few = np.isnan(want[:, 0])
    assert few.any() and not few.all()          # both kinds of window are named
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    np.testing.assert_allclose(got[~few], want[~few], rtol=0, atol=2e-6)
    none = masked_window_scores(inks, np.ones_like(glare), rows, tpl, weights, cfg)
    assert none.shape == (60, 12) and np.isnan(none).all()
