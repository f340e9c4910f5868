"""The phone view fuzzed over HTTP (Flask's test client) against the real main loop on its own thread: every
route and every form of the game on the box, with bodies made from what the phone page would send (the live
view's players, open forms and their fields, the Next label, the state version) and then put wrong
(:func:`tests.fuzzing.mutated`), any JSON, any bytes, wrong content types, foreign ``Host``/``Origin``
headers, a forged cookie, old versions and reused keys.

Bounded and seeded (:data:`tests.fuzzing.FUZZ_STRUCTURED`): the same requests on every run. Whatever is
sent: no 500 (each is bad input we can name: 400, or a refusal 403/404/405/409/413), no traceback in an
answer or in the log, every error answer is JSON with an ``error``, the main loop keeps turning, and the
session log replays afterwards."""

from __future__ import annotations

import contextlib
import json
import logging
import secrets
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st
from werkzeug.test import EnvironBuilder, run_wsgi_app
from werkzeug.wrappers import Response

from bench.box_process import form_values
from companion.app import MainLoop
from companion.flow import GameFlow
from companion.flows import FLOWS
from companion.hub import StateHub
from companion.player_names import parse_players
from companion.session import SessionStore
from companion.setup_flow import TableSetup
from companion.web import create_app
from companion.webauth import RateLimits
from device import FakeCamera
from tests.fuzzing import FUZZ_STRUCTURED, any_json, mutated, nasty_text
from tests.phones import LoopThread
from vision.motion import StillnessDetector

pytestmark = pytest.mark.timeout(600)

TAPS = ("/api/seat", "/api/report", "/api/report/undo", "/api/action", "/api/setup", "/api/camera")
READS = ("/", "/api/state", "/api/me", "/api/events", "/frame.jpg")
PAGES = ("/", "/join/")
"""Answered with a page for a person rather than JSON (the phone page; a join link's answer)."""

NO_LIMITS = RateLimits(act="100000 per second", read="100000 per second", events="100000 per second",
                       join="100000 per second")
"""The fuzz sends far more than a phone may: the limits are tested in test_web_pairing.py."""


@contextlib.contextmanager
def box(game: str, folder: Path) -> Iterator[tuple[StateHub, MainLoop, SessionStore, LoopThread]]:
    """(hub, loop, store, its LoopThread): a new real main loop on its own thread, in a new database in
    ``folder``: a game flow of Ann and Bob, the setup step of Race for the Galaxy, or the d6 reader."""
    hub = StateHub()
    frames = [np.full((60, 80, 3), 90, np.uint8)] * 3
    with SessionStore(folder / f"fuzz-{secrets.token_hex(4)}.sqlite3") as store:
        common = dict(source=FakeCamera(frames), hub=hub, stillness=StillnessDetector(), sleep=lambda s: None)
        if game == "setup":
            loop = MainLoop(reader=None, session=None, setup=TableSetup(store, FLOWS["race"]), **common)
        elif game == "d6":
            loop = MainLoop(reader=object(), session=store.start("d6", {}), **common)
        else:
            session = store.start(game, FLOWS[game].settings(parse_players("Ann,Bob"), {}))
            loop = MainLoop(reader=None, session=session, flow=GameFlow(session, FLOWS[game]), **common)
        loop.publish()
        with LoopThread(loop, pace_s=0.002) as running:
            yield hub, loop, store, running


def _tap_body(data: Any, path: str, view: dict[str, Any]) -> dict[str, Any]:
    """The body the phone page would send to ``path`` now (without version and key)."""
    game = view.get("game") or {}
    names = [p["name"] for p in game.get("players") or []] or ["Ann"]
    player = data.draw(st.sampled_from(names))
    if path in ("/api/seat", "/api/report/undo"):
        return {"player": player}
    if path == "/api/report":
        forms = {f["id"]: f for f in game.get("forms") or []}
        if not forms:
            return {"player": player, "form": "vp", "values": {"vp": 1}}
        open_ids = (game.get("open_forms") or {}).get(player) or list(forms)
        form = forms[data.draw(st.sampled_from(sorted(open_ids)))]
        values = form_values(form, lambda items: data.draw(st.sampled_from(items)),
                             lambda low, high: data.draw(st.integers(low, high)), lambda: data.draw(st.booleans()))
        return {"player": player, "form": form["id"], "values": values}
    if path == "/api/action":
        label = (game.get("next") or {}).get("label")
        return data.draw(st.sampled_from([{"action": "next_phase", "label": label}, {"action": "next_phase"},
                                          {"action": "read_now"}, {"action": "undo"}]))
    if path == "/api/setup":
        colours = game.get("colours") or ["red", "blue"]
        new = data.draw(st.sampled_from(["Cy", "Dóra", "Łucja", "Zoë", player]))
        return data.draw(st.sampled_from([
            {"action": "player", "name": new, "colour": data.draw(st.sampled_from(colours))}] * 3 + [
            {"action": "remove", "name": player}, {"action": "rename", "name": player, "new_name": new},
            {"action": "even"}, {"action": "start"}]))
    questions = (view.get("camera") or {}).get("questions") or [{"id": 1, "choices": []}]
    question = data.draw(st.sampled_from(questions))
    return {"id": question["id"], "answer": data.draw(st.sampled_from(["confirm", "dismiss"])),
            **({"choice": data.draw(st.sampled_from(question["choices"]))} if question.get("choices") else {})}


def _request(data: Any, hub: StateHub, used_keys: list[str]) -> dict[str, Any]:
    """One request as ``client.open`` takes it: a tap as the page makes it, then perhaps put wrong."""
    view = hub.snapshot().view
    version = int((view.get("session") or {}).get("events") or 0)
    game = view.get("game") or {}
    page = ("/api/setup",) if game.get("setup") else ("/api/report", "/api/report", "/api/action") if game.get("flow") \
        else ("/api/action",)  # what the page on the screen posts most
    path = data.draw(st.sampled_from(page * 4 + TAPS + READS + ("/join/", "/api/", "/static/")))
    request: dict[str, Any] = {"path": path, "method": "POST" if path in TAPS else "GET", "headers": {},
                               "environ_overrides": {}}
    if path == "/join/":
        secret = hub.pairing().secret
        typed = nasty_text.map(lambda t: urllib.parse.quote(t.encode("utf-8", "surrogatepass"), safe=""))
        request["path"] += data.draw(st.one_of(st.just(secret), st.just(secret[:-1]), typed))  # as a client sends it
    elif path in ("/api/", "/static/"):
        request["path"] += data.draw(st.sampled_from(["reports", "state/1", "box.js", "../app.py", "%00", "x" * 300]))
    if path in TAPS:
        body = _tap_body(data, path, view)
        body["version"] = data.draw(st.sampled_from([version, version, max(version - 1, 0), version + 1]))
        body["key"] = data.draw(st.sampled_from([secrets.token_hex(8)] * 3 + used_keys[-2:]))
        used_keys.append(body["key"])
        how = data.draw(st.sampled_from(["as sent"] * 4 + ["one thing wrong"] * 3 + ["any JSON",
                                                                                     "bytes", "form-encoded"]))
        if how == "one thing wrong":
            body = data.draw(mutated(st.just(body)))
        if how == "any JSON":
            body = data.draw(any_json)
        if how == "bytes":
            request["data"] = data.draw(st.binary(max_size=200))
            request["content_type"] = "application/json"
        elif how == "form-encoded":
            request["data"] = {str(k): str(v) for k, v in body.items()} if isinstance(body, dict) else "x=1"
        else:
            request["data"] = json.dumps(body, allow_nan=True)
            request["content_type"] = "application/json"
    if data.draw(st.integers(0, 9)) == 9:  # another method on the route (hypothesis draws 0 most: the usual case)
        request["method"] = data.draw(st.sampled_from(["GET", "POST", "PUT", "DELETE", "PATCH"]))
    header = data.draw(st.sampled_from(["none"] * 6 + ["Host", "Origin", "Cookie", "Content-Length"]))
    if header == "Host":  # as the server reads it (the test client would parse a Host header into a URL)
        request["environ_overrides"]["HTTP_HOST"] = data.draw(st.one_of(
            st.sampled_from(["evil.example", "localhost:1", "[::1]:80", "127.0.0.1:99999", "", " ", "a b"]),
            nasty_text.filter(lambda s: "\n" not in s and "\r" not in s)))
    elif header == "Origin":
        request["headers"]["Origin"] = data.draw(st.sampled_from(
            ["http://evil.example", "null", "http://localhost", "http://localhost:99999",
             "file://", "://", "http://[::1"]))
    elif header == "Cookie":
        request["headers"]["Cookie"] = "companion=" + data.draw(st.sampled_from(
            ["", "x", "eyJjbGllbnQiOiJ4In0.AAAA.BBBB", "." * 50, "\u00e9" * 10]))
    elif header == "Content-Length":
        request["headers"]["Content-Length"] = data.draw(st.sampled_from(["-1", "x", "99999999999"]))
    return request


def _sent_as_it_is(app: Any, request: dict[str, Any]) -> Response:
    """``request`` (the keyword arguments of ``client.open``) straight to the WSGI app, its headers as given."""
    builder = EnvironBuilder(**request)
    try:
        app_iter, status, headers = run_wsgi_app(app, builder.get_environ(), buffered=False)
    finally:
        builder.close()
    return Response(app_iter, status=status, headers=headers)


def _check(answer: Any, request: dict[str, Any]) -> None:
    status = answer.status_code
    where = f"{request['method']} {request['path'][:60]} -> {status}"
    assert status < 500, f"{where}: {answer.get_data()[:300]!r} for {str(request.get('data'))[:200]}"
    assert status in (200, 202, 303, 400, 403, 404, 405, 409, 413), where
    streaming = request["path"].startswith("/api/events") and status == 200
    text = "" if streaming else answer.get_data(as_text=True)
    assert "Traceback" not in text, where
    if status >= 400 and request["path"] != PAGES[0] and not request["path"].startswith(PAGES[1]):
        assert json.loads(text)["error"], where


@pytest.mark.parametrize("game", ["roll", "race", "among", "setup", "d6"])
def test_any_request_to_any_route_is_answered_never_a_500_nor_a_traceback(game, tmp_path, caplog):
    caplog.set_level(logging.WARNING)
    done: list[str] = []  # taps the main loop carried out (answered 200)

    @settings(FUZZ_STRUCTURED,
              phases=[Phase.explicit, Phase.reuse, Phase.generate])  # a failure shows its draws unshrunk
    @given(st.data())
    def fuzz(data):  # each example plays a new game from its start: the same draws give the same requests
        with box(game, tmp_path) as (hub, loop, store, running):
            phone = create_app(hub, rate_limits=NO_LIMITS, reply_s=30.0)
            phone.testing = True
            client = phone.test_client()
            assert client.get(f"/join/{hub.pairing().secret}").status_code == 303
            stranger = phone.test_client()  # never joined
            used_keys: list[str] = []
            for _ in range(data.draw(st.integers(1, 6))):
                request = _request(data, hub, used_keys)
                path = request["path"]
                joined = data.draw(st.integers(0, 7)) != 7
                if "HTTP_HOST" in request["environ_overrides"]:  # as it is: the test client would parse it into a URL
                    if joined:
                        request["headers"].setdefault("Cookie", f"companion={client.get_cookie('companion').value}")
                    answer = _sent_as_it_is(phone, request)
                else:
                    answer = (client if joined else stranger).open(buffered=False, **request)
                try:
                    if path == "/api/events" and answer.status_code == 200:
                        assert next(iter(answer.response)).startswith(b"retry:")  # the stream began; closed below
                    _check(answer, request)
                    if path in TAPS and answer.status_code == 200 and "version" in answer.get_json():
                        done.append(path)
                finally:
                    answer.close()
                assert running.thread.is_alive()  # the main loop turns on
            loop.publish()  # the views still render
            session_id = (client.get("/api/state").get_json().get("session") or {}).get("id")
            if session_id:  # everything recorded replays (a game started from the setup too)
                store.get(session_id).replay()

    fuzz()
    tracebacks = [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
    assert not tracebacks, [f"{r.name}: {r.getMessage()}" for r in tracebacks[:5]]
    assert done  # the fuzz reached the games (not only refusals before the loop)
