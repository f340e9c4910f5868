"""The last cap on a Roll die's confidence: how sure its body is of the read colour when a lamp's sheen may have
washed it out. A sheen adds the lamp's white to a die's own colour: its chroma shrinks towards white along the
line from white to its colour (hue kept) and it looks brighter, so a washed-out red die can sit nearer brown, a
duller colour, than red in the plain colour metric (:func:`vision.roll_dice.colours.colour_distances`). The reads
keep their colours; only a read whose body a sheen could explain as another enrolled colour is made unsure, so it
is asked about."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .colours import _scaled_protos, _white_index, capped_by_chances, chances_of_distances, channel_sigma
from .config import RollDiceConfig
from .foreground import LOG_RGB_BASIS
from .observations import RollDieObservation

__all__ = ["capped_by_sheen", "sheen_distances", "sheen_posteriors"]


def sheen_distances(body: np.ndarray, protos: np.ndarray, light: np.ndarray, config: RollDiceConfig) -> np.ndarray:
    """Squared distances ``float[N, C]`` of body colours ``float[N, 3]`` (log-RGB) to prototypes ``float[C, 3]``
    under ``light`` ``float[4]`` (log-RGB offset, saturation scale: :func:`vision.roll_dice.colours.estimate_light`)
    when a sheen may have washed the body out: the metric of :func:`vision.roll_dice.colours.colour_distances`
    (each channel weighed by its noise, :func:`vision.roll_dice.colours.channel_sigma`) from the body to the
    prototype moved ``t`` of the way towards the white prototype (the one of least chroma) in the chroma plane, plus
    ``(t x that chroma gap / sheen_sigma)^2``, at the best ``t`` from 0 to ``1 - exp(-rise)``, ``rise`` how much
    brighter the body is than the prototype (log units per channel, 0 if darker): white light that raises each
    channel's log by ``rise`` shrinks the chroma by that share, so a body no brighter shows no sheen and keeps the
    plain distance. With equal noise in every channel and ``t`` within its bound, a
    shortfall of chroma along the line from white to the prototype weighs with ``sqrt(chroma_sigma^2 +
    sheen_sigma^2)`` instead of ``chroma_sigma``; a gap across that line, or beyond the prototype, as before; the
    white prototype's distances are the plain ones. The brightness gap is the plain metric's. Log units; raises
    nothing."""
    ps = _scaled_protos(np.asarray(protos, np.float64), float(light[3]))
    body = np.asarray(body, np.float64).reshape(-1, 3)
    diff = body[:, None, :] - np.asarray(light[:3], np.float64)[None, None, :] - ps[None]  # [N, C, 3]
    chroma_only = LOG_RGB_BASIS[:2].T @ LOG_RGB_BASIS[:2]  # [3, 3]: projection onto the chroma plane
    v = (ps[_white_index(ps)] - ps) @ chroma_only  # [C, 3]: from each prototype to white, chroma only
    w = (1.0 / channel_sigma(body, config) ** 2)[:, None, :]  # [N, 1, 3]
    sw = w.sum(-1)
    a = diff - ((w * diff).sum(-1) / sw)[..., None]  # [N, C, 3]: each about its channels' weighted mean
    b = v[None] - ((w * v[None]).sum(-1) / sw)[..., None]
    big_a, big_b, big_c = (w * a * a).sum(-1), (w * a * b).sum(-1), (w * b * b).sum(-1)  # [N, C]
    curv = big_c + (v ** 2).sum(-1)[None] / float(config.sheen_sigma) ** 2
    k = (w * diff).sum(-1) / sw  # the brightness gap per channel, as the plain metric
    # white light added to a colour c (linear) as s raises each channel's log by log((c + s) / c) and shrinks the
    # chroma by s / (c + s) = 1 - exp(-that rise): a body no brighter than the prototype shows no sheen
    t_max = 1.0 - np.exp(-np.maximum(k, 0.0))
    t = np.clip(np.divide(big_b, curv, out=np.zeros_like(big_b), where=curv > 1e-12), 0.0, t_max)
    return big_a - 2.0 * t * big_b + t * t * curv + 3.0 * k ** 2 / config.brightness_sigma ** 2


def sheen_posteriors(body: np.ndarray, protos: np.ndarray, light: np.ndarray, config: RollDiceConfig) -> np.ndarray:
    """The chance ``float[N, C]`` of each enrolled colour for body colours ``float[N, 3]`` (log-RGB), among the
    enrolled colours (as :func:`vision.roll_dice.assemble.colour_sure` counts them: no "none of these"), in the
    metric of :func:`sheen_distances`: ``exp(-d / 2)`` normalised over the colours. Raises nothing."""
    return chances_of_distances(sheen_distances(body, protos, light, config))


def capped_by_sheen(body: np.ndarray, kept: Sequence[tuple[int, RollDieObservation]],
                    dice: Sequence[RollDieObservation], protos: np.ndarray, colours: Sequence[str],
                    light: np.ndarray, config: RollDiceConfig) -> tuple[RollDieObservation, ...]:
    """The reads ``dice`` (in the order of ``kept``, ``[(top face index, read)]`` of
    :func:`vision.roll_dice.assemble.assemble_indexed`) with each one's confidence at most its body's
    :func:`sheen_posteriors` chance of the read colour. ``body``: the top faces' body colours ``float[N, 3]``
    (log-RGB); ``protos`` ``float[C, 3]`` in the order of ``colours``; ``light`` ``float[4]``. ``sheen_sigma``
    None: ``dice`` as they are. Raises ``ValueError`` for a read of a colour not in ``colours``."""
    dice = tuple(dice)
    if config.sheen_sigma is None or not dice:
        return dice
    idx = np.array([i for i, _ in kept], np.int64)
    return capped_by_chances(sheen_posteriors(np.asarray(body)[idx], protos, light, config), dice, colours)
