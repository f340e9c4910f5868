"""A place the first look reads beyond the deck's absolute 'not in the deck' bar, with no card size known (a frame read
with no calibration), holds no card: it gets no second look and no evened look (issue 15: an uncalibrated Roll
table's corner markers cost about 35 ms each), and the later looks, when run, agree that it holds no card."""

from __future__ import annotations

from types import SimpleNamespace

import cv2
import numpy as np

from tests.test_card_ident import _card_b_on_its_ground
from vision.card_match import RefineConfig, SearchView, no_card_here, refine_identifications
from vision.cards import identify_and_refine
from vision.deck import DeckProfile
from vision.quads import rectify

MARKER = np.array([[15, 285], [105, 285], [105, 395], [15, 395]], float)
"""The place of a calibration marker (80 x 80 px at x 20..99, y 300..379) as a card finder outlines it, px."""


def _with_marker() -> tuple[DeckProfile, np.ndarray, np.ndarray]:
    """Card "b" of the two-card deck on its ground (:func:`tests.test_card_ident._card_b_on_its_ground`) and an ArUco
    marker (4x4, id 7) printed beside it, as a table's corner marker in a frame read with no calibration: (deck, frame
    uint8[420, 420, 3] BGR, the card's corners float[4, 2] px)."""
    deck, frame, true = _card_b_on_its_ground()
    marker = cv2.aruco.generateImageMarker(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50), 7, 80)
    frame = frame.copy()
    frame[300:380, 20:100] = marker[..., None]
    return deck, frame, true


def test_the_bar_is_the_decks_absolute_bar_and_only_without_a_card_size():
    deck = SimpleNamespace(config=SimpleNamespace(unknown_distance_max=1.0))
    assert no_card_here(deck, 1.05) and not no_card_here(deck, 1.0) and not no_card_here(deck, 0.95)
    # a multiple of the deck's bar: 0.8 x 1.0
    assert no_card_here(deck, 0.85, cfg=RefineConfig(no_card_beyond=0.8))
    assert not no_card_here(deck, 5.0, cfg=RefineConfig(no_card_beyond=None))
    # the card size known (a top-down table image): the search by the deck may find a card far off the place
    sized = SearchView(np.zeros((10, 10), np.float32), [], lambda q: q, (96.0, 150.0))
    unsized = SearchView(np.zeros((10, 10), np.float32), [], lambda q: q, None)
    assert not no_card_here(deck, 5.0, sized) and no_card_here(deck, 5.0, unsized)


def test_a_marker_read_beyond_the_bar_gets_no_second_look_and_the_second_look_agrees(monkeypatch):
    deck, frame, true = _with_marker()
    crop = rectify(frame, MARKER, 96, 150)
    first = deck.score(crop)
    assert first[1] > deck.config.unknown_distance_max   # the marker reads no card of the deck, even at its best
    scored: list[int] = []
    real = DeckProfile.score_many

    def counted(self, crops):
        scored.append(len(crops))
        return real(self, crops)

    monkeypatch.setattr(DeckProfile, "score_many", counted)
    scores, quads, crops = refine_identifications(deck, frame, [MARKER], [crop], [first], False)
    assert scores == [first] and quads[0] is MARKER and crops[0] is crop and scored == []
    # looked at again all the same: its outline moves to one the deck matches a little better, still no card
    scores, quads, _ = refine_identifications(deck, frame, [MARKER], [crop], [first], False,
                                              RefineConfig(no_card_beyond=None))
    assert scored and deck.decide(scores[0]).card_id is None
    assert scores[0][1] > deck.config.unknown_distance_max


def test_a_frame_read_with_no_calibration_names_its_card_and_leaves_the_marker_as_found(monkeypatch):
    deck, frame, true = _with_marker()
    quads = [true, MARKER]
    crops = [rectify(frame, q, 96, 150) for q in quads]
    scored: list[int] = []
    real = DeckProfile.score_many

    def counted(self, crops_):
        scored.append(len(crops_))
        return real(self, crops_)

    monkeypatch.setattr(DeckProfile, "score_many", counted)
    got, out_quads, _ = identify_and_refine(deck, frame, quads, crops, "off")
    assert [r.card_id for r, _m in got] == ["b", None]
    assert got[0][0].confidence > 0.9 and got[1][0].confidence == 1.0   # 'not in the deck', surely (beyond the bar)
    assert np.array_equal(out_quads[1], MARKER)
    assert scored == [2]                                                  # the first look only: no second, no evened
