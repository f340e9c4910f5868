"""Reading the two Eclipse files (``companion score eclipse`` and ``companion check eclipse``): what they share.

Both are one JSON object with ``"game": "eclipse"`` and a ``"kind"`` (``"score"`` or ``"placement"``);
``expect`` and ``worked`` are for testers and ignored; any other key the format does not name is refused
(a misspelt field must not be read as absent). Every refusal is a
:class:`rules.scoring.ScoreInputError` naming the field (``players[2].controlled_hexes[1]``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.eclipse.data import Catalogue, Sector, UnknownSector, catalogue
from rules.scoring import Fields, ScoreInputError, check_int, closest_names
from rules.text import Text

__all__ = ["IGNORED_KEYS", "MAX_COORDINATE", "read_cell", "read_choice", "read_header", "read_sector",
           "read_sector_or_null"]

IGNORED_KEYS = ("expect", "worked")
"""Keys of a case file for testers (the hand-worked answer and its working): read by no rule."""

MAX_COORDINATE = 12
"""The largest ``|q|`` or ``|r|`` a hex on an Eclipse table can have: the outermost start positions of a
9-player galaxy lie in ring III, and a galaxy grows a few rings beyond them at most."""


def read_header(data: Any, kind: str, keys: Sequence[str]) -> Fields:
    """The file's top-level object: ``game`` is ``"eclipse"``, ``kind`` is ``kind``, and no key other than
    ``keys`` (and :data:`IGNORED_KEYS`).

    Raises:
        ScoreInputError: not an object, another game or kind (saying which command reads it), an unknown key.
    """
    f = Fields(data, "")
    game = f.get("game")
    if game != "eclipse":
        raise ScoreInputError.coded("game", "eclipse.game", got=repr(game))
    got = f.get("kind")
    if got != kind:
        other = {"score": "companion score eclipse", "placement": "companion check eclipse"}
        if got in other:
            raise ScoreInputError.coded("kind", "eclipse.kind_other_command", kind=repr(kind), got=repr(got),
                                        got_kind=got, command=other[got])
        raise ScoreInputError.coded("kind", "eclipse.kind", kind=repr(kind), got=repr(got))
    return f.only(*keys, *IGNORED_KEYS)


def read_sector(value: Any, where: str, cat: Catalogue | None = None) -> Sector:
    """A sector id (three digits as in ``hexes.json``, ``"001"`` the Galactic Center) as its :class:`Sector`.

    Raises:
        ScoreInputError: not a string, or no such tile (the closest ids suggested).
    """
    cat = cat or catalogue()
    if not isinstance(value, str):
        shown = Text("a number {value}", value=repr(value)) if isinstance(value, (int, float)) and \
            not isinstance(value, bool) else f"{type(value).__name__} {value!r}"
        raise ScoreInputError.coded(where, "eclipse.sector_id", got=shown)
    try:
        return cat.sector(value)
    except UnknownSector as exc:
        raise ScoreInputError.coded(where, "eclipse.unknown_sector", exc.suggestions, sector=repr(value)) from None


def read_sector_or_null(value: Any, where: str, cat: Catalogue | None = None) -> Sector | None:
    """:func:`read_sector`, or None for ``null``."""
    return None if value is None else read_sector(value, where, cat)


def read_choice(value: Any, where: str, choices: Sequence[str], what: Text) -> str:
    """``value`` as one of the component names ``choices`` (case and spacing ignored), spelt as ``choices`` spell it.

    Args:
        what: the names' kind in the refusal ("species", "technologies").

    Raises:
        ScoreInputError: not a string, or no such name (the closest known names suggested).
    """
    if isinstance(value, str):
        folded = " ".join(value.casefold().split())
        for c in choices:
            if " ".join(c.casefold().split()) == folded:
                return c
    if isinstance(value, str) and len(choices) > 12:  # a long list: the closest names say enough
        raise ScoreInputError.coded(where, "eclipse.unknown_name", closest_names(value, choices), what=what,
                                    name=repr(value))
    close = closest_names(value, choices) if isinstance(value, str) else ()
    raise ScoreInputError.coded(where, "eclipse.one_of", close, what=what, choices=", ".join(choices), got=repr(value))


def read_cell(value: Any, where: str) -> tuple[int, int]:
    """``{"q": int, "r": int}`` as ``(q, r)``.

    Raises:
        ScoreInputError: not such an object, or a coordinate beyond :data:`MAX_COORDINATE`.
    """
    f = Fields(value, where).only("q", "r")
    return (f.int("q", low=-MAX_COORDINATE, high=MAX_COORDINATE), f.int("r", low=-MAX_COORDINATE, high=MAX_COORDINATE))


def read_rotation(value: Any, where: str) -> int:
    """A rotation, 0-5 clockwise 60-degree steps."""
    return check_int(value, where, low=0, high=5)
