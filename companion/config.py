"""The box's one configuration file: a TOML file whose settings are declared once, here.

Where the file is (:func:`find_config`): ``$TABLETOP_CONFIG`` when set; else the user's config
directory (platformdirs, ``~/.config/tabletop-companion/config.toml``); else the service's
``/etc/tabletop-companion/config.toml``. No file at all is fine: every setting has a default.

Each setting (:data:`SETTINGS`) names its key (``section.name``), its kind, default, help and
allowed values, and, where it has one, the command-line flag and the environment variable that
override it. The effective value of a setting comes from, strongest first: the flag, the environment
variable, the file, the default; :class:`Config` keeps where each came from (``config show``).

The file carries ``version = N`` (:data:`CONFIG_VERSION`; a file without it is read as version 1).
When a key is renamed or changes shape a :class:`Migration` is added to :data:`MIGRATIONS` and older
files are read through it, so an owner's file keeps working; ``companion config check`` says how to
bring it up to date.

A bad file never stops the box: :func:`load` collects every problem (one :class:`Problem` per key, with
its line) and uses the default for each bad setting; ``companion config check`` and ``companion doctor``
list them. :func:`load` with ``strict=True`` raises :class:`ConfigError` instead.

The commented default file (:func:`default_file_text`) is ``companion/data/config.toml``; the installer
writes it to ``/etc/tabletop-companion/config.toml``, ``companion config init FILE`` to FILE (never over a file).
"""

from __future__ import annotations

import ast
import difflib
import json
import os
import re
import shlex
import textwrap
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.errors import CompanionError
from companion.i18n import LANGUAGES, N_, Text, message_of, os_reason  # the languages: declared with the catalogs

__all__ = [
    "CONFIG_ENV", "CONFIG_VERSION", "LANGUAGES", "MIGRATIONS", "SERVICE_CONFIG", "SETTINGS",
    "Config", "ConfigError", "Migration", "Problem", "Setting", "Value",
    "default_file_text", "find_config", "host_setting", "key_lines", "load", "setting", "user_config_path",
]

CONFIG_ENV = "TABLETOP_CONFIG"
"""Environment variable naming the configuration file to use (it must then exist)."""

SERVICE_CONFIG = Path("/etc/tabletop-companion/config.toml")
"""The service's file (written by the installer), used when the user has none."""

CONFIG_VERSION = 1
"""The version of the file layout this code writes and reads natively."""


CONFIG_AT_MOST = 1 << 20
"""The largest configuration file read (bytes): the commented default is about 2 KiB."""

BCM_PINS = range(0, 28)
"""The BCM GPIO numbers of the Raspberry Pi's 40-pin header (0-27)."""

OFF = "off"
"""The value of an optional pin (undo button, buzzer) that is not wired."""


class ConfigError(CompanionError, ValueError):
    """A configuration file that cannot be used as it is.

    Attributes:
        problems: every problem found, each with its key and line where known.
    """

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = list(problems)
        super().__init__("; ".join(str(p) for p in self.problems))


@dataclass(frozen=True)
class Problem:
    """One thing wrong in a configuration file.

    Attributes:
        path: the file.
        line: 1-based line of the key (None: the file as a whole, or a key not written in it).
        key: the dotted key (``"web.port"``), or None for the file as a whole.
        message: what is wrong and what to write instead (a :class:`Text`: ``config check``, ``config show`` and the
            doctor say it in the language asked for; ``str()`` is the English).
    """

    path: Path
    line: int | None
    key: str | None
    message: str

    def __str__(self) -> str:
        return str(self.text())

    def text(self) -> Text:
        """``FILE:LINE: KEY: message`` as a :class:`Text` (the message said in a player's language by
        ``companion.i18n.say``; the file, line and key as written)."""
        where = f"{self.path}:{self.line}" if self.line else str(self.path)
        if self.key:
            return Text("{where}: {key}: {message}", where=where, key=self.key, message=self.message)
        return Text("{where}: {message}", where=where, message=self.message)


# -- value kinds: each takes the TOML value and returns the setting's value or raises ValueError ----

def toml_value(value: Any) -> str:
    """``value`` as it is written in the TOML file (``true``, ``"x"``, ``["x", 2]``, ``{a = 1}``), not as Python spells
    it: the settings' refusals quote what the file holds this way, and the default file and ``config set`` write
    it. A text is a TOML basic string (its quotes, backslashes and control characters escaped)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {toml_value(v)}" for k, v in value.items()) + "}"
    return json.dumps(value, ensure_ascii=False, default=str).replace("\x7f", "\\u007f")  # DEL: TOML escapes it


def _text(value: Any) -> str:
    if not isinstance(value, str):
        listed = isinstance(value, (list, tuple))
        example = ", ".join(toml_value(v).strip('"') for v in value) if listed else toml_value(value)
        raise ValueError(Text("give text in quotes, e.g. \"{value}\"", value=example))
    return value


def _port(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(Text("give a whole number 1-65535 without quotes, not {value}", value=toml_value(value)))
    if not 1 <= value <= 65535:
        raise ValueError(Text("{value} is not a TCP port: give 1-65535", value=value))
    return value


def _flag(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError(Text("give true or false (no quotes), not {value}", value=toml_value(value)))
    return value


def _pin(value: Any, optional: bool) -> int | None:
    if optional and value == OFF:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value not in BCM_PINS:
        if optional:
            raise ValueError(Text('give a BCM number 0-27 or "off", not {value}', value=toml_value(value)))
        raise ValueError(Text("give a BCM number 0-27, not {value}", value=toml_value(value)))
    return value


def _size(value: Any) -> tuple[int, int] | None:
    text = _text(value).strip().lower()
    if text == "auto":
        return None
    match = re.fullmatch(r"(\d{2,5})\s*x\s*(\d{2,5})", text)
    if not match:
        raise ValueError(Text('give "auto" or WIDTHxHEIGHT in pixels, e.g. "2304x1296", not {value}',
                              value=toml_value(value)))
    width, height = int(match.group(1)), int(match.group(2))
    if not (64 <= width <= 8192 and 64 <= height <= 8192):
        raise ValueError(Text("{width}x{height}: each side must be 64-8192 px", width=width, height=height))
    return width, height


def _source(value: Any) -> str:
    """``camera.source``: one of the forms the box opens (``device.parse_source``: checked, nothing opened), so
    ``config check`` names a source such as ``"bogus:1"`` or ``"opencv:"`` instead of the box failing at start."""
    from device import UnknownSourceSpec, parse_source

    text = _text(value).strip()
    try:
        parse_source(text)
    except UnknownSourceSpec as exc:
        raise ValueError(message_of(exc)) from None  # the device's words, said in the owner's language
    return text


def _box_name(value: Any) -> str:
    text = _text(value).strip()
    if not text:
        raise ValueError(Text('give the box a name, e.g. "companion"'))
    if len(text.encode("utf-8")) > 63:  # a DNS-SD service instance name is at most 63 bytes (RFC 6763 §4.1.1)
        raise ValueError(Text("{size} bytes: a box name is at most 63 bytes (it names the box on the network)",
                              size=len(text.encode("utf-8"))))
    if any(ord(c) < 32 or c in ".\\" for c in text):
        raise ValueError(Text("a box name has no dots, backslashes or control characters"))
    if not any(ch.isalnum() for ch in text):  # "Τραπέζι" is a name: its network name is spelt in a-z (host_label)
        raise ValueError(
            Text("a box name needs at least one letter or digit, in any alphabet (its network name, such as "
                 "companion.local, is spelt from them)")
        )
    return text


_HOST_LABEL = re.compile(r"[A-Za-z0-9]([A-Za-z0-9\-]{0,61}[A-Za-z0-9])?")


def host_setting(value: Any) -> str:
    """``web.host``: an IPv4 or IPv6 address (``0.0.0.0``, ``::``, ``192.168.1.20``) or a host name
    (``companion.local``: letters, digits and hyphens between dots, RFC 1123), so ``config check`` names a host the
    phone view could never listen on instead of the box failing at start. Nothing is looked up."""
    import ipaddress

    text = _text(value).strip()
    try:
        ipaddress.ip_address(text)
        return text
    except ValueError:
        pass
    labels = text.removesuffix(".").split(".")
    numeric = all(label.isdigit() for label in labels)  # 256.1.1.1: an IPv4 address out of range, not a name
    if text and len(text) <= 253 and not numeric and all(_HOST_LABEL.fullmatch(label) for label in labels):
        return text
    raise ValueError(Text('{value} is not a network address: give an address such as "0.0.0.0" (every network of '
                          'the box), "127.0.0.1" or "192.168.1.20", or a host name such as "companion.local"',
                          value=repr(value)))  # a text: the command line shares it


def _folder(value: Any) -> str:
    text = _text(value).strip()
    if any(ord(c) < 32 or ord(c) == 127 for c in text):  # "\u0000" in TOML: no path holds it (os refuses a NUL)
        raise ValueError(Text('{value} holds a control character, which no folder name has: give the folder\'s path, '
                              'or "" for the default', value=toml_value(value)))
    if text and not Path(text).expanduser().is_absolute():
        raise ValueError(Text('give an absolute folder ("/var/lib/tabletop-companion") or "" for the default, '
                              "not {value}", value=toml_value(value)))
    if text and Path(text).expanduser().exists() and not Path(text).expanduser().is_dir():
        raise ValueError(Text('{value} is a file: give a folder, or "" for the default', value=toml_value(value)))
    return text


CHOOSE = "choose"
"""``box.default_game`` (and ``--game``) for the game chooser: given (the flag or the file), the box starts on it; as
the default, on the game it was on (the chooser the first time)."""


def _games() -> tuple[str, ...]:
    from companion.flows import FLOWS

    return (CHOOSE, "d6", *FLOWS)


@dataclass(frozen=True)
class Setting:
    """One setting of the configuration file, declared once.

    Attributes:
        key: ``"section.name"`` as written in the file (``[section]`` then ``name = ...``).
        default: the value as written in TOML when the file does not set it.
        help: what it does, shown in the default file and ``config show``.
        parse: the TOML value -> the setting's value; raises ValueError saying what to write.
        choices: the allowed values (text settings), or a function returning them; empty: any.
        flag: the ``companion run|demo`` flag that overrides it (``"--port"``), if any.
        env: the environment variable that overrides it, if any.
        unset: the default file leaves it out (written as a comment): the default does something no value written
            does (``box.default_game``: the box comes back to the game it was on; ``"choose"`` written is the
            chooser at every start).
    """

    key: str
    default: Any
    help: str
    parse: Callable[[Any], Any] = _text
    choices: tuple[str, ...] | Callable[[], tuple[str, ...]] = ()
    flag: str | None = None
    env: str | None = None
    unset: bool = False

    @property
    def section(self) -> str:
        return self.key.partition(".")[0]

    @property
    def name(self) -> str:
        return self.key.partition(".")[2]

    def allowed(self) -> tuple[str, ...]:
        """The allowed values (empty: any the kind takes)."""
        return self.choices() if callable(self.choices) else self.choices

    def value_of(self, raw: Any) -> Any:
        """``raw`` (a TOML value, or a flag's or variable's text) checked and converted.

        Raises:
            ValueError: not a value this setting takes; the message says what to write.
        """
        allowed = self.allowed()
        if allowed:
            if not isinstance(raw, str):  # `language = 12`: the choices, not "give text in quotes, e.g. "12""
                raise ValueError(Text("{value} is not one of {allowed}", value=toml_value(raw),
                                      allowed=", ".join(allowed)))
            text = _text(raw)
            if text not in allowed:
                close = difflib.get_close_matches(text, allowed, n=1)
                if close:
                    raise ValueError(Text('{value} is not one of {allowed} (did you mean "{close}"?)',
                                          value=toml_value(text), allowed=", ".join(allowed), close=close[0]))
                raise ValueError(Text("{value} is not one of {allowed}", value=toml_value(text),
                                      allowed=", ".join(allowed)))
        return self.parse(raw)


SETTINGS: tuple[Setting, ...] = (
    Setting("camera.source", "auto",
            "where the frames come from: auto (the Pi camera, else a USB webcam), picamera2[:N], opencv:N, "
            "or a folder/video to replay", parse=_source, flag="--source"),
    Setting("camera.size", "auto",
            "frame size asked of the camera, WIDTHxHEIGHT in px (auto: 2304x1296 on the Pi camera, the "
            "webcam's own size otherwise)", parse=_size),
    Setting("gpio.next_pin", 17, "BCM pin of the Next button (to ground): the next phase in a game, read now with d6",
            parse=lambda v: _pin(v, False)),
    Setting("gpio.undo_pin", OFF, "BCM pin of an Undo button (to ground), or \"off\"", parse=lambda v: _pin(v, True)),
    Setting("gpio.led_pin", 27, "BCM pin of the status LED (through a resistor to ground)",
            parse=lambda v: _pin(v, False)),
    Setting("gpio.buzzer_pin", OFF, "BCM pin of an active buzzer (last round, game over), or \"off\"",
            parse=lambda v: _pin(v, True), flag="--buzzer-pin"),
    Setting("web.host", "0.0.0.0", "address the phone view listens on (0.0.0.0: every network of the box)",
            parse=host_setting, flag="--host"),
    Setting("web.port", 8080, "TCP port of the phone view", parse=_port, flag="--port"),
    Setting("web.announce", True, "announce the box on the network (mDNS: NAME.local and an _http._tcp service)",
            parse=_flag),
    Setting("box.name", "companion",
            "the box's name on the network: the phone view is announced under it, and NAME.local "
            "(letters and digits, spaces as -) reaches it", parse=_box_name),
    Setting("box.language", "en", "language of the touchscreen, the phone page (until a phone picks its own) and the "
            "command line: en, el (Greek), pl (Polish), hu (Hungarian)",
            choices=LANGUAGES, flag="--language", env="TABLETOP_LANGUAGE"),
    Setting("box.data_dir", "",
            "folder of the session database, profiles and calibration (\"\": the user's data directory; "
            "the service's is /var/lib/tabletop-companion)", parse=_folder, env="TABLETOP_DATA_DIR"),
    Setting("box.default_game", CHOOSE,
            "what the box starts on without --game: choose (the game chooser at every start, or the setup under way), "
            "d6 (read the dice) or a game's flow; left unset, the game the table was on (the chooser the first time; a "
            "replay of photos, as companion demo plays, reads the d6 dice in them)",
            choices=_games, flag="--game", unset=True),
)
"""Every setting of the configuration file, in the order of the default file."""

_BY_KEY = {s.key: s for s in SETTINGS}
_SECTIONS = tuple(dict.fromkeys(s.section for s in SETTINGS))


def setting(key: str) -> Setting:
    """The declared :class:`Setting` of ``key``.

    Raises:
        KeyError: no such setting.
    """
    return _BY_KEY[key]


@dataclass(frozen=True)
class Migration:
    """How files of ``to_version - 1`` are read as ``to_version``.

    Attributes:
        to_version: the version this migration produces.
        renamed: old dotted key -> new dotted key (the value moves with its line).
        convert: new dotted key -> function of the old value (a key that changed shape).
        note: what changed, for ``config check``.
    """

    to_version: int
    renamed: Mapping[str, str] = field(default_factory=dict)
    convert: Mapping[str, Callable[[Any], Any]] = field(default_factory=dict)
    note: str = ""


MIGRATIONS: tuple[Migration, ...] = ()
"""The migrations, oldest first (version 1 is the first layout: none yet). Each new layout bumps
:data:`CONFIG_VERSION` and adds one here."""


@dataclass(frozen=True)
class Value:
    """A setting's effective value and where it came from.

    Attributes:
        value: the converted value (e.g. ``(2304, 1296)``, None for "off"/"auto").
        raw: as written (the TOML value, the flag's text).
        origin: ``"default"``, ``"PATH:LINE"``, ``"flag --port"`` or ``"environment VAR"``.
    """

    value: Any
    raw: Any
    origin: str


@dataclass
class Config:
    """The effective settings.

    Attributes:
        values: dotted key -> :class:`Value` for every setting in :data:`SETTINGS`.
        path: the file read, or None (none found).
        version: the file's version (None without a file).
        problems: what was wrong in the file (each bad setting took its default).
        notes: migrations applied while reading (an older file).
    """

    values: dict[str, Value]
    path: Path | None = None
    version: int | None = None
    problems: list[Problem] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def __getitem__(self, key: str) -> Any:
        return self.values[key].value

    def origin(self, key: str) -> str:
        return self.values[key].origin

    def override(self, key: str, raw: Any, origin: str) -> None:
        """Set ``key`` from a flag or variable (``raw`` already checked by its parser, or checked here).

        Raises:
            ValueError: ``raw`` is not a value of ``key``.
        """
        self.values[key] = Value(setting(key).value_of(raw), raw, origin)


def user_config_path() -> Path:
    """``config.toml`` in the user's config directory (platformdirs; ``~/.config/tabletop-companion``)."""
    import platformdirs

    from companion.paths import APP_NAME

    return Path(platformdirs.user_config_dir(APP_NAME)) / "config.toml"


def find_config(env: Mapping[str, str] | None = None) -> Path | None:
    """The configuration file to read: ``$TABLETOP_CONFIG`` when set (even if missing: :func:`load`
    says so), else the user's file, else :data:`SERVICE_CONFIG`, whichever exists first; None when
    there is none."""
    env = os.environ if env is None else env
    named = env.get(CONFIG_ENV, "").strip()
    if named:
        return Path(named).expanduser()
    for path in (user_config_path(), SERVICE_CONFIG):
        if path.is_file():
            return path
    return None


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



def _toml_reason(message: str) -> str:
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


def _defaults() -> dict[str, Value]:
    return {s.key: Value(s.value_of(s.default), s.default, "default") for s in SETTINGS}


def _flatten(data: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    flat: dict[str, Any] = {}
    for key, value in data.items():
        dotted = f"{prefix}{key}"
        if isinstance(value, dict) and dotted not in _BY_KEY:
            flat.update(_flatten(value, dotted + ".") if value else {dotted: value})
        else:
            flat[dotted] = value
    return flat


def load(path: Path | None = None, *, env: Mapping[str, str] | None = None, strict: bool = False,
         migrations: Sequence[Migration] = MIGRATIONS, version: int = CONFIG_VERSION) -> Config:
    """Read the configuration: ``path`` (default :func:`find_config`), then the environment variables.

    Args:
        path: the TOML file; None finds it (no file found: every setting at its default).
        env: the environment (default ``os.environ``), for the settings' variables and ``$TABLETOP_CONFIG``.
        strict: raise :class:`ConfigError` on any problem instead of using the defaults for bad settings.
        migrations: the migrations to read older files with (tests pass their own).
        version: the current layout version (tests pass their own).

    Returns:
        The effective :class:`Config` (flags are applied by the caller with :meth:`Config.override`).

    Raises:
        ConfigError: with ``strict``, every problem of the file (unreadable, not TOML, unknown keys,
            bad values, pins used twice, a newer version), each naming its key and line.
    """
    env = os.environ if env is None else env
    by_variable = path is None and bool(env.get(CONFIG_ENV, "").strip())  # the file $TABLETOP_CONFIG names
    path = find_config(env) if path is None else Path(path)
    config = Config(_defaults(), path=path)
    if path is not None:
        _read_file(config, path, migrations, version, by_variable)
    for s in SETTINGS:
        if s.env and env.get(s.env, "").strip():
            try:
                config.override(s.key, env[s.env].strip(), f"environment {s.env}")
            except ValueError as exc:
                config.problems.append(Problem(Path(f"${s.env}"), None, s.key, message_of(exc)))
    if strict and config.problems:
        raise ConfigError(config.problems)
    return config


def _parse_file(path: Path, problem: Callable[..., None], by_variable: bool = False
                ) -> tuple[str, dict[str, Any]] | None:
    """The text and the TOML tables of the file at ``path``, or None when it cannot be read, is not UTF-8 text or
    is not TOML (said through ``problem(key, message, line)``); ``by_variable``: ``$TABLETOP_CONFIG`` named it (a
    missing file's message says to unset it), else a caller did (``--config FILE``)."""
    try:
        if str(path) == os.devnull:  # "no file" said on purpose ($TABLETOP_CONFIG=/dev/null): every default
            return "", {}
        if path.exists() and not path.is_dir() and not path.is_file():  # read for ever (/dev/zero) or blocks (a pipe)
            return problem(None, Text("is a device or a pipe, not a file: give the config.toml file"))
        if path.is_file() and path.stat().st_size > CONFIG_AT_MOST:
            return problem(None, Text("is larger than {most} KiB: not a configuration file", most=CONFIG_AT_MOST >> 10))
        raw = path.read_bytes()
    except FileNotFoundError:  # the command that writes one, as the owner types it (a path with a space quoted)
        if not by_variable:
            return problem(None, Text("no such file: write the default one with `companion config init {path}`",
                                      path=shlex.quote(str(path))))
        return problem(None, Text("no such file: write the default one with `companion config init {path}`, or unset "
                                  "${env}", path=shlex.quote(str(path)), env=CONFIG_ENV))
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
        message = _toml_reason(message)
        said = (Text("not valid TOML: {problem} (column {column})", problem=message, column=match.group(2)) if match
                else Text("not valid TOML: {problem}", problem=message))
        return problem(None, said, line)
    except ValueError:  # tomllib's int() of a whole number longer than Python reads
        return problem(None, Text("not valid TOML: {problem}", problem=Text("a number of more than 4300 digits")))
    except RecursionError:  # arrays or inline tables inside each other thousands deep
        return problem(None, Text("not valid TOML: {problem}", problem=Text(
            "lists or tables nested too deeply (a configuration is a few levels deep)")))
    return text, data


def _migrate(
    config: Config,
    flat: dict[str, Any],
    lines: dict[str, int],
    migrations: Sequence[Migration],
    file_version: int,
    current: int,
    problem: Callable[..., None],
) -> dict[str, str]:
    """The ``migrations`` from ``file_version`` up to ``current`` applied to ``flat`` (keys renamed, values
    converted, in place; a value that cannot be converted is said through ``problem`` and dropped), each noted in
    ``config.notes``. Returns new key -> the old key it was written as."""
    where: dict[str, str] = {}
    for migration in migrations:
        if migration.to_version <= file_version or migration.to_version > current:
            continue
        for old, new in migration.renamed.items():
            if old in flat and new not in flat:
                flat[new] = flat.pop(old)
                lines.setdefault(new, lines.get(old, 0))
                where[new] = old
        for key, convert in migration.convert.items():
            if key in flat:
                try:
                    flat[key] = convert(flat[key])
                except (TypeError, ValueError) as exc:
                    problem(where.get(key, key), f"cannot be read as version {migration.to_version}: {exc}",
                            lines.get(key))
                    flat.pop(key)
        config.notes.append(f"version {migration.to_version - 1} -> {migration.to_version}: {migration.note}")
    return where


def _read_file(config: Config, path: Path, migrations: Sequence[Migration], current: int,
               by_variable: bool = False) -> None:
    problems = config.problems

    def problem(key: str | None, message: str, line: int | None = None) -> None:
        problems.append(Problem(path, line, key, message))

    parsed = _parse_file(path, problem, by_variable)
    if parsed is None:
        return
    text, data = parsed
    lines = key_lines(text)
    file_version = data.pop("version", 1)
    if isinstance(file_version, bool) or not isinstance(file_version, int) or file_version < 1:
        problem("version", Text("give a whole number (this box writes version = {current}), not {value}",
                                current=current, value=repr(file_version)), lines.get("version"))
        file_version = current
    if file_version > current:
        problem("version", Text("version {version} is newer than this box reads ({current}): update the box, or write "
                                "version = {current}", version=file_version, current=current), lines.get("version"))
        file_version = current
    config.version = file_version
    flat = _flatten(data)
    where = _migrate(config, flat, lines, migrations, file_version, current, problem)
    for key, raw_value in flat.items():
        line = lines.get(key) or None
        s = _BY_KEY.get(key)
        shown = where.get(key, key)
        if s is None:
            if key in _SECTIONS:
                problem(
                    shown,
                    Text("[{section}] is a section: write its settings under it ({names})", section=key,
                         names=", ".join(x.name for x in SETTINGS if x.section == key)),
                    line,
                )
                continue
            close = difflib.get_close_matches(key, list(_BY_KEY), n=1, cutoff=0.6)
            problem(shown, Text("unknown setting: did you mean {close}?", close=close[0]) if close
                    else Text("unknown setting: the settings are {keys}", keys=", ".join(_BY_KEY)), line)
            continue
        try:
            value = s.value_of(raw_value)
        except ValueError as exc:
            problem(shown, Text("{problem}; the default {default} is used", problem=message_of(exc),
                                default=toml_value(s.default)), line)
            continue
        origin = f"{path}:{line}" if line else str(path)
        config.values[key] = Value(value, raw_value, origin + (f" (written as {where[key]})" if key in where else ""))
    _check_pins(config, lines, lambda key, message: problem(where.get(key, key), message, lines.get(key) or None))
    problems.sort(key=lambda p: p.line or 0)
    if config.notes:
        problem(None, f"written for version {file_version}; read as version {current} ("
                f"{'; '.join(config.notes)}): update it to version = {current} with the new keys")


def _check_pins(config: Config, lines: Mapping[str, int], problem: Callable[[str, str], None]) -> None:
    """Each GPIO part on its own pin. When the file gives a pin to a second part, the part written later (by its
    line, ``lines``) goes back to its default; when that default is the very pin the two share (``next_pin = 27``
    then ``led_pin = 27``: 27 is the LED's own default), the other part goes back to its default instead. A part
    sent back may meet a third part on its default, which then goes back to its own; each part sent back is
    reported once, on its key, with the pin it was given and the default it now has."""
    pins = [s.key for s in SETTINGS if s.section == "gpio"]
    defaults = _defaults()
    written = sorted((k for k in pins if config.origin(k) != "default"), key=lambda k: lines.get(k) or 0)

    def clash() -> tuple[str, str] | None:
        """(a part written in the file, a part on its pin that is at its default or written earlier), or None."""
        for key in reversed(written):
            if config.origin(key) == "default" or config[key] is None:
                continue
            for other in pins:
                if other != key and config[other] == config[key] and (
                        config.origin(other) == "default" or written.index(other) < written.index(key)):
                    return key, other
        return None

    for _ in pins:  # each turn sends one part back to its default, where it stays: at most one turn a part
        found = clash()
        if found is None:
            return
        later, other = found
        back, holder = (other, later) if defaults[later].value == config[later] else (later, other)
        default = toml_value(setting(back).default)
        if config.origin(holder) == "default":
            problem(back, Text("BCM {pin} is already {holder} (its default): give each part its own pin; the default "
                               "{default} is used", pin=config[back], holder=holder, default=default))
        else:
            problem(back, Text("BCM {pin} is already {holder} ({where}): give each part its own pin; the default "
                               "{default} is used", pin=config[back], holder=holder, where=config.origin(holder),
                               default=default))
        config.values[back] = defaults[back]


def default_file_text() -> str:
    """The commented default configuration file (``companion/data/config.toml``): every setting at its
    default, each with its help and allowed values."""
    out = [
        "# Tabletop companion: the box's settings (TOML, https://toml.io).",
        "# The service reads /etc/tabletop-companion/config.toml; `companion` run by a user reads",
        "# ~/.config/tabletop-companion/config.toml first ($TABLETOP_CONFIG names another file).",
        "# A flag on the command line (--port 9000) overrides the file; the file overrides the defaults.",
        "# `companion config show` prints the effective settings and where each came from;",
        "# `companion config check FILE` checks a file. Lines starting with # are comments.",
        "",
        f"version = {CONFIG_VERSION}",
    ]
    section = ""
    for s in SETTINGS:
        if s.section != section:
            section = s.section
            out += ["", f"[{section}]"]
        extra = [f"{s.flag} overrides it" if s.flag else "", f"${s.env} overrides it" if s.env else ""]
        text = s.help + (f" ({'; '.join(e for e in extra if e)})" if any(extra) else "")
        out += textwrap.wrap(text, width=100, initial_indent="# ", subsequent_indent="# ")
        out.append(f"{'# ' if s.unset else ''}{s.name} = {toml_value(s.default)}")
    return "\n".join(out) + "\n"


if __name__ == "__main__":  # pragma: no cover
    print(default_file_text(), end="")
