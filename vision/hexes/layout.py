"""Stage 7 of the hex reader: each hex placed on the table (mm), on the axial map counted from the anchor, in
a player zone; the observation type it gives."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ..observations import point_json
from ..table import TableCalibration, Zones, zones_of
from .config import HexesConfig
from .geometry import SQRT3, axial_round

__all__ = ["HexObservation", "joined_to_read", "place_hexes", "ring_anchor", "rings_agree", "sector_ring"]


@dataclass(frozen=True)
class HexObservation:
    """One sector hex on the table.

    Attributes:
        id: sector id from the deck, or None ('not in the deck', unreadable, or no deck).
        corners: float[6, 2] pixel corners, clockwise from the top-left corner of the tile's printed top
            edge (lattice order, map top-left first, when the rotation is unknown).
        center_px: pixel centre.
        center_mm: table-mm centre (with calibration), else pixels / (px per mm of ``hex_mm``) with the image
            origin (``mm_estimated`` True).
        rotation: 0-5 (see the module docstring), None when the id is unknown.
        rotation_deg: clockwise angle of the tile's printed up (of the map's up when the rotation is
            unknown) from the table's up, degrees in [0, 360).
        axial: (q, r) from the anchor hex, or None (no anchor seen, or off the lattice).
        zone: player zone name or None.
        confidence: 0..1 that ``id`` is right (for id None: that the hex is not in the deck; 0 without deck).
    """

    id: str | None
    corners: np.ndarray
    center_px: tuple[float, float]
    center_mm: tuple[float, float]
    rotation: int | None
    rotation_deg: float
    axial: tuple[int, int] | None
    zone: str | None
    confidence: float
    mm_estimated: bool = False
    crop: np.ndarray | None = field(default=None, repr=False, compare=False)

    def to_json(self) -> dict:
        return {
            "id": self.id,
            "corners": [point_json(p) for p in self.corners],
            "center_mm": point_json(self.center_mm),
            "rotation": None if self.rotation is None else int(self.rotation),
            "rotation_deg": round(float(self.rotation_deg), 1),
            "axial": None if self.axial is None else [int(self.axial[0]), int(self.axial[1])],
            "zone": self.zone,
            "confidence": round(float(self.confidence), 3),
        }


def place_hexes(corners: list[np.ndarray], ids: list[str | None], confs: list[float], rots: list[int | None],
                crops: list[np.ndarray | None] | None, calibration: TableCalibration | None, zones: Zones | None,
                hex_mm: float | None, flat_px: float | None, c: HexesConfig, guesses: list[str | None] | None = None,
                anchor_hint: tuple[int, int] | None = None) -> list[HexObservation]:
    """One :class:`HexObservation` per hex, sorted by axial (r, q) when known, then by pixel position.

    Args:
        corners: each hex's float[6, 2] frame-px corners in lattice order; ``ids``, ``confs``, ``rots``:
            its identification (:func:`vision.hexes.identify.decide_hexes`); ``crops``: kept crops or None.
        calibration: table mm from it; None: mm estimated from ``hex_mm`` (else ``fallback_hex_mm``) over
            ``flat_px``, the median flat width in px.
        zones: the player zones (:func:`vision.table.zones_of`).
        c: ``anchor_id`` names the hex at axial (0, 0) and ``axial_tolerance`` bounds the rounding.
        guesses: each hex's best guess, when the anchor itself was not identified surely (the one hex whose
            guess it is anchors the map); ``anchor_hint``: (hex index, turn) of the hex most like the anchor
            (:func:`vision.hexes.identify.likely_anchor`), the last resort. A guessed anchor is kept only when
            the identified sectors lie in their rings round it (:func:`rings_agree`, share
            ``c.anchor_ring_agreement``); else every axial is None.
    """
    n = len(corners)
    if n == 0:
        return []
    guesses = guesses or [None] * n
    estimated = calibration is None
    if calibration is not None:
        cf = [calibration.to_mm(q) for q in corners]
    else:
        mm_per_px = (hex_mm or c.fallback_hex_mm) / max(flat_px or 1.0, 1e-6)
        cf = [q * mm_per_px for q in corners]
    centres = np.array([q.mean(axis=0) for q in cf])
    # the map frame: lattice 'up' (upright edge 0 normal) of each hex in the table frame
    ups = np.array([(q[0] + q[1]) / 2 - q.mean(axis=0) for q in cf])
    pitches = np.array([float(np.linalg.norm(q[0] - q[4])) for q in cf])
    axial: list[tuple[int, int] | None] = [None] * n
    if c.anchor_id is not None:
        cand = [k for k in range(n) if ids[k] == c.anchor_id]
        if cand:
            axial = _axial_from(max(cand, key=lambda k: confs[k]), centres, ups, pitches, c)
        else:
            # the anchor seen but not sure enough (glare, a hand): the hex whose best guess it is, else the hex
            # most like the anchor, clearly -- kept only when the identified sectors lie in their rings round it
            cand = [k for k in range(n) if guesses[k] == c.anchor_id]
            guess = cand[0] if len(cand) == 1 else (anchor_hint[0] if anchor_hint is not None else None)
            if guess is not None:
                trial = _axial_from(guess, centres, ups, pitches, c)
                if rings_agree(trial, ids, c.anchor_ring_agreement):
                    axial = trial
            if all(a is None for a in axial):   # the anchor not seen at all: the cell the rings point to
                axial = ring_anchor(centres, ups, pitches, ids, c)
    zone_of = zones_of(zones, centres, corners, estimated)
    obs = []
    for k in range(n):
        rot = rots[k]
        q_px = np.roll(corners[k], -(rot or 0), axis=0)
        q_tf = np.roll(cf[k], -(rot or 0), axis=0)
        u = (q_tf[0] + q_tf[1]) / 2 - q_tf.mean(axis=0)
        deg = math.degrees(math.atan2(u[0], -u[1])) % 360.0
        cpx = corners[k].mean(axis=0)
        obs.append(HexObservation(ids[k], q_px, (float(cpx[0]), float(cpx[1])),
                                  (float(centres[k][0]), float(centres[k][1])),
                                  rot, deg, axial[k], zone_of[k], confs[k], estimated,
                                  crops[k] if crops is not None else None))
    obs.sort(key=lambda o: ((0, o.axial[1], o.axial[0]) if o.axial is not None else (1, 0, 0),
                            o.center_px[1], o.center_px[0]))
    return obs


def _axial_from(anchor: int, centres: np.ndarray, ups: np.ndarray, pitches: np.ndarray,
                c: HexesConfig) -> list[tuple[int, int] | None]:
    """Axial (q, r) of every hex counted from hex ``anchor`` (None off the lattice by more than
    ``axial_tolerance``): ``centres`` float[N, 2] and ``ups`` float[N, 2] (each hex's map-frame up) in table
    mm (or estimated mm), ``pitches`` float[N] flat widths in the same unit (their median is the pitch)."""
    up = ups[anchor] / max(np.linalg.norm(ups[anchor]), 1e-9)
    down = -up
    right = np.array([down[1], -down[0]])   # the map's right (y down)
    Fp = float(np.median(pitches))
    out: list[tuple[int, int] | None] = []
    for k in range(len(centres)):
        d = centres[k] - centres[anchor]
        x, y = float(d @ right), float(d @ down)
        q = x / (1.5 * Fp / SQRT3)
        r = y / Fp - q / 2.0
        qi, ri, err = axial_round(q, r)
        out.append((qi, ri) if err <= c.axial_tolerance else None)
    return out


def sector_ring(hex_id: str | None) -> int | None:
    """The ring whose stack sector ``hex_id`` is drawn from, read from its Eclipse number: three digits, the
    hundreds digit the ring (``"001"`` the Galactic Center, ring 0; 1xx Inner I, 2xx Middle II, 3xx Outer
    III; ``hexes.json`` ``ring``); None for an id not numbered so.

    Eclipse rulebook (1st edition, Lautapelit 2011), Game Setup: the sector hexes are sorted by the ring
    numeral on their backs into the Inner, Middle and Outer stacks; Explore: the explored space takes the top
    hex of its own ring's stack. (Starting sectors, numbered 2xx, lie in ring II, or in ring III with 7-9
    players.)"""
    if hex_id is None or len(hex_id) != 3 or not hex_id.isdigit() or hex_id[0] not in "0123":
        return None
    return int(hex_id[0])


def rings_agree(axial: list[tuple[int, int] | None], ids: list[str | None], share: float, least: int = 3) -> bool:
    """True when, counted from the trial anchor at (0, 0), at least ``least`` identified hexes with a ring
    number (:func:`sector_ring`) lie at axial distance ``(|q| + |r| + |q + r|) / 2`` equal to their ring,
    and they are at least ``share`` (0-1) of those: a map explored by the rules puts each sector in its ring,
    so a wrong anchor puts most of them elsewhere. A few misplaced sectors (a misplay, starting sectors in
    ring III) do not refuse a right anchor; a map with too few identified hexes refuses any guessed one."""
    known = agree = 0
    for a, hid in zip(axial, ids, strict=True):
        ring = sector_ring(hid)
        if a is None or ring is None:
            continue
        known += 1
        agree += int((abs(a[0]) + abs(a[1]) + abs(a[0] + a[1])) // 2 == ring)
    return agree >= least and agree >= share * known


def ring_anchor(centres: np.ndarray, ups: np.ndarray, pitches: np.ndarray, ids: list[str | None],
                c: HexesConfig) -> list[tuple[int, int] | None]:
    """Axial coordinates (as :func:`_axial_from`) counted from the lattice cell the identified sectors' rings
    point to, when the anchor was not found (covered, or missed): the free cell (no identified hex on it) within
    ring III of the map at whose distance the most identified sectors lie in their own ring
    (:func:`sector_ring`). Kept only when that cell is the only one so explained and at least
    ``c.ring_anchor_least`` sectors and ``c.anchor_ring_agreement`` of them agree; else every axial is None."""
    n = len(centres)
    ref = next((k for k in range(n) if sector_ring(ids[k]) is not None), None)
    if ref is None:
        return [None] * n
    rel = _axial_from(ref, centres, ups, pitches, c)
    known = [(a, sector_ring(hid)) for a, hid in zip(rel, ids, strict=True) if a is not None
             and sector_ring(hid) is not None]
    taken = {a for a, hid in zip(rel, ids, strict=True) if a is not None and hid is not None}
    cells = {(a[0] + dq, a[1] + dr) for a, _ in known for dq in range(-3, 4) for dr in range(-3, 4)
             if abs(dq) + abs(dr) + abs(dq + dr) <= 6} - taken
    if not cells:
        return [None] * n

    def agree(cell: tuple[int, int]) -> int:
        return sum(int((abs(a[0] - cell[0]) + abs(a[1] - cell[1]) + abs(a[0] - cell[0] + a[1] - cell[1])) // 2
                       == ring) for a, ring in known)

    ranked = sorted(((agree(cell), cell) for cell in cells), reverse=True)
    best, cell = ranked[0]
    if (best < c.ring_anchor_least or best < c.anchor_ring_agreement * len(known)
            or (len(ranked) > 1 and ranked[1][0] == best)):
        return [None] * n
    return [None if a is None else (a[0] - cell[0], a[1] - cell[1]) for a in rel]


def joined_to_read(corners: list[np.ndarray], ids: list[str | None], reach: float = 1.25) -> list[bool]:
    """Per hex (``corners`` float[6, 2] frame px each; ``ids`` its id or None): True when it is joined to an
    identified hex through touching hexes (centres closer than ``reach`` times their mean flat width), or when
    no hex is identified (nothing to judge by). An Eclipse map is one piece -- Eclipse rulebook (1st edition),
    Explore: the explored space is next to a hex where the player has a ship or an influence disc, so every
    hex touches the map -- and a piece of it with no sector read (a square of a patterned cloth, a planet on a
    playmat) is not part of it; an unreadable hex inside the map is kept."""
    n = len(corners)
    if not any(h is not None for h in ids):
        return [True] * n
    cen = np.array([q.mean(axis=0) for q in corners])
    fl = np.array([float(np.linalg.norm(q[0] - q[4])) for q in corners])
    near = np.linalg.norm(cen[:, None] - cen[None], axis=2) < reach * 0.5 * (fl[:, None] + fl[None])
    on = [h is not None for h in ids]
    stack = [k for k in range(n) if on[k]]
    while stack:
        k = stack.pop()
        for j in np.nonzero(near[k])[0]:
            if not on[j]:
                on[j] = True
                stack.append(int(j))
    return on
