"""The colour a Roll die's read face is given: between colours whose dice print their symbols alike the body decides;
a symbol printed the other way still tells colours apart (vision.roll_dice.colour_pick). Every figure worked by
hand, face temperature 0.04, colour weight 2."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from vision.profiles import DiceProfile
from vision.roll_dice import RollDiceConfig
from vision.roll_dice.assemble import decide_each
from vision.roll_dice.colour_pick import colour_scores
from vision.roll_dice.observations import TopFaces

COLOURS = ("red", "brown", "white")
FACES = ("develop", "explore")
PAIRS = (("red", "develop"), ("brown", "develop"), ("white", "develop"), ("red", "explore"), ("white", "explore"))
POL = np.array([1.0, 1.0, -1.0, 1.0, -1.0])        # red and brown print light symbols, white dark ones
CFG = RollDiceConfig(face_temperature=0.04, colour_weight=2.0, pooled_penalty=0.05, impossible_penalty=0.05)


def _profile() -> DiceProfile:
    return DiceProfile(colours=COLOURS, faces=FACES, allowed=PAIRS, colour_means=np.zeros((len(COLOURS), 3)),
                       template_pairs=PAIRS, templates=np.zeros((len(PAIRS), 22 * 22), np.float32), template_side=22)


def _tops(n: int) -> TopFaces:
    rects = np.array([[40.0 + 80 * i, 40.0, 40.0, 40.0, 0.0] for i in range(n)])
    return TopFaces(rects, np.ones(n), None, np.zeros((n, 3)), None)


def test_two_colours_printed_alike_tie_on_the_symbol():
    """A die whose body reads red 0.60, brown 0.40 matches red's develop template at 0.70 and brown's at 0.74 (both
    printed light), white's dark develop at 0.30. For its colour both light colours score 0.74: red
    2 ln 0.60 + 0.74 / 0.04 = 17.478, brown 2 ln 0.40 + 18.5 = 16.667; white (dark print, 0.30 / 0.04 = 7.5 with
    2 ln 1e-12 = -55.26) far below."""
    ncc = np.array([[0.70, 0.74, 0.30, 0.10, 0.10]])
    colour_p = np.array([[0.60, 0.40, 0.0]])
    s = colour_scores(colour_p, ncc, PAIRS, COLOURS, FACES, CFG, POL)
    np.testing.assert_allclose(s[0, 0, 0], 2 * np.log(0.60) + 18.5, atol=1e-9)
    np.testing.assert_allclose(s[0, 1, 0], 2 * np.log(0.40) + 18.5, atol=1e-9)
    np.testing.assert_allclose(s[0, 2, 0], 2 * np.log(1e-12) + 7.5, atol=1e-9)
    # brown has no explore face: the best explore on any colour (0.10) less the impossible penalty
    np.testing.assert_allclose(s[0, 1, 1], 2 * np.log(0.40) + (0.10 - 0.05) / 0.04, atol=1e-9)


def test_a_red_die_the_body_calls_red_is_not_read_brown_by_a_closer_template():
    """The joint decision of before: red/develop takes max(0.70, brown's 0.74 - 0.05) = 0.70, 2 ln 0.6 + 17.5 =
    16.478 against brown's 2 ln 0.4 + 18.5 = 16.667: brown. With the body deciding between colours printed alike:
    red (17.478 against 16.667), the face still develop."""
    ncc = np.array([[0.70, 0.74, 0.30, 0.10, 0.10]])
    colour_p = np.array([[0.60, 0.40, 0.0]])
    (_, _, obs), = decide_each(_tops(1), colour_p, ncc, _profile(), CFG, POL)
    assert (obs.colour, obs.face) == ("red", "develop")
    (_, _, old), = decide_each(_tops(1), colour_p, ncc, _profile(), replace(CFG, alike_colour_by_body=False), POL)
    assert (old.colour, old.face) == ("brown", "develop")
    # the confidence stays no surer than the body's 0.60
    assert obs.confidence <= 0.60 + 1e-9


def test_a_symbol_printed_the_other_way_still_tells_the_colour():
    """A die whose body reads white 0.60, red 0.40 shows a light-printed develop: red's template 0.80, white's dark
    one 0.20. Red 2 ln 0.40 + 0.80 / 0.04 = 18.167 against white 2 ln 0.60 + 0.20 / 0.04 = 3.978: red, as before."""
    ncc = np.array([[0.80, 0.50, 0.20, 0.10, 0.10]])
    colour_p = np.array([[0.40, 0.0, 0.60]])
    s = colour_scores(colour_p, ncc, PAIRS, COLOURS, FACES, CFG, POL)
    np.testing.assert_allclose(s[0, 0, 0], 2 * np.log(0.40) + 20.0, atol=1e-9)
    np.testing.assert_allclose(s[0, 2, 0], 2 * np.log(0.60) + 5.0, atol=1e-9)
    (_, _, obs), = decide_each(_tops(1), colour_p, ncc, _profile(), CFG, POL)
    assert obs.colour == "red"


@pytest.mark.parametrize("config, pol", [(replace(CFG, alike_colour_by_body=False), POL), (CFG, None)])
def test_off_or_without_print_polarity_the_joint_scores_choose(config, pol):
    ncc = np.array([[0.70, 0.74, 0.30, 0.10, 0.10]])
    assert colour_scores(np.array([[0.6, 0.4, 0.0]]), ncc, PAIRS, COLOURS, FACES, config, pol) is None
