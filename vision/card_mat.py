"""A playmat's printed lines are no card: the thin foreground far from any solid piece, taken out of an uncalibrated
read's foreground.

A mat printed with a grid of lines (a hex or square grid, card spaces, a score track's boxes) differs from its own
colour along every line, so the lines are foreground; their net encloses the whole mat, and with its holes filled
the mat is one blob the size of the frame, which the card reader would split into "cards" at the lines' spacing.
A card is solid (its art and face differ from the table over most of its area); a printed line is a few pixels
wide. :func:`without_printed_lines` keeps the solid pieces (what a disc a fraction of the smallest card's side wide
fits in, in pieces of a good part of a card's area) with the foreground right beside them (a card's own thin rim
and corners), and takes out the pieces of thin foreground left over that are long enough to hold a card's area (a
line across the mat, wood grain), with the thin foreground joined to them: shorter thin pieces (a shadow's edge, a
thin bridge between two cards, a die's outline) are kept as they were.

Units: pixels of the detector's work image.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from .raster import disc_morphology

__all__ = ["without_printed_lines"]


def _disc(k: int) -> np.ndarray:
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))


def _components(mask: np.ndarray) -> tuple[int, np.ndarray, np.ndarray]:
    """``cv2.connectedComponentsWithStats`` of ``mask`` (uint8[H, W], 8-connected): (count, labels, stats), the labels
    16-bit (about three times faster) unless there are more components than 16 bits hold."""
    try:
        n, labels, stats, _ = cv2.connectedComponentsWithStatsWithAlgorithm(mask, 8, cv2.CV_16U, cv2.CCL_DEFAULT)
    except cv2.error:   # more than 65535 pieces (a fine speckle)
        n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    return n, labels, stats


def without_printed_lines(mask: np.ndarray, min_card_area: float, aspect: float | None, width_frac: float,
                          line_area: float) -> np.ndarray:
    """``mask`` with a printed mat's lines taken out (the same array when there are none).

    Args:
        mask: uint8[H, W] foreground (255 = not the table's colour) of the detector's work image.
        min_card_area: the smallest card's area in px^2 (the detector's minimum blob area).
        aspect: the deck's long/short side ratio (None: square, 1).
        width_frac: foreground a disc this fraction of the smallest card's short side (``0.7 *
            sqrt(min_card_area / aspect)`` px) wide does not fit in is thin; a solid piece is what it fits in, in
            pieces of at least ``width_frac`` of ``min_card_area`` (a crossing of two lines is none).
        line_area: a piece of thin foreground with no solid piece within half that disc's width is a printed line
            when it holds at least this many times ``min_card_area`` of pixels.

    Returns:
        uint8[H, W]: ``mask`` where no thin piece is that large (bit for bit the same array); else a copy with
        those pieces cleared, and with them all the thin foreground joined to them (a line's stub beside a card, a
        line running along its side, a card's corner the disc rounded off where a line touches it).

    Raises:
        ValueError: ``mask`` is not a 2-D uint8 array, or ``min_card_area``, ``width_frac`` or ``line_area`` is not
            positive.
    """
    if mask.ndim != 2 or mask.dtype != np.uint8:
        raise ValueError(f"without_printed_lines: a 2-D uint8 mask, not {mask.dtype} of shape {mask.shape}")
    if not (min_card_area > 0 and width_frac > 0 and line_area > 0):
        raise ValueError(f"without_printed_lines: min_card_area {min_card_area}, width_frac {width_frac} and "
                         f"line_area {line_area} must be positive")
    long_ = max(aspect, 1.0 / aspect) if aspect else 1.0
    short = 0.7 * math.sqrt(min_card_area / long_)
    k = max(3, int(round(width_frac * short)) | 1)
    thick = disc_morphology(mask, cv2.MORPH_OPEN, k)
    n, labels, stats = _components(thick)
    small = stats[:, cv2.CC_STAT_AREA] < width_frac * min_card_area
    small[0] = False
    if small.any():   # a crossing of lines, a speck of a pattern: no solid piece
        thick[small[labels]] = 0
    near = cv2.dilate(thick, _disc(k))   # a card's corners the disc rounded off, its thin rim: no line alone
    thin = cv2.bitwise_and(mask, cv2.bitwise_not(near))
    if cv2.countNonZero(thin) < line_area * min_card_area:   # no thin piece can be that large
        return mask
    n, labels, stats = _components(thin)
    lines = stats[:, cv2.CC_STAT_AREA] >= line_area * min_card_area
    lines[0] = False
    if not lines.any():
        return mask
    # with them goes every thin piece they run into: their stubs beside a card, the crossings of lines, a card's
    # corner the disc rounded off where a line touches it; the solid pieces stay whole
    n, thin_labels, _ = _components(cv2.bitwise_and(mask, cv2.bitwise_not(thick)))
    hit = np.zeros(n, bool)
    hit[thin_labels[lines[labels]]] = True
    hit[0] = False
    out = mask.copy()
    out[hit[thin_labels]] = 0
    return out
