"""The lamp's reflection taken out by its colour (vision/roll_dice/lamp.py `spot_free_inks`, the last look of
vision/roll_dice/recentre.py): on a coloured die printed dark, a white spot over a wide stroke is taken off pixel by
pixel, the ink under its peak as dark as without it; a body near white is left as it is; only a die whose colour the
body makes sure is looked at, when it was read unreadable or its face was read from another print's template (a
light-printed one matching the spot), the latter replaced only where its own print then matches about as well.

Dice are drawn by hand with numpy in linear light (the camera's tone curve, gamma 2.2, applied after), as a glossy die
reflects a lamp: a red body (B, G, R) = (0.02, 0.03, 0.40), a dark ink (0.01, 0.01, 0.01), a white spot of peak 0.5.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from tests.test_roll_dice_lamp import first_match
from vision.profiles import DiceProfile
from vision.roll_dice import RollDiceConfig
from vision.roll_dice.faces import template_of
from vision.roll_dice.lamp import lamp_free_inks, spot_free_inks, spot_tells
from vision.roll_dice.observations import RollDieObservation
from vision.roll_dice.recentre import other_print_reads, recentre_reads
from vision.roll_dice.tops import ink_maps, upright_patch

CFG = RollDiceConfig()
SIDE = 28
CENTRE = (60.0, 60.0)
RED, GREY, INK, TABLE = (0.02, 0.03, 0.40), (0.30, 0.30, 0.31), (0.01, 0.01, 0.01), (0.05, 0.08, 0.05)
PAIRS = (("red", "settle"), ("red", "wild"), ("purple", "wild"))


def _die(body, symbol: str, spot: float = 0.0, spot_at=(0.0, 0.0), sigma: float = 3.0) -> np.ndarray:
    """``uint8[120, 120, 3]`` BGR: a table with one die's top face, ``SIDE`` px, its symbol in dark ink (a bar 10 px
    wide for settle, a ring for wild, a light disc for purple's wild); with ``spot`` a white Gaussian spot of that
    peak (linear light) and ``sigma`` px, ``spot_at`` px off the middle."""
    lin = np.zeros((120, 120, 3))
    lin[:] = TABLE
    x0, y0 = int(CENTRE[0] - SIDE / 2 + 0.5), int(CENTRE[1] - SIDE / 2 + 0.5)
    lin[y0:y0 + SIDE, x0:x0 + SIDE] = body
    c = (int(CENTRE[0]), int(CENTRE[1]))
    if symbol == "bar":
        cv2.rectangle(lin, (c[0] - 5, c[1] - 9), (c[0] + 4, c[1] + 8), INK, -1)
    elif symbol == "ring":
        cv2.circle(lin, c, 7, INK, 3)
    else:
        cv2.circle(lin, c, 6, (0.5, 0.5, 0.5), -1)
    if spot > 0:
        yy, xx = np.mgrid[0:120, 0:120]
        g = np.exp(-((xx - CENTRE[0] - spot_at[0]) ** 2 + (yy - CENTRE[1] - spot_at[1]) ** 2) / (2 * sigma ** 2))
        lin = lin + spot * g[:, :, None]
    return np.round(255.0 * np.clip(lin, 0.0, 1.0) ** (1 / 2.2)).astype(np.uint8)


def _patch(img: np.ndarray) -> np.ndarray:
    return upright_patch(img, CENTRE[0], CENTRE[1], float(SIDE), 0.0, CFG.patch, CFG.patch_margin)


def test_a_white_spot_over_a_wide_stroke_is_taken_off_to_the_ink_under_its_peak():
    plain = _patch(_die(RED, "bar"))
    _, body = ink_maps(plain[None], CFG)
    lit = _patch(_die(RED, "bar", spot=0.5))
    assert int(lit.min(2).max()) < CFG.glare_min               # not clipped: the glare mask leaves it in
    ink = spot_free_inks(plain[None], body, CFG)[0, 0]
    spotted, _ = ink_maps(lit[None], CFG, bodies=body)
    flat = spot_free_inks(lit[None], body, CFG)[0, 0]
    closed = lamp_free_inks(lit[None], body, CFG)[0, 0]
    peak = (slice(15, 19), slice(15, 19))                      # under the spot's peak, inside the 10 px bar
    # the spot lifts the ink there above the body (brightness > 0: it looks like light ink)
    assert spotted[0, 0][peak].min() > 0.0
    # a light level read beside the strokes (5 px closing) cannot reach into a 10 px stroke: still lifted
    assert closed[peak].mean() > -1.0
    # by colour: the white taken off pixel by pixel, the ink under the peak as dark as without the spot
    assert np.abs(flat[peak] - ink[peak]).max() < 0.3 and ink[peak].mean() < -2.0
    # and the body round the bar is the body again
    body_px = (slice(4, 8), slice(4, 30))
    assert np.abs(flat[body_px]).max() < 0.1


def test_a_face_without_a_spot_keeps_its_body_and_its_ink_dark():
    patch = _patch(_die(RED, "bar"))
    ink, body = ink_maps(patch[None], CFG)
    flat = spot_free_inks(patch[None], body, CFG)[0, 0]
    # the body's pixels are the body (brightness 0); the ink's own grey light is taken off too: only darker
    assert np.abs(flat[4:8, 4:30]).max() < 0.05
    bar = (slice(10, 24), slice(14, 20))
    assert (flat[bar] <= ink[0, 0][bar] + 1e-6).all() and ink[0, 0][bar].max() < -1.0


def test_a_body_near_white_is_left_as_it_is():
    patch = _patch(_die(GREY, "bar", spot=0.5))
    ink, body = ink_maps(patch[None], CFG)
    # grey (0.30, 0.30, 0.31): cosine with white 0.9999, above spot_neutral 0.97; red (0.02, 0.03, 0.40): 0.65
    assert not spot_tells(body, CFG)[0]
    assert spot_tells(ink_maps(_patch(_die(RED, "bar"))[None], CFG)[1], CFG)[0]
    # its light and the lamp's are the same colour: nothing tells them apart, the plain ink map
    assert np.allclose(spot_free_inks(patch[None], body, CFG), ink, atol=1e-5)


@pytest.fixture(scope="module")
def profile() -> DiceProfile:
    plain = [_die(RED, "bar"), _die(RED, "ring"), _die((0.20, 0.02, 0.15), "disc")]
    inks, bodies = ink_maps(np.stack([_patch(p) for p in plain]), CFG)
    tpl = np.stack([template_of(ink, CFG) for ink in inks])
    return DiceProfile(colours=("red", "purple"), faces=("settle", "wild"), allowed=PAIRS,
                       colour_means=np.stack([bodies[0], bodies[2]]), template_pairs=PAIRS, templates=tpl,
                       template_side=CFG.template)


def _spot_read(profile: DiceProfile, img: np.ndarray, colour_p, face: str | None = None,
               cfg: RollDiceConfig = CFG):
    """(the first match's NCC ``[3]``, the read :func:`recentre_reads` makes of the red die of ``img``, first read
    red with ``face`` at 0.3) with the lamp's closing look off (``lamp_close`` 0): what the look by colour does."""
    cfg = replace(cfg, lamp_close=0)
    rot, pol, ncc, tops = first_match(profile, img, cfg)
    kept = [(0, RollDieObservation("red", face, (46, 46, 28, 28), 0.3))]
    return ncc[0], recentre_reads(img, tops, np.array([colour_p], np.float64), ncc, kept, profile, rot, pol, cfg)[0]


def test_a_sure_red_die_read_unreadable_under_a_spot_reads_its_face(profile):
    img = _die(RED, "bar", spot=0.5, spot_at=(1.0, -2.0))
    ncc, read = _spot_read(profile, img, [0.98, 0.02])
    assert ncc[0] < CFG.lamp_below                              # spoiled by the spot
    assert (read.colour, read.face) == ("red", "settle") and read.confidence <= CFG.recentre_cap
    assert read.box == (46, 46, 28, 28)                        # the box as it was
    # the look off: unreadable as before
    _, off = _spot_read(profile, img, [0.98, 0.02], cfg=replace(CFG, spot_colour_sure=1.5))
    assert off.face is None


def test_a_doubtful_colour_or_a_face_read_from_its_own_print_is_left_to_the_other_looks(profile):
    img = _die(RED, "bar", spot=0.5, spot_at=(1.0, -2.0))
    # the body between red and purple (0.8 of its chance red, under spot_colour_sure 0.9): not looked at
    _, doubtful = _spot_read(profile, img, [0.8, 0.2])
    assert doubtful.face is None
    # a weaker spot off the bar: the die's own dark print still matches best (red settle 0.77 against purple's light
    # disc 0.66), so a face read there, however weakly, is never replaced by the look by colour
    weaker = _die(RED, "bar", spot=0.2, spot_at=(4.0, 4.0))
    ncc, _ = _spot_read(profile, weaker, [0.98, 0.02])
    assert int(np.argmax(ncc)) == 0 and ncc[0] < CFG.lamp_below
    for face in ("wild", "settle"):
        _, on = _spot_read(profile, weaker, [0.98, 0.02], face)
        _, off = _spot_read(profile, weaker, [0.98, 0.02], face, replace(CFG, spot_colour_sure=1.5))
        assert on == off


def test_a_face_read_from_another_prints_symbol_is_read_again_by_colour(profile):
    # the spot over the bar matches purple's light-printed disc best (about 0.82) and the red die's own templates
    # poorly: a red die (printed dark) read wild from it is the spot's read; taken off by colour, the bar comes back
    img = _die(RED, "bar", spot=0.5, spot_at=(1.0, -2.0))
    ncc, read = _spot_read(profile, img, [0.98, 0.02], "wild")
    assert int(np.argmax(ncc)) == 2 and ncc[0] < CFG.lamp_below
    assert (read.colour, read.face) == ("red", "settle") and read.confidence <= CFG.recentre_cap
    assert read.box == (46, 46, 28, 28)
    # the setting off: the face read stands
    _, off = _spot_read(profile, img, [0.98, 0.02], "wild", replace(CFG, spot_other_print=False))
    assert off.face == "wild"


def test_a_face_read_from_another_print_stays_where_its_own_print_matches_worse_than_the_spot_did(profile):
    # a second dark stroke (4 px wide) across the face beside the bar: the spot still matches purple's light disc at
    # about 0.82, but the red die's own print, the spot taken off, matches settle at about 0.73 only; that beats the
    # first match's dark templates (about 0.39) by more than recentre_gain, but does not come within recentre_gain of
    # the 0.82 the wild was read from: no better evidence than the spot's, so the face read stands
    img = _die(RED, "bar", spot=0.5, spot_at=(1.0, -2.0))
    img[48:72, 49:53] = (3, 3, 3)
    ncc, read = _spot_read(profile, img, [0.98, 0.02], "wild")
    assert int(np.argmax(ncc)) == 2 and ncc[2] > 0.8 and ncc[:2].max() < 0.45
    assert read.face == "wild"


def test_other_print_reads_are_faces_of_a_dark_printed_colour_whose_best_template_is_printed_light(profile):
    # templates red settle, red wild (printed dark) and purple wild (printed light), as the profile's
    pol = np.array([-1.0, -1.0, 1.0])
    ncc = np.array([[0.5, 0.3, 0.8],    # red read wild, purple's light disc best: the spot's read
                    [0.7, 0.3, 0.6],    # red read settle from its own print
                    [0.2, 0.3, 0.9],    # a purple die: printed light itself
                    [0.4, 0.3, 0.8],    # red, unreadable: no face to have been read from anything
                    [0.1, 0.2, 0.7]])   # red read wild, the light disc best
    kept = [(0, RollDieObservation("red", "wild", (0, 0, 28, 28), 0.5)),
            (1, RollDieObservation("red", "settle", (40, 0, 28, 28), 0.4)),
            (2, RollDieObservation("purple", "wild", (80, 0, 28, 28), 0.9)),
            (3, RollDieObservation("red", None, (0, 40, 28, 28), 0.0)),
            (4, RollDieObservation("red", "wild", (40, 40, 28, 28), 0.95))]
    assert other_print_reads(kept, ncc, profile, pol, CFG) == [0, 4]
    assert other_print_reads(kept, ncc, profile, None, CFG) == []
    assert other_print_reads(kept, ncc, profile, pol, replace(CFG, spot_other_print=False)) == []


def test_a_plain_die_read_unreadable_is_not_read_again_by_colour(profile):
    # no spot: the first match already finds the bar; the look by colour finds nothing better by recentre_gain
    ncc, read = _spot_read(profile, _die(RED, "bar"), [0.98, 0.02])
    assert int(np.argmax(ncc)) == 0 and ncc[0] > 0.9
    assert read.face is None
