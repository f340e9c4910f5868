"""Image files the box decodes: bounds checked from the header first, one-line errors, no native noise.

Every place the box decodes a picture file (a replayed photo, ``companion read``, ``calibrate --lens``,
a guided-enrollment photo) goes through :func:`decode_image`: the file must be a regular file of at
most :data:`~device.opencv_env.MAX_IMAGE_BYTES`, and the picture its header declares (read by the
``imagesize`` library, not decoded) at most :data:`~device.opencv_env.MAX_IMAGE_PIXELS`; a video's
frame size is checked from its container the same way (:func:`check_video_size`).
"""

from __future__ import annotations

import io
import os
import stat
from pathlib import Path

import cv2
import imagesize
import numpy as np

from device.camera import as_bgr
from device.errors import N_, BadImage
from device.opencv_env import MAX_IMAGE_BYTES, MAX_IMAGE_PIXELS, native_noise_dropped, quiet_opencv

__all__ = ["IMAGE_EXTENSIONS", "check_image_size", "check_image_files", "check_video_size", "decode_image"]

quiet_opencv()  # also when cv2 was imported before this room set its environment

IMAGE_EXTENSIONS = (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff")
"""File extensions (lower case) replayed from a folder; matched case-insensitively."""


def _jpeg_is_truncated(data: bytes) -> bool:
    """True when a JPEG has no end-of-image marker after its last scan.

    Older OpenCV (4.x, libjpeg) decodes a truncated JPEG with only a warning, filling the missing
    rows with grey; a half-written photo must not be read as a dice roll. Inside entropy-coded
    data 0xFF is always stuffed (0xFF00), so 0xFFD9 after the last start-of-scan (0xFFDA) is the
    real end-of-image marker.
    """
    last_scan = data.rfind(b"\xff\xda")
    return last_scan < 0 or data.rfind(b"\xff\xd9") < last_scan


def _megapixels(pixels: int) -> str:
    return f"{pixels / 1e6:.0f} MP" if pixels >= 10**6 else f"{pixels / 1e6:.1f} MP"


def check_image_size(data: bytes, name: str | os.PathLike[str]) -> tuple[int, int] | None:
    """The (width, height) in pixels an image's header declares, refused when over the bound.

    Read from the header only, by ``imagesize`` (PNG, JPEG, BMP, WebP, TIFF, ...), before anything
    is decoded. Returns None when the header is not one ``imagesize`` knows (OpenCV then decides,
    within its own ``OPENCV_IO_MAX_IMAGE_PIXELS``, see :mod:`device.opencv_env`).

    Raises:
        BadImage: the header declares more than :data:`~device.opencv_env.MAX_IMAGE_PIXELS`
            (one line naming the file and its size).
    """
    try:
        width, height = imagesize.get(io.BytesIO(data))
    except Exception:  # a header imagesize cannot parse: not ours to judge
        return None
    if width <= 0 or height <= 0:
        return None
    pixels = int(width) * int(height)
    if pixels > MAX_IMAGE_PIXELS:
        raise BadImage.said(N_("image {path} is {width}x{height} px ({size}): the box decodes at most {most}; scale it "
                               "down"), path=str(name), width=width, height=height, size=_megapixels(pixels),
                            most=_megapixels(MAX_IMAGE_PIXELS))
    return int(width), int(height)


def check_image_files(folder: str | os.PathLike[str], depth: int = 2) -> int:
    """Check every image file (:data:`IMAGE_EXTENSIONS`) in ``folder`` and its subfolders down to
    ``depth`` levels against the bounds, from file sizes and headers only, before another part of the
    box decodes them (``companion enroll`` hands whole folders to ``vision``).

    Returns:
        How many image files were checked.

    Raises:
        BadImage: the first file that is empty (0 bytes), over :data:`~device.opencv_env.MAX_IMAGE_BYTES` or
            whose header declares more than :data:`~device.opencv_env.MAX_IMAGE_PIXELS` (one line naming it).
        OSError: ``folder`` cannot be listed.
    """
    checked = 0
    pending = [(Path(folder), 0)]
    while pending:
        current, level = pending.pop()
        for entry in sorted(current.iterdir()):
            if entry.is_dir() and not entry.is_symlink() and level < depth:
                pending.append((entry, level + 1))
            elif entry.suffix.lower() in IMAGE_EXTENSIONS and entry.is_file():
                size = entry.stat().st_size
                if size > MAX_IMAGE_BYTES:
                    raise _too_many_bytes(entry)
                if size == 0:  # said as a replay says it, not as the decoder's "cannot read image"
                    raise _empty_image(entry)
                with entry.open("rb") as file:
                    check_image_size(file.read(_HEADER_BYTES), entry)
                checked += 1
    return checked


def _empty_image(path: Path) -> BadImage:
    """The one line for a 0-byte image file (a copy that failed, a name touched)."""
    return BadImage.said(N_("image {path} is empty (0 bytes): copy it again or delete it"), path=str(path))


def _too_many_bytes(path: Path) -> BadImage:
    """The one line for an image file over :data:`~device.opencv_env.MAX_IMAGE_BYTES`."""
    return BadImage.said(N_("image {path} is larger than {mib} MiB: the box reads no image file that large"),
                         path=str(path), mib=MAX_IMAGE_BYTES // 2**20)


_HEADER_BYTES = 1 << 20
"""How much of a file :func:`check_image_files` gives the header reader (JPEG headers with a large
EXIF block still fit)."""


def _read_image_file(path: Path) -> bytes:
    """The bytes of an image file, at most :data:`~device.opencv_env.MAX_IMAGE_BYTES`."""
    not_a_file = BadImage.said(N_("{path} is not an image file (a folder, a device or a pipe)"), path=str(path))
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))  # a pipe must not block the open
        with os.fdopen(fd, "rb") as file:
            if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):
                raise not_a_file
            data = file.read(MAX_IMAGE_BYTES + 1)
    except IsADirectoryError:
        raise not_a_file from None
    except OSError as exc:
        raise BadImage.said(N_("cannot read image {path}: {problem}"), path=str(path),
                            problem=exc) from exc
    if len(data) > MAX_IMAGE_BYTES:
        raise _too_many_bytes(path)
    return data


def check_video_size(cap: cv2.VideoCapture, path: Path) -> None:
    """Refuse a video whose frames (as its container declares them) are over :data:`MAX_IMAGE_PIXELS`.

    Raises:
        BadImage: naming the file and its frame size.
    """
    width, height = int(cap.get(cv2.CAP_PROP_FRAME_WIDTH)), int(cap.get(cv2.CAP_PROP_FRAME_HEIGHT))
    if width * height > MAX_IMAGE_PIXELS:
        raise BadImage.said(N_("video {path} has {width}x{height} px frames ({size}): the box decodes at most {most} "
                               "per frame; scale it down"), path=str(path), width=width, height=height,
                            size=_megapixels(width * height), most=_megapixels(MAX_IMAGE_PIXELS))


def decode_image(path: Path) -> np.ndarray:
    """Read an image file as ``uint8[H, W, 3]`` BGR (EXIF orientation applied).

    The file's size and the picture's size (from its header, :func:`check_image_size`) are checked
    before anything is decoded; what the native decoders print about a damaged file is dropped
    (:func:`~device.opencv_env.native_noise_dropped`): the error says it in one line instead.

    Raises:
        BadImage: the file cannot be read, is not a regular file, is over the size bounds, is a
            truncated JPEG, or OpenCV cannot decode it; the message (one line) and ``.path`` name the file.
    """
    path = Path(path)
    data = _read_image_file(path)
    if not data:
        raise _empty_image(path)
    check_image_size(data, path)
    if data[:2] == b"\xff\xd8" and _jpeg_is_truncated(data):
        raise BadImage.said(N_("image {path} is a truncated JPEG (no end marker): copy it again or delete it"),
                            path=str(path))
    try:
        with native_noise_dropped():
            image = cv2.imdecode(np.frombuffer(data, dtype=np.uint8), cv2.IMREAD_COLOR)
    except cv2.error as exc:  # e.g. over OPENCV_IO_MAX_IMAGE_PIXELS for a header imagesize does not read
        if "MAX_IMAGE_PIXELS" in str(exc):
            raise BadImage.said(N_("image {path} is larger than {most} by its header: the box decodes no bigger "
                                   "picture; scale it down"), path=str(path),
                                most=_megapixels(MAX_IMAGE_PIXELS)) from None
        image = None  # any other decoder failure: said below, in the same words as a file OpenCV cannot read
    if image is None:
        raise BadImage.said(N_("image {path} cannot be decoded (corrupt, or not a {kinds} file): copy it again or "
                               "delete it"), path=str(path), kinds="/".join(IMAGE_EXTENSIONS))
    return as_bgr(image)
