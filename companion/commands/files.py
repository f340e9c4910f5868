"""The files the commands read and write besides the session database: dice profiles, decks, outputs.

A profile or a deck is named (kept in the user's data directory) or given as a path; an output file is written
only where nothing else lies (:func:`not_ours`): a folder, a session database, a picture or another program's
file is never replaced.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Mapping

from companion.commands import EXIT_DEVICE, EXIT_USAGE, InputError, UsageError

def profile_path(name_or_path: str) -> Path:
    """A dice profile's JSON file: a path as given (``.json``), or ``<data dir>/profiles/<name>.json``."""
    from companion.paths import data_dir

    if name_or_path.endswith(".json") or "/" in name_or_path:
        return Path(name_or_path).expanduser()
    return data_dir() / "profiles" / f"{name_or_path}.json"

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

def load_dice_reader(dice: Any, name_or_path: str):
    """The dice reader for the set ``dice`` (a :class:`companion.camera.DiceSet`) with the enrolled profile
    ``name_or_path``: the reader never reports a (colour, face) pair the set does not have as certain.

    Raises:
        InputError: (exit 3) no profile there, one that does not load, or a profile of another set of dice (the
            enroll command to run).
    """
    from vision import VisionError
    from vision.profiles import DiceProfile
    from vision.roll_dice import RollDiceReader

    path = profile_path(name_or_path)
    if not path.is_file():
        raise InputError(f"no dice profile at {path}: build one with `{dice.enroll_command}`", EXIT_DEVICE)
    try:
        profile = DiceProfile.load(path)
        if profile.dice_set != dice.name:
            raise InputError(f"dice profile {name_or_path} was enrolled from {profile.dice_set} dice, not "
                             f"{dice.title}'s: build one with `{dice.enroll_command}`", EXIT_DEVICE)
        return RollDiceReader(profile, allowed=dice.pairs)
    except VisionError as exc:
        raise InputError(f"cannot load dice profile {name_or_path}: {exc}", EXIT_DEVICE) from None

def dice_reader_for(dice: str, profile: str | None):
    """The reader for ``--dice`` (d6, or Roll for the Galaxy with an enrolled profile)."""
    if dice == "d6":
        from vision import D6Reader

        return D6Reader()
    if profile is None:
        raise UsageError("--dice roll needs --profile (run `companion enroll roll-dice DIR` first)")
    from vision.profiles import DiceProfile
    from vision.roll_dice import RollDiceReader

    return RollDiceReader(DiceProfile.load(profile_path(profile)), allowed=roll_dice_pairs())

def deck_path(name_or_path: str) -> Path:
    """An enrolled deck's file: a path ending in ``.npz`` as given, or ``<data dir>/decks/<name>.npz``.

    Raises:
        InputError: (exit 2) a path that does not end in ``.npz``, or a name with a path separator or
            ``..`` (a deck file is never written or read anywhere else).
    """
    from companion.paths import data_dir

    if name_or_path.endswith(".npz"):
        return Path(name_or_path).expanduser()
    if "/" in name_or_path or "\\" in name_or_path or ".." in name_or_path or not name_or_path.strip():
        raise InputError(f"deck {name_or_path!r}: give a deck name (saved in {data_dir() / 'decks'}) "
                          "or a path ending in .npz", EXIT_USAGE)
    return data_dir() / "decks" / f"{name_or_path}.npz"

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
        InputError: no such file, it does not load, or it holds the other kind (one line naming the
            deck, what it holds and the enroll command to run; exit 3, "no deck to read with").
    """
    from vision import VisionError
    from vision.deck import DeckProfile

    path = deck_path(name_or_path)
    if not path.is_file():
        raise InputError(f"no deck at {path}: build one with `companion enroll cards DECK DIR`", EXIT_DEVICE)
    try:
        deck = DeckProfile.load(path)
    except VisionError as exc:
        raise InputError(f"cannot load deck {name_or_path}: {exc}", EXIT_DEVICE) from None
    kind = deck_kind(deck)
    if want is not None and kind != want:
        hint = "companion enroll cards DECK DIR --hexes" if want == "hex" else "companion enroll cards DECK DIR"
        raise InputError(f"deck {name_or_path} holds {DECK_KINDS[kind]}, not {DECK_KINDS[want]}: "
                          f"enroll one with `{hint}`", EXIT_DEVICE)
    return deck

def not_ours(path: Path, keys: Mapping[str, Any]) -> str | None:
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

def unwritable_folder(path: Path) -> str:
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
