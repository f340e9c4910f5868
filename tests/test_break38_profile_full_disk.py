"""A dice profile enrolled again over the owner's (``companion enroll roll-dice DIR``) on a disk that fills up keeps
the profile that was there: before, its arrays file was opened for writing first, so a full card left it cut short,
its hash no longer matched the JSON beside it, and the profile no longer loaded. Now each file goes to a spare file
beside it and takes its place only once whole, the arrays first. The full disk is the mocked write of
tests/test_break38_full_disk.py."""

from __future__ import annotations

import errno

import numpy as np
import pytest

from tests.test_break38_full_disk import _fill_up
from vision.profiles import DiceProfile


def _profile(level: float) -> DiceProfile:
    pairs = (("white", "explore"), ("red", "settle"))
    return DiceProfile(("white", "red"), ("explore", "settle"), pairs, np.full((2, 3), level), pairs,
                       np.full((2, 22 * 22), level, np.float32), 22)


def test_a_dice_profile_saved_again_on_a_full_disk_keeps_the_one_there(tmp_path, monkeypatch):
    folder = tmp_path / "profiles"
    folder.mkdir()
    path = _profile(0.25).save(folder / "roll.json")
    kept = {p.name: p.read_bytes() for p in folder.iterdir()}
    assert sorted(kept) == ["roll.json", "roll.npz"]
    _fill_up(monkeypatch, folder)
    with pytest.raises(OSError) as raised:
        _profile(0.75).save(path)
    assert raised.value.errno == errno.ENOSPC
    monkeypatch.undo()
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == kept  # both files as they were, no spare file
    loaded = DiceProfile.load(path)
    assert np.all(loaded.templates == np.float32(0.25)) and np.all(loaded.colour_means == 0.25)


def test_a_dice_profile_saved_whole_loads_as_saved(tmp_path):
    path = _profile(0.5).save(tmp_path / "roll")  # the suffix is made .json, the arrays beside it
    assert path.name == "roll.json" and (tmp_path / "roll.npz").is_file()
    loaded = DiceProfile.load(path)
    assert loaded.allowed == (("white", "explore"), ("red", "settle"))
    assert np.all(loaded.templates == np.float32(0.5))
