"""StillnessDetector on seeded synthetic frames: a textured table with dice, sensor noise,
a rolling die, a hand passing through, a creeping die, size changes and bad input; and on sequences of a
whole table in play (vision.synth_motion: rolls, hands, shadows, a tile played) with their truth."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from vision.errors import BadFrame, VisionError
from vision.motion import MotionConfig, MotionState, StillnessDetector, change_boxes, work_image

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
    moved = [x != before for before, x in zip([None, *positions], positions, strict=False)]
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


@pytest.mark.parametrize("size", [(10, 6000), (2, 2000), (1, 161)])
def test_a_strip_far_wider_than_tall_is_watched_too(rng, size):
    """A panorama photo in a replay folder: 10 x 6000 px is sampled every 18th pixel to one row of 334, which
    the means of 2 x 2 used to cut to nothing (OpenCV then failed on every frame); it is one row of 1 x 1 means."""
    frame = rng.integers(0, 255, (*size, 3), dtype=np.uint8)
    assert work_image(frame, CONFIG).shape[0] >= 1
    feed = Feed(StillnessDetector(CONFIG))
    for _ in range(int(FPS)):
        feed(frame)
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


# ----------------------------------------------------------------------------------------------- settle timing


def test_still_comes_on_the_frame_the_quiet_period_reaches_still_seconds():
    # Timestamps in tenths: 6.6 - 6.0 is 0.5999... in floating point; STILL must not wait a frame more.
    detector = StillnessDetector(MotionConfig(still_seconds=0.6, still_frames=1))
    frame = np.full((48, 64, 3), 90, np.uint8)
    fired = []
    for k in range(60, 75):
        detector.update(frame, k / 10)
        fired.append(detector.became_still)
    assert fired.index(True) == 6


def test_work_image_of_a_pi_camera_frame_is_an_integer_step_sample(rng):
    frame = noisy(table(rng, 1296, 2304), rng)
    small = work_image(frame, CONFIG)
    assert small.dtype == np.uint8 and 150 <= small.shape[1] <= 170
    assert small.shape[0] == pytest.approx(small.shape[1] * 1296 / 2304, abs=2)


@pytest.mark.parametrize("size", [(720, 1280), (1296, 2304), (481, 641)])
def test_the_small_copy_is_every_step_th_pixel_of_any_frame_layout(rng, size):
    """The small copy's sample (every ``W // (2 * work_width)``-th pixel, cut to a multiple of the means' side) is the
    frame's own pixels whether the frame is contiguous, a crop of a larger one, mirrored, its channels reversed or
    Fortran-ordered (its pixels gathered whole when a pixel's channels lie side by side, else channel by channel)."""
    from vision.motion import _sample

    frame = rng.integers(0, 256, (*size, 3), dtype=np.uint8)
    for f in (frame, frame[5:-3, 7:-2], frame[:, ::-1], frame[..., ::-1], np.asfortranarray(frame)):
        got, means = _sample(f, CONFIG)
        step = f.shape[1] // (2 * CONFIG.work_width)
        want = f[::step, ::step]
        h, w = want.shape[0] // means * means, want.shape[1] // means * means
        assert means == max(1, want.shape[1] // CONFIG.work_width)
        assert got.flags.c_contiguous and np.array_equal(got, want[:h, :w])


def test_change_boxes_between_two_frames(rng):
    base = table(rng)
    before = noisy(with_square(base, 40, 380, 50, 240), rng)
    after = noisy(with_square(base, 500, 40, 50, 240), rng)
    boxes = change_boxes(before, after)
    assert len(boxes) == 2
    for x, y in ((40, 380), (500, 40)):   # where the die was and where it is now
        assert any(bx <= x and by <= y and x + 50 <= bx + bw and y + 50 <= by + bh for bx, by, bw, bh in boxes)
    assert change_boxes(noisy(base, rng), noisy(base, rng)) == [], "sensor noise is no change"
    with pytest.raises(ValueError, match="differ in size"):
        change_boxes(before, before[:100])


def test_a_hand_held_still_at_the_edge_waits_for_reach_seconds(rng):
    # An arm reaching in from the left and held nearly still over a die is not read as the table; an
    # object that stays at the edge is read once it has been quiet for reach_seconds.
    base = table(rng)
    noisy = NoiseBank(rng)
    feed = Feed(StillnessDetector(CONFIG))
    for _ in range(int(FPS)):
        feed(noisy(base, rng))
    start = len(feed.log)
    arm = base.copy()
    arm[120:170, 0:160] = 40
    for _ in range(int(2 * FPS)):
        feed(noisy(arm, rng))
    fires = feed.fires(start)
    assert len(fires) == 1
    assert feed.log[fires[0]][0] - feed.log[start][0] >= CONFIG.reach_seconds - 1e-6


def test_a_new_scene_filling_the_frame_is_read_at_once(rng):
    # A replay switching photos changes the whole frame, edges included: not an arm, read after still_seconds.
    feed = Feed(StillnessDetector(CONFIG))
    noisy = NoiseBank(rng)
    first, second = table(rng), np.ascontiguousarray(table(rng)[::-1])
    for _ in range(int(FPS)):
        feed(noisy(first, rng))
    start = len(feed.log)
    for _ in range(int(FPS)):
        feed(noisy(second, rng))
    assert feed.fires(start) == [feed.first_after(start, CONFIG.still_seconds)]


# ----------------------------------------------------------------------------------------------- sequences


@pytest.fixture(scope="module")
def roll_sequence():
    """A Roll table at 640x360, 15 fps: rolls, a hand hovering, a shadow, a tile played, another roll."""
    from vision.synth_full import full_table
    from vision.synth_motion import play_sequence

    tiles = [f"tile_{k}" for k in range(1, 30)]
    tab = full_table("roll", tiles, 3, (640, 360))
    return play_sequence(tab, ["roll", "hover", "shadow", "card", "roll", "hover"], seed=4, fps=15.0,
                         card_ids=tiles)


def run_sequence(seq, config: MotionConfig):
    detector = StillnessDetector(config)
    reads = []
    for i, f in enumerate(seq.frames):
        detector.update(f.image, f.t)
        if detector.became_still:
            reads.append((i, detector.change_boxes()))
    return reads


def test_sequence_reads_no_frame_while_something_moves_or_a_hand_is_in_view(roll_sequence):
    reads = run_sequence(roll_sequence, CONFIG)
    for i, _ in reads:
        f = roll_sequence.frames[i]
        assert not f.moving and not f.hand and f.layout is not None, (
            f"read at frame {i} while the table was not at rest")


def test_sequence_reads_every_changed_layout_within_a_few_frames(roll_sequence):
    reads = [i for i, _ in run_sequence(roll_sequence, CONFIG)]
    changed = [(start, k) for start, k, ch in roll_sequence.settles if ch]
    assert len(changed) >= 4   # the first layout, two rolls, a tile
    for start, k in changed:
        after = [i for i in reads if i >= start]
        assert after and after[0] - start <= 3, f"layout {k} at rest from frame {start} read at {after[:1]}"
        assert roll_sequence.frames[after[0]].layout == k


def test_sequence_without_rereads_reads_only_what_changed(roll_sequence):
    # read_unchanged off: a hand that came and went or a shadow that passed is no new read; each read's
    # change boxes hold the pieces that moved.
    reads = run_sequence(roll_sequence, replace(CONFIG, read_unchanged=False))
    read_layouts = [roll_sequence.frames[i].layout for i, _ in reads]
    assert read_layouts == [k for _, k, ch in roll_sequence.settles if ch]
    assert reads[0][1] is None, "the first read reads everything"
    seq = roll_sequence
    for (i, boxes), (j, _) in zip(reads[1:], reads[:-1], strict=True):
        before, after = seq.layouts[seq.frames[j].layout], seq.layouts[seq.frames[i].layout]
        moved = [p for p in after if p not in before]
        assert moved and boxes
        for p in moved:
            x, y = seq.table.polygon_px(p).mean(axis=0)
            assert any(bx <= x <= bx + bw and by <= y <= by + bh for bx, by, bw, bh in boxes)


def test_a_read_kept_before_a_restart_counts_changes_for_a_new_detector():
    # What one detector kept of its last read lets another (the box restarted) go on from it: the same table is not
    # still for a read again, a die moved since is, with its change box; another frame size forgets it.
    rng = np.random.default_rng(31)
    still = table(rng)
    config = replace(CONFIG, read_unchanged=False)
    first = StillnessDetector(config)
    assert first.read_reference() is None
    t = 0.0
    for _ in range(8):
        first.update(noisy(still, rng), t)
        t += 1 / FPS
    reference = first.read_reference()
    assert reference is not None and reference.dtype == np.uint8 and reference.shape[2] == 3

    again = StillnessDetector(config)
    again.resume_read(reference, still.shape)
    for k in range(10):
        again.update(noisy(still, rng), 100 + k / FPS)
        assert not again.became_still, "the same table after a restart is not read again"
    moved = still.copy()
    moved[260:310, 300:350] = still[400:450, 8:58]  # the middle die taken away: felt there now
    became = []
    for k in range(10):
        again.update(noisy(moved, rng), 101 + k / FPS)
        became.append(again.became_still)
        if again.became_still:
            boxes = again.change_boxes()
    assert sum(became) == 1
    assert boxes and all(bx <= 325 <= bx + bw and by <= 285 <= by + bh for bx, by, bw, bh in boxes[:1])

    other = StillnessDetector(config)
    other.resume_read(reference, (240, 320, 3))  # kept from frames of another size: everything is read
    for k in range(8):
        other.update(noisy(still, rng), k / FPS)
    assert other.read_reference() is not None and other.change_boxes() == []
    with pytest.raises(ValueError, match="uint8"):
        other.resume_read(reference.astype(np.float32), still.shape)
    with pytest.raises(ValueError, match="frame_shape"):
        other.resume_read(reference, (480, 640))
