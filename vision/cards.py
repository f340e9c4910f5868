"""The card reader: cards and square tiles lying flat on the table, found, identified and laid out.

Stages of :func:`read_cards` (each a pure function of ``(config, data)``, timed by
:func:`vision.timing.timed_stage`), each in its own module:

1. ``find_quads`` (:mod:`vision.card_detect`): every card's quad, touching cards split on the card grid;
   with a calibration on the top-down table image (``rectify_table``), where a card's size in pixels is
   known from the deck's card size in mm.
2. ``rectify`` (:mod:`vision.quads`): the same perspective warp serves enrollment (:mod:`vision.deck`) and
   run time; crops are portrait, ``crop_width`` x ``crop_width * aspect``.
3. ``identify``: the enrolled :class:`vision.deck.DeckProfile` scores each crop (its features:
   :mod:`vision.card_features`); a card identified weakly (not in the deck, or low confidence) gets a second
   look with other outlines from the image's straight edges (:mod:`vision.card_match`; with a calibration
   searched on the top-down table image, where the card's size is known), kept only when the deck matches
   the new crop better; ArUco stickers on cards decide their ids (``stickers``).
4. ``layout`` (:mod:`vision.card_layout`): table mm, ``assign_rows_cols`` and ``assign_cells`` (edge-adjacency
   grid relative to an anchor card), player zones (:func:`vision.table.zones_of`).

What a read gives, :class:`vision.observations.CardsRead` of :class:`vision.observations.CardObservation`, is
with the other readers' results in :mod:`vision.observations`.

Glossary: *quad* = float[4, 2] pixel corners of a card, clockwise from the card's top-left as it reads;
*rotation_deg* = clockwise angle of the card's up direction from the table's up direction (the image's
up when there is no calibration), in (-180, 180]; *cell* = [row offset, column offset] from the anchor
card, in card pitches along the anchor's own axes (down and right positive).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import cv2
import numpy as np

from .card_detect import CardsConfig, crop_size, find_card_quads, rectify_table
from .card_features import reusing_features
from .card_layout import layout_observations, quad_sizes
from .card_light import LightConfig, evened_scores
from .card_match import RefineConfig, SearchView, no_card_here, refine_identifications
from .card_rows import split_rows
from .deck import DeckProfile
from .errors import VisionError
from .foreground import TableMemory
from .frames import validate_frame
from .incremental import covered, grow, piece_sized, recheck_markers, touches, window_reads
from .observations import CardObservation, CardsRead
from .quads import order_quad, quad_size, rectify
from .table import (
    MIN_SIDE_PX,
    MarkerCheck,
    TableCalibration,
    TableConfig,
    Zones,
    check_markers,
    detect_markers,
)
from .timing import timed_stage

__all__ = [
    "MIRROR_NOTE",
    "CardsConfig",
    "MirrorCheck",
    "NoCardsFound",
    "check_mirror",
    "decide_mirror",
    "identify_and_refine",
    "identify_frame",
    "read_cards",
    "read_cards_changes",
    "sticker_ids",
    "table_markers",
    "whole_frame_card",
]


class NoCardsFound(VisionError):
    """Raised only by callers that require cards (``read_cards`` itself returns an empty read)."""


#: A change narrower one way than this fraction of a card's short side is no card coming, going or moving
#: (:func:`vision.incremental.piece_sized`: a card's own change, margins included, is wider both ways; a Roll
#: die's, with its shadow and the stillness detector's margins, is about 0.9 of a tile's side one way at least).
SMALL_CHANGE = 1.0

#: A card next to a change (its outline's bounding box meets a changed box) keeps its identification without
#: being identified again when the changed boxes cover at most this fraction of its area and the read of the
#: window finds its outline again within ``SAME_PLACE`` x its short side of every corner (a card played beside
#: it changes the table around it, not the card; a card swapped in place changes all of it).
EDGE_COVER = 0.4
SAME_PLACE = 0.2

#: Another place the read of a window finds whose centre lies within this fraction of a card's short side of a card
#: it found again at its place (``SAME_PLACE``), read with at least ``seen_conf`` confidence
#: (:class:`vision.card_match.RefineConfig`), is that card seen again and is not identified: the reader reports one
#: card per place, as a whole read leaves a second-look place on a card read confidently (Roll for the Galaxy, layout
#: 102, a die re-rolled beside a tile: a place 26 px off the tile's centre was identified, searched onto the tile and
#: read as it, 20-27 ms of CPU for a tile that did not move).
SEEN_AGAIN = 0.5

#: The note of a read whose cards match the deck far better flipped left-right than as the mirror setting
#: reads them (a selfie webcam, or the setting decided for another camera).
MIRROR_NOTE = ("the cards read as if the camera image were mirrored (left and right swapped): turn the "
               "camera's mirror off, or set the box to read mirrored images")


@dataclass(frozen=True)
class MirrorCheck:
    """Which way a deck reads the cards of a frame best.

    Attributes:
        mirrored: True: flipped left-right; False: as they are; None: undecided (fewer than ``min_cards``
            cards, or the two readings within ``margin`` of each other).
        plain, flipped: mean best distance of the cards read as they are and flipped (lower is better).
        cards: how many cards were compared.
    """

    mirrored: bool | None
    plain: float
    flipped: float
    cards: int


def check_mirror(deck: DeckProfile, crops: list[np.ndarray], min_cards: int = 3, margin: float = 0.05) -> MirrorCheck:
    """Score rectified card crops (``uint8[h, w, 3]`` as the frame shows them) with ``deck`` as they are and
    flipped left-right: the reading whose mean best distance is lower by ``margin`` wins."""
    if len(crops) < max(1, min_cards):
        return MirrorCheck(None, float("nan"), float("nan"), len(crops))
    plain = float(np.mean([sc[1] for sc in _score_many(deck, crops)]))
    flipped = float(np.mean([sc[1] for sc in _score_many(deck, [cv2.flip(c, 1) for c in crops])]))
    mirrored = None if abs(plain - flipped) < margin else flipped < plain
    return MirrorCheck(mirrored, plain, flipped, len(crops))


def decide_mirror(frame: np.ndarray, deck: DeckProfile, calibration: TableCalibration | None = None,
                  config: CardsConfig | None = None, max_cards: int = 12) -> MirrorCheck:
    """Decide once (at set-up or calibration, with cards of the deck on the table) whether the camera
    mirrors the table: the cards of ``frame`` (at most ``max_cards``) scored both ways (:func:`check_mirror`).
    Store the answer as the reader's ``mirror`` setting (``"on"``/``"off"``); reads then score each card
    once, and a read whose cards fit the other way far better says so (:data:`MIRROR_NOTE`).

    Raises:
        BadFrame: frame is not a non-empty uint8 BGR image.
    """
    c = replace(config or CardsConfig(), mirror="off")
    r = read_cards(frame, None, calibration=calibration, config=c, check_moved=False, keep_crops=True)
    crops = [o.crop for o in r.cards[:max_cards] if o.crop is not None]
    return check_mirror(deck, crops)


# ----------------------------------------------------------------------------------------------- the read


def sticker_ids(frame: np.ndarray, quads: list[np.ndarray], deck: Any, config: CardsConfig,
                table_config: TableConfig) -> dict[int, str]:
    """Card index -> card id from ArUco stickers whose centre lies on the card (ids the deck maps)."""
    mapping = getattr(deck, "markers", None) or {}
    if not mapping:
        return {}
    found = detect_markers(frame, table_config)
    out: dict[int, str] = {}
    for mid, corners in found.items():
        if mid < config.sticker_ids_from or mid not in mapping:
            continue
        c = corners.mean(axis=0)
        for k, q in enumerate(quads):
            if cv2.pointPolygonTest(q.astype(np.float32).reshape(-1, 1, 2), (float(c[0]), float(c[1])), False) >= 0:
                out[k] = mapping[mid]
    return out


def table_markers(frame: np.ndarray, quads: Sequence[np.ndarray], config: CardsConfig,
                  table_config: TableConfig) -> list[bool]:
    """Per quad (float[4, 2] frame px of ``frame``, uint8[H, W, 3] BGR), whether it holds a table marker: an ArUco
    marker of ``table_config``'s dictionary whose id is below ``config.sticker_ids_from`` (the ids from there up are
    card stickers, :func:`sticker_ids`) with its centre inside the quad. A calibration marker on its white paper is
    square and lies flat like a Roll for the Galaxy tile, and with no calibration nothing else says it is no card.
    Each quad's own box (a quarter of its side around it) is searched, not the whole frame: only the few places no
    deck knows are asked about."""
    h, w = frame.shape[:2]
    out = []
    for q in quads:
        q = np.asarray(q, np.float64).reshape(4, 2)
        pad = 0.25 * float(np.max(q.max(axis=0) - q.min(axis=0)))
        x0, y0 = (int(max(0.0, np.floor(v - pad))) for v in q.min(axis=0))
        x1, y1 = int(min(w, np.ceil(q[:, 0].max() + pad))), int(min(h, np.ceil(q[:, 1].max() + pad)))
        if min(x1 - x0, y1 - y0) < MIN_SIDE_PX:
            out.append(False)
            continue
        poly = q.astype(np.float32).reshape(-1, 1, 2)
        found = detect_markers(np.ascontiguousarray(frame[y0:y1, x0:x1]), table_config)
        out.append(any(mid < config.sticker_ids_from
                       and cv2.pointPolygonTest(poly, tuple(float(v) for v in m.mean(axis=0) + (x0, y0)), False) >= 0
                       for mid, m in found.items()))
    return out


def _not_markers(frame: np.ndarray, quads: list[np.ndarray], ids: Sequence[str | None],
                 calibration: TableCalibration | None, config: CardsConfig, table_config: TableConfig,
                 t: dict[str, float]) -> list[int]:
    """Indices into ``quads`` (float[4, 2] frame px) of the places to keep: all with a ``calibration`` (its markers'
    places are left out where the quads are found), else all but those no deck knows (``ids`` None) that hold a table
    marker (:func:`table_markers`, timed as ``table_markers``)."""
    asked = [] if calibration is not None else [k for k, cid in enumerate(ids) if cid is None]
    if not asked:
        return list(range(len(quads)))
    marks = set(k for k, m in zip(asked, timed_stage(t, "table_markers", table_markers, frame,
                                                     [quads[k] for k in asked], config, table_config), strict=True)
                if m)
    return [k for k in range(len(quads)) if k not in marks]


def whole_frame_card(frame: np.ndarray, deck: DeckProfile | None, aspect: float | None, config: CardsConfig,
                     select: Callable[[np.ndarray], bool] | None = None) -> tuple[list[np.ndarray], list[bool]]:
    """([the whole frame's quad float[4, 2] px], [True]) for a photo filled by one card, or ([], []).

    With no calibration the table's colours are fitted on the frame's border; where one card fills the photo that
    border is the card's own, so no card stands out of it. When the frame's long/short side is within
    ``config.aspect_tol`` of the card's (``aspect``, long/short) and ``select`` (if given) accepts it, the whole frame
    is offered as a place of the second look (``loose``): identified only if the deck's coarse distance is near a card
    (:func:`screen_loose`) and reported only if the deck knows it at ``config.loose_min_confidence``; with no
    ``deck`` nothing could tell, and none is offered."""
    h, w = frame.shape[:2]
    if aspect is None or deck is None:
        return [], []
    card = max(aspect, 1.0 / aspect)
    if abs((max(h, w) / min(h, w)) / card - 1.0) > config.aspect_tol:
        return [], []
    q = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float64)
    if select is not None and not select(q):
        return [], []
    return [q], [True]


def _uncalibrated_quads(frame: np.ndarray, deck: DeckProfile | None, aspect: float | None, config: CardsConfig,
                        t: dict[str, float], memory: TableMemory | None,
                        select: Callable[[np.ndarray], bool] | None, explained: Sequence[np.ndarray] = (),
                        inner: list | None = None) -> tuple[list[np.ndarray], list[bool]]:
    """:func:`read_cards`' places with no calibration: the detector's (``find_card_quads``, frame px; those
    ``select`` accepts) and whether each is a place of its second look (run at the size the frame's cards give,
    ``config.loose_measured``; ``explained``: float[K, 2] frame-px polygons known to be no card; ``inner``: its
    ``defer``); where it finds none, the whole frame when one card may fill it (:func:`whole_frame_card`)."""
    found, loose = find_card_quads(frame, config, aspect, t, explained=list(explained), memory=memory, defer=inner)
    keep = [k for k, q in enumerate(found) if select is None or select(q)]
    if keep:
        return [found[k] for k in keep], [loose[k] for k in keep]
    return whole_frame_card(frame, deck, aspect, config, select)


def _reported(frame: np.ndarray, quads: list[np.ndarray], loose: list[bool], ids: list[str | None],
              confs: list[float], identified: bool, calibration: TableCalibration | None, config: CardsConfig,
              table_config: TableConfig, t: dict[str, float]) -> list[int]:
    """Indices of the cards :func:`read_cards` reports: :func:`_kept_loose` (at ``config.loose_min_confidence`` when
    a deck ``identified`` them, else none of the second look's), and where no deck identified them, without the table
    markers (:func:`_not_markers`: a deck's read leaves them out before its rows and mirror stages)."""
    kept = _kept_loose(quads, loose, ids, confs, config.loose_min_confidence if identified else math.inf)
    if identified:
        return kept
    return [kept[k] for k in _not_markers(frame, [quads[k] for k in kept], [None] * len(kept), calibration, config,
                                          table_config, t)]


def read_cards(frame: np.ndarray, deck: DeckProfile | None = None, calibration: TableCalibration | None = None,
               zones: Zones | None = None, config: CardsConfig | None = None,
               table_config: TableConfig | None = None, check_moved: bool = True, keep_crops: bool = False,
               select: Callable[[np.ndarray], bool] | None = None,
               explained: Sequence[np.ndarray] = (), read: Sequence[np.ndarray] = (),
               memory: TableMemory | None = None, defer: list | None = None) -> CardsRead:
    """Find, rectify, identify and lay out every card in ``frame``.

    Args:
        deck: enrolled references (None: cards are found and laid out, ids are null).
        calibration: table calibration (None: layout in pixels, mm estimated from the card size).
        zones: player zones in mm (or px without calibration); None -> every zone is null.
        check_moved: with a calibration, compare this frame's markers with it (result in ``.markers``;
            use :func:`vision.table.check_markers` with ``raise_on_move`` to get ``MarkersMoved``).
        select: only the cards whose quad (float[4, 2] frame px, as found) it accepts are identified and
            reported (a read of a window keeps the cards it will use, not its neighbours cut by its edge).
        explained: float[K, 2] polygons in frame px of what is known to be no card (the dice a dice reader found
            on this frame, :func:`vision.dice_and_cards.read_dice_and_cards`); with a calibration, the detector's second
            look leaves their foreground out, as it does the calibration markers' (``find_card_quads``'s
            ``explained``): a die among the tiles then makes no place to snap, screen and drop. The first look
            is not changed by them (a card under a die is found as before). Without a calibration the same, where
            the second look runs at the size the frame's cards give (``CardsConfig.loose_measured``).
        read: float[4, 2] frame-px quads of cards already read (a window read after a change: the cards kept),
            also to be given in ``explained``; with a calibration their foreground is taken out before the first
            look (``find_card_quads``'s ``read``), so they are neither split from a blob nor reported again.
            Without a calibration: unused.
        memory: the table's colours kept from earlier reads of the whole table, with the same calibration (or
            none), reused while they still explain the table's border (:class:`vision.foreground.TableMemory`);
            None: fitted on this frame alone. Not for a read of a window cut from the table.
        defer: a list, to read the detector's first look alone (the cards it finds, none of the second look's):
            appended is ``due(more, dice=())``, True when, told of ``more`` (float[K, 2] frame-px polygons known to
            be no card) as well as ``explained``, the second look would run (``find_card_quads``' ``defer``; ``dice``:
            frame-px polygons of every die read, sure or not, which only its gate leaves out). When it is False, the
            read is the one a read told of ``more`` from the start gives (the same cards and ids; but for a place only
            ``dice`` would make): the dice read after the tiles, :func:`vision.dice_and_cards.read_dice_and_cards`'
            ``"tiles_first"``.

    Raises:
        BadFrame: frame is not a non-empty uint8 BGR image.
    """
    c = config or CardsConfig()
    tc = table_config or TableConfig()
    t: dict[str, float] = {}
    frame = validate_frame(frame, MIN_SIDE_PX)
    aspect = c.aspect if c.aspect is not None else (getattr(deck, "aspect", None) if deck is not None else None)
    if calibration is not None:
        # detect on the top-down table image, where every card has the deck's size in pixels
        top, M, s_mm = timed_stage(t, "rectify_table", rectify_table, frame, calibration, c)
        card_mm = getattr(deck, "card_mm", None) if deck is not None else None
        card_px = (card_mm[0] * s_mm, card_mm[1] * s_mm) if card_mm else None
        # the calibration markers with their white quiet zone (a quarter of the side) explain their foreground
        markers_top = [cv2.perspectiveTransform(((m - m.mean(axis=0)) * 1.25 + m.mean(axis=0)).reshape(-1, 1, 2),
                                                M @ calibration.H).reshape(-1, 2)
                       for m in (np.asarray(v, np.float64) for v in calibration.layout.corners_mm.values())]
        inner: list = []
        quads_top, loose = find_card_quads(top, c, aspect, t, card_px,
                                           markers_top + _to_top(explained, M, calibration),
                                           _to_top(read, M, calibration), memory, None if defer is None else inner)
        _give_due(defer, inner, M, calibration)
        Minv = np.linalg.inv(M)

        def to_frame(q: np.ndarray) -> np.ndarray:
            p = cv2.perspectiveTransform(np.asarray(q, np.float64).reshape(-1, 1, 2), Minv).reshape(4, 2)
            if calibration.lens is not None:  # back to the camera's own (distorted) pixels
                p = calibration.lens.distort_points(order_quad(p))
            return order_quad(p)

        quads = [to_frame(q) for q in quads_top]
        # drop quads that are the calibration markers themselves (or the white sheet around them)
        centres = calibration.marker_centres_px()
        keep = [k for k, q in enumerate(quads)
                if not calibration.covers_marker(q, centres) and (select is None or select(q))]
        quads, quads_top, loose = [quads[k] for k in keep], [quads_top[k] for k in keep], [loose[k] for k in keep]
        view = (top, quads_top, to_frame, card_px)
    else:
        inner = []
        quads, loose = _uncalibrated_quads(frame, deck, aspect, c, t, memory, select, explained,
                                           None if defer is None else inner)
        _give_due(defer, inner, None, None)   # frame px: the second look's own, False when it has no card size
        view = None
    markers = timed_stage(t, "markers", check_markers, frame, calibration,
                          tc) if (calibration is not None and check_moved) else None

    # identification (may flip a quad by 180/90 degrees)
    ids: list[str | None] = [None] * len(quads)
    confs: list[float] = [0.0] * len(quads)
    sources = ["reference"] * len(quads)
    crops: list[np.ndarray] = []
    notes: list[str] = []
    if quads:
        asp = aspect or float(np.median([quad_size(q)[1] / max(quad_size(q)[0], 1e-6) for q in quads]))
        cw, ch = crop_size(c, asp)
        crops = timed_stage(t, "rectify", lambda: [rectify(frame, q, cw, ch) for q in quads])
        with reusing_features():   # a place screened, then identified, or scored twice: its features once
            if deck is not None and any(loose):   # the second look's places: only those the deck might know
                keep = timed_stage(t, "loose_screen", screen_loose, deck, crops, loose, c)
                quads, crops, loose = [quads[k] for k in keep], [crops[k] for k in keep], [loose[k] for k in keep]
                if view is not None:
                    view = (view[0], [view[1][k] for k in keep], *view[2:])
            if deck is not None:
                found = list(quads)
                results, quads, crops = timed_stage(t, "identify", identify_and_refine, deck, frame, quads, crops,
                                                    c.mirror, view, loose)
                # a table marker is no card (nor a row of them, nor a reason to doubt the mirror setting)
                keep = _not_markers(frame, quads, [r.card_id for r, _m in results], calibration, c, tc, t)
                results, quads, crops, loose, found = ([v[k] for k in keep] for v in (results, quads, crops, loose,
                                                                                       found))
                results, quads, crops, loose = timed_stage(t, "rows", _rows, deck, frame, asp, quads, crops, results,
                                                           loose, c, found, view is None)
                ids, confs, sources = [None] * len(quads), [0.0] * len(quads), ["reference"] * len(quads)
                for k, (r, mirrored) in enumerate(results):
                    ids[k], confs[k] = r.card_id, r.confidence
                    if mirrored:  # the card reads mirrored: its left and right corners swap
                        quads[k] = quads[k][[1, 0, 3, 2]]
                    if r.turns:  # the crop matched after r.turns clockwise quarter turns
                        quads[k] = np.roll(quads[k], r.turns, axis=0)
                    h_, w_ = crops[k].shape[:2]
                    # the kept crop reads as the card, where it is read again: kept, or checked for a mirror
                    if ((mirrored or r.turns) and (r.turns % 2 == 0 or h_ == w_)
                            and (keep_crops or (c.mirror != "auto" and _unsure(r)))):
                        crops[k] = rectify(frame, quads[k], w_, h_)
                stick = timed_stage(t, "stickers", sticker_ids, frame, quads, deck, c, tc)
                for k, cid in stick.items():
                    ids[k], confs[k], sources[k] = cid, 0.99, "sticker"
                # only the first look's cards: the second look's places are mostly no card and read weakly either
                # way
                if c.mirror != "auto" and timed_stage(t, "mirror", _mirror_looks_wrong, deck,
                                                      [r for r, lo in zip(results, loose, strict=True) if not lo],
                                                      [x for x, lo in zip(crops, loose, strict=True) if not lo]):
                    notes.append(MIRROR_NOTE)
        kept = _reported(frame, quads, loose, ids, confs, deck is not None, calibration, c, tc, t)
        if len(kept) < len(quads):
            quads, ids, confs, sources = ([v[k] for k in kept] for v in (quads, ids, confs, sources))
            crops = [crops[k] for k in kept]

    # geometry in the layout frame
    obs = timed_stage(t, "layout", layout_observations, frame, quads, ids, confs, sources,
                      crops if keep_crops else None, deck, calibration, zones, c)
    return CardsRead(frame.shape[1], frame.shape[0], tuple(obs), markers, t, tuple(notes))


def _give_due(defer: list | None, inner: list, M: np.ndarray | None, calibration: TableCalibration | None) -> None:
    """``read_cards``' ``defer``: appended (when a list) is ``due(more, dice=())`` of frame-px polygons, ``inner``'s
    first (``find_card_quads``' ``due`` of top-down px, ``more`` and ``dice`` taken there by ``M`` and
    ``calibration``; with no calibration, as given), or always False (``inner`` empty: no second look)."""
    if defer is not None and calibration is None:
        defer.append(inner[0] if inner else (lambda more, dice=(): False))
    elif defer is not None:
        defer.append((lambda more, dice=(): inner[0](_to_top(more, M, calibration), _to_top(dice, M, calibration)))
                     if inner else (lambda more, dice=(): False))


def _to_top(polygons: Sequence[np.ndarray], M: np.ndarray, calibration: TableCalibration) -> list[np.ndarray]:
    """``polygons`` (float[K, 2] frame px) in px of the top-down table image (``M``: undistorted frame px -> its
    px, :func:`vision.card_detect.rectify_table`)."""
    out = []
    for p in polygons:
        p = np.asarray(p, np.float64).reshape(-1, 2)
        if calibration.lens is not None:
            p = calibration.lens.undistort_points(p)
        out.append(cv2.perspectiveTransform(p.reshape(-1, 1, 2), M).reshape(-1, 2))
    return out


def screen_loose(deck: DeckProfile, crops: list[np.ndarray], loose: list[bool], config: CardsConfig) -> list[int]:
    """Indices of the cards to identify: every card of the detector's first look, and a card of its second look
    (``loose``) only when its crop (uint8[h, w, 3], as read) comes within ``loose_max_coarse`` of some reference
    by the deck's cheap coarse distance (:meth:`vision.deck.DeckProfile.coarse_best_many`: every reference and
    turn, centred, one matrix product for all the crops; read as the ``mirror`` setting reads, both ways for
    ``"auto"``). A patterned cloth or a playmat leaves dozens of places that are no card; each would cost a
    full identification and a search for a better outline (about 0.1-0.3 s on this machine) only to be dropped.
    The bound is loose on purpose: a place whose outline is off matches coarsely worse than the card it holds
    (the outline search finds the card later), so only places far from every reference are left out."""
    idx = [k for k, lo in enumerate(loose) if lo]
    if not idx or config.loose_max_coarse is None:
        return list(range(len(crops)))
    looks = [crops[k] for k in idx]
    ways = {"on": [True], "auto": [False, True]}.get(config.mirror, [False])
    best = np.full(len(idx), np.inf)
    for flip in ways:
        d = deck.coarse_best_many([cv2.flip(x, 1) for x in looks] if flip else looks)
        best = np.minimum(best, np.asarray(d, np.float64))
    near = {k for k, d in zip(idx, best, strict=True) if d <= config.loose_max_coarse}
    return [k for k in range(len(crops)) if not loose[k] or k in near]


def _kept_loose(quads: list[np.ndarray], loose: list[bool], ids: list[str | None], confs: list[float],
                min_conf: float) -> list[int]:
    """Indices of the cards to report: every card of the detector's first look; a card of its second look
    (``loose``: a quad on a patterned table, or beside the cards found) only when the deck knows it with at least
    ``min_conf`` (else it is the table's pattern) and no card kept before it, or surer, has its centre within
    half a short side (the same card seen by two looks). ``quads``: float[4, 2] px."""
    order = sorted(range(len(quads)), key=lambda k: (loose[k], -confs[k]))
    kept: list[int] = []
    for k in order:
        if loose[k]:
            if ids[k] is None or confs[k] < min_conf:
                continue
            c, short = quads[k].mean(axis=0), quad_size(quads[k])[0]
            if any(float(np.linalg.norm(quads[j].mean(axis=0) - c)) < 0.5 * short for j in kept):
                continue
        kept.append(k)
    return sorted(kept)


def _unsure(r: Any) -> bool:
    """Whether an identification is 'not in the deck' or has confidence under 0.5."""
    return r.card_id is None or r.confidence < 0.5


def _mirror_looks_wrong(deck: DeckProfile, results: list[tuple[Any, bool]], crops: list[np.ndarray],
                        min_weak: int = 2, margin: float = 0.1) -> bool:
    """Whether the cards would fit the deck clearly better flipped left-right than as the mirror setting reads
    them (``crops``: the crops as read, already flipped when the setting mirrors). Only asked when at least
    ``min_weak`` cards are 'not in the deck' or unsure (a good read costs nothing more; many cards, such as
    symmetric ones, read well either way): those are scored both ways (:func:`check_mirror`, the means
    ``margin`` apart)."""
    weak = [k for k, (r, _) in enumerate(results) if _unsure(r)]
    if len(weak) < min_weak:
        return False
    return check_mirror(deck, [crops[k] for k in weak], min_cards=min_weak, margin=margin).mirrored is True


def read_cards_changes(frame: np.ndarray, previous: tuple[CardObservation, ...],
                       changed: list[tuple[int, int, int, int]],
                       deck: DeckProfile | None = None, calibration: TableCalibration | None = None,
                       zones: Zones | None = None, config: CardsConfig | None = None,
                       table_config: TableConfig | None = None, markers: MarkerCheck | None = None,
                       check_moved: bool = True, explained: Sequence[np.ndarray] = ()) -> CardsRead:
    """:func:`read_cards` of ``frame`` after a change, reading only windows around the ``changed`` boxes.

    A change narrower one way than ``SMALL_CHANGE`` x a card's short side (a die rolled, a die laid on a tile) is no
    card coming, going or moving: the cards it touches are kept. Every card of ``previous`` (the last read's
    observations) that touches no other changed box is kept as it was (id, quad, confidence, source); each
    window (a changed box grown by a card's size) is read as its own frame (:func:`read_cards`, with the
    window's calibration and the kept cards as ``explained``: a kept card cut by the window's edge leaves the
    detector's second look nothing to find there; and as ``read``: their foreground is taken out before the first
    look, so a tableau the window cuts is not split on the card grid only to drop the cards it holds), and a card
    found there joins when its centre lies in a changed box and the window's edge does not cut it; a card beside the
    change (the changes cover at most ``EDGE_COVER`` of it) that the window's read finds at its place again keeps its
    observation without being identified again (0 ms for a card that did not move), and any other place found on it
    (its centre within ``SEEN_AGAIN`` of a short side of the card's, read confidently) is that card seen again, not
    identified either; then every card is laid out
    again (rows, columns, cells and zones depend on all). The markers are checked again only when a change touches one.

    Args:
        changed: ``(x, y, w, h)`` frame-px boxes of what changed since ``previous`` was read (not empty).
        markers: the last read's marker check, kept when no change touches a marker.
        explained: float[K, 2] frame-px polygons known to be no card (this frame's dice), as :func:`read_cards`
            takes them; each window is given those in it.
        Others: as :func:`read_cards` (with a lens calibration the whole frame is read again).

    Raises:
        BadFrame: frame is not a non-empty uint8 BGR image.
    """
    c = config or CardsConfig()
    tc = table_config or TableConfig()
    frame = validate_frame(frame, MIN_SIDE_PX)
    h, w = frame.shape[:2]
    if calibration is not None and (calibration.lens is not None or tuple(calibration.frame_size) != (w, h)):
        return read_cards(frame, deck, calibration, zones, c, tc, check_moved, explained=explained)
    sides = quad_sizes([o.corners for o in previous])
    if len(sides):
        short, card = (float(v) for v in np.median(sides, axis=0))
    elif calibration is not None and deck is not None:
        short, card = min(deck.card_mm) / calibration.mm_per_px(), max(deck.card_mm) / calibration.mm_per_px()
    else:
        short = card = 0.25 * min(h, w)
    changed = piece_sized(changed, SMALL_CHANGE * short)
    if not changed:   # a die rolled or laid on a tile: no card came, went or moved
        return CardsRead(w, h, tuple(previous), markers, {"unchanged": 0.0})
    kept = [o for o in previous if not touches(o.corners, changed)]
    beside = [o for o in previous if touches(o.corners, changed) and covered(o.corners, changed) <= EDGE_COVER]
    quads = [o.corners for o in kept]
    notes: set[str] = set()
    # what the windows need not look for: the dice given, and the cards kept (a card cut by a window's edge is
    # foreground its first look does not explain; without them the second look would run to find nothing new)
    polys = [np.asarray(p, np.float64).reshape(-1, 2) for p in explained] + [np.asarray(o.corners, np.float64)
                                                                             for o in kept]
    quads_kept = [np.asarray(o.corners, np.float64) for o in kept]   # their foreground taken out of each window
    again: dict[int, CardObservation] = {}  # a card beside the change found at its place: kept as it was

    # a window's border strip cuts the cards round the change: no sample of the table's several colours (they would
    # take the cards' colours for the table's), so a window models its table with one colour
    window_config = replace(c, fg_modes_top=1)

    sure = RefineConfig().seen_conf

    def read(x: int, y: int, ww: int, hh: int, keep: Callable[[np.ndarray], bool]):
        def select(q: np.ndarray) -> bool:
            at = np.asarray(q, np.float64) + (x, y)
            o = same_place(at, beside, SAME_PLACE * short)
            if o is not None:
                again[id(o)] = o
                return False
            # a place on a card found again at its place is that card seen again (the detector's first look, whose
            # places come first, finds a card at its place before its second look offers places around it)
            centre = at.mean(axis=0)
            if any(o.confidence >= sure and float(np.linalg.norm(np.asarray(o.corners, np.float64).mean(axis=0)
                                                                    - centre)) < SEEN_AGAIN * short
                   for o in again.values()):
                return False
            return keep(q)

        sub_cal = calibration.window(x, y, ww, hh) if calibration is not None else None
        inside = [p - (x, y) for p in polys if touches(p, [(x, y, ww, hh)])]
        read_in = [q - (x, y) for q in quads_kept if touches(q, [(x, y, ww, hh)])]
        r = read_cards(frame[y:y + hh, x:x + ww], deck, sub_cal, None, window_config, tc, check_moved=False,
                       select=select, explained=inside, read=read_in)
        notes.update(r.notes)
        return r.cards, r.timings_ms

    near = [grow(b, 0.5 * card, frame.shape) for b in changed]
    found, t = window_reads(frame.shape, changed, 1.2 * card, near, quads, read)
    centres = [q.mean(axis=0) for q in quads]
    kept_again = [o for o in again.values() if not any_inside(centres, o.corners)]
    quads += [o.corners for o in kept_again]
    obs_all = [*kept, *(o for o, _ in found), *kept_again]
    ids: list[str | None] = [o.id for o in obs_all]
    confs = [o.confidence for o in obs_all]
    sources = [o.source for o in obs_all]
    markers = recheck_markers(frame, calibration, changed, markers, tc, check_moved, t)
    obs = timed_stage(t, "layout", layout_observations, frame, quads, ids, confs, sources, None, deck, calibration,
                      zones, c)
    return CardsRead(w, h, tuple(obs), markers, t, tuple(sorted(notes)))


def same_place(quad: np.ndarray, cards: list[CardObservation], tol_px: float) -> CardObservation | None:
    """The card of ``cards`` whose corners each lie within ``tol_px`` of a corner of ``quad`` (float[4, 2] frame
    px, in any order: a card's corners are turned to its top when identified), or None."""
    for o in cards:
        d = np.linalg.norm(np.asarray(o.corners, np.float64)[:, None, :] - quad[None, :, :], axis=2)
        if float(d.min(axis=1).max()) <= tol_px and float(d.min(axis=0).max()) <= tol_px:
            return o
    return None


def any_inside(points: Sequence[np.ndarray], corners: np.ndarray) -> bool:
    """Whether any of ``points`` (x, y frame px each) lies in the card of ``corners`` (float[4, 2] frame px, in any
    order; its outline is ordered once for all the points)."""
    poly = order_quad(np.asarray(corners, np.float64)).astype(np.float32).reshape(-1, 1, 2)
    return any(cv2.pointPolygonTest(poly, (float(p[0]), float(p[1])), False) >= 0 for p in points)


def identify_frame(deck: Any, crops: list[np.ndarray], mirror: str) -> list[tuple[Any, bool]]:
    """(Identification, mirrored) per crop; with ``mirror="auto"`` the whole frame takes the reading
    (plain or mirrored) with the lower total distance."""
    scores, mirrored = _frame_scores(deck, crops, mirror)
    return [(r, mirrored) for r in deck.decide_frame(scores)]


def _frame_scores(deck: Any, crops: list[np.ndarray], mirror: str) -> tuple[list[tuple[str, float, float, int]], bool]:
    """(:meth:`DeckProfile.score` per crop, mirrored): ``mirror="auto"`` takes the reading (plain or
    flipped left-right) with the lower total distance."""
    if mirror == "on":
        return _score_many(deck, [cv2.flip(c, 1) for c in crops]), True
    plain = _score_many(deck, crops)
    if mirror != "auto":
        return plain, False
    flipped = _score_many(deck, [cv2.flip(c, 1) for c in crops])
    if sum(s[1] for s in flipped) < sum(s[1] for s in plain):
        return flipped, True
    return plain, False


def _score_many(deck: Any, crops: list[np.ndarray]) -> list[tuple[str, float, float, int]]:
    """:meth:`vision.deck.DeckProfile.score` of each crop, in one pass over the references when the deck can
    (``score_many``)."""
    if hasattr(deck, "score_many"):
        return deck.score_many(crops)
    return [deck.score(c) for c in crops]


def _rows(deck: Any, frame: np.ndarray, aspect: float, quads: list[np.ndarray], crops: list[np.ndarray],
          results: list[tuple[Any, bool]], loose: Sequence[bool], config: CardsConfig, found: Sequence[np.ndarray],
          unsized: bool) -> tuple[list[tuple[Any, bool]], list[np.ndarray], list[np.ndarray], list[bool]]:
    """:func:`vision.card_rows.split_rows` of an identification where no card size is known (``unsized``: no
    calibration; ``aspect``: the cards' long/short side; ``found``: the outlines as the detector found them), each piece
    rectified to the crops' size and identified by :func:`identify_and_refine` (``config.mirror``), kept at
    ``config.loose_min_confidence`` as a place of the detector's second look is; as it was with a card size known (a
    row of cards is split by the detector there) or every card identified."""
    if not unsized or all(r.card_id is not None for r, _m in results) or not crops:
        return results, quads, crops, list(loose)
    h, w = crops[0].shape[:2]
    return split_rows(deck, aspect, quads, crops, results, loose,
                      lambda pieces: identify_and_refine(deck, frame, pieces, [rectify(frame, q, w, h) for q in pieces],
                                                         config.mirror), found, config.loose_min_confidence)


def identify_and_refine(deck: Any, frame: np.ndarray, quads: list[np.ndarray], crops: list[np.ndarray],
                        mirror: str, top_view: tuple | None = None, loose: Sequence[bool] = (),
                        ) -> tuple[list[tuple[Any, bool]], list[np.ndarray], list[np.ndarray]]:
    """:func:`identify_frame`, then a second look at the weakly identified cards with other outlines
    (:func:`vision.card_match.refine_identifications`, kept only when the deck matches them better), then, for
    the cards still weak, a look with their light evened out (:func:`vision.card_light.evened_scores`: a shadow's
    edge or a coloured light across the card; such a read's confidence is capped at
    :attr:`vision.card_light.LightConfig.max_confidence`).

    ``top_view``: (top-down table image BGR, each card's quad in it, quad -> frame pixels map, card size in
    its pixels or None) when calibrated: the outlines are searched there, where a card's size is known.
    ``loose``: per card, whether it is a place of the detector's second look (mostly no card: a patterned cloth's
    squares); those get no evened look (a pattern evened out can come near some card), nor, with no card size known,
    do places the first look reads beyond the deck's absolute bar (:func:`vision.card_match.no_card_here`).

    Returns ((Identification, mirrored) per card, quads, crops): the quads and crops of the cards whose
    outline changed are replaced (new lists; float[4, 2] pixel quads, uint8 crops of the same size)."""
    scores, mirrored = _frame_scores(deck, crops, mirror)
    if hasattr(deck, "coarse_distances"):
        view = None
        if top_view is not None:
            img, qs, to_frame, card_px = top_view
            view = SearchView(img, qs, to_frame, card_px)   # turned grey only if a card needs it
        level = [s[1] for s in scores]   # the frame's level: the outlines as found (the second look lowers some)
        scores, quads, crops = refine_identifications(deck, frame, quads, crops, scores, mirrored, view=view,
                                                      loose=loose)
        decided = deck.decide_frame(scores, level)
        if getattr(deck, "shape", "card") == "card":   # still weak: a shadow or a cast across the card?
            lc = LightConfig()
            weak = [(r.card_id is None or r.confidence < lc.weak_conf) and not (k < len(loose) and loose[k])
                    and not no_card_here(deck, level[k], view) for k, r in enumerate(decided)]
            scores, evened = evened_scores(deck, crops, scores, weak, mirrored, lc)
            if any(evened):
                decided = [replace(r, confidence=min(r.confidence, lc.max_confidence)) if ev else r
                           for r, ev in zip(deck.decide_frame(scores, level), evened, strict=True)]
        return [(r, mirrored) for r in decided], quads, crops
    return [(r, mirrored) for r in deck.decide_frame(scores)], quads, crops
