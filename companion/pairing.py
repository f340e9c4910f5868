"""Which phones may change the game: the current game's join secret and its seat claims (the loop's side).

The touchscreen's QR code carries the join secret (``/join/<secret>``); the phone view (``companion.web``)
turns it into a signed session cookie with a client id, and passes that id with every action. The main
loop keeps the secret and the claims here, durably in the session database (:mod:`companion.records`), and
publishes them with :meth:`companion.hub.StateHub.set_pairing` after every change and at start. A game
started from the setup step keeps the setup's id, so its secret and claims carry over.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

from companion import records
from companion.errors import BadEntry, StorageError, shown
from companion.hub import Pairing
from companion.i18n import N_, Listing, Text

__all__ = ["SEAT_FREE", "PairingBook"]

log = logging.getLogger(__name__)


SEAT_FREE = N_("{player}'s seat is free: {player}'s phone taps {player} to claim it")
"""What every view reads once a seat is given up (:meth:`PairingBook.release`), until a phone takes it."""

class PairingBook:
    """The join secret and seat claims of one game (a session, or the setup that becomes one).

    Args:
        store: the :class:`companion.session.SessionStore` (None: kept in memory only).
        game: the session's (or setup's) id.

    Attributes:
        game, secret: as :class:`companion.hub.Pairing`.
        claims: player -> the client id of the phone holding that seat.
        unsaved: the secret could not be written yet (the storage was failing at start); :meth:`save` retries.
        problem: the StorageError that kept it from being read or written at start, else None.
    """

    def __init__(self, store: Any, game: str) -> None:
        self.store = store
        self.game = game
        self.claims: dict[str, str] = {}
        self.owners: set[str] = set()
        """Client ids of the owner phones (allowed on the touchscreen; kept in memory while the box runs)."""
        self.unsaved = False
        self.problem: StorageError | None = None
        found = None
        if store is not None:
            try:
                found = records.load_pairing(store, game)
            except StorageError as exc:
                self.problem = exc
        if found is not None:
            self.secret, claims = found
            self.claims = dict(claims)
        else:
            self.secret = records.make_secret()
            self.unsaved = True
            if self.problem is None:  # never over a secret that could not be read
                self.save()

    @classmethod
    def carried(cls, store: Any, game: str, before: PairingBook) -> PairingBook:
        """The pairing of ``game`` when the box moves to it from ``before``'s (the chooser, another game): the
        phones joined tonight stay joined (``before``'s secret, written for ``game``), the seats ``game`` had
        claimed are kept, and the owner phones stay owners.

        Raises:
            StorageError: the secret cannot be written (the caller's action is then refused, nothing moves).
        """
        book = cls.__new__(cls)
        book.store, book.game, book.owners = store, game, set(before.owners)
        book.unsaved, book.problem = False, None
        found = records.load_pairing(store, game) if store is not None else None
        book.claims = dict(found[1]) if found is not None else {}
        book.secret = before.secret
        if store is not None and (found is None or found[0] != before.secret):
            records.save_pairing(store, game, before.secret)
        return book

    def pairing(self) -> Pairing:
        """What the phone view checks cookies against (never shown to phones)."""
        return Pairing(self.game, self.secret, dict(self.claims), frozenset(self.owners))

    def save(self) -> bool:
        """Write a secret made while the storage was failing; True when it is (now) in the database."""
        if not self.unsaved or self.store is None:
            return not self.unsaved
        try:
            with self.store.transaction(write=True, doing="keeping the join secret"):
                found = records.load_pairing(self.store, self.game)
                if found is not None:  # kept before the storage failed: that secret holds
                    self.secret, claims = found
                    self.claims = dict(claims)
                else:
                    records.save_pairing(self.store, self.game, self.secret)
                    for player, client in self.claims.items():
                        records.save_claim(self.store, self.game, player, client)
        except StorageError as exc:
            self.problem = exc
            log.warning("the join secret of %s is not saved yet: %s", self.game, exc)
            return False
        self.unsaved, self.problem = False, None
        return True

    # -- changes (each inside the loop's transaction around the action) ----------------------------
    def claim(self, player: Any, client: Any, players: Sequence[str], take_over: bool = False) -> str:
        """``client``'s phone takes ``player``'s seat; with ``take_over`` also a seat another phone holds (the loop
        passes it: the desk has already judged the takeover, :mod:`companion.phone_policy`: the holder is away, so a
        phone that lost its cookie joins again and takes its seat back).

        Raises:
            BadEntry: not a player of this game, or no client id (the phone must join first).
        """
        if not isinstance(player, str) or player not in players:
            raise BadEntry(_unknown(player, players))
        if not isinstance(client, str) or not client:
            raise BadEntry(Text("claiming a seat needs the phone's client id: scan the QR code on the box to join"))
        holder = self.claims.get(player)
        if holder == client:
            return Text("{player}'s seat is already this phone's", player=player)
        if holder is not None and not take_over:  # the desk refuses a phone this; the touchscreen frees seats
            raise BadEntry(
                Text("{player}'s seat is claimed by another phone; the touchscreen can reassign it", player=player)
            )
        self._write(lambda: records.save_claim(self.store, self.game, player, client))  # replaces the holder's
        self.claims[player] = client
        if holder is not None:
            return Text("{player}'s seat moved to this phone; the phone that held it no longer reports for {player}",
                        player=player)
        return Text("{player}'s seat is claimed by this phone", player=player)

    def release(self, player: Any, players: Sequence[str]) -> str:
        """``player``'s seat is free for another phone (the touchscreen's "reassign").

        Raises:
            BadEntry: not a player of this game.
        """
        if not isinstance(player, str) or player not in players:
            raise BadEntry(_unknown(player, players))
        if player not in self.claims:
            return Text("{player}'s seat is not claimed by any phone", player=player)
        self._write(lambda: records.drop_claim(self.store, self.game, player))
        del self.claims[player]
        return Text(SEAT_FREE, player=player)

    def revoke(self) -> str:
        """A new join secret; every claim is dropped (every phone scans the new QR code)."""
        secret = records.make_secret()

        def write() -> None:
            records.save_pairing(self.store, self.game, secret)
            records.drop_claims(self.store, self.game)

        self._write(write)
        self.secret, self.claims, self.owners = secret, {}, set()
        return Text("every phone is unpaired: scan the new QR code on the box to join again")

    def renamed(self, old: str, new: str) -> None:
        """A player was renamed in the setup step: the seat's claim follows the name."""
        if old in self.claims:
            client = self.claims[old]

            def write() -> None:
                records.drop_claim(self.store, self.game, old)
                records.save_claim(self.store, self.game, new, client)

            self._write(write)
            self.claims[new] = self.claims.pop(old)

    def removed(self, player: str) -> None:
        """A player left in the setup step: their seat's claim goes."""
        if player in self.claims:
            self._write(lambda: records.drop_claim(self.store, self.game, player))
            del self.claims[player]

    def _write(self, write: Any) -> None:
        if self.store is not None:
            if self.unsaved:
                records.save_pairing(self.store, self.game, self.secret)
            write()
            self.unsaved = False

    # -- roll back -----------------------------------------------------------------------------------
    def memo(self) -> tuple[str, Mapping[str, str], bool, frozenset[str]]:
        """The in-memory secret, claims and owners (:meth:`restore` puts them back after a rolled-back write)."""
        return self.secret, dict(self.claims), self.unsaved, frozenset(self.owners)

    def restore(self, memo: tuple[str, Mapping[str, str], bool, frozenset[str]]) -> None:
        """Back to :meth:`memo`'s state."""
        self.secret, claims, self.unsaved, owners = memo
        self.claims, self.owners = dict(claims), set(owners)


def _unknown(player: Any, players: Sequence[str]) -> Text:
    """The refusal of a seat that is no player's."""
    return Text("unknown player {player}; players: {players}", player=shown(player),
                players=Listing(players) if players else Text("none yet"))
