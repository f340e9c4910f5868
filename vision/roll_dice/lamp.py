"""A second look at a die printed dark whose face was read weakly under a lamp's soft spot: the spot's light taken off
each colour channel of its top face, the face matched again.

A lamp's reflection on a glossy die adds light to its body and to the ink under it alike. Where the spot clips to
white, :mod:`vision.roll_dice.glare` leaves it out of the match; a softer spot (its darkest channel under
``glare_min``) stays in, and there it is a smooth bright bump that a light-printed template matches as light ink,
while the dark ink under it is lifted towards the body and the die's own dark-printed templates match it poorly. Here
each channel's light level is estimated as a morphological closing of its linear light (a square ``lamp_close`` px:
wider than a symbol's stroke, which it fills with the light round it), and the light that level adds over the body is
subtracted from every pixel of the face, so the spot's body goes back to the body's colour and the ink under it
towards its own darkness. A plain face printed dark (no level above its body) is unchanged.

Under a spot's peak over a wide stroke that level is the one beside the stroke, below the peak, so part of the spot is
left. :func:`spot_free_inks` takes the reflection out by its colour instead: the lamp's light is white, a coloured
body is not, so each pixel tells how much of it is the body's light and how much the lamp's (used for dice still
unreadable after this look, :mod:`vision.roll_dice.recentre`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import cv2
import numpy as np

from ..profiles import DiceProfile
from .assemble import decide_each
from .config import RollDiceConfig
from .faces import best_turn, keep_ink_polarity, search_faces
from .foreground import LOG_RGB_BASIS, channel_sum, to_log
from .glare import glare_masks
from .observations import RollDieObservation, TopFaces
from .tops import INK_CHANNELS, ink_maps, upright_patch

__all__ = ["lamp_free_inks", "lamp_reads", "spot_free_inks", "spot_tells"]


def lamp_free_inks(patches: np.ndarray, bodies: np.ndarray, config: RollDiceConfig) -> np.ndarray:
    """Ink maps ``float32[N, 2, h, w]`` (as :func:`vision.roll_dice.tops.ink_maps`: signed brightness and chroma
    distance to the body, log units) of upright top-face patches ``uint8[N, h, w, 3]`` (BGR) with a lamp's soft spot
    taken out, measured against the body colours ``bodies`` (``float[N, 3]``, log(BGR + ``log_offset``)).

    Per channel, in linear light (``(v / 255) ** lamp_gamma``, the camera's tone curve undone): the light level is the
    closing of the channel by a ``lamp_close`` px square, and what it rises above the body's level is subtracted
    from every pixel of the face's own square (the central ``patch`` px; the margin, the table or a neighbour, is
    left as it is), never below the patch's darkest. Exact for light added alike to the body and to the ink under a
    stroke narrower than the square, where the channel is not clipped; under a wider stroke the level is the one seen
    at its edges, below the spot's peak there, so part of the spot is left. A face printed dark with no spot (no level
    above its body) is unchanged; a light symbol is a level above the body too, and is taken out: for dice printed
    dark only. ``lamp_close`` below 2: the plain ink maps. Raises nothing."""
    patches, bodies = np.asarray(patches), np.asarray(bodies, np.float64).reshape(len(patches), 3)
    if len(patches) == 0:
        return _no_inks(patches)
    logp = to_log(patches, config).astype(np.float64)                                   # [N, h, w, 3]
    k = int(config.lamp_close)
    if k >= 2:
        g = float(config.lamp_gamma)
        off = float(config.log_offset)
        kernel = np.ones((k, k), np.uint8)
        h, w = patches.shape[1:3]
        mh, mw = max(0, (h - config.patch) // 2), max(0, (w - config.patch) // 2)
        face = np.zeros((h, w, 1), np.float32)                  # the face's own square: its margin left as it is
        face[mh:h - mh, mw:w - mw] = 1.0
        lin = (patches.astype(np.float32) / np.float32(255.0)) ** np.float32(g)          # [N, h, w, 3]
        body = (np.clip(np.exp(bodies) - off, 0.0, 255.0) / 255.0) ** g                 # [N, 3]
        for i in range(len(patches)):
            level = cv2.morphologyEx(lin[i], cv2.MORPH_CLOSE, kernel, borderType=cv2.BORDER_REPLICATE)
            lift = np.maximum(level - body[i].astype(np.float32), 0.0) * face
            if not lift.any():
                continue
            flat = np.maximum(lin[i] - lift, lin[i].min(axis=(0, 1)))
            logp[i] = np.log(255.0 * flat.astype(np.float64) ** (1.0 / g) + off)
    diff = logp - bodies[:, None, None, :]
    bright = (diff @ LOG_RGB_BASIS[2]).astype(np.float32)
    chroma = np.sqrt(channel_sum((diff @ LOG_RGB_BASIS[:2].T) ** 2)).astype(np.float32)
    return np.stack([bright, chroma], 1)


def spot_tells(bodies: np.ndarray, config: RollDiceConfig) -> np.ndarray:
    """``bool[N]``: whether a body colour (``float[N, 3]``, log(BGR + ``log_offset``)) is far enough from white for
    :func:`spot_free_inks` to tell its own light from a white reflection: the cosine of its linear colour
    (``((exp(b) - log_offset) / 255) ** lamp_gamma``) with white below ``spot_neutral``."""
    b = np.asarray(bodies, np.float64).reshape(-1, 3)
    lin = (np.clip(np.exp(b) - float(config.log_offset), 0.0, 255.0) / 255.0) ** float(config.lamp_gamma)
    norm = np.linalg.norm(lin, axis=1)
    return (norm > 0) & (lin.sum(1) / np.sqrt(3.0) < config.spot_neutral * norm)


def spot_free_inks(patches: np.ndarray, bodies: np.ndarray, config: RollDiceConfig) -> np.ndarray:
    """Ink maps ``float32[N, 2, h, w]`` (as :func:`lamp_free_inks`) of upright top-face patches ``uint8[N, h, w, 3]``
    (BGR) with the lamp's reflection taken out by its colour, against the body colours ``bodies`` (``float[N, 3]``,
    log(BGR + ``log_offset``)).

    In linear light (``(v / 255) ** lamp_gamma``) a pixel of a die's top face is its print's share ``a`` of the body
    colour plus the lamp's reflection ``g`` in the lamp's own colour, taken as white (the camera balances the lamp):
    ``v = a * body + g * (1, 1, 1)``. A coloured body and white span a plane, so each pixel gives both ``a`` and ``g``
    (least squares over its channels, those at ``spot_clip`` or above, clipped by the camera, left out; a pixel with
    fewer than two such channels is left as it is); what ``g`` adds (at least 0) is taken off the pixel in the face's
    own square (the central ``patch`` px). A dark ink is dark in every channel, so it keeps its own darkness under a
    reflection however wide the stroke, where a light level read beside the strokes (:func:`lamp_free_inks`) falls
    short of the spot's peak. A body too near white (the cosine of its linear colour with white at least
    ``spot_neutral``) cannot tell its own light from the lamp's: its plain ink map. Raises nothing."""
    patches, bodies = np.asarray(patches), np.asarray(bodies, np.float64).reshape(len(patches), 3)
    if len(patches) == 0:
        return _no_inks(patches)
    logp = to_log(patches, config).astype(np.float64)
    g = float(config.lamp_gamma)
    off = float(config.log_offset)
    h, w = patches.shape[1:3]
    mh, mw = max(0, (h - config.patch) // 2), max(0, (w - config.patch) // 2)
    lin = (patches.astype(np.float64) / 255.0) ** g                                       # [N, h, w, 3]
    body = (np.clip(np.exp(bodies) - off, 0.0, 255.0) / 255.0) ** g                      # [N, 3]
    white = np.full(3, 1.0 / np.sqrt(3.0))
    tells = spot_tells(bodies, config)
    for i in np.flatnonzero(tells).tolist():
        b = body[i]
        face = lin[i, mh:h - mh, mw:w - mw]                                                # [p, p, 3]
        ok = (patches[i, mh:h - mh, mw:w - mw] < config.spot_clip).astype(np.float64)      # channels not clipped
        # per pixel, the 2 x 2 normal equations of v = a * b + s * white over its unclipped channels
        bb = ok @ (b * b)
        bw = ok @ (b * white)
        ww = ok @ (white * white)
        vb = (ok * face) @ b
        vw = (ok * face) @ white
        det = bb * ww - bw * bw
        good = (ok.sum(-1) >= 2) & (det > 1e-9 * np.maximum(bb * ww, 1e-12))
        s = np.where(good, (bb * vw - bw * vb) / np.where(good, det, 1.0), 0.0)
        lift = np.maximum(s, 0.0)[..., None] * white                                       # [p, p, 3]
        if not lift.any():
            continue
        flat = np.maximum(face - lift, 0.0)
        logp[i, mh:h - mh, mw:w - mw] = np.log(255.0 * flat ** (1.0 / g) + off)
    diff = logp - bodies[:, None, None, :]
    bright = (diff @ LOG_RGB_BASIS[2]).astype(np.float32)
    chroma = np.sqrt(channel_sum((diff @ LOG_RGB_BASIS[:2].T) ** 2)).astype(np.float32)
    return np.stack([bright, chroma], 1)


def lamp_reads(frame: np.ndarray, tops: TopFaces, colour_p: np.ndarray, ncc: np.ndarray,
               weak: Sequence[tuple[int, RollDieObservation]], profile: DiceProfile, rot_templates: np.ndarray,
               template_pol: np.ndarray, config: RollDiceConfig) -> list[RollDieObservation | None]:
    """The second look at weak reads of dice printed dark: each read of ``weak`` (``[(top face index, read)]``) whose
    colour prints dark (its templates' polarity in ``template_pol``, ``float[K]``, is -1) is matched again on its own
    box with the lamp's soft spot taken out (:func:`lamp_free_inks`; a clipped glare left out as in the first match,
    :func:`vision.roll_dice.glare.glare_masks`; every template seeing
    the ink as a die printed dark shows it: light-printed ones then find no light ink in a spot), and decided again
    (:func:`vision.roll_dice.assemble.decide_each`, the die's colour chances ``colour_p`` ``float[N, C]`` as they
    were).

    Returns, per entry of ``weak``, the new read, or None where it is not taken: the colour prints light, the best
    dark-printed template's NCC does not beat the first read's (``ncc`` ``float[N, K]``) by ``recentre_gain``, the new
    read reads no face or another colour. A read whose best dark-printed template's first NCC is ``lamp_below`` or
    more is not looked at (None: its face matched well, no spot spoiled it). A new read keeps the first read's box,
    its confidence at most ``recentre_cap``. ``lamp_close`` below 2: all None."""
    out: list[RollDieObservation | None] = [None] * len(weak)
    if config.lamp_close < 2 or len(weak) == 0 or len(rot_templates) == 0:
        return out
    pol = np.asarray(template_pol, np.float64)
    dark = pol < 0
    colour_dark = {c: pol[k] < 0 for k, (c, _) in enumerate(profile.template_pairs)}
    if not dark.any():
        return out
    first = np.asarray(ncc)[:, dark].max(1)                     # each face's best dark-printed template, first read
    look = [j for j, (i, obs) in enumerate(weak)
            if colour_dark.get(obs.colour, False) and first[i] < config.lamp_below]
    if not look:
        return out
    idx = np.array([weak[j][0] for j in look], np.int64)
    p, m = config.patch, config.patch_margin
    patches = np.stack([upright_patch(frame, cx, cy, float(np.sqrt(w * h)), ang, p, m)
                        for cx, cy, w, h, ang in np.asarray(tops.rects[idx], np.float64)])
    plain, _ = ink_maps(patches, config, m, tops.body[idx])
    glare = glare_masks(patches, plain[:, 0], config)                 # a clipped spot: left out, as in the first match
    inks = lamp_free_inks(patches, tops.body[idx], config)
    inks = keep_ink_polarity(inks, np.full(len(idx), -1.0), config)
    score, _ = search_faces(inks, rot_templates, None, config, config.shift_step, config.shift_refine, glare)
    new_ncc = best_turn(score)                                                           # [L, K]
    better = new_ncc[:, dark].max(1) >= ncc[idx][:, dark].max(1) + config.recentre_gain
    if not better.any():
        return out
    again = {j: obs for _, j, obs in decide_each(tops.take(idx), colour_p[idx], new_ncc, profile, config,
                                                 template_pol)}
    for a, j in enumerate(look):
        new, old = again.get(a), weak[j][1]
        if not better[a] or new is None or new.face is None or new.colour != old.colour:
            continue
        out[j] = replace(new, box=old.box, confidence=min(float(new.confidence), config.recentre_cap))
    return out


def _no_inks(patches: np.ndarray) -> np.ndarray:
    """The ink maps ``float32[0, INK_CHANNELS, h, w]`` of no patches (``uint8[0, h, w, 3]``)."""
    h, w = patches.shape[1:3]
    return np.zeros((0, INK_CHANNELS, h, w), np.float32)
