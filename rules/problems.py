"""What is wrong with a score or check file, by code: the English of each :class:`rules.scoring.ScoreInputError`.

Each problem has a stable code (``"not_object"``) and parameters (``got``: what the file holds there); its English
template is marked with :func:`rules.text.N_`, so ``pybabel extract`` puts it in the box's catalogs and ``companion``
says the error in a player's language from its code and parameters (``companion.i18n.message_of``: the error's
message is a :class:`rules.text.Text`), never by matching its English. The English stays in the exception (logs,
``--json`` without ``--language``). Pure: no I/O.

A parameter that is itself words (``got``: "an array", "the number 3"; ``range``: "between 0 and 9") is a
:class:`rules.text.Text` too (:func:`json_type`, :func:`shown_number`, :func:`value_range`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.text import N_, Text

__all__ = ["PROBLEMS", "json_type", "problem", "shown_number", "value_range"]

PROBLEMS: dict[str, str] = {
    # the shape of a JSON file (rules.scoring: Fields, check_int, json_documents, check_typed_text)
    "not_object": N_("must be a JSON object, got {got}"),
    "unknown_field": N_("is not a known field (known: {known})"),
    "missing": N_("is missing (required)"),
    "not_text": N_("must be a non-empty string, got {got}"),
    "not_array": N_("must be a JSON array, got {got}"),
    "not_whole": N_("must be a whole number, got {got}"),
    "out_of_range": N_("must be {range}, got {value}"),
    "same_name": N_("{name} is also the name of {other} ({other_name}); names must differ, ignoring case"),
    "key_twice": N_("gives the key {key} twice in one object (which one is meant?)"),
    "too_deep": N_("is nested too deeply (lists or objects inside each other about 1000 levels deep; a position "
                   "file is a few levels deep)"),
    "not_json": N_("is not JSON ({error} at line {line} column {column})"),
    "not_json_line": N_("is not JSON ({error} at column {column})"),
    "untypable": N_("holds {character}: retype it"),
    "untypable_key": N_("has a key holding {character}: retype it"),
}
"""Every problem's code and its English template (the catalog's msgid)."""


def problem(code: str, /, **params: Any) -> Text:
    """The problem ``code`` with its ``params``, as a :class:`Text` (English as a ``str``; ``template`` is
    ``PROBLEMS[code]``).

    Raises:
        KeyError: ``code`` is not in :data:`PROBLEMS`, or its template names a parameter not given (a
            programming error).
    """
    return Text(PROBLEMS[code], **params)


def shown_number(number: int) -> str | Text:
    """A whole number for a message: its digits, or how many there are when they would not fit a line."""
    return str(number) if abs(number) < 10**15 else Text("a number of {count} digits", count=len(str(abs(number))))


def json_type(value: Any) -> str | Text:
    """What a JSON value is, for "got ...": ``null``, ``a boolean (true)``, ``the number 3``, ``the string 'x'``,
    ``an array``, ``an object``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return Text("a boolean ({value})", value=str(value).lower())
    if isinstance(value, int) and abs(value) >= 10**15:
        return shown_number(value)
    if isinstance(value, (int, float)):
        return Text("the number {value}", value=value)
    if isinstance(value, str):
        return Text("the string {value}", value=repr(value))
    if isinstance(value, list):
        return Text("an array")
    if isinstance(value, Mapping):
        return Text("an object")
    return type(value).__name__


def value_range(low: int | None, high: int | None) -> Text:
    """``between {low} and {high}``, ``at least {low}`` or ``at most {high}`` (one of the two may be None)."""
    if low is not None and high is not None:
        return Text("between {low} and {high}", low=low, high=high)
    if low is not None:
        return Text("at least {low}", low=low)
    return Text("at most {high}", high=high)
