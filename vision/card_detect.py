"""Finding cards and square tiles lying flat on the table (the card reader's first stage).

``find_quads``: foreground mask (Mahalanobis distance from a table colour model fitted on the frame border),
filled components ("blobs"), one quadrilateral per blob that looks like one card (fill, aspect, size, crisp
outline); blobs of touching cards (a station, a card under a hand) are split by a card-size lattice fitted
to the blob (IoU with the blob + card-outline edge response), each cell nudged to the strongest outline
nearby (:mod:`vision.card_split`). With a calibration the reader runs it on the top-down table image
(``rectify_table``), where a card's size in pixels is known from the deck's card size in mm; there a lattice
that explains its blob poorly (the table's art touching the cards) and the second look's places become places
moved to the card-sized outline nearby (:mod:`vision.card_outline`), kept only if a deck knows them.

Each step is a pure function of ``(config, data)``, timed by :func:`vision.timing.timed_stage`; the thresholds
(:class:`CardsConfig`) are in :mod:`vision.card_config`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np

from .card_config import CardsConfig, crop_size
from .card_leftover import die_sized, die_top_shaped, place_share
from .card_mat import without_printed_lines
from .card_outline import quad_axes, snap_to_outline
from .card_pitch import PITCH_GAP, EdgePitch, choose_card_size, edge_pitch
from .card_split import lattice_fit, split_blob
from .foreground import TableMemory, foreground_mask
from .frames import validate_frame
from .quads import fit_quad, order_quad, order_quads, quad_size
from .raster import disc_morphology
from .table import MIN_SIDE_PX, TableCalibration
from .timing import timed_stage

_NEXT_CORNER = np.array([1, 2, 3, 0])   # each corner's next, clockwise: np.roll(quad, -1, axis=0) as an index

__all__ = ["Blob", "CardsConfig", "crop_size", "find_quads", "foreground_mask", "rectify_table", "resize_for_work",
           "outline_strength", "outline_strengths", "select_cards", "split_blob", "card_sized", "find_card_quads",
           "neighbour_quads", "die_like_share", "unexplained", "without_read"]


# ----------------------------------------------------------------------------------------------- detection steps


def resize_for_work(frame: np.ndarray, config: CardsConfig) -> tuple[np.ndarray, float]:
    h, w = frame.shape[:2]
    s = min(1.0, config.work_long_side / float(max(h, w)))
    if s < 1.0:
        frame = cv2.resize(frame, (int(round(w * s)), int(round(h * s))), interpolation=cv2.INTER_AREA)
    return frame, s


def fill_holes(mask: np.ndarray) -> np.ndarray:
    """Mask with every hole of every outer contour filled."""
    cnts, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = np.zeros_like(mask)
    cv2.drawContours(out, cnts, -1, 255, cv2.FILLED)
    return out


def card_sized(mask: np.ndarray, card_px: tuple[float, float], join_frac: float, part_frac: float,
               density: float = 0.0) -> np.ndarray:
    """``mask`` (uint8[H, W]) with a card's pieces joined and what is no card's size taken away, when the card
    size is known (``card_px``: (short, long) px): closed by a disc (:func:`vision.raster.disc_morphology`) of
    ``join_frac`` x the short side (a light card border, or art in the table's own colours, breaks the card's
    foreground into pieces), holes filled, and opened by a disc of ``part_frac`` x the short side (what is left of
    a pattern is narrower than a card).

    ``density`` > 0: first, every pixel where at least this fraction of the square of ``join_frac`` x the short
    side around it is foreground becomes foreground, every other pixel table (a card in the table's own colours
    is scattered pieces, dense within the card; the specks a patterned cloth leaves are sparse).

    Only the box around the foreground, with a margin wider than every filter reaches, is filtered (the rest
    stays table): the same pixels as filtering the whole image (the table outside adds nothing to a dilation,
    and the margin keeps the box's own edge out of reach of the erosions)."""
    short = float(min(card_px))

    def disc(frac: float) -> int:
        return max(3, int(round(frac * short)) | 1)

    k = max(3, int(round(join_frac * short)) | 1)
    h, w = mask.shape[:2]
    bx, by, bw, bh = cv2.boundingRect(mask)
    out = np.zeros_like(mask)
    if bw == 0 or bh == 0:
        return out
    reach = (k // 2 if density > 0 else 0) + 2 * (disc(join_frac) // 2) + 2 * (disc(part_frac) // 2) + 4
    x0, y0 = max(bx - reach, 0), max(by - reach, 0)
    x1, y1 = min(bx + bw + reach, w), min(by + bh + reach, h)
    part = mask[y0:y1, x0:x1]
    if density > 0:
        near = cv2.boxFilter(part, cv2.CV_32F, (k, k), normalize=True, borderType=cv2.BORDER_CONSTANT)
        part = (near >= density * 255.0).astype(np.uint8) * 255
    part = fill_holes(disc_morphology(part, cv2.MORPH_CLOSE, disc(join_frac)))
    out[y0:y1, x0:x1] = disc_morphology(part, cv2.MORPH_OPEN, disc(part_frac))
    return out


@dataclass
class Blob:
    """One connected foreground region: its outer contour, fitted (ordered) quad, area and fill ratio."""

    contour: np.ndarray
    quad: np.ndarray
    area: float
    fill: float

    @property
    def centre(self) -> np.ndarray:
        return self.quad.mean(axis=0)


def blobs_of(mask: np.ndarray, config: CardsConfig, min_area: float | None = None) -> list[Blob]:
    """Outer components of ``mask`` (uint8[H, W], holes filled) of at least ``min_area`` px^2 (None:
    ``config.min_area_frac`` of the image), each with a fitted quad, in contour order."""
    h, w = mask.shape
    if min_area is None:
        min_area = config.min_area_frac * h * w
    cnts, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    out = []
    for c in cnts:
        area = float(cv2.contourArea(c))
        if area < min_area:
            continue
        q = order_quad(fit_quad(c))
        qa = float(cv2.contourArea(q.astype(np.float32)))
        out.append(Blob(c, q, area, area / max(qa, 1.0)))
    return out


def is_single(b: Blob, aspect: float | None, card_area: float | None, config: CardsConfig) -> bool:
    """A blob that is one card: fills its quad, has the card's aspect, and (when known) the card's area."""
    if b.fill < config.min_fill:
        return False
    sh, lo = quad_size(b.quad)
    if aspect is not None and abs((lo / max(sh, 1e-6)) / aspect - 1.0) > config.aspect_tol:
        return False
    return card_area is None or 0.6 * card_area <= b.area <= 1.6 * card_area


def outline_strength(gmag: np.ndarray, quad: np.ndarray, per_side: int = 24) -> float:
    """Edge strength of a quad's outline: the median gradient magnitude (grey levels per pixel,
    max-filtered) along each side, second best of the four sides (cards have at least two crisp sides
    even when a fitted side strays onto the card's shadow; glare spots and soft shadows have none)."""
    return float(outline_strengths(gmag, [quad], per_side)[0])


def outline_strengths(gmag: np.ndarray, quads: list[np.ndarray], per_side: int = 24) -> np.ndarray:
    """float32[N]: :func:`outline_strength` of each of ``quads`` (float[4, 2] px of ``gmag``, float32[H, W] from
    :func:`edge_map`), all sides of all quads sampled and their medians taken in one call each (the same numbers
    as quad by quad: every sample point, median and sort is worked out along its own side and quad)."""
    if not quads:
        return np.zeros(0, np.float32)
    h, w = gmag.shape
    t = (np.arange(per_side) + 0.5) / per_side
    q = np.stack([np.asarray(p, np.float64).reshape(4, 2) for p in quads])                  # [n, 4 corners, 2]
    pts = q[:, :, None, :] + (q[:, _NEXT_CORNER] - q)[:, :, None, :] * t[None, None, :, None]   # [n, 4, per_side, 2]
    xs = np.clip(pts[..., 0].round().astype(int), 0, w - 1)
    ys = np.clip(pts[..., 1].round().astype(int), 0, h - 1)
    sides = np.median(gmag[ys, xs], axis=2)                       # every side's median in one call
    return np.sort(sides, axis=1)[:, -2]


def card_size_estimate(blobs: list[Blob], aspect: float | None, config: CardsConfig) -> tuple[float, float] | None:
    """(short, long) card size in pixels from blobs that look like single cards (median), or None."""
    singles = [b for b in blobs if is_single(b, aspect, None, config)]
    if not singles:
        return None
    areas = np.array([b.area for b in singles])
    med = float(np.median(areas))
    keep = [b for b in singles if 0.5 * med <= b.area <= 1.6 * med] or singles
    sizes = np.array([quad_size(b.quad) for b in keep])
    return float(np.median(sizes[:, 0])), float(np.median(sizes[:, 1]))


def art_repeat(found: EdgePitch, single_areas: Sequence[float], aspect: float,
               band: tuple[float, float] = (0.5, 1.7)) -> bool:
    """Whether the edges' spacing ``found`` (:func:`vision.card_pitch.edge_pitch`) is a repeat inside the cards'
    art rather than the spacing of touching cards: most blobs shaped like one card (``single_areas``, px^2) are
    larger than ``band[1]`` times the spacing's card (``short^2`` times the deck's ``aspect``, long/short either
    way), yet no blob holds two of its cells side by side (:meth:`vision.card_pitch.EdgePitch.cells` is None).
    Cards lying apart each make a blob of one card; a spacing that makes each of them more than one card and less
    than two across is no card's (a tile's printed symbols can repeat at about half its side). Blocks of touching
    cards hold two cells or more, so their spacing is never refused here."""
    if not single_areas:
        return False
    card = found.short * found.short * max(aspect, 1.0 / aspect)
    larger = sum(a > band[1] * card for a in single_areas)
    if 2 * larger <= len(single_areas):
        return False
    return found.cells() is None


def card_size_from_edges(img: np.ndarray, blobs: list[Blob], aspect: float,
                         config: CardsConfig) -> tuple[float, float] | None:
    """(short, long) card size in px of ``img`` (uint8[H, W, 3] BGR) with no calibration. When the blobs shaped like
    one card agree (their areas within ``size_agree`` of each other), :func:`card_size_estimate`'s; when they do not
    (a block of touching cards shaped like one card beside a card alone), when there is none (every card touches
    another) or only one beside other blobs, the spacing of the cards' edges decides
    (:func:`vision.card_pitch.card_pitch`): the blobs whose area fits it, else that spacing itself when the cells it
    implies hold cards (``pitch_cells``: a playmat's printed grid or a checked cloth repeats at its own spacing, its
    cells alike); else (and when nothing tells) the blobs shaped like one card as before
    (:func:`card_size_estimate`), or None.

    A lone blob shaped like one card beside other blobs may be two cards side by side (two upright cards make one
    lying card's shape, as in an Among the Stars station) or one card alone: the spacing of the other blobs' edges
    overrules it only where they show a lattice of cards at that spacing (:meth:`vision.card_pitch.EdgePitch.cells`
    measured, not None, and at least ``pitch_cells``) and the lone blob is no card of it (``choose_card_size``'s
    band); a blob alone in the frame (a card photographed on its own) keeps its size.

    A card's border printed in a colour near the cloth's drops out of the foreground, and a blob shaped like one
    card is then its art alone: where the blobs shaped like one card are smaller than the spacing of the touching
    cards' edges by more than a gap between cards (:data:`vision.card_pitch.PITCH_GAP`) and that spacing's cells
    hold cards, the spacing is the card (each side measured on its own axis,
    :attr:`vision.card_pitch.EdgePitch.long`); where they agree among themselves, the blobs of several touching cards
    beside them (larger than ``size_agree`` times the largest of them) are asked so too, and a frame of cards lying
    apart (no such blob) keeps their size."""
    singles = [b for b in blobs if is_single(b, aspect, None, config)]
    areas = [b.area for b in singles]
    lone = singles[0] if len(singles) == 1 and len(blobs) > 1 else None
    h, w = img.shape[:2]
    long_ = max(aspect, 1.0 / aspect)
    if lone is None and singles and max(areas) <= config.size_agree * min(areas):   # the blobs shaped like a card agree
        size = card_size_estimate(blobs, aspect, config)
        blocks = [b for b in blobs if b.area > config.size_agree * max(areas)]   # blobs of several touching cards
        if size is None or not blocks:
            return size
        found = edge_pitch(img, blocks, aspect, 0.7 * math.sqrt(config.min_area_frac * h * w / long_))
        if found is None or size[0] * (1.0 + PITCH_GAP) >= found.short:
            return size
        cells = found.cells()   # the border lost from every card alone, where the blocks' cells hold cards
        return (found.short, found.long) if cells is not None and cells >= config.pitch_cells else size
    found = edge_pitch(img, [b for b in blobs if b is not lone], aspect,
                       0.7 * math.sqrt(config.min_area_frac * h * w / long_))
    if found is not None and art_repeat(found, areas, aspect):
        found = None   # a repeat inside the cards' art, not their spacing: the blobs shaped like one card decide

    def cards_inside() -> bool:   # asked only when no blob shaped like a card agrees with the spacing, or they are
        # smaller than it (the border lost)
        cells = found.cells() if found is not None else None
        if cells is None:   # no blob holds two cells: a lone card-shaped blob keeps its size, else as before
            return lone is None
        return cells >= config.pitch_cells

    size = choose_card_size([quad_size(b.quad) for b in singles], areas, None if found is None else found.short,
                            aspect, cells_hold_cards=cards_inside, pitch_long=None if found is None else found.long,
                            lattice=lambda: found is not None and (found.cells() or 0.0) >= config.pitch_cells)
    return size if size is not None else card_size_estimate(blobs, aspect, config)


def edge_map(img: np.ndarray) -> np.ndarray:
    """float32[H, W]: gradient magnitude of ``img`` (uint8[H, W, 3] BGR; grey levels per pixel), max-filtered over
    11 x 11 px: what :func:`outline_strength` samples."""
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)   # Sobel of the 8-bit grey: the same whole numbers, no float copy
    gmag = cv2.magnitude(cv2.Sobel(gray, cv2.CV_32F, 1, 0, ksize=3), cv2.Sobel(gray, cv2.CV_32F, 0, 1, ksize=3))
    gmag /= 4.0
    return cv2.dilate(gmag, np.ones((11, 11), np.uint8))


def select_cards(img: np.ndarray, blobs: list[Blob], aspect: float | None, card_px: tuple[float, float] | None,
                 config: CardsConfig, gmag: np.ndarray | None = None,
                 doubtful: list[np.ndarray] | None = None, small: Sequence[Blob] = (),
                 measured: tuple[float, float] | None = None) -> list[np.ndarray]:
    """One quad per single-card blob; blobs of several touching cards are split on the card grid.

    ``gmag``: :func:`edge_map` of ``img`` when the caller has it (the second look asks three times).
    ``doubtful``: with a known card size, the cards of a lattice that explains its blob poorly
    (``split_doubt_fit``) go to this list instead (the caller makes them places of the second look).
    ``small``: blobs under the frame's minimum area (``small_card_frac``), each kept, after the others, only when it
    is one whole card of the size ``blobs`` set here (:func:`is_single` at the nearby cards' area, an outline of at
    least ``min_edge``); they take no part in the card's size.
    ``measured``: with no known size, the (short, long) px :func:`card_size_from_edges` already gave for ``blobs``
    (not measured again)."""
    if not blobs:
        return []
    known = card_px is not None  # known size (top-down table image): no perspective, no estimate
    edges = card_px is None and aspect is not None and config.size_from_edges
    if edges:
        card_px = measured if measured is not None else card_size_from_edges(img, blobs, aspect, config)
    elif card_px is None:
        card_px = card_size_estimate(blobs, aspect, config)
    if aspect is None and card_px is not None:
        aspect = card_px[1] / card_px[0]
    out: list[np.ndarray] = []
    if gmag is None:
        gmag = edge_map(img)
    # a blob shaped like one card but with a blurred outline is glare or a soft shadow, not a card
    shaped = [is_single(b, aspect, None, config) for b in blobs]
    edge = iter(outline_strengths(gmag, [b.quad for b, one in zip(blobs, shaped, strict=True) if one]))
    blobs = [b for b, one in zip(blobs, shaped, strict=True) if not (one and next(edge) < config.min_edge)]
    if not blobs:
        return []
    if card_px is None:  # nothing looks like a card on its own: keep well-filled blobs only
        return [b.quad for b in blobs if b.fill >= config.min_fill]
    base_area = card_px[0] * card_px[1]
    singles = [b for b in blobs if is_single(b, aspect, None, config)]
    lost = 1.0   # how much larger a card is than its blob where the card's border dropped out of the foreground
    if edges:   # a pair or a block of cards shaped like one card tells nothing of the card's size nearby
        singles = [b for b in singles if is_single(b, aspect, base_area, config)]
        lost = border_lost(singles, base_area)
    for b in blobs:
        local = base_area if known else _local_area(b, singles, base_area, lost)
        if b.area < config.min_rel_area * local:
            continue
        if is_single(b, aspect, local, config):
            out.append(b.quad)
        else:
            scale = math.sqrt(local / base_area)
            parts = split_blob(img, b, (card_px[0] * scale, card_px[1] * scale), config, own_lines=not known)
            parts = [q for q, e in zip(parts, outline_strengths(gmag, parts), strict=True) if e >= config.min_edge]
            if (doubtful is not None and known and parts and not _cut_by_edge(b, img.shape[:2])
                    and lattice_fit(b, parts) < config.split_doubt_fit):
                doubtful.extend(parts)
            else:
                out.extend(parts)
    lone = [b.quad for b in small
            if is_single(b, aspect, base_area if known else _local_area(b, singles, base_area, lost), config)]
    if lone:   # a lone card smaller than the frame's share: whole, and with a card's crisp outline
        out.extend(q for q, e in zip(lone, outline_strengths(gmag, lone), strict=True) if e >= config.min_edge)
    return out


def border_lost(singles: list[Blob], card_area: float) -> float:
    """How many times larger the card's area ``card_area`` (px^2, from the edges' spacing with no calibration) is
    than the median area of the blobs shaped like one card (``singles``) when they are smaller than it by more than
    a gap between touching cards (:data:`vision.card_pitch.PITCH_GAP` on each side): a card's border printed in a
    colour near the table's drops out of the foreground, and such a blob is the card's art alone. 1.0 when they
    are not, or there is none."""
    if not singles:
        return 1.0
    med = float(np.median([s.area for s in singles]))
    return card_area / med if med * (1.0 + PITCH_GAP) ** 2 < card_area else 1.0


def _local_area(b: Blob, singles: list[Blob], base_area: float, lost: float = 1.0) -> float:
    """A card's area in px^2 near blob ``b`` with no calibration (perspective makes near cards bigger): the median
    area of the (up to) 4 ``singles`` nearest it, ``b`` left out, times ``lost`` (:func:`border_lost`: the card's
    border missing from those blobs); ``base_area`` when there is none or that is not within 0.5-2 times it."""
    near = sorted(singles, key=lambda s: float(np.linalg.norm(s.centre - b.centre)))
    near = [s for s in near if s is not b][:4]
    local = float(np.median([s.area for s in near])) * lost if near else base_area
    return local if 0.5 * base_area <= local <= 2.0 * base_area else base_area


def find_quads(frame: np.ndarray, config: CardsConfig | None = None, aspect: float | None = None,
               timings: dict[str, float] | None = None, card_px: tuple[float, float] | None = None) -> list[np.ndarray]:
    """Ordered pixel quads of every card or square tile lying flat in ``frame`` (touching ones included).

    ``card_px``: (short, long) card size in pixels of ``frame`` when known (e.g. a rectified table image).
    """
    return find_card_quads(frame, config, aspect, timings, card_px)[0]


def find_card_quads(frame: np.ndarray, config: CardsConfig | None = None, aspect: float | None = None,
                    timings: dict[str, float] | None = None, card_px: tuple[float, float] | None = None,
                    explained: list[np.ndarray] | None = None,
                    read: list[np.ndarray] | None = None,
                    memory: TableMemory | None = None,
                    defer: list | None = None) -> tuple[list[np.ndarray], list[bool]]:
    """:func:`find_quads`, and for each quad whether it came from the second, looser look (``True``).

    ``memory``: the table's colours kept between reads of the whole of this view of the table
    (:class:`vision.foreground.TableMemory`), or None (fitted on this frame alone).

    With a known card size (``card_px``, (short, long) px of ``frame``), what the first look (each outer
    component of the foreground with its holes filled) did not explain is looked at again: its pieces
    ``join_frac`` apart joined (a light card border on a light table), then, where a card in the table's own
    colours is only scattered pieces (a patterned cloth, a playmat), where the pieces are dense, joined
    ``loose_join_frac`` apart (:func:`card_sized`); and the places beside the cards found (:func:`neighbour_quads`).
    Quads of that second look may be the table's own pattern: keep them only when a deck knows the card
    (:func:`vision.cards.read_cards` does). A place of it made mostly of die tops (``loose_max_dice``,
    :func:`die_like_share`: dice among the cards) is dropped here, before it costs an identification.

    The second look is skipped where it cannot find a card: when what is left unexplained (``explained``:
    float[N, 2] polygons in px of ``frame`` that are known not to be cards, such as the calibration markers,
    count as explained) is less than ``loose_min_area`` of a card's area in all -- a card of the second look
    needs that much foreground (a place beside the cards found, ``neighbour_occupancy``; joined pieces, a
    good part of a card) -- or when no square of the card's long side holds ``loose_min_place`` of a card's area
    of it, the pieces shaped like a die's top not counted (:func:`vision.card_leftover.place_share`, timed as
    ``loose_gate``: dice scattered among the cards add up to a card's area, but not in one place). A table whose
    first look found every card then costs one foreground count more.

    ``read``: float[4, 2] quads in px of ``frame`` of cards already read (a window read after a change: the cards
    kept from the last read); with a known card size their foreground, with a rim of ``read_rim`` x the card's
    short side, is taken out before the first look (:func:`without_read`): a tableau the window cuts is then no
    blob of many cards to split on the card grid only to drop the cards it holds, and a card added beside them is
    a blob of its own. Without a known card size: unused (the card size is estimated from all the blobs).

    ``defer``: a list, to read the first look alone (its quads returned, none loose) and learn later whether the
    second look finds anything: appended is ``due(more, dice=())``, True when, with ``more`` (float[N, 2] polygons in
    px of ``frame``, known to be no card) added to ``explained``, the second look finds a place (it is looked at then,
    its stages timed in ``timings``); when False, a read told of ``more`` from the start returns this first look's
    quads and nothing more, but for a place only the foreground of ``dice`` would make. ``dice`` (float[N, 2]
    polygons in px of ``frame``): every die a dice read reported, sure or not, left out of what ``loose_min_place``
    counts only (a die read less surely may be a face printed in a card's art, and the second look itself still sees
    it: taking it out of the foreground could lose the card it lies on).
    """
    c = config or CardsConfig()
    t = timings if timings is not None else {}
    frame = validate_frame(frame, MIN_SIDE_PX)
    img, s = timed_stage(t, "resize", resize_for_work, frame, c)
    mask = timed_stage(t, "foreground", foreground_mask, img,
                       c if card_px is None else replace(c, fg_modes=c.fg_modes_top), memory)
    if read and card_px is not None:
        mask = timed_stage(t, "without_read", without_read, mask, [np.asarray(q, np.float64) * s for q in read],
                           (card_px[0] * s, card_px[1] * s), c.read_rim)
    if card_px is None and c.mat_line_area is not None:   # no calibration: a playmat's printed lines are no card
        mask = timed_stage(t, "mat_lines", without_printed_lines, mask, c.min_area_frac * mask.size, aspect,
                           c.min_part_frac, c.mat_line_area)
    filled = timed_stage(t, "fill", fill_holes, mask)
    small: list[Blob] = []
    if card_px is None and c.small_card_frac is not None:   # no calibration: lone cards under the frame's share too
        floor = c.min_area_frac * filled.shape[0] * filled.shape[1]
        every = timed_stage(t, "blobs", blobs_of, filled, c, c.small_card_frac * floor)
        blobs, small = [b for b in every if b.area >= floor], [b for b in every if b.area < floor]
    else:
        blobs = timed_stage(t, "blobs", blobs_of, filled, c)
    cp = (card_px[0] * s, card_px[1] * s) if card_px is not None else None
    measured = None   # no calibration: the card's size the frame's cards give, for the second look beside them
    if cp is None and c.loose_measured and c.loose_join_frac > 0 and aspect is not None and c.size_from_edges \
            and blobs:
        measured = timed_stage(t, "size", card_size_from_edges, img, blobs, aspect, c)
    second = (cp is not None or measured is not None) and c.loose_join_frac > 0
    gmag = edge_map(img) if second and blobs else None   # select_cards' own, shared with the second look
    doubtful: list[np.ndarray] = []
    quads = timed_stage(t, "select", select_cards, img, blobs, aspect, cp, c, gmag, doubtful if second else None,
                        small, measured)
    # a size measured where the first look found no card is no card's (one card's art filling a photo)
    cp = cp if cp is not None else (measured if quads else None)
    second = second and cp is not None
    known = [np.asarray(p, np.float64) * s for p in (explained or [])]

    def look_again(polygons: list[np.ndarray], dice: list[np.ndarray]) -> tuple[list[np.ndarray], list[bool]]:
        if not second:
            return list(quads), [False] * len(quads)
        return _second_look(img, mask, quads, polygons, doubtful, aspect, cp, c, gmag, t, dice)

    def work(polygons: Sequence[np.ndarray]) -> list[np.ndarray]:
        return [np.asarray(p, np.float64) * s for p in polygons]

    if defer is not None:   # the first look alone; the second told of ``more`` too, later, for whether it finds any
        defer.append(lambda more, dice=(): any(look_again(known + work(more), work(dice))[1]))
        return [q / s for q in order_quads(quads)], [False] * len(quads)
    quads, loose = look_again(known, [])
    return [q / s for q in order_quads(quads)], loose


def _second_look(img: np.ndarray, mask: np.ndarray, first: list[np.ndarray], known: list[np.ndarray],
                 doubtful: list[np.ndarray], aspect: float | None, cp: tuple[float, float], c: CardsConfig,
                 gmag: np.ndarray | None, t: dict[str, float],
                 dice: list[np.ndarray]) -> tuple[list[np.ndarray], list[bool]]:
    """:func:`find_card_quads`' second look (work px of ``img``, ``mask`` its foreground): (the first look's quads
    ``first`` then the second look's places, whether each is one), what ``first`` and the ``known`` polygons (no card)
    leave looked at again when it is enough and some of it, the ``dice`` polygons (work px) also left out, lies in one
    card's place (``loose_min_area``, ``loose_min_place``; or ``doubtful`` quads of the first look wait), else
    ``first`` alone."""
    quads, loose = list(first), [False] * len(first)
    # what the first look's cards and the known polygons leave: the second look's joins and its dice test read it
    left = unexplained(mask, quads + known, cp)
    if doubtful or (np.count_nonzero(left) >= c.loose_min_area * cp[0] * cp[1]
                    and timed_stage(t, "loose_gate", place_share, unexplained(left, dice, cp) if dice else left, cp,
                                    c.die_side, c.die_fill) >= c.loose_min_place):
        rest = left
        for key, join, density in (("loose_join", c.join_frac, 0.0), ("loose_dense", c.loose_join_frac,
                                                                        c.loose_density)):
            more = timed_stage(t, key, card_sized, rest, cp, join, c.min_part_frac, density)
            extra = select_cards(img, blobs_of(more, c), aspect, cp, c, gmag)
            quads += extra
            loose += [True] * len(extra)
            rest = unexplained(rest, extra, cp) if extra else rest   # clearing is the same in any order
        quads += doubtful
        loose += [True] * len(doubtful)
        rest = unexplained(rest, doubtful, cp) if doubtful else rest
        extra = timed_stage(t, "neighbours", neighbour_quads, quads, rest, cp, c)
        quads += extra
        loose += [True] * len(extra)
        if c.loose_snap > 0 and any(loose):
            quads, loose = timed_stage(t, "loose_snap", snap_loose, img, quads, loose, cp, c)
        if c.loose_max_dice is not None and any(loose):
            # the places made of dice are no card (the first look's cards did not explain the dice; the first
            # look's cards are those ``left`` leaves out, in the same order)
            share = timed_stage(t, "loose_dice", die_like_share, left,
                                [q for q, lo in zip(quads, loose, strict=True) if lo], cp, c)
            it = iter(share)
            keep = [k for k, lo in enumerate(loose) if not lo or next(it) < c.loose_max_dice]
            quads, loose = [quads[k] for k in keep], [loose[k] for k in keep]
    return quads, loose


def _cut_by_edge(blob: Blob, image_hw: tuple[int, int]) -> bool:
    """Whether ``blob`` reaches the edge of its image (``image_hw``: (height, width) px): its cards are cut there
    (the window of a read after a change cuts the cards around it), so no lattice of whole cards fits it well and
    :func:`lattice_fit` says nothing about the table's art."""
    x, y, w, h = cv2.boundingRect(blob.contour)
    return x <= 1 or y <= 1 or x + w >= image_hw[1] - 1 or y + h >= image_hw[0] - 1


def snap_loose(img: np.ndarray, quads: list[np.ndarray], loose: list[bool], card_px: tuple[float, float],
               config: CardsConfig) -> tuple[list[np.ndarray], list[bool]]:
    """``quads`` (float[4, 2] px of ``img``, uint8[H, W, 3] BGR) with each place of the second look (``loose``)
    moved to the strongest card-sized outline within ``loose_snap`` of a card's sides
    (:func:`vision.card_outline.snap_to_outline`; its own turn and the median turn of the first look's cards),
    added after the places unless it lies on a card of the first look (centres within half a short side) or on
    another place (each corner within a tenth of a short side: a place cut short at a card's dark art, snapped to
    the card's whole outline about nearly the same centre, is another place). The pieces of a washed-out or
    table-coloured card put its place off the card; the outline of a card of known size is there on all four sides.
    The place as proposed is kept too (a strong edge of the pattern may draw the outline off a card the place was
    on); the deck decides between them."""
    first = [q for q, lo in zip(quads, loose, strict=True) if not lo]
    turns = ()
    if first:
        a = np.array([quad_axes(q) for q in first])
        # the mean turn on the circle of period 90 degrees
        z = np.exp(1j * np.radians(a) * 4.0)
        turns = (float(np.degrees(np.angle(z.mean())) / 4.0) % 90.0,)
    places = [q for q, lo in zip(quads, loose, strict=True) if lo]
    snapped = snap_to_outline(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), places, card_px, config.loose_snap, turns)
    short = float(min(card_px))
    found = [q.mean(axis=0) for q in first]
    kept = list(first) + places
    taken = [order_quad(q) for q in places]
    for q in snapped:
        m = q.mean(axis=0)
        if (any(float(np.linalg.norm(m - o)) < 0.5 * short for o in found)
                or any(float(np.linalg.norm(q - o, axis=1).max()) < 0.1 * short for o in taken)):
            continue
        kept.append(q)
        taken.append(q)
    return kept, [False] * len(first) + [True] * (len(kept) - len(first))


def die_like_share(rest: np.ndarray, quads: list[np.ndarray], card_px: tuple[float, float],
                   config: CardsConfig) -> list[float]:
    """For each quad (float[4, 2] px of ``rest``), the fraction (0-1; 0 when it holds none) of the foreground
    inside it (``rest``: uint8[H, W], what the first look left unexplained, :func:`unexplained`) that belongs
    to pieces shaped like the top of a die: a filled square (at least ``die_fill`` of its fitted rectangle, at
    most 1.3 times as long as wide) whose side is ``die_side`` of the card's short side (``card_px`` (short,
    long) px). Each piece is judged whole, not cut by the quad. One connected-component pass for all quads, over
    the box around them with a margin wider than a die (a piece that reaches the box's edge from a quad is longer
    than a die: no die, as it is judged whole)."""
    if not quads:
        return []
    lo, hi = (f * float(min(card_px)) for f in config.die_side)
    H, W = rest.shape[:2]
    pts = np.concatenate([np.asarray(q, np.float64).reshape(-1, 2) for q in quads])
    margin = int(math.ceil(1.5 * hi)) + 2
    bx0 = int(np.clip(math.floor(float(pts[:, 0].min())) - margin, 0, W))
    by0 = int(np.clip(math.floor(float(pts[:, 1].min())) - margin, 0, H))
    bx1 = int(np.clip(math.ceil(float(pts[:, 0].max())) + 1 + margin, 0, W))
    by1 = int(np.clip(math.ceil(float(pts[:, 1].max())) + 1 + margin, 0, H))
    if bx1 <= bx0 or by1 <= by0:
        return [0.0] * len(quads)
    sub = rest[by0:by1, bx0:bx1]
    n, labels, stats, _ = cv2.connectedComponentsWithStats((sub > 0).astype(np.uint8))
    sh, sw = sub.shape
    die = np.zeros(n, bool)
    for j in range(1, n):
        x, y, w, h, area = (int(v) for v in stats[j])
        if not die_sized((w, h), (lo, hi)):   # too big or too small whatever its turn
            continue
        if (x == 0 < bx0) or (y == 0 < by0) or (x + w == sw and bx1 < W) or (y + h == sh and by1 < H):
            continue   # cut by the box, not by the image: longer than a die where it meets a quad
        cnts, _ = cv2.findContours((labels[y:y + h, x:x + w] == j).astype(np.uint8), cv2.RETR_EXTERNAL,
                                   cv2.CHAIN_APPROX_SIMPLE)
        die[j] = die_top_shaped(area, cv2.minAreaRect(max(cnts, key=cv2.contourArea))[1], (lo, hi), config.die_fill)
    out = []
    for q in quads:
        x0, y0 = np.maximum(np.floor(q.min(axis=0)).astype(int), 0)
        x1, y1 = np.minimum(np.ceil(q.max(axis=0)).astype(int) + 1, (W, H))
        inside = np.zeros((max(y1 - y0, 0), max(x1 - x0, 0)), np.uint8)
        cv2.fillPoly(inside, [np.round(q - (x0, y0)).astype(np.int32)], 1)
        lab = labels[y0 - by0:y1 - by0, x0 - bx0:x1 - bx0][inside > 0]
        lab = lab[lab > 0]
        out.append(float(die[lab].mean()) if lab.size else 0.0)
    return out


def unexplained(mask: np.ndarray, quads: list[np.ndarray], card_px: tuple[float, float]) -> np.ndarray:
    """A copy of ``mask`` (uint8[H, W]) without the cards already found (``quads`` float[4, 2] px of it) and a
    rim of 8 % of the card's short side (``card_px`` (short, long) px) around each."""
    rest = mask.copy()
    pad = max(1, int(round(0.08 * min(card_px))))
    for q in quads:
        pts = [np.round(q).astype(np.int32)]
        cv2.fillPoly(rest, pts, 0)
        cv2.polylines(rest, pts, True, 0, 2 * pad)
    return rest


def without_read(mask: np.ndarray, quads: list[np.ndarray], card_px: tuple[float, float], rim: float) -> np.ndarray:
    """A copy of ``mask`` (uint8[H, W]) without the cards already read (``quads`` float[4, 2] px of it) and a rim of
    ``rim`` x the card's short side (``card_px`` (short, long) px, at least 1 px) around each: what a quad leaves of
    its card's edge (a pixel or two) would otherwise join the card beside it."""
    out = mask.copy()
    pad = max(1, int(round(rim * min(card_px))))
    for q in quads:
        pts = [np.round(q).astype(np.int32)]
        cv2.fillPoly(out, pts, 0)
        cv2.polylines(out, pts, True, 0, 2 * pad + 1)
    return out


def neighbour_quads(quads: list[np.ndarray], mask: np.ndarray, card_px: tuple[float, float],
                    config: CardsConfig) -> list[np.ndarray]:
    """Where the next card of a row, a column or a station would lie beside the cards found: float[4, 2] quads
    one card plus ``neighbour_gap`` x the short side away along each found card's own axes (``quads``, ordered,
    px of ``mask``), up to ``neighbour_rings`` steps out, where at least ``neighbour_occupancy`` of the quad is
    foreground (``mask`` uint8[H, W]; the caller passes what the cards found do not explain, :func:`unexplained`)
    and no found card or other such quad has its centre within half a short
    side. Cards are laid in rows and columns; one whose colours the table shares is a card only if a deck knows it.
    """
    h, w = mask.shape
    short = float(min(card_px))
    centres = np.array([np.asarray(q, np.float64).mean(axis=0) for q in quads]).reshape(-1, 2)
    frontier = [np.asarray(q, np.float64) for q in quads]
    # foreground count of any axis-aligned box in O(1): a place whose bounding box holds too little foreground
    # is no card, whatever its outline (on a plain table nearly every place is rejected by this alone)
    integral = cv2.integral((mask > 0).astype(np.uint8))
    out: list[np.ndarray] = []
    for _ in range(max(0, int(config.neighbour_rings))):
        new = []
        # the ring's places in order, those off the image or whose box holds too little foreground left out at once
        # (neither test depends on the places taken before); the rest are taken one by one, in the same order
        for p, c, (x0, y0, x1, y1), need in _ring_places(frontier, integral, short, config):
            if bool((np.hypot(*(centres - c).T) < 0.5 * short).any()):
                continue
            inside = np.zeros((y1 - y0, x1 - x0), np.uint8)
            cv2.fillPoly(inside, [np.round(p - (x0, y0)).astype(np.int32)], 1)
            if float(np.count_nonzero(mask[y0:y1, x0:x1][inside > 0])) < need:
                continue
            centres = np.vstack([centres, c[None, :]])
            new.append(p)
        out += new
        frontier = new
    return out


def _ring_places(frontier: list[np.ndarray], integral: np.ndarray, short: float,
                 config: CardsConfig) -> list[tuple[np.ndarray, np.ndarray, tuple[int, int, int, int], float]]:
    """The places of one ring of :func:`neighbour_quads` beside the quads of ``frontier`` (float[4, 2] px each): each
    quad moved one card plus ``neighbour_gap`` x ``short`` px along its sides 0-1 and 0-3, forwards then backwards,
    quad after quad; of those whose centre lies on the image (``integral``: int[H + 1, W + 1] summed-area table of
    its foreground, 0/1), the ones whose bounding box holds at least ``neighbour_occupancy`` of the place's area as
    (place float[4, 2], centre float[2], box (x0, y0, x1, y1) px clipped to the image, foreground needed px).

    Every place of the ring is moved, centred and boxed in one pass: the same arithmetic as place by place (each
    side's length is ``np.linalg.norm``'s own, its mean a sum of the 4 corners in order)."""
    if not frontier:
        return []
    h, w = integral.shape[0] - 1, integral.shape[1] - 1
    Q = np.stack(frontier)                                                               # [n, 4, 2]
    sides = np.stack([Q[:, 1] - Q[:, 0], Q[:, 3] - Q[:, 0]], axis=1)                     # [n, 2, 2]
    lengths = np.array([[max(float(np.linalg.norm(v)), 1e-6) for v in q] for q in sides])  # [n, 2]
    steps = sides * (1.0 + config.neighbour_gap * short / lengths)[:, :, None]
    P = np.stack([Q[:, None] + steps[:, :, None], Q[:, None] - steps[:, :, None]], axis=2).reshape(-1, 4, 2)
    C = P.mean(axis=1)                                                                   # [4n, 2], in loop order
    idx = np.flatnonzero((C[:, 0] >= 0) & (C[:, 0] < w) & (C[:, 1] >= 0) & (C[:, 1] < h))   # centre on the image
    P, C = P[idx], C[idx]
    lo = np.maximum(np.floor(P.min(axis=1)).astype(int), 0)
    hi = np.minimum(np.ceil(P.max(axis=1)).astype(int) + 1, (w, h))
    box = (integral[hi[:, 1], hi[:, 0]] - integral[lo[:, 1], hi[:, 0]] - integral[hi[:, 1], lo[:, 0]]
           + integral[lo[:, 1], lo[:, 0]])
    places = []
    for k, (x0, y0), (x1, y1), n in zip(range(len(P)), lo.tolist(), hi.tolist(), box.tolist(), strict=True):
        need = config.neighbour_occupancy * max(float(cv2.contourArea(P[k].astype(np.float32))), 1.0)
        if n >= need:
            places.append((P[k], C[k], (x0, y0, x1, y1), need))
    return places


def rectify_table(frame: np.ndarray, calibration: TableCalibration,
                  config: CardsConfig) -> tuple[np.ndarray, np.ndarray, float]:
    """Top-down image of the table plane seen in ``frame``: (image, M frame px -> image px, px per mm).

    With a lens calibration, M maps *undistorted* frame pixels (see :meth:`TableCalibration.to_px`).

    The scale keeps about the frame's resolution at its centre; the extent is the frame's footprint on
    the table, clipped to 2 m around the marker layout.
    """
    h, w = frame.shape[:2]
    s = 1.0 / calibration.mm_per_px()
    lo, hi = calibration.footprint_mm(w, h)
    size = (hi - lo) * s
    if size.prod() > 1.5 * w * h:  # keep the work bounded
        s *= math.sqrt(1.5 * w * h / size.prod())
        size = (hi - lo) * s
    M = calibration.top_down(lo, s)
    if calibration.lens is not None:  # straighten the lens first; M then maps undistorted pixels
        frame = calibration.lens.undistort(frame)
    img = cv2.warpPerspective(frame, M, (int(size[0]) + 1, int(size[1]) + 1), flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_REPLICATE)
    return img, M, s
