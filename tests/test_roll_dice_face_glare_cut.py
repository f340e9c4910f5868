"""The face match's glare masks (``vision.roll_dice.glare.face_glare``) cut a patch only for a face with a pixel
``glare_log`` brighter than its body: every mask is the one that cutting every face's patch gives, on hand-built
frames of dice with and without a lamp's spot clipped to white."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

import vision.roll_dice.glare as glare_module
from vision.roll_dice import RollDiceConfig
from vision.roll_dice.glare import face_glare, glare_masks
from vision.roll_dice.tops import ink_maps, upright_patch

CFG = RollDiceConfig()


def _table_with_dice(spots: list[bool]) -> tuple[np.ndarray, np.ndarray]:
    """(``uint8[240, 80 * len(spots), 3]`` BGR frame, ``float[N, 5]`` rects): a grey table with one 40 px die a
    spot, upright (a cream body with a dark bar of ink across its middle, as a white die prints); where ``spots[i]``
    a 5 px lamp's spot clipped to white (255) sits in the die's upper left quarter."""
    n = len(spots)
    frame = np.full((240, 80 * n, 3), 110, np.uint8)
    rects = []
    for i, spot in enumerate(spots):
        cx, cy = 80 * i + 40, 120
        frame[cy - 20:cy + 20, cx - 20:cx + 20] = (190, 205, 210)
        frame[cy - 3:cy + 3, cx - 12:cx + 12] = (40, 40, 40)
        if spot:
            frame[cy - 12:cy - 7, cx - 12:cx - 7] = 255
        rects.append((cx, cy, 40.0, 40.0, 0.0))
    return frame, np.array(rects)


def _inks(frame: np.ndarray, rects: np.ndarray, cfg: RollDiceConfig) -> np.ndarray:
    m = cfg.patch_margin
    patches = np.stack([upright_patch(frame, r[0], r[1], float(np.sqrt(r[2] * r[3])), r[4], cfg.patch, m)
                        for r in rects])
    return ink_maps(patches, cfg, m)[0]


def _every_patch(frame: np.ndarray, rects: np.ndarray, inks: np.ndarray, cfg: RollDiceConfig) -> np.ndarray:
    """The reference: every face's patch cut and its glare measured."""
    m = (inks.shape[-1] - cfg.patch) // 2
    patches = np.stack([upright_patch(frame, r[0], r[1], float(np.sqrt(r[2] * r[3])), r[4], cfg.patch, m)
                        for r in rects])
    return glare_masks(patches, inks[:, 0], cfg)


def test_only_the_dice_with_a_spot_have_glare_and_every_mask_is_the_reference():
    frame, rects = _table_with_dice([False, True, False, True, False])
    inks = _inks(frame, rects, CFG)
    got = face_glare(frame, rects, inks, CFG)
    assert np.array_equal(got, _every_patch(frame, rects, inks, CFG))
    assert got.any(axis=(1, 2)).tolist() == [False, True, False, True, False]
    # the spot (5 px of frame, 28/40 of that in the patch) and its halo of glare_grow px: a few dozen pixels, no more
    assert 9 <= int(got[1].sum()) <= 100


def test_no_patch_is_cut_where_no_face_is_bright_enough(monkeypatch):
    frame, rects = _table_with_dice([False, False, False])
    inks = _inks(frame, rects, CFG)
    cut = []
    monkeypatch.setattr(glare_module, "upright_patch", lambda *a: cut.append(a) or upright_patch(*a))
    got = face_glare(frame, rects, inks, CFG)
    assert not got.any() and got.shape == (3,) + inks.shape[-2:] and cut == []
    frame, rects = _table_with_dice([False, True, False])
    face_glare(frame, rects, _inks(frame, rects, CFG), CFG)
    assert len(cut) == 1 and cut[0][1] == rects[1, 0]


def test_a_lower_glare_bar_and_turned_dice_give_the_reference_too():
    frame, rects = _table_with_dice([True, False, True, False])
    rects[:, 4] = (0.0, 12.0, 30.0, 7.0)
    for cfg in (CFG, replace(CFG, glare_log=0.05), replace(CFG, glare_grow=0), replace(CFG, glare_min=256)):
        inks = _inks(frame, rects, cfg)
        assert np.array_equal(face_glare(frame, rects, inks, cfg), _every_patch(frame, rects, inks, cfg))
    empty = face_glare(frame, rects[:0], np.zeros((0, 2, 34, 34), np.float32), CFG)
    assert empty.shape == (0, 34, 34)
