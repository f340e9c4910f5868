"""Checks on what a phone sends, each naming the field that is wrong (the phone view answers 400 with it).

The main loop judges what a value means (a rule, a player, a phase); these checks only make sure each
field has the shape it must have, so no body can reach the loop as something it cannot handle
(a number too large for the database, text that is not text, a list where a name goes).

Every message is a :class:`companion.i18n.Text` (English as a ``str``; the phone view says it in the phone's
language): the field's name, the value sent and the example body are its parameters, never translated.
``what`` (what a field holds: "a player's name") is a :class:`~companion.i18n.Text` too.
"""

from __future__ import annotations

import codecs
import json
import re
import zlib
from collections.abc import Mapping
from typing import Any

from flask import current_app, request

from companion.flow_forms import in_form, not_whole
from companion.i18n import OR, Listing, Text
from rules.scoring import has_visible, untypable

__all__ = ["BadInput", "json_body", "text", "whole", "choice", "form_values", "version_and_key",
           "KEY_PATTERN", "MAX_VERSION", "MAX_TEXT", "UNPACKED", "VERSION_SHOWN"]

KEY_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,64}")
"""An idempotency key: 1-64 characters of letters, digits, ``_`` and ``-`` (the phone page makes 32 hex digits)."""

MAX_VERSION = 2**53 - 1
"""Largest state version (and question id) taken: what a phone's JavaScript numbers hold exactly."""

MAX_TEXT = 60
"""Longest name (player, colour, choice, form) in characters."""

MAX_VALUES = 24
"""Most fields in one report's ``values``."""

TEXT = Text("text")
"""What a text field holds when the route says nothing more."""

WHOLE = Text("a whole number")
"""What a number field holds when the route says nothing more."""

JSON_OBJECT = Text("a JSON object")
"""What a request's body must be when the route says nothing more."""

VERSION_SHOWN = Text("the state version the phone showed (session.events of /api/state)")
"""What a tap's ``version`` holds."""


class BadInput(ValueError):
    """A field of a request is missing or has the wrong shape; ``field`` names it (None: the whole body). ``status``
    is the HTTP status of the answer: 400, 413 for a body larger than the limit once unpacked, or 415 for a body in
    a charset or a content coding the box does not read."""

    def __init__(self, message: str | Text, field: str | None = None, allowed: tuple[str, ...] | None = None,
                 status: int = 400, headers: Mapping[str, str] | None = None) -> None:
        super().__init__(message)
        self.field = field
        self.allowed = allowed
        """The values the field takes, as the API names them (None: not a choice); the message names them by the
        words the screens show."""
        self.status = status
        self.headers = dict(headers or {})
        """Headers the answer carries (a 415 for a content coding: ``Accept-Encoding``, RFC 9110 section 12.5.3)."""


def _shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 40 else text[:37] + "..."


def json_body(example: str, shape: str | None = None) -> dict[str, Any]:
    """The request's JSON object (``shape`` says what it must be, in the message when it is not one).

    A body sent with ``Content-Encoding: gzip`` (``x-gzip``) or ``deflate`` is unpacked first (:func:`_unpacked`),
    at most :data:`companion.webserver.BODY_LIMIT_BYTES` once unpacked; a body whose ``Content-Type`` names a charset
    other than UTF-8 (``application/json; charset=utf-16``, as some phones' libraries send) is read in that charset
    (:func:`_declared_text`); without one, or with UTF-8, the bytes are read as JSON reads them (UTF-8, or UTF-16/32
    told by their zero bytes). A field given twice at any depth (``{"player": "Ann", "player": "Bob"}``) is refused
    naming it, rather than one of the two taken silently.

    Raises:
        BadInput: not JSON (wrong content type, invalid, nested too deep, not text in the charset it names, a field
            given twice: 400 naming it) or not an object; a charset or a content coding the box does not read is a
            415 naming it; a body larger than the limit once unpacked is a 413.
    """
    if not request.is_json:
        raise BadInput(Text('send JSON with "Content-Type: application/json", e.g. {example}', example=example))
    data = _unpacked(request.get_data(cache=True), example)
    try:
        text = _declared_text(data, example)
        body = current_app.json.loads(data if text is None else text, object_pairs_hook=_each_once)
    except _GivenTwice as twice:
        raise BadInput(Text("{field} is given twice in the body: send each field once, e.g. {example}",
                            field=repr(twice.key[:40]), example=example), twice.key[:40]) from None
    except ValueError as exc:  # not JSON at all (``null`` is JSON: said below as not an object)
        if isinstance(exc, BadInput):
            raise
        if _number_too_long(exc):
            # valid JSON with a number of more than 4300 digits (Python refuses to convert it), as a file says it
            raise BadInput(Text("the body holds a number too long to be read (more than 4300 digits); send e.g. "
                                "{example}", example=example)) from None
        raise BadInput(Text("the body is not valid JSON; send e.g. {example}", example=example)) from None
    except RecursionError:  # valid JSON, but lists or objects nested deeper than the parser goes
        raise BadInput(Text("the body is nested too deeply (lists or objects inside each other about 1000 levels "
                            "deep); send e.g. {example}", example=example)) from None
    if not isinstance(body, dict):
        raise BadInput(Text("the body must be {shape}, e.g. {example}", shape=shape or JSON_OBJECT, example=example))
    return body


class _GivenTwice(ValueError):
    """A JSON object of the body names ``key`` twice."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _each_once(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object of the body from its ``(key, value)`` pairs in order (``json``'s ``object_pairs_hook``).

    Raises:
        _GivenTwice: a key is given twice (JSON itself takes the last one silently; RFC 8259 section 4: names
            "SHOULD be unique").
    """
    made: dict[str, Any] = {}
    for key, value in pairs:
        if key in made:
            raise _GivenTwice(key)
        made[key] = value
    return made


UNPACKED = {"gzip": 16 + zlib.MAX_WBITS, "x-gzip": 16 + zlib.MAX_WBITS, "deflate": zlib.MAX_WBITS}
"""The content codings a body may be sent in (RFC 9110 section 8.4.1), each with its ``zlib`` window bits; a
``deflate`` body without its zlib header (raw deflate, as some libraries send it) is read too."""


def _unpacked(data: bytes, example: str) -> bytes:
    """``data`` unpacked by the codings its ``Content-Encoding`` lists (the last applied first; ``identity`` is
    none), stopping at :data:`companion.webserver.BODY_LIMIT_BYTES` once unpacked so that a small body cannot fill
    the box's memory (a "zip bomb").

    Raises:
        BadInput: a coding not in :data:`UNPACKED` (``br``, ``zstd``, ``compress``): 415 naming it, with the
            ``Accept-Encoding`` the box reads (RFC 9110 sections 8.4 and 12.5.3); more than the limit once
            unpacked: 413; bytes that are not in the coding named: 400 naming it.
    """
    from companion.webserver import BODY_LIMIT_BYTES

    said = request.headers.get("Content-Encoding", "")
    codings = [coding.strip().lower() for coding in said.split(",") if coding.strip()]
    codings = [coding for coding in codings if coding != "identity"]
    for coding in codings:
        if coding not in UNPACKED:
            raise BadInput(Text("the box does not read a body sent with Content-Encoding {coding}: send the JSON "
                                "as it is, or packed with gzip or deflate, e.g. {example}", coding=_shown(coding),
                                example=example), status=415,
                           headers={"Accept-Encoding": ", ".join(name for name in UNPACKED if name != "x-gzip")})
    for coding in reversed(codings):
        data = _inflated(data, coding, BODY_LIMIT_BYTES, example)
    return data


def _inflated(data: bytes, coding: str, limit: int, example: str) -> bytes:
    """``data`` packed with ``coding`` (a key of :data:`UNPACKED`) unpacked, at most ``limit`` bytes; a gzip body
    of several members (files packed one after another) is each of them in turn.

    Raises:
        BadInput: more than ``limit`` bytes once unpacked (413), or not data of ``coding`` (400 naming it).
    """
    tries = [UNPACKED[coding]] + ([-zlib.MAX_WBITS] if coding == "deflate" else [])
    for wbits in tries:
        out = bytearray()
        rest = data
        try:
            while True:
                unpacker = zlib.decompressobj(wbits)
                out += unpacker.decompress(rest, limit + 1 - len(out))
                if len(out) > limit or unpacker.unconsumed_tail:
                    raise BadInput(Text("the body is larger than {size} KiB once unpacked ({coding}); actions and "
                                        "reports are small JSON objects", size=limit // 1024, coding=_shown(coding)),
                                   status=413)
                if not unpacker.eof:
                    raise zlib.error("cut short")
                rest = unpacker.unused_data.lstrip(b"\0")  # gzip writers may pad a member with zero bytes
                if not rest or wbits != UNPACKED["gzip"]:
                    break
        except zlib.error:
            continue
        if not rest:
            return bytes(out)
    raise BadInput(Text("the body is not packed with {coding}, as its Content-Encoding says: send e.g. {example}",
                        coding=_shown(coding), example=example))


_UTF8 = codecs.lookup("utf-8").name


def _declared_text(data: bytes, example: str) -> str | None:
    """The body ``data`` (unpacked) as text in the charset its ``Content-Type`` names (werkzeug's
    ``mimetype_params``), or None when it names none or UTF-8 (the bytes go to the JSON reader as they are).

    Raises:
        BadInput: a charset Python has no text codec for (``"x-nonsense"``, ``"base64"``): 415 naming it; bytes
            that are no text in the charset named (an odd number of bytes for UTF-16): 400 naming it.
    """
    charset = request.mimetype_params.get("charset")
    if charset is None:
        return None
    try:
        if codecs.lookup(charset).name == _UTF8:
            return None
    except (LookupError, ValueError, TypeError):
        pass  # said below, as a charset with no text codec
    try:
        text = data.decode(charset)
        return text[1:] if text.startswith("\ufeff") else text  # a byte-order mark is no part of the JSON
    except (LookupError, ValueError, TypeError) as exc:
        if isinstance(exc, UnicodeError):  # UnicodeDecodeError, or a codec that refuses everything ("undefined")
            raise BadInput(Text("the body is not text in {charset}, the charset its Content-Type names: send the JSON "
                                "in UTF-8, e.g. {example}", charset=_shown(charset), example=example)) from None
        raise BadInput(Text("the box does not read the charset {charset}: send the JSON in UTF-8, e.g. {example}",
                            charset=_shown(charset), example=example), status=415) from None


def _number_too_long(exc: BaseException) -> bool:
    """Whether the JSON reader's error behind ``exc`` (werkzeug and Flask raise BadRequest while handling it, one
    chained to the other) is Python refusing a number of more than 4300 digits: a ValueError that is not a
    JSONDecodeError (a syntax error) nor a UnicodeDecodeError (bytes that are no text)."""
    seen: set[int] = set()
    error: BaseException | None = exc
    while error is not None and id(error) not in seen:
        seen.add(id(error))
        if isinstance(error, ValueError):
            return not isinstance(error, (json.JSONDecodeError, UnicodeDecodeError))
        error = error.__cause__ or error.__context__
    return False


def _not_text(key: str, value: str, label: Any = None) -> BadInput | None:
    """The refusal of ``value`` sent as ``key`` when it holds a character no keyboard types (a lone surrogate, a
    control character such as NUL or a line break, a text-direction control, a noncharacter), naming the first
    one and the field by its ``label`` (as the player's page shows it; else the key): one refusal for all of them,
    whether or not the rest of the text shows something; else None."""
    character = untypable(value)
    if character is None:
        return None
    return BadInput(Text("{field} holds {character}: type it again", field=label or repr(key), character=character),
                    key)


def text(body: dict[str, Any], key: str, example: str, *, required: bool = True, max_len: int = MAX_TEXT,
         what: str | None = None, label: Any = None) -> str | None:
    """``body[key]`` as text of 1..``max_len`` characters (None when absent and not ``required``). ``label``: the
    field as the player's page shows it (``"Name"``), naming it in the refusals of what a player typed (a character
    no keyboard types, nothing visible, too long); the shape's refusals name the key.

    Raises:
        BadInput: missing, not a string, empty, too long, or not printable text.
    """
    what = what or TEXT
    if key not in body or body[key] is None:
        if required:
            raise BadInput(Text("{field} is missing: send {what}, e.g. {example}", field=repr(key), what=what,
                                example=example), key)
        return None
    value = body[key]
    if not isinstance(value, str):
        raise BadInput(Text("{field} must be {what} (a string), not {value}; e.g. {example}", field=repr(key),
                            what=what, value=_shown(value), example=example), key)
    # what a player typed: said in the phone's language (the shape errors above are for a page's programmer)
    refusal = _not_text(key, value[: max_len + 1], label)
    if refusal is not None:  # before "empty": a NUL alone is a character that is not text, as a line break is
        raise refusal
    if not has_visible(value):
        raise BadInput(Text("{field} is empty: send {what}, e.g. {example}", field=repr(key), what=what,
                            example=example), key)
    if len(value) > max_len:
        raise BadInput(Text("{field} is longer than {most} characters", field=label or repr(key), most=max_len), key)
    return value


def whole(body: dict[str, Any], key: str, example: str, *, low: int = 0, high: int = MAX_VERSION,
          what: str | None = None) -> int:
    """``body[key]`` as a JSON integer in ``low..high`` (not a boolean, a float or a string).

    Raises:
        BadInput: missing, not an integer, or out of range.
    """
    what = what or WHOLE
    if key not in body:
        raise BadInput(Text("{field} is missing: send {what}, e.g. {example}", field=repr(key), what=what,
                            example=example), key)
    value = body[key]
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadInput(Text("{field} must be {what}, not {value}; e.g. {example}", field=repr(key), what=what,
                            value=_shown(value), example=example), key)
    if not low <= value <= high:
        raise BadInput(Text("{field} must be {what} from {low} to {high}, not {value}", field=repr(key), what=what,
                            low=low, high=high, value=_shown(value)), key)
    return value


def choice(body: dict[str, Any], key: str, allowed: tuple[str, ...], example: str,
           words: Mapping[str, Any] | None = None, what: Any = None) -> str:
    """``body[key]`` when it is one of ``allowed``.

    Args:
        body: the request's JSON object.
        key: the field that holds the choice (``"action"``).
        allowed: the values the field takes, as the API names them (``"choose"``).
        example: a request that works, for a programmer's message (without ``words``).
        words: each allowed value's words as the screens show it (its button's label, a :class:`Text`): the refusal
            names the choices by them, in the player's language, and the API's values go in the answer's
            ``allowed``; values with the same words are listed once.
        what: what the choices are, as players know them (``Text("the box's buttons")``), with ``words``.

    Raises:
        BadInput: missing or not one of them (``allowed`` set on it).
    """
    value = body.get(key)
    if isinstance(value, str) and value in allowed:
        return value
    if words is not None:
        labels = Listing(list(dict.fromkeys(words.get(one, one) for one in allowed)))
        if key not in body or value is None:
            message = Text("nothing was chosen; {what}: {choices}", what=what or TEXT, choices=labels)
        else:
            message = Text("{value} is not known here; {what}: {choices}", value=_shown(value), what=what or TEXT,
                           choices=labels)
        raise BadInput(message, key, allowed)
    listed = Listing(allowed, OR)
    got = Text("missing") if key not in body else Text("not {value}", value=_shown(value))
    raise BadInput(Text("{field} must be {choices} ({got}), e.g. {example}", field=repr(key), choices=listed,
                        got=got, example=example), key, allowed)


_SCALARS = (str, int, float, bool, type(None))


def form_values(body: dict[str, Any], example: str,
                fields: Mapping[str, tuple[Any, str, Any, Any]] | None = None, form: Any = None) -> dict[str, Any]:
    """A report's ``values``: an object of at most :data:`MAX_VALUES` field names to a value (text, a
    number, true/false, null, or a list of up to 4 of those, e.g. a cell ``[0, 1]``); what each value
    means is the game's to judge.

    Args:
        body: the request's JSON object.
        example: a request that works, for the messages.
        fields: the form's fields as the phone was shown them, ``{name: (label, kind, minimum, maximum)}``
            (``kind`` one of ``companion.flow_spec.FIELD_KINDS``; the range of a number field, None where it has
            none): text that is no text (a lone surrogate, a control character) or over 100 characters sent for a
            number field is told the field takes a whole number in its range, by its label.
        form: the form's label as the phone was shown it (None: unknown); a number field's refusal starts with it
            (:func:`companion.flow_forms.in_form`), as the form's own checks do.

    Raises:
        BadInput: missing, not an object, too many fields, a field name that is not text, a value of
            another shape, or text that is not text.
    """
    values = body.get("values")
    if not isinstance(values, dict):
        raise BadInput(Text("'values' must be an object of field: value, e.g. {example}", example=example), "values")
    if len(values) > MAX_VALUES:
        raise BadInput(Text("'values' has {count} fields; a form has at most {most}", count=len(values),
                            most=MAX_VALUES), "values")
    for name, value in values.items():
        if not (0 < len(name) <= MAX_TEXT and untypable(name) is None):
            raise BadInput(Text("'values' has a field name that is not a form's field: {name}", name=_shown(name)),
                           "values")
        items = value if isinstance(value, list) else [value]
        field = f"values.{name}"
        if isinstance(value, list) and len(value) > 4:
            raise BadInput(Text("{field} is a list of {count}; at most 4 (e.g. a cell [0, 1])", field=repr(field),
                                count=len(value)), field)
        for item in items:
            if not isinstance(item, _SCALARS):
                raise BadInput(Text("{field} must be text, a number or a cell [i, j], not {value}", field=repr(field),
                                    value=_shown(value)), field)
            label, kind, low, high = (fields or {}).get(name, (None, "", None, None))
            refusal = _not_text(field, item[:101], label) if isinstance(item, str) else None
            if isinstance(item, str) and (len(item) > 100 or refusal is not None):
                if kind == "int":  # what the box reads there is a number: say so, as the form's own check would
                    problem = not_whole(label or repr(field), item, low, high)
                    # named by its form first, as every other refusal of a report is
                    raise BadInput(in_form(form, label, problem, len(fields or {}) == 1) if form and label
                                   else problem, field)
                if len(item) > 100:
                    raise BadInput(Text("{field} must be text of up to 100 characters", field=label or repr(field)),
                                   field)
                raise refusal
    return values


def version_and_key(body: dict[str, Any], example: str) -> tuple[int, str]:
    """The ``version`` (the state version the phone showed: ``session.events``) and ``key`` (a fresh
    idempotency key per tap) every state-changing request from a phone carries.

    Raises:
        BadInput: either is missing or malformed (naming which).
    """
    version = whole(body, "version", example, what=VERSION_SHOWN)
    key = body.get("key")
    if not isinstance(key, str) or not KEY_PATTERN.fullmatch(key):
        got = Text("missing") if "key" not in body else Text("not {value}", value=_shown(key))
        raise BadInput(Text("'key' must be a fresh idempotency key per tap, 1-64 letters, digits, _ or - ({got}); "
                            "a retry of the same tap sends the same key", got=got), "key")
    return version, key
