"""A washed-out colour does not make a cloth's check a Roll die (vision.roll_dice.colours.wash_sigmas,
vision.roll_dice.blank.blank_faces with colours printed alike), worked by hand.

The colour metric's numbers are those of tests/test_roll_dice_washed.py: every channel equally noisy (dark_sigma 0:
each channel's sigma is chroma_sigma 0.12), brightness_sigma 0.35, wash_sigma 0.25; prototypes white W = (5, 5, 5)
and yellow Y = W + (-1.2, 0.6, 0.6), so the step from yellow to white is v = (1.2, -0.6, -0.6), v'Mv = 150; a cream
body 0.7 of the way from yellow to white lies 13.5 from white and 73.5 from yellow plainly, and v'Me = 105.

The drawn faces: a red die (BGR 40, 40, 200) washed half way to white (BGR 235) is pink to its edges; a gingham of
red and white checks 20 px wide, blurred as a camera blurs it, has pinks between its checks that lie on the same
line from red to white, but a box of a die's size on it holds several colours round its rim.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision.roll_dice import RollDiceConfig
from vision.roll_dice.blank import blank_faces
from vision.roll_dice.colours import colour_posteriors, lit_distances, wash_sigmas, washed_distances
from vision.roll_dice.foreground import to_log
from vision.roll_dice.shape import face_evidences
from vision.roll_dice.tops import ink_maps, upright_patch

CFG = RollDiceConfig(chroma_sigma=0.12, dark_sigma=0.0, brightness_sigma=0.35, wash_sigma=0.25,
                     wash_rim_ramp=(0.4, 0.7))
W = np.array([5.0, 5.0, 5.0])
Y = W + np.array([-1.2, 0.6, 0.6])
PROTOS = np.stack([W, Y])
NEUTRAL = np.array([0.0, 0.0, 0.0, 1.0])
CREAM = W + 0.3 * (Y - W)


def test_wash_sigma_follows_the_rim_share():
    """Ramp (0.4, 0.7): rim 0.3 -> 0; 0.4 -> 0; 0.55 -> half of 0.25 = 0.125; 0.7 and 0.95 -> 0.25."""
    np.testing.assert_allclose(wash_sigmas(5, np.array([0.3, 0.4, 0.55, 0.7, 0.95]), CFG),
                               [0.0, 0.0, 0.125, 0.25, 0.25], atol=1e-12)
    np.testing.assert_allclose(wash_sigmas(2, None, CFG), [0.25, 0.25])
    np.testing.assert_allclose(wash_sigmas(2, np.array([0.1, 0.2]), replace(CFG, wash_rim_ramp=None)), [0.25, 0.25])
    with pytest.raises(ValueError, match="2 rim shares for 3 bodies"):
        wash_sigmas(3, np.array([0.5, 0.5]), CFG)


def test_a_body_that_may_not_wash_keeps_its_plain_distances():
    """sigma 0: t = 0, the plain 13.5 and 73.5; sigma 0.125: curvature 150 + 64 = 214, to yellow
    73.5 - 105^2 / 214 = 21.981 (farther than white's 13.5); sigma 0.25: 73.5 - 105^2 / 166 = 7.084."""
    body = np.repeat(CREAM[None], 3, 0)
    d = washed_distances(body, PROTOS, NEUTRAL, CFG, np.array([0.0, 0.125, 0.25]))
    np.testing.assert_allclose(d[:, 0], [13.5, 13.5, 13.5], rtol=1e-9)
    np.testing.assert_allclose(d[:, 1], [73.5, 73.5 - 105.0 ** 2 / 214.0, 73.5 - 105.0 ** 2 / 166.0], rtol=1e-9)
    np.testing.assert_allclose(d[0], lit_distances(CREAM[None], PROTOS, NEUTRAL, CFG)[0], rtol=1e-12)


def test_cream_is_yellow_only_when_it_fills_its_rim():
    """Rim 0.9: yellow at 7.084 against white 13.5, yellow; rim 0.55: 21.98 against 13.5, white; rim 0.3: the plain
    metric, white. The chance of any colour (the sum) is the plain one's in all three."""
    body = np.repeat(CREAM[None], 3, 0)
    p = colour_posteriors(body, PROTOS, NEUTRAL, CFG, np.array([0.9, 0.55, 0.3]))
    assert [int(a) for a in p.argmax(1)] == [1, 0, 0]
    plain = colour_posteriors(CREAM[None], PROTOS, NEUTRAL, replace(CFG, wash_sigma=None))
    np.testing.assert_allclose(p.sum(1), np.full(3, plain.sum()), rtol=1e-9)
    np.testing.assert_allclose(p[2], plain[0], rtol=1e-9)
    # exp(-21.98 / 2) against exp(-13.5 / 2): white 1 / (1 + exp(-4.24)) = 0.9858 of the two
    np.testing.assert_allclose(p[1, 0] / p[1].sum(), 1.0 / (1.0 + np.exp(-(73.5 - 105.0 ** 2 / 214.0 - 13.5) / 2)),
                               atol=1e-6)


RED = (40, 40, 200)
WHITE = (235, 235, 235)
PINK = tuple(int(round((r + w) / 2)) for r, w in zip(RED, WHITE, strict=True))   # (138, 138, 218): red washed half way


def _faces(frame: np.ndarray, centres: list[tuple[float, float]], side: float, cfg: RollDiceConfig):
    """(bodies log-RGB [N, 3], evidence [N, 3]) of square faces of ``side`` px at ``centres``, cut as the reader cuts
    them (:func:`vision.roll_dice.tops.extract_tops`)."""
    q = cfg.patch + 2 * cfg.patch_margin
    m = cfg.evidence_margin - cfg.patch_margin
    patches = np.stack([upright_patch(frame, cx, cy, side, 0.0, cfg.patch, cfg.evidence_margin)
                        for cx, cy in centres])
    _, bodies = ink_maps(patches[:, m:m + q, m:m + q], cfg)
    return bodies, face_evidences(patches, bodies, cfg)


def test_a_washed_die_fills_its_rim_and_a_gingham_box_does_not():
    """A 60 px pink die with a cream 16 px symbol, on grey, fills its rim with its body (share above 0.7: washed fully
    allowed); a 60 px box on a blurred red and white gingham (checks 20 px) has red, white and their pink blends round
    its rim, at most 0.4 of it one body (no wash). The blended pink of the checks is as far along red's line to white as
    the die's body."""
    cfg = RollDiceConfig()
    frame = np.full((200, 400, 3), 120, np.uint8)
    cv2.rectangle(frame, (40, 70), (99, 129), PINK, -1)
    cv2.rectangle(frame, (62, 92), (77, 107), (225, 240, 245), -1)
    yy, xx = np.mgrid[0:200, 200:400]
    check = ((yy // 20) + (xx // 20)) % 2 == 0
    cloth = np.where(check[..., None], np.array(RED, np.uint8), np.array(WHITE, np.uint8)).astype(np.uint8)
    frame[:, 200:] = cv2.GaussianBlur(cloth, (0, 0), 3.0)
    bodies, evidence = _faces(frame, [(70.0, 100.0), (300.0, 100.0), (310.0, 110.0)], 60.0, cfg)
    assert evidence[0, 0] > 0.7
    assert evidence[1, 0] <= 0.4 and evidence[2, 0] <= 0.4
    np.testing.assert_allclose(wash_sigmas(3, evidence[:, 0], cfg), [cfg.wash_sigma, 0.0, 0.0])
    protos = to_log(np.array([[WHITE, RED]], np.uint8), cfg)[0].astype(np.float64)
    # with no wash a box on the gingham is never red by washing: its red chance is the plain metric's
    p = colour_posteriors(bodies, protos, NEUTRAL, cfg, evidence[:, 0])
    plain = colour_posteriors(bodies, protos, NEUTRAL, replace(cfg, wash_sigma=None))
    np.testing.assert_allclose(p[1:], plain[1:], rtol=1e-9)
    # and the pink die, washed half way, is red
    assert int(p[0].argmax()) == 1


# blank faces among colours printed alike: strokes (log units) of sure dice, each weight 1, best NCC 0.9
LIGHT = {"red": 1.0, "blue": 1.0, "brown": 1.0, "white": -1.0, "yellow": -1.0}


def _blank(stroke, colours, cfg=None, prints=LIGHT, weight=0.47, best=0.69):
    n = len(stroke)
    w = np.ones(n)
    w[-1] = weight
    b = np.full(n, 0.9)
    b[-1] = best
    return blank_faces(np.asarray(stroke, float), colours, w, b, np.zeros(n, bool), cfg or RollDiceConfig(), prints)


def test_a_flat_face_of_a_lone_colour_is_held_to_the_dice_printed_alike():
    """One red die (0.40), a blue (0.46) and a brown (0.57), all light ink: the red face judged (weight 0.47, NCC 0.69)
    has one red beside it, fewer than blank_refs 2, so its bar is the median of the three light-ink dice, 0.46, and
    0.3 x 0.46 = 0.138: a face of stroke 0.10 is blank, one of 0.15 is not."""
    colours = ("red", "blue", "brown", "red")
    assert _blank([0.40, 0.46, 0.57, 0.10], colours)[3]
    assert not _blank([0.40, 0.46, 0.57, 0.15], colours)[3]
    # no prints known, or the alike bar switched off: the lone colour is not judged, as before
    assert not _blank([0.40, 0.46, 0.57, 0.10], colours, prints=None)[3]
    assert not _blank([0.40, 0.46, 0.57, 0.10], colours, replace(RollDiceConfig(), blank_alike_refs=None))[3]


def test_dice_printed_otherwise_are_no_bar():
    """Adding a white (0.75) and a yellow (0.65) die, dark ink: the light-ink median stays 0.46 (bar 0.138), so 0.15
    is not blank; counted with them the median would be 0.57 (bar 0.171) and 0.15 would be."""
    colours = ("red", "blue", "brown", "white", "yellow", "red")
    assert not _blank([0.40, 0.46, 0.57, 0.75, 0.65, 0.15], colours)[5]
    # only two light-ink dice beside it: fewer than blank_alike_refs 3, not judged
    assert not _blank([0.46, 0.57, 0.75, 0.65, 0.05], ("blue", "brown", "white", "yellow", "red"))[4]


def test_a_colour_with_its_own_dice_keeps_its_own_bar():
    """Two other red dice (0.20, 0.25): red's own bar, the largest 0.25, x 0.3 = 0.075; a 0.10 face is not blank though
    the light-ink median would call it so (the dice printed alike are asked only when a colour's own are too few)."""
    colours = ("red", "red", "blue", "brown", "red")
    assert not _blank([0.20, 0.25, 0.46, 0.57, 0.10], colours)[4]
    assert _blank([0.20, 0.25, 0.46, 0.57, 0.07], colours)[4]
