"""Light of the second scene generator: a lamp of a colour temperature (Planck's law seen through three
channel sensitivities), the camera's white balance that gets it a little wrong, exposure and a tone curve
(gamma), and what the lamp does on the table: hard or soft shadows, a sheen and glare spots.

The scene is built in linear light (``float32`` BGR, 1.0 = a white sheet lit by the lamp at full strength);
:func:`develop` turns it into what the camera writes (white balance, exposure, clipping, tone curve).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

__all__ = ["Lighting", "LightRanges", "develop", "draw_lighting", "illuminant_bgr", "shadow_mask", "soft_spot"]

# channel sensitivities of a colour sensor: (centre nm, width nm), in B, G, R order
_SENSITIVITY = ((455.0, 28.0), (535.0, 38.0), (605.0, 32.0))
_WAVELENGTHS = np.linspace(380.0, 720.0, 69)


def _planck(nm: np.ndarray, kelvin: float) -> np.ndarray:
    lam = nm * 1e-9
    c2 = 1.4387769e-2  # h c / k, m K
    return 1.0 / (lam ** 5 * (np.exp(c2 / (lam * kelvin)) - 1.0))


def illuminant_bgr(kelvin: float) -> np.ndarray:
    """Relative B, G, R response ``float[3]`` (max 1) of the sensor to a black body at ``kelvin`` K,
    normalised so 6500 K gives equal channels (a daylight-balanced sensor)."""
    def response(k: float) -> np.ndarray:
        spd = _planck(_WAVELENGTHS, k)
        return np.array([(spd * np.exp(-0.5 * ((_WAVELENGTHS - c) / w) ** 2)).sum() for c, w in _SENSITIVITY])
    rgb = response(float(kelvin)) / response(6500.0)
    return (rgb / rgb.max()).astype(np.float32)


@dataclass(frozen=True)
class LightRanges:
    """Ranges each scene's light is drawn from.

    Attributes:
        kelvin: (min, max) colour temperature of the lamp, K.
        wb_correction: (min, max) share of the lamp's colour the camera's white balance takes out (1 = all).
        wb_error: sigma of the white balance's own error per channel (log units).
        exposure: (min, max) exposure: linear gain on a white sheet (above 1 clips).
        gamma: (min, max) gamma of the tone curve.
        contrast: (min, max) strength of the S-curve after the gamma.
        elevation: (min, max) lamp elevation above the table, degrees (low = long shadows).
        hard_shadows: probability that the lamp is a point (hard-edged shadows) rather than a broad one.
        ambient: (min, max) share of the light that does not come from the lamp (fills the shadows).
        falloff: (min, max) darkening across the table from the lamp's bright spot.
        sheen: (min, max) peak of a broad glare on the table (linear units).
        glare_spots: probability that a die gets a glare spot (a glossy die reflecting the lamp).
        head_shadow: probability of a broad soft shadow (a head or an arm between the lamp and the table).
    """

    kelvin: tuple[float, float] = (2700.0, 6500.0)
    wb_correction: tuple[float, float] = (0.55, 1.0)
    wb_error: float = 0.06
    exposure: tuple[float, float] = (0.75, 1.25)
    gamma: tuple[float, float] = (1.9, 2.5)
    contrast: tuple[float, float] = (0.0, 0.35)
    elevation: tuple[float, float] = (35.0, 85.0)
    hard_shadows: float = 0.5
    ambient: tuple[float, float] = (0.25, 0.55)
    falloff: tuple[float, float] = (0.0, 0.35)
    sheen: tuple[float, float] = (0.0, 0.25)
    glare_spots: float = 0.35
    head_shadow: float = 0.3


@dataclass(frozen=True)
class Lighting:
    """One scene's light and the camera's handling of it.

    Attributes:
        kelvin: colour temperature, K.
        lamp: ``float[3]`` B, G, R colour of the lamp (max 1).
        wb_gains: ``float[3]`` the camera's white-balance gains (B, G, R).
        exposure: linear gain.
        gamma, contrast: the tone curve.
        azimuth, elevation: direction towards the lamp, degrees (azimuth on the table from +x).
        hard: hard-edged shadows.
        softness: shadow edge blur, mm on the table.
        ambient: share of light without a direction.
    """

    kelvin: float
    lamp: np.ndarray
    wb_gains: np.ndarray
    exposure: float
    gamma: float
    contrast: float
    azimuth: float
    elevation: float
    hard: bool
    softness: float
    ambient: float

    @property
    def direction(self) -> np.ndarray:
        """Unit vector ``float[3]`` from the table towards the lamp (table frame: z into the table)."""
        a, e = math.radians(self.azimuth), math.radians(self.elevation)
        return np.array([math.cos(e) * math.cos(a), math.cos(e) * math.sin(a), -math.sin(e)])

    def shade(self, normal: np.ndarray) -> float:
        """Light falling on a surface of unit ``normal`` (table frame), ambient included (0..1)."""
        return float(self.ambient + (1.0 - self.ambient) * max(0.0, float(np.dot(normal, self.direction))))


def draw_lighting(rng: np.random.Generator, ranges: LightRanges = LightRanges()) -> Lighting:
    """One scene's :class:`Lighting` drawn from ``ranges``."""
    kelvin = float(rng.uniform(*ranges.kelvin))
    lamp = illuminant_bgr(kelvin)
    corr = float(rng.uniform(*ranges.wb_correction))
    # the camera's estimate of the lamp: part of its colour, and an error of its own
    estimate = lamp ** corr * np.exp(rng.normal(0.0, ranges.wb_error, 3))
    gains = 1.0 / estimate
    gains /= (lamp * gains)[1]  # auto exposure: a white sheet's green channel at 1 before the exposure error
    hard = bool(rng.random() < ranges.hard_shadows)
    return Lighting(kelvin, lamp, gains.astype(np.float32), float(rng.uniform(*ranges.exposure)),
                    float(rng.uniform(*ranges.gamma)), float(rng.uniform(*ranges.contrast)),
                    float(rng.uniform(0.0, 360.0)), float(rng.uniform(*ranges.elevation)), hard,
                    float(rng.uniform(0.2, 0.8) if hard else rng.uniform(2.0, 6.0)),
                    float(rng.uniform(*ranges.ambient)))


def develop(linear: np.ndarray, light: Lighting) -> np.ndarray:
    """Linear ``float32[H, W, 3]`` BGR (lamp colour already in it) -> ``uint8`` BGR as the camera writes
    it: white-balance gains, exposure, clipping, the gamma and an S-curve."""
    v = linear * (light.wb_gains * light.exposure)[None, None, :]
    v = np.clip(v, 0.0, 1.0)
    v = v ** (1.0 / light.gamma)
    if light.contrast > 0:
        s = v * v * (3.0 - 2.0 * v)  # smoothstep: an S-curve
        v = (1.0 - light.contrast) * v + light.contrast * s
    return np.clip(v * 255.0 + 0.5, 0, 255).astype(np.uint8)


def shadow_mask(shape: tuple[int, int], polygons: list[np.ndarray], blur_px: float) -> np.ndarray:
    """``float32[h, w]`` 0..1 coverage of the ``polygons`` (``float[N, 2]`` pixels), edges blurred by
    ``blur_px`` (a broad lamp) or kept sharp (a point lamp)."""
    m = np.zeros(shape, np.float32)
    for p in polygons:
        cv2.fillPoly(m, [np.round(np.asarray(p) * 8).astype(np.int32)], 1.0, cv2.LINE_AA, shift=3)
    if blur_px > 0.3:
        m = cv2.GaussianBlur(m, (0, 0), blur_px)
    return m


def soft_spot(shape: tuple[int, int], centre: tuple[float, float], axes: tuple[float, float],
              angle_deg: float) -> np.ndarray:
    """``float32[h, w]`` elliptical Gaussian spot (peak 1) with semi-axes ``axes`` (sigma, pixels)."""
    h, w = shape
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    a = math.radians(angle_deg)
    dx, dy = xx - centre[0], yy - centre[1]
    u = (dx * math.cos(a) + dy * math.sin(a)) / max(axes[0], 1e-3)
    v = (-dx * math.sin(a) + dy * math.cos(a)) / max(axes[1], 1e-3)
    return np.exp(-0.5 * (u * u + v * v)).astype(np.float32)
