"""The phone view: a small Flask app that players open on the same Wi-Fi.

It only reads the hub's published snapshots and posts actions; it never changes game state.

Routes:
    ``GET /``             the phone page (``templates/phone.html`` + ``static/phone.js``/``.css``).
    ``GET /api/state``    the latest view as JSON, plus ``"version"`` (int, 0 before the first publish).
    ``GET /api/events``   Server-Sent Events: the current state at once, then every new version
                          as ``event: state`` (``id:`` = version, ``data:`` = the /api/state JSON);
                          a ``: heartbeat`` comment when nothing changed for ~15 s.
    ``GET /frame.jpg``    the latest annotated frame (``image/jpeg``, ``Cache-Control: no-store``);
                          404 with a JSON ``error`` before the first frame.
    ``POST /api/action``  JSON ``{"action": "undo" | "read_now"}`` -> 202; 400 naming the problem.
                          In a game flow a phone may not post ``undo`` (403: it withdraws only its own
                          seat's report with ``/api/report/undo``; the global Undo is the touchscreen's),
                          and may post ``{"action": "next_phase", "label": "Settle"}`` (the phone's
                          "Next: Settle" button; ``label`` optional: when given and Next now means
                          something else, 409 and nothing moves) -> the same answers as ``/api/report``.
    ``POST /api/report``  game flows (Roll, Race, Among the Stars): a player's report, JSON
                          ``{"player": name, "form": form id, "values": {field: value}}`` ->
                          200 ``{"recorded": [seq], "message", "error": null}`` once the main loop
                          recorded it; 400 ``{"error"}`` naming the problem (nothing recorded);
                          503 ``{"error"}`` when the loop did not take it within ``reply_s`` (then nothing
                          is recorded: the request is cancelled, never done later).
    ``POST /api/report/undo``  ``{"player": name}``: withdraw that player's newest report; same answers.
    ``POST /api/setup``   while a game is set up (``view["game"]["setup"]``): ``{"action": "player",
                          "name", "colour"}`` | ``{"action": "remove", "name"}`` |
                          ``{"action": "rename", "name", "new_name"}`` | ``{"action": "even"}``
                          | ``{"action": "start"}`` -> same answers as ``/api/report``.
    ``POST /api/camera``  answer a camera question (``view["camera"]["questions"]``): ``{"id": n,
                          "answer": "confirm" | "dismiss", "choice": optional answer from the
                          question's ``choices``}`` -> same answers as ``/api/report``.

``GET /`` serves ``flow.html`` (seat picker, report forms, score screen) when the published view
is a game flow (``view["game"]["flow"]``), else the d6 page ``phone.html``.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from typing import Any

from flask import Flask, Response, jsonify, render_template, request
from werkzeug.serving import BaseWSGIServer, make_server

from companion.hub import Snapshot, StateHub

__all__ = ["create_app", "serve", "PhoneServer", "sse_stream", "state_json", "PHONE_ACTIONS", "HEARTBEAT_S", "REPLY_S"]

PHONE_ACTIONS = ("read_now", "undo", "next_phase")
"""Actions a phone may post (a phone cannot stop the box); ``undo`` only in d6 mode, ``next_phase``
only in a game flow."""

REPLY_S = 5.0
"""Seconds a report waits for the main loop to take it; then it is cancelled and answered 503 (nothing recorded)."""

HEARTBEAT_S = 15.0
"""Seconds between SSE heartbeat comments when nothing changes (keeps proxies and phones from closing)."""


def state_json(snapshot: Snapshot) -> dict[str, Any]:
    """The /api/state body: the snapshot's view dict with ``"version"`` added."""
    return {**snapshot.view, "version": snapshot.version}


def _sse_state(snapshot: Snapshot) -> str:
    data = json.dumps(state_json(snapshot), separators=(",", ":"))
    return f"id: {snapshot.version}\nevent: state\ndata: {data}\n\n"


def sse_stream(hub: StateHub, heartbeat_s: float = HEARTBEAT_S, stop: threading.Event | None = None) -> Iterator[str]:
    """Server-Sent Events text for one client, as an endless generator of complete messages.

    Yields first a ``retry:`` hint and the current snapshot as ``event: state``, then each
    newer version as it is published (versions published while the client was being
    written to are coalesced into the latest), and a ``: heartbeat`` comment after each
    ``heartbeat_s`` seconds without a change. Ends when ``stop`` is set (checked at least
    every ``heartbeat_s``) or when the client goes away (the server stops iterating).

    Args:
        hub: where snapshots are published; only :meth:`~StateHub.snapshot` and
            :meth:`~StateHub.wait_for_change` are used.
        heartbeat_s: seconds between heartbeats (> 0).
        stop: optional event that ends the stream.
    """
    snapshot = hub.snapshot()
    yield "retry: 2000\n\n"
    yield _sse_state(snapshot)
    version = snapshot.version
    while stop is None or not stop.is_set():
        snapshot = hub.wait_for_change(version, timeout=heartbeat_s)
        if snapshot.version != version:
            version = snapshot.version
            yield _sse_state(snapshot)
        else:
            yield ": heartbeat\n\n"


def _error(status: int, message: str, **extra: Any) -> tuple[Response, int]:
    return jsonify({"error": message, **extra}), status


def _json_body(example: str) -> tuple[dict[str, Any] | None, tuple[Response, int] | None]:
    """The request's JSON object, or the 400 answer naming what is wrong with it."""
    if not request.is_json:
        return None, _error(400, f'send JSON with "Content-Type: application/json", e.g. {example}')
    try:
        body = request.get_json(silent=True)
    except RecursionError:  # absurdly nested JSON
        body = None
    if body is None:
        return None, _error(400, f"the body is not valid JSON; send e.g. {example}")
    if not isinstance(body, dict):
        return None, _error(400, f"the body must be a JSON object, e.g. {example}")
    return body, None


def create_app(hub: StateHub, heartbeat_s: float = HEARTBEAT_S, reply_s: float = REPLY_S) -> Flask:
    """The phone-view Flask app reading from and posting to ``hub``.

    Args:
        hub: the running box's :class:`~companion.hub.StateHub`.
        heartbeat_s: seconds between SSE heartbeats on ``/api/events``.
        reply_s: seconds a report waits for the main loop to take it (then 503, cancelled: nothing recorded).

    Returns:
        A Flask app; ``app.extensions["companion"]`` holds ``{"hub", "stop"}`` where
        ``stop`` (a :class:`threading.Event`) ends open event streams (set by
        :meth:`PhoneServer.shutdown`).
    """
    app = Flask(__name__)
    app.config["MAX_CONTENT_LENGTH"] = 16 * 1024  # actions are tiny; refuse megabyte bodies from the LAN (413)
    stop = threading.Event()
    app.extensions["companion"] = {"hub": hub, "stop": stop}

    @app.errorhandler(413)
    def too_large(_exc: Exception) -> tuple[Response, int]:
        return _error(413, f"the body is larger than {app.config['MAX_CONTENT_LENGTH'] // 1024} KiB; "
                           "actions and reports are small JSON objects")

    @app.get("/")
    def phone_page() -> str:
        game = hub.snapshot().view.get("game") or {}
        return render_template("flow.html" if game.get("flow") else "phone.html")

    @app.get("/api/state")
    def api_state() -> Response:
        response = jsonify(state_json(hub.snapshot()))
        response.headers["Cache-Control"] = "no-store"
        return response

    @app.get("/api/events")
    def api_events() -> Response:
        return Response(
            sse_stream(hub, heartbeat_s=heartbeat_s, stop=stop),
            mimetype="text/event-stream",
            headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
        )

    @app.get("/frame.jpg")
    def frame_jpg() -> Response | tuple[Response, int]:
        snapshot = hub.snapshot()
        if snapshot.jpeg is None:
            response, status = _error(
                404, "no frame yet: the camera has not delivered a picture since the box started"
            )
            response.headers["Cache-Control"] = "no-store"
            return response, status
        response = Response(snapshot.jpeg, mimetype="image/jpeg")
        response.headers["Cache-Control"] = "no-store"
        response.headers["X-Snapshot-Version"] = str(snapshot.version)
        return response

    @app.post("/api/action")
    def api_action() -> tuple[Response, int]:
        if not request.is_json:
            return _error(400, 'send JSON with "Content-Type: application/json", e.g. {"action": "undo"}')
        try:
            body = request.get_json(silent=True)
        except RecursionError:  # absurdly nested JSON: not an action
            body = None
        if body is None:
            return _error(400, 'the body is not valid JSON; send e.g. {"action": "undo"}')
        if not isinstance(body, dict) or "action" not in body:
            return _error(400, 'the body must be a JSON object with an "action" key, e.g. {"action": "undo"}')
        action = body["action"]
        if not isinstance(action, str) or action not in PHONE_ACTIONS:
            shown = repr(action) if len(repr(action)) <= 40 else repr(action)[:37] + "..."
            return _error(
                400, f"unknown action {shown}; a phone may post: {', '.join(PHONE_ACTIONS)}", allowed=list(PHONE_ACTIONS)
            )
        game = hub.snapshot().view.get("game") or {}
        in_flow = bool(game.get("flow"))
        if action == "undo" and in_flow:
            return _error(403, "in a game a phone withdraws only its own report: pick your seat and tap "
                               "\"Undo my last report\" (POST /api/report/undo {\"player\": name}); "
                               "the Undo of the whole table is on the touchscreen")
        if action == "next_phase":
            if not in_flow:
                return _error(400, "next_phase is for a game flow (companion run --game roll|race|among)")
            label = body.get("label")
            if label is not None and not isinstance(label, str):
                return _error(400, "'label' must be the Next button's label, e.g. \"Settle\"")
            now = str((game.get("next") or {}).get("label") or "")
            if label is not None and label != now:
                return _error(409, f"Next now means {now or 'nothing'!r}, not {label[:40]!r}: nothing moved; "
                                   "look at the table and tap again")
            return _answer(hub.request("next_phase", "phone", reply_s))
        hub.post_action(action, origin="phone")
        return jsonify({"accepted": action}), 202

    def _answer(answer: dict[str, Any] | None) -> tuple[Response, int]:
        if answer is None:
            return _error(503, "the box is busy and did not take this in time: nothing was recorded; try again")
        if answer.get("error"):  # the loop's status: 400, 403, 409, 500 or 503 (companion.desk)
            return _error(int(answer.get("status") or 400), answer["error"], version=answer.get("version"))
        return jsonify(answer), 200

    @app.post("/api/report")
    def api_report() -> tuple[Response, int]:
        example = '{"player": "Ann", "form": "vp", "values": {"vp": 2}}'
        body, bad = _json_body(example)
        if bad is not None:
            return bad
        for key, kind in (("player", str), ("form", str), ("values", dict)):
            if not isinstance(body.get(key), kind):
                what = "an object of field: value" if kind is dict else "a string"
                return _error(400, f"{key!r} must be {what}, e.g. {example}")
        return _answer(hub.request("report", "phone", reply_s, player=body["player"], form=body["form"], values=body["values"]))

    @app.post("/api/report/undo")
    def api_report_undo() -> tuple[Response, int]:
        body, bad = _json_body('{"player": "Ann"}')
        if bad is not None:
            return bad
        if not isinstance(body.get("player"), str):
            return _error(400, """'player' must be a string, e.g. {"player": "Ann"}""")
        return _answer(hub.request("undo_report", "phone", reply_s, player=body["player"]))

    @app.post("/api/setup")
    def api_setup() -> tuple[Response, int]:
        example = '{"action": "player", "name": "Ann", "colour": "red"}'
        body, bad = _json_body(example)
        if bad is not None:
            return bad
        what = body.get("action")
        if what not in ("player", "remove", "rename", "even", "start"):
            return _error(400, f"'action' must be player, remove, rename, even or start, e.g. {example}")
        if not (hub.snapshot().view.get("game") or {}).get("setup"):
            return _error(409, "no game is being set up now (the game has started, or this box reads d6 dice): "
                               "players are set up before Start")
        extra = {}
        for key in ("name", "colour", "new_name"):
            if key in body:
                if not isinstance(body[key], str):
                    return _error(400, f"{key!r} must be a string, e.g. {example}")
                extra[{"name": "player", "new_name": "name"}.get(key, key)] = body[key]
        return _answer(hub.request(f"setup_{what}", "phone", reply_s, **extra))

    @app.post("/api/camera")
    def api_camera() -> tuple[Response, int]:
        example = '{"id": 3, "answer": "confirm"}'
        body, bad = _json_body(example)
        if bad is not None:
            return bad
        qid, answer = body.get("id"), body.get("answer")
        if isinstance(qid, bool) or not isinstance(qid, int):
            return _error(400, f"'id' must be the question's number, e.g. {example}")
        if answer not in ("confirm", "dismiss"):
            return _error(400, f"'answer' must be \"confirm\" or \"dismiss\", e.g. {example}")
        choice = body.get("choice")
        if choice is not None and not isinstance(choice, str):
            return _error(400, "'choice' must be one of the question's choices (a string)")
        extra = {"choice": choice} if answer == "confirm" and choice else {}
        return _answer(hub.request(f"camera_{answer}", "phone", reply_s, id=qid, **extra))

    return app


class PhoneServer:
    """A werkzeug server running an app in a daemon thread (see :func:`serve`).

    Attributes:
        host: the address it is bound to.
        port: the TCP port it listens on (the real one when 0 was asked for).
        url: ``http://host:port/``.
    """

    def __init__(self, server: BaseWSGIServer, app: Flask) -> None:
        self._server = server
        self._app = app
        self.host = server.host
        self.port = server.server_port
        self.url = f"http://{self.host}:{self.port}/"
        self._thread = threading.Thread(target=server.serve_forever, name=f"phone-view:{self.port}", daemon=True)
        self._thread.start()

    def shutdown(self, timeout: float = 5.0) -> None:
        """Stop accepting requests, end open event streams, close the socket; waits up to ``timeout`` s."""
        stop = self._app.extensions.get("companion", {}).get("stop")
        if stop is not None:
            stop.set()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout)

    def __enter__(self) -> PhoneServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.shutdown()


def serve(app: Flask, host: str = "0.0.0.0", port: int = 8080) -> PhoneServer:
    """Serve ``app`` with werkzeug's threaded server in a daemon thread; returns at once.

    Args:
        app: from :func:`create_app`.
        host: address to bind; ``"0.0.0.0"`` for phones on the LAN, ``"127.0.0.1"`` in tests.
        port: TCP port; 0 picks a free one (read it from ``PhoneServer.port``).

    Raises:
        OSError: ``host`` is not an address of this machine, or ``host:port`` is in use or cannot be
            bound (checked here first: werkzeug itself prints and exits on a failed bind).
    """
    import socket

    try:
        family, _, _, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    except (socket.gaierror, UnicodeError) as exc:
        raise OSError(f"--host {host} is not a network address ({getattr(exc, 'strerror', None) or exc})") from None
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            raise OSError(f"cannot listen on {host} port {port} ({exc.strerror or exc})") from None
    server = make_server(host, port, app, threaded=True)
    return PhoneServer(server, app)
