"""vision.incremental: after one change only the changed part of the table is read again; every die, card,
tile and hex whose place did not change keeps its observation; the change comes from vision.motion."""

from __future__ import annotations

import math
import os
from pathlib import Path

import cv2
import numpy as np
import pytest

import vision.card_detect as card_detect
from vision import D6Reader, synth
from vision.deck_enroll import build_deck_from_images
from vision.dice_and_cards import SURE_DIE
from vision.hexes import build_hex_deck_from_images
from vision.incremental import IncrementalReader, read_changes, touches, windows
from vision.motion import change_boxes
from vision.readers import CardsAdapter, D6Adapter, HexesAdapter, RollDiceAdapter, Sighting
from vision.roll_dice import RollDiceReader, build_profile
from vision.synth_full import add_card, full_table, reroll
from vision.synth_table import GAME_SHAPES, hex_reference_images, reference_images
from vision.table import calibrate

SHARED = Path(os.environ.get("TABLETOP_SHARED", Path(__file__).resolve().parents[2] / "shared"))
BYLER = SHARED / "datasets" / "byler_d6_dice" / "train" / "images"
RACE_IDS = [f"race_{k:02d}" for k in range(40)]
TILES = [f"tile_{k}" for k in range(1, 30)]
SECTORS = ["001"] + [f"{ring}{k:02d}" for ring in (1, 2, 3) for k in range(1, 11)]


def by_place(sighting: Sighting) -> dict[tuple[int, int], object]:
    """Cards and hexes by their rounded pixel centre."""
    return {tuple(int(round(v / 4)) for v in o.center_px): o for o in (*sighting.cards, *sighting.hexes)}


@pytest.fixture(scope="module")
def race():
    table = full_table("race", RACE_IDS, 1, (1280, 720))
    deck = build_deck_from_images(reference_images(RACE_IDS, GAME_SHAPES["race"], seed=7), name="race", kind="scan",
                                  card_mm=GAME_SHAPES["race"])
    first = table.render(frame_seed=0)
    reader = CardsAdapter(deck, calibrate(first, table.layout))
    return table, reader, first, reader.read(first)


def test_every_adapter_reads_changes():
    for cls in (D6Adapter, RollDiceAdapter, CardsAdapter, HexesAdapter):
        assert hasattr(cls, "read_changes")
    assert isinstance(D6Adapter(), IncrementalReader)


def test_a_card_played_is_read_and_every_other_card_kept(race):
    table, reader, first, before = race
    pieces, new = add_card(table, table.pieces, RACE_IDS, 5)
    after = table.render(pieces, frame_seed=1)
    boxes = change_boxes(first, after)
    assert boxes, "the card played is a change"
    got = read_changes(reader, after, before, boxes)
    assert len(before.cards) == 40 and len(got.cards) == 41
    old, now = by_place(before), by_place(got)
    for place, card in old.items():      # every card the same; away from the change, at the same corners
        assert now[place].id == card.id
        assert touches(card.corners, boxes) or np.array_equal(now[place].corners, card.corners)
    added = [c for place, c in now.items() if place not in old]
    assert len(added) == 1 and added[0].id == new.id
    # the windows around the change are a small part of the frame
    assert sum(w * h for _, _, w, h in windows(boxes, 0, after.shape)) < 0.1 * after.shape[0] * after.shape[1]
    assert got.timings_ms and "layout" in got.timings_ms


def test_a_card_beside_a_card_played_is_not_identified_again(race, monkeypatch):
    """A card whose box meets the change but which did not move keeps its observation (0 ms of identification):
    only the card played is scored against the deck."""
    table, reader, first, before = race
    pieces, new = add_card(table, table.pieces, RACE_IDS, 5)
    after = table.render(pieces, frame_seed=1)
    boxes = change_boxes(first, after)
    beside = [c for c in before.cards if touches(c.corners, boxes)]
    assert beside, "the card is played next to another"
    scored = []
    score_many = type(reader.deck).score_many
    monkeypatch.setattr(type(reader.deck), "score_many",
                        lambda self, crops: scored.extend(c.shape for c in crops) or score_many(self, crops))
    got = read_changes(reader, after, before, boxes)
    assert len(scored) == 1
    assert len(got.cards) == len(before.cards) + 1 and new.id in {c.id for c in got.cards}
    old, now = by_place(before), by_place(got)
    for place, card in old.items():
        if any(card is b for b in beside):
            assert now[place].id == card.id and np.array_equal(now[place].corners, card.corners)
            assert now[place].confidence == card.confidence


@pytest.mark.parametrize("seed", [2, 5])
def test_the_cards_a_window_cuts_are_cards_not_doubtful_places(race, seed, monkeypatch):
    """The window of a read after a change cuts the cards around it at its edges: they are cards of the first
    look (no lattice of whole cards fits a cut card well, and that is not the table's art), never doubtful places
    that send the window to the second look."""
    import vision.card_detect as card_detect

    doubtful_seen: list[int] = []
    select = card_detect.select_cards

    def spy(*args, **kwargs):
        out = select(*args, **kwargs)
        doubtful = kwargs.get("doubtful", args[6] if len(args) > 6 else None)
        if doubtful is not None:
            doubtful_seen.append(len(doubtful))
        return out

    monkeypatch.setattr(card_detect, "select_cards", spy)
    table, reader, first, before = race
    pieces, new = add_card(table, table.pieces, RACE_IDS, seed)
    after = table.render(pieces, frame_seed=1)
    got = read_changes(reader, after, before, change_boxes(first, after))
    assert new.id in {c.id for c in got.cards} and len(got.cards) == len(before.cards) + 1
    assert doubtful_seen and sum(doubtful_seen) == 0


def test_a_card_swapped_in_place_is_covered_by_its_change():
    from vision.cards import same_place
    from vision.incremental import covered

    card = np.array([[100, 100], [164, 100], [164, 190], [100, 190]], np.float64)
    assert covered(card, [(98, 98, 70, 96)]) == pytest.approx(1.0)
    assert covered(card, [(150, 100, 40, 90)]) == pytest.approx(14 / 64, abs=0.02)
    assert covered(card, [(300, 300, 10, 10)]) == 0.0

    class Seen:
        corners = card

    assert same_place(card[[2, 3, 0, 1]] + 3, [Seen], 5.0) is Seen   # turned, found 3 px off: the same card
    assert same_place(card + 20, [Seen], 5.0) is None


def test_nothing_changed_keeps_the_sighting(race):
    table, reader, first, before = race
    again = table.render(frame_seed=2)
    assert change_boxes(first, again) == []
    got = read_changes(reader, again, before, [])
    assert got.cards == before.cards and got.timings_ms == {"unchanged": 0.0}


@pytest.mark.slow
def test_unknown_change_or_most_of_the_frame_is_a_full_read(race):
    table, reader, first, before = race
    full = read_changes(reader, first, before, None)
    assert len(full.cards) == len(before.cards) and "identify" in full.timings_ms
    h, w = first.shape[:2]
    whole = read_changes(reader, first, before, [(0, 0, w, h)])
    assert "rectify_table" in whole.timings_ms and len(whole.cards) == len(before.cards)
    with pytest.raises(ValueError, match="1280x720"):
        read_changes(reader, first[:360, :640], before, [(0, 0, 10, 10)])


@pytest.mark.slow
def test_a_rerolled_roll_die_is_read_and_the_other_dice_kept(tmp_path):
    folder = tmp_path / "enroll"
    cfg = synth.ENROLL_CONFIG
    synth.write_enrollment(folder, synth.ALL_FACES_BY_COLOUR, seed=3, symbol_set="A", dice_per_photo=3, config=cfg)
    reader = RollDiceAdapter(RollDiceReader(build_profile(folder)))
    table = full_table("roll", TILES, 4, (1280, 720))
    first = table.render(frame_seed=0)
    before = reader.read(first)
    pieces, old, new = reroll(table, table.pieces, 9)
    after = table.render(pieces, frame_seed=1)
    got = read_changes(reader, after, before, change_boxes(first, after))
    x, y = table.polygon_px(new).mean(axis=0)
    landed = [d for d in got.dice if d.box[0] <= x <= d.box[0] + d.box[2] and d.box[1] <= y <= d.box[1] + d.box[3]]
    assert [(d.colour, d.face) for d in landed] == [(new.colour, new.face)]
    ox, oy = table.polygon_px(old).mean(axis=0)
    assert not [d for d in got.dice if d.box[0] <= ox <= d.box[0] + d.box[2] and d.box[1] <= oy <= d.box[1] + d.box[3]]
    untouched = [d for d in before.dice if not any(
        d.box[0] < bx + bw and bx < d.box[0] + d.box[2] and d.box[1] < by + bh and by < d.box[1] + d.box[3]
        for bx, by, bw, bh in change_boxes(first, after))]
    assert untouched and all(d in got.dice for d in untouched), "dice away from the change keep their reads"


@pytest.mark.slow
@pytest.mark.parametrize("seed", [9, 11])
def test_a_reroll_read_cuts_no_top_face_of_a_kept_die_and_reads_as_a_full_read(tmp_path, seed, monkeypatch):
    # one die re-rolled on a generated Roll table: the window round the change holds dice beside it that did not move
    # (kept as the last read had them); their candidates get no top face (none is centred on a kept die), and
    # the dice the window reads are those a full read of the frame after the change reads there
    import vision.roll_dice.reader as reader_mod

    folder = tmp_path / "enroll"
    synth.write_enrollment(folder, synth.ALL_FACES_BY_COLOUR, seed=3, symbol_set="A", dice_per_photo=3,
                           config=synth.ENROLL_CONFIG)
    reader = RollDiceAdapter(RollDiceReader(build_profile(folder)))
    table = full_table("roll", TILES, 4, (1280, 720))
    first = table.render(frame_seed=0)
    before = reader.read(first)
    pieces, _, _ = reroll(table, table.pieces, seed)
    after = table.render(pieces, frame_seed=1)
    boxes = change_boxes(first, after)
    kept = [d for d in before.dice if not touches(tuple(d.box), boxes)]
    cut: list[np.ndarray] = []
    extract = reader_mod.extract_tops

    def extract_seen(frame, cands, cfg):
        cut.append(cands.rects.copy())
        return extract(frame, cands, cfg)

    monkeypatch.setattr(reader_mod, "extract_tops", extract_seen)
    got = read_changes(reader, after, before, boxes)
    wins = windows(boxes, 1.5 * float(np.median([max(d.box[2:]) for d in before.dice])), after.shape)
    assert len(cut) == len(wins) and sum(map(len, cut))

    def on_kept(x: float, y: float) -> bool:   # in the middle half of a kept die's box, each way
        return any(abs(x - b[0] - b[2] / 2) <= b[2] / 4 and abs(y - b[1] - b[3] / 2) <= b[3] / 4
                   for b in (d.box for d in kept))

    in_windows = [d for d in kept for w in wins if w[0] <= d.box[0] + d.box[2] / 2 <= w[0] + w[2]
                  and w[1] <= d.box[1] + d.box[3] / 2 <= w[1] + w[3]]
    assert in_windows, "the windows hold dice that did not move"
    assert not [r for rects, w in zip(cut, wins, strict=True) for r in rects if on_kept(r[0] + w[0], r[1] + w[1])]
    monkeypatch.undo()
    full = reader.read(after)
    near = [d for d in full.dice if any(touches(tuple(d.box), [b]) for b in boxes)]
    assert near
    for d in near:
        assert [(e.colour, e.face) for e in got.dice if np.abs(np.subtract(e.box, d.box)).max() <= 3] == \
            [(d.colour, d.face)], d


@pytest.mark.slow
def test_a_roll_window_under_the_full_reads_light_reads_what_the_full_read_reads_there(tmp_path):
    # A generated Roll table: a window around a few dice, read under the light the full read measured on all
    # the table's dice, gives those dice the full read's colours and faces; a change read keeps that light.
    folder = tmp_path / "enroll"
    synth.write_enrollment(folder, synth.ALL_FACES_BY_COLOUR, seed=3, symbol_set="A", dice_per_photo=3,
                           config=synth.ENROLL_CONFIG)
    reader = RollDiceReader(build_profile(folder))
    table = full_table("roll", TILES, 4, (1280, 720))
    frame = table.render(frame_seed=0)
    full = reader.read(frame)
    assert full.light is not None and len(full.light) == 4
    # the dice the full read is sure of (SURE_DIE, as the table's readers count them): a die near an even chance
    # (the full read's second face read takes one from 0.34 to 0.50) is no reference for the window to match
    sure = [d for d in full.dice if d.confidence >= SURE_DIE]
    assert len(sure) >= 10
    d0 = sure[0]
    side = max(d0.box[2], d0.box[3])
    x0, y0 = max(0, d0.box[0] - 3 * side), max(0, d0.box[1] - 3 * side)
    x1, y1 = min(1280, d0.box[0] + 4 * side), min(720, d0.box[1] + 4 * side)
    window = reader.read_window(frame, (x0, y0, x1 - x0, y1 - y0), full.light)
    assert window.light == full.light
    inside = [d for d in sure if x0 + side <= d.box[0] and d.box[0] + d.box[2] <= x1 - side
              and y0 + side <= d.box[1] and d.box[1] + d.box[3] <= y1 - side]
    assert inside
    for d in inside:
        near = [e for e in window.dice if abs(e.box[0] - d.box[0]) <= 3 and abs(e.box[1] - d.box[1]) <= 3]
        assert [(e.colour, e.face) for e in near] == [(d.colour, d.face)], d
    # only the places the caller will use are read: the die at one place as the whole window reads it, none other
    d1 = inside[0]
    cx, cy = d1.box[0] + d1.box[2] / 2, d1.box[1] + d1.box[3] / 2

    def wanted(x: float, y: float) -> bool:
        return abs(x - cx) <= side / 2 and abs(y - cy) <= side / 2

    one = reader.read_window(frame, (x0, y0, x1 - x0, y1 - y0), full.light, wanted)
    assert [(e.colour, e.face) for e in one.dice] == [(d1.colour, d1.face)]
    assert not reader.read_window(frame, (x0, y0, x1 - x0, y1 - y0), full.light, lambda x, y: False).dice
    adapter = RollDiceAdapter(reader)
    before = adapter.read(frame)
    assert before.light == full.light
    pieces, _, _ = reroll(table, table.pieces, 9)
    after = table.render(pieces, frame_seed=1)
    assert read_changes(adapter, after, before, change_boxes(frame, after)).light == full.light


@pytest.mark.shared
@pytest.mark.skipif(not BYLER.is_dir(), reason="byler photos absent (set TABLETOP_SHARED)")
def test_d6_window_reads_what_the_full_read_reads_there():
    # A byler tray photo on a 1280x720 frame: a window around some dice reads them as the full read does
    # (the detector sees the window at the full frame's scale).
    photo = cv2.imread(str(BYLER / "IMG_20191208_111411.jpg"))
    frame = np.zeros((720, 1280, 3), np.uint8)
    frame[:] = np.median(photo[0], axis=0).astype(np.uint8)
    frame[40:680, 320:960] = photo
    reader = D6Reader()
    full = reader.read(frame)
    assert len(full.dice) >= 12
    x0, y0, x1, y1 = 540, 100, 900, 470
    window = reader.read_window(frame, (x0, y0, x1 - x0, y1 - y0))
    inside = [d for d in full.dice if x0 + 40 <= d.box[0] and d.box[0] + d.box[2] <= x1 - 40
              and y0 + 40 <= d.box[1] and d.box[1] + d.box[3] <= y1 - 40]
    assert len(inside) >= 8
    for d in inside:
        near = [e for e in window.dice if abs(e.box[0] - d.box[0]) <= 3 and abs(e.box[1] - d.box[1]) <= 3]
        assert [e.value for e in near] == [d.value], d


def test_hexes_outside_a_change_keep_their_place_on_the_map():
    table = full_table("eclipse", SECTORS, 3, (1280, 720))
    deck = build_hex_deck_from_images(hex_reference_images(SECTORS, seed=7), name="eclipse", kind="scan")
    first = table.render(frame_seed=0)
    reader = HexesAdapter(deck, calibrate(first, table.layout))
    before = reader.read(first)
    hexes = [p for p in table.pieces if p.kind == "hex"]
    gone = max(hexes, key=lambda p: abs(p.axial[0]) + abs(p.axial[1]))   # a hex at the map's rim taken away
    pieces = [p for p in table.pieces if p is not gone]
    after = table.render(pieces, frame_seed=1)
    got = read_changes(reader, after, before, change_boxes(first, after))
    assert len(got.hexes) == len(before.hexes) - 1
    was = {h.id: h.axial for h in before.hexes}
    assert {h.id: h.axial for h in got.hexes} == {k: v for k, v in was.items() if k != gone.id}


def test_a_combat_die_rolled_beside_the_map_keeps_every_hex_without_reading_the_map_again():
    """A combat die rolled a few sides along changes a box wider than a hex both ways, often against the rim of the
    hexes beside it: each hex keeps its id, turn, place and axial coordinates, and where the change covers no more
    than an edge of the hexes it touches, the window finds nothing new to fit a lattice to."""
    from vision.incremental import covered

    deck = build_hex_deck_from_images(hex_reference_images(SECTORS, seed=7), name="eclipse", kind="scan")
    rims = 0
    for seed in (1, 2, 3):
        table = full_table("eclipse", SECTORS, seed, (1280, 720))
        first = table.render(frame_seed=0)
        reader = HexesAdapter(deck, calibrate(first, table.layout))
        before = reader.read(first)
        assert len(before.hexes) == 24
        for roll in range(2):
            pieces, _, _ = reroll(table, table.pieces, 10 * seed + roll)
            after = table.render(pieces, frame_seed=1)
            boxes = change_boxes(first, after)
            got = read_changes(reader, after, before, boxes)
            assert [(h.id, h.rotation, h.axial) for h in got.hexes] == [(h.id, h.rotation, h.axial)
                                                                        for h in before.hexes]
            assert all(np.array_equal(a.corners, b.corners) for a, b in zip(got.hexes, before.hexes, strict=True))
            wide = [b for b in boxes if min(b[2], b[3]) >= np.median([np.linalg.norm(h.corners[0] - h.corners[4])
                                                                      for h in before.hexes])]
            touched = [h for h in before.hexes if touches(h.corners, wide)]
            if touched and all(covered(h.corners, wide) <= 0.4 for h in touched):
                rims += 1
                assert "identify" not in got.timings_ms and "refine" not in got.timings_ms, got.timings_ms
    assert rims >= 1, "no roll against a hex's rim: the case is not tested"


def _hex_at(cx: float, cy: float, flat: float = 100.0, hid: str | None = "101"):
    """A flat-topped regular hexagon ``flat`` px across its flats centred at (cx, cy): corners every 60 degrees from
    0, so corner 0 -> 4 spans the flats (R * sqrt(3) = flat), as the reader orders them."""
    from types import SimpleNamespace

    r = flat / np.sqrt(3.0)
    a = np.deg2rad(60.0 * np.arange(6))
    return SimpleNamespace(corners=np.stack([cx + r * np.cos(a), cy + r * np.sin(a)], axis=1), id=hid)


def test_room_for_a_hex_beside_the_map_only_where_a_hex_fits_joined_and_clear_of_it():
    """Hand-worked on a map of 7 hexes 100 px across (a centre at (500, 500), its ring at 100 px in the directions
    30 + 60k degrees, so the hex below it is centred at (500, 600)): the empty cell below that one is centred at
    (500, 700) and its box (440, 648, 120, 104) holds that centre 52-60 px (over 35 = 0.35 flat) in from every side,
    100 px (over 75) from (500, 600) and under 125 px from it: a hex fits. The same box 400 px below the map is off it
    (no centre within 125 px of a hex), unless the read keeps hexes joined to no other. A die's box over the rim of
    the hex at (500, 600), (440, 588, 120, 104), allows centres y 623-657 only, under 75 px from (500, 600): no hex
    fits clear of it. A box 50 px square holds no centre 30 px (35 less the 5 px grid step) in from its sides."""
    from vision.hexes.reader import room_for_a_hex

    turns = np.deg2rad(30 + 60 * np.arange(6))
    cells = [(500.0, 500.0)] + [(500 + 100 * np.cos(a), 500 + 100 * np.sin(a)) for a in turns]
    previous = [_hex_at(x, y) for x, y in cells]
    assert room_for_a_hex((440, 648, 120, 104), previous, 100.0)
    assert not room_for_a_hex((440, 1048, 120, 104), previous, 100.0)
    assert room_for_a_hex((440, 1048, 120, 104), previous, 100.0, joined=False)
    assert not room_for_a_hex((440, 588, 120, 104), previous, 100.0)
    assert not room_for_a_hex((475, 675, 50, 50), previous, 100.0, joined=False)


def test_a_die_rolled_off_the_map_reads_no_hex_and_a_hex_laid_beside_it_is_read():
    """A combat die rolled where no hex could have been laid (its change box has no room for a hex joined to the map
    and clear of it) keeps every hex without reading any pixel of the map (stage ``off_map``, no foreground); the
    same frame with a hex laid at the map's rim as well is read there, and the read equals a full read."""
    from vision.hexes.reader import room_for_a_hex

    deck = build_hex_deck_from_images(hex_reference_images(SECTORS, seed=7), name="eclipse", kind="scan")
    off = 0
    for seed in (3, 4, 5):
        table = full_table("eclipse", SECTORS, seed, (1280, 720))
        hexes = [p for p in table.pieces if p.kind == "hex"]
        laid = max(hexes, key=lambda p: abs(p.axial[0]) + abs(p.axial[1]))   # a hex at the map's rim
        first = table.render(frame_seed=0)
        reader = HexesAdapter(deck, calibrate(first, table.layout))
        before = reader.read(first)
        pieces, _, _ = reroll(table, table.pieces, seed + 1)
        after = table.render(pieces, frame_seed=1)
        boxes = change_boxes(first, after)
        flat = float(np.median([np.linalg.norm(h.corners[0] - h.corners[4]) for h in before.hexes]))
        if any(room_for_a_hex(b, before.hexes, flat) for b in boxes if min(b[2], b[3]) >= flat):
            continue
        off += 1
        got = read_changes(reader, after, before, boxes)
        assert "off_map" in got.timings_ms and "foreground" not in got.timings_ms, got.timings_ms
        assert [(h.id, h.rotation, h.axial) for h in got.hexes] == [(h.id, h.rotation, h.axial) for h in before.hexes]
        # the hex at the rim taken before the first frame and laid with the roll: its box has room, it is read
        first = table.render([p for p in table.pieces if p is not laid], frame_seed=0)
        before = reader.read(first)
        got = read_changes(reader, after, before, change_boxes(first, after))
        assert "off_map" not in got.timings_ms and "identify" in got.timings_ms, got.timings_ms
        assert {h.id: h.axial for h in got.hexes} == {h.id: h.axial for h in reader.read(after).hexes}
        assert laid.id in {h.id for h in got.hexes}
    assert off >= 1, "no die rolled off the map: the case is not tested"


def test_a_die_rolled_where_a_hex_could_lie_reads_no_map_and_a_hex_laid_moved_or_taken_with_it_is_read():
    """A combat die rolled against the map's rim changes a box with room for a hex (:func:`room_for_a_hex`): only its
    pixels tell it from a hex. A die alone keeps every hex after the coarse look (stage ``hex_blob``: no work image,
    no foreground of the window); the same roll with the rim hex nearest the die laid in the same change (taken before
    the first frame), moved a cell outwards, or taken away is read as a full read of that frame reads it."""
    from dataclasses import replace

    from vision.hexes.reader import room_for_a_hex

    deck = build_hex_deck_from_images(hex_reference_images(SECTORS, seed=7), name="eclipse", kind="scan")
    looked = 0
    for seed in (1, 2):
        table = full_table("eclipse", SECTORS, seed, (1280, 720))
        hexes = [p for p in table.pieces if p.kind == "hex"]
        ring = max(abs(p.axial[0]) + abs(p.axial[1]) for p in hexes)
        first = table.render(frame_seed=0)
        reader = HexesAdapter(deck, calibrate(first, table.layout))
        before = reader.read(first)
        flat = float(np.median([np.linalg.norm(h.corners[0] - h.corners[4]) for h in before.hexes]))
        for roll in range(6):
            pieces, _, die = reroll(table, table.pieces, 100 * seed + roll)
            after = table.render(pieces, frame_seed=1)
            boxes = change_boxes(first, after)
            if not any(room_for_a_hex(b, before.hexes, flat) for b in boxes if min(b[2], b[3]) >= flat):
                continue
            got = read_changes(reader, after, before, boxes)
            if "hex_blob" not in got.timings_ms or "work_image" in got.timings_ms:
                continue   # a hex's rim covered, or dice heaped: the window is read, as before
            looked += 1
            assert [(h.id, h.rotation, h.axial) for h in got.hexes] == [(h.id, h.rotation, h.axial)
                                                                        for h in before.hexes]
            rim = [p for p in hexes if abs(p.axial[0]) + abs(p.axial[1]) >= ring - 1]
            near = min(rim, key=lambda p: math.dist(p.centre_mm, die.centre_mm))
            # moved one cell outwards: from the hex inside it beside it, as far again
            inner = min((p for p in hexes if p is not near), key=lambda p: math.dist(p.centre_mm, near.centre_mm))
            moved = replace(near, centre_mm=tuple(2 * np.asarray(near.centre_mm) - np.asarray(inner.centre_mm)))
            cases = {"laid": ([p for p in table.pieces if p is not near], pieces),
                     "moved": (table.pieces, [moved if p is near else p for p in pieces]),
                     "taken": (table.pieces, [p for p in pieces if p is not near])}
            for case, (then, now) in cases.items():
                frame0, frame1 = table.render(then, frame_seed=0), table.render(now, frame_seed=1)
                got = read_changes(reader, frame1, reader.read(frame0), change_boxes(frame0, frame1))
                full = reader.read(frame1)
                assert "work_image" in got.timings_ms, (seed, roll, case, got.timings_ms)
                # every hex identified as the full read identifies it (a window read may add a place it cannot name
                # beside the die, as before: the full read drops what joins no hex it named)
                assert {h.id: (h.rotation, h.axial) for h in got.hexes if h.id is not None} == {
                    h.id: (h.rotation, h.axial) for h in full.hexes if h.id is not None}, (seed, roll, case)
                named = {h.id: h.axial for h in got.hexes}
                if case == "laid":
                    assert near.id in named, (seed, roll, case)
                else:   # not kept where it lay
                    assert named.get(near.id) != {h.id: h.axial for h in before.hexes}[near.id], (seed, roll, case)
            break   # one such roll a table
    assert looked >= 1, "no die rolled where a hex could lie: the case is not tested"


def test_a_hex_laid_against_the_map_is_read_with_the_map_kept():
    """The hexes kept are painted out of a window's foreground: a hex laid against them is still found, identified
    and placed on the map."""
    table = full_table("eclipse", SECTORS, 3, (1280, 720))
    deck = build_hex_deck_from_images(hex_reference_images(SECTORS, seed=7), name="eclipse", kind="scan")
    hexes = [p for p in table.pieces if p.kind == "hex"]
    laid = max(hexes, key=lambda p: abs(p.axial[0]) + abs(p.axial[1]))   # a hex at the map's rim
    first = table.render([p for p in table.pieces if p is not laid], frame_seed=0)
    reader = HexesAdapter(deck, calibrate(first, table.layout))
    before = reader.read(first)
    after = table.render(table.pieces, frame_seed=1)
    got = read_changes(reader, after, before, change_boxes(first, after))
    full = reader.read(after)
    assert laid.id in {h.id for h in got.hexes}
    assert {h.id: h.axial for h in got.hexes} == {h.id: h.axial for h in full.hexes}
    assert "identify" in got.timings_ms   # the window was read: only the new hex identified


def test_a_change_narrower_one_way_than_a_card_is_no_card():
    """A card's bounding box at any turn is at least its short side wide both ways; a die's change (a die turned
    45 degrees, with the detector's margins) is narrower one way even when it is as long as a card another."""
    from vision.incremental import piece_sized

    short, long_ = 86.0, 120.0
    rect = np.array([[0, 0], [short, 0], [short, long_], [0, long_]], np.float64) - (short / 2, long_ / 2)
    for deg in range(0, 91, 5):
        a = np.radians(deg)
        turned = rect @ np.array([[np.cos(a), np.sin(a)], [-np.sin(a), np.cos(a)]])
        w, h = np.ceil(turned.max(axis=0) - turned.min(axis=0)).astype(int)
        assert piece_sized([(10, 10, int(w), int(h))], short) == [(10, 10, int(w), int(h))], deg
    die = 0.5 * short * np.sqrt(2) + 2 * 8   # half a tile's side, turned 45 degrees, 8 px margins
    rolled_along = (300, 300, int(die + 1.5 * 0.5 * short), int(die))
    assert piece_sized([(300, 300, int(die), int(die)), rolled_along], short) == []


@pytest.mark.slow
def test_a_tile_played_on_a_roll_table_is_the_only_tile_identified():
    """Issue 15: a tile that did not move costs no identification. A tile added to a generated Roll table (15 square
    tiles, every one tried at four turns): the read after the change scores one crop, the tile played (the tile beside
    it is found at its place again and kept), and every tile away from the change keeps its observation as it was."""
    table = full_table("roll", TILES, 2, (1280, 720))
    deck = build_deck_from_images(reference_images(TILES, GAME_SHAPES["roll"], seed=7), name="roll", kind="scan",
                                  card_mm=GAME_SHAPES["roll"])
    first = table.render(frame_seed=0)
    reader = CardsAdapter(deck, calibrate(first, table.layout))
    before = reader.read(first)
    pieces, new = add_card(table, table.pieces, TILES, 3)
    after = table.render(pieces, frame_seed=1)
    boxes = change_boxes(first, after)
    scored: list[int] = []
    score_many = type(deck).score_many

    def counted(self, crops):
        scored.append(len(crops))
        return score_many(self, crops)

    type(deck).score_many = counted
    try:
        got = read_changes(reader, after, before, boxes)
    finally:
        type(deck).score_many = score_many
    assert new.id in {c.id for c in got.cards} and len(got.cards) == len(before.cards) + 1
    away = [c for c in before.cards if not touches(c.corners, boxes)]
    assert len(away) >= len(before.cards) - 3
    assert scored == [1]                  # the tile played, alone: the tile beside it was found at its place again
    now = by_place(got)
    for card in away:
        kept = now[tuple(int(round(v / 4)) for v in card.center_px)]
        assert kept is card or (kept.id == card.id and np.array_equal(kept.corners, card.corners)
                                and kept.confidence == card.confidence)


@pytest.mark.parametrize("seed", [2, 5, 11])
def test_a_window_reads_what_it_read_with_the_cards_read_left_in(race, seed, monkeypatch):
    """The same cards, ids, corners and confidences as a window read that splits the kept cards again (the mask
    left as it is), with fewer quads found by the window's first look (the kept cards it cuts are not among them)."""
    table, reader, first, before = race
    pieces, new = add_card(table, table.pieces, RACE_IDS, seed)
    after = table.render(pieces, frame_seed=1)
    boxes = change_boxes(first, after)
    found: list[np.ndarray] = []
    select = card_detect.select_cards
    monkeypatch.setattr(card_detect, "select_cards", lambda *a, **k: (lambda q: found.extend(q) or q)(select(*a, **k)))
    got = read_changes(reader, after, before, boxes)
    assert new.id in {c.id for c in got.cards} and len(got.cards) == len(before.cards) + 1
    assert found, "the window was read"
    monkeypatch.setattr(card_detect, "without_read", lambda mask, *a: mask)
    found_all: list[np.ndarray] = []
    monkeypatch.setattr(card_detect, "select_cards",
                        lambda *a, **k: (lambda q: found_all.extend(q) or q)(select(*a, **k)))
    ref = read_changes(reader, after, before, boxes)
    assert len(found) < len(found_all), "the kept cards the window cuts are split no more"
    assert len(got.cards) == len(ref.cards)
    for a, b in zip(sorted(got.cards, key=lambda c: c.center_px), sorted(ref.cards, key=lambda c: c.center_px),
                    strict=True):
        assert a.id == b.id and a.confidence == b.confidence
        assert np.allclose(a.corners, b.corners, atol=1e-6)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [4, 9])
def test_a_tile_played_among_roll_dice_costs_no_face_search_over_its_print(tmp_path, seed, monkeypatch):
    """Issue 15: after a tile is laid, the card read goes first (:data:`vision.dice_and_cards.CARDS_FIRST`) and the
    dice read of the change is told the tiles it found: the top faces the art of the tile under them explains (the
    new tile's print, a neighbour's) are not matched against the faces. The dice read so, after the art check, are
    the dice read untold (whose faces over the print the art check drops after the face match)."""
    from vision.card_art import without_art
    from vision.dice_and_cards import dice_reader_with

    folder = tmp_path / "enroll"
    synth.write_enrollment(folder, synth.ALL_FACES_BY_COLOUR, seed=3, symbol_set="A", dice_per_photo=3,
                           config=synth.ENROLL_CONFIG)
    deck = build_deck_from_images(reference_images(TILES, GAME_SHAPES["roll"], seed=7), name="roll", kind="scan",
                                  card_mm=GAME_SHAPES["roll"])
    table = full_table("roll", TILES, seed, (1280, 720))
    first = table.render(frame_seed=0)
    cal = calibrate(first, table.layout)
    dice_reader = RollDiceAdapter(RollDiceReader(build_profile(folder)), calibration=cal)
    cards_reader = CardsAdapter(deck, cal)
    dice0, cards0 = dice_reader.read(first), cards_reader.read(first)
    pieces, new = add_card(table, table.pieces, TILES, seed + 1)
    after = table.render(pieces, frame_seed=1)
    boxes = change_boxes(first, after)
    cards = read_changes(cards_reader, after, cards0, boxes).cards
    assert new.id in {c.id for c in cards}
    matched: list[np.ndarray] = []
    match = RollDiceReader._match

    def spy(self, frame, tops, cfg, *bar):
        matched.append(tops.rects[:, :2].copy())
        return match(self, frame, tops, cfg, *bar)

    monkeypatch.setattr(RollDiceReader, "_match", spy)
    plain = read_changes(dice_reader, after, dice0, boxes)
    untold = len(np.concatenate(matched))
    matched.clear()
    told = read_changes(dice_reader_with(dice_reader, cards, deck.art), after, dice0, boxes)
    assert "art_tops" not in plain.timings_ms and "art_change" not in plain.timings_ms
    # told of the tiles, the faces of their print are not matched, or (the tile's print explains the whole change,
    # :func:`vision.card_art.change_explained_by_art`) the change is not read for dice at all
    assert "art_tops" in told.timings_ms or ("art_change" in told.timings_ms and "faces" not in told.timings_ms)
    assert (len(np.concatenate(matched)) if matched else 0) < untold, "fewer faces matched told of the tiles"
    assert [(d.colour, d.face, d.box) for d in without_art(after, told, cards, deck.art).dice] == \
        [(d.colour, d.face, d.box) for d in without_art(after, plain, cards, deck.art).dice]
