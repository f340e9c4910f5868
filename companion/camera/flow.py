"""The camera inside a game flow: still table -> the game's read passes -> one-tap questions.

Shared by every game with a camera part. What differs per game (the readers and passes it declares, which
watcher follows a player's zone, what a change becomes as an event) is in each game's
:class:`~companion.camera.spec.CameraSpec` (``companion/flows/*.py``, ``spec.camera``); this module does the
rest:

- **scheduling** (:meth:`CameraFlow.schedule` / :meth:`CameraFlow.due`): when the main loop's
  stillness detector says the scene became still (or a view asks ``read_now``), ``confirm_reads``
  reads are taken, ``reread_s`` seconds apart, while the scene stays still (the watchers only
  accept a layout that ``confirm_reads`` consecutive reads agree on). One read by default: the table's
  stillness confirms a change (0.2 s quiet over the whole table, an arm reaching in waits until it leaves;
  :mod:`companion.reading`), not a second read;
- **what is read again**: the detector's change boxes go with the read (:func:`vision.incremental.read_changes`):
  the cards, tiles and dice whose place did not change keep their identity and only the windows around the
  changes are read (a read a player asked for reads it all); the camera's mirror is decided on the first read
  with cards of the deck (:func:`vision.cards.decide_mirror`) unless the calibration already holds it, and kept
  (``on_mirror``); what a reader tells the players (``Sighting.notes``) is in the view; the card pass's first look
  reads first, the dice pass is told the tiles it found (their print is no die) and the card pass's second look where
  the dice lie (``order``, :mod:`vision.dice_and_cards`);
- **the read** (:meth:`CameraFlow.read`): the passes the game declares (:mod:`companion.camera.passes`) whose
  reader the box has: the card pass (:func:`vision.cards.read_cards` with the deck, the table calibration and
  the player zones; each player's zone goes to that player's watcher; with a calibration the markers are
  re-checked: moved -> said on both views), the map pass (:func:`vision.hexes.read_hexes` with a hex deck, only
  what changed read again: the whole table's hexes to the map's one watcher), then at most one dice pass per still
  table (the first one the game wants: Roll's end-of-game count, else its phase proposals; Eclipse's combat dice,
  a pass declared ``off_map``: read after the map pass, with the hexes it found in the same frame painted out);
- **questions**: every change the camera sees is a :class:`~companion.camera.questions.Question` ("Ann built
  Customs at [0, 1]?"); nothing changes the game until a player answers it with one tap: ``camera_confirm``
  records the question's event with ``origin="camera"``, ``camera_dismiss`` drops it. Misplays (Among the Stars)
  are what the rules engine finds when the proposed event is previewed (:mod:`companion.camera.preview`), shown
  at once with the rule and the fix, before anyone answers.

Parts of :class:`CameraFlow` by idea, each in its own module: when a read is taken (:mod:`companion.camera.schedule`),
what one read sees (:mod:`companion.camera.seeing`), the answers (:mod:`companion.camera.answers`), the stations of a
table with no zones (:mod:`companion.camera.station_flow`).

A read that raises (a bad frame, a reader bug) is reported on the views and changes nothing:
everything recorded stays in the session log. A read on the worker that ends after the game moved on (a report, an
answer, Next or Undo recorded while it ran) is not applied to the game it was not planned for: what it saw is kept and
the still table is planned again at once (:meth:`CameraFlow.collect`).

The camera block of the published view (``view["camera"]``)::

    {"cards": true, "hexes": false, "dice": false, "calibrated": true, "reads": 4,
     "state": "idle" | "reading", "stuck": false, "message": "read 7 cards",
     "markers": null | {"moved": [ids], "message": "..."},
     "questions": [{"id": 3, "player": "Ann", "text": "Ann built Customs at [0, 1]?", "kind": "location_built",
                    "payload": {...}, "choices": [...], "choice": null | "develop", "error": null | "...",
                    "choose_player": false, "picture": null | "/picture/station-3.jpg?v=..."}],
     "misplays": [{"player", "card", "cell", "rule", "source", "message", "fix", "severity"}],
     "notes": {"Ann": ["Contact Specialist is recorded but not seen", ...]},
     "reader_notes": ["the cards read as if the camera image were mirrored ..."],
     "reader_briefs": the same, each short enough for the touchscreen's status lines,
     "covers": ["card", "start"],
     "count": null | {"next": "cup" | null, "prompt": "..."}}
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.camera.answers import CameraAnswers
from companion.camera.hexmap import seen_hexes
from companion.camera.passes import (
    TABLE,
    CardPass,
    CountPass,
    DicePass,
    MapPass,
    ReadPlan,
    Sight,
)
from companion.camera.questions import READ, Observed, Proposal, Question
from companion.camera.schedule import CameraSchedule
from companion.camera.seeing import CameraSeeing, _default_read_cards, _default_read_hexes
from companion.camera.spec import CameraSpec
from companion.camera.station_ask import StationQuestions
from companion.camera.station_flow import CameraStations
from companion.camera.station_picture import StationPictures
from companion.camera.station_seats import StationSeats
from companion.camera.watch import seen_cards
from companion.i18n import Text, _, os_reason, say
from rules import BadEvent, Event, UnknownEvent
from vision.cards import MIRROR_NOTE
from vision.dice_and_cards import ORDERS
from vision.table import even_zones

__all__ = ["CONFIRM_READS", "CameraFlow", "MAX_QUESTIONS", "MIRROR_TRIES", "READ_TIMEOUT_S", "REREAD_S"]

log = logging.getLogger(__name__)

CONFIRM_READS = 1
"""Identical consecutive reads a watcher needs before it reports a change: one, the table's stillness confirms it
(the loop's stillness detector, :mod:`companion.reading`); a caller without one may ask for 2."""
REREAD_S = 0.5
"""Seconds between the reads taken while the table stays still."""
MAX_QUESTIONS = 20
"""Questions kept waiting at most (the oldest are dropped past this; the watcher asks again)."""
MIRROR_TRIES = 3
"""Reads that try to decide the camera's mirror (each with a card read more) before it is left as the camera gives
it (a read whose cards fit the deck better flipped then says so: ``reader_notes``)."""
#: What the readers tell the players, through the box's catalog (``vision`` has no languages): the reader's words
#: -> the same words as a :class:`Text`. A note not listed here is shown as the reader wrote it.
READER_NOTES = {MIRROR_NOTE: Text("the cards read as if the camera image were mirrored (left and right swapped): "
                                  "turn the camera's mirror off, or set the box to read mirrored images")}
READ_TIMEOUT_S = 30.0
"""Seconds a read on the worker may take before it is abandoned (a card read takes about 1 s on a 1280x720
frame here and several on a Pi; a read past this is stuck: a camera or OpenCV call that blocks)."""


# -- the flow ----------------------------------------------------------------------------------------


class CameraFlow(CameraSchedule, CameraStations, CameraAnswers, CameraSeeing):
    """The camera's part of one game flow: reads on a still table, watchers per player, questions.

    Args:
        flow: the :class:`companion.flow.GameFlow` (its spec must have a ``camera``).
        deck: the enrolled :class:`vision.deck.DeckProfile`: the ``"cards"`` reader, or with ``shape == "hex"`` the
            ``"hexes"`` reader (None: nothing laid out is read).
        calibration: the :class:`vision.table.TableCalibration` (None: positions in pixels).
        zones: the player zones (:class:`vision.table.Zones`, named by player); None: from the
            session's settings (``"zones"``), else the table split evenly on the first frame.
        dice_reader: the ``"roll_dice"`` reader: a Roll for the Galaxy dice reader (``vision.roll_dice.RollDiceReader``,
            or its :class:`vision.readers.RollDiceAdapter`: anything whose ``read(image)`` has ``dice``) or None.
        confirm_reads: identical consecutive reads needed before a change is asked about (>= 1).
        reread_s: seconds between the reads taken while the table stays still.
        min_confidence: identifications below this (0..1) are never built on.
        image_dir: where the frame behind a dice proposal is saved (JPEG) so a corrected read can
            be enrolled later; None: not saved (the replayed photo's path is kept when there is one).
        read_cards: the card reader (:func:`vision.cards.read_cards`; injectable for tests).
        read_hexes: the hex reader (:func:`vision.hexes.read_hexes`; injectable for tests).
        read_timeout_s: seconds a read started with :meth:`begin` may take; then it is abandoned and said on
            both views, no new read starts until the stuck one ends, and its late result is ignored.
        clock: seconds, monotonic, for ``read_timeout_s`` (real time: a read's duration is the worker's).
        mirror: whether the camera mirrors the table for this deck (True/False: decided, e.g. kept with the
            calibration by ``companion calibrate --deck``); None: decided on the first read with enough cards.
        on_mirror: called with the mirror once it is decided on a read (to keep it; loop's thread).
        order: how the dice pass and the card pass of one frame are read (:data:`vision.dice_and_cards.ORDERS`):
            ``"tiles_first"``, the card pass's first look first, the dice pass told the tiles found (a face their
            print explains is not matched), then the card pass's second look where it would run, told where the
            dice lie; ``"explained"``, the dice first and the card pass told where they lie (its second look skips
            them);
            ``"beside"``, the dice on a second thread while the card pass reads; ``"serial"``, the cards first.

    Raises:
        ValueError: the game has no camera part, ``confirm_reads`` < 1, or ``order`` is none of the orders.
    """

    def __init__(self, flow: Any, *, deck: Any = None, calibration: Any = None, zones: Any = None,
                 dice_reader: Any = None, confirm_reads: int = CONFIRM_READS, reread_s: float = REREAD_S,
                 min_confidence: float = 0.6, image_dir: Path | None = None,
                 read_cards: Callable[..., Any] = _default_read_cards, read_timeout_s: float = READ_TIMEOUT_S,
                 clock: Callable[[], float] = time.monotonic, mirror: bool | None = None,
                 on_mirror: Callable[[bool], None] | None = None, order: str = "tiles_first",
                 read_hexes: Callable[..., Any] = _default_read_hexes) -> None:
        spec = flow.spec.camera
        if spec is None:
            raise ValueError(f"{flow.spec.title} has no camera part")
        if confirm_reads < 1:
            raise ValueError(f"confirm_reads must be at least 1, got {confirm_reads}")
        if order not in ORDERS:
            raise ValueError(f"order must be one of {', '.join(ORDERS)}, got {order!r}")
        self.flow = flow
        self.spec: CameraSpec = spec
        self.deck = deck
        self.calibration = calibration
        self.dice_reader = dice_reader
        self.confirm_reads = confirm_reads
        self.reread_s = reread_s
        self.min_confidence = min_confidence
        self.image_dir = image_dir
        self._read_cards = read_cards
        self._read_hexes = read_hexes
        self._table_memory: Any = None   # the table's colours, kept from one whole card read to the next
        self.zones = zones if zones is not None else self._settings_zones()
        self.station_seats = StationSeats(min_confidence, getattr(spec, "anchor_word", "Main Reactor"))
        """Whose station is whose when the table has no zones and the game finds stations on it
        (:attr:`finds_stations`)."""
        self.station_questions = StationQuestions(getattr(spec, "anchor_words", None))
        """"Whose station is this?" for each station found and given no player."""
        self.station_pictures = StationPictures()
        """The picture of each station asked about (by question id), shown beside its question."""
        self.watchers: dict[str, Any] = {}
        self.map_watcher: Any = None
        """The watcher of the shared map (a :class:`~companion.camera.passes.MapPass`), made on the first map read."""
        self.questions: list[Question] = []
        self.dismissed: dict[str, str] = {}
        """Changes the players dismissed (:attr:`Proposal.key` -> the zone read that proposed it): not asked again
        while that zone's reads keep proposing them."""
        self.answered: dict[int, tuple[Any, Any]] = {}
        """The last questions answered (id -> (question text, what the answer did)): a second answer to one of them
        (another phone's, sent at the same time) is told it was already answered, and how."""
        self.misplays: dict[str, list[dict[str, Any]]] = {}
        self.notes: dict[str, list[str]] = {}
        self.markers: dict[str, Any] | None = None
        self.message = ""
        self.reads = 0
        self._next_id = 1
        self._pending: Future | None = None
        self._began_at = 0.0  # the loop's clock when the pending read began
        self._stuck: Future | None = None  # an abandoned read still running on the worker
        self.read_timeout_s = read_timeout_s
        self._clock = clock
        self._left = 0
        self._next_at = 0.0
        self._dice_done = False
        self._looked_seq = -1  # the game's last event when :meth:`catch_up` last looked
        # DeckProfile.shape; a deck without is cards
        hexes = deck is not None and getattr(deck, "shape", "card") == "hex"
        self.readers = {
            name
            for name, reader in (
                ("cards", None if hexes else deck),
                ("hexes", deck if hexes else None),
                ("roll_dice", dice_reader),
            )
            if reader is not None
        }
        """The readers the box has, by the name the passes use."""
        self.passes = tuple(p for p in self.spec.passes if p.reader in self.readers)
        """The game's declared passes this box can run."""
        self.counter: CountPass | None = next((p for p in self.passes if isinstance(p, CountPass)), None)
        """The count pass (Roll's end-of-game dice count), or None."""
        self.count_place: str | None = self.counter.places[0] if self.counter is not None else None
        """The count's next step, None when done or not counted."""
        self.count_seen: dict[str, list[dict[str, Any]]] = {}
        """Each player's dice ``{colour: n}`` seen in the count's last step (the next step counts the difference)."""
        self.unsaved: Exception | None = None
        """The :class:`companion.errors.StorageError` that kept a read's events from being written (the loop
        shows it and clears this); the read's questions are still asked."""
        self.mirror = mirror
        """Whether the camera mirrors the table for the deck (None: not decided yet)."""
        self.on_mirror = on_mirror
        self.order = order
        self.reader_notes: list[str] = []
        """What the readers told the players on the last read (``Sighting.notes``)."""
        self._epoch = 0  # still tables scheduled
        self._boxes: Any = None  # what changed since the read before, for the first read of this still table
        self._asked = False  # a player asked for this still table's reads
        self._first = False  # the next read is this still table's first
        self._seen: dict[str, Any] = {}  # each reader's sighting of the last read
        self._seen_epoch = -1
        self._helper: ThreadPoolExecutor | None = None  # the dice pass beside the card pass
        self._mirror_tries = 0  # reads that could not decide the mirror
        self.resume_questions()  # the questions that waited when the box stopped

    @property
    def enabled(self) -> bool:
        """Whether there is anything to read with (a pass whose reader the box has)."""
        return bool(self.passes)

    def _settings_zones(self) -> Any:
        raw = self.flow.session.settings.get("zones")
        if not raw:
            return None
        from vision.table import Zones

        zones = Zones.from_json(raw)
        if zones.units == "mm" and self.calibration is None:
            log.warning("%s", _("the players' zones were saved in table mm but the box has no table calibration: the "
                                "table is split evenly among the players (run companion calibrate to use the zones)"))
            return None
        return zones

    # -- the read ----------------------------------------------------------------------------
    def plan(self, frame: Any, now: float, photo: str | None = None) -> ReadPlan:
        """Decide what one read looks at, from the game state (on the loop's thread).

        Counts the read against :meth:`schedule`'s ``confirm_reads``, splits the table into even zones
        on the first frame when there are none, and picks the once-per-still-table pass: the first of the
        game's declared dice and count passes it wants now (Roll: ``"count"`` at the end, ``"phase"`` before
        Reveal), or None.

        Raises:
            ValueError: the calibration was made for another frame size (run ``companion calibrate``).
        """
        self._left = max(0, self._left - 1)
        self._next_at = now + self.reread_s
        first, self._first = self._first, False
        boxes = self._boxes if first else []  # a confirming read: the table stayed still since the first
        previous = self._seen if self._seen_epoch in (self._epoch - 1, self._epoch) else {}
        image = frame.image
        names = tuple(self.flow.names)
        if self.zones is None and not self.finds_stations:
            self.zones = even_zones(names, (image.shape[1], image.shape[0]), self.calibration)
        if self.calibration is not None and tuple(self.calibration.frame_size) != (image.shape[1], image.shape[0]):
            size = "{}x{}".format(*self.calibration.frame_size)
            given = f"{image.shape[1]}x{image.shape[0]}"
            self.markers = {
                "moved": [],
                "message": Text(
                    "the calibration is for {size} frames, the camera gives {given}: run companion calibrate again",
                    size=size,
                    given=given,
                ),
            }
            raise ValueError(self.markers["message"])
        ev = self.flow.engine_view()
        anchors: dict[str | None, list[str]] = {}
        if any(isinstance(p, CardPass) for p in self.passes):
            if self.finds_stations:  # one read of the whole table: the stations are found in it (see :meth:`_apply`)
                anchors[None] = list(names)
            else:
                for name in names:
                    anchors.setdefault(self.spec.anchor(name, ev), []).append(name)
        counting = self.counting(ev)
        chosen = None
        if not self._dice_done:
            chosen = next((p for p in self.passes if self._wanted(p, ev)), None)
            self._dice_done = chosen is not None  # one dice pass per still table
        board = next((p for p in self.passes if isinstance(p, MapPass)), None)
        return ReadPlan(image=image, photo=photo, names=names,
                        anchors={k: tuple(v) for k, v in anchors.items()}, dice=None if chosen is None else chosen.name,
                        count_place=self.count_place if isinstance(chosen, CountPass) else None, counting=counting,
                        boxes=None if boxes is None else list(boxes), previous=dict(previous),
                        mirror=self.mirror if self.mirror is not None else (
                            False if self._mirror_tries >= MIRROR_TRIES else None),
                        asked=self._asked, epoch=self._epoch, map_anchor=None if board is None else board.anchor,
                        seq=self.flow.session.last_seq)

    def counting(self, ev: Any) -> bool:
        """Whether the count applies now (the game wants it and a step is left)."""
        return self.counter is not None and self.count_place is not None and self.counter.wanted(ev)

    def _wanted(self, p: Any, ev: Any) -> bool:
        if isinstance(p, CountPass):
            return self.counting(ev)
        return isinstance(p, DicePass) and p.wanted(ev)

    def apply(self, sight: Sight) -> list[Event]:
        """Feed a :class:`~companion.camera.passes.Sight` to every player's watcher and ask about what changed
        (loop's thread).

        Returns:
            The events recorded at once (Among the Stars' ``station_read``). The questions waiting are kept with the
            game when the read changed them (:meth:`keep_questions`).
        """
        before = [q.id for q in self.questions]
        try:
            return self._apply(sight)
        finally:
            if [q.id for q in self.questions] != before:
                self.keep_questions()

    def _apply(self, sight: Sight) -> list[Event]:
        plan = sight.plan
        names = [n for n in plan.names if n in self.flow.names]
        ev = self.flow.engine_view()
        recorded: list[Event] = []
        self.reads += 1
        counted = 0
        asked_before = len(self.questions)
        self._keep(sight)
        if plan.anchors:
            self.markers = sight.markers
            counted = sum(len(v) for v in sight.cards.values())
            by_player = self._stations(sight, names, ev) if TABLE in sight.cards else sight.cards
            for name in names:
                if by_player is not sight.cards and name not in by_player:
                    continue  # a station not found or not told apart: nothing is read for it (never taken as gone)
                watcher = self.watchers.get(name)
                if watcher is None:
                    watcher = self.watchers[name] = self.spec.watcher(name, ev, self.confirm_reads, self.min_confidence)
                seen = seen_cards(by_player.get(name, []))
                observed = self.spec.observe(watcher, name, seen, ev, self.flow)
                if observed is None:
                    continue
                recorded += self._take(name, observed)
                ev = self.flow.engine_view()
        if sight.hexes is not None:
            self.markers = sight.markers
            counted += len(sight.hexes)
            if self.map_watcher is None:
                self.map_watcher = self.spec.map_watcher(ev, self.confirm_reads, self.min_confidence)
            observed = self.spec.observe_map(self.map_watcher, seen_hexes(sight.hexes), ev, self.flow)
            if observed is not None:
                recorded += self._take(TABLE, observed)
                ev = self.flow.engine_view()
        chosen = next((p for p in self.passes if getattr(p, "name", None) == plan.dice), None)
        if isinstance(chosen, CountPass) and sight.dice is not None:
            self._count(chosen, plan, names, ev, counted, sight.dice)
            return recorded
        if plan.counting:  # the other reads of a still table keep the count's message (what to do next)
            return recorded
        if isinstance(chosen, DicePass) and sight.dice is not None:
            path = self._save_image(plan.image, "dice") or plan.photo
            for p in self._supersede(chosen.propose(sight.dice, ev, path)):
                self._ask(p)
        self.message = self._said(sight, counted, isinstance(chosen, DicePass),
                                  plan.asked and not recorded and len(self.questions) <= asked_before)
        return recorded

    def _said(self, sight: Sight, counted: int, dice_read: bool, same: bool) -> Text:
        """The read's message: what it counted (``counted`` cards or hexes, the dice of ``sight`` when ``dice_read``),
        or "same as before" when a player asked and nothing new came of it (``same``); a game read for its dice alone
        (no card pass) says nothing of cards."""
        dice = sum(len(v) for v in sight.dice.values()) if dice_read and sight.dice is not None else None
        if same and sight.hexes is not None:
            return Text("same as before: hexes {hexes}", hexes=counted)
        if same and self.card_pass:
            return Text("same as before: cards {cards}", cards=counted)
        if same and dice is not None:
            return Text("same as before: dice {dice}", dice=dice)
        if sight.hexes is not None:
            return (Text("camera read {read}: hexes {hexes}", read=self.reads, hexes=counted) if dice is None
                    else Text("camera read {read}: hexes {hexes}, dice {dice}", read=self.reads, hexes=counted,
                              dice=dice))
        if not self.card_pass:
            return (Text("camera read {read}: no dice to read now", read=self.reads) if dice is None
                    else Text("camera read {read}: dice {dice}", read=self.reads, dice=dice))
        return (Text("camera read {read}: cards {cards}", read=self.reads, cards=counted) if dice is None
                else Text("camera read {read}: cards {cards}, dice {dice}", read=self.reads, cards=counted, dice=dice))

    @property
    def card_pass(self) -> bool:
        """Whether the box reads the game's cards or tiles (a :class:`~companion.camera.passes.CardPass` with a deck):
        a game read for its dice alone says nothing of cards."""
        return any(isinstance(p, CardPass) for p in self.passes)

    def _keep(self, sight: Sight) -> None:
        """Keep what this read saw for the next one, the mirror it decided, what the readers told the players."""
        plan = sight.plan
        if plan.epoch >= self._seen_epoch:
            self._seen = {**(self._seen if plan.epoch == self._seen_epoch else {}), **sight.sightings}
            self._seen_epoch = plan.epoch
        self.reader_notes = [READER_NOTES.get(n, n) for n in sight.notes]
        if plan.mirror is None and sight.mirror is None and plan.anchors:
            self._mirror_tries += 1
        if sight.mirror is not None and self.mirror is None:
            self.mirror = sight.mirror
            log.info("the camera %s the table for this deck (decided on a read)",
                     "mirrors" if sight.mirror else "does not mirror")
            if self.on_mirror is not None:
                try:
                    self.on_mirror(sight.mirror)
                except Exception:  # keeping it is a convenience: the game goes on
                    log.exception("the mirror could not be kept")

    def _count(self, count: CountPass, plan: ReadPlan, names: list[str], ev: Any, cards: int,
               dice: dict[str, list[dict[str, Any]]]) -> None:
        """One step of the count (Roll for the Galaxy, p.8 Victory): ask each player "Ann: 3 white, 1 red in the
        cup?" from ``dice`` read in every zone, then move on to the next step."""
        place = plan.count_place
        if place is None or place != self.count_place:
            return  # a count answered or restarted while this read ran: the next read counts again
        path = self._save_image(plan.image, f"count-{place}") or plan.photo
        for p in self._count_supersede(count.propose(dice, ev, place, self.count_seen, path)):
            self._ask(p)
        self.count_seen = {name: list(dice.get(name, [])) for name in names}
        k = count.places.index(place)
        self.count_place = count.places[k + 1] if k + 1 < len(count.places) else None
        said = dict(read=self.reads, dice=sum(len(v) for v in dice.values()), place=count.labels.get(place, place),
                    next=count.prompt(self.count_place))
        self.message = (Text("camera read {read}: cards {cards}, dice counted {dice} ({place}); {next}", cards=cards,
                             **said) if self.card_pass
                        else Text("camera read {read}: dice counted {dice} ({place}); {next}", **said))

    def _save_image(self, image: np.ndarray, what: str) -> str | None:
        if self.image_dir is None:
            return None
        try:
            folder = Path(self.image_dir) / self.flow.session.id
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / f"{what}-{self.reads:04d}-{int(time.time())}.jpg"
            if not cv2.imwrite(str(path), image):
                return None
            return str(path)
        except OSError as exc:
            log.warning("%s", _("cannot keep the picture of camera read {read} in {folder} ({problem}): the game goes "
                                "on without it").format(read=self.reads, folder=self.image_dir,
                                                        problem=say(os_reason(exc))))
            return None

    def _take(self, player: str, observed: Observed) -> list[Event]:
        from companion.errors import StorageError

        recorded = []
        for kind, payload in observed.log:
            try:
                recorded.append(self.flow.session.append(kind, payload, player=player, origin="camera"))
            except (BadEvent, UnknownEvent) as exc:
                log.warning("camera %s for %s not recorded: %s", kind, player, exc)
            except StorageError as exc:  # dropped: the storage banner says why; the read goes on
                self.unsaved = exc
                log.error("camera %s for %s not saved: %s", kind, player, exc)
        if observed.misplays is not None:
            self.misplays[player] = list(observed.misplays)
        self.notes[player] = list(observed.notes)
        if observed.withdraw:
            gone = set(observed.withdraw)
            self.questions = [q for q in self.questions if q.proposal.key not in gone]
        # a change the players dismissed is not asked again while this zone's reads keep proposing it (a misread
        # card, corrected from a phone, is seen the same way at every read); once a read no longer sees it, it may
        # be asked again when it is seen again
        seen = {p.key for p in observed.proposals}
        self.dismissed = {k: z for k, z in self.dismissed.items() if z != player or k in seen}
        for p in observed.proposals:
            if p.key not in self.dismissed:
                self._ask(p, zone=player)
        return recorded

    def _supersede(self, fresh: list[Proposal]) -> list[Proposal]:
        """Drop the waiting questions of an earlier dice read that a newer read of the dice asks again: the same
        player and kind (Roll's ``phase_selected``, Eclipse's ``volley_rolled``), a zone's card questions untouched.
        The dice on the table now are the ones to answer for; two questions about one selection would record it twice
        when both are confirmed. A later answer to a dropped question is told it was replaced.

        A waiting question that proposes the same change as a fresh proposal (:attr:`Proposal.change`: the same
        player, kind, payload apart from the read's own record, and words: "Read now" on dice that did not move) is
        kept as it is, its id and all, so a phone answering it meanwhile is not told it was replaced.

        Returns:
            The proposals of ``fresh`` to ask (those not already waiting as the same change), in their order.
        """
        again = {(p.player, p.kind) for p in fresh}
        waiting = {q.proposal.change for q in self.questions if q.zone is None}
        changes = {p.change for p in fresh}
        stale = [q for q in self.questions if q.zone is None and q.proposal.change not in changes
                 and (q.proposal.player, q.proposal.kind) in again]
        for q in stale:
            self.questions.remove(q)
            self._answered(q, Text("replaced by the camera's newer read of the dice"))
        if stale:
            self.keep_questions()
        return [p for p in fresh if p.change not in waiting]

    def _count_supersede(self, fresh: list[Proposal]) -> list[Proposal]:
        """Drop the waiting questions of an earlier count step that a fresh one records whole: the same player and
        kind, every place the waiting one counts counted again (Roll's cup step that also gives the first count made
        whole, a die left out then read surely now). Confirmed after it, the earlier question would undo the newer
        count. A later answer to a dropped question is told it was replaced. Returns ``fresh``."""
        def places(p: Proposal) -> set[str]:
            return {k for k in p.payload if k != READ}

        stale = [q for q in self.questions if q.zone is None and any(
            p.player == q.proposal.player and p.kind == q.proposal.kind and places(q.proposal) < places(p)
            for p in fresh)]
        for q in stale:
            self.questions.remove(q)
            self._answered(q, Text("replaced by the camera's newer read of the dice"))
        if stale:
            self.keep_questions()
        return fresh

    def _ask(self, proposal: Proposal, zone: str | None = None) -> Question | None:
        if any(q.proposal.key == proposal.key for q in self.questions):
            return None
        q = Question(self._next_id, proposal, time.time(), zone=zone)
        self._next_id += 1
        self.questions.append(q)
        del self.questions[:-MAX_QUESTIONS]
        return q

    # -- view --------------------------------------------------------------------------------
    def view(self) -> dict[str, Any]:
        """The camera block of the published view (shape in the module doc)."""
        return {
            "cards": "cards" in self.readers,
            "hexes": "hexes" in self.readers,
            "dice": self.dice_reader is not None,
            "calibrated": self.calibration is not None,
            "reads": self.reads,
            "state": "reading" if self._left > 0 or self._pending is not None else "idle",
            "stuck": self.stuck,
            "message": self.message,
            "markers": self.markers,
            "questions": [{**q.to_json(), "picture": self.station_pictures.url(q.id)} for q in self.questions],
            "misplays": [m for name in (*self.flow.names, TABLE) for m in self.misplays.get(name, [])],
            "notes": {k: v for k, v in self.notes.items() if v},
            "reader_notes": list(self.reader_notes),
            "reader_briefs": [self.station_seats.brief if n is self.station_seats.note and self.station_seats.brief
                              else n for n in self.reader_notes],   # the touchscreen's: the question is shown above
            "covers": list(self.spec.covers) if self.deck is not None else [],
            "count": self._count_view(),
        }

    def pictures(self) -> dict[str, bytes]:
        """The pictures the questions waiting name (``{"station-7": JPEG bytes}``: a "whose station is this?"
        question's station, :mod:`companion.camera.station_picture`), published with the view for the phones and
        the touchscreen."""
        return self.station_pictures.pictures(q.id for q in self.questions)

    def _count_view(self) -> dict[str, Any] | None:
        """``{"next": place | null, "prompt"}`` while the game wants the count (also once it is done), else None."""
        if self.counter is None or not self.counter.wanted(self.flow.engine_view()):
            return None
        return {"next": self.count_place, "prompt": self.counter.prompt(self.count_place)}
