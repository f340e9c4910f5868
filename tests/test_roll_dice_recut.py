"""A die whose outline has a gap: its face core runs into the table's, and the Roll dice reader's candidate stage cuts
that core again at the colour edges thickened (:func:`vision.roll_dice.candidates.recut_candidates`), so the die's own
core stands apart; a core that is a die as it is gives no second candidate."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from tests.roll_dice_small import ENROLL, FACES_BY_COLOUR, SCENE
from vision import synth
from vision.roll_dice import RollDiceConfig, RollDiceReader, build_profile
from vision.roll_dice import reader as reader_module
from vision.roll_dice.candidates import edge_map, find_candidates, recut_candidates
from vision.roll_dice.foreground import foreground
from vision.roll_dice.tops import extract_tops

CONFIG = RollDiceConfig()
SIDE = 24  # the die's side, work px (the frame is the work image: scale 1)
DIE = (100, 100)  # the die's top-left corner, work px


def table(gap: int, blob: tuple[int, int, int, int] = (10, 10, 310, 310)) -> tuple[np.ndarray, np.ndarray]:
    """(foreground mask, colour edges), ``uint8[320, 320]`` 0/255: a foreground blob ``blob`` (x0, y0, x1, y1) and a
    die's outline, a one-pixel square of ``SIDE`` px at ``DIE``, open over ``gap`` px in the middle of its top side
    (its body as light as the table there)."""
    mask = np.zeros((320, 320), np.uint8)
    x0, y0, x1, y1 = blob
    mask[y0:y1, x0:x1] = 255
    edges = np.zeros_like(mask)
    x, y = DIE
    cv2.rectangle(edges, (x, y), (x + SIDE, y + SIDE), 255, 1)
    if gap:
        mid = x + SIDE // 2
        edges[y, mid - gap // 2:mid - gap // 2 + gap] = 0
    return mask, edges


def centred_on_die(rects: np.ndarray) -> np.ndarray:
    """``bool[N]``: which rects are centred within 2 px of the die's centre."""
    cx, cy = DIE[0] + SIDE / 2, DIE[1] + SIDE / 2
    return np.hypot(rects[:, 0] - cx, rects[:, 1] - cy) <= 2.0


@pytest.mark.parametrize("gap", [1, 2])
def test_a_die_whose_core_runs_into_the_table_is_cut_apart(gap: int):
    """Its outline open over one or two pixels, the die's core and the large blob round it are one core of dozens of
    dice areas, no candidate; cut again at edges thickened by 3 px, the die is one candidate of its own size."""
    mask, edges = table(gap)
    work = np.zeros((320, 320, 3), np.uint8)
    plain = find_candidates(work, mask, 1.0, CONFIG, float(SIDE), edges)
    assert not centred_on_die(plain.rects).any()
    got = recut_candidates(mask, 1.0, CONFIG, float(SIDE), edges)
    on = centred_on_die(got.rects)
    assert on.sum() == 1
    w, h = got.rects[on][0, 2:4]
    assert abs(w - SIDE) <= 3 and abs(h - SIDE) <= 3
    assert got.scores[on][0] >= CONFIG.min_die_score
    # the rest of the blob is no die: nothing else comes of it
    assert len(got.rects) == 1


def test_a_die_that_is_a_core_of_its_own_gives_no_second_candidate():
    """A die on a plain table (the blob is the die, its outline closed) is a candidate as it is; the cut again adds
    nothing."""
    x, y = DIE
    mask, edges = table(0, blob=(x - 2, y - 2, x + SIDE + 3, y + SIDE + 3))
    work = np.zeros((320, 320, 3), np.uint8)
    plain = find_candidates(work, mask, 1.0, CONFIG, float(SIDE), edges)
    assert centred_on_die(plain.rects).sum() == 1
    assert len(recut_candidates(mask, 1.0, CONFIG, float(SIDE), edges).rects) == 0


def test_no_recut_when_off():
    """``recut_gap`` below 2 gives no candidate."""
    mask, edges = table(2)
    assert len(recut_candidates(mask, 1.0, replace(CONFIG, recut_gap=0), float(SIDE), edges).rects) == 0


def three_dice_with_an_empty_look(tmp_path, monkeypatch):
    """A plain table of three enrolled dice (synth seed 11) and the reader's pieces for a recut of it, where the size
    chosen found no top face: ``(reader, image, fg, edges, cfg, look)``, ``look`` the empty look (its NCC ``[0, K]``).
    The recut is handed the dice as the candidate stage finds them on this plain table."""
    synth.write_enrollment(tmp_path, FACES_BY_COLOUR, seed=3, symbol_set="A", dice_per_photo=3, config=ENROLL)
    reader = RollDiceReader(build_profile(tmp_path))
    scene = synth.render_scene(11, replace(SCENE, n_dice=(3, 3)), FACES_BY_COLOUR)
    cfg = reader.config
    fg = foreground(scene.image, cfg)
    edges = edge_map(fg[0], cfg)
    monkeypatch.setattr(reader_module, "recut_candidates",
                        lambda mask, scale, config, side, edges, cut=None:
                        find_candidates(fg[0], mask, scale, config, side, edges))
    k = len(reader.profile.template_pairs)
    plain = find_candidates(fg[0], fg[1], fg[2], cfg, None, edges)
    empty = extract_tops(scene.image, plain, cfg).take(np.zeros(0, int))
    return reader, scene.image, fg, edges, cfg, (0.0, reader_module.MEASURED_SIZE, empty, np.zeros((0, k)))


def test_dice_recut_where_the_size_chosen_has_no_top_face_are_read(tmp_path, monkeypatch):
    """Where the die size chosen found no top face at all (every die's outline open, on a printed table), the dice the
    recut finds are the read's only faces: they are matched and joined to the (empty) look's faces, NCC ``[N, K]``,
    instead of the join failing on the empty look's NCC."""
    reader, image, fg, edges, cfg, look = three_dice_with_an_empty_look(tmp_path, monkeypatch)
    k = look[3].shape[1]
    tops, ncc = reader._recut(image, fg, edges, cfg, None, look)
    assert len(tops.rects) >= 1
    assert ncc.shape == (len(tops.rects), k)
    assert np.isfinite(ncc).all()


def test_the_recut_adds_no_face_where_the_caller_sets_boxes_aside(tmp_path, monkeypatch):
    """Once the die size is chosen, the recut cuts and matches no face whose box the caller sets aside (a calibration
    marker with its paper, :class:`vision.roll_dice.kept.Aside`); set aside nowhere, it adds the same faces as
    untold, and everywhere, none."""
    from vision.roll_dice.kept import Aside

    reader, image, fg, edges, cfg, look = three_dice_with_an_empty_look(tmp_path, monkeypatch)
    k = look[3].shape[1]
    untold, _ = reader._recut(image, fg, edges, cfg, None, look)
    assert len(untold.rects) == 3  # the three dice
    timings: dict[str, float] = {}
    nowhere, _ = reader._recut(image, fg, edges, cfg, None, look,
                               aside=Aside(lambda boxes: [False] * len(boxes), (0, 0), timings))
    np.testing.assert_array_equal(nowhere.rects, untold.rects)
    assert "aside" in timings
    everywhere, ncc = reader._recut(image, fg, edges, cfg, None, look,
                                    aside=Aside(lambda boxes: [True] * len(boxes), (0, 0), {}))
    assert len(everywhere.rects) == 0 and ncc.shape == (0, k)


def test_a_set_aside_box_is_asked_in_frame_pixels():
    """A window's rects (window px) are asked of the caller as ``(x, y, w, h)`` frame-px boxes: the window's offset
    added to each rotated rect's bounding box."""
    from vision.roll_dice.kept import Aside

    asked: list = []

    def left_of_200(boxes):
        asked.extend(boxes)
        return [b[0] + b[2] <= 200 for b in boxes]

    # a 20 px square centred at (50, 40) and one at (150, 40), its bounding box 20 px wide at any right angle;
    # in a window at x 100 they lie at frame x 140..160 and 240..260
    rects = np.array([[50.0, 40.0, 20.0, 20.0, 0.0], [150.0, 40.0, 20.0, 20.0, 90.0]])
    assert Aside(left_of_200, (100, 7), {}).kept(rects).tolist() == [False, True]
    assert asked == [(140, 37, 20, 20), (240, 37, 20, 20)]
    assert Aside(left_of_200, (0, 0), {}).kept(np.zeros((0, 5))).shape == (0,)
