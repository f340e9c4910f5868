"""One frame's dice read and card reads, in the order that pays, then the art check over both.

The box (:meth:`companion.camera.flow.CameraFlow.see`) and ``bench/full_table.py`` read a table with dice and cards
(Roll for the Galaxy: dice among and on the tiles) through :func:`read_dice_and_cards`, so the bench times the
box's own order. The orders (:data:`ORDERS`):

* ``"explained"`` (the default): the dice first, then each card read given the dice found as polygons known to be
  no card (:class:`vision.readers.CardsAdapter`'s ``explained``; :func:`vision.card_detect.find_card_quads`): the
  card detector's second look leaves their foreground out, so the dice among the tiles make no place of it to snap
  to an outline (``loose_snap``), screen against the deck and then drop as dice (``loose_dice``). A tile is found
  by the first look as before, dice on it or not (the first look does not use them).
* ``"beside"``: the dice on a second thread while the card reads run (no card read waits for the dice). On a
  machine where both readers are mostly Python and numpy under one interpreter lock it gains little.
* ``"serial"``: the cards, then the dice, neither told of the other (the reads before either lever; for benches).

Whatever the order, the dice that are the printed art of a card the card reads identified under them are dropped
after both reads (:func:`vision.card_art.without_art`; the dice reader's ``art`` stage). A die the dice reader found
on a tile's art is passed to the card read as explained too; the tile under it is found by the detector's first
look (the whole tile is one foreground blob), which the explained dice do not change, and the art check then
drops the die. The explained dice only take foreground from the second look, where a die's top would otherwise
be a piece of a place.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor, wait
from dataclasses import replace
from typing import Any, TypeVar

import numpy as np

from .card_art import without_art
from .observations import Sighting

__all__ = ["ORDERS", "cards_reader_with", "dice_polygons", "read_dice_and_cards"]

ORDERS = ("explained", "beside", "serial")
"""The orders :func:`read_dice_and_cards` reads in (see the module's docstring)."""

K = TypeVar("K")


def dice_polygons(dice: Sighting | None) -> tuple[np.ndarray, ...]:
    """The top-face boxes of ``dice`` (a dice reader's sighting; None: no dice) as float[4, 2] frame-px polygons,
    clockwise from the top-left: what a card read is given as ``explained``."""
    if dice is None:
        return ()
    out = []
    for d in dice.dice:
        x, y, w, h = (float(v) for v in d.box)
        out.append(np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], np.float64))
    return tuple(out)


def read_dice_and_cards(frame: np.ndarray, read_dice: Callable[[], Sighting] | None,
                        read_cards: Mapping[K, Callable[[Sequence[np.ndarray]], Sighting]],
                        art: Mapping[str, np.ndarray] | None, order: str = "explained",
                        helper: Executor | None = None) -> tuple[Sighting | None, dict[K, Sighting]]:
    """The dice read and the card reads of one frame in ``order``, then the art check.

    Args:
        frame: uint8[H, W, 3] BGR, the frame every read reads (the art check compares its pixels).
        read_dice: the dice read of ``frame`` (a full read or only what changed), or None: no dice read.
        read_cards: per key (the box: one per anchor of the player zones), the card read of ``frame`` given the
            polygons (float[K, 2] frame px) known to be no card; a reader that cannot use them ignores them.
        art: the card deck's art (:attr:`vision.deck.DeckProfile.art`, card id -> uint8[h, w, 3] BGR), or None:
            no art check (a deck enrolled before decks kept their art, or no deck).
        order: one of :data:`ORDERS`.
        helper: the executor of the second thread for ``"beside"`` (one worker is enough); None: ``"beside"`` reads
            as ``"serial"``.

    Returns:
        (the dice sighting without the dice that are a card's art, or None without ``read_dice``; the card
        sightings by key, in ``read_cards``' order).

    Raises:
        ValueError: ``order`` is not one of :data:`ORDERS`.
        Whatever a read raises (:class:`vision.BadFrame` for a bad frame); a dice read on the helper thread
        raises here, after the card reads.
    """
    if order not in ORDERS:
        raise ValueError(f"order must be one of {', '.join(ORDERS)}, got {order!r}")
    dice: Sighting | None = None
    cards: dict[K, Sighting] = {}
    if order == "explained" or not read_cards:
        dice = read_dice() if read_dice is not None else None
        explained = dice_polygons(dice) if order == "explained" else ()
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
    if dice is not None:
        dice = without_art(frame, dice, [c for s in cards.values() for c in s.cards], art)
    return dice, cards


def cards_reader_with(reader: Any, explained: Sequence[np.ndarray]) -> Any:
    """``reader`` (a card reader) told of ``explained`` (float[K, 2] frame-px polygons known to be no card) when it
    takes them (a frozen dataclass with an ``explained`` field, :class:`vision.readers.CardsAdapter`), else as it
    is."""
    if not explained or not hasattr(reader, "explained"):
        return reader
    return replace(reader, explained=tuple(explained))
