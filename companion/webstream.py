"""The phone view's live state: the /api/state body said in a phone's language, and the Server-Sent Events stream
that pushes each new version of it (``GET /api/events``, :mod:`companion.web`), with the count of open streams that
keeps them from taking every worker thread."""

from __future__ import annotations

import json
import logging
import math
import numbers
import re
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from flask.json.provider import DefaultJSONProvider

from companion import i18n
from companion.flow import ALL_FINDINGS
from companion.hub import Snapshot, StateHub

__all__ = ["HEARTBEAT_S", "STOP_CHECK_S", "MAX_DEPTH", "PhoneJSON", "StreamSlots", "json_text", "jsonable",
           "sse_stream", "state_json", "unsent", "findings_json", "findings_text", "pushed"]

log = logging.getLogger(__name__)

STOP_CHECK_S = 0.5
"""Seconds an event stream waits at most before it looks whether the server is shutting down."""

HEARTBEAT_S = 15.0
"""Seconds between SSE heartbeat comments when nothing changes (keeps proxies and phones from closing)."""


_SURROGATE = re.compile("[\ud800-\udfff]")
"""A UTF-16 surrogate code point: a text can hold one alone (a ``"\\ud800"`` escape in a phone's JSON), and UTF-8
cannot carry it."""

MAX_DEPTH = 200
"""How deep a phone answer's dicts and lists may nest: a part deeper than this is sent as null (logged). The box's
own states nest about 8 deep; a value nested hundreds deep can only be damage, and Python's JSON encoder and the
walk below would otherwise run out of stack on it."""

_LOGGED_PLACES: set[str] = set()
"""Where a value JSON cannot carry was found and logged already, with what it was sent as (each logged once)."""
_LOGGED_MOST = 64
"""The most places :data:`_LOGGED_PLACES` keeps (a view that keeps making new ones is logged no further)."""

_PROBLEMS_LOGGED: set[tuple[str, str, str]] = set()
"""What the live view could not send and logged already (:func:`_sse_problem`)."""

def json_text(value: Any, **options: Any) -> str:
    """The JSON text of ``value`` as the phones get it: letters as they are, sent as UTF-8 (a Greek letter is 2 bytes
    instead of the 6 of ``\\u03b1``; a 4-player Among the Stars state is about a third smaller in Greek). A text
    anywhere in ``value`` holding a lone surrogate, which UTF-8 cannot carry, has the whole answer escaped instead
    (``\\ud800``, ``\\u03b1``): valid JSON that a phone parses, and nothing it holds is lost or stops the answer.

    A value JSON cannot carry as it is (NaN or an infinity, which ``JSON.parse`` refuses; a whole number longer than
    Python writes, e.g. ``10**5000``; a set, bytes, an object of no JSON kind, a key of no JSON kind; nesting deeper
    than :data:`MAX_DEPTH`) is sent as the nearest valid JSON (:func:`jsonable`), and where it was is logged once;
    the common case, with none, is encoded once, as before (the encoder itself finds one).
    ``options``: :func:`json.dumps`'s (``ensure_ascii`` and ``allow_nan`` are this function's own choice).

    Raises:
        ValueError: ``value`` holds itself (a loop), which no JSON can say; the message names where.
    """
    options.pop("ensure_ascii", None)
    options.pop("allow_nan", None)
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False, **options)
    except (ValueError, TypeError, RecursionError) as exc:
        if isinstance(exc, ValueError) and str(exc).startswith("Circular reference"):
            value = jsonable(value, options.get("default"))  # raises naming where the loop is
            raise
        value = jsonable(value, options.pop("default", None))
        text = json.dumps(value, ensure_ascii=False, allow_nan=False, **options)
    if _SURROGATE.search(text) is None:
        return text
    return json.dumps(value, ensure_ascii=True, allow_nan=False, **options)


def jsonable(value: Any, default: Callable[[Any], Any] | None = None, place: str = "$") -> Any:
    """``value`` made of what JSON carries, at any depth of its dicts, lists and tuples: a float that is not finite
    (NaN, inf, -inf) becomes None; a whole number too long to write (more digits than
    :func:`sys.get_int_max_str_digits`) None; a set or frozenset a list (sorted when its items sort); bytes text
    (UTF-8, a byte that is none as U+FFFD); another number kind (a NumPy one) the plain int or float; a dict's key of
    another kind its text (every key a ``str``, as JSON writes them, so ``sort_keys`` never compares unlike kinds);
    a dict or list deeper than :data:`MAX_DEPTH` None. Another object is passed through ``default``
    (:func:`json.dumps`'s, which would be given it) and looked into in turn; one ``default`` refuses (TypeError), or
    any without ``default``, becomes None. Each place something was changed is logged once (``$.players[2].vp``).
    Shapes: dicts stay dicts, lists, tuples and sets become lists; ``value`` itself is left as it was.

    Raises:
        ValueError: ``value`` holds itself (a dict or list inside itself), naming where (``Circular reference at
            $.game.x``).
    """
    return _jsonable(value, default, place, 0, set())


def _jsonable(value: Any, default: Callable[[Any], Any] | None, place: str, depth: int, path: set[int]) -> Any:
    if isinstance(value, str):
        return value
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        return _whole(int(value), place)
    if isinstance(value, float):
        return float(value) if math.isfinite(value) else _logged(place, repr(value), None, "null (JSON has no NaN "
                                                                                            "or Infinity)")
    if isinstance(value, (bytes, bytearray, memoryview)):
        return _logged(place, f"{len(bytes(value))} bytes", bytes(value).decode("utf-8", "replace"), "text")
    if isinstance(value, numbers.Integral):
        return _whole(int(value), place)
    if isinstance(value, numbers.Real):
        return _jsonable(float(value), default, place, depth, path)
    if isinstance(value, (dict, list, tuple, set, frozenset)):
        if depth >= MAX_DEPTH:
            return _logged(place[:80] + "…", f"nesting deeper than {MAX_DEPTH}", None, "null")
        if id(value) in path:
            raise ValueError(f"Circular reference at {_short(place)}: a value holds itself")
        path.add(id(value))
        try:
            return _container(value, default, place, depth + 1, path)
        finally:
            path.discard(id(value))
    if default is not None:
        try:
            made = default(value)
        except (TypeError, ValueError):
            made = value
        if made is not value:
            return _jsonable(made, default, place, depth, path)
    return _logged(place, f"an object of type {type(value).__name__}", None, "null")


def _container(value: Any, default: Callable[[Any], Any] | None, place: str, depth: int, path: set[int]) -> Any:
    """A dict, list, tuple or set made of what JSON carries (:func:`_jsonable`, one level down)."""
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            out[_key(k, place)] = _jsonable(v, default, _at_key(place, k), depth, path)
        return out
    if isinstance(value, (set, frozenset)):
        try:
            items = sorted(value)
        except TypeError:
            items = sorted(value, key=repr)
        _logged(place, f"a {type(value).__name__} of {len(items)}", None, "a list")
        return [_jsonable(v, default, f"{place}[{n}]", depth, path) for n, v in enumerate(items)]
    return [_jsonable(v, default, f"{place}[{n}]", depth, path) for n, v in enumerate(value)]


def _whole(value: int, place: str) -> int | None:
    """``value``, or None (logged) when it has more digits than Python writes."""
    limit = sys.get_int_max_str_digits()
    if limit and value.bit_length() > limit * 3:  # 3.32 bits a digit: only a number near the limit is written out
        try:
            str(value)
        except ValueError:
            return _logged(place, f"a whole number of about {int(value.bit_length() * 0.30103) + 1} digits", None,
                           "null")
    return value


def _key(key: Any, place: str) -> str:
    """A dict's ``key`` as JSON writes a key: always a ``str`` (another kind's text is logged)."""
    if isinstance(key, str):
        return str(key)
    if isinstance(key, bool) or key is None:
        return json.dumps(key)
    if isinstance(key, int):
        whole = _whole(int(key), f"{place} key")
        return "null" if whole is None else str(whole)
    if isinstance(key, float):
        return repr(float(key)) if math.isfinite(key) else _logged(f"{place} key", repr(key), "null", "null")
    if isinstance(key, (bytes, bytearray)):
        said = bytes(key).decode("utf-8", "replace")
    else:
        try:
            said = str(key)[:200]
        except Exception:  # noqa: BLE001 -- a key's own __str__ failing must not stop the answer
            said = f"<{type(key).__name__}>"
    return _logged(f"{place} key", f"a key of type {type(key).__name__}", said, "its text")


def _at_key(place: str, key: Any) -> str:
    """Where ``key`` of the dict at ``place`` is, said for a log line (a key's text cut short, quoted unless it is a
    plain word)."""
    if isinstance(key, str) and key.isidentifier() and len(key) <= 40:
        return f"{place}.{key}"
    try:
        said = repr(key)
    except Exception:  # noqa: BLE001
        said = f"<{type(key).__name__}>"
    return f"{place}[{said[:40]}]"


def _short(place: str) -> str:
    """``place`` cut to a log line's measure."""
    return place if len(place) <= 120 else f"{place[:60]}…{place[-50:]}"


def _logged(place: str, what: str, instead: Any, sent_as: str) -> Any:
    """``instead``, having logged that ``what`` was found at ``place`` and sent as ``sent_as`` (the first time
    there)."""
    place = _short(place)
    if f"{place} {sent_as}" not in _LOGGED_PLACES and len(_LOGGED_PLACES) < _LOGGED_MOST:
        _LOGGED_PLACES.add(f"{place} {sent_as}")
        log.warning("JSON for a phone or a file held %s at %s: sent as %s", what, place, sent_as)
    return instead


class PhoneJSON(DefaultJSONProvider):
    """Flask's JSON for the phone view's answers (``app.json``): every answer's text made by :func:`json_text`."""

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        kwargs.setdefault("default", self.default)
        kwargs.setdefault("sort_keys", self.sort_keys)
        return json_text(obj, **kwargs)


class _SaidOnce:
    """What a snapshot is said as in each language, made once and shared by the phones of that language: the
    ``versions`` newest snapshots are kept for each language (streams still writing an older one), keyed by the
    snapshot's identity and checked to be that very snapshot (an id can be reused once it is gone)."""

    def __init__(self, versions: int) -> None:
        self._kept: dict[tuple[int, str], tuple[Snapshot, Any]] = {}
        self._lock = threading.Lock()
        self._versions = versions

    def get(self, snapshot: Snapshot, lang: str, make: Callable[[], Any]) -> Any:
        """What ``make()`` gives for ``snapshot`` in ``lang``, made now only if not kept; an error of ``make``
        keeps nothing and is raised."""
        key = (id(snapshot), lang)
        with self._lock:
            kept = self._kept.get(key)
            if kept is not None and kept[0] is snapshot:
                return kept[1]
        said = make()
        with self._lock:
            self._kept[key] = (snapshot, said)
            while len(self._kept) > self._versions * len(i18n.LANGUAGES):
                del self._kept[next(iter(self._kept))]
        return said


_STATES_SAID = _SaidOnce(versions=4)


def state_json(snapshot: Snapshot, lang: str | None = None) -> dict[str, Any]:
    """The /api/state body: the snapshot's view dict with ``"version"`` added, said in ``lang`` (None: the
    current language, a request's own; :func:`companion.i18n.localize`: the same keys, the players' words in
    that language). Each snapshot is said once per language (the phones of one language share it)."""
    lang = lang or i18n.current_language()
    return _STATES_SAID.get(snapshot, lang, lambda: {**i18n.localize(pushed(snapshot.view), lang),
                                                     "version": snapshot.version})


def pushed(view: dict[str, Any]) -> dict[str, Any]:
    """``view`` as every state push sends it: without the game's whole list of findings (:data:`ALL_FINDINGS`,
    top level or under ``"game"``), which a phone asks for by itself (:func:`findings_json`); the newest
    (``"findings"``) and their number (``"findings_total"``) stay; and each list of choices that more than one
    seat's ``choice_groups`` hold sent once (:func:`shared_choices`). The view itself is not changed."""
    game = view.get("game")
    if ALL_FINDINGS not in view and not isinstance(game, dict):
        return view
    out = {k: v for k, v in view.items() if k != ALL_FINDINGS}
    if isinstance(game, dict):
        out["game"] = shared_choices({k: v for k, v in game.items() if k != ALL_FINDINGS})
    return out


def shared_choices(game: dict[str, Any]) -> dict[str, Any]:
    """``game`` with each list of choices that two or more groups of ``"choice_groups"`` hold (Roll's developments
    or worlds still in the bag, the same for every seat) sent once: the lists go in ``"choice_lists"`` and each such
    group's ``"choices"`` becomes its index there (the phone puts it back, ``flowforms.js``). A game with no list
    held twice is returned as it is."""
    seats = game.get("choice_groups")
    if not isinstance(seats, dict):
        return game
    groups = [g for forms in seats.values() if isinstance(forms, dict) for fields in forms.values()
              if isinstance(fields, dict) for order in fields.values() if isinstance(order, dict)
              for g in order.get("groups") or () if isinstance(g, dict) and isinstance(g.get("choices"), list)]
    held: dict[tuple[Any, ...], int] = {}
    for g in groups:
        key = tuple(map(str, g["choices"]))
        held[key] = held.get(key, 0) + 1
    lists: dict[tuple[Any, ...], int] = {}
    for key, times in held.items():
        if times > 1 and key:
            lists[key] = len(lists)
    if not lists:
        return game

    def once(g: Any) -> Any:
        if not (isinstance(g, dict) and isinstance(g.get("choices"), list)):
            return g
        at = lists.get(tuple(map(str, g["choices"])))
        return g if at is None else {**g, "choices": at}

    grouped = {seat: {form: {field: ({**order, "groups": [once(g) for g in order.get("groups") or ()]}
                                     if isinstance(order, dict) else order)
                             for field, order in fields.items()} if isinstance(fields, dict) else fields
                      for form, fields in forms.items()} if isinstance(forms, dict) else forms
               for seat, forms in seats.items()}
    return {**game, "choice_groups": grouped, "choice_lists": [list(key) for key in lists]}


def findings_json(snapshot: Snapshot, lang: str | None = None) -> dict[str, Any]:
    """The ``GET /api/findings`` body: ``{"findings": [every finding of the game, newest first, as the state's
    "findings" are], "version": the snapshot's version}`` said in ``lang``; ``[]`` outside a game."""
    view = snapshot.view
    game = view.get("game") if isinstance(view.get("game"), dict) else {}
    notes = game.get(ALL_FINDINGS, view.get(ALL_FINDINGS)) or []
    return {"findings": i18n.localize(notes, lang or i18n.current_language()), "version": snapshot.version}


_NOTES_SAID = _SaidOnce(versions=2)


def findings_text(snapshot: Snapshot, lang: str | None = None) -> str:
    """:func:`findings_json` written as JSON text (:func:`json_text`), each snapshot once per language (None: the
    current one): a game of thousands of notes is megabytes of JSON, asked for by every unfolded phone at each new
    state and by any phone as often as the read limit lets it, so the phones of one language share one writing
    (about 75 ms for 3,000 notes; a few versions back are kept, as :func:`state_json` keeps them).

    Raises:
        ValueError: a view holding itself (as :func:`json_text`); nothing is kept then.
    """
    lang = lang or i18n.current_language()
    return _NOTES_SAID.get(snapshot, lang, lambda: json_text(findings_json(snapshot, lang), separators=(",", ":")))


def unsent(exc: BaseException, what: str = "state") -> i18n.Text:
    """What a phone is told of something the box could not write as JSON (``exc``, logged by the caller): ``what``
    is ``"state"`` (the game's state: ``/api/state``, the live view's ``event: state``) or ``"me"`` (this phone's
    seats, the live view's ``event: me``). A sentence of its own, so it starts with a capital."""
    if what != "me":
        return i18n.Text("The box could not send the game's state ({error}) and logged it; nothing recorded is lost, "
                         "and the view goes on with the next change", error=type(exc).__name__)
    return i18n.Text("The box could not send this phone's seats ({error}) and logged it; nothing recorded is lost, and "
                     "the view goes on with the next change", error=type(exc).__name__)


def _sse_state(snapshot: Snapshot, lang: str | None = None) -> str:
    """``event: state`` of ``snapshot``; one the box cannot write (a value holding itself) is logged and sent as
    ``event: problem`` (``data: {"error", "version"}``) instead, so the stream goes on."""
    try:
        data = json_text(state_json(snapshot, lang), separators=(",", ":"))
    except Exception as exc:  # noqa: BLE001 -- one state that cannot be written must not end the live view
        return _sse_problem(exc, lang, f"state version {snapshot.version}", snapshot.version)
    return f"id: {snapshot.version}\nevent: state\ndata: {data}\n\n"


def _sse_me(me: Callable[[], dict[str, Any]], lang: str) -> tuple[str, Any]:
    """``(event text, what it says)`` of ``me()`` said in ``lang``: ``event: me``, or ``event: problem`` when it
    cannot be made or written (logged)."""
    try:
        shown = i18n.localize(me(), lang)
        return f"event: me\ndata: {json_text(shown, separators=(',', ':'))}\n\n", shown
    except Exception as exc:  # noqa: BLE001 -- as _sse_state
        return _sse_problem(exc, lang, "this phone's /api/me", None, "me"), None


def _sse_problem(exc: Exception, lang: str | None, what: str, version: int | None, sent: str = "state") -> str:
    """``event: problem`` saying :func:`unsent` of ``exc`` (``sent``: ``"state"`` or ``"me"``) in ``lang``, having
    logged ``exc`` with ``what`` failed."""
    seen = (what if version is None else "state", type(exc).__name__, str(exc)[:200])
    if seen not in _PROBLEMS_LOGGED and len(_PROBLEMS_LOGGED) < _LOGGED_MOST:  # once, not at every look
        _PROBLEMS_LOGGED.add(seen)
        log.error("live view: %s could not be sent: %s", what, exc, exc_info=exc)
    body = {"error": i18n.localize(unsent(exc, sent), lang), "version": version}
    return f"event: problem\ndata: {json.dumps(body, ensure_ascii=True)}\n\n"


def _sse_heartbeat(heartbeat_s: float) -> str:
    return f"event: heartbeat\ndata: {json.dumps({'every_s': heartbeat_s})}\n\n"


def sse_stream(hub: StateHub, heartbeat_s: float = HEARTBEAT_S, stop: threading.Event | None = None,
               me: Callable[[], dict[str, Any]] | None = None, lang: str | None = None,
               gone: Callable[[], bool] | None = None) -> Iterator[str]:
    """Server-Sent Events text for one client, as an endless generator of complete messages.

    Yields first a ``retry:`` hint and the current snapshot as ``event: state``, then each
    newer version as it is published (versions published while the client was being
    written to are coalesced into the latest), and an ``event: heartbeat`` (``data: {"every_s":
    heartbeat_s}``) after each ``heartbeat_s`` seconds without a change: the page sees it, so a stream
    that goes silent for longer (a phone whose Wi-Fi dropped without closing the connection) is known
    dead and reopened. With ``me``, also ``event: me`` (its dict) after the
    first state and whenever it changes. A state or ``me`` the box cannot write (logged) is sent as ``event:
    problem`` (``data: {"error": said in lang, "version": int or null}``) and the stream goes on. Ends when
    ``stop`` is set or ``gone()`` says the phone closed the connection (each looked at at least every
    :data:`STOP_CHECK_S`), or when a write finds the phone gone (the server stops iterating).

    Args:
        hub: where snapshots are published; only :meth:`~StateHub.snapshot` and
            :meth:`~StateHub.wait_for_change` are used.
        heartbeat_s: seconds between heartbeats (> 0).
        stop: optional event that ends the stream.
        me: optional, what this client may do now (``/api/me``'s body), looked at after each wait.
        lang: the phone's language the states are said in (None: the box's, as the stream runs outside its
            request).
        gone: optional, whether the phone has closed or reset the connection (the server's
            ``waitress.client_disconnected``): a dropped stream frees its worker and its slot within
            :data:`STOP_CHECK_S`, not at its next write (a heartbeat away).
    """
    lang = lang or i18n.box_language()
    snapshot = hub.snapshot()
    yield "retry: 2000\n\n"
    yield _sse_state(snapshot, lang)
    shown_me = None  # the text of the last "me" or its problem sent
    if me is not None:
        shown_me, _ = _sse_me(me, lang)
        yield shown_me
    version = snapshot.version
    quiet_since = time.monotonic()
    while (stop is None or not stop.is_set()) and (gone is None or not gone()):
        # short waits, so a shutdown or a phone gone ends the stream (and frees its worker) within STOP_CHECK_S
        snapshot = hub.wait_for_change(version, timeout=min(heartbeat_s, STOP_CHECK_S))
        if snapshot.version != version:
            version = snapshot.version
            quiet_since = time.monotonic()
            yield _sse_state(snapshot, lang)
        now_me = _sse_me(me, lang)[0] if me is not None else None
        if now_me != shown_me:
            shown_me = now_me
            quiet_since = time.monotonic()
            yield now_me
        elif time.monotonic() - quiet_since >= heartbeat_s:
            quiet_since = time.monotonic()
            yield _sse_heartbeat(heartbeat_s)


class StreamSlots:
    """Counts open event streams, in all and per client, so they cannot take every worker thread."""

    def __init__(self, total: int, per_client: int) -> None:
        self.total, self.per_client = total, per_client
        self._open: dict[str, int] = {}
        self._lock = threading.Lock()
        self._given_back = threading.Condition(self._lock)

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
            self._given_back.notify_all()

    def wait_open(self, at_most: int, timeout: float) -> bool:
        """Wait until at most ``at_most`` streams are open in all (re-checked as each slot is given back), at most
        ``timeout`` s; returns whether it came (for tests and diagnostics)."""
        with self._given_back:
            return self._given_back.wait_for(lambda: sum(self._open.values()) <= at_most, timeout)
