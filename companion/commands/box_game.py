"""Which game ``companion run`` and ``companion demo`` start on and the game's record (:mod:`companion.commands.box`):
the game asked for (or the d6 dice of a replay when nobody asked), its options and players checked before any file is
made, the open game of the same players resumed or a new one started, and what is said when the demo reads dice while
a game is kept."""

from __future__ import annotations

import argparse
import json
import logging
from typing import Any

from companion.commands import UsageError
from companion.config import CHOOSE
from companion.i18n import Text, _, message_of, ngettext

log = logging.getLogger("companion")  # one logger for every command: the lines read as they always have


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
