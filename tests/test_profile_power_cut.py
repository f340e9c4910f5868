"""A dice profile written again over the owner's is replaced whole or not at all: a power cut (here: the writer
stopped by a mock at each step) between writing its arrays and its JSON leaves the old profile or the new one, and
it loads. Before, the arrays were replaced first and the JSON second, so a cut between the two left a JSON whose
arrays' hash no longer matched: the profile was refused as changed and had to be enrolled again."""

from __future__ import annotations

import numpy as np
import pytest

import vision.profiles as profiles
from vision.profiles import DiceProfile


class PowerCut(BaseException):
    """The power going off: nothing after it runs (not an OSError the writer could catch)."""


def _profile(level: float) -> DiceProfile:
    pairs = (("white", "explore"), ("red", "settle"))
    return DiceProfile(("white", "red"), ("explore", "settle"), pairs, np.full((2, 3), level), pairs,
                       np.full((2, 22 * 22), level, np.float32), 22)


def _cut_after(monkeypatch, steps: int) -> list[str]:
    """Let ``steps`` whole-file writes of a profile happen, then cut the power at the next step (a write, or the
    spare arrays' removal after the last write); returns the names written."""
    real = profiles.write_whole
    done: list[str] = []

    def writing(path, content, **options):
        if len(done) == steps:
            raise PowerCut
        real(path, content, **options)
        done.append(path.name)

    def removing(path):
        raise PowerCut

    monkeypatch.setattr(profiles, "write_whole", writing)
    monkeypatch.setattr(profiles, "_remove_spares", removing)
    return done


def _level(path) -> float:
    loaded = DiceProfile.load(path)
    level = loaded.templates.flat[0]
    assert np.all(loaded.templates == level) and np.all(loaded.colour_means == level)
    return float(loaded.templates.flat[0])


@pytest.mark.parametrize("steps", range(5))
def test_a_profile_cut_at_any_step_of_its_saving_loads_as_the_old_one_or_the_new_one(tmp_path, monkeypatch, steps):
    path = _profile(0.25).save(tmp_path / "roll.json")
    written = _cut_after(monkeypatch, steps)
    with pytest.raises(PowerCut):
        _profile(0.75).save(path)
    monkeypatch.undo()
    level = _level(path)  # loads: never "do not match (changed or corrupt)"
    assert len(written) == steps
    if "roll.json" in written:
        assert level == 0.75  # the JSON naming the new arrays is in: the new profile from that step on
    else:
        assert level == 0.25
    # the next save after the power came back leaves the two files of the profile and nothing else
    _profile(0.5).save(path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["roll.json", "roll.npz"]
    assert _level(path) == 0.5


def test_the_cut_between_the_arrays_and_the_json_keeps_the_old_profile(tmp_path, monkeypatch):
    # the case of the old writer's two steps: the new arrays are on the card, the JSON is not
    path = _profile(0.25).save(tmp_path / "roll.json")
    _cut_after(monkeypatch, 1)
    with pytest.raises(PowerCut):
        _profile(0.75).save(path)
    monkeypatch.undo()
    assert _level(path) == 0.25
    assert (tmp_path / "roll.npz").is_file()  # the old arrays are still where the old JSON names them


def test_a_profile_saved_without_a_cut_is_two_files_named_by_the_profile(tmp_path):
    path = _profile(0.5).save(tmp_path / "mine")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine.json", "mine.npz"]
    assert _level(path) == 0.5
    assert '"arrays": "mine.npz"' in path.read_text()


def test_the_arrays_of_a_profile_whose_name_looks_like_a_spare_are_left_alone(tmp_path):
    other = _profile(0.25).save(tmp_path / "roll.0123456789abcdef.json")  # arrays: roll.0123456789abcdef.npz
    _profile(0.5).save(tmp_path / "roll")
    assert _level(other) == 0.25 and _level(tmp_path / "roll.json") == 0.5
