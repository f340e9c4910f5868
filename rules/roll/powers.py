"""Which development powers the Roll for the Galaxy engine applies, and reminders for the rest.

Roll for the Galaxy, p.6 Develop: powers act in the phase they show (Reassign powers in the
Assign step only), every time their condition is met, and are mandatory unless they say
"may"; cost discounts are always mandatory (Roll for the Galaxy, p.10 FAQ).

The engine *applies* a power when it changes something the engine tracks or scores:
credits, VP chips, dice counts, goods capacity, tile costs, or the Reassign moves it checks
after Reveal. Every other power (and the choices inside applied ones, such as which die
to remove) is a *reminder*, shown in the phase where it acts.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from rules.roll.data import Catalogue, Development, World

__all__ = ["APPLIED", "REMINDED", "Reminder", "adjusted_cost", "reassign_budget", "reminder_phases", "reminders_for"]

APPLIED: Mapping[str, str] = {
    # credits at the end of a phase
    "Space Piracy": "+$1 per 2 red dice in the Citizenry, rounded up, at the end of Ship",
    "Consumer Markets": "+$1 per good on blue worlds at the end of Produce",
    "Genetics Lab": "+$2 per green die that is a good at the end of Produce",
    "Galactic Religion": "+$1 per blue die in the Citizenry at the end of Develop",
    "Free Trade Association": "+$2 at the end of Ship",
    "Galactic Investors": "+$2 at the end of Develop",
    "Merchant Guild": "+$2 at the end of Produce",
    "Mining League": "+$1 per good on brown worlds at the end of Produce",
    "Robot Surveyors": "+$2 at the end of Settle",
    "Space Tourism": "+$1 at the end of Ship, +$1 more with all the highest-cost worlds",
    "Technology Unions": "+$1 at the end of Explore and of Produce when alone with the most developments",
    "Galactic Salon": "+1 VP chip at the end of Ship",
    # credits or VP per action
    "Alien Archaeology": "Stock with a yellow explorer pays $4",
    "Mining Industry": "+$1 per good Consumed from a brown world",
    "Export Duties": "+$1 per Trade",
    "Galactic Demand": "+$2 per Trade from a blue world",
    "Jumpdrive Research": "+$1 per Trade from a brown world",
    "New Economy": "+$2 per Consume",
    "Trade Levies": "+$1 per Consume",
    "Galactic Renaissance": "+1 VP chip per Consume",
    "Minor Research Labs": "+1 VP chip per Consume from a green or yellow world",
    "Space Refineries": "+1 VP chip per Consume from a brown world",
    "Galactic Bankers": "pays $1 for 1 VP chip on a Trade reported with 'bankers'",
    "Public Works": "+$1 per other development completed",
    "Galactic Recycling": "+$1 per other development or world completed",
    "Terraforming Robots": "+$1 per world completed, +$1 more for a brown one",
    # dice counts
    "Conscription": "two red dice into the cup when built",
    "Information Tech": "two blue dice into the cup when built",
    "Space Marines": "$1 and one red die into the cup when built",
    "Galactic Federation": "checks developers sent to the cup (up to 2 per later development)",
    "Galactic Exchange": "checks settlers sent to the cup (1 or 2 per world)",
    "New Galactic Order": "checks red settlers sent to the cup",
    # goods capacity
    "Galactic Reserves": "non-gray worlds hold two goods",
    # tile costs
    "Investment Credits": "later developments cost 1 less (at least 1)",
    "Biological Adaptation": "Reassign developments cost 1 less (at least 1)",
    "Replicant Robots": "worlds cost 1 less (at least 1)",
    "Free Trade Zone": "gray worlds cost 2 less (at least 2)",
    "Alien Uplift Blueprints": "green and yellow worlds cost 1 less (at least 1)",
    # Reassign moves checked after Reveal (Roll for the Galaxy, p.3 Assign; digest section 9)
    "Backup Planning": "allows more than one Dictate",
    "Galactic Mandate": "a Dictate moves up to 3 workers",
    "Colonial Affinity": "1 move",
    "Diversification": "1 move",
    "Executive Power": "2 moves",
    "Galactic Influence": "1 move",
    "Homeworld Patriotism": "2 moves",
    "Hydroponics Guild": "1 move",
    "Isolation Policy": "2 moves",
    "Local Subsidies": "1 move",
    "Mad Scientists": "2 moves when alone with the most blue worlds, else 1",
    "Nanotechnology": "2 moves",
    "Operations Affinity": "1 move",
    "Propaganda Campaign": "2 moves",
    "Shipping Affinity": "1 move",
    "Space Mercenaries": "1 move",
    "System Diversification": "2 moves",
    "Technology Affinity": "1 move",
}
"""Development name -> what the engine does with its power."""

REMINDED: frozenset[str] = frozenset(
    {
        # nothing the engine tracks: reminders only
        "Advanced Logistics",
        "Alien Research Ship",
        "Alien Research Team",
        "Improved Reconnaissance",
        "Major Research Labs",
        "Organic Shipyards",
        "Space Docks",
        # applied, but the player chooses something the engine cannot see
        "Conscription",
        "Information Tech",
        "Space Marines",
        "Galactic Federation",
        "Galactic Exchange",
        "New Galactic Order",
        "Galactic Bankers",
        # every Reassign power: the player chooses the moves; the engine checks the count
        "Backup Planning",
        "Galactic Mandate",
        "Colonial Affinity",
        "Diversification",
        "Executive Power",
        "Galactic Influence",
        "Homeworld Patriotism",
        "Hydroponics Guild",
        "Isolation Policy",
        "Local Subsidies",
        "Mad Scientists",
        "Nanotechnology",
        "Operations Affinity",
        "Propaganda Campaign",
        "Shipping Affinity",
        "Space Mercenaries",
        "System Diversification",
        "Technology Affinity",
    }
)
"""Developments shown as reminders in the phase where they act."""


@dataclass(frozen=True)
class Reminder:
    """A power for the players to remember: the tile, the phase (or ``assign``) it acts in, the power text."""

    player: str
    tile: str
    phase: str
    text: str

    def to_json(self) -> dict[str, str]:
        return {"player": self.player, "tile": self.tile, "phase": self.phase, "text": self.text}


def reminder_phases(dev: Development) -> tuple[str, ...]:
    """Where a development's power acts: ``assign`` for Reassign powers, ``develop`` for
    one-off powers (they act when built), otherwise its phases (Roll for the Galaxy, p.6)."""
    if dev.kind == "reassign":
        return ("assign",)
    if dev.kind == "immediate":
        return ("develop",)
    return dev.phases


def reminders_for(player: str, developments: Iterable[str], cat: Catalogue, phase: str | None = None) -> list[Reminder]:
    """Reminders of a player's developments (all phases, or only ``phase``)."""
    out = []
    for name in developments:
        if name not in REMINDED:
            continue
        dev = cat.developments[name]
        for ph in reminder_phases(dev):
            if phase is None or ph == phase:
                out.append(Reminder(player=player, tile=name, phase=ph, text=dev.power))
    return out


def adjusted_cost(tile: Development | World, owned: Iterable[str], cat: Catalogue) -> int:
    """Workers a construction-zone tile needs after the owner's discounts.

    Roll for the Galaxy, p.10 FAQ and digest section 9: Investment Credits (later
    developments), Biological Adaptation (Reassign developments), Replicant Robots (worlds)
    and Alien Uplift Blueprints (green and yellow worlds) take 1 off, never below 1; Free
    Trade Zone takes 2 off gray worlds, never below 2. FAQ: a gray world of cost 3 or 4
    costs 2 with Free Trade Zone, or 1 with Replicant Robots added, so Free Trade Zone is
    applied first. Discounts never raise a cost (a cost-1 gray world stays 1).
    """
    owned = set(owned)
    cost = tile.cost
    if isinstance(tile, Development):
        if "Investment Credits" in owned:
            cost = min(cost, max(1, cost - 1))
        if "Biological Adaptation" in owned and tile.is_reassign:
            cost = min(cost, max(1, cost - 1))
        return cost
    if "Free Trade Zone" in owned and tile.colour == "gray":
        cost = min(cost, max(2, cost - 2))
    if "Alien Uplift Blueprints" in owned and tile.colour in ("green", "yellow"):
        cost = min(cost, max(1, cost - 1))
    if "Replicant Robots" in owned:
        cost = min(cost, max(1, cost - 1))
    return cost


def reassign_budget(owned: Iterable[str], dictates: int, alone_most_blue: bool, cat: Catalogue) -> int:
    """The most workers a player's Reassign powers can move this round (an upper bound).

    Roll for the Galaxy, p.3 Assign: each Dictate moves one other worker (three with
    Galactic Mandate); each Reassign power is used at most once per round, moving up to
    its ``reassign.workers`` (Mad Scientists: 2 only when alone with the most blue worlds).
    """
    owned = list(owned)
    per_dictate = 3 if "Galactic Mandate" in owned else 1
    total = dictates * per_dictate
    for name in owned:
        dev = cat.developments.get(name)
        if dev is None or not dev.reassign:
            continue
        workers = int(dev.reassign.get("workers", 0))
        if "workers_unless_alone_most_blue_worlds" in dev.reassign and not alone_most_blue:
            workers = int(dev.reassign["workers_unless_alone_most_blue_worlds"])
        total += workers
    return total
