"""A disk that fills up while the box replaces a file it wrote before keeps the file that was there: before, an
export written again over last evening's (``companion export --json game.json``) and a deck enrolled again over the
owner's deck (``companion enroll cards DECK DIR``) opened the old file for writing first, so a full card left it cut
short (the deck no longer loads, the export no longer parses) and the error came after the loss. Now the new content
goes to a spare file beside it and takes its place only once whole.

The full disk is a mocked write: every file opened for writing under the test's folder takes half of what it is
given and then raises ENOSPC, as a card that fills up part way does."""

from __future__ import annotations

import builtins
import errno
import io
import json

from companion.cli import main
from companion.flow import GameFlow
from companion.flows import FLOWS
from companion.player_names import parse_players
from companion.session import SessionStore


class _FillingFile:
    """A file opened for writing on a card with room for half of the next write."""

    def __init__(self, real):
        self._real = real

    def write(self, data):
        self._real.write(data[: len(data) // 2])
        self._real.flush()
        raise OSError(errno.ENOSPC, "No space left on device")

    def __getattr__(self, name):
        return getattr(self._real, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._real.close()
        return False


def _fill_up(monkeypatch, folder):
    real_open = io.open

    def opening(file, mode="r", *args, **kwargs):
        handle = real_open(file, mode, *args, **kwargs)
        name = getattr(handle, "name", file)
        under = isinstance(name, int) or str(folder) in str(name)  # os.fdopen's descriptor: a spare file there
        return _FillingFile(handle) if under and any(m in mode for m in "wax+") else handle

    monkeypatch.setattr(io, "open", opening)
    monkeypatch.setattr(builtins, "open", opening)


def _race_db(db):
    with SessionStore(db) as store:
        session = store.start("race", FLOWS["race"].settings(parse_players("Ann,Bob"), {}))
        GameFlow(session, FLOWS["race"]).report("Ann", "hand", {"cards": 5})


def test_an_export_written_again_on_a_full_disk_keeps_the_one_there(tmp_path, monkeypatch, capsys):
    db, out = tmp_path / "box.sqlite3", tmp_path / "exports" / "game.json"
    out.parent.mkdir()
    _race_db(db)
    assert main(["export", "--db", str(db), "--unfinished", "--json", str(out)]) == 0
    before = out.read_bytes()
    assert json.loads(before)["format"] == "tabletop-companion/game"
    capsys.readouterr()
    _fill_up(monkeypatch, out.parent)
    assert main(["export", "--db", str(db), "--unfinished", "--json", str(out)]) == 1
    err = capsys.readouterr().err
    assert err.endswith(f"companion export: cannot write {out}: the disk is full\n"), err
    monkeypatch.undo()
    assert out.read_bytes() == before  # the export that was there, whole
    assert sorted(p.name for p in out.parent.iterdir()) == ["game.json"]  # no spare file left beside it


def test_a_new_export_on_a_full_disk_leaves_no_half_file(tmp_path, monkeypatch, capsys):
    db, out = tmp_path / "box.sqlite3", tmp_path / "exports" / "play.json"
    out.parent.mkdir()
    _race_db(db)
    _fill_up(monkeypatch, out.parent)
    assert main(["export", "--db", str(db), "--unfinished", "--bgstats", str(out)]) == 1
    assert capsys.readouterr().err.endswith(f"companion export: cannot write {out}: the disk is full\n")
    monkeypatch.undo()
    assert list(out.parent.iterdir()) == []
