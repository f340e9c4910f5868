"""Stage 7 of the Roll dice reader: each die's ink map against every enrolled (colour, face) template, over the
four quarter turns and small shifts (normalised cross-correlation), glare of the wrong polarity taken out
first, and a second look around the dice that match poorly."""

from __future__ import annotations

import numpy as np

from .config import RollDiceConfig
from .observations import TopFaces
from .tops import INK_CHANNELS, ink_map, upright_patch

__all__ = ["distinctive_templates", "keep_ink_polarity", "match_faces", "match_faces_polarised", "normalise_rows",
           "polarised_scores", "relocate_faces",
           "rotated_templates", "template_of", "template_polarity", "window_scores", "windows_of"]


def normalise_rows(x: np.ndarray, channels: int = INK_CHANNELS) -> np.ndarray:
    """Zero-mean, unit-norm each of the ``channels`` equal parts of the last axis, then scale by
    1/sqrt(channels): the dot product of two such vectors is the mean of the per-channel NCCs."""
    shape = x.shape
    x = x.reshape(*shape[:-1], channels, shape[-1] // channels)
    x = x - x.mean(axis=-1, keepdims=True)
    x = x / (np.linalg.norm(x, axis=-1, keepdims=True) + 1e-6)
    return (x / np.sqrt(channels)).reshape(shape).astype(np.float32)


def template_of(ink: np.ndarray, config: RollDiceConfig) -> np.ndarray:
    """The central ``template`` x ``template`` region of an ink patch ``[C, q, q]``, as a normalised vector."""
    q = ink.shape[-1]
    t = config.template
    o = (q - t) // 2
    return normalise_rows(ink[:, o:o + t, o:o + t].reshape(-1).astype(np.float32))


def windows_of(inks: np.ndarray, config: RollDiceConfig) -> np.ndarray:
    """All ``template``-sized windows of each ink patch ``[N, C, q, q]``, at 4 quarter turns:
    ``float32[N, 4*S, C*T*T]`` normalised."""
    n, c, q = inks.shape[:3]
    t = config.template
    rots = np.stack([np.rot90(inks, k, axes=(2, 3)) for k in range(4)], axis=1)  # [N, 4, C, q, q]
    shifts = [(dy, dx) for dy in range(q - t + 1) for dx in range(q - t + 1)]
    out = np.empty((n, 4, len(shifts), c * t * t), np.float32)
    for k, (dy, dx) in enumerate(shifts):
        out[:, :, k] = rots[:, :, :, dy:dy + t, dx:dx + t].reshape(n, 4, c * t * t)
    return normalise_rows(out.reshape(n, 4 * len(shifts), c * t * t), c)


def distinctive_templates(templates: np.ndarray, config: RollDiceConfig) -> np.ndarray:
    """Templates minus ``template_centering`` x their mean (over the four turns of every template),
    renormalised: what all faces share (the face rim, a central blob) no longer scores."""
    if config.template_centering <= 0 or len(templates) < 2:
        return templates
    rot = rotated_templates(templates, config)
    return normalise_rows(templates - config.template_centering * rot.mean(0, keepdims=True))


def rotated_templates(templates: np.ndarray, config: RollDiceConfig) -> np.ndarray:
    """``[K, C*T*T]`` templates -> ``[4K, C*T*T]``: each at its four quarter turns (row 4k + r = turn r)."""
    k = len(templates)
    t = config.template
    tpl = templates.reshape(k, INK_CHANNELS, t, t)
    rots = np.stack([np.rot90(tpl, r, axes=(2, 3)) for r in range(4)], axis=1)  # [K, 4, C, T, T]
    return np.ascontiguousarray(rots.reshape(4 * k, INK_CHANNELS * t * t), dtype=np.float32)


def match_faces(inks: np.ndarray, rot_templates: np.ndarray, config: RollDiceConfig) -> np.ndarray:
    """Best NCC ``[N, K]`` of each ink patch ``[N, C, q, q]`` against each template, over the four
    quarter turns (``rot_templates`` from :func:`rotated_templates`) and every shift of the
    template inside the patch (step ``shift_step``). NCC per channel, averaged over channels."""
    n, k4 = len(inks), len(rot_templates)
    if n == 0 or k4 == 0:
        return np.zeros((n, k4 // 4), np.float32)
    score, _ = window_scores(inks, rot_templates, config, config.shift_step)
    return score.reshape(n, score.shape[1], k4 // 4, 4).max(axis=(1, 3))


def window_scores(inks: np.ndarray, rot_templates: np.ndarray, config: RollDiceConfig,
                  step: int = 1) -> tuple[np.ndarray, list[tuple[int, int]]]:
    """NCC ``float32[N, S, 4K]`` of every ``template``-sized window (top-left corners ``(dy, dx)``,
    every ``step`` px, returned as the second item) of each ink patch ``[N, C, q, q]`` with every
    turned template ``[4K, C*T*T]``.

    The templates are zero-mean and unit-norm per channel, so each window only needs its own norm
    (from sums over the window), not a normalised copy; that norm has a floor of ``ink_noise`` per pixel,
    so only a window with real ink (a symbol's contrast) can score high."""
    n = len(inks)
    k4 = len(rot_templates)
    c, q = inks.shape[1], inks.shape[2]
    t = config.template
    st = max(1, int(step))
    offs = list(range(0, q - t + 1, st))
    shifts = [(dy, dx) for dy in offs for dx in offs]
    d = t * t
    views = np.lib.stride_tricks.sliding_window_view(np.asarray(inks, np.float32), (t, t), axis=(2, 3))
    views = views[:, :, ::st, ::st]                                        # [N, C, So, So, T, T]
    win = np.ascontiguousarray(views.transpose(0, 2, 3, 1, 4, 5)).reshape(n, len(shifts), c, d)
    s1 = win.sum(-1)
    s2 = np.einsum("nscd,nscd->nsc", win, win)
    # a noise floor (``ink_noise`` log units per pixel) under each window's spread: a smooth patch of
    # table (a cloud of a painted playmat, a shadow) normalised to unit spread would look like anything
    den = np.sqrt(np.maximum(s2 - s1 * s1 / d, 0.0) + d * np.float32(config.ink_noise) ** 2 + 1e-12)  # [N, S, C]
    tpl = rot_templates.reshape(k4, c, d)
    score = np.zeros((n * len(shifts), k4), np.float32)
    weights = (1.0, config.chroma_ink_weight)
    for ch in range(c):
        if weights[ch] == 0:
            continue
        num = win[:, :, ch].reshape(-1, d) @ tpl[:, ch].T  # [N*S, 4K]
        score += num * np.float32(weights[ch]) / den[:, :, ch].reshape(-1, 1)
    score = score.reshape(n, len(shifts), k4) * np.float32(np.sqrt(c) / sum(weights))
    return score.astype(np.float32), shifts


def polarised_scores(inks: np.ndarray, rot_templates: np.ndarray, template_pol: np.ndarray, config: RollDiceConfig,
                     step: int = 1) -> tuple[np.ndarray, list[tuple[int, int]]]:
    """:func:`window_scores` where each template is compared with the ink maps as its own colour prints
    them: the brightness of the wrong sign for that template's polarity taken out first
    (:func:`keep_ink_polarity`: -1 dark symbols, +1 light), so a die is read without first deciding its
    colour (a coloured die with light symbols is not read as a white die with dark ones).

    Args:
        inks: ``float32[N, C, q, q]`` ink patches.
        rot_templates: ``[4K, C*T*T]`` (:func:`rotated_templates`).
        template_pol: ``float[K]`` polarity of each template (:func:`template_polarity`, or per colour).
        config, step: as :func:`window_scores`.

    Returns:
        (NCC ``float32[N, S, 4K]``, window corners).
    """
    rows = np.repeat(np.asarray(template_pol, np.float64), 4)
    score, shifts = None, []
    for pol in (-1.0, 1.0):
        sel = rows == pol
        if not sel.any():
            continue
        ink = keep_ink_polarity(inks, np.full(len(inks), pol), config)
        part, shifts = window_scores(ink, rot_templates[sel], config, step)
        if score is None:
            score = np.zeros((len(inks), part.shape[1], len(rot_templates)), np.float32)
        score[:, :, sel] = part
    if score is None:
        score, shifts = window_scores(inks, rot_templates, config, step)
    return score, shifts


def match_faces_polarised(inks: np.ndarray, rot_templates: np.ndarray, template_pol: np.ndarray,
                          config: RollDiceConfig) -> np.ndarray:
    """:func:`match_faces` with each template read in its own print polarity (:func:`polarised_scores`):
    best NCC ``[N, K]`` over the quarter turns and shifts."""
    n, k4 = len(inks), len(rot_templates)
    if n == 0 or k4 == 0:
        return np.zeros((n, k4 // 4), np.float32)
    score, _ = polarised_scores(inks, rot_templates, template_pol, config, config.shift_step)
    return score.reshape(n, score.shape[1], k4 // 4, 4).max(axis=(1, 3))


def relocate_faces(frame: np.ndarray, tops: TopFaces, ncc: np.ndarray, polarity: np.ndarray | None,
                   rot_templates: np.ndarray, config: RollDiceConfig,
                   todo: np.ndarray | None = None,
                   template_pol: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Second look at the dice whose best NCC is below ``relocate_below`` (a top face found a little
    off: cut with a strip of a neighbour, or too large): a wider shift search (``relocate_margin``
    x the face side each way, step ``relocate_step``) at the side scales ``relocate_scales``, in
    order, stopping at the first scale whose best NCC reaches ``relocate_below``.

    Args:
        frame: ``uint8[H, W, 3]`` BGR.
        tops: the top faces; ``ncc``: their ``[N, K]`` scores; ``polarity``: ``[N]`` ink polarity
            of each die (unused with ``template_pol``).
        rot_templates: ``[4K, C*T*T]`` from :func:`rotated_templates`.
        config: ``relocate_*``, ``patch``, ``template``, ``glare_log``.
        todo: optional ``bool[N]``: only these dice may be looked at again (e.g. the ones that
            will be reported).
        template_pol: optional ``[K]`` polarity of each template: each template then sees the ink as
            its own colour prints it (:func:`polarised_scores`) instead of by the die's ``polarity``.

    Returns:
        (ncc ``[N, K]``, rects ``float[N, 5]``): a die's row and rect are replaced when the wider
        search beats its best NCC by ``relocate_gain``; the rect then moves to where the best
        template matched, with the side of the best scale.
    """
    ncc, rects = ncc.copy(), tops.rects.copy()
    if len(ncc) == 0 or config.relocate_below <= 0:
        return ncc, rects
    p, t = config.patch, config.template
    m = round(config.relocate_margin * p)
    k4 = len(rot_templates)
    low = ncc.max(1) < config.relocate_below
    if todo is not None:
        low &= todo
    for i in np.nonzero(low)[0]:
        cx, cy, w, h, ang = tops.rects[i]
        side0 = float(np.sqrt(w * h))
        best, row, rect = float(ncc[i].max()) + config.relocate_gain, None, None
        for sc in config.relocate_scales:
            side = side0 * sc
            patch = upright_patch(frame, cx, cy, side, ang, p, m)
            ink, _ = ink_map(patch, config, m)
            if template_pol is not None:
                score, shifts = polarised_scores(ink[None], rot_templates, template_pol, config, config.relocate_step)
            else:
                ink = keep_ink_polarity(ink[None], polarity[i:i + 1], config)
                score, shifts = window_scores(ink, rot_templates, config, config.relocate_step)
            score = score[0]  # [S, 4K]
            top = float(score.max())
            if top <= best:
                continue
            j = int(score.max(1).argmax())
            best, row = top, score.reshape(len(shifts), k4 // 4, 4).max(axis=(0, 2))
            dy, dx = shifts[j]
            # window offset from the centred window, patch px -> frame px, turned back by the angle
            f = side / p
            ox, oy = (dx - (p + 2 * m - t) / 2.0) * f, (dy - (p + 2 * m - t) / 2.0) * f
            a = np.deg2rad(ang)
            rect = np.array([cx + ox * np.cos(a) - oy * np.sin(a), cy + ox * np.sin(a) + oy * np.cos(a),
                             side, side, ang])
            if best >= config.relocate_below:
                break
        if row is not None:
            ncc[i], rects[i] = row, rect
    return ncc, rects


def template_polarity(templates: np.ndarray, config: RollDiceConfig) -> np.ndarray:
    """Ink polarity ``float[K]`` of ``[K, C*T*T]`` templates: -1 when the symbol is darker than the
    body (the brightness channel has a long negative tail: negative skew), +1 when lighter."""
    t = config.template
    b = np.asarray(templates, np.float64).reshape(len(templates), INK_CHANNELS, t * t)[:, 0]
    b = b - b.mean(1, keepdims=True)
    skew = (b ** 3).mean(1) / np.maximum((b ** 2).mean(1), 1e-12) ** 1.5
    return np.where(skew < 0, -1.0, 1.0)


def keep_ink_polarity(inks: np.ndarray, polarity: np.ndarray, config: RollDiceConfig) -> np.ndarray:
    """Ink maps ``[N, C, q, q]`` with the brightness of the wrong sign taken out.

    On a die whose symbols are darker than its body (``polarity`` -1), anything brighter than the
    body is a glare spot, not ink: its brightness is set to 0 and its chroma faded (fully at
    ``glare_log`` log units brighter); on a die with light symbols (+1), anything darker is a
    shadow or a strip of a neighbouring die's side, treated the same way."""
    if config.glare_log <= 0 or len(inks) == 0:
        return inks
    out = inks.copy()
    pol = np.asarray(polarity, np.float32).reshape(-1, 1, 1)
    wrong = np.maximum(-pol * out[:, 0], 0.0)  # brightness of the wrong sign, >= 0
    out[:, 0] += pol * wrong
    out[:, 1] *= 1.0 - np.minimum(wrong / np.float32(config.glare_log), 1.0)
    return out
