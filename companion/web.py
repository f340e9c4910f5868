"""The phone view: a small Flask app that players open on the same Wi-Fi.

It only reads the hub's published snapshots and posts actions; it never changes game state. Served by
waitress (:mod:`companion.webserver`); who may act is :mod:`companion.webauth`'s business.

Anyone on the Wi-Fi may watch (``GET /``, ``/api/state``, ``/api/events``, ``/api/me``). To act, and to
see the camera picture, a phone *joins*: it opens the link in the touchscreen's QR code,
``GET /join/<secret>``, which stores a signed session cookie. Without it every POST and ``/frame.jpg``
answer 403 ``{"error": "scan the QR code on the box to join"}``. A script joins the same way: GET the
``phone view at http://ADDRESS:PORT/join/SECRET`` link that ``companion run|demo`` prints, and keep the
cookie it sets (e.g. ``requests.Session``), then send the ``Host`` the link names.

Every request: a ``Host`` that is not one of the box's addresses or names, or an ``Origin`` that is not
the page's own, is refused 403 (another site's page cannot drive the box); more than the per-client
rate limits (:class:`companion.webauth.RateLimits`) is 429 with ``Retry-After``.

Routes:
    ``GET /``             the phone page of the box's mode (``view["mode"]``, :func:`page_for`): ``box.html``
                          (the chooser, the history, the settings), ``flow.html`` (a game: setup, table check, play,
                          scores) or ``phone.html`` (the d6 dice); a page whose mode changes loads the right one.
    ``GET /join/<secret>``  the QR code's link: with the current join secret, sets the session cookie
                          (HttpOnly, SameSite=Strict, 30 days) and redirects (303) to ``/``; an old or wrong
                          secret is 403 (a page saying to scan the code on the box again).
    ``GET /api/state``    the latest view as JSON, plus ``"version"`` (the hub's publish count, int, 0
                          before the first publish; not the event log's ``session.events``).
    ``GET /api/findings``  every finding of the game, newest first: ``{"findings": [...], "version": int}``
                          (the state carries the newest ``"findings"`` and ``"findings_total"``).
    ``GET /api/me``       this phone: ``{"joined": bool, "seats": [names it claimed], "message": why it
                          cannot act, or null}``; the page asks it every 20 s while shown (every request of a
                          joined phone tells the box the phone is here).
    ``GET /api/events``   Server-Sent Events: the current state at once, then every new version as
                          ``event: state`` (``id:`` = version, ``data:`` = the /api/state JSON), and
                          ``event: me`` (the /api/me JSON) at once and whenever it changes; ``event:
                          heartbeat`` (``{"every_s": 15}``) when nothing changed for ~15 s. At most
                          ``max_streams`` streams in all and ``streams_per_client`` per client: beyond, 503
                          with ``Retry-After``.
    ``GET /frame.jpg``    joined phones: the latest annotated frame (``image/jpeg``, ``no-store``);
                          404 with a JSON ``error`` before the first frame.

State-changing POSTs (joined phones only). Each JSON body carries, besides its own fields,
``"version"``: the event log's last seq the phone showed (``session.events`` of the state on its
screen when the player tapped) and ``"key"``: a fresh idempotency key per tap (1-64 of
``[A-Za-z0-9_-]``; a retry after a lost answer sends the same key and gets the first answer, looked up
before any check of the route's own: a retried Next whose label is no longer current still gets its 200).
Missing or malformed: 400 naming the field (``"field"``; a value that is no button's, an ``"action"`` or a camera
question's ``"answer"``, is said naming the buttons by their labels, with the API's values in ``"allowed"``). The
main loop's answer ``{"recorded": [seq], "message", "error", "status", "version"}`` is returned with ``status`` as
the HTTP status: 200 written (in the database), 400 bad input (nothing recorded), 403 not allowed (another phone's
seat; the touchscreen's own actions), 409 made against an old version or a report the table has moved past (a form
closed now; nothing recorded; the body adds ``"state"``:
the current /api/state JSON), 500 an unexpected fault in the box (logged; the box goes on), 503 storage failing or
the loop did not take it within ``reply_s`` (nothing recorded; never done later).

    ``POST /api/seat``    ``{"player": name}``: claim that seat for this phone (then only this phone may
                          report for or withdraw that seat's entries). A ``player`` names a player in any case
                          (``"ann"`` is the table's ``"Ann"``). A seat another phone holds is taken over only
                          once that phone is away (no request for two minutes; else 403 saying what to do, and
                          the touchscreen asks the table: :mod:`companion.phone_policy`).
    ``POST /api/seat/free``  ``{"player": name}``: free that seat ("Give up my seat"): this phone's own, or
                          another phone's once that phone is away.
    ``POST /api/report``  game flows: ``{"player": name, "form": form id, "values": {field: value}}``.
    ``POST /api/report/undo``  ``{"player": name}``: withdraw that player's newest report; ``{"player": name,
                          "form": "secret"}``: their entry on a form a player keeps one of (a Qualeen's secret).
    ``POST /api/action``  ``{"action": "next_phase", "label": "Settle"}`` in a game flow (the phone's
                          "Next: Settle" button; when ``label`` is given and Next now means something
                          else: 409; ``"confirm": true`` when the page shows what the last Next asked,
                          ``view["game"]["next"]["asked"]``: without it a phone's Next is asked again);
                          ``{"action": "undo"}`` in d6 mode (in a game flow 403: a phone withdraws only
                          its own seat's report; the table's Undo is the touchscreen's);
                          ``{"action": "read_now"}`` asks for a read and is 202 ``{"accepted"}`` (it records
                          nothing itself; ``version``/``key`` are optional for it).
    ``POST /api/setup``   while a game is set up (``view["game"]["setup"]``; else 409): ``{"action":
                          "player", "name", "colour"}`` | ``{"action": "remove", "name"}`` | ``{"action":
                          "rename", "name", "new_name"}`` | ``{"action": "choice", "name", "option", "value"?}``
                          (a per-player option's entry: a species) | ``{"action": "option", "option",
                          "value": "on" | "off"}`` (a game-wide option: Eclipse's alliances) | ``{"action":
                          "even"}`` | ``{"action": "start"}``.
    ``POST /api/camera``  answer a camera question (``view["camera"]["questions"]``): ``{"id": n,
                          "answer": "confirm" | "dismiss", "choice": optional, one of its ``choices``}``.
    ``POST /api/box``     the evening (issue 17): ``{"action": "games" | "history" | "back" | "choose" | "resume" |
                          "open" | "export" | "table_ok", "game"?, "session"?}`` (the chooser, the history, the
                          table check: :data:`companion.actions.NAVIGATION` and their kin); a move off a game being
                          played is 403 from a phone (the touchscreen asks the table; without one, a player's
                          phone may).
    ``POST /api/owner/ask``  ask the touchscreen to let this phone change the box's settings (``owner_ask``).
    ``POST /api/owner/settings``  an owner phone: ``{"setting", "value"}`` (``change_setting``).

Owner pages (issue 17): ``GET /owner`` (the page; asks, then shows the health checks and the settings) and ``GET
/api/owner`` (owner phones: ``{"health": [{"key", "level", "message"}] | null, "settings": {...} | null}``; 403
otherwise). Exports (joined phones): ``GET /export/<session>.json`` and ``GET /export/<session>.bgstats.json``, the
two documents of ``companion export``, of a game that is over (403 before: its record holds choices the table has not
revealed yet, a Race action card chosen face down, an Eclipse final position). Languages: every page speaks the
phone's language (the ``lang`` cookie the page's picker sets, else the browser's ``Accept-Language``, else the box's)
and says so in ``<html lang>``.

Any other failure is JSON too: 404/405 naming the route, 413 for a body over 16 KiB, 500 with a
short message for an unexpected exception (its traceback goes to the log only).
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import hmac
import json
import logging
import re
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from datetime import timedelta
from typing import Any

from flask import Flask, Response, g, jsonify, redirect, render_template, request, session
from flask_limiter import Limiter
from werkzeug.exceptions import HTTPException

from companion import i18n, records
from companion.action_words import action_word
from companion.actions import Action, phone_names
from companion.errors import shown as quoted
from companion.hub import ANSWER_KEYS, Pairing, StateHub
from companion.player_names import MAX_NAME
from companion.webauth import JOIN_TO_ACT, HostGuard, Phone, RateLimits, join_cookie, phone_of
from companion.webinput import MAX_TEXT, BadInput, choice, form_values, json_body, text, version_and_key, whole
from companion.webserver import BODY_LIMIT_BYTES, LANG_COOKIE, TOO_LARGE, PhoneServer, ServerLimits, serve
from companion.webstream import (
    HEARTBEAT_S,
    PhoneJSON,
    StreamSlots,
    findings_text,
    json_text,
    sse_stream,
    state_json,
    unsent,
)
from rules.scoring import has_visible, untypable

__all__ = ["create_app", "page_for", "serve", "PhoneServer", "ServerLimits", "RateLimits", "sse_stream", "state_json",
           "PHONE_ACTIONS", "HEARTBEAT_S", "REPLY_S", "ANSWER_STATUSES"]

log = logging.getLogger(__name__)

PHONE_ACTIONS = phone_names("action")
"""Actions a phone may post to ``/api/action`` (a phone cannot stop the box); ``undo`` only in d6 mode,
``next_phase`` only in a game flow."""

ANSWER_STATUSES = (200, 400, 403, 409, 500, 503)
"""The main loop's answer statuses, each answered as that HTTP status."""

REPLY_S = 5.0
"""Seconds a request waits for the main loop to take it; then it is cancelled and answered 503 (nothing recorded)."""

BUSY = i18n.Text("the box is busy and did not take this in time: nothing was recorded; try again")

A_PLAYERS_NAME = i18n.Text("a player's name")
A_NAME = i18n.Text("a name")
WITH_ACTION = i18n.Text('a JSON object with an "action" key')
SETUP_BUTTONS = i18n.Text("the buttons of the players' setup")
BOX_BUTTONS = i18n.Text("the box's buttons")
CAMERA_ANSWERS = i18n.Text("the answers to a camera question")
NOT_OVER = i18n.Text("this game is not over yet: a phone downloads its record once the game has ended, so that nobody "
                     "reads a choice the table has not revealed")


EXPORT_NAME = re.compile(r"(?P<session>[A-Za-z0-9_-]{1,64})(?P<bgstats>\.bgstats)?\.json")
"""A download's file name: ``<session>.json`` (the record) or ``<session>.bgstats.json`` (the BG Stats play); a
session id is letters, digits, ``-`` and ``_`` (:func:`companion.session.new_id`)."""

BOX_MODES = ("choose", "history", "settings")
"""The modes of the box itself (no game): their phone page is ``box.html``."""



def page_for(view: dict[str, Any]) -> str:
    """The phone page of a view: ``"box"`` (the chooser, the history, the settings), ``"flow"`` (a game) or
    ``"dice"`` (the d6 dice; also before the first publish)."""
    mode = view.get("mode")
    if mode in BOX_MODES:
        return "box"
    if mode in ("setup", "play", "scores", "calibration") or (view.get("game") or {}).get("flow"):
        return "flow"
    return "dice"


def _rate(exc: HTTPException) -> Any:
    """The limit a 429 went over, said in the phone's language ("at most 2 requests in 60 s"): from
    flask-limiter's ``exc.limit`` (its ``limit``: a ``limits`` item with ``amount`` and ``get_expiry()`` s); a
    429 without one (raised elsewhere) keeps its description."""
    item = getattr(getattr(exc, "limit", None), "limit", None)
    amount, expiry = getattr(item, "amount", None), getattr(item, "get_expiry", None)
    if not isinstance(amount, int) or expiry is None:
        return exc.description or ""
    return i18n.plural("at most {n} request in {seconds} s", "at most {n} requests in {seconds} s", amount,
                       seconds=int(expiry()))


def _words_of(route: str) -> dict[str, Any]:
    """Each name a phone may send on ``route`` (``"choose"``) -> the words its button shows (``Choose a game``)."""
    return {name: action_word(Action.for_phone(route, name)) for name in phone_names(route)}


def _error(status: int, message: str, **extra: Any) -> tuple[Response, int]:
    """A JSON error answer; ``message`` said in the request's language (a :class:`companion.i18n.Text`)."""
    return jsonify({"error": i18n.localize(message), **extra}), status


@functools.lru_cache(maxsize=16)
def _words_script(lang: str) -> tuple[bytes, str, bytes]:
    """``(script, digest, gzipped)``: ``window.BOX_WORDS = {"lang", "messages", "plurals"};`` for the phone pages'
    scripts (:func:`companion.i18n.messages` and :func:`~companion.i18n.plurals` of ``lang``, UTF-8), the first 16 hex
    digits of its SHA-256 (the version in its URL), and the script gzipped (a fifth of its size)."""
    words = {"lang": lang, "messages": i18n.messages(lang), "plurals": i18n.plurals(lang)}
    text = json.dumps(words, ensure_ascii=False, sort_keys=True)
    text = text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")  # line breaks to older JavaScript
    body = ("window.BOX_WORDS = " + text + ";\n").encode("utf-8")
    return body, hashlib.sha256(body).hexdigest()[:16], gzip.compress(body, compresslevel=9, mtime=0)


MAX_OPTION_NAMES = 600
"""Longest value of a game option set on a phone, in characters: a list option's names are sent in one text, separated
by commas (Among the Stars' 8 objectives together are 148); :data:`MAX_TEXT` (60) refused three of them."""


def create_app(  # noqa: C901 - registers every route of the phone view: a flat list of small handlers
    hub: StateHub,
    heartbeat_s: float = HEARTBEAT_S,
    reply_s: float = REPLY_S,
    *,
    secret_key: bytes | None = None,
    hosts: Iterable[str] = (),
    rate_limits: RateLimits | None = None,
    max_streams: int = ServerLimits().threads - 8,
    streams_per_client: int = 4,
    exports: Callable[[str], tuple[dict[str, Any], dict[str, Any]]] | None = None,
) -> Flask:
    """The phone-view Flask app reading from and posting to ``hub``.

    Args:
        hub: the running box's :class:`~companion.hub.StateHub` (its :meth:`~StateHub.pairing` says who joined).
        heartbeat_s: seconds between SSE heartbeats on ``/api/events``.
        reply_s: seconds a request waits for the main loop to take it (then 503, cancelled: nothing recorded).
        secret_key: the key that signs the session cookies (the box's own, from
            :func:`companion.paths.web_secret_key`); None makes a random one for this app only.
        hosts: more names or addresses the box answers to besides its own (e.g. ``--host``).
        rate_limits: per-client limits (default :class:`~companion.webauth.RateLimits`).
        max_streams: open ``/api/events`` streams in all (each holds a server thread; keep it below
            :attr:`ServerLimits.threads` so taps always find one).
        streams_per_client: open streams per client (a joined phone, else an address).
        exports: a game's two export documents by session id (:func:`companion.library.export_documents` on the
            box's database; raises ``BadEntry`` for no such game), or None: no downloads.

    Returns:
        A Flask app; ``app.extensions["companion"]`` holds ``{"hub", "stop"}`` where
        ``stop`` (a :class:`threading.Event`) ends open event streams (set by
        :meth:`PhoneServer.shutdown`).
    """
    import secrets

    app = Flask(__name__)
    app.json = PhoneJSON(app)  # letters as UTF-8, not \u escapes; escaped only around a lone surrogate
    app.config.update(
        MAX_CONTENT_LENGTH=BODY_LIMIT_BYTES,  # actions are tiny; refuse larger bodies from the LAN (413)
        SECRET_KEY=secret_key or secrets.token_bytes(32),
        SESSION_COOKIE_NAME="companion",
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Strict",
        SESSION_COOKIE_SECURE=False,  # the box speaks plain HTTP on the LAN
        SESSION_REFRESH_EACH_REQUEST=False,
        PERMANENT_SESSION_LIFETIME=timedelta(days=30),
    )
    stop = threading.Event()
    app.extensions["companion"] = {"hub": hub, "stop": stop}
    guard = HostGuard(hosts)
    limits = rate_limits or RateLimits()
    streams = StreamSlots(max_streams, streams_per_client)
    app.jinja_env.add_extension("jinja2.ext.i18n")
    app.jinja_env.install_gettext_callables(gettext=i18n._, ngettext=i18n.ngettext, newstyle=True)

    @app.before_request
    def speak_the_phones_language() -> None:
        lang = i18n.pick_language(request.cookies.get(LANG_COOKIE), request.headers.get("Accept-Language"),
                                  i18n.box_language())
        g.language = lang
        g.language_token = i18n.enter_language(lang)

    @app.teardown_request
    def back_to_the_boxs_language(_exc: BaseException | None) -> None:
        token = g.pop("language_token", None)
        if token is not None:
            i18n.leave_language(token)

    @app.context_processor
    def languages() -> dict[str, Any]:
        lang = g.get("language", i18n.box_language())
        return {"lang": lang, "languages": i18n.LANGUAGE_NAMES,
                "words_url": f"/words/{lang}.js?v={_words_script(lang)[1]}"}

    @app.get("/words/<lang>.js")
    def words_script(lang: str) -> Response | tuple[Response, int]:
        """The page scripts' words in one language (``window.BOX_WORDS``), a file of its own so that a page is a few
        KB and a phone keeps the words between pages: cached for a year under the URL the pages give
        (``?v=`` the words' digest: new words, a new URL)."""
        if lang not in i18n.LANGUAGES:
            return _error(404, i18n.Text("no such page on the box: {path}", path=request.path[:60]))
        body, digest, packed = _words_script(lang)
        zipped = "gzip" in request.accept_encodings
        response = Response(packed if zipped else body, mimetype="text/javascript")
        response.vary.add("Accept-Encoding")
        if zipped:
            response.content_encoding = "gzip"
        response.set_etag(digest + ("-gz" if zipped else ""))
        if request.args.get("v") == digest:
            response.headers["Cache-Control"] = "public, max-age=31536000, immutable"
        else:  # no version or an old one: the words now, checked again next time
            response.headers["Cache-Control"] = "no-cache"
        return response.make_conditional(request)

    def phone() -> Phone:
        return phone_of(session, hub.pairing())

    def client_key() -> str:
        client = phone().client
        return f"phone:{client}" if client else f"ip:{request.remote_addr}"

    @app.before_request
    def only_the_box_and_its_own_pages() -> tuple[Response, int] | None:
        host = request.headers.get("Host")
        if not guard.host_allowed(host):
            shown = (host or "")[:60]
            return _error(403, i18n.Text("this box does not answer to the name {host!r}: open it by its own address "
                                         "(scan the QR code on the box)", host=shown))
        if not guard.origin_allowed(request.headers.get("Origin"), host, request.scheme):
            return _error(403, i18n.Text("refused: this request comes from another site's page, not from the box's own "
                                         "phone page"))
        return None

    @app.after_request
    def retry_after_only_when_refused(response: Response) -> Response:
        """``Retry-After`` only on a 429 or a 503: the rate limiter sets it on every answer it counts (a download, the
        state), where it tells a phone nothing. Registered before the limiter so it runs after the limiter's own
        hook (Flask runs ``after_request`` hooks last registered first)."""
        if response.status_code not in (429, 503):
            response.headers.pop("Retry-After", None)
        return response

    @app.before_request
    def heard_from_the_phone() -> None:
        """Every request of a joined phone says it is here (:class:`companion.phone_policy.PhonePresence`: a seat
        held by a phone away for two minutes may be taken over)."""
        who = phone()
        if who.joined and who.client is not None:
            hub.presence.heard(who.client)

    limiter = Limiter(client_key, app=app, storage_uri="memory://", headers_enabled=True,
                      key_prefix=f"companion-{id(app)}")

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> Response:
        code = exc.code or 500
        messages = {
            404: i18n.Text("no such page on the box: {path}", path=request.path[:60]),
            405: i18n.Text("{method} is not how {path} is used", method=request.method, path=request.path[:60]),
            413: TOO_LARGE,
            429: i18n.Text("too many requests from this phone ({limit}): wait a moment and tap again",
                           limit=_rate(exc)),
        }
        response = jsonify({"error": i18n.localize(messages.get(code, exc.description or exc.name))})
        response.status_code = code
        for header in ("Allow", "Retry-After"):
            if header in exc.get_response().headers:
                response.headers[header] = exc.get_response().headers[header]
        return response

    @app.errorhandler(Exception)
    def unexpected(exc: Exception) -> tuple[Response, int]:
        log.error("phone view: %s %s failed", request.method, request.path, exc_info=exc)
        return _error(500, i18n.Text("the box hit an unexpected problem ({error}) and logged it; the game goes on: "
                                     "check the table before you tap again", error=type(exc).__name__))

    @app.errorhandler(BadInput)
    def bad_input(exc: BadInput) -> tuple[Response, int]:
        extra = {"field": exc.field} if exc.field else {}
        if exc.allowed is not None:  # the API's values of a choice; the message names them by the screen's words
            extra["allowed"] = list(exc.allowed)
        return _error(400, i18n.message_of(exc), **extra)

    def refuse_unjoined() -> Phone:
        """The joined phone making this request; a phone that has not joined gets 403 (raised)."""
        who = phone()
        if not who.joined:
            raise _Refused(_error(403, JOIN_TO_ACT))
        return who

    @app.errorhandler(_Refused)
    def refused(exc: _Refused) -> tuple[Response, int]:
        return exc.answer

    def answer(reply: dict[str, Any] | None) -> tuple[Response, int]:
        if reply is None:
            return _error(503, BUSY)
        status = reply.get("status")
        if status not in ANSWER_STATUSES:  # an answer without a status: an error is bad input, else written
            status = 400 if reply.get("error") else 200
        body = {k: reply[k] for k in ANSWER_KEYS if k in reply}
        body["status"] = status
        if status != 200 and not body.get("error"):
            body["error"] = {
                409: i18n.Text(
                    "the game changed since your screen showed it: nothing was recorded; look and tap again"
                ),
                503: BUSY,
            }.get(status, i18n.Text("refused"))
        if status == 409:
            body["state"] = state_json(hub.snapshot())
        return jsonify(i18n.localize(body)), status

    def posted_json(example: str, fields: Iterable[str], shape: str | None = None) -> dict[str, Any]:
        """The request's JSON body, holding only the route's ``fields`` besides ``version`` and ``key`` (a field
        no route reads, a misspelt ``"playr"``, is refused naming it: a report that silently lost a value would
        be wrong); a tap already answered (its ``key``) gets its first answer again at once, before any check of
        the route's own (:mod:`companion.desk`, step 2)."""
        body = json_body(example, shape) if shape is not None else json_body(example)
        known = ("version", "key", *fields)
        for name in body:
            if name not in known:
                raise BadInput(i18n.Text("unknown field {name}: this request takes {fields}; e.g. {example}",
                                         name=quoted(name), fields=", ".join(known), example=example), str(name)[:40])
        first = hub.recall(body.get("key"), phone().client, tap_fingerprint(body))  # this phone's own taps only
        if first is not None:
            raise _Refused(answer(first))
        return body

    def tap_fingerprint(body: Mapping[str, Any]) -> str | None:
        """The fingerprint of a tap (:func:`companion.records.fingerprint`): its route and its body as the phone sent
        it, but the key; the same tap sent again has the same one, whichever way the loop reaches its answer (None:
        a body JSON cannot write again; the loop then takes the action's own)."""
        try:
            return records.fingerprint({"route": request.path, "body": {k: v for k, v in body.items() if k != "key"}})
        except (TypeError, ValueError, RecursionError):
            return None

    def ask(action: Action, who: Phone, body: dict[str, Any], example: str, **payload: Any) -> tuple[Response, int]:
        version, key = version_and_key(body, example)
        return answer(
            hub.request(action, "phone", reply_s, version=version, key=key,
                        **{"client": who.client, "fingerprint": tap_fingerprint(body), **payload})
        )

    def me_of(cookie: dict[str, Any], pairing: Pairing | None) -> dict[str, Any]:
        who = phone_of(cookie, pairing)
        return {"joined": who.joined, "seats": who.seats(pairing), "message": None if who.joined else JOIN_TO_ACT}

    # -- pages and reads ---------------------------------------------------------------------------
    @app.get("/")
    def phone_page() -> str:
        page = page_for(hub.snapshot().view)
        joined = phone().joined  # drawn so from the start; the page follows /api/events' "me" after
        template = {"box": "box.html", "flow": "flow.html", "dice": "phone.html"}[page]
        # max_name: the longest player name the box takes, the setup's name field's maxlength
        return render_template(template, joined=joined, page=page, max_name=MAX_NAME)

    @app.get("/owner")
    def owner_page() -> str:
        return render_template("owner.html", joined=phone().joined, page="owner")

    @app.get("/api/owner")
    @limiter.limit(limits.read)
    def api_owner() -> tuple[Response, int] | Response:
        who = refuse_unjoined()
        pairing = hub.pairing()
        if pairing is None or who.client not in pairing.owners:
            return _error(403, i18n.Text("ask on the owner page first; the box's touchscreen then allows this phone"))
        response = jsonify(i18n.localize(hub.owner_view()))
        response.headers["Cache-Control"] = "no-store"
        return response

    @app.get("/export/<name>")
    @limiter.limit(limits.read)
    def export_file(name: str) -> Response | tuple[Response, int]:
        refuse_unjoined()
        # "<session>.bgstats.json" is the play, "<session>.json" the record; a session id has no dot
        # (companion.session.new_id), so ".bgstats.json" is no game's file, not a game named ".bgstats"
        found = EXPORT_NAME.fullmatch(name)
        if exports is None or found is None:
            return _error(404, i18n.Text("no such export: /export/<session>.json or /export/<session>.bgstats.json"))
        session_id, kind = found.group("session"), "bgstats.json" if found.group("bgstats") else "json"
        from companion.errors import BadEntry, SessionError

        try:
            game, play = exports(session_id)
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

    @app.get("/join/<secret>")
    @limiter.limit(limits.join)
    def join(secret: str) -> Response | tuple[str, int]:
        pairing = hub.pairing()
        if pairing is None:
            return render_template("join.html", problem=i18n._("The box is still starting: try the QR code again in a "
                                                               "moment.")), 503
        if not hmac.compare_digest(secret.encode("utf-8", "replace"), pairing.secret.encode("utf-8")):
            return render_template("join.html", problem=i18n._("This join link is not the box's current one: the table "
                                                               "may have made a new QR code. Scan the QR code on the "
                                                               "box's screen again.")), 403
        contents = join_cookie(session, pairing)
        session.clear()
        session.update(contents)
        session.permanent = True
        response = redirect("/", code=303)
        response.headers["Cache-Control"] = "no-store"
        response.headers["Referrer-Policy"] = "no-referrer"  # the secret is in this URL
        return response

    @app.get("/api/state")
    @limiter.limit(limits.read)
    def api_state() -> Response:
        try:
            response = jsonify(state_json(hub.snapshot()))
        except Exception as exc:  # noqa: BLE001 -- a state that cannot be written (logged) is said as such
            log.error("phone view: the state could not be sent: %s", exc, exc_info=exc)
            response, status = _error(500, unsent(exc))
            response.status_code = status
        response.headers["Cache-Control"] = "no-store"
        return response

    @app.get("/api/findings")
    @limiter.limit(limits.read)
    def api_findings() -> Response:
        """Every finding of the game, newest first (the state pushes carry the newest few and their number), written
        once per state and language (:func:`findings_text`)."""
        try:
            response = Response(findings_text(hub.snapshot()), mimetype="application/json")
        except Exception as exc:  # noqa: BLE001 -- as /api/state
            log.error("phone view: the findings could not be sent: %s", exc, exc_info=exc)
            response, status = _error(500, unsent(exc))
            response.status_code = status
        response.headers["Cache-Control"] = "no-store"
        return response

    @app.get("/api/me")
    @limiter.limit(limits.read)
    def api_me() -> Response:
        response = jsonify(i18n.localize(me_of(dict(session), hub.pairing())))
        response.headers["Cache-Control"] = "no-store"
        return response

    @app.get("/api/events")
    @limiter.limit(limits.events)
    def api_events() -> Response | tuple[Response, int]:
        cookie = dict(session)  # read now: the stream runs outside this request
        slot = client_key()
        full = streams.take(slot)
        if full is not None:
            response, status = _error(503, i18n.Text("{problem}: this page shows the state every few seconds instead; "
                                                     "close other tabs of the box", problem=full))
            response.headers["Retry-After"] = "10"
            return response, status

        lang = g.get("language")  # the stream is written after this request's context is gone

        def events() -> Iterator[str]:
            try:
                yield from sse_stream(hub, heartbeat_s=heartbeat_s, stop=stop, me=lambda: me_of(cookie, hub.pairing()),
                                      lang=lang)
            finally:
                streams.give_back(slot)

        return Response(events(), mimetype="text/event-stream",
                        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    @app.get("/frame.jpg")
    @limiter.limit(limits.read)
    def frame_jpg() -> Response | tuple[Response, int]:
        refuse_unjoined()
        snapshot = hub.snapshot()
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

    # -- actions -----------------------------------------------------------------------------------
    @app.post("/api/action")
    @limiter.limit(limits.act)
    def api_action() -> tuple[Response, int]:
        who = refuse_unjoined()
        example = '{"action": "next_phase", "label": "Settle", "version": 12, "key": "k1"}'
        body = posted_json(example, ("action", "label", "confirm"), WITH_ACTION)
        if "action" not in body:
            raise BadInput(i18n.Text("the body must be {shape}, e.g. {example}", shape=WITH_ACTION, example=example),
                           "action")
        action = body["action"]
        if not isinstance(action, str) or action not in PHONE_ACTIONS:
            return _error(400, i18n.Text("unknown action {action}; a phone may post: {actions}", action=quoted(action),
                                         actions=i18n.Listing([action_word(a) for a in PHONE_ACTIONS])),
                          allowed=list(PHONE_ACTIONS), field="action")
        game = hub.snapshot().view.get("game") or {}
        in_flow = bool(game.get("flow"))
        if action == Action.READ_NOW:  # asks for a read; the read itself is recorded by the loop
            hub.post_action(Action.READ_NOW, origin="phone", client=who.client)
            return jsonify({"accepted": action}), 202
        if action == Action.UNDO:
            if in_flow and (hub.snapshot().view.get("box") or {}).get("screen", True):  # --no-screen: the desk decides
                return _error(403, i18n.Text("in a game a phone withdraws only its own report: pick your seat and tap "
                                             "“{button}”; the Undo of the whole table is on the touchscreen",
                                             button=action_word(Action.UNDO_REPORT)))
            return ask(Action.UNDO, who, body, '{"action": "undo", "version": 12, "key": "k1"}')
        if not in_flow:
            from companion.flows import run_hint

            command = (hub.snapshot().view.get("box") or {}).get("command", "run")  # demo: the demo's own command
            return _error(400, i18n.Text("{action} needs a game flow ({hint})", action=action_word(Action.NEXT_PHASE),
                                         hint=run_hint(command)), field="action")
        label = text(body, "label", example, required=False, what=i18n.Text("the Next button's label"))
        raw = (game.get("next") or {}).get("label") or ""
        now = str(i18n.localize(raw))  # the label as this phone's page showed it (its language)
        if label is not None and label != now and label != str(raw):
            return answer({"recorded": [], "message": "", "status": 409, "version": None,
                           "error": i18n.Text("Next now means {now!r}, not {label!r}: nothing moved; look at the table "
                                              "and tap again", now=now or i18n.Text("nothing"), label=label[:40])})
        confirm = body.get("confirm", False)
        if not isinstance(confirm, bool):  # the page showed the question the last Next asked: true or false
            raise BadInput(i18n.Text("{field} must be true or false, not {value}; e.g. {example}",
                                     field=repr("confirm"), value=quoted(confirm),
                                     example='{"action": "next_phase", "label": "End round", "confirm": true}'),
                           "confirm")
        return ask(Action.NEXT_PHASE, who, body, example, confirm=confirm)

    def seat_route(action: Action) -> Callable[[], tuple[Response, int]]:
        """A POST whose field is ``player`` (a seat): claiming it, withdrawing its newest report (or, with ``form``,
        its entry on a form a player keeps one of), freeing it."""
        def route() -> tuple[Response, int]:
            who = refuse_unjoined()
            example = '{"player": "Ann", "version": 12, "key": "k1"}'
            withdraws = action is Action.UNDO_REPORT
            body = posted_json(example, ("player", "form") if withdraws else ("player",))
            form = ({"form": text(body, "form", '{"player": "Ann", "form": "secret", "version": 12, "key": "k1"}',
                                  what=i18n.Text("a form's id"))} if withdraws and "form" in body else {})
            return ask(action, who, body, example, player=text(body, "player", example, what=A_PLAYERS_NAME), **form)

        route.__name__ = f"api_{action.value}"  # each its own rate-limit bucket and endpoint
        return limiter.limit(limits.act)(route)

    for seat_action in (Action.CLAIM_SEAT, Action.UNDO_REPORT, Action.RELEASE_SEAT):
        app.add_url_rule(f"/api/{seat_action.phone}", view_func=seat_route(seat_action), methods=["POST"])

    @app.post("/api/report")
    @limiter.limit(limits.act)
    def api_report() -> tuple[Response, int]:
        who = refuse_unjoined()
        example = '{"player": "Ann", "form": "vp", "values": {"vp": 2}, "version": 12, "key": "k1"}'
        body = posted_json(example, ("player", "form", "values"))
        player = text(body, "player", example, what=A_PLAYERS_NAME)
        form = text(body, "form", example, what=i18n.Text("a form's id"))
        forms = (hub.snapshot().view.get("game") or {}).get("forms") or ()  # as the phone was shown them
        shown_form = next((one for one in forms if isinstance(one, dict) and one.get("id") == form), {})
        fields = {f["name"]: (f.get("label"), f.get("kind", ""), f.get("min"), f.get("max"))
                  for f in shown_form.get("fields", ())}
        values = form_values(body, example, fields, shown_form.get("label"))
        return ask(Action.REPORT, who, body, example, player=player, form=form, values=values)

    @app.post("/api/setup")
    @limiter.limit(limits.act)
    def api_setup() -> tuple[Response, int]:
        who = refuse_unjoined()
        example = '{"action": "player", "name": "Ann", "colour": "red", "version": 0, "key": "k1"}'
        body = posted_json(example, ("action", "name", "colour", "new_name", "option", "value"))
        what = choice(body, "action", phone_names("setup"), example, _words_of("setup"), SETUP_BUTTONS)
        if not (hub.snapshot().view.get("game") or {}).get("setup"):
            return answer({"recorded": [], "message": "", "status": 409, "version": None,
                           "error": i18n.Text("no game is being set up now (the game has started, or this box reads d6 "
                                              "dice): players are set up before Start")})
        for typed in (("name",) if what == "player" else ("new_name",) if what == "rename" else ()):
            typed_text = body.get(typed)
            # "Add" tapped before typing a name; a name holding a character no keyboard types (a NUL alone too) is
            # refused below naming that character, as every other field's is
            if isinstance(typed_text, str) and untypable(typed_text) is None and not has_visible(typed_text):
                raise BadInput(i18n.Text("type the player's name first"), typed)
        extra = {}
        words = {"colour": i18n.Text("a colour"), "option": i18n.Text("an option's name"),
                 "value": i18n.Text("one of the option's choices")}
        for key, payload_key in (
            ("name", "player"),
            ("colour", "colour"),
            ("new_name", "name"),
            ("option", "option"),
            ("value", "value"),
        ):
            value = text(
                body,
                key,
                example,
                required=(key == "name" and what in ("player", "remove", "rename", "choice"))
                or (key == "new_name" and what == "rename")
                or (key == "option" and what in ("choice", "option"))
                or (key == "value" and what == "option"),
                what=words.get(key, A_NAME),
                label=i18n.Text("Name") if key in ("name", "new_name") else None,  # as the page's field says
                max_len=MAX_NAME if key in ("name", "new_name")
                else MAX_OPTION_NAMES if (key, what) == ("value", "option") else MAX_TEXT,  # as the page sends
            )
            if value is not None:
                extra[payload_key] = value
        return ask(Action.for_phone("setup", what), who, body, example, **extra)

    @app.post("/api/box")
    @limiter.limit(limits.act)
    def api_box() -> tuple[Response, int]:
        who = refuse_unjoined()
        example = '{"action": "choose", "game": "roll", "version": 0, "key": "k1"}'
        body = posted_json(example, ("action", *sorted({k for n in phone_names("box")
                                                        for k in Action.for_phone("box", n).keys})))
        what = choice(body, "action", phone_names("box"), example, _words_of("box"), BOX_BUTTONS)
        action = Action.for_phone("box", what)
        extra = {}
        words = {"game": i18n.Text("a game's name"), "session": i18n.Text("a game's session id")}
        if "session" in action.keys:  # resume, open, export: an example of this action, not of "choose"
            example = json.dumps({"action": what, "session": "20261203-221149-c1a2b2", "version": 0, "key": "k1"})
        for key in action.keys:  # "game" (choose), "session" (resume, open, export)
            value = text(body, key, example, required=what in ("choose", "resume"), what=words.get(key, A_NAME))
            if value is not None:
                extra[key] = value
        return ask(action, who, body, example, **extra)

    @app.post("/api/owner/ask")
    @limiter.limit(limits.act)
    def api_owner_ask() -> tuple[Response, int]:
        who = refuse_unjoined()
        example = '{"version": 12, "key": "k1"}'
        body = posted_json(example, ())
        return ask(Action.OWNER_ASK, who, body, example)

    @app.post("/api/owner/settings")
    @limiter.limit(limits.act)
    def api_owner_settings() -> tuple[Response, int]:
        who = refuse_unjoined()
        example = '{"setting": "box.language", "value": "el", "version": 12, "key": "k1"}'
        body = posted_json(example, ("setting", "value"))
        setting = text(body, "setting", example, what=i18n.Text("a setting's name"))
        if "value" not in body:
            raise BadInput(i18n.Text('the body needs "value", e.g. {example}', example=example), "value")
        value = body["value"]
        if not (value is None or isinstance(value, (bool, int, str))) or (isinstance(value, str) and len(value) > 60):
            raise BadInput(i18n.Text("'value' must be a short text, a whole number or true/false"), "value")
        return ask(Action.CHANGE_SETTING, who, body, example, setting=setting, value=value)

    @app.post("/api/camera")
    @limiter.limit(limits.act)
    def api_camera() -> tuple[Response, int]:
        who = refuse_unjoined()
        example = '{"id": 3, "answer": "confirm", "version": 12, "key": "k1"}'
        body = posted_json(example, ("id", "answer", "choice"))
        qid = whole(body, "id", example, what=i18n.Text("the question's number"))
        answer_action = Action.for_phone("camera", choice(body, "answer", phone_names("camera"), example,
                                                          _words_of("camera"), CAMERA_ANSWERS))
        picked = text(body, "choice", example, required=False, what=i18n.Text("one of the question's choices"))
        extra = {"choice": picked} if answer_action is Action.CAMERA_CONFIRM and picked else {}
        return ask(answer_action, who, body, example, id=qid, **extra)

    return app


class _Refused(Exception):
    """Carries a ready answer (a 403) out of a route's checks."""

    def __init__(self, answer: tuple[Response, int]) -> None:
        super().__init__("refused")
        self.answer = answer
