"""Where the card reader's cards lie (the ``layout`` stage of :func:`vision.cards.read_cards`): each card's centre
in table mm (estimated from the deck's card size without a calibration), its rotation, its row and column on the
table, its edge-adjacency grid cell around an anchor card in each player zone, and the
:class:`vision.observations.CardObservation` of each.

Glossary as :mod:`vision.cards`: *quad* = float[4, 2] pixel corners of a card, clockwise from the card's top-left as
it reads; *rotation_deg* = clockwise angle of the card's up direction from the table's up direction, in (-180, 180];
*cell* = [row offset, column offset] from the anchor card, in card pitches along the anchor's own axes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from .card_detect import CardsConfig
from .observations import CardObservation
from .table import TableCalibration, Zones, zones_of

__all__ = ["assign_cells", "assign_rows_cols", "layout_observations", "quad_sizes"]


def _up_vectors(quads_frame: np.ndarray) -> np.ndarray:
    """float[N, 2] unit up-vectors of ordered quads float[N, 4, 2] (top edge's middle minus bottom edge's)."""
    q = np.asarray(quads_frame, np.float64).reshape(-1, 4, 2)
    u = (q[:, 0] + q[:, 1]) / 2 - (q[:, 2] + q[:, 3]) / 2
    # each length as np.linalg.norm of one vector takes it (its dot product: the same bits as one card at a time)
    norm = np.sqrt(np.array([v.dot(v) for v in u], np.float64)).reshape(-1)
    return u / np.maximum(norm, 1e-9)[:, None]


def _rotation_deg(up: np.ndarray) -> float:
    # table up = (0, -1); clockwise on screen (y down) positive
    a = math.degrees(math.atan2(up[0], -up[1]))
    return 180.0 if a <= -180.0 else a


def quad_sizes(quads: Sequence[np.ndarray] | np.ndarray) -> np.ndarray:
    """float[N, 2]: :func:`vision.quads.quad_size` (short, long side) of each ordered quad (float[4, 2], or all as
    float[N, 4, 2]), at once."""
    if len(quads) == 0:
        return np.zeros((0, 2))
    q = np.asarray(quads, np.float64).reshape(-1, 4, 2) if isinstance(quads, np.ndarray) else \
        np.stack([np.asarray(c, np.float64).reshape(4, 2) for c in quads])
    s = np.linalg.norm(q - np.roll(q, -1, axis=1), axis=2)
    return np.stack([(s[:, 0] + s[:, 2]) / 2, (s[:, 1] + s[:, 3]) / 2], axis=1)


def assign_rows_cols(centres: np.ndarray, sizes: np.ndarray, config: CardsConfig) -> tuple[list[int], list[int]]:
    """Row and column index (0-based, top-to-bottom and left-to-right) of each card centre.

    ``centres`` float[N, 2] and ``sizes`` float[N, 2] (width, height along the layout axes) in one frame
    (table mm when calibrated). A new row starts where consecutive sorted centre heights differ by more
    than ``row_gap`` median card heights; columns likewise.
    """
    n = len(centres)
    if n == 0:
        return [], []
    def groups(vals: np.ndarray, gap: float) -> list[int]:
        order = np.argsort(vals)
        idx = np.zeros(n, int)
        g = 0
        for k in range(1, n):
            if vals[order[k]] - vals[order[k - 1]] > gap:
                g += 1
            idx[order[k]] = g
        return idx.tolist()
    med_w, med_h = np.median(sizes[:, 0]), np.median(sizes[:, 1])
    rows = groups(centres[:, 1], config.row_gap * med_h)
    cols = groups(centres[:, 0], config.col_gap * med_w)
    return rows, cols


def assign_cells(centres: np.ndarray, ups: np.ndarray, sizes: np.ndarray, anchor: int | None,
                 config: CardsConfig) -> list[tuple[int, int] | None]:
    """Edge-adjacency grid cells [row, col] relative to card ``anchor`` (index), along the anchor's axes.

    ``ups`` float[N, 2] unit up-vectors of the cards; ``sizes`` float[N, 2] (short, long) sides; all in one
    frame (table mm when calibrated). Pitch = the anchor's size (columns = card width, rows = card height,
    for portrait cards laid in the same orientation). Cells off-grid by more than ``cell_tolerance`` are None.
    """
    n = len(centres)
    if anchor is None or n == 0:
        return [None] * n
    up = ups[anchor] / max(np.linalg.norm(ups[anchor]), 1e-9)
    down = -up
    right = np.array([down[1], -down[0]])  # the card's right side (image coords, y down)
    # pitch from the median card size (robust to one badly fitted anchor)
    w = float(np.median(sizes[:, 0]))
    h = float(np.median(sizes[:, 1]))
    out: list[tuple[int, int] | None] = []
    for k in range(n):
        d = centres[k] - centres[anchor]
        i, j = float(d @ down) / h, float(d @ right) / w
        ri, rj = round(i), round(j)
        if abs(i - ri) > config.cell_tolerance or abs(j - rj) > config.cell_tolerance:
            out.append(None)
        else:
            out.append((int(ri), int(rj)))
    return out


def layout_observations(frame: np.ndarray, quads: Sequence[np.ndarray], ids: Sequence[str | None],
                        confs: Sequence[float], sources: Sequence[str], crops: Sequence[np.ndarray] | None,
                        deck: Any, calibration: TableCalibration | None, zones: Zones | None,
                        c: CardsConfig) -> list[CardObservation]:
    """The :class:`vision.observations.CardObservation` of each card read (the ``layout`` stage of
    :func:`vision.cards.read_cards`), sorted by row, column and x.

    Args:
        frame: uint8[H, W, 3] BGR, the frame read (unused but for its place in the stage's arguments).
        quads: float[4, 2] frame px corners of each card, clockwise from its top-left as it reads.
        ids, confs, sources, crops: per card its id (None: not identified), confidence (0-1), where the id came from
            (``"reference"``, ``"sticker"``) and its rectified crop (uint8[h, w, 3]; None: no crops kept).
        deck: the deck read against (its ``card_mm`` (short, long) mm sets the mm per px without a calibration;
            None or no ``card_mm``: ``c.fallback_card_mm``).
        calibration: table calibration (centres in table mm), or None (mm estimated from the cards' median short
            side in px).
        zones: player zones (:func:`vision.table.zones_of`), or None.
        c: ``row_gap``, ``col_gap`` (:func:`assign_rows_cols`), ``cell_tolerance`` and ``anchor_id``
            (:func:`assign_cells`, one grid per player zone around that zone's surest anchor card; Among the Stars
            rulebook 5.1 'Grid and adjacency': a station grows from its Main Reactor).
    """
    n = len(quads)
    if n == 0:
        return []
    estimated = calibration is None
    quads_px = np.stack([np.asarray(q, np.float64).reshape(4, 2) for q in quads])          # [n, 4, 2]
    if calibration is not None:   # every corner at once (the same per-point map)
        qf = calibration.to_mm(quads_px.reshape(-1, 2)).reshape(n, 4, 2)
    else:
        card_mm = getattr(deck, "card_mm", None) or c.fallback_card_mm
        px_per_mm = float(np.median(quad_sizes(quads_px)[:, 0])) / float(card_mm[0])
        qf = quads_px / px_per_mm
    centres = qf.mean(axis=1)
    ups = _up_vectors(qf)
    sizes = quad_sizes(qf)
    # row/col along the table axes: axis-aligned extents of each card
    ext = qf.max(axis=1) - qf.min(axis=1)
    rows, cols = assign_rows_cols(centres, ext, c)
    zone_of = zones_of(zones, centres, quads, estimated)
    # one edge-adjacency grid per player zone, each anchored on that zone's own anchor card
    # (every Among the Stars player has a Main Reactor); without zones, one grid for the frame
    cells: list[tuple[int, int] | None] = [None] * n
    for z in dict.fromkeys(zone_of):
        members = [k for k in range(n) if zone_of[k] == z]
        anchor = None
        if c.anchor_id is not None:
            cand = [j for j, k in enumerate(members) if ids[k] == c.anchor_id]
            if cand:
                anchor = max(cand, key=lambda j: confs[members[j]])
        sub = assign_cells(centres[members], ups[members], sizes[members], anchor, c)
        for j, k in enumerate(members):
            cells[k] = sub[j]
    obs = []
    for k in range(n):
        cpx = quads[k].mean(axis=0)
        zone = zone_of[k]
        obs.append(CardObservation(ids[k], quads[k], (float(cpx[0]), float(cpx[1])),
                                   (float(centres[k][0]), float(centres[k][1])), _rotation_deg(ups[k]),
                                   rows[k], cols[k], cells[k], zone, confs[k], sources[k], estimated,
                                   crops[k] if crops is not None else None))
    obs.sort(key=lambda o: (o.row, o.col, o.center_px[0]))
    return obs
