"""Roll for the Galaxy at the table (issue 3): what differs from the shared flow.

Without the dice reader in the main loop, players report on their phones what they did
(``settings["tracking"] = "tableau"``: the engine follows tableaus, goods, VP chips and
credits, not the dice). Round (Roll for the Galaxy, p.3 Rounds): each player reports the phase
they selected; Next reveals, then runs the selected phases in order I-V (p.4), then Manage
Empire (p.8); when an end condition is met (p.8 End check: VP pool empty or a tableau of 12
tiles) the round is the last one and Next after Manage Empire ends the game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.camera import CardPass, CountPass, DicePass, DiceSet, Proposal, ReadPass, TableauCamera, colour_counts
from companion.errors import BadEntry
from companion.flow_spec import Column, Field, FlowBase, Form, GoodsWords, GoodsWorld, TableRound, goods_choices
from companion.flows.roll_remove import owed, removed_choices, removed_event, removed_form, removed_outside
from companion.i18n import N_, OR, Listing, Text, in_game, lazy, plural
from rules import Event, Progress
from rules.roll import ROLL_GAME
from rules.roll.data import COLOURS, FACES, PHASES, catalogue
from rules.roll.dice import Dice
from rules.roll.endgame import good_capacity
from rules.roll.words import colour_word, dice_words, face_word, phase_word, stage_word

__all__ = ["ROLL_CAMERA", "ROLL_FLOW", "RollCamera", "RollFlow"]


class RollCamera(TableauCamera):
    """Roll for the Galaxy's part of the camera flow (tableau tracking: issue 3, 5): a tile seen in a
    player's zone but not in their tableau becomes "Ann built Space Piracy?" (``tile_built``,
    p.6 Develop / Settle: a completed tile joins the tableau). The starting tiles are reported with
    the Setup form (faction and home world are picked from lists), so nothing is asked during setup.

    Its passes (:attr:`passes`): the tiles (an enrolled deck), then with a dice profile, once per still table,
    the end-of-game count of citizenry and cups (p.8 Victory) once the game is over, else the phase strips
    before Reveal (p.3 Assign)."""

    covers = ("tile",)
    dice_set = DiceSet("roll", "Roll for the Galaxy", tuple(
        (colour, tuple(f for f in FACES if any(f in d.faces for d in catalogue().dice.values() if d.colour == colour)))
        for colour in COLOURS if any(d.colour == colour for d in catalogue().dice.values())))
    """Roll for the Galaxy's dice (components: the dice): each colour and the faces its dice have (white has no Wild,
    yellow no Explore)."""
    card_aspect = 1.0
    """Roll for the Galaxy's tiles are square (components: the game tiles, faction and home world tiles)."""

    @property
    def passes(self) -> tuple[ReadPass, ...]:
        """The tile pass, the count (citizenry, then cups) and the phase strips."""
        return (CardPass(),
                CountPass("count", self.count_places, self.wants_count, self.count_prompt, self.count_proposals,
                          labels={"citizenry": Text("citizenry"), "cup": Text("cup")}),
                DicePass("phase", self.wants_dice, self.dice_proposals))

    @staticmethod
    def _faction_of(name: str) -> str | None:
        """The faction tile's label (both side names) when ``name`` is one of its sides (p.2: a faction
        tile shows one side but counts both in the tableau)."""
        for f in catalogue().factions:
            if name in f.names:
                return _faction_label(f)
        return None

    def resolve(self, card_id: str) -> str | None:
        """A tile id or name as enrolled (``space_piracy``, ``Space Piracy``) -> the side's name
        (a faction tile's side -> the faction's label, one tile)."""
        cat = catalogue()
        name = cat.lookup(card_id) or cat.lookup(card_id.replace("_", " "))
        return (self._faction_of(name) or name) if name else None

    def tableau(self, view: Mapping[str, Any], player: str) -> list[str]:
        """Developments and worlds (home world included), the faction tile's two sides as one tile."""
        p = next((q for q in view["players"] if q["name"] == player), {})
        names = [*p.get("developments", []), *p.get("worlds", [])]
        if p.get("home_world") and p["home_world"] not in names:
            names.append(p["home_world"])
        out: list[str] = []
        for n in names:
            label = self._faction_of(n) or n
            if label not in out or label == n:
                out.append(label)
        return out

    def asking(self, view: Mapping[str, Any]) -> bool:
        """From the first round on (setup tiles come from the Setup form) until the game is over."""
        return view["stage"] not in ("setup", "over")

    def proposal(self, player: str, name: str, view: Mapping[str, Any]) -> Proposal | None:
        return Proposal(player, Text("{player} built {tile}?", player=player, tile=name), "tile_built", {"tile": name})

    # -- the dice on the phase strips (issue 6 'Wired into the game') --------------------------------
    def wants_dice(self, view: Mapping[str, Any]) -> bool:
        """While the table waits for phase selections (p.3 Assign, before Reveal): the screens are
        lifted and the phase strips are in view; after setup, or in Manage Empire for the next round."""
        stage = view["stage"]
        if stage == "setup":
            return all(p["faction"] is not None for p in view["players"])
        return stage in ("roll", "assign", "manage")

    def dice_proposals(self, dice: Mapping[str, list[dict[str, Any]]], view: Mapping[str, Any],
                       image: str | None) -> list[Proposal]:
        """Per player whose selection is not reported yet: "Ann selected Develop?" with the other
        phases as one-tap corrections (``phase_selected`` with the read and the picture kept in
        ``payload["read"]``, so a corrected read can be enrolled later).

        The camera does not know where each player's phase strip columns are, so the proposed phase is
        the phase most of that player's workers show (p.3 Assign: workers go to the phase their face
        shows; Wild dice and unreadable faces are not counted; ties go to the earlier phase, I-V).
        A face read less surely than :data:`SURE_FACE` counts as unreadable: the reader is not sure of it.
        It is a proposal: the players confirm it or tap the right phase.
        """
        stage = view["stage"]
        out = []
        warn = too_many_dice(dice)
        for p in view["players"]:
            if stage in ("roll", "assign") and p["selected"]:
                continue
            raw = dice.get(p["name"]) or []   # kept as read in the event, for a later enrollment
            seen = [d if float(d.get("confidence", 1.0)) >= SURE_FACE else {**d, "face": None} for d in raw]
            counts = {ph: sum(1 for d in seen if d.get("face") == ph) for ph in PHASES}
            if not any(counts.values()):
                continue
            phase = max(PHASES, key=lambda ph: (counts[ph], -PHASES.index(ph)))
            wild = sum(1 for d in seen if d.get("face") == "wild")
            unread = sum(1 for d in seen if d.get("face") is None)
            workers = [Text("{face} {n}", face=face_word(ph), n=n) for ph, n in counts.items() if n]
            if wild:
                workers.append(Text("{face} {n}", face=face_word("wild"), n=wild))
            if unread:
                workers.append(plural("{n} unreadable", "{n} unreadable", unread))
            read = {"image": image, "dice": raw, "workers": counts, "proposed": phase, "corrected": False}
            question = Text("{player} selected {phase}? (dice: {workers})", player=p["name"], phase=phase_word(phase),
                            workers=Listing(workers))
            out.append(Proposal(p["name"], Listing([question, warn], " ") if warn else question,
                                "phase_selected", {"phase": phase, "read": read}, tuple(PHASES), "phase", phase,
                                tuple(phase_word(ph) for ph in PHASES)))
        return out

    # -- the dice count at the end (issue 6 'Wired into the game'; Roll for the Galaxy, p.8 Victory) ----
    count_places = ("citizenry", "cup")
    """Two passes: first every die a player has outside the cup (cups closed), then the cups emptied into
    the zones: the cup is the difference (p.8 Victory: the tie-break counts only the cup)."""

    def wants_count(self, view: Mapping[str, Any]) -> bool:
        """Once the game is over (p.8 End check): the final scoring counts dice by colour."""
        return view["stage"] == "over"

    def count_prompt(self, place: str | None) -> str:
        """What the table does before each pass."""
        if place == "citizenry":
            return Text(
                "Count dice: leave the cups closed, lay your citizenry and construction-zone dice in your zone, "
                "tap Count dice"
            )
        if place == "cup":
            return Text("Count dice: now empty your cup into your zone and tap Count dice")
        return Text("dice counted; Count dice counts again")

    def count_proposals(self, dice: Mapping[str, list[dict[str, Any]]], view: Mapping[str, Any], place: str,
                        before: Mapping[str, Mapping[str, int]], image: str | None) -> list[Proposal]:
        """Per player: "Ann: 2 white, 1 red in citizenry and construction zone?" (``place="citizenry"``; the
        goods recorded on her worlds are taken off what the camera sees: goods are ``goods_placed`` reports,
        p.7 Produce) or "Ann: 3 white, 1 purple in the cup?" (``place="cup"``: what is seen now less what
        the previous pass saw). Confirm records ``dice_counted`` ``{place: {colour: n}, "read": {"image",
        "dice", "place"}}``. A purple die is counted as purple (p.8: end-game powers never treat it as another
        colour); a die whose colour the reader could not tell is left out and said in the question.
        """
        out = []
        warn = too_many_dice(dice)
        for p in view["players"]:
            name = p["name"]
            seen = dice.get(name) or []
            have = Dice.of(colour_counts(seen))
            unread = sum(1 for d in seen if not d.get("colour"))
            goods = Dice()
            if place == "cup" and name in before:
                counted = have - Dice.of(dict(before[name]))
            else:
                goods = Dice.from_list(c for cs in (p.get("goods") or {}).values() for c in cs)
                counted = have - goods
            if not seen:
                continue
            said = dict(player=name, dice=dice_words(counted))
            if place == "cup":
                text = Text("{player}: {dice} in the cup?", **said)
            elif goods.total:
                text = Text("{player}: {dice} in citizenry and construction zone (goods {goods} not counted)?", **said,
                            goods=dice_words(goods))
            else:
                text = Text("{player}: {dice} in citizenry and construction zone?", **said)
            if unread:
                text = plural(
                    "{question}; {n} die of unknown colour left out",
                    "{question}; {n} dice of unknown colour left out",
                    unread,
                    question=text,
                )
            if warn:
                text = Listing([text, warn], " ")
            read = {"image": image, "dice": list(seen), "place": place}
            out.append(Proposal(name, text, "dice_counted", {place: counted.to_json(), "read": read}))
        return out


SURE_FACE = 0.6
"""A die's face read with less confidence (0-1, ``RollDieObservation.confidence``: that its colour and face are right)
counts as unreadable in the phase questions, as a card identified below the camera's ``min_confidence`` (0.6) is never
built on."""


def too_many_dice(dice: Mapping[str, list[dict[str, Any]]]) -> Any:
    """What a read shows more of than the game has, said to the players ("" when nothing): a read with more dice of a
    colour than the box holds (Roll for the Galaxy, p.1 Components) has found things that are not dice (a pattern
    on the cloth, a token), so its questions say so instead of counting them as dice. ``dice``: the read by zone."""
    seen = colour_counts([d for zone in dice.values() for d in zone])
    cat = catalogue()
    over = [(c, n, cat.dice[c].count) for c, n in seen.items() if c in cat.dice and n > cat.dice[c].count]
    if not over:
        return ""
    said = Listing([Text("{seen} {colour} dice (the game has {has})", seen=n, colour=colour_word(c), has=has)
                    for c, n, has in over])
    return Text("The camera sees {said}: some are not dice; check the table before you confirm.", said=said)


PHASE_NAMES = {ph: phase_word(ph) for ph in PHASES} | {"manage": stage_word("manage")}
"""The phases and Manage Empire as the players' edition names them (:mod:`rules.roll.words`)."""
STAGE_NAMES = {
    **PHASE_NAMES,
    "roll": stage_word("roll"),
    "assign": stage_word("assign"),
    "reveal": stage_word("reveal"),
}
"""Every stage as the rulebook names it (p.3 Rounds: Roll, Assign, Reveal, the phases, Manage Empire)."""
COUNT_PLACES = ("cup", "citizenry")
"""Where a phone counts its dice at the end (p.8 Victory), as the camera's count does: the cup, then the citizenry
with the construction zone (the tie-break counts only the cup)."""
ROMAN = {"explore": "I", "develop": "II", "settle": "III", "produce": "IV", "ship": "V"}
MAX_VP_REPORT = 5 * 12 + 10
"""The most VP chips one report may say: every chip of the largest pool (p.2 Setup: 12 VP a player, 5 players) and the
10 VP set aside (p.7 Ship: paid once the pool runs out). In V Ship the number is the phase's total, those its Consumes
paid included, so a player whose Consume paid 3 and who took 30 more reports 33."""


def _held_elsewhere(view: Mapping[str, Any], player: str, place: str) -> Dice:
    """The dice ``player`` has now in the count's other place (``place`` is ``"cup"`` or ``"citizenry"``, as the
    phone's form counts them), as the engine holds them: reported by an earlier count, else followed from the
    reports. The cup holds any dice left on the phase strip or in the Dictate area (the strip is empty at scoring,
    p.8 Victory); the citizenry is counted with the construction zone's workers."""
    me = next((p for p in view.get("players", ()) if p.get("name") == player), {})
    if place == "citizenry":
        held = Dice.of(me.get("cup")) + Dice.of(me.get("dictate"))
        for column in (me.get("columns") or {}).values():
            held = held + Dice.of(column)
        return held
    zone = me.get("construction_zone") or {}
    return (Dice.of(me.get("citizenry")) + Dice.of(zone.get("development_workers"))
            + Dice.of(zone.get("world_workers")))


def _check_box_dice(place: str, counted: Mapping[str, int], elsewhere: Dice) -> None:
    """Refuse a phone's dice count whose cup and citizenry together hold more dice of a colour than the game has.

    Args:
        place: ``"cup"`` or ``"citizenry"`` (the citizenry with the construction zone), the place counted now.
        counted: ``{colour: n}``, the dice counted there.
        elsewhere: the player's dice now in the other place (:func:`_held_elsewhere`).

    The limit is the box's dice of each colour (rulebook p.1 Components; the digest's §2 Dice table and
    ``rules/data/roll/dice.json``: 25 white, 22 red, 9 purple, 20 blue, 14 brown, 12 green, 9 yellow), not a
    per-player limit: a player's dice come from the setup's white dice, their faction tile and home world (p.2
    Setup) and whatever their tiles take from the shared supply later, so no smaller number per player is knowable
    from the rules.

    Raises:
        BadEntry: "purple: 9 in the cup and 9 in the citizenry is 18; the game has 9", for the first colour over.
    """
    dice = catalogue().dice
    for colour in COLOURS:
        if colour not in dice:
            continue
        here, there = counted.get(colour, 0), elsewhere[colour]
        cup, citizenry = (here, there) if place == "cup" else (there, here)
        if cup + citizenry > dice[colour].count:
            raise BadEntry(Text("{colour}: {cup} in the cup and {citizenry} in the citizenry is {total}; the game has "
                                "{box}", colour=colour_word(colour), cup=cup, citizenry=citizenry,
                                total=cup + citizenry, box=dice[colour].count))


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


_SHIP = Text("{number} {phase}", number=ROMAN["ship"], phase=PHASE_NAMES["ship"])
"""The Ship phase as the round's list names it ("V Ship")."""


def _ship_vp(view: Mapping[str, Any], player: str) -> tuple[int, int]:
    """``(paid, reported)``: the VP in chips ``player``'s shipments paid in this Ship phase and the VP chips they
    reported in it (the rules' view, ``ship_vp``; both 0 outside Ship, as the rules start each Ship phase at 0, and for
    a player not at the table)."""
    me = next((p for p in view.get("players", ()) if p.get("name") == player), {})
    ship = me.get("ship_vp") or {}
    return int(ship.get("paid") or 0), int(ship.get("reported") or 0)


def _ship_counted(view: Mapping[str, Any], player: str) -> int:
    """The VP in chips counted for ``player`` in this Ship phase so far: what their shipments paid and what they
    reported are the same chips as far as they go (p.7 Ship; :func:`rules.roll.moves.take_ship_vp`), so the larger
    of the two (:func:`_ship_vp`)."""
    return max(_ship_vp(view, player))


def _vp_beyond(view: Mapping[str, Any], player: str, said: int) -> int:
    """The ``delta`` of a VP chips report of ``said`` chips (1 or more) by ``player``: outside the Ship phase the
    chips taken now, ``said``; in V Ship the phase's total, those its Consumes paid included (p.7 Ship: a shipper that
    consumes a good gives 1-3 VP chips, which the player takes from the pool as it is shipped), so the chips already
    reported in the phase are taken off: the rules count the reports of one Ship phase and its shipments' pay
    against each other (:func:`rules.roll.moves.take_ship_vp`).

    Worked by hand: Ann's Consume paid 3 VP; she took 30 more from a power and reports 33: delta 33, taken
    max(3, 33) - 3 = 30 more. A later report of 35 in the same phase: delta 35 - 33 = 2.

    Raises:
        BadEntry: in V Ship, ``said`` not more than the chips counted for the player so far (:func:`_ship_counted`),
            unless it is exactly what their shipments paid beyond their reports (the Consume's chips reported too,
            counted once), naming both numbers: "VP chips taken: 30 is not more than the 33 VP in chips already
            counted for you in V Ship; there the number is the phase's total ...". Nothing is recorded.
    """
    if view.get("stage") != "ship":
        return said
    paid, reported = _ship_vp(view, player)
    counted = max(paid, reported)
    if said < counted or said <= reported:
        raise BadEntry(Text("{form}: {said} is not more than the {counted} VP in chips already counted for you in "
                            "{phase}; there the number is the phase's total, the chips of the goods you consumed "
                            "included: report {counted} + the chips you took besides (p.7 Ship)",
                            form=Text("VP chips taken"), said=said, counted=counted, phase=_SHIP))
    return said - reported


_PHASE_OF_FORM = {"tile": ("develop", "settle"), "good": ("produce",), "ship": ("ship",)}
"""The phases in which a phase form's report happens (p.5-7: built in II Develop or III Settle, a good placed in IV
Produce, shipped in V Ship); closed during Reveal, which comes before them (p.4 Reveal)."""


def _phase_named(phase: str) -> Text:
    """A phase as the round's list names it ("II Develop")."""
    return Text("{number} {phase}", number=ROMAN[phase], phase=PHASE_NAMES[phase])


def _faction_label(f: Any) -> str:
    return " / ".join(f.names)


class RollFlow(FlowBase):
    """Roll for the Galaxy's part of the flow (see the module doc). Name, title, BoardGameGeek id, 2-5
    players and the seat colours come from the declaration (``ROLL_GAME.info``; Roll for the Galaxy, p.1)."""

    game = ROLL_GAME
    fixed = {"tracking": "tableau"}
    columns = (Column("tableau", in_game("Roll for the Galaxy", "Tableau")), Column("credits", Text("Credits")),
               Column("vp", Text("VP")))
    """Players report their tableau on their phones; the dice are not followed (without the dice reader)."""
    report_forms = {"player_setup": "setup", "phase_selected": "select"}
    """Reports a phone may withdraw only while their form is open (setup before round 1, a phase until Reveal)."""
    camera = RollCamera()

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
        select = [Field("phase", Text("Phase"), choices=PHASES, labels=tuple(phase_word(p) for p in PHASES))]
        if len(view.get("players", [])) == 2:
            faces = tuple(f for f in FACES if f != "wild")
            select.append(Field("extra_white", Text("Extra white die (2 players)"), choices=faces, optional=True,
                                labels=tuple(face_word(f) for f in faces)))
        return (
            Form(
                "setup",
                Text("Setup"),
                (
                    Field("faction", Text("Faction"), choices=tuple(_faction_label(f) for f in cat.factions)),
                    Field("home_world", Text("Home world"), choices=tuple(w.name for w in cat.home_worlds)),
                    Field(
                        "development",
                        Text("Starting development"),
                        choices=tuple(sorted(t.development.name for t in cat.game_tiles)),
                    ),
                    Field("world", Text("Starting world"), choices=tuple(sorted(t.world.name for t in cat.game_tiles))),
                ),
            ),
            Form("select", Text("Phase selected"), tuple(select)),
            Form("tile", Text("Tile built"), (Field("tile", Text("Tile"), choices=tiles),)),
            Form(
                "good",
                Text("Good placed"),
                (
                    Field("world", Text("World"), choices=worlds),
                    Field("colour", Text("Die colour"), choices=colours, labels=colour_words),
                ),
            ),
            Form(
                "ship",
                Text("Good shipped"),
                (
                    Field("world", Text("World"), choices=worlds),
                    Field(
                        "mode",
                        Text("Trade or consume"),
                        choices=("trade", "consume"),
                        labels=(Text("Trade"), Text("Consume")),
                    ),
                    Field("good", Text("Good's colour"), choices=colours, labels=colour_words),
                    Field("shipper", Text("Shipper's colour"), choices=colours, labels=colour_words),
                ),
            ),
            Form(
                "vp", Text("VP chips taken"), (Field("vp", Text("VP"), kind="int", minimum=1, maximum=MAX_VP_REPORT),),
                # p.7 Ship: a Consume pays its chips; in Ship the number is the phase's total (report_event)
                hint=Text("The VP chips you took from the pool. In the Ship phase: every chip you took in the phase "
                          "so far, those of the goods you consumed included (p.7 Ship: a Consume gives 1-3 VP chips); "
                          "after a Consume you report later, report the new total."),
            ),
            Form(
                "credits", Text("Credits now"), (Field("credits", Text("Credits"), kind="int", minimum=0, maximum=10),)
            ),
            Form("count", Text("Dice counted"), (
                Field("place", Text("Where"), choices=COUNT_PLACES,
                      labels=(Text("cup"), Text("citizenry and construction zone"))),
                *(Field(c, colour_words[k], kind="int", minimum=0, maximum=cat.dice[c].count, optional=True)
                  for k, c in enumerate(colours) if c in cat.dice),
            )),
            removed_form(),  # p.11 FAQ Immediate effects: the die a tile built removes (companion.flows.roll_remove)
        )

    event_words = {"player_setup": lazy("Setup"), "phase_selected": lazy("Phase selected"),
                   "tile_built": lazy("Tile built"), "goods_placed": lazy("Good placed"),
                   "goods_shipped": lazy("Good shipped"), "vp_changed": lazy("VP chips taken"),
                   "credits_changed": lazy("Credits"), "reveal": lazy("Reveal"), "phase": lazy("the next phase"),
                   "game_end": lazy("End game"), "dice_counted": lazy("Dice counted"),
                   "die_removed": lazy("Die removed")}

    def event_label(self, kind: str, payload: Mapping[str, Any] | None = None) -> str:
        """A Next that started a phase is said as the phase, as the round's list shows it ("III Settle", "Manage
        Empire"; p.4 Phases), so an Undo says which phase it took back; other kinds as :attr:`event_words`."""
        phase = (payload or {}).get("phase") if kind == "phase" else None
        if phase in ROMAN:
            return Text("{number} {phase}", number=ROMAN[phase], phase=PHASE_NAMES[phase])
        if phase in PHASE_NAMES:
            return PHASE_NAMES[phase]
        return super().event_label(kind, payload)

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

    def corrects(self, form: str, values: Any, player: str, events: Sequence[Event]) -> int | None:
        """A setup reported again by the same player corrects their earlier one (p.2 Setup: each player takes one
        faction tile, one home world and two tiles): the newest report replaces it, its findings with it, so a slip
        put right no longer shows as an error nor as a second setup. Every other report: None."""
        if form != "setup":
            return None
        return next((e.seq for e in reversed(events) if e.kind == "player_setup" and e.player == player), None)

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

    def report_event(
        self, form: str, values: dict[str, Any], player: str, view: Mapping[str, Any]
    ) -> tuple[str, dict[str, Any]]:
        """Form -> event (``rules.roll.game`` kinds)."""
        if form == "setup":
            faction = next(f.number for f in catalogue().factions if _faction_label(f) == values["faction"])
            return "player_setup", {"faction": faction, "home_world": values["home_world"],
                                    "development": values["development"], "world": values["world"]}
        if form == "select":
            payload = {"phase": values["phase"]}
            if values.get("extra_white"):
                payload["extra_white"] = values["extra_white"]
            return "phase_selected", payload
        if form == "tile":
            return "tile_built", {"tile": values["tile"]}
        if form == "good":
            return "goods_placed", {"world": values["world"], "colour": values["colour"]}
        if form == "ship":
            return "goods_shipped", dict(values)
        if form == "vp":
            delta = _vp_beyond(view, player, values["vp"])
            return "vp_changed", {"delta": delta, "reason": N_("reported on the phone")}
        if form == "credits":
            return "credits_changed", {"credits": values["credits"], "reason": N_("reported on the phone")}
        if form == "remove":
            return removed_event(values, player, view)
        if form == "count":  # a colour left blank: none of it there
            counted = {c: values[c] for c in COLOURS if values.get(c)}
            _check_box_dice(values["place"], counted, _held_elsewhere(view, player, values["place"]))
            return "dice_counted", {values["place"]: counted}
        raise BadEntry(Text("unknown report {form!r}", form=form))

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

    def role(self, view: Mapping[str, Any], player: str) -> str | None:
        """The player's faction tile (its side names) and home world."""
        p = next((q for q in view["players"] if q["name"] == player), None)
        if p is None or p["faction"] is None:
            return None
        faction = catalogue().faction(p["faction"])
        return f"{_faction_label(faction)}; {p['home_world']}"


ROLL_FLOW = RollFlow()
ROLL_CAMERA = ROLL_FLOW.camera
