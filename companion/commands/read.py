"""``companion read``: the dice (d6, Roll for the Galaxy) or the cards, tiles and hexes in photos.

``read --json`` prints one JSON object per image and per line:
``{"image": PATH, "width": W, "height": H, "dice": [{"kind": "d6", "value": 1-6 or null,
"box": [x, y, w, h], "confidence": 0-1}]}``. Other tools depend on this shape.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from companion.commands import EXIT_DEVICE, EXIT_INPUT, EXIT_OK, EXIT_USAGE, InputError, UsageError
from companion.commands.files import deck_kind, dice_reader_for, load_deck
from companion.i18n import _, ngettext, say
from rules.roll.words import colour_word, face_word


def cmd_read(images: Sequence[Path], dice: str, as_json: bool, profile: str | None = None) -> int:
    """``companion read``: print each image's dice; bad images are named on stderr and give exit 1."""
    from vision import VisionError

    try:
        reader = dice_reader_for(dice, profile)
    except UsageError as exc:
        print(_("companion read: {problem}").format(problem=say(exc)), file=sys.stderr)
        return EXIT_USAGE
    except InputError as exc:  # no such profile, one that does not load, or another set's dice
        print(_("companion read: {problem}").format(problem=say(exc)), file=sys.stderr)
        return exc.code
    except VisionError as exc:
        print(_("companion read: cannot load the dice reader: {problem}").format(problem=say(exc)), file=sys.stderr)
        return EXIT_DEVICE
    def read(frame: Any, path: Path) -> dict:
        seen = reader.read(frame)
        return {"image": str(path), "width": int(seen.width), "height": int(seen.height),
                "dice": [d.to_json() for d in seen.dice]}

    return _read_each(images, read, as_json, lambda record: _describe_dice(record["dice"], dice))

def _read_each(
    images: Sequence[Path], read: Callable[[Any, Path], dict], as_json: bool, describe: Callable[[dict], str]
) -> int:
    """Decode each image and print ``read(frame, path)`` (JSON line or ``describe``d); 1 if any image failed.

    A missing, truncated or corrupt image, or one the reader cannot take (too small), is named on stderr and the
    others are still read.
    """
    from device import BadImage, decode_image
    from vision import VisionError

    status = EXIT_OK
    for path in images:
        try:
            record = read(decode_image(Path(path)), path)
        except BadImage as exc:  # names the image itself
            print(_("companion read: {problem}").format(problem=say(exc)), file=sys.stderr)
            status = EXIT_INPUT
            continue
        except VisionError as exc:  # a picture the reader cannot take (too small): named, as several may be read
            print(_("companion read: {image}: {note}").format(image=path, note=say(exc)), file=sys.stderr)
            status = EXIT_INPUT
            continue
        print(json.dumps(record) if as_json else f"{path}: {describe(record)}", flush=True)
    return status

def _describe_dice(dice: list[dict], kind: str) -> str:
    if not dice:
        return _("no dice")
    if kind == "d6":
        values = [d["value"] for d in dice]
        known = [v for v in values if v is not None]
        return _("{n} d6: {values}  (sum {total})").format(n=len(values), values=" ".join(
            "?" if v is None else str(v) for v in values), total=sum(known))
    said = ", ".join(f"{say(colour_word(d['colour']))} {say(face_word(d['face'])) if d['face'] else '?'}" for d in dice)
    return ngettext("{n} die: {dice}", "{n} dice: {dice}", len(dice)).format(n=len(dice), dice=said)

def _kept_mirror(calibration_file: Path | None, deck: str) -> str | None:
    """``"on"``/``"off"`` as ``companion calibrate --deck`` kept it for ``deck`` in ``calibration_file``, or None."""
    from companion.calibration import deck_mirror

    kept = deck_mirror(calibration_file, deck)
    return None if kept is None else ("on" if kept else "off")


class _MirrorOnce:
    """The card reads of one ``companion read --cards`` run: the mirror decided once, on the first image whose
    cards tell (:func:`vision.cards.decide_mirror`), unless ``decided`` (given, or kept with the calibration),
    then kept for the images after it; what the reader tells about an image goes to stderr (issue 16: the
    default never fails silently)."""

    def __init__(self, deck: Any, config: Any, decided: bool) -> None:
        self.deck, self.config, self.decided = deck, config, decided

    def read(self, frame: Any, path: Path, calibration: Any) -> dict:
        """The JSON record of the cards of ``frame`` (uint8[H, W, 3] BGR) read from ``path``."""
        from vision.cards import MIRROR_NOTE, decide_mirror, read_cards

        if not self.decided:
            check = decide_mirror(frame, self.deck, calibration, self.config)
            if check.mirrored is not None:
                self.decided = True
                self.config = dataclasses.replace(self.config, mirror="on" if check.mirrored else "off")
                if check.mirrored:
                    print(_("companion read: the cards of deck {deck} read as mirror images, from {image} on "
                            "(--mirror off reads them as the camera gives them)").format(deck=self.deck.name,
                                                                                        image=path),
                          file=sys.stderr)
        found = read_cards(frame, self.deck, calibration=calibration, config=self.config)
        for note in found.notes:
            said = _("the cards read as if the camera image were mirrored: read with --mirror on, or leave "
                     "--mirror out to have it decided") if note == MIRROR_NOTE else note
            print(_("companion read: {image}: {note}").format(image=path, note=said), file=sys.stderr)
        return found.to_json(str(path))


CARD_SURE = 0.6
"""A card identified below this confidence (0-1) is said as "?": the camera's own bar
(:class:`companion.camera.flow.CameraFlow`'s ``min_confidence``), below which a read is never built on."""


def box_copies(card_ids: Sequence[str]) -> dict[str, int]:
    """How many copies of each card the game's box holds, from the rules' card data, for a deck whose every card
    (``card_ids``, reader ids) is an Among the Stars location or reactor; {} for any other deck (the rules keep no
    other game's copies by reader id)."""
    from rules.among_the_stars.data import catalogue

    cat, out = catalogue(), {}
    for cid in card_ids:
        card = cat.cards.get(cid)
        if card is None or card.copies <= 0:
            return {}
        out[cid] = int(card.copies)
    return out


def sure_ids(cards: Sequence[dict], copies: dict[str, int] | None = None) -> list[str | None]:
    """The id to say for each card read (``cards``: ``CardObservation.to_json()`` dicts with ``id`` and
    ``confidence``), in order: None (said "?") where the reader gave no id or one below :data:`CARD_SURE`, and for
    the copies of a card beyond what the box holds (``copies``: reader id -> copies in the box, :func:`box_copies`;
    the surest reads keep the id): a table cannot show a third Galactic Bank, so a read naming one is a question,
    not a count."""
    out: list[str | None] = [c["id"] if c["id"] and float(c["confidence"]) >= CARD_SURE else None for c in cards]
    by_id: dict[str, list[int]] = {}
    for k, cid in enumerate(out):
        if cid is not None:
            by_id.setdefault(cid, []).append(k)
    for cid, ks in by_id.items():
        limit = (copies or {}).get(cid)
        if limit is not None and len(ks) > limit:
            for k in sorted(ks, key=lambda k: -float(cards[k]["confidence"]))[limit:]:
                out[k] = None
    return out


def hexes_said(hexes: Sequence[dict]) -> list[str]:
    """Each sector hex read (``hexes``: :meth:`vision.hexes.HexObservation.to_json` dicts with ``id``, ``axial``
    ``[q, r]`` or None, ``rotation`` 0-5 or None, ``confidence`` 0-1) as the command prints it: its id, or "?" where
    the reader gave none or one below :data:`CARD_SURE` (the camera's bar, as for cards), then where it lies and how
    it is turned; ``--json`` keeps every id and confidence. Every sector hex is in the box once (Eclipse: each tile
    has its own number), so of two hexes read with one id only the surer keeps it and the other is "?"
    (:func:`sure_ids` with one copy of each)."""
    out = []
    ids = sure_ids(hexes, {h["id"]: 1 for h in hexes if h["id"]})
    for h, sure in zip(hexes, ids, strict=True):
        said = str(sure) if sure is not None else "?"
        if h["axial"] is not None:
            said = _("{hex} at [{q}, {r}]").format(hex=said, q=h["axial"][0], r=h["axial"][1])
        if h["rotation"]:
            said = _("{hex} turned {steps}").format(hex=said, steps=h["rotation"])
        out.append(said)
    return out


def cmd_read_cards(images: Sequence[Path], deck_name: str, as_json: bool, mirror: str | None = None,
                   calibration_file: Path | None = None) -> int:
    """``companion read IMAGE... --cards DECK``: every card or tile on each image; bad images give exit 1.

    Positions are in table mm with ``--calibration FILE`` (from ``companion calibrate``, e.g. with
    ``--corners`` for four corner markers around the play area), else calibrated per image from the
    A4 sheet when it is in view; without either, ``center_mm`` is estimated from the deck's card size.
    A missing or malformed calibration file gives exit 1.

    A hex deck (``companion enroll cards DECK DIR --hexes``) reads Eclipse sector hexes with
    :func:`vision.hexes.read_hexes` instead: per image ``{"image", "cards": [], "hexes":
    [HexObservation.to_json()]}`` (``id``, ``corners`` (6, px), ``center_mm``, ``rotation`` 0-5,
    ``rotation_deg``, ``axial`` ``[q, r]`` from the Galactic Center, ``zone``, ``confidence``). Without ``--json`` a
    card or hex read below :data:`CARD_SURE` is printed "?" (:func:`sure_ids`, :func:`hexes_said`).
    ``--mirror`` is a card-reader option and is refused with a hex deck (exit 2). Without it the mirror is the
    one ``companion calibrate --deck`` kept for the deck with ``--calibration FILE``, else it is decided once, on
    the first image whose cards tell (:func:`vision.cards.decide_mirror`), and kept for the images after it;
    until then the images are read as the camera gives them. What the reader tells about an image (a camera
    that looks mirrored) goes to stderr.
    """
    from vision.cards import CardsConfig
    from vision.table import CalibrationFailed, calibrate

    try:
        deck = load_deck(deck_name, option="--cards")
    except InputError as exc:
        print(_("companion read: {problem}").format(problem=say(exc)), file=sys.stderr)
        return exc.code
    hexes = deck_kind(deck) == "hex"
    if hexes and mirror not in (None, "off"):
        print(
            _("companion read: --mirror does not apply to deck {deck}, which holds Eclipse sector hexes").format(
                deck=deck_name
            ),
            file=sys.stderr,
        )
        return EXIT_USAGE
    fixed = None
    if calibration_file is not None:
        from companion.calibration import BadCalibrationFile, load_calibration

        try:
            fixed = load_calibration(calibration_file)
        except BadCalibrationFile as exc:
            print(_("companion read: {problem}").format(problem=say(exc)), file=sys.stderr)
            return EXIT_INPUT
    mirror = mirror or (None if hexes else _kept_mirror(calibration_file, deck.name))
    copies = {} if hexes else box_copies(deck.card_ids)
    cards = _MirrorOnce(deck, CardsConfig(mirror=mirror or "off"), decided=mirror is not None)

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
        return cards.read(frame, path, table(frame))

    def describe(record: dict) -> str:
        if hexes:
            found = hexes_said(record["hexes"])
            return ngettext("{n} hex: {hexes}", "{n} hexes: {hexes}", len(found)).format(
                n=len(found), hexes=", ".join(found) or _("none"))
        ids = [c if c is not None else "?" for c in sure_ids(record["cards"], copies)]
        return ngettext("{n} card: {cards}", "{n} cards: {cards}", len(ids)).format(n=len(ids),
                                                                                 cards=", ".join(ids) or _("none"))

    return _read_each(images, read, as_json, describe)
