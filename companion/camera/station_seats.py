"""Whose station is whose, on a table with no saved player zones (Among the Stars at the table).

With no zones (no seats tapped in the Players step, or zones saved in table mm for a box that has lost its
calibration) the camera reads the whole table; :func:`vision.stations.find_stations` groups its cards into
stations, each around its own Main Reactor, with every card's cell counted from that reactor (rulebook 5.1 'Grid
and adjacency'). This module says which player each station belongs to, from what tells them apart, surest first:

1. the reactor itself: a Vak player's station grows from the Vak Main Reactor (rulebook 11 'Races'), every other
   player's from a Main Reactor;
2. what the players answered to the camera's "whose station is this?" (a ``station_claimed`` event: the reactor's
   place in the camera's picture), until it is undone;
3. where the player's station was on the reads before (a station does not travel across the table);
4. what the game has recorded for the player: the cards built at their cells (a station that holds them is theirs);
5. where the players sit: the seats tapped in the Players step (kept with the game when Start was tapped before the
   camera's first picture).

The box's even split of the table (the first player at the bottom edge, the others clockwise) is not used: nobody at a
table started without zones was shown it, and a station it gives the wrong player asks about the wrong player's
builds. What none of these settles is not guessed: those players' stations are not read, each such station is listed in
:attr:`StationSeats.unclaimed` (the camera asks the table whose it is, naming it by its cards), and the table is told
once, in :attr:`StationSeats.note`, how to let the box know. A table where no Main Reactor is identified reads no
station, and the note says so.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from companion.i18n import Listing, Text
from rules.among_the_stars.data import catalogue
from vision.stations import find_stations

__all__ = ["CLAIMED", "MAX_STATIONS", "Seat", "StationSeats", "Unclaimed"]

MAX_STATIONS = 8
"""Stations weighed at most (the ones with most cards): Among the Stars seats 2-4 players (rulebook 2 'Setup'); a
few more allow for a stray reactor card on the table."""
_SAME_PLACE = 0.6
"""A station whose reactor lies within this share of a card's long side of where a player's reactor was read last
is taken for the same station."""
CLAIMED = 1000.0
"""A station the players said is a player's (:attr:`Seat.claimed`) weighs more than every other sign together."""


@dataclass(frozen=True)
class Seat:
    """One player as the matching sees them.

    Attributes:
        name: the player.
        anchor: the card id their station grows from (``"main_reactor"``, ``"vak_main_reactor"``).
        built: ``{(row, column): card id}`` the game has recorded in their station (the reactor's cell left out).
        point: where they sit, frame px (tapped in the Players step), or None.
        claimed: where the reactor of the station the players said is theirs lies, frame px (the newest
            ``station_claimed`` in force), or None.
    """

    name: str
    anchor: str
    built: Mapping[tuple[int, int], str] = field(default_factory=dict)
    point: tuple[float, float] | None = None
    claimed: tuple[float, float] | None = None


@dataclass(frozen=True)
class Unclaimed:
    """A station found on one read that no player could be given.

    Attributes:
        at: its reactor card's centre, frame px.
        anchor: the card id it grows from (``"main_reactor"``, ``"vak_main_reactor"``).
        cards: ``((card id, (row, column)), ...)``: its cards identified at ``min_confidence`` or more, each at its
            cell from the reactor, the reactor left out, nearest the reactor first.
        players: the players it may belong to (those not given a station, whose reactor it is), in seat order.
        reach: how far (frame px) its reactor may lie from ``at`` on another read and be the same station.
        outline: the corners of every card of the station as read (its reactor first, then the others, whether
            identified or not), each ``((x, y), ...)`` four points, frame px: what is drawn beside the question so
            the table sees which station is meant (:mod:`companion.camera.station_picture`).
    """

    at: tuple[float, float]
    anchor: str
    cards: tuple[tuple[str, tuple[int, int]], ...]
    players: tuple[str, ...]
    reach: float = 0.0
    outline: tuple[tuple[tuple[float, float], ...], ...] = ()


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
        self.brief: Text | None = None
        """:attr:`note` short enough for the touchscreen's status lines, which show the question itself above (None:
        the note is short already, or there is none)."""
        self.unknown: tuple[str, ...] = ()
        """The players whose station this read could not tell apart."""
        self.unclaimed: tuple[Unclaimed, ...] = ()
        """The stations this read found and gave no player, each with the players it may be (module doc)."""
        self.between: tuple[Text, ...] = ()
        """For each card this read found lying about as near to two stations (:attr:`vision.stations.StationsFound
        .between`), what the table is told: which stations (by their players, once known) and to push it flush."""
        self.found: tuple[tuple[float, float], ...] = ()
        """Where the reactor of every station this read found lies (given a player or not), frame px."""
        self.reach = 0.0
        """How far (frame px) a reactor may lie from where it was on another read and be the same station."""
        self._claims: dict[str, tuple[float, float]] = {}   # the claims in force on the read before

    def assign(self, cards: Sequence[Any], seats: Sequence[Seat], calibration: Any = None) -> dict[str, list[Any]]:
        """The cards of one whole-table read, by player, each with its cell counted from that player's reactor.

        Args:
            cards: the card reader's observations (:class:`vision.observations.CardObservation`: ``id``,
                ``corners`` frame px, ``confidence``).
            seats: the players, in seat order.
            calibration: the :class:`vision.table.TableCalibration` (the cards' adjacency in table mm), or None
                (in frame px).

        Returns:
            ``{player: [observations with ``cell`` and ``zone`` set]}`` for the players whose station was found and
            told apart; the others are left out (see :attr:`unknown` and :attr:`note`).
        """
        self.note, self.brief, self.unknown, self.unclaimed, self.found = None, None, (), (), ()
        self.between = ()
        if not seats:
            return {}
        claims = {s.name: s.claimed for s in seats if s.claimed is not None}
        if set(self._claims) - set(claims):   # an answer undone: where it put every player is forgotten too (the
            self.where.clear()                 # others may have been told apart by it)
        self._claims = claims
        quads = np.array([np.asarray(c.corners, np.float64).reshape(4, 2) for c in cards]).reshape(-1, 4, 2)
        if calibration is not None and len(quads):
            quads = calibration.to_mm(quads.reshape(-1, 2)).reshape(-1, 4, 2)
        anchors = {s.anchor for s in seats}
        # a card read as a reactor below the bar (often the card beside the real one) starts no station: counted
        # from it, every cell of the station would be off; it still joins its neighbours as an unread card does
        ids = [None if c.id in anchors and float(c.confidence) < self.min_confidence else c.id for c in cards]
        found = find_stations(quads, ids, anchors, confidences=[float(c.confidence) for c in cards])
        stations = sorted(found.stations, key=lambda s: -len(s.members))[:MAX_STATIONS]
        if not stations:
            self.unknown = tuple(s.name for s in seats)
            self.note = Text("no {reactor} in view: the box finds each station from its {reactor}, so it reads none "
                             "now. Check that every {reactor} lies face up in the camera's view, uncovered, with its "
                             "station's cards flush against it", reactor=self.reactor)
            return {}
        centre = [np.asarray(cards[s.anchor].corners, np.float64).reshape(4, 2).mean(axis=0) for s in stations]
        reach = _SAME_PLACE * float(np.median([_long_side(c.corners) for c in cards])) if cards else 0.0
        self.found, self.reach = tuple((float(c[0]), float(c[1])) for c in centre), reach
        score = np.full((len(seats), len(stations)), -np.inf)
        for p, seat in enumerate(seats):
            for k, st in enumerate(stations):
                if cards[st.anchor].id != seat.anchor:
                    continue   # a Vak station is a Vak player's (rulebook 11)
                s = 1.0
                if seat.claimed is not None and float(np.hypot(*(centre[k] - np.asarray(seat.claimed)))) <= reach:
                    s += CLAIMED
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
        whose = {stations[k].anchor: seats[p].name for p, k in owner.items()}
        self.between = tuple(self._between(cards[i], [whose.get(a) for a in pair])
                             for i, pair in found.between.items())
        self.unclaimed = tuple(self._unclaimed(stations, cards, centre, seats, unknown, owner, reach))
        if unknown and self.unclaimed:
            self.note = Text("the box cannot tell whose station is whose for {players}: it finds each station from its "
                             "{reactor}, but nothing yet says which player it belongs to. Answer the camera's question "
                             "“whose station is this?” (one tap on the player), or report a build on your "
                             "phone (tap the place on your station) and the box knows the station by it",
                             players=Listing(unknown), reactor=self.reactor)
            self.brief = Text("stations not told apart ({players}): answer “whose station is this?” or report a "
                              "build on a phone", players=Listing(unknown))
        return out

    def _unclaimed(self, stations: Sequence[Any], cards: Sequence[Any], centre: list[np.ndarray],
                   seats: Sequence[Seat], unknown: list[str], owner: Mapping[int, int],
                   reach: float) -> list[Unclaimed]:
        """The stations no player was given, each with its identified cards and the players it may be (those left
        without a station whose reactor it grows from)."""
        taken = set(owner.values())
        out = []
        for k, st in enumerate(stations):
            anchor = cards[st.anchor].id
            players = tuple(s.name for s in seats if s.name in unknown and s.anchor == anchor)
            if k in taken or not players:
                continue
            held = sorted(((cards[i].id, cell) for i, cell in st.cells.items()
                           if i != st.anchor and cell is not None and cards[i].id is not None
                           and float(cards[i].confidence) >= self.min_confidence),
                          key=lambda c: (abs(c[1][0]) + abs(c[1][1]), c[1]))
            outline = tuple(tuple((float(x), float(y)) for x, y in np.asarray(cards[i].corners, np.float64)
                                  .reshape(4, 2)) for i in st.members)   # the reactor first
            out.append(Unclaimed((float(centre[k][0]), float(centre[k][1])), anchor, tuple(held), players, reach,
                                 outline))
        return out

    def _between(self, card: Any, players: Sequence[str | None]) -> Text:
        """What the table is told of ``card``, lying as near to two stations (``players``: each one's player, None
        while not known): which two (by the players known of them: both, one, or none), and to push it flush against
        its own (a station grows by cards sharing a full edge: Among the Stars rulebook, 5.1 'Grid and adjacency')."""
        what: Any = Text("a card")
        if card.id is not None and float(card.confidence) >= self.min_confidence:
            try:
                what = catalogue().card(card.id).word
            except LookupError:
                pass
        first, second = players
        if first is not None and second is not None:
            return Text("{card} lies as near to {first}'s station as to {second}'s: push it flush against the station "
                        "it belongs to (rulebook 5.1 'Grid and adjacency': a card shares a full edge with its "
                        "station)", card=what, first=first, second=second)
        if first is not None or second is not None:   # one station's player known (seated or answered), not the other's
            return Text("{card} lies as near to {player}'s station as to another station: push it flush against the "
                        "station it belongs to (rulebook 5.1 'Grid and adjacency': a card shares a full edge with its "
                        "station)", card=what, player=first if first is not None else second)
        return Text("{card} lies as near to one station as to another: push it flush against the station it belongs "
                    "to (rulebook 5.1 'Grid and adjacency': a card shares a full edge with its station)", card=what)

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
