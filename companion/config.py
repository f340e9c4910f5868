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

How each kind of value is read (a port, a pin, a size, a folder...) is :mod:`companion.config_values`; reading the
file as TOML and the parser's reasons in the owner's words are :mod:`companion.config_toml`.
"""

from __future__ import annotations

import difflib
import os
import textwrap
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.config_language import language_code, language_refusal, likely_language
from companion.config_toml import CONFIG_AT_MOST, key_lines, parse_file
from companion.config_values import (
    BCM_PINS,
    OFF,
    box_name_setting,
    flag_setting,
    folder_setting,
    host_setting,
    pin_setting,
    port_setting,
    size_setting,
    source_setting,
    text_setting,
    toml_value,
)
from companion.errors import CompanionError
from companion.i18n import LANGUAGES, Text, message_of  # the languages: declared with the catalogs

__all__ = [  # the value kinds and the TOML reading live in companion.config_values and companion.config_toml
    "BCM_PINS", "CONFIG_AT_MOST", "CONFIG_ENV", "CONFIG_VERSION", "LANGUAGES", "MIGRATIONS", "OFF", "SERVICE_CONFIG",
    "SETTINGS", "Config", "ConfigError", "Migration", "Problem", "Setting", "Value",
    "default_file_text", "find_config", "host_setting", "key_lines", "load", "setting", "toml_value",
    "user_config_path",
]

CONFIG_ENV = "TABLETOP_CONFIG"
"""Environment variable naming the configuration file to use (it must then exist)."""

SERVICE_CONFIG = Path("/etc/tabletop-companion/config.toml")
"""The service's file (written by the installer), used when the user has none."""

CONFIG_VERSION = 1
"""The version of the file layout this code writes and reads natively."""


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
        meaning: for a setting with choices, what a value written otherwise means without doubt (``"EL"``,
            ``"hu_HU"``, ``"greek"`` -> ``"el"``), or None; and ``likely``: the choice a value that means none most
            likely meant, for the "did you mean" of its refusal (else the closest choice by spelling); ``refusal``:
            the whole refusal of a value whose own rules say why it is none of the choices (``"el-"``: no language
            tag; ``"uk"``: Ukrainian), or None to refuse it as above.
    """

    key: str
    default: Any
    help: str
    parse: Callable[[Any], Any] = text_setting
    choices: tuple[str, ...] | Callable[[], tuple[str, ...]] = ()
    flag: str | None = None
    env: str | None = None
    unset: bool = False
    meaning: Callable[[str], str | None] | None = None
    likely: Callable[[str], str | None] | None = None
    refusal: Callable[[str, tuple[str, ...]], str | None] | None = None

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
            text = text_setting(raw)
            if text not in allowed and self.meaning is not None and self.meaning(text) in allowed:
                return self.parse(self.meaning(text))  # "EL", "hu_HU", "greek": one choice without doubt
            refused = self.refusal(text, allowed) if self.refusal is not None and text not in allowed else None
            if refused is not None:  # "el-" is no language tag, "uk" is Ukrainian: said so, no guess
                raise ValueError(refused)
            if text not in allowed:
                close = [self.likely(text)] if self.likely is not None and self.likely(text) in allowed else []
                close = close or difflib.get_close_matches(text, allowed, n=1)
                if close:
                    raise ValueError(Text('{value} is not one of {allowed} (did you mean "{close}"?)',
                                          value=toml_value(text), allowed=", ".join(allowed), close=close[0]))
                raise ValueError(Text("{value} is not one of {allowed}", value=toml_value(text),
                                      allowed=", ".join(allowed)))
        return self.parse(raw)


SETTINGS: tuple[Setting, ...] = (
    Setting("camera.source", "auto",
            "where the frames come from: auto (the Pi camera, else a USB webcam), picamera2[:N], opencv:N, "
            "or a folder/video to replay", parse=source_setting, flag="--source"),
    Setting("camera.size", "auto",
            "frame size asked of the camera, WIDTHxHEIGHT in px (auto: 2304x1296 on the Pi camera, the "
            "webcam's own size otherwise)", parse=size_setting),
    Setting("gpio.next_pin", 17, "BCM pin of the Next button (to ground): the next phase in a game, read now with d6",
            parse=lambda v: pin_setting(v, False)),
    Setting("gpio.undo_pin", OFF, "BCM pin of an Undo button (to ground), or \"off\"",
            parse=lambda v: pin_setting(v, True)),
    Setting("gpio.led_pin", 27, "BCM pin of the status LED (through a resistor to ground)",
            parse=lambda v: pin_setting(v, False)),
    Setting("gpio.buzzer_pin", OFF, "BCM pin of an active buzzer (last round, game over), or \"off\"",
            parse=lambda v: pin_setting(v, True), flag="--buzzer-pin"),
    Setting("web.host", "0.0.0.0", "address the phone view listens on (0.0.0.0: every network of the box)",
            parse=host_setting, flag="--host"),
    Setting("web.port", 8080, "TCP port of the phone view", parse=port_setting, flag="--port"),
    Setting("web.announce", True, "announce the box on the network (mDNS: NAME.local and an _http._tcp service)",
            parse=flag_setting),
    Setting("box.name", "companion",
            "the box's name on the network: the phone view is announced under it, and NAME.local "
            "(letters and digits, spaces as -) reaches it", parse=box_name_setting),
    Setting("box.language", "en", "language of the touchscreen, the phone page (until a phone picks its own) and the "
            "command line: en, el (Greek), pl (Polish), hu (Hungarian)",
            choices=LANGUAGES, flag="--language", env="TABLETOP_LANGUAGE", meaning=language_code,
            likely=likely_language, refusal=language_refusal),
    Setting("box.data_dir", "",
            "folder of the session database, profiles and calibration (\"\": the user's data directory; "
            "the service's is /var/lib/tabletop-companion)", parse=folder_setting, env="TABLETOP_DATA_DIR"),
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

    parsed = parse_file(path, problem, CONFIG_ENV if by_variable else None)
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
