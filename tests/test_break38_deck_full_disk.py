"""A deck enrolled again over the owner's deck (``companion enroll cards DECK DIR``) on a disk that fills up keeps
the deck that was there: before, the save opened the old file for writing first, so a full card left it cut short
and the deck no longer loaded. Now the new deck goes to a spare file beside it and takes its place only once whole.
The full disk is the mocked write of tests/test_break38_full_disk.py."""

from __future__ import annotations

import errno

import pytest

from tests.test_break38_full_disk import _fill_up


def test_a_deck_saved_again_on_a_full_disk_keeps_the_deck_there(tmp_path, monkeypatch):
    from vision.deck import DeckProfile
    from vision.deck_enroll import build_deck_from_images
    from vision.synth_table import GAME_SHAPES, reference_images

    ids = [f"race_{k:02d}" for k in range(3)]
    deck = build_deck_from_images(reference_images(ids, GAME_SHAPES["race"]), "race", card_mm=GAME_SHAPES["race"],
                                  kind="scan")
    folder = tmp_path / "decks"
    folder.mkdir()
    path = deck.save(folder / "race.npz")
    before = path.read_bytes()
    _fill_up(monkeypatch, folder)
    with pytest.raises(OSError) as raised:
        deck.save(path)
    assert raised.value.errno == errno.ENOSPC
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert sorted(p.name for p in folder.iterdir()) == ["race.npz"]
    assert sorted(DeckProfile.load(path).ref_ids) == sorted(deck.ref_ids)
