"""What the camera sees in one read: the OpenCV part of :class:`companion.camera.CameraFlow`'s read.

:meth:`CameraSeeing.see` turns a :class:`~companion.camera.passes.ReadPlan` (made on the loop's thread) into a
:class:`~companion.camera.passes.Sight`: the cards per player zone (one card read per anchor), the shared map's hexes,
the dice per zone, each reader reading again only what changed since the read before
(:func:`vision.incremental.read_changes`), the camera's mirror decided when it is not yet, the dice pass and the card
pass in the flow's ``order`` (:mod:`vision.dice_and_cards`). It touches no session or game state, so it may run on a
worker thread. Mixed into :class:`companion.camera.CameraFlow`, which holds the deck, the calibration, the zones, the
readers and the passes (the attributes listed on :class:`CameraSeeing`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

from companion.camera.passes import TABLE, DicePass, ReadPlan, Sight, dice_by_zone
from companion.i18n import Text
from vision.dice_and_cards import (
    cards_reader_with,
    changes_order,
    dice_reader_with,
    first_look,
    kept_dice,
    read_dice_and_cards,
)
from vision.incremental import read_changes
from vision.observations import Sighting

__all__ = ["CameraSeeing", "moved_markers"]


def moved_markers(moved: Any) -> dict[str, Any]:
    """The state's ``markers`` entry when a read found calibration markers away from where they were calibrated.

    ``moved``: the markers' ids (ints). Returns ``{"moved": [ids], "message": Text}``. The message is the players':
    what they can do at the table (put the sheet back), and that calibrating again is the box owner's task."""
    ids = ", ".join(f"#{i}" for i in moved)
    return {"moved": list(moved),
            "message": Text("calibration markers {ids} moved since calibration: positions may be off; put the sheet "
                            "back, or the box's owner can calibrate the table again", ids=ids)}


def _default_read_cards(*args: Any, **kw: Any) -> Any:
    from vision.cards import read_cards

    return read_cards(*args, **kw)


@dataclasses.dataclass(frozen=True, eq=False)
class _ReaderCall:
    """A reading function injected by tests (``read_cards`` or ``read_hexes``: ``call(image, deck, calibration=,
    zones=, config=)``) as a :class:`vision.Reader` (every read a full one); ``name``: ``"cards"`` or ``"hexes"``."""

    call: Callable[..., Any]
    deck: Any
    calibration: Any
    zones: Any
    config: Any
    name: str = "cards"

    def read(self, frame: np.ndarray) -> Sighting:
        r = self.call(frame, self.deck, calibration=self.calibration, zones=self.zones, config=self.config)
        h, w = frame.shape[:2]
        seen = {"hexes": tuple(r.hexes)} if self.name == "hexes" else {"cards": tuple(r.cards)}
        return Sighting(self.name, w, h, markers=getattr(r, "markers", None),
                        notes=tuple(getattr(r, "notes", ()) or ()), **seen)


def _default_read_hexes(*args: Any, **kw: Any) -> Any:
    from vision.hexes import read_hexes

    return read_hexes(*args, **kw)


class CameraSeeing:
    """The OpenCV part of a camera read (mixed into :class:`companion.camera.CameraFlow`, which sets these)."""

    deck: Any
    calibration: Any
    zones: Any
    dice_reader: Any
    passes: tuple[Any, ...]
    order: str
    _read_cards: Callable[..., Any]
    _read_hexes: Callable[..., Any]
    _table_memory: Any
    _helper: ThreadPoolExecutor | None

    def see(self, plan: ReadPlan) -> Sight:
        """The OpenCV part of a read: cards per player zone (one card read per anchor) and dice per zone, each
        reading again only what changed since the read before (``plan.boxes``, :func:`vision.incremental.read_changes`);
        the mirror decided when it is not yet; the dice pass and the card pass in ``order`` (by default the card
        pass's first look, the dice told its tiles, then its second look told the dice where it would run), then,
        with both read, the dice that are the printed art of an identified card dropped
        (:func:`vision.dice_and_cards.read_dice_and_cards`).

        Touches no session or game state, so it may run on a worker thread (:meth:`begin`).

        Args:
            plan: from :meth:`plan`.

        Returns:
            :class:`~companion.camera.passes.Sight`: ``cards`` {player: [vision.cards.Card]}, ``dice``
            {player: [die JSON]} or None when no dice pass was planned, ``markers`` (the moved-marker message or None),
            the readers' sightings and notes, the mirror decided.
        """
        sightings: dict[str, Any] = {}
        dice_pass = next((p for p in self.passes if isinstance(p, DicePass) and p.name == plan.dice), None)
        # dice beside the map wait for this frame's map read (its hexes are painted out)
        off_map = dice_pass is not None and dice_pass.off_map and plan.map_anchor is not None
        mirror = None
        if plan.anchors and self.deck is not None and plan.mirror is None and self._read_cards is _default_read_cards:
            from vision.cards import decide_mirror

            mirror = decide_mirror(plan.image, self.deck, self.calibration).mirrored
        flipped = mirror is not None and mirror != bool(plan.mirror)  # what was kept was read the other way

        readers = {anchor: self._cards_reader(anchor, plan.mirror if mirror is None else mirror)
                   for anchor in plan.anchors}

        def card_read(anchor: str | None) -> Callable[[Sequence[np.ndarray]], Sighting]:
            key = f"cards:{anchor}"
            return lambda explained: read_changes(cards_reader_with(readers[anchor], explained), plan.image,
                                                  None if flipped else plan.previous.get(key), plan.boxes)

        if self.order == "beside" and self._helper is None and plan.dice is not None and plan.anchors:
            self._helper = ThreadPoolExecutor(max_workers=1, thread_name_prefix="camera-dice")
        # the dice and the cards in the order that pays (the cards first where every read reads only what changed),
        # then the dice that are a card's print dropped
        dice_read = plan.dice is not None and not off_map
        previous = [None if flipped else plan.previous.get(f"cards:{anchor}") for anchor in plan.anchors]
        order = changes_order(self.order, plan.image.shape,
                              previous + ([plan.previous.get("dice")] if dice_read else []), plan.boxes)
        art = getattr(self.deck, "art", None)
        seen, card_reads = read_dice_and_cards(
            plan.image, (lambda cards=(): self._read_dice(plan, cards=cards, art=art)) if dice_read else None,
            {f"cards:{anchor}": card_read(anchor) for anchor in plan.anchors}, art, order, self._helper,
            kept_dice(plan.previous.get("dice"), plan.boxes),
            {f"cards:{a}": first_look(r, plan.image, None if flipped else plan.previous.get(f"cards:{a}"), plan.boxes)
             for a, r in readers.items()})
        cards: dict[str, list[Any]] = {}
        markers = None
        notes: list[str] = []
        if plan.anchors:
            for anchor, players in plan.anchors.items():
                key = f"cards:{anchor}"
                read = card_reads[key]
                sightings[key] = read
                notes += [n for n in read.notes if n not in notes]
                check = getattr(read, "markers", None)
                if check is not None and check.moved:
                    markers = moved_markers(check.moved)
                for card in read.cards:
                    if card.zone in players:
                        cards.setdefault(card.zone, []).append(card)
                    elif anchor is None and self.zones is None:  # no zones: the whole table's cards, stations found
                        cards.setdefault(TABLE, []).append(card)  # from them (CameraFlow._stations)
        hexes = None
        if plan.map_anchor is not None:
            key = f"hexes:{plan.map_anchor}"
            read = read_changes(self._hexes_reader(plan.map_anchor), plan.image, plan.previous.get(key), plan.boxes)
            sightings[key] = read
            hexes = list(read.hexes)
            check = read.markers
            if check is not None and check.moved:
                markers = moved_markers(check.moved)
        dice = None
        if plan.dice is not None:
            if off_map:
                seen = self._read_dice(plan, hexes or ())
            if isinstance(seen, Sighting):
                sightings["dice"] = seen
            by_zone = dice_pass.by_zone if dice_pass is not None else True
            dice = (dice_by_zone(seen.dice, plan.names, self.zones, self.calibration) if by_zone
                    else {TABLE: [d.to_json() for d in seen.dice]})
        return Sight(plan=plan, cards=cards, dice=dice, markers=markers, sightings=sightings, notes=tuple(notes),
                     mirror=mirror, hexes=hexes)

    def _cards_reader(self, anchor: str | None, mirror: bool | None) -> Any:
        """The card reader of one anchor's zones: the deck's :class:`vision.readers.CardsAdapter` (reads only what
        changed) with the mirror as decided (undecided: as the camera gives it), or the injected ``read_cards``.
        Every such reader of this flow shares one memory of the table's colours (one table, one calibration)."""
        from vision.cards import CardsConfig
        from vision.foreground import TableMemory

        config = dataclasses.replace(CardsConfig(), anchor_id=anchor, mirror="on" if mirror else "off")
        if self._read_cards is not _default_read_cards:
            return _ReaderCall(self._read_cards, self.deck, self.calibration, self.zones, config)
        from vision.readers import CardsAdapter

        if self._table_memory is None:
            self._table_memory = TableMemory()
        return CardsAdapter(self.deck, self.calibration, self.zones, config, memory=self._table_memory)

    def _hexes_reader(self, anchor: str) -> Any:
        """The map's reader: the hex deck's :class:`vision.readers.HexesAdapter` (reads only what changed) with
        ``anchor`` at axial (0, 0), or the injected ``read_hexes``."""
        from vision.hexes import HexesConfig

        config = HexesConfig(anchor_id=anchor)
        if self._read_hexes is not _default_read_hexes:
            return _ReaderCall(self._read_hexes, self.deck, self.calibration, None, config, name="hexes")
        from vision.readers import HexesAdapter

        return HexesAdapter(self.deck, self.calibration, None, config)

    def _read_dice(self, plan: ReadPlan, map_hexes: Sequence[Any] = (), cards: Sequence[Any] = (),
                   art: Any = None) -> Any:
        """The dice reader's read of the plan's image (only what changed, where the reader can); with ``map_hexes``
        (:class:`vision.hexes.HexObservation`, corners in frame px: the map this frame's map pass read) the image is
        read with them painted out (:class:`vision.hexes.OffMapDice`, its ``paint_map`` stage timed in ms); with
        ``cards`` (read first on this image) and the deck's ``art`` the reader is told of them
        (:func:`vision.dice_and_cards.dice_reader_with`)."""
        if map_hexes:
            from vision.hexes import OffMapDice

            return OffMapDice(self.dice_reader).read_changes(plan.image, plan.previous.get("dice"), plan.boxes,
                                                             map_hexes)
        return read_changes(dice_reader_with(self.dice_reader, cards, art), plan.image, plan.previous.get("dice"),
                            plan.boxes)
