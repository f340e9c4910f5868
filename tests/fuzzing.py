"""Hypothesis strategies for the fuzz tests: JSON documents shaped by our own JSON Schemas, any JSON,
and the CLI run in-process with the encodings of a real terminal.

``from_schema`` knows the JSON Schema keywords ``schemas/*.schema.json`` use and refuses any other, so a
new keyword in a schema is noticed here instead of being silently ignored; it draws documents the
schema allows. ``mutated`` puts one thing wrong in such a document (another type, a misspelt or cut
name, text no player can type, a number out of range, a key left out or added): the inputs a file
written by hand, by another program or by an attacker can hold, most of them deep enough to reach
the scoring and the printing.
"""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

SCHEMAS = Path(__file__).resolve().parents[1] / "schemas"

FUZZ = settings(
    max_examples=100,
    derandomize=True,  # the same examples on every run: CI is repeatable
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture],
)
"""Bounded, seeded settings shared by the fuzz tests (a few seconds per test)."""

FUZZ_STRUCTURED = settings(FUZZ, max_examples=60)
"""For documents built from a schema (each draw is bigger)."""

UNTYPABLE = ["\ud800", "\udfff", "\udc00", "\x00", "\n", "\t", "\x1b", "\x7f", "\x85", "\ufffe", "\uffff", "\ufdd0"]
"""Characters no player types: lone surrogates, control characters, noncharacters."""

nasty_text = st.one_of(
    st.text(max_size=12),
    st.tuples(st.text(max_size=6), st.sampled_from(UNTYPABLE), st.text(max_size=6)).map("".join),
    st.sampled_from(["", " ", "  \u00a0", "Ann", "ann", "Ann ", "Old Earth", "Main Reactor", "white", "x" * 500,
                     "\x1b[31mAnn", "Ann\r\nBob", "\ud83d\ude00"]),
)
"""Text as a hand-written or hostile file may hold it."""

any_scalar = st.one_of(
    st.none(), st.booleans(), st.integers(), st.integers(min_value=-(10**40), max_value=10**40),
    st.floats(allow_nan=True, allow_infinity=True), nasty_text,
)
any_json = st.recursive(
    any_scalar,
    lambda inner: st.one_of(st.lists(inner, max_size=5), st.dictionaries(nasty_text, inner, max_size=5)),
    max_leaves=25,
)
"""Any JSON value (with NaN, infinities and huge integers, as Python's ``json`` reads them)."""

small_json = st.recursive(
    any_scalar, lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(nasty_text, inner, max_size=3)),
    max_leaves=6,
)
"""A small JSON value: what a wrong field in an otherwise good document holds."""

_IGNORED = {"description", "title", "$schema", "$id", "$defs", "default", "examples", "uniqueItems", "pattern",
            "minLength"}
_KNOWN = _IGNORED | {"type", "$ref", "enum", "const", "properties", "required", "additionalProperties",
                     "propertyNames", "items", "prefixItems", "minItems", "maxItems", "minimum", "maximum",
                     "oneOf", "anyOf"}

names = st.one_of(st.sampled_from(["Ann", "Bob", "Béla", "György", "Łukasz", "Zoë", "李", "O'Neil", "Ann-Marie"]),
                  st.text(alphabet=st.characters(categories=["L", "N", "Zs", "Pd"]), min_size=1, max_size=10))
"""Names as players type them."""


class _Builder:
    """Valid documents (as far as the schema tells) from a JSON Schema."""

    def __init__(self, root: dict[str, Any]) -> None:
        self.root = root

    def resolve(self, schema: dict[str, Any]) -> dict[str, Any]:
        while "$ref" in schema:
            ref = schema["$ref"]
            assert ref.startswith("#/$defs/"), f"only local $defs references are known, got {ref}"
            rest = {k: v for k, v in schema.items() if k != "$ref"}
            schema = {**self.root["$defs"][ref.removeprefix("#/$defs/")], **rest}
        return schema

    def build(self, schema: dict[str, Any] | bool) -> st.SearchStrategy[Any]:
        if schema is True or schema == {}:
            return small_json
        assert isinstance(schema, dict), schema
        schema = self.resolve(schema)
        unknown = set(schema) - _KNOWN
        assert not unknown, f"the schema uses keywords from_schema does not know: {sorted(unknown)}"
        if "const" in schema:
            return st.just(schema["const"])
        if "enum" in schema:
            return st.sampled_from(schema["enum"])
        for key in ("oneOf", "anyOf"):
            if key in schema:
                return st.one_of([self.build(branch) for branch in schema[key]])
        kind = schema.get("type")
        if isinstance(kind, list):
            return st.one_of([self.build({**schema, "type": k}) for k in kind])
        if kind == "object":
            return self._object(schema)
        if kind == "array":
            return self._array(schema)
        if kind == "integer":
            return st.integers(min_value=schema.get("minimum"), max_value=schema.get("maximum"))
        if kind == "string":
            return names
        if kind == "boolean":
            return st.booleans()
        if kind == "null":
            return st.none()
        if kind is None:
            return small_json
        raise AssertionError(f"unknown type {kind!r}")

    def _object(self, schema: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
        properties = schema.get("properties", {})
        required = set(schema.get("required", ()))
        fixed = {name: self.build(sub) for name, sub in properties.items() if name in required}
        optional = {name: self.build(sub) for name, sub in properties.items() if name not in required}
        extra_schema = schema.get("additionalProperties", True)
        if "propertyNames" in schema:  # a map (die colour -> count)
            extra = st.dictionaries(self.build(schema["propertyNames"]), self.build(extra_schema), max_size=4)
        elif not properties and extra_schema is not False:
            extra = st.dictionaries(names, self.build(extra_schema), max_size=4)
        else:
            extra = st.just({})
        return st.tuples(extra, st.fixed_dictionaries(fixed, optional=optional)).map(lambda parts: {**parts[0], **parts[1]})

    def _array(self, schema: dict[str, Any]) -> st.SearchStrategy[list[Any]]:
        if "prefixItems" in schema:
            return st.tuples(*(self.build(s) for s in schema["prefixItems"])).map(list)
        low = schema.get("minItems", 0)
        return st.lists(self.build(schema.get("items", True)), min_size=low, max_size=schema.get("maxItems", max(low, 5)))


def from_schema(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Documents ``schema`` (a JSON Schema of ``schemas/``) allows; the game's checker may still refuse
    them for what a schema cannot say (a tile in two tableaux, more dice than the game has)."""
    return _Builder(schema).build(schema)


def _slots(document: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a document (key paths), the document itself first."""
    out = [path]
    if isinstance(document, dict):
        for key, value in document.items():
            out += _slots(value, (*path, key))
    elif isinstance(document, list):
        for k, value in enumerate(document):
            out += _slots(value, (*path, k))
    return out


def _respelt(value: Any) -> st.SearchStrategy[Any]:
    """A name as a hand-written file gets it wrong, or as no one can type it."""
    if not isinstance(value, str) or not value:
        return nasty_text
    return st.one_of(
        st.sampled_from([value.upper(), value.lower(), value[:-1], value + " ", " " + value, value + "s",
                         value.replace(" ", "  "), value + "\u0301"]),
        st.tuples(st.integers(0, len(value)), st.sampled_from(UNTYPABLE))
        .map(lambda cut: value[: cut[0]] + cut[1] + value[cut[0]:]),
    )


@st.composite
def mutated(draw: Any, documents: st.SearchStrategy[Any]) -> Any:
    """A document from ``documents`` with one thing wrong: a value replaced (another type, a number
    out of range, text no player can type), a name misspelt, a key left out or one added."""
    document = json.loads(json.dumps(draw(documents)))  # a copy
    path = draw(st.sampled_from(_slots(document)))
    action = draw(st.sampled_from(["replace", "respell", "drop", "add"]))
    if not path:
        return draw(small_json) if action == "replace" else document
    parent = document
    for key in path[:-1]:
        parent = parent[key]
    key = path[-1]
    if action == "replace":
        parent[key] = draw(st.one_of(small_json, st.sampled_from([-1, 10**6, 10**30, 2**63, 1.5, True, None, "", [], {}])))
    elif action == "respell":
        parent[key] = draw(_respelt(parent[key]))
    elif action == "drop":
        del parent[key]
    elif isinstance(parent, dict):
        parent[draw(st.one_of(nasty_text, _respelt(str(key))))] = draw(small_json)
    else:
        parent.insert(key, draw(small_json))
    return document


@st.composite
def renamed(draw: Any, documents: st.SearchStrategy[Any]) -> Any:
    """A document from ``documents`` whose every ``"name"`` (the players' names: free text, so nothing
    else refuses them) is drawn anew: typed names, odd ones, and text no one can type."""
    document = json.loads(json.dumps(draw(documents)))
    pending = [document]
    while pending:
        value = pending.pop()
        if isinstance(value, dict):
            for key in value:
                if key == "name":
                    value[key] = draw(st.one_of(names, nasty_text))
                else:
                    pending.append(value[key])
        elif isinstance(value, list):
            pending.extend(value)
    return document


def documents(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    """What a score file may hold for ``schema``'s game: a valid document, or one with one thing wrong."""
    valid = from_schema(schema)
    return st.one_of(valid, mutated(valid))


def game_schema(game: str, schema: str = "score-input") -> dict[str, Any]:
    """``schemas/<game>-<schema>.schema.json``: the score input's, or the one a game's check reads
    (``info.check_format.schema``: Eclipse's ``placement-input``)."""
    return json.loads((SCHEMAS / f"{game}-{schema}.schema.json").read_text(encoding="utf-8"))


def run_cli(argv: Sequence[str]) -> tuple[int, str, str]:
    """``companion.cli.main(argv)`` in this process, its output through UTF-8 streams as a terminal's:
    standard output strict (a name that cannot be encoded is an error, as on a real terminal),
    standard error with backslash escapes (as Python's own). Returns (exit code, stdout, stderr)."""
    from companion.cli import main

    out_bytes, err_bytes = io.BytesIO(), io.BytesIO()
    out = io.TextIOWrapper(out_bytes, encoding="utf-8", errors="strict", newline="\n")
    err = io.TextIOWrapper(err_bytes, encoding="utf-8", errors="backslashreplace", newline="\n")
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    out.flush()
    err.flush()
    return code, out_bytes.getvalue().decode("utf-8"), err_bytes.getvalue().decode("utf-8")
