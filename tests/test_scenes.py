"""The second scene generator (vision/scenes/): its camera, light, tables, artwork and labelled dice scenes."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from vision import scenes, synth
from vision.scenes.camera import look_at
from vision.scenes.light import illuminant_bgr
from vision.scenes.tables import TABLE_KINDS, table_surface

SMALL = scenes.DiceSceneConfig(width=400, height=240, n_dice=(4, 6), die_px=(30.0, 36.0))


def test_same_seed_same_scene_and_labels():
    a, b = scenes.render_dice_scene(3, SMALL), scenes.render_dice_scene(3, SMALL)
    assert np.array_equal(a.image, b.image) and a.dice == b.dice and a.meta == b.meta
    assert not np.array_equal(a.image, scenes.render_dice_scene(4, SMALL).image)


def test_labels_have_the_first_generators_form_and_sit_on_the_dice():
    sc = scenes.render_dice_scene(11, SMALL)
    h, w = sc.image.shape[:2]
    assert isinstance(sc, synth.Scene) and (h, w) == (240, 400) and sc.image.dtype == np.uint8
    assert 4 <= len(sc.dice) <= 6 and len(sc.meta["under"]) == len(sc.dice)
    for d in sc.dice:
        assert isinstance(d, synth.DieLabel)
        x, y, bw, bh = d.box
        assert 0 <= x and 0 <= y and x + bw <= w and y + bh <= h
        assert x <= d.centre[0] <= x + bw and y <= d.centre[1] <= y + bh
        assert 20 <= bw <= 60 and 20 <= bh <= 60  # about die_px, widened by the turn and the tilt
        assert set(d.to_json()) == {"colour", "face", "box", "centre", "quad"}


def test_the_die_is_drawn_where_its_label_is():
    """A white die on felt: most of its labelled top face is far brighter than the table around it."""
    import cv2
    cfg = replace(SMALL, n_dice=(1, 1), boards=0.0, clutter=0.0)
    for seed in (5, 6, 7):
        sc = scenes.render_dice_scene(seed, cfg, dice=[("white", "explore")], table="felt")
        grey = sc.image.mean(2)
        inside = np.zeros(grey.shape, np.uint8)
        cv2.fillPoly(inside, [np.round(np.array(sc.dice[0].quad)).astype(np.int32)], 1)
        assert (grey[inside > 0] > np.median(grey) + 40).mean() > 0.4


@pytest.mark.parametrize("kind", TABLE_KINDS)
def test_every_table_kind_renders(kind):
    t = table_surface(np.random.default_rng(1), kind, 120, 160, 2.0)
    assert t.shape == (120, 160, 3) and t.dtype == np.float32 and 0 <= t.min() and t.max() <= 1.0 + 1e-6
    sc = scenes.render_dice_scene(2, SMALL, table=kind)
    assert sc.meta["table"] == kind


def test_gingham_is_white_half_and_full_checks():
    """A quarter of a gingham is white, a quarter full colour (both bands cross), half in between."""
    t = table_surface(np.random.default_rng(9), "gingham", 400, 400, 2.0).mean(2)
    lo, hi = np.percentile(t, 5), np.percentile(t, 95)
    x = (t - lo) / (hi - lo)
    white, full = (x > 0.8).mean(), (x < 0.2).mean()
    assert 0.1 < white < 0.45 and 0.1 < full < 0.45
    with pytest.raises(ValueError, match="unknown table kind"):
        table_surface(np.random.default_rng(0), "marble", 10, 10, 1.0)


def test_colour_temperature_is_warm_at_2700_and_neutral_at_6500():
    warm, day = illuminant_bgr(2700), illuminant_bgr(6500)
    assert np.allclose(day, 1.0, atol=1e-6)
    b, g, r = warm
    assert r == pytest.approx(1.0) and b < g < r and b < 0.5  # a tungsten lamp: far more red than blue


def test_camera_sees_the_target_at_the_centre_and_never_mirrors():
    for tilt in (0.0, 20.0):
        cam = look_at(np.zeros(3), 500.0, tilt, 30.0, 5.0, 60.0, (640, 480), k1=-0.1)
        assert np.allclose(cam.project(np.zeros((1, 3)))[0], (320, 240), atol=1e-6)
        H = cam.plane_homography(0.0)
        p = cam.project(np.array([[0, 0, 0], [10, 0, 0], [0, 10, 0]]), distort=False)
        (ax, ay), (bx, by) = p[1] - p[0], p[2] - p[0]
        assert ax * by - ay * bx > 0  # table x then y turn the same way in the picture: not mirrored
        q = H @ np.array([10.0, 0, 1])
        assert np.allclose(q[:2] / q[2], p[1])


def test_distortion_map_inverts_the_lens_model():
    cam = look_at(np.zeros(3), 400.0, 10.0, 0.0, 0.0, 70.0, (320, 240), k1=-0.2, k2=0.03)
    mx, my = cam.distortion_map()
    pts = np.array([[10, 0, 0], [-60, 40, 0], [80, -50, 0]], np.float64)
    d, u = cam.project(pts), cam.project(pts, distort=False)
    for (xd, yd), (xu, yu) in zip(d, u, strict=True):
        i, j = int(round(yd)), int(round(xd))
        assert abs(mx[i, j] - xu) < 1.5 and abs(my[i, j] - yu) < 1.5


def test_a_point_past_the_lens_folds_is_projected_into_the_frame_but_not_in_the_picture():
    """Overhead at 400 mm, so a table point x mm off the axis has undistorted radius r = x / 400. With k1 = -0.22 the
    distorted radius r (1 - 0.22 r^2) grows up to r^2 = 1 / 0.66 (r = 1.231, slope 1 - 0.66 r^2) and shrinks past
    it: r = 1 (x = 400) gives 0.78, r = 1.5 (x = 600) gives 1.5 x (1 - 0.495) = 0.7575, both inside a 90-degree
    frame (its edge at 1.0), but the picture shows only the first; without distortion it shows both."""
    cam = look_at(np.zeros(3), 400.0, 0.0, 0.0, 0.0, 90.0, (400, 240), k1=-0.22)
    pts = np.array([[400.0, 0, 0], [600.0, 0, 0], [0, 0, -500.0]])  # near the fold, past it, above the camera
    f = cam.K[0, 0]
    assert np.allclose(np.hypot(*(cam.project(pts[:2]) - cam.K[:2, 2]).T) / f, [0.78, 0.7575], atol=1e-9)
    assert cam.in_picture(pts).tolist() == [True, False, False]
    flat = look_at(np.zeros(3), 400.0, 0.0, 0.0, 0.0, 90.0, (400, 240))
    assert flat.in_picture(pts).tolist() == [True, True, False]


def test_every_labelled_die_is_in_the_picture():
    """A wide lens (seed 1030: pi-wide, tilted 27.7 degrees) put dice past its fold, whose labels came back into the
    frame as slivers (a top face 187 x 87 px with sides of 196 and 22 px) where nothing is drawn. A die's top seen
    from 28 degrees off the vertical is foreshortened by cos 28 = 0.88 and turned, never 1 : 3."""
    sc = scenes.render_dice_scene(1030, edition="light-ink")
    assert len(sc.meta["under"]) == len(sc.dice) > 10
    for d in sc.dice:
        q = np.array(d.quad)
        sides = np.linalg.norm(q - np.roll(q, -1, 0), axis=1)
        assert sides.min() > sides.max() / 3, d


def test_editions_print_both_polarities_and_produce_differs_by_colour():
    for name, ed in scenes.EDITIONS.items():
        pol = {c: ed.polarity(c) for c in scenes.COLOURS}
        assert pol["white"] == -1 and {-1, 1} <= set(pol.values()), name
    assert scenes.EDITIONS["light-ink"].polarity("red") == 1 and scenes.EDITIONS["dark-ink"].polarity("red") == -1
    marks = [scenes.symbol("produce", c, 64) for c in scenes.COLOURS]
    for i in range(len(marks)):
        for j in range(i + 1, len(marks)):
            assert np.abs(marks[i] - marks[j]).mean() > 0.01
    for f in scenes.FACES:
        ours, theirs = scenes.symbol(f, "red", 64), synth.symbol_mask("A", f, "red", 64)
        assert np.abs(ours - theirs).mean() > 0.05  # its own artwork, not the first generator's
    with pytest.raises(ValueError):
        scenes.symbol("trade", "red")


def test_forced_dice_tables_and_errors():
    sc = scenes.render_dice_scene(8, SMALL, dice=[("red", "settle"), ("white", "explore")], edition="dark-ink",
                                  camera="webcam")
    assert sorted((d.colour, d.face) for d in sc.dice) == [("red", "settle"), ("white", "explore")]
    assert sc.meta["edition"] == "dark-ink" and sc.meta["camera"] == "webcam"
    with pytest.raises(ValueError, match="edition"):
        scenes.render_dice_scene(1, SMALL, edition="gold")
    with pytest.raises(ValueError, match="camera"):
        scenes.render_dice_scene(1, SMALL, camera="drone")


def test_write_enrollment_layout(tmp_path: Path):
    fbc = {"red": ("settle", "wild"), "white": ("explore",)}
    small = replace(scenes.ENROLL_SCENE, width=320, height=200, die_px=(30.0, 34.0))
    out = scenes.write_dice_enrollment(tmp_path, fbc, seed=2, edition="light-ink", dice_per_photo=2, config=small)
    assert sorted(p.name for p in out.iterdir()) == ["red-settle", "red-wild", "white-explore"]
    assert all(len(list(p.glob("*.png"))) == 1 for p in out.iterdir())


IDS = [f"card_{k}" for k in range(12)]


def test_card_scenes_have_the_first_generators_labels_and_calibrate():
    from vision.synth_table import CardLabel, Scene
    from vision.table import calibrate
    a, b = scenes.card_scene("race", IDS, 3, n_cards=5), scenes.card_scene("race", IDS, 3, n_cards=5)
    assert np.array_equal(a.image, b.image) and isinstance(a, Scene) and a.image.shape == (720, 1280, 3)
    assert len(a.cards) == 5 and all(isinstance(c, CardLabel) and c.corners_px.shape == (4, 2) for c in a.cards)
    assert all(c.row is not None and c.col is not None for c in a.cards)
    h, w = a.image.shape[:2]
    for c in a.cards:
        assert (c.corners_px >= 0).all() and (c.corners_px[:, 0] < w).all() and (c.corners_px[:, 1] < h).all()
    cal = calibrate(a.image, a.layout)  # the corner markers are seen through this generator's camera
    centres = cal.to_mm(np.array([c.corners_px.mean(0) for c in a.cards]))
    assert np.abs(centres - np.array([c.center_mm for c in a.cards])).max() < 8.0
    station = scenes.card_scene("among", ["main_reactor"] + IDS, 4, n_cards=6, camera="webcam")
    assert station.cards[0].id == "main_reactor" and station.cards[0].cell == (0, 0)
    assert station.meta["camera"] == "webcam"
    with pytest.raises(ValueError, match="game"):
        scenes.card_scene("chess", IDS, 1)


def test_hex_scenes_and_enrollment_photos():
    from vision.synth_table import HexLabel
    ids = ["001", "101", "102", "103", "201", "202"]
    sc = scenes.hex_scene(ids, 5, n_hexes=6)
    assert sc.cards == [] and len(sc.hexes) == 6 and all(isinstance(h, HexLabel) for h in sc.hexes)
    assert sc.hexes[0].id == "001" and sc.hexes[0].axial == (0, 0) and all(0 <= h.rotation < 6 for h in sc.hexes)
    photos = scenes.camera_photos({i: scenes.card_art(i, (63.0, 88.0)) for i in IDS[:2]}, "phone", seed=1)
    assert set(photos) == set(IDS[:2]) and all(len(v) == 2 and v[0].dtype == np.uint8 for v in photos.values())
    art, alpha = scenes.hex_art("101")
    assert art.shape[:2] == alpha.shape and alpha[alpha.shape[0] // 2, alpha.shape[1] // 2] == 1.0
    assert not np.array_equal(scenes.card_art("a", (63.0, 88.0))[0], scenes.card_art("b", (63.0, 88.0))[0])
