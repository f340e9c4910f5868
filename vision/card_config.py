"""Every threshold of the card reader (:class:`CardsConfig`) and the size of the crops it identifies
(:func:`crop_size`). Used by the detector (:mod:`vision.card_detect`, which re-exports both), the reader
(:mod:`vision.cards`), enrolment and the hex reader's settings.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["CardsConfig", "crop_size"]


@dataclass(frozen=True)
class CardsConfig:
    """Every threshold of the card reader.

    Attributes:
        work_long_side: the frame is resized so its longer side is at most this before detection.
        border_frac: width of the frame border strip (fraction of the short side) sampled for the table colour.
        fg_min_dist: minimum Mahalanobis distance (Lab) from the table colour model for a pixel to be
            card; Otsu's threshold is clipped to [fg_min_dist, fg_max_dist].
        fg_max_dist: see fg_min_dist.
        fg_euclid: a pixel this far (plain Lab distance) from the table colour is card whatever the model
            says (a table whose lightness varies a lot, like wood in a light fall-off).
        join_frac: with a known card size (a calibrated table), foreground pieces this fraction of a card's
            short side apart are joined (:func:`card_sized`) ...
        min_part_frac: ... and foreground narrower than this fraction of it is dropped (with no known card size,
            of the smallest card's: ``mat_line_area``).
        loose_join_frac: the second look (:func:`find_card_quads`; 0 = none) where the first found no card:
            pieces this fraction of a card's short side apart are joined ...
        loose_density: ... where at least this fraction of the square of that side around a pixel is
            foreground; a card of that look is kept only when the deck identifies it with at least
            ``loose_min_confidence``.
        loose_max_coarse: a card of the second look is identified at all only when the deck's coarse distance
            (:meth:`vision.deck.DeckProfile.coarse_best_many`, all its crops in one batch) is at most this
            (:func:`vision.cards.screen_loose`; None: every one). On 21 second-generator scenes every such card
            kept came within 1.012; a patterned cloth's places are mostly above (median 1.09).
        loose_max_dice: a place of the second look is dropped before any identification when at least this
            fraction of its unexplained foreground is pieces shaped like the top of a die (:func:`die_like_share`):
            dice lying among the cards are foreground the first look leaves unexplained, and a cluster of them is
            card-sized. On 21 second-generator scenes no second-look card kept had more than 0.41 (its pieces
            are artwork fragments); the places made of dice on Roll for the Galaxy tables have 0.66-1.0.
        loose_snap: each place of the second look is moved to the strongest card-sized outline within this
            fraction of a card's sides (:func:`snap_loose`; 0 = where it was proposed).
        split_doubt_fit: with a known card size, the cards of a lattice that covers less than this fraction
            of its blob (intersection over union, :func:`lattice_fit`: the table's art touching the cards draws
            the lattice off them) are places of the second look (moved to the outlines, kept if the deck knows
            them), not cards of the first.
        die_side: (min, max) side of a die's top as a fraction of a card's short side (a 12-25 mm die beside
            a 41-63 mm card or tile); die_fill: a die's top fills at least this fraction of its fitted
            rectangle and is at most 1.3 times as long as wide.
        loose_min_area: the second look runs only where what the first look and the calibration markers leave
            unexplained is at least this fraction of a card's area (less holds no card of it) ...
        loose_min_place: ... and where, the pieces shaped like a die's top (``die_side``, ``die_fill``) and the dice
            a dice read reported (sure or not; ``find_card_quads``' ``defer``) not counted, some square of the
            card's long side holds at least this fraction of a card's area of it
            (:func:`vision.card_leftover.place_share`): a card the second look finds lies in one place. On the full
            Roll tables of ``bench/full_table.py`` (layout seeds 1-8, frame seeds 0 and 10, the tiles' second look
            asked after the dice) the dice leave at most 0.12 there, mostly under 0.05 (0.6-2.8 cards' area in
            all); on full Race tables whose second look finds places, 0.5-0.66.
        neighbour_gap, neighbour_rings, neighbour_occupancy: the second look also tries the places beside the
            cards found (:func:`neighbour_quads`): a card plus this gap (fraction of the short side) away, this
            many steps out, where at least this fraction of the place is foreground.
        read_rim: a window read after a change takes the cards already read out of its foreground with a rim
            of this fraction of the card's short side (:func:`without_read`): less than half the gap cards are laid
            with (``neighbour_gap``), so a card beside them keeps its outline.
        fg_cov_floor: added to the diagonal of the table colour covariance (Lab units squared).
        fg_modes: the table is modelled as up to this many colours (a patterned cloth's checks, a playmat's
            print; :func:`vision.foreground.table_colour_model`); fg_modes_top on a calibrated table's top-down
            image (:func:`find_card_quads` with a known card size, where the calibration markers are explained and
            what the colours cannot tell apart the second look and the deck still may). fg_modes 1 and fg_modes_top 3
            by default. Earlier (before the deck's own search of the second look's places) 3 colours on the top-down
            image read 97.5% of the cards on 21 second-generator tables of seeds 1000-1020 (93.4% with one), 93.4%
            on seeds 3000-3020 (94.2%). With the second look as it is now (``bench/table_reader.py --synth 21
            --generator scenes --seed S``), identified with one colour -> three: seeds 1000 97.5 -> 99.6% (extra
            detections 4 -> 3), and on seeds no one looked at 3000 97.3 -> 96.9% (12 -> 9; a gingham whose pale cards
            share its colours loses cards) and 5000 85.9 -> 89.3% (31 -> 31; the rest is one table whose
            calibration failed); confident wrong 0 throughout, first generator 100% either way. The cleaner mask
            leaves the second look fewer places on a gingham: CPU per read there about 1.1 -> 0.7 s, on a plain table
            unchanged (issue 16) ...
        fg_mode_gain: ... each one more only when it explains the border pixels better by this many nats per
            pixel (a plain table split in two gains about nothing) ...
        fg_mode_share: ... and each holds at least this fraction of them; the groups are fitted on at most
            fg_mode_samples of the border pixels.
        fg_mode_inside: several colours are kept only when what they clear of the one-colour foreground over
            the whole image is at most this times what they clear in the border (:func:`vision.foreground.
            foreground_mask`: the table's pattern is cleared alike everywhere; colours the cards share clear more
            inside).
        fg_reuse_drop: a table's colours kept from an earlier read (:class:`vision.foreground.TableMemory`) are
            reused while the share of the border they explain falls by less than this (0-1) from the share of
            the border they were fitted on; else they are fitted again.
        min_area_frac: components smaller than this fraction of the frame are ignored.
        min_rel_area: ... and components smaller than this fraction of the median card are ignored.
        small_card_frac: with no known card size, a component smaller than ``min_area_frac`` of the frame but at
            least this fraction of that area is still read when it is one whole card of the size the larger ones set
            (fills its quad, the card's aspect, 0.6-1.6 times the nearby cards' area, a crisp outline:
            :func:`vision.card_detect.select_cards`' ``small``): a lone card of a table seen from far (an Among the
            Stars station's single card 36 x 50 px at 1280 x 720 is under the frame's share); it sets nothing of the
            card's size and is never split. None: ignored, as every component under ``min_area_frac``.
        min_fill: a component must fill at least this fraction of its fitted quad.
        aspect: expected long/short side ratio of a card (overridden by the deck's); 1 = square tiles.
        aspect_tol: accepted relative deviation of a quad's aspect from ``aspect``.
        max_card_aspect: no card or tile is longer than this times its width (tarot: 1.71).
        split_min_occupancy: in a blob of touching cards, a card outline is accepted only where at least
            this fraction of its inside is foreground.
        min_edge: a blob's outline must have at least this median edge strength (grey levels per pixel;
            glare spots and soft shadows have blurred outlines).
        split_refine: each card of the fitted lattice may move by up to this fraction of its size to the
            strongest outline nearby (uneven gaps).
        crop_width: width in pixels of the rectified crop (height = crop_width * aspect).
        row_gap: a new row starts when the next centre is lower by more than this many card heights.
        col_gap: likewise for columns with card widths.
        cell_tolerance: a cell offset further than this from an integer is reported as null.
        anchor_id: id of the card that defines cell (0, 0).
        mirror: ``"off"``: the camera shows the table as it is; ``"on"``: the camera image is mirrored
            (some webcams' selfie mode); ``"auto"``: per frame, whichever fits the deck better (2x the
            identification time). Decide it once per camera (:func:`vision.cards.decide_mirror`) and keep
            ``"on"`` or ``"off"``: a read whose cards fit the deck far better the other way says so in its
            notes (:data:`vision.cards.MIRROR_NOTE`).
        sticker_ids_from: ArUco ids from this value up are card stickers, below are table markers.
        fallback_card_mm: (short, long) card size in mm used to estimate mm without calibration.
        size_from_edges: with no known card size (no calibration) and a known aspect, the card's size is checked
            against the spacing of the cards' edges (:func:`card_size_from_edges`): a block of touching cards shaped
            like one card is no card size, and a table where every card touches another still has one. False: the
            median of the blobs shaped like one card (:func:`card_size_estimate`).
        loose_measured: with no known card size, the second look (``loose_join_frac``) runs at the size the frame's
            cards give (:func:`card_size_from_edges`, so only with ``size_from_edges`` and a known aspect): a card
            whose dark art meets a cloth of its border's colour is pieces the first look drops, found beside the
            cards around it; its places are kept only when the deck knows them, as on a calibrated table. Not where
            the first look found no card (no card confirms the size: one card's art filling a photo).
        size_agree: the blobs shaped like one card agree on the card's size when the largest is at most this times
            the smallest in area (then the edges are not asked: a card-shaped pair of cards alone is read as before).
        mat_line_area: with no known card size, thin foreground (narrower than ``min_part_frac`` of the smallest
            card's short side) away from every solid piece is a playmat's printed line, taken out before the blobs,
            when a piece of it holds at least this many times the smallest card's area (``min_area_frac`` of the
            frame; :func:`vision.card_mat.without_printed_lines`): a mat printed with a grid is otherwise one blob the
            size of the frame, split into "cards" at the lines' spacing. None: kept.
        pitch_cells: the edges' spacing alone (no blob shaped like one card agreeing with it) sets the card's size
            only when the cells it implies differ from one another by at least this many BGR grey levels (each card
            is a picture of its own; :meth:`vision.card_pitch.EdgePitch.cells`): 33-59 on the generated Among the
            Stars tables of layouts 100-109 where the spacing alone decides, 0.3 on a playmat printed with a grid
            (with a few cards on it or none) and 2.9 on a checked cloth, each lying on a plain table.
    """

    work_long_side: int = 1280
    border_frac: float = 0.03
    fg_min_dist: float = 5.0
    fg_max_dist: float = 12.0
    fg_cov_floor: float = 4.0
    fg_euclid: float = 80.0
    fg_modes: int = 1
    fg_modes_top: int = 3
    fg_mode_gain: float = 0.15
    fg_mode_share: float = 0.1
    fg_mode_samples: int = 4000
    fg_mode_inside: float = 1.1
    fg_reuse_drop: float = 0.02
    join_frac: float = 0.15
    min_part_frac: float = 0.3
    loose_join_frac: float = 0.35
    loose_density: float = 0.3
    loose_min_area: float = 0.1
    loose_min_place: float = 0.2
    neighbour_gap: float = 0.04
    neighbour_rings: int = 3
    neighbour_occupancy: float = 0.1
    loose_min_confidence: float = 0.5
    loose_max_coarse: float | None = 1.05
    loose_max_dice: float | None = 0.6
    loose_snap: float = 0.3
    split_doubt_fit: float = 0.8
    read_rim: float = 0.02
    die_side: tuple[float, float] = (0.2, 0.6)
    die_fill: float = 0.8
    min_area_frac: float = 0.002
    min_rel_area: float = 0.35
    small_card_frac: float | None = 0.25
    min_fill: float = 0.80
    aspect: float | None = None
    aspect_tol: float = 0.22
    max_card_aspect: float = 1.8
    split_min_occupancy: float = 0.6
    min_edge: float = 25.0
    split_refine: float = 0.025
    crop_width: int = 96
    row_gap: float = 0.5
    col_gap: float = 0.5
    cell_tolerance: float = 0.35
    anchor_id: str | None = "main_reactor"
    mirror: str = "off"
    sticker_ids_from: int = 4
    fallback_card_mm: tuple[float, float] = (63.0, 88.0)
    size_from_edges: bool = True
    loose_measured: bool = True
    size_agree: float = 1.6
    mat_line_area: float | None = 1.0
    pitch_cells: float = 10.0


def crop_size(config: CardsConfig, aspect: float) -> tuple[int, int]:
    """(width, height) px of a card's rectified crop: ``config.crop_width`` wide and ``aspect`` (long/short side, at
    least 1) times as high."""
    w = int(config.crop_width)
    return w, int(round(w * max(1.0, aspect)))
