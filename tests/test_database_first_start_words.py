"""The log line of a session database opened for the first time says it was created, not "schema 0 -> 4" (a newcomer's
first `./setup.sh run` printed that, read as a change to something of theirs); a file written by an earlier version of
the program says it was brought up to date and that its games are kept; an up-to-date file says nothing."""

from __future__ import annotations

import logging

from companion.session import SCHEMA_VERSION, SessionStore
from tests.session_raw import raw
from tests.test_session_files import V1_SCHEMA


def _lines(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "companion.database"]


def test_a_new_database_is_said_to_be_created(tmp_path, caplog):
    path = tmp_path / "first.sqlite3"
    with caplog.at_level(logging.INFO, logger="companion.database"), SessionStore(path) as store:
        store.start("d6", {})
    assert _lines(caplog) == [f"session database {path}: created (schema {SCHEMA_VERSION})"]
    assert "->" not in " ".join(_lines(caplog))


def test_an_earlier_version_s_file_is_said_to_be_brought_up_to_date(tmp_path, caplog):
    path = tmp_path / "old.sqlite3"
    conn = raw(path)
    for statement in V1_SCHEMA:  # the tables version 1 of the program wrote
        conn.execute(statement)
    conn.commit()
    conn.close()
    with caplog.at_level(logging.INFO, logger="companion.database"), SessionStore(path):
        pass
    assert _lines(caplog) == [f"session database {path}: brought up to date from an earlier version of the program "
                              f"(schema 1 -> {SCHEMA_VERSION}); its games are kept"]


def test_an_up_to_date_file_says_nothing(tmp_path, caplog):
    path = tmp_path / "now.sqlite3"
    with SessionStore(path) as store:
        store.start("d6", {})
    with caplog.at_level(logging.INFO, logger="companion.database"), SessionStore(path):
        pass
    assert _lines(caplog) == []
