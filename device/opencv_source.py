"""A USB webcam (V4L2 device index) or a video file through ``cv2.VideoCapture``."""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2

from device.camera import CameraSource, Frame, _now, as_bgr
from device.errors import N_, BadImage, CameraBusy, CameraDisconnected, CameraNotFound, EndOfStream, Words
from device.images import check_video_size
from device.opencv_env import quiet_opencv

__all__ = ["OpenCVSource"]

log = logging.getLogger(__name__)

quiet_opencv()  # also when cv2 was imported before this room set its environment


class OpenCVSource(CameraSource):
    """Frames from ``cv2.VideoCapture``: a webcam by index (``0`` is ``/dev/video0``) or a video file.

    Args:
        index_or_path: an ``int`` (or a string of digits) for a webcam, else a video file path.
        size: optional (width, height) in pixels to ask a webcam for; the driver may pick another.
        capture_factory: builds the capture from an index or path string; ``cv2.VideoCapture`` by
            default (tests pass a fake with ``isOpened()``, ``read()``, ``get()``, ``set()``, ``release()``).
        clock: seconds for webcam timestamps; defaults to ``time.monotonic``. Video files use
            the frame's time within the file (``CAP_PROP_POS_MSEC / 1000``).

    Frames are ``uint8[H, W, 3]`` BGR. :attr:`name` is ``"opencv:0"`` or ``"opencv:/path/video.mp4"``.
    """

    def __init__(
        self,
        index_or_path: int | str | os.PathLike[str] = 0,
        *,
        size: tuple[int, int] | None = None,
        clock: Callable[[], float] = _now,
        capture_factory: Callable[..., Any] = cv2.VideoCapture,
    ) -> None:
        if isinstance(index_or_path, int) or (isinstance(index_or_path, str) and index_or_path.isdigit()):
            self.index: int | None = int(index_or_path)
            self.path: Path | None = None
            self.name = f"opencv:{self.index}"
            self.label = Words(N_("USB camera"))
        else:
            self.index = None
            self.path = Path(index_or_path)
            self.name = f"opencv:{self.path}"
            self.label = Words(N_("video replay"))
        self.size = size
        self._clock = clock
        self._capture_factory = capture_factory
        self._cap: Any = None
        self._delivered = 0

    @property
    def is_webcam(self) -> bool:
        """True for a device index, False for a video file."""
        return self.index is not None

    @property
    def live(self) -> bool:  # type: ignore[override]
        """A webcam is live; a video file repeats frames on purpose (see :attr:`CameraSource.live`)."""
        return self.is_webcam

    @property
    def is_open(self) -> bool:
        """True between a successful :meth:`open` and :meth:`close`."""
        return self._cap is not None

    def open(self) -> None:
        """Open the webcam or video file.

        Raises:
            CameraNotFound: no such device / file, no permission, or OpenCV cannot read the file.
            CameraBusy: the webcam device exists and is accessible but will not open (another
                program is streaming from it, or it is not a capture node).
        """
        if self._cap is not None:
            return
        if self.index is not None:
            cap = self._capture_factory(self.index)
        else:
            assert self.path is not None
            if not self.path.is_file():
                raise CameraNotFound.said(N_("no video file at {path} ({name}): check the path"), path=str(self.path),
                                          name=self.name, demo_hint=True)
            cap = self._capture_factory(str(self.path))
        if not cap.isOpened():
            cap.release()
            raise self._open_error()
        if self.path is not None:  # a file's frame size, as its container declares it, before any is decoded
            try:
                check_video_size(cap, self.path)
            except BadImage as exc:
                cap.release()
                raise CameraNotFound.said(N_("{problem} ({name})"), problem=exc, name=self.name) from None
        if self.index is not None and self.size is not None:
            cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
            cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        self._cap = cap
        self._delivered = 0
        log.info("opened %s", self.name)

    def _open_error(self) -> Exception:
        if self.index is None:
            return CameraNotFound.said(
                N_("OpenCV cannot read the video file {path} ({name}): convert it to .mp4 (H.264) "
                   "or .avi (MJPG), or replay a folder of photos instead"), path=str(self.path), name=self.name
            )
        device = f"/dev/video{self.index}"
        if not os.path.exists(device):
            return CameraNotFound.said(
                N_("no camera at {device} ({name}): check the USB cable (`ls /dev/video*`), try another "
                   "index such as opencv:1"), device=device, name=self.name, demo_hint=True
            )
        if not os.access(device, os.R_OK | os.W_OK):
            return CameraNotFound.said(
                N_("no permission to open {device} ({name}): add the user to the video group "
                   "(`sudo usermod -aG video $USER`, then log in again)"), device=device, name=self.name,
                demo_hint=True,
            )
        return CameraBusy.said(
            N_("{device} ({name}) exists but will not open: another program may be using it (close it), "
               "or it is not a capture node (try {other})"), device=device, name=self.name,
            other=f"opencv:{self.index + 1}", demo_hint=True,
        )

    def read(self) -> Frame:
        """Return the next frame, ``uint8[H, W, 3]`` BGR.

        Raises:
            CameraDisconnected: the webcam stopped delivering frames (unplugged, power dip).
            EndOfStream: the video file has no more frames.
            BadImage: the video file delivered no frame at all (undecodable).
            RuntimeError: the source is not open.
        """
        if self._cap is None:
            raise RuntimeError(f"{self.name} is not open: call open() or use it in a with-block")
        ok, image = self._cap.read()
        if not ok or image is None:
            raise self._read_error()
        if self.index is not None:
            timestamp = self._clock()
        else:
            timestamp = self._cap.get(cv2.CAP_PROP_POS_MSEC) / 1000.0
        frame = Frame(image=as_bgr(image), timestamp=timestamp, index=self._delivered, source=self.name)
        self._delivered += 1
        return frame

    def _read_error(self) -> Exception:
        if self.index is not None:
            return CameraDisconnected.said(
                N_("{name} stopped delivering frames after {count}: check the USB cable and "
                   "power, then restart `companion run`"), name=self.name, count=self._delivered, demo_hint=True
            )
        if self._delivered == 0:
            return BadImage.said(N_("{name}: no frame could be decoded: the file is empty or corrupt"), name=self.name)
        return EndOfStream.said(N_("{name} ended after {count} frames"), name=self.name, count=self._delivered)

    def close(self) -> None:
        """Release the device or file. Safe to call twice."""
        cap, self._cap = self._cap, None
        if cap is not None:
            cap.release()
