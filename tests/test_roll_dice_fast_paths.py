"""Fast paths of the Roll dice reader pinned to what they replaced, to the bit.

The pattern test in one pass (vision/roll_dice/shape.py ``pattern_lattice``, ``pattern_axes``) against the
face-by-face computation it replaced (``reference_axes`` below: one look at a time, each look's map turned half
a turn by a gather), and its colour look screened by the grey one against the colour look at every face, on
hand-made tables: a gingham, a row of dice on felt, a printed grid, and a noisy mottled
cloth, with faces cut by the frame's edge and faces small enough that the frame is not scaled down. The channel
adds (vision/roll_dice/foreground.py ``channel_sum``, ``channel_mean``) against numpy's ``sum`` and ``mean``; the
best of the four turns (vision/roll_dice/faces.py ``best_turn``) against numpy's ``max``; one die per place
(vision/roll_dice/assemble.py ``_one_per_place``: the centre distances of all pairs at once, the overlap measured
only where two faces can meet) against the pair-by-pair loop it replaced (``reference_one_per_place``); the
candidate score's clip of one number (vision/roll_dice/candidates.py ``_unit``) against ``np.clip``; log-RGB by a table
of the 256 levels (vision/roll_dice/foreground.py ``to_log``) against numpy's log; the medians of short rows
(vision/roll_dice/foreground.py ``median_last``) against ``np.median``."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.roll_dice import RollDiceConfig
from vision.roll_dice.assemble import _one_per_place, top_overlap
from vision.roll_dice.faces import best_turn
from vision.roll_dice.foreground import channel_mean, channel_sum, median_last, to_log
from vision.roll_dice.shape import pattern_axes, pattern_lattice

CFG = RollDiceConfig()


def reference_both_ways(res, ox, oy, slack, one_side):
    h, w = res.shape
    mj = -(np.arange(w) + ox) - ox
    mi = -(np.arange(h) + oy) - oy
    vj, vi = (mj >= 0) & (mj < w), (mi >= 0) & (mi < h)
    near = cv2.dilate(res, np.ones((2 * slack + 1, 2 * slack + 1), np.uint8))
    opp = near[np.clip(mi, 0, h - 1)[:, None], np.clip(mj, 0, w - 1)[None, :]]
    return np.where(vi[:, None] & vj[None, :], np.minimum(res, opp), res - one_side)


def reference_axes(frame, rects, config, todo=None, colour=False):
    """The per-face loop ``pattern_axes`` was before the one-pass version (one look per call)."""
    n = len(rects)
    out = np.full((n, 2), -1.0)
    if n == 0:
        return out
    todo = np.ones(n, bool) if todo is None else np.asarray(todo, bool)
    if not todo.any():
        return out
    sides = np.sqrt(np.maximum(rects[:, 2] * rects[:, 3], 1.0))
    f = float(config.repeat_side) / float(np.median(sides[todo]))
    src = frame if colour else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    window = config.repeat_window
    if f < 1.0:
        grey = cv2.resize(src, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
    else:
        grey, f = src, 1.0
    gh, gw = grey.shape[:2]
    cos_max = float(np.cos(np.deg2rad(config.repeat_axes_angle)))
    for i in np.flatnonzero(todo):
        s = sides[i] * f
        half = int(round(0.5 * window * s))
        reach = int(round(config.repeat_reach * s))
        cx, cy = int(round(rects[i, 0] * f)), int(round(rects[i, 1] * f))
        tx0, ty0 = max(0, cx - half), max(0, cy - half)
        tx1, ty1 = min(gw, cx + half + 1), min(gh, cy + half + 1)
        if half < 3 or min(tx1 - tx0, ty1 - ty0) < max(3, int(round(min(s, 2 * half)))):
            continue
        tpl = grey[ty0:ty1, tx0:tx1]
        x0, y0 = max(0, tx0 - reach), max(0, ty0 - reach)
        x1, y1 = min(gw, tx1 + reach), min(gh, ty1 + reach)
        if float(tpl.std()) < 1.0:
            continue
        res = np.nan_to_num(cv2.matchTemplate(grey[y0:y1, x0:x1], tpl, cv2.TM_CCOEFF_NORMED), nan=-1.0)
        ox, oy = x0 - tx0, y0 - ty0
        dx = np.arange(res.shape[1]) + ox
        dy = np.arange(res.shape[0]) + oy
        far = dx[None, :] ** 2 + dy[:, None] ** 2 >= (config.repeat_min_shift * s) ** 2
        if not far.any():
            continue
        both = np.where(far, reference_both_ways(res, ox, oy, max(1, int(round(0.15 * s))), config.repeat_one_side),
                        -1.0)
        j = int(both.argmax())
        out[i, 0] = float(both.flat[j])
        bx, by = float(dx[j % both.shape[1]]), float(dy[j // both.shape[1]])
        norm = np.hypot(dx[None, :], dy[:, None]) * max(float(np.hypot(bx, by)), 1e-9)
        other = np.abs(dx[None, :] * bx + dy[:, None] * by) <= cos_max * np.maximum(norm, 1e-9)
        if (other & far).any():
            out[i, 1] = float(both[other & far].max())
    return out


def _gingham(h: int, w: int, p: int) -> np.ndarray:
    yy, xx = np.mgrid[0:h, 0:w]
    a, b = (xx // p) % 2, (yy // p) % 2
    return np.where((a + b)[..., None] == 0, np.array((215, 225, 230)),
                    np.where((a * b)[..., None] == 1, np.array((40, 120, 30)),
                             np.array((140, 190, 140)))).astype(np.uint8)


def _tables() -> list[np.ndarray]:
    rng = np.random.default_rng(11)
    gingham = np.clip(_gingham(360, 480, 18).astype(np.int16) + rng.integers(-6, 7, (360, 480, 3)), 0, 255)
    row = np.full((240, 400, 3), (40, 90, 30), np.uint8)
    for x in (140, 200, 260):
        row[102:138, x - 18:x + 18] = (40, 35, 190)
        row[112:128, x - 8:x + 8] = (215, 225, 230)
    grid = np.full((300, 400, 3), (200, 205, 210), np.uint8)
    grid[28::60] = grid[29::60] = grid[30::60] = (40, 40, 40)
    grid[:, 28::60] = grid[:, 29::60] = grid[:, 30::60] = (40, 40, 40)
    mottled = cv2.GaussianBlur(rng.integers(0, 256, (320, 420, 3)).astype(np.uint8), (0, 0), 3)
    mottled = cv2.normalize(mottled, None, 0, 255, cv2.NORM_MINMAX)
    flat = np.full((200, 260, 3), (90, 90, 90), np.uint8)  # a window with no spread: not measured
    return [gingham.astype(np.uint8), row, grid, mottled, flat]


def _faces(frame: np.ndarray, side: float, n: int, seed: int) -> np.ndarray:
    """``n`` faces of about ``side`` px anywhere on ``frame``, some cut by its edges."""
    rng = np.random.default_rng(seed)
    h, w = frame.shape[:2]
    cx, cy = rng.uniform(-0.1 * side, w + 0.1 * side, n), rng.uniform(-0.1 * side, h + 0.1 * side, n)
    s = side * rng.uniform(0.85, 1.15, n)
    return np.stack([cx, cy, s, s * rng.uniform(0.9, 1.1, n), rng.uniform(-40, 40, n)], 1)


@pytest.mark.parametrize("side", [36.0, 10.0])  # 10 px: the frame is used as it is (no scaling down)
def test_one_pass_pattern_measures_are_the_face_by_face_ones_to_the_bit(side):
    for k, frame in enumerate(_tables()):
        rects = _faces(frame, side, 24, seed=k)
        todo = np.random.default_rng(100 + k).random(len(rects)) < 0.8
        for colour in (False, True):
            want = reference_axes(frame, rects, CFG, todo, colour)
            got = pattern_axes(frame, rects, CFG, todo, colour)
            assert np.array_equal(got, want)
            lattice = pattern_lattice(frame, rects, CFG, todo, colour)
            assert np.array_equal(lattice, np.stack([reference_axes(frame, rects, CFG, todo)[:, 0], want[:, 1]], 1))
        assert (want[~todo] == -1).all()  # only the faces asked for are measured
        assert (want[todo] > -1).any() == (k < 4)  # all but the flat grey table's (no spread in any window)


@pytest.mark.parametrize("screen", [0.35, 0.8])
def test_a_screened_colour_look_is_the_colour_look_where_the_grey_second_axis_reaches_the_screen(screen):
    """With a screen, the colour look of the second axis is taken only at the faces whose grey window recurs along a
    second axis at least that much, or where the grey look says nothing (-1); there its figure is the unscreened
    one to the bit, elsewhere -1 (no lattice); the one-axis column is the grey one whatever the screen."""
    screened_some = False
    for k, frame in enumerate(_tables()):
        rects = _faces(frame, 36.0, 24, seed=k)
        todo = np.random.default_rng(100 + k).random(len(rects)) < 0.8
        full = pattern_lattice(frame, rects, CFG, todo, colour=True)
        got = pattern_lattice(frame, rects, CFG, todo, colour=True, screen=screen)
        grey_second = pattern_axes(frame, rects, CFG, todo, colour=False)[:, 1]
        looked = todo & ~((grey_second > -1.0) & (grey_second < screen))
        assert np.array_equal(got[:, 0], full[:, 0])
        assert np.array_equal(got[looked, 1], full[looked, 1])
        assert (got[~looked, 1] == -1).all()
        screened_some |= bool((todo & ~looked).any())
    assert screened_some


def test_a_screened_colour_look_still_finds_a_check_of_two_colours_of_one_grey():
    """Two colours of (nearly) one grey in a check: the grey look sees no lattice or a flat window (-1), and the
    colour look is still taken there: the cloth's lattice is found as without the screen."""
    h, w, period = 360, 480, 18
    yy, xx = np.mgrid[0:h, 0:w]
    a = np.array((60, 120, 100), np.uint8)   # BGR, grey about 107
    b = np.array((200, 100, 80), np.uint8)   # BGR, grey about 105
    cloth = np.where((((xx // period) + (yy // period)) % 2 == 0)[..., None], a, b).astype(np.uint8)
    check = np.array([[144.5, 144.5, 36, 36, 0.0], [252.5, 216.5, 36, 36, 0.0]])
    got = pattern_lattice(cloth, check, CFG, colour=True, screen=0.99)
    assert (got[:, 1] > CFG.repeat_axes_ramp[1]).all()
    assert np.array_equal(got, pattern_lattice(cloth, check, CFG, colour=True))


def test_one_pass_pattern_measures_of_nothing():
    frame = _tables()[0]
    assert pattern_lattice(frame, np.zeros((0, 5)), CFG).shape == (0, 2)
    rects = _faces(frame, 36.0, 3, seed=1)
    assert (pattern_lattice(frame, rects, CFG, np.zeros(3, bool), colour=True) == -1).all()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("channels", [2, 3])
def test_channel_sums_and_means_are_numpys_to_the_bit(dtype, channels):
    """The whole-array channel adds the reader uses on patches and the work image (:func:`channel_sum`,
    :func:`channel_mean`) give what numpy's ``sum(-1)`` and ``mean(-1)`` give, to the bit: log-RGB differences
    of every size, squared ones, and values whose order of adding matters (large and tiny mixed)."""
    rng = np.random.default_rng(channels)
    x = rng.normal(0.0, 1.0, (40, 48, 48, channels)) * 10.0 ** rng.integers(-6, 7, (40, 48, 48, channels))
    for a in (x, x ** 2, to_log(rng.integers(0, 256, (64, 34, 34, 3), dtype=np.uint8), CFG)[..., :channels]):
        a = a.astype(dtype)
        assert np.array_equal(channel_sum(a), a.sum(-1)) and channel_sum(a).dtype == a.sum(-1).dtype
        assert np.array_equal(channel_mean(a), a.mean(-1)) and channel_mean(a).dtype == a.mean(-1).dtype
    with pytest.raises(ValueError):
        channel_sum(np.zeros((3, 4)))


def test_median_of_rows_by_hand():
    """The middle value of an odd row, the mean of the middle pair of an even one, in the row's dtype; -0 reads +0
    as numpy's mean gives it (summed from +0); a row holding NaN gives NaN."""
    assert median_last(np.array([3.0, 1.0, 2.0])) == 2.0
    rows = median_last(np.array([[4.0, 1.0, 3.0, 2.0], [0.5, 0.25, 8.0, 0.75]], np.float32))
    assert rows.dtype == np.float32 and rows.tolist() == [2.5, 0.625]
    assert np.signbit(np.median(np.array([-0.0, -0.0]))) == np.signbit(median_last(np.array([-0.0, -0.0]))) == False  # noqa: E712
    assert np.signbit(median_last(np.array([-0.0]))) == False  # noqa: E712
    nan = median_last(np.array([[1.0, np.nan, 2.0], [5.0, 7.0, 6.0]]))
    assert np.isnan(nan[0]) and nan[1] == 6.0
    with pytest.raises(ValueError):
        median_last(np.array([1, 2, 3]))
    with pytest.raises(ValueError):
        median_last(np.zeros((3, 0)))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_median_of_rows_is_numpys_to_the_bit(dtype):
    """:func:`median_last` gives ``np.median(x, axis=-1)`` to the bit, value, dtype and shape: rows of odd and even
    length from 1 to 70, of one to three axes before them, log-RGB levels (many equal values), values of mixed
    size, halves near the largest float (their sum overflows as numpy's does), signed zeros."""
    rng = np.random.default_rng(int(np.dtype(dtype).itemsize))
    levels = to_log(rng.integers(0, 256, (6, 5, 70, 3), dtype=np.uint8), CFG)[..., 0]
    big = np.finfo(dtype).max / 2.0
    for t in range(600):
        shape = tuple(int(v) for v in rng.integers(1, 5, t % 4)) + (int(rng.integers(1, 71)),)
        x = rng.normal(0.0, 1.0, shape)
        with np.errstate(over="ignore", invalid="ignore"):
            x = [x * 10.0 ** rng.integers(-8, 8, shape), np.round(x * 4.0), x * 0.0 * np.sign(x),
                 big + np.abs(x) * big / 4.0, levels[..., :shape[-1]]][t % 5].astype(dtype)
            want, got = np.median(x, axis=-1), median_last(x)
        assert type(got) is type(want) and np.asarray(got).dtype == np.asarray(want).dtype
        assert np.asarray(got).shape == np.asarray(want).shape
        assert np.asarray(got).tobytes() == np.asarray(want).tobytes()


def test_log_rgb_by_table_is_numpys_log_to_the_bit():
    """:func:`to_log` of 8-bit images (a table of the 256 levels' logs) gives numpy's float32 log of each level plus
    ``log_offset``, to the bit: every level, a frame, a stack of patches, a strided cut of them, one pixel; any other
    input (float) is the log itself."""
    rng = np.random.default_rng(5)
    levels = np.arange(256, dtype=np.uint8)
    stack = rng.integers(0, 256, (9, 48, 48, 3), dtype=np.uint8)
    for img in (np.stack([levels] * 3, -1), rng.integers(0, 256, (72, 128, 3), dtype=np.uint8), stack,
                stack[:, 4:38, 4:38], stack[:, ::3, 5, :], np.array([[[0, 128, 255]]], np.uint8)):
        want = np.log(img.astype(np.float32) + np.float32(CFG.log_offset))
        got = to_log(img, CFG)
        assert got.dtype == np.float32 and got.shape == img.shape and np.array_equal(got, want)
    other = rng.uniform(0, 255, (5, 5, 3))
    np.testing.assert_array_equal(to_log(other, CFG), np.log(other.astype(np.float32) + np.float32(CFG.log_offset)))


def test_best_turn_is_the_maximum_over_the_four_turns():
    """The best of each template's four quarter turns (:func:`best_turn`) is numpy's maximum over them, to the bit,
    on score arrays of the shapes the face match has (per window, per die) and with ties and NaN among them."""
    rng = np.random.default_rng(4)
    for shape in ((64, 25, 120), (28, 120), (0, 68)):
        score = rng.normal(0.0, 0.3, shape).astype(np.float32)
        score.reshape(*shape[:-1], shape[-1] // 4, 4)[..., 2] = score.reshape(*shape[:-1], shape[-1] // 4, 4)[..., 0]
        if score.size:
            score.flat[rng.integers(0, score.size, 5)] = np.nan
        want = score.reshape(*shape[:-1], shape[-1] // 4, 4).max(-1)
        got = best_turn(score)
        assert got.shape == want.shape and np.array_equal(got, want, equal_nan=True)


def reference_one_per_place(out, rects, config):
    """The pair-by-pair loop ``_one_per_place`` replaced (each read against every read kept before it)."""
    side = np.sqrt(rects[:, 2] * rects[:, 3])
    kept = []
    for conf, i, obs in out:
        if all(np.hypot(*(rects[i, :2] - rects[j, :2])) > config.overlap_dist * min(side[i], side[j])
               and top_overlap(rects[i], rects[j]) <= config.overlap_share for _, j, _ in kept):
            kept.append((conf, i, obs))
    return kept


def test_one_die_per_place_keeps_what_the_pair_by_pair_loop_kept():
    """Tables of 0 to 80 top faces in clusters (a die read twice a little off, a face on a die's side, dice side by
    side touching), surest first: the same reads kept, in the same order, as the pair-by-pair loop."""
    for seed in range(12):
        rng = np.random.default_rng(seed)
        n = int(rng.integers(0, 81))
        centres = rng.uniform(0, 600, (max(1, n // 3), 2))
        cx, cy = (centres[rng.integers(0, len(centres), n)] + rng.normal(0, 25, (n, 2))).T
        side = rng.uniform(30, 60, n)
        rects = np.stack([cx, cy, side, side * rng.uniform(0.7, 1.3, n), rng.uniform(-45, 45, n)], 1).reshape(n, 5)
        rank = rng.random(n)
        out = sorted(((float(rank[i]), i, f"die {i}") for i in range(n)), key=lambda t: -t[0])
        want = reference_one_per_place(out, rects, CFG)
        assert _one_per_place(out, rects, CFG) == want
        assert n == 0 or 0 < len(want) < n


def test_one_die_per_place_by_hand():
    """Hand-made faces, the first (side 60 px) surest: a second read 8 px off it (closer than 0.7 x 60 = 42 px:
    dropped), a face of side 20 px 15 px off its centre (farther than 0.7 x 20 = 14 px, but wholly on the first:
    dropped), a die 62 px beside it (touching, no overlap) and one far away (both kept)."""
    rects = np.array([[100.0, 100, 60, 60, 0], [108.0, 100, 60, 60, 0], [115.0, 100, 20, 20, 0],
                      [162.0, 100, 60, 60, 0], [400.0, 400, 60, 60, 0]])
    out = [(1.0 - 0.1 * i, i, i) for i in range(5)]
    assert [i for _, i, _ in _one_per_place(out, rects, CFG)] == [0, 3, 4]
    assert top_overlap(rects[0], rects[2]) == pytest.approx(1.0, abs=0.02)


def test_one_number_clipped_to_0_1_is_numpys_clip():
    """The candidate score's clip of one number (vision/roll_dice/candidates.py ``_unit``) is ``np.clip`` to 0..1, to
    the bit: below 0, 0 itself (and -0), inside, 1 and above, tiny and huge numbers."""
    from vision.roll_dice.candidates import _unit

    rng = np.random.default_rng(9)
    values = [-0.0, 0.0, 1.0, -1e-300, 1e-300, 1.0 - 2 ** -53, 1.0 + 2 ** -52, -3.5, 7.25, 1e300, -1e300,
              *rng.normal(0.5, 1.0, 200).tolist()]
    for x in values:
        got, want = _unit(x), float(np.clip(x, 0, 1))
        assert got == want and isinstance(got, float), x
