"""vision.card_centre.matched_shifts of a card read at a half turn: its maps are the maps the deck scored, turned.

The deck reads a crop at a half turn t + 2 on its maps at turn t turned a half turn (one feature pass for both turns,
:meth:`vision.deck.DeckProfile.turn_features_many`); the centring of a weak card now reads the card's shift on those
same maps instead of a feature pass of the crop turned a half turn. Hand-built: card "b" of ``tests/test_card_ident.py``
(96 x 150 px, a light ground with coloured discs) lying upside down on its own ground, a place 11 px off it."""

from __future__ import annotations

import cv2
import numpy as np

import vision.card_features as card_features
from vision.card_centre import matched_shift, matched_shifts
from vision.card_features import crop_features, reusing_features, shifted_ncc, turn_crop
from vision.card_match import RefineConfig, SearchView, refine_identifications
from vision.deck import DeckProfile
from vision.deck_enroll import deck_from_crops
from vision.quads import order_quad, rectify

CARD = np.array([[150, 120], [245, 120], [245, 269], [150, 269]], float)   # x 150..245, y 120..269


def _deck_and_upside_down_card() -> tuple[DeckProfile, np.ndarray]:
    """Two 96 x 150 cards enrolled as tight scans (as ``tests/test_card_ident.py``'s), and a 420 x 420 frame of
    their light ground with card "b" lying upside down at :data:`CARD`, lightly blurred."""
    rng = np.random.default_rng(3)
    arts = {}
    for name in ("a", "b"):
        im = np.full((150, 96, 3), 230, np.uint8)
        for _ in range(4):
            col = tuple(int(v) for v in rng.integers(0, 200, 3))
            cv2.circle(im, (int(rng.integers(20, 76)), int(rng.integers(20, 130))), int(rng.integers(15, 30)), col, -1)
        arts[name] = im
    deck = deck_from_crops({k: [v] for k, v in arts.items()}, "t", 150 / 96, (63.0, 98.0))
    frame = np.full((420, 420, 3), 230, np.uint8)
    frame[120:270, 150:246] = cv2.rotate(arts["b"], cv2.ROTATE_180)
    return deck, cv2.GaussianBlur(frame, (0, 0), 0.7)


def _shift_of_own_pass(deck: DeckProfile, crop: np.ndarray, card_id: str, turn: int) -> tuple[int, int]:
    """(dy, dx) map cells of the highest correlation of ``card_id``'s references with the crop turned ``turn`` quarter
    turns, from a feature pass of that turned crop (how the centring read every turn before)."""
    big = crop_features(turn_crop(crop, turn), deck.config, "card")[0]
    refs = [i for i, r in enumerate(deck.ref_ids) if r == card_id]
    w = np.asarray(deck.config.channel_weights, np.float32)
    ncc = shifted_ncc(big, deck.config.struct_shift, deck.struct[refs], w / w.sum())
    return divmod(int(np.unravel_index(int(np.argmax(ncc)), ncc.shape)[0]), 2 * deck.config.struct_shift + 1)


def test_an_upside_down_card_is_read_at_a_half_turn_and_shifted_as_its_own_features_say():
    # the place 11 px below the card (the card's top, upside down, is at the bottom of the frame): the deck reads
    # "b" at a half turn; the shift from the scored maps turned is the shift a feature pass of the turned crop finds
    deck, frame = _deck_and_upside_down_card()
    crop = rectify(frame, CARD + (0.0, 11.0), 96, 150)
    cid, _, _, turn = deck.score(crop)
    assert (cid, turn) == ("b", 2)
    s = deck.config.struct_shift
    dy, dx = _shift_of_own_pass(deck, crop, "b", 2)
    assert (dy, dx) != (s, s)                                  # the card's content is off the place's centre
    v = matched_shift(deck, crop, "b", 2)
    h, w = crop.shape[:2]
    m = int(round(deck.config.margin_frac * min(h, w)))
    sw, sh = deck.config.struct_size
    # the shift in the turned crop's pixels, back in the crop as given (a half turn: both signs flip)
    want = (-(dx - s) * (w - 2 * m) / (sw + 2 * s), -(dy - s) * (h - 2 * m) / (sh + 2 * s))
    assert np.allclose(v, want)
    # the card's content lies above the place (the place is 11 px low): the crop moves up
    assert v[1] < -1.0


def test_a_half_turn_costs_no_feature_pass_of_its_own_within_a_read(monkeypatch):
    # within one read (reusing_features) the crop scored at turns 0 and 2 from one pass is centred at turn 2 on that
    # pass: no crop is computed twice, and no half-turned crop at all
    deck, frame = _deck_and_upside_down_card()
    crop = rectify(frame, CARD + (0.0, 11.0), 96, 150)
    passes: list[bytes] = []
    real = card_features._features_one_size

    def counted(crops, cfg, shape):
        passes.extend(c.tobytes() for c in crops)
        return real(crops, cfg, shape)

    monkeypatch.setattr(card_features, "_features_one_size", counted)
    with reusing_features():
        cid, _, _, turn = deck.score(crop)
        matched_shifts(deck, [crop], [cid], [turn])
    assert turn == 2 and passes == [crop.tobytes()]


def test_an_upside_down_card_a_few_pixels_off_is_centred_onto_it():
    # as tests/test_card_ident.py's upright card: two moves by the matched shift bring the place onto the card,
    # which then reads surely (sure only from confidence 0.99 here), its corners within a pixel of the card's
    deck, frame = _deck_and_upside_down_card()
    place = CARD + (0.0, 11.0)
    crop = rectify(frame, place, 96, 150)
    first = deck.score(crop)
    cfg = RefineConfig(weak_conf=0.99)
    assert first[0] == "b" and deck.decide(first).confidence < cfg.weak_conf
    with reusing_features():
        scores, quads, _ = refine_identifications(deck, frame, [place], [crop], [first], False, cfg,
                                                  view=SearchView(frame, [place], lambda q: q, (96.0, 150.0)))
    assert scores[0][0] == "b" and scores[0][3] == 2 and deck.decide(scores[0]).confidence >= cfg.weak_conf
    assert np.abs(order_quad(quads[0]) - CARD).max() < 1.0
