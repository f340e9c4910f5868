"""Whose station is whose, on a table with no saved player zones (Among the Stars at the table).

With no zones (no seats tapped in the Players step, or zones saved in table mm for a box that has lost its
calibration) the camera reads the whole table; :func:`vision.stations.find_stations` groups its cards into
stations, each around its own Main Reactor, with every card's cell counted from that reactor (rulebook 5.1 'Grid
and adjacency'). This module says which player each station belongs to, from what tells them apart, surest first:

1. the reactor itself: a Vak player's station grows from the Vak Main Reactor (rulebook 11 'Races'), every other
   player's from a Main Reactor;
2. where the player's station was on the reads before (a station does not travel across the table);
3. what the game has recorded for the player: the cards built at their cells (a station that holds them is theirs);
4. where the players sit: the seats tapped in the Players step (kept with the game when Start was tapped before the
   camera's first picture).

The box's even split of the table (the first player at the bottom edge, the others clockwise) is not used: nobody at a
table started without zones was shown it, and a station it gives the wrong player asks about the wrong player's
builds. What none of these settles is not guessed: those players' stations are not read, and the table is told once, in
:attr:`StationSeats.note`, how to let the box know (report a build on a phone, or tap the seats in the Players step).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from companion.i18n import Listing, Text
from vision.stations import find_stations

__all__ = ["MAX_STATIONS", "Seat", "StationSeats"]

MAX_STATIONS = 8
"""Stations weighed at most (the ones with most cards): Among the Stars seats 2-4 players (rulebook 2 'Setup'); a
few more allow for a stray reactor card on the table."""
_SAME_PLACE = 0.6
"""A station whose reactor lies within this share of a card's long side of where a player's reactor was read last
is taken for the same station."""


@dataclass(frozen=True)
class Seat:
    """One player as the matching sees them.

    Attributes:
        name: the player.
        anchor: the card id their station grows from (``"main_reactor"``, ``"vak_main_reactor"``).
        built: ``{(row, column): card id}`` the game has recorded in their station (the reactor's cell left out).
        point: where they sit, frame px (tapped in the Players step), or None.
    """

    name: str
    anchor: str
    built: Mapping[tuple[int, int], str] = field(default_factory=dict)
    point: tuple[float, float] | None = None


class StationSeats:
    """Matches the stations found on each read to the players (module doc); remembers where each player's station
    was.

    Args:
        min_confidence: a card read below this (0..1) does not count as a recorded card seen, nor a reactor read
            below it as a station's reactor.
        reactor: the anchor card's name as the players' edition prints it (said in :attr:`note`).
    """

    def __init__(self, min_confidence: float = 0.6, reactor: str = "Main Reactor") -> None:
        self.min_confidence = min_confidence
        self.reactor = reactor
        self.where: dict[str, tuple[float, float]] = {}
        """Each player's reactor as last read, frame px."""
        self.note: Text | None = None
        """What the table is told when some stations cannot be told apart (None: every player's station is known)."""
        self.unknown: tuple[str, ...] = ()
        """The players whose station this read could not tell apart."""

    def assign(self, cards: Sequence[Any], seats: Sequence[Seat], calibration: Any = None) -> dict[str, list[Any]]:
        """The cards of one whole-table read, by player, each with its cell counted from that player's reactor.

        Args:
            cards: the card reader's observations (:class:`vision.cards.CardObservation`: ``id``, ``corners`` frame
                px, ``confidence``).
            seats: the players, in seat order.
            calibration: the :class:`vision.table.TableCalibration` (the cards' adjacency in table mm), or None
                (in frame px).

        Returns:
            ``{player: [observations with ``cell`` and ``zone`` set]}`` for the players whose station was found and
            told apart; the others are left out (see :attr:`unknown` and :attr:`note`).
        """
        self.note, self.unknown = None, ()
        if not seats:
            return {}
        quads = np.array([np.asarray(c.corners, np.float64).reshape(4, 2) for c in cards]).reshape(-1, 4, 2)
        if calibration is not None and len(quads):
            quads = calibration.to_mm(quads.reshape(-1, 2)).reshape(-1, 4, 2)
        anchors = {s.anchor for s in seats}
        # a card read as a reactor below the bar (often the card beside the real one) starts no station: counted
        # from it, every cell of the station would be off; it still joins its neighbours as an unread card does
        ids = [None if c.id in anchors and float(c.confidence) < self.min_confidence else c.id for c in cards]
        found = find_stations(quads, ids, anchors, confidences=[float(c.confidence) for c in cards])
        stations = sorted(found.stations, key=lambda s: -len(s.members))[:MAX_STATIONS]
        centre = [np.asarray(cards[s.anchor].corners, np.float64).reshape(4, 2).mean(axis=0) for s in stations]
        reach = _SAME_PLACE * float(np.median([_long_side(c.corners) for c in cards])) if cards else 0.0
        score = np.full((len(seats), len(stations)), -np.inf)
        for p, seat in enumerate(seats):
            for k, st in enumerate(stations):
                if cards[st.anchor].id != seat.anchor:
                    continue   # a Vak station is a Vak player's (rulebook 11)
                s = 1.0
                at = self.where.get(seat.name)
                if at is not None and float(np.hypot(*(centre[k] - at))) <= reach:
                    s += 100.0
                s += 10.0 * self._built_seen(seat, st, cards)
                score[p, k] = s
        owner = self._settled(score)
        left = [p for p in range(len(seats)) if owner.get(p) is None]
        free = [k for k in range(len(stations)) if k not in owner.values()]
        if left and free:
            owner.update(self._by_seat(seats, left, free, centre, score))
        out: dict[str, list[Any]] = {}
        for p, k in owner.items():
            st, name = stations[k], seats[p].name
            self.where[name] = (float(centre[k][0]), float(centre[k][1]))
            out[name] = [replace(cards[i], cell=st.cells[i], zone=name) for i in st.members]
        unknown = [s.name for p, s in enumerate(seats) if p not in owner]
        self.unknown = tuple(unknown)
        if unknown and any(k not in owner.values() for k in range(len(stations))):
            self.note = Text("the box cannot tell whose station is whose for {players}: it finds each station from its "
                             "{reactor}, but nothing yet says which player it belongs to. Report a build on your phone "
                             "(tap the place on your station) and the box knows the station by it; or set the players' "
                             "seats: tap each player's seat on the picture of the table in the Players step when "
                             "setting up the game", players=Listing(unknown), reactor=self.reactor)
        return out

    def _built_seen(self, seat: Seat, station: Any, cards: Sequence[Any]) -> int:
        """The cards recorded for ``seat`` that ``station`` holds at their cell, less those it holds another card
        at (read at ``min_confidence`` or more)."""
        held = {st_cell: cards[i].id for i, st_cell in station.cells.items()
                if st_cell is not None and cards[i].id is not None and cards[i].confidence >= self.min_confidence}
        same = sum(1 for cell, card in seat.built.items() if held.get(cell) == card)
        other = sum(1 for cell, card in seat.built.items() if cell in held and held[cell] != card)
        return same - other

    @staticmethod
    def _settled(score: np.ndarray) -> dict[int, int]:
        """The players (rows) every best matching gives the same station (column): ``{player: station}``."""
        n, m = score.shape
        best, ways = -np.inf, []
        for pick in itertools.product(range(-1, m), repeat=n):
            taken = [k for k in pick if k >= 0]
            if len(taken) != len(set(taken)):
                continue
            total = sum(float(score[p, k]) for p, k in enumerate(pick) if k >= 0)
            if total == -np.inf:
                continue
            if total > best + 1e-9:
                best, ways = total, [pick]
            elif abs(total - best) <= 1e-9:
                ways.append(pick)
        if not ways:
            return {}
        return {p: ways[0][p] for p in range(n) if ways[0][p] >= 0 and all(w[p] == ways[0][p] for w in ways)}

    @staticmethod
    def _by_seat(seats: Sequence[Seat], left: list[int], free: list[int], centre: list[np.ndarray],
                 score: np.ndarray) -> dict[int, int]:
        """The seats tapped in the Players step settle the players ``left`` among the stations ``free``: the matching
        whose stations lie nearest their players' seats, all told (only when every one of them tapped a seat)."""
        if not all(seats[p].point is not None for p in left):
            return {}
        best, pick = np.inf, None
        if len(left) >= len(free):   # which players get the stations found (a reactor not read leaves one out)
            matchings = ([*zip(order, free, strict=True)] for order in itertools.permutations(left, len(free)))
        else:
            matchings = ([*zip(left, order, strict=True)] for order in itertools.permutations(free, len(left)))
        for pairs in matchings:
            if any(score[p, k] == -np.inf for p, k in pairs):
                continue
            cost = sum(float(np.hypot(*(centre[k] - np.asarray(seats[p].point)))) for p, k in pairs)
            if cost < best:
                best, pick = cost, pairs
        return dict(pick or [])


def _long_side(corners: Any) -> float:
    q = np.asarray(corners, np.float64).reshape(4, 2)
    sides = np.linalg.norm(q - np.roll(q, -1, axis=0), axis=1)
    return float(max(sides))
