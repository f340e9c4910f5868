"""vision.card_match.refine_identifications: a weak card whose card-sized place reads with no doubt left
(``RefineConfig.settled_conf``) is centred but not fitted to its edges; a place read less surely is centred and fitted
as before.

Hand-built: three tiles of a calibrated table (card 40 px a side), the deck's decisions worked by hand from
:class:`vision.card_features.IdConfig`'s defaults (unknown_distance 0.35, conf_dist_soft 0.6, conf_margin_scale 0.08):
confidence = (1 - exp(-(second - best) / 0.08)) x soft, soft = 1 up to a distance of 0.6 x 0.35 = 0.21."""

from __future__ import annotations

import math

import numpy as np
import pytest

import vision.card_match as card_match
from vision.card_features import IdConfig
from vision.card_match import RefineConfig, SearchView, refine_identifications
from vision.deck import DeckProfile


class Decisions:
    """The deck's decisions alone (no references: the second look's scorings are stood in for below)."""

    config = IdConfig()
    shape = "card"
    decide = DeckProfile.decide
    decide_frame = DeckProfile.decide_frame


def square(cx: float, cy: float, side: float) -> np.ndarray:
    h = side / 2
    return np.array([[cx - h, cy - h], [cx + h, cy - h], [cx + h, cy + h], [cx - h, cy + h]], np.float64)


# first look: tile 0 read surely; tiles 1 and 2 weak (best 0.34, second 0.36: a margin of 0.02), each quad a
# third smaller than the card (a blob that lost a strip of its border)
FIRST = [("tile_1", 0.03, 0.60, 0), ("tile_2", 0.34, 0.36, 0), ("tile_3", 0.34, 0.36, 0)]
# their card-sized places: tile 2's read with no doubt left, tile 3's surely but less so
SETTLED = ("tile_2", 0.02, 0.60, 0)     # (1 - exp(-0.58 / 0.08)) x 1 = 0.99929
SURE = ("tile_3", 0.05, 0.30, 0)        # (1 - exp(-0.25 / 0.08)) x 1 = 0.95606


def test_the_worked_confidences():
    deck = Decisions()
    assert deck.decide(SETTLED).confidence == pytest.approx(1 - math.exp(-0.58 / 0.08), abs=1e-9)
    assert deck.decide(SURE).confidence == pytest.approx(1 - math.exp(-0.25 / 0.08), abs=1e-9)
    assert deck.decide(SETTLED).confidence >= RefineConfig().settled_conf > deck.decide(SURE).confidence
    first = deck.decide_frame(FIRST)   # weak: below weak_conf and farther than weak_distance x unknown_distance
    cfg = RefineConfig()
    assert first[0].confidence > 0.99
    assert all(r.confidence < cfg.weak_conf and r.distance > cfg.weak_distance * 0.35 for r in first[1:])


def second_look(monkeypatch, cfg: RefineConfig, settled: tuple = SETTLED,
                centred_to: tuple | None = None) -> tuple[list, list[str], list[str]]:
    """refine_identifications of the three tiles, the card-sized places read as ``settled`` and SURE, tile 2's centred
    place read as ``centred_to`` (None: centring moves no place); returns its scores and the cards the centring and the
    edge fit were given (by card id). A card still weak after them gets no other outline here (none found, none placed
    by the deck, not centred)."""
    frame = np.zeros((200, 300, 3), np.uint8)
    quads = [square(50, 50, 40), square(150, 50, 27), square(250, 50, 27)]
    crops = [np.zeros((40, 40, 3), np.uint8) for _ in quads]
    centred: list[str] = []
    fitted: list[str] = []

    def resized(deck, frame_, view, ks, scores, mirrored, cfg_, crop_wh):
        assert sorted(ks) == [1, 2]
        return {1: (settled, square(150, 50, 40), crops[1]), 2: (SURE, square(250, 50, 40), crops[2])}

    def centred_many(deck, frame_, qs, cs, scores, gain, mirrored, crop_wh, steps=1):
        centred.extend(s[0] for s in scores)
        return [(centred_to, q, c) if centred_to is not None and s[0] == "tile_2" else None
                for q, c, s in zip(qs, cs, scores, strict=True)]

    def edge_fitted(deck, frame_, reads, mirrored, cfg_, crop_wh):
        fitted.extend(r[0][0] for r in reads)
        return list(reads)

    monkeypatch.setattr(card_match, "_resized", resized)
    monkeypatch.setattr(card_match, "centred_many", centred_many)
    monkeypatch.setattr(card_match, "edge_fitted", edge_fitted)
    monkeypatch.setattr(card_match, "candidate_quads", lambda *a, **k: [])
    monkeypatch.setattr(card_match, "_search_place", lambda deck, frame_, view, k, best, *a: (best, view.quads[k],
                                                                                              None, None))
    monkeypatch.setattr(card_match, "centred", lambda *a, **k: None)
    view = SearchView(np.zeros((200, 300), np.float32), quads, lambda q: q, (40.0, 40.0))
    scores, got_quads, _ = refine_identifications(Decisions(), frame, quads, crops, FIRST, False, cfg, view)
    assert np.array_equal(got_quads[2], square(250, 50, 40))
    return scores, centred, fitted


def test_a_place_read_with_no_doubt_left_is_centred_but_not_fitted(monkeypatch):
    scores, centred, fitted = second_look(monkeypatch, RefineConfig())
    assert scores == [FIRST[0], SETTLED, SURE]
    assert centred == ["tile_2", "tile_3"] and fitted == ["tile_3"]


def test_every_place_read_surely_is_fitted_when_none_is_settled(monkeypatch):
    scores, centred, fitted = second_look(monkeypatch, RefineConfig(settled_conf=None))
    assert scores == [FIRST[0], SETTLED, SURE]
    assert centred == ["tile_2", "tile_3"] and fitted == ["tile_2", "tile_3"]



def test_a_place_read_not_in_the_deck_is_never_settled(monkeypatch):
    """A card-sized place read beyond the deck's threshold is 'not in the deck' at confidence 1.0 (sure that it is no
    card): it is not settled, so when centring then reads it as the card, surely, it is fitted as before."""
    far = ("tile_2", 0.47, 0.72, 0)
    r = Decisions().decide(far)
    assert r.card_id is None and r.confidence == 1.0          # min(1, 0.5 + (0.47 - 0.35) / (0.5 x 0.35))
    scores, centred, fitted = second_look(monkeypatch, RefineConfig(), far, centred_to=SURE_2)
    assert scores[1] == SURE_2
    assert centred == ["tile_2", "tile_3"] and fitted == ["tile_2", "tile_3"]


SURE_2 = ("tile_2", 0.05, 0.30, 0)      # tile 2's centred place: 0.95606, sure
