"""The thresholds that read a Roll for the Galaxy die's face and colour: the face match and its second looks, the
light and the colours, and the die weight a read is reported with."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["FaceConfig"]


@dataclass(frozen=True)
class FaceConfig:
    """What a die shows (stages 6-8): part of :class:`vision.roll_dice.config.RollDiceConfig`.

    Attributes:
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
        wash_sigma: how far (a share 0..1 of the way to white, the sigma of its cost) a die's colour may be washed out
            towards white in its colour chances (:func:`vision.roll_dice.colours.washed_distances`: a camera's colour
            matrix and a lamp's veil shrink a die's chroma with its hue kept). At 0.25 each washed colour costs a die
            on white about 16 (it keeps about 0.998 of white; 85 white dice of seeds 1000-1004 and spent
            120000-120008 lie 0.04 (median) to 0.11 log units from white), while a yellow die lifted 0.7 of the way
            to white (spent 120014's cream dice) is yellow; None: the plain distances.
        wash_rim_ramp: a body is washed out at most ``wash_sigma`` x the ramp of its face's rim share (the share of
            the rim within ``evidence_body`` of the body, :func:`vision.roll_dice.colours.wash_sigmas`): a veil washes
            a die one colour to its edges, while a face whose rim holds several colours (a gingham's checks) has a
            body that is their blend, a pink on the line from red to white (None: every body as far as
            ``wash_sigma``).
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
        alike_colour_by_body: once a die's face is chosen, its colour is chosen with every template of that face
            printed as the colour prints (its own or another colour's) counting alike
            (:func:`vision.roll_dice.colour_pick.colour_scores`): between colours printed alike the body decides (their
            templates are looks of one symbol: a die's own colour's template matched better than another colour's
            printed alike on 53 % of 283 pairs, seeds 1000-1004 and spent 120000-120003). False: the colour x face
            decision's own scores.
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
        min_confidence: candidates less likely than this to be a die of an enrolled colour are dropped.
        face_threshold: the face is reported only when its (colour, face) pair has at least this
            probability; otherwise the die is reported with ``face=None``.
        overlap_dist: of two dice whose centres are closer than this x their side, only the more
            confident is reported.
        overlap_share: of two dice whose top faces overlap by more than this share of the smaller one, only
            the more confident is reported (two dice's top faces never overlap; a box beside a die that covers
            part of it is that die seen again).
    """

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
    wash_sigma: float | None = 0.25
    wash_rim_ramp: tuple[float, float] | None = (0.4, 0.7)
    saturation_scales: tuple[float, ...] = (0.8, 0.9, 1.0, 1.12, 1.25)
    saturation_sigma: float = 0.15
    face_temperature: float = 0.04
    face_none_ncc: float = 0.35
    colour_outlier_d2: float = 50.0
    impossible_penalty: float = 0.05
    alike_colour_by_body: bool = True
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
    min_confidence: float = 0.15
    face_threshold: float = 0.4
    overlap_dist: float = 0.7
    overlap_share: float = 0.4
