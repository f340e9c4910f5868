"""A session database changed by hand or damaged on the disk, made by a short replay of a real 2-player Race game
and then edited with SQL: a start time that is Infinity, a year past 9999, a text or bytes; settings that are no
JSON, a list, nested deeper than the reader goes, holding a number of 5001 digits, or seats that are a number.
``companion export``, ``companion sessions``, the history (touchscreen and phones) and the phones' downloads say
which value is damaged in one line and go on with the rest; nothing in the file is changed."""

from __future__ import annotations

import json
import shutil
import sqlite3
from datetime import datetime

import pytest

from companion import i18n
from companion.cli import main
from companion.hub import StateHub
from companion.library import Library, export_documents
from companion.session import SessionStore
from tests.phones import joined_phone
from tests.race_games import finished_race


def _strict(text: str):
    def refuse(word):
        raise ValueError(f"{word} is not JSON")
    return json.loads(text, parse_constant=refuse)


@pytest.fixture(scope="module")
def real_db(tmp_path_factory):
    """A finished 2-player Race game (Ann 26: 24 chips and Old Earth; Bob 1: Epsilon Eridani), as the box keeps it."""
    db = tmp_path_factory.mktemp("real") / "box.sqlite3"
    with SessionStore(db) as store:
        flow = finished_race(store)
        return db, flow.session.id, flow.session.events()[0].at


def _damaged(real_db, tmp_path, sql: str):
    db = tmp_path / "box.sqlite3"
    shutil.copy(real_db[0], db)
    with sqlite3.connect(db) as conn:
        conn.execute(sql)
    conn.close()
    return db


def _rows(db):
    with sqlite3.connect(db) as conn:
        rows = (conn.execute("SELECT * FROM sessions").fetchall(), conn.execute("SELECT * FROM events").fetchall())
    conn.close()
    return rows


STARTS = {"Infinity": ("9e999", "inf"), "a year past 9999": ("1e300", "1e+300"),
          "a text": ("'yesterday'", "'yesterday'"), "bytes": ("X'00ff'", "b'\\x00\\xff'")}


@pytest.mark.parametrize("name", list(STARTS))
def test_a_start_time_that_is_no_time_is_named_and_the_rest_exported(name, real_db, tmp_path, capsys):
    """Before: Infinity crashed the BG Stats play's date (OverflowError), a text with a TypeError. Now the record and
    the play are written; one line names the start as stored and says the play is dated by its first event (the
    game's real time) with no length; the scores are as played; the file is unchanged."""
    value, shown = STARTS[name]
    db = _damaged(real_db, tmp_path, f"UPDATE sessions SET started_at = {value}")
    before = _rows(db)
    game, play = tmp_path / "g.json", tmp_path / "p.json"
    assert main(["export", "--db", str(db), "--json", str(game), "--bgstats", str(play)]) == 0
    err = capsys.readouterr().err
    assert "Traceback" not in err
    [line] = [x for x in err.splitlines() if "start time" in x]
    assert real_db[1] in line and f"({shown})" in line and "first event" in line
    bgstats = _strict(play.read_text(encoding="utf-8"))
    assert bgstats["playDate"] == datetime.fromtimestamp(real_db[2]).strftime("%Y-%m-%d %H:%M:%S")
    assert "durationMin" not in bgstats and [p["score"] for p in bgstats["players"]] == [26, 1]
    record = _strict(game.read_text(encoding="utf-8"))
    assert record["winners"] == ["Ann"] and len(record["events"]) == len(before[1])
    assert _rows(db) == before


def test_a_start_and_event_times_that_are_no_time_give_a_play_without_a_date(real_db, tmp_path, capsys):
    """Every time damaged: the play has no date (BG Stats asks for it), said in the phone's or command's language."""
    db = _damaged(real_db, tmp_path, "UPDATE sessions SET started_at = 9e999")
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE events SET at = 'noon'")
    conn.close()
    play = tmp_path / "p.json"
    assert main(["--language", "pl", "export", "--db", str(db), "--bgstats", str(play)]) == 0
    err = capsys.readouterr().err
    assert "(inf)" in err and "nie ma daty ani czasu trwania" in err and "Traceback" not in err
    bgstats = _strict(play.read_text(encoding="utf-8"))
    assert "playDate" not in bgstats and "durationMin" not in bgstats and bgstats["players"][0]["score"] == 26


@pytest.mark.parametrize("name", list(STARTS))
def test_sessions_lists_a_start_that_is_no_time_quoting_it(name, real_db, tmp_path, capsys):
    """``companion sessions``: before, OverflowError or TypeError from ``time.localtime``; now the line quotes the
    value; ``--json`` is JSON other tools read."""
    value, shown = STARTS[name]
    db = _damaged(real_db, tmp_path, f"UPDATE sessions SET started_at = {value}")
    assert main(["sessions", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert f"started no valid time ({shown})" in out and "finished" in out
    assert main(["--language", "hu", "sessions", "--db", str(db)]) == 0
    assert f"érvénytelen időpont ({shown})" in capsys.readouterr().out
    assert main(["sessions", "--db", str(db), "--json"]) == 0
    assert _strict(capsys.readouterr().out)["id"] == real_db[1]


@pytest.mark.parametrize("name", list(STARTS))
def test_the_history_and_the_phones_downloads_take_a_start_that_is_no_time(name, real_db, tmp_path):
    """The history's list (touchscreen and phones; bytes failed keeping its summary) and its date, and the phones'
    downloads of the record and the play: each answers, the date said as no valid time."""
    db = _damaged(real_db, tmp_path, f"UPDATE sessions SET started_at = {STARTS[name][0]}")
    with SessionStore(db) as store:
        [line] = Library(store).past_games()
        assert line["session"] == real_db[1] and line["finished"] and not line.get("unreadable")
        assert i18n.format_datetime(line["started_at"], "short", "el") == f"μη έγκυρη ώρα ({STARTS[name][1]})"
        assert i18n.Moment(line["started_at"]).said("pl") == f"nieprawidłowy czas ({STARTS[name][1]})"
        phone = joined_phone(StateHub(), exports=lambda s: export_documents(store, s))
        for kind in ("json", "bgstats.json"):
            answer = phone.get(f"/export/{real_db[1]}.{kind}")
            assert answer.status_code == 200, answer.get_data(as_text=True)
            _strict(answer.get_data(as_text=True))


SETTINGS = {
    "not JSON": "'not json'",
    "a list": "'[1]'",
    "nested 50000 deep": "'{\"seats\":' || replace(hex(zeroblob(50000)), '00', '[') || '}'",
    "a number of 5001 digits": "'{\"seats\":[],\"x\":1' || replace(hex(zeroblob(5000)), '00', '1') || '}'",
    "seats that are a number": "'{\"seats\":5}'",
    "a seat with no name": "'{\"seats\":[{\"colour\":\"red\"}]}'",
}


@pytest.mark.parametrize("name", list(SETTINGS))
def test_settings_the_program_cannot_read_are_one_line_and_the_history_goes_on(name, real_db, tmp_path, capsys):
    """Before: JSONDecodeError, RecursionError, ValueError, AttributeError or TypeError tracebacks from ``export``,
    from the history's list (which the touchscreen and phones show) and from the phones' downloads. Now ``export``
    says in one line which session cannot be read, ``sessions`` still lists it, the history lists it as unreadable
    and the download is refused with the reason; the file is unchanged."""
    db = _damaged(real_db, tmp_path, f"UPDATE sessions SET settings = {SETTINGS[name]}")
    before = _rows(db)
    code = main(["export", "--db", str(db), "--session", real_db[1], "--json", str(tmp_path / "g.json")])
    err = capsys.readouterr().err.strip()
    assert code in (1, 3) and len(err.splitlines()) == 1 and "Traceback" not in err
    assert real_db[1] in err and ("settings" in err or "seats" in err), err
    assert not (tmp_path / "g.json").exists()
    assert main(["sessions", "--db", str(db)]) == 0
    assert real_db[1] in capsys.readouterr().out
    with SessionStore(db) as store:
        [line] = Library(store).past_games()
        assert line["session"] == real_db[1] and line["unreadable"]
        phone = joined_phone(StateHub(), exports=lambda s: export_documents(store, s))
        answer = phone.get(f"/export/{real_db[1]}.json")
        assert answer.status_code == 404 and real_db[1] in _strict(answer.get_data(as_text=True))["error"]
    assert _rows(db) == before
