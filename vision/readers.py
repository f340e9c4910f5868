"""Camera readers as plug-ins: the existing readers behind one protocol (:class:`vision.Reader`), each
read one result (:class:`vision.Sighting`).

A game's flow declares the readers it uses by ``name`` and in which passes (a card pass on every still
table, a dice pass when the rules ask for one); the camera path only ever calls ``reader.read(frame)``
and gets a :class:`Sighting`: what was seen (dice, cards, hexes), on a frame of what size, how long each
stage took, and how sure the reader is. A reader only reports what it sees; what it means for the game
is for the rules engine to judge.

Each adapter also reads only what changed since its previous sighting (``read_changes``, the
:class:`vision.incremental.IncrementalReader` protocol; :func:`vision.incremental.read_changes` chooses).

The adapters wrap the existing readers without changing what they read (the same observations as
:meth:`vision.D6Reader.read`, :meth:`vision.roll_dice.RollDiceReader.read`, :func:`vision.cards.read_cards`
and :func:`vision.hexes.read_hexes`, whose own JSON shapes ``companion read --json`` keeps printing):

* :class:`D6Adapter` (``"d6"``): pip dice, values 1-6 or unreadable;
* :class:`RollDiceAdapter` (``"roll_dice"``): Roll for the Galaxy dice, colour and face;
* :class:`CardsAdapter` (``"cards"``): cards and tiles of an enrolled deck, laid out on the table;
* :class:`HexesAdapter` (``"hexes"``): Eclipse sector hexes of a hex deck, on the axial map.

Each adapter is a frozen dataclass (compared by identity): its settings (the reader's frozen config, the deck, the
calibration, the zones) are fixed for its reads; ``dataclasses.replace(reader, calibration=new)`` gives a reader with
one setting changed (a new calibration, the anchor of another player's zone). The stages are timed by
:func:`vision.timing.timed_stage` inside each reader; :attr:`Sighting.timings_ms` carries them, so a
bench or a later speed-up (incremental reads of a changed region, another inference runtime) compares
stage by stage.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import cv2
import numpy as np

from .card_art import boxes_explained_by_art, change_explained_by_art
from .card_detect import find_card_quads
from .cards import CardsConfig, read_cards, read_cards_changes
from .config import D6Config
from .d6 import D6Reader
from .deck import DeckProfile
from .foreground import TableMemory
from .frames import validate_frame
from .hexes import HexesConfig, read_hexes
from .hexes.reader import read_hexes_changes
from .incremental import Box, grow, inside_any, joins, touches, windows
from .observations import Die, Reader, Sighting
from .roll_dice import RollDiceConfig, RollDiceReader
from .roll_dice.occupied import occupied_window
from .table import MARKER_SHEET_MARGIN, TableCalibration, TableConfig, Zones
from .timing import timed_stage
from .white import paper_white

__all__ = ["CardsAdapter", "D6Adapter", "HexesAdapter", "Reader", "RollDiceAdapter", "Sighting"]


@dataclass(frozen=True, eq=False)
class D6Adapter:
    """:class:`vision.D6Reader` as a :class:`Reader`: pip dice with their values (``Sighting.dice``).

    Attributes:
        reader: the d6 reader (its two models loaded once; ``D6Reader()`` when not given).
        name: the reader's name in a flow's declaration.

    Raises:
        VisionError: (constructing with the default reader) a model file is missing or unreadable.
    """

    reader: D6Reader = field(default_factory=D6Reader)
    name: str = "d6"

    @property
    def config(self) -> D6Config:
        """The reader's frozen thresholds."""
        return self.reader.config

    def read(self, frame: np.ndarray) -> Sighting:
        """:meth:`vision.D6Reader.read` as a :class:`Sighting`. Raises :class:`vision.BadFrame`."""
        r = self.reader.read(frame)
        return Sighting(self.name, r.width, r.height, dice=r.dice, timings_ms=r.timings_ms)

    def read_changes(self, frame: np.ndarray, previous: Sighting, boxes: list[Box]) -> Sighting:
        """``previous``'s dice outside ``boxes`` kept, windows around them read (:meth:`vision.D6Reader.read_window`).
        Raises :class:`vision.BadFrame`."""
        return _dice_changes(self.name, lambda f, box, wanted: self.reader.read_window(f, box), frame, previous, boxes)


@dataclass(frozen=True, eq=False)
class RollDiceAdapter:
    """:class:`vision.roll_dice.RollDiceReader` as a :class:`Reader`: Roll for the Galaxy dice with colour
    and face (``Sighting.dice``).

    Attributes:
        reader: the Roll dice reader, built with the owner's enrollment profile (and the game's allowed
            (colour, face) pairs).
        name: the reader's name in a flow's declaration.
        calibration: the table calibration, or None. With it, a full read takes the paper round its markers
            as the frame's white reference (:func:`vision.white.paper_white`), so the dice' colours are read
            under the table's light of that moment, and no die is reported on a marker or its paper.
        cards: the cards and tiles the card reads found on the frame a read of the changes reads (read before the
            dice, :func:`vision.dice_and_cards.read_dice_and_cards`' ``"cards_first"``; ``id`` and ``corners``
            float[4, 2] frame px), with ``art`` (card id -> uint8[h, w, 3] BGR upright art,
            :attr:`vision.deck.DeckProfile.art`): a top face in a changed window that the art of the identified card
            under it explains is no die (:func:`vision.card_art.boxes_explained_by_art`) and is not matched against
            the faces (the art check after the read would drop it); a full read read after the tiles
            (:func:`vision.dice_and_cards.read_dice_and_cards`' ``"tiles_first"``) likewise drops, before the face
            match, the top faces the art of the identified tile under them explains (a die on a tile covers its
            print and is read). Set per frame with ``dataclasses.replace``
            (:func:`vision.dice_and_cards.dice_reader_with`).
        unknown_cards: the long/short side ratio (1.0: Roll for the Galaxy's square tiles) of the cards or tiles on
            the table that no deck identifies (a game whose tiles are not enrolled: no card read tells the dice read
            of them, and no art check runs), or None (none, or a deck reads them): a die read below
            :data:`vision.dice_and_cards.SURE_DIE` whose centre lies on a card the card detector finds without a deck
            (:func:`off_unknown_cards`) is a symbol of the card's print, not a die, and is left out (timed as the
            stage ``unknown_cards``); a die on a card read surely stays.
    """

    reader: RollDiceReader
    name: str = "roll_dice"
    calibration: TableCalibration | None = None
    cards: tuple[Any, ...] = ()
    art: Mapping[str, np.ndarray] | None = None
    unknown_cards: float | None = None

    @property
    def config(self) -> RollDiceConfig:
        """The reader's frozen thresholds."""
        return self.reader.config

    def read(self, frame: np.ndarray, window: Box | None = None) -> Sighting:
        """:meth:`vision.roll_dice.RollDiceReader.read` as a :class:`Sighting`, with the calibration sheet's
        paper as the white reference when it shows, and the boxes lying wholly on a marker and its paper set aside once
        the die size is chosen (``read``'s ``aside``, :func:`boxes_on_sheets`: no die is reported there,
        :meth:`_off_markers`, so the recut adds no face there); told of ``cards`` and ``art``, the
        top faces the print of the identified card under them explains are no die (``read``'s ``explained``,
        :func:`vision.card_art.boxes_explained_by_art`, timed as ``art_tops``). ``window``: ``(x, y, w, h)`` frame px
        where every die lies (:meth:`occupied`), read alone at the whole frame's scale (``read``'s ``window``); None:
        the whole frame. Raises :class:`vision.BadFrame`."""
        white = None
        framed: dict[str, Any] = {} if window is None else {"window": window}
        if self.calibration is not None:
            frame = validate_frame(frame)
            white = paper_white(frame, self.calibration.markers_px, self.calibration.frame_size)
            sheets = _marker_sheets(self.calibration, frame.shape)
            if sheets:
                framed["aside"] = lambda boxes: boxes_on_sheets(boxes, sheets).tolist()
        cards, art = self.cards, self.art
        if cards and art:
            frame = validate_frame(frame)
            r = self.reader.read(frame, white=white, explained=_art_explains(frame, cards, art), **framed)
        else:
            r = self.reader.read(frame, white=white, **framed)
        dice, timings = self._off_markers(r.dice, (r.width, r.height)), dict(r.timings_ms)
        if self.unknown_cards is not None and not (cards and art):
            dice = timed_stage(timings, "unknown_cards", off_unknown_cards, frame, dice, self.unknown_cards)
        return Sighting(self.name, r.width, r.height, dice=dice, timings_ms=timings, light=r.light,
                        die_size=r.die_size)

    def change_windows(self, frame_shape: tuple[int, ...], previous: Sighting, boxes: Sequence[Box]) -> list[Box]:
        """The windows :meth:`read_changes` reads of a frame of ``frame_shape`` (H, W, ...) after ``previous``, given
        the changed ``boxes`` (or fewer: a box the cards' print explains is not read), :func:`change_windows`; it
        reads each window alone (:meth:`vision.roll_dice.RollDiceReader.read_window`: no pixel outside them)."""
        return change_windows(frame_shape, previous, boxes)

    def occupied(self, frame: np.ndarray, hidden: Sequence[np.ndarray] = ()) -> Box | None:
        """The ``(x, y, w, h)`` frame-px window of ``frame`` (``uint8[H, W, 3]`` BGR) that holds everything the
        reader's foreground cue takes for something on the table, the calibration markers and their paper left out,
        and ``hidden`` (float[K, 2] frame-px polygons known to hold no die: a map's hexes)
        (:func:`vision.roll_dice.occupied.occupied_window`), timed by the caller; None: read the whole frame (nothing
        found, or a window over most of the frame). Raises :class:`vision.BadFrame`."""
        frame = validate_frame(frame)
        sheets = [] if self.calibration is None else _marker_sheets(self.calibration, frame.shape, WINDOW_SHEET_MARGIN)
        return occupied_window(frame, self.reader.config, [*sheets, *hidden])

    def _off_markers(self, dice, frame_size: tuple[int, int]) -> tuple[Die, ...]:
        """``dice`` without those centred on a calibration marker or its paper
        (:meth:`vision.table.TableCalibration.on_marker`): a marker's black squares on white are no die."""
        dice = tuple(dice)
        if self.calibration is None or not dice:
            return dice
        centres = np.array([(d.box[0] + d.box[2] / 2, d.box[1] + d.box[3] / 2) for d in dice], np.float64)
        on = self.calibration.on_marker(centres, frame_size)
        return tuple(d for d, o in zip(dice, on, strict=True) if not o)

    def read_changes(self, frame: np.ndarray, previous: Sighting, boxes: list[Box]) -> Sighting:
        """``previous``'s dice outside ``boxes`` kept, windows around them read
        (:meth:`vision.roll_dice.RollDiceReader.read_window`) under the light of the last full read
        (``previous.light``, kept in the result) and at its die size (``previous.die_size``, kept: no other size
        tried); only the faces that could join the read are matched, and of those not the ones the art of an
        identified card under them explains (``cards``, ``art``). A changed box the print of the identified cards
        explains whole (:func:`vision.card_art.change_explained_by_art`: a tile laid, no die on it or beside it) is
        not read at all (timed as the stage ``art_change``): a die of the last read centred on a card there is gone
        (the print shows where it lay). Raises :class:`vision.BadFrame`."""
        light, size = previous.light, previous.die_size
        cards, art = self.cards, self.art
        timings: dict[str, float] = {}
        if cards and art:
            frame = validate_frame(frame)
            boxes, previous = timed_stage(timings, "art_change", _print_only, frame, previous, boxes, cards, art)
            if not boxes:   # as a read of the changes orders its dice: highest confidence first
                return replace(previous, dice=tuple(sorted(previous.dice, key=lambda d: -d.confidence)),
                               timings_ms=timings, light=light, die_size=size)

        def read_window(f: np.ndarray, box: Box, wanted):
            explained = None if not cards or not art else _art_explains(f, cards, art)
            return self.reader.read_window(f, box, light, wanted, size, explained)

        s = _dice_changes(self.name, read_window, frame, previous, boxes)
        dice = self._off_markers(s.dice, (s.width, s.height))
        timings = {**timings, **s.timings_ms}
        if self.unknown_cards is not None and not (cards and art):
            kept = {id(d) for d in previous.dice}
            new = timed_stage(timings, "unknown_cards", off_unknown_cards, frame,
                              tuple(d for d in dice if id(d) not in kept), self.unknown_cards)
            stay = kept | {id(d) for d in new}
            dice = tuple(d for d in dice if id(d) in stay)
        return replace(s, dice=dice, light=light, die_size=size, timings_ms=timings)


@dataclass(frozen=True, eq=False)
class CardsAdapter:
    """:func:`vision.cards.read_cards` as a :class:`Reader`: the cards and tiles of an enrolled deck
    (``Sighting.cards``) and, with a calibration, the re-checked markers (``Sighting.markers``).

    Attributes:
        deck: the enrolled deck (:func:`vision.deck_enroll.build_deck`); None: cards are found and laid out,
            their ids are null.
        calibration: the table calibration (positions in table mm); None: in pixels, mm estimated.
        zones: the player zones (each card's ``zone``), or None.
        config: the card reader's thresholds (``anchor_id`` anchors the cells, ``mirror``).
        table_config: the marker thresholds.
        check_moved: with a calibration, re-check its markers in every frame.
        name: the reader's name in a flow's declaration.
        explained: float[K, 2] frame-px polygons of what is known to be no card on the frame it reads (the dice
            read on it just before, :func:`vision.dice_and_cards.read_dice_and_cards`): the card detector's second look
            leaves them out (``read_cards``'s ``explained``). Set per frame with ``dataclasses.replace``.
        memory: the table's colours kept from one whole read to the next (``read_cards``'s ``memory``), refitted
            when they no longer explain the table's border.
    """

    deck: DeckProfile | None = None
    calibration: TableCalibration | None = None
    zones: Zones | None = None
    config: CardsConfig = field(default_factory=CardsConfig)
    table_config: TableConfig = field(default_factory=TableConfig)
    check_moved: bool = True
    name: str = "cards"
    explained: tuple[np.ndarray, ...] = ()
    memory: TableMemory = field(default_factory=TableMemory, compare=False, repr=False)

    def read(self, frame: np.ndarray) -> Sighting:
        """:func:`vision.cards.read_cards` as a :class:`Sighting`, the table's colours kept from one read to the
        next in ``memory`` (:class:`vision.foreground.TableMemory`; a copy by ``dataclasses.replace`` shares it).
        Raises :class:`vision.BadFrame`."""
        r = read_cards(frame, self.deck, calibration=self.calibration, zones=self.zones, config=self.config,
                       table_config=self.table_config, check_moved=self.check_moved, explained=self.explained,
                       memory=self.memory)
        return Sighting(self.name, r.width, r.height, cards=r.cards, markers=r.markers, timings_ms=r.timings_ms,
                        notes=r.notes)

    def read_first(self, frame: np.ndarray) -> tuple[Sighting, Callable[..., bool]]:
        """(the read of the card detector's first look alone, ``due``): :meth:`read` but without the second look
        (``read_cards``' ``defer``); ``due(more, dice=())`` (float[K, 2] frame-px polygons known to be no card
        besides ``explained``, the sure dice read after the tiles; ``dice``: every die read, sure or not, left out of
        what the second look's gate counts only) says whether the second look would run told of them: when it is
        False, the sighting is the one :meth:`read` gives told of ``more`` (the same cards and ids; but for a place
        only ``dice`` would make). Raises :class:`vision.BadFrame`."""
        defer: list = []
        r = read_cards(frame, self.deck, calibration=self.calibration, zones=self.zones, config=self.config,
                       table_config=self.table_config, check_moved=self.check_moved, explained=self.explained,
                       memory=self.memory, defer=defer)
        return Sighting(self.name, r.width, r.height, cards=r.cards, markers=r.markers, timings_ms=r.timings_ms,
                        notes=r.notes), defer[0]

    def read_changes(self, frame: np.ndarray, previous: Sighting, boxes: list[Box]) -> Sighting:
        """:func:`vision.cards.read_cards_changes`: ``previous``'s cards outside ``boxes`` kept, windows around
        them read, all laid out again. Raises :class:`vision.BadFrame`."""
        r = read_cards_changes(frame, previous.cards, boxes, self.deck, self.calibration, self.zones, self.config,
                               self.table_config, previous.markers, self.check_moved, self.explained)
        return Sighting(self.name, r.width, r.height, cards=r.cards, markers=r.markers, timings_ms=r.timings_ms,
                        notes=r.notes)


@dataclass(frozen=True, eq=False)
class HexesAdapter:
    """:func:`vision.hexes.read_hexes` as a :class:`Reader`: the sector hexes of a hex deck on the axial map
    (``Sighting.hexes``) and, with a calibration, the re-checked markers (``Sighting.markers``).

    Attributes:
        deck: the hex deck (:func:`vision.hexes.build_hex_deck`); None: hexes are found and laid out,
            ids, rotations and axial coordinates are null.
        calibration: the table calibration (positions in table mm); None: in pixels, mm estimated.
        zones: the player zones (each hex's ``zone``), or None.
        config: the hex reader's thresholds (``anchor_id``: the hex at axial (0, 0)).
        table_config: the marker thresholds.
        check_moved: with a calibration, re-check its markers in every frame.
        name: the reader's name in a flow's declaration.

    Raises:
        NotAHexDeck: (on read) ``deck`` holds cards, not sector hexes.
    """

    deck: DeckProfile | None = None
    calibration: TableCalibration | None = None
    zones: Zones | None = None
    config: HexesConfig = field(default_factory=HexesConfig)
    table_config: TableConfig = field(default_factory=TableConfig)
    check_moved: bool = True
    name: str = "hexes"

    def read(self, frame: np.ndarray) -> Sighting:
        """:func:`vision.hexes.read_hexes` as a :class:`Sighting`. Raises :class:`vision.BadFrame`."""
        r = read_hexes(frame, self.deck, calibration=self.calibration, zones=self.zones, config=self.config,
                       table_config=self.table_config, check_moved=self.check_moved)
        return Sighting(self.name, r.width, r.height, hexes=r.hexes, markers=r.markers, timings_ms=r.timings_ms)

    def read_changes(self, frame: np.ndarray, previous: Sighting, boxes: list[Box]) -> Sighting:
        """:func:`vision.hexes.reader.read_hexes_changes`: ``previous``'s hexes outside ``boxes`` kept, windows
        around them read, all placed on the map again. Raises :class:`vision.BadFrame`."""
        r = read_hexes_changes(frame, previous.hexes, boxes, self.deck, self.calibration, self.zones, self.config,
                               self.table_config, previous.markers, self.check_moved)
        return Sighting(self.name, r.width, r.height, hexes=r.hexes, markers=r.markers, timings_ms=r.timings_ms)


#: Where a dice reader looks for what lies on the table (:meth:`RollDiceAdapter.occupied`), each calibration marker is
#: left out with its paper and the paper's rim: grown about its centre by this fraction of its side on every side
#: (the paper alone: ``MARKER_SHEET_MARGIN``).
WINDOW_SHEET_MARGIN = 0.5


def _marker_sheets(calibration: TableCalibration, frame_shape: tuple[int, ...],
                   margin: float = MARKER_SHEET_MARGIN) -> list[np.ndarray]:
    """float[4, 2] frame-px quads of the calibration's markers with their paper (each grown about its centre by
    ``margin`` of its side on every side, as :meth:`vision.table.TableCalibration.on_marker` grows them by
    ``MARKER_SHEET_MARGIN``), scaled to a frame of ``frame_shape`` (H, W, ...)."""
    fw, fh = calibration.frame_size
    scale = np.array([frame_shape[1] / float(fw), frame_shape[0] / float(fh)])
    out = []
    for quad in calibration.markers_px.values():
        q = np.asarray(quad, np.float64).reshape(4, 2) * scale
        c = q.mean(axis=0)
        out.append(c + (q - c) * (1.0 + 2.0 * margin))
    return out


def boxes_on_sheets(boxes: Sequence[Box], sheets: Sequence[np.ndarray]) -> np.ndarray:
    """``bool[N]``: whether each ``(x, y, w, h)`` box (px) lies wholly on one of the convex quads ``sheets``
    (``float[4, 2]`` px each, corners in order either way round: a calibration marker with its paper,
    :func:`_marker_sheets`): its four corners inside that quad or on its edge. Raises nothing; no box gives an empty
    array."""
    b = np.asarray(boxes, np.float64).reshape(-1, 4)
    if not len(b) or not len(sheets):
        return np.zeros(len(b), bool)
    x0, y0, x1, y1 = b[:, 0], b[:, 1], b[:, 0] + b[:, 2], b[:, 1] + b[:, 3]
    corners = np.stack([np.stack(c, 1) for c in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))], 1)   # [N, 4, 2]
    q = np.asarray(sheets, np.float64).reshape(-1, 4, 2)                                       # [S, 4, 2]
    edge = np.roll(q, -1, axis=1) - q                                                          # [S, 4, 2]
    rel = corners[:, None, :, None, :] - q[None, :, None, :, :]                                # [N, S, 4, 4, 2]
    cross = edge[None, :, None, :, 0] * rel[..., 1] - edge[None, :, None, :, 1] * rel[..., 0]  # [N, S, corner, edge]
    inside = (cross >= 0).all(3) | (cross <= 0).all(3)
    return inside.all(2).any(1)


#: A quad the card detector finds is a card (or tile) for :func:`off_unknown_cards` when its area is at least this many
#: times the median box area of the dice read (a die found as a quad of its own is no card) ...
CARD_MIN_DICE_AREA = 2.0
#: ... and the boxes of the dice read surely centred in it cover less than this share of its area (a card is mostly
#: print; a cluster of touching dice the detector took for one card is mostly dice).
CARD_MAX_DICE_SHARE = 0.5


def off_unknown_cards(frame: np.ndarray, dice: Sequence[Die], aspect: float | None = None,
                      config: CardsConfig | None = None) -> tuple[Die, ...]:
    """``dice`` (observations with ``box`` ``(x, y, w, h)`` frame px and ``confidence`` 0-1) read on ``frame``
    (``uint8[H, W, 3]`` BGR), in the order given, without those read below :data:`vision.dice_and_cards.SURE_DIE`
    whose centre lies on a card or tile no deck identifies: a quad the card detector finds without a deck, given the
    cards' long/short side ratio ``aspect`` (None: estimated from the frame; :func:`vision.card_detect.
    find_card_quads`), of at least :data:`CARD_MIN_DICE_AREA` x the dice' median box area, shaped as the cards are
    when ``aspect`` is given (its sides' ratio within ``config.aspect_tol`` of it: two touching dice outlined as one
    quad, 1 : 1.7, are no square Roll tile), whose sure dice cover less than :data:`CARD_MAX_DICE_SHARE` of it. A
    card's print (a Roll tile's art, a player board's icons, a calibration marker on its paper) shows shapes that
    match a die's symbol weakly; a die on a card read surely is kept.
    Raises :class:`vision.BadFrame`.

    (Full Roll for the Galaxy tables of :func:`vision.synth_full.full_table` at 960x540 read with no tile deck and no
    calibration, seeds 1-10, ``bench/roll_no_deck.py``: 329 dice reported of 200, 182 of them found, 147 false, on
    tiles or markers; with these left out 183 reported, the same 182 found, 1 false.)"""
    from .dice_and_cards import SURE_DIE

    dice = tuple(dice)
    if not any(float(d.confidence) < SURE_DIE for d in dice):
        return dice
    quads, _loose = find_card_quads(frame, config, aspect)
    boxes = np.array([d.box for d in dice], np.float64).reshape(-1, 4)
    centres = boxes[:, :2] + boxes[:, 2:] / 2
    areas = boxes[:, 2] * boxes[:, 3]
    sure = np.array([float(d.confidence) >= SURE_DIE for d in dice])
    least = CARD_MIN_DICE_AREA * float(np.median(areas))
    on_card = np.zeros(len(dice), bool)
    tol = (config or CardsConfig()).aspect_tol
    for quad in quads:
        q = np.asarray(quad, np.float32).reshape(-1, 1, 2)
        area = float(cv2.contourArea(q))
        if area < least or (aspect is not None and not _card_shaped(quad, aspect, tol)):
            continue
        inside = np.array([cv2.pointPolygonTest(q, (float(x), float(y)), False) >= 0 for x, y in centres])
        if float(areas[inside & sure].sum()) < CARD_MAX_DICE_SHARE * area:
            on_card |= inside
    return tuple(d for d, on, s in zip(dice, on_card, sure, strict=True) if not (on and not s))



def _card_shaped(quad: Any, aspect: float, tol: float) -> bool:
    """Whether ``quad`` (float[4, 2] px, corners in order) has the cards' long/short side ratio ``aspect`` within the
    relative ``tol`` (:attr:`vision.cards.CardsConfig.aspect_tol`), its opposite sides averaged: two touching dice
    outlined as one quad (1 : 2) are no square tile."""
    p = np.asarray(quad, np.float64).reshape(4, 2)
    sides = np.linalg.norm(np.roll(p, -1, axis=0) - p, axis=1)
    a, b = (sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2
    return min(a, b) > 0 and abs((max(a, b) / min(a, b)) / max(aspect, 1.0 / aspect) - 1.0) <= tol

#: How far (x a die's side) beyond the boxes a die must join in a face may lie and still be read after a
#: change: a poorly matching face is looked at again up to ``relocate_margin`` (0.3) sides away.
WANTED_SLACK = 0.5


def change_windows(frame_shape: tuple[int, ...], previous: Sighting, boxes: Sequence[Box]) -> list[Box]:
    """The ``(x, y, w, h)`` frame-px windows a dice read of the changes reads (:class:`D6Adapter`'s and
    :class:`RollDiceAdapter`'s ``read_changes``), each read alone: every changed box of ``boxes`` grown by a die and a
    half (a die's side after ``previous``, :func:`_die_side`), overlapping ones merged (:func:`vision.incremental.
    windows`), in a frame of ``frame_shape`` (H, W, ...)."""
    return windows(boxes, 1.5 * _die_side(previous, frame_shape), frame_shape)


def _die_side(previous: Sighting, frame_shape: tuple[int, ...]) -> float:
    """A die's side (frame px) after ``previous``: the median of its dice' boxes' longer sides, else 5 % of the
    frame's longer side."""
    sides = [max(d.box[2], d.box[3]) for d in previous.dice]
    return float(np.median(sides)) if sides else 0.05 * max(frame_shape[:2])


def _art_explains(frame: np.ndarray, cards: Sequence[Any], art: Mapping[str, np.ndarray]
                 ) -> Callable[[Sequence[Box]], list[bool]]:
    """The ``explained(boxes)`` a dice read of ``frame`` (``uint8[H, W, 3]`` BGR) asks the identified ``cards`` and
    their ``art`` (card id -> ``uint8[h, w, 3]`` BGR upright art): per ``(x, y, w, h)`` frame-px box,
    :func:`vision.card_art.boxes_explained_by_art`, each box's answer kept for the rest of that read. A read that
    searches the die size asks of the candidates found at every size it tries, and most come back at each (on the
    bench's full Roll table, 68 of the 326 boxes asked); a box's answer depends on that box, the frame and the cards
    alone, so it is worked out once. Raises nothing."""
    known: dict[tuple, bool] = {}

    def explained(boxes: Sequence[Box]) -> list[bool]:
        keys = [tuple(b) for b in boxes]
        new = [k for k in dict.fromkeys(keys) if k not in known]
        if new:
            known.update(zip(new, boxes_explained_by_art(frame, new, cards, art), strict=True))
        return [known[k] for k in keys]

    return explained


def _print_only(frame: np.ndarray, previous: Sighting, boxes: list[Box], cards: tuple[Any, ...],
                art: Mapping[str, np.ndarray]) -> tuple[list[Box], Sighting]:
    """(the changed boxes a dice read must read, ``previous`` without the dice that are gone): a box is left out when
    the print of the identified ``cards`` explains it whole (:func:`vision.card_art.change_explained_by_art`) and
    every die of ``previous`` touching it is centred in it on such a card (the print shows there now: the die is
    gone); any other die touching it (beside the change, or centred where the print was not compared) has the box
    read."""
    side = _die_side(previous, frame.shape)
    quads = [np.asarray(c.corners, np.float32).reshape(-1, 1, 2) for c in cards if c.id is not None and c.id in art]
    rest: list[Box] = []
    gone: set[int] = set()
    for b in boxes:
        near = [d for d in previous.dice if touches(tuple(d.box), [b])]
        centres = [(d.box[0] + d.box[2] / 2, d.box[1] + d.box[3] / 2) for d in near]
        under = all(inside_any(c, [b]) and any(cv2.pointPolygonTest(q, (float(c[0]), float(c[1])), False) >= 0
                                                for q in quads) for c in centres)
        if under and change_explained_by_art(frame, b, cards, art, side):
            gone.update(id(d) for d in near)
        else:
            rest.append(b)
    if gone:
        previous = replace(previous, dice=tuple(d for d in previous.dice if id(d) not in gone))
    return rest, previous


def _dice_changes(name: str, read_window, frame: np.ndarray, previous: Sighting, boxes: list[Box]) -> Sighting:
    """A dice reader's sighting after a change: ``previous``'s dice touching no box kept, each window (a box
    grown by a die and a half) read by ``read_window(frame, window, wanted)``; a die found there joins when its
    centre lies in a box (grown by half a die), the window's edge does not cut it and no kept die holds it;
    highest confidence first. ``wanted(x, y)`` (frame px) tells the reader which places could join: a face
    centred on a kept die, or farther than :data:`WANTED_SLACK` x a die's side from every grown box, need
    not be read (a face's centre moves less than that when it is looked at again)."""
    frame = validate_frame(frame)
    h, w = frame.shape[:2]
    kept: list[Die] = [d for d in previous.dice if not touches(d.box, boxes)]
    side = _die_side(previous, frame.shape)
    near = [grow(b, 0.5 * side, frame.shape) for b in boxes]
    taken = [_box_poly(d.box) for d in kept]
    dice = list(kept)
    timings: dict[str, float] = {}
    reach = [grow(b, WANTED_SLACK * side, frame.shape) for b in near]
    kept_boxes = [d.box for d in kept]

    def wanted(x: float, y: float) -> bool:
        return inside_any((x, y), reach) and not inside_any((x, y), kept_boxes)

    for x, y, ww, hh in change_windows(frame.shape, previous, boxes):
        r = read_window(frame, (x, y, ww, hh), wanted)
        for k, v in r.timings_ms.items():
            timings[k] = timings.get(k, 0.0) + v
        for d in r.dice:
            poly = joins(_box_poly(d.box) - np.array([x, y]), (x, y, ww, hh), frame.shape, near, taken)
            if poly is not None:
                taken.append(poly)
                dice.append(d)
    dice.sort(key=lambda d: -d.confidence)
    return Sighting(name, w, h, dice=tuple(dice), timings_ms=timings)


def _box_poly(box: tuple[int, int, int, int]) -> np.ndarray:
    x, y, w, h = box
    return np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], np.float64)
