"""The tests that tell a Roll for the Galaxy die from what only looks like one, each lowering the die score of the top
faces that are no die (a score is only ever lowered): the table's repeating pattern (stage ``pattern``, part of every
size's look) and, once the die size is chosen, faces no size search vouched for (``unsized``), squares printed on the
table (``surface``), flat art with no die's outline (``outline``), a neighbour's side face (``sides``, ``hanging``)
and the table's own texture (``texture``). Only the faces a read would report are measured."""

from __future__ import annotations

import numpy as np

from .assemble import _ramp, die_weights
from .config import RollDiceConfig
from .nadir import side_reach_of_tops
from .observations import TopFaces
from .outline import square_outline
from .raised import raised_edges
from .shape import SurroundingLogs, pattern_lattice, surface_returns
from .sides import hanging_sides, shaded_sides, side_faces
from .texture import table_repeats


def _not_pattern(frame: np.ndarray, tops: TopFaces, ncc: np.ndarray, cfg: RollDiceConfig) -> TopFaces:
    """The top faces with the die score of each that is a tile of the table's repeating pattern lowered:
    by ``repeat_ramp`` when its grey window recurs both ways along one axis (a gingham's check, a printed
    grid, wood grain: :func:`pattern_axes` column 0), by ``repeat_axes_ramp`` when it recurs along a second
    axis too (a lattice: a cloth's check, not a die in a row of dice alike; column 1, in colour when
    ``repeat_axes_colour``; both in one pass, :func:`pattern_lattice`); only the faces that would be reported are
    measured."""
    todo = die_weights(tops, ncc, cfg) >= cfg.min_confidence
    if not todo.any():
        return tops
    rep, lattice = pattern_lattice(frame, tops.rects, cfg, todo, colour=cfg.repeat_axes_colour,
                                   screen=cfg.repeat_axes_screen).T
    keep = 1.0 - np.maximum(_ramp(rep, cfg.repeat_ramp), _ramp(lattice, cfg.repeat_axes_ramp))
    return TopFaces(tops.rects, np.asarray(tops.scores, np.float64) * keep, tops.ink, tops.body, tops.evidence)


def _not_printed(frame: np.ndarray, tops: TopFaces, ncc: np.ndarray, cfg: RollDiceConfig,
                 logs: SurroundingLogs | None = None) -> tuple[TopFaces, np.ndarray]:
    """(the top faces, ``float[N]`` how much of the ring round each the table comes back in, :func:`surface_returns`,
    -1 where not measured) with the die score of each that is a square printed on the table lowered by the larger of

    * ``surface_ramp`` of :func:`surface_returns` (its surface comes back just beyond its outline: a player board's
      numbered box, a ring of a playmat), unless its symbol is plainly one of the owner's (best NCC on
      ``strong_match_ramp``);
    * ``flat_surface_ramp`` of :func:`surface_returns` where its edges show no raised body
      (1 - ``raised_ramp`` of :func:`raised_edges`: a cloth's check, a board's box are flat with the table), unless
      its symbol matches one of the owner's near perfectly (``flat_match_ramp``: a board's digit matches a symbol
      at NCC 0.55-0.75);

    only the faces that would be reported are measured, once the die size is chosen; ``logs``: the frame's
    surroundings kept for this read (:class:`vision.roll_dice.shape.SurroundingLogs`; None: cut here)."""
    unmeasured = np.full(len(tops.rects), -1.0)
    if cfg.surface_ramp is None or len(tops.rects) == 0:
        return tops, unmeasured
    todo, best = _reported(tops, ncc, cfg)
    if not todo.any():
        return tops, unmeasured
    returned = surface_returns(frame, tops.rects, tops.body, cfg, todo, logs)
    surface = np.maximum(returned, 0.0)
    printed = _ramp(surface, cfg.surface_ramp) * (1.0 - _ramp(best, cfg.strong_match_ramp))
    if cfg.flat_surface_ramp is not None:
        returns = _ramp(surface, cfg.flat_surface_ramp)
        look = todo & (returns > 0.0)
        if look.any():
            raised = np.maximum(raised_edges(frame, tops.rects, tops.body, cfg, look, logs), 0.0)
            flat = returns * (1.0 - _ramp(raised, cfg.raised_ramp)) * (1.0 - _ramp(best, cfg.flat_match_ramp))
            printed = np.maximum(printed, flat)
    return tops.lowered(1.0 - printed), returned


def _not_vouched(tops: TopFaces, ncc: np.ndarray, evidence: float, cfg: RollDiceConfig) -> TopFaces:
    """The top faces with each face's die score scaled by its best template NCC on ``unsized_match_ramp`` where no
    die size was vouched for: the size search's ``evidence`` (:func:`size_evidence` of the size chosen) is below
    ``size_min_evidence``, so no face of the frame plainly shows one of the owner's symbols on a die's shape, and the
    faces were found at the size the frame's blobs give (an empty patterned table: a playmat's print, a cloth's
    checks). There a face's shape and size say nothing, and only a plain symbol makes it a die.
    ``unsized_match_ramp`` None: no test. ``evidence`` a number; ``ncc`` ``float[N, K]``."""
    if cfg.unsized_match_ramp is None or evidence >= cfg.size_min_evidence or len(tops.rects) == 0:
        return tops
    best = ncc.max(1) if ncc.size else np.zeros(len(tops.rects))
    return tops.lowered(_ramp(best, cfg.unsized_match_ramp))


def _not_flat_art(frame: np.ndarray, tops: TopFaces, ncc: np.ndarray, cfg: RollDiceConfig,
                  logs: SurroundingLogs | None = None) -> TopFaces:
    """The top faces with the die score of each that shows no die's square outline (:func:`square_outline`: a blot
    of a playmat's art, on any table) scaled by 1 - (1 - ``square_ramp`` of its outline) x (1 - its best template NCC
    on ``square_match_ramp``); only the faces that would be reported are measured, once the die size is chosen and the
    printed squares are lowered; ``logs`` as :func:`_not_printed`'s (the raised-edge test's patches reused)."""
    if cfg.square_ramp is None or len(tops.rects) == 0:
        return tops
    todo, best = _reported(tops, ncc, cfg)
    todo &= _ramp(best, cfg.square_match_ramp) < 1.0
    if not todo.any():
        return tops
    outline = square_outline(frame, tops.rects, cfg, todo, logs)
    flat = np.where(todo, 1.0 - _ramp(np.maximum(outline, 0.0), cfg.square_ramp), 0.0)
    return tops.lowered(1.0 - flat * (1.0 - _ramp(best, cfg.square_match_ramp)))


def _not_side(frame: np.ndarray, tops: TopFaces, ncc: np.ndarray, cfg: RollDiceConfig) -> TopFaces:
    """The top faces with the die score of each that is a neighbouring die's side face seen obliquely
    (:func:`side_faces`) or turned from the lamp (:func:`shaded_sides`, the nadir and the side faces' reach from the
    faces' size model) scaled by 1 - the larger; only the faces that would be reported are measured, once the die size
    is chosen and the printed squares are lowered."""
    if cfg.side_full_ramp is None or len(tops.rects) < 2:
        return tops
    todo, best = _reported(tops, ncc, cfg)
    if todo.sum() < 2:
        return tops
    side = side_faces(frame, tops.rects, tops.body, cfg, todo, best)
    if cfg.deep_shade_ramp is not None:
        away, reach = side_reach_of_tops(tops, frame.shape[:2], cfg)
        side = np.maximum(side, shaded_sides(frame, tops.rects, tops.body, away, reach, cfg, todo))
    return tops.lowered(1.0 - side)


def _not_hanging(frame: np.ndarray, tops: TopFaces, ncc: np.ndarray, cfg: RollDiceConfig) -> TopFaces:
    """The top faces with the die score of each that is a box on a surer die's side face (:func:`hanging_sides`:
    overlapping that die's box, towards the camera's nadir, shaded) scaled by 1 - that; the nadir and the side faces'
    reach from the faces' size model (:func:`expected_sides`, :func:`nadir_point`, :func:`towards_top`); only the
    faces that would be reported are measured, after the side-face test."""
    if cfg.hang_overlap_ramp is None or len(tops.rects) < 2:
        return tops
    weights = die_weights(tops, ncc, cfg)
    todo = weights >= cfg.min_confidence                      # the faces a read would report (:func:`_reported`)
    if todo.sum() < 2:
        return tops
    away, reach = side_reach_of_tops(tops, frame.shape[:2], cfg)
    hang = hanging_sides(tops.rects, tops.body, weights, away, reach, cfg, todo)
    return tops.lowered(1.0 - hang)


def _not_texture(frame: np.ndarray, tops: TopFaces, ncc: np.ndarray, cfg: RollDiceConfig) -> TopFaces:
    """The top faces with the die score of each that is the table's own texture (its box recurs on the table round
    it, not on another die: :func:`table_repeats`) scaled by 1 - ``texture_ramp`` of that x (1 - its best template NCC
    on ``texture_match_ramp``); only the faces that would be reported and whose symbol is not plain are
    measured, once the die size is chosen and the printed squares and side faces are lowered."""
    if cfg.texture_ramp is None or len(tops.rects) == 0:
        return tops
    dice, best = _reported(tops, ncc, cfg)
    plain = _ramp(best, cfg.texture_match_ramp)
    todo = dice & (plain < 1.0)
    if not todo.any():
        return tops
    texture = table_repeats(frame, tops.rects, cfg, todo, dice)
    return tops.lowered(1.0 - _ramp(np.maximum(texture, 0.0), cfg.texture_ramp) * (1.0 - plain))


def _reported(tops: TopFaces, ncc: np.ndarray, cfg: RollDiceConfig) -> tuple[np.ndarray, np.ndarray]:
    """(``bool[N]``: the faces a read would report, die weight at least ``min_confidence``; ``float[N]``: each
    face's best template NCC, 0 without templates): what the printed-square and side-face tests look at."""
    best = ncc.max(1) if ncc.size else np.zeros(len(tops.rects))
    return die_weights(tops, ncc, cfg) >= cfg.min_confidence, best
