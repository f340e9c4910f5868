"""A dice profile or a deck file whose "version" is not a whole number (1.5, "1", true) is refused naming the file
and the field; before, ``int(...)`` took 1.5 as 1 and loaded a file no version of the program wrote."""

from __future__ import annotations

import io
import json

import numpy as np
import pytest

from vision.deck_file import NotADeck
from vision.profiles import DiceProfile, ProfileError


def _profile() -> DiceProfile:
    pairs = (("white", "explore"), ("red", "settle"))
    return DiceProfile(("white", "red"), ("explore", "settle"), pairs, np.full((2, 3), 0.5), pairs,
                       np.full((2, 22 * 22), 0.5, np.float32), 22)


@pytest.mark.parametrize("version", [1.5, 0.5, "1", True])
def test_a_dice_profile_version_that_is_no_whole_number_is_refused(tmp_path, version):
    path = _profile().save(tmp_path / "mine.json")
    meta = json.loads(path.read_text())
    meta["version"] = version
    path.write_text(json.dumps(meta))
    with pytest.raises(ProfileError) as refused:
        DiceProfile.load(path)
    assert str(path) in str(refused.value) and "version" in str(refused.value)


@pytest.mark.parametrize("version", [1, 1.0])
def test_a_dice_profile_of_version_1_loads(tmp_path, version):
    path = _profile().save(tmp_path / "mine.json")
    meta = json.loads(path.read_text())
    meta["version"] = version
    path.write_text(json.dumps(meta))
    loaded = DiceProfile.load(path)
    assert loaded.version == 1 and isinstance(loaded.version, int)


def _deck_file(path, version) -> None:
    meta = {"version": version, "name": "race", "aspect": 0.7, "card_mm": [63, 88], "ref_ids": [], "config": {}}
    buf = io.BytesIO()
    np.savez_compressed(buf, meta=np.frombuffer(json.dumps(meta).encode(), np.uint8),
                        struct=np.zeros((0, 4), np.float32), colour=np.zeros((0, 3), np.float32))
    path.write_bytes(buf.getvalue())


@pytest.mark.parametrize(("version", "shown"), [(1.5, "1.5"), (2.25, "2.25"), ("2", '"2"'), (True, "true")])
def test_a_deck_version_that_is_no_whole_number_is_refused_naming_file_and_field(tmp_path, version, shown):
    from vision.deck import DeckProfile

    path = tmp_path / "race.deck.npz"
    _deck_file(path, version)
    with pytest.raises(NotADeck) as refused:
        DeckProfile.load(path)
    assert str(refused.value) == (f'{path}: its "version" is {shown}, not a whole number: not a deck profile saved by '
                                  "`companion enroll cards`")


def test_the_refusal_is_said_in_the_players_language(tmp_path):
    from companion.i18n import say
    from vision.deck import DeckProfile

    path = tmp_path / "race.deck.npz"
    _deck_file(path, 1.5)
    with pytest.raises(NotADeck) as refused:
        DeckProfile.load(path)
    assert say(refused.value, "pl") == (f'{path}: jego "version" to 1.5, a nie liczba całkowita: to nie jest profil '
                                        "talii zapisany przez `companion enroll cards`")
