"""A payload field that cannot be applied, refused in the players' words: every game's one mechanism.

A phone's forms offer only what the rules take, but a session file edited by hand, a payload posted by hand or a
tool can hold anything: a field left out, text where a count goes, a count out of range, a word the game does not
have. Each is refused with a :class:`rules.core.BadEvent` whose ``problem`` is a :class:`rules.text.Text`, which the
box says in each reader's language (el, pl, hu), naming the field as the phone's form labels it: a game declares its
fields' words (:attr:`rules.engine.GameBase.field_words`, the same catalog entries its forms show) and
:meth:`rules.engine.EventContext.word` finds them. The event is refused whole: nothing of it is recorded.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rules.core import BadEvent
from rules.text import OR, Listing, Text

if TYPE_CHECKING:
    from rules.engine import EventContext

__all__ = ["TYPE_WORDS", "is_whole", "kind_words", "missing", "not_one_of", "whole", "wrong_kind"]

TYPE_WORDS: dict[Any, Text] = {
    str: Text("text"),
    int: Text("a whole number"),
    bool: Text("true or false"),
    list: Text("a list"),
    Mapping: Text("a group of fields"),
    dict: Text("a group of fields"),
}
"""What a field holds (a payload's JSON value), in the players' words: "text", not "a string"."""


def is_whole(value: Any) -> bool:
    """A whole number, where JSON ``true`` is none (a bool is not ``1``)."""
    return isinstance(value, int) and not isinstance(value, bool)


def kind_words(of: type | tuple[type, ...] | str) -> str:
    """What a field of type(s) ``of`` holds, in the players' words ("text or a whole number"); a game's own words
    (a :class:`Text`: "a list of dice") are said as they are."""
    if isinstance(of, str):
        return of
    kinds = of if isinstance(of, tuple) else (of,)
    return Listing([TYPE_WORDS.get(k, k.__name__) for k in kinds], OR)


def missing(ctx: EventContext, word: str) -> BadEvent:
    """The refusal (raise it) of a payload without the field named ``word``: "World: not given"."""
    return ctx.bad(Text("{what}: not given", what=word))


def wrong_kind(ctx: EventContext, value: Any, word: str, of: type | tuple[type, ...] | str) -> BadEvent:
    """The refusal (raise it) of ``value``, not of type(s) ``of``, in the field named ``word``: "World must be
    text, got 3"."""
    return ctx.bad(Text("{what} must be {kind}, got {value}", what=word, kind=kind_words(of), value=repr(value)))


def whole(ctx: EventContext, value: Any, word: str, low: int, high: int | None = None) -> int:
    """``value`` as a whole number from ``low`` to ``high`` (no upper bound when None), the field named ``word``
    (its form label).

    Raises:
        BadEvent: not a whole number (JSON ``true`` is none), or outside ``low``-``high``: "Hull must be a whole
            number from 0 to 12, got 13", the words the phone's own form says; "VP must be a whole number 1 or
            more, got 0".
    """
    if is_whole(value) and low <= value and (high is None or value <= high):
        return value
    if high is None:
        raise ctx.bad(Text("{what} must be a whole number {minimum} or more, got {value}", what=word, minimum=low,
                           value=repr(value)))
    raise ctx.bad(Text("{what} must be a whole number {range}, got {value}", what=word,
                       range=Text("from {low} to {high}", low=low, high=high), value=repr(value)))


def not_one_of(ctx: EventContext, value: Any, word: str, choices: Mapping[str, Any]) -> BadEvent:
    """The refusal (raise it) of ``value`` in the field named ``word``, whose choices are ``choices``'s keys, said by
    their values (the players' words): "Ship must be Interceptor, Cruiser, Dreadnought or Starbase, got 'Frigate'"."""
    return ctx.bad(Text("{what} must be {choices}, got {value}", what=word, choices=Listing(choices.values(), OR),
                        value=repr(value)))
