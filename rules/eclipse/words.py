"""Eclipse's words in messages, in the players' words (:mod:`rules.text`): resources, structures, the phases of a
round; technologies, Developments and Discoveries as the players' rulebook names them (:func:`component_word`,
:mod:`rules.names`); the GCDS as the Greek rulebook prints it ("ΓΚΑΣ", Rise of the Ancients p.6). Other components
keep the names printed on them: sectors and species, which the Greek rulebook too prints in Latin letters."""

from __future__ import annotations

from rules.eclipse.data import DEVELOPMENTS, DISCOVERIES
from rules.names import term
from rules.text import AND, Listing, Text, plural

__all__ = ["ACTION_WORDS", "ANCIENTS_WORD", "CANNON_WORDS", "CELL_WORDS", "MISSILE_WORDS", "MODULE_WORDS", "PART_WORDS",
           "PHASE_WORDS", "RESOURCE_WORDS", "SHIP_WORDS", "STRUCTURE_WORDS", "component_word", "ship_word",
           "structure_word"]


def component_word(name: str) -> str:
    """A technology, Rare Technology, Development or Discovery by its English name (``"Mining Colony"``, what the
    rules keep and a phone posts) as the players' rulebook names it: a :class:`rules.names.Term` of
    ``eclipse.development``, ``eclipse.discovery`` or ``eclipse.technology`` (Greek: the Rise of the Ancients
    rulebook's own names, English where it gives none; Polish and Hungarian: English, no rulebook). Any other name
    (one the data does not know) is returned as it is."""
    # Polish and Hungarian keep the English names on purpose: shared/seeds/ holds no Eclipse rulebook in either
    # language (its Hungarian rulebook, seed 004, is Among the Stars'; its Polish one, seed 003, Race for the
    # Galaxy's), so no printed Polish or Hungarian name can be cited, and players there name the tiles as printed, as
    # the Polish Race rulebook keeps its card names in English (rules/data/race/names.json). Ordinary words (ships,
    # Orbital, Monolith, Shrine) are said in the player's language from the message catalogue; a name printed on one
    # tile is not made up. Greek: the Rise of the Ancients rulebook's own names (seed 001), English where it has none.
    kind = ("eclipse.development" if name in DEVELOPMENTS else "eclipse.discovery" if name in DISCOVERIES
            else "eclipse.technology")
    return term(kind, name)

RESOURCE_WORDS = {"money": Text("Money"), "science": Text("Science"), "materials": Text("Materials")}
"""The three resources (a Shrine's or a planet's colour)."""

ANCIENTS_WORD = Text("Ancients")
"""The Ancients (Rise of the Ancients p.6) as a target or a side in combat, in the players' words."""

STRUCTURE_WORDS = {"orbital": Text("Orbital"), "monolith": Text("Monolith"), "shellworld": component_word("Shellworld"),
                   "warp_portal": component_word("Warp Portal"),
                   "ancient_warp_portal": component_word("Ancient Warp Portal"),
                   "ancient_orbital": component_word("Ancient Orbital"), "shrine": Text("Shrine")}
"""What may be built or laid on a hex (:data:`rules.eclipse.placement.STRUCTURES`): a Development's or a Discovery's
tile by its name (:func:`component_word`: the one name the score rows, findings and forms all give it), the pieces
built (Orbital, Monolith) and the Shrines as words."""

SHIP_WORDS = {"Interceptor": Text("Interceptor"), "Cruiser": Text("Cruiser"), "Dreadnought": Text("Dreadnought"),
              "Starbase": Text("Starbase"), "Ancient Cruiser": Text("Ancient Cruiser"),
              "Ancient Dreadnought": Text("Ancient Dreadnought"), "GCDS": Text("GCDS")}
"""The ship types (:data:`rules.eclipse.data.SHIP_TYPES`), the Ancients' ships and the Galactic Center's guardian (the
GCDS: Greek "ΓΚΑΣ", Rise of the Ancients p.6), by their English name (what the rules keep and a phone posts)."""


def ship_word(name: str | None) -> str | None:
    """A ship (``"Cruiser"``, ``"Ancient Dreadnought"``, ``"GCDS"``) in the players' words; a name the game does not
    know as it is; None for None."""
    return None if name is None else SHIP_WORDS.get(name) or name


PHASE_WORDS = {"action": Text("Action"), "combat": Text("Combat"), "upkeep": Text("Upkeep"), "cleanup": Text("Cleanup")}
"""The phases of a game round."""


def structure_word(structure: str) -> str:
    """A structure (``"warp_portal"``) in the players' words."""
    return STRUCTURE_WORDS.get(structure) or structure.replace("_", " ")

PART_WORDS = {"computers": Text("Computers (+)"), "shields": Text("Shields (-)"), "hull": Text("Hull"),
              "initiative": Text("Initiative"), "movement": Text("Movement (the drives' total)"),
              "cannons": Text("Cannons"), "missiles": Text("Missiles")}
"""A ship blueprint's values (Eclipse, Upgrade action: the parts on a blueprint), as the blueprint form labels them:
the computers' and shields' sums, hull points, initiative, the drives' Movement, the cannons and missiles by colour."""

CANNON_WORDS = {"yellow": Text("Ion cannons (yellow dice)"), "orange": Text("Plasma cannons (orange dice)"),
                "red": Text("Antimatter cannons (red dice)")}
MISSILE_WORDS = {"yellow": Text("Ion missiles (yellow dice)"), "orange": Text("Plasma missiles (orange dice)"),
                 "red": Text("Antimatter missiles (red dice)")}
"""A blueprint's cannons and missiles of one die colour (Eclipse, Combat: each weapon rolls its colour's dice)."""

CELL_WORDS: dict[str | None, Text] = {None: Text("Hex [q, r]"), "from": Text("From hex [q, r]"),
                                      "to": Text("To hex [q, r]")}
"""The hexes an event's payload names (its own ``q`` and ``r``: None; ``from``; ``to``), as the phone's forms label
them (a refusal names the field so)."""

ACTION_WORDS = {"explore": Text("Explore"), "influence": Text("Influence"), "research": Text("Research"),
                "upgrade": Text("Upgrade"), "build": Text("Build"), "move": Text("Move")}
"""The six actions (a player's turn)."""

MODULE_WORDS = {
    "ancient_homeworlds": Text("the ancient homeworlds module"), "hives": Text("the hives module"),
    "warp_portals": Text("the warp portals module"), "developments": Text("the developments module"),
    "alliances": Text("the alliances module"), "rare_technologies": Text("the rare technologies module"),
    "galactic_center": Text("the galactic center module"),
}
"""Each Rise of the Ancients module in players' words (a refusal names it: "the alliances module is for 4-9
players")."""


def boards_refusal(entries: tuple[str, ...], boards: int) -> Text:
    """The refusal of species that more players chose than the player boards carrying them (Rise of the Ancients
    p.3: every board is double-sided and one player plays it; Magellan is on the back of the three new boards): each
    species once, the players counted, the boards a count its words agree with. ``entries`` in seat order, repeats
    kept (``("Planta", "Planta")``: "2 players chose Planta, and only 1 player board shows it")."""
    names = tuple(dict.fromkeys(entries))
    if len(names) == 1:
        return plural("{players} players chose {value}, and only {n} player board shows it (each board is double-sided "
                      "and one player plays it; Rise of the Ancients p.3: Magellan is on the back of the three new "
                      "boards)",
                      "{players} players chose {value}, and only {n} player boards show it (each board is double-sided "
                      "and one player plays it; Rise of the Ancients p.3: Magellan is on the back of the three new "
                      "boards)", boards, players=len(entries), value=names[0])
    return plural("{players} players chose {value}, and only {n} player board shows them (each board is double-sided "
                  "and one player plays it; Rise of the Ancients p.3: Magellan is on the back of the three new boards)",
                  "{players} players chose {value}, and only {n} player boards show them (each board is double-sided "
                  "and one player plays it; Rise of the Ancients p.3: Magellan is on the back of the three new boards)",
                  boards, players=len(entries), value=Listing(names, AND))
