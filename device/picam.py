"""The Raspberry Pi camera through ``picamera2``.

``picamera2`` is not a pip dependency: it comes from Raspberry Pi OS's apt package
``python3-picamera2`` (visible in a venv created with ``--system-site-packages``). It is
therefore imported inside :meth:`Picamera2Source.open` only; importing this module never
imports ``picamera2`` or ``libcamera``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from device.camera import CameraSource, Frame, _now, as_bgr
from device.errors import N_, CameraBusy, CameraDisconnected, CameraNotFound, Words, reason_of

__all__ = ["Picamera2Source", "DEFAULT_SIZE", "PIXEL_FORMAT", "picamera2_status"]

log = logging.getLogger(__name__)

DEFAULT_SIZE = (2304, 1296)
"""(width, height) in pixels: Camera Module 3's full-field 2x2-binned mode; other sensors get
the nearest mode, scaled by the ISP."""

NUMPY_HINT = N_(
    "{name}: picamera2 is installed but failed to import ({exc}); usually numpy 2 from pip in the venv "
    "shadows Debian's numpy 1.x that apt's picamera2/simplejpeg are built against (picamera2 issues "
    "#1088, #1211): run `pip install 'numpy<2'` in the venv, or re-run systemd/install.sh"
)

INSTALL_HINT = N_(
    "picamera2 is not available for {name}: on Raspberry Pi OS run `sudo apt install python3-picamera2` (and create "
    "the venv with --system-site-packages), or use --source opencv:0 for a USB webcam or a folder of photos to replay"
)

# picamera2 names formats after libcamera/DRM fourccs, which list channels from the most significant
# byte, so "RGB888" arrays are laid out [B, G, R] per pixel -- OpenCV's BGR order, no conversion needed.
# Source: "The Picamera2 Library" manual, Appendix A (Pixel and image formats): "RGB888 ... Each pixel is
# laid out as [B, G, R]"; picamera2's examples/opencv_face_detect.py passes an RGB888 array straight to
# cv2.imshow. (picamera2 issue #1325 reports R/B swapped on the IMX500 AI camera; if that bites,
# add a channel swap for that model here rather than in vision.)
PIXEL_FORMAT = "RGB888"


def _messages(exc: BaseException) -> str:
    """All messages along an exception's cause/context chain, lower-cased (picamera2 wraps libcamera's)."""
    parts: list[str] = []
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        parts.append(str(current))
        current = current.__cause__ or current.__context__
    return " | ".join(parts).lower()


def picamera2_status() -> tuple[int, CameraNotFound | None]:
    """(number of cameras libcamera lists, why there is none), without opening a camera.

    Returns ``(0, reason)`` when ``picamera2`` is not importable, libcamera cannot start or lists no camera:
    ``reason`` is a :class:`CameraNotFound` made with ``said()`` (``str(reason)`` is the English, to quote in
    another message); ``(count, None)`` otherwise.
    """
    try:
        from picamera2 import Picamera2  # lazy: apt package, only on Raspberry Pi OS
    except ImportError:
        return 0, CameraNotFound.said(N_("picamera2 is not installed (`sudo apt install python3-picamera2`)"))
    except Exception as exc:  # e.g. ValueError "numpy.dtype size changed" from simplejpeg
        return 0, CameraNotFound.said(NUMPY_HINT, name="picamera2", exc=str(exc))
    try:
        count = len(Picamera2.global_camera_info())
    except Exception as exc:  # libcamera may not start at all off a Pi
        log.debug("picamera2 could not list cameras", exc_info=True)
        return 0, CameraNotFound.said(N_("libcamera could not list cameras ({problem})"), problem=reason_of(exc))
    return count, None if count else CameraNotFound.said(N_("libcamera sees no camera (check the ribbon cable)"))


PI_CAMERA = Words(N_("Pi camera"))
"""What players call the Pi camera (:attr:`device.camera.CameraSource.label`)."""


class Picamera2Source(CameraSource):
    """Frames from a Raspberry Pi camera (CSI ribbon cable) through ``picamera2``.

    Args:
        camera_num: libcamera camera number (0 for the first camera; ``rpicam-hello --list-cameras``).
        size: (width, height) in pixels of the delivered frames.
        read_timeout: seconds to wait for a frame before deciding the camera is gone.
        clock: returns seconds for :attr:`Frame.timestamp`; defaults to ``time.monotonic``.

    Frames are ``uint8[H, W, 3]`` BGR with ``H, W = size[1], size[0]``.
    """

    live = True

    def __init__(
        self,
        camera_num: int = 0,
        size: tuple[int, int] = DEFAULT_SIZE,
        *,
        read_timeout: float = 5.0,
        clock: Callable[[], float] = _now,
    ) -> None:
        self.camera_num = int(camera_num)
        self.size = (int(size[0]), int(size[1]))
        self.read_timeout = read_timeout
        self.name = f"picamera2:{self.camera_num}"
        self.label = PI_CAMERA
        self._clock = clock
        self._cam: Any = None
        self._index = 0
        self._light_held = False

    @property
    def is_open(self) -> bool:
        """True between a successful :meth:`open` and :meth:`close`."""
        return self._cam is not None

    def open(self) -> None:
        """Open and start the camera with an ``RGB888`` (BGR-ordered) main stream of :attr:`size`.

        Raises:
            CameraNotFound: ``picamera2`` is not installed, or libcamera sees no camera ``camera_num``.
            CameraBusy: the camera is held by another program (``rpicam-*``, another companion).
        """
        if self._cam is not None:
            return
        try:
            from picamera2 import Picamera2  # lazy: apt package, only on Raspberry Pi OS
        except ImportError as exc:
            raise CameraNotFound.said(INSTALL_HINT, name=self.name) from exc
        except Exception as exc:  # e.g. ValueError "numpy.dtype size changed" from simplejpeg
            raise CameraNotFound.said(NUMPY_HINT, name=self.name, exc=str(exc)) from exc

        try:
            cameras = Picamera2.global_camera_info()
        except Exception as exc:
            raise CameraNotFound.said(
                N_("libcamera could not list cameras for {name} ({problem}): check the ribbon cable, "
                   "or use --source opencv:0"), name=self.name, problem=reason_of(exc), demo_hint=True
            ) from exc
        if self.camera_num >= len(cameras):
            raise CameraNotFound.said(
                N_("no camera at {name} (libcamera sees {count}): check the ribbon cable and "
                   "`rpicam-hello --list-cameras`, or use --source opencv:0"), name=self.name, count=len(cameras),
                demo_hint=True,
            )

        try:
            cam = Picamera2(self.camera_num)
        except Exception as exc:
            text = _messages(exc)
            if "busy" in text or "acquire" in text or "in use" in text:
                raise CameraBusy.said(
                    N_("{name} is in use by another program: stop it (`sudo systemctl stop companion`, "
                       "or close rpicam-hello / another companion) and try again"), name=self.name
                ) from exc
            raise CameraNotFound.said(
                N_("{name} could not be opened ({problem}): check the ribbon cable, or use --source opencv:0"),
                name=self.name, problem=reason_of(exc), demo_hint=True,
            ) from exc

        try:
            config = cam.create_preview_configuration(main={"size": self.size, "format": PIXEL_FORMAT})
            cam.configure(config)
            cam.start()
        except Exception as exc:
            self._close_quietly(cam)
            text = _messages(exc)
            error = CameraBusy if ("busy" in text or "in use" in text) else CameraNotFound
            raise error.said(
                N_("{name} did not start at {width}x{height} {format} ({problem}): try another size, reboot the Pi"),
                name=self.name, width=self.size[0], height=self.size[1], format=PIXEL_FORMAT, problem=reason_of(exc),
                demo_hint=True,
            ) from exc
        self._cam = cam
        self._index = 0
        self._light_held = False
        log.info("opened %s at %dx%d", self.name, *self.size)

    def read(self) -> Frame:
        """Capture the next frame: ``uint8[H, W, 3]`` BGR, timestamp from the clock (monotonic seconds).

        Raises:
            CameraDisconnected: no frame within :attr:`read_timeout` seconds, or libcamera failed.
            RuntimeError: the source is not open.
        """
        if self._cam is None:
            raise RuntimeError(f"{self.name} is not open: call open() or use it in a with-block")
        try:
            try:
                array = self._cam.capture_array("main", wait=self.read_timeout)
            except TypeError:  # picamera2 before the wait= argument
                array = self._cam.capture_array("main")
        except Exception as exc:
            raise CameraDisconnected.said(
                N_("{name} stopped delivering frames after {count} ({problem}): check the ribbon cable and the power "
                   "supply, then restart `companion run`"), name=self.name, count=self._index, problem=reason_of(exc)
            ) from exc
        try:
            image = as_bgr(array)
        except ValueError as exc:
            raise CameraDisconnected.said(N_("{name} delivered a malformed frame: {problem}"), name=self.name,
                                          problem=reason_of(exc)) from exc
        frame = Frame(image=image, timestamp=self._clock(), index=self._index, source=self.name)
        self._index += 1
        return frame

    def hold_light(self, hold: bool) -> None:
        """Hold the automatic exposure and white balance where they are while the table is still, let them adapt
        again when it moves: a still table's exposure and colour gains then never step between two reads.

        Holding sets picamera2's controls ``AeEnable`` and ``AwbEnable`` off with the values the camera reports
        for the latest frame (``ExposureTime``, ``AnalogueGain``, ``ColourGains`` from ``capture_metadata``,
        where it has them); letting go sets both on again ("The Picamera2 Library", Appendix C: camera controls).
        Nothing happens while the camera is closed or already in that state; a camera that refuses is logged.
        """
        cam = self._cam
        if cam is None or bool(hold) is self._light_held:
            return
        controls: dict[str, Any] = {"AeEnable": not hold, "AwbEnable": not hold}
        try:
            if hold:
                try:
                    meta = cam.capture_metadata(wait=self.read_timeout)
                except TypeError:  # picamera2 before the wait= argument
                    meta = cam.capture_metadata()
                for key in ("ExposureTime", "AnalogueGain", "ColourGains"):
                    if isinstance(meta, dict) and meta.get(key) is not None:
                        controls[key] = meta[key]
            cam.set_controls(controls)
        except Exception as exc:  # the box reads on with automatic exposure
            log.warning("%s: could not %s the exposure and white balance (%s)", self.name,
                        "hold" if hold else "release", exc)
            return
        self._light_held = bool(hold)
        log.debug("%s: exposure and white balance %s", self.name, "held" if hold else "automatic")

    def close(self) -> None:
        """Stop and release the camera so another program can use it. Safe to call twice."""
        cam, self._cam = self._cam, None
        if cam is not None:
            self._close_quietly(cam)

    def _close_quietly(self, cam: Any) -> None:
        for method in ("stop", "close"):
            try:
                getattr(cam, method)()
            except Exception:
                log.warning("%s: %s() failed while closing", self.name, method, exc_info=True)
