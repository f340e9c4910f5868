"""What the second look at weak cards costs (issue 15): each crop is scored once in a frame's second look, and a
handful of candidate outlines that are all scored anyway are ranked by their coarse distance only when the order can
change which one is kept -- with the same answers as before."""

from __future__ import annotations

import numpy as np

import vision.card_match as card_match
from tests.test_card_ident import _card_b_on_its_ground
from vision.card_match import RefineConfig, SearchView, refine_identifications
from vision.deck import DeckProfile
from vision.quads import order_quad, rectify


class _Counting:
    """A stand-in deck for :func:`vision.card_match._best_outline`: each candidate crop (a uniform grey patch) has a
    preset score and coarse distance by its grey level; the calls are counted."""

    def __init__(self, scores: dict[int, tuple], coarse: dict[int, float]) -> None:
        self.scores, self.coarse = scores, coarse
        self.scored: list[int] = []
        self.ranked = 0

    def score_many(self, crops):
        levels = [int(c[0, 0, 0]) for c in crops]
        self.scored += levels
        return [self.scores[v] for v in levels]

    def coarse_best_many(self, crops):
        self.ranked += 1
        return [self.coarse[int(c[0, 0, 0])] for c in crops]


def _patches(levels: list[int]) -> tuple[np.ndarray, list[np.ndarray]]:
    """A frame of side-by-side 40 x 40 px patches of the grey ``levels`` and each patch's quad (float[4, 2] px)."""
    frame = np.zeros((40, 40 * len(levels), 3), np.uint8)
    quads = []
    for k, v in enumerate(levels):
        frame[:, 40 * k:40 * (k + 1)] = v
        quads.append(np.array([[40 * k + 5, 5], [40 * k + 35, 5], [40 * k + 35, 35], [40 * k + 5, 35]], float))
    return frame, quads


def test_two_outlines_scored_anyway_are_ranked_only_when_both_beat_the_card():
    cfg = RefineConfig()                               # max_candidates 2, min_gain 0.006, min_gain_other 0.05
    first = best = ("a", 0.5, 0.9, 0)
    frame, quads = _patches([60, 120])
    # one of the two beats the card's score: it is kept, whatever their coarse order; no ranking needed
    deck = _Counting({60: ("a", 0.30, 0.9, 0), 120: ("a", 0.499, 0.9, 0)}, {60: 0.6, 120: 0.2})
    got, quad, _ = card_match._best_outline(deck, frame, quads, first, best, False, cfg, (30, 30))
    assert got == ("a", 0.30, 0.9, 0) and np.array_equal(quad, quads[0])
    assert deck.ranked == 0 and sorted(deck.scored) == [60, 120]
    # both beat it: taken in coarse order, each against the best so far. Patch 60 ranks first (coarse 0.2) and is
    # kept at 0.300; patch 120 at 0.295 is not better by min_gain, so patch 60 stays although its distance is higher
    deck = _Counting({60: ("a", 0.300, 0.9, 0), 120: ("a", 0.295, 0.9, 0)}, {60: 0.2, 120: 0.6})
    got, quad, _ = card_match._best_outline(deck, frame, quads, first, best, False, cfg, (30, 30))
    assert got[1] == 0.300 and np.array_equal(quad, quads[0]) and deck.ranked == 1
    # ... and the other coarse order keeps patch 120
    deck = _Counting({60: ("a", 0.300, 0.9, 0), 120: ("a", 0.295, 0.9, 0)}, {60: 0.6, 120: 0.2})
    got, quad, _ = card_match._best_outline(deck, frame, quads, first, best, False, cfg, (30, 30))
    assert got[1] == 0.295 and np.array_equal(quad, quads[1]) and deck.ranked == 1


def test_more_outlines_than_are_scored_are_ranked_first():
    cfg = RefineConfig()
    first = best = ("a", 0.5, 0.9, 0)
    frame, quads = _patches([30, 90, 150, 210])
    scores = {v: ("a", d, 0.9, 0) for v, d in ((30, 0.1), (90, 0.4), (150, 0.3), (210, 0.45))}
    deck = _Counting(scores, {30: 0.9, 90: 0.3, 150: 0.2, 210: 0.8})
    got, quad, _ = card_match._best_outline(deck, frame, quads, first, best, False, cfg, (30, 30))
    # only the two of lowest coarse distance (150, then 90) are scored: 150 at 0.3 is kept, 90 at 0.4 is not better;
    # the outline at 0.1 is never scored
    assert deck.ranked == 1 and deck.scored == [150, 90]
    assert got[1] == 0.3 and np.array_equal(quad, quads[2])


class _Plain:
    """The deck as it is, without the second look's memory of scores (what :class:`vision.card_match._ScoreMemo`
    replaces)."""

    def __init__(self, deck: DeckProfile) -> None:
        self.deck = deck

    def __getattr__(self, name: str):
        return getattr(self.deck, name)


def test_a_weak_place_is_scored_once_and_read_as_without_the_memory(monkeypatch):
    # card "b" of a two-card deck on a table of its own ground, the place proposed a third of a card off: the second
    # look scores the place, offers it again beside its centred copy, and centres the outline it keeps (the search by
    # the deck, as in test_card_ident.py)
    deck, frame, true = _card_b_on_its_ground()
    place = true + np.array([0.35 * 96, 0.3 * 150])
    crop = rectify(frame, place, 96, 150)
    first = deck.score(crop)
    weak = RefineConfig(weak_conf=1.01, weak_distance=0.0)
    seen: list[bytes] = []
    real = DeckProfile.score_many

    def counted(self, crops):
        seen.extend(np.ascontiguousarray(c).tobytes() for c in crops)
        return real(self, crops)

    monkeypatch.setattr(DeckProfile, "score_many", counted)
    view = SearchView(frame, [place], lambda q: q, (96.0, 150.0))
    scores, quads, _ = refine_identifications(deck, frame, [place], [crop], [first], False, weak, view=view)
    assert seen and len(set(seen)) == len(seen)                     # no crop scored twice
    assert scores[0][0] == "b" and np.abs(order_quad(quads[0]) - true).max() < 6.0
    # without the memory: more scoring, the same card, turn and outline, distances alike to float32 rounding
    n_memo = len(seen)
    seen.clear()
    monkeypatch.setattr(card_match, "_ScoreMemo", _Plain)
    view = SearchView(frame, [place], lambda q: q, (96.0, 150.0))
    plain, pquads, _ = refine_identifications(deck, frame, [place], [crop], [first], False, weak, view=view)
    assert len(seen) > n_memo and len(set(seen)) < len(seen)
    assert (plain[0][0], plain[0][3]) == (scores[0][0], scores[0][3])
    assert abs(plain[0][1] - scores[0][1]) < 1e-5 and abs(plain[0][2] - scores[0][2]) < 1e-5
    assert np.abs(np.asarray(pquads[0]) - np.asarray(quads[0])).max() < 0.5
