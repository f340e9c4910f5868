"""``companion read``: the dice (d6, Roll for the Galaxy) or the cards, tiles and hexes in photos.

``read --json`` prints one JSON object per image and per line:
``{"image": PATH, "width": W, "height": H, "dice": [{"kind": "d6", "value": 1-6 or null,
"box": [x, y, w, h], "confidence": 0-1}]}``. Other tools depend on this shape.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Callable, Sequence

from companion.commands import EXIT_DEVICE, EXIT_INPUT, EXIT_OK, EXIT_USAGE, InputError, UsageError
from companion.commands.files import deck_kind, dice_reader_for, load_deck

def cmd_read(images: Sequence[Path], dice: str, as_json: bool, profile: str | None = None) -> int:
    """``companion read``: print each image's dice; bad images are named on stderr and give exit 1."""
    from vision import VisionError

    try:
        reader = dice_reader_for(dice, profile)
    except UsageError as exc:
        print(f"companion read: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except VisionError as exc:
        print(f"companion read: cannot load the dice reader: {exc}", file=sys.stderr)
        return EXIT_DEVICE
    return _read_each(
        images, lambda frame, path: {"image": str(path), **reader.read(frame).to_json()}, as_json,
        lambda record: _describe_dice(record["dice"], dice),
    )

def _read_each(
    images: Sequence[Path], read: Callable[[Any, Path], dict], as_json: bool, describe: Callable[[dict], str]
) -> int:
    """Decode each image and print ``read(frame, path)`` (JSON line or ``describe``d); 1 if any image failed.

    A missing, truncated or corrupt image is named on stderr and the others are still read.
    """
    from device import BadImage
    from device import decode_image
    from vision import VisionError

    status = EXIT_OK
    for path in images:
        try:
            record = read(decode_image(Path(path)), path)
        except (BadImage, VisionError) as exc:
            print(f"companion read: {exc}", file=sys.stderr)
            status = EXIT_INPUT
            continue
        print(json.dumps(record) if as_json else f"{path}: {describe(record)}", flush=True)
    return status

def _describe_dice(dice: list[dict], kind: str) -> str:
    if not dice:
        return "no dice"
    if kind == "d6":
        values = [d["value"] for d in dice]
        known = [v for v in values if v is not None]
        return f"{len(values)} d6: " + " ".join("?" if v is None else str(v) for v in values) + f"  (sum {sum(known)})"
    return f"{len(dice)} dice: " + ", ".join(f"{d['colour']} {d['face'] or '?'}" for d in dice)

def cmd_read_cards(images: Sequence[Path], deck_name: str, as_json: bool, mirror: str = "off",
                   calibration_file: Path | None = None) -> int:
    """``companion read IMAGE... --cards DECK``: every card or tile on each image; bad images give exit 1.

    Positions are in table mm with ``--calibration FILE`` (from ``companion calibrate``, e.g. with
    ``--corners`` for four corner markers around the play area), else calibrated per image from the
    A4 sheet when it is in view; without either, ``center_mm`` is estimated from the deck's card size.
    A missing or malformed calibration file gives exit 1.

    A hex deck (``companion enroll cards DECK DIR --hexes``) reads Eclipse sector hexes with
    :func:`vision.hexes.read_hexes` instead: per image ``{"image", "cards": [], "hexes":
    [HexObservation.to_json()]}`` (``id``, ``corners`` (6, px), ``center_mm``, ``rotation`` 0-5,
    ``rotation_deg``, ``axial`` ``[q, r]`` from the Galactic Center, ``zone``, ``confidence``).
    ``--mirror`` is a card-reader option and is refused with a hex deck (exit 2).
    """
    from vision.cards import CardsConfig, read_cards
    from vision.table import CalibrationFailed, calibrate

    try:
        deck = load_deck(deck_name)
    except InputError as exc:
        print(f"companion read: {exc}", file=sys.stderr)
        return exc.code
    hexes = deck_kind(deck) == "hex"
    if hexes and mirror != "off":
        print(f"companion read: --mirror does not apply to deck {deck_name}, which holds Eclipse sector hexes",
              file=sys.stderr)
        return EXIT_USAGE
    config = CardsConfig(mirror=mirror)
    fixed = None
    if calibration_file is not None:
        from companion.calibration import BadCalibrationFile, load_calibration

        try:
            fixed = load_calibration(calibration_file)
        except BadCalibrationFile as exc:
            print(f"companion read: {exc}", file=sys.stderr)
            return EXIT_INPUT

    def table(frame: Any) -> Any:
        if fixed is not None:
            return fixed
        try:
            return calibrate(frame)
        except CalibrationFailed:
            return None

    def read(frame: Any, path: Path) -> dict:
        if hexes:
            from vision.hexes import read_hexes

            found = read_hexes(frame, deck, calibration=table(frame))
            return {"image": str(path), "cards": [], "hexes": found.to_json(str(path))["hexes"]}
        return read_cards(frame, deck, calibration=table(frame), config=config).to_json(str(path))

    def describe(record: dict) -> str:
        if hexes:
            found = [f"{h['id'] or '?'}" + (f" at [{h['axial'][0]}, {h['axial'][1]}]" if h["axial"] is not None else "")
                     + (f" turned {h['rotation']}" if h["rotation"] else "") for h in record["hexes"]]
            return f"{len(found)} hexes: {', '.join(found) or 'none'}"
        ids = [c["id"] or "?" for c in record["cards"]]
        return f"{len(ids)} cards: {', '.join(ids) or 'none'}"

    return _read_each(images, read, as_json, describe)
