"""Where a die's side faces show: the camera's nadir, the point of the picture every vertical edge of a die points
to, worked out from the size of the dice across the picture.

A camera over a table sees each die's top face and, between it and the table, the side faces that turn towards the
camera. A die's vertical edges, drawn on, all meet at the image of the straight-down direction (the nadir point):
the side faces seen hang from the top face towards it, and reach farther the farther the die lies from it. A box
fitted to a die's whole outline (its top and the side faces of its colour) lies off the top face towards that
point, so the top face is looked for on the other side.

The table is a plane, so a die's side in pixels is nearly an affine function of its place (``side = a + g . p``,
:func:`vision.roll_dice.shape.expected_sides`). For a pinhole camera of focal length ``f`` px whose principal point
is the picture's centre ``c``, tilted ``t`` off the vertical towards the gradient ``g``: a top face's area in pixels
goes as the cube of ``n . (x - c) / f + cos(t)`` (``n``: the tilt's direction scaled by ``sin(t)``; the square of
the inverse depth, times the cosine of the face's slant to the ray over the ray's to the axis), so its side (the
square root) goes as its 3/2 power, and ``g / side(c) = 3/2 tan(t) / f`` at the centre. The nadir lies at
``c + f tan(t)`` along the tilt, i.e. at ``c + 2/3 f^2 g / side(c)``; the side faces of a die at ``p`` reach about
``|nadir - p| cos(t) / f`` of a side towards it. Overhead (no gradient), the nadir is the picture's centre."""

from __future__ import annotations

import numpy as np

from .config import RollDiceConfig
from .observations import TopFaces
from .shape import die_likeness, expected_sides

__all__ = ["nadir_point", "side_reach_of_tops", "towards_top"]


def nadir_point(centres: np.ndarray, sides: np.ndarray, shape: tuple[int, int],
                focal: float) -> tuple[np.ndarray, float]:
    """The camera's nadir in the picture and the camera's tilt, from the dice sizes the table's size model gives.

    Args:
        centres: ``float[N, 2]`` (x, y) frame px of the top faces.
        sides: ``float[N]`` the side a die has at each (px, :func:`vision.roll_dice.shape.expected_sides`: an affine
            function of the place, so three faces not on one line fix it).
        shape: the frame's ``(H, W)`` px.
        focal: the camera's focal length as a fraction of the picture's width (0.6-1.1 for fields of view of about
            80-50 degrees).

    Returns:
        (nadir ``float[2]`` frame px, tilt radians): the picture's centre and 0 where the sizes show no slope (fewer
        than three faces, all on one line, or one size everywhere). Raises nothing.
    """
    h, w = (float(v) for v in shape[:2])
    centre = np.array([w / 2.0, h / 2.0])
    c = np.asarray(centres, np.float64).reshape(-1, 2)
    s = np.asarray(sides, np.float64).reshape(-1)
    if len(s) < 3 or not np.isfinite(s).all():
        return centre, 0.0
    a = np.column_stack([np.ones(len(s)), c - centre])
    if np.linalg.matrix_rank(a) < 3:
        return centre, 0.0
    coef, *_ = np.linalg.lstsq(a, s, rcond=None)
    s0, g = float(coef[0]), coef[1:]
    if s0 <= 0 or not np.isfinite(g).all() or np.hypot(*g) <= 1e-9 * s0:
        return centre, 0.0
    f = float(focal) * w
    slope = g / (1.5 * s0)                                             # tan(t) / f along the tilt, per px
    return centre + f * f * slope, float(np.arctan(f * np.hypot(*slope)))


def towards_top(points: np.ndarray, nadir: np.ndarray, tilt: float, focal: float,
                width: float) -> tuple[np.ndarray, np.ndarray]:
    """(``float[N, 2]`` unit vectors from the nadir towards each of ``points`` ``float[N, 2]`` frame px, ``float[N]``
    how far each one's side faces reach from its top face towards the nadir, in sides: ``|nadir - p| cos(tilt) / f``
    with ``f`` = ``focal`` x ``width``): the way a box fitted to a die's whole outline moves to reach its top face.
    A point at the nadir gets a zero vector and reach 0."""
    p = np.asarray(points, np.float64).reshape(-1, 2)
    d = p - np.asarray(nadir, np.float64)
    n = np.hypot(d[:, 0], d[:, 1])
    unit = np.where(n[:, None] > 1e-9, d / np.maximum(n, 1e-9)[:, None], 0.0)
    return unit, n * np.cos(float(tilt)) / (float(focal) * float(width))


def side_reach_of_tops(tops: TopFaces, shape: tuple[int, int], config: RollDiceConfig) -> tuple[np.ndarray, np.ndarray]:
    """(``float[N, 2]`` unit vectors from the nadir towards each top face of ``tops``, ``float[N]`` how far each one's
    side faces reach towards the nadir, in sides) for a frame of ``shape`` (H, W) px: the faces' size model
    (:func:`vision.roll_dice.shape.expected_sides`, each face weighted by its score times its die-likeness), the
    nadir and tilt from it (:func:`nadir_point`), then :func:`towards_top`. Raises nothing."""
    rects = tops.rects
    sides = np.sqrt(rects[:, 2] * rects[:, 3])
    likeness = die_likeness(tops.evidence, config) if tops.evidence is not None else np.ones(len(sides))
    every = expected_sides(rects[:, :2], sides, np.asarray(tops.scores, np.float64) * likeness, config)
    nadir, tilt = nadir_point(rects[:, :2], every, shape[:2], config.recentre_focal)
    return towards_top(rects[:, :2], nadir, tilt, config.recentre_focal, shape[1])
