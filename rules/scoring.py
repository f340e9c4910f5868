"""Shared parts of end-of-game scoring, for every game that scores a final position.

A game that can score implements ``final_scores(data) -> list[ScoreBreakdown]`` on its
:class:`rules.core.Game` object and names its input format in ``info.score_input``
(``"json"``: one JSON document; ``"jsonl-games"``: one game per JSON document or line,
each scored on its own, see :func:`score_each`). What is the same for every game lives here, so Roll for
the Galaxy and Race for the Galaxy do not copy it:

- :class:`ScoreInputError`: a bad score input, naming the field (``players[1].credits``)
  and the problem, with the closest known names for a misspelt name;
- :class:`Fields`: small typed readers for a JSON object that raise that error;
- :func:`winners`: most VP, then the game's tie-break tuple, then shared;
- :func:`scores_json`: the ``companion score --json`` output shape
  ``{"players": [{"name", "total", "breakdown": {category: VP}}], "winners": [names]}``;
- :func:`ceil_div`: "fractions are rounded up" as exact integer arithmetic.

Nothing here does I/O.
"""

from __future__ import annotations

import builtins
import difflib
import json
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from rules.core import SCORE_INPUTS, RankingGame, RulesError, ScoreBreakdown, Standings
from rules.problems import json_reason as _json_reason
from rules.problems import json_type as _json_type
from rules.problems import problem as _problem
from rules.problems import shown_number as _shown
from rules.problems import value_range
from rules.text import OR, Listing, Text

__all__ = [
    "check_distinct_names",
    "check_typed_text",
    "has_visible",
    "untypable",
    "INPUT_FORMATS",
    "Fields",
    "ScoreInputError",
    "ceil_div",
    "closest_names",
    "field_path",
    "json_documents",
    "score_each",
    "score_lines",
    "scores_json",
    "standings",
    "winners",
]

INPUT_FORMATS = SCORE_INPUTS
"""How a game reads its score file (``info.score_input``; :data:`rules.core.SCORE_INPUTS`)."""


class ScoreInputError(RulesError, ValueError):
    """A score input that cannot be scored.

    Its message (``args[0]``) is a :class:`rules.text.Text`: ``str(error)`` is the English (logs, ``--json``), and
    ``companion`` says it in a player's language from its parts (``companion.i18n.message_of``).

    Attributes:
        field: where the problem is, as a path (``players[0].tableau[3]``); "" for the whole input.
        problem: what is wrong, in one sentence a player understands (a :class:`~rules.text.Text` when made with
            :meth:`coded`).
        suggestions: the closest known names, for a misspelt name (may be empty).
        code: the problem's stable code (a key of :data:`rules.problems.PROBLEMS`), or None for a problem given
            as text.
        params: the problem's parameters (``{}`` without a code).
    """

    def __init__(self, field: str, problem: str, suggestions: Sequence[str] = (), code: str | None = None) -> None:
        self.field = field
        self.problem = problem
        self.suggestions = tuple(suggestions)
        self.code = code
        self.params = dict(problem.params) if code is not None and isinstance(problem, Text) else {}
        if self.suggestions:
            names = Listing([repr(s) for s in self.suggestions], OR)
            message: str = (Text("{field}: {problem}; did you mean {names}?", field=field, problem=problem, names=names)
                            if field else Text("{problem}; did you mean {names}?", problem=problem, names=names))
        else:
            message = Text("{field}: {problem}", field=field, problem=problem) if field else problem
        super().__init__(message)

    @classmethod
    def coded(cls, field: str, code: str, /, suggestions: Sequence[str] = (), **params: Any) -> ScoreInputError:
        """The error of problem ``code`` (:data:`rules.problems.PROBLEMS`) with ``params``, at ``field``.

        Raises:
            KeyError: an unknown ``code`` (a programming error).
        """
        return cls(field, _problem(code, **params), suggestions, code)

    def __reduce__(self):  # keep pickling working with the keyword-free signature
        return (type(self), (self.field, self.problem, self.suggestions, self.code))


def field_path(parent: str, key: str | int) -> str:
    """``players`` + ``0`` -> ``players[0]``; ``players[0]`` + ``credits`` -> ``players[0].credits``.

    Keys that are not identifiers (tile names with spaces) are quoted: ``goods["Old Earth"]``.
    """
    if isinstance(key, int):
        return f"{parent}[{key}]"
    if key.isidentifier():
        return f"{parent}.{key}" if parent else key
    quoted = '"' + key.replace('"', '\\"') + '"'
    return f"{parent}[{quoted}]"


def closest_names(name: str, known: Iterable[str], n: int = 3) -> list[str]:
    """The known names closest to a misspelt ``name`` (case-insensitive), best first."""
    known = list(known)
    by_lower: dict[str, str] = {}
    for k in known:
        by_lower.setdefault(k.lower(), k)
    hits = difflib.get_close_matches(name.lower(), list(by_lower), n=n, cutoff=0.6)
    if not hits:  # a part of a long name ("Federation") still deserves a hint
        hits = [k for k in by_lower if name.lower() in k][:n]
    return [by_lower[h] for h in hits]


def ceil_div(numerator: int, denominator: int) -> int:
    """``numerator / denominator`` rounded up, exactly, for non-negative integers."""
    return -(-numerator // denominator)


class Fields:
    """Typed reads from one JSON object of a score input, raising :class:`ScoreInputError`.

    ``Fields(obj, "players[0]").int("credits", low=0, high=10)`` reads ``obj["credits"]``
    and names ``players[0].credits`` in any error.
    """

    def __init__(self, obj: Any, where: str) -> None:
        if not isinstance(obj, Mapping):
            raise ScoreInputError.coded(where, "not_object", got=_json_type(obj))
        self.obj = obj
        self.where = where

    def path(self, key: str | int) -> str:
        """The field path of ``key`` inside this object."""
        return field_path(self.where, key)

    def only(self, *keys: builtins.str) -> Fields:
        """Refuse keys other than ``keys``: a misspelt field must not be read as absent.

        Raises:
            ScoreInputError: naming the first unknown key, with the closest known keys.
        """
        for key in self.obj:
            if key not in keys:
                raise ScoreInputError.coded(self.path(key), "unknown_field", closest_names(str(key), keys),
                                            known=", ".join(keys))
        return self

    def has(self, key: str) -> bool:
        """Whether the object has ``key``."""
        return key in self.obj

    def get(self, key: str) -> Any:
        """The raw value of a required key."""
        if key not in self.obj:
            raise ScoreInputError.coded(self.path(key), "missing")
        return self.obj[key]

    def int(self, key: str, *, low: int | None = None, high: int | None = None, default: int | None = None) -> int:
        """A required (or defaulted) integer within ``low``..``high``."""
        if key not in self.obj and default is not None:
            return default
        return check_int(self.get(key), self.path(key), low=low, high=high)

    def str(self, key: builtins.str) -> builtins.str:
        """A required non-empty string."""
        value = self.get(key)
        if not isinstance(value, str) or not has_visible(value):
            raise ScoreInputError.coded(self.path(key), "not_text", got=_json_type(value))
        return value

    def list(self, key: builtins.str) -> builtins.list[Any]:
        """A required JSON array."""
        value = self.get(key)
        if not isinstance(value, list):
            raise ScoreInputError.coded(self.path(key), "not_array", got=_json_type(value))
        return value

    def object(self, key: builtins.str, *, default: Mapping[builtins.str, Any] | None = None) -> Fields:
        """A required (or defaulted) JSON object, as :class:`Fields`."""
        if key not in self.obj and default is not None:
            return Fields(default, self.path(key))
        return Fields(self.get(key), self.path(key))


def name_key(name: str) -> str:
    """What two names of the same player share, ignoring case, accents and compatibility forms: "Ann", " ANN ",
    "ann" and a full-width "ＡＮＮ" (an East Asian keyboard's letters); "Ελένη", "ελενη" and "ΕΛΕΝΗ" (a phone's
    keyboard often has no accent, and Greek capitals drop theirs).

    The name is decomposed with its compatibility forms folded (NFKD: NFKC's folding, "ＡＮＮ" is "ANN", "ﬁ" is
    "fi"), its combining marks left out, then case-folded (``"ς"`` and ``"Σ"`` fold to ``"σ"``). A letter of its
    own stays itself: "Łukasz" and "Lukasz" are two names.
    """
    decomposed = unicodedata.normalize("NFKD", name.strip())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold()


def check_distinct_names(names: Sequence[str], where: str = "players") -> None:
    """Refuse a position where two players share a name, ignoring case and accents (:func:`name_key`:
    "Ann" and "ann", "Ελένη" and "ΕΛΕΝΗ" are the same person at the table, as in
    ``companion.player_names.check_player_name``).

    Args:
        names: the players' names in file order.
        where: the field path of the players list (``"players"``).

    Raises:
        ScoreInputError: at ``where[K].name``, naming the earlier player with the same name.
    """
    seen: dict[str, int] = {}
    for k, name in enumerate(names):
        first = seen.setdefault(name_key(name), k)
        if first != k:
            raise ScoreInputError.coded(f"{field_path(where, k)}.name", "same_name", name=repr(name),
                                        other=field_path(where, first), other_name=repr(names[first]))


MAX_WHOLE = 1_000_000
"""The bound of a whole number a game gives no bound for (cards in hand, dice of a colour): no game
reaches it, and the sums and messages built from it stay small."""


def check_int(value: Any, where: str, *, low: int | None = None, high: int | None = None) -> int:
    """``value`` as an int within ``low``..``high`` (at most :data:`MAX_WHOLE` when ``high`` is None) or
    :class:`ScoreInputError` naming ``where``."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise ScoreInputError.coded(where, "not_whole", got=_json_type(value))
    if low is not None and value < low:
        raise ScoreInputError.coded(where, "out_of_range", range=value_range(low, high), value=_shown(value))
    bound = MAX_WHOLE if high is None else high
    if value > bound:
        rng = value_range(low, high) if low is not None and high is not None else value_range(None, bound)
        raise ScoreInputError.coded(where, "out_of_range", range=rng, value=_shown(value))
    return value


def winners(breakdowns: Sequence[ScoreBreakdown]) -> list[str]:
    """Names of the winners: most VP; among those tied, the highest ``tiebreak`` tuple
    (compared left to right); players still tied share the win. Order as given."""
    if not breakdowns:
        return []
    best = max(b.total for b in breakdowns)
    tied = [b for b in breakdowns if b.total == best]
    top = max(b.tiebreak for b in tied)
    return [b.player for b in tied if b.tiebreak == top]


def standings(game: Any, breakdowns: Sequence[ScoreBreakdown]) -> Standings:
    """Who won these final scores of ``game``: its own ranking when it is a :class:`RankingGame`
    (teams, alliances), else :func:`winners` and no teams."""
    if isinstance(game, RankingGame):
        return game.standings(breakdowns)
    return Standings(winners=tuple(winners(breakdowns)))


def breakdown_json(breakdown: ScoreBreakdown, role_key: str | None = None) -> dict[str, Any]:
    """``{"name", "total", "breakdown": {category: VP}}`` of one player (categories in order); with
    ``role_key`` (``GameInfo.score_role_key``) the player's role after the name: ``{"name", "species", ...}``."""
    out: dict[str, Any] = {"name": breakdown.player}
    if role_key is not None:
        out[role_key] = breakdown.role
    out["total"] = breakdown.total
    out["breakdown"] = {line.category: line.vp for line in breakdown.lines}
    return out


def scores_json(breakdowns: Sequence[ScoreBreakdown], game: Any = None) -> dict[str, Any]:
    """The score command's output: ``{"players": [...], "winners": [names]}`` (players in input order).

    With ``game`` (a :class:`rules.core.Game`): each player's role under ``game.info.score_role_key``
    when it declares one, the winners from :func:`standings`, and ``"team_scores": {team: VP}`` before
    ``"winners"`` when the game scores teams.
    """
    role_key = game.info.score_role_key if game is not None else None
    ranked = standings(game, breakdowns) if game is not None else Standings(winners=tuple(winners(breakdowns)))
    out: dict[str, Any] = {"players": [breakdown_json(b, role_key) for b in breakdowns]}
    if ranked.teams is not None:
        out["team_scores"] = dict(ranked.teams)
    out["winners"] = list(ranked.winners)
    return out


class _DuplicateKey(ValueError):
    """An object names one key twice (JSON allows it; a score file that does is a mistake)."""


class _TooDeep(ValueError):
    """Lists or objects nested deeper than Python's parser goes (about 1000 levels): valid JSON, but no file of a
    game's position is like it."""


TOO_DEEP = _problem("too_deep")
"""What a score or check file nested too deeply is told (it is JSON, only too deep to read)."""


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _DuplicateKey(key)
        out[key] = value
    return out


def _json_value(text: str) -> Any:
    """``json.loads``, with a value nested too deeply for Python's parser refused as :class:`_TooDeep`, and an
    object with a key given twice (``{"name": "Ann", "name": "Bob"}``: which one was meant?) refused."""
    try:
        return json.loads(text, object_pairs_hook=_unique_keys)
    except RecursionError:
        raise _TooDeep(TOO_DEEP) from None
    except _DuplicateKey:
        raise
    except json.JSONDecodeError:
        raise
    except ValueError:  # Python refuses integers of more than 4300 digits
        raise json.JSONDecodeError("a number with more than 4300 digits", text, 0) from None


def json_documents(text: str, source: str = "input") -> list[tuple[int | None, Any]]:
    """The JSON documents in ``text`` with their line numbers: one JSON value, or JSON Lines.

    A text that parses as one JSON value gives ``[(None, value)]`` (a top-level array is one
    document). Otherwise every non-blank line must be a JSON value: ``[(line, value), ...]``,
    lines counted from 1, blank lines skipped. Pure: the caller reads the file.

    Raises:
        ScoreInputError: naming ``source`` (and the line) that is not JSON.
    """
    try:
        whole = _json_value(text)
    except _DuplicateKey as exc:
        raise ScoreInputError.coded(source, "key_twice", key=repr(exc.args[0])) from None
    except _TooDeep:
        raise ScoreInputError.coded(source, "too_deep") from None
    except json.JSONDecodeError as whole:
        lines = [(n, line) for n, line in enumerate(text.splitlines(), start=1) if line.strip()]
        if not lines:
            raise ScoreInputError.coded(source, "empty") from None
        if len(lines) <= 1:
            raise ScoreInputError.coded(source, "not_json", error=_json_reason(whole.msg), line=whole.lineno,
                                        column=whole.colno) from None
        documents: list[tuple[int | None, Any]] = []
        for number, line in lines:
            try:
                documents.append((number, _json_value(line)))
            except _DuplicateKey as exc:
                raise ScoreInputError.coded(_line_of(number, source), "key_twice", key=repr(exc.args[0])) from None
            except _TooDeep:
                raise ScoreInputError.coded(_line_of(number, source), "too_deep") from None
            except json.JSONDecodeError as error:
                raise ScoreInputError.coded(_line_of(number, source), "not_json_line",
                                            error=_json_reason(error.msg), column=error.colno) from None
            try:
                check_typed_text(documents[-1][1])
            except ScoreInputError as error:
                raise _on_line(number, error) from None
        return documents
    check_typed_text(whole)
    return [(None, whole)]


BIDI_CONTROLS = frozenset(range(0x202A, 0x202F)) | frozenset(range(0x2066, 0x206A))
"""The text-direction embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069): no keyboard of the
box's languages types them, and one in a name turns the rest of a line (a score row, a player list) backwards."""


def has_visible(text: str) -> bool:
    """Whether ``text`` shows something: a character other than spaces, line and paragraph separators, control
    and format characters (a name of only zero-width spaces is empty to a player)."""
    return any(unicodedata.category(c) not in ("Zs", "Zl", "Zp", "Cc", "Cf") for c in text)


UNTYPABLE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff\ufdd0-\ufdef"
                       + "".join(chr(plane << 16 | 0xFFFE) + chr(plane << 16 | 0xFFFF) for plane in range(17)) + "]")
"""Every character :func:`untypable` describes, as one regular-expression class (Unicode's Cc category is exactly
U+0000-U+001F and U+007F-U+009F, Zl U+2028, Zp U+2029): finding the first one is a scan in C, so a score file near
the 64 MB limit is checked in well under a second instead of minutes on the box."""


def untypable(text: str) -> Text | None:
    """The first character of ``text`` no player can have typed (half of a surrogate pair, a control character such
    as NUL or a line break, U+2028 LINE SEPARATOR and U+2029 PARAGRAPH SEPARATOR included, a text-direction control,
    a noncharacter), described for a message (``"U+0000, a control character"``), or None when there is none."""
    found = UNTYPABLE.search(text)
    if found is None:
        return None
    for char in found.group():
        code = ord(char)
        at = f"U+{code:04X}"
        if 0xD800 <= code <= 0xDFFF:
            return Text("{code}, half of a character (text cut short or badly converted)", code=at)
        category = unicodedata.category(char)
        if category in ("Cc", "Zl", "Zp"):  # Zl, Zp: U+2028, U+2029, line breaks to JavaScript and to a terminal
            return Text("{code}, a control character", code=at)
        if code in BIDI_CONTROLS:
            return Text("{code}, a text-direction control (it turns the text after it around)", code=at)
        if 0xFDD0 <= code <= 0xFDEF or (code & 0xFFFE) == 0xFFFE:
            return Text("{code}, a noncharacter", code=at)
    return None


def check_typed_text(document: Any, where: str = "") -> None:
    """Refuse a string anywhere in a parsed JSON ``document`` (an object's keys too) that a player cannot
    have typed: a lone surrogate (the JSON escape ``"\\ud800"``), a control character (``"\\u0000"``,
    a tab or a line break inside a name), or a Unicode noncharacter. Such text cannot be printed or
    stored as UTF-8 and is never a name, a card or a colour.

    Raises:
        ScoreInputError: at the field holding it (``players[0].name``; a key is named by its object),
            saying which character it is.
    """
    pending: list[tuple[str, Any]] = [(where, document)]
    while pending:  # iterative: a document may be nested as deep as the JSON parser allows
        path, value = pending.pop()
        if isinstance(value, str):
            problem = untypable(value)
            if problem is not None:
                raise ScoreInputError.coded(path, "untypable", character=problem)
        elif isinstance(value, Mapping):
            for key, item in value.items():
                problem = untypable(key)
                if problem is not None:
                    raise ScoreInputError.coded(path, "untypable_key", character=problem)
                pending.append((field_path(path, key), item))
        elif isinstance(value, list):
            pending.extend((field_path(path, k), item) for k, item in enumerate(value))


def score_each(
    final_scores: Callable[[Any], list[ScoreBreakdown]], text: str, source: str = "input"
) -> list[list[ScoreBreakdown]]:
    """Score every game in ``text`` (one JSON document, or JSON Lines with one game per line).

    Raises:
        ScoreInputError: the first document that is not JSON or cannot be scored; for JSON
            Lines its field starts with the line (``line 3: players[0].tableau[2]``).
    """
    results = []
    for line, document in json_documents(text, source):
        try:
            results.append(final_scores(document))
        except ScoreInputError as error:
            if line is None:
                raise
            raise _on_line(line, error) from None
    return results


def _line_of(number: int, source: str | None = None) -> Text:
    """The field ``line N`` (``SOURCE line N``) of a JSON Lines input, said in a player's language."""
    if source is None:
        return Text("line {number}", number=number)
    return Text("{source} line {number}", source=source, number=number)


def _on_line(number: int, error: ScoreInputError) -> ScoreInputError:
    """``error`` about JSON Lines line ``number``: its field starts with ``line N``."""
    field = Text("line {number}: {field}", number=number, field=error.field) if error.field else _line_of(number)
    return ScoreInputError(field, error.problem, error.suggestions, error.code)


def score_lines(
    final_scores: Callable[[Any], list[ScoreBreakdown]], text: str, source: str = "input"
) -> list[tuple[int | None, list[ScoreBreakdown] | ScoreInputError]]:
    """Score every game in ``text``, keeping going past a bad line: one entry per game.

    A text that parses as one JSON value is one game: ``[(None, result)]``, and its error
    is raised as by :func:`score_each`. Otherwise every non-blank line is one game, in
    order: ``(line, breakdowns)`` for a line that scores, ``(line, ScoreInputError)`` for
    a line that is not JSON or cannot be scored (its field starts with ``line N``), so
    one bad line does not hide the results (or the problems) of the others. Blank lines
    are skipped.

    Raises:
        ScoreInputError: the text is one JSON value that cannot be scored, or is empty.
    """
    try:
        whole = _json_value(text)
    except _DuplicateKey as exc:
        raise ScoreInputError.coded(source, "key_twice", key=repr(exc.args[0])) from None
    except _TooDeep:
        raise ScoreInputError.coded(source, "too_deep") from None
    except json.JSONDecodeError as error:
        lines = [(n, line) for n, line in enumerate(text.splitlines(), start=1) if line.strip()]
        if not lines:
            raise ScoreInputError.coded(source, "empty") from None
        if len(lines) <= 1:  # one bad document: the whole file is not JSON
            raise ScoreInputError.coded(source, "not_json", error=_json_reason(error.msg), line=error.lineno,
                                        column=error.colno) from None
    else:
        check_typed_text(whole)
        return [(None, final_scores(whole))]
    results: list[tuple[int | None, list[ScoreBreakdown] | ScoreInputError]] = []
    for number, line in lines:
        try:
            document = _json_value(line)
        except _DuplicateKey as exc:
            results.append((number, ScoreInputError.coded(_line_of(number), "key_twice", key=repr(exc.args[0]))))
            continue
        except _TooDeep:
            results.append((number, ScoreInputError.coded(_line_of(number), "too_deep")))
            continue
        except json.JSONDecodeError as error:
            results.append((number, ScoreInputError.coded(_line_of(number), "not_json_line",
                                                          error=_json_reason(error.msg), column=error.colno)))
            continue
        try:
            check_typed_text(document)
            results.append((number, final_scores(document)))
        except ScoreInputError as error:
            results.append((number, _on_line(number, error)))
        except RulesError as error:  # any rules error about the input is the input's fault
            said = error.args[0] if len(error.args) == 1 and isinstance(error.args[0], Text) else str(error)
            results.append((number, ScoreInputError(_line_of(number), said)))
    return results
