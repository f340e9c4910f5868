"""vision.dice_and_cards: one frame's dice read and card reads in the box's order (the dice first, the card reads told
where the dice lie), then the art check; and the card reader given the dice finds the cards it finds without them.

The full tables come from the first generator (:func:`vision.synth_full.full_table`), read with a deck enrolled from
its stand-in scans; the dice given to the card reader are the scene's own dice (their top faces, from the labels).
"""

from __future__ import annotations

import threading
from dataclasses import replace

import numpy as np
import pytest

from vision.cards import CardsConfig, read_cards
from vision.deck_enroll import build_deck_from_images
from vision.dice_and_cards import (
    CARDS_FIRST,
    ORDERS,
    SURE_DIE,
    TILES_FIRST,
    cards_reader_with,
    changes_order,
    dice_polygons,
    dice_reader_with,
    first_look,
    kept_dice,
    read_dice_and_cards,
)
from vision.observations import Sighting
from vision.readers import CardsAdapter
from vision.roll_dice import RollDieObservation
from vision.synth_full import full_table
from vision.synth_table import GAME_SHAPES, reference_images
from vision.table import calibrate

TILES = [f"tile_{k}" for k in range(1, 30)]


def _dice(*boxes, confidence: float = 0.9) -> Sighting:
    return Sighting("roll_dice", 640, 480, dice=tuple(RollDieObservation("white", "explore", b, confidence)
                                                      for b in boxes))


def test_the_dice_boxes_are_their_top_faces_outline():
    [p] = dice_polygons(_dice((10, 20, 30, 40)))
    assert p.shape == (4, 2)
    assert p.tolist() == [[10, 20], [40, 20], [40, 60], [10, 60]]
    assert dice_polygons(None) == ()
    assert dice_polygons(_dice()) == ()
    assert dice_polygons(_dice((10, 20, 30, 40), confidence=0.5), min_confidence=0.6) == ()


def test_each_order_reads_the_dice_and_the_cards_as_it_says():
    from concurrent.futures import ThreadPoolExecutor

    frame = np.zeros((480, 640, 3), np.uint8)
    calls: list[tuple] = []
    unsure = RollDieObservation("blue", "develop", (500, 400, 30, 30), SURE_DIE / 2)   # maybe a tile's print
    dice = replace(_dice((100, 100, 30, 30), (300, 200, 28, 28)), dice=_dice((100, 100, 30, 30),
                                                                          (300, 200, 28, 28)).dice + (unsure,))

    def read_dice() -> Sighting:
        calls.append(("dice", threading.current_thread().name))
        return dice

    def card_read(key):
        def read(explained) -> Sighting:
            calls.append((key, tuple(tuple(map(tuple, p)) for p in explained)))
            return Sighting("cards", 640, 480)
        return read

    reads = {"a": card_read("a"), "b": card_read("b")}
    seen, cards = read_dice_and_cards(frame, read_dice, reads, None)
    boxes = ((((100, 100), (130, 100), (130, 130), (100, 130)), ((300, 200), (328, 200), (328, 228), (300, 228))))
    assert calls == [("dice", threading.current_thread().name), ("a", boxes), ("b", boxes)], \
        "the dice first; every card read told where the two sure dice lie"
    assert seen is dice and list(cards) == ["a", "b"]

    calls.clear()
    read_dice_and_cards(frame, read_dice, reads, None, order="serial")
    assert calls == [("a", ()), ("b", ()), ("dice", threading.current_thread().name)], "the cards, then the dice"

    calls.clear()
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="helper") as helper:
        seen, _ = read_dice_and_cards(frame, read_dice, reads, None, order="beside", helper=helper)
    assert seen is dice
    assert sorted(c for c in calls if c[0] != "dice") == [("a", ()), ("b", ())]
    assert [c[1].startswith("helper") for c in calls if c[0] == "dice"] == [True], "the dice on the helper thread"

    # no dice read: the cards are read, told of nothing; no card read: the dice alone
    calls.clear()
    assert read_dice_and_cards(frame, None, reads, None)[0] is None
    assert calls == [("a", ()), ("b", ())]
    assert read_dice_and_cards(frame, read_dice, {}, None) == (dice, {})
    with pytest.raises(ValueError, match="order must be one of"):
        read_dice_and_cards(frame, read_dice, reads, None, order="both")
    assert set(ORDERS) == {"tiles_first", "explained", "beside", "serial"} and ORDERS[0] == TILES_FIRST


def test_a_dice_read_that_fails_beside_the_cards_is_raised_after_them():
    from concurrent.futures import ThreadPoolExecutor

    done: list[str] = []

    def read_dice() -> Sighting:
        raise RuntimeError("the dice reader broke")

    def read_cards_(explained) -> Sighting:
        done.append("cards")
        return Sighting("cards", 640, 480)

    with ThreadPoolExecutor(max_workers=1) as helper, pytest.raises(RuntimeError, match="the dice reader broke"):
        read_dice_and_cards(np.zeros((480, 640, 3), np.uint8), read_dice, {"c": read_cards_}, None, "beside", helper)
    assert done == ["cards"]


def test_only_a_card_reader_that_takes_them_is_told_of_the_dice():
    reader = CardsAdapter()
    polys = dice_polygons(_dice((1, 2, 3, 4)))
    told = cards_reader_with(reader, polys)
    assert told is not reader and len(told.explained) == 1 and reader.explained == ()
    assert cards_reader_with(reader, ()) is reader

    class Injected:   # a reading function injected by a test: no ``explained``
        def read(self, frame):
            raise AssertionError("not read here")

    other = Injected()
    assert cards_reader_with(other, polys) is other


@pytest.fixture(scope="module")
def roll_deck():
    return build_deck_from_images(reference_images(TILES, GAME_SHAPES["roll"], seed=7), name="roll", kind="scan",
                                  card_mm=GAME_SHAPES["roll"])


def _same_cards(a, b) -> bool:
    """Whether two card reads name the same cards at the same places (corners within 1 px)."""
    if len(a) != len(b):
        return False
    rest = list(b)
    for c in a:
        match = [o for o in rest if o.id == c.id and np.abs(np.asarray(o.corners) - np.asarray(c.corners)).max() <= 1.0]
        if not match:
            return False
        rest.remove(match[0])
    return True


@pytest.mark.slow
def test_the_card_reader_told_of_the_dice_finds_the_same_tiles_and_skips_the_dice(roll_deck):
    for seed in (2, 8):
        table = full_table("roll", TILES, seed, (1280, 720))
        frame = table.render(frame_seed=1)
        cal = calibrate(frame, table.layout)
        dice = [p for p in table.pieces if p.kind == "die"]
        tiles = [p for p in table.pieces if p.kind == "card"]
        assert len(dice) >= 10
        before = read_cards(frame, roll_deck, calibration=cal)
        explained = dice_polygons(Sighting("roll_dice", 1280, 720, dice=tuple(
            RollDieObservation(d.colour, d.face, table.box_px(d), 0.9) for d in dice)))
        after = read_cards(frame, roll_deck, calibration=cal, explained=explained)
        assert len(after.cards) == len(tiles), "every tile found, none lost under the dice"
        assert _same_cards(before.cards, after.cards)
        stages = {k for k in after.timings_ms if k.startswith("loose")}
        assert stages <= {k for k in before.timings_ms if k.startswith("loose")}
        if seed == 2:
            # the dice were all the first look left: the second look is not taken; untold, neither (the dice' tops
            # count for no tile's place, CardsConfig.loose_min_place), where counted over the frame it snapped the
            # places the dice made to outlines and dropped them as dice
            assert not stages and "loose_gate" in before.timings_ms and "loose_snap" not in before.timings_ms
            summed = read_cards(frame, roll_deck, calibration=cal, config=CardsConfig(loose_min_place=0.0))
            assert {"loose_snap", "loose_dice"} <= set(summed.timings_ms) and _same_cards(summed.cards, before.cards)
        # the adapter (the box's reader) passes them on
        told = CardsAdapter(roll_deck, cal, explained=explained).read(frame)
        assert _same_cards(told.cards, after.cards)


@pytest.mark.slow
def test_a_tile_added_among_the_dice_is_read_the_same_told_of_them(roll_deck):
    from vision.incremental import read_changes
    from vision.motion import change_boxes
    from vision.synth_full import add_card

    table = full_table("roll", TILES, 3, (1280, 720))
    frame = table.render(frame_seed=1)
    cal = calibrate(frame, table.layout)
    pieces, added = add_card(table, table.pieces, TILES, 4)
    frame2 = table.render(pieces, frame_seed=2)
    dice = [p for p in pieces if p.kind == "die"]
    explained = tuple(table.polygon_px(d) for d in dice)
    reader = CardsAdapter(roll_deck, cal)
    first = reader.read(frame)
    boxes = change_boxes(frame, frame2)
    plain = read_changes(reader, frame2, first, boxes)
    told = read_changes(cards_reader_with(reader, explained), frame2, first, boxes)
    assert _same_cards(plain.cards, told.cards)
    assert len(told.cards) == len(first.cards) + 1


@pytest.mark.slow
def test_after_a_change_each_window_is_told_of_the_cards_kept_in_it(roll_deck, monkeypatch):
    import vision.cards as vc
    from vision.incremental import read_changes
    from vision.motion import change_boxes
    from vision.synth_full import add_card

    table = full_table("roll", TILES, 5, (1280, 720))
    frame = table.render(frame_seed=1)
    cal = calibrate(frame, table.layout)
    pieces, _ = add_card(table, table.pieces, TILES, 6)
    frame2 = table.render(pieces, frame_seed=2)
    reader = CardsAdapter(roll_deck, cal)
    first = reader.read(frame)
    told: list[list[np.ndarray]] = []
    read = vc.read_cards

    def spy(window, *args, **kw):
        told.append([np.asarray(p) for p in kw.get("explained", ())])
        return read(window, *args, **kw)

    monkeypatch.setattr(vc, "read_cards", spy)
    boxes = change_boxes(frame, frame2)
    after = read_changes(reader, frame2, first, boxes)
    assert told, "the change was read in a window"
    assert len(after.cards) == len(first.cards) + 1
    kept = [c for c in first.cards if not any(
        c.corners[:, 0].max() > x and c.corners[:, 0].min() < x + w and c.corners[:, 1].max() > y
        and c.corners[:, 1].min() < y + h for x, y, w, h in boxes)]
    # what a window is told of is kept cards (no dice were given), in the window's px: a card's corners moved by the
    # window's origin
    polys = [p for t in told for p in t]
    assert polys, "a kept card beside the new tile lies in its window"

    def moved_kept(p: np.ndarray) -> bool:
        return any(np.allclose(np.asarray(c.corners) - p, (np.asarray(c.corners) - p)[0], atol=1e-6) for c in kept)

    assert all(moved_kept(p) for p in polys)


def test_a_read_of_the_changes_reads_the_cards_first_and_tells_the_dice_of_them():
    frame = np.zeros((480, 640, 3), np.uint8)
    calls: list[tuple] = []
    tile = type("Card", (), {"id": "tile_1", "corners": np.array([[0, 0], [90, 0], [90, 90], [0, 90]], float)})()
    dice = _dice((300, 200, 28, 28))

    def read_dice(*cards) -> Sighting:
        calls.append(("dice", cards))
        return dice

    def read_cards_(explained) -> Sighting:
        calls.append(("cards", len(explained)))
        return Sighting("cards", 640, 480, cards=(tile,))

    kept = _dice((100, 100, 30, 30)).dice
    seen, cards = read_dice_and_cards(frame, read_dice, {"c": read_cards_}, None, CARDS_FIRST, kept=kept)
    assert calls == [("cards", 1), ("dice", ((tile,),))], "the cards first, told the dice kept; the dice told the cards"
    assert seen is dice and cards["c"].cards == (tile,)
    assert CARDS_FIRST not in ORDERS, "not an order a whole frame is read in"


def test_the_cards_go_first_only_where_every_read_reads_only_what_changed():
    shape = (480, 640, 3)
    last = [Sighting("roll_dice", 640, 480), Sighting("cards", 640, 480)]
    assert changes_order("explained", shape, last, [(10, 10, 50, 50)]) == CARDS_FIRST
    assert changes_order("explained", shape, last, []) == CARDS_FIRST, "nothing changed: both keep their reads"
    assert changes_order("explained", shape, last, None) == "explained", "the change unknown: a full read"
    assert changes_order("explained", shape, [last[0], None], [(10, 10, 50, 50)]) == "explained", "no last card read"
    assert changes_order("explained", shape, last, [(0, 0, 600, 400)]) == "explained", "most of the frame changed"
    assert changes_order("explained", shape, [Sighting("cards", 320, 240)], [(10, 10, 50, 50)]) == "explained"
    assert changes_order("explained", shape, [object()], [(10, 10, 50, 50)]) == "explained", "a bare reader's read"
    assert changes_order("serial", shape, last, [(10, 10, 50, 50)]) == "serial"
    assert changes_order(TILES_FIRST, shape, last, [(10, 10, 50, 50)]) == CARDS_FIRST
    assert changes_order(TILES_FIRST, shape, last, None) == TILES_FIRST, "a whole frame: the tiles' first look first"


def test_tiles_first_reads_the_first_looks_then_the_dice_told_the_tiles_then_a_second_look_where_it_finds_one():
    frame = np.zeros((480, 640, 3), np.uint8)
    calls: list[tuple] = []
    tile = type("Card", (), {"id": "tile_1", "corners": np.array([[0, 0], [90, 0], [90, 90], [0, 90]], float)})()
    unsure = RollDieObservation("blue", "develop", (500, 400, 30, 30), SURE_DIE / 2)
    dice = replace(_dice(), dice=_dice((300, 200, 28, 28)).dice + (unsure,))
    sure_box = ((300, 200), (328, 200), (328, 228), (300, 228))
    unsure_box = ((500, 400), (530, 400), (530, 430), (500, 430))

    def read_dice(*cards) -> Sighting:
        calls.append(("dice", cards))
        return dice

    def card_read(key):
        def read(explained) -> Sighting:
            calls.append((key, tuple(tuple(map(tuple, p)) for p in explained)))
            return Sighting("cards", 640, 480, cards=(tile,))
        return read

    def look(key, finds: bool):
        def due(more, dice=()) -> bool:
            calls.append((f"{key} second look", tuple(tuple(map(tuple, p)) for p in more),
                          tuple(tuple(map(tuple, p)) for p in dice)))
            return finds

        def first() -> tuple[Sighting, object]:
            calls.append((f"{key} first look",))
            return Sighting("cards", 640, 480, cards=(tile,), notes=(key,)), due
        return first

    reads = {"a": card_read("a"), "b": card_read("b"), "c": card_read("c")}
    seen, cards = read_dice_and_cards(frame, read_dice, reads, None, TILES_FIRST,
                                      first={"a": look("a", False), "b": look("b", True), "c": None})
    assert calls == [("a first look",), ("b first look",), ("dice", ((tile, tile),)),
                     ("a second look", (sure_box,), (sure_box, unsure_box)),
                     ("b second look", (sure_box,), (sure_box, unsure_box)), ("b", (sure_box,)), ("c", (sure_box,))], \
        "the first looks, the dice told their tiles, each second look told the sure die (its gate every die read); " \
        "read again (told the sure die) where it finds"
    assert seen is dice and list(cards) == ["a", "b", "c"]
    assert cards["a"].notes == ("a",), "no second look found anything: the first look's read stands"
    assert cards["b"].notes == () and cards["c"].notes == ()
    # no first look to give: read as "explained", the dice read called with no argument
    calls.clear()
    read_dice_and_cards(frame, lambda: read_dice(), {"c": reads["c"]}, None, TILES_FIRST)
    assert calls == [("dice", ()), ("c", (sure_box,))]
    # no dice read (a game of cards alone): no first look, each card read reads once, told of nothing
    calls.clear()
    seen, cards = read_dice_and_cards(frame, None, reads, None, TILES_FIRST,
                                      first={"a": look("a", False), "b": look("b", True), "c": None})
    assert calls == [("a", ()), ("b", ()), ("c", ())], "a first look and then the whole read again for b before"
    assert seen is None and list(cards) == ["a", "b", "c"]
    # another order leaves the first looks alone
    calls.clear()
    read_dice_and_cards(frame, lambda: read_dice(), {"a": reads["a"]}, None, "explained", first={"a": look("a", False)})
    assert calls == [("dice", ()), ("a", (sure_box,))]


def test_a_card_read_gives_its_first_look_only_where_it_would_read_the_whole_frame():
    class Reader:
        def read_first(self, frame):
            return "first look of", frame

    frame = np.zeros((480, 640, 3), np.uint8)
    last = Sighting("cards", 640, 480)
    assert first_look(Reader(), frame)() == ("first look of", frame), "no last read: the whole frame"
    assert first_look(Reader(), frame, last, None) is not None, "the change unknown: the whole frame"
    assert first_look(Reader(), frame, last, [(0, 0, 600, 400)]) is not None, "most of the frame changed"
    assert first_look(Reader(), frame, last, [(10, 10, 50, 50)]) is None, "only the change read"
    assert first_look(Reader(), frame, last, []) is None, "nothing changed: the last read kept"
    assert first_look(Reader(), frame, Sighting("cards", 320, 240), [(10, 10, 50, 50)]) is None, \
        "a last read of another size (read_changes says so)"
    assert first_look(object(), frame) is None, "a reader with no first look"


def test_the_dice_no_change_touches_are_kept_told_to_the_cards_when_sure_and_not_art_checked_again():
    unsure = RollDieObservation("blue", "develop", (500, 400, 30, 30), SURE_DIE / 2)
    last = replace(_dice(), dice=_dice((100, 100, 30, 30), (300, 200, 28, 28)).dice + (unsure,))
    kept = kept_dice(last, [(290, 190, 50, 50)])
    assert kept == (last.dice[0], unsure), "the rolled die left out"
    assert kept_dice(None, [(0, 0, 1, 1)]) == () and kept_dice(last, None) == ()
    told: list = []
    frame = np.zeros((480, 640, 3), np.uint8)
    # a tile under every die whose art is the frame itself: the art check drops every die it looks at
    tile = type("Card", (), {"id": "t", "corners": np.array([[0, 0], [639, 0], [639, 479], [0, 479]], float)})()
    frame[::8] = 255
    new = RollDieObservation("red", "explore", (300, 200, 28, 28), 0.9)
    seen, _ = read_dice_and_cards(
        frame, lambda cards: replace(last, dice=(*kept, new)),
        {"c": lambda explained: told.append(explained) or Sighting("cards", 640, 480, cards=(tile,))},
        {"t": frame.copy()}, CARDS_FIRST, kept=kept)
    [[p]] = told
    assert p.tolist() == [[100, 100], [130, 100], [130, 130], [100, 130]], "only the sure kept die told"
    assert seen.dice == kept, "the new die is the tile's print; the kept ones are not looked at again"


def test_only_a_dice_reader_that_takes_them_is_told_of_the_cards():
    from vision.readers import RollDiceAdapter

    tile = type("Card", (), {"id": "tile_1", "corners": np.zeros((4, 2))})()
    art = {"tile_1": np.zeros((8, 8, 3), np.uint8)}
    dice = RollDiceAdapter(reader=None)
    told = dice_reader_with(dice, [tile], art)
    assert told is not dice and told.cards == (tile,) and told.art is art and dice.cards == ()
    assert dice_reader_with(dice, [], art) is dice and dice_reader_with(dice, [tile], None) is dice
    cards = CardsAdapter()
    assert dice_reader_with(cards, [tile], art) is cards, "a reader without the fields is left as it is"
