"""``companion enroll cards``, ``companion read --cards --json`` (exact shape) and ``companion print-mat``."""

from __future__ import annotations

import json
import os
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main

SHARED = Path(os.environ.get("TABLETOP_SHARED", Path(__file__).resolve().parents[1].parent / "shared"))
SET = SHARED / "datasets" / "set_cards_tableau"
CARD_KEYS = {"id", "corners", "center_mm", "rotation_deg", "row", "col", "cell", "zone", "confidence"}


@pytest.mark.slow
@pytest.mark.skipif(not SET.is_dir(), reason=f"shared SET card photos not found at {SET} (set TABLETOP_SHARED)")
def test_enroll_set_deck_and_read_a_real_board(tmp_path, capsys):
    deck = tmp_path / "set.npz"
    assert main(["enroll", "cards", str(deck), str(SET / "card_crops_labelled_sample")]) == 0
    board = SET / "boards" / "webcam_20170529_184024.png"
    capsys.readouterr()
    # The webcam boards are mirror images (a selfie-mode webcam); the crops are not.
    assert main(["read", str(board), "--cards", str(deck), "--json", "--mirror", "auto"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert set(record) >= {"image", "cards"} and record["image"] == str(board)
    labels = [line.strip() for line in (board.with_suffix(".txt")).read_text().splitlines() if line.strip()]
    assert len(record["cards"]) == len(labels)
    for card in record["cards"]:
        assert set(card) == CARD_KEYS
        assert len(card["corners"]) == 4 and all(len(p) == 2 for p in card["corners"])
        assert 0.0 <= card["confidence"] <= 1.0
    # Folder ids spell "2-red-solid-ovals", the board labels "2 red solid ovals"; SET boards repeat no card.
    identified = [c["id"].replace("-", " ") for c in record["cards"] if c["id"] is not None]
    assert len(set(identified) & set(labels)) >= 0.75 * len(labels)
    assert not [c for c in record["cards"] if c["confidence"] >= 0.9 and c["id"].replace("-", " ") not in labels]


@pytest.mark.slow
@pytest.mark.skipif(not SET.is_dir(), reason=f"shared SET card photos not found at {SET} (set TABLETOP_SHARED)")
def test_without_mirror_the_mirror_is_decided_once_and_said(tmp_path, capsys):
    """Issue 16: enrolled from one camera and read with a selfie webcam, the default read never fails silently --
    the mirror is decided on the first board whose cards tell and kept for the next ones (said once on stderr)."""
    deck = tmp_path / "set.npz"
    assert main(["enroll", "cards", str(deck), str(SET / "card_crops_labelled_sample")]) == 0
    boards = [SET / "boards" / "webcam_20170529_184024.png", SET / "boards" / "webcam_20170529_203823.png"]
    capsys.readouterr()
    assert main(["read", *map(str, boards), "--cards", str(deck), "--json"]) == 0
    out = capsys.readouterr()
    assert out.err.count("read as mirror images") == 1, out.err
    for board, line in zip(boards, out.out.splitlines(), strict=True):
        record = json.loads(line)
        labels = [t.strip() for t in board.with_suffix(".txt").read_text().splitlines() if t.strip()]
        identified = {c["id"].replace("-", " ") for c in record["cards"] if c["id"] is not None}
        assert len(identified & set(labels)) >= 0.9 * len(labels), (board.name, identified)


def test_print_mat_png(tmp_path, capsys):
    out = tmp_path / "mat.png"
    assert main(["print-mat", str(out)]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_missing_deck_is_named(tmp_path, capsys):
    assert main(["read", "x.jpg", "--cards", str(tmp_path / "nope.npz")]) == 3
    assert "nope.npz" in capsys.readouterr().err


def test_enroll_cards_never_writes_outside_a_deck(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path / "data"))
    refs = tmp_path / "refs"
    (refs / "a").mkdir(parents=True)
    photo = tmp_path / "photo.jpg"
    photo.write_bytes(b"\xff\xd8 my holiday photo")
    # a path that is not .npz, and a name climbing out of the decks folder: refused (usage, exit 2)
    assert main(["enroll", "cards", str(photo), str(refs)]) == 2
    assert main(["enroll", "cards", "../../evil", str(refs)]) == 2
    err = capsys.readouterr().err
    assert err.count("give a deck name") == 2
    assert photo.read_bytes() == b"\xff\xd8 my holiday photo"
    # an existing .npz that is not a deck is not overwritten
    other = tmp_path / "other.npz"
    other.write_bytes(b"not a deck")
    assert main(["enroll", "cards", str(other), str(refs)]) == 1
    assert "exists and is not a deck: not overwritten" in capsys.readouterr().err
    assert other.read_bytes() == b"not a deck"


def test_reading_with_a_file_that_is_not_a_deck_says_so_without_numpy_advice(tmp_path, capsys):
    other = tmp_path / "roll.npz"
    other.write_text('{"format": "roll-dice"}')
    img = tmp_path / "blank.png"
    cv2.imwrite(str(img), np.full((60, 80, 3), 120, np.uint8))
    assert main(["read", str(img), "--cards", str(other)]) == 2  # no deck at all: a bad command line (README)
    err = capsys.readouterr().err
    assert "not a deck profile saved by `companion enroll cards`" in err and "allow_pickle" not in err


def test_a_deck_copied_short_or_with_a_foreign_header_is_named_in_one_line(tmp_path, capsys):
    # a .npz cut short (a copy stopped half-way), and .npz files whose header is JSON but not a deck's
    whole = tmp_path / "whole.npz"
    np.savez_compressed(whole, meta=np.frombuffer(b'{"version": 1}', np.uint8), struct=np.zeros((4, 8), np.float32),
                        colour=np.zeros((4, 8), np.float32))
    cut = tmp_path / "cut.npz"
    cut.write_bytes(whole.read_bytes()[: whole.stat().st_size // 2])
    listed = tmp_path / "listed.npz"
    np.savez(listed, meta=np.frombuffer(b"[1, 2]", np.uint8), struct=np.zeros(2), colour=np.zeros(2))
    img = tmp_path / "blank.png"
    cv2.imwrite(str(img), np.full((60, 80, 3), 120, np.uint8))
    deep = tmp_path / "deep.npz"  # a header of lists nested deeper than the JSON parser goes: it raised a traceback
    np.savez(deep, meta=np.frombuffer(b"[" * 100_000, np.uint8), struct=np.zeros(2), colour=np.zeros(2))
    for deck, why in ((cut, "cut short or damaged"), (whole, 'its header has no "config"'), (listed, "(header)"),
                      (deep, "(its header is nested too deeply)")):
        assert main(["read", str(img), "--cards", str(deck)]) == 2  # no deck at all: a bad command line
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err
        assert "not a deck profile saved by `companion enroll cards`" in err and why in err


def _deck_saved_as(deck, crops: dict, version: int):
    """Enroll ``crops`` into ``deck`` and rewrite its header's format ``version`` (a deck of another program)."""
    from vision.deck_enroll import deck_from_crops

    saved = dict(np.load(deck_from_crops(crops, deck.stem, 150 / 96, (63.0, 98.0)).save(deck)))
    meta = json.loads(bytes(saved["meta"]).decode())
    meta["version"] = version
    saved["meta"] = np.frombuffer(json.dumps(meta).encode(), np.uint8)
    np.savez(deck, **saved)
    return deck


def _blank_photo(tmp_path):
    img = tmp_path / "blank.png"
    cv2.imwrite(str(img), np.full((60, 80, 3), 120, np.uint8))
    return img


@pytest.mark.parametrize("version", [0, 1])
def test_a_card_deck_of_an_older_format_asks_to_enroll_again_and_is_replaced_by_enrolling(tmp_path, capsys, version):
    # 1: features computed at the crop's size, the format before this program's; 0: older still
    rng = np.random.default_rng(2)
    refs = tmp_path / "refs"
    crops = {}
    for name in ("a", "b"):
        (refs / name).mkdir(parents=True)
        crops[name] = [rng.integers(0, 255, (150, 96, 3), dtype=np.uint8)]
        cv2.imwrite(str(refs / name / "scan.png"), crops[name][0])
    deck = _deck_saved_as(tmp_path / "old.npz", crops, version)
    img = _blank_photo(tmp_path)
    assert main(["read", str(img), "--cards", str(deck)]) == 3
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert str(deck) in err and "enroll it again" in err and f"companion enroll cards {deck} DIR" in err
    # enrolling again over it replaces it (it is a deck, not another program's file)
    assert main(["enroll", "cards", str(deck), str(refs)]) == 0
    assert main(["read", str(img), "--cards", str(deck)]) == 0


def test_a_deck_of_a_newer_format_names_itself_once_and_asks_for_an_update(tmp_path, capsys):
    from vision.deck_file import DECK_VERSION

    rng = np.random.default_rng(4)
    deck = _deck_saved_as(tmp_path / "new.npz", {"a": [rng.integers(0, 255, (150, 96, 3), dtype=np.uint8)]},
                          DECK_VERSION + 1)
    assert main(["read", str(_blank_photo(tmp_path)), "--cards", str(deck)]) == 3
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.count(str(deck)) == 1 and "newer" in err and "update" in err


def test_an_empty_photo_in_an_enrollment_folder_is_named_as_empty(tmp_path, capsys):
    # a copy that failed leaves a 0-byte photo: enrolling names it as a replay does ("is empty (0 bytes)"), not as
    # an image the decoder "cannot read", and saves nothing
    rng = np.random.default_rng(3)
    refs = tmp_path / "refs"
    (refs / "a").mkdir(parents=True)
    cv2.imwrite(str(refs / "a" / "scan.png"), rng.integers(0, 255, (150, 96, 3), dtype=np.uint8))
    (refs / "a" / "copy.jpg").write_bytes(b"")
    deck = tmp_path / "mine.npz"
    assert main(["enroll", "cards", str(deck), str(refs)]) == 1
    err = capsys.readouterr().err
    empty = refs / "a" / "copy.jpg"
    assert err.strip() == f"companion enroll: image {empty} is empty (0 bytes): copy it again or delete it"
    assert not deck.exists()
    dice = tmp_path / "dice"
    (dice / "white-explore").mkdir(parents=True)
    (dice / "white-explore" / "01.png").write_bytes(b"")
    assert main(["enroll", "roll-dice", str(dice), "--out", str(tmp_path / "p.json")]) == 1
    assert f"image {dice / 'white-explore' / '01.png'} is empty (0 bytes)" in capsys.readouterr().err
    assert not (tmp_path / "p.json").exists()


def test_print_mat_that_cannot_write_its_png_says_the_systems_reason(tmp_path, capsys):
    (tmp_path / "a-file").write_text("not a folder")
    out = tmp_path / "a-file" / "sheet.png"
    assert main(["print-mat", str(out)]) == 1
    assert capsys.readouterr().err.strip() == f"companion print-mat: cannot write {out}: a file is where a folder " \
                                               "should be"
    from companion import i18n  # in the command's language, the system's reason too (not "Not a directory")

    assert main(["--language", "hu", "print-mat", str(out)]) == 1
    err = capsys.readouterr().err.strip()
    reason = i18n.say(i18n.Text("a file is where a folder should be"), "hu")
    assert reason != "a file is where a folder should be" and str(out) in err and err.endswith(reason)
    assert "Not a directory" not in err and "print-mat" in err


def test_print_mat_makes_a_missing_folder_and_never_replaces_a_file_without_force(tmp_path, capsys):
    out = tmp_path / "new" / "folder" / "sheet.png"
    assert main(["print-mat", str(out)]) == 0 and out.read_bytes().startswith(b"\x89PNG")
    photo = tmp_path / "holiday.png"
    photo.write_bytes(b"\x89PNG my holiday photo")
    assert main(["print-mat", str(photo)]) == 1
    assert capsys.readouterr().err.strip() == (f"companion print-mat: {photo} exists: not overwritten (give --force "
                                               "to replace it)")
    assert photo.read_bytes() == b"\x89PNG my holiday photo"
    assert main(["print-mat", str(photo), "--force"]) == 0 and photo.read_bytes() != b"\x89PNG my holiday photo"


def test_a_deck_given_with_json_names_the_deck_file_there_or_the_profile_it_is(tmp_path, capsys, monkeypatch):
    """`--cards x.json` looked for '<data>/decks/x.json.npz': the .npz deck beside it is named, and a dice
    profile given as a deck is said to be one."""
    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path / "data"))
    photo = tmp_path / "t.png"
    cv2.imwrite(str(photo), np.full((64, 64, 3), 90, np.uint8))
    deck = tmp_path / "data" / "decks" / "race.npz"
    deck.parent.mkdir(parents=True)
    deck.write_bytes(b"PK\x03\x04 a deck")
    assert main(["read", str(photo), "--cards", "race.json"]) == 2
    err = capsys.readouterr().err.strip()
    assert f"deck 'race.json': a deck is a .npz file: give {deck}" in err and "json.npz" not in err
    profile = tmp_path / "mine.json"
    profile.write_text(json.dumps({"format": "tabletop-companion/roll-dice-profile", "version": 1}))
    assert main(["read", str(photo), "--cards", str(profile)]) == 2
    assert f"{profile} is a dice profile (for --dice-profile or --profile), not a deck" in capsys.readouterr().err


def test_a_corrupt_photo_in_the_enrollment_folder_is_named_and_skipped(tmp_path, capsys):
    """A truncated photo (a copy cut short, a card going bad) stopped the whole enrollment with 'cannot read image':
    it is named and left out, and the deck is built from the others."""
    rng = np.random.default_rng(3)
    refs = tmp_path / "refs"
    for card in ("a", "b"):
        (refs / card).mkdir(parents=True)
        art = cv2.resize(rng.integers(0, 255, (8, 6, 3), dtype=np.uint8), (300, 420), interpolation=cv2.INTER_NEAREST)
        cv2.imwrite(str(refs / card / "1.png"), art)
    cut = refs / "b" / "2.png"
    cut.write_bytes((refs / "b" / "1.png").read_bytes()[:300])
    deck = tmp_path / "mine.npz"
    assert main(["enroll", "cards", str(deck), str(refs)]) == 0
    captured = capsys.readouterr()
    assert f"companion enroll: skipped {cut}: not a readable image" in captured.err
    assert "saved deck" in captured.out and "(2 cards)" in captured.out and deck.is_file()
