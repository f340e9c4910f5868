"""Roll for the Galaxy's report forms as the phones get them (:mod:`companion.flows.roll`): the forms and their fields,
which are open to a player now (p.2 Setup, p.3 Rounds, p.4 Reveal, p.8 End check), the choices the table leaves them
(their own worlds that hold goods, p.7 Produce and Ship; the tiles of their construction zone, p.6 Develop / Settle),
what VP chips taken says in V Ship (p.7 Ship) and why a form is closed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.flow_spec import Field, Form, GoodsWords, GoodsWorld, goods_choices
from companion.flows.roll_names import _SHIP, _faction_label, _phase_named
from companion.flows.roll_remove import owed, removed_choices, removed_form, removed_outside
from companion.i18n import N_, OR, Listing, Text, in_game
from rules import Progress
from rules.roll.data import COLOURS, FACES, PHASES, catalogue
from rules.roll.endgame import good_capacity
from rules.roll.words import FIELD_WORDS as W
from rules.roll.words import colour_word, face_word, phase_word

COUNT_PLACES = ("cup", "citizenry")
"""Where a phone counts its dice at the end (p.8 Victory), as the camera's count does: the cup, then the citizenry
with the construction zone (the tie-break counts only the cup)."""
MAX_VP_REPORT = 5 * 12 + 10
"""The most VP chips one report may say: every chip of the largest pool (p.2 Setup: 12 VP a player, 5 players) and the
10 VP set aside (p.7 Ship: paid once the pool runs out). In V Ship the number is the phase's total, those its Consumes
paid included, so a player whose Consume paid 3 and who took 30 more reports 33."""


_GOODS_WORLDS = tuple(sorted(w.name for w in catalogue().worlds.values() if w.holds_goods))
"""Every world that holds goods (p.7 Produce: any non-gray world, home and faction worlds included), as the Good
placed and Good shipped forms list them."""


def _goods_words(most: int) -> GoodsWords:
    """What Roll's goods forms say to a player whose worlds hold at most ``most`` goods each (p.7 Produce: a producer
    becomes a good on one of your non-gray worlds, 1 a world, 2 with Galactic Reserves; p.7 Ship: a good is shipped
    from a world it lies on)."""
    full = (N_("{count} goods on {world}: a world holds 2 with Galactic Reserves") if most == 2
            else N_("{count} goods on {world}: a world holds 1 without Galactic Reserves"))
    return GoodsWords(
        no_world=Text("none of your worlds holds goods yet: gray worlds hold none, and a world holds goods once it is "
                      "built (p.7 Produce)"),
        all_full=Text("every world of yours that holds goods is full: a world holds 1 good, 2 with Galactic Reserves "
                      "(p.7 Produce)"),
        none_on=Text("none of your worlds holds a good to ship (p.7 Ship)"),
        full=lambda w: Text(full, count=w.goods + 1, world=w.name),
        empty=lambda w: Text("{world} holds no good to ship (p.7 Ship)", world=w.name))


_TILE_NAMES = frozenset({t.development.name for t in catalogue().game_tiles}
                       | {t.world.name for t in catalogue().game_tiles})
"""Both sides of every game tile (rules/data/roll/tiles.json), as Tile built lists them."""


def _tiles_held(p: Mapping[str, Any]) -> list[str]:
    """The tile sides a player's view row holds: the tableau's developments and worlds and the construction zone's
    two stacks (faction and home world tiles among them are no game tiles)."""
    zone = p.get("construction_zone") or {}
    return [*(p.get("developments") or ()), *(p.get("worlds") or ()), *(zone.get("development") or ()),
            *(zone.get("world") or ())]


def _ship_vp(view: Mapping[str, Any], player: str) -> tuple[int, int]:
    """``(paid, reported)``: the VP in chips ``player``'s shipments paid in this Ship phase and the VP chips they
    reported in it (the rules' view, ``ship_vp``; both 0 outside Ship, as the rules start each Ship phase at 0, and for
    a player not at the table)."""
    me = next((p for p in view.get("players", ()) if p.get("name") == player), {})
    ship = me.get("ship_vp") or {}
    return int(ship.get("paid") or 0), int(ship.get("reported") or 0)


_PHASE_OF_FORM = {"tile": ("develop", "settle"), "good": ("produce",), "ship": ("ship",)}
"""The phases in which a phase form's report happens (p.5-7: built in II Develop or III Settle, a good placed in IV
Produce, shipped in V Ship); closed during Reveal, which comes before them (p.4 Reveal)."""


class RollForms:
    """The forms part of :class:`companion.flows.roll.RollFlow` (a mixin before
    :class:`companion.flow_spec.FlowBase`)."""

    def forms(self, view: Mapping[str, Any]) -> tuple[Form, ...]:
        """Setup (faction, home world, the two starting tiles), phase selection, tile built, good
        produced, good shipped, VP chips, credits, and the dice counted at the end (p.8 Victory: the cup, or the
        citizenry with the construction zone, by colour, for the cost-6 bonuses that count dice and the tie-break: a
        table without the camera's count enters it so); choices from ``rules/data/roll/tiles.json``."""
        cat = catalogue()
        tiles = tuple(sorted(_TILE_NAMES))
        worlds = _GOODS_WORLDS
        colours = tuple(COLOURS)
        colour_words = tuple(colour_word(c) for c in colours)
        select = [Field("phase", W["phase"], choices=PHASES, labels=tuple(phase_word(p) for p in PHASES))]
        if len(view.get("players", [])) == 2:
            faces = tuple(f for f in FACES if f != "wild")
            select.append(Field("extra_white", W["extra_white"], choices=faces, optional=True,
                                labels=tuple(face_word(f) for f in faces)))
        return (
            Form(
                "setup",
                Text("Setup"),
                (
                    Field("faction", W["faction"], choices=tuple(_faction_label(f) for f in cat.factions)),
                    Field("home_world", W["home_world"], choices=tuple(w.name for w in cat.home_worlds)),
                    Field(
                        "development",
                        W["development"],
                        choices=tuple(sorted(t.development.name for t in cat.game_tiles)),
                    ),
                    Field("world", W["player_setup.world"],
                          choices=tuple(sorted(t.world.name for t in cat.game_tiles))),
                ),
            ),
            Form("select", Text("Phase selected"), tuple(select)),
            Form("tile", Text("Tile built"), (Field("tile", W["tile"], choices=tiles),)),
            Form(
                "good",
                Text("Good placed"),
                (
                    Field("world", W["world"], choices=worlds),
                    Field("colour", W["colour"], choices=colours, labels=colour_words),
                ),
            ),
            Form(
                "ship",
                Text("Good shipped"),
                (
                    Field("world", W["world"], choices=worlds),
                    Field(
                        "mode",
                        W["mode"],
                        choices=("trade", "consume"),
                        labels=(Text("Trade"), Text("Consume")),
                    ),
                    Field("good", W["good"], choices=colours, labels=colour_words),
                    Field("shipper", W["shipper"], choices=colours, labels=colour_words),
                ),
            ),
            Form(
                "vp", Text("VP chips taken"),
                (Field("vp", W["vp_changed.delta"], kind="int", minimum=1, maximum=MAX_VP_REPORT),),
                # p.7 Ship: a Consume pays its chips; in Ship the number is the phase's total (report_event)
                hint=Text("The VP chips you took from the pool. In the Ship phase: every chip you took in the phase "
                          "so far, those of the goods you consumed included (p.7 Ship: a Consume gives 1-3 VP chips); "
                          "after a Consume you report later, report the new total."),
            ),
            Form(
                "credits", Text("Credits now"), (Field("credits", W["credits"], kind="int", minimum=0, maximum=10),)
            ),
            Form("count", Text("Dice counted"), (
                Field("place", Text("Where"), choices=COUNT_PLACES,
                      labels=(Text("cup"), Text("citizenry and construction zone"))),
                *(Field(c, colour_words[k], kind="int", minimum=0, maximum=cat.dice[c].count, optional=True)
                  for k, c in enumerate(colours) if c in cat.dice),
            )),
            removed_form(),  # p.11 FAQ Immediate effects: the die a tile built removes (companion.flows.roll_remove)
        )
    def choices_now(self, view: Mapping[str, Any], progress: Progress, player: str) -> dict[str, dict[str, Any]]:
        """A good placed or shipped offers only ``player``'s own worlds that hold goods (p.7 Produce: a producer
        becomes a good on one of your non-gray worlds; Ship takes a good from one of your worlds), in the form's
        order: a few names, not every world of the game. With none, the form says so instead of a list."""
        me = next((p for p in view.get("players", ()) if p.get("name") == player), None)
        if me is None:
            return {}
        mine = set(me.get("worlds") or ())
        # a world holds 1 good, 2 with Galactic Reserves (p.7 Produce); a good is shipped from a world it lies on
        most = good_capacity(me.get("developments") or ())
        worlds = [GoodsWorld(w, len(me.get("goods", {}).get(w) or ()), most) for w in _GOODS_WORLDS if w in mine]
        form = {f.id: f for f in self.forms(view)}
        narrowed = goods_choices(worlds, form["good"], form["ship"], "world", _goods_words(most))
        return {**narrowed, "remove": removed_choices(view, player)} if owed(view, player) else narrowed

    def choice_groups(self, view: Mapping[str, Any], progress: Progress, player: str) -> dict[str, dict[str, Any]]:
        """Tile built lists first the tiles of ``player``'s construction zone (p.6 Develop / Settle: workers complete
        the top tile of a stack; the phase's stack first), then, in II Develop the developments and in III Settle the
        worlds no player holds yet (p.1 Components: each tile exists once, so a tile in a tableau or a construction
        zone cannot be built by another), then every other tile. The zone is what the box knows: the setup's tiles
        until they are built (Explore is not reported). Outside Develop and Settle with an empty zone: {}."""
        me = next((p for p in view.get("players", ()) if p.get("name") == player), None)
        if me is None:
            return {}
        stage = progress.stage
        zone = me.get("construction_zone") or {}
        stacks = [list(zone.get("development") or ()), list(zone.get("world") or ())]
        mine = [t for t in (stacks[1] + stacks[0] if stage == "settle" else stacks[0] + stacks[1]) if t in _TILE_NAMES]
        groups = [{"label": Text("In your construction zone"), "choices": mine}] if mine else []
        if stage in ("develop", "settle"):
            cat = catalogue()
            held = {cat.tile_of[n] for p in view.get("players", ()) for n in _tiles_held(p) if n in cat.tile_of}
            sides = [t.development.name if stage == "develop" else t.world.name for t in cat.game_tiles]
            groups.append({"label": (in_game("Roll for the Galaxy", "Developments") if stage == "develop"
                                     else Text("Worlds")),
                           "choices": sorted(n for n in sides if cat.tile_of[n] not in held and n not in mine)})
        return {"tile": {"tile": {"groups": groups, "rest": Text("Other tiles")}}} if groups else {}

    def form_notes(self, view: Mapping[str, Any], progress: Progress, player: str) -> dict[str, Any]:
        """In V Ship, once chips are counted for ``player`` in the phase, VP chips taken says how many and exactly
        what to report: the phase's total, the chips of every good consumed in it included (p.7 Ship: a shipper that
        consumes a good gives 1-3 VP chips; :func:`_vp_beyond`). With only Consumes counted (``paid``): their VP and
        "``paid`` + the chips you took besides". Once the player has reported (``reported``): what is counted, and
        that a good reported consumed after their report counts within it, so the total is reported again with its
        chips (:func:`rules.roll.moves.take_ship_vp` says the number then). Else {}."""
        if progress.stage != "ship":
            return {}
        paid, reported = _ship_vp(view, player)
        if not reported:
            return {"vp": Text("So far in {phase}: {paid} VP in chips counted for you, paid by the goods you consumed "
                               "(Good shipped). Report the phase's total, those included: {paid} + the chips you took "
                               "besides.", phase=_SHIP, paid=paid)} if paid else {}
        if not paid:
            return {"vp": Text("So far in {phase}: {reported} VP in chips counted for you, as you reported. Report the "
                               "phase's total: every chip you took in {phase}, those of a good consumed after your "
                               "report included.", phase=_SHIP, reported=reported)}
        return {"vp": Text("So far in {phase}: {counted} VP in chips counted for you: you reported {reported} and your "
                           "consumed goods paid {paid}, taken as the same chips as far as they go. Report the phase's "
                           "total: every chip you took in {phase}, those of a good consumed after your report "
                           "included.", phase=_SHIP, counted=max(paid, reported), reported=reported, paid=paid)}

    def outside_choices(self, form: Form, field: str, value: Any, player: str) -> str:
        """A world not in ``player``'s tableau, or one that holds no goods (a page older than the table, or a request
        made by hand): refused with the rule (p.7 Produce and Ship: your own non-gray worlds)."""
        if form.id in ("good", "ship") and field == "world":
            return Text("{form}: {world} is not in {player}'s tableau, or holds no goods: goods lie only on your own "
                        "non-gray worlds (p.7 Produce)", form=form.label, world=value, player=player)
        if form.id == "remove":
            return removed_outside(field, value, player) or super().outside_choices(form, field, value, player)
        return super().outside_choices(form, field, value, player)
    def open_forms(self, view: Mapping[str, Any], progress: Progress, player: str) -> list[str]:
        """Setup before the first round, and for each player in round 1 until that player selects a phase (p.2
        Setup: everyone sets up at their own pace; one player's selection does not close the others' setup);
        the phase selection until Reveal (and from Manage Empire, for the next round, unless the end is triggered: p.8
        End check); the rest from Reveal on, except that during Reveal itself only VP chips and credits are open: a tile
        is built, a good placed or shipped in its phase, which comes after Reveal (p.4 Reveal, Phases;
        :meth:`closed_why`); the dice count in the last Manage Empire (p.8 Victory: after the last
        Recall, before the game is scored)."""
        stage = progress.stage
        if stage == "over":
            return []
        if stage == "setup":
            return ["setup", "select", "credits"]
        forms = (["select", "tile", "good", "ship", "vp", "credits"] if stage in ("roll", "assign", "manage")
                 else ["vp", "credits"] if stage == "reveal" else ["tile", "good", "ship", "vp", "credits"])
        if stage == "manage" and progress.ending:  # p.8 End check: no round after this one; the dice are counted
            forms.remove("select")
            forms.append("count")
        if self._setting_up(view, progress, player):
            forms.insert(0, "setup")
        if owed(view, player):  # a tile built removes one of their dice, not said yet (p.11 FAQ)
            forms.insert(0, "remove")
        return forms

    @staticmethod
    def _setting_up(view: Mapping[str, Any], progress: Progress, player: str) -> bool:
        """Whether ``player`` may still report their setup (:func:`rules.roll.setup.setup_open`)."""
        me = next((p for p in view["players"] if p["name"] == player), None)
        return (progress.stage == "setup" or (progress.round == 1 and progress.stage in ("roll", "assign")
                                              and me is not None and not me.get("selected")))

    def closed_why(self, form: Form, view: Mapping[str, Any], progress: Progress, player: str) -> str:
        """Setup closes for a player once they have selected a phase (withdraw it to change the setup) or the
        phases are revealed (p.2 Setup, p.4 Reveal)."""
        if form.id == "setup" and not progress.over:
            me = next((p for p in view["players"] if p["name"] == player), {})
            if progress.round == 1 and progress.stage in ("roll", "assign") and me.get("selected"):
                return Text("{player} has selected a phase, so their setup is done: withdraw the phase selection "
                            "(Undo my last report) to change it", player=player)
            return Text("setup is over: the phases of round {n} are revealed (p.4 Reveal)", n=max(1, progress.round))
        if form.id == "select" and progress.stage == "manage" and progress.ending:
            return Text("the game ends with this round ({why}): no phase is selected for another round; Next ends the "
                        "game (p.8 End check)", why=Listing(progress.ending, "; "))
        if form.id in _PHASE_OF_FORM and progress.stage == "reveal":
            return Text("{form} opens in {phases}: Reveal only turns the phase tiles over, and nothing is built, "
                        "produced or shipped before the selected phases run in order I-V (p.4 Reveal, Phases)",
                        form=form.label, phases=Listing([_phase_named(ph) for ph in _PHASE_OF_FORM[form.id]], OR))
        if form.id == "remove" and not progress.over:
            return Text("{form}: no tile {player} built owes a die: a tile that removes one of your dice opens it once "
                        "it is built (Tile built; p.11 FAQ, Immediate effects)", form=form.label, player=player)
        if form.id == "select" and not progress.over:
            return Text("phases are selected before Reveal; the next selection is in the next round (p.3 Rounds)")
        return super().closed_why(form, view, progress, player)

