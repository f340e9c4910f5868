"""The seeded synthetic scene generator (vision/synth.py): determinism, labels, symbol sets, enrollment layout."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from vision import synth

SMALL = synth.SceneConfig(width=320, height=200, die_side=(30.0, 34.0), n_dice=(4, 6))


def test_same_seed_same_scene_and_labels():
    a, b = synth.render_scene(5, SMALL), synth.render_scene(5, SMALL)
    assert np.array_equal(a.image, b.image)
    assert a.dice == b.dice
    assert not np.array_equal(a.image, synth.render_scene(6, SMALL).image)


def test_labels_inside_image_and_exact_centres():
    sc = synth.render_scene(11, SMALL)
    h, w = sc.image.shape[:2]
    assert sc.image.dtype == np.uint8 and (h, w) == (200, 320)
    assert 4 <= len(sc.dice) <= 6
    for d in sc.dice:
        x, y, bw, bh = d.box
        assert 0 <= x and 0 <= y and x + bw <= w and y + bh <= h
        assert x <= d.centre[0] <= x + bw and y <= d.centre[1] <= y + bh
        assert d.colour in synth.COLOURS and d.face in synth.FACES
        assert len(d.quad) == 4


def test_default_size_and_count_match_the_issue():
    sc = synth.render_scene(1)
    assert sc.image.shape == (720, 1280, 3)
    assert 10 <= len(sc.dice) <= 30


def test_faces_follow_the_given_faces_by_colour():
    fbc = {"white": ("explore",), "yellow": ("wild",)}
    sc = synth.render_scene(3, replace(SMALL, n_dice=(6, 6)), fbc)
    assert {(d.colour, d.face) for d in sc.dice} <= {("white", "explore"), ("yellow", "wild")}


def test_forced_dice_and_empty_table():
    sc = synth.render_scene(4, SMALL, dice=[("purple", "ship"), ("blue", "produce")])
    assert sorted((d.colour, d.face) for d in sc.dice) == [("blue", "produce"), ("purple", "ship")]
    assert synth.render_scene(4, SMALL, dice=[]).dice == ()


@pytest.mark.parametrize("face", synth.FACES)
def test_symbol_sets_are_visibly_different(face):
    a = synth.symbol_mask("A", face, "white", 64)
    b = synth.symbol_mask("B", face, "white", 64)
    assert a.max() > 0.9 and b.max() > 0.9
    assert np.abs(a - b).mean() > 0.08


def test_produce_differs_by_colour():
    for s in synth.SYMBOL_SETS:
        masks = [synth.symbol_mask(s, "produce", c, 64) for c in synth.COLOURS]
        for i in range(len(masks)):
            for j in range(i + 1, len(masks)):
                assert np.abs(masks[i] - masks[j]).sum() > 5


@pytest.mark.parametrize("kind", synth.TABLE_KINDS)
def test_reusable_textures_and_geometry(kind):
    rng = np.random.default_rng(0)
    tex = synth.table_texture(rng, kind, 60, 80)
    assert tex.shape == (60, 80, 3) and tex.dtype == np.float32 and 0 <= tex.min() and tex.max() <= 255
    hom = synth.perspective_homography(rng, (100, 80), (80, 60), 0.05)
    out = synth.warp_plane(tex, hom, (80, 60))
    assert out.shape == (60, 80, 3)
    warm, cool = synth.light_gains(1.0), synth.light_gains(-1.0)
    assert warm[2] > warm[0] and cool[0] > cool[2]  # BGR: warm = more red, cool = more blue


def test_write_enrollment_layout(tmp_path: Path):
    fbc = {"white": ("explore", "explore", "ship"), "red": ("wild",)}
    cfg = replace(synth.ENROLL_CONFIG, width=240, height=160, die_side=(28.0, 30.0))
    synth.write_enrollment(tmp_path, fbc, seed=1, dice_per_photo=2, config=cfg)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["red-wild", "white-explore", "white-ship"]
    assert all(len(list(p.glob("*.png"))) == 1 for p in tmp_path.iterdir())


def test_write_scenes_labels_json(tmp_path: Path):
    import json

    synth.write_scenes(tmp_path, [1, 2], SMALL)
    labels = json.loads((tmp_path / "labels.json").read_text())["scenes"]
    assert set(labels) == {"scene_1.png", "scene_2.png"}
    assert {"colour", "face", "box", "centre", "quad"} <= set(labels["scene_1.png"]["dice"][0])
