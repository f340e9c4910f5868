"""The phone view's reads (:mod:`companion.web` lists every route): the state, the whole list of notes, this phone,
the live view (Server-Sent Events), the camera picture, the owner's view and a finished game's downloads. Each is
registered on the app by :func:`register_reads` with the routes' shared :class:`~companion.webcontext.PhoneContext`."""

from __future__ import annotations

import hashlib
import logging
import re
import threading
from collections.abc import Callable, Iterator

from flask import Flask, Response, g, jsonify, request, session

from companion import i18n
from companion.webcontext import PhoneContext
from companion.webcontext import error_answer as _error
from companion.webserver import WATCH_END
from companion.webstream import findings_text, json_text, sse_stream, state_json, unsent

__all__ = ["EXPORT_NAME", "NOT_OVER", "register_reads"]

log = logging.getLogger("companion.web")

NOT_OVER = i18n.Text("this game is not over yet: a phone downloads its record once the game has ended, so that nobody "
                     "reads a choice the table has not revealed")

EXPORT_NAME = re.compile(r"(?P<session>[A-Za-z0-9_-]{1,64})(?P<bgstats>\.bgstats)?\.json")
"""A download's file name: ``<session>.json`` (the record) or ``<session>.bgstats.json`` (the BG Stats play); a
session id is letters, digits, ``-`` and ``_`` (:func:`companion.session.new_id`)."""
PICTURE_NAME = re.compile(r"station-[1-9][0-9]{0,9}")
"""A published picture's name: a camera question's station (:func:`companion.camera.station_picture.picture_key`)."""
STATION_KIND = "station_claimed"
"""The kind of camera question that shows a station's picture (Among the Stars' "whose station is this?")."""
PICTURE_RETRY_S = 5
"""Seconds a phone is told to wait (``Retry-After``) for a waiting question's picture not made yet: the box makes it at
the camera's next read of the still table (the rate limiter, when it counts the request, says its own window)."""


def _fresh(what: str, answer: Callable[[], Response]) -> Response:
    """``answer()`` marked never to be cached (a phone always asks the box again); an answer that cannot be written
    is logged and said as a 500 naming the problem (``what``: "state" or "findings", for the log) instead of
    stopping the route."""
    try:
        response = answer()
    except Exception as exc:  # noqa: BLE001 -- a state that cannot be written (logged) is said as such
        log.error("phone view: the %s could not be sent: %s", what, exc, exc_info=exc)
        response, status = _error(500, unsent(exc))
        response.status_code = status
    response.headers["Cache-Control"] = "no-store"
    return response


def _uncached(answer: tuple[Response, int]) -> tuple[Response, int]:
    """An error ``answer`` marked never to be cached."""
    answer[0].headers["Cache-Control"] = "no-store"
    return answer


def register_reads(app: Flask, ctx: PhoneContext) -> None:  # noqa: C901 - a flat list of small handlers
    """Register ``GET /api/owner``, ``/export/<name>``, ``/api/state``, ``/api/findings``, ``/api/me``,
    ``/api/events``, ``/picture/<name>.jpg`` and ``/frame.jpg`` on ``app`` (their answers: :mod:`companion.web`'s
    doc)."""

    @app.get("/api/owner")
    @ctx.limiter.limit(ctx.limits.read)
    def api_owner() -> tuple[Response, int] | Response:
        who = ctx.refuse_unjoined()
        pairing = ctx.hub.pairing()
        if pairing is None or who.client not in pairing.owners:
            return _error(403, i18n.Text("ask on the owner page first; the box's touchscreen then allows this "
                                               "phone"))
        response = jsonify(i18n.localize(ctx.hub.owner_view()))
        response.headers["Cache-Control"] = "no-store"
        return response

    @app.get("/export/<name>")
    @ctx.limiter.limit(ctx.limits.read)
    def export_file(name: str) -> Response | tuple[Response, int]:
        ctx.refuse_unjoined()
        # "<session>.bgstats.json" is the play, "<session>.json" the record; a session id has no dot
        # (companion.session.new_id), so ".bgstats.json" is no game's file, not a game named ".bgstats"
        found = EXPORT_NAME.fullmatch(name)
        if ctx.exports is None or found is None:
            return _error(404, i18n.Text("no such export: /export/<session>.json or "
                                               "/export/<session>.bgstats.json"))
        session_id, kind = found.group("session"), "bgstats.json" if found.group("bgstats") else "json"
        from companion.errors import BadEntry, SessionError

        try:
            game, play = ctx.exports(session_id)
        except (BadEntry, SessionError) as exc:  # no such game, or one whose record no longer reads: said
            return _error(404, i18n.message_of(exc))
        if not game.get("finished"):  # its record holds what the table has not revealed (a card chosen face down)
            return _error(403, NOT_OVER)
        doc = game if kind == "json" else play
        response = Response(json_text(doc, indent=2) + "\n", mimetype="application/json")
        name = f"{session_id}.json" if kind == "json" else f"{session_id}.bgstats.json"
        response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
        response.headers["Cache-Control"] = "no-store"
        return response

    @app.get("/api/state")
    @ctx.limiter.limit(ctx.limits.read)
    def api_state() -> Response:
        return _fresh("state", lambda: jsonify(state_json(ctx.hub.snapshot())))

    @app.get("/api/findings")
    @ctx.limiter.limit(ctx.limits.read)
    def api_findings() -> Response:
        """Every finding of the game, newest first (the state pushes carry the newest few and their number), written
        once per state and language (:func:`findings_text`), and compressed once per state, language and encoding
        for the phones that accept it (:mod:`companion.webcompress`, keyed by ``g.compress_key``)."""
        def findings() -> Response:
            snapshot = ctx.hub.snapshot()
            response = Response(findings_text(snapshot), mimetype="application/json")
            g.compress_key = f"findings:{snapshot.version}:{id(snapshot)}:{i18n.current_language()}"
            return response

        return _fresh("findings", findings)

    @app.get("/api/me")
    @ctx.limiter.limit(ctx.limits.read)
    def api_me() -> Response:
        response = jsonify(i18n.localize(ctx.me_of(dict(session), ctx.hub.pairing())))
        response.headers["Cache-Control"] = "no-store"
        return response

    @app.get("/api/events")
    @ctx.limiter.limit(ctx.limits.events)
    def api_events() -> Response | tuple[Response, int]:
        cookie = dict(session)  # read now: the stream runs outside this request
        slot = ctx.client_key()
        full = ctx.streams.take(slot)
        if full is not None:
            response, status = _error(503, i18n.Text("{problem}: this page shows the state every few seconds "
                                                           "instead; close other tabs of the box", problem=full))
            response.headers["Retry-After"] = "10"
            return response, status

        lang = g.get("language")  # the stream is written after this request's context is gone
        given_back = threading.Lock()
        # the server watches the connection from now: a phone that drops the stream frees it at once, and the
        # stream, looking at ``gone``, ends within STOP_CHECK_S (its slot and worker back), not at its next write
        watch = request.environ.get(WATCH_END)
        if callable(watch):
            watch()
        gone = request.environ.get("waitress.client_disconnected")

        def give_back() -> None:
            """The slot back, once: when the stream ends, or when the server closes an answer it never sent (a HEAD,
            a phone gone before the first event: the stream's own ``finally`` never runs then)."""
            if given_back.acquire(blocking=False):
                ctx.streams.give_back(slot)

        def events() -> Iterator[str]:
            try:
                yield from sse_stream(ctx.hub, heartbeat_s=ctx.heartbeat_s, stop=ctx.stop,
                                      me=lambda: ctx.me_of(cookie, ctx.hub.pairing()), lang=lang,
                                      gone=gone if callable(gone) else None)
            finally:
                give_back()

        response = Response(events(), mimetype="text/event-stream",
                            headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
        response.call_on_close(give_back)
        return response

    @app.get("/picture/<name>.jpg")
    @ctx.limiter.limit(ctx.limits.read)
    def picture_jpg(name: str) -> Response | tuple[Response, int]:
        """A small picture the view names (a camera question's station: ``station-7``), joined phones only: cached
        by the phone when asked with its current version (``?v=``), else sent uncached; 404 naming the problem for a
        name of another shape, a question no longer waiting (answered or gone) or one of a kind that has no picture;
        503 with ``Retry-After`` (:data:`PICTURE_RETRY_S`) for a "whose station is this?" question still waiting
        whose picture is not made yet (a box restarted since the phone's page was drawn: the next read makes it)."""
        ctx.refuse_unjoined()
        if not PICTURE_NAME.fullmatch(name):
            return _uncached(_error(404, i18n.Text("no such picture: a camera question's picture is named "
                                                   "station-<question id>")))
        snapshot = ctx.hub.snapshot()
        data = snapshot.pictures.get(name)
        if data is None:
            wanted = name.removeprefix("station-")
            camera = snapshot.view.get("camera") if isinstance(snapshot.view, dict) else None
            waiting = [q for q in (camera or {}).get("questions") or () if str(q.get("id")) == wanted]
            if waiting and waiting[0].get("kind") == STATION_KIND:
                # still waiting, its picture not made yet (a box restarted since the page was drawn: the picture is
                # cut from the camera's next read of the table)
                response, status = _uncached(_error(503, i18n.Text(
                    "no picture of camera question {id} yet: it is made at the camera's next read; try again shortly",
                    id=wanted)))
                response.headers["Retry-After"] = str(PICTURE_RETRY_S)
                return response, status
            if waiting:
                return _uncached(_error(404, i18n.Text("camera question {id} has no picture: only a “whose station "
                                                       "is this?” question shows one", id=wanted)))
            return _uncached(_error(404, i18n.Text("no picture of camera question {id}: it is no longer waiting",
                                                   id=wanted)))
        version = hashlib.sha1(data, usedforsecurity=False).hexdigest()[:12]
        response = Response(data, mimetype="image/jpeg")
        response.headers["ETag"] = f'"{version}"'
        response.headers["Cache-Control"] = ("private, max-age=86400, immutable" if request.args.get("v") == version
                                             else "no-store")
        return response

    @app.get("/frame.jpg")
    @ctx.limiter.limit(ctx.limits.read)
    def frame_jpg() -> Response | tuple[Response, int]:
        ctx.refuse_unjoined()
        snapshot = ctx.hub.snapshot()
        if snapshot.jpeg is None:
            response, status = _error(
                404, i18n.Text("no frame yet: the camera has not delivered a picture since the box started")
            )
            response.headers["Cache-Control"] = "no-store"
            return response, status
        response = Response(snapshot.jpeg, mimetype="image/jpeg")
        response.headers["Cache-Control"] = "no-store"
        response.headers["X-Snapshot-Version"] = str(snapshot.version)
        return response
