"""Stage 6 of the Roll dice reader: the light's colour and level (the log-RGB offset that best maps the frame's
dice onto the enrolled colour prototypes), then each die's colour posterior with a "none of these" option."""

from __future__ import annotations

import numpy as np

from .config import RollDiceConfig
from .foreground import LOG_RGB_BASIS

__all__ = ["TINT_AXIS", "WARM_AXIS", "calibrate_colours", "colour_distances", "colour_posteriors", "estimate_light"]


def colour_distances(body: np.ndarray, protos: np.ndarray, offset: np.ndarray, config: RollDiceConfig) -> np.ndarray:
    """Squared colour distances ``[N, C]`` of body colours (after removing the light ``offset``) to prototypes."""
    diff = (body[:, None, :] - offset[None, None, :] - protos[None, :, :]) @ LOG_RGB_BASIS.T
    w = np.array([1 / config.chroma_sigma ** 2, 1 / config.chroma_sigma ** 2, 1 / config.brightness_sigma ** 2])
    return (diff ** 2 * w).sum(-1)


#: Unit log-BGR directions: the warm-cool axis of lamps (blue against red: the black-body locus) and the
#: green-magenta tint across it; both lie in the chroma plane (orthogonal to the brightness axis).
WARM_AXIS = np.array([1.0, 0.0, -1.0]) / np.sqrt(2.0)
TINT_AXIS = np.array([1.0, -2.0, 1.0]) / np.sqrt(6.0)


def _weighted_mode(x: np.ndarray, w: np.ndarray, step: float = 0.05, reach: float = 4.0) -> np.ndarray:
    """Per column of ``x`` ``float[N, G]``, the value most of the weight ``w`` ``float[N]`` agrees on: the
    peak of a weighted histogram (bins of ``step``, smoothed over +-2 bins) within +-``reach``. Unlike a
    median it holds when most of the weight is not dice (a busy table), as long as the dice agree."""
    n, g = x.shape
    nb = int(round(2 * reach / step)) + 1
    idx = np.clip(np.round((x + reach) / step).astype(np.int64), 0, nb - 1)
    hist = np.zeros((g, nb))
    cols = np.broadcast_to(np.arange(g), (n, g))
    np.add.at(hist, (cols.reshape(-1), idx.reshape(-1)), np.broadcast_to(w[:, None], (n, g)).reshape(-1))
    kernel = np.array([1.0, 2.0, 3.0, 2.0, 1.0])
    smooth = sum(np.roll(hist, k - 2, axis=1) * kernel[k] for k in range(5))
    return smooth.argmax(1) * step - reach


def calibrate_colours(body: np.ndarray, protos: np.ndarray, config: RollDiceConfig,
                      weights: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Light offset (log-RGB, float[3]) and colour posteriors ``[N, C]`` of body colours ``float[N, 3]``:
    :func:`estimate_light`, then :func:`colour_posteriors` under that light."""
    light = estimate_light(body, protos, config, weights)
    return light[:3], colour_posteriors(body, protos, light, config)


def _scaled_protos(protos: np.ndarray, scale: float) -> np.ndarray:
    """Prototypes ``float[C, 3]`` with their chroma stretched by ``scale`` about the white one (nearest grey)."""
    pc = protos @ LOG_RGB_BASIS[:2].T  # [C, 2]
    white = pc[int(np.argmin((pc ** 2).sum(1)))]
    return (white + (pc - white) * scale) @ LOG_RGB_BASIS[:2] + (protos @ LOG_RGB_BASIS[2])[:, None] * LOG_RGB_BASIS[2]


def colour_posteriors(body: np.ndarray, protos: np.ndarray, light: np.ndarray, config: RollDiceConfig) -> np.ndarray:
    """Colour posteriors ``[N, C]`` of body colours ``float[N, 3]`` (log-RGB) under a known ``light``
    ``float[4]`` (:func:`estimate_light`: log-RGB offset, saturation scale), with a "none of these" option
    (``colour_outlier_d2``) that takes the probability of a die far from every prototype. A window read
    after a change uses the light of the last full read: a few dice are too few to find the light from."""
    n = len(body)
    if n == 0:
        return np.zeros((0, len(protos)))
    d = colour_distances(body, _scaled_protos(protos, float(light[3])), np.asarray(light[:3], np.float64), config)
    # an extra "none of these" class of fixed distance: a die far from every prototype (glare,
    # an unknown colour) gets low probabilities everywhere instead of a confident nearest colour
    logits = -0.5 * np.concatenate([d, np.full((n, 1), config.colour_outlier_d2)], axis=1)
    logits -= logits.max(1, keepdims=True)
    p = np.exp(logits)
    p /= p.sum(1, keepdims=True)
    return p[:, :-1]


def estimate_light(body: np.ndarray, protos: np.ndarray, config: RollDiceConfig,
                   weights: np.ndarray | None = None) -> np.ndarray:
    """The frame's light ``float[4]``: log-RGB offset ``[3]`` and saturation scale, from the body colours
    ``float[N, 3]`` of its dice and the enrolled prototypes ``float[C, 3]``; no dice: no offset, scale 1.

    Colour is the die's body (:func:`vision.roll_dice.tops.body_colour`, the symbol left out) in log-RGB,
    where a lamp's colour, the camera's white balance and the exposure add one offset to every die of the
    frame. That offset is found as the one that best maps this frame's dice onto the enrolled prototypes
    (the owner's white dice and coloured dice under the enrollment light are the white reference): a grid
    along the lamps' warm-cool axis (wide: 2700 K to daylight, a white balance that corrects only part of
    it) and the green-magenta tint across it (narrow), with a Gaussian prior on both, and a saturation
    scale about the white prototype (a camera's tone curve stretches or shrinks colour); brightness is
    the level most of the dice agree on (:func:`_weighted_mode`); then refined by re-assignment. Each die
    counts with its ``weights`` (0..1, default 1: how surely it is a die), so a printed square or an empty
    check of a tablecloth does not pull the light. A die far from every prototype adds at most a fixed cost (a
    die of no enrolled colour, glare), and its posterior goes to a "none of these" option instead of the nearest
    colour.
    """
    n = len(body)
    if n == 0:
        return np.array([0.0, 0.0, 0.0, 1.0])
    w_die = np.ones(n) if weights is None else np.clip(np.asarray(weights, np.float64), 0.0, 1.0)
    if w_die.sum() <= 1e-6:
        w_die = np.full(n, 1e-3)
    counted = w_die > 0  # a face of no weight (no symbol, not die-shaped) adds nothing below: left out
    body, w_die = np.asarray(body, np.float64)[counted], w_die[counted]
    n = len(body)
    cap = 25.0  # robust: a die far from every prototype costs at most this
    gw = np.linspace(-2.5 * config.light_warm_sigma, 2.5 * config.light_warm_sigma, config.light_grid_warm)
    gt = np.linspace(-2.5 * config.light_tint_sigma, 2.5 * config.light_tint_sigma, config.light_grid_tint)
    uu, vv = np.meshgrid(gw, gt)
    offs = uu.reshape(-1, 1) * WARM_AXIS + vv.reshape(-1, 1) * TINT_AXIS  # [G, 3]
    prior = ((uu / config.light_warm_sigma) ** 2 + (vv / config.light_tint_sigma) ** 2).reshape(-1)
    # the saturation scale stretches chroma about the white reference (the prototype nearest to grey)
    pc = protos @ LOG_RGB_BASIS[:2].T  # [C, 2]
    white = pc[int(np.argmin((pc ** 2).sum(1)))]
    wch = np.array([1 / config.chroma_sigma ** 2, 1 / config.chroma_sigma ** 2])
    bc = body @ LOG_RGB_BASIS[:2].T  # [N, 2]
    best = (np.inf, np.zeros(3), 1.0)
    bo = bc[:, None, :] - (offs @ LOG_RGB_BASIS[:2].T)[None, :, :]  # [N, G, 2]: each die's chroma under each light
    for scale in config.saturation_scales:
        pcs = white + (pc - white) * scale  # [C, 2]
        dc = (bo[:, :, None, 0] - pcs[:, 0]) ** 2 * wch[0] + (bo[:, :, None, 1] - pcs[:, 1]) ** 2 * wch[1]  # [N, G, C]
        a = dc.argmin(-1)  # [N, G]
        bgap = (body @ LOG_RGB_BASIS[2])[:, None] - (protos @ LOG_RGB_BASIS[2])[a]  # [N, G]
        bright = _weighted_mode(bgap, w_die)  # [G]
        db = (bgap - bright[None, :]) ** 2 / config.brightness_sigma ** 2
        d = dc.min(-1) + db
        costs = (np.minimum(d, cap) * w_die[:, None]).sum(0) + prior + (np.log(scale) / config.saturation_sigma) ** 2
        g = int(costs.argmin())
        if costs[g] < best[0]:
            best = (float(costs[g]), offs[g] + bright[g] * LOG_RGB_BASIS[2], float(scale))
    _, off, scale = best
    protos_s = _scaled_protos(protos, scale)
    for _ in range(3):  # refine: re-assign, then the weighted mean residual of the inliers, shrunk by the prior
        d = colour_distances(body, protos_s, off, config)
        a = d.argmin(1)
        inl = (d[np.arange(n), a] < cap) & (w_die > 0)
        if not inl.any():
            break
        ww = w_die[inl]
        resid = ((body[inl] - protos_s[a[inl]]) * ww[:, None]).sum(0) / ww.sum()
        k = ww.sum()
        u = resid @ WARM_AXIS * k / (k + config.chroma_sigma ** 2 / config.light_warm_sigma ** 2)
        v = resid @ TINT_AXIS * k / (k + config.chroma_sigma ** 2 / config.light_tint_sigma ** 2)
        off = u * WARM_AXIS + v * TINT_AXIS + (resid @ LOG_RGB_BASIS[2]) * LOG_RGB_BASIS[2]
    return np.array([*np.asarray(off, np.float64), float(scale)])
