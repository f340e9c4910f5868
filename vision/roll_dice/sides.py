"""Is a candidate a real die's side face? Used by the Roll dice reader (stage ``sides``,
:func:`vision.roll_dice.not_dice._not_side`).

A camera above the table sees each die from a little to one side: away from the camera's nadir (about the image's
middle) the die shows, beside its top face, the side face turned towards the camera. That side face is the die's own
body colour, often lit otherwise than the top, touches the top's edge, and lies on the far side of the top as seen
from the image's middle. Seen obliquely it is foreshortened: along the line from the top outwards, the body colour
beyond the top's edge runs for less than a die's side. Two real dice lying side by side look alike in every other
way, but the second one's top is a full square: its colour runs a whole side beyond the first one's edge.

A box can also land half on a die's top and half on the side face that hangs from it towards the camera's nadir
(:mod:`vision.roll_dice.nadir`): it overlaps the die's own, surer box, lies from it towards the nadir, and its body
is the die's colour shaded. Two real dice' top faces never overlap, and a second die of the same colour touching
the first is lit as the first: :func:`hanging_sides` finds such boxes.

A side face turned from the lamp is plainly darker than its top, and then which of the two matches better or is
surer says nothing: far from the nadir a wide lens shows the side nearly square, its symbol clear, and a glared top
matches worse than its side. :func:`shaded_sides` asks no surety of either: a box of a neighbour's chroma, deeply
shaded, lying from it towards the nadir, whose colour runs less than a whole die beyond the neighbour's edge. A die
in the same light beside another is lit alike; one in a shadow beside a lit one runs a whole side.
"""

from __future__ import annotations

import numpy as np

from .assemble import _ramp, top_overlap
from .config import RollDiceConfig
from .foreground import to_log

__all__ = ["hanging_sides", "shaded_sides", "side_faces"]



def _run_beyond(frame: np.ndarray, top: np.ndarray, u: np.ndarray, body: np.ndarray, config: RollDiceConfig) -> float:
    """How far (in sides of ``top``) the colour ``body`` (log-RGB ``float[3]``) runs along the unit direction ``u``
    beyond the edge of the top face ``top`` (cx, cy, w, h, angle deg): on a strip ``side_strip`` sides wide, the
    steps where at least half the strip is within ``side_colour`` of ``body``, counted from the edge until a gap of
    more than ``side_gap`` sides (a bevel line or the die's own symbol may cut the run); ``frame``: ``uint8[H, W, 3]``
    BGR, taken to log-RGB only at the pixels sampled (the same numbers as the whole frame's, at a fraction of the
    cost)."""
    h, w = frame.shape[:2]
    s = float(np.sqrt(top[2] * top[3]))
    a = np.deg2rad(float(top[4]))
    ax1, ax2 = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
    edge = 0.5 * s / max(abs(float(u @ ax1)), abs(float(u @ ax2)), 1e-6)
    step = s / 16.0
    t = edge + step * np.arange(int(np.ceil(1.6 * s / step)))
    across = np.linspace(-0.5, 0.5, 7) * config.side_strip * s
    n = np.array([-u[1], u[0]])
    pts = top[:2][None, None, :] + t[:, None, None] * u + across[None, :, None] * n     # [T, A, 2]
    xi = np.clip(np.round(pts[..., 0]).astype(int), 0, w - 1)
    yi = np.clip(np.round(pts[..., 1]).astype(int), 0, h - 1)
    inside = (pts[..., 0] >= 0) & (pts[..., 0] < w) & (pts[..., 1] >= 0) & (pts[..., 1] < h)
    near = (np.linalg.norm(to_log(frame[yi, xi], config) - body[None, None, :], axis=-1) < config.side_colour) & inside
    hit = near.mean(1) >= 0.5
    gap_steps = int(np.ceil(config.side_gap * s / step))
    last, miss = -1, 0
    for k, on in enumerate(hit):
        if on:
            last, miss = k, 0
        else:
            miss += 1
            if miss > gap_steps:
                break
    return (last + 1) * step / s


def side_faces(frame: np.ndarray, rects: np.ndarray, bodies: np.ndarray, config: RollDiceConfig,
               todo: np.ndarray | None = None, match: np.ndarray | None = None) -> np.ndarray:
    """How surely each face is the side face of a neighbouring die's top, ``float[N]`` 0..1 (0 where not measured):
    the largest, over the other faces ``j`` measured, of the product of

    * its centre ``side_reach`` (lo, hi) x ``j``'s side from ``j``'s (1 inside, 0 outside);
    * ``j`` matching the owner's symbols at least as well as it (``match``: the side is seen obliquely, its
      symbol foreshortened);
    * where ``side_cos_ramp`` is set, the direction from ``j`` to it pointing away from the image's middle: the
      cosine of the two directions on that ramp (``j`` at least half a side from the middle, where a side face
      shows); None: any direction (a tilted camera's nadir lies off the frame, and the side faces of the dice all
      turn one way, not away from the middle);
    * its body colour's chroma within ``side_chroma_pair`` of ``j``'s (log units), and darker than ``j``'s top by
      ``side_shade_ramp`` (log units of the channels' mean: a side face turns from the light, a second top of the
      same colour beside it is lit alike);
    * foreshortened: 1 - ``side_full_ramp`` of how far its own body colour runs beyond ``j``'s edge along that
      direction (:func:`_run_beyond`, sides): a real die beside ``j`` runs a full side.

    Args:
        frame: ``uint8[H, W, 3]`` BGR.
        rects: ``float[N, 5]`` top faces (cx, cy, w, h, angle deg; frame px).
        bodies: ``float[N, 3]`` their body colours, log-RGB (:func:`vision.roll_dice.tops.body_colour`).
        config: ``side_reach``, ``side_cos_ramp``, ``side_chroma_pair``, ``side_shade_ramp``, ``side_full_ramp``,
            ``side_strip``, ``side_colour``, ``side_gap``, ``log_offset``.
        todo: ``bool[N]``, the faces taking part (as side faces and as tops); default all.
        match: ``float[N]``, each face's best template NCC; default all alike.

    Returns ``float[N]``. Raises nothing; empty input gives an empty result.
    """
    rects = np.asarray(rects, np.float64).reshape(-1, 5)
    n = len(rects)
    out = np.zeros(n)
    todo = np.ones(n, bool) if todo is None else np.asarray(todo, bool)
    idx = np.flatnonzero(todo)
    if len(idx) < 2:
        return out
    bodies = np.asarray(bodies, np.float64).reshape(-1, 3)
    bright = bodies.mean(1)
    chroma = bodies - bright[:, None]
    match = np.zeros(n) if match is None else np.asarray(match, np.float64).reshape(-1)
    mid = np.array([frame.shape[1], frame.shape[0]], np.float64) / 2.0
    side = np.sqrt(rects[:, 2] * rects[:, 3])
    lo, hi = config.side_reach
    dist = np.hypot(*(rects[:, None, :2] - rects[None, :, :2]).transpose(2, 0, 1))  # [i, j]
    pair = (dist >= lo * side[None, :]) & (dist <= hi * side[None, :]) & (match[None, :] >= match[:, None])
    pair &= todo[:, None] & todo[None, :]
    np.fill_diagonal(pair, False)
    for i, j in zip(*np.nonzero(pair), strict=True):
        v = rects[i, :2] - rects[j, :2]
        d = float(dist[i, j])
        away = float(_ramp(bright[j] - bright[i], config.side_shade_ramp))
        if config.side_cos_ramp is not None:
            r = rects[j, :2] - mid
            if np.hypot(*r) < 0.5 * side[j]:
                continue
            away *= float(_ramp(float(v @ r) / (d * float(np.hypot(*r))), config.side_cos_ramp))
        if away <= out[i] or np.linalg.norm(chroma[i] - chroma[j]) >= config.side_chroma_pair:
            continue
        run = _run_beyond(frame, rects[j], v / d, bodies[i].astype(np.float32), config)
        out[i] = max(out[i], away * (1.0 - float(_ramp(run, config.side_full_ramp))))
    return out


def face_arrays(rects: np.ndarray, bodies: np.ndarray, surety: np.ndarray, away: np.ndarray,
                reach: np.ndarray, todo: np.ndarray | None) -> tuple[np.ndarray, ...]:
    """The per-face inputs of the tests between pairs of faces (:func:`hanging_sides`,
    :func:`vision.roll_dice.side_print.side_prints`) as arrays: ``rects`` ``float[N, 5]`` (cx, cy, w, h, angle deg;
    frame px), ``bodies`` ``float[N, 3]`` (log-RGB), ``surety`` ``float[N]``, ``away`` ``float[N, 2]`` (unit vectors
    from the nadir), ``reach`` ``float[N]`` (sides), ``todo`` ``bool[N]`` (the faces taking part; None: all). Raises
    ValueError where a shape cannot be read so."""
    rects = np.asarray(rects, np.float64).reshape(-1, 5)
    return (rects, np.asarray(bodies, np.float64).reshape(-1, 3), np.asarray(surety, np.float64).reshape(-1),
            np.asarray(away, np.float64).reshape(-1, 2), np.asarray(reach, np.float64).reshape(-1),
            np.ones(len(rects), bool) if todo is None else np.asarray(todo, bool))


def towards_nadir(rects: np.ndarray, away: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """How each face lies from each other: for ``[i, j]``, the distance from face ``j``'s centre to face ``i``'s
    (px) and the cosine between that way and the way towards the nadir from ``j`` (1: ``i`` lies straight towards
    the nadir from ``j``, where ``j``'s side faces show; 0 for a face and itself).

    Args:
        rects: ``float[M, 5]`` faces (cx, cy, w, h, angle deg; frame px).
        away: ``float[M, 2]`` unit vectors from the nadir towards each face
            (:func:`vision.roll_dice.nadir.towards_top`).

    Returns ``(d, cos)``, each ``float[M, M]``. Raises nothing."""
    v = rects[:, None, :2] - rects[None, :, :2]
    d = np.hypot(v[..., 0], v[..., 1])
    cos = -(v[..., 0] * away[None, :, 0] + v[..., 1] * away[None, :, 1]) / np.maximum(d, 1e-9)
    return d, cos

def hanging_sides(rects: np.ndarray, bodies: np.ndarray, surety: np.ndarray, away: np.ndarray, reach: np.ndarray,
                  config: RollDiceConfig, todo: np.ndarray | None = None) -> np.ndarray:
    """How surely each face is a box on a surer die's side face, ``float[N]`` 0..1 (0 where not measured): the
    largest, over the surer faces ``j`` measured (``surety[j] > surety[i]``), of the product of

    * the share of the smaller box that the two boxes overlap (:func:`vision.roll_dice.assemble.top_overlap`) on the
      ramp ``hang_overlap_ramp`` (two dice's top faces never overlap; boxes of two dice lying against each other
      overlap by their slack only);
    * the cosine between the direction from ``j`` to it and the direction from ``j`` towards the camera's nadir
      (``-away[j]``), on ``hang_cos_ramp``: the side faces of a die hang from its top towards the nadir;
    * ``j``'s side faces' reach (``reach[j]``, sides) on ``hang_reach_ramp``: near the nadir no side face shows;
    * its body colour's chroma within ``side_chroma_pair`` of ``j``'s (log units: the die's own body) and darker than
      ``j``'s top by ``hang_shade_ramp`` (log units of the channels' mean: a side face turned from the lamp; a die of
      the same colour beside it is lit as it is).

    Args:
        rects: ``float[N, 5]`` top faces (cx, cy, w, h, angle deg; frame px).
        bodies: ``float[N, 3]`` their body colours, log-RGB (:func:`vision.roll_dice.tops.body_colour`).
        surety: ``float[N]`` how surely each is a die (:func:`vision.roll_dice.assemble.die_weights`).
        away: ``float[N, 2]`` unit vectors from the nadir towards each face, frame px
            (:func:`vision.roll_dice.nadir.towards_top`; a zero vector at the nadir).
        reach: ``float[N]`` how far each face's side faces reach towards the nadir, in sides
            (:func:`vision.roll_dice.nadir.towards_top`).
        config: ``hang_overlap_ramp``, ``hang_cos_ramp``, ``hang_reach_ramp``, ``hang_shade_ramp``,
            ``side_chroma_pair``; ``hang_overlap_ramp`` None: no test (all 0).
        todo: ``bool[N]``, the faces taking part (as side boxes and as dice); default all.

    Returns ``float[N]``. Raises nothing; empty input gives an empty result.
    """
    rects, bodies, surety, away, reach, todo = face_arrays(rects, bodies, surety, away, reach, todo)
    out = np.zeros(len(rects))
    if config.hang_overlap_ramp is None or todo.sum() < 2:
        return out
    bright = bodies.mean(1)
    chroma = bodies - bright[:, None]
    # every factor but the overlap for all pairs of the faces taking part at once; the overlap only where the rest
    # could raise a figure
    idx = np.flatnonzero(todo)
    r, b, c, sure = rects[idx], bright[idx], chroma[idx], surety[idx]
    d, cos = towards_nadir(r, away[idx])                                                 # [i, j]: j to i
    hang = (_ramp(b[None, :] - b[:, None], config.hang_shade_ramp) * _ramp(cos, config.hang_cos_ramp)
            * _ramp(reach[idx], config.hang_reach_ramp)[None, :])
    pair = (sure[None, :] > sure[:, None]) & (d > 1e-9) & (hang > 0.0)
    for i, j in zip(*np.nonzero(pair), strict=True):
        if hang[i, j] > out[idx[i]] and np.linalg.norm(c[i] - c[j]) < config.side_chroma_pair:
            overlap = top_overlap(r[i], r[j])
            out[idx[i]] = max(out[idx[i]], float(hang[i, j]) * float(_ramp(overlap, config.hang_overlap_ramp)))
    return out


def shaded_sides(frame: np.ndarray, rects: np.ndarray, bodies: np.ndarray, away: np.ndarray, reach: np.ndarray,
                 config: RollDiceConfig, todo: np.ndarray | None = None) -> np.ndarray:
    """How surely each face is a neighbour's side face turned from the lamp, ``float[N]`` 0..1 (0 where not
    measured), whichever of the two matches or scores better: the largest, over the other faces ``j`` measured, of
    the product of

    * its centre ``side_reach`` (lo, hi) x ``j``'s side from ``j``'s (1 inside, 0 outside): touching ``j``;
    * darker than ``j`` by ``deep_shade_ramp`` but by no more than ``deep_shade_most`` (log units of the channels'
      mean) with its chroma within ``side_chroma_pair`` of ``j``'s (log units): ``j``'s own body turned from the
      light, still lit by the room (a calibration marker's black print beside its white paper is darker by about 2.8,
      pitch black);
    * the cosine between the direction from ``j`` to it and from ``j`` towards the nadir (``-away[j]``) on
      ``deep_cos_ramp``, and ``j``'s side faces' reach (``reach[j]``, sides) on ``hang_reach_ramp``: side faces hang
      towards the nadir and show only away from it;
    * 1 - ``deep_full_ramp`` of how far its body colour runs beyond ``j``'s edge towards it (:func:`_run_beyond`,
      sides): a die lying against ``j`` runs a whole side or more.

    Args:
        frame: ``uint8[H, W, 3]`` BGR.
        rects: ``float[N, 5]`` top faces (cx, cy, w, h, angle deg; frame px).
        bodies: ``float[N, 3]`` their body colours, log-RGB (:func:`vision.roll_dice.tops.body_colour`).
        away: ``float[N, 2]`` unit vectors from the nadir towards each face (:func:`vision.roll_dice.nadir.
            towards_top`; zero at the nadir).
        reach: ``float[N]`` how far each face's side faces reach towards the nadir, sides.
        config: ``deep_shade_ramp`` (None: no test, all 0), ``deep_shade_most``, ``deep_cos_ramp``, ``deep_full_ramp``,
            ``side_reach``,
            ``side_chroma_pair``, ``hang_reach_ramp``, ``side_strip``, ``side_colour``, ``side_gap``.
        todo: ``bool[N]``, the faces taking part (as side faces and as tops); default all.

    Returns ``float[N]``. Raises ValueError where a shape cannot be read so; empty input gives an empty result.
    """
    rects, bodies, _, away, reach, todo = face_arrays(rects, bodies, np.zeros(len(np.asarray(rects).reshape(-1, 5))),
                                                      away, reach, todo)
    out = np.zeros(len(rects))
    if config.deep_shade_ramp is None or todo.sum() < 2:
        return out
    bright = bodies.mean(1)
    chroma = bodies - bright[:, None]
    idx = np.flatnonzero(todo)
    r = rects[idx]
    side = np.sqrt(r[:, 2] * r[:, 3])
    d, cos = towards_nadir(r, away[idx])                                                 # [i, j]: j to i
    lo, hi = config.side_reach
    darker = bright[idx][None, :] - bright[idx][:, None]
    shade = (_ramp(darker, config.deep_shade_ramp) * (darker <= config.deep_shade_most)
             * _ramp(cos, config.deep_cos_ramp) * _ramp(reach[idx], config.hang_reach_ramp)[None, :])
    shade *= (d >= lo * side[None, :]) & (d <= hi * side[None, :])
    shade *= np.linalg.norm(chroma[idx][:, None, :] - chroma[idx][None, :, :], axis=-1) < config.side_chroma_pair
    np.fill_diagonal(shade, 0.0)
    for a, b in zip(*np.nonzero(shade > 0.0), strict=True):
        i, j = idx[a], idx[b]
        if shade[a, b] <= out[i]:
            continue
        run = _run_beyond(frame, rects[j], (rects[i, :2] - rects[j, :2]) / d[a, b], bodies[i].astype(np.float32),
                          config)
        out[i] = max(out[i], float(shade[a, b]) * (1.0 - float(_ramp(run, config.deep_full_ramp))))
    return out
