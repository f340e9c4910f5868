"""QR code of the phone-view address, drawn for the touchscreen (encoding by :mod:`segno`)."""

from __future__ import annotations

import pygame
import segno

__all__ = ["qr_matrix", "qr_surface", "QUIET_ZONE"]

QUIET_ZONE = 4
"""Light modules around the code that scanners need (QR standard: 4)."""


def qr_matrix(text: str) -> list[list[bool]]:
    """The modules of a QR code for ``text``, without the quiet zone.

    Uses the smallest regular (non-micro) version that holds ``text`` at error correction
    level L, with the level raised as far as that version allows (segno's ``boost_error``):
    on a clean screen a smaller code with bigger modules scans better than more correction.

    Returns:
        ``rows[y][x]``, square (N x N, N = 21 + 4 * (version - 1)); True is a dark module.

    Raises:
        ValueError: ``text`` is empty or too long for a QR code.
    """
    if not text:
        raise ValueError("cannot make a QR code of empty text")
    try:
        code = segno.make(text, error="l", micro=False, boost_error=True)
    except segno.DataOverflowError as exc:
        raise ValueError(f"text too long for a QR code ({len(text)} characters): {exc}") from exc
    return [[bool(module) for module in row] for row in code.matrix_iter(border=0)]


def qr_surface(
    text: str,
    size_px: int,
    dark: tuple[int, int, int] = (0, 0, 0),
    light: tuple[int, int, int] = (255, 255, 255),
) -> pygame.Surface:
    """A ``size_px`` x ``size_px`` surface with the QR code of ``text``, centred, quiet zone included.

    Each module is a whole number of pixels (no blurry scaling), so the code may be a few
    pixels smaller than ``size_px``; the rest is ``light``.

    Args:
        text: what the code encodes (the phone URL).
        size_px: side of the returned square surface in pixels.
        dark, light: RGB colours of dark and light modules.

    Raises:
        ValueError: empty or too long ``text``, or ``size_px`` below one pixel per module
            (including the quiet zone).
    """
    matrix = qr_matrix(text)
    modules = len(matrix) + 2 * QUIET_ZONE
    scale = size_px // modules
    if scale < 1:
        raise ValueError(f"size_px={size_px} is too small for a {modules}x{modules}-module QR code")
    surface = pygame.Surface((size_px, size_px))
    surface.fill(light)
    offset = (size_px - modules * scale) // 2 + QUIET_ZONE * scale
    for y, row in enumerate(matrix):
        for x, is_dark in enumerate(row):
            if is_dark:
                surface.fill(dark, (offset + x * scale, offset + y * scale, scale, scale))
    return surface
