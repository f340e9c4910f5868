"""Shared fixtures. Keep this small: per-room fixtures belong in the room's own test files."""

from __future__ import annotations

import functools
import os
import sys

# Headless pygame: set before anything imports pygame (no window, no sound card).
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
# The box's configuration file for every test (and every box a test starts): tests/tests-config.toml.
os.environ["TABLETOP_CONFIG"] = os.path.join(os.path.dirname(__file__), "tests-config.toml")

from pathlib import Path  # noqa: E402

import pytest  # noqa: E402

OUTPUT_DIR = Path(__file__).parent / "_output"
"""Screenshots and other artefacts to look at after a run (not committed)."""


@pytest.fixture(autouse=True)
def loops_closed(monkeypatch):
    """Every :class:`companion.app.MainLoop` a test makes is closed after it (:meth:`~companion.app.MainLoop.close`:
    its camera's reading thread ended). A loop a test steps itself (not through ``run``, which closes it) left its
    thread alive to the end of the run (about 200 by the end of a whole run). Only when a test module imported the
    loop (test modules are imported before any test runs)."""
    app = sys.modules.get("companion.app")
    if app is None:
        yield
        return
    made = []
    make = app.MainLoop.__init__

    @functools.wraps(make)  # its name, signature and docstring as they are: tests look at them
    def recorded(self, *args, **kwargs):
        make(self, *args, **kwargs)
        made.append(self)

    monkeypatch.setattr(app.MainLoop, "__init__", recorded)
    yield
    for loop in made:
        try:
            loop.close()
        except Exception:  # noqa: BLE001 -- a test's stand-in camera closed already or without a close of its own
            pass


@pytest.fixture
def output_dir() -> Path:
    """``tests/_output/``, created on demand, for screenshots a person should look at."""
    OUTPUT_DIR.mkdir(exist_ok=True)
    return OUTPUT_DIR


@pytest.fixture
def hub():
    """A fresh :class:`companion.hub.StateHub`."""
    from companion.hub import StateHub

    return StateHub()


@pytest.fixture
def client(hub):
    """A phone that has not joined (no cookie) to ``hub``'s phone view, a Flask test client: it may watch only."""
    from companion.web import create_app

    app = create_app(hub)
    app.testing = True
    return app.test_client()


def _make_view(values: list[int | None], seq: int = 3, history: list[list[int | None]] | None = None, **over) -> dict:
    """A view dict as in docs/contracts.md whose latest roll shows ``values`` (None = unreadable).

    ``history`` lists older rolls' values, newest first; ``over`` replaces top-level keys.
    """

    def roll(vals: list[int | None], n: int) -> dict:
        read = [v for v in vals if v is not None]
        return {
            "seq": n,
            "values": list(vals),
            "counts": {str(face): read.count(face) for face in range(1, 7)},
            "total": sum(read),
            "unreadable": len(vals) - len(read),
            "at": 1000.0 + n,
            "origin": "camera",
        }

    rolls = [roll(values, seq)] + [roll(v, seq - 1 - i) for i, v in enumerate(history or [])]
    view = {
        "session": {"id": "test", "game": "d6", "started_at": 0.0, "source": "fake:test", "events": seq},
        "status": {"camera": "ok", "reader": "read", "message": "read 5 dice"},
        "game": {"game": "d6", "rolls": seq, "latest": rolls[0], "history": rolls},
        "dice": [],
        "frame": {"width": 640, "height": 480, "index": 42},
        "findings": [],
        "phone_url": "http://192.168.1.20:8080/",
    }
    view.update(over)
    return view


@pytest.fixture
def make_view():
    """Factory for view dicts: ``make_view([6, 6, 4, None], seq=3, history=[[1, 2]], findings=[...])``."""
    return _make_view


@pytest.fixture
def store(tmp_path):
    """A :class:`companion.session.SessionStore` on ``tmp_path / "box.sqlite3"``, closed after the test."""
    from companion.session import SessionStore

    with SessionStore(tmp_path / "box.sqlite3") as s:
        yield s
