"""Card outlines of a known size: where, near a proposed place, a card-sized rectangle's four sides lie on edges, and
the card-sized places about, beside and turned from a quad that the second look tries.

On a top-down table image (:func:`vision.card_detect.rectify_table`) a card's size in pixels is known from the
deck's card size in mm. The foreground of a card whose border is washed out (a webcam's low contrast, a light
card on a light cloth) or whose art shares the table's colours is pieces, and a place proposed from those
pieces (or beside the cards found) can sit a fifth of a card off the card. The card's outline is still there
as an edge on all four sides: :func:`snap_to_outline` moves each place to the strongest card-sized rectangle
outline within reach, along the place's own axes (and the axes of the cards found, when the place's own turn
came from a ragged blob).

Units: pixels of the image the quads are given in; quads are float[4, 2] (:func:`vision.quads.order_quad`).
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from .quads import order_quad, quad_size
from .raster import shift

__all__ = ["card_sized", "card_sized_about", "cards_axis_deg", "off_card_size", "outline_response", "quad_axes",
           "shifted_places", "side_axis_deg", "snap_to_outline", "turned"]


def outline_response(gx: np.ndarray, gy: np.ndarray, w: float, h: float) -> np.ndarray:
    """float32[H, W]: edge strength along the outline of a ``w`` x ``h`` px upright rectangle centred at each
    pixel, from the absolute x and y gradients ``gx``, ``gy`` (float32[H, W]); the weaker sides count most (a
    card needs all four edges; one strong edge of a pattern does not make a card)."""
    wi, hi = max(3, int(round(w))), max(3, int(round(h)))
    vx = cv2.boxFilter(gx, -1, (1, int(0.8 * hi)), normalize=True, borderType=cv2.BORDER_CONSTANT)
    hy = cv2.boxFilter(gy, -1, (int(0.8 * wi), 1), normalize=True, borderType=cv2.BORDER_CONSTANT)
    a, b, c, d = shift(vx, -wi // 2, 0), shift(vx, wi // 2, 0), shift(hy, 0, -hi // 2), shift(hy, 0, hi // 2)
    # the four sides sorted per pixel (a sorting network: the same values as sorting them), each step written over
    # a plane no longer needed (a fresh image-sized array per step costs more than the step)
    lo1, hi1 = np.minimum(a, b), np.maximum(a, b, out=a)
    lo2, hi2 = np.minimum(c, d), np.maximum(c, d, out=c)
    s0 = np.minimum(lo1, lo2)
    mid1 = np.maximum(lo1, lo2, out=lo1)
    s3 = np.maximum(hi1, hi2, out=b)
    mid2 = np.minimum(hi1, hi2, out=hi1)
    s1 = np.minimum(mid1, mid2, out=d)
    s2 = np.maximum(mid1, mid2, out=mid1)
    s2 += s3            # s0 + s1 + 0.5 * (s2 + s3), in that order
    s2 *= 0.5
    s0 += s1
    s0 += s2
    return s0


def quad_axes(quad: np.ndarray) -> float:
    """Turn in degrees (0-90, counter-clockwise on screen from the image's x axis) of a quad's sides, mod 90."""
    q = order_quad(quad)
    v = q[1] - q[0]
    return math.degrees(math.atan2(-v[1], v[0])) % 90.0


def card_sized_about(quad: np.ndarray, card_px: tuple[float, float]) -> np.ndarray:
    """float[4, 2] ordered (:func:`vision.quads.order_quad`): the card-sized rectangle (``card_px`` (short, long) px)
    about the centre of ``quad`` (float[4, 2] px), its long sides along the median direction of ``quad``'s four sides
    (each short side's direction turned a quarter to the long axis).

    The quad of a blob that lost part of its card (a corner or a strip of the border in the table's colour) is smaller
    than the card and has a side cut slanted across the card; its other sides still run along the card's. The median
    of the four directions is theirs, where the direction of one side alone may be the slanted one's."""
    q = np.asarray(quad, np.float64).reshape(4, 2)
    sides = np.roll(q, -1, axis=0) - q
    lengths = np.maximum(np.hypot(sides[:, 0], sides[:, 1]), 1e-9)
    long_k = 1 if lengths[1] + lengths[3] > lengths[0] + lengths[2] else 0
    e = sides / lengths[:, None]
    e[(np.arange(4) - long_k) % 2 == 1] = e[(np.arange(4) - long_k) % 2 == 1] @ np.array([[0.0, 1.0], [-1.0, 0.0]])
    e[e @ e[long_k] < 0] *= -1.0                                          # every side's direction, as side long_k's
    ref = math.atan2(e[long_k, 1], e[long_k, 0])
    turn = ref + float(np.median((np.arctan2(e[:, 1], e[:, 0]) - ref + math.pi) % (2 * math.pi) - math.pi))
    along = np.array([math.cos(turn), math.sin(turn)])
    across = np.array([along[1], -along[0]])
    c = q.mean(axis=0)
    hl, hs = 0.5 * float(max(card_px)) * along, 0.5 * float(min(card_px)) * across
    return order_quad(np.array([c - hl - hs, c - hl + hs, c + hl + hs, c + hl - hs]))


def off_card_size(quad: np.ndarray, card_px: tuple[float, float], tol: float) -> bool:
    """Whether the (short, long) sides of ``quad`` (float[4, 2] ordered px, :func:`vision.quads.quad_size`) differ from
    the card's (``card_px`` (short, long) px) by more than the fraction ``tol`` on either."""
    short, long_ = quad_size(np.asarray(quad, np.float64).reshape(4, 2))
    return abs(short / float(min(card_px)) - 1.0) > tol or abs(long_ / float(max(card_px)) - 1.0) > tol


def card_sized(q: np.ndarray, card_px: tuple[float, float]) -> np.ndarray:
    """float[4, 2]: ``q`` (ordered float[4, 2] px, side 0 short) resized about its centre to ``card_px`` (short,
    long) px along its own axes."""
    c = q.mean(axis=0)
    e1 = (q[1] - q[0]) / max(float(np.linalg.norm(q[1] - q[0])), 1e-9)
    e2 = np.array([-e1[1], e1[0]])
    if np.dot(e2, q[3] - q[0]) < 0:
        e2 = -e2
    hx, hy = 0.5 * min(card_px) * e1, 0.5 * max(card_px) * e2
    return np.array([c - hx - hy, c + hx - hy, c + hx + hy, c - hx + hy])


def shifted_places(q: np.ndarray, steps: np.ndarray, card_px: tuple[float, float]) -> list[np.ndarray]:
    """``q`` (float[4, 2] px, side 0 short) moved by every pair (a, b) of ``steps`` (fractions of the short and the
    long side, ``card_px`` px) along its own axes, (0, 0) left out."""
    e1 = (q[1] - q[0]) / max(float(np.linalg.norm(q[1] - q[0])), 1e-9) * min(card_px)
    e2 = (q[3] - q[0]) / max(float(np.linalg.norm(q[3] - q[0])), 1e-9) * max(card_px)
    return [q + a * e1 + b * e2 for a in steps for b in steps if a != 0 or b != 0]


def turned(q: np.ndarray, deg: float) -> np.ndarray:
    """``q`` (float[4, 2] px) turned by ``deg`` degrees about its centre (counter-clockwise on screen)."""
    a = np.radians(deg)
    R = np.array([[np.cos(a), np.sin(a)], [-np.sin(a), np.cos(a)]])
    c = q.mean(axis=0)
    return (q - c) @ R.T + c


def side_axis_deg(q: np.ndarray, period: float) -> float:
    """Direction in degrees (counter-clockwise on screen, mod ``period``) of side 0 (corner 0 to 1) of ``q``."""
    v = np.asarray(q, np.float64)[1] - np.asarray(q, np.float64)[0]
    return float(np.degrees(np.arctan2(-v[1], v[0]))) % period


def cards_axis_deg(quads: list[np.ndarray], square: bool) -> float | None:
    """The common direction of the cards' short sides (``quads``: float[4, 2] px, side 0 short), in degrees
    counter-clockwise on screen mod 180 (mod 90 for ``square`` tiles: any side), the mean on that circle; None
    without quads or when the directions spread too far to share one (the mean vector under half long)."""
    if not quads:
        return None
    period = 90.0 if square else 180.0
    k = 360.0 / period
    dirs = []
    for q in quads:
        q = order_quad(np.asarray(q, np.float64))
        short0 = np.linalg.norm(q[1] - q[0]) <= np.linalg.norm(q[2] - q[1])
        dirs.append(side_axis_deg(q if short0 else np.roll(q, -1, axis=0), period))
    z = np.exp(1j * np.radians(dirs) * k)
    m = z.mean()
    if abs(m) < 0.5:
        return None
    return float(np.degrees(np.angle(m)) / k) % period


def _edges(win: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    g = cv2.GaussianBlur(win.astype(np.float32), (0, 0), 1.0)
    gx = np.abs(cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3))
    gy = np.abs(cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3))
    # thin ridges: a pixel's response only where it is a local max across the edge
    gx = gx * (gx >= cv2.dilate(gx, np.ones((1, 3), np.uint8)))
    gy = gy * (gy >= cv2.dilate(gy, np.ones((3, 1), np.uint8)))
    return gx, gy


def snap_to_outline(gray: np.ndarray, quads: list[np.ndarray], card_px: tuple[float, float], reach: float = 0.3,
                    turns_deg: tuple[float, ...] = ()) -> list[np.ndarray]:
    """Each quad moved to the strongest card outline near it.

    Args:
        gray: uint8[H, W] image the quads are in (a top-down table image).
        quads: float[4, 2] px places of cards.
        card_px: (short, long) card size in px of ``gray``; the snapped quad has this size.
        reach: the outline is searched this fraction of the card's sides away from the place's centre.
        turns_deg: other turns (degrees, as :func:`quad_axes` gives them) tried besides each quad's own.

    Returns:
        float[4, 2] ordered quads, one per quad, of ``card_px`` size (a quad whose window has no edge keeps its
        place, resized to the card about its centre).
    """
    short, long_ = float(min(card_px)), float(max(card_px))
    pad = 3
    W = int(math.ceil(short * (1 + 2 * reach))) + 2 * pad
    H = int(math.ceil(long_ * (1 + 2 * reach))) + 2 * pad
    rx, ry = int(reach * short), int(reach * long_)
    out = []
    for q in quads:
        q = order_quad(q)
        c = q.mean(axis=0)
        side = (q[1] - q[0]) / max(float(np.linalg.norm(q[1] - q[0])), 1e-9)
        axes = [side]
        for turn in turns_deg:   # a card of another turn may lie either way: both of its axes
            a = math.radians(turn)
            e = np.array([math.cos(a), -math.sin(a)])
            # an axis within 3 degrees of one tried already finds the same outline: not tried again
            axes += [x for x in (e, np.array([-e[1], e[0]]))
                     if all(abs(float(np.dot(x, y))) < math.cos(math.radians(3.0)) for y in axes)]
        best = None
        for e1 in axes:
            # the card's short side along e1 (the quad's side 0, or an axis of another turn), its long side along e2
            e2 = np.array([-e1[1], e1[0]])
            A = np.array([[e1[0], e2[0], c[0] - W / 2 * e1[0] - H / 2 * e2[0]],
                          [e1[1], e2[1], c[1] - W / 2 * e1[1] - H / 2 * e2[1]]], np.float64)
            win = cv2.warpAffine(gray, A, (W, H), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                 borderMode=cv2.BORDER_REPLICATE)
            resp = outline_response(*_edges(win), short, long_)
            y0, x0 = H // 2 - ry, W // 2 - rx
            part = resp[y0:H // 2 + ry + 1, x0:W // 2 + rx + 1]
            iy, ix = np.unravel_index(int(np.argmax(part)), part.shape)
            score = float(part[iy, ix])
            if best is None or score > best[0]:
                best = (score, e1, e2, (x0 + ix) - W / 2, (y0 + iy) - H / 2)
        _, e1, e2, du, dv = best
        centre = c + du * e1 + dv * e2 if best[0] > 0 else c
        hx, hy = 0.5 * short * e1, 0.5 * long_ * e2
        out.append(order_quad(np.array([centre - hx - hy, centre + hx - hy, centre + hx + hy, centre - hx + hy])))
    return out
