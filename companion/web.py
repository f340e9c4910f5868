"""The phone view: a small Flask app that players open on the same Wi-Fi.

It only reads the hub's published snapshots and posts actions; it never changes game state. Served by
waitress (:mod:`companion.webserver`); who may act is :mod:`companion.webauth`'s business. This module makes the
app, its pages and the checks every request passes; the reads are :mod:`companion.webreads`', the taps
:mod:`companion.webposts`', sharing one :class:`~companion.webcontext.PhoneContext`. Answers of 1 KiB or more (JSON,
pages) are compressed for a phone that accepts it (zstd, Brotli or gzip: :mod:`companion.webcompress`); the event
stream never is.

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
    ``GET /picture/station-<id>.jpg``  joined phones: the picture of camera question ``id``'s station (the
                          question's ``picture`` names it with ``?v=<version>``; cached by the phone then), 404
                          with a JSON ``error`` for another name or a question no longer waiting.

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
                          ``{"action": "undo"}`` (the table's Undo: its newest event, whoever made it) in d6
                          mode; in a game flow 403 on a box with a touchscreen (a phone withdraws only its
                          own seat's report; the table's Undo is the touchscreen's), while on a box without
                          one (``--no-screen``, the demo's way) a joined phone's is taken as the touchscreen's
                          would be (:mod:`companion.desk`);
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
import threading
from collections.abc import Callable, Iterable
from datetime import timedelta
from typing import Any

from flask import Flask, Response, g, jsonify, redirect, render_template, request, session
from flask_limiter import Limiter
from werkzeug.exceptions import HTTPException

from companion import i18n
from companion.hub import StateHub
from companion.player_names import MAX_NAME
from companion.webauth import HostGuard, RateLimits, join_cookie
from companion.webcompress import accepted_encodings, compress_answers, compress_static_files
from companion.webconditional import not_modified_before_range
from companion.webcontext import ANSWER_STATUSES, BUSY, PhoneContext, Refused, error_answer, said_back
from companion.webinput import BadInput
from companion.webposts import PHONE_ACTIONS, register_taps
from companion.webreads import register_reads
from companion.webserver import BODY_LIMIT_BYTES, LANG_COOKIE, TOO_LARGE, PhoneServer, ServerLimits, serve
from companion.webstream import HEARTBEAT_S, PhoneJSON, StreamSlots, sse_stream, state_json

__all__ = ["create_app", "page_for", "serve", "PhoneServer", "ServerLimits", "RateLimits", "sse_stream", "state_json",
           "PHONE_ACTIONS", "HEARTBEAT_S", "REPLY_S", "ANSWER_STATUSES", "BUSY"]

log = logging.getLogger(__name__)

REPLY_S = 5.0
"""Seconds a request waits for the main loop to take it; then it is cancelled and answered 503 (nothing recorded)."""

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


_error = error_answer


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


def _as_sent(header: str) -> str:
    """A header's text as the phone sent it: WSGI gives its bytes as Latin-1 characters (``"Î\\x91"`` for a Greek
    ``"Α"``); read as UTF-8 where they are, the bytes that are not kept as escapes (``"\\udcce"`` in a ``repr``)."""
    try:
        return header.encode("latin-1").decode("utf-8", "surrogateescape")
    except UnicodeEncodeError:  # not bytes as Latin-1 (a test client's text): as it is
        return header


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
        A Flask app; ``app.extensions["companion"]`` holds ``{"hub", "stop", "streams"}`` where
        ``stop`` (a :class:`threading.Event`) ends open event streams (set by
        :meth:`PhoneServer.shutdown`) and ``streams`` (:class:`StreamSlots`) counts them.
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
    streams = StreamSlots(max_streams, streams_per_client)
    app.extensions["companion"] = {"hub": hub, "stop": stop, "streams": streams}
    guard = HostGuard(hosts)
    limits = rate_limits or RateLimits()
    ctx = PhoneContext(hub, reply_s=reply_s, heartbeat_s=heartbeat_s, limits=limits,
                       streams=streams, stop=stop, exports=exports)
    compress_answers(app)  # before the app's own after_request hooks: it runs after them (its doc says why)
    compress_static_files(app)  # the pages' scripts and style sheets too, their caching kept
    not_modified_before_range(app)  # a phone holding a file gets 304, not a part of it (RFC 9110 13.2.2)
    app.jinja_env.add_extension("jinja2.ext.i18n")
    app.jinja_env.install_gettext_callables(gettext=i18n._, ngettext=i18n.ngettext, newstyle=True)

    @app.before_request
    def speak_the_phones_language() -> None:
        lang = i18n.pick_language(request.cookies.get(LANG_COOKIE), request.headers.get("Accept-Language"),
                                  i18n.box_language())
        g.language = lang
        g.language_token = i18n.enter_language(lang)

    @app.after_request
    def clear_a_cookie_naming_no_language(response: Response) -> Response:
        """A language cookie that names none of the box's languages as a language tag (``"el-"``, ``"uk-"``, a
        damaged value) was ignored for this page (:func:`companion.i18n.chosen_language`): it is cleared, so the
        phone's browser language and the picker decide from now on."""
        kept = request.cookies.get(LANG_COOKIE)
        if kept is not None and i18n.chosen_language(kept) is None:
            response.delete_cookie(LANG_COOKIE, path="/", samesite="Strict")
        return response

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
            return _error(404, i18n.Text("no such page on the box: {path}", path=said_back(request.path)))
        body, digest, packed = _words_script(lang)
        zipped = "gzip" in accepted_encodings(request.headers.get("Accept-Encoding"))  # "gzip;q=0" refuses it
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

    @app.before_request
    def only_the_box_and_its_own_pages() -> tuple[Response, int] | None:
        host = request.headers.get("Host")
        if not guard.host_allowed(host):
            shown = _as_sent(host or "")[:60]
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
        who = ctx.phone()
        if who.joined and who.client is not None:
            hub.presence.heard(who.client)

    ctx.limiter = Limiter(ctx.client_key, app=app, storage_uri="memory://", headers_enabled=True,
                      key_prefix=f"companion-{id(app)}")

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> Response:
        code = exc.code or 500
        path = said_back(request.path)
        messages = {
            404: i18n.Text("no such page on the box: {path}", path=path),
            405: i18n.Text("{method} is not how {path} is used", method=said_back(request.method), path=path),
            413: TOO_LARGE,
            429: i18n.Text("too many requests from this phone ({limit}): wait a moment and tap again",
                           limit=_rate(exc)),
            416: i18n.Text("the part of {path} asked for ({range}) is not there: ask for the whole file",
                           path=path, range=said_back(str(request.headers.get("Range", "")))),
        }
        response = jsonify({"error": i18n.localize(messages.get(code, exc.description or exc.name))})
        response.status_code = code
        for header in ("Allow", "Retry-After", "Content-Range"):  # 416: "bytes */<length>" (RFC 9110 15.5.17)
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
        response, status = _error(exc.status, i18n.message_of(exc), **extra)
        response.headers.update(exc.headers)  # a 415 for a content coding: the codings the box reads
        return response, status

    @app.errorhandler(Refused)
    def refused(exc: Refused) -> tuple[Response, int]:
        return exc.answer

    # -- pages and reads ---------------------------------------------------------------------------
    @app.get("/")
    def phone_page() -> str:
        page = page_for(hub.snapshot().view)
        joined = ctx.phone().joined  # drawn so from the start; the page follows /api/events' "me" after
        template = {"box": "box.html", "flow": "flow.html", "dice": "phone.html"}[page]
        # max_name: the longest player name the box takes, the setup's name field's maxlength
        return render_template(template, joined=joined, page=page, max_name=MAX_NAME)

    @app.get("/owner")
    def owner_page() -> str:
        return render_template("owner.html", joined=ctx.phone().joined, page="owner")

    @app.get("/join/<secret>")
    @ctx.limiter.limit(limits.join)
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

    register_reads(app, ctx)
    register_taps(app, ctx)
    return app

