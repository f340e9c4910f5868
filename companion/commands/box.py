"""``companion run`` and ``companion demo``: the main loop with the views around it (the touchscreen, the phone
view, the GPIO button and buzzer), on the camera or a replay of photos; a game's flow (``--game``) with its setup,
options and camera parts.

The command is put together from its parts, one module each: which game it starts on and its record
(:mod:`companion.commands.box_game`), the game's camera parts (:mod:`companion.commands.box_camera`), a replay of
photos (:mod:`companion.commands.box_replay`) and the views and devices around the loop
(:mod:`companion.commands.box_views`); this module starts the box in order and stops it.
"""

from __future__ import annotations

import argparse
import logging
import signal
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from companion import i18n
from companion.actions import Action
from companion.commands import EXIT_DEVICE, EXIT_OK, EXIT_USAGE, InputError, UsageError
from companion.commands.box_camera import (  # noqa: F401 (every name this module held stays importable from here)
    _camera_parts,
    _check_files_exist,
    _deck_mirror,
    _load_box_calibration,
    _refuse_other_game,
)
from companion.commands.box_game import (  # noqa: F401
    _flow_session,
    _game_options,
    _new_game_settings,
    _say_kept_game,
    _setting_up,
    live_spec,
    start_game,
)
from companion.commands.box_replay import PHOTO_FPS, demo_photos, replay_options, say_skipped  # noqa: F401
from companion.commands.box_views import _health_watch, _open_controls, _open_screen, _settings_file
from companion.commands.files import screenshot_problem, screenshot_saver
from companion.config import CHOOSE
from companion.i18n import N_, _, os_reason, say

log = logging.getLogger("companion")  # one logger for every command: the lines read as they always have


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
    started_here = None  # a session this start made: removed if the start fails before anything is recorded in it
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
            known = {info.id for info in store.list_sessions()}
            session = _flow_session(args, store, settings, options)
            started_here = session if session is not None and session.id not in known else None
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
                session = started_here = store.start(D6_GAME.name, {"source": source.name})
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
        named = phone_view_names(args.host, box_config["box.name"], box_config["web.announce"])
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
            _discard_unplayed(store, started_here)  # no phantom game for the next start
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

    screen, pump, unseen = _open_screen(args, hub, phone_url)  # unseen: no display, phones do its part
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
        screen=screen, no_screen=unseen, pump_screen=pump, phone_url=phone_url,
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
    before_sigterm = signal.signal(signal.SIGTERM, _stop_on_sigterm(loop))
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


def _discard_unplayed(store: Any, session: Any) -> None:
    """Remove ``session`` (made by this start, or None) from ``store`` when nothing was recorded in it
    (:meth:`companion.session.SessionStore.discard_unplayed`); a store that cannot be written keeps it, said in one
    log line (the start has failed already: this must not fail it another way)."""
    from companion.errors import SessionError

    if session is None:
        return
    try:
        store.discard_unplayed(session.id)
    except SessionError as exc:
        log.warning("session %s made by this start is kept (%s)", session.id, say(exc))


def phone_view_names(host: str, box_name: str, announce: bool) -> list[str]:
    """The names the phone view answers to besides its own (``create_app``'s ``hosts``): ``--host`` when it names
    one address or name, and the name the box announces itself by on the network (``companion.local``) when it does
    (:func:`companion.mdns.announced_name`), so a phone that opens the announced name is answered."""
    from companion.mdns import announced_name

    named = [] if host in ("0.0.0.0", "::") else [host]  # --host NAME: the box answers to it too
    announced = announced_name(box_name, host, announce)
    if announced is not None:
        named.append(announced)
    return named


def stop_line(stats: Any, session: str | None) -> str:
    """The line the box logs when it stops, from its :class:`companion.app.LoopStats`, in the box's language:
    ``"stopped: 320 frames, 8 reads (median 108 ms), 11 recorded (8 read by the camera and 3 tapped in), session
    ID"``; no read is ``"no reads"``, one ``"1 read (median 30 ms)"`` (each count in the language's plural form:
    Polish has three).
    Reads are every read of the table (a photo already recorded is read and shown again); recorded, every event the
    run added to the game's record: the camera's (new rolls) and the taps' (the phones' reports, Next, an Undo). Its
    parts stay apart by ``", "`` as before the taps were counted.

    ``session`` is the session the box was on when it stopped. A run that recorded in another one too (the demo's d6
    rolls, then a game chosen on a phone) says where each count went, so the recorded events are looked for in the
    right session: ``"..., 8 recorded (8 read by the camera and 0 tapped in), session B (0 recorded here; 8 in
    session A)"``."""
    ngettext = i18n.ngettext
    n_reads = len(stats.read_ms)
    median = sorted(stats.read_ms)[n_reads // 2] if stats.read_ms else 0.0
    recorded = stats.reads + stats.reported
    reads = _("no reads") if not n_reads else ngettext("{n} read (median {ms} ms)", "{n} reads (median {ms} ms)",
                                                       n_reads).format(n=n_reads, ms=f"{median:.0f}")
    line = _("stopped: {frames}, {reads}, {recorded}, session {session}").format(
        frames=ngettext("{n} frame", "{n} frames", stats.frames).format(n=stats.frames), reads=reads,
        recorded=ngettext("{n} recorded ({camera} read by the camera and {tapped} tapped in)",
                          "{n} recorded ({camera} read by the camera and {tapped} tapped in)", recorded).format(
            n=recorded, camera=stats.reads, tapped=stats.reported),
        session=session if session is not None else _("none (not set up)"))
    recorded_in = getattr(stats, "recorded_in", {})
    elsewhere = [_("{n} in session {session}").format(n=n, session=sid) for sid, n in recorded_in.items()
                 if sid != session]
    if elsewhere:
        line += " " + _("({here} recorded here; {elsewhere})").format(here=recorded_in.get(session, 0),
                                                                    elsewhere=", ".join(elsewhere))
    return line


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


def _stop_on_sigterm(loop: Any) -> Callable[[int, Any], None]:
    """The box's SIGTERM handler while ``loop`` turns (``systemctl stop``, ``kill``): asks the loop to stop after its
    pass, as Ctrl-C does, and says so once, so the log tells a service stop from the end of a replay or a Ctrl-C."""
    said: list[bool] = []

    def handler(signum: int, frame: Any) -> None:
        if not said:
            said.append(True)
            log.info("%s", _("stopping: SIGTERM (a service stop or kill): the box closes its record and stops"))
        loop.stop()

    return handler


def _closing(signum: int, frame: Any) -> None:
    """The box's SIGINT handler while it closes (the loop has stopped, the record is being closed): said, not
    obeyed, so the record closes whole."""
    log.info("%s", _("stopping: the box is closing"))
