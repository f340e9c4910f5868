"""The second seeded scene generator, written from another model than :mod:`vision.synth` and
:mod:`vision.synth_table`, so a reader tuned on one is checked on the other.

Its models: a pinhole camera in 3-D over the table with tilt, radial lens distortion, vignetting, motion
blur, shot and read noise, a colour response, sharpening and JPEG (:mod:`.camera`, per camera model); a lamp
of 2700-6500 K by Planck's law, the camera's white balance and its error, exposure, a tone curve, hard or
soft shadows, sheen and glare spots (:mod:`.light`); tables drawn in millimetres: gingham, a printed
playmat, wood planks, felt and printed player boards (:mod:`.tables`); Roll for the Galaxy dice as rounded,
lit cubes printed with its own artwork in two printings (dark ink on light bodies and light ink on
coloured ones, :mod:`.artwork`) in :mod:`.dice`; cards, tiles and Eclipse hexes in its own artwork, with
the calibration markers, and enrollment photos of single cards taken with another camera, in :mod:`.tiles`.

Labels have the first generator's form, so the benches read both alike. Every random choice comes from
the scene's seed.
"""

from .artwork import COLOURS, EDITIONS, FACES, Edition, symbol
from .camera import CAMERA_MODELS, Camera, CameraModel, look_at
from .dice import ENROLL_SCENE, DiceSceneConfig, render_dice_scene, write_dice_enrollment
from .light import Lighting, LightRanges, develop, draw_lighting, illuminant_bgr
from .tables import TABLE_KINDS, table_surface
from .tiles import TileSceneConfig, camera_photos, card_art, card_scene, hex_art, hex_scene

__all__ = [
    "CAMERA_MODELS",
    "COLOURS",
    "Camera",
    "CameraModel",
    "DiceSceneConfig",
    "EDITIONS",
    "ENROLL_SCENE",
    "Edition",
    "FACES",
    "LightRanges",
    "Lighting",
    "TABLE_KINDS",
    "TileSceneConfig",
    "camera_photos",
    "card_art",
    "card_scene",
    "develop",
    "draw_lighting",
    "illuminant_bgr",
    "hex_art",
    "hex_scene",
    "look_at",
    "render_dice_scene",
    "symbol",
    "table_surface",
    "write_dice_enrollment",
]
