"""One roll, one record (issue 16) and reads of what changed (issue 15): the box's loop on frame sequences of a dice
tray (vision.synth_motion: rolls, an arm sweeping over the dice, a hand resting 2.5 s, white-balance and light steps,
re-rolls of one die), restarts and Read-now taps; the judgements behind it (companion.reading); the camera's light
held while the table is still; a video replayed at its own rate.

The loop tests read the dice with a reader that knows each frame's truth (the sequence's settled layout), so what
they check is the loop: when it reads and what it records. bench/one_record.py runs the same with the real d6 reader.
"""

from __future__ import annotations

import hashlib
from dataclasses import replace

import cv2
import numpy as np
import pytest

from companion.app import MainLoop
from companion.hub import StateHub
from companion.reading import (
    LOOP_MOTION,
    ReadRules,
    same_dice,
    steady_dice,
    sure_dice,
    table_stillness,
    unexplained_changes,
)
from companion.session import SessionStore
from device import FakeCamera, Frame
from device.camera import CameraSource
from device.errors import EndOfStream
from vision import DiceRead, DieObservation
from vision.motion import StillnessDetector
from vision.synth_full import dice_tray
from vision.synth_motion import play_sequence

SIZE = (480, 270)
FPS = 15.0


def die(x: int, y: int, value: int | None, side: int = 30, confidence: float = 0.9) -> DieObservation:
    return DieObservation("d6", value, (x, y, side, side), confidence)


# -- the judgements -------------------------------------------------------------------------------------


def test_the_same_dice_within_a_few_pixels_are_the_same_roll():
    before = [die(100, 100, 3), die(200, 120, 5)]
    jittered = [die(203, 118, 5), die(98, 102, 3)]
    assert same_dice(jittered, before)
    assert not same_dice([die(100, 100, 3), die(200, 120, 6)], before), "a die showing another value"
    assert not same_dice([die(100, 100, 3)], before), "a die taken away"
    assert not same_dice([die(100, 100, 3), die(260, 120, 5)], before), "a die at another place"
    # the JSON of a recorded read compares the same way
    assert same_dice(jittered, [d.to_json() for d in before])


def test_an_unreadable_die_is_no_difference_except_where_the_table_changed():
    before = [die(100, 100, 3), die(200, 120, 5)]
    # a die the reader barely sees: found unreadable in one read, missing in the other
    assert same_dice(before + [die(300, 100, None, confidence=0.2)], before)
    assert same_dice([die(100, 100, None), die(200, 120, 5)], before)
    # where the detector saw a change, an unreadable die is a die rolled there
    changed = [(280, 80, 60, 60)]
    assert not same_dice(before + [die(300, 100, None)], before, changed=changed)
    # a die in a changed box must lie where it was, within the reader's noise (not half a side away)
    assert not same_dice([die(100, 100, 3), die(210, 126, 5)], before, changed=[(190, 110, 60, 60)])
    assert same_dice([die(100, 100, 3), die(202, 121, 5)], before, changed=[(190, 110, 60, 60)])


def test_a_die_whose_reads_disagree_is_unreadable_never_the_last_guess():
    now = (die(100, 100, 2, confidence=0.6), die(200, 100, 4))
    earlier = (die(101, 99, 1, confidence=0.5), die(200, 101, 4))
    steady = steady_dice(now, earlier, fresh=now)
    assert [d.value for d in steady] == [None, 4]
    assert steady[0].confidence == pytest.approx(0.5)
    # a die kept from the read before (not read again) is left as it was
    assert [d.value for d in steady_dice(now, earlier, fresh=now[1:])] == [2, 4]


def test_a_value_below_the_confidence_threshold_is_unreadable():
    dice = sure_dice((die(10, 10, 2, confidence=0.31), die(60, 10, 5, confidence=0.9)))
    assert [d.value for d in dice] == [None, 5]
    assert len(dice) == 2, "the die is still found"
    with pytest.raises(ValueError, match="value_confidence"):
        ReadRules(value_confidence=1.5)


def test_a_change_no_die_explains_is_something_in_the_tray():
    dice = [die(100, 100, 3), die(200, 120, 5)]
    hand = (120, 60, 140, 110)
    assert unexplained_changes([hand], dice, dice, (480, 270)) == [hand]
    assert unexplained_changes([(190, 110, 50, 50)], dice, dice, (480, 270)) == [], "a die rolled"
    assert unexplained_changes([(0, 60, 140, 110)], dice, dice, (480, 270)) == [], "the edge is the detector's"
    assert unexplained_changes([(20, 20, 400, 230)], dice, dice, (480, 270)) == [], "a new scene"
    assert unexplained_changes(None, dice, dice, (480, 270)) == []
    # a die rolled a few sides away within one change box, its new place missed by the read: not an object
    moved = (95, 95, 90, 70)
    assert unexplained_changes([moved], dice[1:], dice, (480, 270)) == []
    assert unexplained_changes([hand], dice[1:], dice, (480, 270)) == [hand], "a hand over a die is still one"


# -- frame sequences through the loop -------------------------------------------------------------------


def _key(image: np.ndarray) -> bytes:
    return hashlib.blake2b(image.tobytes(), digest_size=16).digest()


class TruthReader:
    """Reads a sequence's frames as the truth says: the settled layout's dice (frames in motion: the dice drawn), and
    notes which frames it was asked to read."""

    def __init__(self, seq) -> None:
        self.seq = seq
        self.index = {_key(f.image): k for k, f in enumerate(seq.frames)}
        self.frames_read: list[int] = []

    def read(self, image: np.ndarray) -> DiceRead:
        k = self.index[_key(image)]
        self.frames_read.append(k)
        layout = self.seq.frames[k].layout
        pieces = self.seq.layouts[layout if layout is not None else -1]
        dice = tuple(DieObservation("d6", p.value, self.seq.table.box_px(p), 0.95) for p in pieces if p.kind == "die")
        return DiceRead(image.shape[1], image.shape[0], dice, {})


class FlickerReader(TruthReader):
    """The truth, with a real reader's noise (seeded): on about a third of the frames it misses one of the dice, and on
    some it reads one die's value wrong at a low confidence."""

    def __init__(self, seq, seed: int = 7) -> None:
        super().__init__(seq)
        self.rng = np.random.default_rng(seed)

    def read(self, image: np.ndarray) -> DiceRead:
        r = super().read(image)
        dice = list(r.dice)
        if len(dice) > 1 and self.rng.random() < 0.35:
            del dice[int(self.rng.integers(len(dice)))]
        if dice and self.rng.random() < 0.2:
            k = int(self.rng.integers(len(dice)))
            dice[k] = replace(dice[k], value=dice[k].value % 6 + 1, confidence=0.4)
        return replace(r, dice=tuple(dice))


class Slice(CameraSource):
    """Frames ``first`` .. ``last - 1`` of a sequence, each with its index in the sequence."""

    def __init__(self, seq, first: int, last: int) -> None:
        self.seq, self.first, self.last = seq, first, last
        self.name = "sequence"
        self._next = first

    def open(self) -> None:
        pass

    def read(self) -> Frame:
        if self._next >= self.last:
            raise EndOfStream("the sequence ended")
        k, self._next = self._next, self._next + 1
        return Frame(self.seq.frames[k].image.copy(), self.seq.frames[k].t, k, self.name)

    def close(self) -> None:
        pass


@pytest.fixture(scope="module")
def sequence():
    """A dice tray at 480x270, 15 fps: rolls and what must never be a roll between them."""
    events = ["roll", "sweep", "hand_rest", "white_balance", "light", "reroll", "hover", "shadow", "roll"]
    return play_sequence(dice_tray(41, 5, SIZE), events, seed=41, fps=FPS, rest=(0.8, 1.0))


def rest_windows(seq):
    """(first frame at rest, first frame of the next event, layout, changed) of each settle."""
    return [(start, next((a for _, a, _ in seq.events if a >= start), len(seq.frames)), k, changed)
            for start, k, changed in seq.settles]


def play(seq, store, reader, first: int, last: int, taps=()):
    """One run of the box over frames first..last (a start: the session resumed as ``companion run`` does)."""
    session = store.resume_latest("d6") or store.start("d6", {})
    hub = StateHub()
    loop = MainLoop(source=Slice(seq, first, last), reader=reader, session=session, hub=hub,
                    stillness=table_stillness(), stop_at_end=True, sleep=lambda s: None)
    for tap in taps:
        loop.run(max_frames=tap - first)
        hub.post_action("read_now", origin="button")
    loop.run()
    return loop, hub


def recorded(store):
    session = store.resume_latest("d6")
    undone = set(session.replay().undone)
    return [e for e in session.events() if e.kind == "dice_read" and e.seq not in undone]


def play_through(seq, tmp_path):
    """(the truth reader, the rolls in force) after the whole of ``seq`` played through one box."""
    reader = TruthReader(seq)
    with SessionStore(tmp_path / "s.sqlite3") as store:
        play(seq, store, reader, 0, len(seq.frames))
        return reader, recorded(store)


def test_each_roll_is_recorded_once_and_nothing_else_is(sequence, tmp_path):
    seq = sequence
    reader, reads = play_through(seq, tmp_path)
    windows = rest_windows(seq)
    rolls = [(start, end, k) for start, end, k, changed in windows if changed]
    assert len(rolls) == 4  # the table at the start, two rolls, a re-roll of one die
    assert len(reads) == len(rolls)
    for (start, end, k), event in zip(rolls, reads, strict=True):
        assert start <= event.payload["frame"] < end, "each roll is recorded while it rests"
        assert event.payload["frame"] - start <= 4, "within a few frames of coming to rest"
        assert sorted(event.payload["values"]) == sorted(p.value for p in seq.layouts[k] if p.kind == "die")
    # the reader was never asked to read a frame with a hand in view or something moving
    for k in reader.frames_read:
        f = seq.frames[k]
        assert not f.hand and not f.moving, f"frame {k} read while a hand was in view or something moved"


def test_restarts_and_read_now_taps_do_not_record_the_same_dice_again(sequence, tmp_path):
    seq = sequence
    windows = rest_windows(seq)
    mid = [(start + end) // 2 for start, end, _, _ in windows]
    restart, taps = mid[3], [mid[2], mid[6]]  # the rest after the hand rested; after the white balance, a hover
    with SessionStore(tmp_path / "s.sqlite3") as store:
        _, hub = play(seq, store, TruthReader(seq), 0, restart, taps=[taps[0]])
        assert len(recorded(store)) == 2
        loop, hub = play(seq, store, TruthReader(seq), restart, len(seq.frames), taps=[taps[1]])
        reads = recorded(store)
    assert len(reads) == 4, [e.payload["frame"] for e in reads]
    assert not any(restart <= e.payload["frame"] < windows[3][1] for e in reads), "a restart records nothing"
    assert not any(t <= e.payload["frame"] < t + 3 for t in taps for e in reads), \
        "a tap on the same dice records nothing"


def test_a_settled_roll_is_read_on_its_quiet_frames_not_again_when_still(sequence, tmp_path):
    # While the dice settle the mode reads the first quiet frame where the table changed, and the dice it found again
    # on a later quiet frame: the roll recorded at the still frame is those two looks, not a third read of that frame.
    seq = sequence
    reader, reads = play_through(seq, tmp_path)
    assert len(reads) == 4
    for event in reads:
        still = event.payload["frame"]
        start = next(a for a, b, _, _ in rest_windows(seq) if a <= still < b)
        looked = [k for k in reader.frames_read if start - 3 <= k <= still]
        assert len(looked) == 2, (still, looked)
        assert looked[0] < still, "the first look is made before the table is still"
        assert looked[0] != looked[1], "the second look is at another quiet frame"


def test_a_die_left_unreadable_is_read_again_with_the_next_change(sequence, tmp_path):
    # A die the reader could not read at the first roll, and that nobody touched since, is read again when the table
    # next changes: the next roll's record holds its value (it is not kept unreadable until its own place changes).
    seq = sequence
    rolls = [(start, k) for start, _, k, changed in rest_windows(seq) if changed]
    (_, first), (second_start, second) = rolls[0], rolls[1]
    untouched = next(p for p in seq.layouts[first] if p.kind == "die" and p in seq.layouts[second])
    hidden = seq.table.box_px(untouched)

    class Unsure(TruthReader):
        def read(self, image):
            r = super().read(image)
            if self.frames_read[-1] >= second_start:
                return r
            return replace(r, dice=tuple(replace(d, value=None) if d.box == hidden else d for d in r.dice))

    with SessionStore(tmp_path / "s.sqlite3") as store:
        play(seq, store, Unsure(seq), 0, len(seq.frames))
        reads = recorded(store)
    assert None in reads[0].payload["values"]
    assert None not in reads[1].payload["values"]
    assert sorted(reads[1].payload["values"]) == sorted(p.value for p in seq.layouts[second] if p.kind == "die")


def test_a_noisy_reader_records_no_restart_and_no_tap_as_a_roll(sequence, tmp_path):
    # A reader that misses a die or misreads a value now and then: a restart and a Read-now tap on dice that did not
    # move record nothing (the box resumes from its last read and reads only where the table changed since), and
    # each roll is still recorded once.
    seq = sequence
    windows = rest_windows(seq)
    mid = [(start + end) // 2 for start, end, _, _ in windows]
    cuts = [0, mid[2], mid[4], mid[6], len(seq.frames)]
    taps = [mid[1], mid[3], mid[5], mid[7]]
    reader = FlickerReader(seq)
    with SessionStore(tmp_path / "s.sqlite3") as store:
        for a, b in zip(cuts, cuts[1:], strict=False):
            play(seq, store, reader, a, b, taps=[t for t in taps if a <= t < b])
        reads = recorded(store)
    rolls = [(start, end) for start, end, _, changed in windows if changed]
    frames = [e.payload["frame"] for e in reads]
    assert len(reads) == len(rolls), frames
    for (start, end), f in zip(rolls, frames, strict=True):
        assert start <= f < end, f"frame {f}: not the rest of a roll"
    for k in reader.frames_read:
        assert not seq.frames[k].hand and not seq.frames[k].moving, f"frame {k} read with a hand or motion"


def test_a_restart_resumes_from_the_last_read_and_reads_only_a_change(tmp_path):
    # The box keeps what it saw at its last read: restarted on the same dice it reads nothing; after a re-roll while it
    # was off, it reads (and records) the change; after an Undo it is the same table the camera saw: as a running box
    # after an Undo, a restarted one neither reads nor records it again (a "Read now" would).
    table = dice_tray(9, 4, SIZE)
    seq = play_sequence(table, ["reroll"], seed=9, fps=FPS, rest=(1.0, 1.2))
    (s0, e0, _, _), (s1, e1, _, _) = rest_windows(seq)
    with SessionStore(tmp_path / "s.sqlite3") as store:
        reader = TruthReader(seq)
        play(seq, store, reader, 0, e0)
        assert len(recorded(store)) == 1
        reader.frames_read.clear()
        play(seq, store, reader, s0 + 2, e0)  # the same dice: nothing read
        assert reader.frames_read == [] and len(recorded(store)) == 1
        play(seq, store, reader, s1 + 1, e1)  # the die re-rolled while the box was off
        reads = recorded(store)
        assert len(reads) == 2 and sorted(reads[-1].payload["values"]) == sorted(
            p.value for p in seq.layouts[-1] if p.kind == "die")
        session = store.resume_latest("d6")
        session.undo(origin="phone")
        reader.frames_read.clear()
        play(seq, store, reader, s1 + 1, e1)
        assert reader.frames_read == [], "after an Undo and a restart the unchanged table is not read"
        assert len(recorded(store)) == 1, "nor is the roll taken back recorded again"


def test_a_kept_read_that_does_not_decode_is_a_whole_read(tmp_path):
    from companion.reading import resume_seen, seen_of
    from vision.observations import Sighting

    detector = table_stillness()
    assert resume_seen(None, detector, 1) is None
    image = dice_tray(5, 4, SIZE).render(frame_seed=1)
    for k in range(6):
        detector.update(image, k / FPS)
    assert detector.became_still or detector.read_reference() is not None
    seen = seen_of(detector, Sighting("d6", SIZE[0], SIZE[1], dice=(die(100, 100, 3),)), events=4)
    assert seen is not None and seen["events"] == 4
    other = table_stillness()
    assert resume_seen(seen, other, 5) is None, "a roll recorded since: stale"
    assert resume_seen(seen, table_stillness(), 3) is not None, "an Undo or a correction since: still the table seen"
    assert resume_seen({**seen, "reference": "not base64!"}, other, 4) is None
    assert resume_seen({**seen, "dice": [{"box": [1, 2]}]}, other, 4) is None
    assert other.read_reference() is None, "nothing half put back"
    resumed = resume_seen(seen, other, 4)
    assert resumed is not None and [d.value for d in resumed.dice] == [3]
    np.testing.assert_array_equal(other.read_reference(), detector.read_reference())
    for k in range(6):  # the same table after the restart: never still for a read
        other.update(image, 10 + k / FPS)
        assert not other.became_still
    assert other.change_boxes() == []


CORRUPT_KEPT = {
    "width too large for an integer": lambda s: {**s, "width": 1e999},
    "width a float": lambda s: {**s, "width": 480.5},
    "height a string": lambda s: {**s, "height": "270"},
    "width a bool": lambda s: {**s, "width": True},
    "dice not a list": lambda s: {**s, "dice": {"a": 1}},
    "reference not a string": lambda s: {**s, "reference": 5},
    "a value off the die": lambda s: {**s, "dice": [{**s["dice"][0], "value": 9}]},
    "a value a float": lambda s: {**s, "dice": [{**s["dice"][0], "value": 2.7}]},
    "a box of infinity": lambda s: {**s, "dice": [{**s["dice"][0], "box": [1e999, 0, 10, 10]}]},
    "a box of no size": lambda s: {**s, "dice": [{**s["dice"][0], "box": [10, 10, 0, -3]}]},
    "a box off the frame": lambda s: {**s, "dice": [{**s["dice"][0], "box": [5000, 10, 20, 20]}]},
    "a confidence not a number": lambda s: {**s, "dice": [{**s["dice"][0], "confidence": float("nan")}]},
    "a confidence above 1": lambda s: {**s, "dice": [{**s["dice"][0], "confidence": 7}]},
    "another kind": lambda s: {**s, "dice": [{**s["dice"][0], "kind": ["d6"]}]},
    "a die not an object": lambda s: {**s, "dice": [3]},
}


@pytest.mark.parametrize("corrupt", CORRUPT_KEPT.values(), ids=CORRUPT_KEPT.keys())
def test_a_kept_read_edited_or_corrupted_on_the_disk_is_a_whole_read(corrupt):
    from companion.reading import resume_seen, seen_of
    from vision.observations import Sighting

    detector = table_stillness()
    image = dice_tray(5, 4, SIZE).render(frame_seed=1)
    for k in range(6):
        detector.update(image, k / FPS)
    seen = seen_of(detector, Sighting("d6", SIZE[0], SIZE[1], dice=(die(100, 100, 3),)), events=4)
    other = table_stillness()
    assert resume_seen(corrupt(seen), other, 4) is None
    assert other.read_reference() is None, "nothing half put back"
    assert resume_seen(seen, other, 4) is not None


def test_a_box_starts_on_a_corrupt_kept_read_and_reads_the_table_whole(tmp_path):
    # what the camera saw, kept in box_state, with a width no integer holds (JSON's 1e999): the box still starts
    import sqlite3

    table = dice_tray(9, 4, SIZE)
    seq = play_sequence(table, ["reroll"], seed=9, fps=FPS, rest=(1.0, 1.2))
    (s0, e0, _, _), _ = rest_windows(seq)
    path = tmp_path / "s.sqlite3"
    with SessionStore(path) as store:
        play(seq, store, TruthReader(seq), 0, e0)
        assert len(recorded(store)) == 1
    with sqlite3.connect(path) as conn:
        ((key, value),) = conn.execute("SELECT key, value FROM box_state WHERE key LIKE 'seen:%'").fetchall()
        conn.execute("UPDATE box_state SET value = ? WHERE key = ?", (value.replace('"width":', '"width":1e999,"w":'),
                                                                       key))
    with SessionStore(path) as store:
        reader = TruthReader(seq)
        play(seq, store, reader, s0 + 2, e0)
        assert reader.frames_read, "nothing to resume from: the still table is read whole"
        assert len(recorded(store)) >= 1


def test_read_now_on_the_same_dice_says_same_as_before(tmp_path):
    image = dice_tray(5, 4, SIZE).render(frame_seed=1)
    frames = [image] * 20

    class Fixed:
        def read(self, frame):
            return DiceRead(frame.shape[1], frame.shape[0], (die(100, 100, 3), die(200, 120, 5)), {})

    with SessionStore(tmp_path / "s.sqlite3") as store:
        session = store.start("d6", {})
        hub = StateHub()
        loop = MainLoop(source=FakeCamera(frames), reader=Fixed(), session=session, hub=hub,
                        stillness=table_stillness(), stop_at_end=True, sleep=lambda s: None)
        loop.run(max_frames=8)
        assert session.last_seq == 1
        hub.post_action("read_now", origin="phone")
        loop.run(max_frames=10)
        assert session.last_seq == 1
        assert hub.snapshot().view["status"]["message"] == "same as before: 3 5"
        # after an Undo the same dice are a roll again (the record they equalled is withdrawn)
        hub.post_action("undo", origin="phone")
        hub.post_action("read_now", origin="phone")
        loop.run(max_frames=12)
        assert [e.kind for e in session.events()] == ["dice_read", "undo", "dice_read"]


def test_the_detector_reads_no_light_or_white_balance_step_and_blocks_a_resting_hand(sequence):
    detector = StillnessDetector(LOOP_MOTION)
    reads = []
    for k, f in enumerate(sequence.frames):
        detector.update(f.image, f.t)
        if detector.became_still:
            reads.append(k)
    changed = [start for start, _, _, ch in rest_windows(sequence) if ch]
    assert len(reads) == len(changed)
    for k in reads:
        assert not sequence.frames[k].hand and not sequence.frames[k].moving


def test_the_change_boxes_after_a_white_balance_step_hold_only_the_die_rolled():
    table = dice_tray(8, 5, SIZE)
    seq = play_sequence(table, ["white_balance", "light", "reroll"], seed=8, fps=FPS, rest=(0.8, 1.0))
    detector = StillnessDetector(LOOP_MOTION)
    boxes = []
    for f in seq.frames:
        detector.update(f.image, f.t)
        if detector.became_still:
            boxes.append(detector.change_boxes())
    assert boxes[0] is None and len(boxes) == 2, "the first read, then the re-roll only"
    moved = [p for p in seq.layouts[-1] if p not in seq.layouts[0]]
    x, y, w, h = table.box_px(moved[0])
    assert boxes[1] and all(bw * bh < 0.1 * SIZE[0] * SIZE[1] for _, _, bw, bh in boxes[1])
    assert any(bx <= x + w / 2 <= bx + bw and by <= y + h / 2 <= by + bh for bx, by, bw, bh in boxes[1])


def test_the_real_reader_records_one_roll_for_one_roll(tmp_path):
    # The real d6 reader on a short sequence: a resting hand and a white-balance step are no rolls.
    from vision import D6Reader

    seq = play_sequence(dice_tray(12, 5, (640, 360)), ["hand_rest", "white_balance", "roll"], seed=12, fps=FPS,
                        rest=(0.8, 1.0))
    with SessionStore(tmp_path / "s.sqlite3") as store:
        play(seq, store, D6Reader(), 0, len(seq.frames))
        reads = recorded(store)
    rolls = [start for start, _, _, ch in rest_windows(seq) if ch]
    assert len(reads) == len(rolls) == 2
    assert not any(seq.frames[e.payload["frame"]].hand for e in reads)


# -- the camera's light, a video's frame rate ---------------------------------------------------------------


class LightCamera(FakeCamera):
    """A fake camera that notes when it is asked to hold its exposure and white balance."""

    def __init__(self, frames, **kw) -> None:
        super().__init__(frames, **kw)
        self.holds: list[bool] = []

    def hold_light(self, hold: bool) -> None:
        self.holds.append(hold)


def test_the_loop_holds_the_light_while_the_table_is_still_and_lets_it_go_when_it_moves(tmp_path):
    table = dice_tray(3, 4, SIZE)
    still = [table.render(frame_seed=k) for k in range(12)]
    moved = replace(table.pieces[0], centre_mm=(table.pieces[0].centre_mm[0] + 40, table.pieces[0].centre_mm[1]))
    after = [table.render([moved, *table.pieces[1:]], frame_seed=100 + k) for k in range(12)]
    camera = LightCamera(still + after, fps=10.0)

    class Nothing:
        def read(self, frame):
            return DiceRead(frame.shape[1], frame.shape[0], (die(100, 100, 3),), {})

    with SessionStore(tmp_path / "s.sqlite3") as store:
        loop = MainLoop(source=camera, reader=Nothing(), session=store.start("d6", {}), hub=StateHub(),
                        stillness=table_stillness(), stop_at_end=True, sleep=lambda s: None)
        loop.run()
    assert camera.holds[:3] == [True, False, True]


def test_a_video_replays_at_its_own_frame_rate_each_frame_once(tmp_path):
    from companion.commands.box import replay_options
    from device import open_source

    path = tmp_path / "table.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 25.0, (64, 48))
    for k in range(12):
        writer.write(np.full((48, 64, 3), 10 * k, np.uint8))
    writer.release()
    options = replay_options(str(path), hold=4.0, loop=False, realtime=False)
    assert options["hold_frames"] == 1 and options["fps"] is None
    source = open_source(str(path), **options)
    with source:
        frames = list(source)
    assert len(frames) == 12, "125 frames stay 125: no --hold per video frame"
    assert frames[1].timestamp == pytest.approx(1 / 25.0)
    photos = replay_options(str(tmp_path), hold=2.0)
    assert photos["hold_frames"] == 20 and photos["fps"] == 10.0
