"""A card's size from the frame's own outlines (vision.card_pitch), for tables read with no calibration: stations of
touching cards, with no card alone and a block of cards shaped like one card, give the card's size, and the
detector then finds every card; what `companion read` says of unsure reads and of copies beyond the box."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.commands.read import CARD_SURE, box_copies, sure_ids
from vision.card_detect import CardsConfig, blobs_of, fill_holes, find_card_quads, foreground_mask, resize_for_work
from vision.card_pitch import card_pitch, choose_card_size
from vision.quads import quad_size

ASPECT = 88.0 / 63.0


def _stations(short: int, angle: float, seed: int, blocks=((5, 2), (2, 4), (3, 1))) -> tuple[np.ndarray, int]:
    """(uint8[720, 1280, 3] BGR frame, number of cards): blocks of touching portrait cards (``short`` x
    ``short * ASPECT`` px, 2 px apart, each a light border round coloured art with hard-edged shapes) on a dark
    cloth, the whole table turned by ``angle`` degrees; no card lies alone, and no block has a card's shape."""
    rng = np.random.default_rng(seed)
    h, w = 720, 1280
    img = np.zeros((h, w, 3), np.uint8)
    img[:] = (40, 60, 90)
    cw, ch = short, int(round(short * ASPECT))
    n = 0
    x = 140
    for cols, rows in blocks:
        y0 = 200
        for r in range(rows):
            for c in range(cols):
                x0, y1 = x + c * (cw + 2), y0 + r * (ch + 2)
                border = tuple(int(v) for v in rng.integers(170, 240, 3))
                cv2.rectangle(img, (x0, y1), (x0 + cw - 1, y1 + ch - 1), border, -1)
                cv2.rectangle(img, (x0 + 4, y1 + 8), (x0 + cw - 5, y1 + ch - 12),
                              tuple(int(v) for v in rng.integers(40, 220, 3)), -1)
                for _ in range(3):   # art: shapes whose edges do not line up from card to card
                    cx, cy = x0 + int(rng.integers(6, cw - 6)), y1 + int(rng.integers(10, ch - 14))
                    cv2.circle(img, (cx, cy), int(rng.integers(3, max(4, cw // 5))),
                               tuple(int(v) for v in rng.integers(0, 255, 3)), -1)
                n += 1
        x += cols * (cw + 2) + 120
    M = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    img = cv2.warpAffine(img, M, (w, h), borderValue=(40, 60, 90))
    img = np.clip(img.astype(np.int16) + rng.integers(-5, 6, img.shape), 0, 255).astype(np.uint8)
    return img, n


@pytest.mark.parametrize("short,angle", [(36, 0.0), (48, 4.0), (60, -11.0)])
def test_pitch_of_touching_cards_is_the_card_size(short, angle):
    frame, _ = _stations(short, angle, seed=short)
    c = CardsConfig()
    img, s = resize_for_work(frame, c)
    blobs = blobs_of(fill_holes(foreground_mask(img, c)), c)
    pitch = card_pitch(img, blobs, ASPECT, min_side=15.0)
    assert pitch is not None
    assert abs(pitch - (short + 2)) <= 0.1 * short


def test_a_block_shaped_like_a_card_is_no_card_size():
    # one card alone (40 x 56 px) and a block of 2 x 2 cards (about 82 x 114 px, a card's aspect): the pitch keeps
    # the card; with no card alone, the pitch itself
    sizes, areas = [(40.0, 56.0), (82.0, 114.0)], [2200.0, 9300.0]
    assert choose_card_size(sizes, areas, 41.0, ASPECT) == (40.0, 56.0)
    short, long_ = choose_card_size([(82.0, 114.0)], [9300.0], 41.0, ASPECT)
    assert short == 41.0 and long_ == pytest.approx(41.0 * ASPECT)
    assert choose_card_size(sizes, areas, None, ASPECT) is None


@pytest.mark.parametrize("short,angle", [(40, 0.0), (52, 6.0)])
def test_stations_with_no_card_alone_are_split_into_their_cards(short, angle):
    frame, n = _stations(short, angle, seed=100 + short)
    quads = find_card_quads(frame, CardsConfig(), ASPECT)[0]
    def card_sized(qs):
        return sum(abs(quad_size(q)[0] - short) <= 0.15 * short and abs(quad_size(q)[1] / quad_size(q)[0] - ASPECT)
                   <= 0.15 for q in qs)

    # every card found at its size (a lattice may add a cell the deck then reads as no card)
    assert card_sized(quads) >= n - 1 and len(quads) <= n + 2
    # the blobs alone (the median of the blobs shaped like a card) do not tell: the stations stay whole
    old = find_card_quads(frame, CardsConfig(size_from_edges=False), ASPECT)[0]
    assert card_sized(old) < n // 2


def _card(cid, conf):
    return {"id": cid, "confidence": conf}


def test_unsure_reads_and_copies_beyond_the_box_are_questions():
    copies = box_copies(["galactic_bank", "main_reactor", "turret_special"])
    assert copies == {"galactic_bank": 2, "main_reactor": 4, "turret_special": 1}
    cards = [_card("galactic_bank", 0.9), _card("turret_special", 0.8), _card("galactic_bank", 0.95),
             _card("turret_special", 0.99), _card("galactic_bank", 0.7), _card("main_reactor", CARD_SURE - 0.01),
             _card(None, 0.9)]
    # the third Galactic Bank (the least sure) and the second Turret (special) are questions; a read below the bar
    # and one with no id are too
    assert sure_ids(cards, copies) == ["galactic_bank", None, "galactic_bank", "turret_special", None, None, None]
    # a deck of another game's cards keeps no copies: only the bar applies
    assert box_copies(["galactic_bank", "alien_rosetta_stone_worlds"]) == {}
    assert sure_ids(cards, {}) == ["galactic_bank", "turret_special", "galactic_bank", "turret_special",
                                   "galactic_bank", None, None]


def test_a_station_read_with_more_copies_than_the_box_asks_about_the_extra():
    from companion.camera.station import StationWatcher
    from companion.camera.watch import SeenCard

    w = StationWatcher("Ζωή", confirm_reads=1)
    seen = [SeenCard("main_reactor", (0, 0), 0.99), SeenCard("galactic_bank", (0, 1), 0.9),
            SeenCard("galactic_bank", (1, 0), 0.97), SeenCard("galactic_bank", (0, -1), 0.8),
            SeenCard("garden", (-1, 0), 0.95)]
    change = w.observe(seen)
    # Galactic Bank: 2 in the box; the least sure of three is a question and leaves its cell out
    assert sorted(change.to_json()["station"], key=str) == sorted(
        [{"card": "main_reactor", "cell": [0, 0]}, {"card": "galactic_bank", "cell": [0, 1]},
         {"card": "galactic_bank", "cell": [1, 0]}, {"card": "garden", "cell": [-1, 0]}], key=str)
    assert [str(u) for u in w.unsure] == ["the card 1 left of the Main Reactor is not recognised yet"]


def test_a_block_shaped_like_a_card_beside_a_card_alone_is_split():
    # a card alone and a 2 x 2 block (a card's shape, four times its area): the blobs disagree, the edges decide
    frame, n = _stations(44, 3.0, seed=7, blocks=((1, 1), (2, 2), (5, 2), (2, 4)))
    quads = find_card_quads(frame, CardsConfig(), ASPECT)[0]
    right = [q for q in quads if abs(quad_size(q)[0] - 44) <= 0.15 * 44]
    assert len(right) >= n - 1 and len(quads) <= n + 2
    old = find_card_quads(frame, CardsConfig(size_from_edges=False), ASPECT)[0]
    assert sum(abs(quad_size(q)[0] - 44) <= 0.15 * 44 for q in old) < n // 2


@pytest.mark.parametrize("lang, said", [("en", "printed \"?\""), ("el", "τυπώνεται \"?\""),
                                        ("pl", "wypisuje się jako \"?\""), ("hu", "helyén \"?\" áll")])
def test_the_help_says_what_a_question_mark_means_and_what_json_keeps(lang, said):
    """``companion read --help``: a card printed "?" (read unsure, or a copy beyond the box) is said under --cards,
    with what --json keeps instead (every read's id and confidence), in every language of the box."""
    from companion import i18n
    from companion.cli import _parser

    with i18n.use_language(lang):
        parser = _parser()
        subs = next(a for a in parser._actions if a.dest == "command").choices
        cards = next(a for a in subs["read"]._actions if a.dest == "cards")
        text = " ".join(cards.help.split())
    assert said in text and "--json" in text, text
