"""The files the commands read and write besides the session database: dice profiles, decks, outputs.

A profile or a deck is named (kept in the user's data directory) or given as a path; an output file is written
only where nothing else lies (:func:`not_ours`): a folder, a session database, a picture or another program's
file is never replaced.
"""

from __future__ import annotations

import argparse
import json
import logging
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from companion.commands import EXIT_DEVICE, EXIT_USAGE, InputError, UsageError
from companion.i18n import N_, _, os_reason, say


def given_path(text: str) -> Path:
    """argparse type of every file or folder a command is given (``--db``, ``FILE``, ``FOLDER``): the path as typed,
    never empty (``''`` would silently be ``.``, the current folder, and be named to the player as a folder they
    never gave).

    Raises:
        argparse.ArgumentTypeError: (exit 2, a bad command line) the path is empty or only spaces.
    """
    if not text.strip():
        raise argparse.ArgumentTypeError(_("an empty path: give a file or folder name"))
    return Path(text)


def folder_problem(path: Path, option: str = "") -> str | None:
    """Why ``path`` is no file to read or write, when a folder is there (``"X is a folder: give a file name"``, or with
    the ``option`` it was given to, ``"--deck X is a folder: give a file name"``), else None: the one folder check of
    the files the commands are given (decks, dice profiles, calibrations, outputs), so that a folder is named as one,
    not as a missing file."""
    if Path(path).expanduser().is_dir():
        if option:
            return _("{option} {path} is a folder: give a file name").format(option=option, path=path)
        return _("{path} is a folder: give a file name").format(path=path)
    return None


def refuse_folder(path: Path, option: str = "") -> None:
    """Raises when ``path`` is a folder (:func:`folder_problem`), naming the ``option`` it was given to if any.

    Raises:
        InputError: (exit 2, a bad command line, as ``--config`` naming a folder) the folder named.
    """
    problem = folder_problem(path, option)
    if problem is not None:
        raise InputError(problem, EXIT_USAGE)


def refuse_given_folder(given: str, path: Path, option: str = "") -> None:
    """Raises when the file that ``given`` (a name or a path on the command line, after ``option``: ``--profile``)
    stands for, ``path``, is not there because a folder is: ``path`` itself, or a folder here that ``given`` names
    (``--profile adir`` with ``adir`` a folder and no saved profile of that name), named as the folder the player
    gave with the option they gave it to, not as a missing saved file they never named.

    Raises:
        InputError: (exit 2, :func:`refuse_folder`) the option and the folder named.
    """
    refuse_folder(path, option)
    if given.strip():
        refuse_folder(Path(given), option)

def profile_path(name_or_path: str) -> Path:
    """A dice profile's JSON file: a path as given (``.json``), or ``<data dir>/profiles/<name>.json``.

    A profile is the ``.json`` that ``companion enroll`` writes with its arrays beside it (``<name>.npz``): the
    arrays file given for the profile (``mine.npz``) stands for its ``.json``; a name given with either suffix
    (``mine.json``, ``mine.npz``) that is no file here is the saved profile of that name when there is one.
    """
    from companion.paths import data_dir

    if name_or_path.endswith(".npz"):
        name_or_path = name_or_path[: -len(".npz")] + ".json"
    if "/" in name_or_path:
        return Path(name_or_path).expanduser()
    if name_or_path.endswith(".json"):
        here, saved = Path(name_or_path), data_dir() / "profiles" / name_or_path
        return saved if not here.is_file() and saved.is_file() else here
    return data_dir() / "profiles" / f"{name_or_path}.json"

def _no_profile(path: Path, dice: Any, given: str) -> InputError:
    """The error for a dice profile that is not at ``path`` (exit 3): names the file with the other suffix when
    that is what is there (a deck, or a profile's arrays without their ``.json``); a file that is there as
    ``given`` but is no profile's (a photo: ``--profile holiday.jpg``) is said so (exit 2), not looked for as a
    saved profile of that name."""
    from companion.paths import data_dir

    here = Path(given).expanduser()
    if here.suffix.lower() not in ("", ".json", ".npz") and here.is_file():
        return InputError(_("{path} is not a dice profile: a profile is the .json file that `{command}` writes; give "
                            "its name (saved in {folder}) or its .json path").format(
            path=here, command=dice.enroll_command, folder=data_dir() / "profiles"), EXIT_USAGE)
    other = path.with_suffix(".npz")
    if other.is_file():
        return InputError(_("no dice profile at {path}: {other} is a card deck or a profile's arrays, not a dice "
                            "profile (the .json that `{command}` writes)").format(path=path, other=other,
                                                                                command=dice.enroll_command),
                          EXIT_DEVICE)
    return InputError(
        _("no dice profile at {path}: build one with `{command}`").format(path=path, command=dice.enroll_command),
        EXIT_DEVICE,
    )

def dice_sets() -> dict[str, Any]:
    """The sets of dice the games' cameras read, by name (:class:`companion.camera.DiceSet`: ``roll``, ``eclipse``):
    what ``companion enroll <name>-dice DIR`` enrolls and ``--dice-profile`` reads with."""
    from companion.flows import FLOWS

    out: dict[str, Any] = {}
    for spec in FLOWS.values():
        dice = spec.camera.dice_set if spec.camera is not None else None
        if dice is not None:
            out[dice.name] = dice
    return out

def roll_dice_pairs() -> tuple[tuple[str, str], ...]:
    """Every (colour, face) pair Roll for the Galaxy's dice have (Roll for the Galaxy, components: the dice).

    Rule data for the vision room's game-knowledge check: the reader never reports a pair
    outside these as certain (white has no Wild, yellow no Explore).
    """
    return dice_sets()["roll"].pairs

def load_dice_reader(dice: Any, name_or_path: str, remember_size: bool = False, option: str = ""):
    """The dice reader for the set ``dice`` (a :class:`companion.camera.DiceSet`) with the enrolled profile
    ``name_or_path``: the reader never reports a (colour, face) pair the set does not have as certain.
    ``remember_size``: the frames come from one fixed camera (the box's): the die size a read chose is tried first
    on the next (:class:`vision.roll_dice.RollDiceReader`). ``option``: the command line's option that gave the
    profile (``--profile``, ``--dice-profile``), named when a folder was given.

    Raises:
        InputError: (exit 3) no profile there, one of another version, or a profile of another set of dice (the
            enroll command to run); (exit 2, a bad command line) a folder there, or a file that is no dice profile
            at all (``vision.profiles.NotAProfile``: garbage, another format, damaged).
    """
    from vision import VisionError
    from vision.profiles import DiceProfile, NotAProfile
    from vision.roll_dice import RollDiceReader

    path = profile_path(name_or_path)
    if not path.is_file():
        refuse_given_folder(name_or_path, path, option)
        raise _no_profile(path, dice, name_or_path)
    try:
        profile = DiceProfile.load(path)
        if profile.dice_set != dice.name:
            raise InputError(_("dice profile {profile} was enrolled from {enrolled} dice, not {dice}'s: build one with "
                               "`{command}`").format(profile=name_or_path, enrolled=profile.dice_set, dice=dice.title,
                                                     command=dice.enroll_command), EXIT_DEVICE)
        return RollDiceReader(profile, allowed=dice.pairs, remember_size=remember_size)
    except NotAProfile as exc:  # the enroll command of this set of dice (the profile's own words name none)
        if _names_the_file(exc):
            raise InputError(_("{problem}; build one with `{command}`").format(
                problem=say(exc), command=dice.enroll_command), EXIT_USAGE) from None
        raise InputError(_("cannot load dice profile {dice_profile}: {problem}; build one with `{command}`").format(
            dice_profile=name_or_path, problem=say(exc), command=dice.enroll_command), EXIT_USAGE) from None
    except VisionError as exc:
        if _names_the_file(exc):
            raise InputError(say(exc), EXIT_DEVICE) from None
        raise InputError(
            _("cannot load dice profile {dice_profile}: {problem}").format(dice_profile=name_or_path, problem=say(exc)),
            EXIT_DEVICE,
        ) from None


def _names_the_file(exc: Exception) -> bool:
    """Whether a dice profile's error already names the profile's file (``dice profile PATH is ...``): said as it
    is, not after "cannot load dice profile NAME:" (the path said twice)."""
    return "path" in (getattr(exc, "params", None) or {})


def dice_reader_for(dice: str, profile: str | None):
    """The reader for ``--dice`` (d6, or Roll for the Galaxy with an enrolled profile): ``read(frame)`` of a
    ``uint8[H, W, 3]`` BGR photo gives ``width``, ``height`` (px) and ``dice`` (observations with ``to_json()``).

    Roll's dice are read as the box's camera reads them on a table whose tiles no deck identifies
    (:func:`dice_among_tiles`): a die read unsure on a tile is the tile's print, not a die.

    Raises:
        UsageError: ``--dice roll`` without ``profile``.
        InputError: the profile is missing, does not load, or is another set's (:func:`load_dice_reader`).
    """
    if dice == "d6":
        from vision import D6Reader

        return D6Reader()
    if profile is None:
        raise UsageError(_("--dice roll needs --profile (run `companion enroll roll-dice DIR` first)"))
    from companion.flows import FLOWS
    from vision.readers import RollDiceAdapter

    reader = RollDiceAdapter(load_dice_reader(dice_sets()["roll"], profile, option="--profile"))
    return dice_among_tiles(reader, FLOWS["roll"].camera, None)


def dice_among_tiles(dice: Any, camera: Any, deck: Any) -> Any:
    """The dice reader ``dice`` (a :class:`vision.readers.RollDiceAdapter`) for a game whose camera part is
    ``camera`` (:class:`companion.camera.spec.CameraSpec`) read with ``deck`` (an enrolled deck, or None).

    Where the game's cards or tiles lie among its dice (a pass reading a deck of cards, and ``camera.card_aspect``
    says their shape: Roll for the Galaxy's square tiles) but no deck identifies them, the dice a read is unsure of
    that lie on one are the print of its art (a tile's symbols, a calibration marker on its paper), not dice, and are
    left out (:attr:`vision.readers.RollDiceAdapter.unknown_cards`); a die on a tile read surely stays. Otherwise
    (a deck identifies the tiles and its art is checked, or the game lays no cards) ``dice`` as it is. The one rule
    of ``companion run`` and ``companion read --dice roll``."""
    import dataclasses

    from companion.camera.passes import deck_kind as pass_deck_kind

    aspect = getattr(camera, "card_aspect", None) if camera is not None else None
    if dice is None or deck is not None or aspect is None or pass_deck_kind(camera.passes) != "card":
        return dice
    return dataclasses.replace(dice, unknown_cards=float(aspect))

def deck_path(name_or_path: str, option: str = "") -> Path:
    """An enrolled deck's file: a path ending in ``.npz`` as given, or ``<data dir>/decks/<name>.npz``; ``option``:
    the command line's option that gave it (``--deck``, ``--cards``), named when a folder was given.

    Raises:
        InputError: (exit 2) a path that does not end in ``.npz``, or a name with a path separator or
            ``..`` (a deck file is never written or read anywhere else); a folder given (a path, or a name no saved
            deck has that is a folder here), named as one.
    """
    from companion.paths import data_dir

    if name_or_path.endswith(".npz"):
        return Path(name_or_path).expanduser()
    if name_or_path.endswith(".json"):  # a dice profile's file, or a deck named with the wrong suffix
        given = Path(name_or_path).expanduser()
        deck = given.with_suffix(".npz") if "/" in name_or_path else data_dir() / "decks" / f"{given.stem}.npz"
        if _is_dice_profile(given):
            raise InputError(_("{path} is a dice profile (for --dice-profile or --profile), not a deck: give a deck "
                               "name (saved in {folder}) or a path ending in .npz").format(
                path=given, folder=data_dir() / "decks"), EXIT_USAGE)
        if deck.is_file():
            raise InputError(_("deck {deck!r}: a deck is a .npz file: give {path}").format(deck=name_or_path,
                                                                                         path=deck), EXIT_USAGE)
        raise InputError(_("deck {deck!r}: a deck is a .npz file: give a deck name (saved in {folder}) or a path "
                           "ending in .npz").format(deck=name_or_path, folder=data_dir() / "decks"), EXIT_USAGE)
    saved = data_dir() / "decks" / f"{name_or_path}.npz"
    if name_or_path.strip() and ("/" in name_or_path or not saved.is_file()):
        # a folder given (`--cards /tmp`, or `--cards photos` with no saved deck 'photos') is named as one, not as a
        # bad deck name or a missing saved deck
        refuse_folder(Path(name_or_path), option)
    if Path(name_or_path).suffix and Path(name_or_path).expanduser().is_file() and not saved.is_file():
        # a file here that is no deck (`--cards holiday.jpg`): said so, not looked for as the saved deck 'holiday.jpg'
        raise InputError(_("deck {deck!r}: a deck is a .npz file: give a deck name (saved in {folder}) or a path "
                           "ending in .npz").format(deck=name_or_path, folder=data_dir() / "decks"), EXIT_USAGE)
    if "/" in name_or_path or "\\" in name_or_path or ".." in name_or_path or not name_or_path.strip():
        raise InputError(
            _("deck {deck!r}: give a deck name (saved in {folder}) or a path ending in .npz").format(
                deck=name_or_path, folder=data_dir() / 'decks'
            ),
            EXIT_USAGE,
        )
    return data_dir() / "decks" / f"{name_or_path}.npz"

def _is_dice_profile(path: Path) -> bool:
    """Whether ``path`` is a dice profile's JSON (its ``format``), read only to name it in an error."""
    from vision.profiles import PROFILE_FORMAT

    try:
        if not path.is_file() or path.stat().st_size > 1 << 20:
            return False
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return False
    return isinstance(doc, dict) and doc.get("format") == PROFILE_FORMAT

DECK_KINDS = {"card": N_("cards or square tiles"), "hex": N_("Eclipse sector hexes")}
"""``DeckProfile.shape`` -> what the deck holds, for messages."""

def deck_kind(deck: Any) -> str:
    """``"card"`` or ``"hex"``: what a loaded :class:`vision.deck.DeckProfile` was enrolled as."""
    return "hex" if getattr(deck, "shape", "card") == "hex" else "card"

def load_deck(name_or_path: str, want: str | None = None, option: str = "") -> Any:
    """The enrolled deck ``name_or_path`` (:func:`deck_path`), checked to be of kind ``want``.

    Args:
        name_or_path: a deck name (``<data dir>/decks/<name>.npz``) or a ``.npz`` path.
        want: ``"card"`` (cards and square tiles), ``"hex"`` (Eclipse sector hexes) or None (either).
        option: the command line's option that gave the deck (``--deck``, ``--cards``), named when it is a folder.

    Returns:
        The :class:`vision.deck.DeckProfile`.

    Raises:
        InputError: no such file, it does not load (a card deck enrolled by an older version: enroll it again; a
            newer one), or it holds the other kind (one line naming the deck, what it holds and the enroll command
            to run; exit 3, "no deck to read with"); a folder there, or a file that is no deck at all
            (``vision.deck_file.NotADeck``: garbage, another program's file, a copy cut short; exit 2, a bad command
            line, as a ``--deck`` path that does not end in ``.npz``).
    """
    from vision import VisionError
    from vision.deck import DeckProfile
    from vision.deck_file import DeckVersionError, NotADeck

    path = deck_path(name_or_path, option)
    if not path.is_file():
        refuse_folder(path, option)
        raise InputError(
            _("no deck at {path}: build one with `companion enroll cards DECK DIR`").format(path=path), EXIT_DEVICE
        )
    try:
        deck = DeckProfile.load(path)
    except DeckVersionError:
        raise InputError(
            _("deck {path} was enrolled by an older version of the program: enroll it again with "
              "`companion enroll cards {deck} DIR`").format(path=path, deck=name_or_path),
            EXIT_DEVICE,
        ) from None
    except VisionError as exc:
        problem = say(exc).removeprefix(f"{path}: ")  # the deck is named once
        raise InputError(
            _("cannot load deck {name_or_path}: {problem}").format(name_or_path=name_or_path, problem=problem),
            EXIT_USAGE if isinstance(exc, NotADeck) else EXIT_DEVICE,
        ) from None
    kind = deck_kind(deck)
    if want is not None and kind != want:
        hint = "companion enroll cards DECK DIR --hexes" if want == "hex" else "companion enroll cards DECK DIR"
        raise InputError(
            _("deck {deck} holds {kind}, not {wanted}: enroll one with `{hint}`").format(
                deck=name_or_path, kind=_(DECK_KINDS[kind]), wanted=_(DECK_KINDS[want]), hint=hint
            ),
            EXIT_DEVICE,
        )
    return deck

OURS_AT_MOST = 64 << 20
"""The largest file :func:`not_ours` reads to see whether it is ours (bytes): an export or a calibration is far
smaller."""


def not_ours(path: Path, keys: Mapping[str, Any]) -> str | None:
    """Why ``path`` must not be overwritten, or None: it is missing, or a JSON object this program wrote
    (every ``keys`` item present with that value, ``...`` meaning any value). A folder, a session
    database, a picture or another program's file is never replaced by an output."""
    if not path.exists():
        return None
    if (problem := folder_problem(path)) is not None:
        return problem
    doc = None
    try:  # a device (/dev/zero, /dev/full) or a pipe is never read (it would be read for ever) nor written over,
        # nor a file larger than any output of ours (a video, a database) read whole
        if path.is_file() and path.stat().st_size <= OURS_AT_MOST:
            doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        doc = None
    if isinstance(doc, dict) and all(k in doc and (v is ... or doc[k] == v) for k, v in keys.items()):
        return None
    return _("{path} exists and was not written by this command (a database, a picture, another file?): "
             "not overwritten").format(path=path)

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
"""The first bytes of every PNG file (the PNG specification, 5.2)."""


def screenshot_problem(path: Path, no_screen: bool = False) -> str:
    """Why ``--screenshot PATH`` cannot be where the touchscreen is saved, "" when it can: the file is a PNG picture
    (named ``.png``: the saver picks the format from the name, and wrote another name as a Targa picture) and is
    written over at every read, so what lies at ``PATH`` must be a PNG already (an earlier screenshot) or nothing (a
    session database, a photo or a device given by mistake is never written over), in a folder the box can write;
    and there is a touchscreen to save (``no_screen``: ``--no-screen`` was given, and nothing would ever be saved).
    """
    if path.expanduser().is_dir():
        return _("is a folder; give a .png file name")
    if path.suffix.lower() != ".png":
        return _("the touchscreen is saved as a PNG picture: give a file name ending in .png")
    there = path.expanduser()
    if there.exists() or there.is_symlink():
        head = b""
        try:  # a device or a pipe is not opened (a pipe would wait for a writer)
            if there.is_file():
                with there.open("rb") as f:
                    head = f.read(len(PNG_SIGNATURE))
        except OSError:
            head = b""
        if head != PNG_SIGNATURE:
            return _("a file that is not a PNG picture is already there (a game record, a photo, a device?): it is "
                     "not written over; give another .png file name")
    if problem := unwritable_folder(path):
        return problem
    if no_screen:
        return _("saves the touchscreen, and --no-screen has none: leave out --no-screen (without a display the "
                 "touchscreen is drawn off-screen and saved all the same)")
    return ""


def screenshot_saver(screen: Any, path: Path | None) -> Callable[[], None]:
    """The ``--screenshot`` hook of a running box: each call saves the touchscreen ``screen`` (its ``save_png``) at
    ``path`` (nothing when either is None). A save that fails (the card full, the folder gone) never stops the box:
    it is logged once per distinct reason, in the run's language ("cannot save --screenshot shot.png: the disk is
    full; going on without it"), and the next read tries again. The reason, not the error's text, tells problems
    apart: the temporary file's name in a refusal differs at every read."""
    failed: set[str] = set()

    def save() -> None:
        if path is None or screen is None:
            return
        import pygame

        try:
            screen.save_png(path)
        except (pygame.error, OSError) as exc:
            problem = say(os_reason(exc)) if isinstance(exc, OSError) else str(exc)
            if problem not in failed:
                failed.add(problem)
                logging.getLogger("companion").error("%s", _(
                    "cannot save --screenshot {path}: {problem}; going on without it").format(
                        path=path, problem=problem))

    return save


def unwritable_folder(path: Path) -> str:
    """Why a file cannot be written at ``path`` ("" when it can): its folder is made if missing and
    a probe file is created and removed there (``os.access`` says yes to root even in /proc)."""
    import tempfile

    folder = path.expanduser().parent
    if path.is_dir():
        return _("is a folder; give a .png file name")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".companion-probe-", suffix=".png"):
            pass
    except OSError as exc:
        return _("cannot write in {folder} ({problem}); choose a writable folder").format(
            folder=folder, problem=say(os_reason(exc)))
    return ""


def missing_folders(folder: Path) -> list[Path]:
    """The folders that making ``folder`` (``mkdir(parents=True)``) would make: ``folder`` and each missing parent,
    deepest first; [] when ``folder`` is there. For :func:`remove_empty` after a command that made them and kept
    nothing in them."""
    missing = []
    path = Path(folder).expanduser()
    while not path.exists() and path.parent != path:
        missing.append(path)
        path = path.parent
    return missing


def remove_empty(folders: list[Path]) -> None:
    """Remove each of ``folders`` (deepest first, as :func:`missing_folders` gives them) that holds nothing but empty
    folders; a file anywhere in one keeps it, and everything above it, whole. Never raises: a folder that cannot be
    removed stays (said in the debug log)."""
    for folder in folders:
        try:
            inside = sorted(folder.rglob("*"), key=lambda p: len(p.parts), reverse=True)
            if any(not p.is_dir() or p.is_symlink() for p in inside):
                return
            for p in inside:
                p.rmdir()
            folder.rmdir()
        except FileNotFoundError:
            continue
        except OSError as exc:
            logging.getLogger("companion").debug("left the folder %s: %s", folder, exc)
            return
