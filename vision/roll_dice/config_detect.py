"""The thresholds that find the Roll for the Galaxy dice: the foreground, the candidates and their piles, the die
size search, the recut and square places, the faces of other sizes, the top faces and the CNN candidate source."""

from __future__ import annotations

from dataclasses import dataclass

from ..config import D6Config
from ..inference import InferenceConfig

__all__ = ["DetectConfig"]


@dataclass(frozen=True)
class DetectConfig:
    """Where the dice are (stages 2-5 and the die size): part of :class:`vision.roll_dice.config.RollDiceConfig`.

    Attributes:
        work_long_side: the frame is resized so its longer side is this for detection.
        table_long_side: longer side of the tiny copy the table model is computed on.
        table_median: median kernel (tiny pixels) of the table model; must exceed ~2 dice.
        log_offset: added to 0..255 values before the log (tames dark-pixel noise and JPEG blocks).
        chroma_weight, bright_weight, dark_weight: scale of the three "not table" cues.
        shadow_log: darkening (log units) a shadow may cause before it counts as "not table".
        fg_threshold: a pixel is foreground when its cue score exceeds this.
        work_blur: Gaussian sigma (work pixels) against sensor noise and JPEG blocks before the cues.
        open_frac, close_frac: morphology kernels as a fraction of the expected die side.
        default_side_frac: expected die side as a fraction of the work image width when a frame
            has too few clean blobs to measure it.
        min_area_frac, max_area_frac: a die's blob area relative to the typical die area.
        min_fill: blob area / its rotated-rectangle area for a single die.
        max_aspect: rotated rectangle long / short side for a single die.
        max_hole_frac: holes (symbols) smaller than this x die area are filled; larger ones are
            table seen through an outline (a printed box on a mat), kept open.
        symbol_size, symbol_inset, symbol_edges, symbol_min_blobs, symbol_min_side, pattern_min_flat: on a patterned
            table (``pattern_min_flat`` or more square blobs flat inside: a cloth's checks, a grid's squares) the
            typical die side is measured on the blobs that carry a symbol only
            (:func:`vision.roll_dice.candidates.typical_side`, :func:`vision.roll_dice.candidates.symbol_blobs`): at
            least ``symbol_edges`` of a blob's inside (``symbol_inset`` x the side in from its outline) is colour
            edges, and its side is at least ``symbol_min_side`` x the side the table expects (a printed ring of a
            board is smaller); with fewer than ``symbol_min_blobs`` such blobs, the side the table expects
            (``default_side_frac``). Elsewhere (and with ``symbol_size`` off) every square blob counts. Off by
            default: it sets the side right on a checked cloth, but a playmat's printed art and a board's rings are
            printed blobs too, and on the second generator's seeds 1000-1009 it lost more dice than it saved.
        size_hypotheses, size_power: the die sizes the reader tries, as factors of the default side
            (``default_side_frac``); each is read up to the pattern test and the one whose faces look most like the
            owner's dice is kept (:func:`vision.roll_dice.assemble.size_evidence`, each face's evidence to the power
            ``size_power``). The median square blob's side alone is wrong where a checked cloth's or a printed
            playmat's squares outnumber the dice; it is used only where it is larger than the largest tried size (a
            camera nearer the table: :func:`vision.roll_dice.candidates.tried_sides`). Empty: that median only, one
            read (as enrollment does, on a plain table).
        size_min_evidence: where no tried size's evidence reaches this (about half a plain die: an empty table,
            or dice none of which reads plainly), the dice are read at the median square blob's side instead.
        size_keep_frac, size_recheck_every: a reader that remembers the die size (``RollDiceReader(...,
            remember_size=True)``: one fixed camera, the box's) reads the next frame at the size the last search
            chose (and at the other sizes whose faces that search's read holds), and searches again (reusing that
            read) only where its evidence there is below ``size_keep_frac`` x the evidence when chosen (or below
            ``size_min_evidence``), or after ``size_recheck_every`` reads at the remembered size.
        pair_max_area, pair_min_aspect: a blob of about two dice areas (below ``pair_max_area``)
            is split in two only when it is elongated (long side >= ``pair_min_aspect`` x short).
        recut_gap, recut_match_ramp: at the die size chosen, the face cores that are no die as they are (too large to
            be a pile of dice, a pile, a core of no die's shape) are cut again at the colour edges thickened by a square
            ``recut_gap`` px dilation (:func:`vision.roll_dice.candidates.recut_candidates`): a die whose outline has
            a gap of a pixel or two (its body near the table's colour at a corner, a printed line of a playmat or a
            board running into it) has its core run into the table's, and the thickened outline closes it. Their top
            faces are added where the read has none (``RollDiceReader._recut``), each one's die score scaled by its best
            template NCC on ``recut_match_ramp`` (its outline had a gap: only a plain symbol makes it a die; a cloth's
            check cut out of the table's core matches a symbol at 0.4-0.5; None: not scaled). ``recut_gap`` below 2:
            none added. Set on the second generator's seeds 1000-1039, where 44 of the 76 dice missed had no candidate
            of their own at the size chosen, 11 of them in a core of more than ``max_split`` dice areas.
        square_max, square_fit, square_cap, square_shrink, square_angles, square_span, square_nms: at the die size
            chosen, the recut's candidates (and so its test: only a plain symbol makes one a die) include the places
            where a square of a die's top side (the median side of the faces a read would report there) lies on the
            colour edges (:mod:`vision.roll_dice.squares`): the mean distance (capped at ``square_cap`` px of a copy
            ``square_shrink`` times smaller) from the middle ``square_span`` of its four sides to the nearest edge
            at most ``square_fit``, at the best of ``square_angles`` turns, least within ``square_nms`` x the side;
            the best ``square_max`` places away from every face found (0: none). A die whose body is of the
            table's colour (brown on wood, red on a dark board) or on a cloth or mat the table model fails on has no
            foreground of its own, and its outline is open into the table in places, so no region closes round it:
            the square's distance stays small across such gaps. Set on the second generator's seeds 1000-1039.
        square_pool, square_outline_ramp, square_ink_ramp, square_sides_ramp, square_look_min: the best
            ``square_pool`` of those places (by distance) are ranked by how much each looks like a die's top
            (:func:`vision.roll_dice.squares.square_looks`): the product of the ramps of the share of edge pixels on
            its outline (``square_outline_ramp``), of its symbol's ink against its body (the 90th percentile of the
            middle's CIELAB distance to the median colour of the band round the middle, ``square_ink_ramp``) and of
            the step from its top to the table across its sides (the second smallest of the four sides' CIELAB
            steps, ``square_sides_ramp``). The ``square_max`` that look most like one, those below
            ``square_look_min`` left out, are tested. On gingham and wood hundreds of places fit a square as well as
            a die does; a check or a plank's stripe is flat inside, and the grain's stripes run on across two sides.
            Set on the second generator's seeds 1000-1039 (the dice's squares ranked 0-66 of up to 400 by distance,
            0-9 by look bar three; 437 places tested on main there, 229 with these).
        other_size_match_ramp, other_size_shape_ramp, other_size_overlap: once the die size is chosen, the top faces
            the other tried sizes found where the size chosen has none (farther than ``duplicate_dist`` x the smaller
            side from each of its faces, and overlapping none by more than ``other_size_overlap`` of the smaller: two
            dice's top faces never overlap; where the size search vouched for a die size, only its faces a read would
            report count against a face whose side lies within ``other_size_swap_fit`` of the side the chosen faces'
            plane gives a die there) are added (:mod:`vision.roll_dice.sizes`), each one's
            die score scaled by its best template NCC on ``other_size_match_ramp`` and its die-likeness on
            ``other_size_shape_ramp``: a face of a size not chosen has no vouching of the size search, so only a plain
            symbol on a die's top makes it a die.
            A tilted camera shows near dice larger than far ones, and a cloth's checks cut some dice apart at one size
            and run them into the table at another. None: none added. Set on the second generator's seeds 1000-1039,
            where 12 of the 60 dice missed had a top face at another tried size and none at the size chosen: 4 more
            dice found (691 to 695 of 751), no more false dice; without the overlap and die-likeness terms 6 more dice
            were found and 7 more false dice reported (pieces of a die or its neighbour cut at another size,
            overlapping a face of the size chosen by 0.08-0.38 of it, and a check of no die's shape).
        other_size_swap_margin, other_size_swap_fit: a face of another size also takes the place of the faces of the
            size chosen it meets (:func:`vision.roll_dice.sizes.other_size_swaps`) when its die score is at least
            ``other_size_swap_margin`` above each of theirs and its side lies within ``other_size_swap_fit`` (a
            share) of the side the table's plane gives a die there, nearer than each of theirs
            (:func:`vision.roll_dice.shape.expected_sides`, fitted on every face weighted by its die score): on a
            tilted table the one size chosen is wrong at one end, where its faces cut a die into a piece or run it
            into the table and score low. None: no face replaced. Only a face whose shape is plainly a die's top takes
            a place (die-likeness at least ``other_size_swap_shape``, :func:`vision.roll_dice.shape.die_likeness`),
            and only with a die weight of at least ``other_size_swap_least``: a tile's print cut at another size
            (across its frame, or a panel of its art; on the generated Roll tables a first read not yet told of the
            tiles) scores 0.5-0.96 over chosen faces of 0-0.53, but its likeness is 0.57-0.59 or its weight 0.30
            with nothing die-like there at the size chosen (a blot whose symbol matches at NCC 0.45); a printed
            board's digit box and a gingham check cut at another size come in at likeness 0.61-0.86 or weight
            0.38-0.41. The dice it recovers on tilted tables (white dice whose symbol matches poorly, NCC 0.37-0.53)
            are die-like at 0.94-1.00 and weigh 0.49-0.72.
        other_size_split_overlap, other_size_split_inside, other_size_split_match, other_size_split_side,
        other_size_split_gap, other_size_split_cuts: two faces of the size chosen that a
            read would both report, each overlapping the other by more than ``other_size_split_overlap`` of the
            smaller, are no two dice (tops never overlap): where that size is too large for the table, two touching
            dice get a face each running onto the other, and one of the two is lost. Faces of other sizes, their
            side under ``other_size_split_side`` x the chosen face's, each lying under one face of the pair by
            ``other_size_split_inside`` or more of its own area, of a die's shape
            (``other_size_swap_shape``), weighing ``other_size_swap_least``, meeting no other reported face, and
            matching their best symbol better (by more than ``other_size_split_match`` NCC) than the face they lie
            under, one under each and apart, the smaller's side at least their centres' distance less
            ``other_size_split_gap`` x that side (touching dice lie a side apart: a face cut smaller than its die,
            36 px on a 45 px die, lies farther), take both places (:func:`vision.roll_dice.splits.overlap_splits`).
            Besides the other sizes' own faces, each face of such a pair is cut again at each of
            ``other_size_split_cuts`` x its side, moved away from the face it overlaps
            (:func:`vision.roll_dice.splits.smaller_cuts`): the sizes tried are 1.25 apart, and a die between two
            of them may have no face of its side at any. One cut only, 0.8: a second at 0.64 cut below the die's
            side (spent 120502, 1031) and read a piece of a die.
            None: none. Set from the second generator's seed 1014 (two touching blue dice of 56 px cut as two faces of
            about 80 x 70 px at the size chosen, overlapping by about 31 px).
        fragment_min_frac, merge_fit, merge_max_frac: face-core fragments above
            ``fragment_min_frac`` x die area, of a core smaller than ``merge_max_frac`` x die area,
            are merged while the union fits in ``merge_fit`` x the die side.
        max_split: a blob of more dice than this is not a pile of dice (e.g. a printed area): dropped.
        split_attempts: k-means runs that split a pile of dice (:func:`vision.roll_dice.candidates.split_blob`), each
            from k-means++ starts drawn from one fixed seed per pile (every read splits a pile the same), the most
            compact kept. One run costs a third, but its parts differ: on seed 1000 of ``bench/roll_dice.py``'s second
            generator 3 fewer dice found, 2 more false and 4 fewer faces right, and the full Roll table of
            ``bench/roll_table_ab.py`` read a face of a second die size, which every later read then cuts too.
        duplicate_dist: two top faces closer than this x their side are one die.
        side_darker, side_chroma: a candidate next to a die, darker by this (log units) with chroma
            within ``side_chroma`` and not square, is that die's visible side face: dropped.
        edge_thresholds: Canny hysteresis thresholds (per colour channel, 0..255 units).
        core_open_frac: opening of the face cores (cuts thin bridges), fraction of the die side.
        core_shrink: a face core's side / the die top face side (edges eat its rim).
        split_area: a blob of at least this many typical dice areas is split.
        top_colour_dist: a pixel belongs to the top face when its log-RGB distance to the body
            colour is below this.
        refine_by_colour: re-find each top face as the pixels near its body colour (off: the face
            core found between edges is already the top face).
        refine_grow: the re-found face stays inside the candidate rect grown by this factor.
        max_aspect_top: a re-found face longer than this x its width is rejected (candidate kept).
        side_tolerance: a face whose side differs from the frame's median by more than this
            fraction (or is not square) is given the median side.
        evidence_margin: margin (patch px) of the patch the shape evidence is measured on (it sees the
            face's surroundings up to 1.4 x its half side).
        evidence_sectors: sectors of the outline checked for contrast around a face.
        evidence_body, evidence_outline, evidence_ink: log-RGB distances to the body colour: a rim pixel
            nearer than ``evidence_body`` is body; a sector of the surroundings whose median is farther than
            ``evidence_outline`` stands out; a pixel of the face's middle farther than ``evidence_ink`` is ink.
        rim_ramp, outline_ramp, ink_ramp: (lo, hi) of the ramps that turn the evidence into a die-likeness:
            0 below lo, 1 above hi (ink both ways: a face needs some ink and some body in its middle).
        snap: snap every face onto its die at the side the size model expects there, when the snapped
            square fits the die's edges better by ``snap_gain`` (off: only faces of odd size take the
            expected side, in place).
        snap_patch, snap_context: a face is snapped (:func:`vision.roll_dice.shape.snap_top`) on a
            ``snap_patch`` px patch spanning ``snap_context`` x its side.
        snap_shifts, snap_turns, snap_scales: the moves tried (x side, degrees, x side).
        snap_points: points per side of the sampled outline; snap_rim, snap_band: the rim and the band
            outside it, as a fraction of the half side.
        size_model_min: summed die-likeness needed to fit the size of a die across the frame (else the
            weighted median side).
        min_die_score: candidates below this die-ness score are dropped.
        cnn_candidates: also take candidates from the d6 CNN detector (``vision/models``).
        cnn_threshold: minimum CNN heatmap peak (0..1) of such a candidate.
        cnn_input_long_side: the frame's longer side at the CNN's input (pixels).
        cnn_full_score: a CNN-only candidate's die-ness score is ``min(1, peak / cnn_full_score)``.
        cnn_merge_dist: a CNN box whose centre is closer than this x its side to a classical
            candidate is that candidate (not added).
        cnn_replace_aspect: a classical candidate longer than this x its width that holds CNN box
            centres is replaced by those boxes.
        cnn_side_range: a CNN box is a die candidate only when its side is within these factors
            of the frame's typical die side.
        inference: which runtime runs the CNN detector, with how many threads (:mod:`vision.inference`).
    """

    work_long_side: int = 640
    table_long_side: int = 160
    table_median: int = 15
    log_offset: float = 16.0
    chroma_weight: float = 3.0
    bright_weight: float = 2.0
    dark_weight: float = 3.0
    shadow_log: float = 0.40
    fg_threshold: float = 0.30
    work_blur: float = 1.0
    open_frac: float = 0.18
    close_frac: float = 0.10
    default_side_frac: float = 0.042
    min_area_frac: float = 0.35
    max_area_frac: float = 1.6
    min_fill: float = 0.50
    max_aspect: float = 2.0
    split_area: float = 1.6
    max_hole_frac: float = 0.5
    symbol_size: bool = False
    symbol_inset: float = 0.12
    symbol_edges: float = 0.05
    symbol_min_blobs: int = 2
    symbol_min_side: float = 0.5
    pattern_min_flat: int = 20
    size_hypotheses: tuple[float, ...] = (0.67, 0.84, 1.06, 1.32)
    size_power: float = 4.0
    size_min_evidence: float = 0.5
    size_keep_frac: float = 0.5
    size_recheck_every: int = 20
    max_split: int = 6
    split_attempts: int = 3
    fragment_min_frac: float = 0.03
    merge_fit: float = 1.15
    merge_max_frac: float = 0.8
    pair_max_area: float = 1.85
    pair_min_aspect: float = 1.6
    recut_gap: int = 3
    recut_match_ramp: tuple[float, float] | None = (0.55, 0.75)
    square_max: int = 8
    square_fit: float = 0.5
    square_cap: float = 3.0
    square_shrink: int = 2
    square_angles: int = 6
    square_span: float = 0.8
    square_nms: float = 0.7
    square_pool: int = 64
    square_outline_ramp: tuple[float, float] = (0.2, 0.5)
    square_ink_ramp: tuple[float, float] = (10.0, 50.0)
    square_sides_ramp: tuple[float, float] = (5.0, 30.0)
    square_look_min: float = 0.03
    other_size_match_ramp: tuple[float, float] | None = (0.55, 0.75)
    other_size_shape_ramp: tuple[float, float] = (0.3, 0.6)
    other_size_overlap: float = 0.05
    other_size_swap_margin: float | None = 0.3
    other_size_swap_fit: float = 0.25
    other_size_swap_shape: float = 0.9
    other_size_swap_least: float = 0.4
    other_size_split_overlap: float | None = 0.05
    other_size_split_inside: float = 0.6
    other_size_split_match: float = 0.0
    other_size_split_side: float = 0.9
    other_size_split_gap: float = 0.1
    other_size_split_cuts: tuple[float, ...] = (0.8,)
    duplicate_dist: float = 0.6
    side_darker: float = 0.15
    side_chroma: float = 0.15
    edge_thresholds: tuple[int, int] = (20, 45)
    core_open_frac: float = 0.08
    core_shrink: float = 0.95
    top_colour_dist: float = 0.28
    refine_by_colour: bool = True
    refine_grow: float = 1.3
    max_aspect_top: float = 1.25
    side_tolerance: float = 0.15
    evidence_margin: int = 7
    evidence_sectors: int = 16
    evidence_body: float = 0.2
    evidence_outline: float = 0.18
    evidence_ink: float = 0.3
    rim_ramp: tuple[float, float] = (0.3, 0.6)
    outline_ramp: tuple[float, float] = (0.3, 0.6)
    ink_ramp: tuple[float, float] = (0.03, 0.08)
    size_model_min: float = 4.0
    snap: bool = False
    snap_gain: float = 0.3
    snap_patch: int = 64
    snap_context: float = 2.2
    snap_shifts: tuple[float, ...] = (-0.3, -0.2, -0.1, 0.0, 0.1, 0.2, 0.3)
    snap_turns: tuple[float, ...] = (-8.0, 0.0, 8.0)
    snap_scales: tuple[float, ...] = (0.9, 1.0, 1.1)
    snap_points: int = 12
    snap_rim: float = 0.84
    snap_band: float = 1.18
    min_die_score: float = 0.3
    cnn_candidates: bool = True
    cnn_threshold: float = 0.30
    cnn_input_long_side: int = 512
    cnn_full_score: float = 0.5
    cnn_merge_dist: float = 0.6
    cnn_replace_aspect: float = 1.3
    cnn_side_range: tuple[float, float] = (0.5, 3.0)
    inference: InferenceConfig = InferenceConfig()

    def cnn_config(self) -> D6Config:
        """The :class:`D6Config` the CNN candidate source runs with (shipped model, these thresholds)."""
        return D6Config(detection_threshold=self.cnn_threshold, input_long_side=self.cnn_input_long_side,
                        inference=self.inference)
