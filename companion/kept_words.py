"""Words kept on disk the way the box says them: a :class:`rules.text.Text` (its template, plural and parameters),
a :class:`rules.text.Listing` and a :class:`rules.names.Term` as JSON, so a question kept across a restart
(:mod:`companion.camera.questions`) is said again in each player's language, not frozen in one.

Shapes (JSON)::

    "plain words"                                          a str, a number, a bool, null: as it is
    {"text": template, "plural": str | null, "n": int | null, "params": {name: kept}}
    {"listing": [kept, ...], "sep": kept}
    {"term": kind, "id": id}
    {"list": [kept, ...]}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.names import Term
from rules.text import Listing, Text

__all__ = ["from_kept", "to_kept"]

DEPTH = 12
"""How deep kept words may nest (a Text in a Listing in a Text...); deeper is damaged, never a crash."""


def to_kept(value: Any) -> Any:
    """``value`` as JSON that :func:`from_kept` turns back into the same words (its English ``str`` equal, said in
    every language as before). Anything else that is a ``str`` is kept as its plain words."""
    if isinstance(value, Text):
        return {"text": value.template, "plural": value.plural_template, "n": value.n,
                "params": {str(k): to_kept(v) for k, v in value.params.items()}}
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
        ValueError: ``kept`` is of no kept shape (a damaged row), nests deeper than :data:`DEPTH`, or its template
            does not take its parameters.
    """
    if depth < 0:
        raise ValueError("kept words nest too deep")
    if kept is None or isinstance(kept, (str, bool, int, float)):
        return kept
    if not isinstance(kept, Mapping):
        raise ValueError(f"kept words of no known shape ({type(kept).__name__})")
    if "text" in kept:
        template, many, n, params = kept.get("text"), kept.get("plural"), kept.get("n"), kept.get("params")
        if not isinstance(template, str) or not isinstance(params, Mapping) or \
                not (many is None or isinstance(many, str)) or not (n is None or type(n) is int):
            raise ValueError("kept text of another shape")
        said = {str(k): from_kept(v, depth - 1) for k, v in params.items()}
        try:
            return Text._make(template, many, n, said)
        except (KeyError, IndexError, ValueError) as exc:
            raise ValueError(f"kept text whose template does not take its parameters ({exc})") from None
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
