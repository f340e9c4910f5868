"""The faces of the die sizes not chosen (vision/roll_dice/sizes.py, the reader's stage ``other_sizes``): hand-made
faces whose answer is known from how they are made. A face another size found is added only where the size chosen has
no face, when no face of the size chosen overlaps it, and only with a plain symbol on a die's top; it takes a chosen
face's place only when plainly surer and of the side the table's plane gives a die there."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from vision.roll_dice import RollDiceConfig
from vision.roll_dice.assemble import die_weights
from vision.roll_dice.observations import TopFaces
from vision.roll_dice.sizes import (
    clear_of,
    faces_apart,
    meets,
    other_size_could,
    other_size_faces,
    other_size_faces_weighed,
    other_size_guard,
    other_size_swaps,
)

CFG = RollDiceConfig()
HI = CFG.other_size_match_ramp[1]  # a plain symbol: the top of the ramp


Q = CFG.patch + 2 * CFG.patch_margin
#: an ink map of strokes: bands 2 px wide, a log unit apart in brightness (a printed middle)
STROKES = np.stack([np.tile(((np.arange(Q) // 2) % 2) - 0.5, (Q, 1)), np.zeros((Q, Q))]).astype(np.float32)


def faces(rects: list[list[float]], evidence: list[list[float]] | None = None) -> TopFaces:
    """Top faces at ``rects`` (cx, cy, w, h, angle; frame px), die score 1, a printed middle (:data:`STROKES`), the
    shape evidence ``evidence`` (rim, outline, ink shares; None: none measured)."""
    r = np.asarray(rects, np.float64).reshape(-1, 5)
    n = len(r)
    ev = None if evidence is None else np.asarray(evidence, np.float64).reshape(n, 3)
    return TopFaces(r, np.ones(n), np.repeat(STROKES[None], n, axis=0), np.zeros((n, 3)), ev)


def plain(n: int, best: float = HI) -> np.ndarray:
    """NCC ``float[n, 2]`` whose best is ``best``."""
    return np.tile([[best, 0.1]], (n, 1))


DIE = [1.0, 1.0, 0.5]   # a die's top: its rim body, standing out all round, half of its middle ink
CHECK = [1.0, 0.0, 0.5]  # a square that does not stand out from what lies round it


def test_a_face_where_the_chosen_size_has_none_is_added_after_the_chosen_faces():
    chosen = faces([[100, 100, 40, 40, 0]])
    other = faces([[300, 100, 52, 52, 0]])
    got, ncc = other_size_faces(chosen, plain(1), [(other, plain(1))], CFG)
    assert len(got.rects) == 2
    assert np.array_equal(got.rects[0], chosen.rects[0]) and np.array_equal(got.rects[1], other.rects[0])
    assert ncc.shape == (2, 2) and ncc[1, 0] == HI
    assert got.scores[1] == 1.0


def test_a_face_on_a_die_the_chosen_size_found_is_not_added_again():
    """Within ``duplicate_dist`` x the side of a chosen face, or overlapping one: that die (or its neighbour) cut at
    the wrong size."""
    chosen = faces([[100, 100, 40, 40, 0]])
    same_die = faces([[110, 100, 52, 52, 0]])                   # centres 10 px apart: the same die
    overlapping = faces([[100 + 0.5 * 40 + 0.5 * 30 - 6, 100, 30, 30, 0]])  # 6 px into the chosen face
    for other in (same_die, overlapping):
        got, _ = other_size_faces(chosen, plain(1), [(other, plain(1))], CFG)
        assert len(got.rects) == 1
    assert not faces_apart(same_die.rects, chosen.rects, CFG)[0]
    assert faces_apart(overlapping.rects, chosen.rects, CFG)[0]
    assert not clear_of(overlapping.rects, chosen.rects, CFG.other_size_overlap)[0]
    # touching edge to edge (no overlap) is two dice
    touching = faces([[100 + 0.5 * 40 + 0.5 * 30, 100, 30, 30, 0]])
    assert clear_of(touching.rects, chosen.rects, CFG.other_size_overlap)[0]
    assert len(other_size_faces(chosen, plain(1), [(touching, plain(1))], CFG)[0].rects) == 2


def test_only_a_plain_symbol_on_a_die_top_makes_a_face_of_another_size_a_die():
    """Its die score is scaled by its best NCC on ``other_size_match_ramp`` (none below it) and by its die-likeness on
    ``other_size_shape_ramp`` (a square that does not stand out from its surroundings: none)."""
    chosen = faces([[100, 100, 40, 40, 0]])
    lo = CFG.other_size_match_ramp[0]
    other = faces([[300, 100, 40, 40, 0]], [DIE])
    assert len(other_size_faces(chosen, plain(1), [(other, plain(1, lo - 0.05))], CFG)[0].rects) == 1
    half = other_size_faces(chosen, plain(1), [(other, plain(1, 0.5 * (lo + HI)))], CFG)[0]
    assert len(half.rects) == 2 and 0.0 < half.scores[1] < 1.0
    flat = faces([[300, 100, 40, 40, 0]], [CHECK])
    assert other_size_guard(flat, chosen, CFG)[0] == 0.0
    assert len(other_size_faces(chosen, plain(1), [(flat, plain(1))], CFG)[0].rects) == 1
    assert other_size_guard(other, chosen, CFG)[0] == 1.0


def test_of_two_sizes_faces_at_one_place_the_surer_is_added():
    chosen = faces([[100, 100, 40, 40, 0]])
    small = faces([[300, 100, 36, 36, 0]])
    large = faces([[304, 100, 50, 50, 0]])
    lo = CFG.other_size_match_ramp[0]
    got, ncc = other_size_faces(chosen, plain(1), [(small, plain(1, 0.5 * (lo + HI))), (large, plain(1))], CFG)
    assert len(got.rects) == 2
    assert np.array_equal(got.rects[1], large.rects[0]) and ncc[1, 0] == HI


def test_none_added_when_off_or_when_no_other_size_found_a_face():
    chosen = faces([[100, 100, 40, 40, 0]])
    other = faces([[300, 100, 52, 52, 0]])
    off = replace(CFG, other_size_match_ramp=None)
    got, ncc = other_size_faces(chosen, plain(1), [(other, plain(1))], off)
    assert got is chosen and len(ncc) == 1
    got, _ = other_size_faces(chosen, plain(1), [(faces([]), np.zeros((0, 2)))], CFG)
    assert len(got.rects) == 1
    empty = faces([])
    got, ncc = other_size_faces(empty, np.zeros((0, 2)), [(other, plain(1))], CFG)
    assert len(got.rects) == 1 and ncc.shape == (1, 2)


def test_of_sizes_whose_evidence_is_equal_the_one_whose_faces_match_best_ranks_first():
    # every face's NCC above the top of strong_match_ramp: each counts fully, so both sizes' evidence is the number of
    # faces (4 faces, score 1, no shape measured, a printed middle: (1 x 1) ** size_power each)
    from vision.roll_dice.assemble import size_evidence
    from vision.roll_dice.reader import _match_quality

    tops = faces([[100 + 60 * k, 100, 40, 40, 0] for k in range(4)])
    sure, loose = plain(4, 0.95), plain(4, 0.80)
    assert CFG.strong_match_ramp[1] <= 0.80
    assert size_evidence(tops, sure, CFG) == size_evidence(tops, loose, CFG) == 4.0
    # the NCC itself in place of its ramp: 4 x 0.95 ** 4 and 4 x 0.80 ** 4
    assert _match_quality((4.0, 0.84, tops, sure), CFG) == pytest.approx(4 * 0.95 ** 4)
    assert _match_quality((4.0, 0.67, tops, loose), CFG) == pytest.approx(4 * 0.80 ** 4)
    assert _match_quality((0.0, 1.0, faces([]), np.zeros((0, 2))), CFG) == 0.0


#: four plain dice of side 40 px at the size chosen, spread over the frame: the table's plane gives 40 px everywhere
SURE = [[100, 100, 40, 40, 0], [300, 100, 40, 40, 0], [100, 300, 40, 40, 0], [300, 300, 40, 40, 0]]


def table_with(weak: list[float], score: float) -> TopFaces:
    """:data:`SURE` and, last, the face ``weak`` of die score ``score`` (NCC :func:`plain`: its die weight is
    ``score``)."""
    got = faces(SURE + [weak])
    return got.lowered(np.array([1.0, 1.0, 1.0, 1.0, score]))


def test_a_surer_face_of_the_planes_side_takes_the_place_of_a_weak_chosen_face():
    """A piece of a die cut at the size chosen (side 26 px where the plane gives 40: 0.35 off, die weight 0.5) and
    the whole die at another size (side 40 px, die weight 1: 0.5 surer, above ``other_size_swap_margin`` 0.3)."""
    chosen = table_with([200, 200, 26, 26, 0], 0.5)
    whole = faces([[202, 200, 40, 40, 0]], [DIE])
    assert meets(whole.rects, chosen.rects, CFG).tolist() == [[False, False, False, False, True]]
    got, ncc = other_size_faces(chosen, plain(5), [(whole, plain(1))], CFG)
    assert len(got.rects) == 5 and ncc.shape == (5, 2)
    assert np.array_equal(got.rects[:4], chosen.rects[:4]) and np.array_equal(got.rects[4], whole.rects[0])
    assert got.scores[4] == 1.0
    weights = np.array([1.0, 1.0, 1.0, 1.0, 0.5])
    assert other_size_swaps(chosen, weights, whole, np.ones(1), faces([]), np.zeros(0), CFG).tolist() == [True]
    assert other_size_could(whole, chosen, weights, CFG).tolist() == [True]


def test_a_chosen_face_not_plainly_weaker_keeps_its_place():
    """Die weight 0.8 against the other size's 1: 0.2 surer, below ``other_size_swap_margin`` 0.3; and off, none."""
    chosen = table_with([200, 200, 26, 26, 0], 0.8)
    whole = faces([[202, 200, 40, 40, 0]], [DIE])
    got, _ = other_size_faces(chosen, plain(5), [(whole, plain(1))], CFG)
    assert len(got.rects) == 5 and np.array_equal(got.rects, chosen.rects)
    weights = np.array([1.0, 1.0, 1.0, 1.0, 0.8])
    assert other_size_could(whole, chosen, weights, CFG).tolist() == [False]
    off = replace(CFG, other_size_swap_margin=None)
    got, _ = other_size_faces(table_with([200, 200, 26, 26, 0], 0.5), plain(5), [(whole, plain(1))], off)
    assert np.array_equal(got.rects[4], chosen.rects[4])


def test_a_face_of_a_side_the_plane_does_not_give_there_takes_no_place():
    """The plane gives 40 px at (200, 200); a face of side 60 px there is 0.5 off (above ``other_size_swap_fit``
    0.25), however sure: a die and the table beyond it cut at too large a size."""
    chosen = table_with([200, 200, 40, 40, 0], 0.5)
    large = faces([[205, 200, 60, 60, 0]], [DIE])
    got, _ = other_size_faces(chosen, plain(5), [(large, plain(1))], CFG)
    assert np.array_equal(got.rects, chosen.rects)
    # a face the plane's side that meets a sure chosen die too (within duplicate_dist x 40 px of it) takes no place
    both = faces([[120, 100, 40, 40, 0]], [DIE])
    assert meets(both.rects, chosen.rects, CFG)[0, 0]
    assert np.array_equal(other_size_faces(chosen, plain(5), [(both, plain(1))], CFG)[0].rects, chosen.rects)


def test_a_replacing_face_is_weighed_as_the_chosen_faces_are():
    """Its symbol NCC 0.5 is below ``other_size_match_ramp`` (a face added where nothing lies needs more) but its die
    weight, measured as a chosen face's, is max(0.6 on ``match_ramp`` (0.5 - 0.35) / 0.25, shape alone 0.5) = 0.6,
    0.4 above the chosen face's 0.2: it takes the place."""
    assert CFG.other_size_match_ramp[0] > 0.5 and CFG.match_ramp == (0.35, 0.6) and CFG.shape_only == 0.5
    chosen = table_with([200, 200, 26, 26, 0], 0.2)
    whole = faces([[202, 200, 40, 40, 0]], [DIE])
    got, ncc = other_size_faces(chosen, plain(5), [(whole, plain(1, 0.5))], CFG)
    assert len(got.rects) == 5 and np.array_equal(got.rects[4], whole.rects[0]) and ncc[4, 0] == 0.5


def test_a_sure_face_not_plainly_of_a_dies_shape_takes_no_place():
    """A tile's print cut at another size across its frame: a symbol as plain as a die's (NCC at the top of the ramp:
    die weight 1, 0.5 above the chosen face's) and the plane's side, but an outline share of 0.5, die-likeness
    (0.5 - 0.3) / 0.3 = 2/3 on ``outline_ramp`` (0.3, 0.6), below ``other_size_swap_shape`` 0.9: it takes no place;
    with a die's outline (likeness 1) it does."""
    assert CFG.outline_ramp == (0.3, 0.6) and CFG.other_size_swap_shape == 0.9
    chosen = table_with([200, 200, 26, 26, 0], 0.5)
    weights = np.array([1.0, 1.0, 1.0, 1.0, 0.5])
    print_edge = faces([[202, 200, 40, 40, 0]], [[1.0, 0.5, 0.5]])
    got, _ = other_size_faces(chosen, plain(5), [(print_edge, plain(1))], CFG)
    assert np.array_equal(got.rects, chosen.rects)
    assert other_size_could(print_edge, chosen, weights, CFG).tolist() == [False]
    whole = faces([[202, 200, 40, 40, 0]], [DIE])
    got, _ = other_size_faces(chosen, plain(5), [(whole, plain(1))], CFG)
    assert np.array_equal(got.rects[4], whole.rects[0])


def test_a_die_shaped_face_too_weak_by_itself_takes_no_place_of_nothing():
    """Where the size chosen saw nothing die-like (die weight 0), a die-shaped face of another size whose symbol matches
    no template (NCC 0.3, below ``match_ramp``'s 0.35: its weight is its shape's alone, ``shape_only`` 0.5, x its
    candidate score 0.7 = 0.35) is 0.35 surer, above ``other_size_swap_margin`` 0.3, but under
    ``other_size_swap_least`` 0.4: it takes no place. Of candidate score 0.9 (weight 0.45) it does."""
    assert CFG.shape_only == 0.5 and CFG.match_ramp[0] == 0.35 and CFG.other_size_swap_least == 0.4
    chosen = table_with([200, 200, 26, 26, 0], 0.0)
    weights = np.array([1.0, 1.0, 1.0, 1.0, 0.0])
    for score, swapped in ((0.7, False), (0.9, True)):
        blot = faces([[202, 200, 40, 40, 0]], [DIE]).lowered(np.array([score]))
        got, _ = other_size_faces(chosen, plain(5), [(blot, plain(1, 0.3))], CFG)
        assert np.array_equal(got.rects[-1], blot.rects[0]) == swapped, score
        assert len(got.rects) == 5
        assert other_size_swaps(chosen, weights, blot, np.array([0.5 * score]), faces([]), np.zeros(0),
                                CFG).tolist() == [swapped]


def test_a_chosen_face_no_read_reports_does_not_keep_another_sizes_die_out_of_the_size_the_table_gives():
    """A box the size chosen cut across a tilted die's top and side face matches no symbol and is no die's shape (die
    weight 0: never reported); the same die's top at another size, plainly a die, lies within ``duplicate_dist`` of it.
    Three sure dice of side 40 elsewhere make the table's plane 40 px everywhere. Only the chosen faces a read would
    report keep a face of another size of about that side out (46 px: 0.15 off, within ``other_size_swap_fit``), so the
    die is added; a face of twice the side at the same place (another size's box round the die and what lies beside
    it) is kept out by the dead face as by any chosen face; a chosen face of a plain symbol keeps either out."""
    sure_dice = [[300, 100, 40, 40, 0], [100, 300, 40, 40, 0], [300, 300, 40, 40, 0]]
    chosen = faces([[100, 100, 40, 40, 0], *sure_dice], [CHECK] + [DIE] * 3)
    chosen_ncc = np.vstack([plain(1, 0.0), plain(3)])
    weight = die_weights(chosen, chosen_ncc, CFG)
    assert weight[0] < CFG.min_confidence <= weight[1:].min()
    other = faces([[110, 100, 46, 46, 0]], [DIE])                 # 10 px off: within duplicate_dist x 40
    wide = faces([[110, 100, 80, 80, 0]], [DIE])                  # 1.0 off the plane's 40
    assert not faces_apart(other.rects, chosen.rects[:1], CFG)[0] and not faces_apart(wide.rects, chosen.rects[:1],
                                                                                        CFG)[0]
    assert 0.15 <= CFG.other_size_swap_fit < 1.0
    assert other_size_guard(other, chosen, CFG)[0] == 0.0            # every chosen face counted: kept out
    assert other_size_guard(other, chosen, CFG, weight)[0] == 1.0    # only those a read reports: free
    assert other_size_guard(wide, chosen, CFG, weight)[0] == 0.0     # off the plane: every chosen face counts
    assert other_size_could(other, chosen, weight, CFG)[0]
    got, ncc = other_size_faces(chosen, chosen_ncc, [(other, plain(1))], CFG)
    assert len(got.rects) == 5 and np.array_equal(got.rects[4], other.rects[0]) and ncc[4, 0] == HI
    assert len(other_size_faces(chosen, chosen_ncc, [(wide, plain(1))], CFG)[0].rects) == 4
    sure = faces([[100, 100, 40, 40, 0], *sure_dice], [DIE] * 4)
    assert die_weights(sure, plain(4), CFG).min() >= CFG.min_confidence
    assert len(other_size_faces(sure, plain(4), [(other, plain(1))], CFG)[0].rects) == 4


def test_a_chosen_face_no_read_reports_does_not_keep_a_die_shaped_face_out_by_being_nearer_the_plane():
    """The size chosen cut a box of the plane's own side (40 px) at (200, 200) that matches no symbol: die score 0, die
    weight 0, never reported. Another size's die-shaped face of side 44 px there (0.1 off the plane's 40-40.5, within
    ``other_size_swap_fit`` 0.25; die weight ``shape_only`` 0.5 with no symbol match, 0.5 above the dead box's 0 and at
    least ``other_size_swap_least`` 0.4) takes its place: the dead box is nearer the plane, but no die whose side
    could be the better one. A chosen box a read would report (die weight 0.2, at least ``min_confidence`` 0.15) of
    the plane's side keeps its place against a face of side 44 surer by 0.4 (NCC 0.5: 0.6), as before."""
    assert CFG.shape_only == 0.5 and CFG.min_confidence <= 0.2 and CFG.other_size_swap_least <= 0.5
    assert CFG.other_size_swap_margin <= 0.4 and CFG.other_size_swap_fit >= 0.15
    whole = faces([[203, 200, 44, 44, 0]], [DIE])
    for score, ncc, swapped in ((0.0, 0.3, True), (0.2, 0.5, False)):
        chosen = table_with([200, 200, 40, 40, 0], score)
        weights = die_weights(chosen, plain(5), CFG)
        assert weights.tolist() == pytest.approx([1.0, 1.0, 1.0, 1.0, score])
        mine = die_weights(whole, plain(1, ncc), CFG)
        assert mine[0] == pytest.approx(0.5 if score == 0.0 else 0.6)
        assert meets(whole.rects, chosen.rects, CFG).tolist() == [[False, False, False, False, True]]
        assert other_size_swaps(chosen, weights, whole, mine, faces([]), np.zeros(0), CFG).tolist() == [swapped]
        got, _ = other_size_faces(chosen, plain(5), [(whole, plain(1, ncc))], CFG)
        assert len(got.rects) == 5
        assert np.array_equal(got.rects[4], (whole if swapped else chosen).rects[-1 if swapped else 4]), score


def test_the_sizes_a_read_of_other_sizes_needs_alone_give_the_same_faces():
    """The size chosen cut :data:`SURE` and a piece of a die of side 26 px and no symbol (die weight 0) at (200, 200).
    Four other sizes: one cut a print far from every die, matching no symbol (NCC 0.1: below
    ``other_size_match_ramp``, die weight 0, and meeting no chosen face, so weighed neither to be added nor to swap);
    one the whole die-shaped face of side 40 px, the plane's, there (die weight ``shape_only`` 0.5 with no symbol
    match: weighed to swap, and swapped); one a plain die at (500, 100), where the size chosen has none (weighed to
    be added, and added); one found nothing. Only the second and third were weighed, and read with those two alone
    the faces are the same, to the bit: a reader that remembers them (the box's, one fixed camera) need look at no
    other size to read its table as the search read it. Where no face of another size is added or swapped in, no
    size is needed."""
    chosen = table_with([200, 200, 26, 26, 0], 0.0)
    ncc = plain(5)
    far = (faces([[500, 300, 40, 40, 0]], [DIE]), plain(1, 0.0))
    assert CFG.other_size_match_ramp[0] > 0.1 and not meets(far[0].rects, chosen.rects, CFG).any()
    whole = (faces([[202, 200, 40, 40, 0]], [DIE]), plain(1, 0.3))
    assert CFG.shape_only == 0.5 and CFG.other_size_swap_least <= 0.5 and CFG.other_size_swap_margin <= 0.5
    added = (faces([[500, 100, 40, 40, 0]], [DIE]), plain(1))
    none = (faces([]), np.zeros((0, 2)))
    got, got_ncc, weighed = other_size_faces_weighed(chosen, ncc, [far, whole, added, none], CFG)
    assert weighed.tolist() == [False, True, True, False]
    assert len(got.rects) == 6
    assert np.array_equal(got.rects[:4], chosen.rects[:4])
    assert np.array_equal(got.rects[4:], np.concatenate([added[0].rects, whole[0].rects]))
    alone, alone_ncc, both = other_size_faces_weighed(chosen, ncc, [whole, added], CFG)
    assert both.tolist() == [True, True]
    assert np.array_equal(alone.rects, got.rects) and np.array_equal(alone.scores, got.scores)
    assert np.array_equal(alone_ncc, got_ncc)
    # without the swap's size the dead box stays and only the added die joins
    assert len(other_size_faces_weighed(chosen, ncc, [added], CFG)[0].rects) == 6
    assert np.array_equal(other_size_faces(chosen, ncc, [added], CFG)[0].rects[4], chosen.rects[4])
    # a plain die of SURE seen again at another size: weighed to swap, but no surer than the chosen face (die weight
    # 1), so nothing of that size is in the outcome and no size is needed
    again = (faces([[100, 100, 40, 40, 0]], [DIE]), plain(1))
    got, got_ncc, needed = other_size_faces_weighed(chosen, ncc, [again, far], CFG)
    assert needed.tolist() == [False, False]
    assert np.array_equal(got.rects, chosen.rects) and np.array_equal(got_ncc, ncc)


def test_a_size_whose_faces_all_lose_is_not_remembered():
    """Two sizes not chosen find one die at a place the size chosen has no face (500, 100); both are weighed to be
    added, and the surer face is kept: the read holds a face of the first size only, so the sizes the reader's
    other-sizes stage names for its memory (a reader that remembers the die size, the box's) are that size alone; the
    second would be cut again on every read and add nothing."""
    from vision.roll_dice.reader import RollDiceReader

    chosen = table_with([200, 200, 26, 26, 0], 0.0)
    ncc = plain(5)
    sure = (faces([[500, 100, 40, 40, 0]], [DIE]), plain(1))
    less = (faces([[502, 100, 44, 44, 0]], [DIE]), plain(1, 0.65))
    assert other_size_faces_weighed(chosen, ncc, [sure, less], CFG)[2].tolist() == [True, True]
    frame = np.random.default_rng(0).integers(0, 256, (400, 700, 3), dtype=np.uint8)   # no pattern repeats
    looked = {0.67: (0.0, 0.67, sure[0], sure[1]), 1.06: (0.0, 1.06, less[0], less[1])}
    seen = {0.84: chosen, 0.67: sure[0], 1.06: less[0]}
    reader = object.__new__(RollDiceReader)   # the stage reads the looks given: no profile needed
    got, _, named = reader._other_sizes(frame, CFG, 0.84, 1.0, chosen, ncc, seen, looked)
    assert any(np.array_equal(r, sure[0].rects[0]) for r in got.rects)
    assert not any(np.array_equal(r, less[0].rects[0]) for r in got.rects)
    assert named == (0.67,)
    # with the surer face's size alone the read is the same
    alone = reader._other_sizes(frame, CFG, 0.84, 1.0, chosen, ncc, {0.84: chosen, 0.67: sure[0]},
                                {0.67: looked[0.67]})
    assert np.array_equal(alone[0].rects, got.rects) and alone[2] == (0.67,)
