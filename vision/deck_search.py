"""How a deck's references are searched for one crop: a compact coarse index, then every shift for a shortlist.

:class:`DeckSearch` is derived from a deck's reference structure maps when the deck is loaded or built (it is
not saved: a deck enrolled by any version of the program gets it), and answers the two questions of
:meth:`vision.deck.DeckProfile.distances_many`:

* *coarse* (:meth:`DeckSearch.coarse`): the centred correlation of a crop with every reference at every turn.
  The references' maps averaged over ``pool`` x ``pool`` blocks (a few hundred KB instead of the deck's
  megabytes) rank every (reference, turn) pair; the ``candidates`` best pairs, and every reference of their
  cards at that turn, are then correlated in full. A pair outside them keeps its pooled estimate (far from the
  best: it decides nothing).
* *fine* (:meth:`DeckSearch.fine_ncc`): the correlation of a shortlist of pairs at every shift within
  ``struct_shift``, estimated on 2 x 2 block sums, then exact at each pair's best estimated shifts (the windows at
  the few shifts the pairs keep are copied once, block by block, and multiplied with every pair's reference in
  one matrix product per block). A half turn of the crop is its maps read in the reverse order, i.e. the
  reference turned a half turn (kept beside the references, :meth:`DeckSearch.halves`); windows are never centred
  or scaled: the references have zero mean per channel, so a window's mean drops out and its norm (from one
  summed-area table) divides the product afterwards.

Shapes: C channels of H x W structure maps, K = H * W; N references; T turns tried.
"""

from __future__ import annotations

import cv2
import numpy as np

__all__ = ["DeckSearch", "block_bounds", "trimmed_ncc", "window_stats"]


def _block_sums(maps: np.ndarray) -> np.ndarray:
    """float32[..., H // 2, W // 2]: sums over 2 x 2 blocks of maps float32[..., H, W] (H, W even)."""
    return (maps[..., 0::2, 0::2] + maps[..., 1::2, 0::2]) + (maps[..., 0::2, 1::2] + maps[..., 1::2, 1::2])


def window_stats(big: np.ndarray, s: int) -> tuple[np.ndarray, np.ndarray]:
    """(mean, norm) float64[S, C] of every H x W window of ``big`` float32[C, H + 2s, W + 2s] (S = (2s + 1)^2
    row-major in (dy, dx); norm: of the window minus its mean), from summed-area tables."""
    C, h, w = big.shape
    return _shift_stats(big, s, h - 2 * s, w - 2 * s)[:2]


def block_bounds(H: int, W: int) -> tuple[list[int], list[int]]:
    """Row and column edges of a structure map's 3 x 2 blocks (3 rows, 2 columns; the last takes the rest)."""
    return [0, H // 3, 2 * (H // 3), H], [0, W // 2, W]


def trimmed_ncc(dot: np.ndarray, qq: np.ndarray, rr: np.ndarray, w: np.ndarray, drop: int) -> np.ndarray:
    """float[M]: the correlation of M (query, reference) pairs over their maps' 6 blocks without the ``drop``
    worst-matching ones, from per block and channel sums float[M, C, 6] of query x reference (``dot``),
    query^2 (``qq``) and reference^2 (``rr``) of the normalised maps; ``w`` float32[C] the channel weights."""
    corr = (dot / np.sqrt(np.maximum(qq * rr, 1e-12)) * w[None, :, None]).sum(axis=1)   # [M, 6]
    keep = corr.argsort(axis=1)[:, drop:]                                            # best blocks
    M, C, B = dot.shape
    at = (np.arange(M * C) * B).reshape(M, C, 1) + keep[:, None, :]                      # [M, C, 6 - drop] flat

    def sel(a: np.ndarray) -> np.ndarray:
        return np.add.reduce(a.take(at), axis=2)   # a.take(at).sum(axis=2), without the method's wrapper

    per_c = sel(dot) / np.sqrt(np.maximum(sel(qq) * sel(rr), 1e-12))                    # [M, C]
    return per_c @ w


class DeckSearch:
    """The search structures of one deck's references (see the module's docstring).

    Args:
        struct: float32[N, C, K] reference maps, each channel zero-mean and unit-norm.
        size: (W, H) of the maps (K = W * H).
        weights: float32[C] channel weights summing to 1.
        ref_card: int[N] each reference's card (an index).
        candidates: (reference, turn) pairs correlated in full after the pooled ranking.
        batch_exact: from this many crops on, :meth:`coarse_many` correlates every reference in one product.
        fine_shifts: shifts per pair correlated in full after the block-sum estimate (:meth:`fine_ncc`).

    The coarse index holds the references' sums over 2 x 2 blocks (a quarter of the deck); it also gives the
    fine search its estimates.
    """

    def __init__(self, struct: np.ndarray, size: tuple[int, int], weights: np.ndarray, ref_card: np.ndarray,
                 candidates: int = 32, batch_exact: int = 4, fine_shifts: int = 2) -> None:
        N = struct.shape[0]
        W, H = int(size[0]), int(size[1])
        self.size = (W, H)
        self.weights = np.asarray(weights, np.float32)
        self.query_weights = np.repeat(self.weights, W * H)          # float32[C*K]: each channel's weight per pixel
        self.flat = np.ascontiguousarray(struct.reshape(N, -1), np.float32)           # [N, C*K]
        C = self.flat.shape[1] // (W * H)
        self.C = C
        self.candidates = int(candidates)
        self.batch_exact = int(batch_exact)
        self.fine_shifts = int(fine_shifts)
        self.pooled = H % 2 == 0 and W % 2 == 0 and N > 0
        maps = self.flat.reshape(N, C, H, W)
        self.index = (np.ascontiguousarray(_block_sums(maps).reshape(N, -1)) if self.pooled else self.flat)
        # the ranking reads sums over 4 x 4 blocks where the maps allow (a sixteenth of the deck)
        self.rank_pool = 4 if H % 4 == 0 and W % 4 == 0 and N > 0 else 2
        self.rank_index = (np.ascontiguousarray(_block_sums(_block_sums(maps)).reshape(N, -1))
                           if self.rank_pool == 4 else self.index)
        rows, cols = block_bounds(H, W)
        ind = np.zeros((H, W, 6), np.float32)
        for i in range(3):
            for j in range(2):
                ind[rows[i]:rows[i + 1], cols[j]:cols[j + 1], 2 * i + j] = 1.0
        self.block_indicator = ind.reshape(H * W, 6)
        self.ref_block_sum = (self.flat.reshape(N * C, -1) @ self.block_indicator).reshape(N, C, 6)
        self.ref_block_sq = ((self.flat * self.flat).reshape(N * C, -1) @ self.block_indicator).reshape(N, C, 6)
        self.ref_card = np.asarray(ref_card).reshape(-1)
        order = np.argsort(self.ref_card, kind="stable")
        bounds = np.searchsorted(self.ref_card[order], np.arange(int(self.ref_card.max()) + 2 if N else 1))
        self._refs_of_card = [order[bounds[k]:bounds[k + 1]] for k in range(len(bounds) - 1)]
        # each card's references as one run of rows (start, stop) when they lie next to each other (a deck enrolled
        # card by card): read in place, not gathered (a gather copies every row's maps, tens of KB each)
        self._run_of_card = [(int(r[0]), int(r[-1]) + 1) if len(r) and np.array_equal(r, np.arange(r[0], r[-1] + 1))
                             else None for r in self._refs_of_card]
        self._halves: tuple[np.ndarray, ...] | None = None
        self._block_order: tuple[np.ndarray, list[int]] | None = None
        rows, cols = block_bounds(H, W)
        self.block_pixels = (np.diff(rows)[:, None] * np.diff(cols)[None, :]).reshape(6)   # pixels per block

    def halves(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The references and, after them, the same references turned a half turn (row ``N + i`` is reference
        ``i`` turned; derived on first use), laid out for the fine search: (maps float32[2N, C, K] with each
        channel's pixels in block order (:meth:`block_order`), block-sum index float32[2N, C, K/4] (the maps in
        row-major order when not pooled), per-block sums and sums of squares float32[2N, C, 6]). A pair at a half
        turn of the query reads row ``N + i``: one gather, no per-call flipping. Each row (a pair's maps, its index)
        is one contiguous block, and the search reads its pairs' rows from here only (the batched search too: the
        maps are held once in this layout, besides the deck's own)."""
        if self._halves is None:
            N, C = self.flat.shape[0], self.C
            order, _ = self.block_order()

            def both(a: np.ndarray) -> np.ndarray:
                per_c = a.reshape(N, C, -1)
                return np.concatenate([per_c, per_c[:, :, ::-1]])

            self._halves = (np.ascontiguousarray(both(self.flat)[:, :, order]), np.ascontiguousarray(both(self.index)),
                            both(self.ref_block_sum), both(self.ref_block_sq))
        return self._halves

    def block_order(self) -> tuple[np.ndarray, list[int]]:
        """(int[K]: a map's pixels (row-major indices) ordered block by block, each of the 6 blocks of
        :func:`block_bounds` row-major inside; the 7 offsets where the blocks start and end in that order)."""
        if self._block_order is None:
            W, H = self.size
            rows, cols = block_bounds(H, W)
            idx = np.arange(H * W).reshape(H, W)
            parts = [idx[rows[i]:rows[i + 1], cols[j]:cols[j + 1]].ravel() for i in range(3) for j in range(2)]
            self._block_order = (np.concatenate(parts), [0, *np.cumsum([len(q) for q in parts]).tolist()])
        return self._block_order

    # -- coarse -------------------------------------------------------------------------------------------

    def coarse_many(self, qns: list[np.ndarray] | np.ndarray, penalties: list[np.ndarray] | np.ndarray | None = None,
                    exact_all: bool = False) -> list[np.ndarray]:
        """Per crop, float32[N, T]: the centred correlation (channel-weighted) of its normalised query maps
        float32[T, C, K] (one row per turn) with every reference: exact for the ``candidates`` best pairs of the
        block-sum ranking index (4 x 4 blocks, 2 x 2 when the maps' sides are not multiples of 4) and every
        reference of their cards at that turn, the index's estimate elsewhere
        (``exact_all``: exact everywhere). ``qns`` may also be one array float32[n, T, C, K] (every crop at the
        same turns). ``penalties``: per crop, float[N, T] added to the distance (1 - correlation) before the pairs are
        ranked (the colour term; or one array float[n, N, T]), or None.

        A crop alone reads the index and its candidates' rows; many crops (``batch_exact`` or more) read every
        reference once for all (one matrix product) and keep the same pairs exact, so a crop gets the same
        distances alone or in a frame."""
        if len(qns) == 0:
            return []
        N = self.flat.shape[0]
        W, H = self.size
        C = self.C
        wk = self.query_weights
        Ts = [q.shape[0] for q in qns]
        if isinstance(qns, np.ndarray):   # every crop at the same turns, one above the other
            all_q = qns.reshape(len(qns) * Ts[0], -1) * wk
        else:
            all_q = (np.concatenate([q.reshape(q.shape[0], -1) for q in qns]) if len(qns) > 1
                     else qns[0].reshape(Ts[0], -1)) * wk                             # weights on the query
        if exact_all or not self.pooled or self.candidates >= N * min(Ts):
            exact = self.flat @ all_q.T
            return [a.astype(np.float32) for a in np.split(exact, np.cumsum(Ts)[:-1], axis=1)]
        pq = _block_sums(all_q.reshape(-1, C, H, W))                                  # every crop's at once
        if self.rank_pool == 4:
            pq = _block_sums(pq)
        p2 = float(self.rank_pool * self.rank_pool)
        est = (self.rank_index @ pq.reshape(len(all_q), -1).T) / p2                   # [N, sum T]
        batch = len(qns) >= self.batch_exact
        if batch and isinstance(qns, np.ndarray):   # every crop's ranking at once
            return self._coarse_batch(est, all_q, penalties, len(qns), Ts[0])
        flat_q = np.split(all_q, np.cumsum(Ts)[:-1]) if len(qns) > 1 else [all_q]    # each crop's rows
        out, wanted, j = [], [], 0   # wanted: (crop, turn, its column in the queries, the references made exact)
        for k, (q, T) in enumerate(zip(flat_q, Ts, strict=True)):
            ncc = est[:, j:j + T].astype(np.float32)
            rank = -ncc if penalties is None else penalties[k] - ncc
            top = rank.argpartition(self.candidates - 1, axis=None)[:self.candidates]
            refs_of, turn_of = np.divmod(top, T)
            for t in sorted(set(turn_of.tolist())):   # the turns and, at each, the cards (sorted) some pair is at
                cards = np.bincount(self.ref_card[refs_of[turn_of == t]],
                                    minlength=len(self._refs_of_card)).nonzero()[0]
                if batch:
                    wanted.append((k, t, j + t, np.concatenate([self._refs_of_card[c] for c in cards])))
                    continue
                for a, b in self._runs(cards):
                    ncc[a:b, t] = self.flat[a:b] @ q[t]
            out.append(ncc)
            j += T
        if wanted:   # every reference once for all, at the turns some pair of the ranking is at (a card's wrong
            # turns are mostly at none: about half the product of every crop at every turn)
            exact = self.flat @ all_q[[w[2] for w in wanted]].T                                       # [N, columns]
            for i, (k, t, _, rows) in enumerate(wanted):
                out[k][rows, t] = exact[rows, i]
        return out

    def _coarse_batch(self, est: np.ndarray, all_q: np.ndarray, penalties: list[np.ndarray] | np.ndarray | None,
                      n: int, T: int) -> list[np.ndarray]:
        """:meth:`coarse_many` of a batch of n crops at the same T turns, every crop's ranking at once: ``est``
        float[N, n T] the index's estimates, ``all_q`` float32[n T, C K] the weighted queries (crop by crop, turn by
        turn). Each crop's candidates are the pairs its own ranking picks (numpy selects each row as it selects a crop
        alone), and the references of their cards are made exact at those turns from one product, its columns in the
        order of (crop, turn): the same numbers as crop by crop."""
        N = self.flat.shape[0]
        out = np.ascontiguousarray(est.astype(np.float32).reshape(N, n, T).transpose(1, 0, 2))    # [n, N, T]
        rank = -out if penalties is None else np.asarray(penalties, np.float32).reshape(n, N, T) - out
        top = np.argpartition(rank.reshape(n, -1), self.candidates - 1, axis=1)[:, :self.candidates]
        refs_of, turn_of = np.divmod(top, T)
        cards = np.zeros((n, T, len(self._refs_of_card)), bool)   # the cards some candidate is at, per crop and turn
        cards[np.arange(n)[:, None], turn_of, self.ref_card[refs_of]] = True
        crop, turn = np.nonzero(cards.any(axis=2))                # (crop, turn) in order
        exact = self.flat @ all_q[crop * T + turn].T                                        # [N, columns]
        by_turn = out.transpose(0, 2, 1)                                                    # [n, T, N], a view
        by_turn[crop, turn] = np.where(cards[crop, turn][:, self.ref_card], exact.T, by_turn[crop, turn])
        return list(out)

    def _runs(self, cards: np.ndarray) -> list[tuple[int, int]]:
        """The rows of the references of ``cards`` (sorted card indices) as runs (start, stop): each card's own run
        (neighbouring runs joined), a card whose references are not next to each other one run per reference."""
        runs: list[tuple[int, int]] = []
        for c in cards.tolist():
            got = self._run_of_card[c]
            parts = [got] if got is not None else [(int(r), int(r) + 1) for r in self._refs_of_card[c]]
            for a, b in parts:
                if runs and runs[-1][1] == a:
                    runs[-1] = (runs[-1][0], b)
                else:
                    runs.append((a, b))
        return runs

    # -- fine ---------------------------------------------------------------------------------------------

    def fine_ncc(self, bigs: dict[int, np.ndarray], s: int, refs: np.ndarray, turns: np.ndarray,
                 trim: int = 0) -> tuple[np.ndarray, np.ndarray | None]:
        """Correlation of pairs (``refs[i]`` at turn ``turns[i]``) at every shift within ``s``.

        Coarse to fine: every shift is first estimated on the maps' sums over 2 x 2 blocks (a quarter of the
        products; the windows' norms are exact), then each pair's ``fine_shifts`` best shifts are correlated in
        full and the highest kept (with 2, the best of every shift on every crop of ``bench/card_ident.py``'s
        full tables). The pairs' best shifts are few (most cards sit at the same small offset), so the windows at
        all of them are copied once and multiplied with every pair's reference block by block (6 matrix
        products); each pair keeps its own shifts' products, whose sums over the 6 blocks give both the
        correlation and the occlusion trimming.

        Args:
            bigs: turn -> the query's maps at that turn, float32[C, H + 2s, W + 2s] (a turn t + 2 may be left
                out when t is there: its maps are t's turned a half turn).
            refs, turns: int[M] the pairs.
            trim: > 0: also each pair's correlation at its best shift without its ``trim`` worst blocks
                (:func:`trimmed_ncc`).

        Returns:
            (best float32[M]: each pair's highest correlation over the shifts, trimmed float[M] or None).
        """
        M = len(refs)
        C = self.C
        W, H = self.size
        w = self.weights
        best = np.empty(M, np.float32)
        trimmed = np.empty(M, np.float64) if trim > 0 else None
        N = self.flat.shape[0]
        refs2, _, bsum2, bsq2 = self.halves()
        _, bounds = self.block_order()
        n = 2 * s + 1
        nb = self.block_pixels.reshape(1, 1, 6)
        tl = np.asarray(turns).tolist()
        flips = [t not in bigs for t in tl]                 # a turn t + 2: t's maps turned a half turn
        flip_all = np.array(flips, bool)
        base_of = [t - 2 if f else t for t, f in zip(tl, flips, strict=True)]
        bases = sorted(set(base_of))
        for b in bases:   # the pairs at each base turn (most often one: every pair)
            sel = np.arange(M) if len(bases) == 1 else np.flatnonzero(np.array(base_of) == b)
            big = bigs[b]
            mean, norm, bsum, bsq = _shift_stats(big, s, H, W)            # [S, C], [S, C], [S, C, 6] x 2
            inv = (1.0 / np.maximum(norm, 1e-6)).astype(np.float32)
            m = len(sel)
            row = refs[sel] + N * flip_all[sel]  # a half turn of the query = the reference turned a half turn
            shifts = self._shift_estimates(big, s, row, inv)                           # [k, m] shifts
            # the windows at every shift some pair keeps, in block order, times every pair's reference
            seen = np.zeros(n * n, np.intp)                     # the shifts kept (np.unique's answer, without its sort)
            seen[shifts] = 1
            uniq = seen.nonzero()[0]
            at = (seen.cumsum() - 1)[shifts]                                              # [k, m] -> uniq
            uy, ux = np.divmod(uniq, n)
            r = refs2[row]                                                              # [m, C, K]
            if H % 3 == 0 and W % 2 == 0:   # 6 blocks of one size: every block's product in one batched call
                win = _windows(big, s, H, W)[uy, ux]                                    # [U, C, H, W]
                win = win.reshape(len(uniq), C, 3, H // 3, 2, W // 2).transpose(1, 2, 4, 0, 3, 5)
                kb = (H // 3) * (W // 2)
                prod = np.matmul(win.reshape(C, 6, len(uniq), kb),
                                 r.reshape(m, C, 6, kb).transpose(1, 2, 3, 0)).transpose(1, 0, 2, 3)  # [6, C, U, m]
            else:
                prod = np.empty((6, C, len(uniq), m), np.float32)
                for j, view in enumerate(_block_windows(big, s, H, W)):
                    win = view[uy, ux].reshape(len(uniq), C, -1).transpose(1, 0, 2)     # [C, U, block's pixels]
                    np.matmul(win, r[:, :, bounds[j]:bounds[j + 1]].transpose(1, 2, 0), out=prod[j])
            total = prod.sum(axis=0) * (inv[uniq] * w[None, :]).T[:, :, None]          # [C, U, m]
            pairs = np.arange(m)
            ncc = total.sum(axis=0)[at, pairs[None, :]]                                 # [k, m]
            kb = ncc.argmax(axis=0)
            best[sel] = ncc[kb, pairs]
            if trimmed is not None:
                bs = shifts[kb, pairs]                                                  # each pair's best shift
                blocks = prod[:, :, at[kb, pairs], pairs].transpose(2, 1, 0)            # [m, C, 6]
                mu, iv = mean[bs][:, :, None], inv[bs][:, :, None].astype(np.float64)
                dot = (blocks - mu * bsum2[row]) * iv
                qq = (bsq[bs] - 2.0 * mu * bsum[bs] + mu * mu * nb) * iv * iv
                trimmed[sel] = trimmed_ncc(dot, qq, bsq2[row], w, trim)
        return best, trimmed

    def fine_ncc_many(self, queries: list[tuple[dict[int, np.ndarray], np.ndarray, np.ndarray]], s: int,
                      trim: int = 0) -> list[tuple[np.ndarray, np.ndarray | None]]:
        """:meth:`fine_ncc` of many crops at once: per crop (its ``bigs``, ``refs``, ``turns``), (best float32[M],
        trimmed float[M] or None), the same pairs at the same shifts but for the rounding of the sums (float32
        products ordered otherwise; within 1e-5 of :meth:`fine_ncc` on the decks of ``bench/card_ident.py``).

        Every step but the two matrix products of each (crop, base turn) is done once for all: the windows' sums
        (one summed-area table of all the crops' maps one above the other), the pooled windows, each pair's best
        estimated shifts, the windows at those shifts, the best shift's correlation and the occlusion trimming.
        Maps whose 3 x 2 blocks are not of one size, a deck without the 2 x 2 index, or a single crop are searched
        crop by crop (:meth:`fine_ncc`)."""
        W, H = self.size
        if len(queries) < 2 or not (self.pooled and H % 3 == 0 and W % 2 == 0):   # one crop: its own search is cheaper
            return [self.fine_ncc(b, s, r, t, trim) for b, r, t in queries]
        C, N, n = self.C, self.flat.shape[0], 2 * s + 1
        S = n * n
        w = self.weights
        refs2, idx2, bsum2, bsq2 = self.halves()                                      # [2N, C, K], [2N, C, K/4]
        bigs, rows, owner = [], [], []      # one query per (crop, base turn): its maps, its pairs' rows, whose
        for i, (bd, refs, turns) in enumerate(queries):
            turns, refs = np.asarray(turns), np.asarray(refs)
            flip = np.array([t not in bd for t in turns.tolist()], bool)   # a turn t + 2: t's maps turned
            base = np.where(flip, turns - 2, turns)
            for b in np.unique(base):
                sel = np.nonzero(base == b)[0]
                bigs.append(bd[int(b)])
                rows.append(refs[sel] + N * flip[sel])
                owner.append((i, sel))
        big = np.ascontiguousarray(np.stack(bigs), np.float32)                        # [Q, C, h, w]
        Q, _, h, wd = big.shape
        counts = np.array([len(r) for r in rows])
        off = np.concatenate([[0], np.cumsum(counts)])
        qof = np.repeat(np.arange(Q), counts)                                         # each pair's query
        row = np.concatenate(rows)
        P = len(row)
        mean, norm, bsum, bsq = _shift_stats_many(big, s, H, W)                      # [Q, S, C], [Q, S, C, 6]
        inv = (1.0 / np.maximum(norm, 1e-6)).astype(np.float32)
        # each pair's best shifts estimated on the 2 x 2 block sums (one product per query)
        blk = big[:, :, :-1, :-1] + big[:, :, 1:, :-1] + big[:, :, :-1, 1:] + big[:, :, 1:, 1:]
        prod = np.concatenate([np.matmul(_pooled_windows_many(blk[q:q + 1], n, H // 2, W // 2).reshape(C, S, -1),
                                         idx2[rows[q]].transpose(1, 2, 0)) for q in range(Q)],
                              axis=2)                                                 # [C, S, P]
        est = (prod * (inv * w[None, None, :])[qof].transpose(2, 1, 0)).sum(axis=0)  # [S, P]
        k = max(1, min(self.fine_shifts, S))
        shifts = np.argsort(-est, axis=0)[:k]                                         # [k, P]
        # the windows at every (query, shift) some pair keeps, block by block: [C, 6, U, kb]
        seen = np.zeros((Q, S), np.intp)
        seen[qof[None, :], shifts] = 1
        at = (np.cumsum(seen.reshape(-1)) - 1)[qof[None, :] * S + shifts]           # [k, P] -> window
        wq, wsh = np.divmod(np.flatnonzero(seen), S)
        uoff = np.concatenate([[0], np.cumsum(seen.sum(axis=1))])
        uy, ux = np.divmod(wsh, n)
        it = big.itemsize
        views = np.ndarray((Q, n, n, C, H, W), big.dtype, big, 0,
                           (C * h * wd * it, wd * it, it, h * wd * it, wd * it, it))
        kb = (H // 3) * (W // 2)
        win = np.ascontiguousarray(views[wq, uy, ux].reshape(-1, C, 3, H // 3, 2, W // 2)
                                   .transpose(1, 2, 4, 0, 3, 5)).reshape(C, 6, -1, kb)
        E = np.empty((C, 6, k, P), np.float32)                                       # each pair at its shifts
        for q in range(Q):
            a, b = off[q], off[q + 1]
            pq = np.matmul(win[:, :, uoff[q]:uoff[q + 1]],
                           refs2[rows[q]].reshape(b - a, C, 6, kb).transpose(1, 2, 3, 0))      # [C, 6, U, m]
            E[..., a:b] = pq[:, :, at[:, a:b] - uoff[q], np.arange(b - a)[None, :]]
        pairs = np.arange(P)
        invw = (inv[qof[None, :], shifts] * w).transpose(2, 0, 1)                    # [C, k, P]
        ncc = (E.sum(axis=1) * invw).sum(axis=0)                                      # [k, P]
        kbest = ncc.argmax(axis=0)
        best = ncc[kbest, pairs]
        trimmed = None
        if trim > 0:
            bs = shifts[kbest, pairs]
            blocks = E[:, :, kbest, pairs].transpose(2, 0, 1)                         # [P, C, 6]
            mu = mean[qof, bs][:, :, None]
            iv = inv[qof, bs][:, :, None].astype(np.float64)
            dot = (blocks - mu * bsum2[row]) * iv
            qq = (bsq[qof, bs] - 2.0 * mu * bsum[qof, bs] + mu * mu * self.block_pixels.reshape(1, 1, 6)) * iv * iv
            trimmed = trimmed_ncc(dot, qq, bsq2[row], w, trim)
        out = [(np.empty(len(r), np.float32), np.empty(len(r), np.float64) if trim > 0 else None)
               for _, r, _ in queries]
        for q, (i, sel) in enumerate(owner):
            out[i][0][sel] = best[off[q]:off[q + 1]]
            if trimmed is not None:
                out[i][1][sel] = trimmed[off[q]:off[q + 1]]
        return out

    def _shift_estimates(self, big: np.ndarray, s: int, row: np.ndarray, inv: np.ndarray) -> np.ndarray:
        """int[k, M]: the shifts (row-major (dy, dx)) of each pair's ``k`` = ``fine_shifts`` highest correlations
        estimated from 2 x 2 block sums (exact, from the maps themselves, when the maps' sides are odd; ``row``:
        the pairs' rows of :meth:`halves`, a reference or its half turn; ``inv``: float32[S, C] the windows'
        inverse norms)."""
        C = big.shape[0]
        S = inv.shape[0]
        blk = (big[:, :-1, :-1] + big[:, 1:, :-1] + big[:, :-1, 1:] + big[:, 1:, 1:]) if self.pooled else big
        p = 2 if self.pooled else 1
        W, H = self.size
        n = 2 * s + 1
        pw = _pooled_windows(blk, n, p, H // p, W // p).reshape(C, S, -1)                     # [C, S, K/4]
        prod = np.matmul(pw, self.halves()[1][row].transpose(1, 2, 0))                       # [C, S, M]
        wi = inv * self.weights[None, :]
        est = (prod * wi.T[:, :, None]).sum(axis=0)        # the channels added in order, as one by one: [S, m]
        return (-est).argsort(axis=0)[:max(1, min(self.fine_shifts, S))]             # [k, m]


def _pooled_windows(blk: np.ndarray, n: int, p: int, h: int, w: int) -> np.ndarray:
    """float32[C, n, n, h, w]: the h x w window read every ``p``-th pixel of ``blk`` float32[C, ., .] at each of the
    n x n shifts (dy, dx), i.e. ``blk[:, dy::p, dx::p][:, :h, :w]``, channels first (each channel's windows one
    matrix, rows the shifts). With p = 2: :func:`_pooled_windows_many` of the one map."""
    if p == 2:
        return _pooled_windows_many(blk[None], n, h, w)[0]
    C = blk.shape[0]
    it = blk.itemsize
    out = np.empty((C, n, n, h, w), blk.dtype)
    b = np.ascontiguousarray(blk)
    _, bh, bw = b.shape
    out[...] = np.ndarray((C, n, n, h, w), b.dtype, b, 0, (bh * bw * it, bw * it, it, p * bw * it, p * it))
    return out


def _pooled_windows_many(blk: np.ndarray, n: int, h: int, w: int) -> np.ndarray:
    """float32[Q, C, n, n, h, w]: the windows of :func:`_pooled_windows` (p = 2) of each of Q maps ``blk``
    float32[Q, C, ., .], channels first: the same numbers, copied in long runs. The pixels of one parity of rows
    and columns are first taken out contiguously (4 small copies); then the columns each column shift reads, once
    per shift (a window's rows then follow each other), so every window, at any row shift, is copied as one run of
    h x w pixels instead of h runs of w."""
    Q, C = blk.shape[:2]
    it = blk.itemsize
    out = np.empty((Q, C, n, n, h, w), blk.dtype)
    for py in range(2):
        for px in range(2):
            sub = np.ascontiguousarray(blk[:, :, py::2, px::2])                    # [Q, C, rows of that parity, cols]
            _, _, sh, sw = sub.shape
            na, nb = len(range(py, n, 2)), len(range(px, n, 2))
            rows = na - 1 + h                                                      # the rows the windows read
            cols = np.ndarray((Q, C, nb, rows, w), sub.dtype, sub, 0,
                              (C * sh * sw * it, sh * sw * it, it, sw * it, it)).copy()   # [Q, C, dx, rows, w]
            out[:, :, py::2, px::2] = np.ndarray((Q, C, na, nb, h, w), cols.dtype, cols, 0,
                                                 (C * nb * rows * w * it, nb * rows * w * it, w * it, rows * w * it,
                                                  w * it, it))
    return out


def _shift_stats_many(big: np.ndarray, s: int, H: int, W: int) -> tuple[np.ndarray, ...]:
    """:func:`_shift_stats` of each of Q maps ``big`` float32[Q, C, H + 2s, W + 2s], each array with a leading
    axis Q: from one summed-area table (float64) of the maps one above the other (a window's sums are differences
    of its corners' table entries wherever it lies: the same sums but for the rounding of the larger entries)."""
    Q, C, h, w = big.shape
    n = 2 * s + 1
    tall = np.ascontiguousarray(big.transpose(0, 2, 3, 1)).reshape(Q * h, w, C)
    isum, isq = cv2.integral2(tall, sdepth=cv2.CV_64F, sqdepth=cv2.CV_64F)           # [Q h + 1, w + 1, C] each
    at = _corner_index(C, h, w, s, H, W)[None] + (np.arange(Q) * (h * (w + 1) * C)).reshape(Q, 1, 1, 1, 1, 1)
    g = np.concatenate([isum.reshape(-1).take(at), isq.reshape(-1).take(at)], axis=5)   # [Q, n, n, 4, 3, 2C]
    blocks = (g[:, :, :, 1:, 1:] - g[:, :, :, :-1, 1:] - g[:, :, :, 1:, :-1] + g[:, :, :, :-1, :-1])
    blocks = blocks.reshape(Q, n * n, 6, 2 * C).transpose(0, 1, 3, 2)
    sums = (g[:, :, :, 3, 2] - g[:, :, :, 0, 2] - g[:, :, :, 3, 0] + g[:, :, :, 0, 0]).reshape(Q, n * n, 2 * C)
    mean = sums[..., :C] / (H * W)
    norm = np.sqrt(np.maximum(sums[..., C:] - sums[..., :C] * mean, 0.0))
    return mean, norm, blocks[:, :, :C], blocks[:, :, C:]


def _shift_stats(big: np.ndarray, s: int, H: int, W: int) -> tuple[np.ndarray, ...]:
    """Of every H x W window of the maps ``big`` float32[C, H + 2s, W + 2s] (S = (2s + 1)^2, row-major in
    (dy, dx)), from one summed-area table (float64): (mean float64[S, C], norm of the window minus its mean
    float64[S, C], per-block sums and sums of squares float64[S, C, 6] over the 6 blocks of :func:`block_bounds`)."""
    C, h, w = big.shape
    n = 2 * s + 1
    isum, isq = cv2.integral2(cv2.merge(list(big)), sdepth=cv2.CV_64F, sqdepth=cv2.CV_64F)  # [h+1, w+1, C] each
    at = _corner_index(C, h, w, s, H, W)
    g = np.concatenate([isum.reshape(-1).take(at), isq.reshape(-1).take(at)], axis=4)    # [n, n, 4, 3, 2C]
    blocks = (g[:, :, 1:, 1:] - g[:, :, :-1, 1:] - g[:, :, 1:, :-1] + g[:, :, :-1, :-1]).reshape(n * n, 6, 2 * C)
    sums = (g[:, :, 3, 2] - g[:, :, 0, 2] - g[:, :, 3, 0] + g[:, :, 0, 0]).reshape(n * n, 2 * C)
    mean = sums[:, :C] / (H * W)
    norm = np.sqrt(np.maximum(sums[:, C:] - sums[:, :C] * mean, 0.0))
    blocks = blocks.transpose(0, 2, 1)
    return mean, norm, blocks[:, :C], blocks[:, C:]


_CORNERS: dict[tuple[int, ...], np.ndarray] = {}


def _corner_index(C: int, h: int, w: int, s: int, H: int, W: int) -> np.ndarray:
    """int[n, n, 4, 3, C]: where, in the flattened summed-area table float64[h + 1, w + 1, C] of maps
    [C, h, w], each H x W window's (row-major (dy, dx), n = 2s + 1) block corners lie (the 4 row and 3 column edges
    of :func:`block_bounds`) for each channel; cached."""
    key = (C, h, w, s, H, W)
    at = _CORNERS.get(key)
    if at is None:
        n = 2 * s + 1
        rows, cols = block_bounds(H, W)
        ry = (np.arange(n)[:, None] + np.array(rows)[None, :])[:, None, :, None, None]       # [n, 1, 4, 1, 1]
        cx = (np.arange(n)[:, None] + np.array(cols)[None, :])[None, :, None, :, None]       # [1, n, 1, 3, 1]
        at = _CORNERS[key] = (ry * (w + 1) + cx) * C + np.arange(C)[None, None, None, None, :]
    return at


def _windows(big: np.ndarray, s: int, H: int, W: int) -> np.ndarray:
    """A view float32[n, n, C, H, W] of every H x W window of ``big`` float32[C, H + 2s, W + 2s] (n = 2s + 1;
    indexed (dy, dx))."""
    big = np.ascontiguousarray(big)
    C, h, w = big.shape
    it = big.itemsize
    n = 2 * s + 1
    return np.ndarray((n, n, C, H, W), big.dtype, big, 0, (w * it, it, h * w * it, w * it, it))


def _block_windows(big: np.ndarray, s: int, H: int, W: int) -> list[np.ndarray]:
    """Per block of :func:`block_bounds` (row-major), a view float32[n, n, C, block's rows, block's columns] of that
    block of every H x W window of ``big`` float32[C, H + 2s, W + 2s] (n = 2s + 1; indexed (dy, dx))."""
    big = np.ascontiguousarray(big)
    C, h, w = big.shape
    it = big.itemsize
    n = 2 * s + 1
    rows, cols = block_bounds(H, W)
    return [np.ndarray((n, n, C, rows[i + 1] - rows[i], cols[j + 1] - cols[j]), big.dtype, big,
                       (rows[i] * w + cols[j]) * it, (w * it, it, h * w * it, w * it, it))
            for i in range(3) for j in range(2)]
