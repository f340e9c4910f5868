"""Eclipse's part of the camera flow (issue 14 'At the table'): the map from the camera, and the combat dice.

- **The map** (:class:`~companion.camera.passes.MapPass`, an enrolled hex deck: ``companion enroll cards DECK DIR
  --hexes``): whenever the table is still the hex reader reads every sector hex (its id, axial ``[q, r]`` from the
  Galactic Center, rotation); the :class:`~companion.camera.hexmap.MapWatcher` diffs agreeing reads against the map
  it accepted, and each newly explored hex becomes one question: "Ann explored 103 Beta Leonis at [0, -1], rotation
  0?" (the Explore action of the player whose turn it is, ``action_taken`` with the hex), or at setup "Ann's starting
  sector 221 Procyon at [0, -2]?" (``hex_placed``). What the rules engine finds wrong with it (Eclipse, Explore
  action: its ring, its wormholes) is previewed at once (:meth:`companion.flow.GameFlow.preview`) and shown on both
  views with the rule and the fix ("rotate it 2 steps clockwise so its wormhole faces yours"); a tile turned before
  anyone answered is asked about again, turned. Nothing changes the game until a player confirms.
- **The combat dice** (a :class:`~companion.camera.passes.DicePass` over the table beside the map, an Eclipse dice
  profile: ``companion enroll eclipse-dice DIR``): the dice are rolled off the sector hexes, so the pass is declared
  ``off_map``: with a hex deck enrolled it reads the frame with the hexes the map pass found in it painted out
  (:class:`vision.hexes.OffMapDice`; a dice reader shown the whole map takes its artwork for dice); once a volley is
  aimed (the phone's Fire form without faces), the dice
  rolled are read on the next still table and asked about: "Ann's Cruiser at Bob's Interceptor: yellow 6, 5, 2: 1 of
  3 dice hit, 1 damage?"; the hits are the engine's (Eclipse, Combat). A die that could not be read or cannot be is
  said in the question and left out by the engine (``impossible_die``), never changed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.camera import TABLE, DicePass, DiceSet, MapPass, Observed, Proposal
from companion.camera.hexmap import MapWatcher, PlacedTile
from companion.camera.preview import misplays
from companion.i18n import N_, Listing, Text, plural
from rules.eclipse.combat import DAMAGE, FACES, resolve_volley
from rules.eclipse.data import UnknownSector, catalogue

__all__ = ["ECLIPSE_CAMERA", "ECLIPSE_DICE", "EclipseCamera"]

ECLIPSE_DICE = DiceSet("eclipse", "Eclipse", tuple((colour, tuple(str(f) for f in FACES)) for colour in DAMAGE))
"""Eclipse's combat dice (Eclipse, Combat): yellow (ion), orange (plasma), red (antimatter), faces 1-6 (enrolled
as ``DIR/yellow-6/`` ...: the face the rules count as 6)."""


def _at(at: tuple[int, int]) -> str:
    return f"[{at[0]}, {at[1]}]"


class EclipseCamera:
    """Eclipse's camera part: the map pass and the combat dice pass (see the module doc)."""

    covers = ("explore", "home")
    dice_set = ECLIPSE_DICE
    card_aspect = None

    @property
    def passes(self) -> tuple[Any, ...]:
        """The map (a hex deck), then the combat dice beside it once a volley is aimed (a dice profile)."""
        return (MapPass(), DicePass("combat", self.wants_dice, self.dice_proposals, by_zone=False, off_map=True))

    @staticmethod
    def knows(card_id: str) -> bool:
        """Whether ``card_id`` is an Eclipse sector hex (its number, as the hex deck is enrolled)."""
        try:
            catalogue().sector(card_id)
        except UnknownSector:
            return False
        return True

    # -- no player zones: Eclipse lays one shared map -------------------------------------------------------
    def anchor(self, player: str, view: Mapping[str, Any]) -> str | None:
        """No card pass: no anchor."""
        return None

    def watcher(self, player: str, view: Mapping[str, Any], confirm_reads: int, min_confidence: float) -> Any:
        """No card pass: no per-player watcher."""
        return None

    def observe(self, watcher: Any, player: str, seen: Sequence[Any], view: Mapping[str, Any],
                flow: Any) -> Observed | None:
        """No card pass: nothing per player."""
        return None

    # -- the map ---------------------------------------------------------------------------------------------
    @staticmethod
    def _map(view: Mapping[str, Any]) -> dict[tuple[int, int], PlacedTile]:
        return {(int(h["q"]), int(h["r"])): PlacedTile(h["sector"], int(h["rotation"])) for h in view.get("map", ())}

    def map_watcher(self, view: Mapping[str, Any], confirm_reads: int, min_confidence: float) -> MapWatcher:
        """A watcher whose accepted map starts as the engine's (a resumed game asks nothing again)."""
        return MapWatcher(self._map(view), confirm_reads=confirm_reads, min_confidence=min_confidence)

    def observe_map(self, watcher: MapWatcher, seen: Sequence[Any], view: Mapping[str, Any],
                    flow: Any) -> Observed | None:
        """One read of the map -> a question per newly explored hex, the engine's misplays for every hex seen and not
        confirmed yet, notes for hexes turned after they were recorded, unsure or not seen."""
        change = watcher.observe(seen)
        notes = list(watcher.unsure)
        if change is None:
            return Observed(notes=notes) if notes else None
        recorded = self._map(view)
        out = Observed(notes=notes)
        changed = {at for at, _ in change.added} | {at for at, _, _ in change.turned}
        pending: list[Proposal] = []  # every hex on the table the rules do not hold yet, in ring order
        for at, tile in sorted(watcher.layout.items(), key=lambda kv: (_ring(kv[0]), kv[0])):
            have = recorded.get(at)
            if have == tile:
                continue
            if have is not None:
                if at in changed:
                    word = (
                        Text("turned")
                        if have.id == tile.id
                        else Text("{seen} instead of {recorded}", seen=tile.id, recorded=have.id)
                    )
                    notes.append(
                        Text(
                            "the hex at {cell} is recorded as {sector}, rotation {rotation}; the camera sees "
                            "{seen} (rotation {now}): put it back, or Undo and confirm it again",
                            cell=_at(at),
                            sector=have.id,
                            rotation=have.rotation,
                            seen=word,
                            now=tile.rotation,
                        )
                    )
                continue
            proposal = self._proposal(at, tile, view)
            if proposal is None:
                if at in changed:
                    notes.append(Text("the hex at {cell} was read as {sector!r}, which is no Eclipse sector: check the "
                                      "deck", cell=_at(at), sector=tile.id))
                continue
            pending.append(proposal)
        # a question for each hex this change added or turned (one dismissed is not asked again while it stays);
        # a question about a hex as it was before it was turned is withdrawn
        fresh = [p for p in pending if p.cell in changed]
        out.withdraw = [watcher.asked[p.cell] for p in fresh if watcher.asked.get(p.cell) not in (None, p.key)]
        watcher.asked.update({p.cell: p.key for p in fresh})
        out.proposals = fresh
        out.misplays = misplays(flow, pending, pending)  # every hex on the table the rules do not hold, judged
        for at, tile in change.missing:
            out.notes.append(Text("{sector} at {cell} is not seen (kept on the map)", sector=tile.id, cell=_at(at)))
        return out

    @staticmethod
    def _proposal(at: tuple[int, int], tile: PlacedTile, view: Mapping[str, Any]) -> Proposal | None:
        """The question a hex seen on the map becomes: a starting sector laid at setup (``hex_placed``, for the
        player of its species), else the Explore of the player whose turn it is (``action_taken``), else a hex laid
        (``hex_placed``). None: not an Eclipse sector."""
        try:
            sector = catalogue().sector(tile.id)
        except UnknownSector:
            return None
        where = {"q": at[0], "r": at[1], "rotation": tile.rotation}
        players = view.get("players", ())
        first = players[0]["name"] if players else ""
        if sector.home and not (sector.kind == "ancient_homeworld" and view.get("hidden_worlds")):
            owner = next((p["name"] for p in players if sector.species and p.get("species") == sector.species), None)
            who = owner or view.get("turn") or first
            text = (
                Text("{player}'s starting sector {sector} at {cell}?", player=owner, sector=sector.label, cell=_at(at))
                if owner
                else Text(
                    "{sector} laid at {cell}, rotation {rotation}?",
                    sector=sector.label,
                    cell=_at(at),
                    rotation=tile.rotation,
                )
            )
            return Proposal(who, text, "hex_placed", {"sector": sector.id, **where}, cell=at)
        turn = view.get("turn")
        if view.get("stage") == "action" and turn:
            return Proposal(turn, Text("{player} explored {sector} at {cell}, rotation {rotation}?", player=turn,
                                       sector=sector.label, cell=_at(at), rotation=tile.rotation),
                            "action_taken", {"action": "explore", "sector": sector.id, **where}, cell=at)
        who = view.get("start_player") or first
        return Proposal(who, Text("{sector} laid at {cell}, rotation {rotation}?", sector=sector.label, cell=_at(at),
                                  rotation=tile.rotation), "hex_placed",
                        {"sector": sector.id, **where}, cell=at)

    # -- the combat dice -------------------------------------------------------------------------------------
    @staticmethod
    def wants_dice(view: Mapping[str, Any]) -> bool:
        """While a volley is aimed and not rolled yet (``view["aim"]``)."""
        return view.get("aim") is not None

    def dice_proposals(self, dice: Mapping[str, list[dict[str, Any]]], view: Mapping[str, Any],
                       image: str | None) -> list[Proposal]:
        """The dice on the table as the aimed volley's roll: "Ann's Cruiser at Bob's Interceptor: yellow 6, 5, 2?"
        (``volley_rolled`` with every die read, ``face`` null for one that could not be read: the engine leaves it
        out and asks, and the question says so)."""
        aim = view.get("aim")
        seen = list(dice.get(TABLE) or ())
        if aim is None or not seen:
            return []
        rolled = []
        unread = 0
        for d in seen:
            face = d.get("face")
            face = int(face) if isinstance(face, str) and face.isdigit() else None
            if face is None or d.get("colour") not in DAMAGE:
                unread += 1
            rolled.append({"colour": d.get("colour"), "face": face})
        by_colour = Listing([Text("{colour} {faces}", colour=colour_word(c),
                                  faces=", ".join(str(d["face"]) for d in rolled if d["colour"] == c and d["face"]))
                             for c in DAMAGE if any(d["colour"] == c and d["face"] for d in rolled)], "; ")
        extra: list[Any] = [plural(" ({n} die could not be read: it is left out; re-roll it or tap the faces in)",
                                   " ({n} dice could not be read: they are left out; re-roll them or tap the faces in)",
                                   unread, n=unread)] if unread else []
        expected = aim.get("roll") or {}
        got = {c: sum(1 for d in rolled if d["colour"] == c) for c in DAMAGE}
        if expected and any(got.get(c, 0) != n for c, n in expected.items()):
            extra.append(Text(" (its blueprint rolls {dice})", dice=Listing(
                [Text("{n} {colour}", n=n, colour=colour_word(c)) for c, n in expected.items()])))
        volley = resolve_volley(rolled, aim["computers"], aim["shields"], missiles=bool(aim.get("missiles")),
                                distortion_shield=bool(aim.get("distortion_shield")))
        outcome = Text("{hits} of {count} dice hit, {damage} damage", hits=volley.hits, count=len(volley.results),
                       damage=volley.damage)
        read = {"image": image, "dice": seen}
        question = Text("{volley}: {dice}: {outcome}?", volley=aim["label"], dice=by_colour if by_colour.items
                        else Text("no die read"), outcome=outcome)
        return [Proposal(aim["player"], Listing([question, *extra], ""),
                         "volley_rolled", {"dice": rolled, "read": read})]


COLOUR_WORDS = {"yellow": N_("yellow"), "orange": N_("orange"), "red": N_("red")}
"""The combat dice's colours, for the catalogs."""


def colour_word(colour: str) -> Text:
    """A combat die's colour (``"yellow"``) in the players' words."""
    return Text(COLOUR_WORDS.get(colour, colour))


def _ring(at: tuple[int, int]) -> int:
    q, r = at
    return (abs(q) + abs(r) + abs(q + r)) // 2


ECLIPSE_CAMERA = EclipseCamera()
