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

__all__ = ["HexObservation", "place_hexes"]


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
            (:func:`vision.hexes.identify.likely_anchor`), the last resort.
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
    anchor = None
    if c.anchor_id is not None:
        cand = [k for k in range(n) if ids[k] == c.anchor_id]
        if cand:
            anchor = max(cand, key=lambda k: confs[k])
        else:   # the anchor seen but not sure enough (glare, a hand): the hex whose best guess it is
            cand = [k for k in range(n) if guesses[k] == c.anchor_id]
            if len(cand) == 1:
                anchor = cand[0]
            elif anchor_hint is not None:   # the hex most like the anchor, clearly
                anchor = anchor_hint[0]
    axial: list[tuple[int, int] | None] = [None] * n
    if anchor is not None:
        up = ups[anchor] / max(np.linalg.norm(ups[anchor]), 1e-9)
        down = -up
        right = np.array([down[1], -down[0]])   # the map's right (y down)
        Fp = float(np.median(pitches))
        for k in range(n):
            d = centres[k] - centres[anchor]
            x, y = float(d @ right), float(d @ down)
            q = x / (1.5 * Fp / SQRT3)
            r = y / Fp - q / 2.0
            qi, ri, err = axial_round(q, r)
            axial[k] = (qi, ri) if err <= c.axial_tolerance else None
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
