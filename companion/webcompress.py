"""Compressed answers for phones that accept them: the phone view's JSON and pages through Flask-Compress.

A game's whole list of notes (``GET /api/findings``) is about 2 MB of JSON at 3,000 notes; compressed it is a few
percent of that, which a phone on a busy Wi-Fi gets in a fraction of the time. Each answer is compressed with what
the phone's ``Accept-Encoding`` prefers among zstd, Brotli and gzip; a phone that accepts none gets it as before.

The pages' own files (``/static/*``: the scripts and style sheets, 131 KB in all, 38 KB as Brotli) are compressed too
(:func:`compress_static_files`): each version of a file once per encoding, at the encodings' highest levels since it
is kept (:data:`STATIC_LEVELS`), and a phone gets the smallest of those it rates highest. Their caching stays as Flask
sends files: ``Cache-Control: no-cache`` (a phone checks a file at each page), ``Last-Modified``, and an ``ETag``
naming the encoding (``"<file's tag>:br"``, as Flask-Compress names its own), so a phone asking again with the tag it
holds is answered ``304 Not Modified`` with no body. A Range request, the icons (PNG) and files under
:data:`MIN_BYTES` are sent as files, as before.

Not compressed: the live view (``GET /api/events``, ``text/event-stream``): a compressor holds back bytes until it
has enough, which would delay each state push; Flask-Compress is told not to touch any streamed answer
(``COMPRESS_STREAMS``), and the stream's type is not among those compressed either. Nor the camera picture (JPEG is
compressed already), the words script (gzipped once by :mod:`companion.web`), error answers (Flask-Compress leaves
statuses outside 200-299 alone) or answers under :data:`MIN_BYTES`.

What a phone accepts is read as HTTP says (RFC 9110 12.5.3, :func:`accepted_encodings`): ``gzip;q=0`` refuses gzip,
``*`` stands for every encoding the phone does not name, a malformed weight drops its entry. Flask-Compress's own
reading takes a coding weighted 0 as wanted (``gzip;q=0`` got gzip), so each request's ``Accept-Encoding`` is
rewritten, before the routes run, to the encodings of :data:`ALGORITHMS` the phone accepts with their weights.

The list of notes is written once per state and language (:func:`companion.webstream.findings_text`); its compressed
form is kept the same way (:class:`KeptAnswers`, keyed by what a route puts in ``flask.g.compress_key``), so the
phones of one language asking for one state cost one compression in each encoding.
"""

from __future__ import annotations

import gzip
import threading
from collections import OrderedDict

import brotli
from flask import Flask, Request, Response, g, request
from flask_compress import Compress
from werkzeug.http import parse_accept_header

try:  # Python 3.14's own; before it the backport Flask-Compress installs
    from compression import zstd  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - the Python of the box
    from backports import zstd

__all__ = ["ALGORITHMS", "COMPRESSED_TYPES", "STATIC_LEVELS", "KeptAnswers", "MIN_BYTES", "PackedFiles",
           "accepted_encodings", "compress_answers", "compress_static_files"]

ALGORITHMS = ("zstd", "br", "gzip")
"""The encodings offered, the box's preference first when a phone rates several alike: zstd and Brotli at their fast
levels cost the Pi less CPU than gzip for a smaller answer; gzip for any older browser."""

COMPRESSED_TYPES = ("application/json", "text/html", "text/css", "text/javascript", "application/javascript",
                    "application/manifest+json")
"""The answer types compressed (never ``text/event-stream`` nor ``image/jpeg``)."""

MIN_BYTES = 1024
"""Answers smaller than this (bytes) go as they are: a tap's answer or ``/api/me`` gains nothing."""

KEPT = 12
"""Compressed answers kept (:class:`KeptAnswers`): a few states, each in a few languages and encodings."""

STATIC_LEVELS = {"zstd": 19, "br": 11, "gzip": 9}
"""Each encoding's level for the pages' files, compressed once per version and kept (:class:`PackedFiles`): the
highest, as the cost is paid once (the scripts and style sheets: 131,000 bytes; gzip 9 44,000, zstd 19 42,600, Brotli
11 37,800, against 44,000, 46,700 and 45,200 at the answers' levels)."""

CONDITIONS = ("HTTP_IF_NONE_MATCH", "HTTP_IF_MODIFIED_SINCE")
"""A request's conditions (its ETag and date) a page file's answer is checked against once, after compression."""

STATIC_KEPT = 96
"""Compressed page files kept (:class:`PackedFiles`): every file in every encoding, a few versions of each."""


class KeptAnswers:
    """The compressed answers of the newest keyed requests (Flask-Compress's cache backend: ``get``/``set`` of
    ``"<encoding>;<key>"`` -> bytes). A request whose route set no key (``"<encoding>;"``) is neither looked up
    nor kept. At most :data:`KEPT` are kept, the oldest dropped first; safe across the server's threads."""

    def __init__(self) -> None:
        self._kept: OrderedDict[str, bytes] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> bytes | None:
        if key.endswith(";"):
            return None
        with self._lock:
            return self._kept.get(key)

    def set(self, key: str, value: bytes) -> None:
        if key.endswith(";"):
            return
        with self._lock:
            self._kept[key] = value
            self._kept.move_to_end(key)
            while len(self._kept) > KEPT:
                self._kept.popitem(last=False)


def accepted_encodings(header: str | None) -> dict[str, float]:
    """The encodings of :data:`ALGORITHMS` an ``Accept-Encoding`` header accepts, each with its weight (0 < q <= 1),
    in the box's order of preference (RFC 9110 12.5.3).

    A coding named with ``q=0`` is refused even when ``*`` is given; ``*`` gives its weight to every coding not named;
    a coding named twice keeps its highest weight; an entry whose weight is not a number from 0 to 1 (``q=abc``,
    ``q=2``) is dropped, as werkzeug's parser drops it; codings the box does not make (``x-foo``) are ignored. An
    empty or absent header accepts none (the answer goes as it is).

    Args:
        header: the request's ``Accept-Encoding`` value, or None.
    """
    named: dict[str, float] = {}
    anything = 0.0
    for value, quality in _entries(header or ""):
        coding = value.split(";", 1)[0].strip().lower()  # "gzip; level=1" is gzip
        if coding == "*":
            anything = max(anything, quality)
        else:
            named[coding] = max(named.get(coding, 0.0), quality)
    weights = {coding: named.get(coding, anything) for coding in ALGORITHMS}
    return {coding: q for coding, q in weights.items() if q > 0}


def _entries(header: str) -> list[tuple[str, float]]:
    """``[(value, weight)]`` of an ``Accept-Encoding`` header as werkzeug's parser reads it; where the parser fails on
    the whole header (an option name it cannot write back, ``gzip;*68=3``: ``IndexError``), each entry alone, an
    entry it fails on being dropped. Raises nothing on what a phone sends."""
    try:
        return list(parse_accept_header(header))
    except (IndexError, ValueError):
        entries: list[tuple[str, float]] = []
        for part in header.split(","):
            try:
                entries.extend(parse_accept_header(part))
            except (IndexError, ValueError):
                continue
        return entries


def _what_the_phone_accepts() -> None:
    """Rewrite this request's ``Accept-Encoding`` to what :func:`accepted_encodings` reads in it (``"zstd;q=1,
    gzip;q=0.5"``; ``"identity"`` when it accepts none of :data:`ALGORITHMS`), the form Flask-Compress reads right."""
    accepted = accepted_encodings(request.headers.get("Accept-Encoding"))
    written = ", ".join(f"{coding};q={q:g}" for coding, q in accepted.items())
    request.environ["HTTP_ACCEPT_ENCODING"] = written or "identity"


def _key_of(_request: Request) -> str:
    """The key a route gave its answer (``g.compress_key``: the same key, the same bytes), or "" (not kept)."""
    return str(g.get("compress_key") or "")


def compress_answers(app: Flask) -> Compress:
    """Compress ``app``'s answers for phones that accept it (see the module's doc); call once, before the app's own
    ``before_request`` and ``after_request`` hooks are registered (Flask runs the first in order, so every route
    reads the rewritten ``Accept-Encoding``, and the second last registered first, so this one runs last and
    compresses the answer as the other hooks left it).

    Returns:
        The ``flask_compress.Compress`` bound to ``app``.
    """
    app.config.update(
        COMPRESS_ALGORITHM=list(ALGORITHMS),
        COMPRESS_MIMETYPES=list(COMPRESSED_TYPES),
        COMPRESS_MIN_SIZE=MIN_BYTES,
        COMPRESS_STREAMS=False,  # the event stream goes out event by event, never held back by a compressor
        COMPRESS_LEVEL=6,  # gzip
        COMPRESS_BR_LEVEL=4,
        COMPRESS_ZSTD_LEVEL=3,
        COMPRESS_CACHE_KEY=_key_of,
        COMPRESS_CACHE_BACKEND=KeptAnswers,
    )
    app.before_request(_what_the_phone_accepts)
    return Compress(app)


def _packed(data: bytes, encoding: str) -> bytes:
    """``data`` compressed in ``encoding`` (one of :data:`ALGORITHMS`) at its :data:`STATIC_LEVELS` level."""
    level = STATIC_LEVELS[encoding]
    if encoding == "zstd":
        return zstd.compress(data, level)
    if encoding == "br":
        return brotli.compress(data, quality=level)
    return gzip.compress(data, compresslevel=level, mtime=0)


class PackedFiles:
    """The pages' files compressed, by ``(file, its ETag, encoding)``: each version compressed once per encoding, even
    when many phones ask for it at once (the first compresses it, the others wait for its bytes), at most
    :data:`STATIC_KEPT` kept (the oldest dropped first); safe across the server's threads."""

    def __init__(self) -> None:
        self._kept: OrderedDict[tuple[str, str, str], bytes] = OrderedDict()
        self._making: dict[tuple[str, str, str], threading.Lock] = {}
        self._lock = threading.Lock()

    def get(self, name: str, etag: str, encoding: str, data: bytes) -> bytes:
        """``data`` (the file ``name`` whose ETag is ``etag``) compressed in ``encoding``."""
        key = (name, etag, encoding)
        with self._lock:
            packed = self._kept.get(key)
            if packed is not None:
                return packed
            making = self._making.setdefault(key, threading.Lock())
        with making:  # one thread compresses a version; the others asking meanwhile wait here and take its bytes
            with self._lock:
                packed = self._kept.get(key)
            if packed is not None:
                return packed
            try:
                packed = _packed(data, encoding)
                with self._lock:
                    self._kept[key] = packed
                    while len(self._kept) > STATIC_KEPT:
                        self._kept.popitem(last=False)
            finally:
                with self._lock:
                    self._making.pop(key, None)
        return packed


def compress_static_files(app: Flask) -> PackedFiles:
    """Compress ``app``'s page files (``/static/*``; see the module's doc) for a phone that accepts it: a whole file
    of a type in :data:`COMPRESSED_TYPES`, of :data:`MIN_BYTES` or more, answered 200 by Flask's own static view
    (which finds the file, refuses a path outside the folder with a 404 and answers a Range request), goes in the
    encoding the phone rates highest (the smallest of those rated alike), with ``Content-Encoding``, ``Vary:
    Accept-Encoding`` and the ETag ``"<tag>:<encoding>"``, checked against the request's ``If-None-Match`` and
    ``If-Modified-Since`` (a 304 with no body when it has it, with that ETag and ``Vary``, whichever condition it
    sent). A phone that accepts no encoding gets the file as Flask sends it. Flask-Compress leaves
    these answers alone (they carry a ``Content-Encoding``).

    Returns:
        The :class:`PackedFiles` the compressed files are kept in.
    """
    send_file = app.view_functions["static"]
    packs = PackedFiles()

    def static(filename: str) -> Response:
        accepted = accepted_encodings(request.headers.get("Accept-Encoding"))
        environ = request.environ
        # A phone that may get the file compressed has it already or not by the answer it would get (whose ETag names
        # the encoding): Flask's file answer is asked without the phone's conditions, checked once below.
        held = ({key: environ.pop(key) for key in CONDITIONS if key in environ}
                if accepted and "HTTP_RANGE" not in environ else {})
        try:
            response: Response = send_file(filename=filename)
        finally:
            environ.update(held)
        etag, _ = response.get_etag()
        if (response.status_code != 200 or response.mimetype not in COMPRESSED_TYPES or not etag or not accepted
                or (response.content_length or 0) < MIN_BYTES):
            return response.make_conditional(request) if held and response.status_code == 200 else response
        response.direct_passthrough = False  # read whole: a file of a few tens of KB
        data = response.get_data()
        response.close()
        best = max(accepted.values())
        packed = {coding: packs.get(filename, etag, coding, data) for coding, q in accepted.items() if q == best}
        coding = min(packed, key=lambda c: len(packed[c]))  # ties keep the box's order (ALGORITHMS)
        response.set_data(packed[coding])
        response.content_encoding = coding
        response.vary.add("Accept-Encoding")
        response.headers.pop("Accept-Ranges", None)  # a range of the compressed bytes is not offered
        response.set_etag(f"{etag}:{coding}")
        return response.make_conditional(request)

    app.view_functions["static"] = static
    return packs
