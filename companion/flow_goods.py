"""The goods forms of a game whose goods lie on worlds (Race and Roll for the Galaxy): which of a player's worlds a
phone offers for a good placed (those with room) and for a good taken off (those a good lies on), and why each other
world of theirs is refused. A flow's :meth:`companion.flow_spec.FlowBase.choices_now` hands its worlds to
:func:`goods_choices`; named in :mod:`companion.flow_spec` too, so a flow module imports its API from one place.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from companion.flow_forms import Form
from companion.i18n import Text

__all__ = ["GoodsWords", "GoodsWorld", "goods_choices"]


@dataclass(frozen=True)
class GoodsWorld:
    """One of a player's worlds that can hold goods, as the game's view holds it.

    Attributes:
        name: the world's name, as the goods forms list it (``"Spice World"``).
        goods: goods on it now, 0 or more.
        room: the most goods it holds (Race for the Galaxy, Produce phase: 1; Roll for the Galaxy, p.7 Produce: 1,
            2 with Galactic Reserves), 1 or more.

    Raises:
        ValueError: ``goods`` below 0 or ``room`` below 1, naming the world.
    """

    name: str
    goods: int
    room: int

    def __post_init__(self) -> None:
        if self.goods < 0 or self.room < 1:
            raise ValueError(f"goods world {self.name!r}: goods must be 0 or more and room 1 or more, "
                             f"got goods {self.goods}, room {self.room}")

    @property
    def full(self) -> bool:
        """No room for another good."""
        return self.goods >= self.room


@dataclass(frozen=True)
class GoodsWords:
    """What the goods forms say, in the game's own rules (each a :class:`companion.i18n.Text`, said in the phone's
    language).

    Attributes:
        no_world: instead of both lists, when none of the player's worlds holds goods (with the rule).
        all_full: instead of the list of worlds with room, when every one is full.
        none_on: instead of the list of worlds a good lies on, when none holds one.
        full: why a full world is refused for a good placed (the problem alone: the form's name is put before it).
        empty: why a world with no good is refused for a good taken off (the problem alone).
    """

    no_world: Any
    all_full: Any
    none_on: Any
    full: Callable[[GoodsWorld], Any]
    empty: Callable[[GoodsWorld], Any]


def goods_choices(worlds: Sequence[GoodsWorld], place: Form, take: Form, field: str,
                  words: GoodsWords) -> dict[str, dict[str, Any]]:
    """The choices a player's goods forms leave them, in the shape of
    :meth:`companion.flow_spec.FlowBase.choices_now`.

    Args:
        worlds: the player's worlds that can hold goods, in the order the forms list them (the player's other cards
            left out: Race's developments and worlds without goods, Roll's gray worlds).
        place: the form of a good placed on a world (Race: Good placed, Produce phase; Roll: Good placed, p.7 Produce).
        take: the form of a good taken off a world (Race: Good consumed or sold, Consume phase; Roll: Good shipped,
            p.7 Ship).
        field: the world's field in both forms (``"world"``).
        words: what the forms say (:class:`GoodsWords`).

    Returns:
        ``{place.id: {field: {"choices": worlds with room, "none": words.all_full, "why": {full world: "{form}:
        {problem}"}}}, take.id: {field: {"choices": worlds a good lies on, "none": words.none_on, "why": {world with
        no good: "{form}: {problem}"}}}}``; with no world at all, each field is ``{"choices": [], "none":
        words.no_world}``.
    """
    if not worlds:
        left = {"choices": [], "none": words.no_world}
        return {place.id: {field: left}, take.id: {field: dict(left)}}
    placed = {"choices": [w.name for w in worlds if not w.full], "none": words.all_full,
              "why": {w.name: Text("{form}: {problem}", form=place.label, problem=words.full(w))
                      for w in worlds if w.full}}
    taken = {"choices": [w.name for w in worlds if w.goods], "none": words.none_on,
             "why": {w.name: Text("{form}: {problem}", form=take.label, problem=words.empty(w))
                     for w in worlds if not w.goods}}
    return {place.id: {field: placed}, take.id: {field: taken}}
