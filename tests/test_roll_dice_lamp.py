"""The lamp's second look (vision/roll_dice/lamp.py): a die printed dark under a lamp's soft, unclipped spot is read
right once the spot's light is taken off each channel; a face with no spot is cut as before; a clipped glare is still
left out of the match.

Dice are drawn by hand with numpy: a red die printed dark (a cross for settle, a ring for wild) and a purple die
printed light (a disc for wild: what a soft spot looks like to a light-printed template). The spot is light added in
linear light (the camera's tone curve, gamma 2.2, applied after), as a glossy die reflects a lamp.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision.profiles import DiceProfile
from vision.roll_dice import RollDiceConfig, TopFaces
from vision.roll_dice.faces import best_turn, rotated_templates, search_faces, template_of, template_polarity
from vision.roll_dice.glare import glare_masks
from vision.roll_dice.lamp import lamp_free_inks, lamp_reads
from vision.roll_dice.observations import RollDieObservation
from vision.roll_dice.tops import ink_maps, upright_patch

CFG = replace(RollDiceConfig(), lamp_close=5)
SIDE = 28                      # the die's top face, frame px (the face patch's own size: no resampling)
CENTRE = (60.0, 60.0)
RED, PURPLE, INK_DARK, INK_LIGHT, TABLE = (40, 40, 170), (140, 50, 120), (25, 25, 25), (230, 230, 230), (70, 90, 70)
PAIRS = (("red", "settle"), ("red", "wild"), ("purple", "wild"))


def _die(body, ink, symbol: str, spot: float = 0.0, spot_at=(0.0, 0.0), sigma: float = 4.0) -> np.ndarray:
    """``uint8[120, 120, 3]``: a table with one die's top face, ``SIDE`` px, its symbol drawn in ``ink``; with
    ``spot`` > 0 a Gaussian spot of that peak (linear light, 0..1) and ``sigma`` px, ``spot_at`` px off the middle."""
    img = np.zeros((120, 120, 3), np.uint8)
    img[:] = TABLE
    x0, y0 = int(CENTRE[0] - SIDE / 2 + 0.5), int(CENTRE[1] - SIDE / 2 + 0.5)
    img[y0:y0 + SIDE, x0:x0 + SIDE] = body
    c = (int(CENTRE[0]), int(CENTRE[1]))
    if symbol == "cross":
        cv2.rectangle(img, (c[0] - 8, c[1] - 2), (c[0] + 7, c[1] + 1), ink, -1)
        cv2.rectangle(img, (c[0] - 2, c[1] - 8), (c[0] + 1, c[1] + 7), ink, -1)
    elif symbol == "ring":
        cv2.circle(img, c, 7, ink, 3)
    else:
        cv2.circle(img, c, 5, ink, -1)
    if spot > 0:
        lin = (img.astype(np.float64) / 255.0) ** 2.2
        yy, xx = np.mgrid[0:120, 0:120]
        g = np.exp(-((xx - CENTRE[0] - spot_at[0]) ** 2 + (yy - CENTRE[1] - spot_at[1]) ** 2) / (2 * sigma ** 2))
        lin = np.clip(lin + spot * g[:, :, None], 0.0, 1.0)
        img = np.round(255.0 * lin ** (1 / 2.2)).astype(np.uint8)
    return img


def _patch(img: np.ndarray) -> np.ndarray:
    return upright_patch(img, CENTRE[0], CENTRE[1], float(SIDE), 0.0, CFG.patch, CFG.patch_margin)


@pytest.fixture(scope="module")
def profile() -> DiceProfile:
    plain = [_die(RED, INK_DARK, "cross"), _die(RED, INK_DARK, "ring"), _die(PURPLE, INK_LIGHT, "disc")]
    inks, bodies = ink_maps(np.stack([_patch(p) for p in plain]), CFG)
    tpl = np.stack([template_of(ink, CFG) for ink in inks])
    return DiceProfile(colours=("red", "purple"), faces=("settle", "wild"), allowed=PAIRS,
                       colour_means=np.stack([bodies[0], bodies[2]]), template_pairs=PAIRS, templates=tpl,
                       template_side=CFG.template)


def first_match(profile: DiceProfile, img: np.ndarray, cfg: RollDiceConfig = CFG):
    """(the profile's rotated templates, their polarity, the first match's NCC ``[1, K]``, the top face) of the die
    of side ``SIDE`` px at ``CENTRE`` of ``img``: what the recentre stage's looks start from."""
    tpl = np.asarray(profile.templates, np.float32)
    pol = template_polarity(tpl, cfg)
    rot = rotated_templates(tpl, cfg)
    patch = _patch(img)
    inks, bodies = ink_maps(patch[None], cfg)
    score, _ = search_faces(inks, rot, pol, cfg, cfg.shift_step, cfg.shift_refine,
                            glare_masks(patch[None], inks[:, 0], cfg))
    rect = np.array([[CENTRE[0], CENTRE[1], SIDE, SIDE, 0.0]])
    return rot, pol, best_turn(score), TopFaces(rect, np.ones(1), inks, bodies, None)


def _reads(profile: DiceProfile, img: np.ndarray, cfg: RollDiceConfig = CFG):
    """(the first match's NCC ``[3]``, the lamp's look at it: a read or None) of the red die of ``img``."""
    rot, pol, ncc, tops = first_match(profile, img, cfg)
    weak = [(0, RollDieObservation("red", None, (46, 46, 28, 28), 0.5))]
    return ncc[0], lamp_reads(img, tops, np.array([[1.0, 0.0]]), ncc, weak, profile, rot, pol, cfg)[0]


def test_the_templates_are_printed_as_drawn(profile):
    assert list(template_polarity(np.asarray(profile.templates, np.float32), CFG)) == [-1.0, -1.0, 1.0]


def test_a_soft_spot_is_taken_off_and_the_dark_ink_under_it_comes_back():
    plain = _patch(_die(RED, INK_DARK, "cross"))
    ink, body = ink_maps(plain[None], CFG)
    inner = (slice(8, 26), slice(8, 26))                     # the symbol and the spot round it
    for at in ((0.0, 0.0), (4.0, 3.0)):
        lit = _patch(_die(RED, INK_DARK, "cross", spot=0.35, spot_at=at, sigma=2.5))
        assert int(lit.min(2).max()) < CFG.glare_min        # not clipped: the glare mask leaves it in
        spotted, _ = ink_maps(lit[None], CFG, bodies=body)
        flat = lamp_free_inks(lit[None], body, CFG)
        before = np.abs(spotted[0, 0][inner] - ink[0, 0][inner])
        after = np.abs(flat[0, 0][inner] - ink[0, 0][inner])
        # the spot's body is the body again; under the middle of the cross the level is the one round the stroke
        # (below the spot's peak), so what is left is a fraction of what the spot did
        assert before.mean() > 0.4 and after.mean() < 0.4 * before.mean()
        body_px = ink[0, 0][inner] > -0.1                    # the face's body round the cross
        assert np.abs(flat[0, 0][inner][body_px]).max() < 0.1 < np.abs(spotted[0, 0][inner][body_px]).max()


def test_a_dark_symbol_under_a_soft_spot_reads_right(profile):
    lit = _die(RED, INK_DARK, "cross", spot=0.35, spot_at=(4.0, 3.0), sigma=2.5)
    ncc, read = _reads(profile, lit)
    assert ncc[2] > ncc[0]                                   # the light disc matches the spot better than the cross
    assert read is not None and (read.colour, read.face) == ("red", "settle")
    assert read.confidence <= CFG.recentre_cap
    # off: no second look
    _, off = _reads(profile, lit, replace(CFG, lamp_close=0))
    assert off is None


def test_a_face_its_dark_templates_already_match_well_is_not_looked_at(profile):
    lit = _die(RED, INK_DARK, "cross", spot=0.35, spot_at=(4.0, 3.0), sigma=2.5)
    ncc, read = _reads(profile, lit)
    first = float(ncc[:2].max())                             # the best dark-printed template (cross, ring)
    assert first < CFG.lamp_below and read is not None       # spoiled by the spot: looked at and read
    # the same die, its first match counted as good enough: no look, whatever the look would have found
    _, skipped = _reads(profile, lit, replace(CFG, lamp_below=first))
    assert skipped is None
    _, just_under = _reads(profile, lit, replace(CFG, lamp_below=first + 1e-3))
    assert just_under == read


def test_a_face_printed_dark_without_a_spot_is_cut_as_before():
    for img in (_die(RED, INK_DARK, "cross"), _die(RED, INK_DARK, "ring")):
        patch = _patch(img)
        ink, body = ink_maps(patch[None], CFG)
        assert np.allclose(lamp_free_inks(patch[None], body, CFG), ink, atol=1e-5)
    # a light symbol is light above the body, as a spot is: taken out (the look is for dice printed dark only)
    patch = _patch(_die(PURPLE, INK_LIGHT, "disc"))
    ink, body = ink_maps(patch[None], CFG)
    assert ink[0, 0].max() > 0.5 and lamp_free_inks(patch[None], body, CFG)[0, 0].max() < 0.1
    # off: the plain ink maps
    assert np.allclose(lamp_free_inks(patch[None], body, replace(CFG, lamp_close=0)), ink, atol=1e-5)


def test_a_plain_die_is_not_read_again(profile):
    ncc, read = _reads(profile, _die(RED, INK_DARK, "cross"))
    assert int(np.argmax(ncc)) == 0                          # read right the first time
    assert read is None                                      # the look finds nothing better by recentre_gain


def test_a_clipped_glare_is_still_left_out(profile):
    img = _die(RED, INK_DARK, "cross", spot=1.5, spot_at=(6.0, 6.0), sigma=2.5)
    patch = _patch(img)
    assert int(patch.min(2).max()) == 255                   # clipped to white
    ink, body = ink_maps(patch[None], CFG)
    core = glare_masks(patch[None], ink[:, 0], CFG)[0]
    assert core.any() and not core[14:20, 14:20].all()       # the clipped core is masked, not the whole cross
    # taken off, the clipped core is the body's level: it would match nothing, and the mask keeps it out
    flat = lamp_free_inks(patch[None], body, CFG)
    assert np.abs(flat[0, 0][core]).max() < 0.1
    ncc, read = _reads(profile, img)
    assert read is None or (read.colour, read.face) == ("red", "settle")
