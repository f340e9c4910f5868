"""``companion run`` and ``companion demo``: the main loop with the views around it (the touchscreen, the phone
view, the GPIO button and buzzer), on the camera or a replay of photos; a game's flow (``--game``) with its setup,
options and camera parts."""

from __future__ import annotations

import argparse
import json
import logging
import signal
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from importlib import resources
from pathlib import Path
from typing import Any

from companion import i18n
from companion.actions import Action
from companion.commands import EXIT_DEVICE, EXIT_INPUT, EXIT_OK, EXIT_USAGE, InputError, UsageError
from companion.commands.files import dice_among_tiles, load_deck, load_dice_reader, screenshot_problem, screenshot_saver
from companion.config import CHOOSE
from companion.i18n import N_, Text, _, message_of, ngettext, os_reason, say, say_template

log = logging.getLogger("companion")  # one logger for every command: the lines read as they always have

def demo_photos() -> Path:
    """The folder of real dice photos bundled with the package (BSD-3, see its README)."""
    return Path(str(resources.files("companion") / "demo" / "photos"))

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
        companion.errors.BadEntry: a bad player list, race or objective, or a setup the game's own check refuses
            (Among the Stars: ``--objectives`` fewer or more than the players play), as Start refuses it.
        rules.RulesError: settings the game refuses (e.g. one player for a 2-4 player game).
    """
    from companion.errors import BadEntry
    from companion.flows import FLOWS
    from companion.player_names import parse_players, separator_hint

    if args.players is None:
        return None
    import rules

    spec = FLOWS[args.game]
    # too many first: six players for a 2-4 player game is that, not "no colour left" for the sixth; then each
    # name and colour, so one bad entry ("Ann:pink", a name of 41 characters) is named, not counted as "got 1"
    most = spec.info.players[1]
    given = len([p for p in args.players.split(",") if p.strip()])
    if most and given > most:
        spec.info.check_player_count(given)
    seats = parse_players(args.players, spec.info.colours)
    try:
        spec.info.check_player_count(len(seats))
    except rules.BadSettings as exc:  # too few: "Ann;Bob" is one player named 'Ann;Bob'
        hint = separator_hint(seats) if len(seats) < spec.info.players[0] else None
        if hint is None:
            raise
        raise BadEntry(Text("{problem}; {hint}", problem=message_of(exc), hint=hint)) from None
    settings = spec.settings(seats, options)
    spec.check_setup(settings)  # what Start checks on the touchscreen and phones (Among: the objectives' count)
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
        UsageError: game options given while an open game is resumed (they go with a new game).
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
            log.warning("%s", ngettext(  # the owner reads it at the start: in the command's language
                "{n} open {game} game stays in {path} (see `companion sessions`); its players or options differ, so "
                "a new game starts",
                "{n} open {game} games stay in {path} (see `companion sessions`); their players or options differ, "
                "so a new game starts", len(open_games)).format(n=len(open_games), game=args.game, path=store.path))
        return store.start(args.game, settings)
    session = None if args.new_session else store.resume_latest(args.game)
    if session is not None and options:
        from companion.flows import FLOWS
        from companion.game_options import and_list, given_flags

        flags = given_flags(args, [FLOWS[args.game].info])
        raise UsageError(ngettext("{flags} goes with a new game (--players, or the setup step with --new-session)",
                                  "{flags} go with a new game (--players, or the setup step with --new-session)",
                                  len(flags)).format(flags=and_list(flags)))
    return session

def cmd_box(args: argparse.Namespace) -> int:  # noqa: C901 - wires the box (camera, screen, phones, GPIO) in start order
    """``companion run`` / ``companion demo``: the main loop with the views around it."""
    from companion.app import MainLoop
    from companion.camera import deck_kind
    from companion.errors import BadEntry, NotASessionDatabase, SessionError
    from companion.flows import FLOWS
    from companion.game_options import flows_infos
    from companion.game_options import misplaced as misplaced_options
    from companion.hub import StateHub
    from companion.notify import ServiceNotifier, running_status
    from companion.owner_commands import apply_box_config
    from companion.paths import default_db_path, demo_db_path
    from companion.reading import table_stillness
    from companion.session import SessionStore
    from device import DeviceError, one_demo_hint, open_source
    from rules import RulesError
    from rules.d6 import D6_GAME
    from vision import D6Reader, VisionError

    try:
        box_config = apply_box_config(args)  # the file's settings where no flag was given
    except UsageError as exc:  # --config FILE that is no configuration: the line asked for it, the box does not start
        print(_("companion {command}: {problem}").format(command=args.command, problem=exc), file=sys.stderr)
        return EXIT_USAGE
    demo = args.command == "demo"
    game_not_given = box_config.origin("box.default_game") == "default"  # neither --game nor the configuration
    args.game = start_game(args.game, game_not_given,
                           "replay" if demo else (args.source or "auto"))
    flow_game = args.game in FLOWS
    chooser = args.game == CHOOSE
    # the cameras of the games this start can reach: the one given, or every game's with the chooser
    cameras = [FLOWS[args.game].camera] if flow_game else [f.camera for f in FLOWS.values()] if chooser else []
    misplaced = ["--players"] if args.players is not None and not flow_game else []
    misplaced += misplaced_options(args, flows_infos(FLOWS), args.game if flow_game else None)
    if args.deck is not None and not any(c is not None and deck_kind(c.passes) is not None for c in cameras):
        misplaced.append("--deck")  # the game's camera reads no cards, tiles or hexes
    if args.dice_profile is not None and not any(c is not None and c.dice_set is not None for c in cameras):
        misplaced.append("--dice-profile")  # the game's camera reads no dice
    if args.calibration is not None and not (flow_game or chooser):
        misplaced.append("--calibration")  # the d6 reader works in pixels: a table calibration would be ignored
    if misplaced and game_not_given:  # no game was asked for: say which to ask for, not only the default's name
        print(
            _("companion {command}: {flags} goes with a game: give --game {games} (without --game, {command} starts "
              "{game})").format(command=args.command, flags=', '.join(misplaced), games="|".join(FLOWS),
                                game=args.game),
            file=sys.stderr,
        )
        return EXIT_USAGE
    if misplaced:
        print(
            _("companion {command}: {flags} does not go with --game {game}").format(
                command=args.command, flags=', '.join(misplaced), game=args.game
            ),
            file=sys.stderr,
        )
        return EXIT_USAGE
    if args.screenshot is not None:
        problem = screenshot_problem(args.screenshot, no_screen=args.no_screen)
        if problem:
            print(
                _("companion {command}: --screenshot {screenshot}: {problem}").format(
                    command=args.command, screenshot=args.screenshot, problem=problem
                ),
                file=sys.stderr,
            )
            return EXIT_USAGE
    make_camera = calibration = settings = None
    options = _game_options(args)
    if flow_game or chooser:
        try:  # every input is checked before the camera is opened and a database file is created
            settings = _new_game_settings(args, options) if flow_game else None
            make_camera, calibration = _camera_parts(args)
        except InputError as exc:
            print(_("companion {command}: {problem}").format(command=args.command, problem=say(exc)), file=sys.stderr)
            return exc.code
        except (UsageError, BadEntry, RulesError) as exc:
            print(_("companion {command}: {problem}").format(command=args.command, problem=say(exc)), file=sys.stderr)
            return EXIT_USAGE
    try:
        reader = D6Reader() if args.game == "d6" else None
    except VisionError as exc:
        print(
            _("companion: cannot load the dice reader: {problem}; reinstall the package (./setup.sh run)").format(
                problem=say(exc)
            ),
            file=sys.stderr,
        )
        return EXIT_DEVICE
    spec = str(args.folder or demo_photos()) if demo else args.source
    notifier = ServiceNotifier()  # systemd's READY=1 / STATUS= / WATCHDOG=1 / STOPPING=1; a no-op elsewhere
    notifier.status(f"starting: opening the camera ({spec})")
    replay = replay_options(spec, args.hold, loop=demo and not args.once, realtime=not (demo and args.fast))
    try:
        size = {"size": box_config["camera.size"]} if box_config["camera.size"] else {}
        # demo's argument is always a folder or a video: a missing one is said missing, not taken for a camera's name
        source = open_source(f"replay:{spec}" if demo else spec, **replay, **size)  # a camera ignores replay options
        if demo:
            from device.errors import Words

            source.label = Words(N_("demo replay"))
        source.open()
    except (DeviceError, ValueError) as exc:
        print(
            _("companion {command}: {problem}").format(command=args.command, problem=one_demo_hint(say(exc))),
            file=sys.stderr,
        )
        return EXIT_DEVICE

    hub = StateHub()
    db = args.db or (demo_db_path() if demo else default_db_path())
    try:
        store = None
        if args.db is not None:  # a typo in --db is said, not made into folders (the box's own are made)
            from companion.database import check_folder_there
            from companion.paths import data_dir

            check_folder_there(args.db, own=data_dir())
        store = SessionStore.open_or_recover(db, exclusive=True)  # one box per database
        if store.recovered_from is not None:  # said where the owner looks, as the views say it
            from companion.storage import recovered_text

            print(_("companion {command}: {problem}").format(command=args.command,
                                                           problem=say(recovered_text(store.recovered_from))),
                  file=sys.stderr)
        if chooser:
            session = None
            # the chooser, not where the box was: --new-session, or the chooser asked for by --game choose or the
            # configuration (the games left unfinished are on it to go back to); when nobody asked for it (the
            # default) the box comes back to where it was, and so it does to a setup under way (a power cut while
            # the players join: a setup is not on the chooser to go back to)
            if args.new_session or (not game_not_given and not _setting_up(store)):
                from companion.records import save_place

                if store.read_only is None:
                    save_place(store, {"mode": CHOOSE})
        elif flow_game:
            session = _flow_session(args, store, settings, options)
            if session is None:
                log.info("%s", _("{game}: no open game in {path}: set it up on the touchscreen or a phone").format(
                    game=args.game, path=store.path))  # what to do next, read at the table: in the run's language
            else:
                log.info("%s session %s (%d events) in %s", args.game, session.id, session.last_seq, store.path)
        else:
            if demo and game_not_given and not args.new_session:
                _say_kept_game(store, args.command)
            session = None if args.new_session else store.resume_latest(D6_GAME.name)
            if session is None:
                session = store.start(D6_GAME.name, {"source": source.name})
                log.info("started session %s in %s", session.id, store.path)
            else:
                log.info("resumed session %s (%d events) in %s", session.id, session.last_seq, store.path)
    except SessionError as exc:
        problem = exc
        if isinstance(exc, NotASessionDatabase):  # not --db's: the demo's or the box's own record is to be moved away
            problem = exc.said_for(None if args.db else "demo" if demo else "box")
        print(_("companion {command}: {problem}").format(command=args.command, problem=say(problem)), file=sys.stderr)
        source.close()
        if store is not None:
            store.close()
        return EXIT_DEVICE
    except (UsageError, BadEntry, RulesError) as exc:
        print(_("companion {command}: {problem}").format(command=args.command, problem=say(exc)), file=sys.stderr)
        source.close()
        store.close()
        return EXIT_USAGE
    # from here the box's own views say what they show (the touchscreen in this thread): as the players wrote it,
    # never fitted again at the command's output
    i18n.fit_at_output(False)
    flow = setup = None
    if flow_game:
        from companion.flow import GameFlow

        if session is not None:
            flow = GameFlow(session, FLOWS[args.game])
        else:
            from companion.setup_flow import TableSetup

            setup = TableSetup(store, FLOWS[args.game], options, calibration, resume=not args.new_session)
    camera_flow = make_camera(flow) if (flow is not None and make_camera is not None) else None
    from companion.box_settings import BoxSettings
    from companion.library import Library
    from device import Backlight

    buzzer_pin = args.buzzer_pin
    box_settings = BoxSettings(_settings_file(demo), box_config["box.language"], Backlight.find(),
                               buzzer=buzzer_pin is not None and not args.no_gpio)
    health, watched = _health_watch(box_config, db, source)
    library = Library(store, dice_reader=(lambda: reader) if reader is not None else D6Reader, make_camera=make_camera,
                      calibration=calibration, source=source.name, box_settings=box_settings)

    phone_url = ""
    server = None
    refresh_url = None
    if not args.no_web:
        from companion.netinfo import phone_url as make_phone_url
        from companion.paths import web_secret_key
        from companion.web import create_app, serve

        try:
            cookie_key = web_secret_key()
        except OSError as exc:  # a read-only or full data folder: phones join again after a restart
            cookie_key = None
            log.warning("%s", _("cannot keep the phone view's key in the data folder ({problem}); phones scan the QR "
                                "code again after a restart").format(problem=say(os_reason(exc))))
        named = [] if args.host in ("0.0.0.0", "::") else [args.host]  # --host NAME: the box answers to it too
        try:
            from companion.library import export_documents

            app = create_app(hub, secret_key=cookie_key, hosts=named, exports=lambda sid: export_documents(store, sid))
            server = serve(app, host=args.host, port=args.port)
        except OSError as exc:  # serve() binds first and names the problem in one line
            print(
                _(
                    "companion {command}: cannot start the phone view: {problem}; try another --host or --port, or "
                    "--no-web"
                ).format(command=args.command, problem=say(exc)),
                file=sys.stderr,
            )
            store.close()
            source.close()
            return EXIT_DEVICE
        phone_url = make_phone_url(server.port, None if args.host in ("0.0.0.0", "::") else args.host)
        if args.host in ("0.0.0.0", "::"):  # no network at start: "no network" until an address appears
            port = server.port
            refresh_url = lambda: make_phone_url(port)  # noqa: E731
    announcer = None
    if server is not None and box_config["web.announce"]:  # NAME.local and an _http._tcp service
        from companion.mdns import for_phone_view

        announcer = for_phone_view(box_config["box.name"], args.host, server.port)

    screen, pump = _open_screen(args, hub, phone_url)
    # the GPIO button: Next in a game (and its table check), "read now" with the d6 dice
    controls = (
        None
        if args.no_gpio
        else _open_controls(
            hub, Action.NEXT_PHASE if args.game != "d6" else Action.READ_NOW, args.buzzer_pin, box_config
        )
    )

    save_screenshot = screenshot_saver(screen, args.screenshot)

    def on_read(seq: int, read: object) -> None:
        save_screenshot()
        if controls is not None:
            controls.read_ok()

    read_executor = (ThreadPoolExecutor(max_workers=1, thread_name_prefix="camera-read")
                     if args.game != "d6" and replay["realtime"] else None)
    loop = MainLoop(
        source=source, reader=reader, session=session, hub=hub, stillness=table_stillness(),
        screen=screen, no_screen=bool(args.no_screen), pump_screen=pump, phone_url=phone_url,
        stop_at_end=True,  # a replay that ends (demo --once, run FOLDER) stops the job
        command=args.command,  # "how to start a game" hints name the command the box was started with
        on_read=on_read, flow=flow, camera_flow=camera_flow, setup=setup, make_camera=make_camera,
        on_change=save_screenshot if args.game != "d6" else None,  # d6: after each read (on_read); else each change
        on_announce=lambda what: controls.beep(3 if what == "last_round" else 1)
        if controls is not None and box_settings.sound else None,
        # a live camera (or a replay in real time): card reads on a worker so the screens stay live;
        # a replay at full speed (--fast) reads each frame before the next, as a test would
        read_executor=read_executor,
        watchdog=notifier.loop_turned,  # READY=1 on the first turn, then the watchdog pings
        library=library, box_settings=box_settings, refresh_url=refresh_url,
        health=health,
    )
    watched["loop"] = loop  # the health checks look at the loop's camera pictures
    if server is not None:  # the loop has made or loaded the join secret: the QR code's link, on one line
        from companion.netinfo import join_url

        pairing = hub.pairing()
        # this line stays English in every language: systemd/install.sh and companion.phone_link read it
        print(f"phone view at {join_url(phone_url, pairing.secret if pairing is not None else None)}", flush=True)
    notifier.status(running_status(source.name, phone_url))
    # SIGTERM (systemctl stop) stops the loop as Ctrl-C does; the caller's handler is given back at the end (a test
    # or a script that runs the box in its own process keeps its own)
    before_sigterm = signal.signal(signal.SIGTERM, lambda *_: loop.stop())
    # Ctrl-C stops the loop after its pass, as SIGTERM does: an interrupt raised in the middle of a pass could land
    # in a lock being taken back and surface as another error, taken for one failed pass. A second Ctrl-C while the
    # loop still turns stops it at once; while the box closes, Ctrl-C waits for it to close (nothing is lost)
    before_sigint = signal.signal(signal.SIGINT, _stop_on_interrupt(loop))
    if controls is not None:
        controls.watching()
    loop.health.start()
    try:
        stats = loop.run(max_frames=args.max_frames)
    except KeyboardInterrupt:
        stats = loop.stats
    except DeviceError as exc:
        print(_("companion {command}: {problem}").format(command=args.command, problem=say(exc)), file=sys.stderr)
        return EXIT_DEVICE
    finally:
        signal.signal(signal.SIGINT, _closing)
        try:
            signal.signal(signal.SIGTERM, before_sigterm if before_sigterm is not None else signal.SIG_DFL)
            notifier.stopping()
            loop.health.stop()
            if read_executor is not None:
                read_executor.shutdown(wait=True, cancel_futures=True)
            if announcer is not None:
                announcer.stop()
            if server is not None:
                server.shutdown()
            if controls is not None:
                controls.close()
            store.close()
        finally:
            signal.signal(signal.SIGINT, before_sigint if before_sigint is not None else signal.default_int_handler)
    log.info("%s", stop_line(stats, loop.session.id if loop.session is not None else None))
    return EXIT_OK


def stop_line(stats: Any, session: str | None) -> str:
    """The line the box logs when it stops, from its :class:`companion.app.LoopStats`: ``"stopped: 320 frames, 8 reads
    (median 108 ms), 11 recorded (8 read by the camera and 3 tapped in), session ID"``. Reads are every read of the
    table (a photo already recorded is read and shown again); recorded, every event the run added to the game's
    record: the camera's (new rolls) and the taps' (the phones' reports, Next, an Undo). Its parts stay apart by
    ``", "`` as before the taps were counted. English, as the log is."""
    median = sorted(stats.read_ms)[len(stats.read_ms) // 2] if stats.read_ms else 0.0
    recorded = stats.reads + stats.reported
    return (f"stopped: {stats.frames} frames, {len(stats.read_ms)} reads (median {median:.0f} ms), {recorded} recorded "
            f"({stats.reads} read by the camera and {stats.reported} tapped in), session "
            f"{session if session is not None else 'none (not set up)'}")


def _stop_on_interrupt(loop: Any, clock: Callable[[], float] = time.monotonic,
                       insist_s: float = 2.0) -> Callable[[int, Any], None]:
    """The box's SIGINT handler while ``loop`` (a :class:`companion.app.MainLoop`) turns: the first Ctrl-C asks
    the loop to stop after its pass (:meth:`~companion.app.MainLoop.stop`); another within ``insist_s`` s (a
    double press) is the same ask; one after that, with the loop still turning, raises ``KeyboardInterrupt`` (a
    pass that does not end is stopped at once)."""
    asked: list[float] = []

    def handler(signum: int, frame: Any) -> None:
        if asked and clock() - asked[0] >= insist_s:
            raise KeyboardInterrupt
        if not asked:
            asked.append(clock())
            log.info("%s", _("stopping: Ctrl-C (press it again after {seconds:.0f} s to stop at once)").format(
                seconds=insist_s))  # read at the table, as the box stops: in the run's language
        loop.stop()

    return handler


def _closing(signum: int, frame: Any) -> None:
    """The box's SIGINT handler while it closes (the loop has stopped, the record is being closed): said, not
    obeyed, so the record closes whole."""
    log.info("%s", _("stopping: the box is closing"))


PHOTO_FPS = 10.0
"""Frames per second of a replay of photos (each photo is held ``--hold`` seconds as a still table)."""


def replay_options(spec: str, hold: float, loop: bool = False, realtime: bool = True) -> dict[str, Any]:
    """How ``run``/``demo`` replay ``spec`` (options a camera does not take are ignored by ``device.open_source``): a
    video plays at its own frame rate, each frame once (125 frames stay 125, ``--hold`` is for photos); a folder of
    photos (or one photo) holds each for ``hold`` seconds at :data:`PHOTO_FPS` with a little sensor noise, as a
    camera over a still table would give them."""
    from device.replay import VIDEO_EXTENSIONS

    target = str(spec).strip()
    if target.lower().startswith(("replay:", "opencv:")):
        target = target.partition(":")[2]
    if Path(target).suffix.lower() in VIDEO_EXTENSIONS:
        return {"fps": None, "hold_frames": 1, "skip_bad": True, "noise": 0.0, "loop": loop, "realtime": realtime,
                "on_skip": say_skipped}
    return {"fps": PHOTO_FPS, "hold_frames": max(1, round(hold * PHOTO_FPS)), "skip_bad": True, "noise": 1.5,
            "loop": loop, "realtime": realtime, "on_skip": say_skipped}


def say_skipped(problem: Exception) -> None:
    """A replayed photo that cannot be decoded, skipped: one warning in the command's language (what is wrong with
    it and what to do: copy it again or delete it)."""
    log.warning("%s", _("skipping a photo of the replay: {problem}").format(problem=say(problem)))


def _say_kept_game(store: Any, command: str) -> None:
    """Say, when ``companion demo`` without ``--game`` reads the dice of its replay (as it always does) but the box
    was last on a game being set up or played in this database, that the game is kept and the command that goes back
    to it (``--game NAME``: the open game of that name goes on): a table restarting the demo saw only the dice and
    took its game for lost. Nothing is said for the dice or for a game that has ended."""
    from companion.errors import SessionError
    from companion.flows import FLOWS
    from companion.modes import ModeName
    from companion.records import load_place

    try:
        place = load_place(store) or {}
        game = place.get("game")
        if place.get("mode") not in (ModeName.SETUP.value, ModeName.PLAY.value, ModeName.CALIBRATION.value) or (
                game not in FLOWS):
            return
        if place.get("session") and not any(info.id == place["session"] and info.ended_at is None
                                            for info in store.list_sessions()):
            return  # that game has ended since
    except SessionError as exc:  # where the box was cannot be read: the dice start as asked, nothing to say
        log.debug("where the box was cannot be read: %s", exc)
        return
    log.warning("%s", _("{command} reads the dice of the replay (without --game it always does); the {title} game "
                        "the box was on is kept: `companion {command} --game {game}` goes back to it").format(
        command=command, title=FLOWS[game].title, game=game))


def _setting_up(store: Any) -> bool:
    """Whether the box stopped in a game's setup (the place kept in ``store``: :func:`companion.records.load_place`):
    ``--game choose`` then comes back to it, players, colours, seats and options as the phones were last told. A
    place that cannot be read is no setup (the chooser; :meth:`companion.library.Library.place` says why)."""
    from companion.errors import SessionError
    from companion.modes import ModeName
    from companion.records import load_place

    try:
        place = load_place(store) or {}
    except SessionError:
        return False
    return place.get("mode") == ModeName.SETUP.value


def start_game(game: str, not_given: bool, source: str) -> str:
    """What the box starts on: ``game`` (``--game``, else ``box.default_game``), except that the chooser given by
    no one (the configuration's default) on a replay of photos (``companion demo``, ``run --source FOLDER|VIDEO``)
    reads the d6 dice in them, as the box always did: the chooser is for a camera over a table (``--game choose``
    asks for it on any source; the Games button opens it from the dice)."""
    if game == CHOOSE and not_given and not live_spec(source):
        return "d6"
    return game


def live_spec(spec: str) -> bool:
    """Whether a ``--source`` names a camera (``auto``, ``picamera2[:N]``, ``opencv:N``), not a replay of photos or a
    video."""
    text = str(spec).strip().lower()
    return text == "auto" or text.startswith("picamera2") or (text.startswith("opencv:") and text[7:].isdigit())


def _settings_file(demo: bool) -> Path | None:
    """Where the settings screen's choices are kept (``box-settings.json`` in the data folder; the demo's own file for
    a demo, which leaves the real box as it was), or None when the data folder cannot be made (they then hold until
    the box stops)."""
    from companion.box_settings import default_path

    try:
        return default_path(demo)
    except OSError as exc:
        log.warning("%s", _("the settings screen's choices are not kept ({problem})").format(
            problem=say(os_reason(exc))))
        return None


def _health_watch(config: Any, db: Path, source: Any) -> tuple[Any, dict[str, Any]]:
    """The box's health checks (:class:`companion.doctor.HealthWatch`) on its own database and camera pictures, and
    the dict its camera look reads the loop from (``{"loop": MainLoop}``, set once the loop exists)."""
    from companion.doctor import DoctorContext, HealthWatch

    watched: dict[str, Any] = {}

    def look() -> tuple[Any, str | None, str]:
        loop = watched.get("loop")
        frame = None if loop is None else loop.last_frame
        if loop is None or loop.camera != "ok" or frame is None:
            return None, (loop.message if loop is not None else None) or "no picture yet", Text(source.label)
        return frame.image, None, Text(source.label)  # the health line is on every view: the camera's kind

    return HealthWatch(lambda: DoctorContext(config, db_path=Path(db), look=look)), watched


def _load_box_calibration(path: Path | None) -> Any:
    """The table calibration for run/demo: ``--calibration FILE`` (must load), else the saved one when
    present (a damaged one is logged and skipped), else None (the reader works in pixels).

    Raises:
        InputError: ``--calibration`` names a missing file (exit 3, as a missing deck or profile), a folder
            (exit 2, :func:`companion.commands.files.refuse_folder`) or a file that cannot be read or is malformed
            (exit 1).
    """
    from companion.calibration import BadCalibrationFile, default_calibration_path, load_calibration
    from companion.commands.files import refuse_folder

    if path is not None:
        if not path.expanduser().is_file():
            refuse_folder(path, "--calibration")
            raise InputError(
                _("no calibration at {path}: make one with `companion calibrate`").format(path=path), EXIT_DEVICE
            )
        try:
            return load_calibration(path)
        except BadCalibrationFile as exc:
            raise InputError(message_of(exc), EXIT_INPUT) from None
    default = default_calibration_path()
    if not default.is_file():
        log.info("no table calibration (%s): positions in pixels; run `companion calibrate` for table mm", default)
        return None
    try:
        calibration = load_calibration(default)
    except BadCalibrationFile as exc:
        log.warning("%s", _("{problem}; reading in pixels").format(problem=say(message_of(exc))))
        return None
    log.info("table calibration from %s", default)
    return calibration

def _camera_parts(args: argparse.Namespace) -> tuple[Callable[[Any], Any] | None, Any]:
    """(make_camera, calibration) for a flow game (or the chooser's games): ``make_camera(flow)`` builds the flow's
    camera part from ``--deck`` (of the kind the game's passes read: cards and square tiles, or Eclipse's sector
    hexes) / ``--dice-profile`` (of the game's dice), and returns None when neither is given or neither fits the game
    (the game is played from the phones); the calibration is ``--calibration`` or the saved one (None: pixels).

    With one game (``--game``) the deck and profile are loaded here, before the camera opens; with the chooser each
    file is checked here and loaded for the first game that reads its kind.

    Raises:
        InputError: no such deck, profile or ``--calibration`` file, or a deck or profile that does not
            load (exit 3); a ``--calibration`` file that cannot be read (exit 1).
    """
    from companion.camera import CameraFlow, deck_kind
    from companion.flows import FLOWS
    from companion.paths import data_dir

    calibration = _load_box_calibration(args.calibration)
    if args.deck is None and args.dice_profile is None:
        return None, calibration
    decks: dict[Any, Any] = {}
    readers: dict[Any, Any] = {}

    def deck_for(kind: Any) -> Any:
        if kind not in decks:  # a deck of another kind is refused (InputError, exit 3)
            decks[kind] = load_deck(args.deck, want=kind, option="--deck")
        return decks[kind]

    def dice_for(dice_set: Any) -> Any:
        from vision.readers import RollDiceAdapter

        if dice_set.name not in readers:  # the game's dice (Roll's, Eclipse's), read by the one dice reader
            # with a calibration, the paper round its markers is the dice colours' white reference
            # one fixed camera: the dice' size searched once, then kept while it holds
            readers[dice_set.name] = RollDiceAdapter(load_dice_reader(dice_set, args.dice_profile, remember_size=True,
                                                                    option="--dice-profile"),
                                                     calibration=calibration)
        return readers[dice_set.name]

    def parts(camera: Any, title: Any) -> tuple[Any, Any]:
        kind = deck_kind(camera.passes) if camera is not None else None
        deck = deck_for(kind) if args.deck is not None and kind is not None else None
        if deck is not None:
            _refuse_other_game(deck, camera, title, args.deck)
        dice = dice_for(camera.dice_set) if args.dice_profile is not None and camera is not None and \
            camera.dice_set is not None else None
        # the game's tiles lie among the dice, but no deck identifies them: their print is not taken for dice
        return deck, dice_among_tiles(dice, camera, deck)

    def camera(flow: Any, deck: Any, dice_reader: Any) -> Any:
        mirror, on_mirror = _deck_mirror(args.calibration, deck)
        return CameraFlow(flow, deck=deck, calibration=calibration, dice_reader=dice_reader,
                          image_dir=data_dir() / "reads", mirror=mirror, on_mirror=on_mirror)

    if args.game in FLOWS:
        deck, dice_reader = parts(FLOWS[args.game].camera, FLOWS[args.game].title)  # a bad file stops the start
        return (lambda flow: camera(flow, deck, dice_reader)), calibration
    _check_files_exist(args)

    def make_camera(flow: Any) -> Any:
        try:
            deck, dice_reader = parts(flow.spec.camera, flow.spec.title)
        except InputError as exc:  # a deck or profile of another game's kind: played from the phones
            log.warning("%s", _("{game}: {problem}; the game is played from the phones").format(
                game=say(flow.spec.title), problem=say(exc)))
            return None
        if deck is None and dice_reader is None:
            return None
        return camera(flow, deck, dice_reader)

    return make_camera, calibration


def _refuse_other_game(deck: Any, camera: Any, title: Any, name: str) -> None:
    """Refuse a deck none of whose cards is one of the game's (``camera.knows``): another game's deck would be read
    at every still table and asked about never.

    Raises:
        InputError: naming the deck, the game and the deck's first cards (exit 3, as a deck of the other kind).
    """
    ids = list(deck.card_ids)
    if not ids or any(camera.knows(i) for i in ids):
        return
    raise InputError(_("deck {deck} holds no card of {game} (its cards: {cards}): enroll the game's own cards with "
                       "`companion enroll cards DECK DIR`").format(
        deck=name, game=say(title), cards=", ".join(ids[:3]) + (", …" if len(ids) > 3 else "")), EXIT_DEVICE)


def _check_files_exist(args: argparse.Namespace) -> None:
    """The chooser's ``--deck`` and ``--dice-profile`` exist (each is loaded for the game chosen).

    Raises:
        InputError: naming the missing file (exit 3), or the folder given for it (exit 2).
    """
    from companion.commands.files import deck_path, profile_path, refuse_folder, refuse_given_folder

    deck = None if args.deck is None else deck_path(args.deck, "--deck")
    if deck is not None and not deck.is_file():
        refuse_folder(deck, "--deck")
        raise InputError(_("no deck at {path}: enroll one with `companion enroll cards`").format(path=deck),
                         EXIT_DEVICE)
    profile = None if args.dice_profile is None else profile_path(args.dice_profile)
    if profile is not None and not profile.is_file():
        refuse_given_folder(args.dice_profile, profile, "--dice-profile")
        raise InputError(_("no dice profile at {path}: build one with `companion enroll roll-dice DIR`").format(
            path=profile), EXIT_DEVICE)


def _deck_mirror(given: Path | None, deck: Any) -> tuple[bool | None, Callable[[bool], None] | None]:
    """(whether the camera mirrors ``deck``'s cards as kept with the calibration, or None: decided on the game's first
    read; where a decision on a read is kept: the calibration file, when there is one)."""
    from companion.calibration import deck_mirror, default_calibration_path, keep_mirror

    if deck is None:
        return None, None
    path = given if given is not None else default_calibration_path()
    if not Path(path).expanduser().is_file():
        return None, None
    name = deck.name

    def keep(mirrored: bool) -> None:
        keep_mirror(Path(path).expanduser(), name, mirrored)
        log.info("kept with the calibration %s: this camera %s the cards of deck %s", path,
                 "mirrors" if mirrored else "does not mirror", name)

    return deck_mirror(Path(path).expanduser(), name), keep


def _open_screen(args: argparse.Namespace, hub: Any, phone_url: str):
    """The touchscreen and a function that pumps its input into the hub, or (None, None)."""
    if args.no_screen:
        return None, None
    from companion.screen.window import open_touchscreen

    screen, pump, _window, problem = open_touchscreen(hub, fullscreen=not args.windowed and args.command == "run",
                                                phone_url=phone_url, pairing=hub.pairing)
    if problem is not None:
        log.info("no display for the touchscreen (%s); drawing off-screen (use --screenshot to see it)", problem)
    return screen, pump


def _open_controls(hub, action: Action = Action.READ_NOW, buzzer_pin: int | None = None, pins: Any = None):
    """The GPIO button (posts ``action``: read now, or the next phase of a game flow), the status
    LED, the optional Undo button and buzzer, or None where no GPIO is available; ``pins`` (the
    :class:`companion.config.Config`) gives their BCM numbers (default 17, 27, none)."""
    from device import Controls

    wired = {} if pins is None else {"button_pin": pins["gpio.next_pin"], "led_pin": pins["gpio.led_pin"],
                                     "undo_pin": pins["gpio.undo_pin"]}
    return Controls.create_optional(on_press=lambda: hub.post_action(action, origin="button"), buzzer_pin=buzzer_pin,
                                    on_undo=lambda: hub.post_action(Action.UNDO, origin="button"), say=say_template,
                                    **wired)
