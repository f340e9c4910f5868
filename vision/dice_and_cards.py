"""One frame's dice read and card reads, in the order that pays, then the art check over both.

The box (:meth:`companion.camera.flow.CameraFlow.see`) and ``bench/full_table.py`` read a table with dice and cards
(Roll for the Galaxy: dice among and on the tiles) through :func:`read_dice_and_cards`, so the bench times the
box's own order. The orders (:data:`ORDERS` for a frame read whole, :data:`CARDS_FIRST` for a read of only what
changed):

* ``"tiles_first"`` (the default): each card read's first look first (:meth:`vision.readers.CardsAdapter.read_first`:
  the detector's first look finds a tile whether dice lie on it or not, and it is identified), then the dice read told
  the tiles found (:func:`dice_reader_with`): a candidate (and a top face cut from one) the printed art of the
  identified tile under it explains is dropped before its top face is cut (a die on a tile covers its print, so its
  window does not correlate with the art, and it is read), so the 20-25 faces a full Roll table's tile art shows cost
  no top face, size fit, ink map, face match, second look, pattern, surface or outline test; then each card read's
  second look where it would run told of the sure dice (as in ``"explained"``; it then reads the card read again,
  told of them), else the first look's read stands: it is the read ``"explained"`` gives told of the same dice. A card
  read with no first look to give (``first``: a read of the changes, a reader without ``read_first``) reads after the
  dice, told of them, as in ``"explained"``. The dice read is ``"explained"``'s but for the art faces dropped before
  their top faces are cut instead of after the read: the dice whose box the art explains are dropped either way, the
  other dice are read alike (their confidences may move a little, and a box by a pixel: the light, the size evidence
  and the top faces' size model are measured without the art faces). Whether a second look would run is asked with
  every die read, sure or not, left out of what its gate counts (``due``'s ``dice``): the dice read less surely and
  those missed leave about one tile's area of foreground on a full Roll table, but no place a tile could lie in.
* ``"explained"``: the dice first, then each card read given the dice found as polygons known to be
  no card (:class:`vision.readers.CardsAdapter`'s ``explained``; :func:`vision.card_detect.find_card_quads`): the
  card detector's second look leaves their foreground out, so the dice among the tiles make no place of it to snap
  to an outline (``loose_snap``), screen against the deck and then drop as dice (``loose_dice``). A tile is found
  by the first look as before, dice on it or not (the first look does not use them).
* ``"beside"``: the dice on a second thread while the card reads run (no card read waits for the dice). On a
  machine where both readers are mostly Python and numpy under one interpreter lock it gains little.
* ``"serial"``: the cards, then the dice, neither told of the other (the reads before either lever; for benches).
* ``"cards_first"`` (a read of only what changed since the last read, :func:`vision.incremental.read_changes`;
  :func:`changes_order` chooses it for ``"explained"``): the card reads first, told the dice of the last read that
  no change touches (``kept``: the dice that did not move are where they were), then the dice read told the cards
  found (:func:`dice_reader_with`): a top face in a changed window that the printed art of an identified card under
  it explains is dropped before the face match, so a tile laid on the table costs no face search over its print
  (the art check after both reads would drop those faces anyway), and a changed box the print of the identified cards
  explains whole (a tile laid with no die on it or beside it, :func:`vision.card_art.change_explained_by_art`) is not
  read for dice at all (the dice reader's stage ``art_change``). A change narrower than a card (a die rolled)
  leaves the cards as they were, so the dice read is the same as in ``"explained"``; a tile laid with a new die on it
  in one change reads the tile untold of that die (its first look finds a tile, dice on it or not). The kept dice
  are not art-checked again: the cards under them did not change either (a card laid, taken or moved under a die
  changes the die's place too).

Whatever the order, the dice that are the printed art of a card the card reads identified under them are dropped
after both reads (:func:`vision.card_art.without_art`; the dice reader's ``art`` stage). So the card reads are
told only of the dice read surely (:data:`SURE_DIE`): a face printed in a tile's art is reported less sure, and
where a tile is found only by the detector's second look (on a gingham cloth a tile is pieces among the checks)
taking such a face out of its foreground can lose the tile, and the art check with it. (Second-generator Roll
tile tables, seeds 1000-1013, the dice reader's own false faces told to the card read: 112 of 115 tiles
identified untold, 108 told all, 112 told those of confidence >= 0.9; the first generator's full Roll tables,
seeds 1-5: of 84 false dice none at >= 0.8, of 92 real dice 74 %.)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor, wait
from dataclasses import replace
from typing import Any, TypeVar

import numpy as np

from .card_art import without_art
from .incremental import Box, ChangeConfig, changes_only, touches
from .observations import Sighting

__all__ = ["CARDS_FIRST", "ORDERS", "SURE_DIE", "TILES_FIRST", "cards_reader_with", "changes_order", "dice_polygons",
           "dice_reader_with", "first_look", "kept_dice", "read_dice_and_cards"]

TILES_FIRST = "tiles_first"
"""The default order of a frame read whole (see the module's docstring)."""

ORDERS = (TILES_FIRST, "explained", "beside", "serial")
"""The orders a frame is read in (see the module's docstring); a read of only what changed may take
:data:`CARDS_FIRST` instead (:func:`changes_order`)."""

CARDS_FIRST = "cards_first"
"""The order of a read of only what changed (see the module's docstring); :func:`read_dice_and_cards` takes it too."""

SURE_DIE = 0.8
"""A die the dice reader reports with at least this confidence is told to the card reads (``explained``); a less
sure one may be a face printed in a tile's art (the art check drops it after the card read), and a tile the card
detector finds only by its second look (a tile on a gingham cloth is pieces) would lose that piece of it."""

K = TypeVar("K")

FirstLook = Callable[[], tuple[Sighting, Callable[..., bool]]]
"""A card read's first look (:func:`first_look`): (its sighting, ``due(more, dice)``: whether told of ``more``
(float[K, 2] frame-px polygons known to be no card) its second look would run, ``dice`` (the same, every die read,
sure or not) left out of what its gate counts only)."""


def dice_polygons(dice: Sighting | None, min_confidence: float = 0.0) -> tuple[np.ndarray, ...]:
    """The top-face boxes of ``dice`` (a dice reader's sighting; None: no dice) reported with at least
    ``min_confidence`` (0-1) as float[4, 2] frame-px polygons, clockwise from the top-left: what a card read is
    given as ``explained``."""
    return () if dice is None else _polygons(dice.dice, min_confidence)


def _polygons(dice: Sequence[Any], min_confidence: float) -> tuple[np.ndarray, ...]:
    """:func:`dice_polygons` of bare dice observations."""
    out = []
    for d in dice:
        if float(d.confidence) < min_confidence:
            continue
        x, y, w, h = (float(v) for v in d.box)
        out.append(np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], np.float64))
    return tuple(out)


def kept_dice(previous: Sighting | None, boxes: Sequence[Box] | None) -> tuple[Any, ...]:
    """The dice (observations with ``box`` ``(x, y, w, h)`` frame px) of the last read (``previous``, a dice reader's
    sighting; None: none) that no changed box (``(x, y, w, h)`` frame px; None: unknown, no die kept) touches: the
    dice a read of the changes keeps as they were (:data:`CARDS_FIRST`'s ``kept``)."""
    if previous is None or boxes is None:
        return ()
    return tuple(d for d in previous.dice if not touches(tuple(d.box), boxes))


def changes_order(order: str, frame_shape: tuple[int, ...], previous: Sequence[Sighting | None],
                  boxes: Sequence[Box] | None, config: ChangeConfig | None = None) -> str:
    """The order a read of a frame of ``frame_shape`` (``(H, W, ...)``) takes when the box reads in ``order``:
    ``"cards_first"`` for ``"tiles_first"`` and ``"explained"`` when every read reads only what changed (each reader's
    last sighting in ``previous``, the changed ``boxes``: :func:`vision.incremental.changes_only`), else ``order`` (a
    full read is read in ``order``, so the cold read does not change). A last read that is no
    :class:`vision.Sighting` (a bare reader's own) is read whole."""
    if order in (TILES_FIRST, "explained") and all(
            isinstance(p, Sighting) and changes_only(frame_shape, p, boxes, config) for p in previous):
        return CARDS_FIRST
    return order


def read_dice_and_cards(frame: np.ndarray, read_dice: Callable[..., Sighting] | None,
                        read_cards: Mapping[K, Callable[[Sequence[np.ndarray]], Sighting]],
                        art: Mapping[str, np.ndarray] | None, order: str = "explained",
                        helper: Executor | None = None,
                        kept: Sequence[Any] = (),
                        first: Mapping[K, FirstLook | None] | None = None) -> tuple[Sighting | None, dict[K, Sighting]]:
    """The dice read and the card reads of one frame in ``order``, then the art check.

    Args:
        frame: uint8[H, W, 3] BGR, the frame every read reads (the art check compares its pixels).
        read_dice: the dice read of ``frame`` (a full read or only what changed), or None: no dice read. A result
            that is no :class:`vision.Sighting` (a bare reader's own, with ``dice``) is told to no card read and
            not art-checked. Called with no argument, but in ``"cards_first"`` and ``"tiles_first"`` with the card
            observations the card reads (their first looks) found (a tuple; :func:`dice_reader_with` tells a dice
            reader of them).
        read_cards: per key (the box: one per anchor of the player zones), the card read of ``frame`` given the
            polygons (float[K, 2] frame px) known to be no card; a reader that cannot use them ignores them.
        art: the card deck's art (:attr:`vision.deck.DeckProfile.art`, card id -> uint8[h, w, 3] BGR), or None:
            no art check (a deck enrolled before decks kept their art, or no deck).
        order: one of :data:`ORDERS`, or :data:`CARDS_FIRST`.
        helper: the executor of the second thread for ``"beside"`` (one worker is enough); None: ``"beside"`` reads
            as ``"serial"``.
        kept: in ``"cards_first"``, the dice of the last read that the read of the changes keeps as they were
            (:func:`kept_dice`): the card reads are told where the sure ones lie (the other orders tell them this
            frame's dice or none), and the art check passes them by (the cards under them did not change).
        first: in ``"tiles_first"``, per key of ``read_cards``, the card read's first look (:func:`first_look`:
            called with no argument, it gives the first look's sighting and ``due``: whether, told of polygons known
            to be no card (the sure dice) and of every die read (left out of what its gate counts only), the second
            look finds a place), or None (that key is read after the dice, as in ``"explained"``);
            a key missing: None. With no first look at all, or no ``read_dice`` (a game of cards alone: the first
            look would gain nothing, and where its second look runs the card read would read the frame twice),
            ``"tiles_first"`` reads as ``"explained"`` (``read_dice`` called with no argument). Other orders do not
            use it.

    Returns:
        (the dice sighting without the dice that are a card's art, or None without ``read_dice``; the card
        sightings by key, in ``read_cards``' order).

    Raises:
        ValueError: ``order`` is neither one of :data:`ORDERS` nor :data:`CARDS_FIRST`.
        Whatever a read raises (:class:`vision.BadFrame` for a bad frame); a dice read on the helper thread
        raises here, after the card reads.
    """
    if order not in (*ORDERS, CARDS_FIRST):
        raise ValueError(f"order must be one of {', '.join((*ORDERS, CARDS_FIRST))}, got {order!r}")
    dice: Sighting | None = None
    cards: dict[K, Sighting] = {}
    # a first look pays only where a dice read comes between it and the second look: with no dice read the second
    # look would be told of nothing, and where it runs, the card read would read the whole frame twice
    looked = {k: look() for k, look in (first or {}).items()
              if order == TILES_FIRST and read_dice is not None and k in read_cards and look is not None}
    if order == CARDS_FIRST:
        told = _polygons(kept, SURE_DIE)
        cards = {k: read(told) for k, read in read_cards.items()}
        dice = read_dice(tuple(c for r in cards.values() for c in r.cards)) if read_dice is not None else None
    elif looked:
        dice = read_dice(tuple(c for seen, _ in looked.values() for c in seen.cards)) if read_dice is not None else None
        explained = dice_polygons(dice, SURE_DIE) if isinstance(dice, Sighting) else ()
        every = dice_polygons(dice) if isinstance(dice, Sighting) else ()
        cards = {k: looked[k][0] if k in looked and not looked[k][1](explained, every) else read(explained)
                 for k, read in read_cards.items()}
    elif order in (TILES_FIRST, "explained") or not read_cards:
        dice = read_dice() if read_dice is not None else None
        explained = (dice_polygons(dice, SURE_DIE) if order in (TILES_FIRST, "explained") and isinstance(dice, Sighting)
                     else ())
        cards = {k: read(explained) for k, read in read_cards.items()}
    elif order == "beside" and helper is not None and read_dice is not None:
        future = helper.submit(read_dice)
        try:
            cards = {k: read(()) for k, read in read_cards.items()}
        finally:
            wait([future])   # the dice read ends before anything goes on, even when a card read raised
        dice = future.result()
    else:
        cards = {k: read(()) for k, read in read_cards.items()}
        dice = read_dice() if read_dice is not None else None
    if isinstance(dice, Sighting):   # a bare reader's own result (anything with ``dice``) is left as it is
        dice = without_art(frame, dice, [c for s in cards.values() for c in s.cards], art,
                           checked=kept if order == CARDS_FIRST else ())
    return dice, cards


def first_look(reader: Any, frame: np.ndarray, previous: Sighting | None = None, boxes: Sequence[Box] | None = None,
               config: ChangeConfig | None = None) -> FirstLook | None:
    """``"tiles_first"``'s first look of a card read (:func:`read_dice_and_cards`' ``first``): ``reader.read_first`` of
    ``frame`` (:meth:`vision.readers.CardsAdapter.read_first`) where :func:`vision.incremental.read_changes` of
    ``reader`` given ``previous`` (its last sighting, or None) and the changed ``boxes`` (``(x, y, w, h)`` frame px;
    None: unknown) would read the whole frame; None where it would read only the changes (or keep ``previous``: no
    change), ``previous`` is of a frame of another size (``read_changes`` says so), or ``reader`` has no first look."""
    if not hasattr(reader, "read_first"):
        return None
    if previous is not None and boxes is not None:
        if tuple(previous.frame_size) != (int(frame.shape[1]), int(frame.shape[0])):
            return None
        if not boxes or changes_only(frame.shape, previous, boxes, config):
            return None
    return lambda: reader.read_first(frame)


def cards_reader_with(reader: Any, explained: Sequence[np.ndarray]) -> Any:
    """``reader`` (a card reader) told of ``explained`` (float[K, 2] frame-px polygons known to be no card) when it
    takes them (a frozen dataclass with an ``explained`` field, :class:`vision.readers.CardsAdapter`), else as it
    is."""
    if not explained or not hasattr(reader, "explained"):
        return reader
    return replace(reader, explained=tuple(explained))


def dice_reader_with(reader: Any, cards: Sequence[Any], art: Mapping[str, np.ndarray] | None) -> Any:
    """``reader`` (a dice reader) told of the ``cards`` the card reads found on the frame it reads (observations with
    ``id`` and ``corners`` float[4, 2] frame px) and the deck's ``art`` (card id -> uint8[h, w, 3] BGR) when it takes
    them (a frozen dataclass with ``cards`` and ``art`` fields, :class:`vision.readers.RollDiceAdapter`), else as it
    is."""
    if not cards or not art or not (hasattr(reader, "cards") and hasattr(reader, "art")):
        return reader
    return replace(reader, cards=tuple(cards), art=art)
