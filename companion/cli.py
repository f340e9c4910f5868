"""The ``companion`` command line.

    companion run  [--source auto] [options]      the main job: the camera (Pi camera, else a USB webcam)
    companion run --game GAME --players "Ann,Bob" [game options]   the at-table flow of a game (phones report)
    companion demo [FOLDER] [--once] [options]    the same on a replay of real photos (bundled ones by default)
    companion export [--db DB | --demo] [--session ID] (--json FILE | --bgstats FILE)   a finished game
    companion sessions [--db DB | --demo] [--json]   the sessions in a database (ids for --session)
    companion read IMAGE... --dice d6 [--json]    read the dice in photos and print what was seen
    companion read IMAGE... --dice roll --profile P [--json]   Roll for the Galaxy dice (colour and face)
    companion enroll roll-dice DIR [--name N]     learn the owner's Roll for the Galaxy dice from photos
    companion enroll roll-dice --guided [--source S] [--name N] [--keep DIR]   the same, photos taken by the box, pair by pair
    companion enroll cards DECK DIR               learn a deck of cards or tiles (DIR/<card-id>/ photos)
    companion enroll cards DECK DIR --hexes       learn Eclipse sector hexes (DIR/<sector-id>/ photos or scans)
    companion read IMAGE... --cards DECK [--json] every card or tile: id, corners, mm, row/col, cell, zone
                                                  (a hex deck: every sector hex under "hexes", "cards" empty)
    companion print-mat PATH                      the A4 calibration sheet (PNG or PDF)
    companion calibrate [--source S] [--lens IMAGE...] [--out FILE]   the table (and lens) calibration
    companion score GAME FILE [--json]            score an end-of-game position (the games with a score input)
    companion check GAME FILE [--json]            check a position for misplays (the games that check positions)

The games of ``--game`` are ``d6`` and those with a flow (``companion.flows.FLOWS``); their options
(``--races``, ``--advanced``, ...) are flags made from each game's declaration (:mod:`companion.game_options`).

``read --json`` prints one JSON object per image and per line:
``{"image": PATH, "width": W, "height": H, "dice": [{"kind": "d6", "value": 1-6 or null,
"box": [x, y, w, h], "confidence": 0-1}]}``. Other tools depend on this shape.

Exit codes: 0 success; 1 some input could not be processed (each named on stderr, the
others still processed); 2 bad command line; 3 no camera or another device problem.
"""

from __future__ import annotations

import argparse
import json
import logging
import signal
import sys
from concurrent.futures import ThreadPoolExecutor
from importlib import resources
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from companion.actions import Action

EXIT_OK, EXIT_INPUT, EXIT_USAGE, EXIT_DEVICE = 0, 1, 2, 3
DEFAULT_PORT = 8080
DICE_KINDS = ("d6", "roll")

log = logging.getLogger("companion")


def demo_photos() -> Path:
    """The folder of real dice photos bundled with the package (BSD-3, see its README)."""
    return Path(str(resources.files("companion") / "demo" / "photos"))


def _port(text: str) -> int:
    """argparse type: a TCP port 1-65535 (0 = pick a free one)."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"port {port} is outside 0-65535")
    return port


def _seconds(text: str) -> float:
    """argparse type: a positive number of seconds."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not value > 0 or value == float("inf"):  # also NaN
        raise argparse.ArgumentTypeError(f"{text} s: give a positive number of seconds")
    return value


MAX_HOLD_S = 3600.0
"""Longest ``--hold``: an hour per photo is already far more than any demo needs."""


MIN_HOLD_S = 1.0
"""Shortest ``--hold``: a replayed photo must stay longer than the stillness wait (``MotionConfig.still_seconds``,
0.6 s) plus the motion of the change, or it is never read."""


def _hold(text: str) -> float:
    """argparse type: ``--hold`` seconds, finite, at least :data:`MIN_HOLD_S` and at most :data:`MAX_HOLD_S`."""
    value = _seconds(text)
    if value > MAX_HOLD_S:
        raise argparse.ArgumentTypeError(f"{text} s: give at most {MAX_HOLD_S:.0f} seconds")
    if value < MIN_HOLD_S:
        raise argparse.ArgumentTypeError(f"{text} s: give at least {MIN_HOLD_S:g} s (the box reads once the table has "
                                         "been still for a moment; a shorter photo is never read)")
    return value


def _frames(text: str) -> int:
    """argparse type: a frame count >= 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of frames") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value}: give at least 1 frame")
    return value


def _corners(text: str) -> tuple[float, float, float]:
    """argparse type: ``"WxH"`` or ``"WxH:M"`` in mm -> (width, height, marker side)."""
    size, _, marker = text.lower().partition(":")
    try:
        w, h = (float(v) for v in size.split("x"))
        m = float(marker) if marker else 50.0
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: give the play area as WIDTHxHEIGHT in mm, e.g. 900x600 or 900x600:40") from None
    if not (w > 0 and h > 0 and 0 < m < min(w, h) / 2):
        raise argparse.ArgumentTypeError(f"{text!r}: sizes must be positive and the markers smaller than half the area")
    return w, h, m


def box_games(flows: Mapping[str, Any]) -> tuple[str, ...]:
    """The games ``companion run|demo --game`` takes: ``d6`` (read the dice) and every game with a flow."""
    return ("d6", *flows)


def _parser(flows: Mapping[str, Any] | None = None) -> argparse.ArgumentParser:
    """The command line; ``flows`` (default :data:`companion.flows.FLOWS`) gives the ``--game`` choices and
    the game option flags."""
    from companion.flows import FLOWS
    from companion.game_options import add_game_flags, flows_infos, or_list

    flows = FLOWS if flows is None else flows
    flow_games = "|".join(flows)
    parser = argparse.ArgumentParser(
        prog="companion",
        description="Tabletop companion: reads the dice on the table and keeps the game's record.",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug details")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def box_options(p: argparse.ArgumentParser) -> None:
        p.add_argument("--db", type=Path, help="session database (default: sessions.sqlite3 in the user's data directory; demo.sqlite3 for the demo)")
        p.add_argument("--new-session", action="store_true", help="start a new session instead of resuming the last one")
        p.add_argument("--host", default="0.0.0.0", help="address the phone view listens on (default: all, for phones on the Wi-Fi)")
        p.add_argument("--port", type=_port, default=DEFAULT_PORT, help=f"phone view port (default {DEFAULT_PORT})")
        p.add_argument("--no-web", action="store_true", help="do not start the phone view")
        p.add_argument("--no-screen", action="store_true", help="do not draw the touchscreen")
        p.add_argument("--windowed", action="store_true", help="draw the touchscreen in a window, not full screen")
        p.add_argument("--screenshot", type=Path, help="save the touchscreen as this PNG after each read (and, in a game flow, after each change)")
        p.add_argument("--no-gpio", action="store_true", help="do not use the GPIO button and LED")
        p.add_argument("--game", choices=box_games(flows), default="d6",
                       help=f"d6 (default: read the dice), or the at-table flow of {or_list(list(flows))}")
        p.add_argument("--players", help=f'with --game {flow_games}: players in seat order, "Ann,Bob" or "Ann:red,Bob:blue"; starts a new game')
        add_game_flags(p, flows_infos(flows))
        p.add_argument("--buzzer-pin", type=int, metavar="BCM", help="BCM pin of an active buzzer (announces the last round; default: none)")
        p.add_argument("--calibration", type=Path, metavar="FILE",
                       help="table calibration from `companion calibrate` (default: the saved one, if any; else pixels)")
        p.add_argument("--deck", metavar="NAME|PATH",
                       help=f"with --game {flow_games}: the enrolled deck (`companion enroll cards`): read the cards when the table is still")
        p.add_argument("--dice-profile", metavar="NAME|PATH",
                       help="with --game roll: the dice profile (`companion enroll roll-dice`): propose the phases from the dice")
        p.add_argument("--max-frames", type=_frames, help="stop after this many frames (testing; at least 1)")

    run = sub.add_parser("run", help="the main job: read the dice from the camera")
    run.add_argument("--source", default="auto", help="auto | picamera2[:N] | opencv:N | opencv:VIDEO | FOLDER | VIDEO (default auto)")
    run.add_argument("--hold", type=_hold, default=4.0, help="with a FOLDER source: seconds each photo stays on the table (default 4, at most 3600)")
    box_options(run)

    demo = sub.add_parser("demo", help="the main job on a replay of real photos; no camera needed")
    demo.add_argument("folder", nargs="?", type=Path, help="folder of photos or a video (default: the bundled photos)")
    demo.add_argument("--hold", type=_hold, default=4.0, help="seconds each photo stays on the table (default 4, at most 3600)")
    demo.add_argument("--once", action="store_true", help="stop after one pass instead of looping")
    demo.add_argument("--fast", action="store_true", help="do not pace the replay in real time")
    box_options(demo)

    read = sub.add_parser("read", help="read the dice in photos and print what was seen")
    read.add_argument("images", nargs="+", type=Path, metavar="IMAGE")
    read.add_argument("--cards", metavar="DECK", help="read cards and tiles with this enrolled deck (a name or a .npz path) instead of dice")
    read.add_argument("--mirror", choices=("off", "on", "auto"), default="off",
                      help="with --cards: the camera gives mirror images (selfie webcams): on, off, or auto per frame")
    read.add_argument("--calibration", type=Path, metavar="FILE",
                      help="with --cards: the table calibration from `companion calibrate` (default: the A4 sheet in view, else pixels)")
    read.add_argument("--dice", choices=DICE_KINDS, default="d6", help="kind of dice (default d6)")
    read.add_argument("--profile", help="dice profile from `companion enroll` (a name or a .json path); needed for --dice roll")
    read.add_argument("--json", action="store_true", help="one JSON object per image and line")

    enroll = sub.add_parser("enroll", help="learn the owner's own dice from photos")
    enroll_sub = enroll.add_subparsers(dest="what", required=True, metavar="WHAT")
    roll_dice = enroll_sub.add_parser(
        "roll-dice", help="Roll for the Galaxy dice: DIR/<colour>-<face>/ folders of photos (e.g. white-explore/)"
    )
    roll_dice.add_argument("folder", type=Path, metavar="DIR", nargs="?",
                           help="the folder of DIR/<colour>-<face>/ photos (not with --guided)")
    roll_dice.add_argument("--name", default="roll", help="profile name (default roll), saved in the user's data directory")
    roll_dice.add_argument("--out", type=Path, help="save the profile here instead (a .json path)")
    roll_dice.add_argument("--guided", action="store_true",
                           help="take the photos with the box's camera, pair by pair, guided on the touchscreen (or the terminal)")
    roll_dice.add_argument("--source", help="with --guided: auto | picamera2[:N] | opencv:N | FOLDER | VIDEO (default auto)")
    roll_dice.add_argument("--keep", type=Path, metavar="DIR",
                           help="with --guided: keep the photos in DIR (default: a new folder under the user's data directory); "
                                "pairs DIR already has photos of are skipped, so this resumes a stopped enrollment")
    roll_dice.add_argument("--no-screen", action="store_true", help="with --guided: no touchscreen; answer on the terminal (Enter = OK)")
    roll_dice.add_argument("--windowed", action="store_true", help="with --guided: draw the touchscreen in a window, not full screen")
    roll_dice.add_argument("--no-gpio", action="store_true", help="with --guided: do not use the GPIO button (OK)")
    roll_dice.add_argument("--screenshot", type=Path, metavar="PNG", help="with --guided: save the touchscreen as this PNG at each step")
    cards = enroll_sub.add_parser("cards", help="a deck of cards or tiles: DIR/<card-id>/ folders of photos or scans")
    cards.add_argument("deck", metavar="DECK", help="deck name (saved in the user's data directory) or a .npz path")
    cards.add_argument("folder", type=Path, metavar="DIR")
    cards.add_argument("--hexes", action="store_true",
                       help="the folders hold Eclipse sector hexes (DIR/<sector-id>/), not cards: build a hex deck")

    cal = sub.add_parser("calibrate", help="compute the table calibration from the printed sheet or corner markers in view")
    cal.add_argument("--source", default="auto",
                     help="where the frame comes from: auto | picamera2[:N] | opencv:N | a photo | FOLDER | VIDEO (default auto)")
    cal.add_argument("--lens", nargs="+", type=Path, metavar="IMAGE",
                     help="3 or more photos of the sheet at different tilts: also fit the lens distortion")
    cal.add_argument("--corners", type=_corners, metavar="WxH[:M]",
                     help="four separate corner markers (ids 0-3 clockwise from top-left) around a W x H mm play area, "
                          "each M mm (default 50), instead of the A4 sheet")
    cal.add_argument("--out", type=Path, metavar="FILE", help="where to save it (default: calibration.json in the user's data directory)")

    mat = sub.add_parser("print-mat", help="write the A4 calibration sheet with its ArUco markers (PNG or PDF)")
    mat.add_argument("path", type=Path, metavar="PATH", help="output file, .png or .pdf")

    titles = or_list([spec.title for spec in flows.values()])
    export = sub.add_parser("export", help=f"write a finished {titles} game (JSON, BG Stats play)")
    export.add_argument("--db", type=Path, help="session database (default: sessions.sqlite3 in the user's data directory)")
    export.add_argument("--demo", action="store_true", help="the demo's database (demo.sqlite3, where `companion demo` records games)")
    export.add_argument("--session", help=f"session id (default: the newest {titles} session)")
    export.add_argument("--json", type=Path, metavar="FILE", help="write the game as JSON (players, breakdowns, winners, events); - for standard output")
    export.add_argument("--bgstats", type=Path, metavar="FILE", help="write the BG Stats play record (JSON) and print its bgstats:// link; - for standard output")
    export.add_argument("--unfinished", action="store_true", help="export a game that has not ended (scores as they stand)")

    sessions = sub.add_parser("sessions", help="list the sessions in a database: id, game, players, started, finished")
    sessions.add_argument("--db", type=Path, help="session database (default: sessions.sqlite3 in the user's data directory)")
    sessions.add_argument("--demo", action="store_true", help="the demo's database (demo.sqlite3)")
    sessions.add_argument("--json", action="store_true", help="one JSON object per session and line")

    from companion.scoring import add_check_parser, add_score_parser

    add_score_parser(sub)
    add_check_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``companion`` console script; returns the exit code."""
    try:
        return _main(argv)
    except BrokenPipeError:  # output piped into `head` and closed early: not an error of ours
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except KeyboardInterrupt:  # Ctrl-C in a command other than run/demo (those stop cleanly themselves)
        print("companion: interrupted; what the command had not saved yet is not saved", file=sys.stderr)
        return 130
    except OSError as exc:  # a file problem no command expected (a name too long, a device gone): one line
        where = f": {exc.filename}" if exc.filename else ""
        print(f"companion: {exc.strerror or exc}{where}", file=sys.stderr)
        return EXIT_INPUT


def _main(argv: Sequence[str] | None) -> int:
    args = _parser().parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    logging.getLogger("waitress").setLevel(logging.DEBUG if args.verbose else logging.WARNING)  # no line per phone request
    if args.command == "read":
        ignored = [opt for opt, given, used in (
            ("--profile", args.profile is not None, args.cards is None and args.dice == "roll"),
            ("--mirror", args.mirror != "off", args.cards is not None),
            ("--calibration", args.calibration is not None, args.cards is not None),
            ("--dice", args.dice != "d6", args.cards is None),
        ) if given and not used]
        if ignored:
            print(f"companion read: {', '.join(ignored)} does not apply here "
                  f"(--profile goes with --dice roll, --mirror and --calibration with --cards, and --cards reads no dice)", file=sys.stderr)
            return EXIT_USAGE
    if args.command == "read" and args.cards is not None:
        return cmd_read_cards(args.images, args.cards, args.json, args.mirror, args.calibration)
    if args.command == "read":
        return cmd_read(args.images, args.dice, args.json, args.profile)
    if args.command == "enroll" and args.what == "cards":
        try:
            out = deck_path(args.deck)
        except _InputError as exc:
            print(f"companion enroll: {exc}", file=sys.stderr)
            return exc.code
        return cmd_enroll_cards(args.folder, out, hexes=args.hexes)
    if args.command == "enroll" and args.guided:
        if args.folder is not None:
            print("companion enroll roll-dice: --guided takes no DIR: give the photo folder with --keep DIR", file=sys.stderr)
            return EXIT_USAGE
        return cmd_enroll_guided(args)
    if args.command == "enroll":
        guided_only = [opt for opt, given in (("--source", args.source is not None), ("--keep", args.keep is not None),
                                              ("--no-screen", args.no_screen), ("--windowed", args.windowed),
                                              ("--no-gpio", args.no_gpio), ("--screenshot", args.screenshot is not None))
                       if given]
        if args.folder is None or guided_only:
            print("companion enroll roll-dice: give DIR (a folder of <colour>-<face>/ photos), or --guided"
                  + (f"; {', '.join(guided_only)} goes with --guided" if guided_only else ""), file=sys.stderr)
            return EXIT_USAGE
        return cmd_enroll_roll_dice(args.folder, args.out or profile_path(args.name))
    if args.command == "print-mat":
        return cmd_print_mat(args.path)
    if args.command == "calibrate":
        return cmd_calibrate(args.source, args.lens or [], args.out, args.corners)
    if args.command == "export":
        return cmd_export(args)
    if args.command == "sessions":
        return cmd_sessions(args)
    if args.command in ("score", "check"):
        from companion.scoring import cmd_check, cmd_score

        return (cmd_score if args.command == "score" else cmd_check)(args)
    return cmd_box(args)


def profile_path(name_or_path: str) -> Path:
    """A dice profile's JSON file: a path as given (``.json``), or ``<data dir>/profiles/<name>.json``."""
    from companion.paths import data_dir

    if name_or_path.endswith(".json") or "/" in name_or_path:
        return Path(name_or_path).expanduser()
    return data_dir() / "profiles" / f"{name_or_path}.json"


def roll_dice_pairs() -> tuple[tuple[str, str], ...]:
    """Every (colour, face) pair Roll for the Galaxy's dice have (Roll for the Galaxy, components: the dice).

    Rule data for the vision room's game-knowledge check: the reader never reports a pair
    outside these as certain (white has no Wild, yellow no Explore).
    """
    from rules.roll.data import catalogue

    return tuple(sorted({(c.colour, face) for c in catalogue().dice.values() for face in c.faces}))


def _dice_reader(dice: str, profile: str | None):
    """The reader for ``--dice`` (d6, or Roll for the Galaxy with an enrolled profile)."""
    if dice == "d6":
        from vision import D6Reader

        return D6Reader()
    if profile is None:
        raise _UsageError("--dice roll needs --profile (run `companion enroll roll-dice DIR` first)")
    from vision.profiles import DiceProfile
    from vision.roll_dice import RollDiceReader

    return RollDiceReader(DiceProfile.load(profile_path(profile)), allowed=roll_dice_pairs())


class _UsageError(Exception):
    pass


def cmd_read(images: Sequence[Path], dice: str, as_json: bool, profile: str | None = None) -> int:
    """``companion read``: print each image's dice; bad images are named on stderr and give exit 1."""
    from vision import VisionError

    try:
        reader = _dice_reader(dice, profile)
    except _UsageError as exc:
        print(f"companion read: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except VisionError as exc:
        print(f"companion read: cannot load the dice reader: {exc}", file=sys.stderr)
        return EXIT_DEVICE
    return _read_each(
        images, lambda frame, path: {"image": str(path), **reader.read(frame).to_json()}, as_json,
        lambda record: _describe_dice(record["dice"], dice),
    )


def _read_each(
    images: Sequence[Path], read: Callable[[Any, Path], dict], as_json: bool, describe: Callable[[dict], str]
) -> int:
    """Decode each image and print ``read(frame, path)`` (JSON line or ``describe``d); 1 if any image failed.

    A missing, truncated or corrupt image is named on stderr and the others are still read.
    """
    from device import BadImage
    from device import decode_image
    from vision import VisionError

    status = EXIT_OK
    for path in images:
        try:
            record = read(decode_image(Path(path)), path)
        except (BadImage, VisionError) as exc:
            print(f"companion read: {exc}", file=sys.stderr)
            status = EXIT_INPUT
            continue
        print(json.dumps(record) if as_json else f"{path}: {describe(record)}", flush=True)
    return status


def _describe_dice(dice: list[dict], kind: str) -> str:
    if not dice:
        return "no dice"
    if kind == "d6":
        values = [d["value"] for d in dice]
        known = [v for v in values if v is not None]
        return f"{len(values)} d6: " + " ".join("?" if v is None else str(v) for v in values) + f"  (sum {sum(known)})"
    return f"{len(dice)} dice: " + ", ".join(f"{d['colour']} {d['face'] or '?'}" for d in dice)


class _BadFolder(Exception):
    """An enrollment subfolder whose name is not a pair the Roll for the Galaxy dice have."""


def check_enroll_folders(folder: Path) -> list[str]:
    """Check ``folder``'s subfolders against the Roll for the Galaxy dice before building a profile.

    Every (not hidden) subfolder must be ``<colour>-<face>`` with a colour and a face the dice have,
    and a face that colour's die has (``rules.roll.data.catalogue()``: white has no Wild, yellow no
    Explore); names are read in any case, as the profile builder does.

    Returns:
        The pairs with no photos (``"yellow-wild"``, ...), in the walk's order, for a warning.

    Raises:
        _BadFolder: one line per bad folder, naming it and what is wrong with it (all of them, so
            one run shows every folder to rename).
    """
    from rules.roll.data import COLOURS, FACES, catalogue
    from vision.profiles import IMAGE_SUFFIXES

    if not folder.is_dir():
        return []  # the builder says "enrollment folder not found"
    faces_of: dict[str, set[str]] = {}
    for die in catalogue().dice.values():
        faces_of.setdefault(die.colour, set()).update(die.faces)
    have: set[str] = set()
    problems: list[str] = []
    for sub in sorted(folder.iterdir()):
        if not sub.is_dir() or sub.name.startswith("."):
            continue
        colour, dash, face = sub.name.lower().partition("-")
        where = f"folder {sub.name}/ in {folder}"
        if not dash or not colour or not face:
            problems.append(f"{where}: name it <colour>-<face>, e.g. white-explore")
        elif colour not in faces_of:
            problems.append(f"{where}: unknown colour {colour!r}; the dice are {', '.join(c for c in COLOURS if c in faces_of)}")
        elif face not in FACES:
            problems.append(f"{where}: unknown face {face!r}; the faces are {', '.join(FACES)}")
        elif face not in faces_of[colour]:
            shown = ", ".join(f for f in FACES if f in faces_of[colour])
            problems.append(f"{where}: {colour} dice have no {face} face ({colour}: {shown})")
        elif any(p.suffix.lower() in IMAGE_SUFFIXES for p in sub.iterdir()):
            have.add(f"{colour}-{face}")
    if problems:
        raise _BadFolder("\ncompanion enroll: ".join(problems))
    return [f"{c}-{f}" for c in COLOURS if c in faces_of for f in FACES
            if f in faces_of[c] and f"{c}-{f}" not in have]


def cmd_enroll_roll_dice(folder: Path, out: Path, warn_missing: bool = True) -> int:
    """``companion enroll roll-dice DIR``: build and save a dice profile; 0 saved, 1 bad folder.

    The subfolder names are checked first (:func:`check_enroll_folders`): an unknown colour or face,
    or a pair the dice do not have, is refused in one line naming the folder (exit 1, bad input);
    pairs with no photos are named in a warning (with ``warn_missing``) and the profile is built from
    the others.
    """
    from device import BadImage, check_image_files
    from vision import VisionError
    from vision.roll_dice import enroll_roll_dice

    try:
        missing = check_enroll_folders(folder)
        check_image_files(folder)  # sizes from the headers, before vision decodes a photo
    except (_BadFolder, BadImage) as exc:
        print(f"companion enroll: {exc}", file=sys.stderr)
        return EXIT_INPUT
    except OSError as exc:
        print(f"companion enroll: {exc}", file=sys.stderr)
        return EXIT_INPUT
    if missing and warn_missing:
        shown = ", ".join(missing[:10]) + (f" (+{len(missing) - 10} more)" if len(missing) > 10 else "")
        print(f"companion enroll: warning: no photos of {len(missing)} pair{'s' if len(missing) != 1 else ''} "
              f"({shown}): the profile will not know them", file=sys.stderr)
    try:
        saved = enroll_roll_dice(folder, out, allowed=roll_dice_pairs())
    except (VisionError, OSError) as exc:
        print(f"companion enroll: {exc}", file=sys.stderr)
        return EXIT_INPUT
    print(f"saved dice profile {saved}; use it with: companion read IMAGE --dice roll --profile {saved}")
    return EXIT_OK


def _resume_hint(args: argparse.Namespace, folder: Path) -> str:
    """How to go on after a stopped guided enrollment: the same command with ``--keep``, or the folder command."""
    extra = "".join(f" {opt} {value}" for opt, value in (("--source", args.source), ("--name", None if args.name == "roll" else args.name),
                                                          ("--out", args.out)) if value is not None)
    return (f"to go on: companion enroll roll-dice --guided --keep {folder}{extra}  (pairs with photos are skipped); "
            f"or build from the photos so far: companion enroll roll-dice {folder}"
            + (f" --out {args.out}" if args.out else (f" --name {args.name}" if args.name != "roll" else "")))


def cmd_enroll_guided(args: argparse.Namespace, *, source: Any = None, controls: Any = None) -> int:
    """``companion enroll roll-dice --guided``: photograph every colour/face pair with the box's camera,
    guided on the touchscreen (or the terminal with ``--no-screen``), then build and save the profile
    with :func:`cmd_enroll_roll_dice` (same code, same summary).

    Photos go to ``--keep DIR`` (pairs it already has photos of are skipped: resuming), else to a new
    ``<data dir>/enrollment/<name>-<YYYYmmdd-HHMMSS>/``; they are never deleted, also when the walk stops.

    Args:
        args: the parsed command line (``--source``, ``--keep``, ``--name``/``--out``, ``--no-screen``,
            ``--windowed``, ``--no-gpio``, ``--screenshot``).
        source: a camera source to use instead of ``--source`` (tests).
        controls: GPIO controls to use instead of opening them (tests); their button must post to the
            inbox the caller made, so tests mostly leave this None and pass ``--no-gpio``.

    Returns:
        0 profile saved; 1 stopped (Quit, Ctrl-C, end of terminal input), no photos at all, or the
        profile could not be built; 3 no camera, the camera lost mid-way, or the detector missing.
        Whenever photos were taken, the message names their folder and how to go on.
    """
    import time

    from companion.enroll_guided import (
        EnrollInbox,
        GuidedEnrollment,
        Step,
        TerminalInput,
        describe_pairs,
        guided_pairs,
        roll_dice_detector,
        run_guided,
    )
    from companion.paths import data_dir
    from device import DeviceError, open_source
    from vision import VisionError

    out = args.out or profile_path(args.name)
    try:
        folder = (args.keep.expanduser() if args.keep is not None
                  else data_dir() / "enrollment" / f"{out.stem}-{time.strftime('%Y%m%d-%H%M%S')}")
        detect = roll_dice_detector()
        enrollment = GuidedEnrollment(folder, guided_pairs(), detect)
    except VisionError as exc:
        print(f"companion enroll: cannot load the dice detector: {exc}; reinstall the package (./setup.sh run)", file=sys.stderr)
        return EXIT_DEVICE
    except OSError as exc:
        print(f"companion enroll: cannot use the photo folder: {exc}", file=sys.stderr)
        return EXIT_INPUT
    if enrollment.already:
        log.info("%s already has photos of %d pairs (%s): skipping them", folder, len(enrollment.already),
                 describe_pairs(enrollment.already))
    log.info("photos go to %s; %d pairs to photograph", folder, len(enrollment.walk))
    if source is None:
        # a FOLDER or VIDEO source is a replay: paced like a camera, looping, each photo held 2 s
        replay = {"fps": 10.0, "hold_frames": 20, "loop": True, "realtime": True, "skip_bad": True, "noise": 1.5}
        try:
            source = open_source(args.source or "auto", **replay)
            source.open()
        except (DeviceError, ValueError) as exc:
            print(f"companion enroll: {exc}", file=sys.stderr)
            return EXIT_DEVICE

    inbox = EnrollInbox()
    screen = pump = None
    on_display = False
    if not args.no_screen:
        screen, pump, on_display = _enroll_screen(args, inbox)
    terminal = None if on_display else TerminalInput(inbox).start()  # no display to tap on: the terminal answers
    if controls is None and not args.no_gpio:
        from device import Controls

        controls = Controls.create_optional(on_press=lambda: inbox.post_action(Action.ENROLL_OK, origin="button"))
    previous_term = signal.signal(signal.SIGTERM, lambda *_: inbox.post_action(Action.QUIT, origin="signal", why="SIGTERM"))

    def on_change(view: dict) -> None:
        if terminal is not None:
            terminal.show(view)
        if args.screenshot is not None and screen is not None:
            screen.save_png(args.screenshot)

    def redraw() -> None:
        if screen is not None:
            screen.render(enrollment.view())
            if pump is not None:
                pump()
            if args.screenshot is not None:
                screen.save_png(args.screenshot)

    try:
        outcome = run_guided(source, enrollment, inbox, screen=screen, pump=pump, on_change=on_change)
    except DeviceError as exc:
        print(f"companion enroll: {exc}", file=sys.stderr)
        return EXIT_DEVICE
    except OSError as exc:
        print(f"companion enroll: cannot save a photo: {exc}; the photos so far are in {folder}", file=sys.stderr)
        return EXIT_INPUT
    finally:
        signal.signal(signal.SIGTERM, previous_term)
        source.close()
        if controls is not None:
            controls.close()

    taken = (f"{outcome.photos} photo{'' if outcome.photos == 1 else 's'} of {outcome.pairs_done} of "
             f"{len(enrollment.pairs)} pairs {'is' if outcome.photos == 1 else 'are'} in {folder}")
    if outcome.step is Step.CAMERA_LOST:
        print(f"companion enroll: {outcome.message}; {taken}. Check the camera, then {_resume_hint(args, folder)}",
              file=sys.stderr)
        return EXIT_DEVICE
    if outcome.step is Step.STOPPED:
        print(f"companion enroll: {outcome.message}: {taken}; {_resume_hint(args, folder)}", file=sys.stderr)
        return EXIT_INPUT
    if outcome.photos == 0:
        print(f"companion enroll: no photos taken (every pair skipped), so no profile; {_resume_hint(args, folder)}",
              file=sys.stderr)
        return EXIT_INPUT
    if outcome.missing:
        log.warning("no photos of %d pairs (%s): the profile will not know them; add them later with "
                    "--guided --keep %s", len(outcome.missing), describe_pairs(outcome.missing), folder)
    enrollment.set_result(Step.BUILDING, f"from {outcome.photos} photos")
    redraw()
    code = cmd_enroll_roll_dice(folder, out, warn_missing=False)  # the missing pairs were logged above
    if code == EXIT_OK:
        enrollment.set_result(Step.SAVED, f"saved {out}; use it with --profile {out}")
        print(f"the photos are kept in {folder}")
    else:
        enrollment.set_result(Step.FAILED, f"see the message on the terminal; {taken}")
        print(f"companion enroll: {taken}; retake the pair named above (delete its folder), then "
              f"{_resume_hint(args, folder)}", file=sys.stderr)
    redraw()
    return code


def _enroll_screen(args: argparse.Namespace, inbox: Any) -> tuple[Any, Any]:
    """(screen, pump, on_display): the touchscreen for the guided enrollment (full screen on a display
    unless ``--windowed``; off-screen when there is none), a pump that turns its input into inbox
    actions, and whether it is drawn to a display (else the terminal answers)."""
    import os

    import pygame

    from companion.screen import TouchScreen

    try:
        screen = TouchScreen.for_display(fullscreen=not args.windowed)
        drawn_to_display = os.environ.get("SDL_VIDEODRIVER") != "dummy"
    except pygame.error as exc:
        log.info("no display for the touchscreen (%s); drawing off-screen (use --screenshot to see it, "
                 "or --no-screen to answer on the terminal)", exc)
        screen = TouchScreen()
        drawn_to_display = False

    def pump() -> None:
        if pygame.display.get_init():
            for event in pygame.event.get():
                screen.handle_event(event, inbox)
            if drawn_to_display:
                pygame.display.flip()

    return screen, pump, drawn_to_display


def deck_path(name_or_path: str) -> Path:
    """An enrolled deck's file: a path ending in ``.npz`` as given, or ``<data dir>/decks/<name>.npz``.

    Raises:
        _InputError: (exit 2) a path that does not end in ``.npz``, or a name with a path separator or
            ``..`` (a deck file is never written or read anywhere else).
    """
    from companion.paths import data_dir

    if name_or_path.endswith(".npz"):
        return Path(name_or_path).expanduser()
    if "/" in name_or_path or "\\" in name_or_path or ".." in name_or_path or not name_or_path.strip():
        raise _InputError(f"deck {name_or_path!r}: give a deck name (saved in {data_dir() / 'decks'}) "
                          "or a path ending in .npz", EXIT_USAGE)
    return data_dir() / "decks" / f"{name_or_path}.npz"


def cmd_enroll_cards(folder: Path, out: Path, hexes: bool = False) -> int:
    """``companion enroll cards DECK DIR [--hexes]``: build and save a deck profile; 0 saved, 1 bad folder.

    With ``hexes`` the folders hold Eclipse sector hexes (``DIR/<sector-id>/`` photos or scans) and the
    deck is built with :func:`vision.hexes.build_hex_deck` (``DeckProfile.shape == "hex"``); ``companion
    read --cards`` then reads sector hexes with it.
    """
    from device import BadImage, check_image_files
    from vision import VisionError
    from vision.deck import DeckProfile, build_deck
    from vision.hexes import build_hex_deck

    if out.exists():  # re-enrolling a deck replaces it; any other file is left alone
        try:
            DeckProfile.load(out)
        except (VisionError, OSError):
            print(f"companion enroll: {out} exists and is not a deck: not overwritten; choose another DECK",
                  file=sys.stderr)
            return EXIT_INPUT
    try:
        if folder.is_dir():  # sizes from the headers, before vision decodes a photo
            check_image_files(folder)
        deck = build_hex_deck(folder, name=out.stem) if hexes else build_deck(folder, name=out.stem)
        out.parent.mkdir(parents=True, exist_ok=True)
        saved = deck.save(out)
    except (VisionError, OSError, BadImage) as exc:
        print(f"companion enroll: {exc}", file=sys.stderr)
        return EXIT_INPUT
    what = "sector hexes" if hexes else "cards"
    print(f"saved deck {saved} ({len(set(deck.ref_ids))} {what}); use it with: companion read IMAGE --cards {saved}")
    return EXIT_OK


DECK_KINDS = {"card": "cards or square tiles", "hex": "Eclipse sector hexes"}
"""``DeckProfile.shape`` -> what the deck holds, for messages."""


def deck_kind(deck: Any) -> str:
    """``"card"`` or ``"hex"``: what a loaded :class:`vision.deck.DeckProfile` was enrolled as."""
    return "hex" if getattr(deck, "shape", "card") == "hex" else "card"


def load_deck(name_or_path: str, want: str | None = None) -> Any:
    """The enrolled deck ``name_or_path`` (:func:`deck_path`), checked to be of kind ``want``.

    Args:
        name_or_path: a deck name (``<data dir>/decks/<name>.npz``) or a ``.npz`` path.
        want: ``"card"`` (cards and square tiles), ``"hex"`` (Eclipse sector hexes) or None (either).

    Returns:
        The :class:`vision.deck.DeckProfile`.

    Raises:
        _InputError: no such file, it does not load, or it holds the other kind (one line naming the
            deck, what it holds and the enroll command to run; exit 3, "no deck to read with").
    """
    from vision import VisionError
    from vision.deck import DeckProfile

    path = deck_path(name_or_path)
    if not path.is_file():
        raise _InputError(f"no deck at {path}: build one with `companion enroll cards DECK DIR`", EXIT_DEVICE)
    try:
        deck = DeckProfile.load(path)
    except VisionError as exc:
        raise _InputError(f"cannot load deck {name_or_path}: {exc}", EXIT_DEVICE) from None
    kind = deck_kind(deck)
    if want is not None and kind != want:
        hint = "companion enroll cards DECK DIR --hexes" if want == "hex" else "companion enroll cards DECK DIR"
        raise _InputError(f"deck {name_or_path} holds {DECK_KINDS[kind]}, not {DECK_KINDS[want]}: "
                          f"enroll one with `{hint}`", EXIT_DEVICE)
    return deck


def cmd_read_cards(images: Sequence[Path], deck_name: str, as_json: bool, mirror: str = "off",
                   calibration_file: Path | None = None) -> int:
    """``companion read IMAGE... --cards DECK``: every card or tile on each image; bad images give exit 1.

    Positions are in table mm with ``--calibration FILE`` (from ``companion calibrate``, e.g. with
    ``--corners`` for four corner markers around the play area), else calibrated per image from the
    A4 sheet when it is in view; without either, ``center_mm`` is estimated from the deck's card size.
    A missing or malformed calibration file gives exit 1.

    A hex deck (``companion enroll cards DECK DIR --hexes``) reads Eclipse sector hexes with
    :func:`vision.hexes.read_hexes` instead: per image ``{"image", "cards": [], "hexes":
    [HexObservation.to_json()]}`` (``id``, ``corners`` (6, px), ``center_mm``, ``rotation`` 0-5,
    ``rotation_deg``, ``axial`` ``[q, r]`` from the Galactic Center, ``zone``, ``confidence``).
    ``--mirror`` is a card-reader option and is refused with a hex deck (exit 2).
    """
    from vision.cards import CardsConfig, read_cards
    from vision.table import CalibrationFailed, calibrate

    try:
        deck = load_deck(deck_name)
    except _InputError as exc:
        print(f"companion read: {exc}", file=sys.stderr)
        return exc.code
    hexes = deck_kind(deck) == "hex"
    if hexes and mirror != "off":
        print(f"companion read: --mirror does not apply to deck {deck_name}, which holds Eclipse sector hexes",
              file=sys.stderr)
        return EXIT_USAGE
    config = CardsConfig(mirror=mirror)
    fixed = None
    if calibration_file is not None:
        from companion.calibration import BadCalibrationFile, load_calibration

        try:
            fixed = load_calibration(calibration_file)
        except BadCalibrationFile as exc:
            print(f"companion read: {exc}", file=sys.stderr)
            return EXIT_INPUT

    def table(frame: Any) -> Any:
        if fixed is not None:
            return fixed
        try:
            return calibrate(frame)
        except CalibrationFailed:
            return None

    def read(frame: Any, path: Path) -> dict:
        if hexes:
            from vision.hexes import read_hexes

            found = read_hexes(frame, deck, calibration=table(frame))
            return {"image": str(path), "cards": [], "hexes": found.to_json(str(path))["hexes"]}
        return read_cards(frame, deck, calibration=table(frame), config=config).to_json(str(path))

    def describe(record: dict) -> str:
        if hexes:
            found = [f"{h['id'] or '?'}" + (f" at [{h['axial'][0]}, {h['axial'][1]}]" if h["axial"] is not None else "")
                     + (f" turned {h['rotation']}" if h["rotation"] else "") for h in record["hexes"]]
            return f"{len(found)} hexes: {', '.join(found) or 'none'}"
        ids = [c["id"] or "?" for c in record["cards"]]
        return f"{len(ids)} cards: {', '.join(ids) or 'none'}"

    return _read_each(images, read, as_json, describe)


def cmd_print_mat(path: Path) -> int:
    """``companion print-mat PATH``: write the calibration sheet; 0 written, 1 cannot write."""
    from vision.mat import write_mat

    if path.suffix.lower() not in (".png", ".pdf"):
        print(f"companion print-mat: {path}: name a .png or .pdf file", file=sys.stderr)
        return EXIT_USAGE
    try:
        written = write_mat(path)
    except OSError as exc:
        print(f"companion print-mat: cannot write {path}: {exc}", file=sys.stderr)
        return EXIT_INPUT
    print(f"wrote {written}: print it at 100% (no scaling) and check the 100 mm bar")
    return EXIT_OK


def _calibration_frame(spec: str, warmup: int = 5) -> Any:
    """One frame of ``spec`` for calibrating: a replay's first picture, a live camera's ``warmup``-th
    (its exposure settles first). Raises device.DeviceError / ValueError (unknown spec)."""
    from device import EndOfStream, open_source

    source = open_source(spec, loop=False, hold_frames=1, realtime=False)
    with source:
        frame = source.read()
        if getattr(source, "current_file", None) is None and not str(source.name).startswith("replay"):
            for _ in range(max(0, warmup - 1)):
                try:
                    frame = source.read()
                except EndOfStream:
                    break
    return frame.image, source.name


def _not_ours(path: Path, keys: Mapping[str, Any]) -> str | None:
    """Why ``path`` must not be overwritten, or None: it is missing, or a JSON object this program wrote
    (every ``keys`` item present with that value, ``...`` meaning any value). A folder, a session
    database, a picture or another program's file is never replaced by an output."""
    if not path.exists():
        return None
    if path.is_dir():
        return f"{path} is a folder: give a file name"
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        doc = None
    if isinstance(doc, dict) and all(k in doc and (v is ... or doc[k] == v) for k, v in keys.items()):
        return None
    return f"{path} exists and was not written by this command (a database, a picture, another file?): not overwritten"


def cmd_calibrate(spec: str, lens_images: Sequence[Path], out: Path | None,
                  corners: tuple[float, float, float] | None = None) -> int:
    """``companion calibrate``: the table homography (and lens) from the sheet in view; saved as JSON.

    Exit codes: 0 saved; 1 the markers or the lens could not be fitted, or a photo is unreadable;
    3 no camera (or the frame source cannot be opened).
    """
    from companion.calibration import CALIBRATION_FORMAT, default_calibration_path, save_calibration
    from device import BadImage, DeviceError
    from device import decode_image
    from vision import VisionError
    from vision.lens import LensCalibrationFailed, calibrate_lens
    from vision.table import CalibrationFailed, calibrate, corner_layout

    layout = None if corners is None else corner_layout(*corners)
    lens = None
    if lens_images:
        try:
            frames = [decode_image(Path(p)) for p in lens_images]
            lens = calibrate_lens(frames)
        except BadImage as exc:
            print(f"companion calibrate: {exc}", file=sys.stderr)
            return EXIT_INPUT
        except LensCalibrationFailed as exc:
            print(f"companion calibrate: lens: {exc}", file=sys.stderr)
            return EXIT_INPUT
        except VisionError as exc:
            print(f"companion calibrate: lens: {exc}", file=sys.stderr)
            return EXIT_INPUT
    try:
        image, name = _calibration_frame(spec)
    except (DeviceError, ValueError) as exc:
        print(f"companion calibrate: no frame from {spec}: {exc}", file=sys.stderr)
        return EXIT_INPUT if isinstance(exc, BadImage) else EXIT_DEVICE
    try:
        calibration = calibrate(image, layout, lens=lens)
    except CalibrationFailed as exc:
        print(f"companion calibrate: {exc}", file=sys.stderr)
        return EXIT_INPUT
    except VisionError as exc:
        print(f"companion calibrate: {exc}", file=sys.stderr)
        return EXIT_INPUT
    path = out or default_calibration_path()
    problem = _not_ours(path, {"format": CALIBRATION_FORMAT})
    if problem:
        print(f"companion calibrate: {problem}", file=sys.stderr)
        return EXIT_INPUT
    try:
        save_calibration(calibration, path, source=str(name))
    except OSError as exc:
        print(f"companion calibrate: cannot write {path}: {exc}", file=sys.stderr)
        return EXIT_INPUT
    w, h = calibration.frame_size
    lens_text = f", lens from {lens.views} views (RMS {lens.rms_px:.2f} px)" if lens is not None else ""
    print(f"saved {path}: {len(calibration.markers_px)} markers, reprojection {calibration.reprojection_px:.2f} px, "
          f"{calibration.mm_per_px():.2f} mm per pixel at the centre of {w}x{h} frames{lens_text}")
    return EXIT_OK


def cmd_export(args: argparse.Namespace) -> int:
    """``companion export``: 0 written; 1 unfinished game or cannot write; 2 nothing to write; 3 no session."""
    from companion.errors import SessionError
    from companion.flow import GameFlow, bgstats_url
    from companion.flows import FLOWS
    from companion.session import SessionStore

    if args.json is None and args.bgstats is None:
        print("companion export: say what to write: --json FILE and/or --bgstats FILE", file=sys.stderr)
        return EXIT_USAGE
    db = _chosen_db(args, "export")
    if db is None:
        return EXIT_USAGE
    if not Path(db).is_file():
        print(f"companion export: {_no_db(db, args)}", file=sys.stderr)
        return EXIT_DEVICE
    try:
        from companion.session import _check_is_sqlite

        _check_is_sqlite(Path(db))
        with SessionStore(db) as store:
            if args.session:
                session = store.get(args.session)
            else:
                info = next((i for i in store.list_sessions() if i.game in FLOWS), None)
                if info is None:
                    from companion.game_options import or_list

                    titles = or_list([spec.title for spec in FLOWS.values()])
                    print(f"companion export: no {titles} session in {db}", file=sys.stderr)
                    return EXIT_DEVICE
                session = store.get(info.id)
            if session.game.name not in FLOWS:
                print(f"companion export: session {session.id} is a {session.game.name!r} session; "
                      f"export takes {', '.join(FLOWS)}", file=sys.stderr)
                return EXIT_USAGE
            flow = GameFlow(session, FLOWS[session.game.name])
            if not flow.over() and not args.unfinished:
                print(f"companion export: session {session.id} has not ended ({flow.table().round_label}); "
                      "finish it at the table, or pass --unfinished", file=sys.stderr)
                return EXIT_INPUT
            game, play = flow.export_json(), flow.bgstats_play()
    except SessionError as exc:
        print(f"companion export: {exc}", file=sys.stderr)
        return EXIT_DEVICE
    if args.json is not None and args.bgstats is not None and args.json.resolve() == args.bgstats.resolve():
        print("companion export: --json and --bgstats name the same file; give two files", file=sys.stderr)
        return EXIT_USAGE
    piped = any(str(out) == "-" for out in (args.json, args.bgstats))  # JSON on stdout; the rest on stderr
    status = sys.stderr if piped else sys.stdout
    for out, keys in ((args.json, {"format": "tabletop-companion/game"}), (args.bgstats, {"sourceName": ...})):
        problem = None if out is None or str(out) == "-" else _not_ours(out, keys)
        if problem:
            print(f"companion export: {problem}", file=sys.stderr)
            return EXIT_INPUT
    try:
        for out, doc in ((args.json, game), (args.bgstats, play)):
            if out is None:
                continue
            text = json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
            if str(out) == "-":
                sys.stdout.write(text)
                continue
            out.write_text(text, encoding="utf-8")
            print(f"wrote {out}" + ("; open this link on a phone with BG Stats to add the play:" if doc is play else ""),
                  file=status)
        if args.bgstats is not None:
            if str(args.bgstats) == "-":
                print("open this link on a phone with BG Stats to add the play:", file=status)
            print(bgstats_url(play), file=status)
    except OSError as exc:
        print(f"companion export: cannot write: {exc}", file=sys.stderr)
        return EXIT_INPUT
    return EXIT_OK


def _chosen_db(args: argparse.Namespace, command: str) -> Path | None:
    """The database of ``export``/``sessions``: ``--db``, ``--demo`` (demo.sqlite3) or the box's;
    None (after printing why) when both ``--db`` and ``--demo`` are given."""
    from companion.paths import default_db_path

    if args.db is not None and args.demo:
        print(f"companion {command}: give --db DB or --demo, not both", file=sys.stderr)
        return None
    if args.demo:
        return default_db_path().with_name("demo.sqlite3")
    return args.db or default_db_path()


def _no_db(db: Path, args: argparse.Namespace) -> str:
    """The one line for a missing database, naming the box's and the demo's."""
    from companion.paths import default_db_path

    if args.db is not None:
        return f"no session database at {db}"
    box, demo = default_db_path(), default_db_path().with_name("demo.sqlite3")
    if args.demo:
        return f"no demo database at {demo} (`companion demo` makes it; the box's games are in {box})"
    return (f"no session database at {box}; games played with `companion demo` are in {demo} "
            f"(give --demo, or --db DB)")


def cmd_sessions(args: argparse.Namespace) -> int:
    """``companion sessions``: every session, newest first: id, game, players, started, finished.

    Exit codes: 0 listed (also when there are none); 2 --db and --demo; 3 no such database, or not one.
    """
    import time

    from companion.errors import SessionError
    from companion.flow import GameFlow
    from companion.flows import FLOWS
    from companion.session import SessionStore

    db = _chosen_db(args, "sessions")
    if db is None:
        return EXIT_USAGE
    if not Path(db).is_file():
        print(f"companion sessions: {_no_db(db, args)}", file=sys.stderr)
        return EXIT_DEVICE
    rows: list[dict[str, Any]] = []
    try:
        from companion.session import _check_is_sqlite

        _check_is_sqlite(Path(db))
        with SessionStore(db) as store:
            for info in store.list_sessions():
                players: list[str] = []
                finished: bool | None = None
                if info.game in FLOWS:
                    try:
                        session = store.get(info.id)
                        players = [str(p.get("name") if isinstance(p, dict) else p)
                                   for p in session.settings.get("seats") or session.settings.get("players") or []]
                        finished = GameFlow(session, FLOWS[info.game]).over()
                    except Exception as exc:  # noqa: BLE001 -- a session this version cannot replay is still listed
                        log.debug("session %s: %s", info.id, exc)
                rows.append({"id": info.id, "game": info.game, "players": players, "started_at": info.started_at,
                             "finished": finished, "events": info.events})
    except SessionError as exc:
        print(f"companion sessions: {exc}", file=sys.stderr)
        return EXIT_DEVICE
    if args.json:
        for row in rows:
            print(json.dumps(row, ensure_ascii=False))
        return EXIT_OK
    if not rows:
        print(f"no sessions in {db}")
        return EXIT_OK
    print(f"{len(rows)} session{'s' if len(rows) != 1 else ''} in {db}, newest first:")
    for row in rows:
        started = time.strftime("%Y-%m-%d %H:%M", time.localtime(row["started_at"]))
        finished = {True: "finished", False: "not finished", None: "-"}[row["finished"]]
        print(f"{row['id']}  {row['game']:<5}  {', '.join(row['players']) or '-'}  started {started}  {finished}  "
              f"{row['events']} events")
    return EXIT_OK


def _game_options(args: argparse.Namespace) -> dict[str, Any]:
    """The options of ``--game`` given on the command line (its declaration's flags: ``--races``,
    ``--advanced``, ...) as the flows' ``settings(seats, options)`` take them; {} for d6."""
    from companion.flows import FLOWS
    from companion.game_options import given_options

    spec = FLOWS.get(args.game)
    return {} if spec is None else given_options(args, spec.info)


def _new_game_settings(args: argparse.Namespace, options: dict[str, Any]) -> dict[str, Any] | None:
    """The settings of a new ``--game`` from ``--players`` and ``options``, checked before any
    database file is opened or created; None without ``--players`` (resume, or the setup step).

    Raises:
        companion.errors.BadEntry: a bad player list, race or objective.
        rules.RulesError: settings the game refuses (e.g. one player for a 2-4 player game).
    """
    from companion.flow import parse_players
    from companion.flows import FLOWS

    if args.players is None:
        return None
    import rules

    spec = FLOWS[args.game]
    settings = spec.settings(parse_players(args.players, spec.info.colours), options)
    # the game refuses impossible settings (a player count it is not for) before any file is made
    rules.replay(rules.get_game(args.game), json.loads(json.dumps(settings)), [])
    return settings


def _flow_session(args: argparse.Namespace, store: Any, settings: dict[str, Any] | None,
                  options: dict[str, Any]) -> Any:
    """The session of ``--game`` to play: with ``settings`` (from :func:`_new_game_settings`) the latest
    open game when it has exactly those settings (the same command run again after a restart or a
    power cut goes on with the same game; ``--new-session`` starts another), else a new one; without
    them the latest open one, else None (the setup step on the touchscreen and phones starts one).

    Raises:
        _UsageError: game options given while an open game is resumed (they go with a new game).
    """
    if settings is not None:
        wanted = json.loads(json.dumps(settings))
        open_games = [] if args.new_session else [
            store.get(info.id) for info in store.list_sessions() if info.game == args.game and info.ended_at is None]
        same = next((s for s in open_games if s.settings == wanted), None)  # newest first
        if same is not None:
            # the same command line again (a restart, a power cut): that open game goes on
            log.info("resuming the open %s game %s with the same players and options (--new-session starts "
                     "another)", args.game, same.id)
            return same
        if open_games:
            log.warning("%d open %s game(s) stay in %s (see `companion sessions`); their players or options "
                        "differ, so a new game starts", len(open_games), args.game, store.path)
        return store.start(args.game, settings)
    session = None if args.new_session else store.resume_latest(args.game)
    if session is not None and options:
        from companion.flows import FLOWS
        from companion.game_options import and_list, given_flags

        flags = given_flags(args, [FLOWS[args.game].info])
        raise _UsageError(f"{and_list(flags)} {'goes' if len(flags) == 1 else 'go'} with a new game "
                          "(--players, or the setup step with --new-session)")
    return session


def cmd_box(args: argparse.Namespace) -> int:
    """``companion run`` / ``companion demo``: the main loop with the views around it."""
    from companion.app import MainLoop
    from companion.hub import StateHub
    from companion.paths import default_db_path
    from companion.errors import BadEntry, SessionError
    from companion.notify import ServiceNotifier, running_status
    from companion.session import SessionStore
    from device import DeviceError, open_source
    from rules import RulesError
    from rules.d6 import D6_GAME
    from vision import D6Reader, VisionError
    from vision.motion import StillnessDetector

    from companion.flows import FLOWS
    from companion.game_options import flows_infos
    from companion.game_options import misplaced as misplaced_options

    flow_game = args.game in FLOWS
    misplaced = ["--players"] if args.players is not None and not flow_game else []
    misplaced += misplaced_options(args, flows_infos(FLOWS), args.game if flow_game else None)
    misplaced += ["--deck"] if args.deck is not None and not flow_game else []
    if args.dice_profile is not None and args.game != "roll":
        misplaced.append("--dice-profile")
    if args.calibration is not None and not flow_game:
        misplaced.append("--calibration")  # the d6 reader works in pixels: a table calibration would be ignored
    if misplaced:
        print(f"companion {args.command}: {', '.join(misplaced)} does not go with --game {args.game}", file=sys.stderr)
        return EXIT_USAGE
    if args.screenshot is not None:
        problem = _unwritable_folder(args.screenshot)
        if problem:
            print(f"companion {args.command}: --screenshot {args.screenshot}: {problem}", file=sys.stderr)
            return EXIT_USAGE
    make_camera = calibration = settings = None
    options = _game_options(args)
    if flow_game:
        try:  # every input is checked before the camera is opened and a database file is created
            settings = _new_game_settings(args, options)
            make_camera, calibration = _camera_parts(args)
        except _InputError as exc:
            print(f"companion {args.command}: {exc}", file=sys.stderr)
            return exc.code
        except (_UsageError, BadEntry, RulesError) as exc:
            print(f"companion {args.command}: {exc}", file=sys.stderr)
            return EXIT_USAGE
    try:
        reader = None if flow_game else D6Reader()
    except VisionError as exc:
        print(f"companion: cannot load the dice reader: {exc}; reinstall the package (./setup.sh run)", file=sys.stderr)
        return EXIT_DEVICE
    demo = args.command == "demo"
    spec = str(args.folder or demo_photos()) if demo else args.source
    notifier = ServiceNotifier()  # systemd's READY=1 / STATUS= / WATCHDOG=1 / STOPPING=1; a no-op elsewhere
    notifier.status(f"starting: opening the camera ({spec})")
    fps = 10.0  # replays only: each photo is held as a still scene for --hold seconds
    replay = {"fps": fps, "hold_frames": max(1, round(args.hold * fps)), "skip_bad": True, "noise": 1.5,
              "loop": demo and not args.once, "realtime": not (demo and args.fast)}
    try:
        source = open_source(spec, **replay)  # options a camera does not take are ignored
        source.open()
    except (DeviceError, ValueError) as exc:
        print(f"companion {args.command}: {_one_demo_hint(str(exc))}", file=sys.stderr)
        return EXIT_DEVICE

    hub = StateHub()
    db = args.db or (default_db_path().with_name("demo.sqlite3") if demo else default_db_path())
    try:
        store = None
        store = SessionStore.open_or_recover(db, exclusive=True)  # one box per database
        if flow_game:
            session = _flow_session(args, store, settings, options)
            if session is None:
                log.info("%s: no open game in %s: set it up on the touchscreen or a phone", args.game, store.path)
            else:
                log.info("%s session %s (%d events) in %s", args.game, session.id, session.last_seq, store.path)
        else:
            session = None if args.new_session else store.resume_latest(D6_GAME.name)
            if session is None:
                session = store.start(D6_GAME.name, {"source": source.name})
                log.info("started session %s in %s", session.id, store.path)
            else:
                log.info("resumed session %s (%d events) in %s", session.id, session.last_seq, store.path)
    except SessionError as exc:
        print(f"companion {args.command}: {exc}", file=sys.stderr)
        source.close()
        if store is not None:
            store.close()
        return EXIT_DEVICE
    except (_UsageError, BadEntry, RulesError) as exc:
        print(f"companion {args.command}: {exc}", file=sys.stderr)
        source.close()
        store.close()
        return EXIT_USAGE
    flow = setup = None
    if flow_game:
        from companion.flow import GameFlow

        if session is not None:
            flow = GameFlow(session, FLOWS[args.game])
        else:
            from companion.setup_flow import TableSetup

            setup = TableSetup(store, FLOWS[args.game], options, calibration, resume=not args.new_session)
    camera_flow = make_camera(flow) if (flow is not None and make_camera is not None) else None

    phone_url = ""
    server = None
    if not args.no_web:
        from companion.netinfo import phone_url as make_phone_url
        from companion.paths import web_secret_key
        from companion.web import create_app, serve

        try:
            cookie_key = web_secret_key()
        except OSError as exc:  # a read-only or full data folder: phones join again after a restart
            cookie_key = None
            log.warning("cannot keep the phone view's key in the data folder (%s); phones scan the QR code "
                        "again after a restart", exc.strerror or exc)
        named = [] if args.host in ("0.0.0.0", "::") else [args.host]  # --host NAME: the box answers to it too
        try:
            server = serve(create_app(hub, secret_key=cookie_key, hosts=named), host=args.host, port=args.port)
        except OSError as exc:  # serve() binds first and names the problem in one line
            print(f"companion {args.command}: cannot start the phone view: {exc}; try another --host or --port, "
                  "or --no-web", file=sys.stderr)
            store.close()
            source.close()
            return EXIT_DEVICE
        phone_url = make_phone_url(server.port, None if args.host in ("0.0.0.0", "::") else args.host)

    screen, pump = _open_screen(args, hub, phone_url)
    controls = None if args.no_gpio else _open_controls(hub, Action.NEXT_PHASE if flow_game else Action.READ_NOW,
                                                        args.buzzer_pin)

    screenshot_failed: list[str] = []

    def save_screenshot() -> None:
        if args.screenshot is not None and screen is not None:
            try:
                screen.save_png(args.screenshot)
            except (pygame_error(), OSError) as exc:
                if str(exc) not in screenshot_failed:  # one line per distinct problem, not one per read
                    screenshot_failed.append(str(exc))
                    log.error("cannot save --screenshot %s: %s; going on without it", args.screenshot, exc)

    def on_read(seq: int, read: object) -> None:
        save_screenshot()
        if controls is not None:
            controls.read_ok()

    read_executor = (ThreadPoolExecutor(max_workers=1, thread_name_prefix="camera-read")
                     if flow_game and replay["realtime"] else None)
    loop = MainLoop(
        source=source, reader=reader, session=session, hub=hub, stillness=StillnessDetector(),
        screen=screen, pump_screen=pump, phone_url=phone_url, stop_at_end=True,  # a replay that ends (demo --once, run FOLDER) stops the job
        on_read=on_read, flow=flow, camera_flow=camera_flow, setup=setup, make_camera=make_camera,
        on_change=save_screenshot if flow_game else None,  # d6: after each read (on_read); flows: after each change
        on_announce=lambda what: controls.beep(3 if what == "last_round" else 1) if controls is not None else None,
        # a live camera (or a replay in real time): card reads on a worker so the screens stay live;
        # a replay at full speed (--fast) reads each frame before the next, as a test would
        read_executor=read_executor,
        watchdog=notifier.loop_turned,  # READY=1 on the first turn, then the watchdog pings
    )
    if server is not None:  # the loop has made or loaded the join secret: the QR code's link, on one line
        from companion.netinfo import join_url

        pairing = hub.pairing()
        print(f"phone view at {join_url(phone_url, pairing.secret if pairing is not None else None)}", flush=True)
    notifier.status(running_status(source.name, phone_url))
    signal.signal(signal.SIGTERM, lambda *_: loop.stop())
    if controls is not None:
        controls.watching()
    try:
        stats = loop.run(max_frames=args.max_frames)
    except KeyboardInterrupt:
        stats = loop.stats
    except DeviceError as exc:
        print(f"companion {args.command}: {exc}", file=sys.stderr)
        return EXIT_DEVICE
    finally:
        notifier.stopping()
        if read_executor is not None:
            read_executor.shutdown(wait=True, cancel_futures=True)
        if server is not None:
            server.shutdown()
        if controls is not None:
            controls.close()
        store.close()
    median = sorted(stats.read_ms)[len(stats.read_ms) // 2] if stats.read_ms else 0.0
    ended = loop.session.id if loop.session is not None else "none (not set up)"
    log.info("stopped: %d frames, %d reads (median %.0f ms), session %s", stats.frames, stats.reads, median, ended)
    return EXIT_OK


DEMO_HINT_TEXT = "run `companion demo` to replay photos"


def _one_demo_hint(message: str) -> str:
    """``message`` with "run `companion demo` ..." said once (the camera's errors for ``--source auto``
    each end with it; only the last one is kept)."""
    import re

    count = message.count(DEMO_HINT_TEXT)
    if count <= 1:
        return message
    pattern = re.compile(r",?\s*(or )?" + re.escape(DEMO_HINT_TEXT))
    return pattern.sub("", message, count=count - 1)


def pygame_error() -> type[BaseException]:
    """``pygame.error`` (imported only when a screen is drawn)."""
    import pygame

    return pygame.error


def _unwritable_folder(path: Path) -> str:
    """Why a file cannot be written at ``path`` ("" when it can): its folder is made if missing and
    a probe file is created and removed there (``os.access`` says yes to root even in /proc)."""
    import tempfile

    folder = path.expanduser().parent
    if path.is_dir():
        return "is a folder; give a .png file name"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".companion-probe-", suffix=".png"):
            pass
    except OSError as exc:
        return f"cannot write in {folder} ({exc.strerror or exc}); choose a writable folder"
    return ""


class _InputError(Exception):
    """A file the command needs is missing or unreadable; ``code`` is the exit code."""

    def __init__(self, message: str, code: int) -> None:
        super().__init__(message)
        self.code = code


def _load_box_calibration(path: Path | None) -> Any:
    """The table calibration for run/demo: ``--calibration FILE`` (must load), else the saved one when
    present (a damaged one is logged and skipped), else None (the reader works in pixels).

    Raises:
        _InputError: ``--calibration`` names a missing file (exit 3, as a missing deck or profile) or
            one that cannot be read or is malformed (exit 1).
    """
    from companion.calibration import BadCalibrationFile, default_calibration_path, load_calibration

    if path is not None:
        if not path.expanduser().is_file():
            raise _InputError(f"no calibration at {path}: make one with `companion calibrate`", EXIT_DEVICE)
        try:
            return load_calibration(path)
        except BadCalibrationFile as exc:
            raise _InputError(str(exc), EXIT_INPUT) from None
    default = default_calibration_path()
    if not default.is_file():
        log.info("no table calibration (%s): positions in pixels; run `companion calibrate` for table mm", default)
        return None
    try:
        calibration = load_calibration(default)
    except BadCalibrationFile as exc:
        log.warning("%s; reading in pixels", exc)
        return None
    log.info("table calibration from %s", default)
    return calibration


def _camera_parts(args: argparse.Namespace) -> tuple[Callable[[Any], Any] | None, Any]:
    """(make_camera, calibration) for a flow game: ``make_camera(flow)`` builds the flow's camera part
    from ``--deck`` / ``--dice-profile`` (None when neither is given: the game is played from the
    phones); the calibration is ``--calibration`` or the saved one (None: pixels).

    Raises:
        _InputError: no such deck, profile or ``--calibration`` file, or a deck or profile that does not
            load (exit 3); a ``--calibration`` file that cannot be read (exit 1).
    """
    from companion.camera import CameraFlow
    from companion.paths import data_dir
    from vision import VisionError

    calibration = _load_box_calibration(args.calibration)
    if args.deck is None and args.dice_profile is None:
        return None, calibration
    # Roll, Race and Among the Stars lay out cards and square tiles: a hex deck is refused (exit 3)
    deck = load_deck(args.deck, want="card") if args.deck is not None else None
    dice_reader = None
    if args.dice_profile is not None:
        path = profile_path(args.dice_profile)
        if not path.is_file():
            raise _InputError(f"no dice profile at {path}: build one with `companion enroll roll-dice DIR`", EXIT_DEVICE)
        try:
            from vision.readers import RollDiceAdapter

            dice_reader = RollDiceAdapter(_dice_reader("roll", args.dice_profile))  # the "roll_dice" reader
        except VisionError as exc:
            raise _InputError(f"cannot load dice profile {args.dice_profile}: {exc}", EXIT_DEVICE) from None
    image_dir = data_dir() / "reads"
    return (lambda flow: CameraFlow(flow, deck=deck, calibration=calibration, dice_reader=dice_reader,
                                    image_dir=image_dir)), calibration


def _open_screen(args: argparse.Namespace, hub: object, phone_url: str):
    """The touchscreen and a function that pumps its input into the hub, or (None, None)."""
    if args.no_screen:
        return None, None
    import os

    import pygame

    from companion.screen import TouchScreen

    try:
        screen = TouchScreen.for_display(fullscreen=not args.windowed and args.command == "run", phone_url=phone_url,
                                         pairing=hub.pairing)
        drawn_to_display = os.environ.get("SDL_VIDEODRIVER") != "dummy"
    except pygame.error as exc:
        log.info("no display for the touchscreen (%s); drawing off-screen (use --screenshot to see it)", exc)
        screen = TouchScreen(phone_url=phone_url, pairing=hub.pairing)
        drawn_to_display = False

    def pump() -> None:
        if pygame.display.get_init():
            for event in pygame.event.get():
                screen.handle_event(event, hub)
            if drawn_to_display:
                pygame.display.flip()

    return screen, pump


def _open_controls(hub, action: Action = Action.READ_NOW, buzzer_pin: int | None = None):
    """The GPIO button (posts ``action``: read now, or the next phase of a game flow), the status
    LED and the optional buzzer, or None where no GPIO is available."""
    from device import Controls

    return Controls.create_optional(on_press=lambda: hub.post_action(action, origin="button"), buzzer_pin=buzzer_pin)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
