"""The camera parts of a game on ``companion run`` and ``companion demo`` (:mod:`companion.commands.box`): the table
calibration, the deck (cards, tiles or Eclipse's hexes) and the dice profile the game's camera reads, each checked
before the camera opens, and whether the camera mirrors a deck's cards."""

from __future__ import annotations

import argparse
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.commands import EXIT_DEVICE, EXIT_INPUT, InputError
from companion.commands.files import dice_among_tiles, load_deck, load_dice_reader
from companion.i18n import _, message_of, say

log = logging.getLogger("companion")  # one logger for every command: the lines read as they always have


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
