"""The Roll dice reader on the second, independent scene generator (:mod:`vision.scenes`): its own artwork in the
light-ink printing (light symbols on coloured bodies), its own lighting, cameras and patterned tables.

The profile is enrolled from that generator's own enrollment photos (as a real box enrolls its owner's dice),
at 640x360 with an enrollment seed disjoint from the scene seeds.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from tests.test_roll_dice import FACES_BY_COLOUR
from vision import scenes
from vision.roll_dice import RollDiceReader, build_profile
from vision.roll_dice.candidates import clean_mask, tried_sides, typical_side
from vision.roll_dice.foreground import foreground

SCENE = scenes.DiceSceneConfig(width=640, height=360, boards=0.0, clutter=0.0, die_px=(40.0, 46.0),
                               tilt=(0.0, 15.0))


@pytest.fixture(scope="module")
def light_ink_reader(tmp_path_factory) -> RollDiceReader:
    folder = scenes.write_dice_enrollment(tmp_path_factory.mktemp("enroll_light_ink"), FACES_BY_COLOUR, seed=3,
                                          edition="light-ink", dice_per_photo=4,
                                          config=replace(scenes.ENROLL_SCENE, width=640, height=360,
                                                         die_px=(40.0, 46.0)))
    return RollDiceReader(build_profile(folder))


def inside(pt, box) -> bool:
    x, y, w, h = box
    return x <= pt[0] <= x + w and y <= pt[1] <= y + h


@pytest.mark.parametrize("seed", [30, 31])
def test_light_ink_coloured_dice_read_their_body_colour(light_ink_reader: RollDiceReader, seed: int):
    """Light symbols printed on a coloured body: the colour is the body's, never white (the ink's)."""
    sc = scenes.render_dice_scene(seed, replace(SCENE, n_dice=(8, 10), tables=("felt", "wood")),
                                  faces_by_colour=FACES_BY_COLOUR, edition="light-ink")
    assert any(d.colour != "white" for d in sc.dice)
    read = light_ink_reader.read(sc.image).dice
    matched = 0
    for lab in sc.dice:
        hits = [d for d in read if inside(lab.centre, d.box)]
        if hits:
            matched += 1
            assert hits[0].colour == lab.colour, f"{lab.colour}/{lab.face} read as {hits[0].colour}/{hits[0].face}"
    assert matched >= 0.8 * len(sc.dice)


@pytest.mark.parametrize("seed", [20, 21])
def test_gingham_without_dice_has_no_confident_die(light_ink_reader: RollDiceReader, seed: int):
    """An empty checked cloth: no check is reported as a die the reader is sure of (confident wrong = 0)."""
    sc = scenes.render_dice_scene(seed, SCENE, faces_by_colour=FACES_BY_COLOUR, dice=[], table="gingham")
    assert not sc.dice
    assert all(d.confidence < 0.5 for d in light_ink_reader.read(sc.image).dice)


@pytest.mark.parametrize("table", ["gingham", "playmat"])
def test_patterned_table_without_dice_shows_no_die(light_ink_reader: RollDiceReader, table: str):
    """The target: a patterned table with no dice on it shows no die at all. On the playmat, pieces of a printed
    panel's pale title bar between its dark text marks are bounded by straight edges like a die's top, at half a die's
    size; no face of the frame plainly shows a die, so no die size is vouched for, and there a face is a die only as
    far as its symbol is plainly one of the owner's (``unsized_match_ramp``)."""
    for seed in (21, 22, 23):
        sc = scenes.render_dice_scene(seed, SCENE, faces_by_colour=FACES_BY_COLOUR, dice=[], table=table)
        assert light_ink_reader.read(sc.image).dice == ()



def test_a_player_boards_numbered_boxes_are_fewer_false_dice_and_no_die_is_lost(light_ink_reader: RollDiceReader):
    """A player board on an empty table: its track's numbered boxes (the board's surface inside a printed line, with a
    light digit) were read as dice. The printed-square test (the surface comes back just beyond the face, all round:
    :func:`vision.roll_dice.shape.surface_returns`) takes most of them away; on plain felt and wood, where every die
    stands out from the table, it takes no die away and changes no die's colour or face. The reader compared with has
    neither that test nor the other that takes the boxes of an empty table away (a face where no die size is vouched
    for is a die only by a plain symbol), so it is held to the same: no die lost on felt and wood."""
    plain = RollDiceReader(light_ink_reader.profile, replace(light_ink_reader.config, surface_ramp=None,
                                                             unsized_match_ramp=None))
    before = after = 0
    for table, seed in (("felt", 40), ("felt", 41), ("wood", 44), ("wood", 45)):
        sc = scenes.render_dice_scene(seed, replace(SCENE, boards=1.0), faces_by_colour=FACES_BY_COLOUR, dice=[],
                                      table=table)
        before += len(plain.read(sc.image).dice)
        after += len(light_ink_reader.read(sc.image).dice)
    assert before >= 20                                     # the boards' boxes do show as dice without the test
    assert after <= 0.7 * before
    for table, seed in (("felt", 50), ("wood", 51)):
        sc = scenes.render_dice_scene(seed, replace(SCENE, n_dice=(6, 8)), faces_by_colour=FACES_BY_COLOUR,
                                      edition="light-ink", table=table)
        with_test, without = light_ink_reader.read(sc.image).dice, plain.read(sc.image).dice
        assert sorted((d.box, d.colour, str(d.face)) for d in with_test) == \
            sorted((d.box, d.colour, str(d.face)) for d in without)


@pytest.mark.parametrize("seed", [63, 66])
def test_die_size_holds_where_the_cloths_checks_outnumber_the_dice(light_ink_reader: RollDiceReader, seed: int):
    """A checked cloth whose squares outnumber the dice many times over: the median square blob measures a check, a
    half or a third of a die, yet the size the reader reads the dice at is the dice's (the sizes tried are scored by
    how plainly their faces show the owner's symbols, :func:`vision.roll_dice.assemble.size_evidence`), so the dice
    are found whole and read."""
    sc = scenes.render_dice_scene(seed, replace(SCENE, n_dice=(5, 6), die_px=(26.0, 30.0)),
                                  faces_by_colour=FACES_BY_COLOUR, edition="light-ink", table="gingham")
    cfg = light_ink_reader.config
    work, mask, _ = foreground(sc.image, cfg)  # 640 px wide: work px are frame px
    blobs = clean_mask(mask, cfg.default_side_frac * max(mask.shape), cfg)
    contours, _ = cv2.findContours(blobs, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    truth = float(np.median([np.sqrt(cv2.contourArea(np.float32(d.quad))) for d in sc.dice]))
    assert len(contours) > 10 * len(sc.dice)                         # the cloth's squares outnumber the dice
    assert typical_side(blobs, cfg) < 0.6 * truth                     # and the blobs' median is a check, not a die
    assert tried_sides(work, mask, cfg) != [None]                     # so the blobs' side is not the one used
    read = light_ink_reader.read(sc.image).dice
    found = [(lab, d) for lab in sc.dice for d in read if inside(lab.centre, d.box)]
    assert len({id(lab) for lab, _ in found}) >= 0.6 * len(sc.dice)
    # a reported box is the upright box of a top face: 1 to 1.41 x its side as the die is turned 0 to 45 degrees;
    # a read at the checks' size would report boxes of half a die
    side = float(np.median([np.sqrt(d.box[2] * d.box[3]) for _, d in found]))
    assert 0.8 * truth <= side <= 1.5 * truth
    right = {id(lab) for lab, d in found if (d.colour, d.face) == (lab.colour, lab.face)}
    assert len(right) >= 0.5 * len(sc.dice)


def _spy_sizes(monkeypatch) -> tuple[list, list]:
    """(the die sides each look at the frame asked the candidate stage for, the frames searched for a size): the
    reader's calls of ``find_candidates`` and ``tried_sides`` recorded."""
    import vision.roll_dice.reader as reader_module

    looks: list = []
    searches: list = []
    find, tried = reader_module.find_candidates, reader_module.tried_sides

    def spy_find(*args, **kwargs):
        looks.append(args[4] if len(args) > 4 else kwargs.get("side"))
        return find(*args, **kwargs)

    def spy_tried(*args, **kwargs):
        searches.append(1)
        return tried(*args, **kwargs)

    monkeypatch.setattr(reader_module, "find_candidates", spy_find)
    monkeypatch.setattr(reader_module, "tried_sides", spy_tried)
    return looks, searches


def test_a_window_read_after_a_change_reads_at_the_full_reads_die_size(light_ink_reader: RollDiceReader,
                                                                       monkeypatch):
    """The box re-reads only the window round a re-rolled die: it reads it at the size the last full read of the
    table chose (carried in the sighting), trying no other, and reads the die there as the full read did."""
    from vision.readers import RollDiceAdapter

    sc = scenes.render_dice_scene(63, replace(SCENE, n_dice=(5, 6), die_px=(26.0, 30.0)),
                                  faces_by_colour=FACES_BY_COLOUR, edition="light-ink", table="gingham")
    adapter = RollDiceAdapter(light_ink_reader)
    looks, searches = _spy_sizes(monkeypatch)
    full = adapter.read(sc.image)
    assert len(searches) == 1 and len(looks) >= len(light_ink_reader.config.size_hypotheses)
    assert full.die_size in light_ink_reader.config.size_hypotheses  # a tried size, not the checks' blobs
    die = max(full.dice, key=lambda d: d.confidence)
    looks.clear()
    searches.clear()
    after = adapter.read_changes(sc.image, full, [die.box])
    assert searches == [] and len(looks) == 1 and looks[0] is not None  # one size: the full read's
    assert after.die_size == full.die_size
    with pytest.raises(ValueError, match="die size"):
        light_ink_reader.read_window(sc.image, die.box, full.light, size=float("nan"))
    same = [d for d in after.dice if inside((die.box[0] + die.box[2] / 2, die.box[1] + die.box[3] / 2), d.box)]
    assert [(d.colour, d.face) for d in same] == [(die.colour, die.face)]


def _same_dice(a, b) -> bool:
    """The same dice (colour, face, box), their confidences equal but in the last digits (one size looked at or
    every size: the faces are matched in batches of another make-up, summed in another order)."""
    return ([(d.colour, d.face, d.box) for d in a] == [(d.colour, d.face, d.box) for d in b]
            and np.allclose([d.confidence for d in a], [d.confidence for d in b], rtol=0.0, atol=1e-6))


def test_a_reader_of_one_fixed_camera_reads_the_next_frame_at_the_size_it_chose(light_ink_reader: RollDiceReader,
                                                                              monkeypatch):
    """A reader that remembers the die size (the box's) searches the first frame's sizes, then reads the same table
    again without a search, at that size and at the sizes whose faces the search's read weighed (here a white die
    on gingham: the size chosen cuts a check there, matching no symbol, and another size cuts the die's whole top),
    and reads it the same; a reader that does not remember (built fresh for each frame, as the benches build it)
    searches every frame, and the one that remembers searches again where its size shows no die."""
    sc = scenes.render_dice_scene(66, replace(SCENE, n_dice=(5, 6), die_px=(26.0, 30.0)),
                                  faces_by_colour=FACES_BY_COLOUR, edition="light-ink", table="gingham")
    box = RollDiceReader(light_ink_reader.profile, light_ink_reader.config, remember_size=True)
    looks, searches = _spy_sizes(monkeypatch)
    first = box.read(sc.image)
    tried, sides = len(looks), set(looks)
    assert tried >= len(box.config.size_hypotheses) and searches == [1]
    looks.clear()
    second = box.read(sc.image)
    assert 1 <= len(looks) < tried and set(looks) <= sides and searches == [1]
    assert _same_dice(second.dice, first.dice) and second.die_size == first.die_size
    white = [d.box for d in sc.dice if d.colour == "white"]
    assert len(white) == 1 and [d.colour for d in second.dice
                                if inside((d.box[0] + d.box[2] / 2, d.box[1] + d.box[3] / 2), white[0])] == ["white"]
    looks.clear()
    assert _same_dice(light_ink_reader.read(sc.image).dice, first.dice)
    assert len(looks) == tried and searches == [1, 1]
    # the dice taken off the table: the remembered size shows no die now, so the sizes are searched again
    empty = scenes.render_dice_scene(66, replace(SCENE, die_px=(26.0, 30.0)), faces_by_colour=FACES_BY_COLOUR,
                                     dice=[], table="gingham")
    box.read(empty.image)
    assert searches == [1, 1, 1]


@pytest.mark.parametrize(("seed", "table"), [(66, "gingham"), (67, "felt"), (68, "wood")])
def test_the_size_search_reads_on_only_the_sizes_it_can_choose_and_chooses_as_reading_all(
        light_ink_reader: RollDiceReader, monkeypatch, seed: int, table: str):
    """The size search reads a size past its top faces only while an upper bound of its evidence (every NCC 1, the
    scores before the pattern test) can still beat the best size read: it chooses the size, and reads the dice, as
    reading every size to the end does (the confidences to 1e-6), and that bound is never below the evidence read."""
    import vision.roll_dice.reader as reader_module
    from vision.roll_dice.assemble import size_evidence
    from vision.roll_dice.candidates import edge_map
    from vision.roll_dice.reader import _cnn_boxes

    sc = scenes.render_dice_scene(seed, replace(SCENE, n_dice=(5, 8), die_px=(26.0, 30.0)),
                                  faces_by_colour=FACES_BY_COLOUR, edition="light-ink", table=table)
    reader = light_ink_reader
    looks: list = []
    look = reader_module.RollDiceReader._look

    def spy_look(self, frame, tops, cfg, timings, size, bar=-np.inf):
        out = look(self, frame, tops, cfg, timings, size, bar)
        looks.append(out)
        return out

    monkeypatch.setattr(reader_module.RollDiceReader, "_look", spy_look)
    pruned = reader.read(sc.image)
    read_on = sum(x is not None for x in looks)
    looks.clear()
    monkeypatch.setattr(reader_module, "_below", lambda upper, bar: False)  # every size read to the end
    every = reader.read(sc.image)
    # the same dice; a face another size added is matched in a batch of another make-up where that size was not read
    # to the end, so its confidence may differ in the last digits
    assert every.die_size == pruned.die_size and _same_dice(every.dice, pruned.dice)
    assert read_on <= len(looks) == len(reader.config.size_hypotheses)
    cfg = reader.config
    fg = foreground(sc.image, cfg)
    edges, found = edge_map(fg[0], cfg), _cnn_boxes(sc.image, reader._cnn, cfg)
    for size in cfg.size_hypotheses:
        tops = reader._tops_for(sc.image, fg, edges, found, cfg, {}, None, float(size))
        upper = size_evidence(tops, np.ones((len(tops.rects), 1)), cfg)
        assert upper >= reader._look(sc.image, tops, cfg, {}, float(size))[0]
