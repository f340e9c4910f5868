"""What every route of the phone view shares (:mod:`companion.web`): the hub, the limits, who is asking, and how a tap
is handed to the main loop and its answer sent back.

The routes are registered in three modules by what they do (:mod:`companion.web`: the app, its pages and its hooks;
:mod:`companion.webreads`: the JSON reads, the event stream and the camera picture; :mod:`companion.webposts`: the
taps); each is given one :class:`PhoneContext` instead of sharing the closures of one long function."""

from __future__ import annotations

import threading
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from flask import Response, jsonify, request, session

from companion import i18n, records
from companion.actions import Action
from companion.errors import shown as quoted
from companion.hub import ANSWER_KEYS, Pairing, StateHub
from companion.webauth import JOIN_TO_ACT, Phone, RateLimits, phone_of
from companion.webinput import VERSION_SHOWN, BadInput, json_body, version_and_key, whole
from companion.webstream import StreamSlots, state_json

__all__ = ["ANSWER_STATUSES", "BUSY", "PhoneContext", "Refused", "error_answer", "said_back"]

ANSWER_STATUSES = (200, 400, 403, 409, 500, 503)
"""The main loop's answer statuses, each answered as that HTTP status."""

BUSY = i18n.Text("the box is busy and did not take this in time: nothing was recorded; try again")


_UNSEEN = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
"""Unicode categories shown escaped when a request's text is said back: control and format characters (a NUL, a
right-to-left override that would turn the message around on the phone), lone surrogates and line breaks."""


def said_back(text: str, limit: int = 60) -> str:
    """``text`` from a request (its path, a header) as an answer says it back: every control or format character
    (categories Cc, Cf; also lone surrogates and line or paragraph separators) escaped as Python writes it
    (``"\\x00"``, ``"\\u202e"``), the rest as it is, cut to about ``limit`` characters (``…`` marks the cut; an
    escape is never cut in two)."""
    kept: list[str] = []
    size = 0
    for char in text:
        piece = char.encode("unicode_escape").decode("ascii") if unicodedata.category(char) in _UNSEEN else char
        if size + len(piece) > limit:
            return "".join(kept) + "…"
        kept.append(piece)
        size += len(piece)
    return "".join(kept)


def error_answer(status: int, message: str, **extra: Any) -> tuple[Response, int]:
    """A JSON error answer ``({"error": message, **extra}, status)``; ``message`` said in the request's language (a
    :class:`companion.i18n.Text`)."""
    return jsonify({"error": i18n.localize(message), **extra}), status


class Refused(Exception):
    """Carries a ready answer (a 403, or a tap's first answer given again) out of a route's checks; the app answers
    it as it is (:func:`companion.web.create_app`'s error handler)."""

    def __init__(self, answer: tuple[Response, int]) -> None:
        super().__init__("refused")
        self.answer = answer


class PhoneContext:
    """The phone view's shared parts, one per app.

    Attributes:
        hub: the running box's :class:`~companion.hub.StateHub`.
        reply_s: seconds a tap waits for the main loop to take it (then 503, cancelled: nothing recorded).
        heartbeat_s: seconds between SSE heartbeats on ``/api/events``.
        limits: the per-client rate limits (:class:`~companion.webauth.RateLimits`).
        streams: the open ``/api/events`` streams, in all and per client.
        stop: set on shutdown: open event streams end.
        exports: a game's two export documents by session id, or None (no downloads).
        limiter: the app's ``flask_limiter.Limiter`` (set by :func:`companion.web.create_app`, keyed by
            :meth:`client_key`).
    """

    def __init__(self, hub: StateHub, *, reply_s: float, heartbeat_s: float, limits: RateLimits,
                 streams: StreamSlots, stop: threading.Event,
                 exports: Callable[[str], tuple[dict[str, Any], dict[str, Any]]] | None) -> None:
        self.hub = hub
        self.reply_s = reply_s
        self.heartbeat_s = heartbeat_s
        self.limits = limits
        self.streams = streams
        self.stop = stop
        self.exports = exports
        self.limiter: Any = None

    def phone(self) -> Phone:
        """The phone making this request (joined or not; its seats)."""
        return phone_of(session, self.hub.pairing())

    def client_key(self) -> str:
        """The rate limits' and streams' key of this request: ``phone:<id>`` for a joined phone, else ``ip:<addr>``."""
        client = self.phone().client
        return f"phone:{client}" if client else f"ip:{request.remote_addr}"

    def refuse_unjoined(self) -> Phone:
        """The joined phone making this request.

        Raises:
            Refused: the phone has not joined (a 403 saying to scan the QR code).
        """
        who = self.phone()
        if not who.joined:
            raise Refused(error_answer(403, JOIN_TO_ACT))
        return who

    def answer(self, reply: dict[str, Any] | None) -> tuple[Response, int]:
        """The main loop's ``reply`` as the HTTP answer (its ``status``; None: the loop did not take it, 503). A 409
        carries the current state (``"state"``)."""
        if reply is None:
            return error_answer(503, BUSY)
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
            body["state"] = state_json(self.hub.snapshot())
        return jsonify(i18n.localize(body)), status

    def posted_json(self, example: str, fields: Iterable[str], shape: str | None = None) -> dict[str, Any]:
        """The request's JSON body, holding only the route's ``fields`` besides ``version`` and ``key`` (a field
        no route reads, a misspelt ``"playr"``, is refused naming it: a report that silently lost a value would
        be wrong); a tap already answered (its ``key``) gets its first answer again at once, before any check of
        the route's own (:mod:`companion.desk`, step 2).

        Raises:
            BadInput: not a JSON object of the route's fields, or a ``version`` that is not a whole number (400
                naming the field).
            Refused: the tap was answered already (its first answer).
        """
        body = json_body(example, shape) if shape is not None else json_body(example)
        known = ("version", "key", *fields)
        for name in body:
            if name not in known:
                raise BadInput(i18n.Text("unknown field {name}: this request takes {fields}; e.g. {example}",
                                         name=quoted(name), fields=", ".join(known), example=example),
                               str(name)[:40])
        if "version" in body:  # a tap that records nothing (Read now) too: 1.5 is no state the phone showed
            whole(body, "version", example, what=VERSION_SHOWN)
        first = self.hub.recall(body.get("key"), self.phone().client, self.tap_fingerprint(body))  # its own taps only
        if first is not None:
            raise Refused(self.answer(first))
        return body

    def tap_fingerprint(self, body: Mapping[str, Any]) -> str | None:
        """The fingerprint of a tap (:func:`companion.records.fingerprint`): its route and its body as the phone sent
        it, but the key; the same tap sent again has the same one, whichever way the loop reaches its answer (None:
        a body JSON cannot write again; the loop then takes the action's own)."""
        try:
            return records.fingerprint({"route": request.path, "body": {k: v for k, v in body.items() if k != "key"}})
        except (TypeError, ValueError, RecursionError):
            return None

    def ask(self, action: Action, who: Phone, body: dict[str, Any], example: str,
            **payload: Any) -> tuple[Response, int]:
        """Hand ``action`` with ``payload`` to the main loop for the phone ``who`` and answer what it says (waits at
        most :attr:`reply_s`).

        Raises:
            BadInput: ``version`` or ``key`` missing or malformed (400 naming it).
        """
        version, key = version_and_key(body, example)
        return self.answer(
            self.hub.request(action, "phone", self.reply_s, version=version, key=key,
                             **{"client": who.client, "fingerprint": self.tap_fingerprint(body), **payload})
        )

    def me_of(self, cookie: dict[str, Any], pairing: Pairing | None) -> dict[str, Any]:
        """``/api/me``: ``{"joined": bool, "seats": [names], "message": why it cannot act, or None}``."""
        who = phone_of(cookie, pairing)
        return {"joined": who.joined, "seats": who.seats(pairing), "message": None if who.joined else JOIN_TO_ACT}
