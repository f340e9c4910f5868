"""Players' names and seat colours as the table types them: a name checked (length, letters, one person per
name at the table), a colour named in the table's language or as an id, and ``--players`` lists parsed.

Used by the game flow's setup (:mod:`companion.setup_flow`, :class:`companion.flow.GameFlow`), the phone view's
forms and the command line; rules compare names with :func:`rules.scoring.name_key`."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

from companion import i18n
from companion.errors import BadEntry, shown
from companion.i18n import Listing, Text, message_of
from companion.words import colour_word
from rules.core import SEAT_COLOURS
from rules.scoring import has_visible, name_key

__all__ = [
    "EMOJI_JOINERS",
    "LIKELY_SEPARATORS",
    "MAX_MARKS",
    "MAX_NAME",
    "check_player_colour",
    "check_player_name",
    "colour_id",
    "kept_seats",
    "named_player",
    "parse_players",
    "separator_hint",
]

MAX_NAME = 40  # characters of a player's name
MAX_MARKS = 4
"""Combining marks one letter of a name may carry, decomposed (NFD): Vietnamese "ệ" carries 2, Greek polytonic "ᾯ" 3,
a Tibetan stack or a Thai vowel with its tone 2-4; "e" with 8 stacked marks draws over the lines around it."""


EMOJI_JOINERS = frozenset({0x200D}) | frozenset(range(0xE0020, 0xE0080))
"""Format characters that are part of ordinary emoji, typed by a phone's emoji keyboard: the zero-width joiner
(U+200D) of a family or a profession (``"👨\u200d👩\u200d👧"``) and the tag characters of a subdivision flag
(U+E0020-U+E007F). Variation selectors (U+FE0F) and skin tones are not format characters."""


def _variation_selector(char: str) -> bool:
    """Whether ``char`` is a variation selector (U+FE00-U+FE0F, U+E0100-U+E01EF): it shows nothing by itself."""
    return 0xFE00 <= ord(char) <= 0xFE0F or 0xE0100 <= ord(char) <= 0xE01EF


def _marks_per_letter(name: str) -> list[int]:
    """How many combining marks (Unicode category M) follow each character of ``name`` that is not one, the name
    decomposed (NFD: "ệ" is e + 2 marks, polytonic "ᾯ" Ω + 3)."""
    runs: list[int] = []
    for ch in unicodedata.normalize("NFD", name):
        if unicodedata.category(ch)[0] == "M" and runs:
            runs[-1] += 1
        else:
            runs.append(0)
    return runs


def check_player_name(name: Any, others: Sequence[str] = ()) -> str:
    """The one rule for a player's name (the CLI's ``--players`` and the setup step alike): not
    empty (it shows something), at most :data:`MAX_NAME` characters, no ``,`` or ``:``, no control or format
    characters (Unicode category C: NUL, right-to-left overrides, ...) besides those of emoji
    (:data:`EMOJI_JOINERS`), no letter with more than :data:`MAX_MARKS` combining marks, and not the name of one of
    ``others`` ignoring case, accents and compatibility forms ("Ann", "ann" and a full-width "ＡＮＮ", "Ελένη" and
    "ΕΛΕΝΗ" are the same player: :func:`named_player` takes either for the other). Returns the stripped name (NFC,
    as typed: a full-width name stays full-width).

    Raises:
        BadEntry: one line naming the problem.
    """
    if not isinstance(name, str) or not name.strip():
        raise BadEntry(Text("a player name is empty: give the player's name"))
    name = unicodedata.normalize("NFC", name.strip())  # "Zoe" + combining diaeresis is "Zoë"
    if len(name) > MAX_NAME:
        raise BadEntry(Text("{name!r}…: a name is at most {most} characters; this one has {count}", name=name[:20],
                            most=MAX_NAME, count=len(name)))
    if "," in name or ":" in name:  # they part the players and their colours in a list: "Ann:red,Bob"
        raise BadEntry(Text("{name!r}: a name may not hold ',' or ':'", name=name))
    if any((unicodedata.category(ch)[0] == "C" and ord(ch) not in EMOJI_JOINERS)
           or unicodedata.category(ch) in ("Zl", "Zp") for ch in name):  # U+2028, U+2029: line breaks
        raise BadEntry(Text("{name!r}: a name may not hold control or invisible formatting characters", name=name[:20]))
    marks = max(_marks_per_letter(name), default=0)
    if marks > MAX_MARKS:
        raise BadEntry(Text("{name!r}: a letter carries at most {most} accents or marks; one here carries {count}",
                            name="".join(ch for ch in unicodedata.normalize("NFD", name)
                                         if unicodedata.category(ch)[0] != "M")[:20],
                            most=MAX_MARKS, count=marks))
    if not has_visible("".join(ch for ch in name if not _variation_selector(ch))):  # joiners alone show nothing
        raise BadEntry(Text("a player name is empty: give the player's name"))
    same = taken_name(name, others)
    if same is not None:
        if same == name:
            raise BadEntry(Text("{name!r} is already playing; names must differ (ignoring case and accents)",
                                name=name))
        raise BadEntry(Text("{name!r} (as {same!r}) is already playing; names must differ (ignoring case and accents)",
                            name=name, same=same))
    return name


def taken_name(name: str, others: Sequence[str]) -> str | None:
    """The one of ``others`` that is ``name``'s player, as the box tells players apart (ignoring case, accents and
    compatibility forms: :func:`rules.scoring.name_key`; "player 1" is "Player 1", "ΕΛΕΝΗ" is "Ελένη"), or None
    when ``name`` is free. The one comparison behind :func:`check_player_name`'s "already playing" and the
    touchscreen's choice of a free "Player N"."""
    key = name_key(name)
    return next((o for o in others if name_key(o) == key), None)


def named_player(name: Any, names: Sequence[str]) -> Any:
    """The player of ``names`` that ``name`` names, as the table spelled it: a phone's ``"ann"`` (or ``" ANN "``)
    is ``"Ann"``, a phone's ``"ελενη"`` or ``"ΕΛΕΝΗ"`` is ``"Ελένη"``. Names are compared as
    :func:`check_player_name` compares them (ignoring case and accents: :func:`rules.scoring.name_key`),
    which keeps two players' names from differing only so; should an older game have two such names, only the exact
    spelling names either.
    ``name`` as it is when it names none of them (or is no text), for the action to refuse naming what was sent."""
    if not isinstance(name, str) or name in names:
        return name
    found = [n for n in names if name_key(n) == name_key(name)]
    return found[0] if len(found) == 1 else name


def colour_id(colour: str, colours: Sequence[str] = SEAT_COLOURS) -> str | None:
    """Which of ``colours`` (ids: ``"red"``) the text ``colour`` names, by its id or by its name in any of the box's
    languages (``"czerwony"``, ``"Piros"``, ``"κόκκινο"``: the names the refusals and the colour list show), in
    any case; None when it names none of them."""
    said = unicodedata.normalize("NFC", colour.strip()).casefold()
    if said in colours:
        return said
    for lang in i18n.LANGUAGES:
        for one in colours:
            if unicodedata.normalize("NFC", str(i18n.localize(colour_word(one), lang))).casefold() == said:
                return one
    return None


def check_player_colour(colour: Any, taken: Sequence[str] = (), colours: Sequence[str] = SEAT_COLOURS) -> str:
    """The one rule for a seat colour: one of the game's seat ``colours`` (``game.info.colours``), by its id or its
    name in any of the box's languages (:func:`colour_id`; any case), that nobody in ``taken`` has; None or ""
    picks the first free one. Returns the colour's id (``"red"``).

    Raises:
        BadEntry: an unknown colour, a colour taken, or no colour left.
    """
    free = [c for c in colours if c not in taken]
    if colour in (None, ""):
        if not free:
            raise BadEntry(Text("no colour left: there are {count} ({colours})", count=len(colours),
                                colours=Listing(colour_word(c) for c in colours)))
        return free[0]
    found = colour_id(colour, colours) if isinstance(colour, str) else None
    if found is None:
        raise BadEntry(Text("colour {colour} is not one of {colours}", colour=shown(colour, 22),
                            colours=Listing(colour_word(c) for c in colours)))
    colour = found
    if colour in taken:
        raise BadEntry(Text("{colour} is taken; free colours: {free}", colour=colour_word(colour),
                            free=Listing(colour_word(c) for c in free) if free else Text("none")))
    return colour


def parse_players(text: str, colours: Sequence[str] = SEAT_COLOURS) -> list[dict[str, str]]:
    """``"Ann,Bob:green"`` -> ``[{"name": "Ann", "colour": "red"}, {"name": "Bob", "colour": "green"}]``.

    Seats follow the order given (seat 1 starts). A player without ``:colour`` gets the first of the
    game's seat ``colours`` (``game.info.colours``) nobody named. Names and colours follow the same rule as
    the setup step on the phone (:func:`check_player_name`, :func:`check_player_colour`).

    Raises:
        BadEntry: ``--players: `` and the problem: an empty, too long or repeated name (ignoring
            case), a name holding ``:`` (the phone refuses it too), nothing after ``:`` (``"Ann:"``), two colours
            for one player (``"Ann:red:blue"``), an unknown or repeated colour, more players than colours.
    """
    seats: list[dict[str, str]] = []
    try:
        for part in text.split(","):
            name, _, colour = part.strip().rpartition(":") if ":" in part else (part.strip(), "", "")
            if ":" in part and not colour.strip():  # "Ann:": a colour forgotten, not "none"
                raise BadEntry(Text("{part!r}: after ':' comes a colour: write one of {colours}, or leave ':' out for "
                                    "the first free one", part=part.strip(),
                                    colours=Listing(colour_word(c) for c in colours)))
            pieces = [piece.strip() for piece in part.split(":")]
            if len(pieces) > 2 and pieces[0] and all(colour_id(p, colours) for p in pieces[1:]):  # "Ann:red:blue"
                raise BadEntry(Text("{part!r}: one colour per player: write {one!r}", part=part.strip(),
                                    one=f"{pieces[0]}:{pieces[1]}"))
            name = check_player_name(name, [s["name"] for s in seats])  # "Dr:Who:red": a name holding ':'
            if colour.strip() and colour_id(colour, colours) is None:  # "Dr: Who": a colour, or a name with ':'
                raise BadEntry(Text("{part!r}: after ':' comes the player's colour, and {colour} is not one of "
                                    "{colours}; a name may not hold ':'", part=part.strip(),
                                    colour=shown(colour.strip(), 22), colours=Listing(colour_word(c) for c in colours)))
            if colour.strip():
                colour = check_player_colour(colour, [s["colour"] for s in seats], colours)
            seats.append({"name": name, "colour": colour.strip()})
        for s in seats:
            if not s["colour"]:
                s["colour"] = check_player_colour(None, [t["colour"] for t in seats], colours)
    except BadEntry as exc:
        raise BadEntry(Text("--players {text!r}: {problem}", text=text[:60], problem=message_of(exc))) from None
    return seats


def kept_seats(names: Sequence[str], colours: Sequence[str] = SEAT_COLOURS) -> list[dict[str, str]]:
    """The seats of a stored game that kept only its players' names (``settings["players"]``, no ``"seats"``): each
    name as kept, checked by the one rule (:func:`check_player_name`, against the names before it), each given the
    first of ``colours`` still free, in seat order. The names are taken one by one, never joined and split again
    as a ``--players`` list (:func:`parse_players`).

    Raises:
        BadEntry: ``"player {number} as kept: "`` and the name's problem (41 characters, a control character, the
            same player twice: kept by another version of the box, or edited in the file).
    """
    seats: list[dict[str, str]] = []
    for k, name in enumerate(names):
        try:
            name = check_player_name(name, [s["name"] for s in seats])
            colour = check_player_colour(None, [s["colour"] for s in seats], colours)
        except BadEntry as exc:
            raise BadEntry(Text("player {number} as kept: {problem}", number=k + 1, problem=message_of(exc))) from None
        seats.append({"name": name, "colour": colour})
    return seats


LIKELY_SEPARATORS = (";", "|", "/", "+", "&")
"""What a player list is often written with instead of ``,`` (``"Ann;Bob"``): a name may hold them, so a list of
too few players that does is told how players are separated (:func:`separator_hint`)."""


def separator_hint(seats: Sequence[Mapping[str, str]]) -> Text | None:
    """How players are separated, when a name of ``seats`` (from :func:`parse_players`) holds one of
    :data:`LIKELY_SEPARATORS` (``"Ann;Bob"`` read as one player): ``'Ann;Bob' holds ';': players are separated by
    ','``; None when none does."""
    for seat in seats:
        found = next((sep for sep in LIKELY_SEPARATORS if sep in seat["name"]), None)
        if found is not None:
            return Text("{name!r} holds {separator!r}: players are separated by ',' (\"Ann,Bob\")", name=seat["name"],
                        separator=found)
    return None
