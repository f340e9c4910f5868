"""What Eclipse's views draw (:mod:`companion.flows.eclipse`): the round as the table shows it (the phases, whose
turn, the note and Next's label), what Next records, the players' columns, the galaxy as a hex board and the combat
helper's throws.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.flow_spec import Board, Cell, Column, TableRound, Throw, ThrownDie
from companion.flows.eclipse_camera import colour_word
from companion.flows.eclipse_forms import MAP_REACH, _diplomacy, _structure_word
from companion.flows.eclipse_turns import passed_holders
from companion.i18n import AND, N_, Listing, Text, plural
from rules import Progress
from rules.eclipse.data import ROUNDS
from rules.eclipse.fleet import hit_on
from rules.eclipse.galaxy import STEP, ring
from rules.eclipse.words import ship_word

PHASES = ("action", "combat", "upkeep", "cleanup")
PHASE_LABELS = {"action": N_("Action"), "combat": N_("Combat"), "upkeep": N_("Upkeep"), "cleanup": N_("Cleanup")}


class EclipseView:
    """The view part of :class:`companion.flows.eclipse.EclipseFlow` (a mixin before
    :class:`companion.flow_spec.FlowBase`)."""

    def columns_now(self, view: Mapping[str, Any]) -> tuple[Column, ...]:
        """Hexes always; Ambassadors only where diplomatic relations are used (4 or more players, Eclipse 1.2
        Diplomacy) and Alliance only with the Alliances module (Rise of the Ancients p.10-11): a 2-player table read
        'Ambassadors 0' and 'Alliance –' for rules it does not play, in a table too wide for a 360 px phone."""
        out = [c for c in self.columns if c.key == "hexes"]
        if _diplomacy(view):
            out += [c for c in self.columns if c.key == "ambassadors"]
        if (view.get("modules") or {}).get("alliances"):
            out += [c for c in self.columns if c.key == "alliance"]
        return tuple(out)

    def table(self, view: Mapping[str, Any], progress: Progress) -> TableRound:
        """Action / Combat / Upkeep / Cleanup (the current one highlighted; under Action who has passed, said as
        "passed: Bob, Cy": bare names under Action read as the players acting, the two marker holders of the
        simultaneous variant), whose turn, the next round's start player, the Turn Order card; each player's hexes,
        Ambassadors, alliance."""
        stage, over = progress.stage, progress.over
        here = PHASES.index(stage) if stage in PHASES else len(PHASES)
        passed = list(view.get("passed", ())) if stage == "action" else []
        phases = [{"label": Text(PHASE_LABELS[ph]),
                   "by": [Text("passed: {players}", players=Listing(passed))] if ph == "action" and passed else [],
                   "state": "done" if over or k < here else ("current" if k == here else "next")}
                  for k, ph in enumerate(PHASES)]
        rows = {}
        for p in view["players"]:
            side = p.get("alliance_tile_side")
            alliance = p.get("alliance") and (Text("{alliance} (traitor)", alliance=p["alliance"]) if side == "traitor"
                                               else p["alliance"])
            rows[p["name"]] = {"hexes": p["controlled_hexes"], "ambassadors": len(p.get("relations", ())),
                               "alliance": alliance or None, "vp": None}
        note, label, why = self._note(view, progress)
        # a final position missing when Next scores the game: the shared flow asks (companion.flow.GameFlow._table)
        return TableRound(progress, phases, note, label, why, pool=None, players=rows)

    def _note(self, view: Mapping[str, Any], progress: Progress) -> tuple[str, str, str]:
        """(note, Next's label, why Next cannot be pressed)."""
        stage, rnd = progress.stage, progress.round
        last = rnd >= ROUNDS
        if progress.over:
            return Text("Game over: the scores are final"), Text("Game over"), Text("the game is over")
        if stage == "reporting":
            if not progress.waiting:  # every position in: a last look before the table scores the game
                return (Text("every final position is in; each player may still withdraw or correct theirs on their "
                             "phone until the table presses {next}", next=Text("Score the game")),
                        Text("Score the game"), "")
            missing = Listing(progress.waiting)
            return (
                Text(
                    "each player enters their final position on their own phone (hidden); waiting for "
                    "{players}. Next scores now, without the missing ones",
                    players=missing,
                ),
                Text("Score now"),
                "",
            )
        if stage == "action":
            markers = view.get("markers")
            if markers and markers.get("first_waits"):
                turn = Text("First Action: {first} (waiting: {second} acts first), Second Action: {second}",
                            first=markers["first"], second=markers["second"])
            elif markers and markers.get("second_waits"):
                turn = Text("First Action: {first}, Second Action: {second} (waiting: {first} acts first)",
                            first=markers["first"], second=markers["second"])
            elif markers:
                turn = Text("First Action: {first}, Second Action: {second}", first=markers["first"],
                            second=markers["second"])
            else:
                direction = view.get("direction", "clockwise")
                turn = (
                    Text("{player}'s turn (counter-clockwise)", player=progress.turn)
                    if direction == "counter-clockwise"
                    else Text("{player}'s turn (clockwise)", player=progress.turn)
                )
            passed = view.get("passed") or []
            bits = [turn]
            if view.get("may_react"):  # their turns come first; with no reaction they go by (Eclipse 1.2, Passing)
                bits.append(Text("{players} passed and may react first (Upgrade, Build or Move)",
                                 players=Listing(view["may_react"])))
            holding = passed_holders(view)
            if holding:  # simultaneous play: the basic rules' Passing holds (Rise of the Ancients p.13)
                bits.append(plural("{players} has passed and holds an Action marker: a reaction (Upgrade, Build or "
                                   "Move), or Pass to hand it on (Rise of the Ancients p.13: the basic rules hold)",
                                   "{players} have passed and hold Action markers: a reaction (Upgrade, Build or "
                                   "Move), or Pass to hand one on (Rise of the Ancients p.13: the basic rules hold)",
                                   len(holding), players=Listing(holding, AND)))
            if passed:
                bits.append(Text("passed: {players}; next round starts: {player}", players=Listing(passed),
                                 player=view.get("next_start_player")))
            bits.append(Text("report your action on your phone, or Pass"))
            waiting = Listing(progress.waiting)
            return (Listing(bits, " - "), Text("Combat"),
                    Text("the Action phase ends when everyone has passed (waiting for {players})", players=waiting))
        if stage == "combat":
            end = last and not view.get("last_round_upkeep", True)
            return (Text("Combat: fight each battle; Fire a volley on your phone to see which dice hit"),
                    Text("End game") if end else Text("Upkeep"), "")
        if stage == "upkeep":
            return (
                Text("Upkeep: pay for your influence discs; take back the discs you cannot pay for"),
                Text("Cleanup"),
                "",
            )
        holder = view.get("turn_order_card")
        note = (Text("Cleanup: discs back, new technologies; {player} holds the Turn Order card and chooses the "
                     "direction", player=holder) if holder else Text("Cleanup: discs back, new technologies"))
        return note, Text("End game") if last else Text("Round {round}", round=rnd + 1), ""

    def next_events(self, view: Mapping[str, Any], progress: Progress) -> list[tuple[str, dict[str, Any]]]:
        """The end of Combat, Upkeep or Cleanup (``phase_ended``); while the players report their end positions,
        the end of the game (``game_ended``). The Action phase ends by itself when the last player passes."""
        if progress.over or progress.stage == "action":
            return []
        if progress.stage == "reporting":
            return [("game_ended", {})]
        return [("phase_ended", {})]

    # -- what the views draw ---------------------------------------------------------------------------
    def boards(self, view: Mapping[str, Any], progress: Progress) -> tuple[Board, ...]:
        """The galaxy as a hex board: each explored hex (its sector, its ``[q, r]``, who controls it, Ancients,
        guardian, what is built), and the empty spaces next to it with their ``[q, r]`` (where Explore may lay a
        hex)."""
        cells = []
        taken = set()
        for h in view.get("map", ()):
            at = (int(h["q"]), int(h["r"]))
            taken.add(at)
            extra = []
            if h.get("guardian"):
                extra.append(ship_word(h["guardian"]))
            if h.get("ancients"):
                extra.append(plural("{n} Ancient", "{n} Ancients", int(h["ancients"]), n=h["ancients"]))
            extra += [_structure_word(s["structure"]) for s in h.get("structures", ())]
            detail = Listing([f"[{at[0]}, {at[1]}]", *extra], " · ")
            cells.append(Cell(at, h["sector"], h.get("owner"), int(h["rotation"]), detail))
        spaces = sorted({(q + dq, r + dr) for q, r in taken for dq, dr in STEP.values()} - taken,
                        key=lambda c: (ring(*c), c))
        cells += [Cell(c, f"[{c[0]}, {c[1]}]", None, None, Text("empty space"), empty=True)
                  for c in spaces if ring(*c) <= MAP_REACH]
        return (Board("map", Text("The galaxy"), "hex", tuple(cells)),)

    def throws(self, view: Mapping[str, Any], progress: Progress) -> tuple[Throw, ...]:
        """The combat helper: the volley aimed (what to roll) or the last volley rolled (which dice hit, the damage)."""
        aim, volley = view.get("aim"), view.get("volley")
        if aim is not None:
            roll = Listing(
                [Text("{n} {colour}", n=n, colour=colour_word(c)) for c, n in (aim.get("roll") or {}).items()]
            )
            hit = hit_on(aim["computers"], aim["shields"])
            what = Text("roll {dice} dice", dice=roll) if roll.items else Text("roll the ship type's dice")
            return (Throw("volley", aim["label"], (), Text("{what}: a die hits on {hit} or more (the camera reads them "
                          "on a still table, or tap the faces in)", what=what, hit=hit), aim.get("player")),)
        if volley is not None:
            dice = tuple(
                ThrownDie(
                    d["colour"],
                    d["face"],
                    d["hit"],
                    Text("{damage} damage", damage=d["damage"]) if d["hit"] else Text("miss"),
                )
                for d in volley["dice"]
            )
            summary: Any = plural(
                "{n} hit: {damage} damage (hits on {hit} or more)",
                "{n} hits: {damage} damage (hits on {hit} or more)",
                int(volley["hits"]),
                n=volley["hits"],
                damage=volley["damage"],
                hit=volley.get("hit_on", hit_on(volley["computers"], volley["shields"])),
            )
            if volley.get("questions"):
                summary = Listing([summary, *volley["questions"]], "; ")
            return (Throw("volley", volley.get("label") or Text("Volley"), dice, summary, volley.get("player")),)
        return ()
