"""Roll for the Galaxy's part of the camera flow (:mod:`companion.flows.roll`): the tiles seen joining a tableau, the
phase each player's dice on the phase strips show before Reveal (p.3 Assign), and the dice counted at the end (p.8
Victory); a read with more dice of a colour than the box holds says so.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.camera import CardPass, CountPass, DicePass, DiceSet, Proposal, ReadPass, TableauCamera, colour_counts
from companion.flows.roll_names import _faction_label
from companion.i18n import Listing, Text, plural
from rules.roll.data import COLOURS, FACES, PHASES, catalogue
from rules.roll.dice import Dice
from rules.roll.words import colour_word, dice_words, face_word, phase_word

__all__ = ["SURE_FACE", "RollCamera", "same_place", "sure_before", "sure_now", "surely_counted", "too_many_dice",
           "unsure_colours"]


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
                        before: Mapping[str, list[dict[str, Any]]], image: str | None) -> list[Proposal]:
        """Per player: "Ann: 2 white, 1 red in citizenry and construction zone?" (``place="citizenry"``; the
        goods recorded on her worlds are taken off what the camera sees: goods are ``goods_placed`` reports,
        p.7 Produce) or "Ann: 3 white, 1 purple in the cup?" (``place="cup"``: what is seen now less what
        the previous pass saw). Confirm records ``dice_counted`` ``{place: {colour: n}, "read": {"image",
        "dice", "place"}}``. A purple die is counted as purple (p.8: end-game powers never treat it as another
        colour); a die whose colour the reader could not tell is left out and said in the question.

        A die read less surely than :data:`SURE_FACE` (the bar the phase questions use) is not counted by the colour
        it seems to have: the final scoring's cost-6 bonuses and the tie-break count dice by colour (Roll for the
        Galaxy, p.8 Victory), so a guess could give or take VP. It is left out and
        the question names the colours it looks like, for the player to correct with Dice counted (``read["unsure"]``
        ``{colour: n}`` keeps them). In the cup step the unsure dice are those the cup added: unsure now less unsure
        in the step before, by colour; a die read unsure now where the step before read a die of the same colour
        surely (the same place, :func:`sure_before`) is that die, still lying where it lay: its colour was sure once
        in the same count, so it is not unsure (before, a sure die the cup added of that colour was left out in its
        place, one die undercounted). The reverse, a die the first step left out (its colour unsure or unknown) read
        surely now where it lay (:func:`sure_now`), is counted once, where it lies: the question also gives the first
        count made whole ("citizenry and construction zone 1 white, 1 red") and Confirm records it with the cup's
        (``dice_counted`` ``{"cup", "citizenry"}``); it is never the cup's, whose count breaks ties (p.8 Victory), and
        its colour is the one read surely now (before, it was taken off the cup as a die the first count had counted
        and so counted nowhere).

        Args:
            dice: this step's read, player -> die JSON objects (``colour``, ``face``, ``box``, ``confidence`` 0-1).
            view: the engine view (``players`` with ``name`` and ``goods``).
            place: ``"citizenry"`` or ``"cup"``.
            before: the step before's read, player -> die JSON objects (empty before the first step).
            image: the saved picture's path, or None.
        """
        out = []
        warn = too_many_dice(dice)
        for p in view["players"]:
            name = p["name"]
            seen = dice.get(name) or []
            if not seen:
                continue
            unread = sum(1 for d in seen if not d.get("colour"))
            goods = Dice.from_list(c for cs in (p.get("goods") or {}).values() for c in cs)
            first = vouched = moved = None  # the first count made whole, when a die it left out reads surely now
            if place == "cup" and name in before:
                found = sure_now(seen, list(before[name]))
                now = [d for d in seen if not any(d is a for a, _ in found)]
                earlier = [d for d in before[name] if not any(d is b for _, b in found)]
                unsure_then = Dice.of(colour_counts(unsure_colours(earlier)))
                unsure_now = Dice.of(colour_counts([d for d in unsure_colours(now) if not sure_before(d, earlier)]))
                unsure = unsure_now - unsure_then  # the cup's new unsure dice
                counted, left_out = surely_counted(Dice.of(colour_counts(now)) - Dice.of(colour_counts(earlier)),
                                                   Dice(), unsure)
                moved = moved_sure(now, earlier, unsure_then - unsure_now)
                if found or moved.total:  # each counted once, where the first step counted it (not the cup's)
                    vouched = Dice.of(colour_counts([a for a, _ in found]))
                    first = surely_counted(Dice.of(colour_counts(earlier)), goods, unsure_then)[0] + vouched + moved
                goods = Dice()
            else:
                counted, left_out = surely_counted(Dice.of(colour_counts(seen)), goods,
                                                   Dice.of(colour_counts(unsure_colours(seen))))
            said = dict(player=name, dice=dice_words(counted))
            if place == "cup":
                text = Text("{player}: {dice} in the cup?", **said)
            elif goods.total:
                text = Text("{player}: {dice} in citizenry and construction zone (goods {goods} not counted)?", **said,
                            goods=dice_words(goods))
            else:
                text = Text("{player}: {dice} in citizenry and construction zone?", **said)
            if first is not None and vouched is not None and vouched.total:
                text = plural(
                    "{question}; {n} die the first count left out lies where it lay and reads surely now ({dice}): "
                    "citizenry and construction zone {counted}",
                    "{question}; {n} dice the first count left out lie where they lay and read surely now ({dice}): "
                    "citizenry and construction zone {counted}",
                    vouched.total,
                    question=text,
                    dice=dice_words(vouched),
                    counted=dice_words(first),
                )
            if first is not None and moved is not None and moved.total:
                text = plural(
                    "{question}; {n} die the first count left out, its colour unsure, was moved and reads surely now "
                    "({dice}): counted once, by its colour, in citizenry and construction zone {counted}; if it is a "
                    "die the cup brought, correct the count with Dice counted",
                    "{question}; {n} dice the first count left out, their colours unsure, were moved and read surely "
                    "now ({dice}): counted once, by their colours, in citizenry and construction zone {counted}; if "
                    "they are dice the cup brought, correct the count with Dice counted",
                    moved.total,
                    question=text,
                    dice=dice_words(moved),
                    counted=dice_words(first),
                )
            if left_out.total:
                text = plural(
                    "{question}; {n} die left out, its colour unsure (it looks {dice}): if it is, correct the count "
                    "with Dice counted",
                    "{question}; {n} dice left out, their colours unsure (they look {dice}): if they are, correct the "
                    "count with Dice counted",
                    left_out.total,
                    question=text,
                    dice=dice_words(left_out),
                )
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
            if left_out.total:
                read["unsure"] = left_out.to_json()
            payload = {place: counted.to_json(), "read": read}
            if first is not None:  # counted once, in the place the first step counted (p.8 Victory)
                payload["citizenry"] = first.to_json()
            out.append(Proposal(name, text, "dice_counted", payload))
        return out


def unsure_colours(dice: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The dice of ``dice`` (die JSON objects) with a colour read less surely than :data:`SURE_FACE` (a missing
    confidence counts as sure, as in the phase questions)."""
    return [d for d in dice if d.get("colour") and float(d.get("confidence", 1.0)) < SURE_FACE]


def surely_counted(have: Dice, goods: Dice, unsure: Dice) -> tuple[Dice, Dice]:
    """``(counted, left out)`` of one step: the dice ``have`` less the ``goods`` on worlds (p.7 Produce: a good is no
    die of the count), less the dice read unsure (``unsure``, by colour; at most what is left of each colour)."""
    counted = have - goods
    left_out = Dice(tuple(min(a, b) for a, b in zip(unsure.counts, counted.counts, strict=True)))
    return counted - left_out, left_out


def moved_sure(now: list[dict[str, Any]], earlier: list[dict[str, Any]], resolved: Dice) -> Dice:
    """The dice the first step left out (their colour unsure) that were moved before the cup step (farther than half a
    die, so :func:`sure_now` cannot find them where they lay) and read surely there, matched by colour: of each colour,
    as many as both the earlier unsure dice no longer read unsure now (``resolved``: unsure then less unsure now) and
    the sure dice of that colour more now than then. Such a die is one of the first count's (Roll for the Galaxy, p.8
    Victory: every die is counted once, by colour; the cup's count breaks ties), which the cup step's colour counts
    would otherwise take off the cup as a die the first count had counted, so that it counted nowhere. ``now``,
    ``earlier``: die JSON objects of the two steps, the pairs :func:`sure_now` found taken out."""
    more = Dice.of(colour_counts([d for d in now if _sure(d)])) - Dice.of(colour_counts([d for d in earlier
                                                                                        if _sure(d)]))
    return Dice(tuple(min(a, b) for a, b in zip(resolved.counts, more.counts, strict=True)))


def _box(die: Mapping[str, Any]) -> tuple[float, float, float, float] | None:
    box = die.get("box")
    if not (isinstance(box, (list, tuple)) and len(box) == 4):
        return None
    try:
        return tuple(float(v) for v in box)  # type: ignore[return-value]
    except (TypeError, ValueError):
        return None


def same_place(die: Mapping[str, Any], other: Mapping[str, Any]) -> bool:
    """Whether two reads of dice lie in one place: their top faces' centres (``box`` ``[x, y, w, h]``, frame px)
    within half a die of each other (two dice never lie so near, so it is one die read twice). A die with no box is
    in no place."""
    a, b = _box(die), _box(other)
    if a is None or b is None:
        return False
    (x, y, w, h), (ox, oy, ow, oh) = a, b
    reach = max(w, h, ow, oh) / 2
    return abs((x + w / 2) - (ox + ow / 2)) <= reach and abs((y + h / 2) - (oy + oh / 2)) <= reach


def _sure(die: Mapping[str, Any]) -> bool:
    return bool(die.get("colour")) and float(die.get("confidence", 1.0)) >= SURE_FACE


def sure_before(die: Mapping[str, Any], earlier: list[dict[str, Any]]) -> bool:
    """Whether the step before read a die of ``die``'s colour surely (:data:`SURE_FACE` or more) where ``die`` lies
    (:func:`same_place`). A die with no box, or moved farther, is not vouched for: it stays unsure."""
    return any(d.get("colour") == die.get("colour") and _sure(d) and same_place(die, d) for d in earlier)


def sure_now(seen: list[dict[str, Any]], earlier: list[dict[str, Any]]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """The dice of the cup step (``seen``) read surely (a colour, :data:`SURE_FACE` or more) where the first step
    (``earlier``) read a die it left out (its colour unsure or unknown), each with that earlier die: one die lying
    where it lay (:func:`same_place`), which the first count left out and no cup brought. Its colour now is the one
    counted, whatever it seemed before (Roll for the Galaxy, p.8 Victory counts dice by colour). Each earlier die
    stands for one die now."""
    pairs: list[tuple[dict[str, Any], dict[str, Any]]] = []
    for die in seen:
        if not _sure(die):
            continue
        match = next((d for d in earlier if not _sure(d) and not any(d is b for _, b in pairs)
                      and same_place(die, d)), None)
        if match is not None:
            pairs.append((die, match))
    return pairs


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

