"""Among the Stars' payload fields in the players' words: the labels the phone's report forms show
(:mod:`companion.flows.among` takes them from here), which a refusal of a field names too
(:attr:`rules.engine.GameBase.field_words`, :mod:`rules.refusals`), so a form and a refusal cannot drift apart.
"""

from __future__ import annotations

from rules.text import Text

__all__ = ["FIELD_WORDS", "PLACE_LABEL"]

PLACE_LABEL = Text("Cell: tap it on your station")
"""A cell field's label: the phone page draws the player's station and the free places next to it to tap."""

FIELD_WORDS = {
    "card": Text("Location"), "cell": PLACE_LABEL, "credits_changed.delta": Text("Credits +/-"),
    "vp_changed.delta": Text("VP +/-"), "objective": Text("Objective"), "target": Text("Player"),
    "counts": Text("Locations compared"),
}
"""An Among the Stars event's payload fields as the phone's forms label them (``"<kind>.<key>"`` where one form
labels a field its own way: a correction's ``delta`` is credits, rulebook 4 'The three actions', or VP, rulebook 5
'Round end'; a Conflict card's ``target`` and ``counts``, rulebook 7 'Aggressive mode'), said by a refusal of the
field."""
