"""Every threshold of the hex reader, declared once, and the identification thresholds of hex decks."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..card_detect import CardsConfig
from ..card_features import IdConfig
from ..errors import VisionError

__all__ = ["HexesConfig", "NotAHexDeck", "default_id_config"]


class NotAHexDeck(VisionError, ValueError):
    """The deck given to :func:`read_hexes` was enrolled as cards, not with :func:`build_hex_deck`."""


@dataclass(frozen=True)
class HexesConfig:
    """Every threshold of the hex reader.

    Attributes:
        hex_mm: flat-to-flat width of a sector hex on the table, mm (None: the deck's, else
            ``fallback_hex_mm`` with a calibration, else estimated from the image).
        work_flat_px: detection runs on an image where a hex is this many pixels across its flats.
        estimate_long_side: without calibration and size, the hex size is estimated on the frame resized
            to this long side.
        hex_px: flat-to-flat width of a hex in frame pixels when known (skips the estimate without
            calibration).
        min_hole_frac: holes of the foreground smaller than this fraction of a hex are filled (planets
            that look like the table); larger holes (gaps in the map) are kept.
        close_frac: the foreground is closed with a disc this fraction of a hex's flat width (bites of
            artwork that looks like the table at a tile's edge).
        lattice_scales: with a calibration, the flat widths tried for the lattice, relative to the expected one;
            the one whose outline response folds most sharply onto one lattice is taken when its cells also show
            more outline in all than the expected width's (the expected size is a prior: a lens's distortion, which
            a calibration from four markers does not model, makes hexes several percent larger or smaller in
            the work image than the calibration says). ``(1.0,)``: the expected size only. The other widths are
            searched only when the lattice fitted at the expected width says it is off
            (:func:`vision.hexes.lattice.width_is_off`): ...
        lattice_pitch_tolerance: ... its refitted pitch differs from the expected by more than this fraction ...
        lattice_min_cover: ... or its hexes cover less than this fraction of the foreground they lie in ...
        lattice_min_sharpness: ... or its outline response folds onto it less sharply than this (the fold's
            peak over its mean; a clean map folds at 2-4, a blurred or cluttered one at 1.3-2.5).
        second_angle: a blob's lattice is fitted at its second likeliest angle too when that angle's weight is at
            least this share of the first's (:func:`vision.hexes.lattice.lattice_angles`: wood grain or a weave joined
            to the map can outweigh the tiles' edges); the angle whose cells show more outline is kept (1.0: never).
        min_occupancy_crisp: a cell whose hexagon is less foreground than ``min_occupancy`` (a dark tile on
            a dark table) is still a hex down to this occupancy when ...
        crisp_for_low_occupancy: ... at least this many of its sides show an outline.
        min_occupancy: a lattice cell is a hex when at least this fraction of its hexagon is foreground ...
        min_crisp_sides: ... and at least this many of its six sides show an outline ...
        min_edge: ... of at least this mean oriented gradient (grey levels per pixel, work image).
        refine_frac: each hex may move by up to this fraction of its flat width to the strongest outline ...
        refine_gain: ... once the lattice is fitted, only when that outline is this much stronger than at
            the lattice position.
        refine_window: after the lattice, each hex's outline is fitted to the image (:func:`refine_hexes`)
            within this fraction of its flat width ...
        refine_scale: ... and, without a calibration, its size within this relative change ...
        refine_points: ... sampling this many points along each edge (away from the edge's middle) ...
        refine_noise: ... where the edge score is gradient across / (gradient + this, grey levels per px) ...
        refine_prior: ... less this times (shift / window) squared (the lattice's position is the prior).
        grow_min_score: a lattice neighbour of a found hex that is only partly foreground is a hex when
            its fitted outline scores at least this (of 4.75: every edge's structure runs along it) ...
        grow_min_occupancy: ... and at least this fraction of it is foreground (:func:`grow_hexes`) ...
        grow_rounds: ... searched from the hexes found in the previous round, this many times at most;
        grow_min_edge: ... and each of its six sides scores at least this (0-1, :func:`edge_scores`): a gap
            between hexes, outlined by its neighbours on some sides, has a side without an outline ...
        grow_min_coherence: ... and its edges' profiles are alike along them, the coherences sorted and weighted
            as the outline score (of 4.75, :func:`vision.hexes.outline.edge_coherence`): a patterned cloth's checks
            cross a hexagon's sides, they do not run along them ...
        grow_second_edge: ... and each of its sides but one (a tile's side along a neighbour of much its colour)
            has at least this coherence (0-1).
        grow_strong_coherence: a cell whose coherence is at least this is a hex with an outline score down to
            ``grow_coherent_score`` (star print or wood grain across a faint outline) ...
        grow_coherent_score: ... see above; ...
        grow_bare: ... and, with this, one on the map's edge (a side touching no hex) with less foreground than
            ``grow_min_occupancy`` (a tile the table-colour model takes for table) is a hex too when ...
        grow_bare_edge: ... each of its sides touching no hex has at least this coherence (0-1): a tile's edge
            against the table is one profile all along; a gap's open side is table on both sides.
        line_frac: length of the edge filter along a side, fraction of the side.
        crop_size: side of the square hexagon crop in pixels (the hexagon's corners touch its left/right).
        axial_tolerance: an axial position further than this (in hex pitches) from a lattice cell is null.
        anchor_id: the id of the hex at axial (0, 0) (the Galactic Center is "001" in the Eclipse data).
        id_config: identification thresholds of hex decks (None: :func:`default_id_config`).
        shortlist: sectors compared at every shift and turn after the coarse pass (:func:`score_hex`) ...
        fine_shift: ... at shifts of up to this many structure-map pixels (None: the deck's).
        colour_weight: weight of the hue histogram for hexes (None: the deck's ``colour_weight``).
        min_confidence: an id below this confidence (0-1) is unreadable, not a guess
            (:func:`vision.hexes.identify.decide_hexes`): a wrong sector on the map is a wrong ring or
            wormhole check, an unreadable one a question.
        anchor_margin: with no hex identified as the anchor, the hex most like it is taken as the anchor
            when its distance is this much below every other hex's (axial coordinates then count from it).
        anchor_ring_agreement: a guessed anchor (not identified) is kept only when at least this share of
            the identified sectors lie in their own ring round it (:func:`vision.hexes.layout.rings_agree`;
            the Eclipse rulebook's Explore: each space takes a hex of its ring's stack); else axial is null.
        ring_anchor_least: with the anchor not found at all, the cell the identified sectors' rings point to
            anchors the map when at least this many of them agree (:func:`vision.hexes.layout.ring_anchor`).
        drop_unjoined: with a deck, a full read drops the hexes joined to no identified hex through touching
            hexes (:func:`vision.hexes.layout.joined_to_read`: an Eclipse map is one piece).
        fg: the foreground model's thresholds (shared with the card reader).
        fallback_hex_mm: hex size (mm) assumed when neither ``hex_mm`` nor the deck gives one.
    """

    hex_mm: float | None = None
    work_flat_px: float = 56.0
    estimate_long_side: int = 960
    hex_px: float | None = None
    min_hole_frac: float = 0.5
    close_frac: float = 0.12
    lattice_scales: tuple[float, ...] = (0.94, 1.0, 1.06, 1.12)
    lattice_pitch_tolerance: float = 0.01
    lattice_min_cover: float = 0.8
    lattice_min_sharpness: float = 1.5
    second_angle: float = 0.4
    min_occupancy_crisp: float = 0.45
    crisp_for_low_occupancy: int = 4
    min_occupancy: float = 0.78
    min_crisp_sides: int = 2
    min_edge: float = 6.0
    refine_frac: float = 0.06
    refine_gain: float = 1.15
    refine_window: float = 0.12
    refine_scale: float = 0.05
    refine_points: int = 10
    refine_noise: float = 2.0
    grow_min_score: float = 3.2
    grow_min_occupancy: float = 0.12
    grow_rounds: int = 3
    grow_min_edge: float = 0.5
    grow_min_coherence: float = 2.0
    grow_second_edge: float = 0.3
    grow_strong_coherence: float = 2.8
    grow_coherent_score: float = 2.8
    grow_bare: bool = True
    grow_bare_edge: float = 0.5
    refine_prior: float = 0.5
    line_frac: float = 0.7
    crop_size: int = 96
    axial_tolerance: float = 0.3
    anchor_id: str | None = "001"
    id_config: IdConfig | None = None
    shortlist: int = 4
    colour_weight: float | None = None
    fine_shift: int | None = 2
    min_confidence: float = 0.5
    anchor_margin: float = 0.1
    anchor_ring_agreement: float = 0.75
    ring_anchor_least: int = 6
    drop_unjoined: bool = True
    fg: CardsConfig = field(default_factory=CardsConfig)
    fallback_hex_mm: float = 110.0


def default_id_config() -> IdConfig:
    """Identification thresholds for hex decks: square structure maps (the crop is a masked hexagon), and
    white balance against the brightest print (the 99.5th percentile: stars, numbers), not a paper colour --
    a sector has no paper, and balancing against its own dark background turns noise into colour.
    (Decks saved with the earlier ``paper_percentile`` keep theirs: references and queries stay alike.)"""
    return IdConfig(struct_size=(48, 48), struct_shift=4, paper_percentile=99.5)
