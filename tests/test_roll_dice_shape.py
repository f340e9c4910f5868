"""The Roll dice reader's body colour, shape evidence, size model and light calibration
(vision/roll_dice/tops.py, shape.py, colours.py) on hand-made patches."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.roll_dice import RollDiceConfig
from vision.roll_dice.colours import TINT_AXIS, WARM_AXIS, calibrate_colours, colour_posteriors, estimate_light
from vision.roll_dice.foreground import to_log
from vision.roll_dice.shape import (
    die_likeness,
    edge_angle,
    expected_sides,
    face_evidence,
    pattern_axes,
    pattern_repeats,
    snap_top,
    surface_returns,
    top_fit,
)
from vision.roll_dice.tops import body_colour, rim_weights, upright_patch

CFG = RollDiceConfig()
RED, CREAM, FELT = (40, 35, 190), (215, 225, 230), (40, 90, 30)


def die_face(size: int, body, ink, ink_share_of_side: float) -> np.ndarray:
    """A square face of ``body`` colour with a filled ``ink`` square symbol in its middle."""
    img = np.full((size, size, 3), body, np.uint8)
    h = int(size * ink_share_of_side / 2)
    c = size // 2
    cv2.rectangle(img, (c - h, c - h), (c + h, c + h), ink, -1)
    return img


def test_body_is_the_rim_colour_whatever_the_print():
    """A red die whose light symbol covers more of the face than the body: the plain mode takes the
    ink, the rim-weighted mode the body; a white die with a dark symbol keeps its white."""
    for body, ink in ((RED, CREAM), (CREAM, (30, 30, 30))):
        face = die_face(34, body, ink, 0.7)  # symbol: half the face, flat
        logp = to_log(face, CFG)
        got = body_colour(logp, weights=rim_weights(34, 34.0))
        assert np.abs(got - to_log(np.array([[body]], np.uint8), CFG)[0, 0]).max() < 0.05
    plain = body_colour(to_log(die_face(34, RED, CREAM, 0.8), CFG))  # symbol: 64% of the face
    assert np.abs(plain - to_log(np.array([[CREAM]], np.uint8), CFG)[0, 0]).max() < 0.05


def table_with(face: np.ndarray, at=(100, 100), size=(200, 200)) -> np.ndarray:
    img = np.full((*size, 3), FELT, np.uint8)
    s = face.shape[0]
    img[at[1] - s // 2:at[1] - s // 2 + s, at[0] - s // 2:at[0] - s // 2 + s] = face
    return img


def evidence_at(img, cx, cy, side, body):
    patch = upright_patch(img, cx, cy, side, 0.0, CFG.patch, CFG.evidence_margin)
    return face_evidence(patch, to_log(np.array([[body]], np.uint8), CFG)[0, 0], CFG)


def test_a_die_face_looks_like_a_die_and_a_blank_check_does_not():
    die = table_with(die_face(40, CREAM, (30, 30, 30), 0.4))
    blank = table_with(np.full((40, 40, 3), CREAM, np.uint8))
    busy = table_with(die_face(40, CREAM, (30, 30, 30), 0.95))
    e_die, e_blank, e_busy = (evidence_at(im, 100, 100, 40, CREAM) for im in (die, blank, busy))
    assert e_die[0] > 0.9 and e_die[1] > 0.9 and 0.1 < e_die[2] < 0.9  # rim one colour, outline, a symbol
    assert e_blank[2] < 0.02  # nothing printed in the middle
    like = die_likeness(np.stack([e_die, e_blank, e_busy]), CFG)
    assert like[0] > 0.9 and like[1] == 0.0 and like[2] < 0.3


def test_snap_top_moves_a_misplaced_square_onto_the_die():
    img = np.full((200, 200, 3), FELT, np.uint8)
    box = cv2.boxPoints(((100, 100), (40, 40), 20.0))
    cv2.fillPoly(img, [np.round(box).astype(np.int32)], CREAM)
    img = cv2.GaussianBlur(img, (0, 0), 1.0)
    body = to_log(np.array([[CREAM]], np.uint8), CFG)[0, 0]
    rect, fit = snap_top(img, np.array([108.0, 93.0, 40.0, 40.0, 14.0]), body, 40.0, CFG)
    assert np.hypot(rect[0] - 100, rect[1] - 100) < 2.5 and abs((rect[4] - 20.0 + 45) % 90 - 45) < 4
    assert fit > 1.8


@pytest.mark.parametrize("angle", [-35.0, -12.0, 0.0, 20.0, 41.0])
def test_edge_angle_is_the_die_s_angle_whatever_the_box_s(angle):
    """A cream die on a green and blue checked cloth: the edges' angle is the die's (modulo 90 degrees), from a
    box at another angle and off its centre; the cloth's checks, all far from the die's colour, do not pull it."""
    img = np.full((200, 200, 3), FELT, np.uint8)
    img[(np.arange(200)[:, None] // 25 + np.arange(200)[None, :] // 25) % 2 == 1] = (170, 110, 50)
    box = cv2.boxPoints(((100, 100), (44, 44), angle))
    cv2.fillPoly(img, [np.round(box).astype(np.int32)], CREAM)
    cv2.circle(img, (100, 100), 7, (30, 30, 30), -1)                                     # its symbol
    img = cv2.GaussianBlur(img, (0, 0), 1.0)
    body = to_log(np.array([[CREAM]], np.uint8), CFG)[0, 0]
    for given in (angle + 30.0, angle - 40.0, 0.0):
        got, strength = edge_angle(img, np.array([106.0, 95.0, 44.0, 44.0, given]), body, CFG)
        assert abs((got - angle + 45.0) % 90.0 - 45.0) < 3.0 and -45.0 <= got < 45.0
        assert strength > 0.5
    flat = np.full((200, 200, 3), CREAM, np.uint8)
    assert edge_angle(flat, np.array([100.0, 100.0, 44.0, 44.0, 10.0]), body, CFG)[1] == 0.0


def _plain_snap_once(frame, rect, body, side, moves, cfg):
    """One pass of the snap written out plainly: each move's rim and band points placed in patch px from the
    face's own side (``float[M, 4 points]`` each), every pixel's distance by its own log."""
    cx, cy, _, _, ang = (float(v) for v in rect)
    k, span = cfg.snap_patch, cfg.snap_context * side
    patch = upright_patch(frame, cx, cy, span, ang, k, 0)
    d = np.sqrt(((to_log(patch, cfg) - np.asarray(body, np.float32)) ** 2).sum(2)).astype(np.float32)
    f = k / span
    n = cfg.snap_points
    t = (np.arange(n) + 0.5) / n * 2.0 - 1.0
    one = np.ones(n)
    unit = np.concatenate([np.stack([t, -one], 1), np.stack([one, t], 1), np.stack([-t, one], 1),
                           np.stack([-one, -t], 1)])
    half = 0.5 * side * moves[:, 3]
    a = np.deg2rad(moves[:, 2])
    ca, sa = np.cos(a)[:, None], np.sin(a)[:, None]
    rings = []
    for r in (cfg.snap_rim, cfg.snap_band):
        u, v = unit[None, :, 0] * (half[:, None] * r), unit[None, :, 1] * (half[:, None] * r)
        x = (u * ca - v * sa + moves[:, 0:1] * side) * f + (k - 1) / 2.0
        y = (u * sa + v * ca + moves[:, 1:2] * side) * f + (k - 1) / 2.0
        rings.append(cv2.remap(d, x.astype(np.float32), y.astype(np.float32), cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE))
    d_rim, d_out = rings
    rim = (d_rim < cfg.evidence_body).mean(1)
    out = (d_out > cfg.evidence_outline).mean(1)
    contrast = np.minimum(d_out, 1.0).mean(1) - np.minimum(d_rim, 1.0).mean(1)
    fit = rim + out + 0.5 * contrast - 0.05 * np.hypot(moves[:, 0], moves[:, 1]) - 0.2 * np.abs(np.log(moves[:, 3]))
    j = int(fit.argmax())
    dx, dy, da, sc = moves[j]
    t = np.deg2rad(ang)
    nx = cx + dx * side * np.cos(t) - dy * side * np.sin(t)
    ny = cy + dx * side * np.sin(t) + dy * side * np.cos(t)
    return np.array([nx, ny, side * sc, side * sc, ang + da]), float(rim[j] + out[j])


def _plain_snap_top(frame, rect, body, side, cfg):
    """The snap as documented, every move tried: the coarse grid of shifts x turns x scales, then a third of the
    inner shifts, half the turns and the root of the scales round the best."""
    grid = lambda sh, tu, sc: np.array([(dx, dy, da, s) for dx in sh for dy in sh for da in tu for s in sc])  # noqa: E731
    r, _ = _plain_snap_once(frame, rect, body, side, grid(cfg.snap_shifts, cfg.snap_turns, cfg.snap_scales), cfg)
    fine = grid([v / 3.0 for v in cfg.snap_shifts[1:-1]], [v / 2.0 for v in cfg.snap_turns],
                [np.sqrt(v) for v in cfg.snap_scales])
    return _plain_snap_once(frame, r, body, float(r[2]), fine, cfg)


def test_snap_top_finds_the_fit_every_move_scored_plainly_finds():
    """On seeded dice (a body colour, a dark symbol, a side of 18-70 px, any turn, on a noisy table, some cut by
    the frame's edge) and read boxes slid, turned and scaled off them, :func:`snap_top` (every move's outline
    placed once per set of moves, the distances by a table of levels) gives the square and the fit the plain
    snap gives, and :func:`top_fit` the fit of the box as it is."""
    rng = np.random.default_rng(16)
    moved = 0
    for _ in range(24):
        table = rng.integers(20, 200, 3)
        img = np.clip(table + rng.normal(0, 12, (240, 320, 3)), 0, 255).astype(np.uint8)
        side = float(rng.uniform(18, 70))
        centre = (float(rng.uniform(-0.2, 1.2) * 320), float(rng.uniform(0.1, 0.9) * 240))
        turn = float(rng.uniform(0, 90))
        body_bgr = tuple(int(v) for v in rng.integers(60, 256, 3))
        cv2.fillPoly(img, [np.round(cv2.boxPoints((centre, (side, side), turn))).astype(np.int32)], body_bgr)
        cv2.circle(img, (int(centre[0]), int(centre[1])), int(side / 5), (20, 20, 20), -1)
        img = cv2.GaussianBlur(img, (0, 0), 0.8)
        body = to_log(np.array([[body_bgr]], np.uint8), CFG)[0, 0]
        box = np.array([centre[0] + rng.uniform(-0.3, 0.3) * side, centre[1] + rng.uniform(-0.3, 0.3) * side,
                        side, side, turn + rng.uniform(-10, 10)]) * [1, 1, *(2 * [rng.uniform(0.85, 1.2)]), 1]
        for size in (side, float(box[2])):
            want, want_fit = _plain_snap_top(img, box, body, size, CFG)
            got, fit = snap_top(img, box, body, size, CFG)
            assert np.allclose(got, want, rtol=0, atol=1e-9) and fit == want_fit
            moved += not np.allclose(got[:2], box[:2])
        still = np.array([[0.0, 0.0, 0.0, 1.0]])
        assert top_fit(img, box, body, CFG) == pytest.approx(
            _plain_snap_once(img, box, body, float(np.sqrt(box[2] * box[3])), still, CFG)[1], abs=1e-6)
    assert moved >= 24  # the boxes were off their dice: most snaps moved them


def test_expected_sides_follow_the_perspective_and_ignore_outliers():
    """Sides grow linearly down the picture (a tilted camera); three odd faces (a tile, a check)
    with no weight or far off do not bend the fit."""
    rng = np.random.default_rng(0)
    centres = rng.uniform(0, 1000, (20, 2))
    true = 40 + 0.02 * centres[:, 1]
    sides = true + rng.normal(0, 0.5, 20)
    sides[:3] = [90.0, 20.0, 85.0]
    weights = np.ones(20)
    weights[1] = 0.0
    got = expected_sides(centres, sides, weights, CFG)
    assert np.abs(got[3:] - true[3:]).max() < 2.0
    few = expected_sides(centres[3:5], sides[3:5], np.ones(2), CFG)  # too few to fit: one size everywhere
    assert few[0] == few[1] and few[0] in sides[3:5]


def test_light_calibration_follows_a_warm_lamp_and_ignores_what_is_not_a_die():
    """Seven prototypes seen under a warm lamp (offset along the warm-cool axis): every die gets its
    colour back; ten printed squares of one wrong colour with no weight do not pull the light."""
    protos = np.array([[5.3, 5.3, 5.3], [4.0, 4.0, 5.3], [5.0, 4.0, 4.8], [5.3, 4.8, 4.0],
                       [3.8, 4.1, 4.6], [4.2, 4.9, 4.0], [3.9, 5.1, 5.3]])
    warm = -0.5 * WARM_AXIS + np.array([0.1, 0.1, 0.1])
    body = np.vstack([protos + warm, np.tile([4.6, 4.6, 4.6], (10, 1))])
    weights = np.concatenate([np.ones(len(protos)), np.zeros(10)])
    off, p = calibrate_colours(body, protos, CFG, weights)
    assert p[:7].argmax(1).tolist() == list(range(7))
    assert np.abs(off - warm).max() < 0.08


def test_a_known_light_reads_the_colours_a_calibration_would_and_faces_of_no_weight_do_not_count():
    """The light found on a table's dice, given to the colour posteriors of a few of them (a window read after a
    change), reads those dice as the calibration on the whole table did; faces of weight 0 change no light."""
    protos = np.array([[5.3, 5.3, 5.3], [4.0, 4.0, 5.3], [5.0, 4.0, 4.8], [5.3, 4.8, 4.0],
                       [3.8, 4.1, 4.6], [4.2, 4.9, 4.0], [3.9, 5.1, 5.3]])
    warm = 0.4 * WARM_AXIS - np.array([0.2, 0.2, 0.2])
    dice = np.vstack([protos, protos[[1, 3, 5]]]) + warm
    junk = np.tile([4.6, 3.9, 5.2], (6, 1))
    light = estimate_light(dice, protos, CFG)
    assert light.shape == (4,)
    off, p = calibrate_colours(dice, protos, CFG)
    assert np.allclose(off, light[:3])
    few = colour_posteriors(dice[[2, 8]], protos, light, CFG)
    assert np.allclose(few, p[[2, 8]])
    assert few.argmax(1).tolist() == [2, 3]
    weights = np.concatenate([np.ones(len(dice)), np.zeros(len(junk))])
    assert np.allclose(estimate_light(np.vstack([dice, junk]), protos, CFG, weights), light)


#: Seven hand-made prototypes (log-RGB, BGR): white, red, purple, blue, brown, green, yellow.
PROTOS = np.array([[5.3, 5.3, 5.3], [4.0, 4.0, 5.3], [5.0, 4.0, 4.8], [5.3, 4.8, 4.0],
                   [3.8, 4.1, 4.6], [4.2, 4.9, 4.0], [3.9, 5.1, 5.3]])
NO_LIGHT = np.array([0.0, 0.0, 0.0, 1.0])


def test_a_channel_crushed_to_black_does_not_turn_red_into_yellow():
    """A red die whose blue channel a warm lamp and the tone curve's toe crush to black (log(0 + 16) = 2.77): in the
    plain chroma metric it is nearer yellow (blue and green both below red's, hand-worked 56 against 67), but a
    channel at black says little, so it reads red; a yellow die with the same crushed blue still reads yellow, and a
    white die is not taken for yellow because its blue is bright."""
    crushed = np.log(16.0)
    dice = np.array([[crushed, 4.0, 5.3], [crushed, 5.1, 5.3], [5.3, 5.3, 5.3]])
    p = colour_posteriors(dice, PROTOS, NO_LIGHT, CFG)
    assert p.argmax(1).tolist() == [1, 6, 0]
    assert p[0, 1] > 0.9 and p[1, 6] > 0.9


def test_many_alike_faces_of_one_colour_do_not_outvote_the_dice():
    """Seven dice, one of each colour, under a mild warm lamp, and twenty faces of a table's pattern, all alike and
    as sure as the dice, that would be red dice under a very different light (a cool, green-tinted one): the dice of
    one colour count as at most about ``light_colour_dice`` dice in the light's fit, so the seven colours decide the
    light (the pattern pulls it a little) and each die keeps its colour."""
    light = 0.3 * WARM_AXIS
    other = -0.6 * WARM_AXIS - 0.25 * TINT_AXIS
    body = np.vstack([PROTOS + light, np.tile(PROTOS[1] + other, (20, 1))])
    off, p = calibrate_colours(body, PROTOS, CFG, np.ones(len(body)))
    assert np.linalg.norm(off - light) < 0.5 * np.linalg.norm(off - other)  # nearer the dice's light by far
    assert p[:7].argmax(1).tolist() == list(range(7))


def test_dice_of_one_colour_alone_read_as_that_colour_under_a_warm_lamp():
    """Ten white dice and nothing else under a warm lamp the camera half corrects: one cluster could be any colour
    under some light, and the prior on the light (a camera's white balance) keeps it white."""
    body = np.tile(PROTOS[0] + 0.35 * WARM_AXIS, (10, 1))
    _, p = calibrate_colours(body, PROTOS, CFG)
    assert (p.argmax(1) == 0).all()


def test_a_white_reference_is_not_compared_with_a_dice_set_that_has_no_white_die():
    """Eclipse's combat dice are yellow, orange and red: the prototype of least chroma is a yellow die, not a white
    one, so the calibration sheet's paper compared with it would say the light is a strong blue cast (paper less
    yellow) and turn every yellow die orange. With no white die the reference is not used: the light and every
    colour are those the dice give alone. Roll's set (a white die among them) still follows the reference."""
    combat = PROTOS[[6, 1]].copy()                 # yellow, red
    orange = np.array([[3.9, 4.6, 5.3]])           # between them: green halfway
    combat = np.vstack([combat[:1], orange, combat[1:]])
    light = 0.2 * WARM_AXIS
    body = np.repeat(combat + light, 3, axis=0)
    paper = np.array([5.5, 5.5, 5.5]) + light      # neutral paper under the same lamp
    alone = estimate_light(body, combat, CFG)
    with_paper = estimate_light(body, combat, CFG, white=paper)
    assert np.allclose(alone, with_paper)
    p = colour_posteriors(body, combat, with_paper, CFG)
    assert p.argmax(1).tolist() == [0, 0, 0, 1, 1, 1, 2, 2, 2]
    with pytest.raises(ValueError):
        estimate_light(body, combat, CFG, white=np.array([1.0, 2.0]))
    # a set with a white die follows the reference: paper showing a cool light moves the light's estimate
    roll = np.repeat(PROTOS + light, 2, axis=0)
    assert not np.allclose(estimate_light(roll, PROTOS, CFG), estimate_light(roll, PROTOS, CFG,
                                                                           white=paper - 0.3 * WARM_AXIS))


def test_a_check_of_a_gingham_repeats_and_a_die_on_it_does_not():
    """A gingham of 18 px checks (period 36 px) with one 36 px die on it: a 2x2 block of checks is one tile
    of the cloth's pattern (it recurs a period away, NCC near 1), the die with its shadow recurs nowhere."""
    h, w, p = 360, 480, 18
    yy, xx = np.mgrid[0:h, 0:w]
    a, b = (xx // p) % 2, (yy // p) % 2
    table = np.where((a + b)[..., None] == 0, np.array(CREAM),
                     np.where((a * b)[..., None] == 1, np.array((40, 120, 30)),
                              np.array((140, 190, 140)))).astype(np.uint8)
    rng = np.random.default_rng(3)
    table = np.clip(table.astype(np.int16) + rng.integers(-6, 7, table.shape), 0, 255).astype(np.uint8)
    die_c = (300, 180)
    cv2.rectangle(table, (die_c[0] - 16, die_c[1] - 14), (die_c[0] + 22, die_c[1] + 24), (25, 30, 25), -1)  # shadow
    table[die_c[1] - 18:die_c[1] + 18, die_c[0] - 18:die_c[0] + 18] = die_face(36, RED, CREAM, 0.5)
    rects = np.array([[144.0 + 0.5, 144.0 + 0.5, 36, 36, 0.0], [die_c[0], die_c[1], 36, 36, 0.0]])
    rep = pattern_repeats(table, rects, CFG)
    assert rep[0] > CFG.repeat_ramp[1]
    assert rep[1] < CFG.repeat_ramp[0]
    assert pattern_repeats(table, rects, CFG, np.array([False, False])).tolist() == [-1.0, -1.0]


def test_a_die_beside_its_twin_is_not_a_pattern_but_a_check_at_the_edge_is():
    """Two dice alike side by side on plain felt: each has its like on one side only, so neither is a tile
    of a pattern; a check of a gingham cut by the frame's edge is still measured (was left unmeasured)."""
    table = np.full((240, 320, 3), FELT, np.uint8)
    for x in (120, 180):
        table[102:138, x - 18:x + 18] = die_face(36, RED, CREAM, 0.5)
    rects = np.array([[120.0, 120.0, 36, 36, 0.0], [180.0, 120.0, 36, 36, 0.0]])
    assert (pattern_repeats(table, rects, CFG) < CFG.repeat_ramp[0]).all()
    h, w, p = 360, 480, 18
    yy, xx = np.mgrid[0:h, 0:w]
    a, b = (xx // p) % 2, (yy // p) % 2
    cloth = np.where((a + b)[..., None] == 0, np.array(CREAM),
                     np.where((a * b)[..., None] == 1, np.array((40, 120, 30)),
                              np.array((140, 190, 140)))).astype(np.uint8)
    edge = np.array([[9.0 + 0.5 * p, 198.5, 36, 36, 0.0]])  # its window crosses the left edge
    assert pattern_repeats(cloth, edge, CFG)[0] > CFG.repeat_ramp[1]


def test_top_faces_that_overlap_are_one_die():
    """Two dice's top faces never overlap: the share of the smaller one the other covers."""
    from vision.roll_dice.assemble import top_overlap

    a = np.array([100.0, 100.0, 40, 40, 0.0])
    assert top_overlap(a, a) == pytest.approx(1.0, abs=0.02)
    assert top_overlap(a, np.array([120.0, 100.0, 40, 40, 0.0])) == pytest.approx(0.5, abs=0.02)
    assert top_overlap(a, np.array([142.0, 100.0, 40, 40, 0.0])) == 0.0
    assert top_overlap(a, np.array([100.0, 100.0, 40, 40, 45.0])) > 0.8


def test_a_channel_crushed_to_black_does_not_drag_the_light():
    """Five red and two yellow dice whose blue a hard tone curve crushes to black (log(0 + 16)), two green dice and
    three white ones, under a neutral light: the crushed blues say little, in the light's refinement as in the
    distances, so the light stays about neutral (hand-worked: 0 on both chroma axes) and every die reads its own
    colour (when every channel counted alike in the refinement, the reds pulled the light warm and the greens and
    whites read blue)."""
    crushed = np.log(16.0)
    red, yellow = [crushed, 4.0, 5.3], [crushed, 5.1, 5.3]
    body = np.array([red] * 5 + [yellow] * 2 + [list(PROTOS[5] + 0.2)] * 2 + [list(PROTOS[0])] * 3)
    off, p = calibrate_colours(body, PROTOS, CFG)
    assert p.argmax(1).tolist() == [1] * 5 + [6] * 2 + [5] * 2 + [0] * 3
    assert abs(off @ WARM_AXIS) < 0.1 and abs(off @ TINT_AXIS) < 0.1


def test_a_white_reference_decides_the_light_the_dice_cannot():
    """Two blue and two green dice under a warm lamp the camera did not correct (1.0 along the warm axis, 0.3
    towards green): they fit white and yellow dice under a neutral light as well as blue and green under the
    lamp, so the dice alone cannot tell. The table's white reference (a sheet as white as the white prototype,
    seen under the same lamp) can: every die reads blue or green, and the light is the lamp's within
    ``white_sigma``."""
    cast = -1.0 * WARM_AXIS + 0.3 * TINT_AXIS
    body = PROTOS[[3, 3, 5, 5]] + cast
    off, p = calibrate_colours(body, PROTOS, CFG, None, PROTOS[0] + cast)
    assert p.argmax(1).tolist() == [3, 3, 5, 5]
    assert abs(off @ WARM_AXIS + 1.0) < CFG.white_sigma and abs(off @ TINT_AXIS - 0.3) < CFG.white_sigma


def test_the_light_follows_the_white_reference_within_its_spread():
    """A white reference seen 0.5 log units warm (a lamp the camera did not correct): the light's colour is that
    of the reference within ``white_sigma`` (hand-worked: 0.5 along the warm axis, nothing across), every die
    of seven colours under it reads its colour, and a frame with no dice takes the reference's colour as its light."""
    cast = 0.5 * WARM_AXIS
    off, p = calibrate_colours(PROTOS + cast, PROTOS, CFG, None, PROTOS[0] + cast)
    assert p.argmax(1).tolist() == list(range(7))
    assert abs(off @ WARM_AXIS - 0.5) < CFG.white_sigma and abs(off @ TINT_AXIS) < CFG.white_sigma
    empty = estimate_light(np.zeros((0, 3)), PROTOS, CFG, None, PROTOS[0] + cast)
    assert np.allclose(empty[:3] @ WARM_AXIS, 0.5) and empty[3] == 1.0
    with pytest.raises(ValueError, match="white reference"):
        estimate_light(PROTOS, PROTOS, CFG, None, np.array([1.0, 2.0]))


def test_a_red_die_whose_light_symbol_reaches_the_edge_keeps_its_red_body():
    """A red face whose cream symbol is a cross from edge to edge (its arms a third of the side wide: the symbol
    covers 5/9 of the face, more than the body): the body colour is the red corners'
    and rim's, not the cream's."""
    size = 36
    face = np.full((size, size, 3), RED, np.uint8)
    t = size // 3
    face[t:2 * t, :] = CREAM
    face[:, t:2 * t] = CREAM
    got = body_colour(to_log(face, CFG), weights=rim_weights(size, float(size)))
    assert np.abs(got - to_log(np.array([[RED]], np.uint8), CFG)[0, 0]).max() < 0.05


def _gingham(h: int, w: int, p: int) -> np.ndarray:
    """A gingham of ``p`` px checks (period ``2p``): cream, half green where one band crosses, green where both do."""
    yy, xx = np.mgrid[0:h, 0:w]
    a, b = (xx // p) % 2, (yy // p) % 2
    return np.where((a + b)[..., None] == 0, np.array(CREAM),
                    np.where((a * b)[..., None] == 1, np.array((40, 120, 30)),
                             np.array((140, 190, 140)))).astype(np.uint8)


def test_a_check_recurs_along_two_axes_and_the_middle_of_a_row_of_dice_along_one():
    """The middle die of a row of three alike dice on felt has its like a die's pitch away on both sides, as a
    check of a gingham has (one-axis measure high for both); but a check recurs along a second axis too (the
    cloth is a lattice: a period down as well as across) and the row does not."""
    cloth = _gingham(360, 480, 18)
    check = np.array([[144.0 + 0.5, 144.0 + 0.5, 36, 36, 0.0]])  # a 2x2 block of checks
    row = np.full((240, 400, 3), FELT, np.uint8)
    for x in (140, 200, 260):  # three dice alike, a 60 px pitch
        row[102:138, x - 18:x + 18] = die_face(36, RED, CREAM, 0.5)
    for colour in (False, True):
        on_cloth = pattern_axes(cloth, check, CFG, colour=colour)[0]
        assert on_cloth[0] > 0.9 and on_cloth[1] > 0.9  # a period across and a period down, both ways
        middle = pattern_axes(row, np.array([[200.0, 120.0, 36, 36, 0.0]]), CFG, colour=colour)[0]
        assert middle[0] > CFG.repeat_ramp[1]      # along the row: its like on both sides, as a check
        assert middle[1] < CFG.repeat_axes_ramp[0]  # across the row: felt, nothing alike


def test_a_die_on_a_printed_line_recurs_along_the_line_only():
    """A die on a player board's printed line: its window (the die and the line through it) is matched along the
    line by the line alone, never across; a square of a printed grid recurs both ways."""
    board = np.full((300, 400, 3), (200, 205, 210), np.uint8)
    for y in range(30, 300, 60):
        board[y - 2:y + 2] = (40, 40, 40)
    for x in range(30, 400, 60):
        board[:, x - 2:x + 2] = (40, 40, 40)
    lined = np.full((300, 400, 3), (200, 205, 210), np.uint8)
    lined[148:152] = (40, 40, 40)
    lined[132:168, 182:218] = die_face(36, RED, CREAM, 0.5)
    for colour in (False, True):
        square = pattern_axes(board, np.array([[180.0, 180.0, 36, 36, 0.0]]), CFG, colour=colour)[0]
        assert square[1] > CFG.repeat_axes_ramp[1]
        on_line = pattern_axes(lined, np.array([[200.0, 150.0, 36, 36, 0.0]]), CFG, colour=colour)[0]
        assert on_line[1] < CFG.repeat_axes_ramp[0]


def test_a_face_whose_middle_is_one_colour_is_not_a_die():
    """A printed face varies in its middle (stroke against body); a check of a cloth of a die's size does not,
    whatever its colour against the body measured round it, and its die weight is nothing however well its
    surroundings match a template."""
    from vision.roll_dice.assemble import die_weights
    from vision.roll_dice.observations import TopFaces
    from vision.roll_dice.shape import middle_spread
    from vision.roll_dice.tops import ink_maps

    q = CFG.patch + 2 * CFG.patch_margin
    printed = die_face(q, CREAM, (30, 30, 30), 0.4)
    blank = np.full((q, q, 3), CREAM, np.uint8)
    far = np.full((q, q, 3), (200, 60, 30), np.uint8)  # one colour, far from the body given below
    patches = np.stack([printed, blank, far])
    cream = to_log(np.array([[CREAM]], np.uint8), CFG)[0, 0].astype(np.float64)
    ink, _ = ink_maps(patches, CFG, bodies=np.stack([cream] * 3))
    spread = middle_spread(ink, CFG)
    assert spread[0] > CFG.middle_ramp[1]
    assert spread[1] < CFG.middle_ramp[0] and spread[2] < CFG.middle_ramp[0]
    rects = np.array([[50.0, 50.0, 40.0, 40.0, 0.0]] * 3)
    tops = TopFaces(rects, np.ones(3), ink, np.stack([cream] * 3), np.tile([[1.0, 1.0, 0.3]], (3, 1)))
    ncc = np.full((3, 4), 0.8)  # every face matches a template well: only the middle tells them apart
    w = die_weights(tops, ncc, CFG)
    assert w[0] > 0.9 and w[1] == 0.0 and w[2] == 0.0


def test_a_face_whose_middle_varies_only_smoothly_is_not_a_die():
    """A symbol is drawn in sharp strokes; a blot of a playmat's painted art of a die's size can vary as much over
    the face's middle, but smoothly. Both pass the middle test; only the printed face keeps its spread once the
    smooth part is taken off (stroke_spread), and only it keeps its die weight."""
    from vision.roll_dice.assemble import die_weights
    from vision.roll_dice.observations import TopFaces
    from vision.roll_dice.shape import middle_spread, stroke_spread
    from vision.roll_dice.tops import ink_maps

    q = CFG.patch + 2 * CFG.patch_margin
    printed = np.full((q, q, 3), CREAM, np.uint8)
    c = q // 2
    cv2.line(printed, (c - 8, c - 8), (c + 8, c + 8), (30, 30, 30), 2)   # a cross of 2 px strokes
    cv2.line(printed, (c - 8, c + 8), (c + 8, c - 8), (30, 30, 30), 2)
    yy, xx = np.mgrid[0:q, 0:q].astype(np.float32)
    shade = np.exp(-((xx - c) ** 2 + (yy - c) ** 2) / (2 * 9.0 ** 2))      # a soft painted blot, 9 px sigma
    blot = (np.array(CREAM, np.float32) * (1 - 0.6 * shade[..., None])).astype(np.uint8)
    cream = to_log(np.array([[CREAM]], np.uint8), CFG)[0, 0].astype(np.float64)
    ink, _ = ink_maps(np.stack([printed, blot]), CFG, bodies=np.stack([cream] * 2))
    assert (middle_spread(ink, CFG) > CFG.middle_ramp[1]).all()
    strokes = stroke_spread(ink, CFG)
    assert strokes[0] > CFG.stroke_ramp[1] and strokes[1] < CFG.stroke_ramp[0]
    tops = TopFaces(np.array([[50.0, 50.0, 40.0, 40.0, 0.0]] * 2), np.ones(2), ink, np.stack([cream] * 2),
                    np.tile([[1.0, 1.0, 0.3]], (2, 1)))
    w = die_weights(tops, np.full((2, 4), 0.8), CFG)    # both match a template well: only the strokes tell
    assert w[0] > 0.9 and w[1] == 0.0


def test_stroke_spread_of_no_face_is_empty():
    from vision.roll_dice.shape import stroke_spread

    q = CFG.patch + 2 * CFG.patch_margin
    assert stroke_spread(np.zeros((0, 2, q, q), np.float32), CFG).shape == (0,)


def test_a_printed_numbered_box_shows_its_surface_all_round_and_a_die_does_not():
    """A numbered box of a player board's track is the board inside a printed line: the board's colour comes back
    just beyond the line, on every side (between the track's other boxes). A die stands on the table: beyond its top
    face lie its darker side faces, its shadow and a table of another colour."""
    board, ink, table = (40, 30, 25), (170, 200, 210), (60, 110, 150)
    side = 40
    img = np.full((400, 400, 3), board, np.uint8)
    for k in range(5):                                       # the track: boxes 4 px apart, a digit in each
        x0 = 20 + k * (side + 8)
        cv2.rectangle(img, (x0, 180), (x0 + side, 180 + side), ink, 2, cv2.LINE_AA)
        cv2.putText(img, str(k), (x0 + 10, 180 + 31), cv2.FONT_HERSHEY_SIMPLEX, 0.9, ink, 2, cv2.LINE_AA)
    die = np.full((400, 400, 3), table, np.uint8)
    c = 200
    cv2.rectangle(die, (c - 20 + 6, c - 20 + 6), (c + 20 + 10, c + 20 + 10), (30, 55, 75), -1)     # its shadow
    cv2.fillPoly(die, [np.array([[c + 20, c - 20], [c + 27, c - 14], [c + 27, c + 27], [c - 14, c + 27],
                                 [c - 20, c + 20]], np.int32)], (120, 130, 135))                 # its side faces
    cv2.rectangle(die, (c - 20, c - 20), (c + 20, c + 20), CREAM, -1)                             # its top
    cv2.putText(die, "2", (c - 9, c + 11), cv2.FONT_HERSHEY_SIMPLEX, 0.9, (30, 30, 30), 2, cv2.LINE_AA)
    box_rect = np.array([[20 + 2 * (side + 8) + side / 2, 180 + side / 2, side - 2, side - 2, 0.0]])
    die_rect = np.array([[c, c, 40.0, 40.0, 0.0]])
    box_body = to_log(np.array([[board]], np.uint8), CFG)[0]
    die_body = to_log(np.array([[CREAM]], np.uint8), CFG)[0]
    assert surface_returns(img, box_rect, box_body, CFG)[0] >= 0.8
    assert surface_returns(die, die_rect, die_body, CFG)[0] <= 0.1
    # the faces not asked for are not measured; none asked, none measured
    both = surface_returns(die, np.concatenate([die_rect, die_rect]), np.concatenate([die_body, die_body]), CFG,
                           np.array([False, True]))
    assert both[0] == -1.0 and both[1] <= 0.1
    assert surface_returns(die, np.zeros((0, 5)), np.zeros((0, 3)), CFG).shape == (0,)
