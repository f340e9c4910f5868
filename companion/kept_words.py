"""Words kept on disk the way the box says them: a :class:`rules.text.Text` (its template, plural and parameters),
a :class:`rules.text.Listing` and a :class:`rules.names.Term` as JSON, so a question kept across a restart
(:mod:`companion.camera.questions`) is said again in each player's language, not frozen in one.

Shapes (JSON)::

    "plain words"                                          a str, a number, a bool, null: as it is
    {"text": template, "plural": str | null, "n": int | null, "params": {name: kept}, "context"?: str}
    {"listing": [kept, ...], "sep": kept}
    {"term": kind, "id": id}
    {"list": [kept, ...]}
"""

from __future__ import annotations

import re
import string
from collections.abc import Mapping
from typing import Any

from rules.names import Term
from rules.text import Listing, Text

__all__ = ["from_kept", "to_kept"]

DEPTH = 12
"""How deep kept words may nest (a Text in a Listing in a Text...); deeper is damaged, never a crash."""


MAX_CHARS = 10_000
"""The longest words a kept text says (characters): the box's questions are a line or two."""
_FIELD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_SPEC = re.compile(r"[^{}]{0,8}")


def _check_template(template: str | None) -> None:
    """Raise ValueError unless ``template`` takes its parameters the way the box's words do: each field a bare name
    (``{player}``; never an attribute, an index or a position, which a damaged row could use to read past its
    parameters) with at most a short format (``{n:>3}``; a huge width would fill the memory)."""
    if template is None:
        return
    try:
        fields = list(string.Formatter().parse(template))
    except ValueError as exc:
        raise ValueError(f"kept text whose template does not parse ({exc})") from None
    for _, name, spec, _ in fields:
        if name is None:
            continue
        if not _FIELD.fullmatch(name) or not _SPEC.fullmatch(spec or "") or len(re.sub(r"\D", "", spec or "")) > 3:
            raise ValueError(f"kept text with a field the box never writes ({{{name}:{spec}}})")


def to_kept(value: Any) -> Any:
    """``value`` as JSON that :func:`from_kept` turns back into the same words (its English ``str`` equal, said in
    every language as before). Anything else that is a ``str`` is kept as its plain words."""
    if isinstance(value, Text):
        kept = {"text": value.template, "plural": value.plural_template, "n": value.n,
                "params": {str(k): to_kept(v) for k, v in value.params.items()}}
        if value.context is not None:
            kept["context"] = value.context
        return kept
    if isinstance(value, Listing):
        return {"listing": [to_kept(i) for i in value.items], "sep": to_kept(value.sep)}
    if isinstance(value, Term):
        return {"term": value.kind, "id": value.id}
    if isinstance(value, str):
        return str(value)
    if value is None or isinstance(value, (bool, int, float)):
        return value
    if isinstance(value, (list, tuple)):
        return {"list": [to_kept(v) for v in value]}
    return str(value)


def from_kept(kept: Any, depth: int = DEPTH) -> Any:
    """The words :func:`to_kept` kept.

    Raises:
        ValueError: ``kept`` is of no kept shape (a damaged row), nests deeper than :data:`DEPTH`, its template
            does not take its parameters, names a field other than bare (``{a.b}``, ``{a[0]}``, ``{0}``) or a long
            format, or says more than :data:`MAX_CHARS` characters.
    """
    if depth < 0:
        raise ValueError("kept words nest too deep")
    if kept is None or isinstance(kept, (str, bool, int, float)):
        return kept
    if not isinstance(kept, Mapping):
        raise ValueError(f"kept words of no known shape ({type(kept).__name__})")
    if "text" in kept:
        return _text(kept, depth)
    if "listing" in kept:
        items = kept.get("listing")
        if not isinstance(items, list):
            raise ValueError("kept listing of another shape")
        return Listing([from_kept(i, depth - 1) for i in items], from_kept(kept.get("sep", ", "), depth - 1))
    if "term" in kept:
        kind, ident = kept.get("term"), kept.get("id")
        if not isinstance(kind, str) or not isinstance(ident, str):
            raise ValueError("kept term of another shape")
        try:
            return Term(kind, ident)
        except (KeyError, ValueError, LookupError) as exc:
            raise ValueError(f"kept term {kind}/{ident} is unknown ({exc})") from None
    if "list" in kept and isinstance(kept["list"], list):
        return [from_kept(v, depth - 1) for v in kept["list"]]
    raise ValueError("kept words of no known shape")


def _text(kept: Mapping[str, Any], depth: int) -> Text:
    """The :class:`Text` kept as ``{"text", "plural", "n", "params"}`` (:func:`from_kept`). Raises ValueError."""
    template, many, n, params = kept.get("text"), kept.get("plural"), kept.get("n"), kept.get("params")
    if not isinstance(template, str) or not isinstance(params, Mapping) or \
            not (many is None or isinstance(many, str)) or not (n is None or type(n) is int):
        raise ValueError("kept text of another shape")
    if params or many is not None:  # formatted, as Text does; words without parameters are said as they are
        for form in (template, many):
            _check_template(form)
    said = {str(k): from_kept(v, depth - 1) for k, v in params.items()}
    try:
        words = Text._make(template, many, n, said)
    except (KeyError, IndexError, ValueError, TypeError, AttributeError) as exc:
        raise ValueError(f"kept text whose template does not take its parameters ({exc})") from None
    if len(words) > MAX_CHARS:
        raise ValueError(f"kept text longer than {MAX_CHARS} characters")
    context = kept.get("context")
    if context is not None:
        if not isinstance(context, str) or len(context) > 100:
            raise ValueError("kept text whose game context is of another shape")
        words.context = context
    return words
