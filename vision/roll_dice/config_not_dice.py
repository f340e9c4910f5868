"""The thresholds of the tests that tell a Roll for the Galaxy die from what only looks like one: a table's
pattern, a printed square, flat art, a side face, a printed box, a blank check, the table's texture."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["NotDiceConfig"]


@dataclass(frozen=True)
class NotDiceConfig:
    """Which faces are no die (once the die size is chosen): part of :class:`vision.roll_dice.config.RollDiceConfig`.

    Attributes:
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
        blank_alike_refs: a read colour with fewer than ``blank_refs`` other dice takes as its bar the median stroke
            spread of the dice of the colours printed alike (the same ink, light or dark), at least this many of
            them (None: such a colour is not judged): a flat check or a smudged token read as a colour no other die
            of the frame has is still held to a die's print.
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
        own_side_overlap, own_side_far_body, own_side_distance, own_side_band, own_side_patch: the own-colour
            side-face test (:func:`vision.roll_dice.own_side.drop_own_sides`): a read overlapping at least
            ``own_side_overlap`` of its box a read of its own colour at least as sure, whose band ``own_side_band``
            (inner, outer, in sides of the face) inside its side turned away from that read, on an upright patch of
            ``own_side_patch`` px, holds less than ``own_side_far_body`` of pixels within ``own_side_distance``
            (log-RGB) of its own body colour, is that die's side face lit like its top (``own_side_far_body`` None:
            no test).
        on_other_share, on_other_distance, on_other_reach, on_other_patch: the test of a box lying partly on
            another die's top (:func:`vision.roll_dice.on_other.drop_on_other_dice`): a read with a read of another
            colour at least as sure whose middle lies within ``on_other_reach`` of its sides, of whose square (an
            upright patch of ``on_other_patch`` px) at least ``on_other_share`` is that read's body colour and not
            its own (within ``on_other_distance``, log-RGB), joined to the square's border, lies on that die (two
            dice's tops never overlap) and is dropped (``on_other_share`` None: no test).
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
        light_doubt_warm, light_doubt_tint: how far (log units, sigmas) the frame's light found from its dice may be
            off along the lamps' warm-cool axis and across it (green-magenta), for a cap on a read's confidence
            (:func:`vision.roll_dice.light_doubt.capped_by_light_doubt`): a read is at most as sure as its body is of
            the read colour with that doubt added to its noise along those axes, so a die a small change of light
            would turn into another colour (blue and white, red and yellow) is asked about (``light_doubt_warm``
            None: no cap; reads, colours and faces never change).
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
    """

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
    blank_alike_refs: int | None = 3
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
    own_side_overlap: float = 0.15
    own_side_far_body: float | None = 0.17
    own_side_distance: float = 0.3
    own_side_band: tuple[float, float] = (0.1, 0.3)
    own_side_patch: int = 32
    on_other_share: float | None = 0.2
    on_other_distance: float = 0.3
    on_other_reach: float = 1.3
    on_other_patch: int = 32
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
    light_doubt_warm: float | None = 0.08
    light_doubt_tint: float = 0.05
    texture_side: float = 12.0
    texture_reach: float = 2.2
    texture_min_shift: float = 0.8
    texture_apart: float = 0.9
    texture_copies: int = 2
    texture_ramp: tuple[float, float] | None = (0.78, 0.88)
    texture_match_ramp: tuple[float, float] = (0.75, 0.85)
