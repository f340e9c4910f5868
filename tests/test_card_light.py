"""A weakly read card looked at again with its light evened out (issue 16: cards from any camera and light).

The cause pinned: a shadow with an edge across a card, or a tinted light over part of it, is no smooth fall-off;
after the card's white balance the paper under it reads as ink, and an open shape reads as a hatched or a solid
one. Generated cards: white paper with one or two ovals, open, hatched or solid, in three inks (the kind of deck
whose fills differ only by how much ink lies inside the outline)."""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.card_detect import crop_size
from vision.card_light import LightConfig, even_light, evened_scores
from vision.cards import CardsConfig, read_cards
from vision.deck_enroll import build_deck, build_deck_from_images

SHARED = Path(os.environ.get("TABLETOP_SHARED", Path(__file__).resolve().parents[1].parent / "shared"))
SET_DIR = SHARED / "datasets" / "set_cards_tableau"

INKS = {"red": (40, 40, 215), "green": (50, 150, 30), "purple": (130, 30, 110)}
FILLS = ("open", "hatched", "solid")


def oval_card(n: int, ink: str, fill: str, w: int = 300, h: int = 465) -> np.ndarray:
    """uint8[h, w, 3] BGR: a white card with ``n`` ovals of ``ink``, ``fill`` open, hatched or solid."""
    im = np.full((h, w, 3), 238, np.uint8)
    c = INKS[ink]
    for y in ([h / 2] if n == 1 else [h / 2 - 60, h / 2 + 60]):
        centre, axes = (w // 2, int(y)), (95, 40)
        if fill == "solid":
            cv2.ellipse(im, centre, axes, 0, 0, 360, c, -1, cv2.LINE_AA)
        elif fill == "hatched":
            inside = np.zeros((h, w), np.uint8)
            cv2.ellipse(inside, centre, axes, 0, 0, 360, 255, -1)
            lines = np.zeros((h, w), bool)
            lines[:, ::9] = lines[:, 1::9] = True
            im[(inside > 0) & lines] = c
        cv2.ellipse(im, centre, axes, 0, 0, 360, c, 5, cv2.LINE_AA)
    return im


def shadowed(im: np.ndarray, tint: tuple[float, float, float], frac: float = 0.55) -> np.ndarray:
    """``im`` with a hard-edged shadow of ``tint`` (per-channel BGR gain) over its top ``frac``, the edge slanted."""
    h, w = im.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w]
    out = im.astype(np.float32)
    out[yy < frac * h + 0.15 * (xx - w / 2)] *= np.array(tint, np.float32)
    return np.clip(out, 0, 255).astype(np.uint8)


@pytest.fixture(scope="module")
def cards() -> dict[str, np.ndarray]:
    return {f"{n}-{ink}-{fill}": oval_card(n, ink, fill) for n in (1, 2) for ink in INKS for fill in FILLS}


@pytest.fixture(scope="module")
def deck(cards):
    return build_deck_from_images({k: [v] for k, v in cards.items()}, "ovals", kind="scan")


def test_even_light_divides_out_a_shadow_and_keeps_the_print(cards):
    card = cards["1-red-solid"]
    evened = even_light(shadowed(card, (0.6, 0.65, 0.8))).astype(np.float32)
    plain = card.astype(np.float32)
    h, w = card.shape[:2]
    paper = np.ones((h, w), bool)
    paper[h // 2 - 60:h // 2 + 60, w // 2 - 110:w // 2 + 110] = False   # around the oval
    paper[:12], paper[-12:], paper[:, :12], paper[:, -12:] = False, False, False, False
    # the paper in and out of the shadow: one colour again (the shadow took up to 40 % of a channel)
    inside = shadowed(np.ones((h, w), np.float32)[..., None].repeat(3, 2), (0.5, 0.5, 0.5))[..., 0] < 1
    for ch in range(3):
        gap = abs(float(np.median(evened[paper & inside, ch])) - float(np.median(evened[paper & ~inside, ch])))
        assert gap < 0.05 * 238, (ch, gap)
    # the solid oval stays ink: far darker than the paper in the red card's blue and green channels
    centre = evened[h // 2 - 20:h // 2 + 20, w // 2 - 40:w // 2 + 40]
    assert float(centre[..., 0].mean()) < 0.4 * float(np.median(evened[paper, 0]))
    # the level is that of the paper in the open light
    assert np.abs(np.median(evened[paper & ~inside], axis=0) - np.median(plain[paper], axis=0)).max() < 12


def test_even_light_refuses_what_is_no_crop():
    with pytest.raises(ValueError):
        even_light(np.zeros((3, 3, 3), np.uint8))
    with pytest.raises(ValueError):
        even_light(np.zeros((40, 30), np.uint8))


def test_shadowed_cards_read_right_when_evened(cards, deck):
    # Cause: a shadow's edge across an open or hatched card makes its paper read as ink. As found, many of these
    # cards read as another fill (some surely); the evened look reads them, never surely wrong.
    cw, ch = crop_size(CardsConfig(), deck.aspect)
    tints = [(0.6, 0.6, 0.8), (0.8, 0.6, 0.55), (0.75, 0.7, 0.6)]   # a cool, a warm and a grey-brown shadow
    ids = list(cards)
    crops = [cv2.resize(shadowed(cards[cid], t), (cw, ch), interpolation=cv2.INTER_AREA) for t in tints for cid in ids]
    truth = [cid for _ in tints for cid in ids]
    plain = deck.score_many(crops)
    plain_right = sum(s[0] == t for s, t in zip(plain, truth, strict=True))
    weak = [True] * len(crops)
    scores, evened = evened_scores(deck, crops, plain, weak, mirrored=False)
    right = Counter(s[0] == t for s, t in zip(scores, truth, strict=True))
    assert plain_right <= len(crops) - 12, plain_right       # the cause: about a third misread as found
    assert right[True] >= len(crops) - 5, (plain_right, right)   # evened: all but a few read right
    assert sum(evened) >= 10
    # every change is a better match by the rule's gain
    cfg = LightConfig()
    for s0, s1, ev in zip(plain, scores, evened, strict=True):
        if ev:
            assert s1[1] < s0[1] - cfg.min_gain


def banded(im: np.ndarray, tint: tuple[float, float, float], width: float = 0.25) -> np.ndarray:
    """``im`` with a band of ``tint`` (per-channel BGR gain) ``width`` of the card wide slanted across its middle,
    its edges soft over 3 % of the width (the shade of an arm or a lamp's arm, a cool light through a gap)."""
    h, w = im.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    d = (xx / w - 0.5) + 0.4 * (yy / h - 0.5)
    a = np.clip((width / 2 - np.abs(d)) / 0.03 + 0.5, 0.0, 1.0)[..., None]
    return np.clip(im.astype(np.float32) * (1 - a * (1 - np.array(tint, np.float32))), 0, 255).astype(np.uint8)


def test_a_narrow_band_of_shade_is_evened_by_the_fine_look(cards, deck):
    # Cause: a band of shade or tinted light narrower than the coarse look's disc (a fifth of the card) is filled in
    # by its closing and blurred away with the paper around it, so that look keeps the band as ink; the fine look
    # (a disc of 0.07 of the card: wider than the print's strokes and hatching, narrower than the band) divides it
    # out. The deck decides between the looks: a solid shape that the fine look flattens reads best coarsely.
    cw, ch = crop_size(CardsConfig(), deck.aspect)
    tints = [(0.8, 0.65, 0.55), (0.65, 0.65, 0.8), (0.75, 0.7, 0.65)]   # warm, cool and grey-brown shade
    crops = [cv2.resize(banded(cards[cid], t), (cw, ch), interpolation=cv2.INTER_AREA) for t in tints for cid in cards]
    truth = [cid for _ in tints for cid in cards]
    plain = deck.score_many(crops)
    weak = [True] * len(crops)

    def right(scores):
        return sum(s[0] == t for s, t in zip(scores, truth, strict=True))

    coarse, _ = evened_scores(deck, crops, plain, weak, mirrored=False, config=LightConfig(fine_radius=0.0))
    both, evened = evened_scores(deck, crops, plain, weak, mirrored=False)
    assert right(plain) <= len(crops) * 2 // 3, right(plain)           # the cause: many read as another card
    assert right(coarse) <= right(plain) + 3, (right(plain), right(coarse))   # the coarse look alone: no help
    assert right(both) >= len(crops) - 8, (right(plain), right(both))
    for s0, s1, ev in zip(plain, both, evened, strict=True):
        if ev:
            assert s1[1] < s0[1] - LightConfig().min_gain


def _table(cards_in: list[np.ndarray]) -> np.ndarray:
    """uint8 BGR frame: the cards (upright, 150 px wide) on a dark cloth, in one row."""
    rng = np.random.default_rng(3)
    frame = np.clip(rng.normal(35, 4, (420, 200 * len(cards_in) + 60, 3)), 0, 255).astype(np.uint8)
    for k, im in enumerate(cards_in):
        c = cv2.resize(im, (150, 233), interpolation=cv2.INTER_AREA)
        frame[90:90 + 233, 60 + 200 * k:60 + 200 * k + 150] = c
    return frame


def test_a_card_half_in_a_shadow_reads_right_and_unsure(cards, deck):
    # A hand's shadow over the top of an open card among cards in the open light: as found, it reads as the hatched
    # card; read, it is the open card, with a confidence that says it was a guess (below a sure read's 0.9).
    names = ["2-green-solid", "1-red-open", "2-purple-hatched", "1-green-open"]
    ims = [cards[n] for n in names]
    ims[1] = shadowed(ims[1], (0.75, 0.7, 0.6))
    cw, ch = crop_size(CardsConfig(), deck.aspect)
    assert deck.score(cv2.resize(ims[1], (cw, ch), interpolation=cv2.INTER_AREA))[0] == "1-red-hatched"   # the cause
    r = read_cards(_table(ims), deck)
    assert [c.id for c in r.cards] == names
    assert r.cards[1].confidence <= LightConfig().max_confidence
    assert all(c.confidence >= 0.5 for k, c in enumerate(r.cards) if k != 1)   # the others as they read before


@pytest.mark.shared
@pytest.mark.slow
def test_real_phone_board_with_a_shadow():
    # A real phone photo: the phone's shadow lies across the top of an open red squiggle (read as the hatched one
    # before); every card of the board is identified (its labels are a multiset: the order is not the pixels').
    if not SET_DIR.is_dir():
        pytest.skip(f"SET photos not found at {SET_DIR} (set TABLETOP_SHARED)")
    set_deck = build_deck(SET_DIR / "card_crops_labelled_sample")
    path = SET_DIR / "boards" / "phone_20170106_205743.jpg"
    labels = Counter(_set_id(line) for line in path.with_suffix(".txt").read_text().splitlines() if line.strip())
    r = read_cards(cv2.imread(str(path)), set_deck, config=CardsConfig(mirror="on"))
    assert Counter(c.id for c in r.cards) == labels
    assert len(r.cards) == 15


@pytest.mark.shared
@pytest.mark.slow
def test_real_webcam_board_in_blue_and_warm_light():
    # A real webcam photo lit warm from one side, its right-hand cards in a bluish shade with a warm band across: the
    # open purple squiggles' paper read as yellow and blue ink ('not in the deck'); every card is identified, in
    # row-major order.
    if not SET_DIR.is_dir():
        pytest.skip(f"SET photos not found at {SET_DIR} (set TABLETOP_SHARED)")
    set_deck = build_deck(SET_DIR / "card_crops_labelled_sample")
    path = SET_DIR / "boards" / "webcam_20170529_203823.png"
    labels = [_set_id(line) for line in path.with_suffix(".txt").read_text().splitlines() if line.strip()]
    r = read_cards(cv2.imread(str(path)), set_deck, config=CardsConfig(mirror="on"))
    assert [c.id for c in r.cards] == labels


def _set_id(line: str) -> str:
    n, colour, shading, shape = line.split()[:4]
    shading = {"hatched": "striped", "open": "empty", "filled": "solid"}.get(shading, shading)
    return f"{n}-{colour}-{shading}-{shape.rstrip('s')}{'s' if int(n) > 1 else ''}"


def test_a_second_look_place_gets_no_evened_look(cards, deck):
    # A place of the detector's second look is mostly a patterned table's: the same shadowed card read as such a place
    # keeps its reading as found; as a card of the first look it is read through its evened look.
    from vision.cards import identify_and_refine
    from vision.quads import rectify

    frame = _table([shadowed(cards["1-red-open"], (0.75, 0.7, 0.6))])
    quad = np.array([[60, 90], [209, 90], [209, 322], [60, 322]], np.float64)
    cw, ch = crop_size(CardsConfig(), deck.aspect)
    crop = rectify(frame, quad, cw, ch)
    first, _, _ = identify_and_refine(deck, frame, [quad], [crop], "off", None, [False])
    place, _, _ = identify_and_refine(deck, frame, [quad], [crop], "off", None, [True])
    assert first[0][0].card_id == "1-red-open" and first[0][0].confidence <= LightConfig().max_confidence
    assert place[0][0].card_id != "1-red-open"
