"""The owner's commands: ``companion config show|check`` and ``companion doctor``, and the
configuration file read at the box's start (``run``/``demo``).

    companion config show [--config FILE] [--port N ...]   the effective settings and where each came from
    companion config check [FILE]                          validate a configuration file
    companion config init FILE                             write the commented default file (never over a file)
    companion doctor [--config FILE] [--json]              the box's health, one line per check

``config show`` prints one line per setting, ``KEY = VALUE  # ORIGIN`` with ORIGIN ``default``,
``FILE:LINE``, ``flag --port`` or ``environment VAR`` (in Greek, Polish or Hungarian: said in that language, the
file and line as they are). ``config check`` prints ``FILE: ok`` (exit 0) or
one ``FILE:LINE: KEY: problem`` line per problem (exit 1). ``config init FILE`` writes the commented default file
(``companion/data/config.toml``) at FILE, exit 0; a FILE already there is left as it is (exit 1). ``doctor`` prints
``OK|WARN|FAIL  KEY  MESSAGE`` per check (:mod:`companion.doctor`) and exits 0 when none FAILs, else 1.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import shlex
import sys
from pathlib import Path
from typing import Any

from companion.commands.files import given_path
from companion.config import (
    CONFIG_ENV,
    SETTINGS,
    Config,
    Problem,
    default_file_text,
    find_config,
    load,
    toml_value,
    user_config_path,
)
from companion.i18n import _, asked_language, localize, message_of, pgettext, say

__all__ = ["OWNER_COMMANDS", "add_owner_parsers", "apply_box_config", "run_owner_command",
           "use_configured_data_dir"]

log = logging.getLogger("companion")

OWNER_COMMANDS = ("config", "doctor")
"""The commands this module adds to ``companion``."""

EXIT_OK, EXIT_INPUT, EXIT_USAGE = 0, 1, 2


def flag_dest(flag: str) -> str:
    """argparse's attribute for a flag: ``"--buzzer-pin"`` -> ``"buzzer_pin"``."""
    return flag.lstrip("-").replace("-", "_")


def _from_text(text: str) -> Any:
    """A flag's text as the TOML value it stands for: a whole number, true/false, else the text."""
    stripped = text.strip()
    if stripped.lstrip("-").isdigit():
        return int(stripped)
    return {"true": True, "false": False}.get(stripped, text)


def add_owner_parsers(sub: Any) -> None:
    """Add ``config`` and ``doctor`` to ``companion``'s subcommands (``sub``: argparse's subparsers)."""
    config = sub.add_parser("config", help=_("the box's configuration file: show the effective settings, check a "
                                             "file, write the default one"))
    what = config.add_subparsers(dest="config_command", required=True, metavar="WHAT")
    show = what.add_parser(
        "show", help=_("every setting, its value and where it came from (default, FILE:LINE, flag, environment)")
    )
    show.add_argument(
        "--config",
        type=given_path,
        metavar="FILE",
        help=_(
            "the configuration file (default: ${variable}, {path}, else /etc/tabletop-companion/config.toml)"
        ).format(variable=CONFIG_ENV, path=user_config_path()),
    )
    for s in SETTINGS:
        if s.flag:
            show.add_argument(
                s.flag,
                dest=f"set_{flag_dest(s.flag)}",
                metavar="VALUE",
                help=_("as `companion run {flag}`: shows {key} from the flag").format(flag=s.flag, key=s.key),
            )
    check = what.add_parser("check", help=_("validate a configuration file: exit 0 ok, 1 with one line per problem"))
    check.add_argument(
        "file", type=given_path, nargs="?", metavar="FILE", help=_("the file (default: the one the box reads)")
    )
    init = what.add_parser("init", help=_("write the commented default configuration file at FILE (a file already "
                                          "there is never replaced)"))
    init.add_argument("file", type=given_path, metavar="FILE",
                      help=_("where to write it, e.g. {path} (its folder is made if missing)").format(
                          path=user_config_path()))
    doctor = sub.add_parser(
        "doctor", help=_("check the box's health: camera, light, calibration, disk, database, clock, network, service")
    )
    doctor.add_argument(
        "--config", type=given_path, metavar="FILE", help=_("the configuration file (default: the one the box reads)")
    )
    doctor.add_argument(
        "--json", action="store_true", help=_("print the results as one JSON array of {key, level, message}")
    )


def run_owner_command(args: argparse.Namespace) -> int:
    """Run ``config show``, ``config check`` or ``doctor`` from parsed ``args``; returns the exit code."""
    if args.command == "doctor":
        return cmd_doctor(args)
    if args.config_command == "check":
        return cmd_config_check(args.file)
    if args.config_command == "init":
        return cmd_config_init(args.file)
    return cmd_config_show(args)


def _shown(config: Config, key: str) -> tuple[str, str]:
    value = config.values[key]
    raw = value.raw if isinstance(value.raw, (str, int, bool)) else value.value
    origin = value.origin
    if key == "box.data_dir" and not value.value:
        import platformdirs

        from companion.paths import APP_NAME

        return f"{key} = {toml_value(raw)}", _origin_said(origin) + _(" (the user's data directory: {path})").format(
            path=platformdirs.user_data_dir(APP_NAME))
    return f"{key} = {toml_value(raw)}", _origin_said(origin)


def _origin_said(origin: str) -> str:
    """Where a setting came from (:attr:`companion.config.Value.origin`: ``default``, ``PATH:LINE``, ``flag --port``,
    ``environment VAR``, ``the settings screen (PATH)``) in the command's language; ``PATH:LINE`` as it is."""
    kind, _space, rest = origin.partition(" ")
    if origin == "default":
        return pgettext("where a setting's value comes from, in `companion config show`", "default")
    if kind == "flag":
        return _("flag {flag}").format(flag=rest)
    if kind == "environment":
        return _("environment {variable}").format(variable=rest)
    if origin.startswith("the settings screen (") and origin.endswith(")"):
        return _("the settings screen ({path})").format(path=origin.removeprefix("the settings screen (")[:-1])
    return origin


def cmd_config_show(args: argparse.Namespace) -> int:
    """``companion config show``: exit 0 (problems of the file are listed on stderr, as the box logs them); 2 when
    ``--config FILE`` cannot be read as a configuration at all (as ``run`` and ``demo`` refuse it). A file
    ``$TABLETOP_CONFIG`` names that cannot be read (missing, a folder, not TOML) is said in the header, with the
    defaults listed under it: the box starts on them, logging the same problem."""
    config = load(args.config)
    unread = _named_file_unread(args.config, config)
    if unread:
        print(_("companion config show: {problem}").format(problem=unread), file=sys.stderr)
        return 2
    _use_data_dir(config)
    _with_box_settings(config)
    for s in SETTINGS:
        given = vars(args).get(f"set_{flag_dest(s.flag)}") if s.flag else None
        if given is not None:
            try:
                config.override(s.key, _from_text(given), f"flag {s.flag}")
            except ValueError as exc:
                print(
                    _("companion config show: {flag} {given}: {problem}").format(
                        flag=s.flag, given=given, problem=say(exc)
                    ),
                    file=sys.stderr,
                )
                return 2
    unread = [p for p in config.problems if p.key is None and p.path == config.path]
    if config.path is None:
        print(_("# no configuration file (looked for {path} and /etc/tabletop-companion/config.toml): the defaults")
              .format(path=user_config_path()))
    elif config.version is None and unread:  # $TABLETOP_CONFIG names a file the box cannot read: it starts on these
        where = f"{config.path}:{unread[0].line}" if unread[0].line else str(config.path)
        print(_("# configuration file {path} not read ({problem}): the box starts on the defaults below")
              .format(path=where, problem=say(unread[0].message)))
    elif config.version:
        print(_("# configuration file {path} (version {version})").format(path=config.path, version=config.version))
    else:
        print(_("# configuration file {path}").format(path=config.path))
    lines = [_shown(config, s.key) for s in SETTINGS]
    width = max(len(text) for text, _ in lines)
    for text, origin in lines:
        print(f"{text:<{width}}  # {origin}")
    for problem in config.problems:
        print(_("problem: {problem}").format(problem=say(problem.text())), file=sys.stderr)
    return EXIT_OK


def cmd_config_check(path: Path | None) -> int:
    """``companion config check [FILE]``: ``FILE: ok`` and exit 0, else one line per problem and exit 1 (a
    ``camera.source`` replay the box cannot open is one: :func:`_source_unopenable`; a ``box.data_dir`` the box cannot
    make or write is another: :func:`_data_dir_unmakeable`)."""
    given = path
    path = path if path is not None else find_config()
    if path is None:
        print(_("companion config check: no configuration file to check (none at {path} or "
                "/etc/tabletop-companion/config.toml): give FILE").format(path=user_config_path()), file=sys.stderr)
        return EXIT_INPUT
    # the file alone: the environment's settings are not the file's business (only $TABLETOP_CONFIG, which may name it)
    config = load(given, env={CONFIG_ENV: os.environ.get(CONFIG_ENV, "")} if given is None else {})
    for found in (_source_unopenable(config), _data_dir_unmakeable(config)):
        if found is not None:
            config.problems.append(found)
    if config.problems:
        for problem in config.problems:
            print(say(problem.text()))  # the file, line and key as written; what is wrong in the command's language
        return EXIT_INPUT
    given = sum(1 for v in config.values.values() if v.origin != "default")
    if given < len(SETTINGS):
        said = _("{path}: ok (version {version}, {given} of {count} settings set, the rest default)")
    else:
        said = _("{path}: ok (version {version}, {given} of {count} settings set)")
    print(said.format(path=path, version=config.version, given=given, count=len(SETTINGS)))
    return EXIT_OK


def cmd_config_init(path: Path) -> int:
    """``companion config init FILE``: the commented default configuration (:func:`companion.config.default_file_text`)
    written at ``path``, its folder made when missing; exit 0. Exit 1, nothing written, when a file is already at
    ``path`` (an owner's file is never replaced) or the file cannot be written; exit 2 when ``path`` is a folder (a
    bad command line, as everywhere a folder is given for a file). The text
    is written whole to a hidden file beside ``path`` first and linked to ``path`` only then (:func:`_write_new`):
    ``path`` is never left empty or cut short."""
    from companion.commands.files import folder_problem
    from companion.i18n import os_reason

    path = path.expanduser()
    typed = shlex.quote(str(path))  # the path in a command to copy, quoted when it holds a space
    there = _("{path} is already there: it is not replaced (`companion config check {typed}` checks it)")
    problem = folder_problem(path)
    if problem is not None:
        print(_("companion config init: {problem}").format(problem=problem), file=sys.stderr)
        return EXIT_USAGE
    if path.exists() or path.is_symlink():
        problem = there.format(path=path, typed=typed)
    if problem is None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:  # a file where one of its folders should be (EEXIST), a read-only disk
            problem = _("cannot write {path}: {problem}").format(path=path, problem=say(os_reason(exc)))
    if problem is None:
        try:
            _write_new(path, default_file_text())
        except FileExistsError:  # made between the look and the write
            problem = there.format(path=path, typed=typed)
        except OSError as exc:
            problem = _("cannot write {path}: {problem}").format(path=path, problem=say(os_reason(exc)))
    if problem is not None:
        print(_("companion config init: {problem}").format(problem=problem), file=sys.stderr)
        return EXIT_INPUT
    print(_("{path}: the default configuration written: edit it, then check it with `companion config check "
            "{typed}`").format(path=path, typed=typed))
    return EXIT_OK


def _write_new(path: Path, text: str) -> None:
    """``text`` as a new file at ``path``, whole or not at all: written and synced to a hidden file in the same folder,
    then hard-linked to ``path`` (which fails when anything is there, never replacing it); a file system without hard
    links gets the file made exclusively and removed again if the write fails. Its permission bits follow the
    owner's umask, as a plain write's do (0o666 less it: 0o644 under the usual 022, 0o600 under 077), as the box's
    other files the owner keeps (decks, dice profiles, exports: :data:`companion.paths.BY_UMASK`).

    Raises:
        FileExistsError: something is at ``path``.
        OSError: the folder cannot be written (read-only, full, no permission).
    """
    from companion.paths import plain_spare

    data = text.encode("utf-8")
    fd, spare = plain_spare(path)  # asked for 0o666: the kernel takes the umask off, as for a plain write
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        try:
            os.link(spare, path)
            return
        except FileExistsError:
            raise
        except OSError:  # no hard links here (a FAT stick): made exclusively, removed again if the write fails
            pass
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(data)
                out.flush()
                os.fsync(out.fileno())
        except BaseException:
            path.unlink(missing_ok=True)
            raise
    finally:
        Path(spare).unlink(missing_ok=True)


def _source_unopenable(config: Config) -> Problem | None:
    """The file's ``camera.source`` when it names a file the box cannot replay (``replay:PATH``, a folder, photo or
    video path, ``opencv:PATH``): opened and closed as ``run`` and ``doctor`` open it (``device.open_source``), so
    ``config check`` names what they name (``/photos does not exist: ...``), at the file's line; None when it opens,
    or names a camera (``auto``, ``picamera2``, ``opencv:N``: not opened here, the box's service may hold it;
    ``companion doctor`` looks at it)."""
    from device import DeviceError, open_source, parse_source

    origin = config.origin("camera.source")
    if config.path is None or not origin.startswith(str(config.path)):  # the default, or not the file's
        return None
    spec = str(config["camera.source"])
    kind, target = parse_source(spec)  # the form was checked when the file was read
    if not (kind == "replay" or (kind == "opencv" and isinstance(target, str))):
        return None
    try:
        with open_source(spec, loop=False, hold_frames=1, realtime=False):
            pass
    except (DeviceError, ValueError) as exc:
        line = origin.rpartition(":")[2]
        return Problem(config.path, int(line) if line.isdigit() else None, "camera.source", message_of(exc))
    return None


def _data_dir_unmakeable(config: Config) -> Problem | None:
    """The file's ``box.data_dir`` when the box could not make or write it (``"/proc/nope"``, a read-only disk, a file
    of that name: ``run`` and ``demo`` would exit 3 there), at the file's line, said as the box says it at start
    (:func:`companion.paths.data_dir_problem`; nothing is made); None when it can, or the setting is not the file's."""
    from companion.paths import data_dir_problem

    origin = config.origin("box.data_dir")
    if config.path is None or not origin.startswith(str(config.path)) or not config["box.data_dir"]:
        return None
    problem = data_dir_problem(Path(config["box.data_dir"]))
    if problem is None:
        return None
    line = origin.rpartition(":")[2]
    return Problem(config.path, int(line) if line.isdigit() else None, "box.data_dir", problem)


def cmd_doctor(args: argparse.Namespace) -> int:
    """``companion doctor``: one line per check; exit 0 when no check FAILs, else 1."""
    from companion.doctor import DoctorContext, Level, as_json, format_line, run_checks

    config = load(args.config)
    _use_data_dir(config)
    results = run_checks(DoctorContext(config))
    if args.json:
        asked = asked_language()
        print(as_json(results) if asked is None else json.dumps(localize([r.as_dict() for r in results], asked),
                                                                ensure_ascii=False))
    else:
        for result in results:
            print(format_line(result), flush=True)
    return EXIT_INPUT if any(r.level is Level.FAIL for r in results) else EXIT_OK


def _named_file_unread(named: Path | None, config: Config) -> str:
    """Why the file given with ``--config`` (``named``) could not be read as a configuration at all (missing,
    unreadable, not UTF-8, not TOML), said in the command's language as ``--config FILE:LINE: what``; "" when it
    was read (or none was named: a file found on its own only warns, the box starts on the defaults)."""
    if named is None or config.version is not None:
        return ""
    return _("--config {problem}").format(problem="; ".join(say(p.text()) for p in config.problems if p.key is None))


def _use_data_dir(config: Config) -> None:
    """A ``box.data_dir`` from the file becomes ``$TABLETOP_DATA_DIR`` for this process, where every part
    of the box finds its data folder (:func:`companion.paths.data_dir`); the variable, when set, already won."""
    from companion.paths import DATA_DIR_ENV

    if config["box.data_dir"] and config.origin("box.data_dir") != f"environment {DATA_DIR_ENV}":
        os.environ[DATA_DIR_ENV] = str(Path(config["box.data_dir"]).expanduser())


def _said_at_start(config: Config) -> list[Problem]:
    """The problems of the configuration a command logs as it starts, each followed by "the box goes on with the
    defaults": all but a ``$TABLETOP_DATA_DIR`` naming a file, which the box does not replace by the default data
    folder; the command that needs the folder refuses it once, the file named (exit 3,
    :func:`companion.paths.data_dir`)."""
    from companion.paths import DATA_DIR_ENV, data_dir_is_a_file

    if not data_dir_is_a_file():
        return list(config.problems)
    return [p for p in config.problems if not (str(p.path) == f"${DATA_DIR_ENV}" and p.key == "box.data_dir")]


def use_configured_data_dir() -> None:
    """The data folder of the configuration file found (``box.data_dir``) for a command other than
    ``companion run|demo|config|doctor`` (which read the file themselves): ``sessions``, ``export``, ``enroll``,
    ``calibrate`` then read and write where the box records its games, profiles and calibration.

    A file that cannot be read, or a bad ``box.data_dir`` or ``box.language``, leaves the default: each such
    problem is logged (a warning, in the command's language), since the command then looks elsewhere or speaks
    English; the file's other settings are not this command's and stay for ``companion config check``."""
    config = load()
    mine = [p for p in _said_at_start(config) if p.key in (None, "box.data_dir", "box.language")]
    for problem in mine:
        log.warning("%s", _("configuration: {problem}").format(problem=say(problem.text())))
    if mine:
        log.warning("%s", _("configuration: `companion config check` lists the problems; the box goes on with the "
                            "defaults"))
    _use_data_dir(config)


def apply_box_config(args: argparse.Namespace) -> Config:
    """The configuration for ``companion run|demo``: the file (``--config FILE``, else the one found),
    then the environment, then the flags given on the command line (flags left unset are None).

    Fills every flag the configuration backs (``--source``, ``--host``, ``--port``, ``--game``,
    ``--buzzer-pin``) from it, sets ``$TABLETOP_DATA_DIR`` from ``box.data_dir`` (for the demo, a temporary folder
    when that one cannot be written: :func:`companion.demo_folder.demo_data_folder`), logs each problem of the file
    (the box starts with the defaults of the bad settings), and returns the :class:`Config`.

    Raises:
        companion.commands.UsageError: ``--config FILE`` names a file that is no configuration at all (missing,
            unreadable, not UTF-8, not TOML): the command line asked for that file, so the box does not start
            on the defaults; the message names the file, the line and what is wrong.
    """
    from companion.demo_folder import demo_data_folder

    named = vars(args).get("config")
    config = load(named)
    unread = _named_file_unread(named, config)
    if unread:
        from companion.commands import UsageError

        raise UsageError(unread)
    said = _said_at_start(config)
    for problem in said:  # the owner reads these at the start: in the command's language
        log.warning("%s", _("configuration: {problem}").format(problem=say(problem.text())))
    if said:
        log.warning("%s", _("configuration: `companion config check` lists the problems; the box goes on with the "
                            "defaults"))
    for s in SETTINGS:
        if not s.flag:
            continue
        dest = flag_dest(s.flag)
        if dest not in vars(args):  # demo has no --source: it replays a folder
            continue
        given = vars(args)[dest]
        if given is not None:  # the flag's value was checked by its own argparse type
            config.values[s.key] = type(config.values[s.key])(given, given, f"flag {s.flag}")
        setattr(args, dest, config[s.key])
    _use_data_dir(config)
    try:  # the demo plays in a temporary folder when the data folder cannot be written; run refuses it later
        demo_data_folder(getattr(args, "command", None))
    except OSError as exc:  # not even a temporary folder: the demo refuses the data folder as run does
        log.debug("no temporary folder for the demo: %s", exc)
    _with_box_settings(config, demo=getattr(args, "command", None) == "demo")
    return config


def _with_box_settings(config: Config, demo: bool = False) -> None:
    """The settings screen's language over the file's (``box-settings.json`` in the data folder; the demo's own file
    for ``demo``)."""
    from companion.box_settings import overlay_config
    from companion.paths import DataFolderError

    try:
        overlay_config(config, demo=demo)
    except DataFolderError as exc:  # no data folder: the file's settings hold; a command that needs the folder says so
        log.debug("the settings screen's choices cannot be read: %s", exc)
    except OSError as exc:  # the folder is there but its settings file cannot be read: the file's settings hold
        log.warning("the settings screen's choices cannot be read: %s", exc)
