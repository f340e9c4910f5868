"""``companion export`` files and ``--screenshot`` pictures follow the owner's umask as decks and dice profiles do: they
were made 0644 (readable by every user of the machine) whatever the umask said; an export written again keeps the bits
its owner gave it. Bits worked by hand: 0o666 less the umask (0o027 -> 0o640, 0o077 -> 0o600)."""

from __future__ import annotations

import json
import os
import stat

import pytest

from companion.cli import main
from companion.flow import GameFlow
from companion.flows import FLOWS
from companion.player_names import parse_players
from companion.screen import TouchScreen
from companion.session import SessionStore


@pytest.fixture
def umask():
    """Set the process's umask for the test; the old one comes back after it."""
    before = os.umask(0o022)
    yield os.umask
    os.umask(before)


def _bits(path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _db(tmp_path):
    db = tmp_path / "sessions.sqlite3"
    with SessionStore(db) as s:
        flow = GameFlow(s.start("race", FLOWS["race"].settings(parse_players("Ann,Bob"), {})), FLOWS["race"])
        flow.report("Ann", "hand", {"cards": 5})
    return db


@pytest.mark.parametrize(("mask", "bits"), [(0o077, 0o600), (0o027, 0o640), (0o002, 0o664)])
def test_a_new_export_takes_its_bits_from_the_umask(tmp_path, umask, mask, bits):
    db = _db(tmp_path)
    umask(mask)
    game, play = tmp_path / "game.json", tmp_path / "play.json"
    assert main(["export", "--db", str(db), "--unfinished", "--json", str(game), "--bgstats", str(play)]) == 0
    assert _bits(game) == bits and _bits(play) == bits


def test_an_export_written_again_keeps_the_bits_its_owner_gave_it(tmp_path, umask):
    db = _db(tmp_path)
    umask(0o022)
    game = tmp_path / "game.json"
    assert main(["export", "--db", str(db), "--unfinished", "--json", str(game)]) == 0
    game.chmod(0o600)  # the owner keeps last evening's export to themselves
    assert main(["export", "--db", str(db), "--unfinished", "--json", str(game)]) == 0
    assert _bits(game) == 0o600 and json.loads(game.read_text(encoding="utf-8"))["format"] == "tabletop-companion/game"


@pytest.mark.parametrize(("mask", "bits"), [(0o077, 0o600), (0o027, 0o640)])
def test_a_screenshot_takes_its_bits_from_the_umask(tmp_path, umask, mask, bits):
    umask(mask)
    screen = TouchScreen(size=(480, 320), phone_url="http://192.168.1.20:8080/")
    screen.render({"mode": "idle"})
    shot = screen.save_png(tmp_path / "shots" / "table.png")
    assert _bits(shot) == bits and shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
