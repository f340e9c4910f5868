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

Light is not a change (:func:`light_change_mask`): the comparisons with the last read first fit each colour
channel's gain (the light brightening or dimming, the camera's exposure or white balance stepping: a gain per
channel on a gamma-encoded frame) and count what the gains do not explain; the frame-to-frame comparisons fit
one grey gain. So a white-balance step of 20-30 % or a light step of 8 % never makes a read, and the change boxes
after one hold only what moved.

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

from vision.frames import every_nth_pixel, validate_frame

__all__ = ["MotionConfig", "MotionState", "StillnessDetector", "change_boxes", "change_mask", "light_change_mask",
           "light_gains", "work_image"]

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
            the edge is read after it); ``math.inf``: an arm blocks the read until it leaves (the box's loop) ...
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
        if not (self.still_seconds >= 0 and math.isfinite(self.still_seconds)):
            raise ValueError(f"still_seconds must be finite and >= 0, got {self.still_seconds}")
        if not self.reach_seconds >= 0:  # NaN fails too; math.inf: an arm waits until it leaves
            raise ValueError(f"reach_seconds must be >= 0 (math.inf: until the arm leaves), got {self.reach_seconds}")
        if self.still_frames < 1:
            raise ValueError(f"still_frames must be at least 1, got {self.still_frames}")
        if not 0 <= self.reach_min_fraction < self.reach_fraction <= 1:
            raise ValueError(f"reach fractions must satisfy 0 <= reach_min_fraction < reach_fraction <= 1, got "
                             f"{self.reach_min_fraction}, {self.reach_fraction}")


def _sample(frame: np.ndarray, config: MotionConfig) -> tuple[np.ndarray, int]:
    """(every ``W // (2 * work_width)``-th pixel of ``frame``, cut to a multiple of ``f``; ``f``, the side of the
    means that bring it to about ``work_width``, at most the sample's height), or (the frame, 1) when it is not wider
    than ``work_width``."""
    width = frame.shape[1]
    if width <= config.work_width:
        return np.ascontiguousarray(frame), 1
    step = max(1, width // (2 * config.work_width))
    sub = every_nth_pixel(frame, step)   # frame[::step, ::step], the same bytes, the cheapest way
    # a strip far wider than tall (a panorama in a replay folder) keeps at least one row of means
    f = max(1, min(sub.shape[0], sub.shape[1] // config.work_width))
    h, w = sub.shape[0] // f, sub.shape[1] // f
    return np.ascontiguousarray(sub[: h * f, : w * f]), f


def _reduced(image: np.ndarray, f: int, config: MotionConfig) -> np.ndarray:
    """``image`` brought down by ``f`` x ``f`` means and blurred by ``blur_kernel``."""
    if f > 1:
        image = cv2.resize(image, (image.shape[1] // f, image.shape[0] // f), interpolation=cv2.INTER_AREA)
    if config.blur_kernel > 1:
        image = cv2.GaussianBlur(image, (config.blur_kernel, config.blur_kernel), 0)
    return image


def _small(frame: np.ndarray, config: MotionConfig) -> np.ndarray:
    """Small, blurred BGR copy of a ``uint8[H, W, 3]`` frame: ``uint8[h, w, 3]``, ``w`` about ``work_width``
    (every ``W // (2 * work_width)``-th pixel, then 2 x 2 means), or the frame's own size when it is not wider."""
    sub, f = _sample(frame, config)
    return _reduced(sub, f, config)


def work_image(frame: np.ndarray, config: MotionConfig) -> np.ndarray:
    """Small, grey, blurred copy of a ``uint8[H, W, 3]`` BGR frame: ``uint8[h, w]``, ``w`` about
    ``work_width`` (every ``W // (2 * work_width)``-th pixel, then 2 x 2 means), or the frame's own size
    when it is not wider than ``work_width``."""
    sub, f = _sample(frame, config)
    return _reduced(cv2.cvtColor(sub, cv2.COLOR_BGR2GRAY), f, config)


def light_gains(before: np.ndarray, after: np.ndarray) -> np.ndarray:
    """``float32[C]``: the gain of each channel that takes ``before`` to ``after`` (two small images of one
    table, ``uint8[h, w]`` or ``uint8[h, w, C]``): the median ratio over every other pixel that is neither dark
    nor clipped, 1 where too few are; within 0.5-2. What moved is a minority of the pixels and leaves the median."""
    a = before[::2, ::2].reshape(-1, 1 if before.ndim == 2 else before.shape[2]).astype(np.float32)
    b = after[::2, ::2].reshape(a.shape).astype(np.float32)
    gains = np.ones(a.shape[1], np.float32)
    for c in range(a.shape[1]):
        ok = (a[:, c] > 16) & (a[:, c] < 240) & (b[:, c] > 4) & (b[:, c] < 250)
        if np.count_nonzero(ok) >= 32:
            gains[c] = np.median(b[ok, c] / a[ok, c])
    return np.clip(gains, 0.5, 2.0)


def _relit(before: np.ndarray, after: np.ndarray) -> np.ndarray:
    """``float32``: ``after``'s difference from ``before`` that the light does not explain: per pixel the smaller
    of the plain difference and the difference once the light's gains (:func:`light_gains`) are taken out."""
    g = light_gains(before, after)
    a, b = before.astype(np.float32), after.astype(np.float32)
    fitted = np.minimum(a * (g if before.ndim == 3 else g[0]), 255.0)
    return np.minimum(np.abs(b - fitted), np.abs(b - a))


#: Grey weights of the B, G, R channels (ITU-R BT.601, as ``cv2.COLOR_BGR2GRAY``).
GREY_WEIGHTS = np.array([0.114, 0.587, 0.299], np.float32)


def light_change_mask(before: np.ndarray, after: np.ndarray, config: MotionConfig) -> np.ndarray:
    """``bool[h, w]``: the small-image pixels (colour, :func:`_small`) whose change the light does not explain
    (:func:`_relit`, each channel's own gain: the white balance) by more than ``pixel_threshold`` grey levels
    (the channels' changes weighted as grey): what moved, not what the light or the white balance did. A channel
    clipped at white by a white-balance step leaves a rim in that channel alone, well under the threshold."""
    return _relit(before, after) @ GREY_WEIGHTS > config.pixel_threshold


def change_mask(before: np.ndarray, after: np.ndarray, config: MotionConfig) -> np.ndarray:
    """``bool[h, w]``: the small-image pixels (:func:`work_image`) whose grey level differs by more than
    ``pixel_threshold`` between two small images of the same size, also once one grey gain of the light
    (:func:`light_gains`) is taken out. The gain is fitted only when enough pixels differ to matter (fewer than
    ``spot_pixels`` make neither a spot nor a share of the frame)."""
    plain = cv2.absdiff(before, after) > config.pixel_threshold
    if np.count_nonzero(plain) < config.spot_pixels:
        return plain
    return plain & (_relit(before, after) > config.pixel_threshold)


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


def change_boxes(before: np.ndarray, after: np.ndarray,
                 config: MotionConfig | None = None) -> list[tuple[int, int, int, int]]:
    """Where two frames of one table differ: ``(x, y, w, h)`` boxes in frame pixels around each changed
    spot (sensor noise, lone pixels and the light left out: :func:`light_change_mask`), largest first; ``[]``
    when nothing changed.

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
        raise ValueError(f"frames differ in size: {before.shape[1]}x{before.shape[0]} "
                         f"and {after.shape[1]}x{after.shape[0]}")
    a, b = _small(before, cfg), _small(after, cfg)
    return _boxes(_spots(light_change_mask(a, b, cfg), cfg), after.shape, cfg)


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
        self._read: np.ndarray | None = None  # small colour image of the last read
        self._frame: np.ndarray | None = None  # the latest frame
        self._colour: np.ndarray | None = None  # its small colour image, made when first needed
        self._since: np.ndarray | None = None  # spots changed since the last read, at the latest frame (cache)
        self._changes: list[tuple[int, int, int, int]] | None = None  # what the last became_still saw change
        self._shape: tuple[int, ...] | None = None
        self._last_time: float | None = None
        self._quiet_since: float | None = None
        self._quiet_frames = 0
        self._state = MotionState.SETTLING
        self._became_still = False
        self._reaching = False
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
    def reaching(self) -> bool:
        """True while the scene settles around an arm reaching in from the edge (the read waits for it: see
        ``reach_seconds``); False otherwise."""
        return self._reaching

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
        self._reaching = False
        self._frame, self._colour, self._since = frame, None, None

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
            self._reaching = self._reaching_in()
            wait = cfg.reach_seconds if self._reaching else cfg.still_seconds
            if quiet >= wait and self._quiet_frames >= cfg.still_frames and (cfg.read_unchanged or self._changed()):
                self._state = MotionState.STILL
                self._became_still = True
                self._changes = self._boxes_since_read()
                self._read = self._small_colour()
            else:
                self._state = MotionState.SETTLING
        return self._state

    def read_reference(self) -> np.ndarray | None:
        """What the detector keeps of the last read: a copy of its small colour image (``uint8[h, w, 3]`` BGR,
        ``w`` about ``work_width`` px; :func:`_small`), or None before any read. Kept with the read, it lets a
        restarted box count changes from the same read (:meth:`resume_read`)."""
        return None if self._read is None else self._read.copy()

    def resume_read(self, reference: np.ndarray, frame_shape: tuple[int, ...]) -> None:
        """Count changes from a read made before (by another detector, e.g. before the box restarted): a still
        scene equal to it is not read again (with ``read_unchanged`` off), and :meth:`change_boxes` compares later
        frames with it. A frame of another size than ``frame_shape`` (or a small image that does not match it)
        forgets it: everything is read then.

        Args:
            reference: ``uint8[h, w, 3]``: what :meth:`read_reference` gave.
            frame_shape: ``(H, W, 3)`` of the frames it was made from, px.

        Raises:
            ValueError: ``reference`` is not a ``uint8[h, w, 3]`` array or ``frame_shape`` not ``(H, W, 3)``.
        """
        ref = np.asarray(reference)
        if ref.dtype != np.uint8 or ref.ndim != 3 or ref.shape[2] != 3 or ref.size == 0:
            raise ValueError(f"a read reference is a uint8[h, w, 3] image, got {ref.dtype}{list(ref.shape)}")
        shape = tuple(int(v) for v in frame_shape)
        if len(shape) != 3 or shape[2] != 3 or min(shape) < 1:
            raise ValueError(f"frame_shape must be (H, W, 3) px, got {frame_shape!r}")
        self.reset()
        self._shape = shape
        self._read = np.ascontiguousarray(ref)
        self._changes = []

    def mark_read(self) -> None:
        """The latest frame was read (e.g. a read asked for by a player): later changes count from it."""
        self._read = self._small_colour()
        self._changes = []
        self._since = None

    def forget_read(self) -> None:
        """The last read did not happen after all (it failed): the next still period is read whether or not
        the table changed, and :meth:`change_boxes` is None (read everything) until then."""
        self._read = None
        self._changes = None
        self._since = None

    def change_boxes(self) -> list[tuple[int, int, int, int]] | None:
        """What changed between the last read and the latest frame (on the update that :attr:`became_still`:
        between the read before and this frame, the one to read now): ``(x, y, w, h)`` frame-pixel boxes
        around each changed spot, largest first (``[]``: nothing); None when there was no read before
        (read everything). Light and white-balance changes are not changes (:func:`light_change_mask`)."""
        if self._became_still:
            return self._changes
        return None if self._previous is None else self._boxes_since_read()

    def _small_colour(self) -> np.ndarray | None:
        """The latest frame's small colour image (:func:`_small`), made once per frame when needed."""
        if self._colour is None and self._frame is not None:
            self._colour = _small(self._frame, self.config)
        return self._colour

    def _since_read(self) -> np.ndarray | None:
        """``bool[h, w]``: the spots changed between the last read and the latest frame (None: no read yet)."""
        if self._read is None:
            return None
        colour = self._small_colour()
        if colour is None or self._read.shape != colour.shape:
            return None
        if self._since is None:
            self._since = _spots(light_change_mask(self._read, colour, self.config), self.config)
        return self._since

    def _boxes_since_read(self) -> list[tuple[int, int, int, int]] | None:
        spots = self._since_read()
        if spots is None or self._shape is None:
            return None
        return _boxes(spots, self._shape, self.config)

    def _changed(self) -> bool:
        """Whether the latest frame differs from the last read in any spot (True before any read)."""
        spots = self._since_read()
        return spots is None or bool(spots.any())

    def _reaching_in(self) -> bool:
        """Whether something not there at the last read reaches in from the frame's edge (an arm): a
        changed spot touching the edge that covers ``reach_min_fraction`` to ``reach_fraction`` of the frame
        and holds at least half of all that changed (a die cut by the edge is smaller; a new scene is larger, or
        many patches)."""
        spots = self._since_read()
        if spots is None:
            return False
        cfg = self.config
        e = cfg.edge_pixels
        ring = np.zeros_like(spots)
        ring[:e], ring[-e:], ring[:, :e], ring[:, -e:] = True, True, True, True
        if not (spots & ring).any():
            return False
        _, labels, stats, _ = cv2.connectedComponentsWithStats(spots.astype(np.uint8), connectivity=8)
        changed = int(np.count_nonzero(spots))
        for label in np.unique(labels[ring & spots]):
            area = stats[label, cv2.CC_STAT_AREA]
            # an arm is one region holding most of what changed; a new scene changes everywhere in patches
            if label and cfg.reach_min_fraction <= area / spots.size < cfg.reach_fraction and 2 * area >= changed:
                return True
        return False
