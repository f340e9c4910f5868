"""Race for the Galaxy at the table (issue 4): what differs from the shared flow.

Round (digest §3): each player chooses an action card on their phone (``action_chosen``, kept
hidden until everyone has chosen); the selected phases then run in order I-V, each with the
players who get its bonus; Next closes the current phase (``phase_done``), then the round
(``round_ended``). End of game (digest §6): the VP pool empties or a tableau reaches 12 cards; the
round is played to its end.
"""

from __future__ import annotations

from typing import Any, Mapping

from companion.camera import Proposal, TableauCamera
from companion.errors import BadEntry
from companion.flow_spec import Field, FlowBase, Form, TableRound
from companion.i18n import lazy
from rules import Progress
from rules.race import RACE_GAME
from rules.race.cards import cards, facts
from rules.scoring import ScoreInputError

__all__ = ["RACE_CAMERA", "RACE_FLOW", "RaceCamera", "RaceFlow"]


class RaceCamera(TableauCamera):
    """Race for the Galaxy's part of the camera flow (issue 4: the camera fills the tableau; players
    are asked only for what it cannot see, hand size and VP chips). A card seen in a player's zone
    but not in their tableau becomes "Ann placed Gambling World?" (``card_placed``, digest §4 Develop
    and Settle); before the first round a start world becomes ``start_world`` (digest §2 Setup)."""

    covers = ("card", "start")

    def resolve(self, card_id: str) -> str | None:
        """A card id or name as enrolled (``gambling_world``, ``Gambling World``) -> the card's name."""
        for text in (card_id, card_id.replace("_", " ")):
            try:
                return cards().lookup(text, "card").name
            except ScoreInputError:
                continue
        return None

    def tableau(self, view: Mapping[str, Any], player: str) -> list[str]:
        p = next((q for q in view["players"] if q["name"] == player), {})
        return [c["card"] for c in p.get("tableau", [])]

    def asking(self, view: Mapping[str, Any]) -> bool:
        """Until the game is over."""
        return view["stage"] != "over"

    def proposal(self, player: str, name: str, view: Mapping[str, Any]) -> Proposal | None:
        starts = {c.name for c in cards().start_worlds}
        if view["stage"] == "setup" and name in starts and not self.tableau(view, player):
            return Proposal(player, f"{player}'s start world is {name}?", "start_world", {"player": player, "card": name})
        return Proposal(player, f"{player} placed {name}?", "card_placed", {"player": player, "card": name})


def _actions() -> dict[str, Mapping[str, Any]]:
    return {a["card"]: a for a in facts()["actions"]}


class RaceFlow(FlowBase):
    """Race for the Galaxy's part of the flow (see the module doc). Name, title, BoardGameGeek id, 2-4
    players and the options (the advanced 2-player game) come from the declaration (``RACE_GAME.info``)."""

    game = RACE_GAME
    report_forms = {"start_world": "start", "action_chosen": "select"}
    """Reports a phone may withdraw only while their form is open (start world in setup, action cards until Reveal)."""
    event_words = {"start_world": lazy("Start world"), "action_chosen": lazy("Action chosen"),
                   "card_placed": lazy("Card placed"), "good_placed": lazy("Good placed"),
                   "good_removed": lazy("Good consumed or sold"), "vp_changed": lazy("VP chips taken"),
                   "hand_counted": lazy("Cards in hand"), "actions_selected": lazy("Action cards revealed"),
                   "phase_done": lazy("the end of the phase"), "round_ended": lazy("the end of the round"),
                   "card_discarded": lazy("Card discarded")}
    camera = RaceCamera()

    def forms(self, view: Mapping[str, Any]) -> tuple[Form, ...]:
        """Start world, action card(s), card placed, good placed/removed, VP chips, hand count."""
        deck = cards()
        names = tuple(sorted(deck))
        worlds = tuple(sorted(n for n, c in deck.items() if c.is_world))
        actions = tuple(a for a, raw in _actions().items() if view.get("advanced") or not raw["advanced_only"])
        choose = [Field("action", "Action card", choices=actions)]
        if view.get("advanced"):
            choose.append(Field("second", "Second action card", choices=actions))
        return (
            Form("start", "Start world", (Field("card", "Start world", choices=tuple(c.name for c in deck.start_worlds)),)),
            Form("select", "Action chosen", tuple(choose)),
            Form("card", "Card placed", (Field("card", "Card", choices=names),)),
            Form("good", "Good placed", (Field("world", "World", choices=worlds),)),
            Form("consumed", "Good consumed or sold", (Field("world", "World", choices=worlds),)),
            Form("vp", "VP chips taken", (Field("vp", "VP", kind="int", minimum=1, maximum=30),)),
            Form("hand", "Cards in hand", (Field("cards", "Cards", kind="int", minimum=0, maximum=40),)),
        )

    def open_forms(self, view: Mapping[str, Any], progress: Progress, player: str) -> list[str]:
        """Start world in setup; action cards between rounds; the rest during the phases."""
        stage = progress.stage
        if stage == "over":
            return []
        play = ["card", "good", "consumed", "vp", "hand"]
        if stage == "setup":
            return ["start", "select", "hand"]
        if stage in ("select", "round_end"):
            return ["select", *play]
        return play

    def report_event(self, form: str, values: dict[str, Any], player: str, view: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
        """Form -> event (``rules.race.game`` kinds)."""
        if form == "start":
            return "start_world", {"player": player, "card": values["card"]}
        if form == "select":
            ids = [_actions()[values["action"]]["id"]]
            if values.get("second"):
                ids.append(_actions()[values["second"]]["id"])
            return "action_chosen", {"player": player, "actions": ids}
        if form == "card":
            return "card_placed", {"player": player, "card": values["card"]}
        if form == "good":
            return "good_placed", {"player": player, "world": values["world"]}
        if form == "consumed":
            return "good_removed", {"player": player, "world": values["world"]}
        if form == "vp":
            return "vp_changed", {"player": player, "delta": values["vp"]}
        if form == "hand":
            return "hand_counted", {"player": player, "cards": values["cards"]}
        raise BadEntry(f"unknown report {form!r}")

    def table(self, view: Mapping[str, Any], progress: Progress) -> TableRound:
        """Phases of the round in order with who gets each bonus; VP pool; tableau sizes."""
        stage = progress.stage
        cards_of = {a["id"]: a["card"] for a in facts()["actions"]}
        phases = []
        for k, s in enumerate(view["steps"]):
            by = [f"{p} ({', '.join(cards_of[i] for i in ids)})" for p, ids in s["bonus"].items()]
            if view["step"] is None:
                state = "done" if stage in ("round_end", "over") else "next"
            else:
                state = "current" if k == view["step"] else ("done" if k < view["step"] else "next")
            phases.append({"label": s["label"], "by": by, "state": state})
        rows = {p["name"]: {"tableau": p["tableau_size"], "credits": None, "vp": p["chips"]} for p in view["players"]}
        why = ""
        if stage in ("setup", "select"):
            note = "Each player chooses an action card on their phone; they are revealed together"
            label, why = "Reveal", f"waiting for the action cards of {', '.join(progress.waiting)}"
            phases = [] if stage == "setup" else phases
        elif stage == "phases":
            current = view["steps"][view["step"]]["label"]
            note = f"{current}: report what you place, produce and consume"
            label = f"{current} done"
        elif stage == "round_end":
            note, label = "End of round: discard down to 10 cards", "End round"
        else:
            note, label, why = "Game over", "Game over", "the game is over"
        return TableRound(progress, phases, note, label, why, pool=view["vp_pool"], players=rows)

    def next_events(self, view: Mapping[str, Any], progress: Progress) -> list[tuple[str, dict[str, Any]]]:
        """``phase_done`` during the phases, ``round_ended`` after the last one; nothing while choosing."""
        if progress.stage == "phases":
            return [("phase_done", {"phase": view["steps"][view["step"]]["phase"]})]
        if progress.stage == "round_end":
            return [("round_ended", {})]
        return []

    def role(self, view: Mapping[str, Any], player: str) -> str | None:
        """The player's start world."""
        starts = {c.name for c in cards().start_worlds}
        p = next((q for q in view["players"] if q["name"] == player), None)
        return next((c["card"] for c in (p or {}).get("tableau", []) if c["card"] in starts), None)


RACE_FLOW = RaceFlow()
RACE_CAMERA = RACE_FLOW.camera
