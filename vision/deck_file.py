"""A deck profile's file: the compressed ``.npz`` that :meth:`vision.deck.DeckProfile.save` writes and
:meth:`vision.deck.DeckProfile.load` reads (arrays + a versioned JSON header), its format versions, and the errors
of a file that is no deck (or a deck of another format).
"""

from __future__ import annotations

import io
import json
import zipfile
import zlib
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from .card_features import IdConfig
from .errors import N_, VisionError
from .whole_file import BY_UMASK, write_whole

if TYPE_CHECKING:
    from .deck import DeckProfile

__all__ = ["DECK_VERSION", "DeckError", "DeckFile", "DeckVersionError", "NotADeck"]

DECK_VERSION = 2
"""Deck profile format: 1 the first; 2 a card's features computed at the structure maps' size (a card deck of
format 1 is refused: :class:`DeckVersionError`; hex decks' features are unchanged, so format 1 reads as 2)."""


class DeckError(VisionError):
    """A deck folder or profile file cannot be used (the message says why)."""


class NotADeck(DeckError):
    """The file is no deck profile at all (another program's file, a copy cut short or damaged, a header without a
    deck's fields): what was named is not a deck (``companion``: a bad command line, exit 2), unlike a deck of
    another version (:class:`DeckVersionError`, a newer format)."""


class DeckVersionError(DeckError):
    """A card deck profile saved in an older format whose features this program no longer computes: enroll the
    deck again (``companion enroll cards DECK DIR``).

    Attributes:
        path: the profile file.
        version: its format version.
    """

    def __init__(self, path: Path, version: int) -> None:
        super().__init__(f"{path}: a deck enrolled by an older version of the program (format {version}); enroll it "
                         "again: companion enroll cards DECK DIR")
        self.path = path
        self.version = version


#: IdConfig fields added after the first profiles were saved, with the value that reproduces those
#: profiles' features (a profile saved without the field is read with it).
_LEGACY_CONFIG = {"flatten_light": False, "amp_weight": 0.0}


class DeckFile:
    """Saving and loading a deck profile (mixed into :class:`vision.deck.DeckProfile`, whose fields it writes)."""

    def save(self, path: str | Path) -> Path:
        """Write the profile as a compressed ``.npz`` (arrays + a versioned JSON header), whole or not at all
        (:func:`vision.whole_file.write_whole`), its permission bits as a plain write gives them (a new deck by the
        umask, a deck written again keeps its own); returns ``path``.

        Raises:
            OSError: the folder is missing or cannot be written, or the card is full: a deck already there is kept.
        """
        path = Path(path)
        meta = {
            "version": DECK_VERSION, "name": self.name, "aspect": self.aspect, "card_mm": list(self.card_mm),
            "ref_ids": self.ref_ids, "markers": {str(k): v for k, v in self.markers.items()},
            "config": {k: (list(v) if isinstance(v, tuple) else v) for k, v in self.config.__dict__.items()},
            "sources": self.sources,
        }
        if self.shape != "card":  # additive field: older programs ignore it, cards' files are unchanged
            meta["shape"] = self.shape
        buf = io.BytesIO()
        extra = {} if self.amp is None else {"amp": self.amp.astype(np.float32)}   # additive: older programs ignore it
        if self.art:  # additive too: the art's card ids in the header, the images stacked (one aspect per deck)
            meta["art_ids"] = list(self.art)
            extra["art"] = np.stack([np.asarray(a, np.uint8) for a in self.art.values()])
        np.savez_compressed(buf, meta=np.frombuffer(json.dumps(meta).encode(), np.uint8),
                            struct=self.struct.astype(np.float32), colour=self.colour.astype(np.float32), **extra)
        write_whole(path, buf.getvalue(), mode=BY_UMASK, make_folder=False)
        return path

    @classmethod
    def load(cls, path: str | Path) -> DeckProfile:
        """Read a profile written by :meth:`save` (older versions are migrated; newer ones refused).

        Raises:
            DeckError: the file is not a deck profile (another program's file, a truncated or damaged
                copy, a header without a deck's fields), or its version is newer or too old.
        """
        path = Path(path)
        try:
            with np.load(path, allow_pickle=False) as z:
                raw_meta = bytes(z["meta"])
                struct, colour = z["struct"], z["colour"]
                amp = z["amp"] if "amp" in z.files else None
                art_images = z["art"] if "art" in z.files else None
        except (zipfile.BadZipFile, zlib.error, EOFError) as e:  # a copy cut short (no zip directory), a damaged member
            raise NotADeck.said(N_("{path}: not a deck profile saved by `companion enroll cards` (cut short or "
                                   "damaged: copy it again)"), path=str(path)) from e
        except KeyError as e:  # a .npz of another program: no deck's parts
            raise NotADeck.said(N_("{path}: not a deck profile saved by `companion enroll cards` (a part of a deck "
                                   "is missing: another program's file?)"), path=str(path)) from e
        except OSError as e:
            raise NotADeck.said(N_("{path}: the deck cannot be read ({reason})"), path=str(path), reason=e) from e
        except ValueError as e:  # not a .npz at all; numpy's own text suggests unsafe loading: not repeated
            raise NotADeck.said(N_("{path}: not a deck profile saved by `companion enroll cards` (not a deck file: "
                                   "another program's file?)"), path=str(path)) from e
        try:
            meta = json.loads(raw_meta.decode())
        except RecursionError as e:  # a header of lists nested deeper than the JSON parser goes
            raise NotADeck.said(N_("{path}: not a deck profile saved by `companion enroll cards` (its header is "
                                   "nested too deeply)"), path=str(path)) from e
        except ValueError as e:  # not UTF-8, not JSON, or a number longer than Python reads
            raise NotADeck.said(N_("{path}: not a deck profile saved by `companion enroll cards` (its header is "
                                   "damaged)"), path=str(path)) from e
        if not isinstance(meta, dict):
            raise NotADeck.said(N_("{path}: not a deck profile saved by `companion enroll cards` (header)"),
                                path=str(path))
        known = set(IdConfig.__dataclass_fields__)
        try:
            meta = _migrate(meta, path)
            saved = {**_LEGACY_CONFIG, **meta["config"]}   # fields the profile predates keep their old behaviour
            cfg = IdConfig(**{k: (tuple(v) if isinstance(v, list) else v) for k, v in saved.items() if k in known})
            art_ids = [str(k) for k in meta.get("art_ids", [])]
            if art_ids and (art_images is None or art_images.ndim != 4 or len(art_images) != len(art_ids)
                            or art_images.dtype != np.uint8 or art_images.shape[-1] != 3):
                raise ValueError("art")
            art = dict(zip(art_ids, art_images, strict=True)) if art_ids else {}
            return cls(meta["name"], float(meta["aspect"]), tuple(meta["card_mm"]), list(meta["ref_ids"]), struct,
                       colour, {int(k): v for k, v in meta.get("markers", {}).items()}, cfg,
                       list(meta.get("sources", [])), str(meta.get("shape", "card")), amp, art)
        except KeyError as e:  # a field the header lacks: named as the file writes it
            raise NotADeck.said(N_("{path}: not a deck profile saved by `companion enroll cards` (its header has no "
                                   "\"{field}\")"), path=str(path), field=str(e.args[0]) if e.args else "") from e
        except (TypeError, ValueError, AttributeError) as e:
            raise NotADeck.said(N_("{path}: not a deck profile saved by `companion enroll cards` (a value in its "
                                   "header is of the wrong kind)"), path=str(path)) from e


def _migrate(meta: dict, path: Path) -> dict:
    """Bring an older profile header up to :data:`DECK_VERSION` (version 1 is the first).

    Raises:
        NotADeck: a version that is not a whole number (``1.5``, ``"2"``, ``true``; ``2.0`` is 2), naming the file
            and the field.
        DeckVersionError: a card deck of format 1 (its features were computed at the crop's size), or any deck
            older than format 1.
        DeckError: a newer format.
    """
    v = meta.get("version", 0)
    if isinstance(v, float) and v.is_integer():
        v = int(v)  # 2.0: a whole number, written by hand as a decimal
    if isinstance(v, bool) or not isinstance(v, int):  # 1.5, "2", true: no version this program wrote
        raise NotADeck.said(N_("{path}: its \"version\" is {version}, not a whole number: not a deck profile saved by "
                               "`companion enroll cards`"), path=str(path), version=_shown(v))
    if v > DECK_VERSION:
        raise DeckError(f"{path}: deck profile version {v} is newer than this program's {DECK_VERSION}; update")
    if v < 1 or (v < 2 and meta.get("shape", "card") == "card" and {"name", "ref_ids", "config"} <= set(meta)):
        raise DeckVersionError(path, v)
    return meta


def _shown(value: object) -> str:
    """``value`` as a refusal quotes it: as JSON writes it (``1.5``, ``"2"``, ``true``), cut at 40 characters."""
    try:
        text = json.dumps(value)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
