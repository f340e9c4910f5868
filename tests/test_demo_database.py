"""The demo's database: every clone on a machine shared one (``demo.sqlite3`` in the user's data directory), so one
clone's demo showed another's games and a second demo waited on the first's lock. Each checkout now has its own in
the shared folder; a data folder given to a configuration keeps ``demo.sqlite3`` in it (that folder is its own)."""

from __future__ import annotations

import platformdirs
import pytest

from companion import paths
from companion.cli import main


@pytest.fixture
def shared(tmp_path, monkeypatch):
    """No data folder given: the user's data directory (here a temporary one) is shared by every clone."""
    monkeypatch.delenv(paths.DATA_DIR_ENV, raising=False)
    folder = tmp_path / "share" / "tabletop-companion"
    monkeypatch.setattr(platformdirs, "user_data_dir", lambda name: str(folder))
    return folder


def test_each_checkout_has_its_own_demo_database_in_the_shared_folder(shared, monkeypatch, tmp_path):
    ours = paths.demo_db_path()
    assert ours.parent == shared and ours.name.startswith("demo-") and ours.suffix == ".sqlite3"
    assert ours != paths.default_db_path() and ours == paths.demo_db_path()  # the same on every call
    named = {}
    for clone in ("clone-a", "clone-b", "other/clone-a"):
        monkeypatch.setattr(paths, "__file__", str(tmp_path / clone / "companion" / "paths.py"))
        named[clone] = paths.demo_db_path()
    assert len(set(named.values())) == 3  # two folders of the same name elsewhere are two checkouts too
    assert named["clone-a"].name.startswith("demo-clone-a-") and named["clone-b"].name.startswith("demo-clone-b-")
    assert all(path.parent == shared for path in named.values())


def test_a_data_folder_given_keeps_demo_sqlite3_in_it(tmp_path, monkeypatch):
    monkeypatch.setenv(paths.DATA_DIR_ENV, str(tmp_path / "box"))
    assert paths.demo_db_path() == tmp_path / "box" / "demo.sqlite3"


def test_sessions_and_export_demo_name_this_checkouts_database(shared, capsys):
    assert main(["sessions", "--demo"]) == 3
    err = capsys.readouterr().err
    assert str(paths.demo_db_path()) in err and "\n" not in err.strip()
    assert main(["export", "--json", str(shared / "g.json")]) == 3  # the box's: it names where the demo's games are
    err = capsys.readouterr().err
    assert str(paths.default_db_path()) in err and str(paths.demo_db_path()) in err
