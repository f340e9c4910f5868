"""StillnessDetector on seeded synthetic frames: a textured table with dice, sensor noise,
a rolling die, a hand passing through, a creeping die, size changes and bad input."""

from __future__ import annotations

import numpy as np
import pytest

from vision.errors import BadFrame, VisionError
from vision.motion import MotionConfig, MotionState, StillnessDetector

H, W = 480, 640
FPS = 25.0
CONFIG = MotionConfig()  # the defaults are what the box runs with


def table(rng: np.random.Generator, height: int = H, width: int = W) -> np.ndarray:
    """A blocky felt texture (8 px cells, grey 60-120) with three white 'dice' (50 px squares)."""
    cells = rng.integers(60, 120, size=(height // 8 + 1, width // 8 + 1, 3), dtype=np.uint8)
    image = np.repeat(np.repeat(cells, 8, axis=0), 8, axis=1)[:height, :width].copy()
    for y, x in ((100, 120), (260, 300), (180, 480)):
        image[y : y + 50, x : x + 50] = 235
    return image


def noisy(image: np.ndarray, rng: np.random.Generator, sigma: float = 10.0) -> np.ndarray:
    """``image`` plus fresh Gaussian sensor noise (sigma in grey levels, independent per pixel and channel)."""
    noise = rng.standard_normal(image.shape, dtype=np.float32) * np.float32(sigma)
    return np.clip(image + noise, 0, 255).astype(np.uint8)


class NoiseBank:
    """Cheaper noise for the long sequences: 8 seeded sigma-10 fields, never the same one twice in a row."""

    def __init__(self, rng: np.random.Generator, shape: tuple[int, ...] = (H, W, 3), sigma: float = 10.0) -> None:
        self.rng = rng
        self.fields = [
            np.round(rng.standard_normal(shape, dtype=np.float32) * np.float32(sigma)).astype(np.int16)
            for _ in range(8)
        ]
        self.last = 0

    def __call__(self, image: np.ndarray, rng: np.random.Generator | None = None) -> np.ndarray:
        self.last = (self.last + int(self.rng.integers(1, len(self.fields)))) % len(self.fields)
        return np.clip(image + self.fields[self.last], 0, 255).astype(np.uint8)


def with_square(image: np.ndarray, x: int, y: int, size: int, colour: int) -> np.ndarray:
    out = image.copy()
    out[max(y, 0) : max(y + size, 0), max(x, 0) : max(x + size, 0)] = colour
    return out


class Feed:
    """Feeds frames at FPS to a detector and records (timestamp, state, became_still)."""

    def __init__(self, detector: StillnessDetector, t0: float = 1000.0) -> None:
        self.detector = detector
        self.t0 = t0
        self.log: list[tuple[float, MotionState, bool]] = []

    def __call__(self, frame: np.ndarray) -> MotionState:
        t = self.t0 + len(self.log) / FPS
        state = self.detector.update(frame, t)
        self.log.append((t, state, self.detector.became_still))
        return state

    def first_after(self, start: int, seconds: float) -> int:
        """Index of the first update at least ``seconds`` after update ``start``."""
        t_start = self.log[start][0]
        return next(i for i, (t, _, _) in enumerate(self.log) if i >= start and t - t_start >= seconds)

    def fires(self, start: int = 0) -> list[int]:
        """Indices (into the log) of the updates where became_still was True."""
        return [i for i, (_, _, fired) in enumerate(self.log) if fired and i >= start]


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(20261129)


def test_static_noisy_scene_turns_still_once_after_still_seconds(rng):
    base = table(rng)
    feed = Feed(StillnessDetector(CONFIG))
    for _ in range(int(3 * FPS)):
        feed(noisy(base, rng))

    states = [state for _, state, _ in feed.log]
    assert MotionState.MOVING not in states, "sensor noise alone must never look like motion"
    assert states[0] is MotionState.SETTLING
    first_still = feed.first_after(0, CONFIG.still_seconds)
    assert all(s is MotionState.SETTLING for s in states[:first_still])
    assert all(s is MotionState.STILL for s in states[first_still:])
    assert feed.fires() == [first_still], "became_still fires exactly once, the moment the scene turns still"
    assert feed.detector.changed_fraction <= CONFIG.max_changed_fraction


def test_rolling_die_is_moving_then_fires_once_after_it_stops(rng):
    base = table(rng)
    noisy = NoiseBank(rng)
    feed = Feed(StillnessDetector(CONFIG))
    for _ in range(int(FPS)):  # still table, read once
        feed(noisy(base, rng))
    assert feed.fires() == [feed.first_after(0, CONFIG.still_seconds)]

    start = len(feed.log)
    for step in range(20):  # a die rolling across at 10 px per frame (250 px/s)
        assert feed(noisy(with_square(base, 40 + 10 * step, 380, 50, 240), rng)) is MotionState.MOVING
    assert feed.fires(start) == []

    stopped = len(feed.log)
    resting = with_square(base, 40 + 10 * 19, 380, 50, 240)
    for _ in range(int(2 * FPS)):
        feed(noisy(resting, rng))
    after = [state for _, state, _ in feed.log[stopped:]]
    assert MotionState.MOVING not in after
    fires = feed.fires(start)
    assert len(fires) == 1, "exactly one read per still period"
    # The last frame that moved starts the quiet period; the read comes still_seconds later.
    assert fires == [feed.first_after(stopped - 1, CONFIG.still_seconds)]


def test_hand_passing_through_gives_no_read_until_still_again(rng):
    base = table(rng)
    noisy = NoiseBank(rng)
    feed = Feed(StillnessDetector(CONFIG))
    for _ in range(int(FPS)):
        feed(noisy(base, rng))
    assert len(feed.fires()) == 1

    start = len(feed.log)
    # A hand (dark, 200 px) sweeps in, pauses over the dice for 5 frames, and leaves.
    positions = [-150 + 70 * k for k in range(11)] + [330] * 5 + [410, 490, 570, 650]
    for x in positions:
        feed(noisy(with_square(base, x, 120, 200, 40), rng))
    during = feed.log[start:]
    assert feed.fires(start) == [], "no read while a hand is in view"
    moved = [x != before for before, x in zip([None, *positions], positions)]
    assert [state is MotionState.MOVING for _, state, _ in during] == moved
    back = len(feed.log)
    for _ in range(int(2 * FPS)):
        feed(noisy(base, rng))
    assert len(feed.fires(back)) == 1


def test_creeping_die_never_counts_as_still(rng):
    """1 px per frame: each step changes too few pixels, but the drift from the quiet period's start does."""
    base = table(rng)
    noisy = NoiseBank(rng)
    feed = Feed(StillnessDetector(CONFIG))
    for step in range(int(2.5 * FPS)):
        feed(noisy(with_square(base, 100 + step, 380, 50, 240), rng))
    states = [state for _, state, _ in feed.log]
    assert MotionState.STILL not in states
    assert feed.fires() == []
    assert MotionState.MOVING in states


def test_exposure_jump_counts_as_motion_then_settles(rng):
    """Auto-exposure brightening every pixel at once: MOVING for a frame, then one read once settled."""
    base = table(rng)
    noisy = NoiseBank(rng)
    feed = Feed(StillnessDetector(CONFIG))
    for _ in range(int(FPS)):
        feed(noisy(base, rng))
    brighter = np.clip(base.astype(np.int16) + 40, 0, 255).astype(np.uint8)
    start = len(feed.log)
    assert feed(noisy(brighter, rng)) is MotionState.MOVING
    for _ in range(int(FPS)):
        feed(noisy(brighter, rng))
    assert feed.fires(start) == [feed.first_after(start, CONFIG.still_seconds)]


def test_white_balance_flip_alone_is_not_motion(rng):
    """A colour cast that barely moves the grey level (B -25, R +30: about +6 grey) does not re-read the dice."""
    base = table(rng)
    noisy = NoiseBank(rng)
    feed = Feed(StillnessDetector(CONFIG))
    for _ in range(int(FPS)):
        feed(noisy(base, rng))
    warmer = np.clip(base.astype(np.int16) + np.array([-25, 0, 30], dtype=np.int16), 0, 255).astype(np.uint8)
    start = len(feed.log)
    for _ in range(int(FPS)):
        assert feed(noisy(warmer, rng)) is MotionState.STILL
    assert feed.fires(start) == []


def test_frame_size_change_resets(rng):
    feed = Feed(StillnessDetector(CONFIG))
    base = table(rng)
    for _ in range(int(FPS)):
        feed(noisy(base, rng))
    assert feed.detector.state is MotionState.STILL

    small = table(rng, 240, 320)
    start = len(feed.log)
    assert feed(noisy(small, rng)) is MotionState.SETTLING
    assert feed.detector.became_still is False
    assert feed.detector.changed_fraction == 0.0
    for _ in range(int(FPS)):
        feed(noisy(small, rng))
    assert feed.fires(start) == [feed.first_after(start, CONFIG.still_seconds)]


def test_timestamp_going_backwards_starts_a_new_stream(rng):
    detector = StillnessDetector(CONFIG)
    frame = noisy(table(rng), rng)
    for i in range(int(FPS)):
        detector.update(frame, 50.0 + i / FPS)
    assert detector.state is MotionState.STILL
    assert detector.update(frame, 0.0) is MotionState.SETTLING  # e.g. a replay folder looping


def test_frame_smaller_than_work_width_is_used_as_is(rng):
    base = table(rng, 60, 80)
    feed = Feed(StillnessDetector(CONFIG))
    for _ in range(int(FPS)):
        feed(noisy(base, rng, sigma=4.0))
    assert len(feed.fires()) == 1


@pytest.mark.parametrize(
    "frame, words",
    [
        (np.zeros((48, 64, 3), np.float32), "uint8"),
        (np.zeros((48, 64), np.uint8), r"\[H, W, 3\]"),
        (np.zeros((48, 64, 4), np.uint8), r"\[H, W, 3\]"),
        (np.zeros((0, 64, 3), np.uint8), "empty"),
        ([[0, 0, 0]], "numpy array"),
    ],
)
def test_bad_frame_raises_badframe(frame, words):
    detector = StillnessDetector()
    with pytest.raises(BadFrame, match=words) as info:
        detector.update(frame, 0.0)
    assert isinstance(info.value, ValueError) and isinstance(info.value, VisionError)


@pytest.mark.parametrize("timestamp", [float("nan"), float("inf")])
def test_non_finite_timestamp_raises_valueerror(timestamp):
    with pytest.raises(ValueError, match="timestamp"):
        StillnessDetector().update(np.zeros((8, 8, 3), np.uint8), timestamp)


@pytest.mark.parametrize("timestamp", ["1.0", None, True])
def test_non_number_timestamp_raises_typeerror(timestamp):
    with pytest.raises(TypeError, match="timestamp"):
        StillnessDetector().update(np.zeros((8, 8, 3), np.uint8), timestamp)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"blur_kernel": 4},
        {"blur_kernel": 0},
        {"work_width": 2},
        {"max_changed_fraction": 1.5},
        {"still_seconds": -1.0},
        {"pixel_threshold": 300},
    ],
)
def test_config_rejects_impossible_values(kwargs):
    with pytest.raises(ValueError):
        MotionConfig(**kwargs)


def test_config_is_frozen():
    with pytest.raises(AttributeError):
        MotionConfig().still_seconds = 0.1  # type: ignore[misc]
