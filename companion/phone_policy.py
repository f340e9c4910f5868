"""What one phone may do to the others' evening: take over a seat another phone holds, free a seat, move the box off
a game being played. The desk (:mod:`companion.desk`, step 3) asks here for every such action a phone posts; the
touchscreen, the button and the terminal are at the table and may do all of it.

The policy, and why:

- **A seat is its holder's while that phone is here.** Another phone takes it over (or frees it) only when the holder
  has been away :data:`AWAY_S` seconds (no request at all: its page pings the box every :data:`PING_S` seconds while
  it is shown, so a phone whose battery died, whose browser lost its cookie or that left the Wi-Fi is away two
  minutes later), or once the seat is free: the holder gives it up on its own phone ("Give up my seat"), or the
  touchscreen frees it (the QR code, then Free seat). A phone refused a seat makes the touchscreen ask the table
  "A phone asks for Ann's seat ... Give the seat to the phone that asks?" (Allow / Refuse). A player whose phone
  died gets back to the seat from any phone two minutes later, or at once with one tap on the touchscreen; nothing
  recorded is lost either way (reports are the player's, not the phone's). A box without a touchscreen
  (``--no-screen``) follows the same rule with the holder's phone in the touchscreen's place. Right after the box
  starts, a phone not heard from yet counts as here until :data:`AWAY_S` seconds after the start (every phone
  reconnects within seconds); what the phones and the table are told then says it has not been heard from since the
  box started, never that it is still here (:attr:`SeatHold.heard`).
- **A game being played is left from the box, or once it is over.** Moving the box to the chooser, the history or
  another game (:data:`companion.actions.NAVIGATION`, except Back, which returns to the game) while a game is played
  and not over blanks every player's page; from a phone it is not done at once: the touchscreen asks the table
  (everyone sees the box; Allow makes the move, the game stays open and Resume brings it back), and the touchscreen's
  own Games does it at once. On a box without a touchscreen one of the game's players does it from their phone (a
  phone holding a seat of that game, or any joined phone when no seat is held), after the page asked "Leave ...?".
- **The table is asked once.** After the table refuses a phone on the touchscreen, that phone's refused taps are not
  put to the table again for :data:`REASK_S` seconds (it is told to talk to the players): one phone cannot keep the
  touchscreen on its question. A question that no longer applies is not asked any more (the seat became the asking
  phone's or no phone's, the game is over or was left, the box is on another game, or the phone that asked has been
  away :data:`AWAY_S` seconds): a late Allow never carries out a request made for another moment. A question the
  table is reading is never replaced by another phone's (the Allow under the table's finger would answer a question
  it did not read): that phone is told to tap again once the table has answered.

Functions here are pure (the facts come in as arguments); :class:`PhonePresence` keeps when each phone was last
heard from (the phone view records every request of a joined phone, :mod:`companion.web`).
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from companion.i18n import Text

__all__ = ["AWAY_S", "PING_S", "REASK_S", "PhonePresence", "SeatHold", "just_refused", "leaving_question",
           "leaving_refused", "not_asked", "seat_hold", "seat_question", "seat_refused"]

AWAY_S = 120.0
"""Seconds without a request after which a phone is away: its seat may be taken over by another phone. Long enough
that a phone put down between turns (its page pings every :data:`PING_S` s while shown; a locked phone stops) is not
away at once; short enough that a player whose phone died is back at their seat within a couple of minutes."""

PING_S = 20.0
"""Seconds between the phone page's "still here" requests (``GET /api/me``) while it is shown."""

REASK_S = 30.0
"""Seconds after the table refused a phone's request on the touchscreen during which that phone's next refused taps
are not put to the table again (one phone cannot keep the touchscreen on its question)."""


class PhonePresence:
    """When each joined phone was last heard from (thread-safe: the web server's threads write, the loop reads).

    Args:
        clock: seconds, monotonic (``time.monotonic``; tests pass their own).

    A phone never heard from since this object was made counts as heard from at that moment: right after the box
    starts (every phone reconnects within seconds) no phone is away yet.
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._since = clock()
        self._seen: dict[str, float] = {}

    def heard(self, client: str) -> None:
        """``client`` (a phone's client id) made a request now."""
        now = self._clock()
        with self._lock:
            self._seen[client] = now

    def quiet_for(self, client: str) -> float:
        """Seconds since ``client`` was last heard from (since this object was made when never), >= 0."""
        now = self._clock()
        with self._lock:
            last = self._seen.get(client, self._since)
        return max(0.0, now - last)

    def heard_since_start(self, client: str) -> bool:
        """Whether ``client`` made a request since this object was made (False: :meth:`quiet_for` counts from the
        box's start, not from a request: what the phone is told must not say the holder was heard from)."""
        with self._lock:
            return client in self._seen


@dataclass(frozen=True)
class SeatHold:
    """A seat another phone holds, as the desk sees it when a phone asks to take it over or to free it.

    Attributes:
        player: the seat (the player's name as the table spells it).
        quiet_s: seconds since the holding phone was last heard from (:meth:`PhonePresence.quiet_for`); since the
            box started when it was not heard from since (``heard`` False).
        screenless: the box has no touchscreen (``--no-screen``).
        heard: the holding phone made a request since the box started (:meth:`PhonePresence.heard_since_start`);
            False: right after a restart, a seat kept from before held by a phone that has not come back yet (it
            counts as here until it has been away :data:`AWAY_S` s from the start, but nothing says it is here).
    """

    player: str
    quiet_s: float
    screenless: bool
    heard: bool = True


class Presence(Protocol):
    """What :func:`seat_hold` reads of the phones' presence (:class:`PhonePresence`, or the main loop's view of it)."""

    def quiet_for(self, client: str) -> float: ...

    def heard_since_start(self, client: str) -> bool: ...


def seat_hold(presence: Presence, player: str, holder: str, screenless: bool) -> SeatHold:
    """The seat of ``player`` that the phone ``holder`` (its client id) holds, as this policy weighs it now: how long
    that phone has been quiet (s), and whether it was heard from at all since the box started."""
    return SeatHold(player, presence.quiet_for(holder), screenless, heard=presence.heard_since_start(holder))


def seat_refused(hold: SeatHold, freeing: bool = False, away_s: float = AWAY_S) -> Text | None:
    """Why a phone may not take over (or, ``freeing``, free) a seat another phone holds; None when it may (the holder
    has been away ``away_s`` s or more).

    Args:
        hold: the seat and its holder (:class:`SeatHold`).
        freeing: the phone asks to free the seat (``release_seat``), not to take it (``claim_seat``).
        away_s: seconds of quiet after which the holder is away (:data:`AWAY_S`).

    Returns:
        None, or the refusal said to the phone that asked: who holds the seat (a phone still here, heard from so many
        seconds ago; or, ``hold.heard`` False, a phone not heard from since the box started so many seconds ago, and
        when it counts as away), and what to do (the holder gives it up on its phone; with a touchscreen, it now asks
        the table, :func:`seat_question`, or frees the seat; without one, try again once the holder is away: in how
        many seconds).
    """
    if hold.quiet_s >= away_s:
        return None
    seen, away = round(hold.quiet_s), round(away_s)
    if hold.screenless:
        wait = max(1, math.ceil(away_s - hold.quiet_s))
        if not hold.heard:
            return Text("{player}'s seat is held by a phone the box has not heard from since it started {seconds} s "
                        "ago: {player} taps \"Give up my seat\" on that phone; if that phone is gone (a flat battery, "
                        "a lost cookie), try again in {wait} s, when it counts as away ({away} s after the start)",
                        player=hold.player, seconds=seen, wait=wait, away=away)
        return Text("{player}'s seat is held by a phone that is still here (heard from {seconds} s ago): {player} "
                    "taps \"Give up my seat\" on that phone; if that phone is gone (a flat battery, a lost cookie), "
                    "try again in {wait} s, when it has been away {away} s", player=hold.player, seconds=seen,
                    wait=wait, away=away)
    if freeing and not hold.heard:
        return Text("{player}'s seat is held by a phone the box has not heard from since it started {seconds} s ago "
                    "(it counts as away {away} s after the start): {player} taps \"Give up my seat\" on that phone, "
                    "or the box's touchscreen frees it (tap the QR code, then Free seat)", player=hold.player,
                    seconds=seen, away=away)
    if freeing:
        return Text("{player}'s seat is held by a phone that is still here (heard from {seconds} s ago): {player} "
                    "taps \"Give up my seat\" on that phone, or the box's touchscreen frees it (tap the QR code, then "
                    "Free seat)", player=hold.player, seconds=seen)
    if not hold.heard:
        return Text("{player}'s seat is held by a phone the box has not heard from since it started {seconds} s ago "
                    "(it counts as away {away} s after the start): the box's touchscreen now asks the table to give "
                    "it to this phone; or {player} taps \"Give up my seat\" on that phone, then tap {player} again",
                    player=hold.player, seconds=seen, away=away)
    return Text("{player}'s seat is held by a phone that is still here (heard from {seconds} s ago): the box's "
                "touchscreen now asks the table to give it to this phone; or {player} taps \"Give up my seat\" on "
                "that phone, then tap {player} again", player=hold.player, seconds=seen)


def seat_question(hold: SeatHold) -> Text:
    """What the touchscreen asks the table when a phone is refused a seat another phone holds (with a touchscreen,
    the refusal says it asks): Allow gives the seat to the phone that asked. The holder is said as heard from so many
    seconds ago, or (``hold.heard`` False) as not heard from since the box started so many seconds ago; the
    touchscreen says it again from the holder's presence at each view while it asks
    (:meth:`companion.switchboard.Switchboard.asking_view`), so it is never older than the view."""
    if not hold.heard:
        return Text("A phone asks for {player}'s seat, which another phone holds (not heard from since the box "
                    "started {seconds} s ago). Give the seat to the phone that asks?", player=hold.player,
                    seconds=round(hold.quiet_s))
    return Text("A phone asks for {player}'s seat, which another phone holds (heard from {seconds} s ago). Give the "
                "seat to the phone that asks?", player=hold.player, seconds=round(hold.quiet_s))


def leaving_refused(game: str | None, *, screenless: bool, holds_seat: bool, seats_held: bool,
                    behind: bool = False) -> Text | None:
    """Why a phone may not move the box off the game being played; None when it may.

    Args:
        game: the title of the game the move would leave while it is played and not over (the current one, or the
            one behind the chooser the move would replace); None: the move leaves no such game (the dice, a setup,
            a game's scores, Back to the game).
        screenless: the box has no touchscreen (``--no-screen``).
        holds_seat: the phone holds a seat of that game.
        seats_held: some phone holds a seat of that game.
        behind: the game is behind the chooser or the history (the touchscreen opened them over it), not showing.

    Returns:
        None, or the refusal said to the phone: the game is being played, and how it is left (the touchscreen now
        asks the table, :func:`leaving_question`; without a touchscreen, a player's phone).
    """
    if game is None:
        return None
    if not screenless and behind:
        return Text("{game} is still being played (behind this screen): the box's touchscreen now asks the table "
                    "whether to leave it (it stays open: Resume brings it back); Back returns to it", game=game)
    if not screenless:
        return Text("{game} is being played: the box's touchscreen now asks the table whether to leave it (it stays "
                    "open: Resume brings it back); once it is over a phone leaves it without asking", game=game)
    if holds_seat or not seats_held:
        return None
    return Text("{game} is being played: only a player's phone leaves it before it is over (tap your seat first); "
                "the game stays open: Resume brings it back", game=game)


def leaving_question(game: Any, doing: Any) -> Text:
    """What the touchscreen asks the table when a phone is refused a move off ``game`` (its title) being played
    (with a touchscreen, the refusal says it asks); ``doing``: the move in the players' words ("Choose a game",
    :func:`companion.action_words.action_word`). Allow makes the move."""
    return Text("A phone asks to leave {game}, which is being played ({doing}). The game stays open: Resume brings "
                "it back. Allow?", game=game, doing=doing)


def just_refused(wait_s: float) -> Text:
    """What a phone is told instead of "the touchscreen now asks" when the table refused its request less than
    :data:`REASK_S` seconds ago (``wait_s``: seconds left until the table is asked again)."""
    return Text("the table refused this phone's request on the box's touchscreen a moment ago: talk to the players at "
                "the table; the box asks them again in {seconds} s", seconds=max(1, round(wait_s)))


def not_asked(wait_s: float) -> Text:
    """What a phone is told instead of "the touchscreen now asks" when the table is not asked about its request
    (:meth:`companion.switchboard.Switchboard.ask_table`'s answer ``wait_s`` > 0): ``math.inf``, the touchscreen is
    asking the table about another phone's request (tap again once it is answered); else the table refused this phone
    a moment ago (:func:`just_refused`, ``wait_s`` seconds left)."""
    if math.isinf(wait_s):
        return Text("the box's touchscreen is asking the table about another phone's request right now: tap again once "
                    "the table has answered it")
    return just_refused(wait_s)
