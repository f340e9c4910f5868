"""Race for the Galaxy's payload fields in the players' words: the labels the phone's report forms show
(:mod:`companion.flows.race` takes them from here), which a refusal of a field names too
(:attr:`rules.engine.GameBase.field_words`, :mod:`rules.refusals`), so a form and a refusal cannot drift apart.
"""

from __future__ import annotations

from rules.text import Text

__all__ = ["FIELD_WORDS", "SETTLE_METHODS"]

FIELD_WORDS = {
    "card": Text("Card"), "start_world.card": Text("Start world"), "world": Text("World"),
    "cards": Text("Cards"), "hands": Text("Cards in hand"), "vp_changed.delta": Text("VP"),
    "actions": Text("Action card"), "choices": Text("Action cards revealed"), "paid": Text("Cards paid"),
    "method": Text("How the world is placed"),
}
"""A Race for the Galaxy event's payload fields as the phone's forms label them (``"<kind>.<key>"`` where one form
labels a field its own way: the card dealt at setup is the Start world, Race for the Galaxy, Setup; the VP chips taken
from the pool, Consume phase), said by a refusal of the field. ``paid`` (the cards discarded to place a card, Develop
and Settle phases) and ``choices``/``hands`` (every player's action cards, every player's hand at the end of the
round) have no form of their own: a tool or a file gives them, as ``method`` (how a world is placed, Settle phase:
:data:`SETTLE_METHODS`)."""

SETTLE_METHODS = {"conquer": Text("conquer (Military)"), "pay": Text("pay (cards)")}
"""How a world is placed in the Settle phase (Race for the Galaxy, Settle phase: a military world is conquered with
Military, a non-military world paid for with cards from hand; Contact Specialist pays for a military world), in the
players' words."""
