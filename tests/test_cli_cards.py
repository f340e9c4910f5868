"""``companion enroll cards``, ``companion read --cards --json`` (exact shape) and ``companion print-mat``."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from companion.cli import main

SHARED = Path(os.environ.get("TABLETOP_SHARED", Path(__file__).resolve().parents[1].parent / "shared"))
SET = SHARED / "datasets" / "set_cards_tableau"
CARD_KEYS = {"id", "corners", "center_mm", "rotation_deg", "row", "col", "cell", "zone", "confidence"}


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


def test_print_mat_png(tmp_path, capsys):
    out = tmp_path / "mat.png"
    assert main(["print-mat", str(out)]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_missing_deck_is_named(tmp_path, capsys):
    assert main(["read", "x.jpg", "--cards", str(tmp_path / "nope.npz")]) == 3
    assert "nope.npz" in capsys.readouterr().err
