"""The d6 mode replaying photos over a session whose older rolls were recorded before photos carried their bytes'
digest: such a roll counts as its photo's when recorded after the file last changed. A roll whose stored time is
no time (a text such as 'noon', bytes, Infinity, before 1970: a database changed by hand or damaged) raised
TypeError in ``event.at >= changed`` on every read of that photo; now it counts by its path, is logged once, and
stays as recorded, and the box carries on."""

from __future__ import annotations

import logging
import sqlite3

import numpy as np
import pytest

from companion.app import MainLoop
from companion.hub import StateHub
from companion.session import SessionStore
from device import FakeCamera, Frame
from tests.test_app import ScriptedReader, scene, scenes
from vision import DiceRead, DieObservation
from vision.motion import StillnessDetector


class PhotoCamera(FakeCamera):
    """A replay whose frames all come from one photo file (``current_file``, as ``device.ReplaySource`` says)."""

    def __init__(self, frames, photo):
        super().__init__(frames)
        self.current_file = photo


def old_roll(db, photo, value: int, at) -> None:
    """Session ``db`` with one d6 roll of ``photo`` as an older box recorded it (its path, no digest), its time
    then set to ``at`` in the file (``at`` an SQL literal)."""
    with SessionStore(db) as store:
        session = store.start("d6", {})
        die = DieObservation(kind="d6", value=value, box=(18 * value, 50, 20, 20), confidence=0.97)
        read = DiceRead(width=160, height=120, dice=(die,), timings_ms={})
        frame = Frame(scene(value), 0.0, 0, "replay")
        from companion.modes.dice import dice_read_payload

        session.append("dice_read", dice_read_payload(read, frame, str(photo)), origin="camera")
    conn = sqlite3.connect(db)
    with conn:
        conn.execute(f"UPDATE events SET at = {at}")
    conn.close()


def run(db, photo, *values: int):
    """Replay ``photo`` showing the dice ``values`` (one still scene each) on the session of ``db``; its events."""
    with SessionStore(db) as store:
        (info,) = store.list_sessions()
        session = store.get(info.id)
        loop = MainLoop(source=PhotoCamera(scenes(*values), str(photo)), reader=ScriptedReader(), session=session,
                        hub=StateHub(), stillness=StillnessDetector(), stop_at_end=True, sleep=lambda s: None)
        stats = loop.run()
        return stats, [(e.seq, e.kind, e.at, dict(e.payload)) for e in session.events()]


@pytest.mark.parametrize("at", ["'noon'", "X'00ff'", "9e999", "-1"])
def test_a_roll_whose_time_is_no_time_counts_by_its_photo_and_nothing_is_lost(tmp_path, at, caplog):
    db, photo = tmp_path / "box.sqlite3", tmp_path / "roll-3.jpg"
    photo.write_bytes(b"photo of a 3")
    old_roll(db, photo, 3, at)
    with SessionStore(db) as store:
        (info,) = store.list_sessions()
        before = [(e.seq, e.at, dict(e.payload)) for e in store.get(info.id).events()]
    with caplog.at_level(logging.INFO, logger="companion.modes.dice"):
        stats, events = run(db, photo, 3, 3)
    assert len(stats.read_ms) == 1 and stats.reads == 0             # read, not recorded: the box did not stop
    assert [(seq, at_, payload) for seq, _, at_, payload in events] == before  # the old roll kept, nothing added
    said = [r.getMessage() for r in caplog.records if "no valid time" in r.getMessage()]
    assert len(said) == 1 and said[0].startswith("event 1 (a roll of roll-3.jpg) has no valid time (")
    assert any("roll-3.jpg: already recorded in this session" in r.getMessage() for r in caplog.records)


def test_another_photo_is_recorded_beside_a_roll_whose_time_is_no_time(tmp_path):
    db, old, new = tmp_path / "box.sqlite3", tmp_path / "roll-3.jpg", tmp_path / "roll-5.jpg"
    old.write_bytes(b"photo of a 3")
    new.write_bytes(b"photo of a 5")
    old_roll(db, old, 3, "'noon'")
    _, events = run(db, new, 5)
    assert [(seq, kind) for seq, kind, _, _ in events] == [(1, "dice_read"), (2, "dice_read")]
    assert events[0][2] == "noon" and events[0][3]["image"] == str(old)   # the old roll as it was stored
    assert events[1][3]["values"] == [5] and events[1][3]["image"] == str(new)
    assert events[1][3]["image_sha256"] and isinstance(events[1][2], float)


def test_a_roll_with_a_good_time_still_counts_only_when_recorded_after_the_photo_changed(tmp_path):
    """The rule the time is for, unchanged: a roll recorded before its photo was replaced is no roll of the new
    photo, which is recorded; one recorded after is, and nothing is recorded again."""
    db, photo = tmp_path / "box.sqlite3", tmp_path / "roll.jpg"
    photo.write_bytes(b"a roll")
    old_roll(db, photo, 3, 1.0)                                     # recorded in 1970: before the file was written
    _, events = run(db, photo, 4)
    assert [e[3]["values"] for e in events] == [[3], [4]]
    db2 = tmp_path / "box2.sqlite3"
    old_roll(db2, photo, 3, 4102444800.0)                           # recorded in 2100: after the file was written
    _, events = run(db2, photo, 4)
    assert [e[3]["values"] for e in events] == [[3]]
    assert np.isclose(events[0][2], 4102444800.0)
