"""The ``companion`` command line.

    companion run  [--source auto] [options]      the main job: the camera (Pi camera, else a USB webcam)
    companion run --game GAME --players "Ann,Bob" [game options]   the at-table flow of a game (phones report)
    companion demo [FOLDER] [--once] [options]    the same on a replay of real photos (bundled ones by default)
    companion export [--db DB | --demo] [--session ID] (--json FILE | --bgstats FILE)   a finished game
    companion sessions [--db DB | --demo] [--json]   the sessions in a database (ids for --session)
    companion read IMAGE... --dice d6 [--json]    read the dice in photos and print what was seen
    companion read IMAGE... --dice roll --profile P [--json]   Roll for the Galaxy dice (colour and face)
    companion enroll roll-dice DIR [--name N]     learn the owner's Roll for the Galaxy dice from photos
    companion enroll roll-dice --guided [--source S] [--name N] [--keep DIR]
                                                  the same, photos taken by the box, pair by pair
    companion enroll eclipse-dice DIR [--name N]  learn the owner's Eclipse combat dice (DIR/<colour>-<face>/ photos)
    companion enroll cards DECK DIR               learn a deck of cards or tiles (DIR/<card-id>/ photos)
    companion enroll cards DECK DIR --hexes       learn Eclipse sector hexes (DIR/<sector-id>/ photos or scans)
    companion read IMAGE... --cards DECK [--json] every card or tile: id, corners, mm, row/col, cell, zone
                                                  (a hex deck: every sector hex under "hexes", "cards" empty)
    companion print-mat PATH                      the A4 calibration sheet (PNG or PDF)
    companion calibrate [--source S] [--lens IMAGE...] [--out FILE] [--deck DECK]   the table (and lens) calibration
    companion score GAME FILE [--json]            score an end-of-game position (the games with a score input)
    companion check GAME FILE [--json]            check a position for misplays (the games that check positions)

The games of ``--game`` are ``d6`` and those with a flow (``companion.flows.FLOWS``); their options
(``--races``, ``--advanced``, ...) are flags made from each game's declaration (:mod:`companion.game_options`).

This module is the parser and the dispatch; the options' argument types are in :mod:`companion.cli_types`, and each
command group is a module of :mod:`companion.commands`.

``read --json`` prints one JSON object per image and per line:
``{"image": PATH, "width": W, "height": H, "dice": [{"kind": "d6", "value": 1-6 or null,
"box": [x, y, w, h], "confidence": 0-1}]}``. Other tools depend on this shape.

Exit codes: 0 success; 1 some input could not be processed (each named on stderr, the
others still processed); 2 bad command line (a folder named where a file is wanted, as an option's file or a file to
write, is one); 3 no camera or another device problem.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from companion import i18n
from companion.cli_types import (
    corners_arg,
    frames_arg,
    hold_arg,
    host_arg,
    language_arg,
    port_arg,
    session_id_arg,
)
from companion.commands import EXIT_DEVICE, EXIT_INPUT, EXIT_OK, EXIT_USAGE, InputError
from companion.commands.files import given_path
from companion.config_language import language_code
from companion.i18n import LANGUAGES, _, pgettext, say
from companion.threads import set_threads

DEFAULT_PORT = 8080
DICE_KINDS = ("d6", "roll")

READING_COMMANDS = frozenset({"run", "demo", "read", "enroll", "calibrate"})
"""The commands that read images: their thread pools are set first (:func:`companion.threads.set_threads`)."""


def _other_dice_sets() -> list[Any]:
    """The sets of dice besides Roll for the Galaxy's (which has its own guided enrollment): ``companion enroll
    <name>-dice DIR`` for each (:func:`companion.commands.files.dice_sets`)."""
    from companion.commands.files import dice_sets

    return [d for name, d in dice_sets().items() if name != "roll"]


def box_games(flows: Mapping[str, Any]) -> tuple[str, ...]:
    """The games ``companion run|demo --game`` takes: ``choose`` (the game chooser), ``d6`` (read the dice) and every
    game with a flow."""
    return ("choose", "d6", *flows)


def _parser(flows: Mapping[str, Any] | None = None) -> argparse.ArgumentParser:
    """The command line; ``flows`` (default :data:`companion.flows.FLOWS`) gives the ``--game`` choices and
    the game option flags."""
    from companion.argparse_words import Parser
    from companion.flows import FLOWS
    from companion.game_options import add_game_flags, and_list, flows_infos, or_list

    flows = FLOWS if flows is None else flows
    flow_games = "|".join(flows)
    parser = Parser(
        prog="companion",
        description=_("Tabletop companion: runs {games} at a real table (and reads plain d6 dice): the camera reads "
                      "dice, cards, tiles and hexes, phones report, and the box tracks the round, checks for misplays, "
                      "scores the end and keeps each game's record.").format(
            games=and_list([spec.title for spec in flows.values()])),
    )
    parser.add_argument("-v", "--verbose", action="store_true", help=_("log debug details"))
    parser.add_argument("--language", type=language_arg, metavar="{" + ",".join(LANGUAGES) + "}",
                        help=_("the language of this command's messages and help, and of its --json output (default: "
                               "the box's, box.language; --json is English without this flag)"))
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def box_options(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--db",
            type=given_path,
            help=_(
                "session database (default: sessions.sqlite3 in the user's data directory; for the demo, this "
                "checkout's own demo database there)"
            ),
        )
        p.add_argument(
            "--new-session", action="store_true", help=_("start a new session instead of resuming the last one")
        )
        p.add_argument("--host", type=host_arg,
                       help=_("address the phone view listens on (default: all, for phones on the Wi-Fi)"))
        p.add_argument("--port", type=port_arg, help=_("phone view port (default {port})").format(port=DEFAULT_PORT))
        p.add_argument("--no-web", action="store_true", help=_("do not start the phone view"))
        p.add_argument(
            "--no-screen",
            action="store_true",
            help=_(
                "no touchscreen: the table plays from phones alone (a "
                "joined phone frees a seat, undoes for the table and "
                "may change the settings)"
            ),
        )
        p.add_argument("--windowed", action="store_true", help=_("draw the touchscreen in a window, not full screen"))
        p.add_argument(
            "--screenshot",
            type=given_path,
            help=_("save the touchscreen as this PNG after each read (and, in a game flow, after each change)"),
        )
        p.add_argument("--no-gpio", action="store_true", help=_("do not use the GPIO button and LED"))
        p.add_argument(
            "--game",
            choices=box_games(flows),
            help=_(
                "choose (the game chooser: the default of run on a camera; it comes back to the game the table was "
                "on), d6 (read the dice: the default of a replay of photos, as demo), or the at-table flow of {value}"
            ).format(value=or_list(list(flows))),
        )
        p.add_argument(
            "--players",
            help=_(
                'with --game {games}: players in seat order, "Ann,Bob" or "Ann:red,Bob:blue"; starts a new game'
            ).format(games=flow_games),
        )
        add_game_flags(p, flows_infos(flows))
        p.add_argument(
            "--buzzer-pin",
            type=int,
            metavar="BCM",
            help=_("BCM pin of an active buzzer (announces the last round; default: none)"),
        )
        p.add_argument(
            "--calibration",
            type=given_path,
            metavar="FILE",
            help=_("table calibration from `companion calibrate` (default: the saved one, if any; else pixels)"),
        )
        p.add_argument(
            "--deck",
            metavar="NAME|PATH",
            help=_(
                "with --game {games}: the enrolled deck (`companion enroll cards`; Eclipse's sector hexes "
                "with --hexes): read the cards or the map when the table is still"
            ).format(games=flow_games),
        )
        dice = {
            n: f.camera.dice_set for n, f in flows.items() if f.camera is not None and f.camera.dice_set is not None
        }
        enrolls = ", ".join(f"`companion enroll {d.name}-dice`" for d in dice.values())
        p.add_argument("--dice-profile", metavar="NAME|PATH",
                       help=_("with --game {games}: the dice profile of the game's dice ({enrolls}): read the dice "
                              "when the table is still").format(games="|".join(dice), enrolls=enrolls))
        p.add_argument("--max-frames", type=frames_arg, help=_("stop after this many frames (testing; at least 1)"))
        p.add_argument(
            "--config",
            type=given_path,
            metavar="FILE",
            help=_(
                "the configuration file (default: $TABLETOP_CONFIG, the user's, else "
                "/etc/tabletop-companion/config.toml); flags override it"
            ),
        )

    run = sub.add_parser(
        "run", help=_("the main job: the box at the table (the game chooser, a game, or d6 dice), with the camera")
    )
    run.add_argument(
        "--source", help=_("auto | picamera2[:N] | opencv:N | opencv:VIDEO | FOLDER | VIDEO (default auto)")
    )
    run.add_argument(
        "--hold",
        type=hold_arg,
        default=4.0,
        help=_("with a FOLDER source: seconds each photo stays on the table (default 4, at most 3600)"),
    )
    box_options(run)

    demo = sub.add_parser("demo", help=_("the main job on a replay of real photos; no camera needed"))
    demo.add_argument(
        "folder", nargs="?", type=given_path, help=_("folder of photos or a video (default: the bundled photos)"),
        # the usage line says it in the reader's language
        metavar=pgettext("a command line's placeholder for what the person types there, as in: usage: companion demo "
                         "[folder]", "folder"),
    )
    demo.add_argument(
        "--hold", type=hold_arg, default=4.0, help=_("seconds each photo stays on the table (default 4, at most 3600)")
    )
    demo.add_argument("--once", action="store_true", help=_("stop after one pass instead of looping"))
    demo.add_argument("--fast", action="store_true", help=_("do not pace the replay in real time"))
    box_options(demo)

    read = sub.add_parser("read", help=_("read the dice (or, with --cards, the cards, tiles or hexes) in photos and "
                                         "print what was seen"))
    read.add_argument(
        "images", nargs="+", type=given_path, metavar="IMAGE",
        help=_("one or more photos of the table (.jpg, .png ...); each is read and what was seen printed"),
    )
    read.add_argument(
        "--cards",
        metavar="DECK",
        help=_(
            "read cards and tiles, or Eclipse sector hexes with a hex deck "
            "(`enroll cards --hexes`), with this enrolled deck (a name or a "
            ".npz path) instead of dice; a card or hex read unsure, or a card or sector beyond the copies the box "
            "holds (each sector once), is printed \"?\" (--json keeps every read's id and confidence)"
        ),
    )
    read.add_argument(
        "--mirror",
        choices=("off", "on", "auto"),
        default=None,
        help=_(
            "with --cards: the camera gives mirror images (selfie webcams): on, off, or auto per frame "
            "(default: as the calibration keeps it for the deck, else decided once on the first image)"
        ),
    )
    read.add_argument(
        "--calibration",
        type=given_path,
        metavar="FILE",
        help=_(
            "with --cards: the table calibration from `companion calibrate` "
            "(default: the A4 sheet in view, else pixels)"
        ),
    )
    read.add_argument("--dice", choices=DICE_KINDS, default="d6", help=_("kind of dice (default d6)"))
    read.add_argument(
        "--profile", help=_("dice profile from `companion enroll` (a name or a .json path); needed for --dice roll")
    )
    read.add_argument("--json", action="store_true", help=_("one JSON object per image and line"))

    enroll = sub.add_parser("enroll", help=_("learn the owner's own dice, cards, tiles or sector hexes from photos"))
    enroll_sub = enroll.add_subparsers(dest="what", required=True, metavar="WHAT")
    roll_dice = enroll_sub.add_parser(
        "roll-dice", help=_("Roll for the Galaxy dice: DIR/<colour>-<face>/ folders of photos (e.g. white-explore/)")
    )
    roll_dice.add_argument(
        "folder",
        type=given_path,
        metavar="DIR",
        nargs="?",
        help=_("the folder of DIR/<colour>-<face>/ photos (not with --guided)"),
    )
    roll_dice.add_argument(
        "--name", default="roll", help=_("profile name (default roll), saved in the user's data directory")
    )
    roll_dice.add_argument("--out", type=given_path, help=_("save the profile here instead (a .json path)"))
    roll_dice.add_argument(
        "--guided",
        action="store_true",
        help=_("take the photos with the box's camera, pair by pair, guided on the touchscreen (or the terminal)"),
    )
    roll_dice.add_argument(
        "--source", help=_("with --guided: auto | picamera2[:N] | opencv:N | FOLDER | VIDEO (default auto)")
    )
    roll_dice.add_argument(
        "--keep",
        type=given_path,
        metavar="DIR",
        help=_(
            "with --guided: keep the photos in DIR (default: a new folder under the user's data directory); "
            "pairs DIR already has photos of are skipped, so this resumes a stopped enrollment"
        ),
    )
    roll_dice.add_argument(
        "--no-screen", action="store_true", help=_("with --guided: no touchscreen; answer on the terminal (Enter = OK)")
    )
    roll_dice.add_argument(
        "--windowed", action="store_true", help=_("with --guided: draw the touchscreen in a window, not full screen")
    )
    roll_dice.add_argument("--no-gpio", action="store_true", help=_("with --guided: do not use the GPIO button (OK)"))
    roll_dice.add_argument(
        "--screenshot",
        type=given_path,
        metavar="PNG",
        help=_("with --guided: save the touchscreen as this PNG at each step"),
    )
    for dice in _other_dice_sets():  # Eclipse's combat dice: the same enrollment from a folder of photos
        other = enroll_sub.add_parser(
            f"{dice.name}-dice",
            help=_(
                "{dice} dice: DIR/<colour>-<face>/ folders of photos (e.g. {example}/; "
                "colours {colours}, faces {faces})"
            ).format(
                dice=dice.title,
                example=dice.folders[-1],
                colours=", ".join(dice.colours),
                faces=", ".join(dice.all_faces),
            ),
        )
        other.add_argument(
            "folder", type=given_path, metavar="DIR", help=_("the folder of DIR/<colour>-<face>/ photos")
        )
        other.add_argument(
            "--name",
            default=dice.name,
            help=_("profile name (default {name}), saved in the user's data directory").format(name=dice.name),
        )
        other.add_argument("--out", type=given_path, help=_("save the profile here instead (a .json path)"))
    cards = enroll_sub.add_parser(
        "cards", help=_("a deck of cards or tiles: DIR/<card-id>/ folders of photos or scans")
    )
    cards.add_argument("deck", metavar="DECK", help=_("deck name (saved in the user's data directory) or a .npz path"))
    cards.add_argument("folder", type=given_path, metavar="DIR",
                       help=_("the folder of DIR/<card-id>/ folders, each holding photos or scans of one card"))
    cards.add_argument("--hexes", action="store_true",
                       help=_("the folders hold Eclipse sector hexes (DIR/<sector-id>/), not cards: build a hex deck"))

    cal = sub.add_parser(
        "calibrate", help=_("compute the table calibration from the printed sheet or corner markers in view")
    )
    cal.add_argument(
        "--source",
        default="auto",
        help=_("where the frame comes from: auto | picamera2[:N] | opencv:N | a photo | FOLDER | VIDEO (default auto)"),
    )
    cal.add_argument(
        "--lens",
        nargs="+",
        type=given_path,
        metavar="IMAGE",
        help=_("3 or more photos of the sheet at different tilts: also fit the lens distortion"),
    )
    cal.add_argument(
        "--corners",
        type=corners_arg,
        metavar="WxH[:M]",
        help=_(
            "four separate corner markers (ids 0-3 clockwise from top-left) around a W x H mm play area, "
            "each M mm (default 50), instead of the A4 sheet"
        ),
    )
    cal.add_argument(
        "--out",
        type=given_path,
        metavar="FILE",
        help=_("where to save it (default: calibration.json in the user's data directory)"),
    )
    cal.add_argument(
        "--deck",
        metavar="DECK",
        help=_(
            "an enrolled deck with some of its cards in view: decide once whether this camera mirrors "
            "them and keep it with the calibration"
        ),
    )

    mat = sub.add_parser("print-mat", help=_("write the A4 calibration sheet with its ArUco markers (PNG or PDF)"))
    mat.add_argument("path", type=given_path, metavar="PATH",
                     help=_("output file, .png or .pdf (its folder is made when missing)"))
    mat.add_argument("--force", action="store_true", help=_("replace a file already at PATH"))

    titles = or_list([spec.title for spec in flows.values()])
    export = sub.add_parser(
        "export", help=_("write a finished {titles} game (JSON, BG Stats play)").format(titles=titles)
    )
    export.add_argument(
        "--db", type=given_path, help=_("session database (default: sessions.sqlite3 in the user's data directory)")
    )
    export.add_argument(
        "--demo",
        action="store_true",
        help=_("the demo's database (this checkout's own, where `companion demo` records games)"),
    )
    export.add_argument(
        "--session",
        type=session_id_arg,
        help=_("session id (default: the newest {titles} game that has ended; with --unfinished, the newest)").format(
            titles=titles
        ),
    )
    export.add_argument(
        "--json",
        type=given_path,
        metavar="FILE",
        help=_("write the game as JSON (players, breakdowns, winners, events); - for standard output"),
    )
    export.add_argument(
        "--bgstats",
        type=given_path,
        metavar="FILE",
        help=_("write the BG Stats play record (JSON) and print its bgstats:// link; - for standard output"),
    )
    export.add_argument(
        "--unfinished", action="store_true", help=_("export a game that has not ended (scores as they stand)")
    )

    sessions = sub.add_parser(
        "sessions", help=_("list the sessions in a database: id, game, players, started, finished")
    )
    sessions.add_argument(
        "--db", type=given_path, help=_("session database (default: sessions.sqlite3 in the user's data directory)")
    )
    sessions.add_argument("--demo", action="store_true", help=_("the demo's database (this checkout's own)"))
    sessions.add_argument("--json", action="store_true", help=_("one JSON object per session and line"))

    from companion.scoring import add_check_parser, add_score_parser

    add_score_parser(sub)
    add_check_parser(sub)
    from companion.owner_commands import add_owner_parsers

    add_owner_parsers(sub)  # config show|check, doctor
    _described(parser)
    return parser


def _described(parser: argparse.ArgumentParser) -> None:
    """Give each command's parser (``doctor``, ``enroll cards`` ...) without a description of its own the line the
    list of commands shows for it, so its ``--help`` says what it does, not only its options."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for listed in action._choices_actions:
                command = action.choices.get(listed.dest)
                if command is None:
                    continue
                if command.description is None and listed.help:
                    command.description = listed.help
                _described(command)


class _FittedStream:
    """The command's standard output or error, each text fitted to its language as it is written: a message
    translated first and filled after (``_("...").format(...)``, argparse's own lines) reaches here finished, with
    Hungarian's "a(z) {x}" still open, and is printed with the article its word takes
    (:func:`companion.i18n.fit_articles`: "az 500000 port", "az eclipse pakli"), as a message said by the box is;
    other languages, and anything but ``str``, pass as they are. A player's name in a message is printed as the
    player wrote it: its own "a(z) " ("a(z) Éva") reaches here hidden (:func:`companion.i18n.kept_as_written`, or
    said under :func:`companion.i18n.fit_at_output`) and is shown again after the fitting
    (:func:`companion.i18n.as_written`); ``fit=False`` (data on standard output) only shows them again. Everything
    else (``fileno``, ``buffer``, ``flush``) is the stream's."""

    def __init__(self, stream: Any, fit: bool = True) -> None:
        self._stream = stream
        self._fit = fit

    def write(self, text: Any) -> Any:
        if isinstance(text, str):
            text = i18n.as_written(i18n.fit_articles(text, i18n.current_language()) if self._fit else text)
        return self._stream.write(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)

    @property
    def raw(self) -> Any:
        """The stream itself, whose writes are never fitted."""
        return self._stream


def _prints_data(args: argparse.Namespace) -> bool:
    """Whether the command writes data on standard output (``--json`` lines, ``export --json -`` or ``--bgstats -``):
    what the box recorded (a player's name) is printed exactly as it holds it, never fitted to a language."""
    flags = getattr(args, "json", None), getattr(args, "bgstats", None)
    return any(flag is True or str(flag) == "-" for flag in flags)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``companion`` console script; returns the exit code. Its messages and ``--help`` speak
    the language given with ``--language`` (anywhere on the line), else the box's (:func:`command_language`);
    what it prints is fitted to that language where it is printed (:class:`_FittedStream`)."""
    import os

    from companion.paths import DATA_DIR_ENV

    box, asked = i18n.box_language(), i18n.asked_language()
    data_folder = os.environ.get(DATA_DIR_ENV)
    streams = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = _FittedStream(sys.stdout), _FittedStream(sys.stderr)
    fitting = i18n.fit_at_output(True)  # what the command says is fitted where it is printed
    try:
        return _main(argv)
    except BrokenPipeError:  # output piped into `head` and closed early: not an error of ours
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except KeyboardInterrupt:  # Ctrl-C in a command other than run/demo (those stop cleanly themselves)
        return interrupted()
    except OSError as exc:  # a file problem no command expected (a name too long, a device gone): one line
        from companion.i18n import os_reason, say
        from companion.paths import DataFolderError

        # the system's reason in the players' words ("no such file or folder"); the data folder's own line (what to
        # set) is not the system's, and os_reason keeps it as it is
        problem = say(os_reason(exc))
        if exc.filename and str(exc.filename) not in problem:  # a path the message names already is not said again
            print(_("companion: {problem}: {path}").format(problem=problem, path=exc.filename), file=sys.stderr)
        else:
            print(_("companion: {problem}").format(problem=problem), file=sys.stderr)
        # no data folder: no session database, profile or calibration to work with (exit 3), not a bad input file
        return EXIT_DEVICE if isinstance(exc, DataFolderError) else EXIT_INPUT
    finally:  # an in-process caller (a test, a script) gets its languages and streams back
        sys.stdout, sys.stderr = streams
        i18n.reset_fit_at_output(fitting)
        i18n.set_box_language(box)
        i18n.ask_language(asked)
        if data_folder is None:  # the configuration's data folder was this command's only
            os.environ.pop(DATA_DIR_ENV, None)
        else:
            os.environ[DATA_DIR_ENV] = data_folder


def interrupted(argv: Sequence[str] | None = None) -> int:
    """Say that a Ctrl-C stopped the command, in the command's language, and return its exit code (130). ``argv``:
    the command line, when the Ctrl-C came before :func:`main` set its language (while the command was starting,
    :mod:`companion.console`); None: the language already set."""
    if argv is not None:
        _speak_language(list(argv))
    print(_("companion: interrupted; what the command had not saved yet is not saved"), file=sys.stderr)
    return 130


def _speak_language(argv: list[str]) -> list[str]:
    """Set the language ``argv`` asks for (``--language``, else the box's) for what the command says; returns the
    line with ``--language`` first, for the parser (:func:`command_language`)."""
    asked, argv = command_language(argv)
    i18n.ask_language(asked)
    i18n.set_box_language(asked or configured_language(argv))
    return argv


def command_language(argv: Sequence[str]) -> tuple[str | None, list[str]]:
    """The language a command line asks for with ``--language LANG`` (or ``--language=LANG``, anywhere on the line),
    and the line with that option first, where the parser takes it: ``(None, argv)`` when it asks for none (or for
    an unknown one, which the parser then refuses, naming the languages). A language written as ``box.language``
    takes it (``"EL"``, ``"hu_HU"``, ``"greek"``: :func:`companion.config_language.language_code`) is its code."""
    rest: list[str] = []
    asked: str | None = None
    given: list[str] = []
    k = 0
    argv = list(argv)
    while k < len(argv):
        arg = argv[k]
        if arg == "--language" and k + 1 < len(argv):
            given, k = [arg, argv[k + 1]], k + 2
            continue
        if arg.startswith("--language="):
            given, k = [arg], k + 1
            continue
        rest.append(arg)
        k += 1
    if given:
        value = given[-1].partition("=")[2] if len(given) == 1 else given[1]
        asked = value if value in LANGUAGES else language_code(value)  # "EL", "hu_HU", "greek": the language meant
        if asked is not None:
            given = ["--language", asked]
    return asked, given + rest


def configured_language(argv: Sequence[str]) -> str:
    """The box's language as the configuration says it (``--config FILE`` on the line, else the file found;
    ``$TABLETOP_LANGUAGE``; the settings screen's choice, the demo's own for ``demo``); English when none can be
    read."""
    from companion.box_settings import overlay_config
    from companion.config import load

    path = None
    for k, arg in enumerate(argv):
        if arg == "--config" and k + 1 < len(argv):
            path = Path(argv[k + 1])
        elif arg.startswith("--config="):
            path = Path(arg.partition("=")[2])
    demo = next((arg for arg in argv if not arg.startswith("-")), None) == "demo"  # the demo keeps its own settings
    try:
        return str(overlay_config(load(path), demo=demo)["box.language"])
    except Exception:  # a configuration that cannot be read: the command says so itself, in English
        return "en"


def _profile_name(name: str) -> bool:
    """Whether ``name`` is a dice profile's name for ``enroll --name`` (saved as ``<data dir>/profiles/<name>.json``):
    not empty, no path separator, no ``..``, and no file suffix (a path goes with ``--out``)."""
    return bool(name.strip()) and not any(part in name for part in ("/", "\\", "..")) and \
        not name.lower().endswith((".json", ".npz"))


def _main(argv: Sequence[str] | None) -> int:  # noqa: C901 - the command dispatch: one flat branch per command
    # the language first: a Ctrl-C while the commands are still being loaded is said in it too
    argv = _speak_language(list(sys.argv[1:] if argv is None else argv))
    from companion.argparse_words import speak
    from companion.commands import box, calibrate, enroll, export, read
    from companion.commands.files import deck_path, profile_path

    speak()
    args = _parser().parse_args(argv)
    if _prints_data(args) and isinstance(sys.stdout, _FittedStream):
        sys.stdout = _FittedStream(sys.stdout.raw, fit=False)  # data on stdout: as recorded; messages on stderr fitted
    from companion.owner_commands import OWNER_COMMANDS, use_configured_data_dir

    # config and doctor print their own report: the log adds only warnings to it (the camera replay they open, the
    # data folder they find are in that report already); -v shows the rest
    quiet = logging.WARNING if args.command in OWNER_COMMANDS else logging.INFO
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else quiet,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    # no line per phone request
    logging.getLogger("waitress").setLevel(logging.DEBUG if args.verbose else logging.WARNING)

    if args.command not in (*OWNER_COMMANDS, "run", "demo"):  # those read the configuration file themselves
        use_configured_data_dir()  # the games, profiles and calibration where the box keeps them
    if args.command in READING_COMMANDS:
        set_threads()  # the thread pools are set before the first read
    if args.command == "read":
        ignored = [opt for opt, given, used in (
            ("--profile", args.profile is not None, args.cards is None and args.dice == "roll"),
            ("--mirror", args.mirror is not None, args.cards is not None),
            ("--calibration", args.calibration is not None, args.cards is not None),
            ("--dice", args.dice != "d6", args.cards is None),
        ) if given and not used]
        if ignored:
            print(
                _(
                    "companion read: {value} does not apply here (--profile goes with --dice roll, --mirror and "
                    "--calibration with --cards, and --cards reads no dice)"
                ).format(value=', '.join(ignored)),
                file=sys.stderr,
            )
            return EXIT_USAGE
    if args.command == "read" and args.cards is not None:
        return read.cmd_read_cards(args.images, args.cards, args.json, args.mirror, args.calibration)
    if args.command == "read":
        return read.cmd_read(args.images, args.dice, args.json, args.profile)
    if args.command == "enroll" and args.what == "cards":
        try:
            out = deck_path(args.deck)
        except InputError as exc:
            print(_("companion enroll: {problem}").format(problem=say(exc)), file=sys.stderr)
            return exc.code
        return enroll.cmd_enroll_cards(args.folder, out, hexes=args.hexes)
    if args.command == "enroll" and args.what != "cards" and not _profile_name(args.name):
        from companion.paths import data_dir

        print(_("companion enroll {what}: --name {name!r} is a profile name, saved in {folder}: give a path with "
                "--out FILE.json").format(what=args.what, name=args.name, folder=data_dir() / "profiles"),
              file=sys.stderr)
        return EXIT_USAGE
    if args.command == "enroll" and args.what != "roll-dice":  # another game's dice, from a folder
        from companion.commands.files import dice_sets

        return enroll.cmd_enroll_dice(args.folder, args.out or profile_path(args.name),
                                      dice_sets()[args.what.removesuffix("-dice")])
    if args.command == "enroll" and args.guided:
        if args.folder is not None:
            print(
                _("companion enroll roll-dice: --guided takes no DIR: give the photo folder with --keep DIR"),
                file=sys.stderr,
            )
            return EXIT_USAGE
        return enroll.cmd_enroll_guided(args)
    if args.command == "enroll":
        guided_only = [
            opt
            for opt, given in (
                ("--source", args.source is not None),
                ("--keep", args.keep is not None),
                ("--no-screen", args.no_screen),
                ("--windowed", args.windowed),
                ("--no-gpio", args.no_gpio),
                ("--screenshot", args.screenshot is not None),
            )
            if given
        ]
        if args.folder is None or guided_only:
            if guided_only:
                print(_("companion enroll roll-dice: give DIR (a folder of <colour>-<face>/ photos), or --guided; "
                        "{flags} goes with --guided").format(flags=", ".join(guided_only)), file=sys.stderr)
            else:
                print(_("companion enroll roll-dice: give DIR (a folder of <colour>-<face>/ photos), or --guided"),
                      file=sys.stderr)
            return EXIT_USAGE
        return enroll.cmd_enroll_roll_dice(args.folder, args.out or profile_path(args.name))
    if args.command == "print-mat":
        return calibrate.cmd_print_mat(args.path, force=args.force)
    if args.command == "calibrate":
        return calibrate.cmd_calibrate(args.source, args.lens or [], args.out, args.corners, args.deck)
    if args.command == "export":
        return export.cmd_export(args)
    if args.command == "sessions":
        return export.cmd_sessions(args)
    from companion.owner_commands import run_owner_command

    if args.command in OWNER_COMMANDS:
        return run_owner_command(args)
    if args.command in ("score", "check"):
        from companion.scoring import cmd_check, cmd_score

        return (cmd_score if args.command == "score" else cmd_check)(args)
    return box.cmd_box(args)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
