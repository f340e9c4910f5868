"""Eclipse sector hexes lying flat on the table: detection (touching ones included), axial map coordinates,
rotation and identity by enrolled references.

Conventions (see also docs/glossary.md, "hex"):

* Sector hexes are **flat-topped** (the Eclipse data's printed orientation: a flat top edge = 12 o'clock).
* *map frame*: the hex lattice's own axes. Its "up" is the lattice direction (one of six, 60 degrees apart)
  closest to the table's up (the image's up without a calibration); a map turned exactly 30 degrees on
  the table is ambiguous.
* *corners*: float[6, 2] pixel corners of a hex, clockwise on screen, starting at the top-left corner of
  the tile's **printed** top edge (lattice order when the rotation is unknown).
* *edge j* of the map frame: the edge at clock ``2j`` (j = 0: 12 o'clock, 1: 2 o'clock, ... 5: 10 o'clock).
* *rotation* (0-5): the tile's printed top edge lies at map edge ``rotation`` (turned ``60 * rotation``
  degrees clockwise); a wormhole printed at clock ``h`` is at clock ``(h + 2 * rotation) mod 12`` on the
  map. *rotation_deg*: clockwise angle of the tile's printed up direction from the table's up, [0, 360).
* *axial* ``[q, r]`` (Red Blob Games' flat-top axial coordinates in the map frame, y down), counted from
  the Galactic Center (the anchor, id ``"001"`` by default): the neighbour across edge j is
  ``(q, r) + [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)][j]``; the ring is
  ``(|q| + |r| + |q + r|) / 2``.

Stages of :func:`read_hexes` (pure functions of ``(config, data)``, timed by
:func:`vision.timing.timed_stage`), in order, with the module each lives in:

1. ``work_image`` (:mod:`.size`): the table seen top-down (with a calibration) or the frame, resized so a
   hex is ``work_flat_px`` across its flats (the hex size comes from the calibration and ``hex_mm``, or is
   estimated from the image without one: ``estimate_flat_px``, the foreground outline's side length, then
   the hex lattice that explains the image best, then its cells' fitted outlines);
2. ``foreground`` (:mod:`.lattice`): the cards' table-colour model
   (:func:`vision.card_detect.foreground_mask`), small holes filled; with a calibration its markers and their paper
   are painted out (``marker_polygons``: a square's edges would turn a blob's lattice 30 degrees);
3. ``lattice`` (:mod:`.lattice`): per connected blob, the lattice angle (structure-tensor orientations mod 60
   degrees; the next likeliest angle too when it is close, wood grain joined to the map: the one whose cells show
   more outline, ``lattice_angles``); with a calibration the lattice's width (the calibrated size is a prior: a
   lens's distortion changes it, ``lattice_scales``; other widths are searched only when the lattice fitted at the
   calibrated width leaves it in doubt, ``width_is_off``); then the lattice offset (a hex-outline response folded
   modulo the lattice); every lattice cell whose hexagon is foreground with enough crisp sides is a hex, nudged to
   the strongest outline nearby;
4. ``refine`` (:mod:`.outline`): each hex's outline fitted to the image at sub-pixel steps
   (``refine_hexes``: how much of the structure under its six edges runs along them, away from the edges'
   middles where wormholes are; colour edges count as much as grey ones, ``outline_maps``);
5. ``grow`` (:mod:`.outline`): lattice neighbours of found hexes that are only partly foreground (dark
   sectors on a dark cloth) are hexes when their fitted outline is strong on all six sides and each side's
   profile is alike all along it (``edge_coherence``: a checked cloth's squares, wood grain and noise are not); a
   tile on the map's edge the table-colour model takes for table needs no foreground when its free sides are
   coherent, a gap enclosed by hexes does (``grow_hexes``);
6. ``identify`` (:mod:`.identify`): each hex rectified once into a hexagon-masked square crop; its
   structure maps turned by the six 60-degree steps (``turned_maps``) are compared coarsely with every
   reference of the hex deck (:func:`build_hex_deck`), then at small shifts for a shortlist
   (``score_hexes``: a frame's hexes together, each read as alone); the best (sector, turn) gives id and
   rotation; an id below ``min_confidence`` is unreadable, not a guess. With a deck, hexes joined to no
   identified hex are dropped (an Eclipse map is one piece, ``joined_to_read``);
7. ``layout`` (:mod:`.layout`): centres in table mm, axial coordinates from the anchor, zones. With no hex
   identified as the anchor, the hex whose guess it is or the hex clearly most like it anchors the map when
   the identified sectors lie in their own rings round it (``rings_agree``: 1xx ring I, 2xx ring II, 3xx
   ring III); with the anchor not found at all, the free cell the rings point to (``ring_anchor``); else
   axial coordinates are null.

Dice rolled beside the map (Eclipse's combat dice) are read with the map painted out, in the window of the table that
holds them (:mod:`.offmap`).

Geometry (hexagons, axial rounding, the hexagon crop) is in :mod:`.geometry`, thresholds in
:mod:`.config`, the read itself in :mod:`.reader`, enrolling a hex deck in :mod:`.enroll`.
"""

from .config import HexesConfig, NotAHexDeck, default_id_config
from .enroll import build_hex_deck, build_hex_deck_from_images, hex_enrollment_crop, lone_hex
from .geometry import axial_round, hex_crop, hexagon
from .lattice import find_hexes
from .layout import HexObservation
from .offmap import OffMapDice, map_mask, paint_out_map
from .reader import HexesRead, read_hexes

__all__ = [
    "HexObservation",
    "HexesConfig",
    "HexesRead",
    "NotAHexDeck",
    "OffMapDice",
    "axial_round",
    "build_hex_deck",
    "build_hex_deck_from_images",
    "default_id_config",
    "find_hexes",
    "hex_crop",
    "hex_enrollment_crop",
    "hexagon",
    "lone_hex",
    "map_mask",
    "paint_out_map",
    "read_hexes",
]
