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


def _first_event(base: str, lang: str) -> dict:
    request = urllib.request.Request(base + "/api/events", headers={"Accept-Language": lang})
    with urllib.request.urlopen(request, timeout=10) as stream:
        for raw in stream:
            line = raw.decode("utf-8")
            if line.startswith("data:"):
                return json.loads(line[5:])
    raise AssertionError("the stream ended without an event")


def _until(base: str, lang: str, ready, timeout: float = 60.0) -> dict:
    deadline = time.monotonic() + timeout
    state: dict = {}
    while True:
        try:
            state = _state(base, lang)
        except OSError:  # the box is still starting
            pass
        else:
            if ready(state):
                return state
        assert time.monotonic() < deadline, state.get("status")
        time.sleep(0.1)


def test_a_phone_that_has_not_joined_sees_the_demo_replay_never_its_folder(tmp_path):
    folder = tmp_path / "secret-photos-folder"
    folder.mkdir()
    for photo in sorted((Path(companion.__file__).parent / "demo" / "photos").glob("*.jpg"))[:2]:
        shutil.copy(photo, folder / photo.name)
    box = BoxProcess(["demo", str(folder), "--db", str(tmp_path / "d.sqlite3"), "--no-screen", "--no-gpio",
                      "--fast", "--hold", "1"], tmp_path)
    try:
        for lang in ("pl", "el", "hu", "en"):
            state = _until(box.base, lang, lambda s: s.get("session") is not None)
            event = _first_event(box.base, lang)
            for view in (state, event):
                assert view["session"]["source"] == DEMO_REPLAY[lang]
                assert str(tmp_path) not in json.dumps(view, ensure_ascii=False)
        state = _until(box.base, "pl", lambda s: s["status"]["reader"] == "read")
        shutil.move(folder, tmp_path / "elsewhere")  # the camera is lost: its message names the replay, not where
        lost = _until(box.base, "pl", lambda s: s["status"]["camera"] == "lost")
        assert lost["status"]["message"].startswith(DEMO_REPLAY["pl"] + ": ")
        assert str(tmp_path) not in json.dumps(lost, ensure_ascii=False)
        shutil.move(tmp_path / "elsewhere", folder)
        back = _until(box.base, "pl", lambda s: s["status"]["camera"] == "ok" and s["status"]["message"]
                      and "działa" in s["status"]["message"])
        assert back["status"]["message"] == DEMO_REPLAY["pl"] + ": znowu działa"
        assert str(tmp_path) not in json.dumps(back, ensure_ascii=False)
    finally:
        code, err = box.stop()
    assert "Traceback" not in err
