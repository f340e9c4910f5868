"""What the card detector's first look leaves unexplained, judged before its second look is paid for: pieces shaped
like the top of a die, and the share of a card's area the rest holds within one card's footprint.

The second look (:func:`vision.card_detect.find_card_quads`) joins pieces, proposes places beside the cards found and
snaps them to outlines: about 10-20 ms CPU on a full Roll table, where the dice the dice read reported less surely
(and the ones it missed) leave about one tile's area of foreground, scattered over separate dice, that no tile can
come from. :func:`place_share` tells that from a tile the first look missed: the dice' tops do not count, and what is
left must lie within one card's footprint, not be summed over the frame.

Pure functions of numpy arrays, OpenCV only.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

__all__ = ["die_top_shaped", "die_sized", "place_share"]


def die_sized(wh: tuple[float, float], side: tuple[float, float]) -> bool:
    """Whether a piece whose upright box is ``wh`` (w, h px) may be a die's top whatever its turn: no longer than 1.5x
    and no narrower than 0.5x the die's side bounds ``side`` ((lo, hi) px)."""
    lo, hi = side
    return not (max(wh) > 1.5 * hi or min(wh) < 0.5 * lo)


def die_top_shaped(area: float, rect_wh: tuple[float, float], side: tuple[float, float], fill: float) -> bool:
    """Whether a piece of ``area`` px² whose fitted (turned) rectangle is ``rect_wh`` (w, h px) is shaped like the top
    of a die: it fills at least ``fill`` (0-1) of the rectangle, which is at most 1.3 times as long as wide and whose
    side (the square root of its area) lies within ``side`` ((lo, hi) px)."""
    rw, rh = (float(v) for v in rect_wh)
    s = math.sqrt(rw * rh)
    return area >= fill * rw * rh and max(rw, rh) <= 1.3 * min(rw, rh) and side[0] <= s <= side[1]


def place_share(rest: np.ndarray, card_px: tuple[float, float], die_side: tuple[float, float],
                die_fill: float) -> float:
    """The most foreground of ``rest`` (uint8[H, W], nonzero: foreground nothing found explains) that any upright
    square of the card's long side holds, as a fraction of a card's area (``card_px``: (short, long) px; 0 with no
    such foreground), the pieces shaped like the top of a die not counted.

    A piece is each outer contour of ``rest`` (its holes filled); it is a die's top (:func:`die_top_shaped`) when its
    contour's area fills ``die_fill`` of its fitted rectangle, at most 1.3 times as long as wide, of side ``die_side``
    ((min, max) fractions of the card's short side). The square is wider than a card (a card turned in it still
    mostly lies in it); the counts are of ``rest`` shrunk by a whole factor of about a sixteenth of the card's short
    side (``INTER_AREA``: each cell's mean), so a square's count is within a cell's rim of the pixels' own."""
    short, long_ = float(min(card_px)), float(max(card_px))
    side = (die_side[0] * short, die_side[1] * short)
    cnts, _ = cv2.findContours(rest, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    dice = []
    for c in cnts:
        _, _, w, h = cv2.boundingRect(c)
        if die_sized((w, h), side) and die_top_shaped(cv2.contourArea(c), cv2.minAreaRect(c)[1], side, die_fill):
            dice.append(c)
    left = rest.copy() if dice else rest
    if dice:
        cv2.drawContours(left, dice, -1, 0, cv2.FILLED)
    x, y, w, h = cv2.boundingRect(left)
    if w == 0 or h == 0:
        return 0.0
    f = max(1, int(short // 16))
    cell = left[y:y + h, x:x + w]
    ph, pw = -h % f, -w % f   # padded with table to whole cells
    if ph or pw:
        cell = cv2.copyMakeBorder(cell, 0, ph, 0, pw, cv2.BORDER_CONSTANT, value=0)
    small = cv2.resize((cell > 0).astype(np.float32), ((w + pw) // f, (h + ph) // f), interpolation=cv2.INTER_AREA)
    k = max(1, int(round(long_ / f)))
    sums = cv2.boxFilter(small, cv2.CV_32F, (k, k), normalize=False, borderType=cv2.BORDER_CONSTANT)
    return float(sums.max()) * f * f / (short * long_)
