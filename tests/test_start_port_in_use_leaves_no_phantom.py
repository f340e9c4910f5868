"""A start that fails because the phone view's port is in use leaves no empty unfinished session in its database:
the next start does not resume or list a phantom game. A game with anything recorded in it is never removed."""

import socket

from companion.cli import main
from companion.session import SessionStore


def _taken_port(sock: socket.socket) -> int:
    sock.bind(("127.0.0.1", 0))
    sock.listen()
    return sock.getsockname()[1]


def _box(db) -> list[str]:
    return ["--no-screen", "--no-gpio", "--once", "--fast", "--max-frames", "2", "--db", str(db)]


def test_a_game_started_by_a_failed_start_is_not_left_behind(tmp_path, capsys):
    db = tmp_path / "d.sqlite3"
    with socket.socket() as taken:
        port = _taken_port(taken)
        assert main(["demo", "--game", "race", "--players", "Ann,Bob", "--host", "127.0.0.1", "--port", str(port),
                     *_box(db)]) == 3
    assert "cannot start the phone view" in capsys.readouterr().err
    with SessionStore(db) as store:
        assert store.list_sessions() == []
        assert store.resume_latest() is None


def test_the_d6_demo_session_is_not_left_behind_either(tmp_path):
    db = tmp_path / "d.sqlite3"
    with socket.socket() as taken:
        port = _taken_port(taken)
        assert main(["demo", "--new-session", "--host", "127.0.0.1", "--port", str(port), *_box(db)]) == 3
    with SessionStore(db) as store:
        assert store.list_sessions() == []


def test_a_resumed_game_is_kept_whole(tmp_path):
    """The same command again after a start that worked: the failed start resumed that game and removes nothing."""
    db = tmp_path / "d.sqlite3"
    assert main(["demo", "--game", "race", "--players", "Ann,Bob", "--no-web", *_box(db)]) == 0
    with SessionStore(db) as store:
        [info] = store.list_sessions()
    with socket.socket() as taken:
        port = _taken_port(taken)
        assert main(["demo", "--game", "race", "--players", "Ann,Bob", "--host", "127.0.0.1", "--port", str(port),
                     *_box(db)]) == 3
    with SessionStore(db) as store:
        assert [i.id for i in store.list_sessions()] == [info.id]


def test_only_a_session_with_nothing_recorded_is_discarded(tmp_path):
    with SessionStore(tmp_path / "d.sqlite3") as store:
        empty, played = store.start("d6", {}), store.start("d6", {})
        played.append("dice_corrected", {"values": [2, 4]}, player="Bo", origin="touchscreen", at=102.0)
        assert store.discard_unplayed(played.id) is False
        assert store.discard_unplayed(empty.id) is True
        assert [i.id for i in store.list_sessions()] == [played.id]
        assert store.get(played.id).last_seq == 1
