"""Checks on what a phone sends, each naming the field that is wrong (the phone view answers 400 with it).

The main loop judges what a value means (a rule, a player, a phase); these checks only make sure each
field has the shape it must have, so no body can reach the loop as something it cannot handle
(a number too large for the database, text that is not text, a list where a name goes).
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

from flask import request
from werkzeug.exceptions import BadRequest

from companion.i18n import Text
from rules.scoring import BIDI_CONTROLS, has_visible

__all__ = ["BadInput", "json_body", "text", "whole", "choice", "form_values", "version_and_key",
           "KEY_PATTERN", "MAX_VERSION", "MAX_TEXT"]

KEY_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,64}")
"""An idempotency key: 1-64 characters of letters, digits, ``_`` and ``-`` (the phone page makes 32 hex digits)."""

MAX_VERSION = 2**53 - 1
"""Largest state version (and question id) taken: what a phone's JavaScript numbers hold exactly."""

MAX_TEXT = 60
"""Longest name (player, colour, choice, form) in characters."""

MAX_VALUES = 24
"""Most fields in one report's ``values``."""


class BadInput(ValueError):
    """A field of a request is missing or has the wrong shape; ``field`` names it (None: the whole body)."""

    def __init__(self, message: str | Text, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


def _shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 40 else text[:37] + "..."


def json_body(example: str, shape: str = "a JSON object") -> dict[str, Any]:
    """The request's JSON object (``shape`` says what it must be, in the message when it is not one).

    Raises:
        BadInput: not JSON (wrong content type, invalid, nested too deep) or not an object.
    """
    if not request.is_json:
        raise BadInput(f'send JSON with "Content-Type: application/json", e.g. {example}')
    try:
        body = request.get_json()
    except BadRequest:  # not JSON at all (``null`` is JSON: said below as not an object)
        raise BadInput(f"the body is not valid JSON; send e.g. {example}") from None
    except RecursionError:  # valid JSON, but lists or objects nested deeper than the parser goes
        raise BadInput(f"the body is nested too deeply (lists or objects inside each other about 1000 levels "
                       f"deep); send e.g. {example}") from None
    if not isinstance(body, dict):
        raise BadInput(f"the body must be {shape}, e.g. {example}")
    return body


def _is_text(value: str) -> bool:
    """Printable text: encodable as UTF-8 (no lone surrogates), without control characters or text-direction
    controls (:data:`rules.scoring.BIDI_CONTROLS`)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return not any(unicodedata.category(c) in ("Cc", "Cs") or ord(c) in BIDI_CONTROLS for c in value)


def text(body: dict[str, Any], key: str, example: str, *, required: bool = True, max_len: int = MAX_TEXT,
         what: str = "text") -> str | None:
    """``body[key]`` as text of 1..``max_len`` characters (None when absent and not ``required``).

    Raises:
        BadInput: missing, not a string, empty, too long, or not printable text.
    """
    if key not in body or body[key] is None:
        if required:
            raise BadInput(f"{key!r} is missing: send {what}, e.g. {example}", key)
        return None
    value = body[key]
    if not isinstance(value, str):
        raise BadInput(f"{key!r} must be {what} (a string), not {_shown(value)}; e.g. {example}", key)
    if not has_visible(value):
        raise BadInput(f"{key!r} is empty: send {what}, e.g. {example}", key)
    # what a player typed: said in the phone's language (the shape errors above are for a page's programmer)
    if len(value) > max_len:
        raise BadInput(Text("{field} is longer than {most} characters", field=repr(key), most=max_len), key)
    if not _is_text(value):
        raise BadInput(Text("{field} holds characters that are not text (control characters, text-direction controls "
                            "or broken Unicode): type it again", field=repr(key)), key)
    return value


def whole(body: dict[str, Any], key: str, example: str, *, low: int = 0, high: int = MAX_VERSION,
          what: str = "a whole number") -> int:
    """``body[key]`` as a JSON integer in ``low..high`` (not a boolean, a float or a string).

    Raises:
        BadInput: missing, not an integer, or out of range.
    """
    if key not in body:
        raise BadInput(f"{key!r} is missing: send {what}, e.g. {example}", key)
    value = body[key]
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadInput(f"{key!r} must be {what}, not {_shown(value)}; e.g. {example}", key)
    if not low <= value <= high:
        raise BadInput(f"{key!r} must be {what} from {low} to {high}, not {_shown(value)}", key)
    return value


def choice(body: dict[str, Any], key: str, allowed: tuple[str, ...], example: str) -> str:
    """``body[key]`` when it is one of ``allowed``.

    Raises:
        BadInput: missing or not one of them.
    """
    value = body.get(key)
    if not isinstance(value, str) or value not in allowed:
        listed = ", ".join(allowed[:-1]) + f" or {allowed[-1]}" if len(allowed) > 1 else allowed[0]
        got = "missing" if key not in body else f"not {_shown(value)}"
        raise BadInput(f"{key!r} must be {listed} ({got}), e.g. {example}", key)
    return value


_SCALARS = (str, int, float, bool, type(None))


def form_values(body: dict[str, Any], example: str) -> dict[str, Any]:
    """A report's ``values``: an object of at most :data:`MAX_VALUES` field names to a value (text, a
    number, true/false, null, or a list of up to 4 of those, e.g. a cell ``[0, 1]``); what each value
    means is the game's to judge.

    Raises:
        BadInput: missing, not an object, too many fields, a field name that is not text, a value of
            another shape, or text that is not text.
    """
    values = body.get("values")
    if not isinstance(values, dict):
        raise BadInput(f"'values' must be an object of field: value, e.g. {example}", "values")
    if len(values) > MAX_VALUES:
        raise BadInput(f"'values' has {len(values)} fields; a form has at most {MAX_VALUES}", "values")
    for name, value in values.items():
        if not (0 < len(name) <= MAX_TEXT and _is_text(name)):
            raise BadInput(f"'values' has a field name that is not a form's field: {_shown(name)}", "values")
        items = value if isinstance(value, list) else [value]
        if isinstance(value, list) and len(value) > 4:
            raise BadInput(f"'values.{name}' is a list of {len(value)}; at most 4 (e.g. a cell [0, 1])",
                           f"values.{name}")
        for item in items:
            if not isinstance(item, _SCALARS):
                raise BadInput(f"'values.{name}' must be text, a number or a cell [i, j], not {_shown(value)}",
                               f"values.{name}")
            if isinstance(item, str) and (len(item) > 100 or not _is_text(item)):
                raise BadInput(f"'values.{name}' must be text of up to 100 characters", f"values.{name}")
    return values


def version_and_key(body: dict[str, Any], example: str) -> tuple[int, str]:
    """The ``version`` (the state version the phone showed: ``session.events``) and ``key`` (a fresh
    idempotency key per tap) every state-changing request from a phone carries.

    Raises:
        BadInput: either is missing or malformed (naming which).
    """
    version = whole(body, "version", example, what="the state version the phone showed (session.events of /api/state)")
    key = body.get("key")
    if not isinstance(key, str) or not KEY_PATTERN.fullmatch(key):
        got = "missing" if "key" not in body else f"not {_shown(key)}"
        raise BadInput(f"'key' must be a fresh idempotency key per tap, 1-64 letters, digits, _ or - ({got}); "
                       f"a retry of the same tap sends the same key", "key")
    return version, key
