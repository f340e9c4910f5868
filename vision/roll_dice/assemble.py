"""Stage 8 of the Roll dice reader: the joint colour x face decision per die with an "unreadable" option; a pair
the profile does not allow is never reported as certain; one die per place."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..profiles import DiceProfile
from .config import RollDiceConfig
from .observations import RollDieObservation, TopFaces
from .tops import rect_box

__all__ = ["assemble", "joint_scores"]


def joint_scores(colour_p: np.ndarray, ncc: np.ndarray, template_pairs: Sequence[tuple[str, str]],
                 colours: Sequence[str], faces: Sequence[str], config: RollDiceConfig) -> np.ndarray:
    """Log-scores ``[N, C, F]`` over every colour x face (allowed or not).

    A pair with enrolled templates uses its best NCC; a pair without (e.g. white wild) uses the
    best NCC of that face on any colour, lowered by ``impossible_penalty``.
    """
    n = len(colour_p)
    ci = {c: i for i, c in enumerate(colours)}
    fi = {f: i for i, f in enumerate(faces)}
    m = np.full((n, len(colours), len(faces)), -1.0, np.float64)
    for k, (c, f) in enumerate(template_pairs):
        m[:, ci[c], fi[f]] = np.maximum(m[:, ci[c], fi[f]], ncc[:, k])
    enrolled = np.zeros((len(colours), len(faces)), bool)
    for c, f in template_pairs:
        enrolled[ci[c], fi[f]] = True
    any_colour = m.max(axis=1)  # [N, F]
    for a in range(len(colours)):
        for b in range(len(faces)):
            if not enrolled[a, b]:
                m[:, a, b] = any_colour[:, b] - config.impossible_penalty
    return np.log(np.clip(colour_p, 1e-12, 1.0))[:, :, None] + m / config.face_temperature


def assemble(tops: TopFaces, colour_p: np.ndarray, ncc: np.ndarray, profile: DiceProfile,
             config: RollDiceConfig) -> tuple[RollDieObservation, ...]:
    """Joint colour x face decision per die; pairs not in ``profile.allowed`` never reach 0.9."""
    colours, faces = list(profile.colours), list(profile.faces)
    if len(tops.rects) == 0:
        return ()
    s = joint_scores(colour_p, ncc, profile.template_pairs, colours, faces, config)
    n = len(s)
    flat = s.reshape(n, -1)
    # an extra "face unreadable" entry: the best colour with a fixed NCC, so a face unlike every
    # template is reported unreadable rather than as its least bad match
    best_colour = colour_p.argmax(1)
    unreadable = np.log(np.clip(colour_p.max(1), 1e-12, 1.0)) + config.face_none_ncc / config.face_temperature
    flat = np.concatenate([flat, unreadable[:, None]], axis=1)
    flat = flat - flat.max(1, keepdims=True)
    p = np.exp(flat)
    p /= p.sum(1, keepdims=True)
    allowed = set(map(tuple, profile.allowed))
    colour_known = colour_p.sum(1)  # 1 - probability of "none of the enrolled colours"
    out = []
    for i in range(n):
        die_p = float(tops.scores[i]) * float(colour_known[i])  # a die, of an enrolled colour
        if die_p < config.min_confidence:
            continue
        j = int(p[i].argmax())
        c_best = colours[int(best_colour[i])]
        if j < flat.shape[1] - 1 and p[i, j] >= config.face_threshold:
            c, f = colours[j // len(faces)], faces[j % len(faces)]
            conf = float(p[i, j]) * die_p
        else:
            c, f, conf = c_best, None, 0.0
        if f is not None and (c, f) not in allowed:
            f = None  # game knowledge: this colour has no such face, so the read is not trusted
        if f is None:
            conf = min(float(colour_p[i, colours.index(c)]) * float(tops.scores[i]), config.confident_cap)
        obs = RollDieObservation(c, f, rect_box(tops.rects[i]), float(np.clip(conf, 0.0, 1.0)))
        out.append((die_p * (1.0 + float(f is not None)), i, obs))
    # one die per place: two dice cannot have centres closer than about a side, keep the surer one
    out.sort(key=lambda t: -t[0])
    side = np.sqrt(tops.rects[:, 2] * tops.rects[:, 3])
    kept: list[tuple[float, int, RollDieObservation]] = []
    for conf, i, obs in out:
        if all(np.hypot(*(tops.rects[i, :2] - tops.rects[j, :2])) > config.overlap_dist * min(side[i], side[j])
               for _, j, _ in kept):
            kept.append((conf, i, obs))
    return tuple(obs for _, _, obs in kept)
