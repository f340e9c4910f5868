"""A report form a phone fills in, and how a posted one is checked: :class:`Form` of :class:`Field`, :func:`parse_form`.

A game's flow module (:mod:`companion.flow_spec`) declares its forms with these; the box checks every posted form
against its declaration before anything reaches the rules engine, so a phone's bad input is refused with the field
and the problem named (:class:`companion.errors.BadEntry`), in the phone's language, and nothing is recorded.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.errors import BadEntry, shown
from companion.i18n import LANGUAGES, OR, Listing, Text, message_of, plural, say
from rules.scoring import closest_names

__all__ = ["FIELD_KINDS", "Field", "Form", "MAX_DICE", "WHOLE_DIGITS", "in_form", "not_a_number", "not_whole",
           "parse_form", "whole_number"]

FIELD_KINDS = ("choice", "int", "cell", "dice")
"""What a :class:`Field` takes: one name of a list, a whole number, a cell ``[i, j]``, the faces of some dice
(``"6 4 2"``: whole numbers ``minimum``..``maximum``, at most :data:`MAX_DICE` of them)."""

MAX_DICE = 20
"""Dice one ``dice`` field takes at most (an Eclipse volley of several ships with two cannons each stays below)."""


@dataclass(frozen=True)
class Field:
    """One input of a report form.

    Attributes:
        name: the key in the posted ``values``.
        label: what the phone shows.
        kind: ``"choice"`` (one of ``choices``), ``"int"`` (whole number ``minimum``..``maximum``),
            ``"cell"`` (``[i, j]``, two whole numbers ``minimum``..``maximum``) or ``"dice"`` (the faces rolled,
            typed as ``"6 4 2"`` or ``"642"``: a list of whole numbers ``minimum``..``maximum``).
        optional: may be left out (then it is None).
        labels: each choice as players read it, in ``choices``' order (a phase, a colour in the players' words:
            :class:`companion.i18n.Text` or a game term); () shows the choices as they are. The phone shows a
            label and posts its choice, which is never translated.
        others: the choices are players and the reporting player is not one of them (``"with"``: relations,
            an alliance): the phone leaves the reporter out, and a report naming the reporter is refused.
        unavailable: ``(name, why)`` for names of the game not offered now (a tile already on the map): a report
            naming one is refused with its ``why`` instead of "unknown".
        shown_for: ``(field, choices)``: an optional field that belongs to those choices of another field of the
            form (Among the Stars: an Embassy Offices' gift, beside the card built); the phone shows it only while
            that field holds one of them, else leaves it out of what it sends. () always shows it.
        shown_from: ``(field, least)``: an optional field that matters only once a whole-number field of the form
            holds at least ``least`` (Among the Stars: the reactor of a Shield Generator's 2nd extra cube, once 2 extra
            cubes are said); the phone hides it (and leaves it out of what it sends) while that field is empty or
            less. () does not hide it.

    A choice may be named by its number alone when the names start with one (``"223"`` for ``"223 Eta Cephei"``).
    """

    name: str
    label: str
    kind: str = "choice"
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    optional: bool = False
    labels: tuple[str, ...] = ()
    unavailable: tuple[tuple[str, str], ...] = ()
    others: bool = False
    shown_for: tuple[str, tuple[str, ...]] | tuple[()] = ()
    shown_from: tuple[str, int] | tuple[()] = ()

    def __post_init__(self) -> None:
        if self.labels and len(self.labels) != len(self.choices):
            raise ValueError(f"field {self.name!r}: {len(self.labels)} labels for {len(self.choices)} choices")
        if self.shown_from and not (len(self.shown_from) == 2 and isinstance(self.shown_from[1], int)):
            raise ValueError(f"field {self.name!r}: shown_from is (field, least), not {self.shown_from!r}")

    def to_json(self) -> dict[str, Any]:
        """``{"name", "label", "kind", "choices", "labels", "min", "max", "optional", "others"}``, and ``"shown_for"``
        ``[field, [choices]]`` and ``"shown_from"`` ``[field, least]`` where it has them (``labels``: each choice as
        shown, the choices themselves when the field has none of its own; ``others``: leave the reporting player out
        of ``choices``)."""
        out = {"name": self.name, "label": self.label, "kind": self.kind, "choices": list(self.choices),
               "labels": list(self.labels or self.choices), "min": self.minimum, "max": self.maximum,
               "optional": self.optional, "others": self.others}
        if self.shown_for:
            out["shown_for"] = [self.shown_for[0], list(self.shown_for[1])]
        if self.shown_from:
            out["shown_from"] = [self.shown_from[0], self.shown_from[1]]
        return out


@dataclass(frozen=True)
class Form:
    """A report a player makes about their own empire (``id`` is what the phone posts).

    Attributes:
        id: what the phone posts (``"tile"``).
        label: what the phone shows (``"Tile built"``).
        fields: its inputs.
        private: hidden information (an end-of-game position with face-down tiles, a secret objective): entered
            only on the player's own phone, the one that claimed the seat; no other phone and not the touchscreen
            sends it (403), and nothing of it is shown to the table before the game's end. The game keeps
            it out of its view and findings.
        hint: what the player should know before sending it, shown under its fields ("" for none): what the
            box already counts by itself (Roll: the chips a consumed shipment paid).
    """

    id: str
    label: str
    fields: tuple[Field, ...] = ()
    private: bool = False
    hint: str = ""

    def to_json(self) -> dict[str, Any]:
        """``{"id", "label", "fields": [Field.to_json()], "private": bool, "hint": str}``."""
        return {"id": self.id, "label": self.label, "fields": [f.to_json() for f in self.fields],
                "private": self.private, "hint": self.hint}


WHOLE_DIGITS = 9
"""Digits a whole number typed on a phone may have (every count in these games is far smaller)."""
_WHOLE = re.compile(rf"[+-]?[0-9]{{1,{WHOLE_DIGITS}}}")  # ASCII digits only: not "²", "①", "٣"


def whole_number(value: Any, what: str, low: int | None = None, high: int | None = None) -> int:
    """``value`` as a whole number: an ``int`` (not a bool) or a string of at most :data:`WHOLE_DIGITS`
    ASCII digits with an optional sign (``"+3"``, ``" -2 "``). ``low``/``high``: the field's range (None: none), said
    in the refusal; the range itself is the caller's to check.

    Raises:
        BadEntry: ``"{what} must be a whole number from {low} to {high}, got ..."`` (:func:`not_whole`).
    """
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and _WHOLE.fullmatch(value.strip()):
        return int(value.strip())
    raise BadEntry(not_whole(what, value, low, high))


_NOT_NUMBERS = frozenset(sign + word for sign in ("", "+", "-") for word in ("nan", "inf", "infinity"))
"""What a phone or JSON may send for a float that is no number (``NaN``, ``Infinity``), in any case."""


def not_a_number(value: object) -> bool:
    """Whether ``value`` is a float that is no number (NaN, an infinity) or text that spells one (``"nan"``,
    ``"-Infinity"``)."""
    if isinstance(value, float):
        return value != value or value in (float("inf"), float("-inf"))
    return isinstance(value, str) and value.strip().casefold() in _NOT_NUMBERS


def not_whole(what: str | Text, value: object, low: int | None = None, high: int | None = None) -> Text:
    """The refusal of ``value`` where ``what`` takes a whole number, saying the field's range (``low``/``high``; None:
    none) as the phone's form does: ``"{what} must be a whole number from 0 to 10, got 2.5"``; NaN or an infinity
    (:func:`not_a_number`) is said to be not a number, never echoed (``nan``); without a range, the most digits
    (:data:`WHOLE_DIGITS`). Said by :func:`whole_number` and by a phone's report whose number field holds no
    text."""
    if low is not None and high is not None:
        span: Text | None = Text("from {low} to {high}", low=low, high=high)
    elif low is not None:
        span = Text("of at least {low}", low=low)
    elif high is not None:
        span = Text("of at most {high}", high=high)
    else:
        span = None
    if not_a_number(value):
        if span is None:
            return Text("{what} must be a whole number; what was sent is not a number", what=what)
        return Text("{what} must be a whole number {range}; what was sent is not a number", what=what, range=span)
    if span is not None:
        return Text("{what} must be a whole number {range}, got {value}", what=what, range=span, value=shown(value))
    return plural("{what} must be a whole number of at most {digits} digit (0-9), got {value}",
                  "{what} must be a whole number of at most {digits} digits (0-9), got {value}", WHOLE_DIGITS,
                  what=what, digits=WHOLE_DIGITS, value=shown(value))


def _in_range(n: int, f: Field) -> bool:
    return (f.minimum is None or n >= f.minimum) and (f.maximum is None or n <= f.maximum)


def _choice_named(value: str, choices: tuple[str, ...]) -> str | None:
    """The choice ``value`` names: spelt so, the same ignoring case, or by its leading number alone (``"223"``)."""
    match = next((c for c in choices if c == value), None)
    match = match or next((c for c in choices if c.casefold() == value.strip().casefold()), None)
    if match is None and value.strip().isdigit():
        numbered = [c for c in choices if c.split(" ", 1)[0] == value.strip()]
        match = numbered[0] if len(numbered) == 1 else None
    return match


SHORT_CHOICES = 4
"""A choice field with labels and at most this many choices (yes/no, a die colour) is refused by naming its choices in
the player's words ("must be yes or no"), not as "one of the listed names" with a guess among the names the phone
posts (English words such as "yes")."""


def _not_one_of(f: Field, what: str | Text, value: object) -> Text:
    """The refusal of ``value`` in a short labelled choice field (:data:`SHORT_CHOICES`): ``"{what} must be yes or
    no, got maybe"``, the choices as the field's labels (the player's words)."""
    return Text("{what} must be {choices}, got {value}", what=what, choices=Listing(f.labels, OR),
                value=shown(value, 43))


def _label_named(value: str, f: Field) -> str | None:
    """The choice of a short labelled field (:data:`SHORT_CHOICES`) whose label, in any of the app's languages,
    ``value`` spells ignoring case ("tak", "ναι", "igen" for yes); None when none does."""
    wanted = value.strip().casefold()
    for choice, label in zip(f.choices, f.labels, strict=True):
        if any(say(label, lang).strip().casefold() == wanted for lang in LANGUAGES):
            return choice
    return None


def _parse_choice(f: Field, value: Any, what: Text) -> str:
    """A posted choice in the catalogue's spelling (:func:`parse_form`).

    Raises:
        BadEntry: not a name, a choice not available (why), or not in the list (with the closest names).
    """
    short = bool(f.labels) and len(f.choices) <= SHORT_CHOICES  # yes/no, a few words: said in the player's words
    if not isinstance(value, str):
        if short:
            raise BadEntry(_not_one_of(f, what, value))
        raise BadEntry(Text("{what} must be one of the listed names, got {value}", what=what, value=shown(value)))
    match = _choice_named(value, f.choices) or (_label_named(value, f) if short else None)
    if match is None:
        why = dict(f.unavailable).get(_choice_named(value, tuple(n for n, _ in f.unavailable)) or "")
        if why:
            raise BadEntry(Text("{what}: {why}", what=what, why=why))
        if short:
            raise BadEntry(_not_one_of(f, what, value))
        hint = closest_names(value[:80], f.choices)  # a 16 KiB string is not compared letter by letter
        if hint:
            raise BadEntry(
                Text(
                    "{what}: unknown {value}; did you mean {hint}?",
                    what=what,
                    value=shown(value, 43),
                    hint=Listing(hint, OR),
                )
            )
        raise BadEntry(Text("{what}: unknown {value}", what=what, value=shown(value, 43)))
    return match


def parse_form(form: Form, values: Any) -> dict[str, Any]:
    """The checked values of a posted report: choices in the catalogue's spelling, ints in range.

    Args:
        form: the form reported.
        values: the posted ``{field name: value}``.

    Returns:
        ``{field name: value}`` for every field (None for an optional field left out).

    Raises:
        BadEntry: not an object, an unknown field, a missing field, a choice not in the list (with
            the closest names), a number that is not whole or out of range. Nothing is recorded.
    """
    if not isinstance(values, Mapping):
        raise BadEntry(Text("{form}: 'values' must be an object of field: value, got {type}", form=form.label,
                            type=type(values).__name__))
    known = {f.name for f in form.fields}
    extra = sorted(str(k) for k in values if k not in known)
    if extra:
        raise BadEntry(Text("{form}: unknown field {field}; fields: {fields}", form=form.label, field=shown(extra[0]),
                            fields=Listing([f.label for f in form.fields]) if known else Text("none")))
    out: dict[str, Any] = {}
    alone = len(form.fields) == 1  # the form's label names its one field: the refusal names the field alone
    for f in form.fields:
        value = values.get(f.name)
        if value is None or value == "":
            if not f.optional:
                raise BadEntry(in_form(form.label, f.label, Text("{field} is missing", field=f.label), alone))
            out[f.name] = None
            continue
        what = f.label  # the form is named before the problem when it asks more than this field
        try:
            if f.kind == "choice":
                out[f.name] = _parse_choice(f, value, what)
            elif f.kind == "int":
                n = whole_number(value, what, f.minimum, f.maximum)
                if not _in_range(n, f):  # one wording for a number out of range and for no number at all
                    raise BadEntry(not_whole(what, n, f.minimum, f.maximum))
                out[f.name] = n
            elif f.kind == "cell":
                if not isinstance(value, (list, tuple)) or len(value) != 2:
                    raise BadEntry(Text("{what} must be a cell [i, j], got {value}", what=what, value=shown(value)))
                cell = [whole_number(v, what, f.minimum, f.maximum) for v in value]
                if not all(_in_range(v, f) for v in cell):
                    raise BadEntry(Text("{what}: each coordinate must be {low}-{high}, got {value}", what=what,
                                        low=f.minimum, high=f.maximum, value=shown(cell)))
                out[f.name] = cell
            elif f.kind == "dice":
                out[f.name] = _dice_faces(value, f, what)
            else:  # pragma: no cover - a spec bug
                raise ValueError(f"unknown field kind {f.kind!r}")
        except BadEntry as exc:
            raise BadEntry(in_form(form.label, f.label, message_of(exc), alone)) from None
    return out


def in_form(form: str, field: str, problem: Any, only_field: bool = False) -> Any:
    """A refusal of one field of a report, said as ``"{form}: {problem}"``.
    The problem, which already starts with the field's label, is said alone when the form asks that field alone
    (``only_field``: Roll's "Credits now" form of one "Credits" field read "Credits now: Credits must be 0-10", in
    Greek "Μονάδες τώρα: Μονάδες: ...") or when the field's label is the form's (Race's "Start world" form: never
    "Start world: Start world: unknown 'X'").

    Args:
        form: the form's label (players' words, lazy or not).
        field: the field's label.
        problem: the refusal, starting with the field's label (a :class:`Text` or a string).
        only_field: the form has no other field (its label names the one thing it asks).
    """
    if only_field or str(field).strip().casefold() == str(form).strip().casefold():
        return problem
    return Text("{form}: {problem}", form=form, problem=problem)


def _dice_faces(value: Any, f: Field, what: str) -> list[int]:
    """The faces of a ``dice`` field: ``"6 4 2"``, ``"6,4,2"``, ``"642"`` (one digit each) or a list of whole numbers.

    Raises:
        BadEntry: not faces, a face out of range, more than :data:`MAX_DICE`.
    """
    if isinstance(value, str):
        text = value.strip()
        parts = text.replace(",", " ").split()
        if len(parts) == 1 and text.isdigit() and text.isascii():
            parts = list(text)  # "642": one digit a die
    elif isinstance(value, (list, tuple)):
        parts = list(value)
    else:
        parts = None
    try:
        faces = [whole_number(p, what) for p in parts] if parts is not None else None
    except BadEntry:
        faces = None
    if faces is None:
        raise BadEntry(Text("{what}: type the faces rolled, e.g. 6 4 2, got {value}", what=what, value=shown(value)))
    if not faces:
        raise BadEntry(Text("{what}: type the faces rolled, e.g. 6 4 2", what=what))
    if len(faces) > MAX_DICE:
        raise BadEntry(Text("{what}: at most {most} dice, got {count}", what=what, most=MAX_DICE, count=len(faces)))
    bad = [n for n in faces if not _in_range(n, f)]
    if bad:
        raise BadEntry(Text("{what}: a die shows {low}-{high}, got {value}", what=what, low=f.minimum, high=f.maximum,
                            value=shown(bad[0])))
    return faces
