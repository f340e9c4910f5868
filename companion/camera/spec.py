"""A game's part of the camera flow (``spec.camera`` of a flow in ``companion/flows/``), and the tableau games' one.

The camera part says which readers the game uses and in which passes (:mod:`companion.camera.passes`), which
watcher follows each player's zone, and what a change it sees becomes (a :class:`~companion.camera.questions.Proposal`);
it never judges a placement: what is wrong with one is previewed through the rules engine
(:mod:`companion.camera.preview`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from companion.camera.passes import CardPass, DiceSet, ReadPass
from companion.camera.questions import Observed, Proposal
from companion.i18n import Text

__all__ = ["CameraSpec", "TableauCamera"]


class CameraSpec(Protocol):
    """A game's part of the camera flow.

    Attributes:
        covers: ids of the report forms the camera fills in (the phone shows them as a fallback).
        passes: the readers it uses and when (:class:`~companion.camera.passes.CardPass`,
            :class:`~companion.camera.passes.DicePass`, :class:`~companion.camera.passes.CountPass`,
            :class:`~companion.camera.passes.MapPass`).
        dice_set: the dice its dice passes read (:class:`~companion.camera.passes.DiceSet`), or None.
        card_aspect: the long/short side ratio of the cards or tiles its card pass reads (1.0: square tiles), or
            None (not said): a dice read with no deck to identify them leaves out the unsure dice that lie on them
            (their print, :attr:`vision.readers.RollDiceAdapter.unknown_cards`).
    """

    covers: tuple[str, ...]
    passes: tuple[ReadPass, ...]
    dice_set: DiceSet | None
    card_aspect: float | None

    def knows(self, card_id: str) -> bool:
        """Whether ``card_id`` (an id of an enrolled deck: a card, tile or sector hex) is one of this game's."""
        ...

    def anchor(self, player: str, engine_view: Mapping[str, Any]) -> str | None:
        """The card id each player's cell grid is counted from (``CardsConfig.anchor_id``), or None."""
        ...

    def watcher(self, player: str, engine_view: Mapping[str, Any], confirm_reads: int, min_confidence: float) -> Any:
        """A new watcher for ``player``'s zone, seeded with what the rules already hold."""
        ...

    def observe(self, watcher: Any, player: str, seen: Sequence[Any], engine_view: Mapping[str, Any],
                flow: Any) -> Observed | None:
        """Feed one read of ``player``'s zone (:class:`companion.camera.watch.SeenCard` list); what to ask.
        ``flow``: the :class:`companion.flow.GameFlow` (its :meth:`~companion.flow.GameFlow.preview` judges what a
        proposal would cause)."""
        ...

    def map_watcher(self, engine_view: Mapping[str, Any], confirm_reads: int, min_confidence: float) -> Any:
        """With a :class:`~companion.camera.passes.MapPass`: a new watcher of the shared map
        (:class:`companion.camera.hexmap.MapWatcher`), seeded with the map the rules already hold."""
        ...

    def observe_map(
        self, watcher: Any, seen: Sequence[Any], engine_view: Mapping[str, Any], flow: Any
    ) -> Observed | None:
        """With a :class:`~companion.camera.passes.MapPass`: feed one read of the map
        (:class:`companion.camera.hexmap.SeenHex` list); what to ask, the misplays the engine previews."""
        ...


class TableauCamera:
    """The camera part shared by the tableau games (Race for the Galaxy cards, Roll for the Galaxy
    tiles): a :class:`companion.camera.watch.TableauWatcher` per player; each card seen but not in the rules'
    tableau becomes a question (:meth:`proposal`); one recorded but not seen becomes a note (never
    removed). Subclasses say how a reader id resolves to a name, what the rules' tableau is, and
    what a new card becomes; they may add dice passes to :attr:`passes`."""

    covers: tuple[str, ...] = ()
    passes: tuple[ReadPass, ...] = (CardPass(),)
    dice_set: DiceSet | None = None
    card_aspect: float | None = None

    def resolve(self, card_id: str) -> str | None:
        """Reader id -> the card's name in the game's data (None / LookupError: not a card of this game)."""
        raise NotImplementedError

    def knows(self, card_id: str) -> bool:
        """Whether :meth:`resolve` finds ``card_id`` among the game's cards or tiles."""
        try:
            return self.resolve(card_id) is not None
        except (LookupError, ValueError):
            return False

    def tableau(self, view: Mapping[str, Any], player: str) -> list[str]:
        """The rules' tableau of ``player`` (names)."""
        raise NotImplementedError

    def proposal(self, player: str, name: str, view: Mapping[str, Any]) -> Proposal | None:
        """The question a new card in ``player``'s tableau becomes (None: not asked now)."""
        raise NotImplementedError

    def asking(self, view: Mapping[str, Any]) -> bool:
        """Whether new cards are asked about now (reads are not even fed to the watchers otherwise, so
        a card seen then is asked about once asking starts)."""
        return True

    def anchor(self, player: str, view: Mapping[str, Any]) -> str | None:
        """Tableaus have no anchor card (rows and columns only)."""
        return None

    def watcher(self, player: str, view: Mapping[str, Any], confirm_reads: int, min_confidence: float) -> Any:
        from companion.camera.watch import TableauWatcher

        return TableauWatcher(player, self.resolve, confirm_reads=confirm_reads, min_confidence=min_confidence)

    def observe(
        self, watcher: Any, player: str, seen: Sequence[Any], view: Mapping[str, Any], flow: Any
    ) -> Observed | None:
        """Questions for the cards added, notes for the cards missing and the unsure ones; an empty
        :class:`Observed` when the reads agree on exactly the rules' tableau (nothing is proposed any more)."""
        if not self.asking(view):
            return None
        change = watcher.observe(seen, self.tableau(view, player))
        notes = list(watcher.unsure)
        if change is None:
            return Observed(notes=notes) if notes or watcher.matches else None
        out = Observed(notes=notes)
        for name in change.added:
            p = self.proposal(player, name, view)
            if p is not None:
                out.proposals.append(p)
        out.notes += [
            Text("{card} is recorded for {player} but not seen", card=name, player=player) for name in change.missing
        ]
        return out
