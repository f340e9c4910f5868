"""Reading the box's configuration file as TOML: the file's text and tables (:func:`parse_file`, every way a file
cannot be read said as one problem), Python's TOML parser's reasons in words for the owner (:func:`toml_reason`,
said in the owner's language), and the line where each key is written (:func:`key_lines`). The parsing itself is
:mod:`tomllib`'s; the settings and their checks are in :mod:`companion.config`.
"""

from __future__ import annotations

import ast
import json
import os
import re
import shlex
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.i18n import N_, Text, os_reason

__all__ = ["CONFIG_AT_MOST", "key_lines", "parse_file", "toml_reason"]

CONFIG_AT_MOST = 1 << 20
"""The largest configuration file read (bytes): the commented default is about 2 KiB."""

_TOML_REASONS: dict[str, str] = {
    "Invalid value": Text("a value TOML does not know (text goes in quotes: \"auto\")"),
    "Invalid statement": Text("a line that is neither a setting (name = value) nor a [section]"),
    "Expected '=' after a key in a key/value pair": Text("'=' expected after the setting's name"),
    "Expected ']' at the end of a table declaration": Text("']' expected at the end of the [section]"),
    "Expected ']]' at the end of an array declaration": Text("']]' expected at the end of the [[section]]"),
    "Expected newline or end of document after a statement": Text("more text after a setting on its line (a "
                                                                  "comment starts with #)"),
    "Unterminated string": Text("a text in quotes is not closed"),
    "Unclosed array": Text("a list in [ ] is not closed"),
    "Unclosed inline table": Text("a table in curly brackets is not closed"),
    "Cannot overwrite a value": Text("a setting given twice"),
    "Invalid initial character for a key part": Text("a setting's name starts with a character names cannot have"),
    "Invalid date or datetime": Text("a date or time TOML does not know"),
    "Invalid hex value": Text("an escape in a text whose hexadecimal digits are wrong"),
    "Unescaped '\\' in a string": Text("a backslash in a text in double quotes (write \\\\ or use single quotes)"),
    "Escaped character is not a Unicode scalar value": Text("an escape in a text that is no character"),
}
"""Python's TOML parser's fixed reasons (``tomllib``'s English) and their words for the owner (the catalog's msgid);
a reason naming a key or a character is kept as the parser says it."""


def toml_reason(message: str) -> str:
    """tomllib's reason for a file that is not TOML (its English, without the place) in words to say in the owner's
    language: a :class:`Text` of :data:`_TOML_REASONS`, an unclosed text or a character a text cannot hold, else the
    parser's own."""
    if message == "Illegal character '\\n'":  # a text in quotes that runs to the end of its line
        return Text("a text in quotes is not closed on its line")
    if message.startswith("Illegal character "):
        return Text("a character a text in quotes cannot hold: {character}",
                    character=message.removeprefix("Illegal character "))
    if message in _TOML_REASONS:
        return _TOML_REASONS[message]
    for pattern, words in _TOML_KEY_REASONS:
        match = re.fullmatch(pattern, message)
        if match:
            return Text(words, key=_toml_key(match.group(1)))
    return message


_TOML_KEY_REASONS = (
    (r"Cannot declare (.+) twice", N_("the section [{key}] is written twice: write its settings under one [{key}]")),
    (r"Cannot mutate immutable namespace (.+)", N_("{key} was written whole (in curly brackets or as a value): it "
                                                   "takes no more settings")),
    (r"Cannot redefine namespace (.+)", N_("{key} is a [section] of its own: write this setting under [{key}]")),
    (r"Duplicate inline table key (.+)", N_("{key} is given twice in the curly brackets")),
    (r"Expected (.+)", N_("{key} expected")),
    (r"Found invalid character (.+)", N_("a character that cannot be here: {key}")),
)
"""tomllib's reasons that name a key (or a character), as patterns, and their words for the owner (the key said
as the file writes it: ``web.host``, not Python's ``('web', 'host')``)."""


def _toml_key(said: str) -> str:
    """A key as tomllib names it in a reason (``('web', 'host')``, ``'b'``) as the file writes it: ``web.host``."""
    try:
        key = ast.literal_eval(said)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return said
    if isinstance(key, tuple) and all(isinstance(part, str) for part in key):
        return ".".join(part if re.fullmatch(r"[A-Za-z0-9_\-]+", part) else json.dumps(part) for part in key)
    return said  # a character or a one-part key, in quotes as tomllib gives it: a space is seen


_TABLE = re.compile(r"\[\s*([A-Za-z0-9_\-]+(?:\s*\.\s*[A-Za-z0-9_\-]+)*)\s*\]\s*(?:#.*)?$")
_KEY = re.compile(r"((?:[A-Za-z0-9_\-]+|\"[^\"]*\"|'[^']*')(?:\s*\.\s*(?:[A-Za-z0-9_\-]+|\"[^\"]*\"|'[^']*'))*)\s*=")


def key_lines(text: str) -> dict[str, int]:
    """Dotted key -> the 1-based line where it is set (and each ``[table]`` -> its header line), for
    naming lines in messages. Only locates keys; :mod:`tomllib` does the parsing."""
    lines: dict[str, int] = {}
    table = ""
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if match := _TABLE.match(stripped):
            table = re.sub(r"\s", "", match.group(1))
            lines.setdefault(table, number)
        elif match := _KEY.match(stripped):
            key = re.sub(r"\s|[\"']", "", match.group(1))
            lines.setdefault(f"{table}.{key}" if table else key, number)
    return lines


def parse_file(path: Path, problem: Callable[..., None], named_by: str | None = None
               ) -> tuple[str, dict[str, Any]] | None:
    """The text and the TOML tables of the file at ``path``, or None when it cannot be read, is not UTF-8 text or
    is not TOML (said through ``problem(key, message, line)``, ``key`` None: the file as a whole). ``named_by``: the
    environment variable that named the file (``TABLETOP_CONFIG``: a missing file's message says to unset it), or
    None when a caller did (``--config FILE``). Nothing is raised: a device, a pipe, a folder, a file over
    :data:`CONFIG_AT_MOST` bytes, an unreadable file, text not in UTF-8 or not TOML each become one problem."""
    try:
        if str(path) == os.devnull:  # "no file" said on purpose ($TABLETOP_CONFIG=/dev/null): every default
            return "", {}
        if path.exists() and not path.is_dir() and not path.is_file():  # read for ever (/dev/zero) or blocks (a pipe)
            return problem(None, Text("is a device or a pipe, not a file: give the config.toml file"))
        if path.is_file() and path.stat().st_size > CONFIG_AT_MOST:
            return problem(None, Text("is larger than {most} KiB: not a configuration file", most=CONFIG_AT_MOST >> 10))
        raw = path.read_bytes()
    except FileNotFoundError:  # the command that writes one, as the owner types it (a path with a space quoted)
        if path.is_symlink():  # a link to nothing: `config init` of the link refuses it (something is there)
            target = Path(os.path.realpath(path))
            return problem(None, Text("is a link to {target}, which is not there: write the default file there with "
                                      "`companion config init {typed}`, or point the link at your configuration file",
                                      target=target, typed=shlex.quote(str(target))))
        if not named_by:
            return problem(None, Text("no such file: write the default one with `companion config init {path}`",
                                      path=shlex.quote(str(path))))
        return problem(None, Text("no such file: write the default one with `companion config init {path}`, or unset "
                                  "${env}", path=shlex.quote(str(path)), env=named_by))
    except IsADirectoryError:
        return problem(None, Text("is a folder: give the config.toml file in it"))
    except OSError as exc:
        return problem(None, Text("cannot be read ({problem})", problem=os_reason(exc)))
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        return problem(None, Text("is not UTF-8 text: save it as UTF-8"), line)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        match = re.search(r"\(at line (\d+), column (\d+)\)", str(exc))
        message = re.sub(r"\s*\(at (line \d+, column \d+|end of document)\)", "", str(exc)) or "not TOML"
        line = int(match.group(1)) if match else (text.count("\n") + 1 if "end of document" in str(exc) else None)
        message = toml_reason(message)
        said = (Text("not valid TOML: {problem} (column {column})", problem=message, column=match.group(2)) if match
                else Text("not valid TOML: {problem}", problem=message))
        return problem(None, said, line)
    except ValueError:  # tomllib's int() of a whole number longer than Python reads
        return problem(None, Text("not valid TOML: {problem}", problem=Text("a number of more than 4300 digits")))
    except RecursionError:  # arrays or inline tables inside each other thousands deep
        return problem(None, Text("not valid TOML: {problem}", problem=Text(
            "lists or tables nested too deeply (a configuration is a few levels deep)")))
    return text, data
