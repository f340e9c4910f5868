"""Tables read with no calibration (issue 16): a lone card smaller than the frame's share of a card is still read
when it is one whole card of the size the stations set, and a pair of upright cards, shaped like one lying card, no
longer sets every card's size where the stations' edges show the real spacing (vision.card_detect)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.test_card_pitch import ASPECT, _stations
from vision.card_detect import (
    CardsConfig,
    blobs_of,
    card_size_from_edges,
    fill_holes,
    find_card_quads,
    foreground_mask,
    resize_for_work,
)
from vision.quads import quad_size

TABLE = (40, 60, 90)


def _at_size(quads, short: float) -> list[np.ndarray]:
    """The quads of a card ``short`` px wide (within 15 %) and of the cards' aspect (within 0.15)."""
    return [q for q in quads if abs(quad_size(q)[0] - short) <= 0.15 * short
            and abs(quad_size(q)[1] / quad_size(q)[0] - ASPECT) <= 0.15]


def _centres_of(blocks, short: int) -> list[tuple[float, float]]:
    """Centres (px) of the cards :func:`tests.test_card_pitch._stations` draws at angle 0: block after block from
    x = 140 px, each 120 px after the last, rows from y = 200 px, cards 2 px apart."""
    cw, ch = short, int(round(short * ASPECT))
    out, x = [], 140
    for cols, rows in blocks:
        out += [(x + c * (cw + 2) + cw / 2, 200 + r * (ch + 2) + ch / 2) for r in range(rows) for c in range(cols)]
        x += cols * (cw + 2) + 120
    return out


def _on(quads, centre, short: float) -> bool:
    """Whether a quad of a card ``short`` px wide lies on the card at ``centre`` (centres within a fifth of it)."""
    return any(np.linalg.norm(q.mean(axis=0) - np.asarray(centre)) <= 0.2 * short for q in _at_size(quads, short))


def test_a_pair_of_upright_cards_shaped_like_a_lying_card_sets_no_card_size():
    # two upright 40 x 56 px cards side by side make an 82 x 56 px blob: a lying card's shape (82 / 56 = 1.46 against
    # 88 / 63 = 1.40) and the only blob shaped like one card (5 x 2, 2 x 4 and 3 x 2 cards are not); the stations
    # beside it repeat every 42 px across and 58 px down. Taken for a card, the pair would make every card 56 x 82 px
    blocks = ((2, 1), (5, 2), (2, 4), (3, 2))
    frame, n = _stations(40, 0.0, seed=3, blocks=blocks)
    c = CardsConfig()
    img, _ = resize_for_work(frame, c)
    blobs = blobs_of(fill_holes(foreground_mask(img, c)), c)
    short, long_ = card_size_from_edges(img, blobs, ASPECT, c)
    assert abs(short - 42) <= 3 and abs(long_ / short - ASPECT) < 0.05, (short, long_)
    quads = find_card_quads(frame, c, ASPECT)[0]
    assert sum(_on(quads, m, 40) for m in _centres_of(blocks, 40)) >= n - 1
    assert len(quads) <= n + 2


@pytest.mark.parametrize("seed", [5, 6])
def test_lone_cards_under_the_frame_share_are_read_at_the_stations_size(seed):
    # 34 x 47 px cards (1,600 px^2) at 1280 x 720: under the 0.2 % of the frame (1,843 px^2) a blob is looked at for;
    # the lone ones are read, whole, beside stations of the same cards
    blocks = ((1, 1), (5, 2), (1, 1), (2, 4), (1, 1))
    frame, n = _stations(34, 0.0, seed=seed, blocks=blocks)
    quads = find_card_quads(frame, CardsConfig(), ASPECT)[0]
    centres = _centres_of(blocks, 34)
    lone = [centres[0], centres[11], centres[20]]
    assert all(_on(quads, m, 34) for m in lone)
    assert sum(_on(quads, m, 34) for m in centres) >= n - 1 and len(quads) <= n + 2
    # not looked for at all (nor by the second look at the measured size): the lone cards are missed
    old = find_card_quads(frame, CardsConfig(small_card_frac=None, loose_measured=False), ASPECT)[0]
    assert not any(_on(old, m, 34) for m in lone)


def test_small_squares_and_specks_beside_the_cards_are_no_card():
    # a marker-sized white square, a die-sized square and thin scraps as small as a small card: none is whole card
    blocks = ((1, 1), (5, 2), (2, 4))
    frame, n = _stations(34, 0.0, seed=9, blocks=blocks)
    cv2.rectangle(frame, (1000, 120), (1033, 153), (235, 235, 235), -1)     # a marker's white square, 34 px
    cv2.rectangle(frame, (1008, 128), (1025, 145), (20, 20, 20), -1)
    cv2.rectangle(frame, (1100, 500), (1118, 518), (200, 30, 30), -1)       # a die's top, 19 px
    cv2.rectangle(frame, (300, 600), (420, 611), (220, 220, 210), -1)       # a scrap 120 x 12 px (1,452 px^2)
    quads = find_card_quads(frame, CardsConfig(), ASPECT)[0]
    for x, y in ((1016, 136), (1109, 509), (360, 605)):
        assert not any(cv2.pointPolygonTest(q.astype(np.float32).reshape(-1, 1, 2), (x, y), False) >= 0
                       for q in quads), (x, y)
    assert sum(_on(quads, m, 34) for m in _centres_of(blocks, 34)) >= n - 1


def test_a_card_alone_in_the_frame_keeps_its_own_size_whatever_its_art_repeats():
    # one card alone, its art striped every 25 px across and down (as a printed lattice would be): its own outline
    # is its size, as a photo taken to enrol a card is read
    rng = np.random.default_rng(11)
    frame = np.zeros((720, 1280, 3), np.uint8)
    frame[:] = TABLE
    x0, y0, cw, ch = 500, 150, 300, int(round(300 * ASPECT))
    cv2.rectangle(frame, (x0, y0), (x0 + cw - 1, y0 + ch - 1), (215, 225, 230), -1)
    for k in range(x0 + 20, x0 + cw - 20, 25):
        cv2.line(frame, (k, y0 + 20), (k, y0 + ch - 20), (60, 40, 160), 3)
    for k in range(y0 + 20, y0 + ch - 20, 25):
        cv2.line(frame, (x0 + 20, k), (x0 + cw - 20, k), (160, 40, 60), 3)
    frame = np.clip(frame.astype(np.int16) + rng.integers(-5, 6, frame.shape), 0, 255).astype(np.uint8)
    quads = find_card_quads(frame, CardsConfig(), ASPECT)[0]
    assert len(quads) == 1
    short, long_ = quad_size(quads[0])
    assert abs(short - cw) <= 4 and abs(long_ - ch) <= 4
