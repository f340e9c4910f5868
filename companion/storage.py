"""Is the session database's storage writable, and how full is it: what both views show as ``"storage"``.

The main loop owns one :class:`StorageHealth` per box. A write that fails (disk full, read-only, I/O
error) marks it failing with the time of the first failed write; every view then says so ("storage full:
nothing since 21:04 is saved") until a write works again: the next action's write, or the cheap probe
(:func:`companion.records.probe`) the loop runs every :data:`PROBE_S` seconds while failing. Free space
is checked at start and every :data:`SPACE_S` seconds; below :data:`LOW_MB` the views warn.
"""

from __future__ import annotations

import logging
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion import records
from companion.errors import StorageError
from companion.i18n import Text, _, message_of, say

__all__ = ["LOW_MB", "PROBE_S", "SPACE_S", "StorageHealth"]

log = logging.getLogger(__name__)

LOW_MB = 100
"""Free space (MiB) below which both views warn: a game's log is tiny, but the card also holds the photos
kept with dice reads and the system's own logs."""
PROBE_S = 5.0
"""Seconds between probe writes while the storage is failing."""
SPACE_S = 60.0
"""Seconds between free-space checks."""

_SAID = {"full": Text("storage full: nothing since {since} is saved; the box's owner makes room on its card, then "
                      "tap again (note your moves until then)"),
         "read-only": Text("storage read-only: nothing since {since} is saved; the box's owner makes its card writable "
                           "or restarts the box, then tap again (note your moves until then)"),
         "busy": Text("storage busy (another program holds the database): nothing since {since} is saved; the box's "
                      "owner stops that program, then tap again (note your moves until then)")}
"""What the views say while writes fail, by the failure's kind (``failing`` names its reason): what is lost, what the
owner does (the box finds out by itself when writing works again, :meth:`StorageHealth.probe`) and what the players
do meanwhile."""


class StorageHealth:
    """The storage state of one box's session database.

    Args:
        store: the :class:`companion.session.SessionStore` (None: nothing to check; always ok).
        clock: seconds, monotonic (probe and space timing).
        wall: Unix seconds (the "since" shown).
    """

    def __init__(self, store: Any, clock: Callable[[], float] = time.monotonic,
                 wall: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock
        self.wall = wall
        self.failure: StorageError | None = None
        self.since: float | None = None  # Unix s of the first failed write (or of the start, read-only)
        self.free_mb: int | None = None
        self._probed_at = float("-inf")
        self._spaced_at = float("-inf")
        self.recovered: str | None = None if store is None or getattr(store, "recovered_from", None) is None \
            else str(store.recovered_from)
        """Where a damaged database was set aside at start (``SessionStore.recovered_from``), said on both views."""

    @property
    def ok(self) -> bool:
        """Whether writing works (as far as the last write or probe showed)."""
        return self.failure is None

    def start(self) -> None:
        """At start: a store opened read-only is failing from now; free space is read."""
        self.free_space()
        if self.store is not None and self.store.read_only is not None:
            self.failed(self.store.read_only)

    def failed(self, exc: StorageError) -> str:
        """A write failed: remember why (and since when, the first time); returns :attr:`message`."""
        if self.failure is None:
            self.since = self.wall()
            log.error("%s", _("storage failing: {problem}").format(problem=say(message_of(exc))))
        self.failure = exc
        self._probed_at = self.clock()
        self.free_space()
        return self.message

    def succeeded(self) -> None:
        """A write worked: the banner goes."""
        if self.failure is not None:
            log.warning("%s", _("storage works again (it failed since {time})").format(time=self._hhmm(self.since)))
        self.failure = None
        self.since = None

    def tick(self) -> bool:
        """Called every loop pass: probe while failing (every :data:`PROBE_S` s), read free space (every
        :data:`SPACE_S` s). Returns True when what the views show changed."""
        if self.store is None:
            return False
        before = self.view()
        now = self.clock()
        if now - self._spaced_at >= SPACE_S:
            self.free_space()
        if self.failure is not None and now - self._probed_at >= PROBE_S:
            self._probed_at = now
            self.probe()
        return self.view() != before

    def probe(self) -> bool:
        """Try one tiny durable write now (reopening a store that was opened read-only); True when it worked."""
        try:
            if self.store.read_only is not None and not self.store.retry_writing():
                raise self.store.read_only
            records.probe(self.store)
        except StorageError as exc:
            self.failure = exc
            return False
        self.succeeded()
        return True

    def free_space(self) -> int | None:
        """Free MiB on the database's file system (None when it cannot be read)."""
        self._spaced_at = self.clock()
        if self.store is None:
            return None
        try:
            self.free_mb = int(shutil.disk_usage(self.store.path.parent).free // 2 ** 20)
        except OSError:
            self.free_mb = None
        return self.free_mb

    @staticmethod
    def _hhmm(unix_s: float | None) -> str:
        return "?" if unix_s is None else time.strftime("%H:%M", time.localtime(unix_s))

    @property
    def low(self) -> bool:
        """Free space is below :data:`LOW_MB`."""
        return self.free_mb is not None and self.free_mb < LOW_MB

    @property
    def message(self) -> str:
        """What the views say ("" when all is well)."""
        if self.failure is not None:
            since = self._hhmm(self.since)
            if self.failure.kind == "failing":
                return Text("storage failing ({reason}): nothing since {since} is saved; the box's owner checks its "
                            "card (companion doctor), then tap again (note your moves until then)",
                            reason=self.failure.reason, since=since)
            said = _SAID.get(self.failure.kind)
            if said is None:
                return Text("storage failing: nothing since {since} is saved; the box's owner checks its card "
                            "(companion doctor), then tap again (note your moves until then)", since=since)
            return Text(said.template, since=since)
        if self.low:
            return Text("storage low: {free} MB free; make room on the card before it fills", free=self.free_mb)
        if self.recovered is not None:
            return recovered_text(self.recovered)
        return ""

    def view(self) -> dict[str, Any]:
        """``{"ok": bool, "low": bool, "message": str, "since": Unix s | None, "free_mb": int | None,
        "recovered": the damaged database's new name | None}``."""
        return {"ok": self.ok, "low": self.low, "message": self.message, "since": self.since, "free_mb": self.free_mb,
                "recovered": self.recovered}


def recovered_text(kept: Path | str) -> Text:
    """What the views and ``companion run``/``demo`` say when the session database was damaged at start and set
    aside as ``kept`` (``SessionStore.recovered_from``; its name is the damaged file's with ``.corrupt-<time>``)."""
    return Text("the game record was damaged: it is kept as {path} and a new one was started", path=str(kept))
