"""Which readers a game's camera part uses, and in which passes over a still table (declared, not special-cased).

A game's camera part (:class:`companion.camera.spec.CameraSpec`) lists its passes in ``passes``; the camera flow
runs each one whose reader the box has (``"cards"``: an enrolled deck; ``"roll_dice"``: a Roll for the Galaxy
dice profile):

- :class:`CardPass`: the cards in every player's zone, on each of the ``confirm_reads`` reads of a still table
  (the watchers want agreeing reads);
- :class:`DicePass`: the dice in every zone, once per still table while the game wants them (Roll: the phase
  strips before Reveal), each zone's dice becoming questions; one declared ``off_map`` reads the table with the
  sector hexes the map pass found in the same frame painted out (Eclipse's combat dice, rolled beside the map);
- :class:`CountPass`: a count in steps, once per still table while the game wants it (Roll for the Galaxy's
  end-of-game dice count, p.8 Victory: the citizenry, then the cups), each step's dice becoming questions and the
  table told what to do before the next step.

Of the once-per-still-table passes the first one wanted runs (in the declared order).

- :class:`MapPass`: the sector hexes of the whole table (an enrolled hex deck), on each of the ``confirm_reads``
  reads of a still table, to one watcher of the shared map (Eclipse's galaxy).

A game whose camera reads dice also says which dice (:class:`DiceSet`: their colours and each colour's faces): the
owner enrolls them with ``companion enroll <set>-dice DIR``, the profile remembers the set, and the box reads them
with that profile only; the deck a game's passes need (cards or hexes) is :func:`deck_kind`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from companion.camera.questions import Proposal

__all__ = ["DECK_KINDS", "TABLE", "CardPass", "CountPass", "DicePass", "DiceSet", "MapPass", "ReadPass", "ReadPlan",
           "Sight", "colour_counts", "deck_kind", "dice_by_zone"]

DiceByZone = Mapping[str, list[dict[str, Any]]]
"""Player -> the dice seen in that player's zone (``RollDieObservation.to_json()`` dicts); a pass that reads the
whole table gets them all under :data:`TABLE`."""

TABLE = ""
"""The key of the dice seen anywhere on the table (a :class:`DicePass` with ``by_zone=False``)."""


@dataclass(frozen=True)
class DiceSet:
    """A game's dice as the camera reads them: each colour and its faces, as the rules name them.

    Attributes:
        name: the set's short name (``"roll"``, ``"eclipse"``): ``companion enroll <name>-dice DIR`` enrolls it,
            and a dice profile remembers it (:attr:`vision.profiles.DiceProfile.dice_set`).
        title: the game's title, for messages.
        faces: ``(colour, (face, ...))`` in the rulebook's order; an enrollment folder is ``<colour>-<face>``.
    """

    name: str
    title: str
    faces: tuple[tuple[str, tuple[str, ...]], ...]

    @property
    def colours(self) -> tuple[str, ...]:
        """The colours, in order."""
        return tuple(c for c, _ in self.faces)

    def faces_of(self, colour: str) -> tuple[str, ...]:
        """The faces a die of ``colour`` has (() for a colour the set has not)."""
        return dict(self.faces).get(colour, ())

    @property
    def all_faces(self) -> tuple[str, ...]:
        """Every face any colour has, in order."""
        out: list[str] = []
        for _, faces in self.faces:
            out += [f for f in faces if f not in out]
        return tuple(out)

    @property
    def pairs(self) -> tuple[tuple[str, str], ...]:
        """Every (colour, face) pair the dice have, sorted: what the reader may report as certain."""
        return tuple(sorted((c, f) for c, faces in self.faces for f in faces))

    @property
    def folders(self) -> tuple[str, ...]:
        """The enrollment folders, ``<colour>-<face>``, in order."""
        return tuple(f"{c}-{f}" for c, faces in self.faces for f in faces)

    @property
    def enroll_command(self) -> str:
        """``companion enroll <name>-dice DIR``."""
        return f"companion enroll {self.name}-dice DIR"


@dataclass(frozen=True)
class CardPass:
    """The cards in each player's zone, on every read of a still table; each zone's cards go to its player's
    watcher (a grid anchored on the card :meth:`~companion.camera.spec.CameraSpec.anchor` names).

    Attributes:
        reader: the reader it needs (an enrolled deck of cards or tiles).
    """

    reader: str = "cards"


@dataclass(frozen=True)
class DicePass:
    """The dice in each player's zone, once per still table while ``wanted``.

    Attributes:
        name: the pass's name (``"phase"``): :attr:`ReadPlan.dice`.
        wanted: ``(engine view) -> bool``: whether the dice are worth reading now.
        propose: ``(dice by zone, engine view, image path or None) -> [Proposal]``: the questions.
        reader: the reader it needs.
        by_zone: the dice by player zone (Roll's phase strips); False: every die on the table, under :data:`TABLE`
            (Eclipse's combat dice, rolled in the middle).
        off_map: the dice lie beside the map: with a :class:`MapPass` in the same read, the frame is read with the
            sector hexes that pass found painted out (:class:`vision.hexes.OffMapDice`), so the map's artwork is
            never taken for dice; without one (no hex deck enrolled) the whole frame is read. Eclipse, Combat.
    """

    name: str
    wanted: Callable[[Mapping[str, Any]], bool]
    propose: Callable[[DiceByZone, Mapping[str, Any], str | None], list[Proposal]]
    reader: str = "roll_dice"
    by_zone: bool = True
    off_map: bool = False


@dataclass(frozen=True)
class CountPass:
    """A count of the dice in steps (``places``), one step per still table while ``wanted``; "read now" once the
    count is done counts again.

    Attributes:
        name: the pass's name (``"count"``): :attr:`ReadPlan.dice`.
        places: the steps in order (Roll: ``("citizenry", "cup")``).
        wanted: ``(engine view) -> bool``: whether the count applies now (the game is over).
        prompt: ``(next place or None when done) -> str``: what the table does before that step.
        propose: ``(dice by zone, engine view, place, each player's dice as the step before read them (die JSON
            objects), image path or None) -> [Proposal]``: one question per player for this step.
        reader: the reader it needs.
        labels: each place in the players' words (a :class:`companion.i18n.Text`), for the camera's message; a
            place without one is said as it is.
    """

    name: str
    places: tuple[str, ...]
    wanted: Callable[[Mapping[str, Any]], bool]
    prompt: Callable[[str | None], str]
    propose: Callable[[DiceByZone, Mapping[str, Any], str, DiceByZone, str | None], list[Proposal]]
    reader: str = "roll_dice"
    labels: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class MapPass:
    """The sector hexes of the whole table, on every read of a still table, to the one watcher of the shared map
    (:meth:`~companion.camera.spec.CameraSpec.map_watcher`, :meth:`~companion.camera.spec.CameraSpec.observe_map`).

    Attributes:
        reader: the reader it needs (an enrolled hex deck).
        anchor: the hex at axial (0, 0) (Eclipse's Galactic Center, ``"001"``).
    """

    reader: str = "hexes"
    anchor: str = "001"


ReadPass = CardPass | DicePass | CountPass | MapPass
"""One declared pass."""

DECK_KINDS = {"cards": "card", "hexes": "hex"}
"""A pass's reader -> the kind of enrolled deck it reads with (``vision.deck.DeckProfile.shape``)."""


def deck_kind(passes: Sequence[ReadPass]) -> str | None:
    """The kind of deck a game's passes read with: ``"card"`` (cards, square tiles), ``"hex"`` (sector hexes), or
    None when no pass reads a deck."""
    return next((DECK_KINDS[p.reader] for p in passes if p.reader in DECK_KINDS), None)


@dataclass(frozen=True)
class ReadPlan:
    """What one camera read looks at, decided from the game state on the loop's thread.

    ``image``: ``uint8[H, W, 3]`` BGR still frame; ``photo``: the replayed file behind it or None;
    ``names``: the players; ``anchors``: anchor card id (or None) -> the players whose station grid
    is anchored on it (empty without a card pass); ``dice``: the name of the once-per-still-table pass this read
    runs (``"count"``, ``"phase"``) or None; ``count_place``: the count's step (``"cup"`` ...) when that pass is
    a :class:`CountPass`; ``counting``: a count applies now (reads without it keep its message); ``boxes``: the
    frame-px boxes that changed since the read before (the stillness detector's; ``[]`` nothing, None: read it all);
    ``previous``: the readers' sightings of that read by key (``"cards:<anchor>"``, ``"hexes:<anchor>"``,
    ``"dice"``), kept where nothing changed; ``mirror``: the camera's mirror as decided (None: decide it on this
    read); ``asked``: a player asked for this read (Read now); ``epoch``: the still table it belongs to;
    ``map_anchor``: the hex at axial (0, 0) when a :class:`MapPass` reads the map, else None; ``seq``: the game's
    newest event when the plan was made (``Session.last_seq``; None: not known): a read that ends after the game
    moved on is planned again under the game as it stands (:meth:`companion.camera.flow.CameraFlow.collect`).
    """

    image: np.ndarray
    photo: str | None
    names: tuple[str, ...]
    anchors: Mapping[str | None, tuple[str, ...]]
    dice: str | None = None
    count_place: str | None = None
    counting: bool = False
    boxes: Sequence[tuple[int, int, int, int]] | None = None
    previous: Mapping[str, Any] = field(default_factory=dict)
    mirror: bool | None = False
    asked: bool = False
    epoch: int = 0
    map_anchor: str | None = None
    seq: int | None = None


@dataclass(frozen=True)
class Sight:
    """What the camera saw for a :class:`ReadPlan` (:meth:`companion.camera.flow.CameraFlow.see`).

    ``cards``: player -> the :class:`vision.cards.Card` in that player's zone; ``dice``: player ->
    die JSON objects, None when the plan had no dice pass; ``markers``: ``{"moved": [ids],
    "message"}`` when the calibration markers moved, else None; ``sightings``: each reader's
    :class:`vision.Sighting` by the plan's keys (the next read keeps what did not change); ``notes``: what the readers
    tell the players (``Sighting.notes``, e.g. the mirror note); ``mirror``: the mirror decided on this read (None:
    not decided); ``hexes``: every :class:`vision.hexes.HexObservation` of the table when the plan read the map,
    else None.
    """

    plan: ReadPlan
    cards: Mapping[str, list[Any]]
    dice: DiceByZone | None
    markers: dict[str, Any] | None
    sightings: Mapping[str, Any] = field(default_factory=dict)
    notes: tuple[str, ...] = ()
    mirror: bool | None = None
    hexes: list[Any] | None = None


def colour_counts(dice: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """``{colour: n}`` of ``RollDieObservation.to_json()`` dicts (a die of unknown colour, null, is left out)."""
    out: dict[str, int] = {}
    for d in dice:
        if d.get("colour"):
            out[d["colour"]] = out.get(d["colour"], 0) + 1
    return out


def dice_by_zone(
    dice: Sequence[Any], names: Sequence[str], zones: Any, calibration: Any
) -> dict[str, list[dict[str, Any]]]:
    """The dice of a read (objects with ``box`` ``(x, y, w, h)`` px and ``to_json()``) by the player zone their
    centre lies in (``zones``: :class:`vision.table.Zones`, in table mm with a ``calibration``); dice outside the
    players' zones are left out."""
    out: dict[str, list[dict[str, Any]]] = {}
    for die in dice:
        x, y, w, h = die.box
        point = np.array([[x + w / 2.0, y + h / 2.0]], np.float64)
        if zones.units == "mm" and calibration is not None:
            point = calibration.to_mm(point)
        zone = zones.zone_of(point[0])
        if zone in names:
            out.setdefault(zone, []).append(die.to_json())
    return out
