"""bench/roll_missed_dice.py's cause of a missed die (:func:`lost_where`): on hand-made traces of one read, a die is
lost where the first stage loses it, and the stages after do not rename it.

Every case is one labelled die whose box is the 40 px square at columns 100-140, rows 100-140 (centre 120, 120). A
face is near it when its centre lies inside that box (a rect centred at (125, 118)) and not near when it lies a whole
side away (centred at (200, 120): its box, columns 180-220, holds neither centre). Reads report a die at die weight
0.15 (``min_confidence``)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

pytest.importorskip("cv2")

from bench.roll_missed_dice import Trace, follow, limiting_factor, lost_where, near, weight_factors  # noqa: E402 - after the path
from vision.roll_dice import RollDiceConfig  # noqa: E402 - after the path
from vision.roll_dice.observations import TopFaces  # noqa: E402 - after the path

BOX = (100.0, 100.0, 40.0, 40.0)
ON = [125.0, 118.0, 40.0, 40.0, 0.0]        # a face on the labelled die
AWAY = [200.0, 120.0, 40.0, 40.0, 0.0]      # a face a whole side away
LEAST = 0.15


def _trace(rects, weights, kept=(), sizes=None, chosen=0.84, dice=()) -> Trace:
    rects = np.asarray(rects, np.float64).reshape(-1, 5)
    return Trace(sizes={0.84: rects} if sizes is None else sizes, chosen=chosen, rects=rects,
                 weights=[(stage, np.asarray(w, np.float64)) for stage, w in weights],
                 kept=[(stage, set(k)) for stage, k in kept], dice=list(dice))


def test_near_is_the_benchs_matching_rule():
    # centre (125, 118) inside the box; (200, 120) outside, and the box's centre (120, 120) outside its box 180-220
    assert near(np.array([ON, AWAY]), BOX).tolist() == [True, False]
    # a large face centred outside the box still covers the die's centre: columns 80-160 hold 120
    assert near(np.array([[120.0, 150.0, 80.0, 80.0, 0.0]]), BOX).tolist() == [True]


def test_no_face_at_any_size():
    trace = _trace([AWAY], [("faces", [0.9])], sizes={0.67: np.array([AWAY]), 0.84: np.array([AWAY])})
    assert lost_where(BOX, trace, LEAST)[0] == "no face"


def test_a_face_only_at_a_size_not_chosen():
    trace = _trace([AWAY], [("faces", [0.9])], sizes={0.67: np.array([ON]), 0.84: np.array([AWAY])})
    cause, detail = lost_where(BOX, trace, LEAST)
    assert cause == "other size"
    assert "0.67" in detail


def test_a_weak_symbol_is_lost_at_the_face_match_whatever_follows():
    # weight 0.10 < 0.15 after the face match: the surface stage's 0.0 afterwards does not make it "lowered surface"
    trace = _trace([ON, AWAY], [("faces", [0.10, 0.9]), ("surface", [0.0, 0.9])])
    assert lost_where(BOX, trace, LEAST)[0] == "weak symbol"


def test_the_first_lowering_stage_under_min_confidence_is_named():
    # 0.65 after the match, 0.40 after surface (still reported), 0.05 after texture: lost at texture
    trace = _trace([ON], [("faces", [0.65]), ("surface", [0.40]), ("sides", [0.40]), ("texture", [0.05])])
    assert lost_where(BOX, trace, LEAST) == ("lowered texture", "die weight 0.65 -> 0.05")


def test_one_of_two_faces_on_the_die_keeps_it_alive():
    # face 0 falls at surface, face 1 (also on the die) holds 0.2 until texture takes it to 0.1
    rects = [ON, [118.0, 124.0, 36.0, 36.0, 0.0]]
    trace = _trace(rects, [("faces", [0.6, 0.3]), ("surface", [0.0, 0.2]), ("texture", [0.0, 0.1])])
    assert lost_where(BOX, trace, LEAST)[0] == "lowered texture"


def test_not_kept_by_the_decision_and_dropped_by_a_later_stage():
    weights = [("faces", [0.8, 0.9]), ("surface", [0.8, 0.9])]
    not_kept = _trace([ON, AWAY], weights, kept=[("assemble", {1}), ("boxed", {1})])
    assert lost_where(BOX, not_kept, LEAST)[0] == "not kept"
    boxed = _trace([ON, AWAY], weights, kept=[("assemble", {0, 1}), ("boxed", {1}), ("own_side", {1})])
    assert lost_where(BOX, boxed, LEAST)[0] == "dropped boxed"
    on_other = _trace([ON, AWAY], weights, kept=[("assemble", {0, 1}), ("boxed", {0, 1}), ("own_side", {0, 1}),
                                                  ("on_other", {1})])
    assert lost_where(BOX, on_other, LEAST)[0] == "dropped on_other"


def test_kept_to_the_end_is_blank_or_reported_off():
    weights = [("faces", [0.8])]
    kept = [("assemble", {0}), ("boxed", {0}), ("own_side", {0}), ("on_other", {0})]
    # no die reported on it: the blank stage (the last) left it out
    assert lost_where(BOX, _trace([ON], weights, kept=kept, dice=[(180, 100, 40, 40)]), LEAST)[0] == "dropped blank"
    # a die reported on it (box 105-145 holds the centre 120, 120) that the bench paired with another label
    assert lost_where(BOX, _trace([ON], weights, kept=kept, dice=[(105, 98, 40, 40)]), LEAST)[0] == "reported off"


def _faces(scores, evidence) -> TopFaces:
    """Three faces on one row, no ink measured (the printed-middle and stroke factors then 1), body grey."""
    n = len(scores)
    rects = np.array([[60.0 + 50 * i, 60.0, 40.0, 40.0, 0.0] for i in range(n)])
    return TopFaces(rects, np.asarray(scores, np.float64), None, np.zeros((n, 3)),
                    np.asarray(evidence, np.float64))


def test_a_die_weights_factors_name_the_one_that_keeps_it_under_min_confidence():
    """Hand-worked with the reader's settings (match_ramp 0.35-0.6, strong_match_ramp 0.55-0.75, shape_support 0.6,
    shape_only 0.5, symbol_min 0.4, shape_alone 0.8, recut_match_ramp 0.55-0.75, min_confidence 0.15).

    Rim 1, outline 1 and ink 0.5 make a die-likeness of 1; ink 0.04 one of (0.04 - 0.03) / 0.05 = 0.2.
    Face 0, added by the recut, NCC 0.5: the recut scaled its score by the ramp of 0.5 on 0.55-0.75, 0; its evidence
    is the symbol 0.6 x (0.4 + 0.6 x 1) = 0.6 (the strong match 0, the shape alone 0.5): weight 0, kept under by the
    recut's gate. Face 1, score 0.2, NCC 0.5, die-like: 0.2 x 0.6 = 0.12, kept under by its candidate score. Face 2,
    score 1, NCC 0.3, die-likeness 0.2: no symbol (0.3 < 0.35), the shape alone 0.5 x 0.2 = 0.1, and neither a symbol
    (0.3 < 0.4) nor a plain die's shape (0.2 < 0.8): weight 0, kept under by the plain-symbol gate."""
    cfg = RollDiceConfig()
    tops = _faces([0.0, 0.2, 1.0], [[1.0, 1.0, 0.5], [1.0, 1.0, 0.5], [1.0, 1.0, 0.04]])
    ncc = np.array([[0.5, 0.1], [0.1, 0.5], [0.3, 0.2]])
    got = weight_factors(tops, ncc, cfg, np.arange(3), recut=np.array([True, False, False]))
    assert [f["shape"] for f in got] == pytest.approx([1.0, 1.0, 0.2])
    assert [f["evidence"] for f in got] == pytest.approx([0.6, 0.6, 0.1])
    assert [f["plain"] for f in got] == [1.0, 1.0, 0.0]
    assert [f["weight"] for f in got] == pytest.approx([0.0, 0.12, 0.0])
    assert got[0]["recut_gate"] == pytest.approx(0.0)
    assert np.isnan(got[1]["recut_gate"])
    assert [limiting_factor(f, cfg.min_confidence) for f in got] == ["recut gate", "score", "plain"]


def test_a_face_weighing_enough_has_no_limiting_factor():
    # score 1, NCC 0.8 on a die-like face: strong match 1, weight 1
    cfg = RollDiceConfig()
    f = weight_factors(_faces([1.0], [[1.0, 1.0, 0.5]]), np.array([[0.8]]), cfg, np.arange(1))[0]
    assert f["weight"] == pytest.approx(1.0)
    assert limiting_factor(f, cfg.min_confidence) == "none"


class _TwoStageReader:
    """A reader whose read runs only the recut (the look's face A, then A and the recut's B) and the other sizes
    (B, A and C from another size, in that order), through the reader module's stage timer as the real one does."""

    def _tops_for(self, *args):
        raise AssertionError("not cut here")

    def read(self, frame):
        import types

        import vision.roll_dice.reader as reader_module

        cfg = RollDiceConfig()
        a, b, c = ([60.0, 60.0, 40.0, 40.0, 0.0], [160.0, 60.0, 40.0, 40.0, 0.0], [260.0, 60.0, 40.0, 40.0, 0.0])
        look = _rows([a], [1.0])
        best = (1.0, 0.84, look, np.array([[0.9]]))
        recut = (_rows([a, b], [1.0, 0.0]), np.array([[0.9], [0.5]]))
        final = (_rows([b, a, c], [0.0, 1.0, 0.8]), np.array([[0.5], [0.9], [0.7]]), ())
        timings: dict = {}
        reader_module.timed_stage(timings, "recut", lambda *x: recut, frame, None, None, cfg, None, best, {}, None,
                                  True)
        reader_module.timed_stage(timings, "other_sizes", lambda *x: final, frame, cfg, 0.84, 1.0)
        return types.SimpleNamespace(die_size=0.84, dice=())


def _rows(rects, scores) -> TopFaces:
    n = len(rects)
    return TopFaces(np.asarray(rects, np.float64), np.asarray(scores, np.float64), None, np.zeros((n, 3)),
                    np.tile([1.0, 1.0, 0.5], (n, 1)))


def test_the_trace_marks_the_faces_the_recut_added_wherever_they_end_up():
    # the recut added B after the look's A; the other sizes put B first and added C: only B is the recut's
    _, trace = follow(_TwoStageReader(), np.zeros((120, 320, 3), np.uint8), RollDiceConfig())
    assert trace.recut.tolist() == [True, False, False]
    assert trace.ncc.ravel().tolist() == pytest.approx([0.5, 0.9, 0.7])
    # B: score 0 (the recut's gate, NCC 0.5 under 0.55); A: NCC 0.9 over match_ramp's 0.6 on a die-like face,
    # weight 1; C: score 0.8 x its symbol 1 (NCC 0.7 over 0.6) = 0.8
    assert trace.weights[0][0] == "faces"
    assert trace.weights[0][1].tolist() == pytest.approx([0.0, 1.0, 0.8])
