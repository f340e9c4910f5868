"""vision.readers: every reader behind one protocol (name, read(frame) -> Sighting), the same observations
as the reader it wraps; vision.Sighting: one frozen result with its JSON."""

from __future__ import annotations

import dataclasses
import json
from dataclasses import replace

import numpy as np
import pytest

from vision import BadFrame, DieObservation, Reader, Sighting, synth
from vision.cards import CardsConfig, read_cards
from vision.d6 import D6Reader
from vision.deck_enroll import build_deck_from_images
from vision.hexes import build_hex_deck_from_images, read_hexes
from vision.readers import CardsAdapter, D6Adapter, HexesAdapter, RollDiceAdapter
from vision.roll_dice import RollDiceReader, RollDieObservation, build_profile
from vision.synth_table import GAME_SHAPES, hex_reference_images, make_hex_scene, make_scene, reference_images
from vision.table import Zones, calibrate

AMONG_IDS = ["main_reactor"] + [f"location_{k:02d}" for k in range(10)]
SECTORS = ["001"] + [f"{ring}{k:02d}" for ring in (1, 2) for k in range(1, 9)]
#: Faces per colour of two Roll for the Galaxy dice (Roll for the Galaxy, components: the dice).
FACES_BY_COLOUR = {
    "white": ("explore", "explore", "develop", "settle", "produce", "ship"),
    "red": ("explore", "develop", "develop", "settle", "settle", "wild"),
}
SMALL = synth.SceneConfig(width=640, height=360, die_side=(38.0, 44.0), n_dice=(5, 7))


@pytest.fixture(scope="module")
def among_deck():
    return build_deck_from_images(reference_images(AMONG_IDS, GAME_SHAPES["among"]), "among",
                                  card_mm=GAME_SHAPES["among"], kind="scan")


@pytest.fixture(scope="module")
def hex_deck():
    return build_hex_deck_from_images(hex_reference_images(SECTORS), name="eclipse", kind="scan")


@pytest.fixture(scope="module")
def d6() -> D6Reader:
    return D6Reader()


@pytest.fixture(scope="module")
def roll_reader(tmp_path_factory) -> RollDiceReader:
    folder = tmp_path_factory.mktemp("enroll")
    enroll = replace(synth.ENROLL_CONFIG, width=640, height=360, die_side=(38.0, 44.0))
    synth.write_enrollment(folder, FACES_BY_COLOUR, seed=3, dice_per_photo=3, config=enroll)
    return RollDiceReader(build_profile(folder))


class OneDieReader:
    """A reader written outside vision: anything with a name and read(frame) -> Sighting is a Reader."""

    name = "one_die"

    def read(self, frame: np.ndarray) -> Sighting:
        h, w = frame.shape[:2]
        return Sighting(self.name, w, h, dice=(DieObservation("d6", 6, (0, 0, 10, 10), 0.9),))


def test_every_adapter_and_a_plug_in_is_a_reader(d6, roll_reader, among_deck, hex_deck):
    readers = [D6Adapter(d6), RollDiceAdapter(roll_reader), CardsAdapter(among_deck), HexesAdapter(hex_deck),
               OneDieReader()]
    assert all(isinstance(r, Reader) for r in readers)
    assert [r.name for r in readers] == ["d6", "roll_dice", "cards", "hexes", "one_die"]
    assert not isinstance(object(), Reader)
    # the names are what a flow declares: a second card reader can be told apart
    assert CardsAdapter(among_deck, name="station").name == "station"


def test_sighting_confidence_json_and_frozen():
    dice = (DieObservation("d6", 4, (10, 20, 30, 31), 0.9871), DieObservation("d6", None, (50, 60, 28, 29), 0.41))
    s = Sighting("d6", 640, 480, dice=dice, timings_ms={"detect": 12.3456, "classify": 3.0})
    # the least sure observation: the unreadable die at 0.41
    assert s.confidence == pytest.approx(0.41)
    assert s.frame_size == (640, 480)
    assert s.total_ms == pytest.approx(15.3456)
    assert s.to_json() == {
        "reader": "d6", "width": 640, "height": 480, "confidence": 0.41,
        "dice": [{"kind": "d6", "value": 4, "box": [10, 20, 30, 31], "confidence": 0.987},
                 {"kind": "d6", "value": None, "box": [50, 60, 28, 29], "confidence": 0.41}],
        "cards": [], "hexes": [], "markers": None, "timings_ms": {"detect": 12.35, "classify": 3.0},
    }
    json.dumps(s.to_json())
    empty = Sighting("cards", 10, 10)
    assert empty.confidence is None and empty.to_json()["confidence"] is None
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.dice = ()  # type: ignore[misc]
    # timings do not make two sightings of the same dice different
    assert Sighting("d6", 640, 480, dice=dice) == s


def test_d6_adapter_gives_the_d6_readers_dice(d6):
    frame = np.full((120, 160, 3), 90, np.uint8)
    frame[40:80, 60:100] = 240            # a white square with no pips: whatever the reader says, the same
    native = d6.read(frame)
    seen = D6Adapter(d6).read(frame)
    assert seen.dice == native.dice and seen.frame_size == (160, 120)
    assert set(seen.timings_ms) == set(native.timings_ms) >= {"validate", "detect", "classify", "assemble"}
    assert seen.cards == () and seen.hexes == () and seen.markers is None
    assert D6Adapter(d6).config is d6.config
    with pytest.raises(BadFrame):
        D6Adapter(d6).read(np.zeros((10, 10), np.uint8))


def test_roll_dice_adapter_gives_the_roll_readers_dice(roll_reader):
    scene = synth.render_scene(511, SMALL, FACES_BY_COLOUR)
    native = roll_reader.read(scene.image)
    seen = RollDiceAdapter(roll_reader).read(scene.image)
    assert len(seen.dice) == len(native.dice) >= 4
    assert seen.dice == native.dice and all(isinstance(d, RollDieObservation) for d in seen.dice)
    assert seen.to_json()["dice"] == native.to_json()["dice"]
    assert set(seen.timings_ms) == set(native.timings_ms) >= {"foreground", "colours", "faces", "assemble"}
    assert seen.confidence == pytest.approx(min(d.confidence for d in native.dice))


def test_cards_adapter_gives_read_cards_cards_markers_and_zones(among_deck):
    scene = make_scene("among", AMONG_IDS, seed=11, n_cards=6)
    cal = calibrate(scene.image, scene.layout)
    config = CardsConfig(anchor_id="main_reactor")
    zones = Zones.even(["Ann", "Bob"], 2000.0, 2000.0)
    native = read_cards(scene.image, among_deck, calibration=cal, zones=zones, config=config)
    reader = CardsAdapter(among_deck, calibration=cal, zones=zones, config=config)
    seen = reader.read(scene.image)
    assert len(seen.cards) == len(native.cards) == 6
    assert [c.to_json() for c in seen.cards] == [c.to_json() for c in native.cards]
    assert seen.markers is not None and seen.markers.ok and seen.to_json()["markers"] == {"moved": [], "missing": []}
    assert seen.dice == () and seen.hexes == ()
    # one setting changed, the rest kept: without the calibration the layout is in estimated mm
    plain = replace(reader, calibration=None).read(scene.image)
    assert plain.markers is None and all(c.mm_estimated for c in plain.cards)
    assert reader.calibration is cal


def test_hexes_adapter_gives_read_hexes_hexes(hex_deck):
    scene = make_hex_scene(SECTORS, seed=21, n_hexes=9)
    cal = calibrate(scene.image, scene.layout)
    native = read_hexes(scene.image, hex_deck, calibration=cal)
    seen = HexesAdapter(hex_deck, calibration=cal).read(scene.image)
    assert len(seen.hexes) == len(native.hexes) >= 8
    assert [h.to_json() for h in seen.hexes] == [h.to_json() for h in native.hexes]
    assert seen.to_json()["hexes"] == native.to_json()["hexes"]
    assert seen.markers is not None and set(seen.timings_ms) >= {"work_image", "lattice", "identify", "layout"}


def test_no_roll_die_is_reported_on_a_calibration_marker_or_its_paper():
    # a marker's black squares on white look like a die's symbol on its body; a die beside the sheet stays
    from vision.readers import RollDiceAdapter
    from vision.table import TableCalibration, mat_layout

    quad = np.array([[100, 100], [140, 100], [140, 140], [100, 140]], np.float64)  # a 40 px marker
    cal = TableCalibration(H=np.eye(3), markers_px={0: quad}, layout=mat_layout(), reprojection_px=0.5,
                           frame_size=(640, 360))
    # on the marker, on its paper (8 px beyond the 40 px side: inside the quarter-side quiet zone), beside it
    centres = np.array([[120.0, 120.0], [148.0, 120.0], [170.0, 120.0]])
    assert cal.on_marker(centres).tolist() == [True, True, False]
    # the same places in a frame twice the calibration frame's size
    assert cal.on_marker(2 * centres, (1280, 720)).tolist() == [True, True, False]

    class Fixed:
        """A dice reader that reports one die at each centre (20 px boxes)."""

        config = None

        def read(self, frame, white=None, aside=None):
            dice = tuple(DieObservation(kind="d6", value=None, box=(int(x) - 10, int(y) - 10, 20, 20), confidence=0.9)
                         for x, y in centres)
            return type("R", (), {"width": 640, "height": 360, "dice": dice, "timings_ms": {}, "light": None,
                                 "die_size": None})()

    frame = np.full((360, 640, 3), 128, np.uint8)
    got = RollDiceAdapter(Fixed(), calibration=cal).read(frame)
    assert [d.box[0] + 10 for d in got.dice] == [170]
    assert len(RollDiceAdapter(Fixed()).read(frame).dice) == 3  # no calibration: nothing is known of markers


def test_a_box_lies_on_a_sheet_only_when_its_four_corners_do():
    from vision.readers import boxes_on_sheets

    square = np.array([[90, 90], [150, 90], [150, 150], [90, 150]], np.float64)  # a 40 px marker and its paper
    diamond = np.array([[300, 260], [340, 300], [300, 340], [260, 300]], np.float64)  # |dx| + |dy| <= 40 round 300
    boxes = [(95, 95, 20, 20),     # wholly on the paper
             (140, 100, 20, 20),   # its right half beyond the paper's edge at x 150
             (88, 100, 10, 10),    # 2 px left of the paper
             (90, 90, 60, 60),     # the paper itself: every corner on its edge
             (290, 290, 20, 20),   # corners 10 from the diamond's centre along both axes: 10 + 10 <= 40
             (270, 270, 20, 20)]   # corner (270, 270): 30 + 30 > 40
    assert boxes_on_sheets(boxes, [square, diamond]).tolist() == [True, False, False, True, True, False]
    # corners in the other order round, and no sheet or no box
    assert boxes_on_sheets(boxes, [square[::-1], diamond[::-1]]).tolist() == [True, False, False, True, True, False]
    assert boxes_on_sheets(boxes, []).tolist() == [False] * 6
    assert boxes_on_sheets([], [square]).shape == (0,)


def test_a_calibrated_dice_read_sets_aside_the_boxes_wholly_on_a_marker_and_its_paper():
    # the marker's print gives no die (it is not reported), so the read adds no face there once its die size is chosen
    from vision.readers import RollDiceAdapter
    from vision.roll_dice import RollDiceRead
    from vision.table import TableCalibration, mat_layout

    quad = np.array([[100, 100], [140, 100], [140, 140], [100, 140]], np.float64)  # paper: 90..150 px
    cal = TableCalibration(H=np.eye(3), markers_px={0: quad}, layout=mat_layout(), reprojection_px=0.5,
                           frame_size=(640, 360))

    class Asks:
        """A dice reader that asks ``aside`` of ``boxes`` and keeps the answers."""

        config = None

        def __init__(self, boxes):
            self.boxes, self.answers = boxes, "not asked"

        def read(self, frame, white=None, aside=None):
            self.answers = None if aside is None else list(aside(self.boxes))
            return RollDiceRead(frame.shape[1], frame.shape[0], (), {}, None)

    # on the marker, across the paper's edge at x 150, beside the paper
    boxes = [(105, 105, 20, 20), (140, 110, 20, 20), (200, 110, 20, 20)]
    frame = np.full((360, 640, 3), 128, np.uint8)
    asks = Asks(boxes)
    RollDiceAdapter(asks, calibration=cal).read(frame)
    assert asks.answers == [True, False, False]
    # in a frame twice the calibration frame's size the marker and its paper are twice as large (180..300 px)
    asks = Asks([(105, 105, 20, 20), (210, 210, 40, 40), (280, 220, 40, 40)])
    RollDiceAdapter(asks, calibration=cal).read(np.full((720, 1280, 3), 128, np.uint8))
    assert asks.answers == [False, True, False]
    asks = Asks(boxes)
    RollDiceAdapter(asks).read(frame)
    assert asks.answers is None  # no calibration: nothing is set aside


def test_a_cards_adapter_keeps_the_tables_colours_from_one_read_to_the_next(among_deck):
    """The same table with fresh noise: the second read (by a copy of the reader, as each frame's is) reuses the
    colours of the first (no new fit) and reads what a read fitting its own does; without the calibration the
    view differs (the camera's frame, not the top-down image): fitted again."""
    scene = make_scene("among", AMONG_IDS, seed=12, n_cards=6)
    cal = calibrate(scene.image, scene.layout)
    reader = CardsAdapter(among_deck, calibration=cal)
    reader.read(scene.image)
    assert reader.memory.fits == 1
    rng = np.random.default_rng(3)
    again = np.clip(scene.image + rng.normal(0, 2, scene.image.shape), 0, 255).astype(np.uint8)
    seen = replace(reader, explained=()).read(again)
    assert reader.memory.fits == 1
    native = read_cards(again, among_deck, calibration=cal)
    assert [(c.id, c.row, c.col) for c in seen.cards] == [(c.id, c.row, c.col) for c in native.cards]
    assert len(seen.cards) == 6
    replace(reader, calibration=None).read(again)
    assert reader.memory.fits == 2
