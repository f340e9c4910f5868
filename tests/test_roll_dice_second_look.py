"""Which poorly matching faces the face match looks at again (``vision.roll_dice.reader.second_look_faces``): only
those a perfect symbol match would make a die. Hand-worked ink patches (34 px: the 28 px face and 3 px each side) with
no shape evidence (die-likeness 1), so a face's die weight at NCC 1 is its score x the ramps of its printed middle
(``middle_ramp`` 0.08-0.16) and of its strokes (``stroke_ramp`` 0.06-0.12)."""

from __future__ import annotations

import numpy as np

from vision.roll_dice.assemble import die_weights
from vision.roll_dice.config import RollDiceConfig
from vision.roll_dice.observations import TopFaces
from vision.roll_dice.reader import second_look_faces

CFG = RollDiceConfig()
Q = CFG.patch + 2 * CFG.patch_margin


def _faces(inks: list[np.ndarray], scores: list[float], evidence: np.ndarray | None = None) -> TopFaces:
    n = len(inks)
    rects = np.tile([100.0, 100.0, 28.0, 28.0, 0.0], (n, 1))
    return TopFaces(rects, np.asarray(scores, np.float64), np.stack(inks).astype(np.float32), np.zeros((n, 3)),
                    evidence)


def _checks() -> np.ndarray:
    """Brightness +-0.5 log units in 1 px checks, no chroma: a middle varying by 0.5 (spread sqrt(0.25)), all of it
    in strokes far finer than the 2 px blur that is taken off: both ramps at their top."""
    ink = np.zeros((2, Q, Q), np.float32)
    ink[0] = np.where((np.arange(Q)[:, None] + np.arange(Q)[None, :]) % 2 == 0, 0.5, -0.5)
    return ink


def _blot() -> np.ndarray:
    """Brightness rising evenly from -1 to +1 across the patch (a painted gradient): its middle varies (about 0.25
    across the middle half of the face) but a blur leaves a straight ramp as it is, so it carries no strokes."""
    ink = np.zeros((2, Q, Q), np.float32)
    ink[0] = np.linspace(-1.0, 1.0, Q)[None, :]
    return ink


def test_only_faces_a_perfect_match_would_make_dice_are_looked_at_again():
    flat = np.zeros((2, Q, Q), np.float32)
    tops = _faces([_checks(), flat, _checks(), _blot()], [0.9, 1.0, 0.1, 1.0])
    cap = die_weights(tops, np.ones((4, 1)), CFG)
    # printed checks: the score itself (0.9, and 0.1 below min_confidence 0.15); a flat or smooth middle: 0
    assert np.allclose(cap, [0.9, 0.0, 0.1, 0.0])
    assert second_look_faces(tops, CFG).tolist() == [True, False, False, False]


def test_a_face_too_little_like_a_die_is_not_looked_at_again():
    # rim and outline all the body's colour, ink 0.3 of the face: die-likeness 1; rim and outline 0 (ramps 0.3-0.6):
    # die-likeness 0, below relocate_likeness 0.15, whatever its print and score
    evidence = np.array([[1.0, 1.0, 0.3], [0.0, 0.0, 0.3]])
    tops = _faces([_checks(), _checks()], [1.0, 1.0], evidence)
    assert second_look_faces(tops, CFG).tolist() == [True, False]


def test_no_face_gives_an_empty_answer():
    tops = TopFaces(np.zeros((0, 5)), np.zeros(0), np.zeros((0, 2, Q, Q), np.float32), np.zeros((0, 3)))
    assert second_look_faces(tops, CFG).shape == (0,)
