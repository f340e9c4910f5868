"""Among the Stars at the table (issue 7): what differs from the shared flow.

Four years of rounds (rulebook 4 'Round overview'): each round every player reports the one
action they took (a location built at a cell, a Power Reactor built, a card discarded for
credits) and corrections of credits or the VP track; Next ends the round (``round_ended``:
effects on other players resolve, then the next round or year, with its pass direction). The
last round of year 4 is the last round; after it the game is scored (rulebook 6).
Findings (a location placed against its rule) show at once with the rule.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from companion.camera import CardPass, Observed, Proposal
from companion.camera.preview import misplays
from companion.camera.station import GROUPED_FROM, StationChange, StationWatcher, growth_order
from companion.camera.station_seats import Seat
from companion.errors import BadEntry
from companion.flow_spec import Board, Cell, Column, Field, FlowBase, Form, TableRound
from companion.i18n import AND, N_, Listing, Text, lazy, plural
from companion.words import colour_word
from rules import Option, Progress
from rules.among_the_stars import AMONG_GAME
from rules.among_the_stars.data import MAIN_REACTOR, VAK_MAIN_REACTOR, catalogue
from rules.among_the_stars.endgame import SECRET_KEPT, SECRET_ROUND
from rules.among_the_stars.game import (
    CONFLICT_PLAYED,
    LOCATION_BUILT,
    REACTOR_BUILT,
    SECRET_OBJECTIVE_CHOSEN,
    STATION_READ,
    objectives_dealt,
)
from rules.among_the_stars.station import neighbour_cells, reactor_named, station_place
from rules.among_the_stars.words import FIELD_WORDS as W
from rules.among_the_stars.words import PLACE_LABEL
from rules.names import term

__all__ = ["AMONG_CAMERA", "AMONG_FLOW", "AmongCamera", "AmongFlow"]

Place = tuple[int, int]
"""A station cell ``(i, j)`` from the Main Reactor."""

CELL_RANGE = 12  # a station never reaches further than this from the Main Reactor (cells)
NO_CHANGE = Text("a correction of 0 changes nothing, so nothing is recorded: enter how many to add (3) or to take away "
                 "(-3)")
"""The refusal of a credits or VP track correction of 0: the game's record keeps only entries that change something."""


def _conflict_years(view: Mapping[str, Any]) -> bool:
    """Whether Conflict cards are in the deck now: years 2-4 of the aggressive mode (rulebook 7 'Aggressive mode')."""
    return bool(view.get("aggressive")) and int(view.get("year") or 1) >= 2


class AmongFlow(FlowBase):
    """Among the Stars' part of the flow (see the module doc). Name, title, BoardGameGeek id, 2-4 players and
    the options (races, objectives, the aggressive mode) come from the declaration (``AMONG_GAME.info``)."""

    game = AMONG_GAME
    columns = (Column("tableau", Text("Station")), Column("credits", Text("Credits")), Column("vp", Text("VP")))
    """The station (the locations built, Among the Stars 2: each player builds a space station; Hungarian
    "Űrállomás"), credits and VP: Race's "tableau" is no word of this game."""
    event_words = {
        "location_built": lazy("Location built"),
        "reactor_built": lazy("Power Reactor built"),
        "card_discarded": lazy("Card discarded for credits"),
        "credits_changed": lazy("Credits correction"),
        "vp_changed": lazy("VP track correction"),
        "round_ended": lazy("the end of the round"),
        "conflict_played": lazy("Conflict card played"),
        "station_read": lazy("the camera's read of the stations"),
        "station_claimed": lazy("Station claimed (camera question)"),
        SECRET_OBJECTIVE_CHOSEN: lazy("Secret objective (Qualeen)"),
    }
    hidden_note = Text("a Qualeen's secret objective stays hidden: it counts once the game is scored")
    report_forms = {SECRET_OBJECTIVE_CHOSEN: "secret"}  # a private form's reports, named (FlowBase.entry_forms)
    kept_forms = frozenset({"secret"})
    camera_records = frozenset({STATION_READ})  # findings only: an Undo takes back what a player did, not a read
    """A Qualeen keeps one secret objective from the setup (race tile: "At setup draw 2 extra objectives, keep 1
    secretly"): once entered, the form closes; a slip is withdrawn on its own button, then the right one entered."""

    def check_setup(self, settings: Mapping[str, Any]) -> None:
        """:meth:`FlowBase.check_setup`: the objectives ticked (if any) are as many as the table deals. Three ticked
        for three players, then one left, played three objectives with two. A new game's ``--objectives`` on the
        command line is checked the same way (an old game recorded with another count keeps the game's reminder).

        Raises:
            BadEntry: objectives picked other than :func:`rules.among_the_stars.game.objectives_dealt` for the players
                (Among the Stars rulebook, 3 Setup and 8 2-player rules); none is a first game's setup.
        """
        players = len(settings.get("players") or ())
        count, wanted = len(settings.get("objectives") or ()), objectives_dealt(players)
        if count and count != wanted:
            raise BadEntry(Text("{players} players play {wanted} objectives, not {count} (Among the Stars rulebook, "
                                "3 Setup and 8 2-player rules)", players=players, wanted=wanted, count=count))

    def stored(self, option: Option, value: Any) -> Any:
        """Races and objectives are written by their ids in the game data (``"sheptas"``,
        ``"well_organised"``), as the sessions recorded before always had them."""
        cat = catalogue()
        if option.name == "races":
            return ["" if not race else cat.race(race) for race in value]
        if option.name == "objectives":
            return [cat.objective(name).id for name in value]
        return super().stored(option, value)

    def forms(self, view: Mapping[str, Any]) -> tuple[Form, ...]:
        """Location built (card and cell), Power Reactor built (cell), card discarded, a Conflict card played (the
        aggressive mode), credits and VP corrections."""
        cat = catalogue()
        by_name = {c.name: c for c in cat.cards.values() if not c.is_reactor}
        locations = tuple(sorted(by_name))
        cell = dict(kind="cell", minimum=-CELL_RANGE, maximum=CELL_RANGE)
        names = tuple(p["name"] for p in view.get("players") or ())
        return (
            Form("location", Text("Location built"), (
                Field("card", W["card"], choices=locations, labels=tuple(by_name[n].word for n in locations)),
                Field("cell", PLACE_LABEL, **cell), *_card_choice_fields(names), *_energy_fields())),
            Form("reactor", Text("Power Reactor built"), (Field("cell", PLACE_LABEL, **cell),)),
            Form("discard", Text("Card discarded for credits"), ()),
            self._conflict_form(view),
            Form(
                "credits",
                Text("Credits correction"),
                (Field("delta", W["credits_changed.delta"], kind="int", minimum=-30, maximum=30),),
            ),
            Form(
                "vp",
                Text("VP track correction"),
                (Field("delta", W["vp_changed.delta"], kind="int", minimum=-50, maximum=50),),
            ),
            self._secret_form(view),
        )

    @staticmethod
    def _conflict_form(view: Mapping[str, Any]) -> Form:
        """A Conflict card played instead of building (rulebook 7 'Aggressive mode': it is paid, its effect applied
        after the other players' actions; Dispute, the one card known: against another player, on the count of
        one kind of location, a colour or Power Reactors): the round's action, as a build or a discard is."""
        variants = tuple(catalogue().conflict["variants_known"])
        return Form("conflict", Text("Conflict card played"), (
            Field("target", W["target"], choices=tuple(p["name"] for p in view.get("players") or ())),
            Field("counts", W["counts"], choices=variants,
                  labels=tuple(Text("Power Reactors") if v == "power_reactors" else colour_word(v) for v in variants)),
        ))

    @staticmethod
    def _secret_form(view: Mapping[str, Any]) -> Form:
        """A Qualeen's secret objective (rulebook 'Races', Qualeen: at setup draw 2 extra objectives and keep 1
        secretly): a private form, entered on the player's own phone only; its choices are the objectives not face up
        on the table (those are refused with why)."""
        cat = catalogue()
        face_up = set(view.get("objectives") or ())
        kept = tuple(o for o in cat.objectives.values() if o.name not in face_up)
        why = Text("it is face up on the table: your secret objective is one of the 2 extra objectives you drew")
        return Form("secret", Text("Secret objective (Qualeen)"), (
            Field("objective", W["objective"], choices=tuple(o.name for o in kept),
                  labels=tuple(term("among_the_stars.objective", o.id) for o in kept),
                  unavailable=tuple((o.name, why) for o in cat.objectives.values() if o.name in face_up)),),
            private=True)

    def open_forms(self, view: Mapping[str, Any], progress: Progress, player: str) -> list[str]:
        """Every form while the game runs; none once it is scored. A Qualeen player's own phone also has the secret
        objective (rulebook 'Races', Qualeen) until it is entered (:attr:`kept_forms`), and again once withdrawn."""
        if progress.over:
            return []
        qualeen = any(p["name"] == player and p.get("race") == "qualeen" for p in view["players"])
        conflict = _conflict_years(view)
        return ["location", "reactor", "discard", *(["conflict"] if conflict else []), "credits", "vp",
                *(["secret"] if qualeen else [])]

    def kept_closed_why(self, form: str, view: Mapping[str, Any], progress: Progress, player: str) -> str:
        """A Qualeen's secret objective is withdrawn (a slip corrected) only in year 1's first round: after it, the one
        kept from the setup stays (rulebook 'Races', Qualeen race tile: "At setup draw 2 extra objectives, keep 1
        secretly"; :data:`rules.among_the_stars.endgame.SECRET_ROUND`)."""
        if form == "secret" and (view.get("year"), view.get("round")) != SECRET_ROUND:
            return Text(SECRET_KEPT)
        return ""

    def choices_now(self, view: Mapping[str, Any], progress: Progress, player: str) -> dict[str, dict[str, Any]]:
        """A Conflict card is played against another player (Dispute: "choose another player")."""
        if not _conflict_years(view):
            return {}
        return {"conflict": {"target": {"choices": [p["name"] for p in view["players"] if p["name"] != player],
                                        "none": ""}}}

    def cell_choices(self, view: Mapping[str, Any], progress: Progress, player: str) -> dict[str, dict[str, Any]]:
        """The reactors each energy cube of a location can come from, by the place it is built at (rulebook 4 'Build
        a location': any reactor holding cubes within distance 2, the distance counted through built cards; FAQ: the
        cubes may come from several), only where more than one reactor can pay; each cube's first choice is the
        box's own (nearest first, then build order: what it takes when nothing is chosen). A Solar Panels' reactor
        likewise: the reactors beside the place, where there are two or more (:func:`_reactors_beside`). Each of these
        fields is listed even where no place offers a choice (``by`` empty), so the phone hides it there instead of
        drawing it as a free place of the station to tap, which no reactor ever is."""
        if progress.over:
            return {}
        me = next((p for p in view.get("players") or () if p["name"] == player), {})
        asked = [k for k in ENERGY_CUBES if any(f.name == f"energy_{k}" for f in _energy_fields())]
        fields: dict[str, Any] = {f"energy_{k}": {"after": "cell", "places": {}, "by": {}, "chosen": {}} for k in asked}
        for place in me.get("energy_reach") or ():
            reactors = place["reactors"]
            if len(reactors) < 2:
                continue  # one reactor in reach: nothing to choose
            key = _key(place["cell"])
            cubes = [_key(r["cell"]) for r in reactors for _ in range(r["cubes"])]  # the box's order
            for k in asked:
                if k <= len(cubes):
                    pick = fields[f"energy_{k}"]
                    pick["places"].update({_key(r["cell"]): _reactor_label(r) for r in reactors})
                    pick["by"][key] = [_key(r["cell"]) for r in reactors]
                    pick["chosen"][key] = cubes[k - 1]
        if _extra_cards() and "energy_1" in fields:  # the extra cubes: from the same reactors, the box's if none
            for k in EXTRA_CUBES:
                first = fields["energy_1"]
                fields[f"extra_energy_{k}"] = {"after": "cell", "places": first["places"],
                                               "by": {at: listed for at, listed in first["by"].items()
                                                      if sum(int(r["cubes"]) for r in _reach(me, at)) > k},
                                               "chosen": {}}
        # every such field is listed, with no place in "by" where nothing is to choose: a field not listed would be
        # drawn as a place to tap on the station, whose free places no reactor can be
        fields["reactor"] = _reactors_beside(me.get("station") or ())
        return {"location": fields}

    def closed_why(self, form: Form, view: Mapping[str, Any], progress: Progress, player: str) -> str:
        """The secret objective is a Qualeen's alone (rulebook 'Races', Qualeen), a Conflict card is in the deck only
        in years 2-4 of the aggressive mode (rulebook 7); else :meth:`FlowBase.closed_why`."""
        if form.id == "secret" and not progress.over:
            return Text("only a Qualeen player keeps a secret objective")
        if form.id == "conflict" and not progress.over:
            return Text("Conflict cards are only in the deck in years 2-4 of aggressive mode")
        return super().closed_why(form, view, progress, player)

    def report_event(
        self, form: str, values: dict[str, Any], player: str, view: Mapping[str, Any]
    ) -> tuple[str, dict[str, Any]]:
        """Form -> event (``rules.among_the_stars.game`` kinds).

        Raises:
            BadEntry: an unknown form, or a credits or VP track correction of 0 (``-0`` too: it would change nothing,
                and an entry that changes nothing does not clutter the game's record: :data:`NO_CHANGE`).
        """
        if form == "location":
            payload = {"card": values["card"], "cell": values["cell"]}
            others = tuple(p["name"] for p in view.get("players") or () if p["name"] != player)
            choices = _card_choices(values, _card_choice_fields(()), others)
            energy = _energy_choice(values)
            if energy:
                choices["energy"] = energy
            return "location_built", {**payload, "choices": choices} if choices else payload
        if form == "reactor":
            return "reactor_built", {"cell": values["cell"]}
        if form == "discard":
            return "card_discarded", {}
        if form == "conflict":
            return CONFLICT_PLAYED, {"target": values["target"], "counts": values["counts"]}
        if form in ("credits", "vp") and values["delta"] == 0:  # "-0" too: an entry that changes nothing
            raise BadEntry(NO_CHANGE)
        if form == "credits":
            return "credits_changed", {"delta": values["delta"], "reason": N_("reported on the phone")}
        if form == "vp":
            return "vp_changed", {"delta": values["delta"], "reason": N_("reported on the phone")}
        if form == "secret":
            return SECRET_OBJECTIVE_CHOSEN, {"objective": values["objective"]}
        raise BadEntry(Text("unknown report {form!r}", form=form))

    def table(self, view: Mapping[str, Any], progress: Progress) -> TableRound:
        """The year's rounds (current highlighted), pass direction (Game over once the game is), credits, VP track,
        locations."""
        over, rnd = progress.over, progress.round
        phases = [{"label": Text("Round {round}", round=k), "by": [],
                   "state": "done" if over or k < rnd else ("current" if k == rnd else "next")}
                  for k in range(1, (progress.rounds or rnd) + 1)]
        rows = {p["name"]: {"tableau": p["locations"], "credits": p["credits"], "vp": p["vp"]} for p in view["players"]}
        note = (Text("Hands pass left this year") if view["pass_direction"] == "left"
                else Text("Hands pass right this year"))
        if over:  # no hand passes after year 4 (rulebook 6 'End of the game')
            note = Text("Game over")
        elif view["reminders"]:
            note = Text("{note} - {reminder}", note=note, reminder=view["reminders"][0])
        confirm = ""
        if progress.waiting and not over:  # rulebook 4 'Round overview': every player does one action a round
            confirm = Text("{names}: no action reported this round; press {next} again to end the round without it, "
                           "or report it on the phone first (rulebook 4: every player does one action a round)",
                           names=Listing(progress.waiting, AND), next=Text("Next"))
        return TableRound(
            progress,
            phases,
            note,
            next_label=Text("Game over")
            if over
            else (Text("End year") if rnd == progress.rounds else Text("End round")),
            next_why=Text("the game is over") if over else "",
            pool=None,
            players=rows,
            next_confirm=confirm,
        )

    def next_events(self, view: Mapping[str, Any], progress: Progress) -> list[tuple[str, dict[str, Any]]]:
        """``round_ended`` while the game runs."""
        return [] if progress.over else [("round_ended", {})]

    def boards(self, view: Mapping[str, Any], progress: Progress) -> tuple[Board, ...]:
        """Each player's space station as a grid of cells (rulebook 4 'Build a location': the Main Reactor at
        [0, 0]), with each Power Reactor's energy cubes, and the free places beside it named from the Main Reactor
        (what a screen reader says of each place the phone offers to tap)."""
        out = []
        for p in view["players"]:
            cells = []
            built = {(int(r["cell"][0]), int(r["cell"][1])) for r in p.get("station", [])}
            free = sorted({n for c in built for n in neighbour_cells(c)} - built)
            for row in p.get("station", []):
                cubes = row.get("cubes")
                detail = "" if cubes is None else plural("{n} energy cube", "{n} energy cubes", cubes)
                cells.append(
                    Cell((int(row["cell"][0]), int(row["cell"][1])), _card_word(row["card"]), p["name"], detail=detail)
                )
            out.append(
                Board(
                    f"station-{p['name']}",
                    Text("{player}'s station", player=p["name"]),
                    "grid",
                    tuple(cells),
                    owner=p["name"],
                    places={_key(c): station_place(c) for c in free},
                )
            )
        return tuple(out)

    def role(self, view: Mapping[str, Any], player: str) -> str | None:
        """The player's race, by name."""
        p = next((q for q in view["players"] if q["name"] == player), None)
        race = (p or {}).get("race")
        return catalogue().races[race]["name"] if race else None


CARD_CHOICES = {"gift_to": "Embassy Offices", "extra_cubes": "Shield Generator", "escrow": "Business Offices",
                "take_1": "Market Place", "take_2": "Market Place", "paid_1": "School of Alien Cultures",
                "paid_2": "School of Alien Cultures", "paid_3": "School of Alien Cultures",
                **{f"bid_{k}{part}": "Galactic Research Facility" for k in (1, 2, 3) for part in ("", "_credits")},
                "reactor": "Solar Panels"}
"""The location form's optional fields, each the choice of one card's white box (the card data's ability text): the
player an Embassy Offices gives 1 VP (you gain 2), the cubes a Shield Generator takes beyond its cost (+2 VP each,
at most +4), the credits placed on a Business Offices (at most 6, +1 VP per 2, back at the end of the year), and
the players a Market Place takes its 2 credits from (1 each; the same player twice gives 2), and the players who paid
a School of Alien Cultures 1 credit (every other player not named lost 2 VP instead: the card's text, and the FAQ:
each other player secretly takes a credit in hand or not, then all reveal), and what the other players paid a Galactic
Research Facility (0-3 credits each, as many VP for them; the builder gains the highest paid + 1), and the reactor
beside a Solar Panels that takes its cube (left empty: the first reactor beside it)."""


def _card_choice_fields(names: tuple[str, ...]) -> tuple[Field, ...]:
    """The optional fields of :data:`CARD_CHOICES`, each label naming its card; ``names``: the players in seat order."""
    def card(name: str) -> str:
        return catalogue().card(name).word

    def beside(name: str) -> dict[str, Any]:  # shown on the phone while that card is the one built
        return {"optional": True, "shown_for": ("card", (name,))}
    return (
        Field("gift_to", Text("{card}: the player who gains 1 VP", card=card("Embassy Offices")), choices=names,
              others=True, **beside("Embassy Offices")),
        Field("extra_cubes", Text("{card}: energy cubes spent beyond its cost", card=card("Shield Generator")),
              kind="int", minimum=0, maximum=2, **beside("Shield Generator")),
        Field("escrow", Text("{card}: credits placed on it", card=card("Business Offices")), kind="int", minimum=0,
              maximum=6, **beside("Business Offices")),
        Field("take_1", Text("{card}: a player who gives you 1 credit", card=card("Market Place")), choices=names,
              others=True, **beside("Market Place")),
        Field("take_2", Text("{card}: a player who gives you 1 more credit", card=card("Market Place")),
              choices=names, others=True, **beside("Market Place")),
        *(Field(f"paid_{k}", Text("{card}: a player who paid you 1 credit (the others lose 2 VP)",
                                 card=card("School of Alien Cultures")), choices=names, others=True,
                **beside("School of Alien Cultures")) for k in (1, 2, 3)),
        *(field for k in (1, 2, 3) for field in (
            Field(f"bid_{k}", Text("{card}: a player who paid", card=card("Galactic Research Facility")), choices=names,
                  others=True, **beside("Galactic Research Facility")),
            Field(f"bid_{k}_credits", Text("{card}: credits that player paid (0-3)",
                                           card=card("Galactic Research Facility")),
                  kind="int", minimum=0, maximum=3, **beside("Galactic Research Facility")))),
        Field("reactor", Text("{card}: the reactor beside it that takes the cube", card=card("Solar Panels")),
              kind="cell", minimum=-CELL_RANGE, maximum=CELL_RANGE, **beside("Solar Panels")),
    )


def _reactors_beside(rows: Any) -> dict[str, Any]:
    """A Solar Panels' reactor by the place it is built at (card text: add 1 energy cube to a reactor it is built
    next to; the Main Reactor counts): for each free place next to the station (``rows``: the station in the engine
    view) beside two reactors or more, those reactors, the first beside it (the box's choice when none is named:
    :mod:`rules.among_the_stars.abilities`) picked; in the shape of :meth:`AmongFlow.cell_choices`' fields."""
    cat = catalogue()
    built = {(int(r["cell"][0]), int(r["cell"][1])): r for r in rows}
    reactors = {c: r for c, r in built.items() if not r.get("face_down") and cat.card(r["card"]).is_reactor}
    out: dict[str, Any] = {"after": "cell", "places": {}, "by": {}, "chosen": {}}
    for place in sorted({n for c in built for n in neighbour_cells(c) if n not in built}):
        beside = [n for n in neighbour_cells(place) if n in reactors]
        if len(beside) >= 2:
            out["places"].update({_key(n): _reactor_label(reactors[n]) for n in beside})
            out["by"][_key(place)] = [_key(n) for n in beside]
            out["chosen"][_key(place)] = _key(beside[0])
    return out


def _reach(me: Mapping[str, Any], at: str) -> list[Mapping[str, Any]]:
    """The reactors of ``me``'s ``energy_reach`` (the engine view) that can pay at the place ``at`` (``"i,j"``)."""
    return next((p["reactors"] for p in me.get("energy_reach") or () if _key(p["cell"]) == at), [])


def _key(cell: Any) -> str:
    """A cell as the phone names it in :meth:`AmongFlow.cell_choices`: ``"i,j"``."""
    return f"{int(cell[0])},{int(cell[1])}"


def _reactor_label(row: Mapping[str, Any]) -> Any:
    """A reactor of the engine view's station (or of its ``energy_reach``) as a phone lists it: ``"Power Reactor (1
    below the Main Reactor): 2 energy cubes"``; the Main Reactor by its name alone (``"Main Reactor: 1 energy cube"``,
    :func:`reactor_named`)."""
    cubes = int(row.get("cubes") or 0)
    return plural("{reactor}: {n} energy cube", "{reactor}: {n} energy cubes", cubes,
                  reactor=reactor_named(_card_word(row["card"]), row["cell"]))


ENERGY_CUBES = (1, 2)
"""The energy cubes of a card's cost a location form names a reactor for: a card's energy cost is 0-2 (Heavy Ion
Cannon 2; card data)."""
EXTRA_CUBES = (1, 2)
"""The extra energy cubes a location form names a reactor for: a Shield Generator spends up to 2 beyond its cost (+2 VP
each, at most +4; card data)."""


def _extra_cards() -> tuple[str, ...]:
    """The cards that spend energy cubes beyond their cost (ability ``extra_energy_bonus``: the Shield Generator)."""
    return tuple(sorted(c.name for c in catalogue().cards.values() if c.params.get("kind") == "extra_energy_bonus"))


def _energy_fields() -> tuple[Field, ...]:
    """The location form's ``energy_1``, ``energy_2``: the reactor each energy cube of the card's cost comes from,
    shown beside the cards that cost that many cubes; ``extra_energy_1``, ``extra_energy_2``: the reactor each cube a
    Shield Generator spends beyond its cost comes from (left empty: the nearest reactor left), the k-th shown once
    ``extra_cubes`` says at least k cubes are spent beyond its cost."""
    cat = catalogue()
    costing = {k: tuple(sorted(c.name for c in cat.cards.values() if not c.is_reactor and c.cost_energy >= k))
               for k in ENERGY_CUBES}
    extra = _extra_cards()
    return (*(Field(f"energy_{k}", Text("Energy cube {n}: the reactor it comes from", n=k), kind="cell",
                    minimum=-CELL_RANGE, maximum=CELL_RANGE, optional=True, shown_for=("card", costing[k]))
              for k in ENERGY_CUBES if costing[k]),
            *(Field(f"extra_energy_{k}", Text("{card}: extra energy cube {n}: the reactor it comes from",
                                              card=cat.card(extra[0]).word, n=k), kind="cell",
                    minimum=-CELL_RANGE, maximum=CELL_RANGE, optional=True, shown_for=("card", extra),
                    shown_from=("extra_cubes", k))
              for k in EXTRA_CUBES if extra))


def _energy_choice(values: Mapping[str, Any]) -> list[list[int]]:
    """The event's ``choices.energy`` (``rules.among_the_stars.game.LOCATION_BUILT``): the reactor cells named in the
    location form's energy fields, cube by cube; the cubes not named are the box's choice.

    Raises:
        BadEntry: a cube named beyond the card's energy cost (a Shield Generator's extra cubes are the box's choice),
            naming the field and the card.
    """
    card = catalogue().card(values["card"])
    named = [(k, values.get(f"energy_{k}")) for k in ENERGY_CUBES if values.get(f"energy_{k}") is not None]
    for k, _cell in named:
        if k > card.cost_energy:
            raise BadEntry(Text("{field}: leave it empty when you build {card}",
                                field=Text("Energy cube {n}: the reactor it comes from", n=k), card=card.word))
    extras = [values[f"extra_energy_{k}"] for k in EXTRA_CUBES if values.get(f"extra_energy_{k}") is not None]
    spent = values.get("extra_cubes") or 0
    if len(extras) > spent:  # a Shield Generator's extra cubes are counted in its own field (+2 VP each)
        raise BadEntry(Text("{card}: extra energy cubes given a reactor: {count}, but spent beyond its cost: {extra}",
                            card=card.word, count=len(extras), extra=spent))
    return [list(cell) for _k, cell in named] + [list(cell) for cell in extras]


def _card_choices(values: Mapping[str, Any], fields: tuple[Field, ...], others: tuple[str, ...] = ()) -> dict[str, Any]:
    """The event's ``choices`` (``rules.among_the_stars.game.LOCATION_BUILT``) from the location form's optional
    fields (:data:`CARD_CHOICES`; ``fields``: those fields, for their labels); a field left empty (or 0) is no choice.
    A School of Alien Cultures' answer names every one of ``others`` (the other players): paid where named.

    Raises:
        BadEntry: a field filled in for another card than its own, naming the field and the card built; a player
            named twice as paying a Galactic Research Facility or a School of Alien Cultures (each pays once); a
            Galactic Research Facility payer named without the credits paid, or credits without their payer.
    """
    labels = {f.name: f.label for f in fields}
    given = {k: values[k] for k in CARD_CHOICES if values.get(k) not in (None, 0, "")}
    for key in given:
        if CARD_CHOICES[key] != values["card"]:
            raise BadEntry(Text("{field}: leave it empty when you build {card}", field=labels[key],
                                card=catalogue().card(values["card"]).word))
    out: dict[str, Any] = {k: given[k] for k in ("gift_to", "extra_cubes", "escrow", "reactor") if k in given}
    take: dict[str, int] = {}
    for key in ("take_1", "take_2"):
        if key in given:
            take[given[key]] = take.get(given[key], 0) + 1
    if take:
        out["take"] = take
    bids: dict[str, int] = {}
    for k in (1, 2, 3):
        who, paid = given.get(f"bid_{k}"), given.get(f"bid_{k}_credits")
        if paid is not None and who is None:
            raise BadEntry(Text("{field}: say which player paid it", field=labels[f"bid_{k}_credits"]))
        if who is not None:
            if who in bids:
                raise BadEntry(Text("{field}: {player} is named twice; each player pays once", field=labels[f"bid_{k}"],
                                    player=who))
            if values.get(f"bid_{k}_credits") in (None, ""):  # a payer named with no amount (0 said is a payment):
                # a slip, not a payment of 0 that would give the builder 1 VP without a word
                raise BadEntry(Text("{field}: say how many credits {player} paid (0-3)",
                                    field=labels[f"bid_{k}_credits"], player=who))
            bids[who] = paid or 0
    if bids:
        out["bids"] = bids
    if values["card"] == "School of Alien Cultures":
        payers: set[str] = set()
        for key in ("paid_1", "paid_2", "paid_3"):
            if key in given and given[key] in payers:  # a slip for another player, who would lose 2 VP unnamed
                raise BadEntry(Text("{field}: {player} is named twice; each player pays once", field=labels[key],
                                    player=given[key]))
            payers |= {given[key]} if key in given else set()
        out["paid"] = {name: name in payers for name in others}
    return out


def _cell_text(cell: Any) -> str:
    """A station place as the player finds it from their Main Reactor (:func:`station_place`)."""
    return station_place(cell)


reactor_place = station_place
"""Where a cell lies from the player's Main Reactor, as the camera's questions say it (:func:`station_place`)."""


def _card_word(name: str) -> str:
    """A card's name as the players' edition prints it (the name as it is when the data does not know it)."""
    try:
        return catalogue().card(name).word
    except (KeyError, LookupError, ValueError):
        return name


class AmongCamera:
    """Among the Stars' part of the camera flow (issue 7 'At the table'): the card pass only (an enrolled deck);
    a :class:`~companion.camera.station.StationWatcher` per player, anchored on that player's Main Reactor (the Vak
    have their own, rulebook 'Races'); an added card is asked about as ``location_built`` (or ``reactor_built`` for
    a Power Reactor, rulebook 4 'Build a Power Reactor'), and what the rules engine finds when that event is
    previewed is shown at once (misplays with the rule and the fix); every accepted read is logged as
    ``station_read`` (the engine checks the whole station, findings only)."""

    covers = ("location", "reactor")
    passes = (CardPass(),)
    dice_set = None
    card_aspect = None

    @staticmethod
    def knows(card_id: str) -> bool:
        """Whether ``card_id`` is an Among the Stars card (a location, a reactor, a Main Reactor)."""
        try:
            catalogue().card(card_id)
        except LookupError:
            return False
        return True

    @property
    def anchor_word(self) -> str:
        """The Main Reactor's name as the players' edition prints it (said when stations cannot be told apart)."""
        return _card_word(MAIN_REACTOR)

    @staticmethod
    def _player(view: Mapping[str, Any], name: str) -> Mapping[str, Any]:
        return next((p for p in view["players"] if p["name"] == name), {})

    def anchor(self, player: str, view: Mapping[str, Any]) -> str | None:
        """``vak_main_reactor`` for a Vak player, else ``main_reactor``."""
        return VAK_MAIN_REACTOR if self._player(view, player).get("race") == "vak" else MAIN_REACTOR

    @property
    def anchor_words(self) -> dict[str, str]:
        """Each reactor a station grows from, as the players' edition prints it (names a station in a question)."""
        return {MAIN_REACTOR: _card_word(MAIN_REACTOR), VAK_MAIN_REACTOR: _card_word(VAK_MAIN_REACTOR)}

    def seats(self, view: Mapping[str, Any], seat_points: Mapping[str, Any],
              claims: Mapping[str, tuple[float, float]] | None = None) -> list[Seat]:
        """The players as the camera tells their stations apart on a table with no zones
        (:mod:`companion.camera.station_seats`): the reactor each station grows from (:meth:`anchor`), the station the
        players said is theirs (``claims``: name -> the reactor's place, frame px,
        :func:`companion.camera.station_ask.claims_in_force`), the cards recorded at their cells, and the seat tapped
        in the Players step (``seat_points``: name -> ``[x, y]`` frame px; a malformed one is left out)."""
        cat = catalogue()
        out = []
        for p in view["players"]:
            built = {}
            for row in p.get("station") or ():
                try:
                    card = cat.card(row["card"])
                    cell = (int(row["cell"][0]), int(row["cell"][1]))
                except (LookupError, TypeError, ValueError):   # a row the box cannot read tells nothing apart
                    continue
                if not card.is_main_reactor and not row.get("face_down"):
                    built[cell] = card.id
            point = _point(seat_points.get(p["name"])) if isinstance(seat_points, Mapping) else None
            out.append(Seat(p["name"], self.anchor(p["name"], view), built, point, (claims or {}).get(p["name"])))
        return out

    def watcher(
        self, player: str, view: Mapping[str, Any], confirm_reads: int, min_confidence: float
    ) -> StationWatcher:
        """A watcher whose accepted layout starts as the engine's station (a resumed game asks nothing again)."""
        cat = catalogue()
        w = StationWatcher(player, confirm_reads=confirm_reads, min_confidence=min_confidence,
                           main_reactor=self.anchor(player, view))
        for row in self._player(view, player).get("station", []):
            w.layout[(int(row["cell"][0]), int(row["cell"][1]))] = cat.card(row["card"]).id
        return w

    def observe(
        self, watcher: StationWatcher, player: str, seen: Any, view: Mapping[str, Any], flow: Any
    ) -> Observed | None:
        """One read of ``player``'s station -> misplays at once (previewed through the engine), questions for
        added cards, ``station_read``."""
        cat = catalogue()
        me = self._player(view, player)
        built = {(int(r["cell"][0]), int(r["cell"][1])): r for r in me.get("station", [])}
        before = dict(watcher.layout)
        change = watcher.observe(seen)
        notes = list(watcher.unsure)
        if change is None:
            return Observed(notes=notes) if notes else None
        out = Observed(misplays=self._misplays(flow, player, before, built, change), notes=notes)
        if len(change.missing) >= GROUPED_FROM:   # a hand over the station: one line, not one a card
            out.notes.append(plural("{n} card of the station is not seen (kept in the station)",
                                    "{n} cards of the station are not seen (kept in the station)",
                                    len(change.missing)))
        else:
            for name, cell in change.missing:
                out.notes.append(Text("{card} ({cell}) is not seen (kept in the station)", card=_card_word(name),
                                      cell=_cell_text(cell)))
        for name, a, b in change.moved:
            out.withdraw.append(self._proposal(player, name, a).key)
            if built.get(a, {}).get("card") == name:
                out.notes.append(Text("{card} was built {cell} and is now seen {seen}: put it back, or Undo the "
                                      "build and confirm the new place", card=_card_word(name), cell=_cell_text(a),
                                      seen=_cell_text(b)))
            else:
                out.proposals.append(self._proposal(player, name, b))
        for name, cell in change.added:
            if built.get(cell, {}).get("card") != name:
                out.proposals.append(self._proposal(player, name, cell))
        year = view.get("year", 1)
        station = []
        for row in change.station:
            cell = (int(row["cell"][0]), int(row["cell"][1]))
            card = cat.card(row["card"])
            here = built.get(cell) if built.get(cell, {}).get("card") == card.name else None
            item: dict[str, Any] = {"card": card.name, "cell": list(cell)}
            if card.is_reactor:
                item["cubes"] = here.get("cubes", card.start_cubes) if here else card.start_cubes
            if not card.is_main_reactor:
                item["year"] = here.get("year", year) if here else year
            station.append(item)
        out.log.append(("station_read", {"station": station}))
        return out

    def _misplays(self, flow: Any, player: str, before: Mapping[Place, str], built: Mapping[Place, Any],
                  change: StationChange) -> list[dict[str, Any]]:
        """What the engine finds wrong with each card this read placed: its build previewed after the cards the
        camera saw before that nobody confirmed yet (they lie on the table), a card seen moved from where it was
        built judged as if that build were undone."""
        cat = catalogue()
        moved_from = {a for _, a, _ in change.moved}
        unconfirmed = {
            c: cat.card(n).name
            for c, n in before.items()
            if c not in moved_from
            and not cat.card(n).is_main_reactor
            and built.get(c, {}).get("card") != cat.card(n).name
        }
        pending = [self._proposal(player, unconfirmed[c], c) for c in growth_order(set(built), unconfirmed)]
        judged = [self._proposal(player, name, cell) for name, cell in change.placed]
        undone = [seq for name, a, _ in change.moved if built.get(a, {}).get("card") == name
                  for seq in [_built_by(flow, player, a)] if seq is not None]
        rows = misplays(flow, pending + judged, judged, undone)
        for row in rows:  # the phone names the place as the questions do; "cell" stays [row, column]
            row["place"] = station_place(row["cell"])
        return rows

    @staticmethod
    def _proposal(player: str, name: str, cell: Any) -> Proposal:
        """The question a card seen at ``cell`` of ``player``'s station becomes, naming the place as the player finds
        it on their own station: so many cards above or below and right or left of their Main Reactor
        (:func:`station_place`)."""
        where = reactor_place(cell)
        if catalogue().card(name).is_reactor:
            return Proposal(
                player,
                Text("{player} built a Power Reactor: {place}?", player=player, place=where),
                "reactor_built",
                {"cell": list(cell)},
            )
        return Proposal(
            player,
            Text("{player} built {card}: {place}?", player=player, card=_card_word(name), place=where),
            "location_built",
            {"card": name, "cell": list(cell)},
        )


def _point(raw: Any) -> tuple[float, float] | None:
    """A tapped seat ``[x, y]`` (frame px) as a point, or None when it is missing or not two finite numbers (a word,
    even one of two digits, or a number too large for a float, from a game edited by hand)."""
    if isinstance(raw, (str, bytes)):
        return None
    try:
        x, y = (float(v) for v in raw)
    except (TypeError, ValueError, OverflowError):
        return None
    return (x, y) if math.isfinite(x) and math.isfinite(y) else None


def _built_by(flow: Any, player: str, cell: Place) -> int | None:
    """The seq of the build in force that put ``player``'s card at ``cell`` (``location_built`` / ``reactor_built``)."""
    applied = set(flow.session.replay().applied)
    return next((e.seq for e in reversed(flow.session.events())
                 if e.seq in applied and e.player == player and e.kind in (LOCATION_BUILT, REACTOR_BUILT)
                 and list(e.payload.get("cell") or ()) == list(cell)), None)


AMONG_CAMERA = AmongCamera()
AmongFlow.camera = AMONG_CAMERA  # declared after the class: the camera part uses this module's helpers
AMONG_FLOW = AmongFlow()
