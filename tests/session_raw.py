"""Shared pieces of the session log tests: the read payload they append (``read``) and an independent
connection to look into a session file (``raw``)."""

from __future__ import annotations

import sqlite3
from pathlib import Path


def read(values, image=None):
    return {"values": values, "image": image}


def raw(db: Path) -> sqlite3.Connection:
    """An independent connection, to check what is really in the file."""
    return sqlite3.connect(str(db))
