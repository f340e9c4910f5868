"""The ``companion`` command line.

    companion run  [--source auto] [options]      the main job: the camera (Pi camera, else a USB webcam)
    companion demo [FOLDER] [--once] [options]    the same on a replay of real photos (bundled ones by default)
    companion read IMAGE... --dice d6 [--json]    read the dice in photos and print what was seen
    companion read IMAGE... --dice roll --profile P [--json]   Roll for the Galaxy dice (colour and face)
    companion enroll roll-dice DIR [--name N]     learn the owner's Roll for the Galaxy dice from photos
    companion enroll cards DECK DIR               learn a deck of cards or tiles (DIR/<card-id>/ photos)
    companion read IMAGE... --cards DECK [--json] every card or tile: id, corners, mm, row/col, cell, zone
    companion print-mat PATH                      the A4 calibration sheet (PNG or PDF)
    companion score GAME FILE [--json]            score an end-of-game position (roll, race, among)
    companion check GAME FILE [--json]            check a position for misplays (among)

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
from importlib import resources
from pathlib import Path
from typing import Any, Callable, Sequence

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
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"{text} s: give a positive number of seconds")
    return value


def _parser() -> argparse.ArgumentParser:
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
        p.add_argument("--screenshot", type=Path, help="after each read, save the touchscreen as this PNG")
        p.add_argument("--no-gpio", action="store_true", help="do not use the GPIO button and LED")
        p.add_argument("--max-frames", type=int, help="stop after this many frames (testing)")

    run = sub.add_parser("run", help="the main job: read the dice from the camera")
    run.add_argument("--source", default="auto", help="auto | picamera2[:N] | opencv:N | opencv:VIDEO | FOLDER | VIDEO (default auto)")
    run.add_argument("--hold", type=_seconds, default=4.0, help="with a FOLDER source: seconds each photo stays on the table (default 4)")
    box_options(run)

    demo = sub.add_parser("demo", help="the main job on a replay of real photos; no camera needed")
    demo.add_argument("folder", nargs="?", type=Path, help="folder of photos or a video (default: the bundled photos)")
    demo.add_argument("--hold", type=_seconds, default=4.0, help="seconds each photo stays on the table (default 4)")
    demo.add_argument("--once", action="store_true", help="stop after one pass instead of looping")
    demo.add_argument("--fast", action="store_true", help="do not pace the replay in real time")
    box_options(demo)

    read = sub.add_parser("read", help="read the dice in photos and print what was seen")
    read.add_argument("images", nargs="+", type=Path, metavar="IMAGE")
    read.add_argument("--cards", metavar="DECK", help="read cards and tiles with this enrolled deck (a name or a .npz path) instead of dice")
    read.add_argument("--mirror", choices=("off", "on", "auto"), default="off",
                      help="with --cards: the camera gives mirror images (selfie webcams): on, off, or auto per frame")
    read.add_argument("--dice", choices=DICE_KINDS, default="d6", help="kind of dice (default d6)")
    read.add_argument("--profile", help="dice profile from `companion enroll` (a name or a .json path); needed for --dice roll")
    read.add_argument("--json", action="store_true", help="one JSON object per image and line")

    enroll = sub.add_parser("enroll", help="learn the owner's own dice from photos")
    enroll_sub = enroll.add_subparsers(dest="what", required=True, metavar="WHAT")
    roll_dice = enroll_sub.add_parser(
        "roll-dice", help="Roll for the Galaxy dice: DIR/<colour>-<face>/ folders of photos (e.g. white-explore/)"
    )
    roll_dice.add_argument("folder", type=Path, metavar="DIR")
    roll_dice.add_argument("--name", default="roll", help="profile name (default roll), saved in the user's data directory")
    roll_dice.add_argument("--out", type=Path, help="save the profile here instead (a .json path)")
    cards = enroll_sub.add_parser("cards", help="a deck of cards or tiles: DIR/<card-id>/ folders of photos or scans")
    cards.add_argument("deck", metavar="DECK", help="deck name (saved in the user's data directory) or a .npz path")
    cards.add_argument("folder", type=Path, metavar="DIR")

    mat = sub.add_parser("print-mat", help="write the A4 calibration sheet with its ArUco markers (PNG or PDF)")
    mat.add_argument("path", type=Path, metavar="PATH", help="output file, .png or .pdf")

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


def _main(argv: Sequence[str] | None) -> int:
    args = _parser().parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    logging.getLogger("werkzeug").setLevel(logging.DEBUG if args.verbose else logging.WARNING)  # no line per phone request
    if args.command == "read":
        ignored = [opt for opt, given, used in (
            ("--profile", args.profile is not None, args.cards is None and args.dice == "roll"),
            ("--mirror", args.mirror != "off", args.cards is not None),
            ("--dice", args.dice != "d6", args.cards is None),
        ) if given and not used]
        if ignored:
            print(f"companion read: {', '.join(ignored)} does not apply here "
                  f"(--profile goes with --dice roll, --mirror with --cards, and --cards reads no dice)", file=sys.stderr)
            return EXIT_USAGE
    if args.command == "read" and args.cards is not None:
        return cmd_read_cards(args.images, args.cards, args.json, args.mirror)
    if args.command == "read":
        return cmd_read(args.images, args.dice, args.json, args.profile)
    if args.command == "enroll" and args.what == "cards":
        return cmd_enroll_cards(args.folder, deck_path(args.deck))
    if args.command == "enroll":
        return cmd_enroll_roll_dice(args.folder, args.out or profile_path(args.name))
    if args.command == "print-mat":
        return cmd_print_mat(args.path)
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
    from device.replay import decode_image
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


def cmd_enroll_roll_dice(folder: Path, out: Path) -> int:
    """``companion enroll roll-dice DIR``: build and save a dice profile; 0 saved, 1 bad folder."""
    from vision import VisionError
    from vision.roll_dice import enroll_roll_dice

    try:
        saved = enroll_roll_dice(folder, out, allowed=roll_dice_pairs())
    except (VisionError, OSError) as exc:
        print(f"companion enroll: {exc}", file=sys.stderr)
        return EXIT_INPUT
    print(f"saved dice profile {saved}; use it with: companion read IMAGE --dice roll --profile {saved}")
    return EXIT_OK


def deck_path(name_or_path: str) -> Path:
    """An enrolled deck's file: a path as given (``.npz``), or ``<data dir>/decks/<name>.npz``."""
    from companion.paths import data_dir

    if name_or_path.endswith(".npz") or "/" in name_or_path:
        return Path(name_or_path).expanduser()
    return data_dir() / "decks" / f"{name_or_path}.npz"


def cmd_enroll_cards(folder: Path, out: Path) -> int:
    """``companion enroll cards DECK DIR``: build and save a deck profile; 0 saved, 1 bad folder."""
    from vision import VisionError
    from vision.deck import build_deck

    try:
        deck = build_deck(folder, name=out.stem)
        out.parent.mkdir(parents=True, exist_ok=True)
        saved = deck.save(out)
    except (VisionError, OSError) as exc:
        print(f"companion enroll: {exc}", file=sys.stderr)
        return EXIT_INPUT
    print(f"saved deck {saved} ({len(set(deck.ref_ids))} cards); use it with: companion read IMAGE --cards {saved}")
    return EXIT_OK


def cmd_read_cards(images: Sequence[Path], deck_name: str, as_json: bool, mirror: str = "off") -> int:
    """``companion read IMAGE... --cards DECK``: every card or tile on each image; bad images give exit 1.

    Calibrates from the ArUco sheet or corner markers when they are in view (positions in table
    mm); without them, ``center_mm`` is estimated from the deck's card size.
    """
    from vision import VisionError
    from vision.cards import CardsConfig, read_cards
    from vision.deck import DeckProfile
    from vision.table import CalibrationFailed, calibrate

    if not deck_path(deck_name).is_file():
        print(f"companion read: no deck at {deck_path(deck_name)}: build one with `companion enroll cards DECK DIR`",
              file=sys.stderr)
        return EXIT_DEVICE
    try:
        deck = DeckProfile.load(deck_path(deck_name))
    except VisionError as exc:
        print(f"companion read: cannot load deck {deck_name}: {exc}", file=sys.stderr)
        return EXIT_DEVICE
    config = CardsConfig(mirror=mirror)

    def read(frame: Any, path: Path) -> dict:
        try:
            calibration = calibrate(frame)
        except CalibrationFailed:
            calibration = None
        return read_cards(frame, deck, calibration=calibration, config=config).to_json(str(path))

    def describe(record: dict) -> str:
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


def cmd_box(args: argparse.Namespace) -> int:
    """``companion run`` / ``companion demo``: the main loop with the views around it."""
    from companion.app import MainLoop
    from companion.hub import StateHub
    from companion.paths import default_db_path
    from companion.errors import SessionError
    from companion.session import SessionStore
    from device import DeviceError, open_source
    from rules.d6 import D6_GAME
    from vision import D6Reader, VisionError
    from vision.motion import StillnessDetector

    try:
        reader = D6Reader()
    except VisionError as exc:
        print(f"companion: cannot load the dice reader: {exc}; reinstall the package (./setup.sh run)", file=sys.stderr)
        return EXIT_DEVICE
    demo = args.command == "demo"
    spec = str(args.folder or demo_photos()) if demo else args.source
    fps = 10.0  # replays only: each photo is held as a still scene for --hold seconds
    replay = {"fps": fps, "hold_frames": max(1, round(args.hold * fps)), "skip_bad": True, "noise": 1.5,
              "loop": demo and not args.once, "realtime": not (demo and args.fast)}
    try:
        source = open_source(spec, **replay)  # options a camera does not take are ignored
        source.open()
    except (DeviceError, ValueError) as exc:
        print(f"companion {args.command}: {exc}", file=sys.stderr)
        return EXIT_DEVICE

    hub = StateHub()
    db = args.db or (default_db_path().with_name("demo.sqlite3") if demo else default_db_path())
    try:
        store = SessionStore.open_or_recover(db)
        session = None if args.new_session else store.resume_latest(D6_GAME.name)
        if session is None:
            session = store.start(D6_GAME.name, {"source": source.name})
            log.info("started session %s in %s", session.id, store.path)
        else:
            log.info("resumed session %s (%d events) in %s", session.id, session.last_seq, store.path)
    except SessionError as exc:
        print(f"companion {args.command}: {exc}", file=sys.stderr)
        source.close()
        return EXIT_DEVICE

    phone_url = ""
    server = None
    if not args.no_web:
        from companion.netinfo import phone_url as make_phone_url
        from companion.web import create_app, serve

        try:
            server = serve(create_app(hub), host=args.host, port=args.port)
        except (OSError, SystemExit) as exc:  # werkzeug exits when the port is taken
            print(f"companion {args.command}: cannot start the phone view on --host {args.host} --port {args.port} "
                  f"({exc}); try another --port, or --no-web", file=sys.stderr)
            store.close()
            source.close()
            return EXIT_DEVICE
        phone_url = make_phone_url(server.port, None if args.host in ("0.0.0.0", "::") else args.host)
        log.info("phone view at %s", phone_url)

    screen, pump = _open_screen(args, hub, phone_url)
    controls = None if args.no_gpio else _open_controls(hub)

    def on_read(seq: int, read: object) -> None:
        if args.screenshot is not None and screen is not None:
            screen.save_png(args.screenshot)
        if controls is not None:
            controls.read_ok()

    loop = MainLoop(
        source=source, reader=reader, session=session, hub=hub, stillness=StillnessDetector(),
        screen=screen, pump_screen=pump, phone_url=phone_url, stop_at_end=True,  # a replay that ends (demo --once, run FOLDER) stops the job
        on_read=on_read,
    )
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
        if server is not None:
            server.shutdown()
        if controls is not None:
            controls.close()
        store.close()
    median = sorted(stats.read_ms)[len(stats.read_ms) // 2] if stats.read_ms else 0.0
    log.info("stopped: %d frames, %d reads (median %.0f ms), session %s", stats.frames, stats.reads, median, session.id)
    return EXIT_OK


def _open_screen(args: argparse.Namespace, hub: object, phone_url: str):
    """The touchscreen and a function that pumps its input into the hub, or (None, None)."""
    if args.no_screen:
        return None, None
    import os

    import pygame

    from companion.screen import TouchScreen

    try:
        screen = TouchScreen.for_display(fullscreen=not args.windowed and args.command == "run", phone_url=phone_url)
        drawn_to_display = os.environ.get("SDL_VIDEODRIVER") != "dummy"
    except pygame.error as exc:
        log.info("no display for the touchscreen (%s); drawing off-screen (use --screenshot to see it)", exc)
        screen = TouchScreen(phone_url=phone_url)
        drawn_to_display = False

    def pump() -> None:
        if pygame.display.get_init():
            for event in pygame.event.get():
                screen.handle_event(event, hub)
            if drawn_to_display:
                pygame.display.flip()

    return screen, pump


def _open_controls(hub):
    """The GPIO button (read now) and status LED, or None where no GPIO is available."""
    from device import Controls

    return Controls.create_optional(on_press=lambda: hub.post_action("read_now", origin="button"))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
