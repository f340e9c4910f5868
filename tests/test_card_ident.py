"""Card identification (issue 5): the second look at weak cards (outlines from the image's edges, kept only
when the deck matches them better), light flattening, the ink amplitude term, and old profiles."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from vision.card_features import (
    IdConfig,
    channel_percentile,
    crop_features,
    crop_features_many,
    flatten_light,
    ink_amplitude,
    reusing_features,
    turn_crop,
)
from vision.card_match import RefineConfig, SearchView, candidate_quads, edge_profiles, refine_identifications
from vision.cards import CardsConfig, read_cards
from vision.deck import DeckProfile
from vision.deck_enroll import deck_from_crops
from vision.deck_file import DeckVersionError
from vision.quads import order_quad, rectify


def card_on_table(corners: np.ndarray, size=(400, 300)) -> np.ndarray:
    """A light grey card (``corners``, float[4, 2]) on a dark table, lightly blurred."""
    img = np.full((size[1], size[0], 3), 30, np.uint8)
    cv2.fillPoly(img, [np.round(corners * 16).astype(np.int32)], (220, 220, 220), cv2.LINE_AA, shift=4)
    return cv2.GaussianBlur(img, (0, 0), 0.8)


def test_edge_profile_peaks_on_the_card_side():
    # an upright 100 x 150 card at x 100..200, y 50..200; the quad's right side drawn 6 px too far out
    true = np.array([[100, 50], [200, 50], [200, 200], [100, 200]], float)
    img = card_on_table(true)
    quad = true + np.array([[0, 0], [6, 0], [6, 0], [0, 0]], float)
    offs, angles, P = edge_profiles(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(np.float32), quad)
    a0 = int(np.argmin(np.abs(angles)))
    # pixels 100..200 are card: the edges lie at x = 99.5 and 200.5, so (offsets are outward) side 1
    # (right, drawn at 206) peaks 5.5 px inwards and side 3 (left, drawn at 100) 0.5 px outwards
    assert offs[int(np.argmax(P[1, a0]))] == pytest.approx(-5.5, abs=0.7)
    assert offs[int(np.argmax(P[3, a0]))] == pytest.approx(0.5, abs=0.7)


def test_candidate_outline_recovers_a_skewed_card():
    # a card seen at an angle is a parallelogram; the minimum-area rectangle around it is too big and the
    # crop shows the table in two corners. One candidate has the card's own corners within a pixel.
    true = order_quad(cv2.boxPoints(((178.0, 145.0), (100.0, 155.0), 5.0))) + np.array([[0, 0], [0, 0], [6, 0], [0, 0]])
    img = card_on_table(true)
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(np.float32)
    rect = order_quad(cv2.boxPoints(cv2.minAreaRect(true.astype(np.float32))))
    assert np.abs(rect - true).max() > 4.0
    cands = candidate_quads(gray, rect)
    assert cands
    err = min(float(np.abs(order_quad(c) - true).max()) for c in cands)
    assert err < 1.5, err


def test_candidates_with_a_known_size_skip_the_inner_panel():
    # a card with a frame the table's colour: the blob is the inner panel (60 x 90 inside the 80 x 110
    # card, 10 px frame); the dark die-cut rim is the outline. With the card size known (80 x 110 px), a
    # candidate is the whole card.
    img = np.full((300, 300, 3), (40, 70, 110), np.uint8)
    card = np.array([[100, 80], [180, 80], [180, 190], [100, 190]], float)
    cv2.rectangle(img, (100, 80), (179, 189), (20, 20, 20), -1)            # rim
    cv2.rectangle(img, (102, 82), (177, 187), (40, 70, 110), -1)           # frame: the table's colour
    cv2.rectangle(img, (110, 90), (169, 179), (230, 230, 230), -1)         # inner panel
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(np.float32)
    inner = np.array([[110, 90], [170, 90], [170, 180], [110, 180]], float)
    cands = candidate_quads(gray, inner, card_px=(80.0, 110.0), cfg=RefineConfig(search_frac=0.25, max_outlines=16))
    assert cands
    err = min(float(np.abs(c - card).max()) for c in cands)
    assert err < 2.0, err


def test_flatten_light_removes_a_gradient_and_keeps_the_level():
    # paper of colour (200, 180, 160) lit 30 % brighter on the right and 20 % on the bottom (log-planar)
    h, w = 150, 96
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    light = np.exp(np.log(1.3) * ((xx + 0.5) / w - 0.5) + np.log(1.2) * ((yy + 0.5) / h - 0.5))
    crop = np.clip(np.array([200, 180, 160], np.float32)[None, None, :] * light[..., None], 0, 255).astype(np.uint8)
    cv2.putText(crop, "7", (30, 100), cv2.FONT_HERSHEY_SIMPLEX, 2.0, (20, 20, 20), 5)   # artwork is ignored
    flat = flatten_light(crop)
    paper = np.ones((h, w), bool)
    paper[40:110, 25:75] = False
    for c, level in enumerate((200, 180, 160)):
        v = flat[..., c][paper]
        assert v.std() / v.mean() < 0.02
        assert v.mean() == pytest.approx(level, rel=0.03)


def test_ink_amplitude_tells_solid_from_hatched():
    # the same outline, filled solid or hatched: the correlation of blurred maps cannot tell them apart
    # well, the ink amplitude can (mean chroma of the solid fill is well above the hatched one)
    def card(fill: str) -> np.ndarray:
        im = np.full((150, 96, 3), 235, np.uint8)
        pts = np.array([[48, 40], [80, 75], [48, 110], [16, 75]], np.int32)
        if fill == "solid":
            cv2.fillPoly(im, [pts], (40, 140, 30))
        else:
            m = np.zeros(im.shape[:2], np.uint8)
            cv2.fillPoly(m, [pts], 255)
            im[(m > 0) & (np.arange(96)[None, :] % 4 == 0)] = (40, 140, 30)
        cv2.polylines(im, [pts], True, (40, 140, 30), 2)
        return im
    blank = np.full((150, 96, 3), 235, np.uint8)
    a0, a_solid, a_hatch = ink_amplitude(blank), ink_amplitude(card("solid")), ink_amplitude(card("hatched"))
    assert a0[0] < 0.01 and a0[1] < 0.01
    assert a_solid[1] > 2.0 * a_hatch[1] and a_solid[0] > 2.0 * a_hatch[0]
    deck = deck_from_crops({"solid": [card("solid")], "hatched": [card("hatched")]}, "t", 150 / 96, (63.0, 98.0))
    # seen under a light falling off to the right, each is still itself
    fall = np.linspace(1.0, 0.75, 96, dtype=np.float32)[None, :, None]
    for name in ("solid", "hatched"):
        seen = np.clip(card(name).astype(np.float32) * fall, 0, 255).astype(np.uint8)
        assert deck.identify_one(seen).card_id == name


def _as_older_program_wrote_it(path, tmp_path, name: str, version: int, drop_config=(), drop_arrays=()):
    """A copy of the profile ``path`` with the header's version set to ``version`` and the config fields and
    arrays an older program would not have written left out."""
    z = dict(np.load(path))
    meta = json.loads(bytes(z["meta"]).decode())
    meta["version"] = version
    for k in drop_config:
        meta["config"].pop(k)
    z["meta"] = np.frombuffer(json.dumps(meta).encode(), np.uint8)
    for k in drop_arrays:
        z.pop(k)
    out = tmp_path / name
    with open(out, "wb") as f:
        np.savez(f, **z)
    return out


def test_a_card_profile_of_format_1_asks_to_enroll_again(tmp_path):
    # format 1 computed a card's features at the crop's size; format 2 at the structure maps' size: the stored
    # references of a format-1 card deck cannot be compared with today's crops
    crops = {f"c{k}": [np.random.default_rng(k).integers(0, 255, (150, 96, 3), dtype=np.uint8)] for k in range(3)}
    deck = deck_from_crops(crops, "old", 150 / 96, (63.0, 98.0), IdConfig(flatten_light=False, amp_weight=0.0))
    legacy = _as_older_program_wrote_it(deck.save(tmp_path / "old.npz"), tmp_path, "legacy.npz", 1,
                                        ("flatten_light", "light_cells", "amp_weight", "amp_floor", "amp_margin_frac"),
                                        ("amp",))
    with pytest.raises(DeckVersionError) as e:
        DeckProfile.load(legacy)
    assert e.value.path == legacy and e.value.version == 1
    assert str(legacy) in str(e.value) and "companion enroll cards" in str(e.value) and "\n" not in str(e.value)
    # a profile saved now reads back as it was, amplitudes and all
    back = DeckProfile.load(deck_from_crops(crops, "new", 150 / 96, (63.0, 98.0)).save(tmp_path / "new.npz"))
    assert back.amp is not None and back.config == IdConfig()


def test_a_hex_profile_of_format_1_reads_as_before(tmp_path):
    # hex features did not change in format 2: a hex deck saved before it (and before the light flattening and
    # amplitude fields) reads with the old behaviour and gives the same distances
    rng = np.random.default_rng(5)
    crops = {f"h{k}": [rng.integers(0, 255, (96, 96, 3), dtype=np.uint8)] for k in range(3)}
    cfg = IdConfig(struct_size=(48, 48), struct_shift=4, flatten_light=False, amp_weight=0.0)
    deck = deck_from_crops(crops, "hexes", 1.0, (100.0, 115.0), cfg, shape="hex")
    legacy = _as_older_program_wrote_it(deck.save(tmp_path / "hex.npz"), tmp_path, "legacy.npz", 1,
                                        ("flatten_light", "light_cells", "amp_weight", "amp_floor", "amp_margin_frac"))
    again = DeckProfile.load(legacy)
    assert again.shape == "hex" and again.config.flatten_light is False and again.config.amp_weight == 0.0
    q = crops["h1"][0]
    assert again.identify_one(q).distance == pytest.approx(deck.identify_one(q).distance, abs=1e-5)


def test_a_badly_fitted_card_is_read_after_the_second_look():
    # two cards with different artwork, enrolled as tight scans; the frame shows card "b" but its quad is
    # the minimum-area rectangle around the parallelogram it looks like (table in two corners)
    rng = np.random.default_rng(3)
    arts = {}
    for name in ("a", "b"):
        im = np.full((150, 96, 3), 230, np.uint8)
        for _ in range(6):
            col = tuple(int(v) for v in rng.integers(0, 200, 3))
            cv2.circle(im, (int(rng.integers(10, 86)), int(rng.integers(10, 140))), int(rng.integers(6, 20)), col, -1)
        arts[name] = im
    deck = deck_from_crops({k: [v] for k, v in arts.items()}, "t", 150 / 96, (63.0, 98.0))
    frame = np.full((300, 400, 3), 30, np.uint8)
    # a card turned 5 degrees, its right side 5 px further away at the bottom (a little perspective)
    true = order_quad(cv2.boxPoints(((178.0, 145.0), (100.0, 155.0), 5.0))) + np.array([[0, 0], [0, 0], [5, 0], [0, 0]])
    M = cv2.getPerspectiveTransform(np.array([[0, 0], [95, 0], [95, 149], [0, 149]], np.float32),
                                    true.astype(np.float32))
    cv2.warpPerspective(arts["b"], M, (400, 300), dst=frame, borderMode=cv2.BORDER_TRANSPARENT)
    frame = cv2.GaussianBlur(frame, (0, 0), 0.7)
    rect = order_quad(cv2.boxPoints(cv2.minAreaRect(true.astype(np.float32))))
    crop = rectify(frame, rect, 96, 150)
    first = deck.score(crop)
    scores, quads, crops = refine_identifications(deck, frame, [rect], [crop], [first], False,
                                                  RefineConfig(weak_conf=1.01, weak_distance=0.0))
    assert scores[0][0] == "b" and scores[0][1] < first[1] - RefineConfig().min_gain
    assert np.abs(order_quad(quads[0]) - true).max() < 2.0
    # the full read finds and identifies it as well
    r = read_cards(frame, deck, config=CardsConfig(anchor_id=None))
    assert [c.id for c in r.cards] == ["b"]


def _two_card_deck(seed: int = 3) -> tuple[DeckProfile, dict[str, np.ndarray]]:
    """Two 96 x 150 cards of different artwork (light ground, a few large coloured discs, as a card's picture),
    enrolled as tight scans."""
    rng = np.random.default_rng(seed)
    arts = {}
    for name in ("a", "b"):
        im = np.full((150, 96, 3), 230, np.uint8)
        for _ in range(4):
            col = tuple(int(v) for v in rng.integers(0, 200, 3))
            cv2.circle(im, (int(rng.integers(20, 76)), int(rng.integers(20, 130))), int(rng.integers(15, 30)), col, -1)
        arts[name] = im
    return deck_from_crops({k: [v] for k, v in arts.items()}, "t", 150 / 96, (63.0, 98.0)), arts


def _card_b_on_its_ground(blur: bool = True) -> tuple[DeckProfile, np.ndarray, np.ndarray]:
    """Card "b" of :func:`_two_card_deck` (96 x 150 px, its size known as on a top-down table image) lying upright at
    x 150..245, y 120..269 on a 420 x 420 table of its own light ground: no outline, only its discs; lightly blurred
    unless ``blur`` is False. Returns (the deck, the frame uint8[420, 420, 3] BGR, the card's corners float[4, 2])."""
    deck, arts = _two_card_deck()
    frame = np.full((420, 420, 3), 230, np.uint8)
    frame[120:270, 150:246] = arts["b"]
    if blur:
        frame = cv2.GaussianBlur(frame, (0, 0), 0.7)
    return deck, frame, np.array([[150, 120], [245, 120], [245, 269], [150, 269]], float)


def test_a_place_a_third_of_a_card_off_is_moved_onto_the_card_the_deck_sees():
    # card "b" (96 x 150 px, its size known as on a top-down table image) lies upright at x 150..245, y 120..269
    # on a table of its own light ground: no outline, only its discs. The place proposed is 0.35 of its short side
    # right and 0.3 of its long side lower: the crop holds under half of the card, the straight edges near the
    # place are the discs', and the deck itself has to say where the card is
    deck, frame, true = _card_b_on_its_ground()
    place = true + np.array([0.35 * 96, 0.3 * 150])
    crop = rectify(frame, place, 96, 150)
    first = deck.score(crop)
    view = SearchView(frame, [place], lambda q: q, (96.0, 150.0))
    weak = RefineConfig(weak_conf=1.01, weak_distance=0.0)
    scores, quads, _ = refine_identifications(deck, frame, [place], [crop], [first], False, weak, view=view)
    assert scores[0][0] == "b" and deck.decide(scores[0]).card_id == "b"
    assert np.abs(order_quad(quads[0]) - true).max() < 6.0
    # the outlines from the edges alone do not find it (the search by the deck is what does)
    view = SearchView(frame, [place], lambda q: q, (96.0, 150.0))
    scores, quads, _ = refine_identifications(deck, frame, [place], [crop], [first], False,
                                              RefineConfig(weak_conf=1.01, weak_distance=0.0, shift_reach=0.0),
                                              view=view)
    assert np.abs(order_quad(quads[0]) - true).max() > 20.0


def test_a_place_on_a_card_read_surely_is_not_searched_again(monkeypatch):
    # card "b" is read surely from its true outline, and a weak place lies on it (0.3 of its short side off): the
    # search by the deck is for cards not yet read, so it is not run for the place; alone, the place is searched
    import vision.card_match as card_match

    deck, frame, true = _card_b_on_its_ground(blur=False)
    place = true + np.array([0.3 * 96, 0.0])
    searched = []
    real = card_match.placed_by_deck
    monkeypatch.setattr(card_match, "placed_by_deck", lambda *a, **k: searched.append(a[3]) or real(*a, **k))
    cfg = RefineConfig(weak_distance=0.0)
    for quads in ([true, place], [place]):
        crops = [rectify(frame, q, 96, 150) for q in quads]
        scores = deck.score_many(crops)
        first = deck.decide(scores[0])
        assert (first.card_id == "b" and first.confidence >= cfg.weak_conf) == (len(quads) == 2)
        view = SearchView(frame, quads, lambda q: q, (96.0, 150.0))
        searched.clear()
        refine_identifications(deck, frame, quads, crops, scores, False, cfg, view=view)
        assert len(searched) == (0 if len(quads) == 2 else 1)


def test_a_second_look_place_on_a_card_read_surely_gets_no_second_look(monkeypatch):
    # card "b" is read confidently from its true outline (by either look of the detector); a weak place of the second
    # look lies on it (0.3 of its short side off): that is card "b" seen again, which the reader reports in its
    # stead, so no outline is searched for it. The same place from the first look, or alone, is still looked at
    import vision.card_match as card_match

    deck, frame, true = _card_b_on_its_ground(blur=False)
    place = true + np.array([0.3 * 96, 0.0])
    looked = []
    real = card_match.candidate_quads
    monkeypatch.setattr(card_match, "candidate_quads", lambda *a, **k: looked.append(a[1]) or real(*a, **k))
    cfg = RefineConfig(weak_distance=0.0)
    for quads, loose, looks in (([true, place], [False, True], 0), ([true, place], [True, True], 0),
                                ([true, place], [False, False], 1), ([place], [True], 1)):
        crops = [rectify(frame, q, 96, 150) for q in quads]
        scores = deck.score_many(crops)
        first = deck.decide_frame(scores)
        assert first[-1].confidence < cfg.weak_conf or first[-1].card_id is None    # the place reads weakly
        looked.clear()
        out, _, _ = refine_identifications(deck, frame, quads, crops, scores, False, cfg,
                                           view=SearchView(frame, quads, lambda q: q, (96.0, 150.0)), loose=loose)
        assert len(looked) == looks
        if looks == 0:
            assert out == scores                                                    # its first reading stays


def test_a_card_a_few_pixels_off_is_centred_on_its_content_without_searching_edges(monkeypatch):
    # card "b" (96 x 150 px) and a place 11 px below it: the crop misses the card's top and reads it weakly (sure only
    # from confidence 0.99 here). One move by the matched shift reaches struct_shift = 3 cells of the 54 x 78 maps,
    # (96 - 2 x 4) / 54 x 3 = 4.9 px of this crop: two moves bring the place onto the card, which then reads surely,
    # so no outline is searched from the edges; without centring first the edges are searched
    import vision.card_match as card_match

    deck, frame, true = _card_b_on_its_ground()
    place = true + np.array([0.0, 11.0])
    crop = rectify(frame, place, 96, 150)
    first = deck.score(crop)
    looked = []
    real = card_match.candidate_quads
    monkeypatch.setattr(card_match, "candidate_quads", lambda *a, **k: looked.append(a[1]) or real(*a, **k))
    cfg = RefineConfig(weak_conf=0.99)
    assert cfg.centre_steps == 2 and deck.config.struct_shift == 3
    assert first[0] == "b" and deck.decide(first).confidence < cfg.weak_conf
    for steps, searched in ((2, 0), (0, 1)):
        looked.clear()
        scores, quads, _ = refine_identifications(deck, frame, [place], [crop], [first], False,
                                                  RefineConfig(weak_conf=0.99, centre_steps=steps),
                                                  view=SearchView(frame, [place], lambda q: q, (96.0, 150.0)))
        assert len(looked) == searched
        assert scores[0][0] == "b" and deck.decide(scores[0]).confidence >= cfg.weak_conf
        assert np.abs(order_quad(quads[0]) - true).max() < 1.0


def test_a_quad_that_lost_part_of_its_card_is_read_from_the_card_sized_place_without_searching_edges(monkeypatch):
    # card "b" (96 x 150 px, its size known) and the quad of a blob that lost a wedge of the card's top (the top side
    # cut slanted from 40 px down the left side to the top-right corner) and 3 px of border elsewhere: 0.94 x 0.86 of
    # the card, reading it weakly (confidence 0.33; sure only from 0.99 here, as above). Centring moves a quad without
    # resizing it; the card-sized place about the quad, centred on the card's content, reads it surely, so no outline
    # is searched from the edges. With ``resize_tol`` None the quad is centred as it is, and the edges are searched
    import vision.card_match as card_match

    deck, frame, true = _card_b_on_its_ground()
    place = np.array([[153.0, 160.0], [242.0, 123.0], [242.0, 266.0], [153.0, 266.0]])
    crop = rectify(frame, place, 96, 150)
    first = deck.score(crop)
    looked = []
    real = card_match.candidate_quads
    monkeypatch.setattr(card_match, "candidate_quads", lambda *a, **k: looked.append(a[1]) or real(*a, **k))
    cfg = RefineConfig(weak_conf=0.99)
    assert first[0] == "b" and deck.decide(first).confidence < 0.5 and cfg.resize_tol == 0.05
    for tol, searched in ((0.05, 0), (None, 1)):
        looked.clear()
        scores, quads, _ = refine_identifications(deck, frame, [place], [crop], [first], False,
                                                  RefineConfig(weak_conf=0.99, resize_tol=tol),
                                                  view=SearchView(frame, [place], lambda q: q, (96.0, 150.0)))
        assert len(looked) == searched
        if tol is not None:
            assert scores[0][0] == "b" and deck.decide(scores[0]).confidence >= 0.99
            assert np.abs(order_quad(quads[0]) - true).max() < 1.5


def test_the_shifted_correlation_peaks_where_the_reference_was_cut():
    # the reference is the maps' window at shift (dy, dx) = (1, 5) of s = 3, normalised: its correlation there is 1
    # (every channel's NCC is 1, the weights sum to 1), as the shifted maps' product with it says at every shift
    from vision.card_features import normalise_maps, shifted_maps, shifted_ncc

    rng = np.random.default_rng(5)
    s, H, W = 3, 12, 8
    big = cv2.GaussianBlur(rng.random((H + 2 * s, W + 2 * s, 4)).astype(np.float32), (0, 0), 1.0).transpose(2, 0, 1)
    big = np.ascontiguousarray(big)
    refs = np.stack([normalise_maps(big[:, 1:1 + H, 5:5 + W]), normalise_maps(big[:, 3:3 + H, 3:3 + W])])
    w = np.array([0.4, 0.3, 0.2, 0.1], np.float32)
    ncc = shifted_ncc(big, s, refs, w)
    assert ncc.shape == (49, 2)
    assert int(np.argmax(ncc[:, 0])) == 1 * 7 + 5 and ncc[1 * 7 + 5, 0] == pytest.approx(1.0, abs=1e-6)
    assert int(np.argmax(ncc[:, 1])) == 3 * 7 + 3
    q = shifted_maps(big, s)
    np.testing.assert_allclose(ncc, (q * w[None, :, None]).reshape(49, -1) @ refs.reshape(2, -1).T, atol=1e-5)


def test_the_frames_level_for_not_in_the_deck_is_the_outlines_as_found():
    # four cards of a frame: the first at distance 0.6; the others were 0.9 as found (a dim frame) and a second
    # look brought them to 0.2. 'Not in the deck' is judged against the frame's level: the median of the others
    # as found (0.9 + unknown_relative), not as searched (0.2 + unknown_relative would drop the first card)
    deck, _ = _two_card_deck()
    cfg = deck.config
    assert 0.2 + cfg.unknown_relative < 0.6 < min(0.9 + cfg.unknown_relative, cfg.unknown_distance_max)
    scores = [("a", 0.6, 1.2, 0), ("b", 0.2, 1.0, 0), ("b", 0.2, 1.0, 0), ("a", 0.2, 1.0, 0)]
    assert deck.decide_frame(scores)[0].card_id is None
    assert deck.decide_frame(scores, level=[0.6, 0.9, 0.9, 0.9])[0].card_id == "a"


def test_features_reused_within_a_read_are_the_numbers_computed_afresh(monkeypatch):
    # the weak place of the search by the deck (above), read with and without the store of reusing_features: the
    # same scores, quads and crops to the last bit, and the store computes each distinct crop once
    import vision.card_features as card_features

    deck, frame, true = _card_b_on_its_ground()
    place = true + np.array([0.35 * 96, 0.3 * 150])
    crop = rectify(frame, place, 96, 150)
    weak = RefineConfig(weak_conf=1.01, weak_distance=0.0)
    computed: list[bytes] = []
    real = card_features._features_one_size
    monkeypatch.setattr(card_features, "_features_one_size",
                        lambda cs, *a: computed.extend(c.tobytes() for c in cs) or real(cs, *a))

    def read():
        view = SearchView(frame, [place], lambda q: q, (96.0, 150.0))
        return refine_identifications(deck, frame, [place], [crop], [deck.score(crop)], False, weak, view=view)

    afresh = read()
    fresh_calls = len(computed)
    computed.clear()
    with reusing_features():
        stored = read()
        again = card_features.crop_features(crop, deck.config, "card")
    assert len(computed) == len(set(computed)) < fresh_calls
    for a, b in zip(afresh, stored, strict=True):
        assert len(a) == len(b)
        for x, y in zip(a, b, strict=True):
            assert (x == y) if isinstance(x, tuple) else np.array_equal(x, y)
    assert all(not a.flags.writeable for a in again if a is not None)
    assert all(np.array_equal(x, y) for x, y in zip(again, real([crop], deck.config, "card")[0], strict=True))
    # outside the block nothing is kept
    computed.clear()
    card_features.crop_features(crop, deck.config, "card")
    assert len(computed) == 1


@pytest.mark.parametrize("shape", ["card", "hex"])
@pytest.mark.parametrize("cfg", [IdConfig(), IdConfig(flatten_light=False, hue_smooth=0.0, margin_frac=0.0)])
def test_features_of_many_crops_at_once_are_each_crops_own_to_the_last_bit(shape, cfg):
    # crops of three sizes (one a tile turned a quarter), some blank, some noisy, some of one colour: computed
    # together, each crop's maps, histogram and amplitude are the bits it gets alone
    rng = np.random.default_rng(5)
    crops = []
    for k in range(9):
        h, w = [(96, 96), (134, 96), (80, 120)][k % 3]
        im = cv2.GaussianBlur(rng.integers(0, 256, (h, w, 3), dtype=np.uint8), (0, 0), 1 + k % 4)
        cv2.circle(im, (w // 3, h // 2), 12 + k, tuple(int(v) for v in rng.integers(0, 256, 3)), -1)
        crops.append(im * np.linspace(0.6, 1.0, w, dtype=np.float32)[None, :, None].astype(np.uint8)
                     if k == 4 else im)
    crops += [np.full((96, 96, 3), 200, np.uint8), np.zeros((134, 96, 3), np.uint8), turn_crop(crops[0], 1)]
    together = crop_features_many(crops, cfg, shape)
    assert len(together) == len(crops)
    for crop, got in zip(crops, together, strict=True):
        alone = crop_features(crop, cfg, shape)
        for a, b in zip(alone, got, strict=True):
            assert (a is None and b is None) or (a.dtype == b.dtype and np.array_equal(a, b))


@pytest.mark.parametrize("shape, q", [((96, 96), 85.0), ((7, 5), 85.0), ((1, 1), 85.0), ((10, 10), 0.0),
                                      ((10, 10), 100.0), ((33, 17), 50.0)])
def test_the_papers_percentile_is_numpys_linear_percentile_per_channel(shape, q):
    # the white balance's paper level: numpy's percentile (linear between the two nearest ranks) of each channel,
    # on images with many equal values (8-bit levels) and on a single pixel
    rng = np.random.default_rng(shape[0] * shape[1])
    img = rng.integers(0, 256, (*shape, 3)).astype(np.float32) * np.float32(0.75)
    want = np.percentile(img.reshape(-1, 3).astype(np.float64), q, axis=0)
    np.testing.assert_allclose(channel_percentile(img, q), want, rtol=1e-6)


def test_the_papers_percentile_of_a_small_image_worked_by_hand():
    # 20 pixels, the 85th percentile at rank 0.85 x 19 = 16.15: blue 0..19 -> 16 + 0.15 x (17 - 16) = 16.15; green all
    # 7 -> 7; red ten 1s then ten 3s -> ranks 16 and 17 are both 3 -> 3
    img = np.zeros((4, 5, 3), np.float32)
    img[..., 0] = np.arange(20).reshape(4, 5)
    img[..., 1] = 7
    img[..., 2] = np.repeat([1.0, 3.0], 10).reshape(4, 5)
    np.testing.assert_allclose(channel_percentile(img, 85.0), [16.15, 7.0, 3.0], rtol=1e-6)


def test_the_ink_hue_histogram_of_a_crop_is_its_pixels_binned_one_by_one():
    # the histogram of crops computed together, against the ink pixels of one crop binned one by one as the
    # feature is defined: hue = (atan2(b, a) + pi) / 2 pi x bins, split between the two nearest bins, weighted by
    # the chroma, smoothed circularly and summed to 1
    rng = np.random.default_rng(8)
    crops = [cv2.GaussianBlur(rng.integers(0, 256, (96, 96, 3), dtype=np.uint8), (0, 0), 2) for _ in range(3)]
    cfg = IdConfig(flatten_light=False, margin_frac=0.0)
    got = crop_features_many(crops, cfg, "card")[1][1]
    sw, sh = cfg.struct_size
    core = cv2.resize(crops[1], (sw + 2 * cfg.struct_shift, sh + 2 * cfg.struct_shift), interpolation=cv2.INTER_AREA)
    f = core.astype(np.float32)
    f /= np.maximum(np.percentile(f.reshape(-1, 3), cfg.paper_percentile, axis=0).astype(np.float32), 8.0)
    wb8 = (np.clip(f, 0.0, 1.2) * (255.0 / 1.2)).astype(np.uint8)
    lab = cv2.cvtColor(wb8, cv2.COLOR_BGR2LAB).reshape(-1, 3).astype(np.float64)
    nb = cfg.hue_bins
    hist = np.zeros(nb)
    for _, a, b in lab:
        a, b = a - 128.0, b - 128.0
        chroma = np.hypot(a, b)
        if chroma > cfg.ink_chroma:
            hue = (np.arctan2(b, a) + np.pi) / (2 * np.pi) * nb
            lo = int(np.floor(hue))
            hist[lo % nb] += chroma * (1 - (hue - lo))
            hist[(lo + 1) % nb] += chroma * (hue - lo)
    r = 3 * int(np.ceil(cfg.hue_smooth))
    ker = np.exp(-0.5 * (np.arange(-r, r + 1) / cfg.hue_smooth) ** 2)
    smooth = np.array([sum(hist[(i - k) % nb] * ker[k + r] for k in range(-r, r + 1)) for i in range(nb)])
    assert hist.sum() > 0
    np.testing.assert_allclose(got, smooth / smooth.sum(), rtol=1e-4, atol=1e-6)


def fitted_light_alone(f: np.ndarray, cells: tuple[int, int], q: float) -> tuple[np.ndarray, np.ndarray]:
    """The light field of one float32 crop [h, w, 3] written out with ``np.linalg.lstsq``: the plane of the cells'
    mean log paper level refitted without the cells darker than it by twice the residual spread (at most 3 fits,
    until the kept cells no longer change), then each channel's plane on the cells kept; (inv_y[h, 3], inv_x[w, 3])."""
    (nx, ny), c = cells, 8
    small = cv2.resize(f, (nx * c, ny * c), interpolation=cv2.INTER_AREA)
    cellpix = small.reshape(ny, c, nx, c, 3).transpose(0, 2, 1, 3, 4).reshape(ny * nx, c * c, 3)
    logv = np.log(np.maximum(np.sort(cellpix, axis=1)[:, int(round(q / 100.0 * (c * c - 1)))].astype(np.float64), 4.0))
    gy, gx = np.meshgrid((np.arange(ny) + 0.5) / ny - 0.5, (np.arange(nx) + 0.5) / nx - 0.5, indexing="ij")
    A = np.stack([np.ones(gx.size), gx.ravel(), gy.ravel()], axis=1)
    keep = np.ones(len(A), bool)
    for _ in range(3):
        fitted = keep
        res = logv.mean(axis=1) - A @ np.linalg.lstsq(A[keep], logv.mean(axis=1)[keep], rcond=None)[0]
        new = res > -2.0 * max(float(res[keep].std()), 0.02)
        if new.sum() < 4 or np.array_equal(new, keep):
            break
        keep = new
    coef = np.linalg.lstsq(A[fitted], logv[fitted], rcond=None)[0]
    h, w = f.shape[:2]
    yy, xx = (np.arange(h) + 0.5) / h - 0.5, (np.arange(w) + 0.5) / w - 0.5
    return np.exp(-yy[:, None] * coef[2][None, :]), np.exp(-xx[:, None] * coef[1][None, :])


def test_the_light_fields_of_many_crops_fitted_together_are_each_crops_own_fit():
    # crops lit from different sides, with dark artwork over some cells (left out of the fit) and one blank: the
    # fields fitted for all crops at once are each crop's fit written out alone (float rounding apart) and, to the
    # last bit, the field of each crop fitted alone
    from vision.card_features import _light_factors
    rng = np.random.default_rng(11)
    crops = []
    for k in range(7):
        yy, xx = np.mgrid[0:78, 0:54].astype(np.float32)
        light = 200 * np.exp(rng.normal(0, 0.3) * (xx / 54 - 0.5) + rng.normal(0, 0.3) * (yy / 78 - 0.5))
        im = np.repeat(light[:, :, None], 3, axis=2) * rng.uniform(0.8, 1.0, 3)[None, None, :]
        for _ in range(k):
            x, y = rng.integers(0, 54), rng.integers(0, 78)
            im[max(0, y - 12):y + 12, max(0, x - 9):x + 9] *= 0.3
        crops.append(im.astype(np.float32))
    crops.append(np.full((78, 54, 3), 180, np.float32))
    inv_y, inv_x = _light_factors(np.stack(crops), (4, 6), 85.0)
    for k, f in enumerate(crops):
        want_y, want_x = fitted_light_alone(f, (4, 6), 85.0)
        np.testing.assert_allclose(inv_y[k], want_y, rtol=1e-5)
        np.testing.assert_allclose(inv_x[k], want_x, rtol=1e-5)
        # a crop alone is fitted in scalar steps: the same numbers to the last bit
        alone_y, alone_x = _light_factors(f[None], (4, 6), 85.0)
        assert np.array_equal(alone_y[0], inv_y[k]) and np.array_equal(alone_x[0], inv_x[k])


def test_a_light_plane_is_recovered_without_the_cells_under_artwork_by_one_crop_and_by_many():
    # the paper's log level on the 4 x 6 cells is the plane 5.2 + 0.3 x - 0.2 y (x, y the cells' centres, -0.5..0.5 of
    # the card; each channel offset by its colour), three cells darkened by artwork (log level 1.5 lower): the fit
    # leaves those three out and gives the plane back; a crop fitted alone (its first fit read from the design's
    # every-cell inverse) gets, to the last bit, what many crops fitted together get
    from vision.card_features import _plane_design, _plane_fit, _plane_fits
    A, outer = _plane_design(4, 6)
    offsets = np.array([5.2, 5.0, 4.9])
    logv = (offsets[None, :] + 0.3 * A[:, 1:2] - 0.2 * A[:, 2:3]).copy()
    art = [3, 10, 17]
    logv[art] -= 1.5
    coef = _plane_fit(logv, A, outer)
    np.testing.assert_allclose(coef, [offsets, [0.3] * 3, [-0.2] * 3], atol=1e-9)
    rng = np.random.default_rng(5)
    many = np.stack([logv] + [np.log(rng.uniform(90, 250, (24, 3))) for _ in range(5)])
    together = _plane_fits(many, A, outer)
    for k, x in enumerate(many):
        assert np.array_equal(_plane_fit(x, A, outer), together[k])


def test_the_shifts_of_many_crops_found_together_are_each_crops_own():
    # card "b" cut at places moved by a few pixels each way and at each quarter turn of the crop: the shifts found
    # for all the crops at once are each crop's found alone, and they point back towards the card
    from vision.card_centre import matched_shift, matched_shifts

    deck, frame, true = _card_b_on_its_ground()
    moves = [np.array([0.0, 5.0]), np.array([-4.0, 0.0]), np.array([3.0, -3.0]), np.array([0.0, 0.0])]
    crops = [rectify(frame, true + v, 96, 150) for v in moves]
    turns = [0, 2, 0, 2]
    together = matched_shifts(deck, crops, ["b"] * 4, turns)
    for crop, t, v, got in zip(crops, turns, moves, together, strict=True):
        np.testing.assert_array_equal(got, matched_shift(deck, crop, "b", t))
        if np.abs(v).max() > 0 and t == 0:
            assert float(np.dot(got, v)) < 0          # the content lies back where the place came from


def test_the_white_balance_of_crops_is_the_light_field_and_paper_division_written_out():
    # crops lit unevenly with coloured paper and dark artwork, alone and together: the 8-bit white-balanced cores
    # are, to the last bit, each crop times its light field, divided by its paper colour (the 85th percentile of
    # each channel, at least 8) and clipped at 1.2, as numpy broadcasts it over the colour channels
    from vision.card_features import IdConfig, _balanced_8bit_many, _light_factors

    cfg = IdConfig()
    rng = np.random.default_rng(23)
    cores = []
    for k in range(5):
        yy, xx = np.mgrid[0:78, 0:54].astype(np.float32)
        light = 190 * np.exp(rng.normal(0, 0.3) * (xx / 54 - 0.5) + rng.normal(0, 0.3) * (yy / 78 - 0.5))
        im = light[:, :, None] * rng.uniform(0.7, 1.0, 3)[None, None, :]
        for _ in range(k + 1):
            x, y = rng.integers(0, 54), rng.integers(0, 78)
            im[max(0, y - 10):y + 10, max(0, x - 8):x + 8] *= rng.uniform(0.1, 0.6, 3)
        cores.append(np.clip(im + rng.normal(0, 3, im.shape), 0, 255).astype(np.uint8))
    cores.append(np.full((78, 54, 3), 4, np.uint8))      # a paper darker than the floor of 8

    def written_out(core: np.ndarray) -> np.ndarray:
        f = core.astype(np.float32)
        inv_y, inv_x = _light_factors(f[None], cfg.light_cells, cfg.paper_percentile)
        f = f * (inv_y[0][:, None, :] * inv_x[0][None, :, :])
        paper = np.percentile(f.reshape(-1, 3), cfg.paper_percentile, axis=0).astype(np.float32)
        f = np.clip(f / np.maximum(paper, np.float32(8.0)), 0.0, 1.2) * np.float32(255.0 / 1.2)
        return f.astype(np.uint8)

    together = _balanced_8bit_many(cores, cfg, "card").reshape(len(cores), 78, 54, 3)
    for core, got in zip(cores, together, strict=True):
        want = written_out(core)
        assert np.array_equal(_balanced_8bit_many([core], cfg, "card"), want)
        assert np.array_equal(got, want)


def test_normalised_maps_are_numpys_mean_and_norm_written_out():
    # each channel of each map minus its mean (np.mean) over its norm (np.linalg.norm, at least 1e-6), to the last
    # bit: float32 maps of a crop and of several crops at once, with a flat channel (the norm's floor) among them
    from vision.card_features import normalise_maps

    rng = np.random.default_rng(5)
    maps = (rng.normal(0, 40, (3, 4, 12, 8)) + 100).astype(np.float32)
    maps[1, 2] = 7.0
    v = maps.reshape(3, 4, -1)
    centred = v - v.mean(axis=-1, keepdims=True)
    want = centred / np.maximum(np.linalg.norm(centred, axis=-1, keepdims=True), 1e-6)
    assert np.array_equal(normalise_maps(maps), want)
    assert np.array_equal(normalise_maps(maps[0]), want[0])
    assert not want[1, 2].any()                         # the flat channel: zero, not NaN


def test_the_ink_amplitudes_are_the_mean_darkness_and_chroma_of_the_trimmed_core():
    # per crop: the mean of max(0, 1 - L x 1.2 / 255) and the mean chroma / 100 (np.mean's float32 numbers) over
    # the core without 2 pixels on every side; a crop lighter than the paper everywhere, with no chroma, is (0, 0)
    from vision.card_features import _amplitudes

    rng = np.random.default_rng(9)
    L = rng.integers(0, 256, (3, 20, 14)).astype(np.float32)
    chroma = rng.uniform(0, 60, (3, 20, 14)).astype(np.float32)
    L[2], chroma[2] = 255.0, 0.0
    got = _amplitudes(L, chroma, 2)
    for k in range(3):
        dark = np.maximum(0.0, 1.0 - L[k, 2:-2, 2:-2] * (1.2 / 255.0))
        assert got[k].dtype == np.float32
        assert got[k].tolist() == [np.float32(dark.mean()), np.float32(float(chroma[k, 2:-2, 2:-2].mean()) / 100.0)]
    assert got[2].tolist() == [0.0, 0.0]
