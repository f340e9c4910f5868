"""The box's own actions, whatever mode it is in: moving between the chooser, the games, the history and the
settings; the settings themselves; the phones the table allows to change them (owners).

The main loop (:class:`companion.app.MainLoop`) asks its :class:`Switchboard` before the current mode: an action
of the box (:data:`companion.actions.NAVIGATION`, ``change_setting``, ``owner_*``, ``export_game``) is carried out
here, inside the desk's transaction like every action. Moving keeps a trail: Games, History and Settings open
over what was showing, and Back returns to it (a game left for the chooser stays open, its camera part with it);
choosing or resuming a game starts a new trail. Every move is kept in the database (where the box is,
:meth:`companion.library.Library.keep_place`), so a restart comes back to it, and the phones stay joined: the
join secret goes with the box from game to game (:meth:`companion.pairing.PairingBook.carried`).

Owner phones: a joined phone asks (``owner_ask``); the touchscreen shows "Allow this phone to change the box
settings?" until it is answered (``owner_allow`` / ``owner_refuse``, the touchscreen's only; a box without a
touchscreen, ``--no-screen``, allows a joined phone at once: joining is the proof of being at the table); an allowed
phone's client id joins the pairing's owners for as long as the box runs, and may post ``change_setting`` and read the
owner page (the health checks, the settings).
"""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from companion.actions import NAVIGATION, Action, Posted, posted
from companion.errors import BadEntry, SessionError
from companion.flow_actions import NOT_ALLOWED, STALE, Outcome
from companion.i18n import Listing, Text
from companion.modes.base import BOX_GAME

if TYPE_CHECKING:
    from companion.app import MainLoop
    from companion.modes import Mode

__all__ = ["BOX_GAME", "Switchboard"]

log = logging.getLogger(__name__)

TRAIL_MAX = 6
"""Screens Back remembers at most."""


class Switchboard:
    """Carries out the box's own actions for ``loop`` (see the module doc).

    Attributes:
        trail: the modes Back returns to, the newest last.
        asking: the client id of the phone waiting for the touchscreen's answer, or None.
    """

    def __init__(self, loop: MainLoop) -> None:
        self.loop = loop
        self.trail: list[Mode] = []
        self.asking: str | None = None
        self.asked: dict[str, Any] | None = None
        """The phone's action the touchscreen asks the table to allow (None: the phone asks for the owner page)."""
        self.question: Any = None
        """What the touchscreen asks about :attr:`asked` (a :class:`Text`), or None."""
        self.asked_in: str | None = None
        """The game (:attr:`MainLoop.game_id`) the box was on when the table was asked about :attr:`asked`."""
        self.kept: dict[str, Any] | None = None
        self.refused_at: dict[str, float] = {}
        """When the table last refused each phone's request (the loop's clock, s)."""
        self._kept_said: str | None = None  # the table's question as last kept (keep_asking)

    # -- what the loop asks ----------------------------------------------------------------------------
    def handle(self, act: Posted) -> Outcome | None:
        """Carry out ``act`` when it is the box's own (None: the mode's). Raises BadEntry for bad input."""
        what = act.action
        if what in (Action.OWNER_ASK, Action.OWNER_ALLOW, Action.OWNER_REFUSE):
            return self._owner(act)
        if what is Action.CHANGE_SETTING:
            settings = self.loop.box_settings
            if settings is None:
                return Outcome([], "", Text("this box has no settings to change"))
            said = settings.change(act.payload.setting, act.payload.value)
            self.loop.publish_owner_view()
            # not "changed": the setting lives outside the session database (it holds even where its file cannot be
            # written), so a full database must not answer "nothing saved" for it; a retried tap sets it again
            return Outcome([], said)
        if what is Action.EXPORT_GAME and self.loop.mode.name.value != "history":
            return self._export(act)
        if what in NAVIGATION:
            if self.loop.library is None:
                return Outcome([], "", Text("this box was started for one game: the chooser is not here "
                                         "(start it without --game)"), NOT_ALLOWED)
            return self._move(act)
        return None

    def leaving(self, act: Posted) -> tuple[Any, bool] | None:
        """The game being played (not over) that ``act`` would move the box off, as ``(its title, whether it is
        behind the chooser or the history)``, or None: ``act`` is no move (:data:`NAVIGATION`), Back to a screen
        behind (Back with nothing behind goes to the chooser, leaving the game as Games does), the settings (the
        touchscreen's own screen), choosing a game the box does not offer or resuming one it has not recorded
        (refused as such), opening a screen over no game being played, or resuming the game that is behind
        (:func:`companion.phone_policy.leaving_refused` judges a phone's move by it)."""
        from companion.modes import ModeName

        what, current = act.action, self.loop.mode
        if what not in NAVIGATION or what is Action.SETTINGS or (what is Action.BACK and self.trail):
            return None
        library = self.loop.library
        if what is Action.CHOOSE_GAME and (library is None or act.payload.game not in (g["game"] for g in
                                                                                           library.offered())):
            return None  # no such game (or no games: one game's run): refused as such by :meth:`_move`, not asked
        if what is Action.RESUME_GAME and (library is None or not library.has_game(act.payload.session)):
            return None  # no such game recorded here: refused as such by :meth:`_move`, not asked
        # Back with nothing behind goes to the chooser (:meth:`_move`): it leaves the current game as Games does
        left = [current] if what in (Action.GAMES, Action.HISTORY, Action.BACK) else [*self.trail, current]
        for mode in reversed(left):
            flow = getattr(mode, "flow", None)
            if mode.name not in (ModeName.PLAY, ModeName.CALIBRATION) or flow is None or flow.over():
                continue
            if what is Action.RESUME_GAME and act.payload.session == mode.game_id:
                return None  # back to the game itself
            return flow.spec.title, mode is not current
        return None

    # -- moving ----------------------------------------------------------------------------------------
    def _move(self, act: Posted) -> Outcome:
        from companion.modes import ChooseMode, HistoryMode, ModeName, SettingsMode

        loop, library, what = self.loop, self.loop.library, act.action
        current = loop.mode
        if what is Action.BACK:
            if not self.trail:
                if current.name is ModeName.CHOOSE:
                    return Outcome([], "", Text("nothing to go back to: choose a game"))
                self.switch(ChooseMode(loop))
            else:
                self.switch(self.trail.pop())
            return Outcome([], Text("back"), changed=True)
        if what in (Action.GAMES, Action.HISTORY, Action.SETTINGS):
            target = {Action.GAMES: ModeName.CHOOSE, Action.HISTORY: ModeName.HISTORY,
                      Action.SETTINGS: ModeName.SETTINGS}[what]
            if current.name is target:
                return Outcome([], "")
            if what is Action.SETTINGS and loop.box_settings is None:
                return Outcome([], "", Text("this box has no settings screen"))
            made = {ModeName.CHOOSE: ChooseMode, ModeName.HISTORY: HistoryMode, ModeName.SETTINGS: SettingsMode}[target]
            self.trail.append(current)
            del self.trail[:-TRAIL_MAX]
            self.switch(made(loop))
            return Outcome([], {ModeName.CHOOSE: Text("choose a game"), ModeName.HISTORY: Text("the games played"),
                                ModeName.SETTINGS: Text("settings")}[target], changed=True)
        if (left := self._left_chooser(act)) is not None:
            return left
        if what is Action.CHOOSE_GAME:
            game = act.payload.game
            mode = library.dice_mode(loop) if game == "d6" and library.dice_reader is not None else \
                library.setup_mode(loop, game)
        else:  # RESUME_GAME
            mode = library.play_mode(loop, act.payload.session)
        self._leave(current)
        self.trail.clear()
        self.switch(mode)
        title = getattr(getattr(mode, "flow", None), "spec", None) or getattr(
            getattr(mode, "setup", None), "spec", None
        )
        return Outcome([], title.title if title is not None else Text("Dice (d6)"), changed=True)

    def _left_chooser(self, act: Posted) -> Outcome | None:
        """A phone's Choose (or Resume) tapped on a chooser the box has since left, refused as stale (409), or None.

        A phone shows the chooser until the box's next state reaches it: another phone (or the touchscreen) may have
        chosen a game a moment before, or both tapped at once. Carried out, the late tap would move the table off the
        game it is setting up, and both phones would be told their game was chosen. The phone's page has these
        buttons only on the chooser (Resume also on the history); a game being played is left only as
        :func:`companion.phone_policy.leaving_refused` says (the desk asks the table first), and the touchscreen draws
        what the box shows, so neither is judged here; a game the box does not have is refused as such."""
        from companion.loop_table import MODE_WORDS
        from companion.modes import ModeName

        current, library = self.loop.mode, self.loop.library
        if act.action is Action.CHOOSE_GAME and act.payload.game not in (g["game"] for g in library.offered()):
            return None  # no such game: refused as such
        if act.action is Action.RESUME_GAME and not library.has_game(act.payload.session):
            return None  # no such game recorded here: refused as such
        shown = {ModeName.CHOOSE} | ({ModeName.HISTORY} if act.action is Action.RESUME_GAME else set())
        if act.origin != "phone" or current.name in shown or self.leaving(act) is not None:
            return None
        spec = getattr(getattr(current, "flow", None), "spec", None) or getattr(
            getattr(current, "setup", None), "spec", None
        )
        where = spec.title if spec is not None else MODE_WORDS.get(current.name, current.name.value)
        return Outcome([], "", Text("the box is no longer on the game chooser (it now shows {where}): nothing changed; "
                                    "look at the screen and tap again", where=where), STALE)

    def switch(self, mode: Mode) -> None:
        """Show ``mode`` now: the pairing goes with it (the phones stay joined), it is entered, and where the box is
        is kept (inside the action's transaction)."""
        from companion.pairing import PairingBook

        loop = self.loop
        log.info("mode: %s -> %s", loop.mode.name.value, mode.name.value)
        loop.mode = mode
        if mode.game_id != loop.pairing.game:
            loop.pairing = PairingBook.carried(loop.store, mode.game_id, loop.pairing)
        mode.enter()
        loop.advance()  # a mode that names another at once (a game over shows its scores); keeps the place

    def keep_place(self) -> None:
        """Keep where the box is (the mode, its game) for the next start, when it changed since last kept."""
        library = self.loop.library
        place = self.loop.mode.place()
        if library is not None and place != self.kept:
            library.keep_place(place)
            self.kept = place

    def _leave(self, mode: Mode) -> None:
        """A game the table leaves for another: its camera read in flight is applied first (nothing seen is lost)."""
        try:
            mode.finish()
        except Exception:  # leaving must not fail over a read
            log.exception("finishing %s", mode.name.value)
        for old in self.trail:
            if old is not mode:
                try:
                    old.finish()
                except Exception:
                    log.exception("finishing %s", old.name.value)

    def behind(self) -> str | None:
        """The title of the game behind the chooser, the history or the settings (what Back goes to), or None."""
        for mode in reversed([*self.trail, self.loop.mode]):
            spec = getattr(getattr(mode, "flow", None), "spec", None) or getattr(
                getattr(mode, "setup", None), "spec", None
            )
            if spec is not None:
                return spec.title
            if mode.name.value == "dice":
                return Text("Dice (d6)")
        return None

    # -- exports from the scores -----------------------------------------------------------------------
    def _export(self, act: Posted) -> Outcome:
        library = self.loop.library
        if library is None:
            return Outcome([], "", Text("this box keeps no game records to export"), NOT_ALLOWED)
        session = act.payload.session
        if session is None:
            current = self.loop.session
            if current is None or getattr(self.loop, "flow", None) is None:
                raise BadEntry(Text("which game? open it in {history}, then tap {export} there",  # the buttons' words
                                    history=Text("History"), export=Text("Export")))
            session = current.id
        files = library.export(session)
        # not "changed": the files are written outside the session database (a retried tap writes them again)
        return Outcome([], library.saved(files), detail=f"exported {session}: {files['json']}, {files['bgstats']}")

    # -- the table's answer to a phone ---------------------------------------------------------------------
    def ask_table(self, action: Mapping[str, Any], question: Any) -> float:
        """A phone's ``action`` was refused (a seat another phone holds, a move off a game being played,
        :mod:`companion.phone_policy`): the touchscreen asks the table ``question`` (Allow / Refuse, as for the owner
        page) until it is answered or another phone asks; Allow carries the action out as the touchscreen's.

        Returns:
            0 when the table is asked (or there is no phone to ask for: an action without a client id, which no
            phone view sends); ``math.inf`` while the touchscreen asks about another phone's request (it is not
            replaced under the table's finger: that phone taps again once the table answered); else the seconds
            until it will be (the table refused this phone less than :data:`companion.phone_policy.REASK_S` ago).
        """
        from companion.phone_policy import REASK_S

        client = action.get("client")
        if not isinstance(client, str) or not client:
            return 0.0
        wait = self.refused_at.get(client, -REASK_S) + REASK_S - self.loop.clock()
        if wait > 0:
            return wait
        if self._busy(client):
            return math.inf
        self.asking, self.question, self.asked_in = client, question, self.loop.game_id
        self.asked = {k: v for k, v in action.items() if k not in ("reply", "key", "version")}
        return 0.0  # the refusal keeps it (Outcome.kept: keep_asking)

    def _moot(self) -> bool:
        """Whether the table's question about a phone's refused action (:meth:`ask_table`) no longer applies: the box
        is on another game than when it was asked; the seat asked for is now the asking phone's or no phone's (the
        holder gave it up, the touchscreen freed it) or the game is over (its scores: no seat reports any more); the
        move asked for leaves no game being played any more (the game is over, or was left from the touchscreen); or
        the phone that asked (also for the owner page) has been away :data:`companion.phone_policy.AWAY_S` seconds
        (no one waits for the answer)."""
        from companion.phone_policy import AWAY_S

        asked, client = self.asked, self.asking
        if client is None:
            return False
        if self.loop.quiet_for(client) >= AWAY_S:
            return True
        if asked is None:  # the owner page's request
            return False
        if self.asked_in != self.loop.game_id:
            return True
        if asked.get("action") == Action.CLAIM_SEAT:
            player, flow = self.loop.seat_of(asked), self.loop.flow
            if flow is not None and flow.over():  # the scores: nobody reports for a seat any more
                return True
            return player is None or self.loop.pairing.claims.get(player, client) == client
        act = posted(asked)
        return act is None or self.leaving(act) is None

    def drop_moot(self) -> bool:
        """Stop asking the table a question that no longer applies (:meth:`_moot`): the touchscreen goes back to what
        it showed, and an Allow can no longer carry out a request made for another situation. Returns whether a
        question was dropped."""
        if not self._moot():
            return False
        log.info("the table's question about a phone's %s no longer applies: not asked any more",
                 (self.asked or {}).get("action", "owner request"))
        self._forget()
        return True

    def _busy(self, client: str) -> bool:
        """Whether the touchscreen is asking the table about another phone's request than ``client``'s, one that still
        applies (:meth:`drop_moot`): it is not replaced under the table's finger."""
        return self.asking is not None and self.asking != client and not self.drop_moot()

    def _forget(self) -> None:
        """The touchscreen asks the table nothing any more (answered, or no longer applying)."""
        kept = self.asked is not None
        self.asking, self.asked, self.question, self.asked_in = None, None, None, None
        if kept:
            self.keep_asking()

    def keep_asking(self) -> None:
        """Keep the question put to the table about a phone's refused action (:meth:`ask_table`; none: ``{}``) in the
        session database (in the caller's transaction when there is one), as :attr:`companion.flow_actions.Outcome.kept`
        does for the refusal that asked it, so a restart while the phone waits asks the same question; a storage
        that refuses only loses it at a restart (logged). The owner page's request is not kept (its phone asks
        again)."""
        from companion import records
        from companion.kept_words import to_kept

        store = self.loop.store
        if store is None or getattr(store, "read_only", None) is not None:
            return
        try:
            kept = {} if self.asked is None or self.asking is None else {
                "client": self.asking, "asked": json.loads(json.dumps(self.asked, default=str)),
                "question": to_kept(self.question), "game": self.asked_in}
        except (ValueError, RecursionError) as exc:  # a whole number over 4300 digits, lists nested too deep
            log.warning("the table's question was not kept (its action cannot be written: %s): a restart does not "
                        "ask it again", type(exc).__name__)
            kept = {}  # nor an older question in its place
        said = json.dumps(kept, sort_keys=True)
        if said == self._kept_said:  # every refused phone action keeps it: written only when it changed
            return
        try:
            records.save_table_question(store, kept)
            self._kept_said = said
        except SessionError as exc:
            log.warning("the table's question was not kept (%s): a restart does not ask it again", exc)

    def resume_asking(self) -> None:
        """Ask the table again the question about a phone's refused action that stood when the box stopped
        (:meth:`keep_asking`), on the touchscreen and the phones, when the box resumed the same game. A question of
        another game, of another shape (a damaged row) or that no longer applies (:meth:`drop_moot`: the seat is
        free or the phone's own, the game is over, the phone stays away) is dropped with a log line; a storage that
        cannot be read asks none."""
        from companion import records
        from companion.kept_words import from_kept

        store = self.loop.store
        if store is None or self.asking is not None:
            return
        try:
            kept = records.load_table_question(store)
        except SessionError as exc:
            log.warning("the table's question could not be read (%s): not asked again", exc)
            return
        if not kept:
            self._kept_said = None if kept is None else "{}"
            return
        client, asked, game = kept.get("client"), kept.get("asked"), kept.get("game")
        try:
            question = from_kept(kept.get("question"))
        except ValueError as exc:
            question, client = None, None
            log.warning("the table's kept question is damaged (%s): dropped", exc)
        if not isinstance(client, str) or not client or not isinstance(asked, dict) or \
                posted({**asked, "origin": "touchscreen"}) is None or not isinstance(question, str) or \
                game != self.loop.game_id:
            log.info("the table's kept question no longer applies or is damaged: dropped")
            self.keep_asking()  # none stands now
            return
        self.asking, self.asked, self.question, self.asked_in = client, dict(asked), question, game
        if self.drop_moot():
            return
        log.info("the table's question about a phone's %s, kept across the restart, is asked again",
                 asked.get("action"))

    def _allowed(self) -> Outcome:
        """Carry out the phone's action the touchscreen allowed (inside the touchscreen's action's transaction)."""
        asked = {**(self.asked or {}), "origin": "touchscreen"}
        self._forget()
        outcome = self.loop.apply(asked)
        if asked.get("action") == Action.CLAIM_SEAT and outcome.error is None:  # said on every view: not "this phone"
            outcome.message = Text("{player}'s seat moved to the phone that asked for it", player=asked.get("player"))
        log.info("the table allowed a phone's %s", asked.get("action"))
        return outcome

    # -- owners ----------------------------------------------------------------------------------------
    def _owner(self, act: Posted) -> Outcome:
        pairing = self.loop.pairing
        if act.action is Action.OWNER_ASK:
            client = act.payload.client
            if not isinstance(client, str) or not client:
                raise BadEntry(Text("scan the QR code on the box first: only a joined phone may ask"))
            if client in pairing.owners:
                return Outcome([], Text("this phone may change the box's settings"))
            if getattr(self.loop, "no_screen", False):  # no touchscreen to ask: the joined phone is at the table
                pairing.owners.add(client)
                log.info("owner request of %s: allowed (the box has no touchscreen)", client[:8])
                self.loop.publish_owner_view()
                return Outcome([], Text("this phone may change the box's settings"), changed=True)
            if self._busy(client):
                from companion.phone_policy import not_asked

                return Outcome([], "", not_asked(math.inf), NOT_ALLOWED)  # the table is reading another's question
            self.asking, self.asked, self.question = client, None, None
            return Outcome([], Text("asked: answer on the box's touchscreen"), changed=True)
        if self.asking is None or self.drop_moot():
            return Outcome([], Text("no phone is asking"))
        if self.asked is not None and act.action is Action.OWNER_ALLOW:
            return self._allowed()
        if self.asked is not None:
            self.refused_at[self.asking] = self.loop.clock()
            self._forget()
            return Outcome([], Text("the phone was refused"), changed=True)
        if act.action is Action.OWNER_ALLOW:
            pairing.owners.add(self.asking)
            said = Text("the phone may change the box's settings")
        else:
            said = Text("the phone was refused")
        log.info(
            "owner request of %s: %s", self.asking[:8], "allowed" if act.action is Action.OWNER_ALLOW else "refused"
        )
        self.asking = None
        self.loop.publish_owner_view()
        return Outcome([], said, changed=True)

    def asking_view(self) -> dict[str, Any] | None:
        """``{"phone": who}`` while a phone waits for the touchscreen's answer (with ``"question"``: what the table is
        asked about a phone's refused action, :meth:`ask_table`; without: the owner page), else None. A question that
        no longer applies is dropped first (:meth:`drop_moot`)."""
        self.drop_moot()
        if self.asking is None:
            return None
        seats = [p for p, c in self.loop.pairing.claims.items() if c == self.asking]
        who = {"phone": Text("{names}'s phone", names=Listing(seats)) if seats else Text("a phone")}
        question = self._question_now()
        return who if question is None else {**who, "question": question}

    def _question_now(self) -> Any:
        """What the table is asked (:attr:`question`), the seat's holder said as it is now: a seat question is said
        again from the holding phone's presence (heard from how long ago; back since the box started), not as it was
        when the phone asked (:func:`companion.phone_policy.seat_question`)."""
        from companion.phone_policy import seat_hold, seat_question

        asked = self.asked
        if asked is None or asked.get("action") != Action.CLAIM_SEAT:
            return self.question
        player = self.loop.seat_of(asked)
        holder = self.loop.pairing.claims.get(player) if player is not None else None
        if holder is None:  # moot (dropped before this is asked): the question as it was
            return self.question
        return seat_question(seat_hold(self.loop, player, holder, screenless=False))

    # -- roll back -------------------------------------------------------------------------------------
    def memo(self) -> tuple[Any, ...]:
        return list(self.trail), self.asking, self.kept, self.asked, self.question, self.asked_in, self._kept_said

    def restore(self, memo: tuple[Any, ...]) -> None:
        (self.trail, self.asking, self.kept, self.asked, self.question, self.asked_in,
         self._kept_said) = list(memo[0]), *memo[1:]
