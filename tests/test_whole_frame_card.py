"""A photo filled by one card (a player photographing a card to check it) reads that card with no calibration: the
table's colours are fitted on the frame's border, which there is the card's own, so no card stands out of it; the
whole frame is then offered as a place the deck must know. A plain cloth of the card's shape is no card."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.card_detect import find_card_quads
from vision.cards import CardsConfig, read_cards, whole_frame_card
from vision.deck_enroll import build_deck_from_images
from vision.synth_table import GAME_SHAPES, reference_images

IDS = ["alien_robot_scout_ship", "alien_robot_sentry", "alien_robotic_factory", "alien_rosetta_stone_world",
       "alien_tech_institute", "alpha_centauri", "aquatic_uplift_race", "artist_colony", "asteroid_belt",
       "avian_uplift_race", "bio_hazard_mining_world", "black_market_trading_world"]


@pytest.fixture(scope="module")
def deck_and_refs():
    refs = reference_images(IDS, GAME_SHAPES["race"], seed=7)
    return build_deck_from_images(refs, name="race", kind="scan", card_mm=GAME_SHAPES["race"]), refs


def test_a_photo_filled_by_one_card_reads_that_card(deck_and_refs):
    deck, refs = deck_and_refs
    card = "alien_rosetta_stone_world"
    photo = cv2.resize(refs[card][0], (429, 600), interpolation=cv2.INTER_LINEAR)   # the card to the frame's edges
    # the case this is for: the card's border is the frame's border, so nothing stands out of its colours
    assert find_card_quads(photo, CardsConfig(), deck.aspect)[0] == []
    read = read_cards(photo, deck)
    assert [o.id for o in read.cards] == [card]
    assert read.cards[0].confidence >= CardsConfig().loose_min_confidence


def test_a_plain_cloth_of_a_cards_shape_reads_no_card(deck_and_refs):
    deck, _ = deck_and_refs
    cloth = np.full((600, 430, 3), (40, 90, 40), np.uint8)
    cloth += np.random.default_rng(1).integers(0, 6, cloth.shape, dtype=np.uint8)
    assert read_cards(cloth, deck).cards == ()


def test_only_a_frame_of_the_cards_shape_is_offered(deck_and_refs):
    deck, _ = deck_and_refs
    c = CardsConfig()
    aspect = 88.0 / 63.0
    # 600 x 430 px: long/short 1.395 against the card's 1.397; a 16:9 table view (1.78) is 27 % off, beyond 22 %
    quads, loose = whole_frame_card(np.zeros((600, 430, 3), np.uint8), deck, aspect, c)
    assert loose == [True] and np.array_equal(quads[0], [[0, 0], [429, 0], [429, 599], [0, 599]])
    assert whole_frame_card(np.zeros((720, 1280, 3), np.uint8), deck, aspect, c) == ([], [])
    assert whole_frame_card(np.zeros((600, 430, 3), np.uint8), None, aspect, c) == ([], [])
    assert whole_frame_card(np.zeros((600, 430, 3), np.uint8), deck, aspect, c, select=lambda q: False) == ([], [])
