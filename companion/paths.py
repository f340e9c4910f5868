"""Where the box keeps its files on disk."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

__all__ = ["APP_NAME", "DATA_DIR_ENV", "data_dir", "default_db_path"]

APP_NAME = "tabletop-companion"
DATA_DIR_ENV = "TABLETOP_DATA_DIR"
"""Environment variable that, when set and non-empty, replaces the platform data directory."""


def data_dir() -> Path:
    """The directory for the session database and profiles, created if missing.

    ``$TABLETOP_DATA_DIR`` when set (``~`` expanded), else platformdirs'
    ``user_data_dir("tabletop-companion")`` (``~/.local/share/tabletop-companion`` on the Pi).

    Raises:
        OSError: the directory cannot be created (read-only file system, permissions).
    """
    override = os.environ.get(DATA_DIR_ENV, "").strip()
    path = Path(override).expanduser() if override else Path(platformdirs.user_data_dir(APP_NAME))
    path.mkdir(parents=True, exist_ok=True)
    return path


def default_db_path() -> Path:
    """``data_dir() / "sessions.sqlite3"``: the session log the box uses unless told otherwise."""
    return data_dir() / "sessions.sqlite3"
