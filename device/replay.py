"""Replay a folder of photos or a video file as if it were a camera (the demo, tests, benchmarks).

For the demo each photo is presented as a still scene for a while: ``hold_frames=N`` delivers
every picture N times (optionally with a little seeded sensor noise so it looks like a live
camera to the stillness detector), and ``loop=True`` starts over after the last one.
"""

from __future__ import annotations

import logging
import os
import re
import time
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from device.camera import CameraSource, Frame, as_bgr
from device.errors import N_, BadImage, CameraDisconnected, CameraNotFound, EndOfStream, Words
from device.images import IMAGE_EXTENSIONS, check_video_size, decode_image

__all__ = [
    "ReplaySource",
    "IMAGE_EXTENSIONS",
    "VIDEO_EXTENSIONS",
    "DEFAULT_FPS",
    "natural_key",
    "list_images",
    "decode_image",
]

log = logging.getLogger(__name__)

VIDEO_EXTENSIONS = (".mp4", ".avi", ".mkv", ".mov", ".m4v", ".webm", ".mjpg", ".mjpeg", ".h264")
"""File extensions (lower case) treated as video files."""

DEFAULT_FPS = 10.0
"""Frames per second of the synthetic timestamps of a photo folder when ``fps`` is not given."""

_NOISE_PATTERNS = 4
"""How many noise patterns :class:`ReplaySource` draws per image size (see ``_noisy``)."""

_DIGITS = re.compile(r"(\d+)")


def natural_key(name: str) -> tuple[tuple[int, int | str], ...]:
    """Sort key putting ``img2`` before ``img10`` (digit runs compare as numbers, the rest case-folded)."""
    return tuple((0, int(part)) if part.isdigit() else (1, part.casefold()) for part in _DIGITS.split(name) if part)


def list_images(folder: Path) -> list[Path]:
    """The image files directly in ``folder`` (no recursion, no hidden files), in natural name order."""
    files = [
        p
        for p in folder.iterdir()
        if p.suffix.lower() in IMAGE_EXTENSIONS and not p.name.startswith(".") and p.is_file()
    ]
    return sorted(files, key=lambda p: natural_key(p.name))


class ReplaySource(CameraSource):
    """Replays a folder of photos (natural name order: ``img2`` before ``img10``) or a video file.

    Args:
        path: a folder of images (:data:`IMAGE_EXTENSIONS`), a single image, or a video file
            (:data:`VIDEO_EXTENSIONS`).
        fps: frames per second of the synthetic timestamps (``timestamp = index / fps`` seconds)
            and of the pacing when ``realtime``. Default: the video's own rate, or
            :data:`DEFAULT_FPS` for photos.
        hold_frames: deliver each picture this many times in a row (>= 1), so a photo is a still
            scene for ``hold_frames / fps`` seconds.
        loop: start again after the last picture instead of raising :class:`EndOfStream`.
        noise: standard deviation, in grey levels, of Gaussian noise added to every delivered
            frame (0 = exact copies); makes held photos look like a live sensor.
        seed: seed of the noise; the same seed gives the same frames after every :meth:`open`.
        skip_bad: log and skip undecodable images instead of raising :class:`BadImage`.
        on_skip: called with the :class:`BadImage` of each photo ``skip_bad`` skips, in place of the English log
            line (the box says it in the player's language); None: the log line.
        realtime: make :meth:`read` wait until each frame is due (``timestamp`` after open),
            like a camera; otherwise frames come as fast as they are read.
        clock, sleep: seconds clock and sleep function used when ``realtime`` (tests pass fakes).

    Frames are ``uint8[H, W, 3]`` BGR; :attr:`name` is ``"replay:<absolute path>"``;
    :attr:`current_file` is the photo behind the last frame (None for a video).
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        fps: float | None = None,
        *,
        hold_frames: int = 1,
        loop: bool = False,
        noise: float = 0.0,
        seed: int = 0,
        skip_bad: bool = False,
        on_skip: Callable[[BadImage], None] | None = None,
        realtime: bool = False,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if hold_frames < 1:
            raise ValueError(f"hold_frames must be >= 1, got {hold_frames}")
        if fps is not None and fps <= 0:
            raise ValueError(f"fps must be > 0, got {fps}")
        if noise < 0:
            raise ValueError(f"noise must be >= 0 grey levels, got {noise}")
        self.path = Path(path).expanduser().absolute()
        self.name = f"replay:{self.path}"
        self.label = Words(N_("video replay") if self.path.suffix.lower() in VIDEO_EXTENSIONS else N_("photo replay"))
        self.fps = fps
        self.hold_frames = int(hold_frames)
        self.loop = loop
        self.noise = float(noise)
        self.seed = seed
        self.skip_bad = skip_bad
        self.on_skip = on_skip
        self.realtime = realtime
        self._clock = clock
        self._sleep = sleep
        self._open = False
        self._pos = 0  # next photo to decode
        self._cap: cv2.VideoCapture | None = None  # video replays only
        self._pass_delivered = 0  # video frames delivered since the file was (re)opened
        self._ended = False
        self._files: list[Path] = []
        self._is_video = False
        self._video_fps: float | None = None
        self._current: np.ndarray | None = None
        self._current_file: Path | None = None
        self._first: tuple[Path, np.ndarray] | None = None  # the photo open() decoded, kept for the first read
        self._held = 0
        self._index = 0
        self._started_at = 0.0
        self._rng = np.random.default_rng(seed)
        self._noise_bank: list[np.ndarray] | None = None
        self._noise_pick = 0

    # -- public state -------------------------------------------------------------------------

    @property
    def is_open(self) -> bool:
        """True between a successful :meth:`open` and :meth:`close`."""
        return self._open

    @property
    def files(self) -> list[Path]:
        """The photos being replayed, in order (empty for a video or before :meth:`open`)."""
        return list(self._files)

    @property
    def current_file(self) -> Path | None:
        """The photo shown by the last frame read (None for a video or before the first read)."""
        return self._current_file

    @property
    def effective_fps(self) -> float:
        """The frame rate of the timestamps: ``fps``, else the video's rate, else :data:`DEFAULT_FPS`."""
        return self.fps or self._video_fps or DEFAULT_FPS

    # -- CameraSource ---------------------------------------------------------------------------

    def open(self) -> None:
        """Check the path and start at the first picture.

        Raises:
            CameraNotFound: the path does not exist (said so), the folder has no images (the message lists the
                extensions looked for), or the file type is not an image or video.
            BadImage: not one of the photos can be decoded, or OpenCV cannot open the video (nothing to replay).
        """
        if self._open:
            return
        path = self.path
        if not path.exists():
            raise CameraNotFound.said(
                N_("{path} does not exist: give a folder of photos ({images}) or a video file ({videos})"),
                path=str(path), images=", ".join(IMAGE_EXTENSIONS), videos=", ".join(VIDEO_EXTENSIONS),
            )
        suffix = path.suffix.lower()
        if path.is_dir():
            self._files = list_images(path)
            if not self._files:
                raise CameraNotFound.said(
                    N_("no images in the folder {path} ({name}); looked for {images} (any case): copy photos of the "
                       "table there, or pass a video file"), path=str(path), name=self.name,
                    images=", ".join(IMAGE_EXTENSIONS),
                )
            self._is_video = False
        elif suffix in IMAGE_EXTENSIONS:
            self._files = [path]
            self._is_video = False
        elif suffix in VIDEO_EXTENSIONS:
            self._files = []
            self._is_video = True
            self._video_fps = self._probe_video_fps(path)
        else:
            raise CameraNotFound.said(
                N_("cannot replay {path} ({name}): not a folder, an image ({images}) or a video ({videos})"),
                path=str(path), name=self.name, images=", ".join(IMAGE_EXTENSIONS), videos=", ".join(VIDEO_EXTENSIONS),
            )
        self._first = None if self._is_video else self._first_photo()
        self._open = True
        self._pos = 0
        self._cap = None
        self._pass_delivered = 0
        self._ended = False
        self._current = None
        self._current_file = None
        self._held = 0
        self._index = 0
        self._rng = np.random.default_rng(self.seed)
        self._noise_bank = None
        self._noise_pick = 0
        self._started_at = self._clock()
        log.info("replaying %s (%s)", path, "video" if self._is_video else f"{len(self._files)} photos")

    def read(self) -> Frame:
        """Return the next frame: ``uint8[H, W, 3]`` BGR, ``timestamp = index / effective_fps`` seconds.

        Raises:
            EndOfStream: the last picture has been held its ``hold_frames`` times (and not ``loop``).
            BadImage: a photo cannot be decoded (not with ``skip_bad``); the replay has already
                moved past it, so calling :meth:`read` again continues with the next photo.
            RuntimeError: the source is not open.
        """
        if not self._open:
            raise RuntimeError(f"{self.name} is not open: call open() or use it in a with-block")
        if self._current is None or self._held >= self.hold_frames:
            self._current, self._current_file = self._next_picture()
            self._held = 0
        self._held += 1
        timestamp = self._index / self.effective_fps
        if self.realtime:
            delay = self._started_at + timestamp - self._clock()
            if delay > 0:
                self._sleep(delay)
        image = self._current.copy() if self.noise == 0 else self._noisy(self._current)
        frame = Frame(image=image, timestamp=timestamp, index=self._index, source=self.name)
        self._index += 1
        return frame

    def close(self) -> None:
        """Stop the replay (a later :meth:`open` starts over). Safe to call twice."""
        self._open = False
        cap, self._cap = self._cap, None
        if cap is not None:
            cap.release()
        self._current = None

    # -- internals ------------------------------------------------------------------------------

    def _next_picture(self) -> tuple[np.ndarray, Path | None]:
        return self._next_video_frame() if self._is_video else self._next_photo()

    def _noisy(self, image: np.ndarray) -> np.ndarray:
        """``image`` plus seeded sensor-like noise, cheap enough for full-size frames on a Pi.

        Draws :data:`_NOISE_PATTERNS` Gaussian patterns per image size once, then adds a different
        one than last time to each frame (consecutive frames always differ, like a live sensor).
        """
        if self._noise_bank is None or self._noise_bank[0].shape != image.shape:
            self._noise_bank = [
                np.rint(self._rng.standard_normal(image.shape, dtype=np.float32) * self.noise).astype(np.int16)
                for _ in range(_NOISE_PATTERNS)
            ]
        self._noise_pick = (self._noise_pick + int(self._rng.integers(1, _NOISE_PATTERNS))) % _NOISE_PATTERNS
        noisy: np.ndarray = image.astype(np.int16) + self._noise_bank[self._noise_pick]
        out: np.ndarray = np.clip(noisy, 0, 255).astype(np.uint8)
        return out

    def _none_decoded(self, first: BadImage | None = None) -> BadImage:
        """The error for a replay with no photo that decodes: a single photo's own problem (too large, empty,
        not an image), or for a folder the count and the first photo's problem."""
        if first is not None and len(self._files) == 1:
            return first
        if first is not None:
            return BadImage.said(N_("none of the {count} images in {folder} can be decoded; the first: {problem}"),
                                 count=len(self._files), folder=str(self.path), problem=first)
        return BadImage.said(N_("none of the {count} images in {folder} can be decoded: copy the photos again"),
                             count=len(self._files), folder=str(self.path))

    def _first_photo(self) -> tuple[Path, np.ndarray]:
        """The first photo that decodes (kept for the first read), so a folder of nothing but
        unreadable files is refused at open, like an empty one."""
        problem: BadImage | None = None
        for file in self._files:
            try:
                return file, decode_image(file)
            except BadImage as exc:
                problem = problem or exc
        raise self._none_decoded(problem)

    def _next_photo(self) -> tuple[np.ndarray, Path | None]:
        """Decode the photo at the current position and move past it (also when it is bad).

        Raises CameraDisconnected when the folder (or the photo replayed) is gone: put back, it is
        opened again.
        """
        bad_in_a_row, problem = 0, None
        while True:
            if self._pos >= len(self._files):
                if not self.loop:
                    raise EndOfStream.said(N_("{name} ended after {count} photos"), name=self.name,
                                           count=len(self._files))
                self._pos = 0
            file = self._files[self._pos]
            self._pos += 1
            first, self._first = self._first, None
            if first is not None and first[0] == file:
                return first[1], file
            try:
                return decode_image(file), file
            except BadImage as exc:
                if not self.path.exists():
                    raise CameraDisconnected.said(
                        N_("{name} is gone: put its photos back; the game goes on"), name=self.name) from None
                if not self.skip_bad:
                    raise
                if self.on_skip is not None:
                    self.on_skip(exc)
                else:
                    log.warning("skipping: %s", exc)
                bad_in_a_row, problem = bad_in_a_row + 1, problem or exc
                if bad_in_a_row >= len(self._files):
                    raise self._none_decoded(problem) from None

    def _next_video_frame(self) -> tuple[np.ndarray, Path | None]:
        """Read the next video frame, reopening the file at the end when looping."""
        if self._ended:
            raise EndOfStream.said(N_("{name} has ended"), name=self.name)
        for _attempt in range(2):
            if self._cap is None:
                cap = cv2.VideoCapture(str(self.path))
                if not cap.isOpened():
                    cap.release()
                    raise self._cannot_open_video(self.path)
                self._cap = cap
                self._pass_delivered = 0
                check_video_size(cap, self.path)
            ok, image = self._cap.read()
            if ok and image is not None:
                self._pass_delivered += 1
                return as_bgr(image), None
            self._cap.release()
            self._cap = None
            if self._pass_delivered == 0:
                self._ended = True
                raise BadImage.said(N_("no frame could be decoded from the video {path}"), path=str(self.path))
            if not self.loop:
                self._ended = True
                raise EndOfStream.said(N_("{name} ended after {count} video frames"), name=self.name,
                                       count=self._pass_delivered)
        raise AssertionError("unreachable: a looping video delivered a frame in its previous pass")

    @staticmethod
    def _probe_video_fps(path: Path) -> float | None:
        """The video's frame rate (None when it does not say one).

        Raises:
            BadImage: OpenCV cannot open the video (an empty or damaged file, a codec it lacks): nothing to
                replay, refused at open as a folder of photos none of which decodes.
        """
        cap = cv2.VideoCapture(str(path))
        try:
            if not cap.isOpened():
                raise ReplaySource._cannot_open_video(path)
            fps = cap.get(cv2.CAP_PROP_FPS)
        finally:
            cap.release()
        return fps if fps and 0 < fps < 1000 else None

    @staticmethod
    def _cannot_open_video(path: Path) -> BadImage:
        """The error of a video OpenCV cannot open, naming it and what to convert it to (an empty file: that it is
        empty, which no converting mends)."""
        try:
            empty = path.stat().st_size == 0
        except OSError:
            empty = False
        if empty:
            return BadImage.said(N_("video {path} is empty (0 bytes): copy it again or give another one"),
                                 path=str(path))
        return BadImage.said(N_("OpenCV cannot open the video {path}: convert it to .mp4 (H.264) or .avi (MJPG)"),
                             path=str(path))
