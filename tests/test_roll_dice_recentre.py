"""The second read of weak faces (vision/roll_dice/recentre.py): a die whose read box slid off its top face is read
again where the top face fits best, its face then read right, and its box, its colour and the dice found unchanged.

Dice are drawn by the synthetic scene generator (:mod:`vision.synth`, seeds disjoint from enrollment); the profile is
enrolled from small synthetic photos.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from tests.roll_dice_small import ENROLL, FACES_BY_COLOUR, SCENE
from vision import synth
from vision.roll_dice import RollDiceConfig, RollDiceReader, TopFaces, build_profile, rect_box
from vision.roll_dice.assemble import assemble_indexed
from vision.roll_dice.colours import calibrate_colours
from vision.roll_dice.faces import match_faces_polarised
from vision.roll_dice.foreground import to_log
from vision.roll_dice.glare import face_glare
from vision.roll_dice.recentre import recentre_boxes, recentre_reads, recentred_scores, weak_reads
from vision.roll_dice.shape import edge_angle, snap_top
from vision.roll_dice.tops import ink_maps, upright_patch

DICE = [("white", "develop"), ("blue", "ship"), ("green", "settle"), ("red", "explore"), ("white", "produce"),
        ("blue", "produce")]
ON = replace(RollDiceConfig(), recentre=True)
#: with the squares snapped onto the top face's edges, at the box's side too
SNAPPED = replace(ON, recentre_snap=True, recentre_snap_box=True)


@pytest.fixture(scope="module")
def reader(tmp_path_factory) -> RollDiceReader:
    folder = tmp_path_factory.mktemp("enroll")
    synth.write_enrollment(folder, FACES_BY_COLOUR, seed=3, symbol_set="A", dice_per_photo=3, config=ENROLL)
    return RollDiceReader(build_profile(folder), ON)


def _slid(reader: RollDiceReader, image: np.ndarray, tops: TopFaces, shift: float) -> TopFaces:
    """``tops`` with every box moved ``shift`` x its side along its own x axis (half on the top face, the rest on a
    side face or the table), its ink and body colour cut there as the reader cuts them."""
    cfg = reader.config
    rects = tops.rects.copy()
    side = np.sqrt(rects[:, 2] * rects[:, 3])
    a = np.deg2rad(rects[:, 4])
    rects[:, 0] += shift * side * np.cos(a)
    rects[:, 1] += shift * side * np.sin(a)
    patches = np.stack([upright_patch(image, r[0], r[1], s, r[4], cfg.patch, cfg.patch_margin)
                        for r, s in zip(rects, side, strict=True)])
    inks, bodies = ink_maps(patches, cfg)
    return TopFaces(rects, tops.scores, inks, bodies, tops.evidence)


def _truth(scene, rect) -> tuple[str, str]:
    lab = min(scene.dice, key=lambda d: np.hypot(d.centre[0] - rect[0], d.centre[1] - rect[1]))
    return lab.colour, lab.face


def test_the_squares_tried_are_the_shifted_box_and_the_squares_snapped_onto_the_top(reader):
    cfg = replace(SNAPPED, recentre_shifts=(-0.2, 0.0, 0.2), recentre_scales=(1.0,))
    frame = np.full((120, 160, 3), 60, np.uint8)
    frame[40:80, 60:100] = (40, 40, 200)  # a red top, 40 px square, centred at (79.5, 59.5)
    body = to_log(np.array([[(40, 40, 200)]], np.uint8), cfg)[0, 0]
    # the read box slid 12 px right of the top, and 1.3 x too large; the side a die has there: 40 px
    boxes = recentre_boxes(frame, np.array([92.0, 60.0, 52.0, 52.0, 0.0]), body, 40.0, cfg)
    assert len(boxes) == 8 + 2  # 3 x 3 shifts but the box itself, and the two snapped squares
    assert not any(np.allclose(b, (92.0, 60.0, 52.0, 52.0, 0.0)) for b in boxes)
    assert any(np.allclose(b, (92.0 - 0.2 * 52, 60.0, 52.0, 52.0, 0.0)) for b in boxes)
    # snapped at the expected side, the square is the top itself
    cx, cy, w, h, _ = boxes[-1]
    assert abs(cx - 79.5) <= 2.0 and abs(cy - 59.5) <= 2.0 and abs(w - 40.0) <= 4.0 and w == h
    # the two snapped squares are snap_top's, at the box's side and at the expected side, squared
    for got, size in zip(boxes[-2:], (52.0, 40.0), strict=True):
        snapped, _ = snap_top(frame, np.array([92.0, 60.0, size, size, 0.0]), body, size, cfg)
        s = np.sqrt(snapped[2] * snapped[3])
        assert np.allclose(got, (snapped[0], snapped[1], s, s, snapped[4]))


@pytest.mark.parametrize(("cfg", "shifts"), [(ON, (0.15, -0.15)), (SNAPPED, (0.3, -0.3))], ids=["default", "snapped"])
def test_a_box_slid_off_the_top_is_read_again_right_and_reported_unchanged(reader, cfg, shifts):
    scene = synth.render_scene(611, SCENE, dice=DICE)
    tops = reader.detect(scene.image)
    assert len(tops.rects) == len(DICE)
    fixed = seen = 0
    for shift in shifts:
        slid = _slid(reader, scene.image, tops, shift)
        ncc = match_faces_polarised(slid.ink, reader.turned_templates, reader._template_pol, cfg,
                                    face_glare(scene.image, slid.rects, slid.ink, cfg))
        _, colour_p = calibrate_colours(slid.body, reader.prototypes, cfg)
        kept = assemble_indexed(slid, colour_p, ncc, reader.profile, cfg, reader._template_pol)
        first = [obs for _, obs in kept]
        again = recentre_reads(scene.image, slid, colour_p, ncc, kept, reader.profile, reader.turned_templates,
                               reader._template_pol, cfg)
        off = recentre_reads(scene.image, slid, colour_p, ncc, kept, reader.profile, reader.turned_templates,
                             reader._template_pol, replace(cfg, recentre=False))
        assert off == tuple(first)
        # the same dice, at the same boxes (the slid ones), of the same colours
        assert [d.box for d in again] == [d.box for d in first] == [rect_box(slid.rects[i]) for i, _ in kept]
        assert [d.colour for d in again] == [d.colour for d in first]
        weak = set(weak_reads(kept, cfg))
        for k, (i, obs) in enumerate(kept):
            truth = _truth(scene, tops.rects[i])
            if k not in weak:
                assert again[k] == obs                       # a sure read is not read again
                continue
            seen += 1
            assert again[k].confidence <= max(obs.confidence, cfg.recentre_cap)
            if obs.face != truth[1] and again[k].face == truth[1]:
                fixed += 1
            assert not (obs.face == truth[1] and again[k].face != truth[1])   # a right face is never lost
    assert seen >= 3 and fixed >= 2


def test_the_best_square_is_found_back_on_the_top_face(reader):
    scene = synth.render_scene(611, SCENE, dice=DICE)
    tops = reader.detect(scene.image)
    assert len(tops.rects) == len(DICE)
    cfg = SNAPPED
    slid = _slid(reader, scene.image, tops, 0.3)
    expected = np.sqrt(tops.rects[:, 2] * tops.rects[:, 3])
    ncc, rects = recentred_scores(scene.image, slid.rects, slid.body, expected, reader.turned_templates,
                                  reader._template_pol, cfg)
    side = np.sqrt(tops.rects[:, 2] * tops.rects[:, 3])
    moved_back = np.hypot(rects[:, 0] - tops.rects[:, 0], rects[:, 1] - tops.rects[:, 1]) < 0.15 * side
    assert moved_back.mean() >= 0.8
    faces = [reader.profile.template_pairs[int(k)][1] for k in ncc.argmax(1)]
    assert np.mean([f == _truth(scene, r)[1] for f, r in zip(faces, tops.rects, strict=True)]) >= 0.8


def test_a_box_turned_off_the_die_is_tried_again_at_the_angle_of_the_die_s_edges():
    cfg = replace(ON, recentre_snap=True, recentre_snap_box=False, recentre_scales=(1.0,))
    frame = np.full((160, 200, 3), 60, np.uint8)
    top = cv2.boxPoints(((100, 80), (40, 40), 25.0))
    cv2.fillPoly(frame, [np.round(top).astype(np.int32)], (40, 40, 200))                # a red top turned 25 deg
    frame = cv2.GaussianBlur(frame, (0, 0), 1.0)
    body = to_log(np.array([[(40, 40, 200)]], np.uint8), cfg)[0, 0]
    box = np.array([104.0, 77.0, 40.0, 40.0, -5.0])                                   # the read box: 30 deg off
    boxes = recentre_boxes(frame, box, body, 40.0, cfg)
    edges, _ = edge_angle(frame, box, body, cfg)
    turned = -5.0 + ((edges + 5.0 + 45.0) % 90.0 - 45.0)
    # the box turned to the edges' angle, the snap from the box, the snap from the turned box
    assert len(boxes) == 3 and np.allclose(boxes[0], (104.0, 77.0, 40.0, 40.0, turned))
    assert abs((turned - 25.0 + 45.0) % 90.0 - 45.0) < 3.0
    cx, cy, w, h, ang = boxes[-1]
    assert np.hypot(cx - 100.0, cy - 80.0) < 2.5 and abs((ang - 25.0 + 45.0) % 90.0 - 45.0) < 4.0 and w == h
    # within recentre_turn of the box's angle, or with recentre_turn 0: no turned square
    assert len(recentre_boxes(frame, np.array([104.0, 77.0, 40.0, 40.0, 20.0]), body, 40.0, cfg)) == 1
    assert len(recentre_boxes(frame, box, body, 40.0, replace(cfg, recentre_turn=0.0))) == 1


def test_a_box_on_the_side_face_is_tried_again_on_the_lit_top_beyond_the_snap_s_reach():
    # A die seen from aside: its top (40 px, red) and, below it, a side face (24 px tall) of the same red in shade
    # (two thirds of the light: 0.4 log units darker), on a grey table. The read box lies on the side face and the
    # top's lower part, 0.6 of a side below the top's centre, its body the side face's colour.
    cfg = replace(ON, recentre_scales=(1.0,))
    frame = np.full((180, 200, 3), 90, np.uint8)
    frame[40:80, 80:120] = (45, 45, 210)                       # the top, centred at (99.5, 59.5)
    frame[80:104, 80:120] = (30, 30, 140)                      # the side face in shade
    frame = cv2.GaussianBlur(frame, (0, 0), 1.0)
    side_body = to_log(np.array([[(30, 30, 140)]], np.uint8), cfg)[0, 0]
    box = np.array([99.5, 83.5, 40.0, 40.0, 0.0])
    boxes = recentre_boxes(frame, box, side_body, 40.0, cfg)
    narrow = recentre_boxes(frame, box, side_body, 40.0, replace(cfg, recentre_wide_shifts=()))
    near = np.hypot(boxes[:, 0] - 99.5, boxes[:, 1] - 59.5)
    # the squares of the narrow search stay on the side face (the snap looks for the side's colour); the wide
    # search for that colour lit more (one square a lift at most) adds the top, at the side a die has there
    assert np.hypot(narrow[:, 0] - 99.5, narrow[:, 1] - 59.5).min() > 8.0
    assert np.array_equal(boxes[:len(narrow)], narrow)
    assert len(narrow) < len(boxes) <= len(narrow) + len(cfg.recentre_wide_lifts)
    top = len(narrow) + int(near[len(narrow):].argmin())
    assert near[top] < 4.0 and abs(boxes[top, 2] - 40.0) <= 4.0
    # a box on the top already: the wide search finds the squares already tried, and adds none
    top_body = to_log(np.array([[(45, 45, 210)]], np.uint8), cfg)[0, 0]
    on_top = np.array([99.5, 59.5, 40.0, 40.0, 0.0])
    assert len(recentre_boxes(frame, on_top, top_body, 40.0, cfg)) == len(
        recentre_boxes(frame, on_top, top_body, 40.0, replace(cfg, recentre_wide_shifts=())))


def test_dice_whose_boxes_are_turned_off_their_tops_are_read_again_right(reader):
    scene = synth.render_scene(611, SCENE, dice=DICE)
    tops = reader.detect(scene.image)
    assert len(tops.rects) == len(DICE)
    cfg = replace(ON, recentre_snap=True, recentre_snap_box=False)
    right = {}
    for turn in (cfg.recentre_turn, 0.0):
        fixed = 0
        for off in (30.0, -30.0):
            turned = _slid(reader, scene.image, replace(tops, rects=tops.rects + (0, 0, 0, 0, off)), 0.0)
            ncc = match_faces_polarised(turned.ink, reader.turned_templates, reader._template_pol, cfg,
                                        face_glare(scene.image, turned.rects, turned.ink, cfg))
            _, colour_p = calibrate_colours(turned.body, reader.prototypes, cfg)
            kept = assemble_indexed(turned, colour_p, ncc, reader.profile, cfg, reader._template_pol)
            again = recentre_reads(scene.image, turned, colour_p, ncc, kept, reader.profile,
                                   reader.turned_templates, reader._template_pol, replace(cfg, recentre_turn=turn))
            for k, (i, obs) in enumerate(kept):
                truth = _truth(scene, tops.rects[i])
                assert again[k].colour == obs.colour and again[k].box == obs.box
                assert not (obs.face == truth[1] and again[k].face != truth[1])   # a right face is never lost
                fixed += obs.face != truth[1] and again[k].face == truth[1]
        right[turn] = fixed
    assert right[cfg.recentre_turn] > right[0.0]


def test_a_face_already_matched_at_recentre_below_is_not_read_again(reader):
    scene = synth.render_scene(611, SCENE, dice=DICE)
    tops = reader.detect(scene.image)
    slid = _slid(reader, scene.image, tops, 0.15)
    ncc = match_faces_polarised(slid.ink, reader.turned_templates, reader._template_pol, ON,
                                face_glare(scene.image, slid.rects, slid.ink, ON))
    _, colour_p = calibrate_colours(slid.body, reader.prototypes, ON)
    kept = assemble_indexed(slid, colour_p, ncc, reader.profile, ON, reader._template_pol)

    def reads(cfg):
        return recentre_reads(scene.image, slid, colour_p, ncc, kept, reader.profile, reader.turned_templates,
                              reader._template_pol, cfg)

    cfg = replace(ON, lamp_close=0)                            # the squares' look alone (no lamp's look after it)
    again = reads(cfg)
    changed = [k for k, (_, obs) in enumerate(kept) if again[k] != obs]
    assert changed                                            # a box slid off its top: read again where the top is
    k = max(changed, key=lambda k: float(ncc[kept[k][0]].max()))
    first = float(ncc[kept[k][0]].max())                      # its best template in the first read
    assert first < cfg.recentre_below
    # its first match counted as good enough: no square is tried, the first read stays; a die matched worse is read
    # again as before
    gated = reads(replace(cfg, recentre_below=first))
    assert gated[k] == kept[k][1]
    for j, (i, _) in enumerate(kept):
        if float(ncc[i].max()) < first:
            assert same_read(gated[j], again[j])
    assert all(map(same_read, reads(replace(cfg, recentre_below=first + 1e-3)), again))
    assert all(map(same_read, reads(replace(cfg, recentre_below=2.0)), again))  # above 1: every weak face, as before


def same_read(a, b) -> bool:
    """Whether two dice reads say the same: colour, face and box alike, confidence within 1e-6 (the squares of a
    different set of weak dice are scored in one matrix product of another shape, whose sums BLAS may round in
    another order when its thread count differs)."""
    if a is None or b is None:
        return a is b
    alike = (a.colour, a.face, a.box, a.kind) == (b.colour, b.face, b.box, b.kind)
    return alike and abs(a.confidence - b.confidence) <= 1e-6
