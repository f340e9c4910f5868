"""The deck search's fine shift search (vision.deck_search, issue 15) against the correlation written out
directly: for each (reference, turn) pair, every H x W window of the query's maps centred and correlated with
the reference per channel, the channels weighted; the occlusion-trimmed correlation over the map's 3 x 2 blocks
without the worst ones. Square and odd map sizes, blocks of unequal sizes, and half turns given as the query's
maps turned, not as maps of their own (the query's blocks against the reference turned a half turn; half turns are
tried on maps whose 3 x 2 blocks are of equal sizes, as every deck's are: with unequal blocks the references' block
sums of a half turn are those of the turned blocks)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.deck_search import DeckSearch, block_bounds, window_stats


def unit_maps(rng: np.random.Generator, n: int, C: int, H: int, W: int) -> np.ndarray:
    """float32[n, C, H, W] smooth random maps, each channel zero-mean and unit-norm (as a deck keeps them)."""
    x = rng.normal(size=(n, C, H + 4, W + 4)).astype(np.float64)
    x = (x[:, :, :-4, :-4] + x[:, :, 2:-2, 2:-2] + x[:, :, 4:, 4:])              # a little spatial correlation
    x -= x.mean(axis=(2, 3), keepdims=True)
    x /= np.sqrt((x * x).sum(axis=(2, 3), keepdims=True))
    return x.astype(np.float32)


def direct(big: np.ndarray, ref: np.ndarray, w: np.ndarray, s: int, drop: int) -> tuple[float, float]:
    """(highest correlation over every shift, trimmed correlation at that shift), in float64 loops."""
    C, H, W = ref.shape
    rows, cols = block_bounds(H, W)
    best, at = -np.inf, None
    for dy in range(2 * s + 1):
        for dx in range(2 * s + 1):
            win = big[:, dy:dy + H, dx:dx + W].astype(np.float64)
            win = win - win.mean(axis=(1, 2), keepdims=True)
            ncc = sum(w[c] * (win[c] * ref[c]).sum() / np.sqrt((win[c] ** 2).sum()) for c in range(C))
            if ncc > best:
                best, at = ncc, win
    dot, qq, rr = (np.zeros((C, 6)) for _ in range(3))
    for c in range(C):
        for i in range(3):
            for j in range(2):
                a = at[c, rows[i]:rows[i + 1], cols[j]:cols[j + 1]]
                r = ref[c, rows[i]:rows[i + 1], cols[j]:cols[j + 1]].astype(np.float64)
                dot[c, 2 * i + j], qq[c, 2 * i + j], rr[c, 2 * i + j] = (a * r).sum(), (a * a).sum(), (r * r).sum()
    corr = (w[:, None] * dot / np.sqrt(qq * rr)).sum(axis=0)
    keep = np.argsort(corr)[drop:]
    per_c = dot[:, keep].sum(axis=1) / np.sqrt(qq[:, keep].sum(axis=1) * rr[:, keep].sum(axis=1))
    return float(best), float((w * per_c).sum())


@pytest.mark.parametrize("W, H, s", [(48, 72, 3), (50, 70, 3), (47, 69, 2), (48, 48, 4)])
def test_the_fine_search_finds_the_best_shift_of_every_pair(W, H, s):
    rng = np.random.default_rng(W * H + s)
    C, N = 4, 10
    refs = unit_maps(rng, N, C, H, W)
    weights = np.array([0.4, 0.3, 0.2, 0.1], np.float32)
    search = DeckSearch(refs.reshape(N, C, -1), (W, H), weights, np.arange(N) // 2, fine_shifts=10 ** 6)
    # the query: reference 3 at an offset inside the border, with noise, and a bright patch over one block
    big = rng.normal(0.0, 0.004, (C, H + 2 * s, W + 2 * s)).astype(np.float32)
    big[:, s + 1:s + 1 + H, s - 2:s - 2 + W] += refs[3]
    big[:, :H // 3, :W // 2] += 0.01
    bigs = {0: big}
    equal_blocks = H % 3 == 0 and W % 2 == 0
    pairs = np.array([3, 3, 0, 7, 9, 5]), np.array([0, 2, 0, 2, 0, 0]) * equal_blocks
    best, trimmed = search.fine_ncc(bigs, s, pairs[0], pairs[1], trim=2)
    for k, (r, t) in enumerate(zip(*pairs, strict=True)):
        ref = refs[r][:, ::-1, ::-1] if t == 2 else refs[r]
        want_best, want_trim = direct(big, ref, weights.astype(np.float64), s, 2)
        assert best[k] == pytest.approx(want_best, abs=1e-5)
        assert trimmed[k] == pytest.approx(want_trim, abs=1e-5)
    assert int(np.argmax(best)) == 0 and best[0] > 0.8           # the reference itself, at its offset


def test_window_stats_are_each_windows_mean_and_centred_norm():
    rng = np.random.default_rng(5)
    big = rng.normal(size=(3, 20, 16)).astype(np.float32)
    mean, norm = window_stats(big, 2)
    assert mean.shape == norm.shape == (25, 3)
    for k in range(25):
        dy, dx = divmod(k, 5)
        win = big[:, dy:dy + 16, dx:dx + 12].astype(np.float64)
        np.testing.assert_allclose(mean[k], win.mean(axis=(1, 2)), atol=1e-9)
        np.testing.assert_allclose(norm[k], np.sqrt(((win - win.mean(axis=(1, 2), keepdims=True)) ** 2)
                                                    .sum(axis=(1, 2))), rtol=1e-9)


@pytest.mark.parametrize("W, H, s", [(48, 72, 3), (50, 70, 3)])
def test_many_crops_searched_together_find_each_crops_own_shifts(W, H, s):
    # crops of several pairs each, some at a half turn given as a turn of their own, others as the base turn's maps
    # turned: searched together, each pair's best and trimmed correlation are its crop's searched alone (maps whose
    # blocks are not of one size are searched crop by crop)
    rng = np.random.default_rng(W + s)
    C, N = 4, 12
    refs = unit_maps(rng, N, C, H, W)
    weights = np.array([0.4, 0.3, 0.2, 0.1], np.float32)
    search = DeckSearch(refs.reshape(N, C, -1), (W, H), weights, np.arange(N) // 3)
    queries = []
    for k in range(6):
        big = rng.normal(0.0, 0.02, (C, H + 2 * s, W + 2 * s)).astype(np.float32)
        dy, dx = rng.integers(0, 2 * s + 1, 2)
        big[:, dy:dy + H, dx:dx + W] += refs[k]
        bigs = {0: big, 2: big[:, ::-1, ::-1].copy()} if k == 3 else {0: big}
        m = 1 + k * 2
        queries.append((bigs, rng.integers(0, N, m), rng.choice([0, 2], m) * (H % 3 == 0)))
    together = search.fine_ncc_many(queries, s, trim=2)
    for (bigs, r, t), (best, trimmed) in zip(queries, together, strict=True):
        want_best, want_trim = search.fine_ncc(bigs, s, r, t, trim=2)
        np.testing.assert_allclose(best, want_best, atol=1e-5)
        np.testing.assert_allclose(trimmed, want_trim, atol=1e-9)


def test_the_search_reads_each_pair_from_one_row_the_reference_or_its_half_turn_block_by_block():
    # a 4 x 6 map of 2 channels, one reference: its 3 x 2 blocks are 2 x 2 pixels each; row 0 of the pairs' maps is
    # the reference block by block (block (0, 0) = pixels 0, 1, 4, 5, then block (0, 1) = 2, 3, 6, 7, ...), row 1
    # the reference turned a half turn (pixel k of 24 is pixel 23 - k), block by block the same way
    maps = np.arange(2 * 24, dtype=np.float32).reshape(1, 2, 24)
    search = DeckSearch(maps, (4, 6), np.array([0.5, 0.5], np.float32), np.array([0]))
    rows = search.halves()[0]
    assert rows.shape == (2, 2, 24) and rows.flags.c_contiguous
    by_blocks = [0, 1, 4, 5, 2, 3, 6, 7, 8, 9, 12, 13, 10, 11, 14, 15, 16, 17, 20, 21, 18, 19, 22, 23]
    assert rows[0, 0].tolist() == by_blocks
    assert rows[0, 1].tolist() == [24 + k for k in by_blocks]
    assert rows[1, 0].tolist() == [23 - k for k in by_blocks]
    assert rows[1, 1].tolist() == [47 - k for k in by_blocks]
