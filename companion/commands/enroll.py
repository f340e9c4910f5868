"""``companion enroll``: the owner's own dice (Roll for the Galaxy's from a folder, or guided pair by pair on the
box's camera; Eclipse's combat dice from a folder) and decks of cards, tiles or sector hexes."""

from __future__ import annotations

import argparse
import logging
import shlex
import signal
import sys
from pathlib import Path
from typing import Any

from companion.actions import Action
from companion.commands import EXIT_DEVICE, EXIT_INPUT, EXIT_OK, EXIT_USAGE
from companion.commands.files import (
    dice_sets,
    folder_problem,
    missing_folders,
    profile_path,
    remove_empty,
    screenshot_problem,
    screenshot_saver,
)
from companion.i18n import Text, _, ngettext, plural, say, say_template

log = logging.getLogger("companion")  # one logger for every command: the lines read as they always have

class _BadFolder(Exception):
    """An enrollment subfolder whose name is not a pair the dice being enrolled have."""

def check_enroll_folders(folder: Path, dice: Any = None) -> list[str]:
    """Check ``folder``'s subfolders against a set of dice before building a profile.

    Every (not hidden) subfolder must be ``<colour>-<face>`` with a colour and a face the dice have, and a face
    that colour's die has (:class:`companion.camera.DiceSet`, the rules' data: Roll for the Galaxy's white has no
    Wild, yellow no Explore; Eclipse's yellow, orange and red show 1-6); names are read in any case, as the profile
    builder does.

    Args:
        folder: the enrollment folder.
        dice: the set of dice (default: Roll for the Galaxy's).

    Returns:
        The pairs with no photos (``"yellow-wild"``, ...), in the set's order, for a warning.

    Raises:
        _BadFolder: one line per bad folder, naming it and what is wrong with it (all of them, so
            one run shows every folder to rename).
    """
    from vision.profiles import IMAGE_SUFFIXES

    dice = dice if dice is not None else dice_sets()["roll"]
    if not folder.is_dir():
        return []  # the builder says "enrollment folder not found"
    have: set[str] = set()
    problems: list[str] = []
    for sub in sorted(folder.iterdir()):
        if not sub.is_dir() or sub.name.startswith("."):
            continue
        colour, dash, face = sub.name.lower().partition("-")
        where = _("folder {folder}/ in {parent}").format(folder=sub.name, parent=folder)
        if not dash or not colour or not face:
            problems.append(_("{where}: name it <colour>-<face>, e.g. {example}").format(where=where,
                                                                                       example=dice.folders[0]))
        elif colour not in dice.colours:
            problems.append(_("{where}: unknown colour {colour!r}; the dice are {colours}").format(
                where=where, colour=colour, colours=", ".join(dice.colours)))
        elif face not in dice.all_faces:
            problems.append(_("{where}: unknown face {face!r}; the faces are {faces}").format(
                where=where, face=face, faces=", ".join(dice.all_faces)))
        elif face not in dice.faces_of(colour):
            problems.append(_("{where}: {colour} dice have no {face} face ({colour}: {faces})").format(
                where=where, colour=colour, face=face, faces=", ".join(dice.faces_of(colour))))
        elif any(p.suffix.lower() in IMAGE_SUFFIXES for p in sub.iterdir()):
            have.add(f"{colour}-{face}")
    if problems:
        raise _BadFolder("\ncompanion enroll: ".join(problems))
    return [f for f in dice.folders if f not in have]

def cmd_enroll_roll_dice(folder: Path, out: Path, warn_missing: bool = True) -> int:
    """``companion enroll roll-dice DIR``: :func:`cmd_enroll_dice` with Roll for the Galaxy's dice."""
    return cmd_enroll_dice(folder, out, dice_sets()["roll"], warn_missing)

def cmd_enroll_dice(folder: Path, out: Path, dice: Any, warn_missing: bool = True) -> int:
    """``companion enroll <set>-dice DIR`` (``roll-dice``, ``eclipse-dice``): build and save a dice profile of the set
    ``dice`` (:class:`companion.camera.DiceSet`); 0 saved, 1 bad folder.

    The subfolder names are checked first (:func:`check_enroll_folders`): an unknown colour or face,
    or a pair the dice do not have, is refused in one line naming the folder (exit 1, bad input);
    pairs with no photos are named in a warning (with ``warn_missing``) and the profile is built from
    the others. The profile remembers the set (a Roll profile is refused for Eclipse's dice, and the other way).
    A folder where the profile is to be saved (``--out``) is refused before any photo is read (exit 2, a bad command
    line).
    """
    from device import BadImage, check_image_files
    from vision import VisionError
    from vision.roll_dice import enroll_roll_dice

    if (problem := folder_problem(out)) is not None:  # the profile's file: said before the photos are read
        print(_("companion enroll: {problem}").format(problem=problem), file=sys.stderr)
        return EXIT_USAGE
    if not folder.is_dir():  # missing, or a photo given as DIR: named before anything is read
        print(_("companion enroll: {folder}: not a folder (expected DIR/<colour>-<face>/ subfolders of photos, "
                "e.g. {example}/)").format(folder=folder, example=dice.folders[0]), file=sys.stderr)
        return EXIT_INPUT
    try:
        missing = check_enroll_folders(folder, dice)
        check_image_files(folder)  # sizes from the headers, before vision decodes a photo
    except (_BadFolder, BadImage) as exc:
        print(_("companion enroll: {problem}").format(problem=say(exc)), file=sys.stderr)
        return EXIT_INPUT
    except OSError as exc:
        print(_("companion enroll: {problem}").format(problem=say(exc)), file=sys.stderr)
        return EXIT_INPUT
    if missing and warn_missing and len(missing) < len(dice.pairs):  # no pair at all: the one line below says so
        shown = ", ".join(missing[:10])
        if len(missing) > 10:
            shown = _("{pairs} (+{n} more)").format(pairs=shown, n=len(missing) - 10)
        print(ngettext("companion enroll: warning: no photos of {n} pair ({pairs}): the profile will not know it",
                       "companion enroll: warning: no photos of {n} pairs ({pairs}): the profile will not know them",
                       len(missing)).format(n=len(missing), pairs=shown), file=sys.stderr)
    skipped: list[Path] = []
    try:
        saved = enroll_roll_dice(folder, out, allowed=dice.pairs, dice_set=dice.name, skipped=skipped)
    except (VisionError, OSError) as exc:
        _say_skipped(skipped)
        print(_("companion enroll: {problem}").format(problem=say(exc)), file=sys.stderr)
        return EXIT_INPUT
    _say_skipped(skipped)
    # Roll dice are played with `run --game roll`: only there is a die read unsure on a tile set aside as its print
    # (a full table read by `companion read` counts the tiles' symbols as dice too)
    print(
        _("saved dice profile {profile}; use it with: companion run --game {game} --dice-profile {profile}").format(
            profile=saved, game=dice.name
        )
    )
    return EXIT_OK

def _walk_options(args: argparse.Namespace) -> str:
    """The options of a guided enrollment that a command starting it again repeats (``--source``, ``--name``
    other than the default, ``--out``), each value quoted for a shell: ``" --source 1 --out 'my dice.json'"``."""
    return "".join(
        f" {opt} {shlex.quote(str(value))}"
        for opt, value in (
            ("--source", args.source),
            ("--name", None if args.name == "roll" else args.name),
            ("--out", args.out),
        )
        if value is not None
    )


def _resume_hint(args: argparse.Namespace, folder: Path) -> str:
    """How to go on after a stopped guided enrollment: the same command with ``--keep``, or the folder command."""
    quoted = shlex.quote(str(folder))
    build = f"companion enroll roll-dice {quoted}" + (
        f" --out {shlex.quote(str(args.out))}" if args.out
        else (f" --name {shlex.quote(args.name)}" if args.name != "roll" else "")
    )
    return _("to go on: {command}  (pairs with photos are skipped); or build from the photos so far: {build}").format(
        command=f"companion enroll roll-dice --guided --keep {quoted}{_walk_options(args)}", build=build)

def cmd_enroll_guided(
    args: argparse.Namespace, *, source: Any = None, controls: Any = None
) -> int:
    """``companion enroll roll-dice --guided``: photograph every colour/face pair with the box's camera,
    guided on the touchscreen (or the terminal with ``--no-screen``), then build and save the profile
    with :func:`cmd_enroll_roll_dice` (same code, same summary).

    Photos go to ``--keep DIR`` (pairs it already has photos of are skipped: resuming), else to a new
    ``<data dir>/enrollment/<name>-<YYYYmmdd-HHMMSS>/``; they are never deleted, also when the walk stops. A folder
    the walk made and left with no photo in it (Quit at once, no camera) is removed again, with the parents it made.

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

    from companion.enroll_guided import GuidedEnrollment, guided_pairs, roll_dice_detector
    from companion.paths import data_dir
    from vision import VisionError

    if args.screenshot is not None:  # before a photo folder is made or the camera opened
        problem = screenshot_problem(args.screenshot, no_screen=args.no_screen)
        if problem:
            print(_("companion enroll roll-dice: --screenshot {screenshot}: {problem}").format(
                screenshot=args.screenshot, problem=problem), file=sys.stderr)
            return EXIT_USAGE
    out = args.out or profile_path(args.name)
    made: list[Path] = []  # the folders this walk makes: removed again when it ends with nothing in them
    try:
        folder = (args.keep.expanduser() if args.keep is not None
                  else data_dir() / "enrollment" / f"{out.stem}-{time.strftime('%Y%m%d-%H%M%S')}")
        detect = roll_dice_detector()
        made = missing_folders(folder)
        enrollment = GuidedEnrollment(folder, guided_pairs(), detect)
    except VisionError as exc:
        print(
            _(
                "companion enroll: cannot load the dice detector: {problem}; reinstall the package (./setup.sh run)"
            ).format(problem=say(exc)),
            file=sys.stderr,
        )
        return EXIT_DEVICE
    except OSError as exc:
        remove_empty(made)
        print(_("companion enroll: cannot use the photo folder: {problem}").format(problem=say(exc)), file=sys.stderr)
        return EXIT_INPUT
    try:
        return _walk(args, enrollment, folder, out, source, controls, fresh=bool(made))
    finally:
        remove_empty(made)  # a walk quit at once, or a camera that never opened, leaves no empty folder behind


def _walk(  # noqa: C901 - wires the guided enrollment (camera, screen or terminal, loop) in order
    args: argparse.Namespace, enrollment: Any, folder: Path, out: Path, source: Any, controls: Any, fresh: bool
) -> int:
    """The guided walk of :func:`cmd_enroll_guided` once its photo folder is there: the camera opened (unless
    ``source`` is given), the views, the walk, then the profile built from ``folder`` and saved at ``out``. ``fresh``:
    this walk made ``folder``, so when it ends with no photo nothing is kept, and the message says how to start
    again instead of naming a folder that is gone. Returns the exit code :func:`cmd_enroll_guided` documents."""
    from companion.enroll_guided import EnrollInbox, Step, TerminalInput, describe_pairs, run_guided
    from device import DeviceError, open_source

    if enrollment.already:
        log.info("%s", ngettext("{folder} already has photos of {n} pair ({pairs}): skipping it",
                                "{folder} already has photos of {n} pairs ({pairs}): skipping them",
                                len(enrollment.already)).format(folder=folder, n=len(enrollment.already),
                                                                pairs=describe_pairs(enrollment.already)))
    log.info("photos go to %s; %d pairs to photograph", folder, len(enrollment.walk))
    if source is None:
        # a FOLDER or VIDEO source is a replay: paced like a camera, looping, each photo held 2 s
        from companion.commands.box import say_skipped

        replay = {"fps": 10.0, "hold_frames": 20, "loop": True, "realtime": True, "skip_bad": True, "noise": 1.5,
                  "on_skip": say_skipped}
        try:
            source = open_source(args.source or "auto", **replay)
            source.open()
        except (DeviceError, ValueError) as exc:
            print(_("companion enroll: {problem}").format(problem=say(exc)), file=sys.stderr)
            return EXIT_DEVICE

    inbox = EnrollInbox()
    screen = pump = None
    on_display = False
    if not args.no_screen:
        screen, pump, on_display = _enroll_screen(args, inbox)
    terminal = None if on_display else TerminalInput(inbox).start()  # no display to tap on: the terminal answers
    if controls is None and not args.no_gpio:
        from device import Controls

        controls = Controls.create_optional(on_press=lambda: inbox.post_action(Action.ENROLL_OK, origin="button"),
                                           say=say_template)
    previous_term = signal.signal(
        signal.SIGTERM, lambda *_: inbox.post_action(Action.QUIT, origin="signal", why="SIGTERM")
    )

    # a save that fails (the disk full, the folder gone) is one log line, not a stop
    save_screenshot = screenshot_saver(screen, args.screenshot)

    def on_change(view: dict) -> None:
        if terminal is not None:
            terminal.show(view)
        save_screenshot()

    def redraw() -> None:
        if screen is not None:
            screen.render(enrollment.view())
            if pump is not None:
                pump()
            save_screenshot()

    try:
        outcome = run_guided(source, enrollment, inbox, screen=screen, pump=pump, on_change=on_change)
    except DeviceError as exc:
        print(_("companion enroll: {problem}").format(problem=say(exc)), file=sys.stderr)
        return EXIT_DEVICE
    except OSError as exc:
        print(
            _("companion enroll: cannot save a photo: {problem}; the photos so far are in {folder}").format(
                problem=say(exc), folder=folder
            ),
            file=sys.stderr,
        )
        return EXIT_INPUT
    finally:
        signal.signal(signal.SIGTERM, previous_term)
        source.close()
        if controls is not None:
            controls.close()

    taken = ngettext("{n} photo of {done} of {total} pairs is in {folder}",
                     "{n} photos of {done} of {total} pairs are in {folder}", outcome.photos).format(
        n=outcome.photos, done=outcome.pairs_done, total=len(enrollment.pairs), folder=folder)
    if fresh and outcome.photos == 0:  # the folder this walk made goes again: nothing to name or resume from
        return _nothing_kept(args, outcome)
    if outcome.step is Step.CAMERA_LOST:
        print(
            _("companion enroll: {message}; {taken}. Check the camera, then {hint}").format(
                message=say(outcome.message), taken=taken, hint=_resume_hint(args, folder)
            ),
            file=sys.stderr,
        )
        return EXIT_DEVICE
    if outcome.step is Step.STOPPED:
        print(
            _("companion enroll: {message}: {taken}; {hint}").format(
                message=say(outcome.message), taken=taken, hint=_resume_hint(args, folder)
            ),
            file=sys.stderr,
        )
        return EXIT_INPUT
    if outcome.photos == 0:
        print(
            _("companion enroll: no photos taken (every pair skipped), so no profile; {hint}").format(
                hint=_resume_hint(args, folder)
            ),
            file=sys.stderr,
        )
        return EXIT_INPUT
    if outcome.missing:
        log.warning("%s", ngettext("no photos of {n} pair ({pairs}): the profile will not know it; add it later with "
                                   "--guided --keep {folder}",
                                   "no photos of {n} pairs ({pairs}): the profile will not know them; add them later "
                                   "with --guided --keep {folder}",
                                   len(outcome.missing)).format(n=len(outcome.missing), folder=folder,
                                                                pairs=describe_pairs(outcome.missing)))
    enrollment.set_result(Step.BUILDING, plural("from {n} photo", "from {n} photos", outcome.photos))
    redraw()
    code = cmd_enroll_roll_dice(folder, out, warn_missing=False)  # the missing pairs were logged above
    if code == EXIT_OK:
        enrollment.set_result(Step.SAVED, Text("saved {profile}; use it with --profile {profile}", profile=str(out)))
        print(_("the photos are kept in {folder}").format(folder=folder))
    else:
        enrollment.set_result(Step.FAILED, Text("see the message on the terminal; {taken}", taken=taken))
        print(
            _("companion enroll: {taken}; retake the pair named above (delete its folder), then {hint}").format(
                taken=taken, hint=_resume_hint(args, folder)
            ),
            file=sys.stderr,
        )
    redraw()
    return code

def _nothing_kept(args: argparse.Namespace, outcome: Any) -> int:
    """The end of a guided walk that took no photo in the folder it made (which is removed again): why it stopped
    and the command that starts again, on stderr; exit 3 when the camera was lost, else 1."""
    from companion.enroll_guided import Step

    again = "companion enroll roll-dice --guided" + _walk_options(args)
    if outcome.step is Step.CAMERA_LOST:
        print(_("companion enroll: {message}; no photo taken, nothing kept. Check the camera, then start again: "
                "{command}").format(message=say(outcome.message), command=again), file=sys.stderr)
        return EXIT_DEVICE
    if outcome.step is Step.STOPPED:
        print(_("companion enroll: {message}: no photo taken, nothing kept; to start again: {command}").format(
            message=say(outcome.message), command=again), file=sys.stderr)
        return EXIT_INPUT
    print(_("companion enroll: no photos taken (every pair skipped), so no profile and nothing kept; to start again: "
            "{command}").format(command=again), file=sys.stderr)
    return EXIT_INPUT


def _enroll_screen(args: argparse.Namespace, inbox: Any) -> tuple[Any, Any, bool]:
    """(screen, pump, on_display): the touchscreen for the guided enrollment (full screen on a display
    unless ``--windowed``; off-screen when there is none), a pump that turns its input into inbox
    actions, and whether it is drawn to a display (else the terminal answers)."""
    from companion.screen.window import open_touchscreen

    screen, pump, drawn, problem = open_touchscreen(inbox, fullscreen=not args.windowed)
    if problem is not None:
        log.info("no display for the touchscreen (%s); drawing off-screen (use --screenshot to see it, "
                 "or --no-screen to answer on the terminal)", problem)
    return screen, pump, drawn


def _say_skipped(skipped: list[Path]) -> None:
    """One stderr line per photo left out of an enrollment because it cannot be decoded (the others are used)."""
    for photo in skipped:
        print(_("companion enroll: skipped {photo}: not a readable image (corrupt, or not a picture); the other "
                "photos are used: replace or delete it").format(photo=photo), file=sys.stderr)

def cmd_enroll_cards(folder: Path, out: Path, hexes: bool = False) -> int:
    """``companion enroll cards DECK DIR [--hexes]``: build and save a deck profile; 0 saved, 1 bad folder.

    With ``hexes`` the folders hold Eclipse sector hexes (``DIR/<sector-id>/`` photos or scans) and the
    deck is built with :func:`vision.hexes.build_hex_deck` (``DeckProfile.shape == "hex"``); ``companion
    read --cards`` then reads sector hexes with it.
    """
    from device import BadImage, check_image_files
    from vision import VisionError
    from vision.deck import DeckProfile
    from vision.deck_enroll import build_deck
    from vision.deck_file import DeckVersionError
    from vision.hexes import build_hex_deck

    if out.exists():  # re-enrolling a deck replaces it (one of an older format too); any other file is left alone
        try:
            DeckProfile.load(out)
        except DeckVersionError:
            pass
        except (VisionError, OSError):
            print(
                _("companion enroll: {out} exists and is not a deck: not overwritten; choose another DECK").format(
                    out=out
                ),
                file=sys.stderr,
            )
            return EXIT_INPUT
    skipped: list[Path] = []
    try:
        if folder.is_dir():  # sizes from the headers, before vision decodes a photo
            check_image_files(folder)
        build = build_hex_deck if hexes else build_deck
        deck = build(folder, name=out.stem, skipped=skipped)
        out.parent.mkdir(parents=True, exist_ok=True)
        saved = deck.save(out)
    except (VisionError, OSError, BadImage) as exc:
        _say_skipped(skipped)
        print(_("companion enroll: {problem}").format(problem=say(exc)), file=sys.stderr)
        return EXIT_INPUT
    _say_skipped(skipped)
    kinds = len(set(deck.ref_ids))
    if hexes:
        said = ngettext("saved deck {deck} ({n} sector hex); use it with: companion read IMAGE --cards {deck}",
                        "saved deck {deck} ({n} sector hexes); use it with: companion read IMAGE --cards {deck}", kinds)
    else:
        said = ngettext("saved deck {deck} ({n} card); use it with: companion read IMAGE --cards {deck}",
                        "saved deck {deck} ({n} cards); use it with: companion read IMAGE --cards {deck}", kinds)
    print(said.format(deck=saved, n=kinds))
    return EXIT_OK
