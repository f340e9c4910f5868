"""What OpenCV and the native decoders under it may do in the box's process: image bounds and quiet logs.

OpenCV reads some settings from the environment only once, when ``cv2`` is first imported
(checked with OpenCV 4.8-5.0: setting ``OPENCV_IO_MAX_IMAGE_PIXELS`` after ``import cv2`` has no
effect). :func:`configure_opencv` therefore runs before any module of this project imports
``cv2``: first thing in ``device/__init__.py`` and in ``companion/__init__.py`` (this module never
imports ``cv2`` at module level, so importing it is cheap). A value the owner set in the
environment is kept.

- ``OPENCV_IO_MAX_IMAGE_PIXELS`` = :data:`MAX_IMAGE_PIXELS`: ``cv2.imread``/``imdecode`` raise
  ``cv2.error`` at once for a picture whose header declares more pixels (a decompression bomb:
  a 389 KB PNG of 20000x20000 px took 2.4 GB and 8.7 s to decode);
- ``OPENCV_LOG_LEVEL=SILENT`` and ``OPENCV_FFMPEG_LOGLEVEL=-8`` (FFmpeg's ``AV_LOG_QUIET``):
  OpenCV's own warnings and FFmpeg's complaints about a damaged video are not shown; our own
  messages (exceptions turned into one line each) say what is wrong instead.

libpng and libjpeg print their warnings straight to the process's standard error (file descriptor
2), below Python; :func:`native_noise_dropped` catches what a decode writes there and drops those
lines, passing anything else on, so our own logging is unchanged.
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
import tempfile
import threading
from collections.abc import Iterator, MutableMapping

__all__ = [
    "MAX_IMAGE_PIXELS",
    "MAX_IMAGE_BYTES",
    "OPENCV_ENVIRONMENT",
    "configure_opencv",
    "quiet_opencv",
    "native_noise_dropped",
]

MAX_IMAGE_PIXELS = 50_000_000
"""Largest picture the box decodes, in pixels (width x height): 50 MP, 150 MB as BGR, leaves room on
a 1 GB Pi. The HQ camera's full frame is 12.3 MP; a 48 MP phone photo (8000 x 6000) still fits."""

MAX_IMAGE_BYTES = 256 * 1024 * 1024
"""Largest image file the box reads, in bytes (256 MiB): a 50 MP PNG is well below it."""

OPENCV_ENVIRONMENT = {
    "OPENCV_IO_MAX_IMAGE_PIXELS": str(MAX_IMAGE_PIXELS),
    "OPENCV_LOG_LEVEL": "SILENT",
    "OPENCV_FFMPEG_LOGLEVEL": "-8",
}
"""The settings :func:`configure_opencv` puts in the environment (unless already there)."""

_NATIVE_NOISE = re.compile(
    rb"^(libpng (warning|error): "  # libpng's default handlers
    rb"|Corrupt JPEG data|Premature end of JPEG file|Invalid SOS parameters|Inconsistent progression"
    rb"|Not a JPEG file|Unsupported marker|Bogus |Warning: |Application transferred"  # libjpeg's
    rb"|\[ ?(WARN|ERROR|INFO|DEBUG|FATAL|VERB)[:\]]"  # OpenCV's log line prefix
    rb"|\[[\w,]+ @ 0x[0-9a-f]+\] )"  # FFmpeg's "[mjpeg @ 0x...]"
)
"""Lines the native decoders write to standard error by themselves; other lines are passed on."""

_owner_log_level = os.environ.get("OPENCV_LOG_LEVEL")
_native_lock = threading.Lock()


def configure_opencv(environ: MutableMapping[str, str] | None = None) -> None:
    """Put :data:`OPENCV_ENVIRONMENT` into ``environ`` (default ``os.environ``), keeping values already set.

    Effective only before ``cv2`` is first imported in the process; :func:`quiet_opencv` sets the
    log level (the one setting that also works later).
    """
    target = os.environ if environ is None else environ
    for key, value in OPENCV_ENVIRONMENT.items():
        target.setdefault(key, value)


def quiet_opencv() -> None:
    """Silence OpenCV's own log (``cv2.utils.logging``) unless the owner set ``OPENCV_LOG_LEVEL``.

    Works after ``import cv2`` too (for a process that imported it before this package).
    """
    if _owner_log_level is not None:
        return
    import cv2

    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)


def _capture_file() -> int:
    """A file descriptor to catch native output in: an anonymous memory file, else a temporary file."""
    if hasattr(os, "memfd_create"):
        return os.memfd_create("native-stderr", os.MFD_CLOEXEC)
    return os.dup(tempfile.TemporaryFile().fileno())


@contextlib.contextmanager
def native_noise_dropped() -> Iterator[None]:
    """Around a native decode: what it writes to file descriptor 2 is caught, the decoders' own
    warnings (:data:`_NATIVE_NOISE`) are dropped, and any other line is written on afterwards.

    Calls are serialised (one redirect at a time). Without a usable descriptor 2 (closed, or the
    capture file cannot be made) the body runs unchanged.
    """
    with _native_lock:
        try:
            saved = os.dup(2)
        except OSError:
            yield
            return
        try:
            capture = _capture_file()
        except OSError:
            os.close(saved)
            yield
            return
        with contextlib.suppress(Exception):
            sys.stderr.flush()
        os.dup2(capture, 2)
        try:
            yield
        finally:
            with contextlib.suppress(Exception):
                sys.stderr.flush()  # a Python line written meanwhile is in the capture too: passed on below
            os.dup2(saved, 2)
            os.close(saved)
            os.lseek(capture, 0, os.SEEK_SET)
            chunks = []
            while chunk := os.read(capture, 65536):
                chunks.append(chunk)
            os.close(capture)
            kept = b"".join(line for line in b"".join(chunks).splitlines(keepends=True)
                            if not _NATIVE_NOISE.match(line))
            if kept:
                with contextlib.suppress(OSError):
                    os.write(2, kept)
