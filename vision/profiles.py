"""Enrollment profiles of the Roll for the Galaxy dice reader: build from photos, save, load.

A profile is what the reader knows about the owner's dice, learned from photos and nothing else:

* ``colour_means``: each colour's body colour (log-RGB) under the enrollment light;
* ``templates``: one "ink" template per enrolled (colour, face) pair (symbols are never coded);
* ``allowed``: the (colour, face) pairs the dice can show. By default the enrolled pairs (one folder
  per pair that exists); the caller may pass the game's pairs, e.g. from ``dice.json`` through
  :func:`load_dice_faces` / :func:`allowed_pairs` (the vision room never imports ``rules``).

On disk: ``NAME.json`` (versioned metadata, colours, allowed pairs) and ``NAME.npz`` (arrays),
side by side; the JSON records the npz's SHA-256.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from .frames import validate_frame
from .errors import BadFrame, VisionError
from .roll_dice import (
    RollDiceConfig,
    _normalise_rows,
    detect_tops,
    load_cnn,
    read_image_file,
    template_of,
    windows_of,
)

PROFILE_FORMAT = "tabletop-companion/roll-dice-profile"
PROFILE_VERSION = 1
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp")


class ProfileError(VisionError, ValueError):
    """An enrollment folder or a saved profile is unusable; the message says why."""


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

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, DiceProfile):
            return NotImplemented
        return (self.colours == other.colours and self.faces == other.faces and self.allowed == other.allowed
                and self.template_pairs == other.template_pairs and self.template_side == other.template_side
                and self.dice_seen == other.dice_seen and self.version == other.version
                and np.array_equal(self.colour_means, other.colour_means)
                and np.array_equal(self.templates, other.templates))

    def with_allowed(self, pairs: Iterable[tuple[str, str]]) -> DiceProfile:
        """A copy whose allowed pairs are ``pairs`` (e.g. built from ``dice.json`` by the caller)."""
        return replace(self, allowed=tuple(sorted({(str(c), str(f)) for c, f in pairs})))

    def save(self, path: str | Path) -> Path:
        """Write ``path`` (JSON, suffix forced to ``.json``) and the sibling ``.npz``; return the JSON path."""
        p = Path(path)
        if p.suffix != ".json":
            p = p.with_suffix(".json")
        p.parent.mkdir(parents=True, exist_ok=True)
        npz = p.with_suffix(".npz")
        np.savez_compressed(npz, colour_means=np.asarray(self.colour_means, np.float64),
                            templates=np.asarray(self.templates, np.float32))
        meta = {
            "format": PROFILE_FORMAT,
            "version": self.version,
            "colours": list(self.colours),
            "faces": list(self.faces),
            "allowed": [list(x) for x in self.allowed],
            "template_pairs": [list(x) for x in self.template_pairs],
            "template_side": self.template_side,
            "dice_seen": self.dice_seen,
            "arrays": npz.name,
            "arrays_sha256": hashlib.sha256(npz.read_bytes()).hexdigest(),
        }
        p.write_text(json.dumps(meta, indent=1))
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
            raise ProfileError(f"dice profile not found: {p} (build one with `companion enroll roll-dice DIR`)")
        try:
            meta = json.loads(p.read_text(encoding="utf-8"))
        except UnicodeDecodeError:
            raise ProfileError(f"dice profile {p} is not a UTF-8 JSON file (a picture or another file?); "
                               "build one with `companion enroll roll-dice DIR`") from None
        except RecursionError:
            raise ProfileError(f"dice profile {p} is not a roll-dice profile (JSON nested too deeply)") from None
        except (OSError, ValueError) as exc:  # ValueError: bad JSON, a number of more than 4300 digits
            raise ProfileError(f"dice profile {p} is not valid JSON: {str(exc)[:120]}") from exc
        if not isinstance(meta, dict) or meta.get("format") != PROFILE_FORMAT:
            raise ProfileError(f"{p} is not a roll-dice profile")
        meta = migrate(meta, p)
        npz = p.parent / meta["arrays"]
        if not npz.is_file():
            raise ProfileError(f"dice profile arrays missing: {npz}")
        if hashlib.sha256(npz.read_bytes()).hexdigest() != meta.get("arrays_sha256"):
            raise ProfileError(f"dice profile arrays {npz} do not match {p} (changed or corrupt)")
        with np.load(npz) as z:
            means, templates = z["colour_means"], z["templates"]
        prof = cls(
            colours=tuple(meta["colours"]), faces=tuple(meta["faces"]),
            allowed=tuple(tuple(x) for x in meta["allowed"]),
            colour_means=means, template_pairs=tuple(tuple(x) for x in meta["template_pairs"]),
            templates=templates, template_side=int(meta["template_side"]), dice_seen=dict(meta["dice_seen"]),
            version=int(meta["version"]),
        )
        if means.shape != (len(prof.colours), 3) or templates.shape[0] != len(prof.template_pairs):
            raise ProfileError(f"dice profile {p}: array shapes do not match the metadata")
        return prof


def migrate(meta: dict, path: Path) -> dict:
    """Bring an older profile's metadata to :data:`PROFILE_VERSION` (only version 1 exists so far)."""
    v = meta.get("version")
    if not isinstance(v, int) or v < 1:
        raise ProfileError(f"dice profile {path}: bad version {v!r}")
    if v > PROFILE_VERSION:
        raise ProfileError(f"dice profile {path} is version {v}; this program reads up to {PROFILE_VERSION}")
    return meta


# --------------------------------------------------------------------------------------------
# Game data passed in by the caller
# --------------------------------------------------------------------------------------------

def load_dice_faces(path: str | Path) -> dict[str, tuple[str, ...]]:
    """Faces of each colour from a ``dice.json``-shaped file (``{"dice": [{"colour", "faces": [...]}]}``)."""
    try:
        data = json.loads(Path(path).read_text())
        return {d["colour"]: tuple(d["faces"]) for d in data["dice"]}
    except (OSError, KeyError, TypeError, json.JSONDecodeError) as exc:
        raise ProfileError(f"cannot read dice faces from {path}: {exc}") from exc


def allowed_pairs(faces_by_colour: Mapping[str, Sequence[str]]) -> tuple[tuple[str, str], ...]:
    """Sorted distinct (colour, face) pairs of a faces-by-colour mapping."""
    return tuple(sorted({(c, f) for c, fs in faces_by_colour.items() for f in fs}))


# --------------------------------------------------------------------------------------------
# Building
# --------------------------------------------------------------------------------------------

def enrollment_pairs(folder: str | Path) -> list[tuple[str, str, list[Path]]]:
    """``(colour, face, photos)`` for each ``folder/<colour>-<face>/`` holding at least one photo."""
    root = Path(folder)
    if not root.is_dir():
        raise ProfileError(f"enrollment folder not found: {root}")
    out = []
    for sub in sorted(root.iterdir()):
        if not sub.is_dir() or "-" not in sub.name:
            continue
        colour, face = sub.name.split("-", 1)
        photos = sorted(p for p in sub.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if photos:
            out.append((colour.lower(), face.lower(), photos))
    if not out:
        raise ProfileError(f"no <colour>-<face>/ subfolders with photos in {root}")
    return out


def mean_template(vectors: list[np.ndarray], inks: list[np.ndarray], config: RollDiceConfig) -> np.ndarray:
    """Average of a pair's templates after aligning each (quarter turn + shift) to the running mean."""
    ref = vectors[0]
    for _ in range(2):
        win = windows_of(np.stack(inks), config)  # [N, S, D]
        best = np.einsum("nsd,d->ns", win, ref).argmax(1)
        aligned = win[np.arange(len(inks)), best]
        ref = _normalise_rows(aligned.mean(0))
    return ref


def build_profile(folder: str | Path, allowed: Iterable[tuple[str, str]] | None = None,
                  config: RollDiceConfig | None = None) -> DiceProfile:
    """Enroll from ``folder/<colour>-<face>/`` photos (every die in a photo shows that pair).

    Args:
        folder: the enrollment folder.
        allowed: the pairs the dice can show; default = the enrolled pairs.
        config: reader thresholds (the same detection and patch cutting as reading).

    Raises:
        ProfileError: no usable folder, or a folder whose photos show no die.
        BadFrame: a photo cannot be decoded.
    """
    cfg = config if config is not None else RollDiceConfig()
    pairs = enrollment_pairs(folder)
    colours: list[str] = []
    faces: list[str] = []
    body_by_colour: dict[str, list[np.ndarray]] = {}
    tpl_pairs, tpls, seen = [], [], {}
    net = load_cnn(cfg)
    for colour, face, photos in pairs:
        inks, vecs = [], []
        for photo in photos:
            frame = validate_frame(read_image_file(photo))
            tops = detect_tops(frame, cfg, net=net)
            if len(tops.rects) == 0:
                continue
            med = np.median(tops.body, axis=0)
            keep = (np.sqrt(((tops.body - med) ** 2).sum(1)) < 0.25) & (tops.scores >= 0.5)
            for i in np.nonzero(keep)[0]:
                inks.append(tops.ink[i])
                vecs.append(template_of(tops.ink[i], cfg))
                body_by_colour.setdefault(colour, []).append(tops.body[i])
        if not inks:
            raise ProfileError(f"no die found in the photos of {colour}-{face} ({photos[0].parent})")
        if colour not in colours:
            colours.append(colour)
        if face not in faces:
            faces.append(face)
        mean = mean_template(vecs, inks, cfg)
        tpl_pairs.append((colour, face))
        tpls.append(mean)
        # plus the enrolled dice most unlike the mean (other looks of the same face), aligned to it
        if cfg.templates_per_pair > 1 and len(inks) > 1:
            win = windows_of(np.stack(inks), cfg)
            sims = np.einsum("nsd,d->ns", win, mean)
            best = sims.argmax(1)
            for i in np.argsort(sims.max(1))[: cfg.templates_per_pair - 1]:
                tpl_pairs.append((colour, face))
                tpls.append(win[i, best[i]])
        seen[f"{colour}-{face}"] = len(inks)
    means = np.stack([np.median(np.stack(body_by_colour[c]), axis=0) for c in colours])
    allowed_t = tuple(sorted(set(tpl_pairs) if allowed is None else {(str(c), str(f)) for c, f in allowed}))
    return DiceProfile(tuple(colours), tuple(faces), allowed_t, means, tuple(tpl_pairs), np.stack(tpls),
                       cfg.template, seen)


__all__ = [
    "PROFILE_VERSION",
    "BadFrame",
    "DiceProfile",
    "ProfileError",
    "allowed_pairs",
    "build_profile",
    "enrollment_pairs",
    "load_dice_faces",
]
