"""When to read the table: tells a moving scene from a still one, frame by frame, and what changed since the
last read.

The box should read the dice once they have stopped rolling and the hands are out of view, exactly once
per roll, and within a few frames of the dice coming to rest. :class:`StillnessDetector` compares each frame
with the one before it (and, while the scene is settling, with the frame the quiet period started from) on
a small, blurred grey copy, and counts the pixels that changed by more than a threshold:

- ``MOVING``: too many pixels changed over the whole frame, or enough in one die-sized spot (a die rocking
  to rest, a small die rolling far from the others);
- ``SETTLING``: quiet, but not yet for :attr:`MotionConfig.still_seconds` and ``still_frames`` frames, or
  something that was not there at the last read reaches in from the frame's edge (an arm: a hand held
  over the dice is nearly still; it must stay quiet for ``reach_seconds`` before it counts as an object);
- ``STILL``: quiet long enough. :attr:`StillnessDetector.became_still` is True on the one update where
  the scene turned STILL: the moment to read.

What changed since the last read (the frame of the last ``became_still``, or of :meth:`mark_read`) is
:meth:`StillnessDetector.change_boxes`: frame-pixel boxes around the changed spots, for a reader that re-reads
only those (:func:`vision.incremental.read_changes`). :func:`change_boxes` compares any two frames the same way.
With ``read_unchanged`` off, a still scene that equals the last read (a shadow passed, a hand came and went)
is not read again.

The small copy is taken by integer steps (a strided sample, then a 2 x 2 area mean): at 2304 x 1296, the Pi
camera's default size, a frame costs well under a millisecond, where a resize by a non-integer factor cost
6.5 ms. Only numpy and OpenCV; no I/O, no other room imported.
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.frames import validate_frame

__all__ = ["MotionConfig", "MotionState", "StillnessDetector", "change_boxes", "change_mask", "work_image"]

#: Slack (s) when comparing a quiet period with ``still_seconds``: frame timestamps such as 66/10 - 60/10
#: fall a hair short of 0.6 in floating point, which used to make STILL one frame late.
TIME_EPS = 1e-6


class MotionState(enum.Enum):
    """What the scene is doing at the latest frame."""

    MOVING = "moving"  # something moved since the previous frame
    SETTLING = "settling"  # quiet, not yet long enough (or an arm reaches in)
    STILL = "still"  # quiet long enough: read


@dataclass(frozen=True)
class MotionConfig:
    """Thresholds of :class:`StillnessDetector`, declared once.

    Attributes:
        work_width: frames are reduced to about this width in pixels before comparing (an integer-step
            sample and a 2 x 2 mean, which also averages sensor noise); frames narrower than this are used
            as they are. 160 px keeps a d6 seen at 30-90 px in a 1280 px frame at 4-11 px.
        blur_kernel: side in pixels (odd) of the Gaussian blur on the small grey image; smooths the
            remaining per-pixel noise. 1 disables the blur.
        pixel_threshold: a pixel counts as changed when its grey level (0-255) differs by more than this.
            Sensor noise after reducing and blurring stays far below 10 (grey-level sigma 10 in the frame
            becomes about 1.5); a die's edge or pips differ by 50-200, a die rocking to rest by 10-40.
        max_changed_fraction: the scene is quiet when at most this fraction (0-1) of the pixels changed ...
        spot_pixels: ... and no ``spot_size`` x ``spot_size`` spot of the small image holds this many
            changed pixels (one die rocking to rest: noise changes lone pixels, a die a cluster; on seeded
            sequences of rolls, 4 sees the last visible rock of every die, 8 missed some).
        spot_size: side of that spot, small-image pixels (about one die).
        still_seconds: how long (s, by the frame timestamps) the scene must stay quiet to be STILL ...
        still_frames: ... and for at least this many frames (a slow camera or replay).
            Dice on felt stop at once; 0.2 s and 3 frames read a settled roll within a few frames.
        reach_seconds: a changed spot since the last read that touches the frame's edge (``edge_pixels``
            wide) and covers ``reach_min_fraction`` to ``reach_fraction`` of the frame is an arm reaching in:
            the scene must stay quiet this long (a hand held over the dice is nearly still; an object left at
            the edge is read after it) ...
        edge_pixels: see reach_seconds.
        reach_min_fraction: see reach_seconds (a die cut by the frame's edge is smaller than an arm) ...
        reach_fraction: ... (a change of most of the frame is a new scene, not an arm).
        box_margin: :meth:`StillnessDetector.change_boxes` pads each changed spot by this many small-image
            pixels (the blurred edge of what changed; a reader grows the boxes by its objects' size).
        read_unchanged: a still scene that equals the last read is read again (on: every still period is
            read, as before change boxes existed; off: only a scene that changed since the last read).
    """

    work_width: int = 160
    blur_kernel: int = 5
    pixel_threshold: int = 10
    max_changed_fraction: float = 0.003
    spot_pixels: int = 4
    spot_size: int = 5
    still_seconds: float = 0.2
    still_frames: int = 3
    reach_seconds: float = 1.0
    edge_pixels: int = 2
    reach_min_fraction: float = 0.01
    reach_fraction: float = 0.5
    box_margin: int = 1
    read_unchanged: bool = True

    def __post_init__(self) -> None:
        if self.work_width < 8:
            raise ValueError(f"work_width must be at least 8 px, got {self.work_width}")
        if self.blur_kernel < 1 or self.blur_kernel % 2 == 0:
            raise ValueError(f"blur_kernel must be a positive odd number of px, got {self.blur_kernel}")
        if not 0 <= self.pixel_threshold < 255:
            raise ValueError(f"pixel_threshold must be a grey level 0-254, got {self.pixel_threshold}")
        if not 0 <= self.max_changed_fraction < 1:
            raise ValueError(f"max_changed_fraction must be in [0, 1), got {self.max_changed_fraction}")
        if self.spot_size < 1 or self.spot_pixels < 1:
            raise ValueError(f"spot_size and spot_pixels must be at least 1, got {self.spot_size}, {self.spot_pixels}")
        for name in ("still_seconds", "reach_seconds"):
            v = getattr(self, name)
            if not (v >= 0 and math.isfinite(v)):
                raise ValueError(f"{name} must be finite and >= 0, got {v}")
        if self.still_frames < 1:
            raise ValueError(f"still_frames must be at least 1, got {self.still_frames}")
        if not 0 <= self.reach_min_fraction < self.reach_fraction <= 1:
            raise ValueError(f"reach fractions must satisfy 0 <= reach_min_fraction < reach_fraction <= 1, got "
                             f"{self.reach_min_fraction}, {self.reach_fraction}")


def work_image(frame: np.ndarray, config: MotionConfig) -> np.ndarray:
    """Small, grey, blurred copy of a ``uint8[H, W, 3]`` BGR frame: ``uint8[h, w]``, ``w`` about
    ``work_width`` (every ``W // (2 * work_width)``-th pixel, then 2 x 2 means), or the frame's own size
    when it is not wider than ``work_width``."""
    width = frame.shape[1]
    if width > config.work_width:
        step = max(1, width // (2 * config.work_width))
        sub = frame[::step, ::step]
        f = max(1, sub.shape[1] // config.work_width)
        h, w = sub.shape[0] // f, sub.shape[1] // f
        grey = cv2.cvtColor(np.ascontiguousarray(sub[: h * f, : w * f]), cv2.COLOR_BGR2GRAY)
        if f > 1:
            grey = cv2.resize(grey, (w, h), interpolation=cv2.INTER_AREA)
    else:
        grey = cv2.cvtColor(np.ascontiguousarray(frame), cv2.COLOR_BGR2GRAY)
    if config.blur_kernel > 1:
        grey = cv2.GaussianBlur(grey, (config.blur_kernel, config.blur_kernel), 0)
    return grey


def change_mask(before: np.ndarray, after: np.ndarray, config: MotionConfig) -> np.ndarray:
    """``bool[h, w]``: the small-image pixels (:func:`work_image`) whose grey level differs by more than
    ``pixel_threshold`` between two small images of the same size."""
    return cv2.absdiff(before, after) > config.pixel_threshold


def _spots(mask: np.ndarray, config: MotionConfig) -> np.ndarray:
    """``bool[h, w]``: changed pixels in a spot of ``spot_size`` holding at least ``spot_pixels`` changed ones."""
    k = config.spot_size
    counts = cv2.boxFilter(mask.astype(np.uint8), cv2.CV_16U, (k, k), normalize=False,
                           borderType=cv2.BORDER_CONSTANT)
    return mask & (cv2.dilate((counts >= config.spot_pixels).astype(np.uint8), np.ones((k, k), np.uint8)) > 0)


def _boxes(spots: np.ndarray, frame_shape: tuple[int, ...], config: MotionConfig) -> list[tuple[int, int, int, int]]:
    """Frame-pixel ``(x, y, w, h)`` around each connected spot (padded by ``box_margin``), largest first."""
    if not spots.any():
        return []
    h, w = spots.shape
    fh, fw = frame_shape[:2]
    sx, sy = fw / w, fh / h
    m = config.box_margin
    grown = cv2.dilate(spots.astype(np.uint8), np.ones((2 * m + 1, 2 * m + 1), np.uint8))
    n, _, stats, _ = cv2.connectedComponentsWithStats(grown, connectivity=8)
    out = []
    for x, y, bw, bh, _ in stats[1:]:
        x0, y0 = int(math.floor(x * sx)), int(math.floor(y * sy))
        x1, y1 = min(fw, int(math.ceil((x + bw) * sx))), min(fh, int(math.ceil((y + bh) * sy)))
        out.append((x0, y0, x1 - x0, y1 - y0))
    return sorted(out, key=lambda b: -b[2] * b[3])


def change_boxes(before: np.ndarray, after: np.ndarray, config: MotionConfig | None = None) -> list[tuple[int, int, int, int]]:
    """Where two frames of one table differ: ``(x, y, w, h)`` boxes in frame pixels around each changed
    spot (sensor noise and lone pixels left out), largest first; ``[]`` when nothing changed.

    Args:
        before, after: ``uint8[H, W, 3]`` BGR frames of the same size (e.g. the frame of the last read and
            the settled frame now).

    Raises:
        vision.BadFrame: a frame is not a non-empty ``uint8[H, W, 3]`` array.
        ValueError: the frames differ in size.
    """
    cfg = config or MotionConfig()
    validate_frame(before)
    validate_frame(after)
    if before.shape != after.shape:
        raise ValueError(f"frames differ in size: {before.shape[1]}x{before.shape[0]} and {after.shape[1]}x{after.shape[0]}")
    a, b = work_image(before, cfg), work_image(after, cfg)
    return _boxes(_spots(change_mask(a, b, cfg), cfg), after.shape, cfg)


class StillnessDetector:
    """Feed it every frame; it says when the scene has been still long enough to read, and what changed
    since the last read.

    Args:
        config: thresholds; defaults when None.

    The first frame of a stream (and the first after :meth:`reset`, a change of frame size, or a timestamp
    going backwards, e.g. a replay that loops) starts a new quiet period in ``SETTLING``: a scene that is
    already still when the box starts is read once.

    Besides the consecutive-frame test, while settling each frame is also compared with the frame the quiet
    period started from, so a die creeping a pixel per frame (each step too small to count) is still seen as
    moving. Once STILL, only consecutive frames are compared, so a slow change of daylight does not trigger
    a second read of the same roll.

    Not thread-safe: one detector per frame stream, used by the main loop.
    """

    def __init__(self, config: MotionConfig | None = None) -> None:
        self.config = config if config is not None else MotionConfig()
        self.reset()

    def reset(self) -> None:
        """Forget every frame seen (and the last read); the next frame starts a new quiet period."""
        self._previous: np.ndarray | None = None  # work image of the previous frame
        self._anchor: np.ndarray | None = None  # work image the quiet period started from
        self._read: np.ndarray | None = None  # work image of the last read
        self._changes: list[tuple[int, int, int, int]] | None = None  # what the last became_still saw change
        self._shape: tuple[int, ...] | None = None
        self._last_time: float | None = None
        self._quiet_since: float | None = None
        self._quiet_frames = 0
        self._state = MotionState.SETTLING
        self._became_still = False
        self._changed_fraction = 0.0

    @property
    def state(self) -> MotionState:
        """The state after the latest :meth:`update` (``SETTLING`` before any)."""
        return self._state

    @property
    def became_still(self) -> bool:
        """True only on the update where the state turned ``STILL``: once per still period."""
        return self._became_still

    @property
    def changed_fraction(self) -> float:
        """Fraction (0-1) of small-image pixels that changed at the latest update (0 on a first frame)."""
        return self._changed_fraction

    def update(self, frame: np.ndarray, timestamp: float) -> MotionState:
        """Take the next frame and return the scene's state.

        Args:
            frame: ``uint8[H, W, 3]`` BGR image.
            timestamp: when it was taken, seconds (monotonic clock or replay time); a value
                lower than the previous one starts a new stream (as :meth:`reset`).

        Returns:
            The new :class:`MotionState`; :attr:`became_still` tells whether it just turned STILL (then the
            frame counts as read: :meth:`change_boxes` compares later frames with it).

        Raises:
            vision.BadFrame: ``frame`` is not a non-empty ``uint8[H, W, 3]`` array.
            TypeError: ``timestamp`` is not a number.
            ValueError: ``timestamp`` is NaN or infinite.
        """
        validate_frame(frame)
        if isinstance(timestamp, bool) or not isinstance(timestamp, (int, float, np.floating, np.integer)):
            raise TypeError(f"timestamp must be a number of seconds, got {timestamp!r}")
        timestamp = float(timestamp)
        if not math.isfinite(timestamp):
            raise ValueError(f"timestamp must be finite seconds, got {timestamp}")
        if frame.shape != self._shape or (self._last_time is not None and timestamp < self._last_time):
            self.reset()
        cfg = self.config
        work = work_image(frame, cfg)
        self._shape = frame.shape
        self._last_time = timestamp
        self._became_still = False

        if self._previous is None:  # first frame of a stream: a new quiet period starts here
            self._previous = self._anchor = work
            self._quiet_since = timestamp
            self._quiet_frames = 1
            self._changed_fraction = 0.0
            self._state = MotionState.SETTLING
            return self._state

        mask = change_mask(self._previous, work, cfg)
        if self._state is not MotionState.STILL and self._anchor is not None:
            mask |= change_mask(self._anchor, work, cfg)
        self._changed_fraction = float(np.count_nonzero(mask)) / mask.size
        self._previous = work

        if self._changed_fraction > cfg.max_changed_fraction or _spots(mask, cfg).any():
            self._state = MotionState.MOVING
            self._anchor = work  # the next quiet period is measured from this frame
            self._quiet_since = timestamp
            self._quiet_frames = 1
        elif self._state is MotionState.STILL:
            self._anchor = work
        else:
            assert self._quiet_since is not None
            self._quiet_frames += 1
            quiet = timestamp - self._quiet_since + TIME_EPS
            wait = cfg.reach_seconds if self._reaching_in(work) else cfg.still_seconds
            if quiet >= wait and self._quiet_frames >= cfg.still_frames and (cfg.read_unchanged or self._changed(work)):
                self._state = MotionState.STILL
                self._became_still = True
                self._changes = self._boxes_since_read(work)
                self._read = work
            else:
                self._state = MotionState.SETTLING
        return self._state

    def mark_read(self) -> None:
        """The latest frame was read (e.g. a read asked for by a player): later changes count from it."""
        self._read = self._previous
        self._changes = []

    def change_boxes(self) -> list[tuple[int, int, int, int]] | None:
        """What changed between the last read and the latest frame (on the update that :attr:`became_still`:
        between the read before and this frame, the one to read now): ``(x, y, w, h)`` frame-pixel boxes
        around each changed spot, largest first (``[]``: nothing); None when there was no read before
        (read everything)."""
        if self._became_still:
            return self._changes
        return None if self._previous is None else self._boxes_since_read(self._previous)

    def _boxes_since_read(self, work: np.ndarray) -> list[tuple[int, int, int, int]] | None:
        if self._read is None or self._shape is None:
            return None
        return _boxes(_spots(change_mask(self._read, work, self.config), self.config), self._shape, self.config)

    def _changed(self, work: np.ndarray) -> bool:
        """Whether ``work`` differs from the last read in any spot (True before any read)."""
        return self._read is None or bool(_spots(change_mask(self._read, work, self.config), self.config).any())

    def _reaching_in(self, work: np.ndarray) -> bool:
        """Whether something not there at the last read reaches in from the frame's edge (an arm): a
        changed spot touching the edge that covers ``reach_min_fraction`` to ``reach_fraction`` of the frame
        (a die cut by the edge is smaller; a new scene is larger, or many small changes)."""
        if self._read is None:
            return False
        cfg = self.config
        spots = _spots(change_mask(self._read, work, cfg), cfg)
        e = cfg.edge_pixels
        ring = np.zeros_like(spots)
        ring[:e], ring[-e:], ring[:, :e], ring[:, -e:] = True, True, True, True
        if not (spots & ring).any():
            return False
        _, labels, stats, _ = cv2.connectedComponentsWithStats(spots.astype(np.uint8), connectivity=8)
        for label in np.unique(labels[ring & spots]):
            share = stats[label, cv2.CC_STAT_AREA] / spots.size
            if label and cfg.reach_min_fraction <= share < cfg.reach_fraction:
                return True
        return False
