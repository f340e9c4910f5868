"""The main loop as the desk sees it (:class:`companion.desk.Table`): what is recorded, who holds which seat, which
phones are here, and carrying out one action in the current mode (:class:`DeskTable`, mixed into
:class:`companion.app.MainLoop`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from companion.action_scope import SETUP_SEATS
from companion.action_words import action_word
from companion.actions import SEAT_ACTIONS, Action, Posted, posted
from companion.desk import Changes
from companion.flow_actions import Outcome
from companion.i18n import Text
from companion.modes import ModeName

__all__ = ["DeskTable", "MODE_WORDS"]

MODE_WORDS = {
    ModeName.DICE: Text("the dice reader"), ModeName.SETUP: Text("a game being set up"),
    ModeName.PLAY: Text("a game in play"), ModeName.SCORES: Text("a game's scores"),
    ModeName.ENROLL: Text("the dice enrollment"), ModeName.CHOOSE: Text("the game chooser"),
    ModeName.HISTORY: Text("the games played before"), ModeName.CALIBRATION: Text("the table check"),
    ModeName.SETTINGS: Text("the settings"),
}
"""Where the box is (a :class:`ModeName`), in the players' words: an action that does not apply there says so."""


class DeskTable:
    """The desk's view of the main loop (:class:`companion.desk.Table`), mixed into :class:`companion.app.MainLoop`:
    it uses the loop's ``mode`` (:class:`companion.modes.Mode`), ``pairing`` (:class:`companion.pairing.PairingBook`),
    ``switchboard`` (:class:`companion.switchboard.Switchboard`), ``hub`` (:class:`companion.hub.StateHub`),
    ``no_screen``, ``advance()`` and ``_stop``."""

    mode: Any
    pairing: Any
    switchboard: Any
    hub: Any
    no_screen: bool
    _stop: bool
    advance: Callable[[], None]

    @property
    def store(self) -> Any:
        """The session database (the setup's before its game starts; None in the enrollment)."""
        return self.mode.store

    @property
    def game_id(self) -> str:
        """The session's id (the setup's while a game is set up: the session takes it)."""
        return self.mode.game_id

    def version(self) -> int:
        """The log's last seq (the setup's while a game is set up)."""
        return self.mode.version()

    def changes_since(self, version: int) -> Changes:
        """What was recorded after ``version``: events, their players, whether the round or stage moved."""
        return self.mode.changes_since(version)

    def seat_of(self, action: Mapping[str, Any]) -> str | None:
        """The player whose seat ``action`` acts for: a report's (or claim's) player, the player a setup action
        changes, a camera question's player; None for table-wide actions."""
        act = posted(action)
        if act is None:
            return None
        if act.action in SEAT_ACTIONS or act.action in SETUP_SEATS:
            player = act.payload.player
            return player if isinstance(player, str) and player in self.mode.names else None
        return self.mode.seat_of(act)

    def claims(self) -> Mapping[str, str]:
        """Claimed seats: player -> client id."""
        return self.pairing.claims

    def owners(self) -> frozenset[str]:
        """Client ids of the owner phones (allowed on the touchscreen)."""
        return frozenset(self.pairing.owners)

    def private_report(self, action: Mapping[str, Any]) -> bool:
        """Whether ``action`` reports on a private form (hidden information: only the seat's own phone sends it)."""
        act = posted(action)
        return act is not None and self.mode.private_report(act)

    def in_flow(self) -> bool:
        """Whether a game flow (or its setup) runs, not the d6 reader."""
        return self.mode.in_flow

    def screenless(self) -> bool:
        """Whether the box runs without a touchscreen (``--no-screen``): a joined phone confirms in its place."""
        return self.no_screen

    def leaving(self, action: Mapping[str, Any]) -> tuple[Any, bool] | None:
        """The game being played that ``action`` would move the box off (:meth:`Switchboard.leaving`), or None."""
        act = posted(action)
        return None if act is None else self.switchboard.leaving(act)

    def quiet_for(self, client: str) -> float:
        """Seconds since the phone ``client`` was last heard from (the phone view records every request)."""
        return self.hub.presence.quiet_for(client)

    def heard_since_start(self, client: str) -> bool:
        """Whether the phone ``client`` made a request since the box started (the phone view records every request)."""
        return self.hub.presence.heard_since_start(client)

    def keep_asking(self) -> None:
        """Keep the table's question for a restart (:meth:`Switchboard.keep_asking`)."""
        self.switchboard.keep_asking()

    def ask_table(self, action: Mapping[str, Any], question: str) -> float:
        """The touchscreen asks the table ``question`` about a phone's refused ``action`` (0), or not yet (the seconds
        until it will: :meth:`Switchboard.ask_table`)."""
        return self.switchboard.ask_table(action, question)

    def memo(self) -> tuple[Any, ...]:
        """The in-memory state an action may change before its write commits (put back by :meth:`restore`)."""
        return self.mode, self.pairing, self.pairing.memo(), self.mode.memo(), self.switchboard.memo()

    def restore(self, memo: tuple[Any, ...]) -> None:
        """Put back :meth:`memo` after an action's writes were rolled back (a Start not written: the setup again;
        a move to another game not kept: the game before)."""
        self.mode, self.pairing, pairing, state, board = memo
        self.pairing.restore(pairing)
        self.mode.restore(state)
        self.switchboard.restore(board)

    def apply(self, action: Mapping[str, Any]) -> Outcome:
        """Carry out one action in the current mode, then move to the mode it leads to; inside the desk's
        transaction."""
        act = posted(action)
        if act is None:
            return Outcome([], "", Text("unknown action {action}", action=action_word(action.get('action'))))
        if act.action in (Action.CLAIM_SEAT, Action.RELEASE_SEAT, Action.REVOKE_PHONES):
            return self._pairing_action(act)
        outcome = self.switchboard.handle(act)  # the box's own: moving between games, settings, owner phones
        if outcome is not None:
            return outcome
        outcome = self.mode.handle(act)
        if outcome is None and act.action is Action.QUIT:
            self._stop = True
            outcome = Outcome([], Text("stopping"))
        if outcome is None:
            return Outcome(
                [],
                "",
                Text("{action} does not apply now ({mode})", action=action_word(act.action),
                     mode=MODE_WORDS.get(self.mode.name, self.mode.name.value)),
            )
        self.advance()
        return outcome

    def _pairing_action(self, act: Posted) -> Outcome:
        names, p = self.mode.names, act.payload
        if act.action is Action.CLAIM_SEAT:
            message = self.pairing.claim(p.player, p.client, names, take_over=True)  # the desk said who may
        elif act.action is Action.RELEASE_SEAT:
            message = self.pairing.release(p.player, names)
        else:
            message = self.pairing.revoke()
        return Outcome([], message, changed=True)
