"""The demo's settings: ``companion demo`` kept its own database but wrote the settings screen's choices (a language
picked on the owner page) to the real box's ``box-settings.json``, so the next ``companion run`` came up in the
demo's language. A demo now keeps its own settings file beside its database, read and written there."""

from __future__ import annotations

import json

import platformdirs
import pytest

from companion import box_settings, i18n, paths
from companion.cli import main

BOX = ["--no-web", "--no-screen", "--no-gpio", "--once", "--fast", "--max-frames", "1"]


@pytest.fixture
def picked(monkeypatch):
    """Every BoxSettings the box makes, each with Greek picked as soon as it is up (as an owner page would)."""
    made: list[tuple[box_settings.BoxSettings, str]] = []

    class Picking(box_settings.BoxSettings):
        def __post_init__(self) -> None:
            super().__post_init__()
            made.append((self, self.language))  # the language it started in
            self.change(box_settings.LANGUAGE, "el")

    monkeypatch.setattr(box_settings, "BoxSettings", Picking)
    yield made
    i18n.set_box_language("en")


def _real_box(folder):
    folder.mkdir(parents=True, exist_ok=True)
    real = folder / box_settings.FILE_NAME
    real.write_text(json.dumps({box_settings.LANGUAGE: "pl", box_settings.SOUND: True}), encoding="utf-8")
    return real


def test_a_language_picked_during_a_demo_leaves_the_real_box_as_it_was(tmp_path, monkeypatch, picked):
    monkeypatch.setenv(paths.DATA_DIR_ENV, str(tmp_path / "box"))
    real = _real_box(tmp_path / "box")
    before = real.read_bytes()
    assert main(["demo", *BOX]) == 0
    assert real.read_bytes() == before  # the box's own choice (Polish) is untouched
    [(settings, started)] = picked
    assert started == "en"  # the demo did not start in the box's Polish either: its own file had none
    assert settings.path == paths.demo_settings_path() and settings.path != real
    assert settings.path.parent == paths.demo_db_path().parent
    assert json.loads(settings.path.read_text(encoding="utf-8"))[box_settings.LANGUAGE] == "el"
    assert main(["demo", *BOX]) == 0  # the next demo starts in the demo's own Greek
    assert picked[1][1] == "el" and real.read_bytes() == before
    from companion.config import load

    assert box_settings.overlay_config(load(None))["box.language"] == "pl"  # what `run` starts in


def test_each_checkout_keeps_its_demo_settings_beside_its_demo_database(tmp_path, monkeypatch):
    monkeypatch.delenv(paths.DATA_DIR_ENV, raising=False)
    folder = tmp_path / "share" / "tabletop-companion"
    monkeypatch.setattr(platformdirs, "user_data_dir", lambda name: str(folder))
    named = set()
    for clone in ("clone-a", "clone-b"):
        monkeypatch.setattr(paths, "__file__", str(tmp_path / clone / "companion" / "paths.py"))
        ours = paths.demo_settings_path()
        assert ours.parent == folder and ours.name == paths.demo_db_path().stem + "-settings.json"
        named.add(ours)
    assert len(named) == 2 and folder / box_settings.FILE_NAME not in named
