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


def _photo_dice(frame: np.ndarray, config: RollDiceConfig, net, side: float | None = None
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The dice of one enrollment photo (a validated ``uint8[H, W, 3]`` BGR frame, every die showing one pair):
    ``(inks float32[n, 2, P+2m, P+2m], bodies log-RGB float[n, 3], sides float[n] frame px)`` of the top faces
    found (:func:`vision.roll_dice.reader.detect_tops`, at ``side`` frame px when given, else at the side measured
    on the photo) whose body lies within 0.25 (log-RGB) of the photo's median body and whose die-ness is at least
    0.5."""
    scale = min(1.0, config.work_long_side / float(max(frame.shape[:2])))   # frame px -> work px
    tops = detect_tops(frame, config, net=net, side=None if side is None else side * scale)
    if len(tops.rects) == 0:
        return np.zeros((0, 2, 1, 1), np.float32), np.zeros((0, 3)), np.zeros(0)
    med = np.median(tops.body, axis=0)
    keep = (np.sqrt(((tops.body - med) ** 2).sum(1)) < 0.25) & (tops.scores >= 0.5)
    return tops.ink[keep], tops.body[keep], np.sqrt(tops.rects[keep, 2] * tops.rects[keep, 3])


def _redetect_off_size(found: list[list[tuple[Path, np.ndarray, np.ndarray, np.ndarray]]],
                       config: RollDiceConfig, net) -> None:
    """Look again, in place, at the enrollment photos whose dice came out at another size than the enrollment's.

    ``found``: per pair, per photo ``(path, inks, bodies, sides)`` of :func:`_photo_dice`. The dice of an enrollment
    are one set under one camera, so they share one side (the median of every die found, frame px); a photo whose
    dice's median side is more than ``enroll_side_off`` (a ratio) off it, or that showed no die, took something else
    for the dice (a light symbol's frame on a dark die on a table of the die's colour is a square of its own, about
    half the die), and is detected again at the enrollment's side. The second look replaces the first when it
    keeps more dice, or as many at a side nearer the enrollment's. Fewer than ``enroll_side_photos`` photos with dice,
    or ``enroll_side_off`` 0: nothing is looked at again."""
    sides = [s for got in found for _, _, _, ss in got for s in ss]
    with_dice = sum(1 for got in found for _, _, _, ss in got if len(ss))
    if config.enroll_side_off <= 0 or with_dice < config.enroll_side_photos:
        return
    side = float(np.median(sides))

    def off(ss: np.ndarray) -> float:
        return abs(float(np.log(np.median(ss) / side))) if len(ss) else np.inf

    for got in found:
        for k, (path, _, _, ss) in enumerate(got):
            if off(ss) <= np.log(config.enroll_side_off):
                continue
            try:   # read once already; a photo gone or spoilt since keeps its first look
                again = _photo_dice(validate_frame(read_image_file(path)), config, net, side)
            except BadFrame:
                continue
            if len(again[2]) > len(ss) or (len(again[2]) == len(ss) and off(again[2]) < off(ss)):
                got[k] = (path, *again)


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
    found: list[list[tuple[Path, np.ndarray, np.ndarray, np.ndarray]]] = []   # per pair: (photo, inks, bodies, sides)
    unread_by_pair: list[int] = []
    for _, _, photos in pairs:
        got, unread = [], 0
        for photo in photos:
            try:
                frame = validate_frame(read_image_file(photo))
            except BadFrame:
                if skipped is None:
                    raise
                skipped.append(Path(photo))
                unread += 1
                continue
            got.append((Path(photo), *_photo_dice(frame, cfg, net)))
        found.append(got)
        unread_by_pair.append(unread)
    _redetect_off_size(found, cfg, net)
    for (colour, face, photos), got, unread in zip(pairs, found, unread_by_pair, strict=True):
        inks, vecs = [], []
        for _, photo_inks, bodies, _ in got:
            for ink, body in zip(photo_inks, bodies, strict=True):
                inks.append(ink)
                vecs.append(template_of(ink, cfg))
                body_by_colour.setdefault(colour, []).append(body)
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
