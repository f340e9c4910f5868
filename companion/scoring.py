"""``companion score GAME FILE [--json]``: score an end-of-game position from a file.

    companion score roll final.json --json

prints one JSON object (other tools depend on this shape; keep it exactly)::

    {"players": [{"name": NAME, "total": VP, "breakdown": {CATEGORY: VP, ...}}, ...],
     "winners": [NAME, ...]}

Without ``--json`` it prints a table, one column per player. The games that can score
are those in :data:`rules.games.GAMES` that declare an end-of-game input;
each names its file format in ``info.score_input`` (:data:`rules.core.SCORE_INPUTS`:
``"json"`` one JSON document, the default; ``"jsonl-games"`` one game per document, each scored and printed on its own
line with ``--json``). Input errors
(:class:`rules.scoring.ScoreInputError`) name the field and the problem.

JSON Lines (``jsonl-games``): one output line per non-blank input line, in order. A line
that is not JSON or cannot be scored prints ``{"line": N, "error": MESSAGE}`` in its place
(the same message on stderr) and the other lines are still scored; the exit code is then 1.

Exit codes: 0 scored; 1 the file is missing, not JSON, or not a valid input, or any JSON
Lines line failed (message on stderr; a game may declare 2 instead, ``info.input_error_exit``: Eclipse);
2 bad command line (argparse) or a game that cannot score.

Wired into ``companion/cli.py`` by :func:`add_score_parser` and :func:`cmd_score`.
"""

from __future__ import annotations

import argparse
import json
import os
import stat
import sys
import unicodedata
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TextIO

import wcwidth

from companion.commands.files import given_path
from companion.errors import BadEntry
from companion.i18n import N_, Text, _, asked_language, kept_as_written, localize, message_of, os_reason, say
from companion.player_names import check_player_name
from rules.among_the_stars.station import station_place
from rules.core import CheckingGame, Finding, RulesError, ScoreBreakdown, Severity
from rules.games import GAMES
from rules.scoring import ScoreInputError, field_path, has_visible, json_documents, score_lines, scores_json

__all__ = [
    "add_check_parser",
    "add_score_parser",
    "checking_games",
    "cmd_check",
    "cmd_score",
    "format_table",
    "named_by_the_box",
    "read_score_file",
    "scoring_games",
]

EXIT_OK, EXIT_INPUT, EXIT_USAGE = 0, 1, 2


def scoring_games(games: Mapping[str, Any] | None = None) -> dict[str, Callable[[Any], list[ScoreBreakdown]]]:
    """Name -> ``final_scores`` of every game that can score a final position (``info.score_input`` set)."""
    games = GAMES if games is None else games
    return {name: game.final_scores for name, game in sorted(games.items()) if game.info.score_input is not None}


def _add_game_file_parser(
    subparsers: argparse._SubParsersAction, command: str, games: Mapping[str, Any], help: str, description: str,
    what: str, json_help: str, schema: Callable[[str], str] = lambda name: "score-input",
) -> argparse.ArgumentParser:
    """A ``companion COMMAND GAME FILE [--json]`` subcommand over ``games`` (name -> function); the texts are said
    already (the command line's language). Its description ends with where each game's file is described:
    ``schemas/<game>-<schema(game)>.schema.json`` (Eclipse's check reads its own placement file)."""
    names = sorted(games)
    files = ", ".join(f"schemas/{name}-{schema(name)}.schema.json" for name in names)
    schemas = _("What each game's file holds is described in {files}.").format(files=files)
    p = subparsers.add_parser(command, help=help, description=f"{description} {schemas}")
    p.add_argument("game", metavar="GAME", choices=names, help=_("the game ({games})").format(games=", ".join(names)))
    p.add_argument("file", metavar="FILE", type=given_path, help=what)
    p.add_argument("--json", action="store_true", help=json_help)
    return p


def add_score_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Add the ``score`` subcommand (GAME, FILE, ``--json``) to ``companion``'s subparsers."""
    return _add_game_file_parser(
        subparsers, "score", scoring_games(), _("score an end-of-game position from a file"),
        _("Score a finished game from a file of each player's end-of-game position: each player's points by the "
          "rulebook's scoring, and who wins."), _("the end-of-game position (JSON)"),
        _("print {shape} as JSON").format(shape='{"players": [...], "winners": [...]}'),
    )


MAX_INPUT_BYTES = 64 * 1024 * 1024
"""Largest score or check file read, in bytes (64 MiB; a JSON Lines file of a thousand games is about 500 KB)."""


def read_score_file(path: Path) -> str:
    """The text of a score (or check) file, UTF-8 with or without a byte-order mark.

    A pipe (``<(...)``) is read too; a folder or a device (``/dev/zero``) is refused before reading.

    Raises:
        ScoreInputError: the file is missing, not a file, over :data:`MAX_INPUT_BYTES`, or cannot be
            read as UTF-8 text (the path named).
    """
    try:
        mode = os.stat(path).st_mode
        if not (stat.S_ISDIR(mode) or stat.S_ISCHR(mode) or stat.S_ISBLK(mode)):
            with open(path, "rb") as file:
                data = file.read(MAX_INPUT_BYTES + 1)
    except FileNotFoundError:
        raise ScoreInputError("", Text("{path}: no such file", path=str(path))) from None
    except (OSError, ValueError) as exc:  # ValueError: a path with a NUL byte
        raise ScoreInputError("", Text("{path}: cannot be read ({problem})", path=str(path),
                                       problem=os_reason(exc) if isinstance(exc, OSError) else str(exc))) from None
    if stat.S_ISDIR(mode) or stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        raise ScoreInputError("", Text("{path}: is not a file (a folder or a device): give the JSON file",
                                       path=str(path)))
    if len(data) > MAX_INPUT_BYTES:
        raise ScoreInputError("", Text("{path}: is larger than {most} MiB: not a score file", path=str(path),
                                       most=MAX_INPUT_BYTES // 2**20))
    try:
        return data.decode("utf-8-sig")  # a leading byte-order mark is not part of the JSON
    except UnicodeDecodeError as exc:
        raise ScoreInputError("", Text("{path}: is not UTF-8 text (byte {byte} cannot be decoded)", path=str(path),
                                       byte=exc.start + 1)) from None


def _emit(out: TextIO, text: str, data: Any = None) -> None:
    """Print ``text`` (the JSON of ``data`` when given) on ``out``; on a terminal whose encoding cannot
    show a name (a Latin-1 console and "Łukasz"), JSON falls back to ``\\u`` escapes (the same
    document) and a table to backslash escapes, never a traceback."""
    try:
        print(text, file=out)
    except UnicodeEncodeError:
        if data is not None:
            print(json.dumps(data, ensure_ascii=True), file=out)
        else:
            encoding = getattr(out, "encoding", None) or "ascii"
            print(text.encode(encoding, "backslashreplace").decode(encoding), file=out)


def format_table(breakdowns: list[ScoreBreakdown], winners: list[str]) -> str:
    """A readable table: one row per category, one column per player, totals and winners last; for the command's
    output, which fits Hungarian's articles as it prints: the players' names are kept as written
    (:func:`companion.i18n.kept_as_written`; the output shows them with :func:`companion.i18n.as_written`).

    Columns line up as a terminal draws them: each cell is measured in terminal columns by ``wcwidth.width`` (a
    letter with its combining marks is one column, a joined emoji family two, a CJK letter two), not in code
    points."""
    categories: list[str] = []
    for b in breakdowns:
        for line in b.lines:
            if line.category not in categories:
                categories.append(line.category)
    said = {category: say(category) for category in categories}
    header = ["", *(b.player for b in breakdowns)]
    rows = [header]
    for category in categories:
        row = [said[category]]
        for b in breakdowns:
            vp = {line.category: line.vp for line in b.lines}.get(category)
            row.append("" if vp is None else str(vp))
        rows.append(row)
    rows.append([_("total"), *(str(b.total) for b in breakdowns)])
    rows.append([_("tie-break"), *(" ".join(str(t) for t in b.tiebreak) for b in breakdowns)])
    widths = [max(wcwidth.width(r[i]) for r in rows) for i in range(len(header))]
    lines = []
    for n, row in enumerate(rows):
        cells = [wcwidth.ljust(row[0], widths[0]),
                 *(wcwidth.rjust(cell, w) for cell, w in zip(row[1:], widths[1:], strict=True))]
        line = "  ".join(cells).rstrip()
        lines.append(kept_as_written(line) if n == 0 else line)  # the names: printed as the players wrote them
        if n == 0 or n == len(rows) - 3:
            lines.append("  ".join("-" * w for w in widths))
    label = _("winner: {names}") if len(winners) == 1 else _("winners (shared): {names}")
    lines.append(label.format(names=kept_as_written(", ".join(winners))))
    return "\n".join(lines)


def game_file(game: str) -> str:
    """``"an Among the Stars file"``, ``"a Roll for the Galaxy file"``: the game's title with its article (English:
    the messages that say it are the rules' input errors, kept in English)."""
    title = getattr(GAMES.get(game), "title", None) or game
    return f"{'an' if title[:1].lower() in 'aeiou' else 'a'} {title} file"


def one_document(text: str, path: Path, game: str) -> Any:
    """The single JSON document of a one-game file.

    Raises:
        ScoreInputError: the text is not JSON, or holds several documents (JSON Lines).
    """
    documents = json_documents(text, str(path))
    if len(documents) != 1:
        raise ScoreInputError(str(path), f"holds {len(documents)} JSON documents; {game_file(game)} holds one game")
    return documents[0][1]


def _input_error(command: str, path: Path, exc: Exception, err: TextIO) -> None:
    where = "" if str(exc).startswith(str(path)) else f"{path}: "
    print(_("companion {command}: {where}{problem}").format(command=command, where=where, problem=say(exc)), file=err)


def same_place(out: TextIO, err: TextIO) -> bool:
    """Whether ``out`` and ``err`` reach the same place (one terminal, one file or pipe: ``2>&1``), where a message
    written on both would be read twice; False when either is no file (a ``StringIO``) other than the other."""
    if out is err:
        return True
    try:
        return os.path.samestat(os.fstat(out.fileno()), os.fstat(err.fileno()))
    except (AttributeError, OSError, ValueError):  # no file behind a stream (io.UnsupportedOperation), or closed
        return False


def named_by_the_box(final_scores: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """``final_scores`` (or a game's ``check``) whose document's player names are first checked by the box's one rule
    for a name (:func:`companion.player_names.check_player_name`: at most 40 characters, no ',' or ':', no control
    character, ...), so ``companion score`` and ``companion check`` take no name the box itself refuses at the table.
    A name that is no text is left to the game's own check of its file. Every text of the document (names, and the
    names it is referred to by elsewhere, as keys or values) is first composed (NFC) as the box composes a name typed
    at the table: "Zoe" + a combining diaeresis is scored and shown as "Zoë", one player with the table's own.

    Raises:
        ScoreInputError: at ``players[K].name``, saying the name's problem; nothing is scored.
    """
    def checked(document: Any) -> Any:
        document = composed(document)
        players = document.get("players") if isinstance(document, Mapping) else None
        for k, entry in enumerate(players if isinstance(players, list) else ()):
            name = entry.get("name") if isinstance(entry, Mapping) else None
            if isinstance(name, str) and has_visible(name):
                try:
                    check_player_name(name)
                except BadEntry as exc:
                    raise ScoreInputError(field_path(field_path("players", k), "name"), message_of(exc)) from None
        return final_scores(document)
    return checked


def composed(value: Any) -> Any:
    """``value`` (a parsed JSON document: dicts, lists, texts, numbers) with every text, keys included, composed to
    Unicode NFC as :func:`companion.player_names.check_player_name` composes a name; other values as they are. Two
    keys that compose alike keep the later one's value, as JSON's own repeated keys do. Walked without recursion: any
    depth the JSON reader takes is taken here too."""
    def nfc(item: Any) -> Any:
        return unicodedata.normalize("NFC", item) if isinstance(item, str) else item

    if not isinstance(value, (list, dict)):
        return nfc(value)
    top: list[Any] = [None]
    stack: list[tuple[Any, Any, Any]] = [(value, top, 0)]  # (a container read, where its copy goes, at which key)
    while stack:
        item, into, at = stack.pop()
        if isinstance(item, list):
            copy: Any = [None] * len(item)
            stack.extend((v, copy, k) for k, v in enumerate(item))
        elif isinstance(item, dict):
            copy = {nfc(k): None for k in item}
            stack.extend((v, copy, nfc(k)) for k, v in reversed(item.items()))  # popped in order: the later stays
        else:
            copy = nfc(item)
        into[at] = copy
    return top[0]


def cmd_score(args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Run ``companion score``: 0 scored, 1 invalid input (message on stderr; the game's ``info.input_error_exit``),
    2 a game that cannot score. A bad line of a JSON Lines file is a row of the output in its place (an
    ``{"line", "error"}`` object with ``--json``) and a message on stderr, said once where both reach one terminal."""
    out = out or sys.stdout
    err = err or sys.stderr
    scorers = {name: named_by_the_box(scores) for name, scores in scoring_games().items()}
    if args.game not in scorers:
        print(
            _("companion score: game {game!r} cannot score; choose from {value}").format(
                game=args.game, value=', '.join(scorers) or 'none'
            ),
            file=err,
        )
        return EXIT_USAGE
    fmt = GAMES[args.game].info.score_input
    bad_input = GAMES[args.game].info.input_error_exit
    try:
        text = read_score_file(args.file)
        if fmt == "jsonl-games":
            results = score_lines(scorers[args.game], text, str(args.file))
        else:
            results = [(None, scorers[args.game](one_document(text, args.file, args.game)))]
    except (ScoreInputError, RulesError) as exc:  # any rules error about the input is the input's fault
        _input_error("score", args.file, exc, err)
        return bad_input
    as_json = getattr(args, "json", False)
    # the table's "line N: error: ..." row is the line's result, in its place; on stderr too when stderr is read
    # apart from it (stdout into a file), not twice on one terminal. --json keeps both: tools read its rows.
    said_apart = as_json or not same_place(out, err)
    failed = False
    for n, (line, outcome) in enumerate(results):
        if not as_json and n:
            print(file=out)
        if isinstance(outcome, ScoreInputError):  # one bad JSON Lines line: report it, keep going
            failed = True
            if said_apart:
                _input_error("score", args.file, outcome, err)
            if as_json:  # the English every tool reads, unless --language asked for another
                row = {"line": line, "error": _line_problem(outcome, line, asked_language() or "en")}
                _emit(out, json.dumps(row, ensure_ascii=False), row)
            else:
                _emit(out, _("line {line}: error: {problem}").format(line=line,
                                                                     problem=_line_problem(outcome, line)))
            continue
        result = said_json(scores_json(outcome, GAMES[args.game]))
        if as_json:
            _emit(out, json.dumps(result, ensure_ascii=False), result)
        else:
            _emit(out, format_table(outcome, result["winners"]))
    return bad_input if failed else EXIT_OK


def _line_problem(error: ScoreInputError, line: int | None, lang: str | None = None) -> str:
    """What is wrong with JSON Lines line ``line``, said in ``lang`` (None: the command's) without the line's own
    name (``line 4: players: ...`` -> ``players: ...``): the output names the line itself."""
    said = say(error, lang)
    return said.removeprefix(say(Text("line {number}", number=line), lang) + ": ")


def checking_games(games: Mapping[str, Any] | None = None) -> dict[str, Callable[[Any], list[Finding]]]:
    """Name -> ``check`` of every game that can check a position for misplays (a :class:`rules.CheckingGame`)."""
    games = GAMES if games is None else games
    return {name: game.check for name, game in sorted(games.items()) if isinstance(game, CheckingGame)}


def add_check_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Add the ``check`` subcommand (GAME, FILE, ``--json``) to ``companion``'s subparsers."""
    return _add_game_file_parser(
        subparsers, "check", checking_games(), _("check every player's position for misplays"),
        _("Check each player's position in a file against the rules: each misplay is named with the rulebook section "
          "it breaks."), _("the position (JSON)"),
        _("print the findings, in the shape the game declares (docs/contracts.md), as JSON"),
        schema=lambda name: GAMES[name].info.check_format.schema,
    )


LABELS = {Severity.ERROR: N_("misplay"), Severity.WARNING: N_("warning"), Severity.INFO: N_("note")}
"""How ``companion check`` names a finding's severity (said in the command's language)."""


def cmd_check(args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Run ``companion check``: 0 checked (whatever it found), 1 invalid input (the game's ``info.input_error_exit``),
    2 a game that cannot check.

    With ``--json`` prints the game's findings in the shape its ``info.check_format`` declares; Among the
    Stars: exactly ``{"findings": [{"player", "card", "cell": [i, j], "rule", "message"}]}`` (rules surely
    broken; empty when every position is legal). What the format leaves out (Among the Stars: warnings, what
    depends on what the camera cannot know) goes to stderr, one line each, so the JSON stays exact.
    """
    out = out or sys.stdout
    err = err or sys.stderr
    checkers = {name: named_by_the_box(check) for name, check in checking_games().items()}
    if args.game not in checkers:
        print(
            _("companion check: game {game!r} cannot check; choose from {value}").format(
                game=args.game, value=', '.join(checkers) or 'none'
            ),
            file=err,
        )
        return EXIT_USAGE
    try:
        findings = checkers[args.game](one_document(read_score_file(args.file), args.file, args.game))
    except (ScoreInputError, RulesError) as exc:
        _input_error("check", args.file, exc, err)
        return GAMES[args.game].info.input_error_exit
    printed, rest = GAMES[args.game].info.check_format.to_json(findings)
    if getattr(args, "json", False):
        printed = said_json(printed)
        _emit(out, json.dumps(printed, ensure_ascii=False), printed)
        for f in rest:
            _emit(err, _("companion check: {severity}: {finding}").format(severity=_(LABELS[f.severity]),
                                                                         finding=_describe(f, args.game)))
        return EXIT_OK
    for f in sorted(findings, key=lambda f: f.severity is not Severity.ERROR):
        _emit(out, _("{severity}: {finding}").format(severity=_(LABELS[f.severity]), finding=_describe(f, args.game)))
    if not any(f.severity in (Severity.ERROR, Severity.WARNING) for f in findings):
        _emit(out, _("every position is legal"))
    return EXIT_OK


PLACE_WORDS: dict[str, Callable[[Any], Any]] = {"among": station_place}
"""How a game names a finding's cell for the players, by game name (Among the Stars: a station place from the Main
Reactor, rulebook 5.1 'Grid and adjacency'); a game not listed says it as numbers, "at (q, r)"."""


def _place(cell: Any, words: Callable[[Any], Any] | None) -> str | None:
    """``cell`` in ``words`` as said in the command's language, or None (no words or no cell, or not a place)."""
    if cell is None or words is None:
        return None
    try:
        return say(words(cell))
    except ValueError:
        return None


def _describe(f: Finding, game: str = "") -> str:
    """``"Ann: Crew Quarters (3 below and 3 right of the Main Reactor): <what> (adjacency) [<rulebook citation>]"``
    (``game``'s :data:`PLACE_WORDS`, the card and place left out when ``<what>`` names that place already; else
    ``"Crew Quarters at (3, 3)"``); parts a finding lacks are left out."""
    place = _place(f.cell, PLACE_WORDS.get(game))
    what = say(f.what)
    if place is not None and place in what:
        card = None   # the finding names the card at its place already
    elif place is not None:
        card = _("{card} ({place})").format(card=f.card or "", place=place).strip()
    elif f.cell is not None:
        card = _("{card} at {cell}").format(card=f.card or "", cell=tuple(f.cell)).strip()
    else:
        card = f.card
    head = ": ".join(part for part in (f.player, card) if part)
    kind = f" ({f.rule_kind})" if f.rule_kind else ""
    source = f" [{say(f.rule)}]" if f.rule else ""
    return f"{head + ': ' if head else ''}{what}{kind}{source}"


def said_json(data: Any) -> Any:
    """``data`` for ``--json``: in the language asked for with ``--language``, else as it is (the English every tool
    reads: the same keys either way)."""
    asked = asked_language()
    return localize(data, asked) if asked else data
