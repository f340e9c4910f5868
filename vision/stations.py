"""Stations on a table with no player zones: the cards grouped by edge adjacency, each group around its own anchor.

Among the Stars (rulebook 5.1 'Grid and adjacency'): every station is a grid of cards grown from its player's Main
Reactor, each new card sharing a full edge with a card already there; stations of different players do not touch
(rulebook 10 'Limited Space': where two stations come close neither grows towards the other). So with no saved
split of the table into player zones, the cards themselves say where each station is:

1. two cards are *joined* when one lies one card width beside the other or one card height above or below it,
   along the first card's own axes, within ``tolerance`` of a card (:func:`joined`);
2. the joined cards form groups (connected components); a group holding one anchor card (a Main Reactor) is one
   station; a group holding several anchors (two stations pushed together) is split, each card going to the anchor
   it is fewest joins from (a card not :data:`MARGIN` joins nearer to it than to any other anchor is left out:
   :attr:`StationsFound.loose`); a group with no anchor is no station (a card laid aside, a reactor not identified yet);
3. each station's cards get their grid cell relative to its anchor, rows along the anchor's down and columns along
   its right, each card one step from the card it is joined to (so a camera's perspective, which makes far cards
   smaller, does not add up over a long station); a card joined to no card but lying within :data:`NEAR` of a
   station's card is that station's with no cell (it lies between cells; a card joined as near to two anchors is
   no station's, and so is a card joined to none lying about as near (:data:`TIE`) to two stations' cards:
   :attr:`StationsFound.between`).

Which player owns which station is not a question of geometry (``companion.camera.station_seats`` decides it).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

import numpy as np

__all__ = ["JOIN_TOLERANCE", "MARGIN", "NEAR", "TIE", "Station", "StationsFound", "find_stations", "joined"]

JOIN_TOLERANCE = 0.3
"""How far (a share of the card's width or height) a card's centre may lie off the place one card beside another
and still be joined to it: cards laid by hand are a few mm off, a card two places away is a whole card off."""
MARGIN = 2
"""Where stations touch (rulebook 10 'Limited Space': they never do, so the cards do not say where one ends), a card
goes to the anchor it is fewest joins from only when every other anchor is at least this many joins farther: the end
of one player's row touching another's station is one join nearer the other's reactor, not theirs."""
NEAR = 1.6
"""A card joined to no card whose centre lies within this many card sizes of a station's card is that station's, with
no cell (it lies between cells: the players are told to push it flush)."""
TIE = 0.15
"""A card joined to no card whose nearest card of one station is at most this share nearer than the nearest card of
another station (both within :data:`NEAR`) is as near to both: it is neither's (the players are told which two
stations it lies between)."""


@dataclass(frozen=True)
class Station:
    """One station found on the table.

    Attributes:
        anchor: index (into the cards given to :func:`find_stations`) of its anchor card.
        members: indices of its cards, the anchor first, then in index order.
        cells: ``{index: (row, column)}`` offsets from the anchor (rows down, columns right as the anchor reads), or
            None for a card of the station lying between cells.
    """

    anchor: int
    members: tuple[int, ...]
    cells: dict[int, tuple[int, int] | None]


@dataclass(frozen=True)
class StationsFound:
    """:func:`find_stations`'s answer: ``stations`` (ordered by their anchor's index), ``loose``, the indices of
    cards in no station (joined to no anchor, or as near to two anchors), and ``between``: each loose card joined to
    none that lies about as near to two stations (:data:`TIE`) -> those stations' anchors (nearest first)."""

    stations: tuple[Station, ...]
    loose: tuple[int, ...]
    between: dict[int, tuple[int, int]] = field(default_factory=dict)


def _frames(quads: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Centres, unit up vectors, unit right vectors and (width, height) of ordered quads float[N, 4, 2] (corners
    clockwise from the card's top-left, y down)."""
    centres = quads.mean(axis=1)
    up = (quads[:, 0] + quads[:, 1]) / 2 - (quads[:, 2] + quads[:, 3]) / 2
    up /= np.maximum(np.linalg.norm(up, axis=1), 1e-9)[:, None]
    right = np.stack([-up[:, 1], up[:, 0]], axis=1)   # a quarter turn clockwise on screen (y down)
    sides = np.linalg.norm(quads - np.roll(quads, -1, axis=1), axis=2)
    size = np.stack([(sides[:, 0] + sides[:, 2]) / 2, (sides[:, 1] + sides[:, 3]) / 2], axis=1)
    return centres, up, right, size


def joined(quads: np.ndarray, tolerance: float = JOIN_TOLERANCE) -> list[set[int]]:
    """Which cards share an edge: ``out[k]`` the indices of the cards joined to card ``k``.

    Args:
        quads: float[N, 4, 2] card corners, clockwise from each card's printed top-left, in one frame (table mm, or
            frame px): cards laid in one station read the same way up, so their axes agree.
        tolerance: share of a card's width/height (0 < tolerance < 0.5) a centre may lie off the joined place.

    Raises:
        ValueError: ``quads`` not of shape [N, 4, 2], or ``tolerance`` outside (0, 0.5).
    """
    q = np.asarray(quads, np.float64)
    if q.ndim != 3 or q.shape[1:] != (4, 2):
        raise ValueError(f"card corners must be float[N, 4, 2], got shape {q.shape}")
    if not 0.0 < tolerance < 0.5:
        raise ValueError(f"tolerance must be above 0 and below 0.5 of a card, got {tolerance}")
    n = len(q)
    out: list[set[int]] = [set() for _ in range(n)]
    if n < 2:
        return out
    centres, up, right, size = _frames(q)
    for k in range(n):
        d = centres - centres[k]
        pitch = (size + size[k]) / 2                                 # [N, 2]: the pair's width, height
        across = (d @ right[k]) / np.maximum(pitch[:, 0], 1e-9)     # columns to the right
        down = -(d @ up[k]) / np.maximum(pitch[:, 1], 1e-9)         # rows down
        beside = (np.abs(np.abs(across) - 1.0) <= tolerance) & (np.abs(down) <= tolerance)
        above = (np.abs(np.abs(down) - 1.0) <= tolerance) & (np.abs(across) <= tolerance)
        for m in np.flatnonzero(beside | above):
            if m != k:
                out[k].add(int(m))
                out[int(m)].add(k)
    return out


def find_stations(quads: np.ndarray, ids: Sequence[str | None], anchors: Collection[str],
                  tolerance: float = JOIN_TOLERANCE, confidences: Sequence[float] | None = None) -> StationsFound:
    """Group the cards read on a table into stations, each around its own anchor card (module doc).

    Args:
        quads: float[N, 4, 2] card corners (as :func:`joined`), table mm with a calibration, else frame px.
        ids: each card's id as read (None: not identified; such a card still joins its neighbours).
        anchors: the ids a station grows from (Among the Stars: ``"main_reactor"``, ``"vak_main_reactor"``).
        tolerance: as :func:`joined`.
        confidences: how sure each card's reading is (0..1; None: all alike). A station's cards are laid the same way
            up (each player lays them facing themselves), so its rows run along the way the station's cards read,
            each counted by its confidence: a reactor read unsure, whose up the reader may have turned half round,
            does not turn the whole station's cells.

    Returns:
        :class:`StationsFound`.

    Raises:
        ValueError: ``ids`` or ``confidences`` not one per card, or as :func:`joined`.
    """
    q = np.asarray(quads, np.float64).reshape(-1, 4, 2) if len(quads) else np.zeros((0, 4, 2))
    if len(ids) != len(q):
        raise ValueError(f"{len(ids)} card ids for {len(q)} cards")
    if confidences is not None and len(confidences) != len(q):
        raise ValueError(f"{len(confidences)} confidences for {len(q)} cards")
    weight = np.ones(len(q)) if confidences is None else np.clip(np.asarray(confidences, np.float64), 0.0, 1.0)
    links = joined(q, tolerance)
    heads = [k for k, card in enumerate(ids) if card is not None and card in anchors]
    owner, loose = _owners(links, heads)
    if not heads:
        return StationsFound((), tuple(loose))
    centres, up, right, size = _frames(q)
    near_loose: dict[int, int] = {}
    between: dict[int, tuple[int, int]] = {}
    for k in (k for k in loose if not links[k]):   # a card off the grid beside a station: in it, with no cell
        nearest: dict[int, float] = {}   # each station's anchor -> its card nearest this one, in card sizes
        for m, a in owner.items():
            nearest[a] = min(nearest.get(a, np.inf), float(np.hypot(*((centres[m] - centres[k]) / size[m]))))
        ranked = sorted((d, a) for a, d in nearest.items() if d <= NEAR)
        if len(ranked) > 1 and ranked[1][0] <= ranked[0][0] * (1 + TIE):
            between[k] = (ranked[0][1], ranked[1][1])   # as near to two stations: neither's
        elif ranked:
            near_loose[k] = ranked[0][1]
    stations = []
    for a in heads:
        members = [a] + [k for k in range(len(q)) if owner.get(k) == a and k != a]
        turn = 1.0 if float(up[a] @ (weight[members] @ up[members])) >= 0 else -1.0   # the way the station reads
        cells: dict[int, tuple[int, int] | None] = dict(_steps(a, links, owner, centres, turn * up[a],
                                                               turn * right[a], size))
        extra = [k for k, b in near_loose.items() if b == a]
        members += extra
        stations.append(Station(a, tuple(members), {k: cells.get(k) for k in members}))
    return StationsFound(tuple(stations), tuple(k for k in loose if k not in near_loose), between)


def _owners(links: list[set[int]], heads: list[int]) -> tuple[dict[int, int], list[int]]:
    """Each card's anchor, the one fewest joins away (``{card: anchor}``, an anchor its own), and the cards with none
    or with another anchor fewer than :data:`MARGIN` joins farther (two stations pushed together)."""
    dist: list[dict[int, int]] = [{} for _ in links]
    for a in heads:
        dist[a][a] = 0
        todo = deque([a])
        while todo:
            k = todo.popleft()
            for m in links[k]:
                if a not in dist[m] and m not in heads:
                    dist[m][a] = dist[k][a] + 1
                    todo.append(m)
    owner: dict[int, int] = {a: a for a in heads}
    loose = []
    for k, near in enumerate(dist):
        if k in owner:
            continue
        closest = [a for a, d in near.items() if d <= min(near.values()) + MARGIN - 1]
        if len(closest) == 1:
            owner[k] = closest[0]
        else:
            loose.append(k)
    return owner, loose


def _steps(a: int, links: list[set[int]], owner: dict[int, int], centres: np.ndarray, up: np.ndarray,
           right: np.ndarray, size: np.ndarray) -> dict[int, tuple[int, int]]:
    """The cells of anchor ``a``'s cards, each one step from the card it is joined to along the anchor's axes
    (``up``, ``right``: its unit vectors), so a camera's perspective does not add up along a long station."""
    cells = {a: (0, 0)}
    todo = deque([a])
    while todo:
        k = todo.popleft()
        for m in sorted(links[k]):
            if owner.get(m) != a or m in cells:
                continue
            d = centres[m] - centres[k]
            pitch = (size[m] + size[k]) / 2
            cells[m] = (cells[k][0] + round(float(-(d @ up)) / pitch[1]),
                        cells[k][1] + round(float(d @ right) / pitch[0]))
            todo.append(m)
    return cells
