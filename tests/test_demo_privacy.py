"""What a phone that has not joined reads from a running demo (``/api/state``, the event stream) names the camera by
its kind ("demo replay", in the phone's language), never by the replay's folder: also while the folder is taken away
and when it is back. The box runs as its own process on 127.0.0.1."""

from __future__ import annotations

import json
import shutil
import time
import urllib.request
from pathlib import Path

import companion
from bench.box_process import BoxProcess

DEMO_REPLAY = {"en": "demo replay", "pl": "powtórka demonstracyjna", "el": "επανάληψη επίδειξης",
               "hu": "bemutató visszajátszás"}  # the label's words in each language, as the catalogs say them


def _state(base: str, lang: str) -> dict:
    request = urllib.request.Request(base + "/api/state", headers={"Accept-Language": lang})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.load(answer)


def _events(base: str, lang: str):
    """The states the event stream pushes to a phone that has not joined, in ``lang``, as they come."""
    request = urllib.request.Request(base + "/api/events", headers={"Accept-Language": lang})
    with urllib.request.urlopen(request, timeout=10) as stream:
        for raw in stream:
            line = raw.decode("utf-8")
            if line.startswith("data:"):
                yield json.loads(line[5:])
    raise AssertionError("the stream ended without an event")


def _first_event(base: str, lang: str) -> dict:
    return next(_events(base, lang))


def _until(events, ready, timeout: float = 60.0) -> dict:
    """The first state ``events`` (one phone's stream, :func:`_events`) pushes for which ``ready`` holds: the box
    pushes one on every change.

    Raises:
        AssertionError: ``timeout`` seconds passed first (with the last status seen).
    """
    deadline = time.monotonic() + timeout
    state: dict = {}
    for state in events:
        if "status" in state and ready(state):  # a state event, not `me` or a heartbeat
            return state
        assert time.monotonic() < deadline, state.get("status")
    raise AssertionError(state.get("status"))


def test_a_phone_that_has_not_joined_sees_the_demo_replay_never_its_folder(tmp_path):
    folder = tmp_path / "secret-photos-folder"
    folder.mkdir()
    for photo in sorted((Path(companion.__file__).parent / "demo" / "photos").glob("*.jpg"))[:2]:
        shutil.copy(photo, folder / photo.name)
    box = BoxProcess(["demo", str(folder), "--db", str(tmp_path / "d.sqlite3"), "--no-screen", "--no-gpio",
                      "--fast", "--hold", "1"], tmp_path)
    try:
        box.wait_until(lambda s: s.get("session") is not None)
        polish = _events(box.base, "pl")  # one stream, held for the camera's messages below (a phone has 4 at most)
        for lang in ("pl", "el", "hu", "en"):
            state = _state(box.base, lang)
            event = next(polish) if lang == "pl" else _first_event(box.base, lang)
            for view in (state, event):
                assert view["session"]["source"] == DEMO_REPLAY[lang]
                assert str(tmp_path) not in json.dumps(view, ensure_ascii=False)
        state = _until(polish, lambda s: s["status"]["reader"] == "read")
        shutil.move(folder, tmp_path / "elsewhere")  # the camera is lost: its message names the replay, not where
        lost = _until(polish, lambda s: s["status"]["camera"] == "lost")
        assert lost["status"]["message"].startswith(DEMO_REPLAY["pl"] + ": ")
        assert str(tmp_path) not in json.dumps(lost, ensure_ascii=False)
        shutil.move(tmp_path / "elsewhere", folder)
        back = _until(polish, lambda s: s["status"]["camera"] == "ok" and s["status"]["message"]
                      and "działa" in s["status"]["message"])
        assert back["status"]["message"] == DEMO_REPLAY["pl"] + ": znowu działa"
        assert str(tmp_path) not in json.dumps(back, ensure_ascii=False)
    finally:
        code, err = box.stop()
    assert "Traceback" not in err
