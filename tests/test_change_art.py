"""A change the print of identified cards explains whole is not read for dice (issue 15: a tile laid costs no dice
read over its print), and a die laid with it, on it, beside it or gone from under it is still read.

The unit tests draw a card's art (random shapes, as printed art) into a plain frame by the homography of its corners,
under another light, and judge boxes round it (:func:`vision.card_art.change_explained_by_art`). The scene tests lay
a tile on the first generator's full Roll table (:func:`vision.synth_full.full_table`, :func:`add_card`) and read
the change as the box does: the card read first, then the dice read told of the cards found.
"""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from vision.card_art import change_explained_by_art

SIDE = 40.0          # a die's side in the scene, px


def _art(seed: int = 1) -> np.ndarray:
    """uint8[140, 100, 3]: a card's art, shapes of many colours on a light ground."""
    rng = np.random.default_rng(seed)
    art = np.full((140, 100, 3), 225, np.uint8)
    for _ in range(14):
        colour = tuple(int(v) for v in rng.integers(0, 255, 3))
        if rng.random() < 0.5:
            x, y = rng.integers(0, 100), rng.integers(0, 140)
            cv2.circle(art, (int(x), int(y)), int(rng.integers(6, 22)), colour, -1)
        else:
            pts = rng.integers(0, (100, 140), (3, 2)).astype(np.int32)
            cv2.fillConvexPoly(art, pts, colour)
    cv2.rectangle(art, (0, 0), (99, 139), (40, 120, 60), 6)
    return art


def _scene(gain=(1.0, 1.0, 1.0), offset=(0.0, 0.0, 0.0), seed: int = 0):
    """(frame uint8[360, 480, 3], the card, its art by id, its box grown by 12 px: the change detector's margin):
    the art warped onto a quad turned a few degrees, seen under a light of ``gain`` and ``offset`` per channel, on a
    plain cloth with sensor noise."""
    art = _art()
    frame = np.empty((360, 480, 3), np.float32)
    frame[:] = (70, 90, 60)
    centre, size, angle = (220.0, 170.0), (100.0, 140.0), 4.0
    quad = cv2.boxPoints((centre, size, angle)).astype(np.float64)
    # clockwise from the card's top-left as it reads (the art's corners in that order)
    start = int(np.argmin(quad.sum(axis=1)))
    quad = np.roll(quad, -start, axis=0)
    a, b = quad[1] - quad[0], quad[2] - quad[1]
    if a[0] * b[1] - a[1] * b[0] < 0:
        quad = quad[[0, 3, 2, 1]]
    src = np.array([[0, 0], [99, 0], [99, 139], [0, 139]], np.float32)
    H = cv2.getPerspectiveTransform(src, quad.astype(np.float32))
    warped = cv2.warpPerspective(art, H, (480, 360)).astype(np.float32)
    mask = np.zeros((360, 480), np.uint8)
    cv2.fillConvexPoly(mask, np.round(quad).astype(np.int32), 1)
    frame[mask > 0] = warped[mask > 0] * np.asarray(gain, np.float32) + np.asarray(offset, np.float32)
    frame = cv2.GaussianBlur(frame, (0, 0), 0.8)
    frame += np.random.default_rng(seed).normal(0, 2.5, frame.shape).astype(np.float32)
    lo, hi = quad.min(axis=0), quad.max(axis=0)
    box = (int(lo[0]) - 12, int(lo[1]) - 12, int(hi[0] - lo[0]) + 24, int(hi[1] - lo[1]) + 24)
    card = SimpleNamespace(id="world", corners=quad)
    return np.clip(frame, 0, 255).astype(np.uint8), card, {"world": art}, box


def _die(frame: np.ndarray, centre, colour=(40, 60, 200), angle: float = 20.0) -> np.ndarray:
    """``frame`` with a die of side :data:`SIDE` at ``centre`` (px): a coloured top face with a dark symbol and a
    darker rim."""
    out = frame.copy()
    rim = cv2.boxPoints((centre, (SIDE, SIDE), angle)).astype(np.int32)
    top = cv2.boxPoints((centre, (SIDE * 0.8, SIDE * 0.8), angle)).astype(np.int32)
    cv2.fillConvexPoly(out, rim, tuple(int(c * 0.6) for c in colour))
    cv2.fillConvexPoly(out, top, colour)
    cv2.circle(out, (int(centre[0]), int(centre[1])), int(SIDE * 0.18), (20, 20, 20), -1)
    return out


def test_a_card_laid_alone_is_explained_by_its_print():
    frame, card, art, box = _scene()
    assert change_explained_by_art(frame, box, [card], art, SIDE)


def test_the_print_explains_the_card_under_another_light():
    frame, card, art, box = _scene(gain=(0.7, 0.85, 1.1), offset=(20.0, -10.0, 5.0), seed=3)
    assert change_explained_by_art(frame, box, [card], art, SIDE)


@pytest.mark.parametrize("where", [(0.0, 0.0), (30.0, -40.0), (-35.0, 50.0)])
def test_a_die_on_the_card_is_not_its_print(where):
    frame, card, art, box = _scene()
    c = np.asarray(card.corners).mean(axis=0) + np.asarray(where)
    for colour in ((40, 60, 200), (225, 225, 225), (40, 120, 60)):   # red, white (the art's ground), the rim's green
        assert not change_explained_by_art(_die(frame, tuple(c), colour), box, [card], art, SIDE), colour


def test_a_die_over_the_cards_edge_is_not_its_print():
    frame, card, art, box = _scene()
    q = np.asarray(card.corners)
    edge = (q[1] + q[2]) / 2                       # the middle of the card's right edge
    out = (q[1] + q[2]) / 2 - (q[0] + q[3]) / 2
    c = edge + out / np.linalg.norm(out) * SIDE * 0.15    # a third of the die on the card, two thirds off
    assert not change_explained_by_art(_die(frame, tuple(c)), box, [card], art, SIDE)


def test_a_die_beside_the_card_in_the_change_leaves_room_off_the_card():
    frame, card, art, box = _scene()
    q = np.asarray(card.corners)
    c = (float(q[:, 0].max() + SIDE * 0.8), float(q[:, 1].mean()))
    x, y, w, h = box
    grown = (x, y, int(c[0] + SIDE) - x, h)        # the change holds the die beside the card too
    assert not change_explained_by_art(_die(frame, c), grown, [card], art, SIDE)


def test_nothing_is_explained_without_an_identified_card_with_art():
    frame, card, art, box = _scene()
    assert not change_explained_by_art(frame, box, [], art, SIDE)
    assert not change_explained_by_art(frame, box, [replace_id(card, None)], art, SIDE)
    assert not change_explained_by_art(frame, box, [replace_id(card, "other")], art, SIDE)
    assert not change_explained_by_art(frame, box, [card], {}, SIDE)
    assert not change_explained_by_art(frame, (600, 400, 50, 50), [card], art, SIDE), "a box off the frame"
    for side in (0.0, -3.0, float("nan")):
        with pytest.raises(ValueError):
            change_explained_by_art(frame, box, [card], art, side)


def replace_id(card, id_) -> SimpleNamespace:
    return SimpleNamespace(id=id_, corners=card.corners)


# ------------------------------------------------------------------------------------------------ on a Roll table


TILES = [f"tile_{k}" for k in range(1, 30)]


@pytest.fixture(scope="module")
def roll_readers(tmp_path_factory):
    from vision import synth
    from vision.deck_enroll import build_deck_from_images
    from vision.roll_dice import RollDiceReader, build_profile
    from vision.synth_table import GAME_SHAPES, reference_images

    folder = tmp_path_factory.mktemp("enroll")
    synth.write_enrollment(folder, synth.ALL_FACES_BY_COLOUR, seed=7, symbol_set="A")
    deck = build_deck_from_images(reference_images(TILES, GAME_SHAPES["roll"], seed=7), name="roll", kind="scan",
                                  card_mm=GAME_SHAPES["roll"])
    return RollDiceReader(build_profile(folder)), deck


def _tile_change(roll_readers, seed: int, die_at=None, die_before: bool = False):
    """(the dice read of the change told of the cards, the dice read of it untold, the die laid or taken, the tile
    laid): a tile laid on a full Roll table (``seed``), with a die laid at ``die_at`` (mm from the tile's centre) in
    the same change, or (``die_before``) a die that lay where the tile goes taken away."""
    from vision.dice_and_cards import dice_reader_with
    from vision.incremental import read_changes
    from vision.motion import change_boxes
    from vision.readers import CardsAdapter, RollDiceAdapter
    from vision.synth_full import add_card, full_table
    from vision.table import calibrate

    reader, deck = roll_readers
    table = full_table("roll", TILES, seed, (1280, 720))
    cal = calibrate(table.render(frame_seed=0), table.layout)
    pieces, tile = add_card(table, table.pieces, TILES, seed + 1)
    some = next(p for p in table.pieces if p.kind == "die")
    before, after, die = list(table.pieces), list(pieces), None
    if die_at is not None:
        die = replace(some, centre_mm=(tile.centre_mm[0] + die_at[0], tile.centre_mm[1] + die_at[1]), angle_deg=20.0)
        after.append(die)
    if die_before:
        die = replace(some, centre_mm=tile.centre_mm, angle_deg=10.0)
        before.append(die)
    first, frame = table.render(before, frame_seed=0), table.render(after, frame_seed=1)
    dice_reader, cards_reader = RollDiceAdapter(reader, calibration=cal), CardsAdapter(deck, cal)
    dice0 = dice_reader.read(first)
    boxes = change_boxes(first, frame)
    cards = read_changes(cards_reader, frame, cards_reader.read(first), boxes).cards
    told = read_changes(dice_reader_with(dice_reader, cards, deck.art), frame, dice0, boxes)
    untold = read_changes(dice_reader, frame, dice0, boxes)
    return table, told, untold, die, tile, cards, frame, deck.art


def _on(table, piece, dice) -> list:
    poly = table.polygon_px(piece).astype(np.float32).reshape(-1, 1, 2)
    return [d for d in dice if cv2.pointPolygonTest(poly, (d.box[0] + d.box[2] / 2, d.box[1] + d.box[3] / 2),
                                                    False) >= 0]


def _read(sighting) -> set:
    return {(d.colour, d.face, tuple(d.box)) for d in sighting.dice}


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2])
def test_a_tile_laid_alone_is_not_read_for_dice(roll_readers, seed):
    from vision.card_art import without_art

    table, told, untold, _, tile, cards, frame, art = _tile_change(roll_readers, seed)
    assert tile.id in {c.id for c in cards}
    assert "art_change" in told.timings_ms and "faces" not in told.timings_ms and "candidates" not in told.timings_ms
    assert not _on(table, tile, told.dice), "no die on the new tile"
    # after the art check (as the box reads), the dice are those of the read untold: the faces its window found in
    # the tile's print are dropped there
    assert _read(without_art(frame, told, cards, art)) == _read(without_art(frame, untold, cards, art))


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "where"), [(1, "on"), (1, "edge"), (1, "beside"), (2, "below"), (2, "corner")])
def test_a_die_laid_on_or_beside_the_new_tile_is_read(roll_readers, seed, where):
    from vision.synth_full import ROLL_DIE_MM
    from vision.synth_table import GAME_SHAPES

    half, die = GAME_SHAPES["roll"][0] / 2, ROLL_DIE_MM     # a tile's half side and a die's side, mm
    at = {"on": (0.0, 0.0), "edge": (half, 0.0), "beside": (half + 0.8 * die, 0.0), "below": (0.0, half + 0.8 * die),
          "corner": (half, half)}[where]
    table, told, untold, die, _, _, _, _ = _tile_change(roll_readers, seed, die_at=at)
    assert "faces" in told.timings_ms, "the change was read for dice"
    got = _on(table, die, told.dice)
    assert len(got) == 1, "the die is found"
    assert [(d.colour, d.face) for d in got] == [(d.colour, d.face) for d in _on(table, die, untold.dice)], \
        "read as the dice read untold of the cards reads it"


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 3])
def test_a_die_where_the_tile_was_laid_is_gone(roll_readers, seed):
    table, told, untold, die, tile, _, _, _ = _tile_change(roll_readers, seed, die_before=True)
    assert "faces" not in told.timings_ms, "the tile's print explains the change"
    assert not _on(table, tile, told.dice), "the die that lay there is not kept"
