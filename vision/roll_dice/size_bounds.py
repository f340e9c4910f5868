"""How a read's die sizes are weighed against each other (:meth:`vision.roll_dice.RollDiceReader` reads the top faces
of several die sizes and keeps the one whose faces look most like the owner's dice): the bound of a size's
:func:`~vision.roll_dice.assemble.size_evidence` that lets a size stop being read once it cannot win, the order its
faces are read in, and what decides between sizes of equal evidence."""

from __future__ import annotations

import numpy as np

from .assemble import _ramp
from .config import RollDiceConfig
from .observations import TopFaces
from .shape import die_likeness, middle_spread

#: One look at a frame at one die size: (:func:`size_evidence`, the size as in :attr:`RollDiceRead.die_size`,
#: top faces, NCC ``[N, K]``).
_Look = tuple[float, float, TopFaces, np.ndarray]


def _match_quality(look: _Look, cfg: RollDiceConfig) -> float:
    """What tells apart die sizes of equal :func:`size_evidence` (``look``: :meth:`RollDiceReader._look`'s): the same
    sum with each face's best template NCC itself in place of its ramp ``strong_match_ramp``. The ramp reaches 1 at a
    plain match, so where every die's symbol matches plainly at two sizes or more their evidence is the same number;
    the size whose faces match their symbols best is then chosen, not the first tried, whatever faces of the picture
    tilt the size model elsewhere (:func:`vision.roll_dice.shape.expected_sides`)."""
    _, _, tops, ncc = look
    if len(tops.rects) == 0:
        return 0.0
    best = np.clip(ncc.max(1), 0.0, 1.0) if ncc.size else np.zeros(len(tops.rects))
    return float(((_size_evidence_reach(tops, cfg) * best) ** cfg.size_power).sum())


def _below(upper: float, bar: float) -> bool:
    """Whether an upper bound ``upper`` of a size's :func:`size_evidence` is below ``bar`` by more than rounding
    (a bound within 1e-9 of the bar is read on: the choice is never decided by a rounding error)."""
    return upper * (1.0 + 1e-9) + 1e-12 < bar


def _size_evidence_reach(tops: TopFaces, cfg: RollDiceConfig) -> np.ndarray:
    """``float[N]``: each face's factor of :func:`size_evidence` but its NCC (its candidate score x die-likeness x its
    middle printed), so that the evidence is the sum over the faces of (that x the NCC's ramp) to ``size_power``."""
    n = len(tops.rects)
    shape = die_likeness(tops.evidence, cfg) if tops.evidence is not None else np.ones(n)
    printed = _ramp(middle_spread(tops.ink, cfg), cfg.middle_ramp) if tops.ink is not None else np.ones(n)
    return np.asarray(tops.scores, np.float64) * shape * printed


def _size_evidence_bound(reach: np.ndarray, best: np.ndarray, cfg: RollDiceConfig) -> float:
    """:func:`size_evidence` of faces whose best NCC is at most ``best`` ``float[N]`` (``reach``:
    :func:`_size_evidence_reach`), a little above it (a millionth), so that a bound computed in another order than
    :func:`size_evidence` adds its terms is never below it by a rounding."""
    return float(_evidence_terms(reach, best, cfg).sum()) * (1.0 + 1e-6)


def _evidence_terms(reach: np.ndarray, best: np.ndarray, cfg: RollDiceConfig) -> np.ndarray:
    """``float[N]``: each face's term of :func:`size_evidence` at a best NCC of ``best`` (``reach``:
    :func:`_size_evidence_reach`)."""
    return (reach * _ramp(best, cfg.strong_match_ramp)) ** cfg.size_power


def _parts(reach: np.ndarray, bound: np.ndarray, bar: float, cfg: RollDiceConfig,
           faces: np.ndarray) -> list[np.ndarray]:
    """The indices of ``faces`` (``bool[N]``) in parts to read one after the other, those that could add most to the
    evidence (:func:`_size_evidence_reach`) first: the first part the fewest whose NCC could bring the bound
    (``bound``: each face's best NCC at most) below ``bar`` (all when none could), each next part twice as many
    faces, the last all that are left (so at most a few parts, and one when the bar is out of reach)."""
    idx = np.flatnonzero(faces)
    if len(idx) == 0:
        return []
    idx = idx[np.argsort(-reach[idx], kind="stable")]
    terms = _evidence_terms(reach, bound, cfg)
    slack = float(terms.sum()) * (1.0 + 1e-6) - bar
    if slack <= 0:
        return [idx]
    first = int(np.searchsorted(np.cumsum(terms[idx]), slack, side="right")) + 1
    parts, start, size = [], 0, max(4, first)
    while start < len(idx):
        stop = len(idx) if len(idx) - (start + size) < size else start + size
        parts.append(idx[start:stop])
        start, size = stop, 2 * size
    return parts
