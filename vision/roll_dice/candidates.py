"""Stage 3 of the Roll dice reader: die candidates from the foreground mask (face cores cut at colour edges,
fragments merged, piles split), and 3b, the d6 CNN detector as a second candidate source."""

from __future__ import annotations

import functools
from collections.abc import Callable

import cv2
import numpy as np

from .. import d6 as _d6
from .config import RollDiceConfig
from .observations import Candidates

__all__ = ["add_cnn_candidates", "clean_mask", "edge_map", "face_cores", "fill_symbol_holes",
           "find_candidates", "load_cnn", "log_lut", "merge_fragments", "recut_candidates", "split_blob",
           "symbol_blobs", "tried_sides", "typical_side"]


def disc_kernel(size: float) -> np.ndarray:
    k = max(1, int(round(size)))
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))


def fill_symbol_holes(mask: np.ndarray, side: float, config: RollDiceConfig) -> None:
    """Fill, in place, the holes of the ``uint8`` 0/255 ``mask`` smaller than ``max_hole_frac`` x a die's
    area (``side`` work px): the symbols on a die. Larger holes (table seen through a printed outline)
    stay open. The small holes are drawn together, so an island inside a filled hole keeps its own hole."""
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is not None:
        limit = config.max_hole_frac * side * side
        small = [contours[i] for i in np.flatnonzero(hierarchy[0][:, 3] >= 0).tolist()
                 if cv2.contourArea(contours[i]) < limit]
        cv2.drawContours(mask, small, -1, 255, -1)


def clean_mask(mask: np.ndarray, side: float, config: RollDiceConfig) -> np.ndarray:
    """Close small gaps, fill holes (symbols), open away thin things (lines, grain, shadow rims)."""
    m = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, disc_kernel(side * config.close_frac))
    fill_symbol_holes(m, side, config)
    return cv2.morphologyEx(m, cv2.MORPH_OPEN, disc_kernel(side * config.open_frac))


def typical_side(mask: np.ndarray, config: RollDiceConfig, default: float | None = None,
                 edges: np.ndarray | None = None) -> float:
    """Typical die side (work pixels): median side of the square-ish, well-filled blobs of ``mask``
    (``uint8[h, w]`` 0/255).

    With ``edges`` (``uint8[h, w]`` 0/255, :func:`edge_map` of the same work image), on a patterned table only the
    blobs that carry a symbol count: a die's top face has its symbol's strokes inside it, while a check of a
    gingham, a square of a printed grid or a blot of a playmat's art is flat inside (:func:`symbol_blobs`). A
    table showing ``pattern_min_flat`` or more flat square blobs is patterned (no set of dice shows that many
    blank faces): its checks outnumber the dice, so the median of all blobs would be the pattern's size, not the
    dice's. There the side is the median of the printed blobs at least ``symbol_min_side`` x ``default`` (a
    printed ring of a player board or a stroke of a symbol is smaller), or ``default`` with fewer than
    ``symbol_min_blobs`` of them. On other tables every square blob counts, as without ``edges`` (the tiles and
    boards there are printed too: only a pattern's number tells its flat squares from the dice). With fewer than
    two square blobs, ``default`` (the side the table expects: ``default_side_frac`` of the mask's longer side
    when None). Raises nothing."""
    default = config.default_side_frac * max(mask.shape[:2]) if default is None else default
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    sides, square = [], []
    for c in contours:
        area = cv2.contourArea(c)
        if area < (default * 0.4) ** 2:
            continue
        (_, _), (w, h), _ = cv2.minAreaRect(c)
        if min(w, h) <= 0:
            continue
        if max(w, h) / min(w, h) < 1.3 and area / (w * h) > 0.75:
            sides.append(np.sqrt(area))
            square.append(c)
    if edges is not None and sides:
        sym = symbol_blobs(mask, square, edges, default, config)
        if int((~sym).sum()) >= config.pattern_min_flat:  # a patterned table: its flat squares do not count
            printed = [s for s, p in zip(sides, sym, strict=True) if p and s >= config.symbol_min_side * default]
            return float(np.median(printed)) if len(printed) >= config.symbol_min_blobs else float(default)
    if len(sides) >= 2:
        return float(np.median(sides))
    return float(default)


def _measured(mask: np.ndarray, edges: np.ndarray, config: RollDiceConfig) -> tuple[float, np.ndarray]:
    """(face core side, work px; the face cores ``uint8[h, w]`` 0/255) measured on the frame: the median square
    blob's side (:func:`typical_side`) sets the morphology, then the median square core's side is measured."""
    side = config.default_side_frac * max(mask.shape[:2])
    sym = edges if config.symbol_size else None
    side = typical_side(clean_mask(mask, side, config), config, edges=sym)
    cores = face_cores(clean_mask(mask, side, config), edges, side, config)
    return typical_side(cores, config, default=side * config.core_shrink, edges=sym), cores


def tried_sides(work: np.ndarray, mask: np.ndarray, config: RollDiceConfig,
                edges: np.ndarray | None = None) -> list[float | None]:
    """The die sides (work px) the reader tries on a frame, for :func:`find_candidates`: ``size_hypotheses`` x
    the default side (``default_side_frac`` of ``mask``'s longer side); or ``[None]`` (the side measured on the
    frame's square blobs and face cores, as :func:`find_candidates` measures it) when that is larger than the
    largest of them: a camera nearer the table than the box's shows dice larger than any tried, and the blobs
    measure them (a cloth's checks or a playmat's print that outnumber the dice are
    most often smaller than a die, and it is there that the measured side is not trusted). Without
    ``size_hypotheses``, ``[None]``. ``work``: ``uint8[h, w, 3]`` BGR work image, ``mask``: ``uint8[h, w]`` 0/255
    raw foreground, ``edges``: :func:`edge_map` of ``work`` when already made. Raises nothing."""
    if not config.size_hypotheses:
        return [None]
    default = config.default_side_frac * max(mask.shape[:2])
    edges = edge_map(work, config) if edges is None else edges
    measured = _measured(mask, edges, config)[0] / config.core_shrink
    if measured > max(config.size_hypotheses) * default:
        return [None]
    return [default * float(f) for f in config.size_hypotheses]


def symbol_blobs(mask: np.ndarray, contours: list[np.ndarray], edges: np.ndarray, side: float,
                 config: RollDiceConfig) -> np.ndarray:
    """``bool[len(contours)]``: which blobs of ``mask`` (their outer ``contours``) carry a symbol: the share of
    their inside (the mask eroded by ``symbol_inset`` x ``side`` work px, off their own outline) that is
    ``edges`` is at least ``symbol_edges``. Every face of a Roll die (and a pip of a d6) is printed, so its
    inside has the strokes' edges; a check of a cloth or a blot of art is flat inside."""
    if not contours:
        return np.zeros(0, bool)
    k = 2 * max(1, int(round(config.symbol_inset * side))) + 1
    _, labels = cv2.connectedComponents(mask, connectivity=8)
    inside = cv2.erode(mask, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k))) > 0
    lab_in = labels[inside]
    n = int(labels.max()) + 1
    area = np.bincount(lab_in, minlength=n)
    edged = np.bincount(lab_in[edges[inside] > 0], minlength=n)
    ids = np.array([labels[int(c[0, 0, 1]), int(c[0, 0, 0])] for c in contours], np.int64)
    return edged[ids] >= config.symbol_edges * np.maximum(area[ids], 1)


def split_blob(points: np.ndarray, k: int, seed: int = 0, attempts: int = 3) -> list[np.ndarray]:
    """Split a pile's pixels ``float32[N, 2]`` (work px) into ``k`` dice by k-means: ``k`` parts ``float32[N_i, 2]``
    (the points in their order), or ``[points]`` when ``k`` is 1 or there are fewer than 4 points a part.

    Deterministic: the k-means++ starts are drawn from OpenCV's generator of the calling thread set to ``seed`` just
    before (``cv2.setRNGSeed``), so one pile splits the same on every read and in every thread; of ``attempts`` runs
    (at least 1) the most compact is kept. Raises ``cv2.error`` when ``points`` is not ``float32[N, 2]``."""
    if k <= 1 or len(points) < k * 4:
        return [points]
    cv2.setRNGSeed(seed)
    crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 0.1)
    _, labels, _ = cv2.kmeans(points, k, None, crit, max(1, int(attempts)), cv2.KMEANS_PP_CENTERS)
    labels = labels.reshape(-1)
    return [points[labels == i] for i in range(k)]


def edge_map(work: np.ndarray, config: RollDiceConfig) -> np.ndarray:
    """``uint8`` 0/255 map of one-pixel colour edges (Canny on each colour channel): die outlines,
    bevels and the gaps between touching dice (and symbol strokes, filled later as holes)."""
    lo, hi = config.edge_thresholds
    out = np.zeros(work.shape[:2], np.uint8)
    for ch in cv2.split(cv2.LUT(work, log_lut(config))):
        out |= cv2.Canny(ch, lo, hi, L2gradient=True)
    return out


@functools.lru_cache(maxsize=8)
def _log_lut(offset: float) -> np.ndarray:
    v = np.log(np.arange(256, dtype=np.float64) + offset)
    return np.round((v - v[0]) / (v[-1] - v[0]) * 255).astype(np.uint8)


def log_lut(config: RollDiceConfig) -> np.ndarray:
    """0..255 -> 0..255 lookup table of log(v + ``log_offset``), so edges of dark dice count as much as bright ones."""
    return _log_lut(float(config.log_offset))


def face_cores(blobs: np.ndarray, edges: np.ndarray, side: float, config: RollDiceConfig) -> np.ndarray:
    """Flat, edge-free parts of the foreground (one per top face, touching dice cut apart at their
    shared edge); symbol holes filled."""
    core = cv2.bitwise_and(blobs, cv2.bitwise_not(edges))
    fill_symbol_holes(core, side, config)
    return cv2.morphologyEx(core, cv2.MORPH_OPEN, disc_kernel(max(2.0, side * config.core_open_frac)))


def merge_fragments(labels: np.ndarray, stats: np.ndarray, side: float, config: RollDiceConfig) -> list[np.ndarray]:
    """Pixel sets ``float32[N_i, 2]`` (x, y work px) of face cores, fragments of one face (cut apart by its own
    symbol's strokes) merged back: fragments are grouped while the group still fits in a square of ``merge_fit`` x
    the die side ``side`` (work px; two dice never do).

    ``labels``: ``int32[h, w]`` 4-connected labels of the face cores, ``stats``: their
    ``cv2.connectedComponentsWithStats`` statistics. The fragments of at least ``fragment_min_frac`` x a die's area
    are taken largest first (equals in label order); each one not yet in a group starts one, which takes, one at a
    time, the first fragment after the one it took last whose centre lies within a side of the group's centre and
    whose union with the group fits; a fragment of ``merge_max_frac`` x a die's area or more takes none. A group's
    pixels are its fragments' pixels in the order they joined, each fragment's row-major; groups in the order they
    were started. Raises nothing.

    The grouping is settled for most fragments at once: a union that fits lies in a rectangle of sides at most
    ``merge_fit`` x ``side``, so two fragments whose centres lie further apart than its diagonal never join, and a
    fragment with no other within that reach (or of ``merge_max_frac`` x a die's area or more: every one taken
    before it is as large) is a group of its own. Only the others are walked one by one, each group measured against
    the fragments within its first fragment's reach."""
    return _merged(labels, stats, side, config)[0]


def _merged(labels: np.ndarray, stats: np.ndarray, side: float,
            config: RollDiceConfig) -> tuple[list[np.ndarray], Callable[[int], np.ndarray]]:
    """(:func:`merge_fragments`' groups, ``hull_of(j)``: group j's convex hull corners ``float32[V, 2]``, which have
    the group's minimal rectangle: ``cv2.minAreaRect`` hulls its points first). A group walked has its hull from the
    merge; a fragment on its own, from its rows' end pixels."""
    kept = np.flatnonzero(stats[1:, cv2.CC_STAT_AREA] >= config.fragment_min_frac * side * side) + 1
    # each fragment's pixels (x, y) in row-major order, as np.nonzero of its own box gives them: all labelled
    # pixels at once, grouped by label (a stable sort keeps the row-major order within each)
    xy, lab = _labelled_pixels(labels, len(stats))
    counts = np.bincount(lab, minlength=len(stats))
    ends = np.cumsum(counts)
    order = np.argsort(-counts[kept], kind="stable")   # the largest first, equals in label order
    ids = kept[order]                                 # the fragments' labels in merge order
    pts = [xy[ends[i - 1]:ends[i]] for i in ids.tolist()]
    # each fragment's centre as its pixels' mean(0) gives it (float32, summed row by row, then divided)
    sums = np.add.reduceat(xy, ends[:-1], axis=0)[kept - 1] if len(kept) else np.zeros((0, 2), np.float32)
    centres = (sums / counts[kept, None].astype(np.float32)).reshape(-1, 2)[order]  # in merge order
    limit = config.merge_fit * side
    # the fragments that may join (smaller than merge_max_frac x a die's area: every one taken before a larger one is
    # at least as large, so a larger one neither joins nor takes any), and of those, each one's reach: the others
    # whose centres lie within the fitting square's diagonal (with a pixel to spare for rounding)
    small = np.flatnonzero(counts[ids] < config.merge_max_frac * side * side)
    at = centres[small]
    dist = np.hypot(at[None, :, 0] - at[:, None, 0], at[None, :, 1] - at[:, None, 1])
    reach = dist <= limit * np.sqrt(2.0) + 1.0
    np.fill_diagonal(reach, False)
    some = np.flatnonzero(reach.any(1))
    # a fragment's convex hull is the hull of its rows' end pixels: those of every fragment at once, each fragment's
    # in its row order, then hulled when first needed
    ends2, label_ids = _row_ends(xy, counts), ids.tolist()
    hulls: dict[int, np.ndarray] = {}

    def hull(k: int) -> np.ndarray:
        if k not in hulls:
            i = label_ids[k]
            hulls[k] = cv2.convexHull(ends2[1][ends2[0][i - 1]:ends2[0][i]]).reshape(-1, 2)
        return hulls[k]

    if not len(some):
        return pts, hull                              # every fragment a group of its own
    walked = small[some]
    reach = reach[some][:, some]
    # for each fragment walked, those after it within a side of its centre (the loop's own test), in merge order
    rows, cols = np.nonzero(np.triu(dist[some][:, some] <= side, 1))
    cols = walked[cols].tolist()
    starts = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=len(walked)))]).tolist()
    # a group's centre as the mean of its pixels gives it: the pixels' coordinate sums are exact integers in float32
    # below 2**24, so their sum in any order is the same, and so is its quotient by the count
    sums_int = sums[order].astype(np.int64).tolist()
    bound = float(max(labels.shape))
    taken = [True] * len(pts)                         # in merge order: taken, or a group of its own
    for k in walked.tolist():
        taken[k] = False
    used = np.array(taken)                            # the same, for the array tests
    groups: list[np.ndarray | None] = list(pts)       # a group of its own, unless walked below
    outlines: dict[int, np.ndarray] = {}              # a group walked: its hull, by its first fragment
    for row, k in enumerate(walked.tolist()):
        if taken[k]:
            groups[k] = None                          # taken by a group started before it
            continue
        used[k] = taken[k] = True
        near = [c for c in cols[starts[row]:starts[row + 1]] if not taken[c]]
        if not near:                                  # nothing left to join: no hull to measure
            continue
        # the fragments within a side of the group's centre, in order; the centre moves when the group grows,
        # so the distances are measured again from there for the fragments after the one just merged (a lone
        # fragment's centre is its own). Whether a union fits is measured on the two convex hulls' corners: the
        # union's hull, and so its minimal rectangle, is theirs. Only the fragments within this one's reach can fit
        around = walked[reach[row]]
        members, outline, start = [k], hull(k), 0
        sx, sy = sums_int[k]
        n = len(pts[k])
        while True:
            for c in near:
                if c < start:
                    continue
                corners = np.concatenate([outline, hull(c)])
                (_, _), (rw, rh), _ = cv2.minAreaRect(corners)
                if max(rw, rh) <= limit:
                    members.append(c)
                    outline = cv2.convexHull(corners).reshape(-1, 2)
                    used[c] = taken[c] = True
                    start = c + 1
                    break
            else:
                break
            n += len(pts[c])
            if n * bound < 2.0 ** 24:
                sx, sy = sx + sums_int[c][0], sy + sums_int[c][1]
                middle = np.array([sx / n, sy / n], np.float32)
            else:
                middle = np.concatenate([pts[m] for m in members]).mean(0)
            free = around[~used[around]]
            near = free[np.hypot(centres[free, 0] - middle[0], centres[free, 1] - middle[1]) <= side].tolist()
        if len(members) > 1:
            groups[k] = np.concatenate([pts[m] for m in members])
            outlines[k] = outline
    firsts = [k for k, g in enumerate(groups) if g is not None]
    return [groups[k] for k in firsts], lambda j: outlines[firsts[j]] if firsts[j] in outlines else hull(firsts[j])


def _row_ends(xy: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(``int[n]`` cumulative end of each label's points, ``float32[R, 2]`` the first and last pixel of each row of
    each label, in label order and row order) of ``xy`` (:func:`_labelled_pixels`: grouped by label, row-major within
    each) and ``counts`` (``int[n]`` pixels a label, 0 first). A set of pixels and these end pixels have one convex
    hull: every corner of the hull is its row's leftmost or rightmost pixel."""
    if not len(xy):
        return np.zeros(len(counts), np.int64), np.zeros((0, 2), np.float32)
    label = np.repeat(np.arange(len(counts), dtype=np.int32), counts)
    y = xy[:, 1]
    cut = np.flatnonzero((y[1:] != y[:-1]) | (label[1:] != label[:-1])) + 1
    first = np.concatenate([[0], cut])
    last = np.concatenate([cut - 1, [len(xy) - 1]])
    ends = np.empty((2 * len(first), 2), np.float32)
    ends[0::2] = xy[first]
    ends[1::2] = xy[last]
    return np.cumsum(np.bincount(label[first], minlength=len(counts))) * 2, ends


def _labelled_pixels(labels: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """(``float32[P, 2]`` (x, y) of every labelled pixel of ``labels`` (``int[h, w]``, 0 unlabelled, ``n`` labels
    counting 0), grouped by label in label order and row-major within each label; ``int[P]`` each pixel's label in
    row-major order): ``np.stack([xs, ys], 1)[np.argsort(labels[ys, xs], kind="stable")]`` of ``ys, xs =
    np.nonzero(labels)``, the same numbers, from the flat indices of the labelled pixels (a gather of flat indices
    and one division instead of two index arrays gathered through)."""
    flat = labels.reshape(-1)
    at = np.flatnonzero(flat)
    lab = flat[at]
    if n <= 1 << 16:  # the same stable order; numpy sorts 16-bit keys by radix, several times faster
        lab = lab.astype(np.uint16)
    if flat.size < 1 << 31:
        at = at.astype(np.int32)
    at = at[np.argsort(lab, kind="stable")]
    width = labels.shape[1]
    xy = np.empty((len(at), 2), np.float32)
    y = at // width
    xy[:, 1] = y
    xy[:, 0] = at - y * width
    return xy, lab


def _unit(x: float) -> float:
    """``x`` (a finite number) clipped to 0..1: ``float(np.clip(x, 0, 1))`` without numpy's cost on one number."""
    return float(min(max(x, 0.0), 1.0))


def find_candidates(work: np.ndarray, mask: np.ndarray, scale: float, config: RollDiceConfig,
                    side: float | None = None, edges: np.ndarray | None = None,
                    keep_piles: Callable[[np.ndarray], np.ndarray] | None = None,
                    cut: dict | None = None) -> Candidates:
    """Die candidates (rotated rects in frame pixels) from the raw foreground mask.

    Blobs (cleaned foreground) are cut at colour edges into face cores; each core is a die top face
    (a core of k dice areas, when an edge was too faint, is split by k-means). ``side``: the die's side (work px)
    to look for, None to measure it on the mask; ``edges``: :func:`edge_map` of ``work`` when already made (the
    reader tries several sides on one frame and makes it once). ``keep_piles(rects)``: ``bool[P]``, which of the
    cores of two dice areas or more (their minimal rects ``float[P, 5]`` frame px, asked all at once) are split into
    candidates (the others, e.g. a tile's print the caller's art explains, give none and cost no k-means); None: all.
    ``cut``: a dict that keeps the face cores found (its key ``"cores"``) and those that are no die as they are (key
    ``"rejected"``: too large, a pile, a core of no die's shape; a pile ``keep_piles`` drops is not one of them, the
    caller's art explains it), for :func:`recut_candidates` at this side.
    """
    edges = edge_map(work, config) if edges is None else edges
    found = _core_groups(mask, config, side, edges)
    if cut is not None:
        cut["cores"] = found
    cores, side, groups, _ = found
    area0 = side * side
    pad = side * (1.0 / config.core_shrink - 1.0)
    piles = [j for j, (_, _, k, _) in enumerate(groups) if k > 1]
    if keep_piles is not None and piles:
        rects = np.array([_frame_rect(cv2.minAreaRect(groups[j][3]), scale, pad) for j in piles], np.float64)
        kept = np.asarray(keep_piles(rects), bool).reshape(-1)
        dropped = {j for j, k in zip(piles, kept, strict=True) if not k}
        groups = [g for j, g in enumerate(groups) if j not in dropped]
    rects, scores = [], []
    rejected = list(found[3])   # the cores that are no die as they are, for recut_candidates
    for i, pts, k, outline in groups:
        if k > 1:
            rejected.append(pts)
        for part in split_blob(pts, k, seed=i, attempts=config.split_attempts) if k > 1 else [pts]:
            got = _scored(part, k, area0, config, outline if k == 1 else None)
            if got is not None:
                rects.append(_frame_rect(got[0], scale, pad))
                scores.append(got[1])
            elif k == 1:
                rejected.append(pts)
    if cut is not None:
        cut["rejected"] = rejected
    r = np.asarray(rects, np.float64).reshape(-1, 5)
    return Candidates(r, np.asarray(scores, np.float64), scale)


def _core_groups(mask: np.ndarray, config: RollDiceConfig, side: float | None,
                 edges: np.ndarray) -> tuple[np.ndarray, float, list, list]:
    """(face cores ``uint8[h, w]`` 0/255, a core's side (work px), the cores kept ``[(seed, pixels float32[N, 2],
    dice areas k, convex hull corners float32[V, 2])]``, the cores too large to be a pile of dice (more than
    ``max_split`` dice areas), as pixel sets) of the raw foreground ``mask`` at the die side ``side`` (work px; None:
    measured on the mask), cut at ``edges``."""
    if side is None:
        side, cores = _measured(mask, edges, config)
    else:
        cores = face_cores(clean_mask(mask, side, config), edges, side, config)
        side = side * config.core_shrink
    area0 = side * side
    _, labels, stats, _ = cv2.connectedComponentsWithStats(cores, connectivity=4)
    groups, too_large = [], []
    merged, hull_of = _merged(labels, stats, side, config)
    for i, pts in enumerate(merged):
        area = len(pts)
        if area < area0 * config.min_area_frac:
            continue
        k = int(round(area / area0)) if area >= area0 * config.split_area else 1
        if k > config.max_split:
            too_large.append(pts)
            continue
        outline = hull_of(i)   # the pixels' minimal rectangle is their hull's
        if k == 2 and area < area0 * config.pair_max_area:
            (_, _), (bw, bh), _ = cv2.minAreaRect(outline)
            if max(bw, bh) < config.pair_min_aspect * max(min(bw, bh), 1.0):
                k = 1  # squat: one die with its side face showing, not two dice
        groups.append((i, pts, k, outline))
    return cores, float(side), groups, too_large


def _scored(part: np.ndarray, k: int, area0: float, config: RollDiceConfig,
            outline: np.ndarray | None = None) -> tuple[tuple, float] | None:
    """(work-px ``cv2.minAreaRect`` of the face core part ``part`` (``float32[N, 2]`` work px), its die-ness score)
    when the part is die-shaped (``min_fill``, ``max_aspect``, at least ``min_area_frac`` of a die's area ``area0``
    work px², score at least ``min_die_score``), else None; ``k``: how many dice its core counts (a part of a pile is
    not scored down for its size); ``outline``: the part's convex hull corners when known (the same rectangle, for
    fewer points)."""
    if len(part) < area0 * config.min_area_frac:
        return None
    (cx, cy), (rw, rh), ang = cv2.minAreaRect(part if outline is None else outline)
    rw, rh = max(rw, 1.0), max(rh, 1.0)
    fill = len(part) / (rw * rh)
    aspect = max(rw, rh) / min(rw, rh)
    rel = len(part) / area0
    if fill < config.min_fill or aspect > config.max_aspect or rel < config.min_area_frac:
        return None
    score = 1.0
    score *= _unit((fill - config.min_fill) / 0.2 + 0.5)
    score *= _unit((config.max_aspect - aspect) / 0.3 + 0.5)
    score *= _unit((rel - config.min_area_frac) / 0.2)
    score *= _unit((config.max_area_frac * 1.5 - rel) / 0.5) if k == 1 else 1.0
    if score < config.min_die_score:
        return None
    return ((cx, cy), (rw, rh), ang), score


def recut_candidates(mask: np.ndarray, scale: float, config: RollDiceConfig, side: float | None,
                     edges: np.ndarray, cut: dict | None = None) -> Candidates:
    """Die candidates (rotated rects in frame px) from the face cores that are no die as they are, cut again at the
    colour edges thickened by ``recut_gap`` px (a square ``recut_gap`` px dilation).

    Where a die's outline has a gap of a pixel or two (its body close to the table's colour at a corner, a printed
    line of a playmat or board running into it), its face core runs into the table's, and the whole is no die: too
    large to be a pile of dice (more than ``max_split`` dice areas), a pile split by area into parts that are not the
    dice, or a core of no die's shape. Thickened, the outline closes and the die's own core stands apart.
    :func:`find_candidates` does not give these: the reader adds them at the die size it chose, where no top face of
    its own lies (:meth:`vision.roll_dice.RollDiceReader.read`), so they never move the size search.

    ``mask``: raw foreground ``uint8[h, w]`` 0/255 (work px, ``scale`` frame-to-work); ``side``: the die side (work
    px) the cores are cut at, None to measure it as :func:`find_candidates` does; ``edges``: :func:`edge_map` of the
    work image; ``cut``: the dict :func:`find_candidates` kept the face cores in at this ``side`` (the cores are then
    not found again, and a pile its ``keep_piles`` dropped, a tile's print the caller's art explains, is not cut
    again), or None. The cut is made on the cores' bounding box only (with a margin the thickening and the opening
    do not cross: the same cut as on the whole map). ``recut_gap`` below 2: none. Raises nothing."""
    none = Candidates(np.zeros((0, 5)), np.zeros(0), scale)
    if config.recut_gap < 2:
        return none
    found = cut.get("cores") if cut is not None else None
    cores, side, groups, too_large = found if found is not None else _core_groups(mask, config, side, edges)
    area0 = side * side
    rejected = cut.get("rejected") if found is not None else None
    if rejected is None:
        rejected = list(too_large) + [pts for _, pts, k, outline in groups
                                         if k > 1 or _scored(pts, k, area0, config, outline) is None]
    if not rejected:
        return none
    # cut on the rejected cores' bounding box, with a margin the thickening and the opening cannot cross: what lies
    # outside it is no core, so the cut is the same as on the whole map
    gap = int(config.recut_gap)
    kernel = disc_kernel(max(2.0, side * config.core_open_frac))
    margin = gap + max(kernel.shape) + 2
    xy = np.concatenate(rejected).astype(np.int32)
    h0, w0 = cores.shape[:2]
    ox, oy = max(int(xy[:, 0].min()) - margin, 0), max(int(xy[:, 1].min()) - margin, 0)
    ex, ey = min(int(xy[:, 0].max()) + margin + 1, w0), min(int(xy[:, 1].max()) + margin + 1, h0)
    region = np.zeros((ey - oy, ex - ox), np.uint8)
    region[xy[:, 1] - oy, xy[:, 0] - ox] = 255
    thick = cv2.dilate(edges[oy:ey, ox:ex], cv2.getStructuringElement(cv2.MORPH_RECT, (gap, gap)))
    cut = cv2.bitwise_and(region, cv2.bitwise_not(thick))
    fill_symbol_holes(cut, side, config)
    cut = cv2.morphologyEx(cut, cv2.MORPH_OPEN, kernel)
    n, labels = cv2.connectedComponents(cut, connectivity=4)   # the areas counted apart: no per-part statistics
    lab = labels.reshape(-1)
    area = np.bincount(lab, minlength=n)
    sized = (config.min_area_frac * area0 <= area) & (area < config.split_area * area0)
    sized[0] = False
    parts = np.flatnonzero(sized)
    at = np.flatnonzero(sized[lab])                      # their pixels in raster order, grouped by part below
    at = at[np.argsort(lab[at], kind="stable")]
    ends = np.cumsum(area[parts])
    pad = side * (1.0 / config.core_shrink - 1.0) + (gap - 1)   # the thickened edges eat (gap - 1) / 2 px a side
    rects, scores = [], []
    width = cut.shape[1]
    for start, stop in zip(ends - area[parts], ends, strict=True):
        ys, xs = np.divmod(at[start:stop], width)
        got = _scored(np.stack([xs + ox, ys + oy], axis=1).astype(np.float32), 1, area0, config)
        if got is not None:
            rects.append(_frame_rect(got[0], scale, pad))
            scores.append(got[1])
    return Candidates(np.asarray(rects, np.float64).reshape(-1, 5), np.asarray(scores, np.float64), scale)


def _frame_rect(rect: tuple, scale: float, pad: float) -> list[float]:
    """A work-px ``cv2.minAreaRect`` ``((cx, cy), (w, h), angle)`` of a face core as a candidate's rect in frame px
    ``[cx, cy, w, h, angle]``, its sides grown by ``pad`` work px (a core is shrunk from its face)."""
    (cx, cy), (rw, rh), ang = rect
    return [cx / scale, cy / scale, (rw + pad) / scale, (rh + pad) / scale, ang]


def add_cnn_candidates(frame: np.ndarray, cands: Candidates, net: _d6.Model | None,
                       config: RollDiceConfig, found: _d6.Candidates | None = None) -> Candidates:
    """Candidates plus the CNN detector's boxes that are not near a classical candidate.

    A CNN box near a square classical candidate is that die (skipped). A classical candidate that
    is not square (long side > ``cnn_replace_aspect`` x short: often two touching dice of one
    colour, or a die and a piece of its neighbour) and holds CNN box centres is replaced by them.
    A CNN box whose side is off the frame's die side (the median classical candidate's, or
    ``default_side_frac`` of the frame's longer side when there are fewer than two) by more than
    the factors ``cnn_side_range`` is not a die (a printed box on a mat, a pip).

    Args:
        frame: ``uint8[H, W, 3]`` BGR (validated).
        cands: the classical candidates (frame pixels).
        net: the d6 detector (:func:`vision.d6.load_net`), or None to return ``cands`` unchanged.
        config: ``cnn_threshold``, ``cnn_input_long_side``, ``cnn_merge_dist``, ``cnn_full_score``.
        found: the detector's boxes on ``frame`` when already run (:func:`vision.d6.detect_dice`; the
            reader tries several die sizes on one frame and runs the detector once), else it is run here.

    Returns:
        :class:`Candidates` with the added boxes as axis-aligned rects (angle 0; the top-face stage
        finds the turn) and die-ness ``min(1, peak / cnn_full_score)``.
    """
    if net is None:
        return cands
    if found is None:
        found = _d6.detect_dice(net, frame, config.cnn_config())
    have = cands.rects
    aspect = np.maximum(have[:, 2], have[:, 3]) / np.maximum(np.minimum(have[:, 2], have[:, 3]), 1e-6)
    square = aspect <= config.cnn_replace_aspect
    sides = np.sqrt(have[:, 2] * have[:, 3])
    typical = float(np.median(sides)) if len(sides) >= 2 else config.default_side_frac * max(frame.shape[:2])
    lo, hi = config.cnn_side_range
    replaced = np.zeros(len(have), bool)
    added, added_scores = [], []
    boxes = found.boxes.astype(np.float64).reshape(-1, 4)
    peaks = found.scores.astype(np.float64).reshape(-1)
    # each box's centre and side, and its distance to every classical candidate, worked out for all boxes at once
    # (the same numbers as box by box); the outlines of the candidates that are not square, made once
    centres = np.stack([boxes[:, 0] + boxes[:, 2] / 2, boxes[:, 1] + boxes[:, 3] / 2], axis=1)
    box_sides = np.sqrt(np.maximum(boxes[:, 2] * boxes[:, 3], 1.0))
    dists = np.hypot(have[None, :, 0] - centres[:, None, 0], have[None, :, 1] - centres[:, None, 1])
    near_square = (square[None, :] & (dists < (config.cnn_merge_dist * box_sides)[:, None])).any(1)
    outlines = [(int(i), cv2.boxPoints(((float(have[i, 0]), float(have[i, 1])),
                                        (float(have[i, 2]), float(have[i, 3])), float(have[i, 4]))))
                for i in np.flatnonzero(~square)] if len(boxes) else []
    for b, ((_, _, w, h), peak) in enumerate(zip(boxes, peaks, strict=True)):
        c = centres[b]
        side = float(box_sides[b])
        if not lo * typical <= side <= hi * typical:
            continue
        near = config.cnn_merge_dist * side
        if near_square[b] or any(np.hypot(*(a[:2] - c)) < near for a in added):
            continue
        for i, outline in outlines:
            if cv2.pointPolygonTest(outline, (float(c[0]), float(c[1])), False) >= 0:
                replaced[i] = True
        added.append(np.array([c[0], c[1], w, h, 0.0]))
        added_scores.append(min(1.0, peak / config.cnn_full_score))
    if not added:
        return cands
    keep = ~replaced
    rects = np.concatenate([have[keep], np.stack(added)])
    return Candidates(rects, np.concatenate([cands.scores[keep], added_scores]), cands.work_scale)


def load_cnn(config: RollDiceConfig) -> _d6.Model | None:
    """The d6 CNN detector when ``config.cnn_candidates`` (run by ``config.inference``'s runtime), else None.

    Raises:
        VisionError: the model file is missing or unreadable, or the runtime is not installed (the message
            names it).
    """
    cnn = config.cnn_config()
    return _d6.load_net(cnn.detector_path, cnn.inference) if config.cnn_candidates else None
