"""Enrollment profiles of the Roll for the Galaxy dice reader: what it knows about the owner's dice; save, load.

A profile is what the reader knows about the owner's dice, learned from photos and nothing else:

* ``colour_means``: each colour's body colour (log-RGB) under the enrollment light;
* ``templates``: one "ink" template per enrolled (colour, face) pair (symbols are never coded);
* ``allowed``: the (colour, face) pairs the dice can show. By default the enrolled pairs (one folder
  per pair that exists); the caller may pass the game's pairs, e.g. from ``dice.json`` through
  :func:`load_dice_faces` / :func:`allowed_pairs` (the vision room never imports ``rules``);
* ``dice_set``: the name of the set of dice it was enrolled from (``"roll"``: Roll for the Galaxy's, ``"eclipse"``:
  Eclipse's combat dice), as the caller names it; the same reader reads any set, the caller checks a profile is of
  the set it wants. A profile saved before sets were named is Roll for the Galaxy's.

Building one from photos is :func:`vision.roll_dice.build_profile` (the reader's own detection).

On disk: ``NAME.json`` (versioned metadata, colours, allowed pairs) and ``NAME.npz`` (arrays),
side by side; the JSON names its arrays file and records its SHA-256. A profile written again is replaced whole or
not at all (:meth:`DiceProfile.save`): while it is written the JSON names a spare arrays file
``NAME.<16 hex digits>.npz`` for a moment, and a power cut at any step leaves the old profile or the new one.
"""

from __future__ import annotations

import hashlib
import io
import json
import re
import zipfile
import zlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from .errors import N_, VisionError
from .whole_file import BY_UMASK, write_whole

__all__ = [
    "DEFAULT_DICE_SET",
    "IMAGE_SUFFIXES",
    "PROFILE_VERSION",
    "DiceProfile",
    "NotAProfile",
    "ProfileError",
    "allowed_pairs",
    "load_dice_faces",
]

PROFILE_FORMAT = "tabletop-companion/roll-dice-profile"
PROFILE_VERSION = 1
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp")
DEFAULT_DICE_SET = "roll"
"""The set of dice a profile saved without ``dice_set`` was enrolled from (Roll for the Galaxy's: the only one then)."""


class ProfileError(VisionError, ValueError):
    """An enrollment folder or a saved profile is unusable; the message says why."""


class NotAProfile(ProfileError):
    """The file is no dice profile at all (not UTF-8 JSON, another format, fields or arrays missing, changed or
    damaged): what was named is not a profile (``companion``: a bad command line, exit 2), unlike a missing file or a
    profile of another version."""


@dataclass(frozen=True)
class DiceProfile:
    """What the reader learned from the owner's dice (see the module doc).

    Attributes:
        colours: colour names, in prototype order.
        faces: face names.
        allowed: (colour, face) pairs the dice can show.
        colour_means: ``float[C, 3]`` body colour per colour (log-RGB, BGR order).
        template_pairs: the (colour, face) of each template row.
        templates: ``float32[K, T*T]`` normalised ink templates.
        template_side: T.
        dice_seen: enrolled dice per pair (``"colour-face"`` -> n).
        version: file format version.
        dice_set: the set of dice it was enrolled from (:data:`DEFAULT_DICE_SET` when not named).
    """

    colours: tuple[str, ...]
    faces: tuple[str, ...]
    allowed: tuple[tuple[str, str], ...]
    colour_means: np.ndarray
    template_pairs: tuple[tuple[str, str], ...]
    templates: np.ndarray
    template_side: int
    dice_seen: dict = field(default_factory=dict)
    version: int = PROFILE_VERSION
    dice_set: str = DEFAULT_DICE_SET

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, DiceProfile):
            return NotImplemented
        return (self.colours == other.colours and self.faces == other.faces and self.allowed == other.allowed
                and self.template_pairs == other.template_pairs and self.template_side == other.template_side
                and self.dice_seen == other.dice_seen and self.version == other.version
                and self.dice_set == other.dice_set
                and np.array_equal(self.colour_means, other.colour_means)
                and np.array_equal(self.templates, other.templates))

    def with_allowed(self, pairs: Iterable[tuple[str, str]]) -> DiceProfile:
        """A copy whose allowed pairs are ``pairs`` (e.g. built from ``dice.json`` by the caller)."""
        return replace(self, allowed=tuple(sorted({(str(c), str(f)) for c, f in pairs})))

    def save(self, path: str | Path) -> Path:
        """Write ``path`` (JSON, suffix forced to ``.json``) and the sibling ``.npz``; return the JSON path.

        The profile is replaced whole or not at all: each step writes one file whole (:func:`write_whole`) and leaves
        a JSON whose arrays file is there and matches it, so a power cut or a kill between any two steps leaves the
        old profile or the new one, never a JSON naming arrays of the other (which :meth:`load` refuses as changed).
        The steps: the new arrays as a spare file ``NAME.<hash>.npz``; the JSON naming it (the new profile from
        here); the arrays again as ``NAME.npz`` (named by no JSON now); the JSON naming ``NAME.npz``; the spare file
        removed. A spare arrays file left by a save cut short is removed by the next save. The files' permission
        bits are as a plain write gives them: a new file's by the umask, a file written again keeps its own.

        Raises:
            OSError: the folder is missing or cannot be written, or the card is full (``errno.ENOSPC``): the profile
                already there loads as before.
        """
        p = Path(path)
        if p.suffix != ".json":
            p = p.with_suffix(".json")
        p.parent.mkdir(parents=True, exist_ok=True)
        npz = p.with_suffix(".npz")
        buf = io.BytesIO()
        np.savez_compressed(buf, colour_means=np.asarray(self.colour_means, np.float64),
                            templates=np.asarray(self.templates, np.float32))
        arrays = buf.getvalue()
        sha = hashlib.sha256(arrays).hexdigest()
        meta = {
            "format": PROFILE_FORMAT,
            "version": self.version,
            "colours": list(self.colours),
            "faces": list(self.faces),
            "allowed": [list(x) for x in self.allowed],
            "template_pairs": [list(x) for x in self.template_pairs],
            "template_side": self.template_side,
            "dice_seen": self.dice_seen,
            "dice_set": self.dice_set,
            "arrays": npz.name,
            "arrays_sha256": sha,
        }
        spare = p.with_name(f"{p.stem}.{sha[:16]}.npz")
        write_whole(spare, arrays, mode=BY_UMASK, make_folder=False)
        write_whole(p, _meta_bytes({**meta, "arrays": spare.name}), mode=BY_UMASK, make_folder=False)
        write_whole(npz, arrays, mode=BY_UMASK, make_folder=False)
        write_whole(p, _meta_bytes(meta), mode=BY_UMASK, make_folder=False)
        _remove_spares(p)
        return p

    @classmethod
    def load(cls, path: str | Path) -> DiceProfile:
        """Read a profile written by :meth:`save`.

        Raises:
            ProfileError: missing file, wrong format, newer version, or arrays that do not match.
        """
        p = Path(path)
        if p.suffix != ".json" and not p.is_file():
            p = p.with_suffix(".json")
        if not p.is_file():
            raise ProfileError.said(N_("dice profile not found: {path}"), path=str(p))
        try:
            meta = json.loads(p.read_text(encoding="utf-8"))
        except UnicodeDecodeError:
            raise NotAProfile.said(N_("dice profile {path} is not a UTF-8 JSON file (a picture or another file?)"),
                                   path=str(p)) from None
        except RecursionError:
            raise NotAProfile.said(N_("{path} is not a dice profile (JSON nested too deeply)"), path=str(p)) from None
        except json.JSONDecodeError as exc:  # where it breaks; the parser's English reason is not said to a player
            raise NotAProfile.said(N_("dice profile {path} is not valid JSON (it breaks at line {line}, column "
                                      "{column}): a copy cut short or another file"),
                                   path=str(p), line=exc.lineno, column=exc.colno) from exc
        except ValueError as exc:  # a number of more than 4300 digits (Python's int limit); its English not said
            raise NotAProfile.said(N_("dice profile {path} holds a number too long to be read (a damaged file or "
                                      "another file)"), path=str(p)) from exc
        except OSError as exc:
            raise NotAProfile.said(N_("dice profile {path} cannot be read ({error})"), path=str(p),
                                   error=exc) from exc  # the system's reason, said by the caller
        if not isinstance(meta, dict) or meta.get("format") != PROFILE_FORMAT:
            raise NotAProfile.said(N_("{path} is not a dice profile"), path=str(p))
        meta = migrate(meta, p)
        arrays = meta.get("arrays")
        if not isinstance(arrays, str) or not arrays:
            raise NotAProfile.said(N_("dice profile {path} names no arrays file (\"arrays\")"), path=str(p))
        npz = p.parent / arrays
        if not npz.is_file():
            raise NotAProfile.said(N_("dice profile arrays missing: {arrays}"), arrays=str(npz))
        if hashlib.sha256(npz.read_bytes()).hexdigest() != meta.get("arrays_sha256"):
            raise NotAProfile.said(N_("dice profile arrays {arrays} do not match {path} (changed or corrupt)"),
                                   arrays=str(npz), path=str(p))
        return cls._with_arrays(meta, p, npz)

    @classmethod
    def _with_arrays(cls, meta: dict, p: Path, npz: Path) -> DiceProfile:
        """The profile of the checked metadata ``meta`` of ``p`` and its arrays file ``npz`` (its hash matched).

        Raises:
            NotAProfile: the arrays file does not load, or a field of the metadata is missing or of the wrong kind.
        """
        try:
            with np.load(npz, allow_pickle=False) as z:
                means, templates = z["colour_means"], z["templates"]
        except (OSError, EOFError, KeyError, ValueError, zipfile.BadZipFile, zlib.error) as exc:
            # the arrays of any set of dice (Roll's, Eclipse's): the caller names the set's enroll command
            raise NotAProfile.said(N_("dice profile {path}: its arrays {arrays} are damaged or another program's "
                                      "file"), path=str(p), arrays=str(npz)) from exc
        try:
            prof = cls(
                colours=tuple(meta["colours"]), faces=tuple(meta["faces"]),
                allowed=tuple(tuple(x) for x in meta["allowed"]),
                colour_means=means, template_pairs=tuple(tuple(x) for x in meta["template_pairs"]),
                templates=templates, template_side=int(meta["template_side"]), dice_seen=dict(meta["dice_seen"]),
                version=meta["version"], dice_set=str(meta.get("dice_set") or DEFAULT_DICE_SET),
            )
        except KeyError as exc:  # named as the file writes it
            raise NotAProfile.said(N_("dice profile {path} has no \"{field}\""), path=str(p),
                                   field=str(exc.args[0]) if exc.args else "") from exc
        except (TypeError, ValueError) as exc:
            raise NotAProfile.said(N_("dice profile {path}: a value of the profile is of the wrong kind"),
                                   path=str(p)) from exc
        if means.shape != (len(prof.colours), 3) or templates.shape[0] != len(prof.template_pairs):
            raise NotAProfile.said(N_("dice profile {path}: array shapes do not match the metadata"), path=str(p))
        return prof


def _meta_bytes(meta: dict) -> bytes:
    """A profile's JSON file's bytes."""
    return json.dumps(meta, indent=1).encode("utf-8")


def _remove_spares(path: Path) -> None:
    """Remove the spare arrays files (``NAME.<16 hex digits>.npz``) of the profile whose JSON is ``path`` (just
    written, naming ``NAME.npz``); one that cannot be removed is left (it costs room, nothing else), and so is the
    arrays file of another profile whose name only looks so (its ``.json`` beside it)."""
    spare = re.compile(re.escape(path.stem) + r"\.[0-9a-f]{16}\.npz")
    try:
        names = [child for child in path.parent.iterdir()
                 if spare.fullmatch(child.name) and not child.with_suffix(".json").exists()]
    except OSError:
        return
    for child in names:
        try:
            child.unlink()
        except OSError:
            pass


def migrate(meta: dict, path: Path) -> dict:
    """Bring an older profile's metadata to :data:`PROFILE_VERSION` (only version 1 exists so far).

    Raises:
        ProfileError: a ``"version"`` that is not a whole number from 1 (``1.5``, ``"1"``, ``true``: the file and the
            value named; ``1.0`` is 1), or one newer than this program reads.
    """
    v = meta.get("version")
    if isinstance(v, float) and v.is_integer():
        v = meta["version"] = int(v)  # 1.0: a whole number, written by hand as a decimal
    if isinstance(v, bool) or not isinstance(v, int) or v < 1:  # 1.5, "1", true: not a version this program wrote
        raise ProfileError.said(N_("dice profile {path} has no valid version ({version})"), path=str(path),
                                version=repr(v))
    if v > PROFILE_VERSION:
        raise ProfileError.said(N_("dice profile {path} is version {version}; this program reads up to {newest}: "
                                   "update the program"), path=str(path), version=v, newest=PROFILE_VERSION)
    return meta



# --------------------------------------------------------------------------------------------
# Game data passed in by the caller
# --------------------------------------------------------------------------------------------

def load_dice_faces(path: str | Path) -> dict[str, tuple[str, ...]]:
    """Faces of each colour from a ``dice.json``-shaped file (``{"dice": [{"colour", "faces": [...]}]}``).

    Raises:
        ProfileError: the file cannot be read, is not UTF-8 JSON of that shape (a number of more than 4300 digits,
            nested thousands deep included), naming the file and the reason.
    """
    try:
        data = json.loads(Path(path).read_text())
        return {d["colour"]: tuple(d["faces"]) for d in data["dice"]}
    except (OSError, KeyError, TypeError, ValueError, RecursionError) as exc:  # not UTF-8, not JSON, 5001 digits, deep
        raise ProfileError(f"cannot read dice faces from {path}: {type(exc).__name__}: {str(exc)[:200]}") from None


def allowed_pairs(faces_by_colour: Mapping[str, Sequence[str]]) -> tuple[tuple[str, str], ...]:
    """Sorted distinct (colour, face) pairs of a faces-by-colour mapping."""
    return tuple(sorted({(c, f) for c, fs in faces_by_colour.items() for f in fs}))
