"""The hex reader: :func:`read_hexes` runs the stages (see :mod:`vision.hexes`) on one frame."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

from ..cards import EDGE_COVER, SMALL_CHANGE
from ..deck import DeckProfile
from ..frames import validate_frame
from ..incremental import covered, grow, piece_sized, recheck_markers, touches, window_reads, windows
from ..table import (
    MARKER_SHEET_MARGIN,
    MIN_SIDE_PX,
    MarkerCheck,
    TableCalibration,
    TableConfig,
    Zones,
    apply_homography,
    check_markers,
)
from ..timing import timed_stage
from .config import HexesConfig, NotAHexDeck
from .geometry import hex_crop
from .identify import decide_hexes, likely_anchor, score_hexes
from .lattice import find_hexes
from .layout import HexObservation, joined_to_read, place_hexes
from .newhex import hex_sized_blob, marker_sheets
from .size import work_image

__all__ = ["HexesRead", "marker_polygons", "read_hexes", "read_hexes_changes", "room_for_a_hex"]


@dataclass(frozen=True)
class HexesRead:
    """Everything read about sector hexes in one frame.

    Attributes:
        width, height: frame size (px).
        hexes: observations sorted by axial (r, q) when known, then by pixel position.
        flat_px: median flat-to-flat width of a hex in frame pixels.
        markers: MarkerCheck against the calibration, or None without calibration.
        timings_ms: per-stage wall times.
    """

    width: int
    height: int
    hexes: tuple[HexObservation, ...]
    flat_px: float | None = None
    markers: MarkerCheck | None = None
    timings_ms: dict[str, float] = field(default_factory=dict, compare=False)

    def to_json(self, image: str | None = None) -> dict:
        """``{"image": image, "hexes": [...]}``; the CLI merges ``"hexes"`` into the cards JSON."""
        return {"image": image, "hexes": [h.to_json() for h in self.hexes]}


def _hex_mm(deck: DeckProfile | None, config: HexesConfig) -> float | None:
    if config.hex_mm is not None:
        return float(config.hex_mm)
    if deck is not None and getattr(deck, "shape", "card") == "hex" and deck.card_mm:
        return float(deck.card_mm[0])
    return None


def _lattice_scale(previous: Sequence[HexObservation], calibration: TableCalibration | None,
                   hex_mm: float) -> float | None:
    """The hexes' flat width on the table (median of ``previous``'s, mm through ``calibration``) relative to
    ``hex_mm``: the width the last read fitted, which a window read takes as it is. None without a calibration
    or hexes."""
    if calibration is None or not previous:
        return None
    ends = np.concatenate([np.asarray(o.corners, np.float64)[[0, 4]] for o in previous])   # corner 0 -> 4: the flats
    # every hex's two corners through calibration.to_mm at once (each point is mapped alone: the same numbers)
    mm = calibration.to_mm(ends) if calibration.lens is not None else apply_homography(calibration.H_inv, ends)
    flats = [float(np.linalg.norm(np.diff(mm[2 * k:2 * k + 2], axis=0))) for k in range(len(previous))]
    return float(np.median(flats)) / hex_mm


def marker_polygons(calibration: TableCalibration, M: np.ndarray) -> list[np.ndarray]:
    """The calibration markers of ``calibration``'s layout with their white paper (each marker's square grown about
    its centre by ``MARKER_SHEET_MARGIN`` of its side on every side) in the work image of the frame -> work
    homography ``M`` (float[3, 3], :func:`vision.hexes.size.work_image`): float[4, 2] work px each."""
    to_work = M @ calibration.H
    out = []
    for q in calibration.layout.corners_mm.values():
        q = np.asarray(q, np.float64).reshape(-1, 2)
        c = q.mean(axis=0)
        out.append(apply_homography(to_work, c + (q - c) * (1.0 + 2.0 * MARKER_SHEET_MARGIN)))
    return out


def read_hexes(frame: np.ndarray, deck: DeckProfile | None = None, calibration: TableCalibration | None = None,
               zones: Zones | None = None, config: HexesConfig | None = None, table_config: TableConfig | None = None,
               check_moved: bool = True, keep_crops: bool = False,
               select: Callable[[np.ndarray], bool] | None = None,
               lattice_scale: float | None = None, known: Sequence[np.ndarray] = ()) -> HexesRead:
    """Find, identify and place on the axial map every sector hex lying flat in ``frame``.

    Args:
        frame: uint8[H, W, 3] BGR.
        deck: a hex deck from :func:`build_hex_deck` (None: hexes are found and laid out, ids, rotations
            and axial coordinates are null).
        calibration: table calibration (None: positions in pixels, mm estimated from ``hex_mm``; the
            hex size is estimated from the image unless ``config.hex_px`` is given).
        zones: player zones in mm (or px without calibration); None -> every zone is null.
        config: thresholds (:class:`HexesConfig`); ``anchor_id`` names the hex at axial (0, 0).
        check_moved: with a calibration, compare this frame's markers with it (result in ``.markers``).
        keep_crops: keep each hex's rectified crop (printed top up when known) in ``.crop``.
        select: only the hexes whose corners (float[6, 2] frame px, lattice order) it accepts are identified
            and reported (a read of a window keeps the hexes it will use, not its neighbours cut by its edge).
        lattice_scale: with a calibration, the hexes' flat width relative to the calibrated one when already known
            (a window read after a change takes the last read's): used as it is, no width is searched.
        known: outlines (float[6, 2] frame px each) of hexes already read (a window read after a change: the hexes
            kept): painted out of the foreground like the markers, so the lattice is fitted to what is new only and
            a window where nothing hex-sized is left reads no lattice at all.

    Raises:
        BadFrame: the frame is not a non-empty uint8 BGR image.
        NotAHexDeck: ``deck`` was enrolled as cards (use :func:`build_hex_deck`).
    """
    c = config or HexesConfig()
    tc = table_config or TableConfig()
    t: dict[str, float] = {}
    frame = validate_frame(frame, MIN_SIDE_PX)
    if deck is not None and getattr(deck, "shape", "card") != "hex":
        raise NotAHexDeck(f"deck {deck.name!r} holds cards, not sector hexes: "
                          "enroll it with vision.hexes.build_hex_deck")
    hex_mm = _hex_mm(deck, c)
    img, M, flat = timed_stage(t, "work_image", work_image, frame, calibration, hex_mm, c)
    # with a calibration the hex size is a prior (a lens's distortion changes it): the lattice's own width is fitted;
    # without one the size was estimated from this image
    scales = (1.0,)
    if calibration is not None:
        if lattice_scale is not None:
            flat *= float(lattice_scale)
        else:
            scales = c.lattice_scales
    not_hexes = marker_polygons(calibration, M) if calibration is not None else []
    not_hexes += [apply_homography(M, np.asarray(q, np.float64)) for q in known]
    cands = find_hexes(img, flat, c, t, scale_free=calibration is None and c.hex_px is None, scales=scales,
                       not_hexes=not_hexes or None)
    Minv = np.linalg.inv(M)
    corners = [apply_homography(Minv, h.corners) for h in cands]
    centres = calibration.marker_centres_px() if calibration is not None else None  # once per read, not per hex
    keep = [k for k, q in enumerate(corners) if (calibration is None or not calibration.covers_marker(q, centres))
            and (select is None or select(q))]
    cands, corners = [cands[k] for k in keep], [corners[k] for k in keep]
    markers = timed_stage(t, "markers", check_markers, frame, calibration,
                          tc) if (calibration is not None and check_moved) else None
    n = len(cands)
    flats = [float(np.linalg.norm(q[0] - q[4])) for q in corners]   # corner 0 -> 4 spans the flats
    flat_px = float(np.median(flats)) if flats else None
    ids: list[str | None] = [None] * n
    confs = [0.0] * n
    rots: list[int | None] = [None] * n
    guesses: list[str | None] = [None] * n
    crops: list[np.ndarray | None] = [None] * n
    anchor_hint: tuple[int, int] | None = None
    if n and (deck is not None or keep_crops):
        # crops from a copy of the frame reduced so a hex is ~1.5 crop widths across (no aliasing)
        g = min(1.0, 1.5 * c.crop_size / max(flat_px or 1.0, 1.0))
        src = frame if g >= 1.0 else cv2.resize(frame,
                                                (max(1, int(round(frame.shape[1] * g))),
                                                 max(1, int(round(frame.shape[0] * g)))),
                                                interpolation=cv2.INTER_AREA)
        up = timed_stage(t, "rectify", lambda: [hex_crop(src, q * g, c.crop_size) for q in corners])
        if deck is not None:
            sc = timed_stage(t, "identify", score_hexes, deck, up, c.anchor_id, c.shortlist,
                             colour_weight=c.colour_weight, fine_shift=c.fine_shift)
            res = decide_hexes(deck, sc, c.min_confidence)
            for k, (hid, conf, rot, guess) in enumerate(res):
                ids[k], confs[k], rots[k], guesses[k] = hid, conf, rot, guess
            anchor_hint = likely_anchor(sc, ids, deck.config, c)
        crops = [up[k] if not rots[k] else hex_crop(src, np.roll(corners[k], -rots[k], axis=0) * g, c.crop_size)
                 for k in range(n)] if keep_crops else [None] * n
    if deck is not None and select is None and c.drop_unjoined:
        # the map is one piece: what touches no identified hex through other hexes is not a sector
        on = joined_to_read(corners, ids)
        idx = [k for k in range(n) if on[k]]
        corners, ids, confs, rots, crops, guesses = ([v[k] for k in idx] for v in (corners, ids, confs, rots, crops,
                                                                                    guesses))
        if anchor_hint is not None:
            anchor_hint = (idx.index(anchor_hint[0]), anchor_hint[1]) if anchor_hint[0] in idx else None
    obs = timed_stage(t, "layout", place_hexes, corners, ids, confs, rots, crops if keep_crops else None,
                      calibration, zones, hex_mm, flat_px, c, guesses, anchor_hint=anchor_hint)
    return HexesRead(frame.shape[1], frame.shape[0], tuple(obs), flat_px, markers, t)


#: A hex that comes onto the table changes all of itself, so its change box (at least a hex's flat width both ways,
#: :data:`vision.cards.SMALL_CHANGE`, and at most its 1.155 flat widths corner to corner) holds its centre at least
#: this many flat widths in from every side (0.42 for a box no wider than the hex; a little less taken).
HEX_INSET = 0.35
#: Two hexes lying side by side on the map have centres one flat width apart; a hex laid with its centre nearer than
#: this many flat widths to a hex already read would lie over a quarter of it (and change that hex, which is read).
HEX_APART = 0.75
#: The join of a full read (:func:`vision.hexes.layout.joined_to_read`): a hex belongs to the map when its centre is
#: within this many flat widths of a hex of it.
JOIN_REACH = 1.25


def room_for_a_hex(box: tuple[int, int, int, int], previous: Sequence[HexObservation], flat: float,
                   joined: bool = True, step: float = 0.05) -> bool:
    """Whether a hex could have been laid on the table in the changed ``box`` (``(x, y, w, h)`` frame px) beside the
    ``previous`` hexes (``corners`` float[6, 2] frame px each; not empty), hexes ``flat`` px across their flats: a
    centre at least :data:`HEX_INSET` flat widths in from every side of the box, at least :data:`HEX_APART` from every
    previous hex's centre and, with ``joined`` (a deck's read keeps only the hexes joined to the map, :func:`vision.
    hexes.layout.joined_to_read`), within :data:`JOIN_REACH` x the two hexes' mean flat width of one of them. The
    centres tried lie on a grid ``step`` flat widths apart, each bound loosened by that step so no place between grid
    points is missed. False: the change is off the map (a combat die rolled beside it) and the hexes need no read.
    Raises nothing."""
    x, y, bw, bh = (float(v) for v in box)
    inset, d = (HEX_INSET - step) * flat, step * flat
    xs = np.arange(x + inset, x + bw - inset + 0.5 * d, d)
    ys = np.arange(y + inset, y + bh - inset + 0.5 * d, d)
    if not len(xs) or not len(ys):
        return False
    corners = np.stack([np.asarray(o.corners, np.float64).reshape(-1, 2) for o in previous])   # [hexes, 6, 2]
    centres = corners.mean(axis=1)
    flats = np.linalg.norm(corners[:, 0] - corners[:, 4], axis=1)
    pts = np.stack(np.meshgrid(xs, ys), axis=-1).reshape(-1, 1, 2)
    dist = np.linalg.norm(pts - centres[None], axis=2)                        # [points, hexes]
    clear = (dist >= (HEX_APART - step) * flat).all(axis=1)
    if joined:
        clear &= (dist < (JOIN_REACH + step) * 0.5 * (flats[None] + flat)).any(axis=1)
    return bool(clear.any())


def _bounds(hexes: Sequence[HexObservation]) -> list[tuple[float, float, float, float]]:
    """Each hex's bounding box ``(x, y, w, h)`` (float frame px) as :func:`vision.incremental.touches` takes it from
    its ``corners``, all at once."""
    if not hexes:
        return []
    q = np.stack([np.asarray(o.corners, np.float64).reshape(-1, 2) for o in hexes])
    lo, hi = q.min(axis=1), q.max(axis=1)
    return [(float(a[0]), float(a[1]), float(b[0] - a[0]), float(b[1] - a[1])) for a, b in zip(lo, hi, strict=True)]


def _hex_sized_change(frame: np.ndarray, changed: list[tuple[int, int, int, int]], taken: list[np.ndarray],
                      bounds: list[tuple[float, float, float, float]], flat: float, config: HexesConfig,
                      calibration: TableCalibration | None) -> bool:
    """Whether a window the change read would read (each changed box grown by 1.3 flat widths, overlapping ones
    merged: :func:`vision.incremental.windows`) holds a foreground blob meeting a changed box that could be a hex
    (:func:`vision.hexes.newhex.hex_sized_blob`, with the hexes ``taken`` (frame px, bounding boxes ``bounds``) and
    the calibration markers painted out as the window read paints them)."""
    for x, y, ww, hh in windows(changed, 1.3 * flat, frame.shape):
        known = [np.asarray(q, np.float64) - (x, y) for q, b in zip(taken, bounds, strict=True)
                 if touches(b, [(x, y, ww, hh)])]
        inside = [(bx - x, by - y, bw, bh) for bx, by, bw, bh in changed if touches((bx, by, bw, bh), [(x, y, ww, hh)])]
        if inside and hex_sized_blob(frame[y:y + hh, x:x + ww], inside, known, flat, config,
                                     marker_sheets(calibration, (x, y))):
            return True
    return False


def read_hexes_changes(frame: np.ndarray, previous: tuple[HexObservation, ...],
                       changed: list[tuple[int, int, int, int]],
                       deck: DeckProfile | None = None, calibration: TableCalibration | None = None,
                       zones: Zones | None = None, config: HexesConfig | None = None,
                       table_config: TableConfig | None = None, markers: MarkerCheck | None = None,
                       check_moved: bool = True) -> HexesRead:
    """:func:`read_hexes` of ``frame`` after a change, reading only windows around the ``changed`` boxes.

    A change narrower one way than ``SMALL_CHANGE`` x a hex's width (a die rolled, a ship moved) is no hex coming,
    going or moving: the hexes it touches are kept. Every hex of ``previous`` (the last read's observations)
    that the other changed boxes cover at most ``EDGE_COVER`` of (:func:`vision.incremental.covered`: a combat die
    rolled against a hex's rim; a hex taken, moved, turned or swapped changes all of itself) is kept as it was (id,
    rotation, corners, confidence); each window (a changed box grown by a hex's size) is read as its own frame
    (:func:`read_hexes` with the window's calibration and the kept hexes painted out of its foreground, so a window
    where only a die changed fits no lattice), and a hex found there joins when its centre lies in a changed box
    and the window's edge does not cut it; then every hex is placed on the map again (axial coordinates count from
    the anchor). When every hex of ``previous`` is kept and no changed box has room for a hex laid beside them
    (:func:`room_for_a_hex`: a combat die rolled beside the map changes a box wider than a hex both ways, but one
    that holds no hex's centre far enough in from its sides, clear of the map's hexes and joined to them), nothing is
    read (stage ``off_map``); nor when a box has room but no window the change read would read holds a foreground
    blob meeting a changed box that could be a hex (:func:`vision.hexes.newhex.hex_sized_blob` on a coarse copy:
    stage ``hex_blob``, the window read's own test for a lattice with a margin). The markers are checked again only
    when a change touches one.

    Args:
        changed: ``(x, y, w, h)`` frame-px boxes of what changed since ``previous`` was read (not empty).
        markers: the last read's marker check, kept when no change touches a marker.
        Others: as :func:`read_hexes` (with a lens calibration the whole frame is read again).

    Raises:
        BadFrame: the frame is not a non-empty uint8 BGR image.
        NotAHexDeck: ``deck`` was enrolled as cards.
    """
    c = config or HexesConfig()
    tc = table_config or TableConfig()
    frame = validate_frame(frame, MIN_SIDE_PX)
    h, w = frame.shape[:2]
    if calibration is not None and (calibration.lens is not None or tuple(calibration.frame_size) != (w, h)):
        return read_hexes(frame, deck, calibration, zones, c, tc, check_moved)
    flats = [float(np.linalg.norm(o.corners[0] - o.corners[4])) for o in previous]
    flat = float(np.median(flats)) if flats else 0.25 * min(h, w)
    changed = piece_sized(changed, SMALL_CHANGE * flat)
    if not changed:   # a die rolled or a ship moved on a hex: no hex came, went or moved
        return HexesRead(w, h, tuple(previous), float(np.median(flats)) if flats else None, markers, {"unchanged": 0.0})
    # a hex the changes cover at most EDGE_COVER of shows most of itself unchanged: it was not taken, moved, turned or
    # swapped (each changes all of it), so a die rolled against its rim keeps it as it was
    pairs = [(o, b) for o, b in zip(previous, _bounds(previous), strict=True)
             if not touches(b, changed) or covered(o.corners, changed) <= EDGE_COVER]
    kept = [o for o, _ in pairs]
    taken = [o.corners for o in kept]
    bounds = [b for _, b in pairs]   # of taken's first len(kept); a hex a window adds is appended to taken alone
    pre: dict[str, float] = {}
    # only dice or ships changed off the map (no room for a hex), or where a hex could lie but nothing a hex's size is
    # there (the window read would fit no lattice): no hex came, went or moved, and the map is not read
    if len(kept) == len(previous) and previous and (
            not any(room_for_a_hex(b, previous, flat, joined=deck is not None and c.drop_unjoined
                                   and any(o.id is not None for o in previous)) for b in changed)
            or not timed_stage(pre, "hex_blob", _hex_sized_change, frame, changed, taken, bounds, flat, c,
                               calibration)):
        off = pre or {"off_map": 0.0}
        markers = recheck_markers(frame, calibration, changed, markers, tc, check_moved, off)
        return HexesRead(w, h, tuple(previous), float(np.median(flats)), markers, off)

    scale = _lattice_scale(previous, calibration, _hex_mm(deck, c) or c.fallback_hex_mm)

    def read(x: int, y: int, ww: int, hh: int, keep: Callable[[np.ndarray], bool]):
        sub_cal = calibration.window(x, y, ww, hh) if calibration is not None else None
        known = [np.asarray(q, np.float64) - (x, y) for k, q in enumerate(taken)
                 if touches(bounds[k] if k < len(bounds) else q, [(x, y, ww, hh)])]
        r = read_hexes(frame[y:y + hh, x:x + ww], deck, sub_cal, None, c, tc, check_moved=False, select=keep,
                       lattice_scale=scale, known=known)
        return r.hexes, r.timings_ms

    near = [grow(b, 0.5 * flat, frame.shape) for b in changed]
    found, t = window_reads(frame.shape, changed, 1.3 * flat, near, taken, read)
    t = {**pre, **t}
    markers = recheck_markers(frame, calibration, changed, markers, tc, check_moved, t)
    if not found and len(kept) == len(previous):   # only dice or ships changed: the map is as it was
        return HexesRead(w, h, tuple(previous), float(np.median(flats)) if flats else None, markers, t)
    obs_all = [*kept, *(o for o, _ in found)]
    frame_corners = [*(o.corners for o in kept), *(q for _, q in found)]
    # lattice order
    corners = [np.roll(q, o.rotation or 0, axis=0) for o, q in zip(obs_all, frame_corners, strict=True)]
    ids = [o.id for o in obs_all]
    confs = [o.confidence for o in obs_all]
    rots = [o.rotation for o in obs_all]
    flats = [float(np.linalg.norm(q[0] - q[4])) for q in corners]
    flat_px = float(np.median(flats)) if flats else None
    obs = timed_stage(t, "layout", place_hexes, corners, ids, confs, rots, None, calibration, zones, _hex_mm(deck, c),
                      flat_px, c)
    return HexesRead(w, h, tuple(obs), flat_px, markers, t)
