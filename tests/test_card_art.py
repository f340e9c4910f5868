"""vision.card_art: a die candidate on an identified tile is compared with the tile's enrolled art warped to where
the tile lies; the art explains a false face printed on the tile, a real die lying on a tile covers it and is kept.

Scenes come from the first generator's full Roll for the Galaxy table (:func:`vision.synth_full.full_table`), with
dice put on tiles as players do (goods on worlds, workers on tiles being built); the deck is enrolled from the
generator's stand-in scans.
"""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import numpy as np
import pytest

from vision import synth
from vision.card_art import ArtConfig, art_score, explained_by_art, without_art
from vision.deck import DeckProfile
from vision.deck_enroll import build_deck_from_images
from vision.readers import CardsAdapter, RollDiceAdapter, Sighting
from vision.roll_dice import RollDiceReader, RollDieObservation, build_profile
from vision.synth_full import full_table
from vision.synth_table import GAME_SHAPES, reference_images
from vision.table import calibrate

TILES = [f"tile_{k}" for k in range(1, 30)]


def inside(poly: np.ndarray, x: float, y: float) -> bool:
    import cv2

    return cv2.pointPolygonTest(poly.astype(np.float32).reshape(-1, 1, 2), (float(x), float(y)), False) >= 0


def centre(box) -> tuple[float, float]:
    return box[0] + box[2] / 2, box[1] + box[3] / 2


@pytest.fixture(scope="module")
def roll():
    """A full Roll table with one die put on each of five tiles (off the tile's centre, turned) and one over a
    tile's edge, read by the card reader with a deck enrolled from scans."""
    table = full_table("roll", TILES, 6, (1280, 720))
    rng = np.random.default_rng(16)
    tiles = [p for p in table.pieces if p.kind == "card"]
    dice = [p for p in table.pieces if p.kind == "die"]
    on_tiles = []
    for t in tiles[::3]:
        dx, dy = rng.uniform(-11, 11, 2)
        die = dice[int(rng.integers(len(dice)))]
        on_tiles.append(replace(die, centre_mm=(t.centre_mm[0] + dx, t.centre_mm[1] + dy),
                                angle_deg=float(rng.uniform(0, 90))))
    # and one over a tile's edge (its centre on the tile, a third of it on the table)
    t = tiles[1]
    on_tiles.append(replace(dice[0], centre_mm=(t.centre_mm[0], t.centre_mm[1] + t.size_mm[1] / 2 - 4.0),
                            angle_deg=t.angle_deg + 20.0))
    pieces = (*table.pieces, *on_tiles)
    frame = table.render(pieces, frame_seed=3)
    deck = build_deck_from_images(reference_images(TILES, GAME_SHAPES["roll"], seed=7), name="roll", kind="scan",
                                  card_mm=GAME_SHAPES["roll"])
    cal = calibrate(frame, table.layout)
    read = CardsAdapter(deck, cal).read(frame).cards
    # the tiles as the labels give them (id, corners clockwise from the printed top-left): the art check alone,
    # whatever the card reader names
    labels = tuple(SimpleNamespace(id=t.id, corners=table.polygon_px(t), center_px=tuple(table.polygon_px(t).mean(0)))
                   for t in tiles)
    return SimpleNamespace(table=table, pieces=pieces, frame=frame, deck=deck, cal=cal, read=read, cards=labels,
                           tiles=tiles, on_tiles=on_tiles)


def card_at(roll, x: float, y: float):
    [card] = [c for c in roll.cards if inside(np.asarray(c.corners), x, y)]
    return card


def test_the_deck_keeps_each_cards_art(roll, tmp_path):
    assert sorted(roll.deck.art) == sorted(TILES)
    assert all(a.dtype == np.uint8 and a.shape == (160, 160, 3) for a in roll.deck.art.values())
    back = DeckProfile.load(roll.deck.save(tmp_path / "roll.npz"))
    assert sorted(back.art) == sorted(TILES)
    assert all(np.array_equal(back.art[k], roll.deck.art[k]) for k in TILES)
    # a profile saved before decks kept their art loads without it (the art check then judges nothing)
    older = DeckProfile.load(replace(roll.deck, art={}).save(tmp_path / "older.npz"))
    assert older.art == {} and older.ref_ids == roll.deck.ref_ids


def test_a_die_on_a_tile_is_kept(roll):
    cfg = ArtConfig()
    observed = []
    for d in roll.on_tiles:
        box = roll.table.box_px(d)
        card = card_at(roll, *centre(box))
        score = art_score(roll.frame, box, card.corners, roll.deck.art[card.id], cfg)
        assert score is not None and score < cfg.explained, (d, score)
        observed.append(RollDieObservation(d.colour, d.face, box, 0.9))
    assert explained_by_art(roll.frame, observed, roll.cards, roll.deck.art) == [False] * len(observed)
    sighting = Sighting("roll_dice", 1280, 720, dice=tuple(observed))
    assert without_art(roll.frame, sighting, roll.cards, roll.deck.art).dice == sighting.dice


def test_a_window_of_the_tiles_own_art_is_the_art(roll):
    # die-sized windows over the printed art of the tiles no die lies on: wherever the art shows a symbol or
    # an edge (a window with contrast), the warped art explains it
    side = float(np.median([max(roll.table.box_px(d)[2:]) for d in roll.on_tiles]))
    covered = {card_at(roll, *roll.table.polygon_px(d).mean(axis=0)).id for d in roll.on_tiles}
    windows, explained = 0, 0
    for card in roll.cards:
        if card.id in covered:
            continue
        q = np.asarray(card.corners)
        for u in np.linspace(0.3, 0.7, 3):
            for v in np.linspace(0.3, 0.7, 3):
                top = q[0] + u * (q[1] - q[0])
                bottom = q[3] + u * (q[2] - q[3])
                x, y = top + v * (bottom - top)
                box = (int(x - side / 2), int(y - side / 2), int(side), int(side))
                patch = roll.frame[box[1]:box[1] + box[3], box[0]:box[0] + box[2]]
                if patch.astype(np.float32).std(axis=(0, 1)).max() < 25:
                    continue  # plain art: no die face could be seen there
                windows += 1
                observed = RollDieObservation("white", "explore", box, 0.9)
                explained += explained_by_art(roll.frame, [observed], roll.cards, roll.deck.art)[0]
    assert windows >= 20
    assert explained == windows


def test_off_the_cards_or_without_art_nothing_is_judged(roll):
    die = next(p for p in roll.table.pieces if p.kind == "die")   # in the roll area, beside the tiles
    box = roll.table.box_px(die)
    observed = RollDieObservation(die.colour, die.face, box, 0.9)
    assert explained_by_art(roll.frame, [observed], roll.cards, roll.deck.art) == [False]
    card = roll.cards[0]
    assert art_score(roll.frame, box, card.corners, roll.deck.art[card.id]) is None
    # no outline to warp the art to: nothing judged, nothing raised
    for bad in (np.zeros((4, 2)), np.full((4, 2), np.nan), np.zeros((3, 2))):
        assert art_score(roll.frame, (600, 300, 40, 40), bad, roll.deck.art[card.id]) is None
    # a deck saved before decks kept their art: the dice as the reader reported them
    on_art = tuple(RollDieObservation("white", "explore", (int(c.center_px[0]) - 20, int(c.center_px[1]) - 20, 40, 40),
                                      0.9) for c in roll.cards)
    sighting = Sighting("roll_dice", 1280, 720, dice=on_art)
    assert without_art(roll.frame, sighting, roll.cards, {}) is sighting
    assert without_art(roll.frame, sighting, (), roll.deck.art) is sighting


@pytest.fixture(scope="module")
def dice_reader(tmp_path_factory):
    folder = tmp_path_factory.mktemp("roll") / "enroll"
    synth.write_enrollment(folder, synth.ALL_FACES_BY_COLOUR, seed=3, symbol_set="A", dice_per_photo=3,
                           config=synth.ENROLL_CONFIG)
    return RollDiceReader(build_profile(folder))


@pytest.mark.slow
def test_the_dice_readers_faces_in_the_tiles_art_are_dropped_and_every_die_kept(roll, dice_reader):
    # the box's step: the dice read and the card read of the same frame; a tile the card reader does not name
    # (a die covers much of it) is not judged
    read = RollDiceAdapter(dice_reader, calibration=roll.cal).read(roll.frame)
    dice = [roll.table.polygon_px(p) for p in roll.pieces if p.kind == "die"]
    tiles = [np.asarray(c.corners) for c in roll.read if c.id is not None]

    def false_on_tile(d) -> bool:
        x, y = centre(d.box)
        return not any(inside(q, x, y) for q in dice) and any(inside(q, x, y) for q in tiles)

    true_before = [d for d in read.dice if any(inside(q, *centre(d.box)) for q in dice)]
    assert sum(map(false_on_tile, read.dice)) >= 3, "the scene shows the reader's false faces in the art"
    after = without_art(roll.frame, read, roll.read, roll.deck.art)
    assert not [d for d in after.dice if false_on_tile(d)]
    assert [d for d in after.dice if any(inside(q, *centre(d.box)) for q in dice)] == true_before
    on_tiles = [d for d in after.dice if any(inside(roll.table.polygon_px(p), *centre(d.box)) for p in roll.on_tiles)]
    assert len(on_tiles) >= len(roll.on_tiles) - 1
    assert "art" in after.timings_ms


class FixedDice:
    """Stands in for the box's Roll dice reader (:class:`vision.readers.RollDiceAdapter`): the given dice."""

    name = "roll_dice"

    def __init__(self, dice, size=(1280, 720)):
        self.sighting = Sighting(self.name, *size, dice=tuple(dice))

    def read(self, frame):
        return self.sighting


def test_the_box_drops_the_art_after_its_dice_and_card_reads(roll, store):
    # the box's read of a Roll table before Reveal: the dice pass on its own thread beside the card pass, then the
    # dice that are a tile's art dropped; the dice lying on tiles kept
    from companion.camera import CameraFlow
    from tests.camera_tables import frame_of
    from tests.test_camera_flow import flow_of, setup_roll

    on_tiles = [RollDieObservation(d.colour, d.face, roll.table.box_px(d), 0.9) for d in roll.on_tiles]
    bare = [c for c in roll.read if c.id is not None and not any(
        inside(roll.table.polygon_px(d), *c.center_px) for d in roll.on_tiles)]
    assert len(bare) >= 3
    art = [RollDieObservation("white", "explore", (int(c.center_px[0]) - 20, int(c.center_px[1]) - 20, 40, 40), 0.9)
           for c in bare[:3]]
    assert explained_by_art(roll.frame, art, roll.read, roll.deck.art) == [True] * 3
    flow = flow_of(store, "roll")
    setup_roll(flow)
    cam = CameraFlow(flow, deck=roll.deck, calibration=roll.cal, dice_reader=FixedDice([*on_tiles, *art]))
    cam.schedule(0.0)
    plan = cam.plan(frame_of(roll.frame), 0.0)
    assert plan.dice is not None and plan.anchors
    sight = cam.see(plan)
    kept = sight.sightings["dice"].dice
    assert not set(art) & set(kept)
    named = [d for d in on_tiles if any(c.id is not None and inside(np.asarray(c.corners), *centre(d.box))
                                        for c in roll.read)]
    assert named and set(on_tiles) <= set(kept)
    assert "art" in sight.sightings["dice"].timings_ms


@pytest.mark.slow
def test_the_dice_read_first_and_given_to_the_card_read_keep_the_art_check(roll, dice_reader):
    # the box's order (vision.dice_and_cards): the dice read first, the card read told where they lie -- the false
    # faces in the tiles' art among them -- then the art check: every tile the card read alone named is named, and
    # the false faces on them are dropped as when the two reads knew nothing of each other
    from vision.dice_and_cards import cards_reader_with, read_dice_and_cards

    dice_reader_ = RollDiceAdapter(dice_reader, calibration=roll.cal)
    cards_reader = CardsAdapter(roll.deck, roll.cal)
    raw = dice_reader_.read(roll.frame)
    dice = [roll.table.polygon_px(p) for p in roll.pieces if p.kind == "die"]
    tiles = [np.asarray(c.corners) for c in roll.read if c.id is not None]

    def false_on_tile(d) -> bool:
        x, y = centre(d.box)
        return not any(inside(q, x, y) for q in dice) and any(inside(q, x, y) for q in tiles)

    assert sum(map(false_on_tile, raw.dice)) >= 3, "the card read is told of the reader's false faces too"
    seen, cards = read_dice_and_cards(roll.frame, lambda: dice_reader_.read(roll.frame),
                                      {"cards": lambda explained: cards_reader_with(cards_reader, explained)
                                       .read(roll.frame)}, roll.deck.art)
    assert sorted((c.id, tuple(np.round(c.corners).ravel())) for c in cards["cards"].cards if c.id is not None) == \
        sorted((c.id, tuple(np.round(c.corners).ravel())) for c in roll.read if c.id is not None)
    assert not [d for d in seen.dice if false_on_tile(d)]
    assert seen.dice == without_art(roll.frame, raw, roll.read, roll.deck.art).dice


@pytest.mark.slow
def test_read_after_the_tiles_no_face_of_their_art_is_matched_and_every_die_on_a_tile_is_read(roll, dice_reader):
    # the box's order (vision.dice_and_cards "tiles_first"): the card read's first look, the dice read told the tiles
    # it identified -- a top face their print explains is dropped before the face match -- then the card read's second
    # look told where the dice lie: the same tiles, no face of the art, every die on a tile read as the dice-first
    # order reads it
    from vision.dice_and_cards import TILES_FIRST, cards_reader_with, dice_reader_with, first_look, read_dice_and_cards

    art = roll.deck.art
    dice_reader_ = RollDiceAdapter(dice_reader, calibration=roll.cal)
    cards_reader = CardsAdapter(roll.deck, roll.cal)
    dice = [roll.table.polygon_px(p) for p in roll.pieces if p.kind == "die"]
    tiles = [np.asarray(c.corners) for c in roll.read if c.id is not None]

    def false_on_tile(d) -> bool:
        x, y = centre(d.box)
        return not any(inside(q, x, y) for q in dice) and any(inside(q, x, y) for q in tiles)

    def read(order: str):
        return read_dice_and_cards(
            roll.frame, lambda found=(): dice_reader_with(dice_reader_, found, art).read(roll.frame),
            {"cards": lambda explained: cards_reader_with(cards_reader, explained).read(roll.frame)}, art, order,
            first={"cards": first_look(cards_reader, roll.frame)})

    seen, cards = read(TILES_FIRST)
    assert sorted((c.id, tuple(np.round(c.corners).ravel())) for c in cards["cards"].cards if c.id is not None) == \
        sorted((c.id, tuple(np.round(c.corners).ravel())) for c in roll.read if c.id is not None)
    assert "art_tops" in seen.timings_ms
    # told of the tiles, the dice read itself reports no face of their art (before the art check after both reads)
    told = dice_reader_with(dice_reader_, roll.read, art).read(roll.frame)
    assert sum(map(false_on_tile, dice_reader_.read(roll.frame).dice)) >= 3, "untold, it reports faces of the art"
    assert not [d for d in told.dice if false_on_tile(d)]
    assert not [d for d in seen.dice if false_on_tile(d)]

    def on_tiles(s) -> list[tuple]:
        return sorted((d.colour, str(d.face)) for d in s.dice
                      if any(inside(roll.table.polygon_px(p), *centre(d.box)) for p in roll.on_tiles))

    before, _ = read("explained")
    assert len(on_tiles(seen)) >= len(roll.on_tiles) - 1
    assert on_tiles(seen) == on_tiles(before), "every die on a tile read as the dice-first order reads it"
    def real(s) -> list:
        return [d for d in s.dice if any(inside(q, *centre(d.box)) for q in dice)]

    # the art's candidates cost no top face, so the top faces' size model is fitted without them: a die's box may
    # move by a pixel, its colour and face do not
    assert alike(real(seen), real(before)), "the dice read alike"


def alike(a, b, px: int = 2) -> bool:
    """Whether two lists of dice (``colour``, ``face``, ``box`` ``(x, y, w, h)`` px) are the same dice: each of ``a``
    has one of ``b`` of the same colour and face whose box is within ``px`` px of its own, and none is left over."""
    left = list(b)
    for x in a:
        same = [y for y in left if (x.colour, x.face) == (y.colour, y.face)
                and np.abs(np.subtract(x.box, y.box)).max() <= px]
        if not same:
            return False
        left.remove(same[0])
    return not left


def test_the_art_score_is_the_light_free_correlation_of_the_window_with_the_art():
    # a card lying unturned at (200, 100), its art 1:1 in the frame: under any light (a gain and an offset per channel)
    # the art explains its own print (NCC ~1), a print in negative anti-correlates and noise does not correlate;
    # a window half off the card is judged on its part on the card
    rng = np.random.default_rng(5)
    import cv2

    art = cv2.GaussianBlur(rng.integers(0, 256, (160, 160, 3)).astype(np.uint8), (0, 0), 2.0)
    art = cv2.normalize(art, None, 0, 255, cv2.NORM_MINMAX)
    corners = np.array([[200, 100], [359, 100], [359, 259], [200, 259]], np.float64)

    def frame_with(card: np.ndarray) -> np.ndarray:
        frame = np.full((400, 600, 3), 90, np.uint8)
        frame[100:260, 200:360] = np.clip(card, 0, 255).astype(np.uint8)
        return frame

    lit = frame_with(art.astype(np.float32) * (0.6, 0.8, 0.7) + (30, 10, 20))
    box = (250, 150, 40, 40)
    assert art_score(lit, box, corners, art) > 0.95
    assert art_score(frame_with(255.0 - art.astype(np.float32)), box, corners, art) < 0.0
    noise = frame_with(cv2.GaussianBlur(rng.integers(0, 256, (160, 160, 3)).astype(np.uint8), (0, 0), 2.0))
    assert abs(art_score(noise, box, corners, art)) < 0.3
    assert art_score(lit, (180, 150, 40, 40), corners, art) > 0.95      # half on the card: its part compared
    assert art_score(lit, (170, 150, 40, 40), corners, art) is None     # too little of it on the card


@pytest.mark.slow
def test_told_of_the_tiles_their_art_costs_no_top_face_and_no_k_means_and_the_dice_read_alike(roll, dice_reader,
                                                                                                monkeypatch):
    # the dice read after the tiles ("tiles_first"): the candidates and the piles of cores (two dice areas or more,
    # split by k-means) that the print of an identified tile explains are dropped before the costly stages; the dice
    # on and off the tiles read as the dice read untold of the tiles, its art dropped after the read, reads them
    import vision.roll_dice.candidates as cand_mod
    import vision.roll_dice.reader as reader_mod
    from vision.dice_and_cards import dice_reader_with
    from vision.roll_dice.tops import rect_box

    art, reader = roll.deck.art, RollDiceAdapter(dice_reader, calibration=roll.cal)
    scale = dice_reader.config.work_long_side / float(max(roll.frame.shape[:2]))
    cut: list[np.ndarray] = []
    split: list[tuple] = []
    extract, split_blob = reader_mod.extract_tops, cand_mod.split_blob

    def extract_seen(frame, cands, cfg):
        cut.append(cands.rects.copy())
        return extract(frame, cands, cfg)

    def split_seen(pts, k, seed=0, attempts=3):
        if k > 1:
            split.append(rect_box(pile_rect(pts, scale)))
        return split_blob(pts, k, seed, attempts)

    monkeypatch.setattr(reader_mod, "extract_tops", extract_seen)
    monkeypatch.setattr(cand_mod, "split_blob", split_seen)

    def art_reached() -> tuple[int, int]:
        faces = [rect_box(r) for rects in cut for r in rects]
        return (sum(explained_by_boxes(roll, faces)), sum(explained_by_boxes(roll, split)))

    untold = reader.read(roll.frame)
    faces_untold, piles_untold = art_reached()
    assert faces_untold >= 10 and piles_untold >= 1, "untold, the tiles' print reaches the top faces and the k-means"
    cut.clear()
    split.clear()
    told = dice_reader_with(reader, roll.read, art).read(roll.frame)
    assert art_reached() == (0, 0)
    assert "art_candidates" in told.timings_ms

    assert alike(told.dice, without_art(roll.frame, untold, roll.read, art).dice)


def pile_rect(pts: np.ndarray, scale: float) -> np.ndarray:
    """A pile's pixels (float32[N, 2] work px, ``scale`` work px per frame px) as its rotated rect float[5]
    ``(cx, cy, w, h, angle)`` in frame px."""
    import cv2

    (cx, cy), (w, h), a = cv2.minAreaRect(pts)
    return np.array([cx / scale, cy / scale, w / scale, h / scale, a])


def explained_by_boxes(roll, boxes) -> list[bool]:
    """Per ``(x, y, w, h)`` frame-px box, whether the print of the tiles the card reader identified explains it."""
    from vision.card_art import boxes_explained_by_art

    return boxes_explained_by_art(roll.frame, boxes, roll.read, roll.deck.art)


def test_a_dice_read_asks_the_art_of_each_box_once_and_gets_the_same_answers(roll, monkeypatch):
    """The art check a dice read is given keeps each box's answer for that read: a box asked again (a candidate found
    again at another die size of the size search) is answered as the art check answers it, without warping the art
    again; boxes on a tile's print, on a die on a tile and off every tile, asked in any order and more than once."""
    import vision.readers as readers
    from vision.card_art import boxes_explained_by_art

    on_print = [(int(x) - 15, int(y) - 15, 30, 30) for x, y in (c.center_px for c in roll.read[:4])]
    on_dice = [tuple(int(v) for v in roll.table.box_px(p)) for p in roll.on_tiles[:3]]
    off = [(5, 5, 30, 30)]
    first, second = on_print[:2] + on_dice + off, on_dice[::-1] + on_print + off + on_print[:1]
    truth = dict(zip(first + second, boxes_explained_by_art(roll.frame, first + second, roll.read, roll.deck.art),
                     strict=True))
    assert any(truth.values()) and not all(truth.values())     # both answers are asked for
    asked: list[tuple] = []

    def counted(frame, boxes, cards, art, config=None):
        asked.extend(boxes)
        return boxes_explained_by_art(frame, boxes, cards, art, config)

    monkeypatch.setattr(readers, "boxes_explained_by_art", counted)
    explained = readers._art_explains(roll.frame, roll.read, roll.deck.art)
    assert explained(first) == [truth[b] for b in first]
    assert explained(second) == [truth[b] for b in second]
    assert sorted(asked) == sorted(set(first + second))          # each box warped against the art once
