"""The Roll dice reader's fast kernels (vision/roll_dice/faces.py, tops.py, shape.py) against plain reference
versions written out here: the face match's window scores (one matrix product over gathered windows), its
coarse-to-fine shift search, the batched second look, the batched ink maps and shape evidence, and the body
colour's histogram smoothing.

Dice are drawn by the synthetic scene generator (:mod:`vision.synth`, seeds disjoint from enrollment); the
profile is enrolled from small synthetic photos.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from tests.roll_dice_small import ENROLL, FACES_BY_COLOUR
from tests.roll_dice_small import SCENE as SMALL_SCENE
from vision import synth
from vision.profiles import DiceProfile
from vision.roll_dice import RollDiceConfig, RollDiceReader, TopFaces, build_profile
from vision.roll_dice.candidates import (
    clean_mask,
    edge_map,
    face_cores,
    merge_fragments,
    symbol_blobs,
    tried_sides,
    typical_side,
)
from vision.roll_dice.faces import (
    _runs,
    keep_ink_polarity,
    match_faces_polarised,
    polarised_scores,
    relocate_faces,
    search_faces,
    window_integrals,
    window_scores,
    window_scores_at,
)
from vision.roll_dice.foreground import foreground, to_log
from vision.roll_dice.glare import face_glare, glare_masks
from vision.roll_dice.shape import _rings, face_evidence, face_evidences
from vision.roll_dice.tops import (
    body_colour,
    body_colours,
    ink_map,
    ink_maps,
    rect_box,
    refine_top,
    refine_tops,
    rim_weights,
    upright_patch,
)

SCENE = replace(SMALL_SCENE, n_dice=(8, 10))


@pytest.fixture(scope="module")
def reader(tmp_path_factory) -> RollDiceReader:
    folder = tmp_path_factory.mktemp("enroll")
    synth.write_enrollment(folder, FACES_BY_COLOUR, seed=3, symbol_set="A", dice_per_photo=3, config=ENROLL)
    profile: DiceProfile = build_profile(folder)
    return RollDiceReader(profile)


@pytest.fixture(scope="module")
def scenes(reader: RollDiceReader) -> list[tuple[np.ndarray, TopFaces]]:
    """Three generated scenes and the top faces the reader's detector finds on them."""
    out = []
    for seed in (501, 502, 503):
        image = synth.render_scene(seed, SCENE, faces_by_colour=FACES_BY_COLOUR).image
        out.append((image, reader.detect(image)))
    return out


def reference_scores(inks: np.ndarray, rot_templates: np.ndarray, cfg, step: int) -> np.ndarray:
    """NCC ``[N, S, 4K]`` window by window, as the reader defines it: per channel, the window's dot product with
    the (zero-mean, unit-norm) template over the window's spread with its noise floor, weighted over channels."""
    n, c, q = inks.shape[:3]
    t = cfg.template
    d = t * t
    w = np.array((1.0, cfg.chroma_ink_weight)[:c])
    tpl = rot_templates.reshape(len(rot_templates), c, d).astype(np.float64)
    offs = range(0, q - t + 1, step)
    out = np.zeros((n, len(offs) ** 2, len(rot_templates)))
    for i in range(n):
        for s, (dy, dx) in enumerate((a, b) for a in offs for b in offs):
            win = inks[i, :, dy:dy + t, dx:dx + t].reshape(c, d).astype(np.float64)
            spread = ((win - win.mean(1, keepdims=True)) ** 2).sum(1)
            den = np.sqrt(spread + d * cfg.ink_noise ** 2 + 1e-12)
            out[i, s] = ((tpl @ win.T)[:, np.arange(c), np.arange(c)] * w / den).sum(1) * np.sqrt(c) / w.sum()
    return out


def test_window_scores_equal_the_window_by_window_ncc(reader, scenes):
    cfg = reader.config
    _, tops = scenes[0]
    inks = tops.ink[:4]
    for step in (1, 2):
        got, shifts = window_scores(inks, reader.turned_templates, cfg, step)
        q, t = inks.shape[2], cfg.template
        assert shifts == [(a, b) for a in range(0, q - t + 1, step) for b in range(0, q - t + 1, step)]
        np.testing.assert_allclose(got, reference_scores(inks, reader.turned_templates, cfg, step), atol=2e-5)


def test_gathered_windows_score_as_the_grid(reader, scenes):
    cfg = reader.config
    _, tops = scenes[1]
    inks = tops.ink
    grid, shifts = window_scores(inks, reader.turned_templates, cfg, 1)
    rng = np.random.default_rng(0)
    rows = np.stack([rng.integers(0, len(inks), 40), *np.asarray(shifts)[rng.integers(0, len(shifts), 40)].T], 1)
    got = window_scores_at(inks, reader.turned_templates, cfg, rows)
    want = grid[rows[:, 0], [shifts.index((int(a), int(b))) for a, b in rows[:, 1:]]]
    np.testing.assert_allclose(got, want, atol=1e-5)


def test_integral_images_are_the_running_sums_and_serve_both_passes(reader, scenes):
    """The integral images are ``cumsum`` along the rows then the columns, to a rounding of float64 sums (each patch
    summed by ``cv2.integral2``, in its own order); the scores read from them are those of the ``cumsum`` integrals
    to the bit (the float32 the scores are kept in hides the rounding); a gathered window's sums read from them score
    as the window's own sums; the integrals given or computed score alike."""
    cfg = reader.config
    _, tops = scenes[0]
    inks = tops.ink
    ii = window_integrals(inks, cfg)
    x = inks.astype(np.float64)
    running = np.zeros_like(ii)
    running[0, :, :, 1:, 1:], running[1, :, :, 1:, 1:] = x.cumsum(2).cumsum(3), (x * x).cumsum(2).cumsum(3)
    np.testing.assert_allclose(ii, running, rtol=1e-13, atol=1e-12)
    assert not ii[:, :, :, 0].any() and not ii[:, :, :, :, 0].any()
    rng = np.random.default_rng(3)
    q, t = inks.shape[2], cfg.template
    rows = np.stack([rng.integers(0, len(inks), 30), rng.integers(0, q - t + 1, 30), rng.integers(0, q - t + 1, 30)], 1)
    got = window_scores_at(inks, reader.turned_templates, cfg, rows, ii)
    assert np.array_equal(got, window_scores_at(inks, reader.turned_templates, cfg, rows, running))
    assert np.array_equal(window_scores_at(inks, reader.turned_templates, cfg, 1, ii),
                          window_scores_at(inks, reader.turned_templates, cfg, 1, running))
    assert np.array_equal(got, window_scores_at(inks, reader.turned_templates, cfg, rows))
    want = np.stack([reference_window(inks[n, :, a:a + t, b:b + t], reader.turned_templates, cfg) for n, a, b in rows])
    np.testing.assert_allclose(got, want, atol=1e-5)
    assert np.array_equal(window_scores_at(inks, reader.turned_templates, cfg, 2, ii),
                          window_scores_at(inks, reader.turned_templates, cfg, 2))


def reference_window(win: np.ndarray, rot_templates: np.ndarray, cfg) -> np.ndarray:
    """NCC ``[4K]`` of one ``[C, T, T]`` window, its sums taken directly: per channel, the window centred and
    divided by its spread (with the ``ink_noise`` floor), weighted over the channels."""
    c, t = win.shape[0], win.shape[1]
    weights = np.array((1.0, cfg.chroma_ink_weight)[:c])
    w = win.reshape(c, t * t).astype(np.float64)
    den = np.sqrt(np.maximum((w * w).sum(1) - w.sum(1) ** 2 / (t * t), 0.0) + t * t * cfg.ink_noise ** 2 + 1e-12)
    scaled = w * (weights * np.sqrt(c) / weights.sum() / den)[:, None]
    return np.asarray(rot_templates, np.float64).reshape(len(rot_templates), -1) @ scaled.reshape(-1)


@pytest.mark.parametrize("step, margin", [(1, None), (2, "relocate")])
def test_coarse_to_fine_search_finds_what_the_full_search_finds(reader, scenes, step, margin):
    """On generated dice (the cold match's patches, and the second look's wider ones at its step), the coarse
    to fine search gives each die the best template, NCC and window of the exhaustive search; no score is
    above the exhaustive one."""
    cfg = reader.config
    pol = reader._template_pol
    for image, tops in scenes:
        if margin is None:
            inks = tops.ink
        else:
            m = round(cfg.relocate_margin * cfg.patch)
            side = np.sqrt(tops.rects[:, 2] * tops.rects[:, 3])
            inks, _ = ink_maps(np.stack([upright_patch(image, r[0], r[1], s, r[4], cfg.patch, m)
                                         for r, s in zip(tops.rects, side, strict=True)]), cfg, m)
        full, shifts = polarised_scores(inks, reader.turned_templates, pol, cfg, step)
        exact, corner = search_faces(inks, reader.turned_templates, pol, cfg, step, 0)
        np.testing.assert_allclose(exact, full.max(1), atol=0)
        fast, fast_corner = search_faces(inks, reader.turned_templates, pol, cfg, step, cfg.shift_refine)
        assert (fast <= exact + 1e-6).all()
        np.testing.assert_array_equal(fast.argmax(1), exact.argmax(1))
        np.testing.assert_allclose(fast.max(1), exact.max(1), atol=1e-6)
        np.testing.assert_array_equal(fast_corner, corner)


def second_look_scale_by_scale(image, tops, ncc, reader, cfg):
    """The second look written out die by die and scale by scale: each die searched coarse to fine
    (:func:`search_faces`) at each of ``relocate_scales`` in turn, its ink measured against its top face's body
    colour, until one scale reaches ``relocate_below``; the NCC row of the best scale that beats the first NCC by
    ``relocate_gain`` (the first NCC row where none does)."""
    p = cfg.patch
    m = round(cfg.relocate_margin * p)
    out = ncc.copy()
    for i in range(len(tops.rects)):
        cx, cy, w, h, ang = tops.rects[i]
        best = float(ncc[i].max()) + cfg.relocate_gain
        for sc in cfg.relocate_scales:
            patch = upright_patch(image, cx, cy, np.sqrt(w * h) * sc, ang, p, m)[None]
            inks, _ = ink_maps(patch, cfg, m, tops.body[i:i + 1])
            score, _ = search_faces(inks, reader.turned_templates, reader._template_pol, cfg, cfg.relocate_step,
                                    cfg.shift_refine, glare_masks(patch, inks[:, 0], cfg))
            if score.max() > best:
                best, out[i] = float(score.max()), score[0].reshape(-1, 4).max(1)
                if best >= cfg.relocate_below:
                    break
    return out


def test_runs_of_sorted_values_start_where_the_value_changes():
    # the fine pass's patches and their first best rows: patch 2 at rows 0-1, 5 at row 2, 7 at rows 3-5
    assert _runs(np.array([2, 2, 5, 7, 7, 7])).tolist() == [0, 2, 3]
    assert _runs(np.array([4])).tolist() == [0]
    assert _runs(np.array([0, 1, 2])).tolist() == [0, 1, 2]


def test_second_look_reads_each_die_as_its_search_scale_by_scale(reader, scenes):
    """The second look's batched search (the dice looked at again searched together, a scale at a time) gives every
    die the NCC of the search written out die by die and scale by scale, for dice moved a fifth of a side off their
    top faces: a reference for any change to which scales, shifts and windows the second look tries."""
    cfg = replace(reader.config, relocate_below=0.6)                 # some dice stop at a scale, others go on
    image, tops = scenes[0]
    off = tops.rects.copy()
    off[:, 0] += 0.2 * np.sqrt(tops.rects[:, 2] * tops.rects[:, 3])
    moved = TopFaces(off, tops.scores, tops.ink, tops.body, tops.evidence)
    ncc = np.full((len(off), len(reader.turned_templates) // 4), 0.3, np.float32)
    got, _ = relocate_faces(image, moved, ncc, None, reader.turned_templates, cfg, None, reader._template_pol)
    np.testing.assert_allclose(got, second_look_scale_by_scale(image, moved, ncc, reader, cfg), atol=1e-5)
    assert (got.max(1) > 0.35).any()                     # some die was looked at and moved


def test_second_look_together_equals_one_die_at_a_time(reader, scenes):
    """The dice looked at again are searched together, a scale at a time; each die comes out as if alone."""
    cfg = replace(reader.config, relocate_below=1.0)
    image, tops = scenes[2]
    off = tops.rects.copy()
    off[:, 0] += 0.25 * np.sqrt(tops.rects[:, 2] * tops.rects[:, 3])
    moved = TopFaces(off, tops.scores, tops.ink, tops.body, tops.evidence)
    ncc = np.full((len(off), len(reader.turned_templates) // 4), 0.3, np.float32)
    together, rects = relocate_faces(image, moved, ncc, None, reader.turned_templates, cfg, None, reader._template_pol)
    for i in range(len(off)):
        alone = np.arange(len(off)) == i
        one, one_rects = relocate_faces(image, moved, ncc, None, reader.turned_templates, cfg, alone,
                                        reader._template_pol)
        np.testing.assert_allclose(one[i], together[i], atol=1e-6)
        np.testing.assert_allclose(one_rects[i], rects[i], atol=1e-9)


def test_ink_maps_and_evidence_of_many_equal_one_at_a_time(reader, scenes):
    cfg = reader.config
    image, tops = scenes[0]
    side = np.sqrt(tops.rects[:, 2] * tops.rects[:, 3])
    patches = np.stack([upright_patch(image, r[0], r[1], s, r[4], cfg.patch, cfg.evidence_margin)
                        for r, s in zip(tops.rects, side, strict=True)])
    m = cfg.evidence_margin - cfg.patch_margin
    q = cfg.patch + 2 * cfg.patch_margin
    inks, bodies = ink_maps(patches[:, m:m + q, m:m + q], cfg)
    for i in range(len(patches)):
        ink, body = ink_map(patches[i, m:m + q, m:m + q], cfg)
        np.testing.assert_allclose(inks[i], ink, atol=1e-5)
        np.testing.assert_allclose(bodies[i], body, atol=1e-6)
    ev = face_evidences(patches, bodies, cfg)
    for i in range(len(patches)):
        np.testing.assert_array_equal(ev[i], face_evidence(patches[i], bodies[i], cfg))
        np.testing.assert_array_equal(ev[i], reference_evidence(patches[i], bodies[i], cfg))


def reference_evidence(patch: np.ndarray, body: np.ndarray, cfg) -> np.ndarray:
    """(rim, outline, ink) with each sector's median by ``np.median``, sector by sector."""
    rim, band, centre, sector = _rings(patch.shape[0], float(cfg.patch), int(cfg.evidence_sectors))
    d = np.sqrt(((to_log(patch, cfg) - np.asarray(body, np.float32)) ** 2).sum(2))
    medians = [float(np.median(d[sector == k])) for k in range(cfg.evidence_sectors) if (sector == k).any()]
    outline = float(np.mean([m > cfg.evidence_outline for m in medians]))
    return np.array([float((d[rim] < cfg.evidence_body).mean()), outline, float((d[centre] > cfg.evidence_ink).mean())])


def test_body_colour_smooths_its_histogram_as_the_rolled_sum():
    """The densest colour after smoothing each histogram axis by h[i-1] + h[i] + h[i+1] (``np.roll``, the
    definition) on random two-colour patches with random rim weights."""
    rng = np.random.default_rng(4)
    for _ in range(20):
        a, b = rng.uniform(3.0, 5.5, 3), rng.uniform(3.0, 5.5, 3)
        px = np.where(rng.random((30, 30, 1)) < rng.uniform(0.3, 0.7), a, b) + rng.normal(0, 0.05, (30, 30, 3))
        logp = px.astype(np.float32)
        w = rng.random((30, 30)) if rng.random() < 0.5 else rim_weights(30, 26.0)
        assert np.array_equal(body_colour(logp, weights=w), reference_body(logp, w))


def test_body_colours_of_many_patches_are_each_patchs_own():
    """:func:`body_colours` of a batch (two-colour patches whose colour ranges differ, so each histogram has its
    own extent) gives every patch the same numbers as the definition (``reference_body``) on that patch alone,
    with the rim weights (whose zero corners are left out of the histogram) and with random weights."""
    rng = np.random.default_rng(9)
    for n in (1, 2, 7):
        for w in (rim_weights(30, 26.0), rng.random((30, 30))):
            logp = np.stack([np.where(rng.random((30, 30, 1)) < rng.uniform(0.3, 0.7), rng.uniform(2.0, 5.5, 3),
                                      rng.uniform(2.0, 5.5, 3)) + rng.normal(0, rng.uniform(0.02, 0.3), (30, 30, 3))
                             for _ in range(n)]).astype(np.float32)
            got = body_colours(logp, weights=w)
            assert got.shape == (n, 3) and got.dtype == np.float32
            for i in range(n):
                assert np.array_equal(got[i], reference_body(logp[i], w))


def test_body_colours_without_weight_take_the_first_bin():
    """Where no pixel weighs (weights all 0) every histogram is empty, so its first bin (one below each patch's own
    lowest bin) is the mode, and each patch keeps its own: of two flat colours, the one darker in every channel,
    as the definition (``reference_body``) gives it."""
    rng = np.random.default_rng(12)
    dark, light = rng.integers(16, 28, (3, 3)) / 8.0, rng.integers(32, 44, (3, 3)) / 8.0   # their means are exact
    logp = np.stack([np.where(rng.random((20, 20, 1)) < 0.5, dark[i], light[i]) for i in range(3)]).astype(np.float32)
    zero = np.zeros((20, 20), np.float32)
    got = body_colours(logp, weights=zero)
    for i in range(3):
        assert np.array_equal(got[i], dark[i].astype(np.float32))
        assert np.array_equal(got[i], reference_body(logp[i], zero))


def test_refine_tops_of_many_candidates_are_each_ones_own(reader, scenes):
    """The top faces of a frame's candidates refined together (their body colours in one batch) are those each
    candidate gives refined alone, to the last digit."""
    cfg = reader.config
    for image, tops in scenes:
        rects, bodies = refine_tops(image, tops.rects, cfg)
        assert rects.shape == (len(tops.rects), 5) and bodies.shape == (len(tops.rects), 3)
        for i, r in enumerate(tops.rects):
            one_rect, one_body = refine_top(image, r, cfg)
            assert np.array_equal(rects[i], one_rect) and np.array_equal(bodies[i], one_body)


def reference_body(logp: np.ndarray, weights: np.ndarray, bin_size: float = 0.08) -> np.ndarray:
    px = logp.reshape(-1, 3)
    q = np.floor(px / bin_size).astype(np.int64)
    q -= q.min(0) - 1
    dims = q.max(0) + 2
    key = (q[:, 0] * dims[1] + q[:, 1]) * dims[2] + q[:, 2]
    hist = np.bincount(key, weights.reshape(-1), minlength=int(np.prod(dims))).reshape(tuple(dims))
    for ax in range(3):
        hist = hist + np.roll(hist, 1, ax) + np.roll(hist, -1, ax)
    top = np.array(np.unravel_index(int(hist.argmax()), hist.shape))
    near = (np.abs(q - top) <= 1).all(1)
    centre = px[near].mean(0) if near.any() else px.mean(0)
    return px[np.sqrt(((px - centre) ** 2).sum(1)) < 2.0 * bin_size].mean(0)


def test_polarity_kept_before_scoring(reader, scenes):
    """Without template polarities the inks are scored as given (the caller kept a polarity)."""
    cfg = reader.config
    _, tops = scenes[1]
    inks = keep_ink_polarity(tops.ink, np.full(len(tops.ink), -1.0), cfg)
    a, _ = search_faces(inks, reader.turned_templates, None, cfg, 1, 0)
    b, _ = window_scores(inks, reader.turned_templates, cfg, 1)
    np.testing.assert_allclose(a, b.max(1), atol=0)


def test_drop_duplicates_keeps_what_the_pairwise_loop_keeps(reader, scenes):
    """One face per place and no side faces, as the plain pair-by-pair loop decides, on the detector's faces
    before dedupe plus jittered copies of them (fragments of one die)."""
    from vision.roll_dice.foreground import LOG_RGB_BASIS
    from vision.roll_dice.tops import drop_duplicates

    cfg = reader.config
    rng = np.random.default_rng(7)
    for _, tops in scenes:
        n = len(tops.rects)
        pick = rng.integers(0, n, n)
        rects = np.concatenate([tops.rects, tops.rects[pick] + rng.normal(0, 4, (n, 5)) * [1, 1, 1, 1, 0]])
        body = np.concatenate([tops.body, tops.body[pick] + rng.normal(0, 0.1, (n, 3))])
        many = TopFaces(rects, rng.random(2 * n), np.zeros((2 * n, 2, 1, 1), np.float32), body)
        side = np.sqrt(rects[:, 2] * rects[:, 3])
        keep: list[int] = []
        for i in np.lexsort((-side, -many.scores)):
            if all(np.hypot(*(rects[i, :2] - rects[j, :2])) > cfg.duplicate_dist * min(side[i], side[j]) for j in keep):
                keep.append(int(i))
        bright, chroma = body @ LOG_RGB_BASIS[2], body @ LOG_RGB_BASIS[:2].T
        drop = set()
        for i in keep:
            sq = max(rects[i, 2], rects[i, 3]) / max(min(rects[i, 2], rects[i, 3]), 1e-6)
            for j in keep:
                if i != j and (np.hypot(*(rects[i, :2] - rects[j, :2])) < max(side[i], side[j])
                               and bright[j] - bright[i] > cfg.side_darker and side[i] < side[j] * 1.05
                               and np.hypot(*(chroma[i] - chroma[j])) < cfg.side_chroma
                               and (sq > 1.25 or side[i] < 0.8 * side[j])):
                    drop.add(i)
                    break
        want = sorted(i for i in keep if i not in drop)
        np.testing.assert_array_equal(drop_duplicates(many, cfg).rects, rects[want])


@pytest.mark.parametrize("seed", [611, 617, 622])
def test_fragments_merge_as_one_at_a_time(reader, seed):
    """Face cores of touching dice (symbol strokes cut a face into fragments) are merged as the plain loop over
    every pair of fragments does (each fragment's distance to the growing group's centre taken one by one)."""
    cfg = reader.config
    image = synth.render_scene(seed, replace(SCENE, touching=0.6, n_dice=(12, 14)), FACES_BY_COLOUR).image
    work, mask, _ = foreground(image, cfg)
    side = typical_side(clean_mask(mask, cfg.default_side_frac * max(mask.shape), cfg), cfg)
    cores = face_cores(clean_mask(mask, side, cfg), edge_map(work, cfg), side, cfg)
    _, labels, stats, _ = cv2.connectedComponentsWithStats(cores, connectivity=4)
    got = merge_fragments(labels, stats, side, cfg)
    want = reference_merge(labels, stats, side, cfg)
    fragments = int((stats[1:, cv2.CC_STAT_AREA] >= cfg.fragment_min_frac * side * side).sum())
    assert fragments > len(want) > 5  # some fragments were merged
    assert len(got) == len(want)
    for a, b in zip(got, want, strict=True):
        assert np.array_equal(a, b)


@pytest.mark.parametrize("seed", [5, 29, 71])
def test_labelled_pixels_are_those_nonzero_gives_grouped_by_label(seed):
    """Every labelled pixel (x, y), grouped by label in label order and row-major within a label, and each one's
    label in row-major order: as ``np.nonzero`` and a stable sort by label give them, on random label maps with
    empty labels, a label of one pixel and labels that wrap round rows."""
    from vision.roll_dice.candidates import _labelled_pixels

    rng = np.random.default_rng(seed)
    h, w, n = int(rng.integers(5, 60)), int(rng.integers(5, 90)), int(rng.integers(2, 40))
    labels = np.where(rng.random((h, w)) < 0.4, rng.integers(1, n, (h, w)), 0).astype(np.int32)
    labels[0, 0] = n - 1                                  # the last label is used
    ys, xs = np.nonzero(labels)
    lab = labels[ys, xs]
    want = np.stack([xs, ys], axis=1).astype(np.float32)[np.argsort(lab, kind="stable")]
    xy, got = _labelled_pixels(labels, n)
    assert xy.dtype == np.float32 and xy.shape == want.shape
    np.testing.assert_array_equal(xy, want)
    np.testing.assert_array_equal(got, lab)
    xy, got = _labelled_pixels(np.zeros((4, 6), np.int32), 1)  # nothing labelled
    assert xy.shape == (0, 2) and len(got) == 0


def reference_merge(labels: np.ndarray, stats: np.ndarray, side: float, cfg) -> list[np.ndarray]:
    """Fragments by size, largest first; each that is no whole face takes every later fragment within a side of
    the group's centre whose union still fits ``merge_fit`` x the side, one at a time."""
    pts = []
    for i in range(1, len(stats)):
        x, y, w, h = stats[i, :4]
        if stats[i, cv2.CC_STAT_AREA] >= cfg.fragment_min_frac * side * side:
            ys, xs = np.nonzero(labels[y:y + h, x:x + w] == i)
            pts.append(np.stack([xs + x, ys + y], axis=1).astype(np.float32))
    order = sorted(range(len(pts)), key=lambda i: -len(pts[i]))
    used = [False] * len(pts)
    groups = []
    for i in order:
        if used[i]:
            continue
        used[i] = True
        group = pts[i]
        if len(group) < cfg.merge_max_frac * side * side:
            for j in order:
                if used[j] or np.hypot(*(pts[j].mean(0) - group.mean(0))) > side:
                    continue
                union = np.vstack([group, pts[j]])
                if max(cv2.minAreaRect(union)[1]) <= cfg.merge_fit * side:
                    group, used[j] = union, True
        groups.append(group)
    return groups


def _square(mask, edges, cx, cy, side, printed):
    h = side // 2
    cv2.rectangle(mask, (cx - h, cy - h), (cx + h, cy + h), 255, -1)
    if printed:  # a symbol's outline inside the face
        cv2.circle(edges, (cx, cy), max(2, side // 4), 255, 1)
        cv2.line(edges, (cx - side // 4, cy), (cx + side // 4, cy), 255, 1)


def test_the_die_side_is_measured_on_the_printed_blobs_not_on_the_cloths_checks():
    """A checked cloth shows many flat square blobs of its own size (here 30 of 12 px, at least
    ``pattern_min_flat``) and a few printed dice (24 px): the typical side is the dice's; without the edges it is
    the checks'."""
    cfg = RollDiceConfig()
    mask = np.zeros((360, 640), np.uint8)
    edges = np.zeros_like(mask)
    for i in range(30):
        _square(mask, edges, 20 + 40 * (i % 15), 20 + 40 * (i // 15), 12, False)
    for k in range(3):
        _square(mask, edges, 120 + 150 * k, 250, 24, True)
    assert typical_side(mask, cfg, default=26.0) == pytest.approx(12.0, abs=1.5)  # the checks
    assert typical_side(mask, cfg, default=26.0, edges=edges) == pytest.approx(24.0, abs=2.0)
    # the same cloth with no die on it: the side the table expects, not the checks'
    empty = np.zeros_like(mask)
    for i in range(30):
        _square(empty, np.zeros_like(mask), 20 + 40 * (i % 15), 20 + 40 * (i // 15), 12, False)
    assert typical_side(empty, cfg, default=26.0, edges=np.zeros_like(mask)) == 26.0
    # a plain table (a few square blobs, printed or not): every square blob counts, as before
    few = np.zeros_like(mask)
    for k in range(3):
        _square(few, np.zeros_like(mask), 120 + 150 * k, 250, 24, False)
    assert typical_side(few, cfg, default=26.0, edges=np.zeros_like(mask)) == pytest.approx(24.0, abs=2.0)


def test_the_sizes_tried_are_the_expected_range_unless_the_blobs_show_larger_dice():
    """The reader tries ``size_hypotheses`` x the default side (26.88 px on a 640 px frame), whatever the frame's
    square blobs measure below them (a cloth's 12 px checks); only square blobs larger than every tried size (a
    camera nearer the table: 60 px dice) are trusted, and then alone; no hypotheses: the blobs."""
    cfg = RollDiceConfig()
    default = cfg.default_side_frac * 640
    work = np.zeros((360, 640, 3), np.uint8)
    checks = np.zeros((360, 640), np.uint8)
    for i in range(60):
        cv2.rectangle(checks, (10 + 40 * (i % 15), 10 + 40 * (i // 15)), (21 + 40 * (i % 15), 21 + 40 * (i // 15)),
                      255, -1)
    grid = [pytest.approx(default * f) for f in cfg.size_hypotheses]
    assert tried_sides(cv2.merge([checks] * 3), checks, cfg) == grid
    big = np.zeros_like(checks)
    for k in range(4):
        cv2.rectangle(big, (40 + 150 * k, 150), (99 + 150 * k, 209), 255, -1)
    assert max(cfg.size_hypotheses) * default < 55  # 60 px dice are above every tried size
    assert tried_sides(cv2.merge([big] * 3), big, cfg) == [None]
    assert tried_sides(work, checks, replace(cfg, size_hypotheses=())) == [None]


def test_symbol_blobs_tell_a_printed_face_from_a_flat_one():
    cfg = RollDiceConfig()
    mask = np.zeros((100, 200), np.uint8)
    edges = np.zeros_like(mask)
    _square(mask, edges, 50, 50, 30, True)
    _square(mask, edges, 150, 50, 30, False)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    got = symbol_blobs(mask, list(contours), edges, 30.0, cfg)
    xs = [int(c[:, 0, 0].mean()) for c in contours]
    assert [bool(g) for _, g in sorted(zip(xs, got, strict=True))] == [True, False]


def test_a_face_set_aside_keeps_its_first_match_and_the_others_are_looked_at_again_as_untold(reader, scenes):
    """The face match's second look passes by the faces the caller sets aside (a calibration marker with its paper,
    :class:`vision.roll_dice.kept.Aside`): their NCC and rect stay those of the first match, while every other face is
    looked at again as in a read told nothing (dice moved a quarter side off the ink they were cut from, every face
    looked at again)."""
    from vision.roll_dice.kept import Aside

    cfg = replace(reader.config, relocate_below=1.0)
    image, tops = scenes[2]
    off = tops.rects.copy()
    off[:, 0] += 0.25 * np.sqrt(tops.rects[:, 2] * tops.rects[:, 3])
    side = np.sqrt(off[:, 2] * off[:, 3])
    patches = np.stack([upright_patch(image, cx, cy, s, a, cfg.patch, 0)
                        for cx, cy, s, a in zip(off[:, 0], off[:, 1], side, off[:, 4], strict=True)])
    ink = ink_maps(patches, cfg, 0, tops.body)[0]            # the ink cut where the faces now lie
    moved = TopFaces(off, tops.scores, ink, tops.body, tops.evidence)
    untold_ncc, untold = reader._match(image, moved, cfg)
    again = np.any(untold.rects != off, axis=1)
    assert again.sum() >= 2                                  # the second look moved several faces
    first = match_faces_polarised(moved.ink, reader.turned_templates, reader._template_pol, cfg,
                                  face_glare(image, off, moved.ink, cfg))
    timings: dict[str, float] = {}
    nowhere_ncc, nowhere = reader._match(image, moved, cfg, aside=Aside(lambda b: [False] * len(b), (0, 0), timings))
    np.testing.assert_array_equal(nowhere.rects, untold.rects)
    np.testing.assert_array_equal(nowhere_ncc, untold_ncc)
    assert "aside" in timings
    # the first of the faces the second look moved lies on a marker's sheet: it alone keeps its first match
    sheet = int(np.flatnonzero(again)[0])
    box = rect_box(off[sheet])

    def on_sheet(boxes):
        return [tuple(b) == box for b in boxes]

    some_ncc, some = reader._match(image, moved, cfg, aside=Aside(on_sheet, (0, 0), {}))
    np.testing.assert_array_equal(some.rects[sheet], off[sheet])
    np.testing.assert_allclose(some_ncc[sheet], first[sheet], atol=1e-6)
    rest = np.arange(len(off)) != sheet
    np.testing.assert_array_equal(some.rects[rest], untold.rects[rest])
    np.testing.assert_allclose(some_ncc[rest], untold_ncc[rest], atol=1e-6)
