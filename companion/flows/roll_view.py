"""What Roll for the Galaxy's views draw (:mod:`companion.flows.roll`): the round as the table shows it (the phases of
the round in order I-V and Manage Empire, who selected each, p.3 Rounds, p.4 Reveal; the note and Next's label), the
last Manage Empire's note when the phones count the dice (p.8 Victory), and what Next records.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.flow_spec import TableRound
from companion.flows.roll_names import PHASE_NAMES, ROMAN, STAGE_NAMES
from companion.i18n import Listing, Text
from rules import Progress
from rules.roll.data import PHASES


class RollView:
    """The view part of :class:`companion.flows.roll.RollFlow` (a mixin before
    :class:`companion.flow_spec.FlowBase`)."""

    def table(self, view: Mapping[str, Any], progress: Progress) -> TableRound:
        """Phases of this round in order I-V plus Manage Empire, who selected each; pool; tiles.

        Before Reveal (setup, Roll, Assign) the strip is the five phase tiles as they lie in the centre, unselected
        side up (state ``"unselected"``, each saying it is not revealed yet: the selections are hidden behind the
        screens), then Manage Empire, which every round has (Roll for the Galaxy digest §3 Setup, §4 Round
        structure: Reveal flips the selected tiles, then only the selected phases run, in order I-V)."""
        stage = progress.stage
        players = view["players"]
        selected = list(view["selected"])
        revealed = stage not in ("setup", "roll", "assign")
        phases: list[dict[str, Any]] = []
        if not revealed:
            phases = [{"label": Text("{number} {phase}", number=ROMAN[ph], phase=PHASE_NAMES[ph]),
                       "by": [Text("not revealed yet")], "state": "unselected"} for ph in PHASES]
            phases.append({"label": PHASE_NAMES["manage"], "by": [], "state": "next"})
        else:
            order = [*selected, "manage"]
            here = order.index(stage) if stage in order else (-1 if stage == "reveal" else len(order))
            for k, ph in enumerate(order):
                by = [p["name"] for p in players if p["selected"] == ph]
                if ph == view.get("extra_white"):
                    by.append(Text("extra white die"))
                label = (
                    Text("{number} {phase}", number=ROMAN[ph], phase=PHASE_NAMES[ph])
                    if ph in ROMAN
                    else PHASE_NAMES[ph]
                )
                phases.append(
                    {"label": label, "by": by, "state": "current" if k == here else ("done" if k < here else "next")}
                )
        rows = {p["name"]: {"tableau": p["tiles"], "credits": p["credits"], "vp": p["vp_chips"]} for p in players}
        label, why = Text("Next"), ""
        if stage == "setup":
            note = Text("Setup: each player reports faction, home world and starting tiles, then selects a phase")
            label, why = STAGE_NAMES["reveal"], Text("waiting for every player's phase selection")
        elif stage in ("roll", "assign"):
            note = Text("Roll, assign behind your screens, then report your selected phase on your phone")
            label = STAGE_NAMES["reveal"]
            unset = [p["name"] for p in players if progress.round == 1 and p.get("faction") is None]
            if unset:
                note = Text("Round 1: finish your setup, then select a phase on your phone (p.2 Setup)")
            waits = [Text("waiting for the setup of {names}", names=Listing(unset))] if unset else []
            if progress.waiting:
                waits.append(Text("waiting for the phase selection of {names}", names=Listing(progress.waiting)))
            why = Listing(waits, "; ") if waits else ""
        elif stage == "manage":
            note = Text("Manage Empire: recruit, then the end check")
            if progress.ending:
                label = Text("End game")
            else:
                label, why = Text("Next round"), Text("next round: each player selects a phase on their phone")
        elif progress.over:
            note, label, why = Text("Game over"), Text("Game over"), Text("the game is over")
        else:
            rest = [
                ph
                for ph in selected
                if stage == "reveal" or (stage in selected and selected.index(ph) > selected.index(stage))
            ]
            label = PHASE_NAMES[rest[0]] if rest else PHASE_NAMES["manage"]
            if stage == "reveal":  # nothing is built, produced or shipped before its phase (p.4-6)
                note = Text("{stage}: next comes {phase}; report once it is on", stage=STAGE_NAMES["reveal"],
                            phase=label)
            else:
                note = Text("{stage}: report what you built, produced, shipped", stage=STAGE_NAMES.get(stage, stage))
        return TableRound(progress, phases, note, label, why, pool=view["vp_pool"], players=rows)

    def uncounted_note(self, view: Mapping[str, Any], progress: Progress) -> Any:
        """The last Manage Empire on a box whose camera does not count the dice: each phone counts them ("Dice
        counted") before End game, or the score counts the dice the setup gave (p.8 Victory: the cost-6 bonuses
        that count dice and the tie-break); otherwise the table's note."""
        if progress.stage == "manage" and progress.ending and not progress.over:
            return Text("Last Manage Empire: recruit, then count your dice on your phone (Dice counted) before End "
                        "game")
        return None

    def next_events(self, view: Mapping[str, Any], progress: Progress) -> list[tuple[str, dict[str, Any]]]:
        """Reveal once every player selected; then each selected phase; then Manage Empire; then end game."""
        stage = progress.stage
        selected = list(view["selected"])
        if stage in ("roll", "assign"):
            return [("reveal", {})] if not progress.waiting else []
        if stage == "reveal" or stage in selected:
            rest = selected if stage == "reveal" else selected[selected.index(stage) + 1 :]
            return [("phase", {"phase": rest[0] if rest else "manage"})]
        if stage == "manage" and progress.ending:
            return [("game_end", {})]
        return []
