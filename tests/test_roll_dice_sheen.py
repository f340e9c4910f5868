"""The sheen cap on a Roll die's confidence (vision/roll_dice/sheen.py), on a hand-worked chroma plane.

Prototypes, in the chroma plane of LOG_RGB_BASIS (all at brightness 8): white (0, 0), red (0.9, 0), brown
0.5 x (cos 30°, sin 30°) = (0.43301, 0.25). A red die washed out to half its chroma, hue still red's: (0.45, 0.04).
With dark_sigma 0 every channel weighs 1 / chroma_sigma^2 (0.12), so the metric is the plain chroma-plane one.

Plain metric: red |(-0.45, 0.04)|^2 / 0.0144 = 0.2041 / 0.0144 = 14.174; brown |(0.01699, -0.21)|^2 / 0.0144 =
0.044389 / 0.0144 = 3.0826; white |(0.45, 0.04)|^2 / 0.0144 = 14.174 too: brown
1 / (1 + 2 exp(-(14.174 - 3.0826) / 2)) = 0.9923.

Sheen metric (sheen_sigma 0.3), the body ln 2 brighter on every channel than the prototypes (white light added
that doubles each channel shrinks the chroma by 1 - 1/2: t at most 0.5): the shortfall along white -> prototype
weighs with 0.12^2 + 0.3^2 = 0.1044 while t = shortfall x 0.09 / 0.1044 / |white - prototype| stays within 0.5.
  red:   along -0.45 (t 0.431), across 0.04:  0.2025 / 0.1044 + 0.0016 / 0.0144 = 1.93966 + 0.11111 = 2.05077
  brown: along u = (0.86603, 0.5): 0.01699 x 0.86603 - 0.21 x 0.5 = -0.090286 (t 0.156); across^2 = 0.044389 -
         0.0081516 = 0.036237:              0.0081516 / 0.1044 + 0.036237 / 0.0144 = 0.07808 + 2.51646 = 2.59454
  white: no line to move along: 14.174
  each + the brightness gap 3 (ln 2)^2 / 0.35^2 = 11.7662
  chances exp(-d/2): red 0.35865, brown 0.27329, white 0.000837; sum 0.63278 -> red 0.5668, brown 0.4319.
Only ln 1.25 brighter (t at most 0.2): red's t is held at 0.2: A - 2tB + t^2 (C + L / 0.09) with A = 14.17361,
B = (0.45 x 0.9) / 0.0144 = 28.125, C + L / 0.09 = 56.25 + 9 = 65.25: 14.17361 - 11.25 + 2.61 = 5.53361; brown's
t 0.156 is free: 2.59454; + 3 (ln 1.25)^2 / 0.35^2 = 1.21943 each. No brighter: no sheen, the plain metric.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from vision.roll_dice.colours import colour_posteriors
from vision.roll_dice.config import RollDiceConfig
from vision.roll_dice.foreground import LOG_RGB_BASIS
from vision.roll_dice.observations import RollDieObservation
from vision.roll_dice.sheen import capped_by_sheen, sheen_distances, sheen_posteriors

CFG = replace(RollDiceConfig(), dark_sigma=0.0, chroma_sigma=0.12, sheen_sigma=0.3)
COLOURS = ("white", "red", "brown")
LIGHT = np.array([0.0, 0.0, 0.0, 1.0])


def _log(x: float, y: float, bright: float = 8.0) -> np.ndarray:
    return x * LOG_RGB_BASIS[0] + y * LOG_RGB_BASIS[1] + bright * LOG_RGB_BASIS[2]


PROTOS = np.array([_log(0.0, 0.0), _log(0.9, 0.0), _log(0.5 * np.cos(np.pi / 6), 0.5 * np.sin(np.pi / 6))])
LIFT = np.log(2.0) * np.sqrt(3.0)  # ln 2 on each channel, along the brightness axis
WASHED_RED = _log(0.45, 0.04, 8.0 + LIFT)[None]
DULL_RED = _log(0.45, 0.04)[None]  # as washed out, no brighter


def test_the_plain_metric_is_sure_of_brown():
    p = colour_posteriors(DULL_RED, PROTOS, LIGHT, replace(CFG, wash_sigma=None))[0]   # no washing out
    assert p[2] / p.sum() == pytest.approx(0.9923, abs=2e-4)


def test_sheen_distances_hand_worked():
    d = sheen_distances(WASHED_RED, PROTOS, LIGHT, CFG)[0]
    assert d == pytest.approx(np.array([14.1736, 2.05077, 2.59454]) + 11.7662, abs=2e-4)


def test_a_sheen_is_bounded_by_how_much_brighter_the_body_is():
    d = sheen_distances(_log(0.45, 0.04, 8.0 + np.log(1.25) * np.sqrt(3.0))[None], PROTOS, LIGHT, CFG)[0]
    assert d == pytest.approx(np.array([14.1736, 5.53361, 2.59454]) + 1.21943, abs=2e-4)
    assert sheen_distances(DULL_RED, PROTOS, LIGHT, CFG)[0] == pytest.approx([14.1736, 14.1736, 3.0826], abs=2e-4)


def test_sheen_posteriors_between_red_and_brown():
    p = sheen_posteriors(WASHED_RED, PROTOS, LIGHT, CFG)[0]
    assert p == pytest.approx([0.00132, 0.5668, 0.4319], abs=2e-4)


def test_a_die_beyond_its_colour_is_as_the_plain_metric():
    # more saturated than red, however bright: no sheen explains it, t = 0; red (1.2 - 0.9)^2 / 0.0144 = 6.25,
    # + 3 (ln 2)^2 / 0.35^2 = 11.7662
    body = _log(1.2, 0.0, 8.0 + LIFT)[None]
    assert sheen_distances(body, PROTOS, LIGHT, CFG)[0, 1] == pytest.approx(6.25 + 11.7662, abs=2e-4)


def test_capped_by_sheen_caps_only_the_confidence():
    body = np.concatenate([WASHED_RED, _log(0.9, 0.0)[None]])
    dice = (RollDieObservation("brown", "develop", (10, 10, 40, 40), 0.98),
            RollDieObservation("red", "ship", (100, 10, 40, 40), 0.3))
    kept = [(0, dice[0]), (1, dice[1])]
    out = capped_by_sheen(body, kept, dice, PROTOS, COLOURS, LIGHT, CFG)
    assert out[0] == replace(dice[0], confidence=pytest.approx(0.4319, abs=2e-4))
    assert out[1] == dice[1]                       # below its cap: as it was
    assert capped_by_sheen(body, kept, dice, PROTOS, COLOURS, LIGHT, replace(CFG, sheen_sigma=None)) == dice


def test_no_reads():
    assert capped_by_sheen(np.zeros((0, 3)), [], (), PROTOS, COLOURS, LIGHT, CFG) == ()
    assert sheen_posteriors(np.zeros((0, 3)), PROTOS, LIGHT, CFG).shape == (0, 3)
