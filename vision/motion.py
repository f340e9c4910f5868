"""When to read the dice: tells a moving scene from a still one, frame by frame.

The box should read the dice once they have stopped rolling and the hands are out of
view, exactly once per roll. :class:`StillnessDetector` compares each frame with the one
before it (and, while the scene is settling, with the frame the quiet period started
from) on a small, blurred grey copy, and counts the fraction of pixels that changed
by more than a threshold:

- ``MOVING``: the fraction is above :attr:`MotionConfig.max_changed_fraction`;
- ``SETTLING``: quiet, but for less than :attr:`MotionConfig.still_seconds`;
- ``STILL``: quiet for at least ``still_seconds``. :attr:`StillnessDetector.became_still`
  is True on the one update where the scene turned STILL: the moment to read the dice.

Only numpy and OpenCV; no I/O, no other room imported.
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.frames import validate_frame

__all__ = ["MotionConfig", "MotionState", "StillnessDetector"]


class MotionState(enum.Enum):
    """What the scene is doing at the latest frame."""

    MOVING = "moving"  # something moved since the previous frame
    SETTLING = "settling"  # quiet, not yet for still_seconds
    STILL = "still"  # quiet for at least still_seconds


@dataclass(frozen=True)
class MotionConfig:
    """Thresholds of :class:`StillnessDetector`, declared once.

    Attributes:
        work_width: frames are shrunk (INTER_AREA, which also averages away sensor noise)
            to this width in pixels before comparing; frames narrower than this are used as
            they are. 160 px keeps a d6 seen at 30-90 px in the full frame at 8-20 px.
        blur_kernel: side in pixels (odd) of the Gaussian blur on the shrunk grey image;
            smooths the remaining per-pixel noise. 1 disables the blur.
        pixel_threshold: a pixel counts as changed when its grey level (0-255) differs by
            more than this. Sensor noise after shrinking and blurring stays far below 15;
            a die's edge or pips differ by 50-200.
        max_changed_fraction: the scene is quiet when at most this fraction (0-1) of the
            pixels changed. 0.003 is ~60 pixels of a 160x120 image, a quarter of one small die.
        still_seconds: how long (s, by the frame timestamps) the scene must stay quiet to be
            STILL. Dice on felt stop within a second; 0.6 s keeps the read prompt.
    """

    work_width: int = 160
    blur_kernel: int = 5
    pixel_threshold: int = 15
    max_changed_fraction: float = 0.003
    still_seconds: float = 0.6

    def __post_init__(self) -> None:
        if self.work_width < 8:
            raise ValueError(f"work_width must be at least 8 px, got {self.work_width}")
        if self.blur_kernel < 1 or self.blur_kernel % 2 == 0:
            raise ValueError(f"blur_kernel must be a positive odd number of px, got {self.blur_kernel}")
        if not 0 <= self.pixel_threshold < 255:
            raise ValueError(f"pixel_threshold must be a grey level 0-254, got {self.pixel_threshold}")
        if not 0 <= self.max_changed_fraction < 1:
            raise ValueError(f"max_changed_fraction must be in [0, 1), got {self.max_changed_fraction}")
        if not (self.still_seconds >= 0 and math.isfinite(self.still_seconds)):
            raise ValueError(f"still_seconds must be finite and >= 0, got {self.still_seconds}")


class StillnessDetector:
    """Feed it every frame; it says when the scene has been still long enough to read.

    Args:
        config: thresholds; defaults when None.

    The first frame of a stream (and the first after :meth:`reset`, a change of frame
    size, or a timestamp going backwards, e.g. a replay that loops) starts a new quiet
    period in ``SETTLING``: a scene that is already still when the box starts is read once.

    Besides the consecutive-frame test, while settling each frame is also compared with the
    frame the quiet period started from, so a die creeping a pixel per frame (each step
    too small to count) is still seen as moving. Once STILL, only consecutive frames are
    compared, so a slow change of daylight does not trigger a second read of the same roll.

    Not thread-safe: one detector per frame stream, used by the main loop.
    """

    def __init__(self, config: MotionConfig | None = None) -> None:
        self.config = config if config is not None else MotionConfig()
        self.reset()

    def reset(self) -> None:
        """Forget every frame seen; the next frame starts a new quiet period."""
        self._previous: np.ndarray | None = None  # work image of the previous frame
        self._anchor: np.ndarray | None = None  # work image the quiet period started from
        self._shape: tuple[int, ...] | None = None
        self._last_time: float | None = None
        self._quiet_since: float | None = None
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
        """Fraction (0-1) of work-image pixels that changed at the latest update (0 on a first frame)."""
        return self._changed_fraction

    def update(self, frame: np.ndarray, timestamp: float) -> MotionState:
        """Take the next frame and return the scene's state.

        Args:
            frame: ``uint8[H, W, 3]`` BGR image.
            timestamp: when it was taken, seconds (monotonic clock or replay time); a value
                lower than the previous one starts a new stream (as :meth:`reset`).

        Returns:
            The new :class:`MotionState`; :attr:`became_still` tells whether it just turned STILL.

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
        work = self._work_image(frame)
        self._shape = frame.shape
        self._last_time = timestamp
        self._became_still = False

        if self._previous is None:  # first frame of a stream: a new quiet period starts here
            self._previous = self._anchor = work
            self._quiet_since = timestamp
            self._changed_fraction = 0.0
            self._state = MotionState.SETTLING
            return self._state

        changed = self._fraction(self._previous, work)
        if self._state is not MotionState.STILL and self._anchor is not None:
            changed = max(changed, self._fraction(self._anchor, work))
        self._changed_fraction = changed
        self._previous = work

        if changed > self.config.max_changed_fraction:
            self._state = MotionState.MOVING
            self._anchor = work  # the next quiet period is measured from this frame
            self._quiet_since = timestamp
        elif self._state is MotionState.STILL:
            self._anchor = work
        else:
            assert self._quiet_since is not None
            if timestamp - self._quiet_since >= self.config.still_seconds:
                self._state = MotionState.STILL
                self._became_still = True
            else:
                self._state = MotionState.SETTLING
        return self._state

    def _work_image(self, frame: np.ndarray) -> np.ndarray:
        """Shrunk, grey, blurred copy of ``frame``: ``uint8[h, w]`` with ``w <= work_width``."""
        height, width = frame.shape[:2]
        if width > self.config.work_width:
            new_width = self.config.work_width
            new_height = max(1, round(height * new_width / width))
            frame = cv2.resize(frame, (new_width, new_height), interpolation=cv2.INTER_AREA)
        grey = cv2.cvtColor(np.ascontiguousarray(frame), cv2.COLOR_BGR2GRAY)
        if self.config.blur_kernel > 1:
            grey = cv2.GaussianBlur(grey, (self.config.blur_kernel, self.config.blur_kernel), 0)
        return grey

    def _fraction(self, before: np.ndarray, after: np.ndarray) -> float:
        """Fraction of pixels whose grey level differs by more than ``pixel_threshold``."""
        diff = cv2.absdiff(before, after)
        return float(np.count_nonzero(diff > self.config.pixel_threshold)) / diff.size


