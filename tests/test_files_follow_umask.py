"""Decks, dice profiles and files written whole follow the owner's umask as a plain write does: before, decks and
profiles were made 0644 (readable by every user of the machine) whatever the umask said; a file written again keeps
the bits its owner gave it. Bits worked by hand: 0o666 less the umask."""

from __future__ import annotations

import os
import stat

import numpy as np
import pytest

from vision.deck import DeckProfile
from vision.profiles import DiceProfile
from vision.whole_file import BY_UMASK, write_whole


@pytest.fixture
def umask():
    """Set the process's umask for the test (``umask(0o077)``); the old one comes back after it."""
    before = os.umask(0o022)

    def setting(bits: int) -> None:
        os.umask(bits)

    yield setting
    os.umask(before)


def _bits(path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _profile() -> DiceProfile:
    pairs = (("white", "explore"), ("red", "settle"))
    return DiceProfile(("white", "red"), ("explore", "settle"), pairs, np.full((2, 3), 0.5), pairs,
                       np.full((2, 22 * 22), 0.5, np.float32), 22)


def _deck() -> DeckProfile:
    return DeckProfile(name="mine", aspect=1.4, card_mm=(63.0, 88.0), ref_ids=["a", "b"],
                       struct=np.zeros((2, 2, 16), np.float32), colour=np.zeros((2, 8), np.float32))


@pytest.mark.parametrize(("mask", "bits"), [(0o077, 0o600), (0o027, 0o640), (0o022, 0o644), (0o002, 0o664)])
def test_a_new_deck_and_a_new_profile_take_their_bits_from_the_umask(tmp_path, umask, mask, bits):
    umask(mask)
    deck = _deck().save(tmp_path / "mine.npz")
    profile = _profile().save(tmp_path / "roll.json")
    assert _bits(deck) == bits
    assert _bits(profile) == bits and _bits(tmp_path / "roll.npz") == bits
    assert DeckProfile.load(deck).ref_ids == ["a", "b"] and DiceProfile.load(profile) == _profile()


def test_a_deck_and_a_profile_written_again_keep_the_bits_their_owner_gave_them(tmp_path, umask):
    umask(0o022)
    deck = _deck().save(tmp_path / "mine.npz")
    profile = _profile().save(tmp_path / "roll.json")
    for path in (deck, profile, tmp_path / "roll.npz"):
        path.chmod(0o600)  # the owner made them private
    _deck().save(deck)
    _profile().save(profile)
    assert _bits(deck) == 0o600 and _bits(profile) == 0o600 and _bits(tmp_path / "roll.npz") == 0o600


def test_the_writers_other_modes_are_as_they_were(tmp_path, umask):
    umask(0o022)
    write_whole(tmp_path / "settings.json", "{}")  # the box's settings and keys: its user alone
    write_whole(tmp_path / "shot.png", b"png", mode=0o644)  # a picture anyone may look at
    write_whole(tmp_path / "sheet.png", b"png", mode=BY_UMASK)
    assert _bits(tmp_path / "settings.json") == 0o600 and _bits(tmp_path / "shot.png") == 0o644
    assert _bits(tmp_path / "sheet.png") == 0o644
    assert sorted(p.name for p in tmp_path.iterdir()) == ["settings.json", "sheet.png", "shot.png"]  # no spare left


def test_a_mode_of_another_kind_is_a_clear_error_and_writes_nothing(tmp_path):
    with pytest.raises(ValueError, match="mode must be permission bits"):
        write_whole(tmp_path / "x.json", "{}", mode="0644")
    assert list(tmp_path.iterdir()) == []
