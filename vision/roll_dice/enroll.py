"""Enrolling the owner's dice (Roll for the Galaxy's, Eclipse's combat dice: any set of coloured dice with faces):
a :class:`vision.profiles.DiceProfile` from ``DIR/<colour>-<face>/`` photos, with the reader's own detection and
patch cutting."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import numpy as np

from ..errors import N_, BadFrame
from ..frames import validate_frame
from ..profiles import DEFAULT_DICE_SET, IMAGE_SUFFIXES, DiceProfile, ProfileError
from .config import RollDiceConfig
from .faces import normalise_rows, template_of, windows_of
from .reader import detect_tops, load_cnn, read_image_file

__all__ = ["build_profile", "enroll_roll_dice", "enrollment_pairs", "mean_template"]


def enrollment_pairs(folder: str | Path) -> list[tuple[str, str, list[Path]]]:
    """``(colour, face, photos)`` for each ``folder/<colour>-<face>/`` holding at least one photo."""
    root = Path(folder)
    if not root.is_dir():
        raise ProfileError.said(N_("enrollment folder not found: {folder}"), folder=str(root))
    out = []
    for sub in sorted(root.iterdir()):
        if not sub.is_dir() or "-" not in sub.name:
            continue
        colour, face = sub.name.split("-", 1)
        photos = sorted(p for p in sub.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if photos:
            out.append((colour.lower(), face.lower(), photos))
    if not out:
        raise ProfileError.said(N_("no <colour>-<face>/ subfolders with photos in {folder}"), folder=str(root))
    return out


def mean_template(vectors: list[np.ndarray], inks: list[np.ndarray], config: RollDiceConfig) -> np.ndarray:
    """Average of a pair's templates after aligning each (quarter turn + shift) to the running mean."""
    ref = vectors[0]
    for _ in range(2):
        win = windows_of(np.stack(inks), config)  # [N, S, D]
        best = np.einsum("nsd,d->ns", win, ref).argmax(1)
        aligned = win[np.arange(len(inks)), best]
        ref = normalise_rows(aligned.mean(0))
    return ref


def build_profile(folder: str | Path, allowed: Iterable[tuple[str, str]] | None = None,
                  config: RollDiceConfig | None = None, dice_set: str = DEFAULT_DICE_SET,
                  skipped: list[Path] | None = None) -> DiceProfile:
    """Enroll from ``folder/<colour>-<face>/`` photos (every die in a photo shows that pair).

    Args:
        folder: the enrollment folder.
        allowed: the pairs the dice can show; default = the enrolled pairs.
        config: reader thresholds (the same detection and patch cutting as reading).
        dice_set: the name of the set of dice (the caller's: ``"roll"``, ``"eclipse"``), kept in the profile.
        skipped: when a list, a photo that cannot be decoded is put in it and left out instead of raising (the
            caller names it); a pair whose every photo is left out is not enrolled.

    Raises:
        ProfileError: no usable folder, or a folder whose photos show no die.
        BadFrame: a photo cannot be decoded (without ``skipped``).
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
        unread = 0
        for photo in photos:
            try:
                frame = validate_frame(read_image_file(photo))
            except BadFrame:
                if skipped is None:
                    raise
                skipped.append(Path(photo))
                unread += 1
                continue
            tops = detect_tops(frame, cfg, net=net)
            if len(tops.rects) == 0:
                continue
            med = np.median(tops.body, axis=0)
            keep = (np.sqrt(((tops.body - med) ** 2).sum(1)) < 0.25) & (tops.scores >= 0.5)
            for i in np.nonzero(keep)[0]:
                inks.append(tops.ink[i])
                vecs.append(template_of(tops.ink[i], cfg))
                body_by_colour.setdefault(colour, []).append(tops.body[i])
        if not inks and unread == len(photos):
            continue  # every photo of the pair was unreadable: the pair is left out, as a pair without photos
        if not inks:
            raise ProfileError.said(N_("no die found in the photos of {pair} ({folder})"), pair=f"{colour}-{face}",
                                    folder=str(photos[0].parent))
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
    if not colours:
        raise ProfileError.said(N_("no readable photo in {folder}: every photo was left out"), folder=str(folder))
    means = np.stack([np.median(np.stack(body_by_colour[c]), axis=0) for c in colours])
    allowed_t = tuple(sorted(set(tpl_pairs) if allowed is None else {(str(c), str(f)) for c, f in allowed}))
    return DiceProfile(tuple(colours), tuple(faces), allowed_t, means, tuple(tpl_pairs), np.stack(tpls),
                       cfg.template, seen, dice_set=dice_set)


def enroll_roll_dice(folder: str | Path, out_path: str | Path,
                     allowed: Iterable[tuple[str, str]] | None = None, dice_set: str = DEFAULT_DICE_SET,
                     skipped: list[Path] | None = None) -> Path:
    """Build a profile of the set of dice ``dice_set`` from ``folder/<colour>-<face>/*.jpg|png`` and save it to
    ``out_path`` (``.json`` plus a sibling ``.npz``); ``skipped`` as :func:`build_profile`. Returns the JSON path."""
    return build_profile(folder, allowed=allowed, dice_set=dice_set, skipped=skipped).save(out_path)
