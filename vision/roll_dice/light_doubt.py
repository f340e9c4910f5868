"""A cap on a Roll die's confidence from how far the frame's light may be off (stage ``light_doubt`` of the Roll dice
reader, :meth:`vision.roll_dice.reader.RollDiceReader.read`).

The reader finds the frame's light (its log-RGB offset, :func:`vision.roll_dice.colours.estimate_light`) from the
dice themselves, and then reads each die's colour as if that light were exact. It is not: a camera's white balance
errs on its own, a lamp's colour is not quite on the black-body line, a tone curve bends colours unevenly, and a
few dice of few colours pin the light down only so far. Two enrolled colours that differ mostly along the way a
light moves colours (a blue die and a white one under a cooler or warmer lamp: the warm-cool axis; a red die and a
yellow one: the green-magenta tint) can then swap, and the colour posterior under the one light, whose spread is
the die's own noise alone (``chroma_sigma``), calls the swapped read sure.

So each read is made no surer than its body is of the read colour when the light itself may be off by
``light_doubt_warm`` along the lamps' warm-cool axis and ``light_doubt_tint`` across it (log units): the die's
distance to each colour is the least, over such a shift of the light, of the plain distance
(:func:`vision.roll_dice.colours.colour_distances`, each channel weighed by its noise) plus the shift's own cost,
which for these quadratic distances is the distance with the light's doubt added to the die's noise along those two
axes. A die whose two nearest colours lie apart across the light's doubt keeps its confidence; one whose margin a
small change of light would close is unsure, so the flow asks about it. Only confidences change: the dice found,
their colours and faces stay as read.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .colours import TINT_AXIS, WARM_AXIS, _scaled_protos, capped_by_chances, chances_of_distances, channel_sigma
from .config import RollDiceConfig
from .observations import RollDieObservation

__all__ = ["capped_by_light_doubt", "light_doubt_distances", "light_doubt_posteriors"]


def light_doubt_distances(body: np.ndarray, protos: np.ndarray, light: np.ndarray, config: RollDiceConfig,
                          doubt: tuple[float, float] | None = None) -> np.ndarray:
    """Squared distances ``float[N, C]`` of body colours ``float[N, 3]`` (log-RGB) to prototypes ``float[C, 3]``
    under ``light`` ``float[4]`` (log-RGB offset, saturation scale: :func:`vision.roll_dice.colours.estimate_light`)
    when that light may be off by ``doubt`` = (warm, tint) log units (sigmas along :data:`WARM_AXIS` and
    :data:`TINT_AXIS`; default the config's ``light_doubt_warm``, ``light_doubt_tint``).

    The plain distance (:func:`vision.roll_dice.colours.colour_distances`) is a quadratic form ``e' M e`` of the
    residual ``e`` (body less light less prototype) with ``M = diag(w) - w w' (1 / sum(w) - 3 / (sum(w)^2
    brightness_sigma^2))``, ``w`` each channel's weight (1 / :func:`vision.roll_dice.colours.channel_sigma`^2). With
    the light shifted by ``B z`` (``B`` the two axes, ``z`` their amounts) at a cost ``z' S^-1 z`` (``S`` the doubt's
    variances), the least total over ``z`` is ``e' M e - (B' M e)' (B' M B + S^-1)^-1 (B' M e)``. With equal noise in
    every channel that weighs the chroma along each axis with ``chroma_sigma^2 + doubt^2`` instead of
    ``chroma_sigma^2``. A doubt of 0 gives the plain distances. Log units; raises ``ValueError`` for a negative
    doubt."""
    warm, tint = (config.light_doubt_warm, config.light_doubt_tint) if doubt is None else doubt
    if warm < 0 or tint < 0:
        raise ValueError(f"the light's doubt is two sigmas >= 0 (log units), got {(warm, tint)}")
    body = np.asarray(body, np.float64).reshape(-1, 3)
    ps = _scaled_protos(np.asarray(protos, np.float64), float(light[3]))
    e = body[:, None, :] - np.asarray(light[:3], np.float64)[None, None, :] - ps[None]  # [N, C, 3]
    w = 1.0 / channel_sigma(body, config) ** 2  # [N, 3]
    sw = w.sum(1)
    coef = 1.0 / sw - 3.0 / (sw ** 2 * config.brightness_sigma ** 2)  # [N]
    m = w[:, :, None] * np.eye(3)[None] - coef[:, None, None] * w[:, :, None] * w[:, None, :]  # [N, 3, 3]
    plain = np.einsum("nci,nij,ncj->nc", e, m, e)
    axes = [(a, s) for a, s in ((WARM_AXIS, warm), (TINT_AXIS, tint)) if s > 0]
    if not axes:
        return plain
    b = np.stack([a for a, _ in axes], 1)  # [3, K]
    mb = m @ b  # [N, 3, K]
    g = np.einsum("ik,nil->nkl", b, mb) + np.diag([1.0 / s ** 2 for _, s in axes])[None]  # [N, K, K]
    q = np.einsum("nci,nik->nck", e, mb)  # [N, C, K]
    sol = np.linalg.solve(g[:, None], q[..., None])[..., 0]  # [N, C, K]
    return plain - (q * sol).sum(-1)


def light_doubt_posteriors(body: np.ndarray, protos: np.ndarray, light: np.ndarray,
                           config: RollDiceConfig) -> np.ndarray:
    """The chance ``float[N, C]`` of each enrolled colour for body colours ``float[N, 3]`` (log-RGB) among the
    enrolled colours (as :func:`vision.roll_dice.assemble.colour_sure` counts them: no "none of these"), in the
    metric of :func:`light_doubt_distances`: ``exp(-d / 2)`` normalised over the colours. Raises nothing."""
    return chances_of_distances(light_doubt_distances(body, protos, light, config))


def capped_by_light_doubt(body: np.ndarray, kept: Sequence[tuple[int, RollDieObservation]],
                          dice: Sequence[RollDieObservation], protos: np.ndarray, colours: Sequence[str],
                          light: np.ndarray, config: RollDiceConfig) -> tuple[RollDieObservation, ...]:
    """The reads ``dice`` (in the order of ``kept``, ``[(top face index, read)]``) with each one's confidence at
    most its body's :func:`light_doubt_posteriors` chance of the read colour. ``body``: the top faces' body colours
    ``float[N, 3]`` (log-RGB); ``protos`` ``float[C, 3]`` in the order of ``colours``; ``light`` ``float[4]``.
    ``light_doubt_warm`` None: ``dice`` as they are. Raises ``ValueError`` for a read of a colour not in
    ``colours`` or ``kept`` and ``dice`` of different lengths."""
    dice = tuple(dice)
    if config.light_doubt_warm is None or not dice:
        return dice
    if len(kept) != len(dice):
        raise ValueError(f"{len(dice)} reads for {len(kept)} top faces kept")
    idx = np.array([i for i, _ in kept], np.int64)
    return capped_by_chances(light_doubt_posteriors(np.asarray(body)[idx], protos, light, config), dice, colours)
