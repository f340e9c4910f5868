"""Race for the Galaxy at the table (issue 4): what differs from the shared flow.

Round (digest §3): each player chooses an action card on their phone (``action_chosen``, kept
hidden until everyone has chosen); the selected phases then run in order I-V, each with the
players who get its bonus; Next closes the current phase (``phase_done``), then the round
(``round_ended``). End of game (digest §6): the VP pool empties or a tableau reaches 12 cards; the
round is played to its end.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from companion.camera import Proposal, TableauCamera
from companion.errors import BadEntry
from companion.flow_spec import Column, Field, FlowBase, Form, GoodsWords, GoodsWorld, TableRound, goods_choices
from companion.i18n import AND, OR, Listing, Text, in_game, lazy
from rules import Event, Progress
from rules.names import term
from rules.race import RACE_GAME
from rules.race.cards import GOODS_QUALIFIER, cards, facts
from rules.race.state import action_facts
from rules.race.words import FIELD_WORDS as W
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
            return Proposal(player, Text("{player}'s start world is {card}?", player=player, card=name), "start_world",
                            {"player": player, "card": name})
        return Proposal(player, Text("{player} placed {card}?", player=player, card=name), "card_placed",
                        {"player": player, "card": name})


def _tie_without_hands(view: Mapping[str, Any]) -> str:
    """What ending the last round asks first when the best score is tied and a tied player's cards in hand were not
    counted this round ("" otherwise): the tie-break counts cards in hand + goods (digest §7, Tie-break), so a hand
    left unreported would decide the winner by its last count, or as none."""
    players = view["players"]
    best = max((p["score"] for p in players), default=0)
    tied = [p for p in players if p["score"] == best]
    missing = [p["name"] for p in tied if p.get("hand_round") != view["round"]]
    if len(tied) < 2 or not missing:
        return ""
    return Text("tied on {vp} VP: the tie-break counts cards in hand + goods (Race for the Galaxy, end of game); Cards "
                "in hand not reported this round: {names}. Report it on the phone first, or press {next} again to end "
                "the game without it", names=Listing(missing, AND), vp=best, next=Text("Next"))


def _windfall_sources(me: Mapping[str, Any], deck: Mapping[str, Any], bonus: Sequence[str], world: str) -> list[Any]:
    """What lets the view row ``me`` produce on windfall ``world`` in this Produce phase (Race for the Galaxy, Produce
    phase): the Produce action's bonus if ``bonus`` (their action ids with the bonus now) holds one, then every card
    of their tableau with a Produce power for a windfall world of its kind (Mining Robots: Rare; a WINDFALL_ANY power:
    any), by name. [] when nothing does."""
    said: list[Any] = []
    if any(action_facts()[a].get("windfall_produce") for a in bonus if a in action_facts()):
        said.append(Text("the Produce bonus"))
    kind = deck[world].goods
    wanted = {"WINDFALL_ANY"} | ({f"WINDFALL_{GOODS_QUALIFIER[kind]}"} if kind in GOODS_QUALIFIER else set())
    for c in me.get("tableau") or ():
        card = deck.get(c["card"])
        if card is not None and any(wanted.intersection(p.code) for p in card.powers_in(5)):
            said.append(card.name)
    return said


def _produce_groups(me: Mapping[str, Any], deck: Mapping[str, Any], bonus: Sequence[str]) -> dict[str, dict[str, Any]]:
    """Good placed in V Produce for the view row ``me``: the production worlds of their tableau first, then their
    windfall worlds with what lets this player produce on them (Race for the Galaxy, Produce phase: production worlds
    produce; a windfall world only with the Produce action's bonus, which the player has when ``bonus``, their action
    ids with the bonus in this phase, holds Produce, or a windfall power of a card in their tableau): those grouped by
    what applies ("Windfall worlds you may produce on with the Produce bonus or Mining Robots"), and last the windfall
    worlds nothing of theirs produces on, saying so. An order only: every world the field offers stays offered. {}
    with no windfall world in the tableau (nothing to tell apart)."""
    worlds = [c["card"] for c in me.get("tableau") or () if c["card"] in deck and deck[c["card"]].is_world
              and deck[c["card"]].goods]
    if not any(deck[w].is_windfall for w in worlds):
        return {}
    groups = [{"label": Text("Production worlds"), "choices": sorted(w for w in worlds if not deck[w].is_windfall)}]
    by_sources: dict[tuple[str, ...], list[str]] = {}
    said: dict[tuple[str, ...], list[Any]] = {}
    for w in sorted(w for w in worlds if deck[w].is_windfall):
        sources = _windfall_sources(me, deck, bonus, w)
        if sources:
            key = tuple(str(s) for s in sources)
            by_sources.setdefault(key, []).append(w)
            said[key] = sources
    for key, choices in by_sources.items():
        groups.append({"label": Text("Windfall worlds you may produce on with {sources} (Race for the Galaxy, Produce "
                                     "phase)", sources=Listing(said[key], OR)), "choices": choices})
    rest = (Text("Windfall worlds: they produce nothing for you this phase, as you have neither the Produce bonus nor "
                 "a windfall power for them (Race for the Galaxy, Produce phase)"))
    return {"good": {"world": {"groups": groups, "rest": rest}}}


def _goods_words(player: str) -> GoodsWords:
    """What Race's goods forms say to ``player`` (three uses of a card: a good is a card face down on a production or
    windfall world; Produce phase: a world holds at most one; Consume phase: a good is consumed from its world)."""
    return GoodsWords(
        no_world=Text("no world in your tableau holds goods: only production and windfall worlds do (Race for the "
                      "Galaxy, three uses of a card)"),
        all_full=Text("every world of yours that holds goods has one already: a world holds at most one (Race for the "
                      "Galaxy, Produce phase)"),
        none_on=Text("no good lies on a world of yours (Race for the Galaxy, Consume phase)"),
        full=lambda w: Text("{card} already holds a good; a world holds at most one", card=w.name),
        empty=lambda w: Text("no good lies on {card} in {player}'s tableau", card=w.name, player=player))


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
    columns = (Column("tableau", in_game("Race for the Galaxy", "Tableau")), Column("vp", Text("VP chips")))
    """Race has no credits (Race for the Galaxy, Components): cards in the tableau and VP chips taken."""

    def forms(self, view: Mapping[str, Any]) -> tuple[Form, ...]:
        """Start world, action card(s), card placed, good placed/removed, VP chips, hand count."""
        deck = cards()
        names = tuple(sorted(deck))
        worlds = tuple(sorted(n for n, c in deck.items() if c.is_world))
        actions = tuple(a for a, raw in _actions().items() if view.get("advanced") or not raw["advanced_only"])
        labels = tuple(term("race.action", _actions()[a]["id"]) for a in actions)  # as the players say it
        choose = [Field("action", W["actions"], choices=actions, labels=labels)]
        if view.get("advanced"):
            choose.append(Field("second", Text("Second action card"), choices=actions, labels=labels))
        return (
            Form(
                "start",
                Text("Start world"),
                (Field("card", W["start_world.card"], choices=tuple(c.name for c in deck.start_worlds)),),
            ),
            Form("select", Text("Action chosen"), tuple(choose)),
            Form("card", Text("Card placed"), (Field("card", W["card"], choices=names),)),
            Form("good", Text("Good placed"), (Field("world", W["world"], choices=worlds),)),
            Form("consumed", Text("Good consumed or sold"), (Field("world", W["world"], choices=worlds),)),
            Form("vp", Text("VP chips taken"), (Field("vp", W["vp_changed.delta"], kind="int", minimum=1, maximum=30),),
                 # IV Consume: the box pays no chips for a good consumed (what it pays is the power's)
                 hint=Text("The VP chips you took from the pool in the Consume phase: a good consumed or sold pays "
                           "none by itself, so report its chips here.")),
            Form("hand", Text("Cards in hand"), (Field("cards", W["cards"], kind="int", minimum=0, maximum=40),)),
        )

    def choices_now(self, view: Mapping[str, Any], progress: Progress, player: str) -> dict[str, dict[str, Any]]:
        """A good placed, consumed or sold offers only ``player``'s own worlds that hold goods (three uses of a card:
        a good is a card face down on a production or windfall world of your tableau), in the form's order: a few
        names, not every world of the deck. A good placed, those with no good on them yet (Produce phase: a world
        holds at most one); consumed or sold, those a good lies on (Consume phase). With none, the form says so
        instead of a list; one of the player's other goods worlds sent all the same is refused with the rule."""
        me = next((p for p in view.get("players", ()) if p.get("name") == player), None)
        if me is None:
            return {}
        deck = cards()
        holding = {c["card"]: bool(c.get("goods")) for c in me.get("tableau") or ()
                   if c["card"] in deck and deck[c["card"]].is_world and deck[c["card"]].goods}
        # a world holds at most one good (Produce phase); a good is consumed from a world it lies on (Consume phase)
        form = {f.id: f for f in self.forms(view)}
        return goods_choices([GoodsWorld(w, int(holding[w]), 1) for w in sorted(holding)], form["good"],
                             form["consumed"], "world", _goods_words(player))

    def choice_groups(self, view: Mapping[str, Any], progress: Progress, player: str) -> dict[str, dict[str, Any]]:
        """Card placed lists first the cards ``player`` can place in the phase now played: in Develop the
        developments, in Settle the worlds (Race for the Galaxy, Develop phase, Settle phase), less a development
        already in their tableau (a tableau holds one copy of each development) and a card whose every copy is in
        play (components: the deck's count); then every other card. In V Produce, Good placed lists the player's
        production worlds first and their windfall worlds after, under headings naming what lets this player produce
        on them (the Produce bonus they chose, a windfall power of their tableau) or saying nothing does (Race for the
        Galaxy, Produce phase; at a table a windfall world offered first was taken for one that produces;
        :func:`_produce_groups`). Otherwise: {}."""
        step = view.get("step")
        if progress.stage != "phases" or step is None:
            return {}
        phase = view["steps"][step]["phase"]
        me = next((p for p in view.get("players", ()) if p.get("name") == player), None)
        if me is None or phase not in ("develop", "settle", "produce"):
            return {}
        deck = cards()
        if phase == "produce":
            return _produce_groups(me, deck, (view["steps"][step].get("bonus") or {}).get(player, ()))
        in_play = Counter(c["card"] for p in view["players"] for c in p.get("tableau") or ())
        mine = {c["card"] for c in me.get("tableau") or ()}
        develop = phase == "develop"
        can = [n for n in sorted(deck) if (deck[n].is_development if develop else deck[n].is_world)
               and in_play[n] < deck[n].count and not (develop and n in mine)]
        label = in_game("Race for the Galaxy", "Developments") if develop else Text("Worlds")
        return {"card": {"card": {"groups": [{"label": label, "choices": can}], "rest": Text("Other cards")}}}

    def outside_choices(self, form: Form, field: str, value: Any, player: str) -> str:
        """A world not in ``player``'s tableau, or one that holds no goods (a page older than the table, or a request
        made by hand): refused with the rule (three uses of a card: goods lie on production and windfall worlds)."""
        if form.id in ("good", "consumed") and field == "world":
            return Text("{form}: {world} is not in {player}'s tableau, or holds no goods: goods lie only on the "
                        "production and windfall worlds of your own tableau (Race for the Galaxy, three uses of a "
                        "card)",
                        form=form.label, world=value, player=player)
        return super().outside_choices(form, field, value, player)

    def corrects(self, form: str, values: Any, player: str, events: Sequence[Event]) -> int | None:
        """A start world reported again by the same player corrects their earlier one (Setup: one start world is dealt
        to each player): the newest report replaces it, its findings with it, so the tableau holds one start world.
        Every other report: None."""
        if form != "start":
            return None
        return next((e.seq for e in reversed(events) if e.kind == "start_world"
                     and e.payload.get("player", e.player) == player), None)

    def open_forms(self, view: Mapping[str, Any], progress: Progress, player: str) -> list[str]:
        """Start world in setup; action cards between rounds (none once the last round is at its end); the rest
        during the phases."""
        stage = progress.stage
        if stage == "over":
            return []
        play = ["card", "good", "consumed", "vp", "hand"]
        if stage == "setup":
            return ["start", "select", "hand"]
        if stage == "round_end" and progress.ending:  # end of game: no round after this one
            return play
        if stage in ("select", "round_end"):
            return ["select", *play]
        return play

    def closed_why(self, form: Form, view: Mapping[str, Any], progress: Progress, player: str) -> str:
        """Once the last round is at its end, no action card is chosen for another (Race for the Galaxy: end of
        game: the game ends at the end of the round in which it is triggered); else :meth:`FlowBase.closed_why`."""
        if form.id == "select" and progress.stage == "round_end" and progress.ending:
            return Text("the game ends with this round ({why}): no action card is chosen for another round; Next "
                        "ends the game (Race for the Galaxy, end of game)", why=Listing(progress.ending, "; "))
        return super().closed_why(form, view, progress, player)

    def report_event(
        self, form: str, values: dict[str, Any], player: str, view: Mapping[str, Any]
    ) -> tuple[str, dict[str, Any]]:
        """Form -> event (``rules.race.game`` kinds)."""
        if form == "start":
            return "start_world", {"player": player, "card": values["card"]}
        if form == "select":
            ids = [_actions()[values["action"]]["id"]]
            if values.get("second"):
                ids.append(_actions()[values["second"]]["id"])
            if len(ids) == 2 and ids[0] == ids[1]:  # nine cards, each once (advanced 2-player game)
                raise BadEntry(Text("{card} is chosen as both action cards: each of the nine cards can be chosen once "
                                    "(Develop and Settle each have a second card)",
                                    card=term("race.action", ids[0])))
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
        raise BadEntry(Text("unknown report {form!r}", form=form))

    def table(self, view: Mapping[str, Any], progress: Progress) -> TableRound:
        """Phases of the round in order with who gets each bonus; VP pool; tableau sizes."""
        stage = progress.stage
        phases = []
        for k, s in enumerate(view["steps"]):
            by = [
                Text("{player} ({cards})", player=p, cards=Listing(term("race.action", i) for i in ids))
                for p, ids in s["bonus"].items()
            ]
            if view["step"] is None:
                state = "done" if stage in ("round_end", "over") else "next"
            else:
                state = "current" if k == view["step"] else ("done" if k < view["step"] else "next")
            phases.append({"label": s["label"], "by": by, "state": state})
        rows = {p["name"]: {"tableau": p["tableau_size"], "vp": p["chips"]} for p in view["players"]}
        why, upcoming = "", ""
        if stage in ("setup", "select"):
            note = Text("Each player chooses an action card on their phone; they are revealed together")
            label = Text("Reveal")
            why = Text("waiting for the action cards of {names}", names=Listing(progress.waiting))
            # the last round's phases are over (or none was played yet): the strip says the cards are being chosen,
            # never whose choice is what (revealed together), rather than a blank panel
            phases = [{"label": Text("Choosing action cards"), "by": [], "state": "current"}]
            if stage == "select":  # after End round: the action cards chosen now start the next round
                upcoming = Text("Round {round}: choosing phases", round=progress.round + 1)
        elif stage == "phases":
            current = view["steps"][view["step"]]["label"]
            note = Text("{phase}: report what you place, produce and consume", phase=current)
            label = Text("{phase} done", phase=current)
        elif stage == "round_end":
            note, label = Text("End of round: discard down to 10 cards"), Text("End round")
        else:
            note, label, why = Text("Game over"), Text("Game over"), Text("the game is over")
        confirm = _tie_without_hands(view) if stage == "round_end" and view["last_round"] else ""
        return TableRound(progress, phases, note, label, why, pool=view["vp_pool"], players=rows, label=upcoming,
                          next_confirm=confirm)

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
