"""Blobs of touching cards split on the card grid (a station, a row of tiles, a card under a hand).

:func:`split_blob` turns a blob upright along its dominant gradient direction (:func:`dominant_angle`), fits a
lattice of card-sized cells to it (:func:`lattice_scores`: the cells' intersection over union with the blob plus
a little of the card-outline edge response at their centres, every gap, anchor and offset scored in one pass) and
nudges each cell of the best lattice to the strongest outline nearby. :func:`lattice_fit` says how well a
lattice's cards explain their blob (the table's art touching the cards explains it poorly). With no calibration
each row and column of the best lattice is first fitted to its own band of the blob (:func:`row_and_column_shifts`).

Units: pixels of the image the blob is in (the detector's work image); quads are float[4, 2], clockwise from the
card's top-left (:func:`vision.quads.order_quad`).
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from .card_outline import outline_response
from .quads import order_quads
from .raster import rotation_canvas

__all__ = ["SHIFT_REACH", "cell_sums", "dominant_angle", "lattice_fit", "lattice_scores",
           "nudged_cells", "row_and_column_shifts", "split_blob"]

#: np.histogram adds its weights up in runs of this many values (its ``_range`` block); the masked histogram of
#: :func:`dominant_angle` keeps those runs so its sums are the same numbers.
_HIST_BLOCK = 65536

#: a Sobel gradient of a grey image (whole numbers) whose both parts are at most this in size has its angle's bin
#: read from a table (:func:`_angle_bin_table`); larger ones (a few strong edges) are worked out
_BIN_REACH = 255
_BIN_TABLE: list[np.ndarray] = []


def _angle_bins(gx: np.ndarray, gy: np.ndarray) -> np.ndarray:
    """intp[N]: the whole degrees (0-89) of the angle mod 90 of each gradient (``gx``, ``gy`` float32[N]), as
    ``np.histogram(..., bins=90, range=(0, 90))`` bins it (90 in the last bin)."""
    ang = np.arctan2(gy, gx)
    np.degrees(ang, out=ang)
    np.remainder(ang, 90.0, out=ang)
    return np.minimum(ang.astype(np.intp), 89)


def _angle_bin_table() -> np.ndarray:
    """uint8[(2R + 1)^2] (R = ``_BIN_REACH``): :func:`_angle_bins` of every gradient of whole numbers (gx, gy) with
    both parts in [-R, R], at ``(gy + R) * (2R + 1) + gx + R``: the same numbers, worked out once (about 15 ms)."""
    if not _BIN_TABLE:
        g = np.arange(-_BIN_REACH, _BIN_REACH + 1, dtype=np.float32)
        gy, gx = np.meshgrid(g, g, indexing="ij")
        _BIN_TABLE.append(_angle_bins(gx.ravel(), gy.ravel()).astype(np.uint8))
    return _BIN_TABLE[0]


def dominant_angle(gray: np.ndarray, mask: np.ndarray) -> float:
    """Grid orientation in degrees (0..90) from the magnitude-weighted histogram of gradient angles mod 90 of the
    pixels of ``gray`` (uint8[H, W]) where ``mask`` (uint8[H, W]) is set.

    Only the masked pixels' angles are worked out (about half of a blob's box): the other pixels weigh nothing, and
    the histogram adds the masked pixels' weights into the same bins, in the same order and the same runs of
    ``_HIST_BLOCK`` pixels of the image as ``np.histogram(..., bins=90, range=(0, 90))`` of every pixel with the
    others weighted 0 does (its bins' edges are whole degrees: an angle's bin is its whole degrees): the same
    numbers. A pixel's bin is read from a table of the bins of every small gradient (Sobel's gradients of a grey
    image are whole numbers) and worked out only for the few larger ones (:func:`_angle_bins` either way)."""
    gx = cv2.Sobel(gray, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(gray, cv2.CV_32F, 0, 1, ksize=3)
    idx = np.flatnonzero(mask.reshape(-1))
    gx, gy = gx.reshape(-1).take(idx), gy.reshape(-1).take(idx)
    mag = gx * gx
    mag += gy * gy
    np.sqrt(mag, out=mag)
    if gray.dtype == np.uint8:   # whole-number gradients: the table's bins
        ix, iy = gx.astype(np.intp), gy.astype(np.intp)
        side = 2 * _BIN_REACH + 1
        bins = np.take(_angle_bin_table(), (iy + _BIN_REACH) * side + (ix + _BIN_REACH), mode="clip").astype(np.intp)
        far = np.flatnonzero((np.abs(ix) | np.abs(iy)) > _BIN_REACH)   # a part beyond the table (R is 2^k - 1)
        if far.size:
            bins[far] = _angle_bins(gx[far], gy[far])
    else:
        bins = _angle_bins(gx, gy)
    hist = np.zeros(90, mag.dtype)
    # np.histogram's own runs of the whole image: each run's sum (float64, in order), added run after run in float32
    cuts = np.searchsorted(idx, np.arange(_HIST_BLOCK, mask.size, _HIST_BLOCK))
    for b, m in zip(np.split(bins, cuts), np.split(mag, cuts), strict=True):
        hist += np.bincount(b, weights=m, minlength=90).astype(mag.dtype)
    hist = np.convolve(np.concatenate([hist[-2:], hist, hist[:2]]), np.ones(5) / 5, mode="same")[2:-2]
    return float(np.argmax(hist)) + 0.5


def cell_sums(cells: np.ndarray) -> np.ndarray:
    """The sums over the first axis of ``cells`` (float32[C, ...]) in the order ``np.sum`` adds up C values lying
    contiguous along an array's last axis (numpy's pairwise summation: fewer than 8 values one after another, up
    to 128 in 8 running sums joined as ((0 + 1) + (2 + 3)) + ((4 + 5) + (6 + 7)) and the rest added after, more
    split in two halves of a multiple of 8, each summed so, plus 0 in the end): float32[...], the same numbers as
    ``np.ascontiguousarray(np.moveaxis(cells, 0, -1)).sum(axis=-1)``, worked out with one array operation per value
    summed across all the sums at once instead of one short loop per sum."""
    n = cells.shape[0]
    if n > 128:
        half = n // 2 - (n // 2) % 8
        return cell_sums(cells[:half]) + cell_sums(cells[half:])
    if n < 8:
        out = np.zeros(cells.shape[1:], cells.dtype)
        for k in range(n):
            out += cells[k]
        return out
    run = cells[:8].copy()
    stop = n - n % 8
    for k in range(8, stop, 8):
        run += cells[k:k + 8]
    out = ((run[0] + run[1]) + (run[2] + run[3])) + ((run[4] + run[5]) + (run[6] + run[7]))
    for k in range(stop, n):
        out += cells[k]
    out += np.zeros((), cells.dtype)
    return out


def lattice_scores(occ: np.ndarray, resp: np.ndarray, rmax: float, at: np.ndarray, min_occupancy: float,
                   cell: tuple[float, float], blob_area: float) -> np.ndarray:
    """float64[...]: the score of each lattice, ``at`` int[C, ...] the flat indices in the canvas of its C cells'
    centres (cells first, in row-major order of the lattice's rows and columns): the intersection over union of the
    cells with foreground (``occ`` float32[H, W], the share of a card-sized box around each pixel that is the blob)
    at least ``min_occupancy`` with the blob (``blob_area`` px; each cell ``cell`` = (width, height) px), plus 0.1 x
    the mean over those cells of the outline response ``resp`` (float32[H, W]) over ``rmax``.

    Each term is first worked out once per pixel of the canvas, the four side by side (what a cell covers of the
    blob, what it adds to the union, its edge, whether it counts), and then read at the cells in one gather (a
    canvas has tens of thousands of pixels, the lattices of a blob several hundred thousand cells) and summed
    over each lattice's cells by :func:`cell_sums`: the same numbers as reading ``occ`` and ``resp`` at the cells
    and working each term out there, summed over each lattice's cells with ``np.sum`` over its last axes."""
    on = (occ >= min_occupancy).astype(np.float32)
    terms = cv2.merge([occ * on, (1 - occ) * on, resp / rmax * on, on]).reshape(-1, 4)
    sums = cell_sums(np.take(terms, at, axis=0))                            # [..., 4]
    inside, outside, edge = sums[..., 0], sums[..., 1], sums[..., 2]
    count = sums[..., 3].astype(np.int64)                                   # whole numbers: the count exactly
    cw, ch = cell
    inter = inside * cw * ch
    union = blob_area + outside * cw * ch
    return inter / union + 0.1 * (edge / np.maximum(count, 1))


def _upright_edges(roi: np.ndarray, m: np.ndarray, ang: float) -> tuple[np.ndarray, ...]:
    """(R float[2, 3] roi px -> canvas px, canvas mask uint8, |d/dx| and |d/dy| ridges float32 of the blurred
    canvas) of the grey ``roi`` and its blob mask ``m`` turned by ``ang`` degrees onto a canvas that holds them."""
    h, w = roi.shape
    R, nw, nh = rotation_canvas(w, h, ang)
    g = cv2.warpAffine(roi, R, (nw, nh), flags=cv2.INTER_LINEAR).astype(np.float32)
    m8 = cv2.warpAffine(m, R, (nw, nh), flags=cv2.INTER_NEAREST)
    g = cv2.GaussianBlur(g, (0, 0), 1.0)
    gx = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3)
    np.abs(gx, out=gx)
    np.abs(gy, out=gy)
    # thin ridges of edges: keep a pixel's edge response only where it is a local max across the edge
    gx *= gx >= cv2.dilate(gx, np.ones((1, 3), np.uint8))
    gy *= gy >= cv2.dilate(gy, np.ones((3, 1), np.uint8))
    return R, m8, gx, gy


def _lattices(box: tuple[float, float, float, float], cw: float, ch: float) -> dict[tuple[int, int], list[tuple]]:
    """The lattices of ``cw`` x ``ch`` cells over the canvas box (xmin, ymin, xmax, ymax), one per gap tried
    between cells (0-6 % of the short side, 13 steps): (columns, rows) -> [(gap's place, pitch x, pitch y)]."""
    xmin, ymin, xmax, ymax = box
    out: dict[tuple[int, int], list[tuple]] = {}
    for k, gap in enumerate(np.linspace(0.0, 0.06 * min(cw, ch), 13)):
        px_, py_ = cw + gap, ch + gap
        nx = int((xmax - xmin) / px_ + 0.7)
        ny = int((ymax - ymin) / py_ + 0.7)
        if nx >= 1 and ny >= 1:
            out.setdefault((nx, ny), []).append((k, px_, py_))
    return {key: out[key] for key in sorted(out)}


def split_blob(img: np.ndarray, blob: Any, card: tuple[float, float], config: Any,
               own_lines: bool = False) -> list[np.ndarray]:
    """Cards in a blob of touching cards (a station, a row of overlapping-free tiles, a card under a hand).

    ``img``: uint8[H, W, 3] BGR; ``blob``: a :class:`vision.card_detect.Blob` of it; ``card``: (short, long) card
    size in px; ``config``: a :class:`vision.card_detect.CardsConfig` (``split_min_occupancy``, ``split_refine``).
    Returns float[4, 2] px quads, one per card.

    The blob is turned upright along its dominant gradient direction; a lattice of card-sized cells (portrait and
    landscape, every gap between cells, anchored at each of the blob's corners and moved by up to 12 % of a card)
    is scored by the cells' overlap with the blob and their outline response (:func:`lattice_scores`), the first
    best kept; each of its cells whose inside is foreground then moves to the strongest outline nearby.

    ``own_lines`` (no calibration: the card's size is guessed from the frame, and a camera's slant makes a station's
    far rows smaller and its columns lean): each row of the best lattice, then each column, is moved along itself
    to where its cells best fit the part of the blob in its band, whose ends on the cloth are its own cards' edges
    (:func:`row_and_column_shifts`), so a row of cards standing a third of a card off the lattice the whole blob
    fits is cut on its cards.
    """
    H, W = img.shape[:2]
    x, y, bw, bh = cv2.boundingRect(blob.contour)
    pad = int(0.3 * max(card))
    x0, y0, x1, y1 = max(0, x - pad), max(0, y - pad), min(W, x + bw + pad), min(H, y + bh + pad)
    roi = cv2.cvtColor(img[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY)
    m = np.zeros_like(roi)
    cv2.drawContours(m, [blob.contour - np.array([x0, y0])], -1, 255, cv2.FILLED)
    theta = dominant_angle(roi, cv2.dilate(m, np.ones((5, 5), np.uint8)))
    R, m8, gx, gy = _upright_edges(roi, m, theta if theta <= 45.0 else theta - 90.0)
    nh, nw = m8.shape
    mm = (m8 > 0).astype(np.float32)
    bx, by, bw, bh = cv2.boundingRect(m8)   # the box of the blob's pixels (no list of them)
    if bw == 0 or bh == 0:
        return []
    xmin, ymin, xmax, ymax = float(bx), float(by), float(bx + bw - 1), float(by + bh - 1)
    best = None
    blob_area = float(cv2.countNonZero(m8))   # the sum of the 0/1 mask, exactly
    canvases: dict[tuple[float, float], np.ndarray] = {}   # each way's occupancy canvas
    for cw, ch in ((card[0], card[1]), (card[1], card[0])):
        resp = outline_response(gx, gy, cw, ch)
        occ = cv2.boxFilter(mm, -1, (max(3, int(round(cw))), max(3, int(round(ch)))), normalize=True,
                            borderType=cv2.BORDER_CONSTANT)
        resp = np.where(occ >= config.split_min_occupancy, resp, 0.0)
        rmax = max(float(resp.max()), 1e-6)   # the response is read normalised by it, at the lattices' points only
        canvases[(cw, ch)] = occ
        # a lattice of cards anchored near the blob's top-left, pitch = card + a small gap; score = IoU of
        # the occupied cells with the blob (outer outline) + a little of the card-outline edge response
        ox = np.arange(-int(0.12 * cw), int(0.12 * cw) + 1)
        oy = np.arange(-int(0.12 * ch), int(0.12 * ch) + 1)
        scored: dict[int, tuple] = {}
        for (nx, ny), group in _lattices((xmin, ymin, xmax, ymax), cw, ch).items():
            # every gap with this many columns and rows, anchored at each of the blob's corners (a hand or a
            # shadow may extend one side), scored in one pass: score[gap, ax, ay, offset y, offset x]
            pxs = np.array([lat[1] for lat in group])[:, None, None, None]
            pys = np.array([lat[2] for lat in group])[:, None, None, None]
            xf = np.array([[xmin + cw / 2, xmax - cw / 2 - (nx - 1) * lat[1]] for lat in group])[:, :, None, None]
            yf = np.array([[ymin + ch / 2, ymax - ch / 2 - (ny - 1) * lat[2]] for lat in group])[:, :, None, None]
            X = np.clip((xf + ox[None, None, :, None] + np.arange(nx)[None, None, None, :] * pxs).round().astype(int),
                        0, nw - 1)                                                   # [G, ax, OX, nx]
            Y = np.clip((yf + oy[None, None, :, None] + np.arange(ny)[None, None, None, :] * pys).round().astype(int),
                        0, nh - 1)                                                   # [G, ay, OY, ny]
            # the cells first: at[row, column, gap, ax, ay, offset y, offset x], rows and columns as one axis
            at = (np.moveaxis(Y * nw, -1, 0)[:, None, :, None, :, :, None]
                  + np.moveaxis(X, -1, 0)[None, :, :, :, None, None, :]).reshape(ny * nx, len(group), 2, 2, len(oy),
                                                                                   len(ox))
            score = lattice_scores(occ, resp, rmax, at, config.split_min_occupancy, (cw, ch), blob_area)
            # each (gap, anchor)'s first best offset, row-major, all at once
            flat = score.reshape(len(group), 2, 2, -1)
            arg = flat.argmax(axis=3)
            top = np.take_along_axis(flat, arg[..., None], axis=3)[..., 0]
            for i, lat in enumerate(group):
                scored[lat[0]] = (top[i].tolist(), arg[i].tolist(), X[i], Y[i], lat[1], lat[2])
        for k in sorted(scored):   # the gaps in order, each anchor in order: the first best is kept
            top, arg, X, Y, px_, py_ = scored[k]
            for ax in (0, 1):
                for ay in (0, 1):
                    sc = top[ax][ay]
                    if best is None or sc > best[0]:
                        iy, ix = divmod(arg[ax][ay], len(ox))
                        best = (sc, cw, ch, resp, X[ax][ix], Y[ay][iy], px_, py_)
    if best is None or best[0] <= 0:
        return []
    if not own_lines:
        return nudged_cells(best, config, R, (x0, y0))
    _, cw, ch, resp, Xs, Ys, _, _ = best
    cx, cy = row_and_column_shifts(canvases[(cw, ch)], m8, np.asarray(Xs), np.asarray(Ys), (cw, ch),
                                   config.split_min_occupancy)
    return nudged_cells(best, config, R, (x0, y0), (cx, cy))


#: How far (a share of the card's side along it) :func:`row_and_column_shifts` moves a row or a column of a lattice.
SHIFT_REACH = 0.45
#: Shifts whose fit (intersection over union) is within this of the best fit a band of cards about as well.
SHIFT_TIE = 0.01


def _band_fit(occ: np.ndarray, at: np.ndarray, min_occupancy: float, cell: tuple[float, float],
              area: float) -> np.ndarray:
    """float64[S]: the intersection over union with a band of the blob (``area`` px) of the cells at each shift
    (``at`` int[N, S]: the flat canvas index of each of the N cells' centres at each shift), each cell counted where
    at least ``min_occupancy`` of it is the blob (``occ`` float32[H, W] as :func:`lattice_scores`)."""
    o = np.take(occ.reshape(-1), at).astype(np.float64)
    on = o >= min_occupancy
    cell_area = cell[0] * cell[1]
    return (o * on).sum(axis=0) * cell_area / (area + ((1.0 - o) * on).sum(axis=0) * cell_area)


def _middle_best(scores: np.ndarray, shifts: np.ndarray, tol: float = SHIFT_TIE) -> int:
    """The middle of the run of shifts (``shifts`` int[S], in order) around the best score (float[S]) that score
    within ``tol`` of it: where a guessed card smaller than the cards fits a band of them equally well over a few
    pixels, its cells are set in the middle of that run (each end of the band off by the same)."""
    k = int(np.argmax(scores))
    good = scores >= scores[k] - tol
    lo = k
    while lo > 0 and good[lo - 1]:
        lo -= 1
    hi = k
    while hi + 1 < len(good) and good[hi + 1]:
        hi += 1
    return int(round((int(shifts[lo]) + int(shifts[hi])) / 2))


def row_and_column_shifts(occ: np.ndarray, mask: np.ndarray, xs: np.ndarray, ys: np.ndarray,
                          cell: tuple[float, float], min_occupancy: float,
                          reach: float = SHIFT_REACH) -> tuple[np.ndarray, np.ndarray]:
    """Each cell's centre (int[R * C] canvas px x, then y; the cells row by row) of a lattice of columns ``xs``
    (int[C]) and rows ``ys`` (int[R]) after each row is moved along x, then each column along y, by the whole pixels
    (at most ``reach`` of the cell's side along it; ``cell`` = (width, height) px) that fit its cells best to the
    part of the blob (``mask`` uint8[H, W] of the canvas) in its band (the row's cell height, the column's cell
    width): their intersection over union with it (:func:`_band_fit`; ``occ``, ``min_occupancy`` as
    :func:`lattice_scores`), the middle of the shifts that fit about as well (:func:`_middle_best`).

    Cards touching in a station stand in rows and columns, but a camera's slant makes a station's far rows smaller
    and its columns lean, and hands push a row a little off the next: one lattice for the whole blob then cuts a
    row a third of a card off its cards, where the row's own ends on the cloth show where its cards are."""
    h, w = mask.shape
    cw, ch = cell
    inside = (mask > 0).astype(np.float64)
    per_row, per_col = inside.sum(axis=1), inside.sum(axis=0)
    xs, ys = np.asarray(xs, np.intp), np.asarray(ys, np.intp)
    sx = np.arange(-int(reach * cw), int(reach * cw) + 1)
    sy = np.arange(-int(reach * ch), int(reach * ch) + 1)
    cx = np.empty((len(ys), len(xs)), np.intp)
    for i, y in enumerate(ys):
        y = int(y)
        area = float(per_row[max(0, int(round(y - ch / 2))):max(0, int(round(y + ch / 2)))].sum())
        at = y * w + np.clip(xs[:, None] + sx[None, :], 0, w - 1)           # [C, S]: the cells first
        cx[i] = np.clip(xs + _middle_best(_band_fit(occ, at, min_occupancy, cell, max(area, 1.0)), sx), 0, w - 1)
    cy = np.empty((len(ys), len(xs)), np.intp)
    for j in range(len(xs)):
        x = int(np.median(cx[:, j]))
        area = float(per_col[max(0, int(round(x - cw / 2))):max(0, int(round(x + cw / 2)))].sum())
        at = np.clip(ys[:, None] + sy[None, :], 0, h - 1) * w + cx[:, j][:, None]   # [R, S]
        cy[:, j] = np.clip(ys + _middle_best(_band_fit(occ, at, min_occupancy, cell, max(area, 1.0)), sy), 0, h - 1)
    return cx.ravel(), cy.ravel()


def nudged_cells(best: tuple, config: Any, R: np.ndarray, origin: tuple[int, int],
                 centres: tuple[np.ndarray, np.ndarray] | None = None) -> list[np.ndarray]:
    """float[4, 2] img px quads of the cells of the best lattice (``best``: (score, cell width, cell height, outline
    response of the canvas, columns' and rows' centres, pitches)), each moved by up to ``split_refine`` of the
    card to the strongest outline response nearby (the first strongest, row by row, in the window of the canvas
    around it; a cell with none there is left out), row by row; ``R`` maps the roi (at ``origin`` in img px) onto
    the canvas. Every cell's window is searched, and every corner mapped back, at once. ``centres``: each cell's
    centre (int[N] canvas px x, y; row by row) where its row and column were moved (:func:`row_and_column_shifts`),
    None: the lattice's own."""
    _, cw, ch, resp, Xs, Ys, _, _ = best
    wx, wy = max(1, int(config.split_refine * cw)), max(1, int(config.split_refine * ch))
    # each cell's window of the canvas, the part off the canvas -inf (never the strongest, and no response there)
    off = np.pad(resp, ((wy, wy), (wx, wx)), constant_values=-np.inf)
    if centres is None:
        cx, cy = np.tile(np.asarray(Xs), len(Ys)), np.repeat(np.asarray(Ys), len(Xs))   # the cells, row by row
    else:
        cx, cy = (np.asarray(v, np.intp) for v in centres)
    win = np.lib.stride_tricks.sliding_window_view(off, (2 * wy + 1, 2 * wx + 1))[cy, cx].reshape(len(cx), -1)
    k = win.argmax(axis=1)
    keep = np.take_along_axis(win, k[:, None], axis=1)[:, 0] > 0.0
    dy, dx = np.divmod(k[keep], 2 * wx + 1)
    ccx, ccy = cx[keep] - wx + dx, cy[keep] - wy + dy
    pts = np.stack([np.stack([ccx - cw / 2, ccy - ch / 2], axis=1), np.stack([ccx + cw / 2, ccy - ch / 2], axis=1),
                    np.stack([ccx + cw / 2, ccy + ch / 2], axis=1), np.stack([ccx - cw / 2, ccy + ch / 2], axis=1)],
                   axis=1)                                                                   # [cells, 4, 2]
    Rinv = cv2.invertAffineTransform(R)
    back = (Rinv[:, :2] @ pts.reshape(-1, 2).T).T.reshape(-1, 4, 2) + Rinv[:, 2] + np.array(origin)
    return list(order_quads(back))


def lattice_fit(blob: Any, cells: list[np.ndarray]) -> float:
    """Intersection over union (0-1) of a blob (a :class:`vision.card_detect.Blob`) with the cards of the lattice
    fitted to it (``cells``: float[4, 2] px quads in the blob's image): low when the blob holds more than cards (the
    table's art touching them)."""
    x, y, w, h = cv2.boundingRect(np.concatenate([blob.contour.reshape(-1, 2)] +
                                                 [np.round(q).astype(np.int32) for q in cells]))
    a = np.zeros((h + 2, w + 2), np.uint8)
    b = np.zeros_like(a)
    cv2.drawContours(a, [blob.contour - np.array([x - 1, y - 1])], -1, 1, cv2.FILLED)
    cv2.fillPoly(b, [np.round(q - np.array([x - 1, y - 1])).astype(np.int32) for q in cells], 1)
    return float(np.count_nonzero(a & b)) / max(float(np.count_nonzero(a | b)), 1.0)
