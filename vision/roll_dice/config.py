"""Every threshold of the Roll for the Galaxy dice reader, declared once with its default and meaning."""

from __future__ import annotations

from dataclasses import dataclass

from ..config import D6Config
from ..inference import InferenceConfig

__all__ = ["RollDiceConfig"]


@dataclass(frozen=True)
class RollDiceConfig:
    """Every threshold of the roll-dice reader, declared once.

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
            chose (and at the other sizes whose faces that search's read needed), and searches again (reusing that
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
        fragment_min_frac, merge_fit, merge_max_frac: face-core fragments above
            ``fragment_min_frac`` x die area, of a core smaller than ``merge_max_frac`` x die area,
            are merged while the union fits in ``merge_fit`` x the die side.
        max_split: a blob of more dice than this is not a pile of dice (e.g. a printed area): dropped.
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
        patch: side in pixels of the canonical top-face patch (the face spans ``patch`` px).
        patch_margin: extra pixels each side of the canonical patch (for the shift search).
        ink_noise: noise floor of an ink window's spread (log units per pixel) in the NCC: a window
            flatter than this (a smooth patch of table) cannot match a symbol well.
        chroma_ink_weight: weight of the chroma ink channel against the brightness one in the NCC.
        templates_per_pair: templates kept per enrolled pair: the aligned mean, plus the enrolled
            dice least like it (enrollment setting).
        enroll_side_off, enroll_side_photos: enrollment setting (:func:`vision.roll_dice.enroll.build_profile`): a
            photo whose dice's median side is more than ``enroll_side_off`` times off (either way) the median side
            of every die of the enrollment, or that shows no die, is detected again at that side (the owner's dice
            under one camera share one size); only with at least ``enroll_side_photos`` photos showing dice; 0: off.
            On the second generator's enrollment (seed 7) a brown die's produce crate, a light square about half
            the die on a brown table, was taken for the dice (4 of 6 kept, at 18 px where the dice are 51): looked
            at again at 51 px, the 6 dice are kept and the pair's template shows the die's face. The second look
            replaces the first when it keeps more dice, or as many nearer that side. At 1.3 a photo whose dice were
            off by the camera's distance alone was looked at again and its template changed (the enrollment's dice
            are 42-66 px).
        template_centering: fraction of the mean template taken off every template at read time.
        shift_step: step in patch pixels of the shift search of the face match (2 = 4x faster).
        shift_refine: the face match's shift searches (first match and ``relocate_*``) go coarse to fine:
            every window of a coarse grid, then the neighbours of the best this many coarse windows of each
            die (:func:`vision.roll_dice.faces.search_faces`; 0 = every window).
        shift_coarse: the coarse grid of those searches is this many search steps (at least 2); 3 scores
            about a third fewer windows than 2 and, on seeds 1000-1009 and 3000-3009 of both generators,
            reads no die worse (the best template of 144 of 146 searches on a full Roll table unchanged).
        glare_log: on a die with dark symbols, brightness above the body is glare, not ink: it is
            zeroed and its chroma faded out by this many log units (the same for darkness on a die
            with light symbols); 0 = off.
        glare_min, glare_grow, glare_keep: a glare spot (:mod:`vision.roll_dice.glare`): the pixels of a face's patch
            whose every channel is at least ``glare_min`` (0..255: clipped to white) and that are brighter than its
            body by ``glare_log`` or more, grown by ``glare_grow`` patch px (its halo), are left out of the face
            match's NCC, in each window they touch that keeps at least ``glare_keep`` of its pixels (``glare_min``
            above 255: off).
        lamp_close, lamp_gamma: the lamp's second look (:mod:`vision.roll_dice.lamp`): a die of a colour printed dark
            whose read is still weak after the second read of weak faces (``recentre_*``) is matched again on its box
            with a soft lamp spot (unclipped: left in by ``glare_min``) taken off each colour channel in linear light
            (``(v / 255) ** lamp_gamma``: the camera's tone curve undone), the light level the morphological closing
            of a ``lamp_close`` px square (wider than a symbol's stroke); the new read is taken as the second read's
            are (``recentre_gain`` over the first read's best dark-printed template, a face, the same colour, its
            confidence at most ``recentre_cap``). ``lamp_close`` below 2: no such look. On the second generator's
            seeds 1020-1039 faces right 339 -> 341 of 357 (a blue wild and a white ship under a spot), 1000-1019 329
            of 338 either way, the first generator's 1000-1039 the same; 7 px read the same faces and turned an
            unreadable face into a wrong one.
        lamp_below: the lamp's look only at a die whose best dark-printed template's NCC in the first read is below
            this: a soft spot lifting the ink under it is what spoils such a match, so a face matched at least so well
            is not spoiled by one and the look (which must then beat it by ``recentre_gain``) is not run. On the second
            generator's seeds 1020-1039 every die the look read again had a first NCC of 0.70 or less (0.66 or less
            where it was taken); a weak Eclipse combat die (weak for a close second face, not a poor match) had 0.94.
            Above 1: every weak die of a colour printed dark is looked at.
        spot_colour_sure, spot_clip, spot_neutral: the last look at a die still read unreadable after the lamp's look
            (:func:`vision.roll_dice.recentre.recentre_reads`): a colour printed dark whose body alone makes it sure
            (:func:`vision.roll_dice.assemble.colour_sure` at least ``spot_colour_sure``; above 1: no such look) is
            matched again on its box and the squares round it with the lamp's reflection taken out pixel by pixel
            as white light over the body's colour (:func:`vision.roll_dice.lamp.spot_free_inks`; channels at
            ``spot_clip`` or above, clipped, left out of each pixel's fit; a body whose linear colour has a cosine
            of ``spot_neutral`` or more with white is not looked at: its light and the lamp's look alike). The new
            read is taken as the lamp's look takes one; a face already read (even weakly) is never replaced by it,
            unless ``spot_other_print``.
        spot_other_print: a face read in a colour printed dark whose first match's best template is printed light
            (:func:`vision.roll_dice.recentre.other_print_reads`: a lamp's soft spot on dark ink is a smooth bright
            bump, which light-printed templates of other colours match as light ink) gets that look too, whatever its
            confidence, and the look's read replaces it on the same terms (its best dark-printed template beating the
            first match's by ``recentre_gain``, a face, the same colour, confidence at most ``recentre_cap``) and only
            where that template also comes within ``recentre_gain`` of the light-printed one the face was read from
            (else the spot-free match is no better evidence than the spot's). False: only dice read unreadable. On the
            second generator, faces right 332 -> 334 of 341 (1000-1019) and 347 -> 348 of 359 (1020-1039): dark ink
            under a spot read wild or develop from purple's light templates (1011, 1013, 1023 twice) read right; a
            blue produce read wild (1031); the dice found, false dice and colours unchanged. Without the second bar
            333 and 348 (a right green settle lost on 1009).
        recentre_below: the second read of a weak face (``recentre_*``) only at a die whose best template's NCC in
            the first read is below this: a face matched so well is weak for a close second face (an Eclipse combat
            die whose best template scored 0.94), not for a box off its top, and the squares round it would have to
            beat that match by ``recentre_gain``; it goes on to the lamp's look (``lamp_below``) as a die no square
            read better does. On ``bench/roll_dice.py`` 1000-1039 (both generators, 511 weak dice) every read the
            squares replaced had a first NCC of 0.86 or less, and ``bench/offmap_dice_ab.py`` tables 1-6 read the same
            dice with the gate and without it. Above 1: every weak face.
        relocate_below, relocate_margin, relocate_step, relocate_scales, relocate_gain: a die
            whose best template NCC is below ``relocate_below`` is matched again over shifts of up
            to ``relocate_margin`` x its side (step ``relocate_step`` patch px) and at these side
            scales; the new place is kept when it beats the first NCC by ``relocate_gain``.
        recentre, recentre_confidence, recentre_shifts, recentre_scales, recentre_snap, recentre_snap_box,
            recentre_turn, recentre_angle_span, recentre_gain, recentre_cap: the second read of weak faces
            (:mod:`vision.roll_dice.recentre`): once the dice are decided, each read whose face is unreadable or whose
            confidence is below ``recentre_confidence`` is matched again at the squares where its top face may lie
            (the read box had slid onto a side face or a neighbour, or taken its angle): its box shifted by
            ``recentre_shifts`` x its side along its own axes, at ``recentre_scales`` x its side, and (with
            ``recentre_snap``) the square :func:`vision.roll_dice.shape.snap_top` fits to the top face's edges at the
            side a die has there (and, ``recentre_snap_box``, at the box's own side); when the die's edges
            (:func:`vision.roll_dice.shape.edge_angle`, on a patch of ``recentre_angle_span`` x its side) lie more
            than ``recentre_turn`` degrees off the box's angle, the box turned to them and the square snapped from
            there too (0: never). Each square's ink is measured against that square's own body colour. The best
            square's face replaces the first read's when its best NCC beats the first one by ``recentre_gain``, it
            reads a face, and the colour read stays the same; its confidence is then at most ``recentre_cap``. The
            box reported, the dice found and the colours never change. ``recentre`` off: no second read.
            Set on the second generator's seeds 1000-1019 (faces right 91.8% with no second read): the two scales
            alone 94.2% (311 of 330); with the snap at the expected side 95.2% (314), also at the box's side 95.5%
            (315); with the snap at the expected side and the turn (the default) 95.8% (316); on seeds 1020-1039 the
            scales alone 89.0% (307 of 345), with the snap 90.1% (311), with the snap and the turn 92.5% (319); the
            dice found, false dice, colours and confident wrong reads the same, no right face lost.
            The stage's CPU (``recentre`` of the reader's timings): a full Roll table (``bench/roll_table_ab.py``,
            1-2 of its 19 dice weak) 5.6 ms with the scales alone, 10.0 ms the default, 11.4 ms with both snaps; a
            scene of the second generator (5-15 of 11-25 dice weak) 33 ms, 64 ms the default (54 ms without the turn),
            78 ms with both snaps. Shifts of 0.2 sides at the three scales (28 squares a die) found no face more
            than the scales and the snaps, at five times their cost. On unseen seeds, faces right with the scales
            alone -> the default: 77000-77019 90.4% -> 93.3% (337 -> 348 of 373), 78000-78019 88.3% -> 91.3% (273 ->
            282 of 309), the dice found, false dice, colours and confident wrong reads the same, the first generator
            394 -> 396 of 400 and 385 of 386; earlier, with the scales alone (with both snaps): 61000-61019 92.6%
            (94.6%), 62000-62019 92.4% (94.4%), 71000-71019 87.9% (89.0%), 72000-72019 91.2% (92.7%).
        recentre_wide_shifts, recentre_wide_context, recentre_wide_lifts, recentre_wide_fit, recentre_wide_apart:
            the second read's wider search for a top face farther off the box (0.5-0.85 of a side: beyond the snap's
            reach of about 0.37): :func:`vision.roll_dice.shape.snap_top` at the side a die has there and the edges'
            angle, over shifts of ``recentre_wide_shifts`` x the side on a patch of ``recentre_wide_context`` sides,
            looking for the box's body colour lifted by each of ``recentre_wide_lifts`` (log units: a box on a side
            face measured the side's colour, and the top is that colour lit more). A square whose fit is below
            ``recentre_wide_fit`` (nothing of that colour found) or within ``recentre_wide_apart`` sides of a square
            already tried is left out, so a weak die gets at most one square a lift, none when its box is on the
            top. Empty ``recentre_wide_shifts``: no wider search. On the second generator (with the enrollment
            looked at again at the dice's size), faces right of the dice found with their colour right: seeds
            1000-1019 323 -> 324 of 331 (a brown die whose box lay 0.64 of a side off its top), 1020-1039 327 of
            345 either way, no other read changed; the stage's CPU a scene (median of 16 reads, 8 scenes)
            52.0 -> 59.5 ms with one lift of 0.3, 50.9 -> 72.4 ms with two (0.2, 0.4) for the same faces. The box's
            own body colour, unlifted, found no top farther off (316 of 330 on seeds 1000-1019, as without).
        recentre_nadir_shifts, recentre_nadir_min, recentre_focal: the second read's square away from the camera's
            nadir (:mod:`vision.roll_dice.nadir`): a camera over a table sees each die's side faces hang from its top
            towards the nadir (the picture's centre overhead; below it, tilted), reaching about 0.3-0.9 of a side at
            the picture's edges, and a box fitted to the die's whole outline (its top and a side face of its colour)
            lies between them. The nadir and the camera's tilt are worked out from the size the table's size model
            gives a die across the picture, with a focal length of ``recentre_focal`` x the picture's width; a weak
            die whose side faces reach at least ``recentre_nadir_min`` of a side gets the square of the expected side
            ``recentre_nadir_shifts`` x that reach away from the nadir, snapped onto the top face's edges and kept as
            the wider search's squares are (fit at least ``recentre_wide_fit``, not within ``recentre_wide_apart``
            sides of a square already tried). Empty: none. On the second generator, faces right of the dice found
            (dice found, false dice and colours unchanged): seeds 1020-1039 337 -> 339 of 357 (a red die's box on its
            side face 0.46 of a side off, a white die's on the table's white checks), 1000-1019 329 of 338 either
            way; shifts of (0.5, 1.0) reach lost three right faces on 1000-1019 (squares past the top, on a neighbour
            or the table), 1.1 lost one.
        ink_blur: Gaussian sigma (patch pixels) on the ink map (tolerance to small misalignment).
        template: side of the central template region compared with the enrolled templates.
        brightness_sigma, chroma_sigma: colour metric (log units) for the colour posterior.
        dark_sigma: noise (log units) a channel at black adds to the colour metric, fading as
            ``log_offset / (value + log_offset)`` (:func:`vision.roll_dice.colours.channel_sigma`): a dark channel says
            little about a die's colour.
        light_warm_sigma, light_tint_sigma: prior spread (log units) of the light's offset along the
            lamps' warm-cool axis and across it (green-magenta tint).
        light_grid_warm, light_grid_tint: offsets tried along each axis (over +-2.5 sigma).
        white_sigma: spread (log units, each chroma axis) of the light's colour about what a white reference of the
            frame shows (:func:`vision.roll_dice.colours.white_offset`: paper or a card's border is not quite a
            die's white, and a lamp's colour varies a little across the table).
        white_die_chroma: a white reference is compared with the enrolled white die: the prototype of least chroma,
            when its chroma (log units) is at most this. A dice set with no white die (Eclipse's combat dice:
            yellow, orange, red) has nothing to compare the paper with, and the light is found from the dice alone.
        light_colour_dice: in the light's fit, the dice read as one colour together count as at most about this
            many sure dice (:func:`vision.roll_dice.colours.estimate_light`): many alike faces (a table's pattern)
            cannot outvote the other colours.
        saturation_scales, saturation_sigma: chroma scales tried about the white reference, and the
            spread of their log-normal prior (a camera's tone curve).
        face_temperature: softmax temperature on NCC scores.
        face_none_ncc: NCC of the "unreadable" option: a face matching no template better than
            this is reported as ``None``.
        colour_outlier_d2: squared colour distance of the "none of the enrolled colours" option.
        colour_weight: how much a die's body colour weighs in the colour x face decision against its symbol: the log
            colour chances are multiplied by it before the NCC (over ``face_temperature``) is added
            (:func:`vision.roll_dice.assemble.joint_scores`). At 1 a template of another colour that matched 0.1-0.2
            better overrode a body read 0.85-0.99 as one colour (the lamp's sheen on a red die printed dark matching a
            purple or brown template printed light); at 2 such a body costs a template 0.17-0.37 NCC, while a body
            between two colours (chances near even) is still decided by the symbol.
        impossible_penalty: NCC lowered for a face seen on a colour that does not have it.
        pooled_penalty: NCC lowered for a face's best template on another colour printed in the same polarity,
            when it stands in for the colour's own template (:func:`vision.roll_dice.assemble.joint_scores`;
            negative: the own template only).
        confident_cap: confidence cap of a read whose best pair is not allowed (and of an unreadable face).
        allowed_face_share: a read whose best pair is not allowed (the colour's die has no such face) reads the face
            the colour's die has with the highest probability, when that holds at least this share of what that
            colour's faces hold together (else the face is unreadable); its confidence stays capped at
            ``confident_cap``.
        match_ramp: (lo, hi) best template NCC that says "one of the owner's symbols is printed here":
            0 below lo, 1 above hi (the symbol evidence that a face is a die).
        shape_only: the most a face's shape alone (no symbol known) says it is a die.
        symbol_min, shape_alone: a face whose best template NCC is below ``symbol_min`` (no symbol of the
            owner's dice on it) is a die only when its die-likeness is at least ``shape_alone``.
        shape_support: how much a symbol match needs the face's shape to agree (0: not at all, 1: fully).
        strong_match_ramp: (lo, hi) best template NCC that alone says "a die" whatever its shape.
        face_sure_ramp: (lo, hi) best template NCC over which a face read goes from not sure to sure.
        symbol_middle, middle_ramp: a face is printed when its middle (the square of ``symbol_middle`` x the half
            face about its centre) varies: the spread of its ink map there (log units,
            :func:`vision.roll_dice.shape.middle_spread`) on the ramp ``middle_ramp`` scales its die weight (a
            symbol's strokes give ~0.3-1; a flat check or blot of a patterned table ~0.02-0.1).
        stroke_sigma, stroke_ramp: a face is printed in strokes when its middle (as for ``middle_ramp``) still
            varies once its Gaussian blur of ``stroke_sigma`` patch px is taken off
            (:func:`vision.roll_dice.shape.stroke_spread`, log units): the ramp ``stroke_ramp`` of that spread
            scales its die weight too (a symbol's sharp strokes give ~0.15-0.6; a playmat's soft painted blot or a
            shaded patch of table ~0.02-0.08, though its middle varies as much as a symbol's).
        relocate_likeness: only faces at least this die-like are looked at again when they match poorly.
        min_die_score: candidates below this die-ness score are dropped.
        repeat_window, repeat_reach, repeat_min_shift, repeat_side: the pattern test
            (:func:`vision.roll_dice.shape.pattern_repeats`): a window of ``repeat_window`` x the face's side,
            looked for within ``repeat_reach`` sides, shifts from ``repeat_min_shift`` sides, on a grey copy
            where a face is ``repeat_side`` px. A repeat is looked for on both sides (at a shift and its opposite);
            where the frame cuts the opposite off, the one-sided match counts ``repeat_one_side`` less.
        repeat_ramp: (lo, hi) of a face's pattern NCC over which it goes from a die to a tile of the table's
            pattern (a gingham's check, a printed grid): its die score is scaled by 1 - the ramp.
        repeat_axes_angle, repeat_axes_colour, repeat_axes_ramp: the same along two axes
            (:func:`vision.roll_dice.shape.pattern_axes`, in colour when ``repeat_axes_colour``): a face whose window
            also recurs both ways at a shift turned at least ``repeat_axes_angle`` degrees from its best repeat is a
            tile of a lattice (a cloth's checks), which a row of dice alike or a die on a printed line never is; its
            die score is scaled by 1 - the larger of the two ramps. Colour tells a coloured die from the cloth's
            check of the same grey.
        repeat_axes_screen: the colour look of the second axis (``repeat_axes_colour``) is taken only at the faces
            whose grey window recurs along a second axis at least this much (NCC; or where the grey look says
            nothing: a window flat in grey): a window that recurs in colour recurs in grey too, and the colour
            match costs three grey ones. None: the colour look at every face. (Scenes of both generators and full
            Roll tables, seeds 1000-1011: every colour second axis of 0.5 or more had a grey one of 0.33 or more,
            of 0.6 or more (where the ramp starts) 0.49 or more; at 0.35 the colour look is taken at 45% of the
            faces, 19% on a full table.)
        surface_ring, surface_quantile, surface_span, surface_patch, surface_ramp: the printed-square test
            (:func:`vision.roll_dice.shape.surface_returns`): the share of the sectors of the ring ``surface_ring``
            (half faces from the face's middle: beyond a die's edge and a printed square's line) where at least
            ``surface_quantile`` percent of the pixels are the face's own body colour again, measured on a
            ``surface_patch`` px upright patch spanning ``surface_span`` sides. A square printed on a board or a mat
            (a track's numbered box, a ring) is the surface inside a line, which comes back beyond it; a die stands
            out from what lies round it. Its die score is scaled by 1 - the ramp ``surface_ramp`` of that share x (1 -
            its best template NCC on ``strong_match_ramp``: a plain symbol of the owner's dice is a die wherever it
            lies, as a die among dice of its colour or on a cloth of its colour) (None: no test).
        raised_bevel, raised_sides, raised_chroma, raised_shade, raised_patch, raised_ramp, flat_surface_ramp,
            flat_match_ramp: the flat-print test (:func:`vision.roll_dice.raised.raised_edges`): a die is a raised
            body, so the ring just inside its top face's edges (``raised_bevel``, half faces: the bevel) and the ring
            just beyond them (``raised_sides``: its side faces) show its own body shaded (chroma within
            ``raised_chroma``, darker by ``raised_shade``, log units) in some sectors; a check of a cloth or a
            board's numbered box is flat, its edge another print. Measured on a ``raised_patch`` px patch spanning
            ``surface_span`` sides. A face whose surface comes back round it (``flat_surface_ramp`` of
            :func:`vision.roll_dice.shape.surface_returns`, a lower bar than ``surface_ramp``) and whose edges are not
            raised (1 - ``raised_ramp`` of the two shares' sum) has its die score scaled by 1 - that product x (1 - its
            best template NCC on ``flat_match_ramp``: only a near-perfect match of the owner's symbols overrides the
            flat evidence; a board's digit matches a symbol at 0.55-0.75) (``flat_surface_ramp`` None: no test).
        blank_share, blank_ref_weight, blank_refs, blank_edge, blank_sure: the blank-face test
            (:func:`vision.roll_dice.blank.blank_faces`): a read die whose middle's stroke spread
            (:func:`vision.roll_dice.shape.stroke_spread`) is at most ``blank_share`` of the largest of the other dice
            read in its colour with die weight at least ``blank_ref_weight`` (at least ``blank_refs`` of them), with
            no good symbol match (best NCC at most the bottom of ``flat_match_ramp``), is wholly blank beside them
            (an empty check of a cloth, a board's empty box) and is dropped; a face whose square
            reaches within ``blank_edge`` x its side of the frame's border (half a die) may be cut off and is
            neither judged nor a bar (``blank_share`` None: no test). A face of die weight at least ``blank_sure`` is
            not judged either (None: every face is): its die's shape and symbol together make it a die, and a lamp
            spot on its symbol or a faint print flattens its middle as much as a check's (real dice at 0.81-1.00
            with a stroke spread 0.20-0.26 of their colour's bar on the second generator's seeds 119200-119219; the
            empty checks and boxes the test drops on seeds 1000-1039 and 119200-119219 weigh 0.16-0.62).
        boxed_sides, boxed_patch, boxed_span, boxed_step, boxed_along, boxed_inner, boxed_line, boxed_return,
            boxed_off, boxed_same, boxed_edge: the printed-box test (:mod:`vision.roll_dice.boxed`): on an upright
            patch of ``boxed_patch`` px spanning ``boxed_span`` sides round a read die, bands ``boxed_step`` half faces
            deep parallel to each side (within ``boxed_along`` x their distance of the side's middle); the face's
            colour at a side is the mean of the bands' medians over ``boxed_inner`` (half faces from the middle); the
            side is framed where a band starting within ``boxed_line`` is more than ``boxed_off`` (log-RGB distance)
            from it and one of the next ``boxed_return`` bands within ``boxed_same`` of it again (a printed line with
            the board behind it). A read framed on ``boxed_sides`` sides or more with no good symbol match (best NCC
            at most the bottom of ``flat_match_ramp``) is a box printed on a board, dropped whatever its weight; one
            within ``boxed_edge`` x its side of the frame's border is not judged (``boxed_sides`` None: no test).
        boxed_half_sides, boxed_unlike, boxed_peer_weight: a read framed on ``boxed_half_sides`` sides only is a box
            when its body is also unlike the frame's dice of its colour: its squared colour distance to its colour's
            prototype under the frame's light at least ``boxed_unlike`` more than the median of the frame's other
            reads of that colour weighing at least ``boxed_peer_weight`` (the distance itself without such reads;
            :func:`vision.roll_dice.boxed.colour_excess`) (``boxed_half_sides`` None: no such test).
        boxed_closed: a read framed on this many sides (a closed printed line round it) is a box unless its symbol
            matches near perfectly (best NCC above the top of ``flat_match_ramp``; a board's digit in its box can match
            a symbol at 0.84) (None: such a read is judged as any other, with ``boxed_sides``).
        boxed_closed_returns: a read with a good symbol match is looked at for that closed line only where the table
            came back in at least this share of the ring round it (:func:`vision.roll_dice.shape.surface_returns`, as
            the printed-square test measured it: 0.05, one sector of ``evidence_sectors`` 16 or more; a board comes
            back beyond its printed box's line, a die standing on the table has its sides and shadow there) (None:
            every such read).
        unsized_match_ramp: (lo, hi) best template NCC over which a face becomes a die where no die size is vouched
            for (the size search's evidence below ``size_min_evidence``: no face of the frame plainly a die, the faces
            read at the size the frame's blobs give, as on an empty playmat or cloth): each face's die score is scaled
            by that ramp (None: no test).
        square_band, square_along, square_turns, square_step_ramp, square_contrast_ramp, square_noise_floor,
            square_ramp, square_match_ramp: the flat-art test (:func:`vision.roll_dice.outline.square_outline`): a die's
            top is a square whose four sides each show a straight edge (its bevel and sides, its shadow, the table); a
            blot of a playmat's art that matches a symbol has none round it. Each side's edge is the largest less the
            smallest, over the lines parallel to it within ``square_band`` (half faces from the middle), of the median
            over ``square_along`` half faces each way along it of the colour step across the line (log units); it counts
            by the ramp ``square_step_ramp`` of that step or by ``square_contrast_ramp`` of it over the patch's
            noise (the step along the line, at least ``square_noise_floor``); the face's outline is its third
            strongest side, at the best of the turns ``square_turns`` (degrees). A face whose outline is weak (1 -
            the ramp ``square_ramp`` of it) has its die score scaled by 1 - that x (1 - its best template NCC on
            ``square_match_ramp``: only a near-perfect match of the owner's symbols is a die without its outline: a
            blot of art matches a symbol at NCC 0.5-0.75) (``square_ramp`` None: no test). Set on the second
            generator's seeds 1000-1019.
        side_reach, side_cos_ramp, side_chroma_pair, side_shade_ramp, side_full_ramp, side_strip, side_colour,
            side_gap: the side-face test (:func:`vision.roll_dice.sides.side_faces`): a face whose centre is
            ``side_reach`` (lo, hi) x a neighbour's side from it, the neighbour matching the owner's symbols at least
            as well, on the neighbour's far side from the image's middle (cosine on ``side_cos_ramp``; None: any side,
            as on the second generator's seeds 1000-1011 most side faces lay towards the middle, a tilted camera's
            nadir being off the frame), of the neighbour's chroma (within ``side_chroma_pair``, log units) and darker
            (``side_shade_ramp``, log units of the channels' mean), and whose body
            colour (within ``side_colour``, log-RGB) runs beyond the neighbour's edge, on a strip ``side_strip``
            sides wide with gaps of at most ``side_gap`` sides, for less than a full die (1 - ``side_full_ramp`` of
            that run, sides) is that die's side face seen obliquely: its die score is scaled by 1 - that product. A
            real die lying against another runs a full side (``side_full_ramp`` None: no test).
        side_doubt_cap: the confidence a read that may be a neighbouring read's side face keeps at most
            (:func:`vision.roll_dice.doubt.side_doubt` 1: touching it, towards the camera's nadir, its colour
            darker, foreshortened, whichever of the two matches better), blended towards 1 as that doubt falls:
            the dice found, colours and faces never change (None: no cap). A purple side face under its glared top
            read ship at 0.997 on the second generator's seed 102008.
        sheen_sigma: spread (log units) of how far a lamp's sheen may wash a die's chroma out towards white, for the
            last cap on a read's confidence (:func:`vision.roll_dice.sheen.capped_by_sheen`): a read is at most as sure
            as its body is of the read colour when a shortfall of chroma along the line from white to a colour weighs
            with this instead of ``chroma_sigma``, as far as the body is brighter than that colour (None: no cap;
            reads, colours and faces never change). A red die
            washed out to half its chroma, its hue still red's, read brown at 0.98 on the second generator's 109002.
        hang_overlap_ramp, hang_cos_ramp, hang_reach_ramp, hang_shade_ramp: the hanging-side test
            (:func:`vision.roll_dice.sides.hanging_sides`): a face whose box overlaps a surer face's box (share of the
            smaller on ``hang_overlap_ramp``), lying from it towards the camera's nadir (cosine on ``hang_cos_ramp``)
            where that die's side faces show (their reach, sides, on ``hang_reach_ramp``), of its chroma and darker
            (``hang_shade_ramp``, log units) is a box on that die's side face: its die score is scaled by 1 - that
            (``hang_overlap_ramp`` None: no test). Set on the second generator's seeds 1000-1039.
        deep_shade_ramp, deep_shade_most, deep_cos_ramp, deep_full_ramp: the shaded-side test
            (:func:`vision.roll_dice.sides.shaded_sides`), whichever face matches or scores better: a face
            ``side_reach`` x a neighbour's side from it, of its chroma and darker by ``deep_shade_ramp`` but by no more
            than ``deep_shade_most`` (log units: a side face is still lit by the room), towards the nadir from it
            (cosine on ``deep_cos_ramp``) where its side faces show (``hang_reach_ramp``), whose colour runs beyond its
            edge for less than a whole die (1 - ``deep_full_ramp`` of that run, sides) is its side face turned from the
            lamp: its die score is scaled by 1 - that (``deep_shade_ramp`` None: no test). On the second generator's
            seeds 1000-1039 such side faces were 0.36-0.39 darker and ran 0.75-0.88 sides; no two real dice of one
            chroma touching there differed by more than 0.09, and those ran 1.2-1.5 sides beyond.
        side_print_reaches, side_print_ramp, side_print_min_reach, side_print_apart, side_print_cos: the printed
            side-face test (:func:`vision.roll_dice.side_print.side_prints`): a face within ``side_print_apart``
            sides of a surer, better matching die of its chroma, towards the camera's nadir from it (cosine at least
            ``side_print_cos``) where that die's side faces reach ``side_print_min_reach`` sides or more, whose side
            face there cut ``side_print_reaches`` sides deep and stretched square matches a symbol better than the face
            itself and than the same strip cut a whole side deep, by a gain on ``side_print_ramp``, is that die's side
            face: its die score is scaled by 1 - that ramp (None: no test). Set on the second generator's seeds
            1000-1039.
        texture_side, texture_reach, texture_min_shift, texture_apart, texture_copies, texture_ramp,
            texture_match_ramp: the table's-texture test (:func:`vision.roll_dice.texture.table_repeats`): a face's
            upright box, scaled to ``texture_side`` px, matched in colour over the table within ``texture_reach``
            sides, at shifts of at least ``texture_min_shift`` sides not within ``texture_apart`` sides of another die
            of the read, its ``texture_copies``-th best copy (copies ``texture_min_shift`` sides apart: a die's missed
            twin is one); a face whose box recurs there (a gingham's check beside a die, a board's box along its row)
            has its die score scaled by 1 - the ramp ``texture_ramp`` of that NCC x (1 - its best template NCC on
            ``texture_match_ramp``: a plain match of the owner's symbols is a die wherever it lies, and is not
            measured; a check beside a die, part of the die in its box, matches a symbol at 0.45-0.7). Set on the
            second generator's seeds 1000-1039, where a die's top recurred at most about 0.76 (``texture_ramp`` None:
            no test).
        min_confidence: candidates less likely than this to be a die of an enrolled colour are dropped.
        face_threshold: the face is reported only when its (colour, face) pair has at least this
            probability; otherwise the die is reported with ``face=None``.
        overlap_dist: of two dice whose centres are closer than this x their side, only the more
            confident is reported.
        overlap_share: of two dice whose top faces overlap by more than this share of the smaller one, only
            the more confident is reported (two dice's top faces never overlap; a box beside a die that covers
            part of it is that die seen again).
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
    patch: int = 28
    patch_margin: int = 3
    template: int = 22
    ink_blur: float = 0.0
    glare_log: float = 0.3
    glare_min: int = 245
    glare_grow: int = 2
    glare_keep: float = 0.5
    lamp_close: int = 5
    lamp_gamma: float = 2.2
    lamp_below: float = 0.8
    spot_colour_sure: float = 0.9
    spot_clip: int = 250
    spot_neutral: float = 0.97
    spot_other_print: bool = True
    relocate_below: float = 0.6
    relocate_margin: float = 0.3
    relocate_step: int = 2
    relocate_scales: tuple[float, ...] = (1.0, 0.85, 1.15)
    relocate_gain: float = 0.05
    recentre: bool = True
    recentre_confidence: float = 0.6
    recentre_shifts: tuple[float, ...] = (0.0,)
    recentre_scales: tuple[float, ...] = (0.85, 1.0, 1.15)
    recentre_snap: bool = True
    recentre_snap_box: bool = False
    recentre_turn: float = 10.0
    recentre_wide_shifts: tuple[float, ...] = (-0.8, -0.6, -0.4, -0.2, 0.0, 0.2, 0.4, 0.6, 0.8)
    recentre_wide_context: float = 3.2
    recentre_wide_apart: float = 0.15
    recentre_wide_lifts: tuple[float, ...] = (0.3,)
    recentre_wide_fit: float = 1.2
    recentre_angle_span: float = 1.6
    recentre_nadir_shifts: tuple[float, ...] = (0.75,)
    recentre_nadir_min: float = 0.15
    recentre_focal: float = 0.8
    recentre_gain: float = 0.05
    recentre_cap: float = 0.85
    recentre_below: float = 0.9
    shift_step: int = 1
    shift_refine: int = 5
    shift_coarse: int = 3
    template_centering: float = 0.0
    templates_per_pair: int = 1
    enroll_side_off: float = 1.6
    enroll_side_photos: int = 3
    ink_noise: float = 0.1
    chroma_ink_weight: float = 0.5
    brightness_sigma: float = 0.35
    chroma_sigma: float = 0.12
    dark_sigma: float = 0.5
    light_colour_dice: float = 3.0
    light_warm_sigma: float = 0.35
    light_tint_sigma: float = 0.12
    light_grid_warm: int = 25
    light_grid_tint: int = 9
    white_sigma: float = 0.06
    white_die_chroma: float = 0.25
    saturation_scales: tuple[float, ...] = (0.8, 0.9, 1.0, 1.12, 1.25)
    saturation_sigma: float = 0.15
    face_temperature: float = 0.04
    face_none_ncc: float = 0.35
    colour_outlier_d2: float = 50.0
    impossible_penalty: float = 0.05
    pooled_penalty: float = 0.05
    colour_weight: float = 2.0
    confident_cap: float = 0.5
    allowed_face_share: float = 0.5
    match_ramp: tuple[float, float] = (0.35, 0.6)
    shape_only: float = 0.5
    symbol_min: float = 0.4
    shape_alone: float = 0.8
    shape_support: float = 0.6
    strong_match_ramp: tuple[float, float] = (0.55, 0.75)
    face_sure_ramp: tuple[float, float] = (0.5, 0.75)
    relocate_likeness: float = 0.15
    symbol_middle: float = 0.5
    middle_ramp: tuple[float, float] = (0.08, 0.16)
    stroke_sigma: float = 2.0
    stroke_ramp: tuple[float, float] = (0.06, 0.12)
    min_die_score: float = 0.3
    repeat_window: float = 1.6
    repeat_reach: float = 2.2
    repeat_min_shift: float = 0.8
    repeat_side: float = 12.0
    repeat_one_side: float = 0.2
    repeat_ramp: tuple[float, float] = (0.72, 0.82)
    repeat_axes_angle: float = 35.0
    repeat_axes_colour: bool = True
    repeat_axes_ramp: tuple[float, float] = (0.6, 0.7)
    repeat_axes_screen: float | None = 0.35
    surface_ring: tuple[float, float] = (1.3, 2.2)
    surface_quantile: float = 25.0
    surface_span: float = 2.5
    surface_patch: int = 40
    surface_ramp: tuple[float, float] | None = (0.4, 0.7)
    raised_bevel: tuple[float, float] = (0.80, 0.95)
    raised_sides: tuple[float, float] = (1.05, 1.35)
    raised_chroma: float = 0.12
    raised_shade: float = 0.05
    raised_patch: int = 60
    raised_ramp: tuple[float, float] = (0.2, 0.5)
    flat_surface_ramp: tuple[float, float] | None = (0.2, 0.4)
    flat_match_ramp: tuple[float, float] = (0.8, 0.95)
    blank_share: float | None = 0.3
    blank_ref_weight: float = 0.5
    blank_refs: int = 2
    blank_edge: float = 0.5
    blank_sure: float | None = 0.7
    boxed_sides: int | None = 3
    boxed_patch: int = 50
    boxed_span: float = 2.5
    boxed_step: float = 0.1
    boxed_along: float = 0.6
    boxed_inner: tuple[float, float] = (0.6, 0.9)
    boxed_line: tuple[float, float] = (0.9, 1.5)
    boxed_return: int = 6
    boxed_off: float = 0.3
    boxed_same: float = 0.15
    boxed_edge: float = 0.6
    boxed_half_sides: int | None = 2
    boxed_unlike: float = 2.0
    boxed_peer_weight: float = 0.5
    boxed_closed: int | None = 4
    boxed_closed_returns: float | None = 0.05
    unsized_match_ramp: tuple[float, float] | None = (0.55, 0.75)
    square_band: tuple[float, float] = (0.75, 1.3)
    square_along: float = 0.7
    square_turns: tuple[float, ...] = (-30.0, 0.0, 30.0)
    square_step_ramp: tuple[float, float] = (0.1, 0.25)
    square_contrast_ramp: tuple[float, float] = (1.0, 2.0)
    square_noise_floor: float = 0.04
    square_ramp: tuple[float, float] | None = (0.0, 1.0)
    square_match_ramp: tuple[float, float] = (0.8, 0.95)
    side_reach: tuple[float, float] = (0.55, 1.35)
    side_cos_ramp: tuple[float, float] | None = None
    side_shade_ramp: tuple[float, float] = (0.05, 0.15)
    side_chroma_pair: float = 0.15
    side_full_ramp: tuple[float, float] | None = (0.6, 0.85)
    side_strip: float = 0.5
    side_colour: float = 0.3
    side_gap: float = 0.2
    hang_overlap_ramp: tuple[float, float] | None = (0.05, 0.12)
    hang_cos_ramp: tuple[float, float] = (0.5, 0.7)
    hang_reach_ramp: tuple[float, float] = (0.25, 0.35)
    hang_shade_ramp: tuple[float, float] = (0.02, 0.05)
    side_print_reaches: tuple[float, ...] = (0.25, 0.35, 0.45, 0.55)
    side_print_ramp: tuple[float, float] | None = (0.03, 0.07)
    side_print_min_reach: float = 0.2
    side_print_apart: float = 1.0
    side_print_cos: float = 0.7
    side_doubt_cap: float | None = 0.5
    deep_shade_ramp: tuple[float, float] | None = (0.15, 0.25)
    deep_shade_most: float = 1.0
    deep_cos_ramp: tuple[float, float] = (0.3, 0.5)
    deep_full_ramp: tuple[float, float] = (0.9, 1.05)
    sheen_sigma: float | None = 0.3
    texture_side: float = 12.0
    texture_reach: float = 2.2
    texture_min_shift: float = 0.8
    texture_apart: float = 0.9
    texture_copies: int = 2
    texture_ramp: tuple[float, float] | None = (0.78, 0.88)
    texture_match_ramp: tuple[float, float] = (0.75, 0.85)
    min_confidence: float = 0.15
    face_threshold: float = 0.4
    overlap_dist: float = 0.7
    overlap_share: float = 0.4
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
