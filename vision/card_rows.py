"""Cards laid edge to edge and found as one outline, read as the cards they are.

Without a table calibration the card detector knows no card's size in pixels (:func:`vision.cards.read_cards`
estimates it from the blobs), so two portrait cards touching side by side, the start of an Among the Stars station
(the Main Reactor and the first location beside it), are one blob of 2 x 63 by 88 mm: the shape of one card turned a
quarter (88 by 63 mm, long/short 1.40 against 1.43) that the deck identifies as none. :func:`split_rows` cuts such an
unidentified outline across its long side into 2 or 3 equal cards whose own shape is the deck's, and keeps the cut only
where the deck identifies every piece.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .quads import order_quad, quad_size

__all__ = ["ROW_ASPECT_TOL", "ROW_MAX_CARDS", "ROW_SIZE", "row_cuts", "split_rows"]

#: At most this many cards in one row are looked for in an outline.
ROW_MAX_CARDS = 3
#: A piece of a cut outline is card-shaped when its long/short ratio is within this share of the deck's.
ROW_ASPECT_TOL = 0.12
#: Where the frame shows cards identified surely, a piece's short side is within these times the median of theirs (a
#: card of the deck's 63 x 88 mm cut in two is two 44 x 63 mm halves, of the card's shape again, but smaller).
ROW_SIZE = (0.8, 1.25)


def row_cuts(quad: np.ndarray, aspect: float, max_cards: int = ROW_MAX_CARDS,
             tol: float = ROW_ASPECT_TOL) -> list[list[np.ndarray]]:
    """Every way of cutting ``quad`` (float[4, 2] frame px) across its long side into ``n`` equal pieces (2 <= n <=
    ``max_cards``), each piece's long/short ratio within ``tol`` of ``aspect`` (the cards' long/short side, >= 1):
    per ``n`` the pieces, float[4, 2] frame px each (:func:`vision.quads.order_quad` order), in order along the
    side. None fits: []."""
    q = order_quad(np.asarray(quad, np.float64).reshape(4, 2))
    short, long = sorted(quad_size(q))
    a, b, c, d = q
    along_top = np.linalg.norm(b - a) >= np.linalg.norm(d - a)
    out = []
    for n in range(2, max_cards + 1):
        piece = long / n
        ratio = max(piece, short) / max(min(piece, short), 1e-6)
        if abs(ratio / aspect - 1.0) > tol:
            continue
        f = np.arange(n + 1, dtype=np.float64)[:, None] / n
        if along_top:   # a -> b is the long side: cut across it, d -> c alike
            top, bottom = a + (b - a) * f, d + (c - d) * f
            out.append([order_quad(np.array([top[k], top[k + 1], bottom[k + 1], bottom[k]])) for k in range(n)])
        else:
            left, right = a + (d - a) * f, b + (c - b) * f
            out.append([order_quad(np.array([left[k], right[k], right[k + 1], left[k + 1]])) for k in range(n)])
    return out


def split_rows(deck: Any, aspect: float, quads: Sequence[np.ndarray], crops: Sequence[np.ndarray],
               results: Sequence[tuple[Any, bool]], loose: Sequence[bool],
               identify: Callable[[list[np.ndarray]], tuple[list[tuple[Any, bool]], list[np.ndarray],
                                                            list[np.ndarray]]],
               found: Sequence[np.ndarray] | None = None, min_confidence: float = 0.5,
               ) -> tuple[list[tuple[Any, bool]], list[np.ndarray], list[np.ndarray], list[bool]]:
    """The cards of an identification (``quads`` float[4, 2] frame px, ``crops``, ``results`` (Identification with
    ``card_id``, mirrored) and ``loose`` per card) with each outline the ``deck`` identifies as no card and that is cut
    into a row of card-shaped pieces (:func:`row_cuts`, ``aspect``: the cards' long/short side) replaced by the pieces,
    when ``identify(pieces)`` (the caller's identification of those quads: (results, quads, crops) as
    :func:`vision.cards.identify_and_refine` gives) identifies every piece with at least ``min_confidence`` (0-1: a
    cut of what is no row of cards, a calibration marker's paper, reads its pieces as some card, but weakly); the
    fewest pieces first; where the frame shows cards identified at ``min_confidence``, a piece has their size
    (:data:`ROW_SIZE`). ``found``: per card the outline as the detector found it, the one cut (an identification that
    searched other outlines for a card it could not identify may have moved onto a piece of the row); None:
    ``quads``. Returns (results, quads, crops, loose) as new lists, a piece never loose (it is cut from an outline of
    the detector's first look or second)."""
    sure = [min(quad_size(q)) for (r, _m), q in zip(results, quads, strict=True)
            if r.card_id is not None and r.confidence >= min_confidence]
    short = float(np.median(sure)) if sure else None
    out_r, out_q, out_c, out_l = [], [], [], []
    for r, q, c, lo, f in zip(results, quads, crops, loose, quads if found is None else found, strict=True):
        taken = None
        if r[0].card_id is None and deck is not None:
            for pieces in row_cuts(f, aspect):
                if short is not None and not ROW_SIZE[0] <= min(quad_size(pieces[0])) / short <= ROW_SIZE[1]:
                    continue   # the cards identified in the frame are of another size: no row of them
                got = identify(pieces)
                if all(res.card_id is not None and res.confidence >= min_confidence for res, _m in got[0]):
                    taken = got
                    break
        if taken is None:
            out_r.append(r), out_q.append(q), out_c.append(c), out_l.append(lo)
            continue
        out_r += taken[0]
        out_q += taken[1]
        out_c += taken[2]
        out_l += [False] * len(taken[0])
    return out_r, out_q, out_c, out_l
