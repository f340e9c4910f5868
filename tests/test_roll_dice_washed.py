"""A Roll die washed out towards white keeps its colour (vision.roll_dice.colours.washed_distances), worked by hand in
log-RGB with every channel equally noisy (dark_sigma 0: each channel's sigma is chroma_sigma 0.12), brightness_sigma
0.35, wash_sigma 0.25.

Prototypes: white W = (5, 5, 5); yellow Y = W + (-1.2, 0.6, 0.6) (chroma only, as bright as white), so the step from
yellow to white is v = (1.2, -0.6, -0.6), |v|^2 = 2.16, v'Mv = 2.16 / 0.0144 = 150."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from vision.roll_dice import RollDiceConfig
from vision.roll_dice.colours import WARM_AXIS, colour_posteriors, lit_distances, washed_distances

CFG = RollDiceConfig(chroma_sigma=0.12, dark_sigma=0.0, brightness_sigma=0.35, wash_sigma=0.25)
W = np.array([5.0, 5.0, 5.0])
Y = W + np.array([-1.2, 0.6, 0.6])
PROTOS = np.stack([W, Y])
NEUTRAL = np.array([0.0, 0.0, 0.0, 1.0])
CREAM = W + 0.3 * (Y - W)          # 0.7 of the way from yellow to white: a yellow die washed out


def test_a_cream_body_is_white_by_the_plain_metric():
    """Plain: to white |0.3 (Y - W)|^2 / 0.0144 = 0.1944 / 0.0144 = 13.5; to yellow 0.49 x 2.16 / 0.0144 = 73.5."""
    d = lit_distances(CREAM[None], PROTOS, NEUTRAL, CFG)
    np.testing.assert_allclose(d, [[13.5, 73.5]], rtol=1e-9)


def test_washed_yellow_is_nearer_than_white():
    """Washed: v'Me = 0.7 x 150 = 105, curvature 150 + 1 / 0.25^2 = 166, t = 105 / 166 = 0.6325, distance
    73.5 - 105^2 / 166 = 7.0843 < 13.5; white keeps its plain 13.5."""
    d = washed_distances(CREAM[None], PROTOS, NEUTRAL, CFG)
    np.testing.assert_allclose(d, [[13.5, 73.5 - 105.0 ** 2 / 166.0]], rtol=1e-9)
    p = colour_posteriors(CREAM[None], PROTOS, NEUTRAL, CFG)
    # exp(-7.0843 / 2) against exp(-13.5 / 2): yellow 0.9612 of the two (the "none of these" option at 50 is nil)
    np.testing.assert_allclose(p[0] / p[0].sum(), [1 / (1 + np.exp(3.2079)), 1 / (1 + np.exp(-3.2079))], atol=1e-3)
    assert p[0].argmax() == 1
    plain = colour_posteriors(CREAM[None], PROTOS, NEUTRAL, replace(CFG, wash_sigma=None))
    assert plain[0].argmax() == 0                                  # before: read white


def test_a_white_body_stays_white():
    """A body at W: washed yellow t = 150 / 166 = 0.9036 and distance 150 - 150^2 / 166 = 14.458 against white's 0;
    its chance of white exp(0) / (1 + exp(-7.229)) = 0.99928."""
    d = washed_distances(W[None], PROTOS, NEUTRAL, CFG)
    np.testing.assert_allclose(d, [[0.0, 150.0 - 150.0 ** 2 / 166.0]], atol=1e-9)
    p = colour_posteriors(W[None], PROTOS, NEUTRAL, CFG)
    np.testing.assert_allclose(p[0, 0] / p[0].sum(), 1.0 / (1.0 + np.exp(-7.2289)), atol=1e-4)


def test_a_body_darker_than_yellow_is_not_washed():
    """Yellow 0.3 darker in every channel: the residual is brightness only, v'Me = 0, t = 0: the plain distance
    3 x 0.3^2 / 0.35^2 = 2.2041."""
    d = washed_distances((Y - 0.3)[None], PROTOS, NEUTRAL, CFG)
    np.testing.assert_allclose(d[0, 1], 3 * 0.09 / 0.1225, rtol=1e-9)


def test_under_a_warm_light_the_same_cream_die_is_yellow():
    """A lamp's offset moves body and light alike: a cream die seen under a light 0.3 log units warm (along the
    warm-cool axis) is as far from each washed colour as under a neutral one."""
    warm = 0.3 * WARM_AXIS
    light = np.array([*warm, 1.0])
    d = washed_distances((CREAM + warm)[None], PROTOS, light, CFG)
    np.testing.assert_allclose(d, [[13.5, 73.5 - 105.0 ** 2 / 166.0]], rtol=1e-9)
    assert colour_posteriors((CREAM + warm)[None], PROTOS, light, CFG)[0].argmax() == 1


def test_among_other_dice_only_the_cream_ones_change():
    """Pale yellow dice beside white and fully yellow ones: the white die stays white, the yellow yellow, the cream
    ones yellow; a white die a little off white (0.05 of the way to yellow: plain 0.0025 x 2.16 / 0.0144 = 0.375)
    stays white."""
    bodies = np.stack([W, Y, CREAM, CREAM + 0.01, W + 0.05 * (Y - W)])
    p = colour_posteriors(bodies, PROTOS, NEUTRAL, CFG)
    assert p.argmax(1).tolist() == [0, 1, 1, 1, 0]


def test_no_wash_gives_the_plain_distances():
    """wash_sigma None: the chances of the plain 13.5 and 73.5 beside "none of these" at 50 (the softmax of -6.75,
    -36.75 and -25, that last left out)."""
    p = colour_posteriors(CREAM[None], PROTOS, NEUTRAL, replace(CFG, wash_sigma=None))
    z = np.exp([-6.75, -36.75, -25.0])
    np.testing.assert_allclose(p[0], z[:2] / z.sum(), rtol=1e-9)


@pytest.mark.parametrize("n", [0, 3])
def test_shapes(n):
    assert washed_distances(np.tile(W, (n, 1)), PROTOS, NEUTRAL, CFG).shape == (n, 2)


def test_the_chance_of_any_colour_is_the_plain_ones():
    """Washing shares the chances among the colours but leaves how surely the body is of any enrolled colour (a die's
    weight in the reader) as the plain metric gives it: for the cream body 1 - exp(-25) / (exp(-6.75) + exp(-36.75)
    + exp(-25)), where exp(-25) is "none of these" at 50; for a body far from both (distance 50 beyond white along
    the brightness axis alone: 3 k^2 / 0.35^2 = 50 at k = 1.4289), one half."""
    z = np.exp([-6.75, -36.75, -25.0])
    p = colour_posteriors(CREAM[None], PROTOS, NEUTRAL, CFG)
    np.testing.assert_allclose(p.sum(), z[:2].sum() / z.sum(), rtol=1e-9)
    k = np.sqrt(50.0 * 0.35 ** 2 / 3.0)
    far = colour_posteriors((W + k)[None], PROTOS, NEUTRAL, CFG)
    np.testing.assert_allclose(far.sum(), 0.5, atol=1e-6)
