"""Card identification in one pass per frame (issue 15): scoring a frame's crops together reads the deck's
references once for all of them and gives each card the identity, orientation and distances it gets on its
own, and the identities and orientations a search of every reference at every shift gives."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from vision.card_detect import CardsConfig, crop_size
from vision.card_features import inner_maps, normalise_maps
from vision.deck_enroll import deck_from_crops, enrollment_crop
from vision.synth_table import reference_images

CARD_MM = (63.0, 88.0)          # Race for the Galaxy's cards
IDS = [f"card_{k:02d}" for k in range(24)]


def seen_on_table(scan: np.ndarray, rng: np.random.Generator, turns: int) -> np.ndarray:
    """A scan as the camera sees it: dimmer from one side, a colour cast, a little blur and sensor noise,
    turned ``turns`` half turns."""
    h, w = scan.shape[:2]
    light = np.linspace(rng.uniform(0.7, 0.85), rng.uniform(0.95, 1.05), w, dtype=np.float32)[None, :, None]
    cast = rng.uniform(0.9, 1.1, 3).astype(np.float32)
    img = cv2.GaussianBlur(scan.astype(np.float32), (0, 0), rng.uniform(0.6, 1.4)) * light * cast
    img += rng.normal(0.0, 4.0, img.shape).astype(np.float32)
    img = np.clip(img, 0, 255).astype(np.uint8)
    return cv2.rotate(img, cv2.ROTATE_180) if turns % 2 else img


@pytest.fixture(scope="module")
def deck_and_crops():
    refs = reference_images(IDS, CARD_MM, seed=3)
    cw, ch = crop_size(CardsConfig(), CARD_MM[1] / CARD_MM[0])
    crops = {cid: [cv2.resize(im, (cw, ch), interpolation=cv2.INTER_AREA) for im in ims] for cid, ims in refs.items()}
    deck = deck_from_crops(crops, "race", CARD_MM[1] / CARD_MM[0], CARD_MM)
    rng = np.random.default_rng(11)
    queries, truth = [], []
    for k, cid in enumerate(IDS[:16]):
        seen = seen_on_table(refs[cid][0], rng, k)
        queries.append(enrollment_crop(seen, deck.aspect, kind="scan")[0])
        truth.append((cid, 2 * (k % 2)))
    return deck, queries, truth


def test_a_frame_scored_together_reads_as_each_card_alone(deck_and_crops):
    deck, crops, truth = deck_and_crops
    together = deck.score_many(crops)
    alone = [deck.score(c) for c in crops]
    assert [(s[0], s[3]) for s in together] == [(s[0], s[3]) for s in alone] == truth
    for a, b in zip(together, alone, strict=True):
        assert a[1] == pytest.approx(b[1], abs=1e-5) and a[2] == pytest.approx(b[2], abs=1e-5)
    assert deck.score_many([]) == []


def test_the_shortlist_finds_what_every_reference_at_every_shift_finds(deck_and_crops):
    deck, crops, truth = deck_and_crops
    exhaustive = dataclasses.replace(deck, config=dataclasses.replace(deck.config, shortlist=10 ** 6))
    got = deck.score_many(crops)
    full = exhaustive.score_many(crops)
    assert [(s[0], s[3]) for s in got] == [(s[0], s[3]) for s in full] == truth
    # the best card's distance is the same: its references are on the shortlist
    for a, b in zip(got, full, strict=True):
        assert a[1] == pytest.approx(b[1], abs=1e-5)


def test_coarse_distances_of_many_crops_are_each_crops_own(deck_and_crops):
    deck, crops, _ = deck_and_crops
    one = np.stack([deck.coarse_distances(c) for c in crops[:4]])
    many = np.stack(deck.coarse_best_many(crops[:4], turns=False))
    assert many.shape == (4, len(deck.ref_ids))
    np.testing.assert_allclose(many, one, atol=1e-5)
    best = deck.coarse_best_many(crops[:4])
    turned = [min(float(deck.coarse_distances(c).min()),
                  float(deck.coarse_distances(cv2.rotate(c, cv2.ROTATE_180)).min())) for c in crops[:4]]
    np.testing.assert_allclose(best, turned, atol=0.02)   # the half turn from flipped maps, not a second pass


def test_the_compact_search_scores_a_crop_as_every_reference_at_every_shift_does(deck_and_crops):
    """The block-sum index and the coarse-to-fine shift search (vision.deck_search) change no card's reading:
    the same deck searched exhaustively (every reference correlated in full, every shift in full) gives each
    crop the same card, turn and distances."""
    deck, crops, truth = deck_and_crops
    exhaustive = dataclasses.replace(deck)
    search = exhaustive.search()
    search.candidates = 10 ** 6           # every reference correlated in full ...
    search.fine_shifts = 10 ** 6          # ... and every shift of the shortlist
    got = deck.score_many(crops)
    full = exhaustive.score_many(crops)
    assert [(s[0], s[3]) for s in got] == [(s[0], s[3]) for s in full] == truth
    for a, b in zip(got, full, strict=True):
        assert a[1] == pytest.approx(b[1], abs=1e-5) and a[2] == pytest.approx(b[2], abs=1e-5)
    assert deck.search().candidates < len(deck.ref_ids) * 2 and deck.search().fine_shifts < 49


def test_coarse_distance_at_chosen_turns_is_the_crops_own_at_those_turns(deck_and_crops):
    """``tried`` limits the turns compared (a search of many places ranks them at the turn read so far): every
    turn given reads as the default, one turn as the crop as given, its half turn as the crop turned."""
    deck, crops, _ = deck_and_crops
    assert deck.coarse_best_many(crops[:4], tried=deck.turns_to_try()) == deck.coarse_best_many(crops[:4])
    as_given = [float(deck.coarse_distances(c).min()) for c in crops[:4]]
    turned = [float(deck.coarse_distances(cv2.rotate(c, cv2.ROTATE_180)).min()) for c in crops[:4]]
    np.testing.assert_allclose(deck.coarse_best_many(crops[:4], tried=(0,)), as_given, atol=1e-4)
    np.testing.assert_allclose(deck.coarse_best_many(crops[:4], tried=(2,)), turned, atol=0.02)


def test_a_half_turn_is_its_turns_maps_read_backwards(deck_and_crops):
    """Issue 15: the coarse pass normalises a crop's maps once per feature pass; a half turn's are its turn's read
    backwards, and its colour distances its turn's. The distances equal those of every turn normalised on its own
    (up to the order of the float32 sums), for cards (turns 0, 2) and for square tiles (0, 1, 2, 3)."""
    deck, crops, _ = deck_and_crops
    tile = dataclasses.replace(deck, aspect=1.0)
    for d in (deck, tile):
        tried = d.turns_to_try()
        feats = d.turn_features_many(crops[:3])
        own = d._coarse_many(feats, exact_all=True)                     # each turn its own pass
        reused = d._coarse_many(feats, exact_all=True, tried=tried)
        for (a, ha), (b, hb) in zip(own, reused, strict=True):
            assert a.shape == (len(d.ref_ids), len(tried))
            np.testing.assert_allclose(b, a, atol=1e-5)
            np.testing.assert_array_equal(hb, ha)


def test_a_crop_alone_reads_its_candidates_in_place_as_a_frame_reads_them(deck_and_crops):
    """A crop scored alone correlates its candidates' references in runs of rows (no copy); a deck whose references
    are not enrolled card by card (a card's references apart) reads each reference on its own: the same distances
    as the whole deck correlated at once."""
    deck, crops, _ = deck_and_crops
    order = np.random.default_rng(3).permutation(len(deck.ref_ids))     # every card's references apart
    shuffled = dataclasses.replace(deck, ref_ids=[deck.ref_ids[k] for k in order], struct=deck.struct[order],
                                   colour=deck.colour[order], amp=deck.amp[order])
    for d in (deck, shuffled):
        search = d.search()
        assert any(r is None for r in search._run_of_card) == (d is shuffled)
        feats = d.turn_features_many(crops[:2])
        alone = [d._coarse_many([f], tried=d.turns_to_try())[0][0] for f in feats]
        exact = d._coarse_many(feats, exact_all=True, tried=d.turns_to_try())
        for got, (want, _) in zip(alone, exact, strict=True):
            near = got <= got.min() + 0.2                                # the pairs near the best: read in full
            np.testing.assert_allclose(got[near], want[near], atol=1e-5)
    read = [(s[0], s[3]) for s in deck.score_many(crops[:4])]
    assert [(s[0], s[3]) for s in shuffled.score_many(crops[:4])] == read


def test_pairs_far_from_the_closest_are_not_searched_at_every_shift_and_change_no_reading(deck_and_crops, monkeypatch):
    """Issue 15: of the shortlist, only the pairs within ``fine_within`` of the closest are correlated at every
    shift; the others keep their centred distance (an upper bound of the shifted one): every crop reads the same
    card and turn at the same distance, and the best other card no closer, than with the whole shortlist searched."""
    deck, crops, truth = deck_and_crops
    whole = dataclasses.replace(deck, config=dataclasses.replace(deck.config, fine_within=0.0))
    searched: list[int] = []
    fine = type(deck.search()).fine_ncc_many

    def counted(self, queries, s, trim=0):
        searched.extend(len(refs) for _, refs, _ in queries)
        return fine(self, queries, s, trim)

    monkeypatch.setattr(type(deck.search()), "fine_ncc_many", counted)
    got = deck.score_many(crops)
    near, searched[:] = list(searched), []
    every = whole.score_many(crops)
    assert searched == [deck.config.shortlist] * len(crops)
    assert sum(near) < sum(searched) // 2              # most of the shortlist is far from the closest pair
    assert [(s[0], s[3]) for s in got] == [(s[0], s[3]) for s in every] == truth
    for a, b in zip(got, every, strict=True):
        assert a[1] == pytest.approx(b[1], abs=1e-6)
        assert a[2] >= b[2] - 1e-6


def test_a_frames_new_cards_ranked_and_decided_together_get_each_crops_own_numbers(deck_and_crops):
    """Issue 15: a frame's new cards are taken through the coarse ranking, the shortlist, the ink amplitude term and
    the best and best other card all at once; each crop gets the very numbers it gets taken one by one (ties in the
    shortlist broken alike), at two turns and at four, and with a few pairs tied on purpose."""
    deck, crops, _ = deck_and_crops
    for d in (deck, dataclasses.replace(deck, aspect=1.0)):
        tried = d.turns_to_try()
        feats = d.turn_features_many(crops, tried)
        coarse = d._coarse_many(feats, tried=tried)
        Ds = [D.copy() for D, _ in coarse]
        Ds[1][:5] = Ds[1].min()                         # ties at the top of a shortlist
        Ds[2][:] = 0.5                                  # a crop every pair of which is tied
        for got, D in zip(d._shortlists(Ds), Ds, strict=True):
            assert np.array_equal(got, d._shortlists([D])[0])
            assert len(got) >= 1 and D.ravel()[got[0]] == D.min()
        amps = [f[0][2] for f in feats]
        for got, a in zip(d._amp_terms(amps), amps, strict=True):
            assert np.array_equal(got, d._amp_term(a))
        # the coarse ranking of the crops as one array: each crop's candidates made exact as crop by crop
        search = d.search()
        qns = np.stack([normalise_maps(np.stack([inner_maps(f[t][0], d.config.struct_shift) for t in range(len(f))]))
                        for f in feats])
        pen = [np.random.default_rng(k).uniform(0, 0.3, (len(d.ref_ids), len(tried))) for k in range(len(feats))]
        for a, b in zip(search.coarse_many(qns, np.stack(pen)), search.coarse_many(list(qns), pen), strict=True):
            assert a.dtype == b.dtype and np.array_equal(a, b)
        fine = d._fine_many(coarse, feats, tried)
        assert d._best_two_many(fine) == [d._best_two(D) for D in fine]
        assert d._best_two_many(Ds) == [d._best_two(D) for D in Ds]
    one_card = dataclasses.replace(deck, ref_ids=["only"] * len(deck.ref_ids))   # no other card: the second best
    D = [np.full((len(deck.ref_ids), 2), 0.7, np.float32), np.full((len(deck.ref_ids), 2), 0.2, np.float32)]
    got = one_card._best_two_many(D)
    assert got == [one_card._best_two(x) for x in D]
    # d1 = 0.5 x the best reference + 0.5 x their mean = 0.7 (0.2); the best other card, none: max(1, 2 d1)
    assert got == [(0, 0, pytest.approx(0.7, abs=1e-6), pytest.approx(1.4, abs=2e-6)),
                   (0, 0, pytest.approx(0.2, abs=1e-6), 1.0)]


@pytest.fixture(scope="module")
def tiles_and_crops():
    """A deck of square tiles (Roll for the Galaxy's 50 mm) and 12 of them seen on the table at every quarter turn."""
    mm = (50.0, 50.0)
    refs = reference_images(IDS, mm, seed=5)
    cw, ch = crop_size(CardsConfig(), 1.0)
    crops = {cid: [cv2.resize(im, (cw, ch), interpolation=cv2.INTER_AREA) for im in ims] for cid, ims in refs.items()}
    deck = deck_from_crops(crops, "roll", 1.0, mm)
    rng = np.random.default_rng(12)
    turn = [None, cv2.ROTATE_90_COUNTERCLOCKWISE, cv2.ROTATE_180, cv2.ROTATE_90_CLOCKWISE]
    queries, truth = [], []
    for k, cid in enumerate(IDS[:12]):
        seen = seen_on_table(refs[cid][0], rng, 0)
        seen = seen if k % 4 == 0 else cv2.rotate(seen, turn[k % 4])   # the tile's top turned k quarter turns back
        queries.append(enrollment_crop(seen, 1.0, kind="scan")[0])
        truth.append((cid, k % 4))
    return deck, queries, truth


def test_a_square_tile_read_at_one_parity_reads_as_at_every_turn(tiles_and_crops, monkeypatch):
    """Issue 15: a square tile is read at the parity of turns (t, t + 2) most tiles were read at last, and at the
    other parity only when that reads no card within ``parity_alone``: the same card and turn as every turn tried,
    at the same distance but for the ink amplitude (measured at the parity read), with one feature pass a tile
    once the deck has seen the table's parity; a crop that is no tile is read at every turn."""
    import vision.deck

    deck, crops, truth = tiles_and_crops
    deck = dataclasses.replace(deck)
    every = dataclasses.replace(deck, config=dataclasses.replace(deck.config, parity_alone=0.0))
    want = every.score_many(crops)
    assert [(s[0], s[3]) for s in want] == truth
    passes: list[int] = []
    features = vision.deck.crop_features_many

    def counted(cs, *a, **k):
        passes.append(len(cs))
        return features(cs, *a, **k)

    monkeypatch.setattr(vision.deck, "crop_features_many", counted)
    for got in (deck.score_many(crops), [deck.score(c) for c in crops]):
        assert [(s[0], s[3]) for s in got] == truth
        for a, b in zip(got, want, strict=True):
            assert a[1] == pytest.approx(b[1], abs=0.02) and a[2] == pytest.approx(b[2], abs=0.02)
    odd = [c for c, (_, t) in zip(crops, truth, strict=True) if t % 2]
    deck.score_many(odd)                            # the deck now expects the odd parity
    passes.clear()
    assert [s[3] % 2 for s in deck.score_many(odd)] == [1] * len(odd) and sum(passes) == len(odd)
    noise = np.random.default_rng(1).integers(0, 256, crops[0].shape, np.uint8)
    got, full = deck.distances(noise), every.distances(noise)
    assert list(got[1]) == [0, 1, 2, 3]
    np.testing.assert_array_equal(got[0], full[0])



def test_a_square_tile_is_read_first_at_the_parity_its_thumbnail_matches_in_the_decks_art(tiles_and_crops, monkeypatch):
    """Issue 15: with the deck's art, each square tile is read first at the parity of turns its grey thumbnail
    matches best (:meth:`DeckProfile.parity_cues`), not the parity most tiles of the last frame were read at: tiles
    laid at both parities in one frame cost one feature pass each, on the first frame too, and read the same card
    and turn as every turn tried. A deck without art has no cue."""
    import vision.deck
    from vision.card_art import ART_WIDTH

    deck, crops, truth = tiles_and_crops
    assert deck.parity_cues(crops) is None, "no art, no cue"
    refs = reference_images(IDS, (50.0, 50.0), seed=5)
    art = {cid: enrollment_crop(ims[0], 1.0, kind="scan", width=ART_WIDTH)[0] for cid, ims in refs.items()}
    deck = dataclasses.replace(deck, art=art)
    assert deck.parity_cues(crops) == [t % 2 for _, t in truth]
    every = dataclasses.replace(deck, config=dataclasses.replace(deck.config, parity_alone=0.0))
    want = every.score_many(crops)
    passes: list[int] = []
    features = vision.deck.crop_features_many

    def counted(cs, *a, **k):
        passes.append(len(cs))
        return features(cs, *a, **k)

    monkeypatch.setattr(vision.deck, "crop_features_many", counted)
    got = deck.score_many(crops)          # a fresh deck (parity 0 expected) and tiles at both parities
    assert [(s[0], s[3]) for s in got] == truth and passes == [len(crops)], "both parities in one feature pass"
    for a, b in zip(got, want, strict=True):
        assert a[1] == pytest.approx(b[1], abs=0.02) and a[2] == pytest.approx(b[2], abs=0.02)


def test_tiles_featured_together_each_at_its_own_turns_get_each_tiles_own_features(tiles_and_crops):
    """Issue 15: the feature pass of a frame's tiles, each at the parity of turns it is read at (one call for both
    parities), gives each tile, to the last bit, the maps, hue histogram and ink amplitude it gets alone; the half turn
    of each is its maps turned."""
    deck, crops, truth = tiles_and_crops
    each = [(t % 2, t % 2 + 2) for _, t in truth]
    together = deck.turn_features_many(crops, each)
    for crop, tried, got in zip(crops, each, together, strict=True):
        alone = deck.turn_features_many([crop], tried)[0]
        assert len(got) == len(alone) == 2
        for mine, own in zip(got, alone, strict=True):
            assert all(np.array_equal(a, b) for a, b in zip(mine, own, strict=True))
        assert np.array_equal(got[1][0], got[0][0][:, ::-1, ::-1])


def test_a_tile_a_few_pixels_off_is_read_at_one_parity_after_the_shifts(tiles_and_crops, monkeypatch):
    """Issue 15: a square tile seen 9 px right and 5.4 px low in its 96 px crop (a card-sized place about an outline
    that lost part of the tile) reads its tile far at the centred shift (above ``parity_alone``, 0.5) and close at
    the shift that meets it: read as a place off its tile (``off_centre``), it is read at one parity of turns (one
    feature pass once the deck expects its parity),
    the card and turn every turn gives, at the distance every turn gives to 0.01 (the card's references away from the
    shortlist are the index's estimates, ranked among two turns or four). A tile 13 px off is not read within 0.5 at
    any shift and is still read at every turn; any crop not read as off its tile is read at every turn, as before."""
    import vision.deck

    deck, crops, truth = tiles_and_crops
    deck = dataclasses.replace(deck)
    every = dataclasses.replace(deck, config=dataclasses.replace(deck.config, parity_alone=0.0))
    turn = [None, cv2.ROTATE_90_COUNTERCLOCKWISE, cv2.ROTATE_180, cv2.ROTATE_90_CLOCKWISE]
    upright = crops[0]
    assert truth[0][1] == 0

    def moved(dx: float) -> np.ndarray:
        m = np.float32([[1, 0, dx], [0, 1, 0.6 * dx]])
        return cv2.warpAffine(upright, m, upright.shape[1::-1], borderValue=(40, 60, 30))

    passes: list[int] = []
    features = vision.deck.crop_features_many

    def counted(cs, *a, **k):
        passes.append(len(cs))
        return features(cs, *a, **k)

    monkeypatch.setattr(vision.deck, "crop_features_many", counted)
    off = moved(9.0)
    f = deck.turn_features_many([off], [(0, 2)])
    amp = np.asarray(deck._amp_term(f[0][0][2]), np.float32).reshape(-1, 1)
    centred = deck._best_two(deck._coarse_many(f, tried=(0, 2))[0][0] + amp)
    assert centred[2] > deck.config.parity_alone
    for t in range(4):
        tile = off if t == 0 else cv2.rotate(off, turn[t])
        want = every.score(tile)
        assert (want[0], want[3]) == (truth[0][0], t) and want[1] <= deck.config.parity_alone
        assert list(deck.distances(tile)[1]) == [0, 1, 2, 3]
        deck.score_places_many([tile])          # the deck now expects this parity
        passes.clear()
        D, turns = deck.distances_many([tile], off_centre=True)[0]
        assert sorted(turns.tolist()) == [t % 2, t % 2 + 2] and sum(passes) == 1
        got = deck.score_places_many([tile])[0]
        assert (got[0], got[3]) == (want[0], want[3]) and got[1] == pytest.approx(want[1], abs=0.01)
    far = moved(13.0)
    assert every.score(far)[1] > deck.config.parity_alone
    assert list(deck.distances_many([far], off_centre=True)[0][1]) == [0, 1, 2, 3]
