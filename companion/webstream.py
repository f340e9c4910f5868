"""The phone view's live state: the /api/state body said in a phone's language, and the Server-Sent Events stream
that pushes each new version of it (``GET /api/events``, :mod:`companion.web`), with the count of open streams that
keeps them from taking every worker thread."""

from __future__ import annotations

import json
import logging
import math
import re
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from flask.json.provider import DefaultJSONProvider

from companion import i18n
from companion.hub import Snapshot, StateHub

__all__ = ["HEARTBEAT_S", "STOP_CHECK_S", "PhoneJSON", "StreamSlots", "finite", "json_text", "sse_stream",
           "state_json"]

log = logging.getLogger(__name__)

STOP_CHECK_S = 0.5
"""Seconds an event stream waits at most before it looks whether the server is shutting down."""

HEARTBEAT_S = 15.0
"""Seconds between SSE heartbeat comments when nothing changes (keeps proxies and phones from closing)."""


_SURROGATE = re.compile("[\ud800-\udfff]")
"""A UTF-16 surrogate code point: a text can hold one alone (a ``"\\ud800"`` escape in a phone's JSON), and UTF-8
cannot carry it."""

_OUT_OF_RANGE = "Out of range float values"
"""How :func:`json.dumps` with ``allow_nan=False`` starts its ValueError on a NaN or an infinity."""

_LOGGED_PLACES: set[str] = set()
"""Where a non-finite float was found and logged already (each place is logged once)."""
_LOGGED_MOST = 64
"""The most places :data:`_LOGGED_PLACES` keeps (a view that keeps making new ones is logged no further)."""


def json_text(value: Any, **options: Any) -> str:
    """The JSON text of ``value`` as the phones get it: letters as they are, sent as UTF-8 (a Greek letter is 2 bytes
    instead of the 6 of ``\\u03b1``; a 4-player Among the Stars state is about a third smaller in Greek). A text
    anywhere in ``value`` holding a lone surrogate, which UTF-8 cannot carry, has the whole answer escaped instead
    (``\\ud800``, ``\\u03b1``): valid JSON that a phone parses, and nothing it holds is lost or stops the answer.
    A float that is not finite (NaN, Infinity, -Infinity: ``JSON.parse`` refuses the words :func:`json.dumps` writes
    for them) is sent as ``null``, and where it was is logged once (:func:`finite`); the common case, with none, is
    encoded once, as before (the encoder itself finds one).
    ``options``: :func:`json.dumps`'s (``ensure_ascii`` and ``allow_nan`` are this function's own choice)."""
    options.pop("ensure_ascii", None)
    options.pop("allow_nan", None)
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False, **options)
    except ValueError as exc:
        if not str(exc).startswith(_OUT_OF_RANGE):
            raise
        value = finite(value, options.get("default"))
        text = json.dumps(value, ensure_ascii=False, allow_nan=False, **options)
    if _SURROGATE.search(text) is None:
        return text
    return json.dumps(value, ensure_ascii=True, allow_nan=False, **options)


def finite(value: Any, default: Callable[[Any], Any] | None = None, place: str = "$") -> Any:
    """``value`` with every float that is not finite (NaN, inf, -inf), at any depth of its dicts, lists and tuples,
    replaced by None (a dict's key by ``"null"``, as JSON writes a None key); logs each place one was found
    (``$.players[2].score``), once per place. Another object is passed through ``default`` (:func:`json.dumps`'s,
    which would be given it) and looked into in turn; without ``default`` it is kept as it is. Shapes: dicts stay
    dicts, lists and tuples become lists."""
    if isinstance(value, float):
        if math.isfinite(value):
            return value
        return _logged(place, value, None)
    if isinstance(value, (str, int, bool)) or value is None:
        return value
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            key = k if not isinstance(k, float) or math.isfinite(k) else _logged(f"{place} key", k, "null")
            out[key] = finite(v, default, f"{place}.{k}" if isinstance(k, str) else f"{place}[{k!r}]")
        return out
    if isinstance(value, (list, tuple)):
        return [finite(v, default, f"{place}[{n}]") for n, v in enumerate(value)]
    if default is not None:
        made = default(value)
        return value if made is value else finite(made, default, place)
    return value


def _logged(place: str, value: float, instead: Any) -> Any:
    """``instead``, having logged that ``value`` was found at ``place`` (the first time there)."""
    if place not in _LOGGED_PLACES and len(_LOGGED_PLACES) < _LOGGED_MOST:
        _LOGGED_PLACES.add(place)
        log.warning("a phone answer held %r at %s: sent as null (JSON has no NaN or Infinity)", value, place)
    return instead


class PhoneJSON(DefaultJSONProvider):
    """Flask's JSON for the phone view's answers (``app.json``): every answer's text made by :func:`json_text`."""

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        kwargs.setdefault("default", self.default)
        kwargs.setdefault("sort_keys", self.sort_keys)
        return json_text(obj, **kwargs)


_SAID: dict[tuple[int, str], tuple[Snapshot, dict[str, Any]]] = {}
_SAID_LOCK = threading.Lock()


def state_json(snapshot: Snapshot, lang: str | None = None) -> dict[str, Any]:
    """The /api/state body: the snapshot's view dict with ``"version"`` added, said in ``lang`` (None: the
    current language, a request's own; :func:`companion.i18n.localize`: the same keys, the players' words in
    that language). Each snapshot is said once per language (the phones of one language share it)."""
    lang = lang or i18n.current_language()
    key = (id(snapshot), lang)
    with _SAID_LOCK:
        kept = _SAID.get(key)
        if kept is not None and kept[0] is snapshot:
            return kept[1]
    said = {**i18n.localize(snapshot.view, lang), "version": snapshot.version}
    with _SAID_LOCK:
        _SAID[key] = (snapshot, said)
        while len(_SAID) > 4 * len(i18n.LANGUAGES):  # a few versions back, for streams still writing them
            del _SAID[next(iter(_SAID))]
    return said


def _sse_state(snapshot: Snapshot, lang: str | None = None) -> str:
    data = json_text(state_json(snapshot, lang), separators=(",", ":"))
    return f"id: {snapshot.version}\nevent: state\ndata: {data}\n\n"


def _sse_me(me: dict[str, Any]) -> str:
    return f"event: me\ndata: {json_text(me, separators=(',', ':'))}\n\n"


def _sse_heartbeat(heartbeat_s: float) -> str:
    return f"event: heartbeat\ndata: {json.dumps({'every_s': heartbeat_s})}\n\n"


def sse_stream(hub: StateHub, heartbeat_s: float = HEARTBEAT_S, stop: threading.Event | None = None,
               me: Callable[[], dict[str, Any]] | None = None, lang: str | None = None) -> Iterator[str]:
    """Server-Sent Events text for one client, as an endless generator of complete messages.

    Yields first a ``retry:`` hint and the current snapshot as ``event: state``, then each
    newer version as it is published (versions published while the client was being
    written to are coalesced into the latest), and an ``event: heartbeat`` (``data: {"every_s":
    heartbeat_s}``) after each ``heartbeat_s`` seconds without a change: the page sees it, so a stream
    that goes silent for longer (a phone whose Wi-Fi dropped without closing the connection) is known
    dead and reopened. With ``me``, also ``event: me`` (its dict) after the
    first state and whenever it changes. Ends when ``stop`` is set (checked at least every
    :data:`STOP_CHECK_S`) or when the client goes away (the server stops iterating).

    Args:
        hub: where snapshots are published; only :meth:`~StateHub.snapshot` and
            :meth:`~StateHub.wait_for_change` are used.
        heartbeat_s: seconds between heartbeats (> 0).
        stop: optional event that ends the stream.
        me: optional, what this client may do now (``/api/me``'s body), looked at after each wait.
        lang: the phone's language the states are said in (None: the box's, as the stream runs outside its
            request).
    """
    lang = lang or i18n.box_language()
    snapshot = hub.snapshot()
    yield "retry: 2000\n\n"
    yield _sse_state(snapshot, lang)
    shown_me = i18n.localize(me(), lang) if me is not None else None
    if shown_me is not None:
        yield _sse_me(shown_me)
    version = snapshot.version
    quiet_since = time.monotonic()
    while stop is None or not stop.is_set():
        # short waits, so a shutdown ends the stream (and frees its worker thread) within STOP_CHECK_S
        snapshot = hub.wait_for_change(version, timeout=min(heartbeat_s, STOP_CHECK_S))
        if snapshot.version != version:
            version = snapshot.version
            quiet_since = time.monotonic()
            yield _sse_state(snapshot, lang)
        now_me = i18n.localize(me(), lang) if me is not None else None
        if now_me != shown_me:
            shown_me = now_me
            quiet_since = time.monotonic()
            yield _sse_me(now_me)
        elif time.monotonic() - quiet_since >= heartbeat_s:
            quiet_since = time.monotonic()
            yield _sse_heartbeat(heartbeat_s)


class StreamSlots:
    """Counts open event streams, in all and per client, so they cannot take every worker thread."""

    def __init__(self, total: int, per_client: int) -> None:
        self.total, self.per_client = total, per_client
        self._open: dict[str, int] = {}
        self._lock = threading.Lock()

    def take(self, client: str) -> str | None:
        """None when a slot was taken for ``client``, else why not."""
        with self._lock:
            if sum(self._open.values()) >= self.total:
                return i18n.Text("the box has {count} live views open, its most", count=self.total)
            if self._open.get(client, 0) >= self.per_client:
                return i18n.Text("this phone has {count} live views open already", count=self.per_client)
            self._open[client] = self._open.get(client, 0) + 1
            return None

    def give_back(self, client: str) -> None:
        """Frees one of ``client``'s slots (its stream ended)."""
        with self._lock:
            left = self._open.get(client, 0) - 1
            if left > 0:
                self._open[client] = left
            else:
                self._open.pop(client, None)
