""""Whose station is this?": one question per station the camera finds and cannot give a player (Among the Stars).

:class:`companion.camera.station_seats.StationSeats` leaves a station it cannot tell apart unread
(:attr:`~companion.camera.station_seats.StationSeats.unclaimed`). For each such station the table is asked, on the
touchscreen and the phones, whose it is: the question names the station by its cards, as its player finds them from
their own Main Reactor ("the Main Reactor with Customs (1 right of the Main Reactor)"), or, while nothing is built
beside the reactor yet, by where it lies in the camera's picture; each player it may belong to is one tap. The answer
is recorded as a ``station_claimed`` event (:data:`rules.among_the_stars.events.STATION_CLAIMED`): the camera gives
that station to that player from then on, across a restart, until the answer is undone (:func:`claims_in_force`).

A station keeps one question while it stays unclaimed (its id as first asked), so a phone answering it meanwhile
answers the question still waiting; its words, its place and the players it offers follow the station as the table
changes (a reactor first asked about bare is named by the card built beside it once that is identified, a card read
again as another is named as it is now, a player given another station is no longer offered:
:attr:`StationQuestions.renewed`), so the answer records the station as the players saw it; the question goes
once the station is told apart another way (a build reported on a phone), or once no station has been seen where it
lies for :data:`HIDDEN_READS` reads: a station hidden on a read or two (a hand resting over it, a card laid on it) keeps
its question, id and all, so a phone answering it meanwhile is not refused.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from companion.camera.questions import PLAYER_CHOICE, Proposal
from companion.camera.station_seats import Unclaimed
from companion.i18n import Listing, Text
from rules.among_the_stars.data import catalogue
from rules.among_the_stars.events import STATION_CLAIMED
from rules.among_the_stars.station import station_place

__all__ = ["HIDDEN_READS", "MAX_CARDS_NAMED", "StationQuestions", "claims_in_force", "picture_side", "station_words"]

HIDDEN_READS = 3
"""Reads a station asked about may go unseen (no station found where its reactor lay) and keep its question."""
MAX_CARDS_NAMED = 3
"""Cards named at most to tell a station apart (those nearest its reactor): more make the question too long to read."""


def _word(card_id: str) -> str:
    """A card's name as the players' edition prints it (the id as it is when the data does not know it)."""
    try:
        return catalogue().card(card_id).word
    except LookupError:
        return card_id


def picture_side(at: Sequence[float], size: Sequence[int]) -> Text:
    """Where ``at`` (frame px) lies in a picture ``size`` = (width, height) px: towards the side it is farthest out
    to, or in the middle (within the middle third both ways).

    Raises:
        ValueError: ``size`` is not two positive numbers.
    """
    width, height = (float(v) for v in size)
    if not (width > 0 and height > 0):
        raise ValueError(f"a picture's size is two positive numbers (px), got {size!r}")
    dx, dy = float(at[0]) / width - 0.5, float(at[1]) / height - 0.5
    if max(abs(dx), abs(dy)) < 1 / 6:
        return Text("in the middle of the camera's picture")
    if abs(dx) >= abs(dy):
        return Text("towards the right of the camera's picture") if dx > 0 else \
            Text("towards the left of the camera's picture")
    return Text("towards the bottom of the camera's picture") if dy > 0 else \
        Text("towards the top of the camera's picture")


def station_words(station: Unclaimed, reactor: str, size: Sequence[int] | None = None) -> Text:
    """A station as its player would recognise it: its reactor with the :data:`MAX_CARDS_NAMED` cards nearest it,
    each at its place from the reactor (:func:`rules.among_the_stars.station.station_place`); a reactor with nothing
    identified beside it yet, by where it lies in the camera's picture (``size``: (width, height) px; None: not said).

    Args:
        station: the station (its cards nearest the reactor first).
        reactor: its reactor's name as the players' edition prints it ("Main Reactor", "Vak Main Reactor").
        size: the camera picture's size, px.
    """
    named = [Text("{card} ({place})", card=_word(card), place=station_place(cell))
             for card, cell in station.cards[:MAX_CARDS_NAMED]]
    if named:
        return Text("the {reactor} with {cards}", reactor=reactor, cards=Listing(named))
    if size is None:
        return Text("a {reactor} with no card identified beside it yet", reactor=reactor)
    return Text("a {reactor} with no card identified beside it yet, {where}", reactor=reactor,
                where=picture_side(station.at, size))


def claims_in_force(session: Any) -> dict[str, tuple[float, float]]:
    """Each player's newest ``station_claimed`` still in force (not undone): ``{player: (x, y)}``, the reactor's place
    in the camera's picture, frame px (a row the box cannot read as two finite numbers is left out).

    ``session``: the game's :class:`companion.session_log.Session`."""
    applied = set(session.replay().applied)
    out: dict[str, tuple[float, float]] = {}
    for event in session.events():
        if event.kind != STATION_CLAIMED or event.seq not in applied or not isinstance(event.player, str):
            continue
        at = event.payload.get("at")
        try:
            x, y = (float(v) for v in at)
        except (TypeError, ValueError, OverflowError):
            continue
        if math.isfinite(x) and math.isfinite(y):
            out[event.player] = (x, y)
    return out


class StationQuestions:
    """The "whose station is this?" questions of one game's camera: one per unclaimed station, kept while it stays
    unclaimed (module doc).

    Args:
        reactor: a word for each anchor card id (``{"main_reactor": "Main Reactor", ...}``, the players' edition);
            an id not listed is named by the catalogue.
    """

    def __init__(self, reactor: Mapping[str, str] | None = None) -> None:
        self.reactor = dict(reactor or {})
        self.asked: list[Proposal] = []
        """The question of each station asked about, its place as first asked, its words as last asked."""
        self.unseen: dict[str, int] = {}
        """Each question kept for a station not seen (by its key): the reads in a row it has gone unseen."""
        self.renewed: dict[str, Proposal] = {}
        """On the last read, each question that no longer fits its station (other cards to name, other players to
        offer; by its :attr:`~companion.camera.questions.Proposal.key` as it was) -> the same question in the words,
        place and players of the station as it is now (the waiting question takes them, keeping its id)."""

    def proposals(self, unclaimed: Sequence[Unclaimed], size: Sequence[int] | None = None,
                  waiting: Sequence[Proposal] = (), found: Sequence[Sequence[float]] | None = None,
                  reach: float = 0.0) -> list[Proposal]:
        """The questions for this read's unclaimed stations: a station within its reach of one asked before (or of a
        question still ``waiting``, kept across a restart) keeps that question, renewed where it no longer fits the
        station (:attr:`renewed`); a new one gets its own; a question asked before whose station this read does not
        see at all (no station in ``found`` within ``reach`` of it) is kept as it is for :data:`HIDDEN_READS` reads;
        the other stations no longer unclaimed (told apart another way) are forgotten.

        Args:
            unclaimed: :attr:`companion.camera.station_seats.StationSeats.unclaimed` of this read.
            size: the camera picture's (width, height), px (names a station with nothing identified beside its
                reactor by where it lies).
            waiting: the camera's waiting questions (those of another kind are passed over).
            found: where every station this read found lies (:attr:`StationSeats.found`, frame px); None: every
                station asked about and no longer unclaimed is taken as seen.
            reach: how far (frame px) a station may lie from where it was and be the same station.

        Returns:
            One question per station of ``unclaimed``, in its order, then the questions kept for stations unseen.
        """
        known = [*self.asked, *(p for p in waiting if p.kind == STATION_CLAIMED and p not in self.asked)]
        kept: list[Proposal] = []
        self.renewed = {}
        for u in unclaimed:
            before = next((p for p in known if p not in kept and _near(p.payload.get("at"), u)), None)
            fresh = self._proposal(u, size)
            if before is not None and _outdated(before, fresh):   # named and offered as the station is now
                renewed = replace(before, text=fresh.text, payload=fresh.payload, choices=fresh.choices)
                self.renewed[before.key] = renewed
                before = renewed
            kept.append(before if before is not None else fresh)
        unseen: dict[str, int] = {}
        for p in known:   # a station not seen on this read: a hand over it, not a station told apart
            if p in kept or found is None or any(_within(p.payload.get("at"), at, reach) for at in found):
                continue
            reads = self.unseen.get(p.key, 0) + 1
            if reads <= HIDDEN_READS:
                unseen[p.key] = reads
                kept.append(p)
        self.unseen = unseen
        self.asked = kept
        return list(kept)

    def _proposal(self, u: Unclaimed, size: Sequence[int] | None) -> Proposal:
        reactor = self.reactor.get(u.anchor) or _word(u.anchor)
        text = Text("Whose station is this: {station}?", station=station_words(u, reactor, size))
        payload = {"at": [round(u.at[0], 1), round(u.at[1], 1)],
                   "cards": [[card, list(cell)] for card, cell in u.cards[:MAX_CARDS_NAMED]]}
        return Proposal("", text, STATION_CLAIMED, payload, choices=u.players, choice_key=PLAYER_CHOICE)


def _named(p: Proposal) -> set[tuple[str, tuple[int, ...]]]:
    """The cards a station question's words name, each ``(card id, cell)`` (a damaged kept row: none)."""
    cards = p.payload.get("cards")
    out = set()
    for row in cards if isinstance(cards, list) else ():
        try:
            card, cell = row
            out.add((str(card), tuple(int(v) for v in cell)))
        except (TypeError, ValueError, OverflowError):
            continue
    return out


def _outdated(before: Proposal, fresh: Proposal) -> bool:
    """Whether a waiting question no longer fits its station as this read finds it (``fresh``: the question this read
    would ask): other players it may be (another station was given a player), or a card it would name that the
    question does not (a card built beside the reactor, a card read again as another). A station showing only some of
    the cards named (a hand over one) keeps its words."""
    return tuple(before.choices) != tuple(fresh.choices) or not _named(fresh) <= _named(before)


def _near(at: Any, station: Unclaimed) -> bool:
    """Whether a question's place ``at`` ([x, y] frame px) lies within ``station``'s reach of its reactor."""
    return _within(at, station.at, station.reach)


def _within(at: Any, place: Sequence[float], reach: float) -> bool:
    """Whether a question's place ``at`` ([x, y] frame px; a damaged row: never) lies within ``reach`` px of
    ``place``."""
    try:
        x, y = (float(v) for v in at)
    except (TypeError, ValueError, OverflowError):
        return False
    return math.hypot(x - float(place[0]), y - float(place[1])) <= reach
