"""The light's-doubt cap on a Roll die's confidence (vision/roll_dice/light_doubt.py), on a hand-worked chroma plane.

Colours are written as (warm, tint) amounts along WARM_AXIS (blue against red) and TINT_AXIS (magenta against
green) of vision/roll_dice/colours.py, all at the same brightness, so the brightness gap is 0. With dark_sigma 0
every channel weighs 1 / chroma_sigma^2 (0.12^2 = 0.0144), and a light doubt of (0.08, 0.05) weighs the warm part
with 0.0144 + 0.0064 = 0.0208 and the tint part with 0.0144 + 0.0025 = 0.0169.

A blue die under a cooler or warmer lamp: white (0, 0), blue (0.5, 0); a blue die washed towards white at (0.32, 0).
  plain:  blue 0.18^2 / 0.0144 = 2.25,    white 0.32^2 / 0.0144 = 7.1111; blue 1 / (1 + exp(-(7.1111 - 2.25) / 2))
          = 0.9191 (sure, though a light 0.18 log units cooler would make it white);
  doubt:  blue 0.0324 / 0.0208 = 1.5577,  white 0.1024 / 0.0208 = 4.9231; blue 1 / (1 + exp(-3.3654 / 2)) = 0.8433.
A red die and a yellow one differ in green, across the lamps' axis: red (-0.6, 0), yellow (-0.6, -0.35); a red die
with a little more green at (-0.6, -0.08):
  plain:  red 0.0064 / 0.0144 = 0.4444,   yellow 0.0729 / 0.0144 = 5.0625; red 1 / (1 + exp(-4.6181 / 2)) = 0.9096;
  doubt:  red 0.0064 / 0.0169 = 0.3787,   yellow 0.0729 / 0.0169 = 4.3136; red 1 / (1 + exp(-3.9349 / 2)) = 0.8773.
A blue die right on blue's prototype is far from white either way: white at 0.25 / 0.0208 = 12.019 against 0,
blue 1 / (1 + exp(-6.0096)) = 0.99755.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from vision.roll_dice.colours import TINT_AXIS, WARM_AXIS, colour_distances, colour_posteriors
from vision.roll_dice.config import RollDiceConfig
from vision.roll_dice.foreground import LOG_RGB_BASIS
from vision.roll_dice.light_doubt import capped_by_light_doubt, light_doubt_distances, light_doubt_posteriors
from vision.roll_dice.observations import RollDieObservation

CFG = replace(RollDiceConfig(), dark_sigma=0.0, chroma_sigma=0.12, light_doubt_warm=0.08, light_doubt_tint=0.05)
LIGHT = np.array([0.0, 0.0, 0.0, 1.0])


def _log(warm: float, tint: float, bright: float = 8.0) -> np.ndarray:
    return warm * WARM_AXIS + tint * TINT_AXIS + bright * LOG_RGB_BASIS[2]


WHITE_BLUE = np.array([_log(0.0, 0.0), _log(0.5, 0.0)])
RED_YELLOW = np.array([_log(-0.6, 0.0), _log(-0.6, -0.35)])
WASHED_BLUE = _log(0.32, 0.0)[None]
GREENISH_RED = _log(-0.6, -0.08)[None]


def _read(colour: str, confidence: float) -> RollDieObservation:
    return RollDieObservation(colour, "explore", (10.0, 10.0, 40.0, 40.0), confidence)


def test_no_doubt_is_the_plain_metric_with_dark_channels_too():
    rng = np.random.default_rng(3)
    body, protos = rng.normal(4.0, 0.8, (5, 3)), rng.normal(4.0, 0.8, (4, 3))
    cfg = RollDiceConfig()  # dark channels weigh less: the plain metric's own weights
    plain = colour_distances(body, protos, np.zeros(3), cfg)
    assert light_doubt_distances(body, protos, LIGHT, cfg, (0.0, 0.0)) == pytest.approx(plain, rel=1e-9)


def test_a_washed_blue_die_is_sure_under_one_light_and_unsure_under_a_doubted_one():
    p = colour_posteriors(WASHED_BLUE, WHITE_BLUE, LIGHT, replace(CFG, wash_sigma=None))[0]   # the plain metric
    assert p[1] / p.sum() == pytest.approx(0.9191, abs=2e-4)
    assert light_doubt_distances(WASHED_BLUE, WHITE_BLUE, LIGHT, CFG)[0] == pytest.approx([4.9231, 1.5577], abs=2e-4)
    assert light_doubt_posteriors(WASHED_BLUE, WHITE_BLUE, LIGHT, CFG)[0] == pytest.approx([0.1567, 0.8433], abs=2e-4)


def test_a_red_die_with_more_green_is_doubted_across_the_lamps_axis():
    assert light_doubt_distances(GREENISH_RED, RED_YELLOW, LIGHT, CFG)[0] == pytest.approx([0.3787, 4.3136], abs=2e-4)
    assert light_doubt_posteriors(GREENISH_RED, RED_YELLOW, LIGHT, CFG)[0, 0] == pytest.approx(0.8773, abs=2e-4)


def test_the_lights_offset_and_saturation_scale_are_taken_out_first():
    # the same washed blue die seen under a light 0.2 log units cooler (and 0.3 brighter): the same distances
    light = np.array([*(0.2 * WARM_AXIS + 0.3 * LOG_RGB_BASIS[2]), 1.0])
    body = WASHED_BLUE + light[:3]
    assert light_doubt_distances(body, WHITE_BLUE, light, CFG)[0] == pytest.approx([4.9231, 1.5577], abs=2e-4)


def test_reads_are_capped_and_keep_their_colour_and_face():
    body = np.array([_log(0.5, 0.0), WASHED_BLUE[0], WASHED_BLUE[0]])  # top faces 0, 1, 2
    kept = [(1, _read("blue", 0.95)), (2, _read("white", 0.5)), (0, _read("blue", 0.999))]
    out = capped_by_light_doubt(body, kept, [d for _, d in kept], WHITE_BLUE, ("white", "blue"), LIGHT, CFG)
    assert [d.confidence for d in out] == pytest.approx([0.8433, 0.1567, 0.99755], abs=2e-4)
    assert [(d.colour, d.face, d.box) for d in out] == [(d.colour, d.face, d.box) for _, d in kept]


def test_a_read_already_unsure_stays_as_it_is():
    kept = [(0, _read("blue", 0.4))]
    out = capped_by_light_doubt(WASHED_BLUE, kept, [kept[0][1]], WHITE_BLUE, ("white", "blue"), LIGHT, CFG)
    assert out == (kept[0][1],)


def test_no_doubt_set_leaves_the_reads():
    kept = [(0, _read("blue", 0.95))]
    cfg = replace(CFG, light_doubt_warm=None)
    assert capped_by_light_doubt(WASHED_BLUE, kept, [kept[0][1]], WHITE_BLUE, ("white", "blue"), LIGHT, cfg) == (
        kept[0][1],)
    assert capped_by_light_doubt(WASHED_BLUE, [], [], WHITE_BLUE, ("white", "blue"), LIGHT, CFG) == ()


def test_bad_input_is_named():
    with pytest.raises(ValueError, match="sigmas >= 0"):
        light_doubt_distances(WASHED_BLUE, WHITE_BLUE, LIGHT, CFG, (-0.1, 0.05))
    with pytest.raises(ValueError, match="2 reads for 1 top faces"):
        capped_by_light_doubt(WASHED_BLUE, [(0, _read("blue", 0.9))], [_read("blue", 0.9)] * 2, WHITE_BLUE,
                              ("white", "blue"), LIGHT, CFG)
    with pytest.raises(ValueError):
        capped_by_light_doubt(WASHED_BLUE, [(0, _read("green", 0.9))], [_read("green", 0.9)], WHITE_BLUE,
                              ("white", "blue"), LIGHT, CFG)
