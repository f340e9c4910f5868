"""Stage 6 of the Roll dice reader: the light's colour and level (the log-RGB offset that best maps the frame's
dice onto the enrolled colour prototypes, each colour counting as a few dice at most so a table's pattern cannot
outvote them), then each die's colour posterior with a "none of these" option, in a metric where a channel near
black counts less and a colour may be washed out towards white (:func:`washed_distances`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from .config import RollDiceConfig
from .foreground import LOG_RGB_BASIS
from .observations import RollDieObservation

__all__ = ["TINT_AXIS", "WARM_AXIS", "calibrate_colours", "channel_sigma", "colour_distances", "colour_posteriors",
           "estimate_light", "has_white_die", "lit_distances", "wash_sigmas", "washed_distances", "white_offset"]


def channel_sigma(body: np.ndarray, config: RollDiceConfig) -> np.ndarray:
    """Noise ``float[..., 3]`` (log units) of each channel of body colours ``float[..., 3]`` (log-RGB): the colour
    metric's ``chroma_sigma`` plus what a dark channel adds. A channel near black carries little of the die's
    colour: its log value is mostly the ``log_offset``, sensor noise, JPEG, a tone curve's toe or a lamp that
    leaves it dark (a red die's blue under a warm lamp), so it is ``dark_sigma`` uncertain at black, fading as
    ``log_offset / (value + log_offset)`` towards the bright end."""
    dark = np.float64(config.log_offset) * np.exp(-np.asarray(body, np.float64))
    return np.sqrt(config.chroma_sigma ** 2 + (config.dark_sigma * dark) ** 2)


def colour_distances(body: np.ndarray, protos: np.ndarray, offset: np.ndarray, config: RollDiceConfig) -> np.ndarray:
    """Squared colour distances ``[N, C]`` of body colours ``float[N, 3]`` (after removing the light ``offset``) to
    prototypes ``float[C, 3]`` (log-RGB): the chroma part weighs each channel by its noise (:func:`channel_sigma`)
    about the common shift of the three channels, which is the brightness gap (``brightness_sigma``). With equal
    noise in every channel it is the plain distance in the chroma plane of ``LOG_RGB_BASIS``."""
    diff = np.asarray(body, np.float64)[:, None, :] - np.asarray(offset, np.float64)[None, None, :] - protos[None]
    w = (1.0 / channel_sigma(body, config) ** 2)[:, None, :]  # [N, 1, 3]
    k = (w * diff).sum(-1) / w.sum(-1)  # [N, C]: the brightness gap per channel
    chroma = (w * (diff - k[..., None]) ** 2).sum(-1)
    return chroma + 3.0 * k ** 2 / config.brightness_sigma ** 2


#: Unit log-BGR directions: the warm-cool axis of lamps (blue against red: the black-body locus) and the
#: green-magenta tint across it; both lie in the chroma plane (orthogonal to the brightness axis).
WARM_AXIS = np.array([1.0, 0.0, -1.0]) / np.sqrt(2.0)
TINT_AXIS = np.array([1.0, -2.0, 1.0]) / np.sqrt(6.0)


def _weighted_mode(x: np.ndarray, w: np.ndarray, step: float = 0.05, reach: float = 4.0) -> np.ndarray:
    """Per column of ``x`` ``float[N, G]``, the value most of the weight ``w`` ``float[N]`` or ``[N, G]`` agrees on: the
    peak of a weighted histogram (bins of ``step``, smoothed over +-2 bins) within +-``reach``. Unlike a
    median it holds when most of the weight is not dice (a busy table), as long as the dice agree."""
    n, g = x.shape
    nb = int(round(2 * reach / step)) + 1
    idx = np.clip(np.round((x + reach) / step).astype(np.int64), 0, nb - 1)
    flat = (np.arange(g) * nb)[None, :] + idx  # [N, G]: bin of each value in its column's histogram
    ww = np.broadcast_to(w if w.ndim == 2 else w[:, None], (n, g)).reshape(-1)
    hist = np.bincount(flat.reshape(-1), ww, g * nb).reshape(g, nb)
    h = np.pad(hist, ((0, 0), (2, 2)))  # smoothed by the kernel 1 2 3 2 1 (nothing wraps round)
    smooth = h[:, :-4] + h[:, 4:] + 2.0 * (h[:, 1:-3] + h[:, 3:-1]) + 3.0 * h[:, 2:-2]
    return smooth.argmax(1) * step - reach


def _colour_shares(assigned: np.ndarray, w: np.ndarray, n_colours: int, dice: float) -> np.ndarray:
    """``float[N, G]`` factor (0..1] on each die's weight ``w`` ``float[N]`` under each light hypothesis, given the
    prototype each is ``assigned`` to (``int[N, G]``): the weight of the dice of one colour together saturates at
    ``dice`` (``dice * (1 - exp(-W / dice))`` for a summed weight W). One cluster of alike bodies can be any
    prototype under some light, so it says little about the light however many it holds: the light is decided by
    how several colours sit relative to each other and to white, and a table's pattern (a gingham's checks, a
    playmat's art: many alike faces of one colour) cannot outvote the dice."""
    n, g = assigned.shape
    key = assigned + n_colours * np.arange(g)[None, :]  # [N, G]: (hypothesis, colour) of each die
    tot = np.bincount(key.reshape(-1), np.broadcast_to(w[:, None], (n, g)).reshape(-1), g * n_colours)
    f = np.where(tot > 1e-9, dice * (1.0 - np.exp(-tot / dice)) / np.maximum(tot, 1e-9), 1.0)
    return f[key]


def calibrate_colours(body: np.ndarray, protos: np.ndarray, config: RollDiceConfig,
                      weights: np.ndarray | None = None,
                      white: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Light offset (log-RGB, float[3]) and colour posteriors ``[N, C]`` of body colours ``float[N, 3]``:
    :func:`estimate_light` (with the frame's ``white`` reference, if any), then :func:`colour_posteriors` under
    that light."""
    light = estimate_light(body, protos, config, weights, white)
    return light[:3], colour_posteriors(body, protos, light, config)


def _white_index(protos: np.ndarray) -> int:
    """Index of the white prototype among ``float[C, 3]`` log-RGB prototypes: the one of least chroma."""
    return int(np.argmin(((np.asarray(protos, np.float64) @ LOG_RGB_BASIS[:2].T) ** 2).sum(1)))


def has_white_die(protos: np.ndarray, config: RollDiceConfig) -> bool:
    """Whether the enrolled prototypes ``float[C, 3]`` (log-RGB) hold a white die: one whose chroma is at most
    ``config.white_die_chroma`` (Roll for the Galaxy's white home dice; Eclipse's combat dice have none)."""
    p = np.asarray(protos, np.float64)
    if len(p) == 0:
        return False
    chroma = float(np.sqrt(((p[_white_index(p)] @ LOG_RGB_BASIS[:2].T) ** 2).sum()))
    return chroma <= config.white_die_chroma


def white_offset(white: np.ndarray, protos: np.ndarray) -> np.ndarray:
    """(warm, tint) ``float[2]`` (log units, along :data:`WARM_AXIS` and :data:`TINT_AXIS`) of the light's colour
    that a white reference of this frame shows: its log-RGB colour ``float[3]`` (a calibration sheet, a card's
    white border, a die known to be white) less the enrolled white prototype (the prototype of least chroma), in
    the chroma plane only: the reference's brightness says nothing of the dice's (paper is brighter than a die,
    a card lies elsewhere under the lamp). Raises ``ValueError`` for a reference that is not 3 finite numbers."""
    w = np.asarray(white, np.float64).reshape(-1)
    if w.shape != (3,) or not np.isfinite(w).all():
        raise ValueError(f"a white reference is one log-RGB colour float[3], got {np.asarray(white).shape}")
    d = w - np.asarray(protos, np.float64)[_white_index(protos)]
    return np.array([d @ WARM_AXIS, d @ TINT_AXIS])


def _scaled_protos(protos: np.ndarray, scale: float) -> np.ndarray:
    """Prototypes ``float[C, 3]`` with their chroma stretched by ``scale`` about the white one (nearest grey)."""
    pc = protos @ LOG_RGB_BASIS[:2].T  # [C, 2]
    white = pc[_white_index(protos)]
    return (white + (pc - white) * scale) @ LOG_RGB_BASIS[:2] + (protos @ LOG_RGB_BASIS[2])[:, None] * LOG_RGB_BASIS[2]


def lit_distances(body: np.ndarray, protos: np.ndarray, light: np.ndarray, config: RollDiceConfig) -> np.ndarray:
    """Squared colour distances ``float[N, C]`` (:func:`colour_distances`) of body colours ``float[N, 3]`` (log-RGB)
    to the prototypes ``float[C, 3]`` as a frame's ``light`` ``float[4]`` (:func:`estimate_light`: log-RGB offset,
    saturation scale) shows them: what :func:`colour_posteriors` weighs. Raises nothing; no body gives ``[0, C]``."""
    if len(body) == 0:
        return np.zeros((0, len(protos)))
    return colour_distances(body, _scaled_protos(protos, float(light[3])), np.asarray(light[:3], np.float64), config)


def colour_posteriors(body: np.ndarray, protos: np.ndarray, light: np.ndarray, config: RollDiceConfig,
                      rim: np.ndarray | None = None) -> np.ndarray:
    """Colour posteriors ``[N, C]`` of body colours ``float[N, 3]`` (log-RGB) under a known ``light``
    ``float[4]`` (:func:`estimate_light`: log-RGB offset, saturation scale), with a "none of these" option
    (``colour_outlier_d2``) that takes the probability of a die far from every prototype; with ``wash_sigma`` the
    chance of an enrolled colour (how surely the body is a die's at all) stays the plain one's, shared among the
    colours by the nearer of each one's plain and washed-out distance (:func:`washed_distances`), each body washed
    at most as far as its face's ``rim`` share lets it (:func:`wash_sigmas`; None: every body as far as
    ``wash_sigma``). A window read after a change uses the light of the last full read: a few dice are too few to
    find the light from."""
    n = len(body)
    if n == 0:
        return np.zeros((0, len(protos)))
    d = lit_distances(body, protos, light, config)
    # an extra "none of these" class of fixed distance: a die far from every prototype (glare,
    # an unknown colour) gets low probabilities everywhere instead of a confident nearest colour
    logits = -0.5 * np.concatenate([d, np.full((n, 1), config.colour_outlier_d2)], axis=1)
    logits -= logits.max(1, keepdims=True)
    p = np.exp(logits)
    p /= p.sum(1, keepdims=True)
    p = p[:, :-1]
    if config.wash_sigma is not None:   # shared among the colours as washed out; the chance of any colour kept
        washed = washed_distances(body, protos, light, config, wash_sigmas(n, rim, config))
        p = chances_of_distances(np.minimum(d, washed)) * p.sum(1)[:, None]
    return p


def wash_sigmas(n: int, rim: np.ndarray | None, config: RollDiceConfig) -> np.ndarray:
    """How far ``float[n]`` (the sigma of :func:`washed_distances`' cost, a share of the way to white) each of ``n``
    bodies may be washed out towards white: ``wash_sigma`` times the ramp ``wash_rim_ramp`` of its face's ``rim``
    share ``float[n]`` (:func:`vision.roll_dice.shape.face_evidences`: the share of the face's rim within
    ``evidence_body`` of its body colour); ``rim`` None or ``wash_rim_ramp`` None: ``wash_sigma`` for every body.

    A veil washes a die's whole body alike, so a washed die is one colour to its edges. A body measured on a face
    whose rim holds several colours (a gingham's red and white checks, a check beside a die's side) is the densest of
    them, and where the camera blurs two checks together it is their blend: red and white blended is a pink exactly
    on the line from red to white, a red washed out. Such a body is a colour only as it plainly is, never as one
    washed out. Raises ``ValueError`` for ``rim`` not of ``n`` numbers."""
    sigma = float(config.wash_sigma) if config.wash_sigma is not None else 0.0
    if rim is None or config.wash_rim_ramp is None:
        return np.full(n, sigma)
    r = np.asarray(rim, np.float64).reshape(-1)
    if len(r) != n:
        raise ValueError(f"wash_sigmas: {len(r)} rim shares for {n} bodies: one each")
    lo, hi = config.wash_rim_ramp
    return sigma * np.clip((r - lo) / max(hi - lo, 1e-9), 0.0, 1.0)


def washed_distances(body: np.ndarray, protos: np.ndarray, light: np.ndarray, config: RollDiceConfig,
                     sigma: np.ndarray | None = None) -> np.ndarray:
    """Squared colour distances ``float[N, C]`` of body colours ``float[N, 3]`` (log-RGB) to prototypes ``float[C, 3]``
    under ``light`` ``float[4]`` (:func:`estimate_light`) when a die's colour may be washed out towards white: the
    metric of :func:`colour_distances` (a quadratic form ``e' M e`` of the residual ``e``, each channel weighed by its
    noise) from the body to the prototype moved ``t`` of the way to the white prototype (the one of least chroma), its
    chroma and its brightness alike, plus ``(t / wash_sigma)^2``, at the best ``t`` from 0 to 1:
    ``t = v' M e / (v' M v + wash_sigma^-2)`` for ``v`` the step from the prototype to white. The white prototype's
    own distances are the plain ones.

    A lamp's veil or a camera's colour matrix lifts a die's darkest channel towards its others: its hue stays, its
    chroma shrinks and it looks brighter, towards white. A yellow die's blue lifted so reads cream, nearer white than
    yellow in the plain metric (spent seed 120014: four yellow dice 0.99 white by their bodies, beside white dice read
    plainly white). A body on the line from white to a colour, brighter than that colour, is then that colour washed
    once it lies more than about ``chroma_sigma / wash_sigma`` of the way from white; a body near white stays white
    (each washed colour costs it about ``1 / wash_sigma^2``), and a body darker than a colour is no washed copy of it.
    ``sigma``: ``float[N]`` each body's own ``wash_sigma`` (:func:`wash_sigmas`; 0: the plain distances); default
    ``wash_sigma`` for every body, which must then be > 0. Log units. Raises nothing."""
    ps = _scaled_protos(np.asarray(protos, np.float64), float(light[3]))
    body = np.asarray(body, np.float64).reshape(-1, 3)
    e = body[:, None, :] - np.asarray(light[:3], np.float64)[None, None, :] - ps[None]  # [N, C, 3]
    v = ps[_white_index(ps)] - ps  # [C, 3]: from each prototype to white
    w = 1.0 / channel_sigma(body, config) ** 2  # [N, 3]
    sw = w.sum(1)
    coef = 1.0 / sw - 3.0 / (sw ** 2 * config.brightness_sigma ** 2)  # [N]

    def form(x: np.ndarray, y: np.ndarray) -> np.ndarray:  # x' M y per die and prototype, [N, C]
        wx, wy = w[:, None, :] * x, w[:, None, :] * y
        return (wx * y).sum(-1) - coef[:, None] * wx.sum(-1) * wy.sum(-1)

    vb = np.broadcast_to(v[None], e.shape)
    ee, ve, vv = form(e, e), form(vb, e), form(vb, vb)
    if sigma is None:
        sigma = np.full(len(body), float(config.wash_sigma))
    sig = np.asarray(sigma, np.float64).reshape(-1)[:, None]           # [N, 1]
    may = sig > 0.0
    curv = vv + np.where(may, 1.0, 0.0) / np.where(may, sig, 1.0) ** 2
    t = np.where(may, np.clip(ve / np.where(may, curv, 1.0), 0.0, 1.0), 0.0)   # a body that may not wash: t = 0
    return ee - 2.0 * t * ve + t * t * curv


def chances_of_distances(d: np.ndarray) -> np.ndarray:
    """The chance ``float[N, C]`` of each enrolled colour from distances ``d`` ``float[N, C]`` (squared, in units
    of the die's noise), among the enrolled colours alone (as :func:`vision.roll_dice.assemble.colour_sure` counts
    them: no "none of these"): ``exp(-d / 2)`` normalised over the colours. Raises nothing."""
    if d.size == 0:
        return d
    p = np.exp(-0.5 * (d - d.min(1, keepdims=True)))
    return p / p.sum(1, keepdims=True)


def capped_by_chances(chances: np.ndarray, dice: Sequence[RollDieObservation],
                      colours: Sequence[str]) -> tuple[RollDieObservation, ...]:
    """The reads ``dice`` each made no surer than ``chances[j]`` (``float[len(dice), C]``, colours in the order of
    ``colours``) gives its read colour. Raises ``ValueError`` for a read of a colour not in ``colours``."""
    order = list(colours)
    cap = [float(chances[j, order.index(obs.colour)]) for j, obs in enumerate(dice)]
    return tuple(obs if obs.confidence <= c else replace(obs, confidence=c) for obs, c in zip(dice, cap, strict=True))


def estimate_light(body: np.ndarray, protos: np.ndarray, config: RollDiceConfig,
                   weights: np.ndarray | None = None, white: np.ndarray | None = None) -> np.ndarray:
    """The frame's light ``float[4]``: log-RGB offset ``[3]`` and saturation scale, from the body colours
    ``float[N, 3]`` of its dice and the enrolled prototypes ``float[C, 3]``; no dice: no offset, scale 1.

    Colour is the die's body (:func:`vision.roll_dice.tops.body_colour`, the symbol left out) in log-RGB,
    where a lamp's colour, the camera's white balance and the exposure add one offset to every die of the
    frame. That offset is found as the one that best maps this frame's dice onto the enrolled prototypes
    (the owner's white dice and coloured dice under the enrollment light are the white reference): a grid
    along the lamps' warm-cool axis (wide: 2700 K to daylight, a white balance that corrects only part of
    it) and the green-magenta tint across it (narrow), with a Gaussian prior on both, and a saturation
    scale about the white prototype (a camera's tone curve stretches or shrinks colour); brightness is
    the level most of the dice agree on (:func:`_weighted_mode`); then refined by re-assignment, each channel's
    mean residual weighed by its noise like the distances (a channel a tone curve crushed to black does not drag
    the light's colour after it, as it did when every channel counted alike). Distances
    weigh each channel by its noise (:func:`channel_sigma`: a channel near black says little), so a red die
    whose blue a warm lamp crushes is not pulled towards yellow. Each die counts with its ``weights`` (0..1,
    default 1: how surely it is a die), and the dice read as one colour together count as at most about
    ``light_colour_dice`` sure dice (:func:`_colour_shares`): a table's pattern (the checks of a gingham, a
    playmat's art, a board's grey print) gives many alike faces of one colour that would otherwise outvote
    the dice, while the light shows in how the colours sit against each other and against white. A die far
    from every prototype adds at most a fixed cost (a die of no enrolled colour, glare), and its posterior
    goes to a "none of these" option instead of the nearest colour.

    ``white`` (log-RGB ``float[3]``, optional): a white reference the table gives in this frame (the calibration
    sheet, a card's border, a die known to be white). The light's colour is then searched about what that
    reference shows (:func:`white_offset`) within ``white_sigma`` instead of about a neutral light within the
    lamps' spread: the dice no longer decide the light's colour alone, so a frame whose dice fit several lights
    (few colours, a strong cast, a tone curve that crushes a channel) reads as the reference says. With no dice,
    the reference's colour and no brightness shift. A dice set with no white die (no prototype within
    ``white_die_chroma`` of grey: Eclipse's combat dice) has nothing to compare the reference with, and it is not
    used. Raises ``ValueError`` for a reference that is not 3 numbers.
    """
    n = len(body)
    if white is not None and not has_white_die(protos, config):
        white_offset(white, protos)   # still refused when it is no colour
        white = None
    centre = np.zeros(2) if white is None else white_offset(white, protos)
    sig_w = config.light_warm_sigma if white is None else min(config.white_sigma, config.light_warm_sigma)
    sig_t = config.light_tint_sigma if white is None else min(config.white_sigma, config.light_tint_sigma)
    if n == 0:
        return np.array([*(centre[0] * WARM_AXIS + centre[1] * TINT_AXIS), 1.0])
    w_die = np.ones(n) if weights is None else np.clip(np.asarray(weights, np.float64), 0.0, 1.0)
    if w_die.sum() <= 1e-6:
        w_die = np.full(n, 1e-3)
        if white is not None:
            return np.array([*(centre[0] * WARM_AXIS + centre[1] * TINT_AXIS), 1.0])
    counted = w_die > 0  # a face of no weight (no symbol, not die-shaped) adds nothing below: left out
    body, w_die = np.asarray(body, np.float64)[counted], w_die[counted]
    n = len(body)
    cap = 25.0  # robust: a die far from every prototype costs at most this
    gw = centre[0] + np.linspace(-2.5 * sig_w, 2.5 * sig_w, config.light_grid_warm)
    gt = centre[1] + np.linspace(-2.5 * sig_t, 2.5 * sig_t, config.light_grid_tint)
    uu, vv = np.meshgrid(gw, gt)
    offs = uu.reshape(-1, 1) * WARM_AXIS + vv.reshape(-1, 1) * TINT_AXIS  # [G, 3]
    prior = (((uu - centre[0]) / sig_w) ** 2 + ((vv - centre[1]) / sig_t) ** 2).reshape(-1)
    w_ch = (1.0 / channel_sigma(body, config) ** 2).astype(np.float32)  # [N, 3]; the grid in float32: twice as fast
    offs32 = offs.astype(np.float32)
    sw = w_ch.sum(1)[:, None, None]  # [N, 1, 1]
    cq = (w_ch @ (offs32 ** 2).T)[:, None, :]  # [N, 1, G]
    s2 = (w_ch @ offs32.T)[:, None, :]
    best = (np.inf, np.zeros(3), 1.0)
    for scale in config.saturation_scales:
        # each die against each prototype under each light, in the metric of :func:`colour_distances`, expanded
        # so no [N, C, G, 3] array is made: e = body - prototype, d = e - light offset (chroma only)
        e = (body[:, None, :] - _scaled_protos(protos, scale)[None]).astype(np.float32)  # [N, C, 3]
        we = w_ch[:, None, :] * e
        swd = we.sum(-1)[:, :, None] - s2  # [N, C, G]: the weighted sum of d
        dc = we @ (-2.0 * offs32.T)  # [N, C, G], then the rest of the chroma part in place
        dc += (we * e).sum(-1)[:, :, None]
        dc += cq
        dc -= swd * swd / sw
        a = dc.argmin(1)[:, None, :]  # [N, 1, G]
        dmin = np.take_along_axis(dc, a, 1)[:, 0, :]
        bgap = np.sqrt(3.0) * np.take_along_axis(swd, a, 1)[:, 0, :] / sw[:, :, 0]  # [N, G]
        eff = w_die[:, None] * _colour_shares(a[:, 0, :], w_die, len(protos), config.light_colour_dice)  # [N, G]
        bright = _weighted_mode(bgap, eff)  # [G]
        d = dmin + (bgap - bright[None, :]) ** 2 / config.brightness_sigma ** 2
        costs = ((np.minimum(d, cap) - cap) * eff).sum(0) + prior + (np.log(scale) / config.saturation_sigma) ** 2
        g = int(costs.argmin())
        if costs[g] < best[0]:
            best = (float(costs[g]), offs[g] + bright[g] * LOG_RGB_BASIS[2], float(scale))
    _, off, scale = best
    protos_s = _scaled_protos(protos, scale)
    for _ in range(3):  # refine: re-assign, then the noise-weighted mean residual of the inliers, shrunk by the prior
        d = colour_distances(body, protos_s, off, config)
        a = d.argmin(1)
        inl = (d[np.arange(n), a] < cap) & (w_die > 0)
        if not inl.any():
            break
        ww = (w_die * _colour_shares(a[:, None], w_die * inl, len(protos), config.light_colour_dice)[:, 0])[inl]
        wc = ww[:, None] / channel_sigma(body[inl], config) ** 2  # [n, 3]: a channel near black says little
        resid = ((body[inl] - protos_s[a[inl]]) * wc).sum(0) / wc.sum(0)
        k = ww.sum()
        u = centre[0] + (resid @ WARM_AXIS - centre[0]) * k / (k + config.chroma_sigma ** 2 / sig_w ** 2)
        v = centre[1] + (resid @ TINT_AXIS - centre[1]) * k / (k + config.chroma_sigma ** 2 / sig_t ** 2)
        off = u * WARM_AXIS + v * TINT_AXIS + (resid @ LOG_RGB_BASIS[2]) * LOG_RGB_BASIS[2]
    return np.array([*np.asarray(off, np.float64), float(scale)])
