"""Camera readers as plug-ins: the existing readers behind one protocol (:class:`vision.Reader`), each
read one result (:class:`vision.Sighting`).

A game's flow declares the readers it uses by ``name`` and in which passes (a card pass on every still
table, a dice pass when the rules ask for one); the camera path only ever calls ``reader.read(frame)``
and gets a :class:`Sighting`: what was seen (dice, cards, hexes), on a frame of what size, how long each
stage took, and how sure the reader is. A reader only reports what it sees; what it means for the game
is for the rules engine to judge.

The adapters wrap the existing readers without changing what they read (the same observations as
:meth:`vision.D6Reader.read`, :meth:`vision.roll_dice.RollDiceReader.read`, :func:`vision.cards.read_cards`
and :func:`vision.hexes.read_hexes`, whose own JSON shapes ``companion read --json`` keeps printing):

* :class:`D6Adapter` (``"d6"``): pip dice, values 1-6 or unreadable;
* :class:`RollDiceAdapter` (``"roll_dice"``): Roll for the Galaxy dice, colour and face;
* :class:`CardsAdapter` (``"cards"``): cards and tiles of an enrolled deck, laid out on the table;
* :class:`HexesAdapter` (``"hexes"``): Eclipse sector hexes of a hex deck, on the axial map.

Each adapter is a frozen dataclass (compared by identity): its settings (the reader's frozen config, the deck, the calibration,
the zones) are fixed for its reads; ``dataclasses.replace(reader, calibration=new)`` gives a reader with
one setting changed (a new calibration, the anchor of another player's zone). The stages are timed by
:func:`vision.timing.timed_stage` inside each reader; :attr:`Sighting.timings_ms` carries them, so a
bench or a later speed-up (incremental reads of a changed region, another inference runtime) compares
stage by stage.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .cards import CardsConfig, read_cards
from .config import D6Config
from .d6 import D6Reader
from .deck import DeckProfile
from .hexes import HexesConfig, read_hexes
from .observations import Reader, Sighting
from .roll_dice import RollDiceConfig, RollDiceReader
from .table import TableCalibration, TableConfig, Zones

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


@dataclass(frozen=True, eq=False)
class RollDiceAdapter:
    """:class:`vision.roll_dice.RollDiceReader` as a :class:`Reader`: Roll for the Galaxy dice with colour
    and face (``Sighting.dice``).

    Attributes:
        reader: the Roll dice reader, built with the owner's enrollment profile (and the game's allowed
            (colour, face) pairs).
        name: the reader's name in a flow's declaration.
    """

    reader: RollDiceReader
    name: str = "roll_dice"

    @property
    def config(self) -> RollDiceConfig:
        """The reader's frozen thresholds."""
        return self.reader.config

    def read(self, frame: np.ndarray) -> Sighting:
        """:meth:`vision.roll_dice.RollDiceReader.read` as a :class:`Sighting`. Raises :class:`vision.BadFrame`."""
        r = self.reader.read(frame)
        return Sighting(self.name, r.width, r.height, dice=r.dice, timings_ms=r.timings_ms)


@dataclass(frozen=True, eq=False)
class CardsAdapter:
    """:func:`vision.cards.read_cards` as a :class:`Reader`: the cards and tiles of an enrolled deck
    (``Sighting.cards``) and, with a calibration, the re-checked markers (``Sighting.markers``).

    Attributes:
        deck: the enrolled deck (:func:`vision.deck.build_deck`); None: cards are found and laid out,
            their ids are null.
        calibration: the table calibration (positions in table mm); None: in pixels, mm estimated.
        zones: the player zones (each card's ``zone``), or None.
        config: the card reader's thresholds (``anchor_id`` anchors the cells, ``mirror``).
        table_config: the marker thresholds.
        check_moved: with a calibration, re-check its markers in every frame.
        name: the reader's name in a flow's declaration.
    """

    deck: DeckProfile | None = None
    calibration: TableCalibration | None = None
    zones: Zones | None = None
    config: CardsConfig = field(default_factory=CardsConfig)
    table_config: TableConfig = field(default_factory=TableConfig)
    check_moved: bool = True
    name: str = "cards"

    def read(self, frame: np.ndarray) -> Sighting:
        """:func:`vision.cards.read_cards` as a :class:`Sighting`. Raises :class:`vision.BadFrame`."""
        r = read_cards(frame, self.deck, calibration=self.calibration, zones=self.zones, config=self.config,
                       table_config=self.table_config, check_moved=self.check_moved)
        return Sighting(self.name, r.width, r.height, cards=r.cards, markers=r.markers, timings_ms=r.timings_ms)


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
