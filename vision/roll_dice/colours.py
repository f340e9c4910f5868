"""Stage 6 of the Roll dice reader: the light's colour and level (the log-RGB offset that best maps the frame's
dice onto the enrolled colour prototypes), then each die's colour posterior with a "none of these" option."""

from __future__ import annotations

import numpy as np

from .config import RollDiceConfig
from .foreground import LOG_RGB_BASIS

__all__ = ["calibrate_colours", "colour_distances"]


def colour_distances(body: np.ndarray, protos: np.ndarray, offset: np.ndarray, config: RollDiceConfig) -> np.ndarray:
    """Squared colour distances ``[N, C]`` of body colours (after removing the light ``offset``) to prototypes."""
    diff = (body[:, None, :] - offset[None, None, :] - protos[None, :, :]) @ LOG_RGB_BASIS.T
    w = np.array([1 / config.chroma_sigma ** 2, 1 / config.chroma_sigma ** 2, 1 / config.brightness_sigma ** 2])
    return (diff ** 2 * w).sum(-1)


def calibrate_colours(body: np.ndarray, protos: np.ndarray, config: RollDiceConfig) -> tuple[np.ndarray, np.ndarray]:
    """Light offset (log-RGB, float[3]) and colour posteriors ``[N, C]``.

    The offset is the one that best maps this frame's dice onto the enrolled prototypes: a grid
    over the two chroma axes (brightness solved by the median), refined by re-assignment, with a
    Gaussian prior so a frame of few dice stays near the enrollment light.
    """
    n = len(body)
    if n == 0:
        return np.zeros(3), np.zeros((0, len(protos)))
    cap = 25.0  # robust: a die far from every prototype costs at most this

    g = np.linspace(-2 * config.light_prior_sigma, 2 * config.light_prior_sigma, config.light_grid)
    uu, vv = np.meshgrid(g, g)
    offs = uu.reshape(-1, 1) * LOG_RGB_BASIS[0] + vv.reshape(-1, 1) * LOG_RGB_BASIS[1]  # [G, 3]
    # brightness of each grid offset: median over dice of the brightness gap to their nearest prototype
    w = np.array([1 / config.chroma_sigma ** 2, 1 / config.chroma_sigma ** 2, 0.0])
    diff = body[:, None, None, :] - offs[None, :, None, :] - protos[None, None, :, :]  # [N, G, C, 3]
    proj = diff @ LOG_RGB_BASIS.T
    dc = (proj ** 2 * w).sum(-1)  # chroma only [N, G, C]
    a = dc.argmin(-1)  # [N, G]
    bgap = np.take_along_axis(proj[..., 2], a[..., None], -1)[..., 0]  # [N, G]
    offs = offs + np.median(bgap, axis=0)[:, None] * LOG_RGB_BASIS[2]
    proj = (body[:, None, None, :] - offs[None, :, None, :] - protos[None, None, :, :]) @ LOG_RGB_BASIS.T
    d = (proj ** 2 * np.array([w[0], w[1], 1 / config.brightness_sigma ** 2])).sum(-1)
    prior = ((offs @ LOG_RGB_BASIS[:2].T) ** 2).sum(-1) / config.light_prior_sigma ** 2
    costs = np.minimum(d.min(-1), cap).sum(0) + prior
    best = offs[int(costs.argmin())]
    off = best
    for _ in range(3):  # refine: re-assign, then mean residual of inliers
        d = colour_distances(body, protos, off, config)
        a = d.argmin(1)
        inl = d[np.arange(n), a] < cap
        if not inl.any():
            break
        resid = body[inl] - protos[a[inl]]
        k = inl.sum()
        prior_w = 1.0 / config.light_prior_sigma ** 2 * config.chroma_sigma ** 2
        new = resid.mean(0)
        chroma = (new @ LOG_RGB_BASIS[:2].T) * k / (k + prior_w)
        off = chroma @ LOG_RGB_BASIS[:2] + (new @ LOG_RGB_BASIS[2]) * LOG_RGB_BASIS[2]
    d = colour_distances(body, protos, off, config)
    # an extra "none of these" class of fixed distance: a die far from every prototype (glare,
    # an unknown colour) gets low probabilities everywhere instead of a confident nearest colour
    logits = -0.5 * np.concatenate([d, np.full((n, 1), config.colour_outlier_d2)], axis=1)
    logits -= logits.max(1, keepdims=True)
    p = np.exp(logits)
    p /= p.sum(1, keepdims=True)
    return off, p[:, :-1]
