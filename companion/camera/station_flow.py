"""The camera flow's part for a table with no player zones where the game finds the players' stations from the cards
(Among the Stars): whose each station is (:class:`companion.camera.station_seats.StationSeats`), the "whose station is
this?" questions for the stations left over (:mod:`companion.camera.station_ask`) with each station's picture
(:mod:`companion.camera.station_picture`), and withdrawing the questions that no longer fit. A part of
:class:`companion.camera.CameraFlow`, which holds the ``station_seats``, the
``station_questions``, the ``questions`` and the watchers."""

from __future__ import annotations

from typing import Any

from companion.camera.passes import TABLE, Sight
from companion.camera.questions import Observed, Question
from companion.camera.station_ask import StationQuestions, claims_in_force
from companion.camera.station_picture import StationPictures
from companion.camera.station_seats import StationSeats
from companion.i18n import Text

__all__ = ["CameraStations"]


class CameraStations:
    """Stations found on a table with no zones (mixed into :class:`companion.camera.CameraFlow`, which sets ``flow``,
    ``spec``, ``zones``, ``calibration``, ``station_seats``, ``station_questions``, ``station_pictures``, ``questions``,
    ``dismissed``,
    ``watchers`` and ``reader_notes``, and asks and withdraws questions)."""

    flow: Any
    spec: Any
    zones: Any
    calibration: Any
    station_seats: StationSeats
    station_questions: StationQuestions
    station_pictures: StationPictures
    questions: list[Question]
    dismissed: dict[str, str]
    watchers: dict[str, Any]
    reader_notes: list[Any]

    @property
    def finds_stations(self) -> bool:
        """Whether the players' stations are found from the cards (Among the Stars: each around its own Main Reactor,
        :mod:`companion.camera.station_seats`) because the table has no zones; else each zone is read as a player's."""
        return self.zones is None and callable(getattr(self.spec, "seats", None))

    def _stations(self, sight: Sight, names: list[str], ev: Any) -> dict[str, list[Any]]:
        """The whole table's cards of ``sight`` (:data:`TABLE`) as each player's station, cells counted from that
        player's reactor; the players whose station is not found or not told apart are left out, the table is told
        how to let the box know (in :attr:`reader_notes`) and asked whose each station left over is
        (:mod:`companion.camera.station_ask`; a question no longer fitting is withdrawn)."""
        seats = self.spec.seats(ev, self.flow.session.settings.get("seat_points") or {},
                                claims_in_force(self.flow.session))
        by_player = self.station_seats.assign(sight.cards.get(TABLE, []), [s for s in seats if s.name in names],
                                              self.calibration)
        if self.station_seats.note is not None:
            self.reader_notes.append(self.station_seats.note)
        self.reader_notes.extend(self.station_seats.between)   # a card as near to two stations: whose it may be
        # a player whose station is not seen on this read but whose place the box still knows (a hand or a card over
        # it) keeps their watcher and their build questions, ids and all: a phone answering one meanwhile is not
        # refused, and the station coming back is the same station. A player the box no longer knows (an answer
        # that told their station apart undone) loses them, so the builds are asked again once it is theirs again
        gone = [name for name in self.station_seats.unknown if name not in self.station_seats.where]
        lost = [q for q in self.questions if q.zone in gone]
        for q in lost:
            self.questions.remove(q)
            self._answered(q, Text("withdrawn: the box can no longer tell whose station it is"))
        for name in gone:
            self.watchers.pop(name, None)
        image = sight.plan.image
        fresh = self.station_questions.proposals(self.station_seats.unclaimed, (image.shape[1], image.shape[0]),
                                                 [q.proposal for q in self.questions if q.zone == TABLE],
                                                 self.station_seats.found, self.station_seats.reach)
        for q in self.questions:   # a station grown since it was asked about: the same question, in its words now
            if q.zone == TABLE and q.proposal.key in self.station_questions.renewed:
                old, q.proposal = q.proposal.key, self.station_questions.renewed[q.proposal.key]
                if old in self.dismissed:
                    self.dismissed[q.proposal.key] = self.dismissed.pop(old)
                self.keep_questions()
        keys = {p.key for p in fresh}
        stale = [q.proposal.key for q in self.questions if q.zone == TABLE and q.proposal.key not in keys]
        for q in self.questions:   # a later answer to one is told why it went
            if q.proposal.key in stale:
                self._answered(q, Text("withdrawn: the box now knows whose station it is, or no longer sees it"))
        self._take(TABLE, Observed(proposals=fresh, withdraw=stale))
        seen = len(self.station_seats.unclaimed)   # then the questions of stations hidden on this read
        outline = {p.key: u.outline for p, u in zip(fresh[:seen], self.station_seats.unclaimed, strict=True)}
        hidden = {p.key for p in fresh[seen:]}
        self.station_pictures.update(image, {q.id: outline[q.proposal.key] for q in self.questions
                                             if q.zone == TABLE and q.proposal.key in outline},
                                     keep=[q.id for q in self.questions if q.proposal.key in hidden])
        return by_player
