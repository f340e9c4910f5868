"""The history: the games played on this box, newest first; one opened shows its scores, export writes it.

``open_game`` shows one game (its score breakdown, the BG Stats link, whether it was exported); ``open_game``
with no session goes back to the list; ``export_game`` writes its JSON record and BG Stats play into the box's
exports folder (phones download them from the page), once the game is over (before, it is refused: its record holds
what the table has not revealed); ``resume_game`` goes back to one that has not ended.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.actions import Action, Posted
from companion.flow_actions import Outcome
from companion.i18n import Text
from companion.modes.base import BoxMode, ModeName

if TYPE_CHECKING:
    from companion.app import MainLoop

__all__ = ["HistoryMode"]


class HistoryMode(BoxMode):
    """The history of past games (see the module doc).

    Attributes:
        opened: the session id of the game shown, or None (the list).
        exported: the files written by the last export of the game shown (``{"json", "bgstats"}``), or None.
    """

    name = ModeName.HISTORY

    def __init__(self, loop: MainLoop) -> None:
        super().__init__(loop)
        self.opened: str | None = None
        self._cached: tuple[Any, dict[str, Any]] | None = None

    def handle(self, act: Posted) -> Outcome | None:
        """Open a game (or the list again), export one; Next and "read now" mean nothing here."""
        library = self.loop.library
        if act.action is Action.OPEN_GAME:
            if act.payload.session is None:
                self.opened = None
                return Outcome([], Text("the games played"), changed=True)
            record = library.record(act.payload.session)  # BadEntry names a game that is not there
            self.opened = record["session"]
            return Outcome([], Text("{title} of {when}", title=record["title"], when=_when(record)), changed=True)
        if act.action is Action.EXPORT_GAME:
            session = act.payload.session if act.payload.session is not None else self.opened
            if library.has_game(session) and not library.summary(str(session))["finished"]:
                # its record holds what the table has not revealed (a card chosen face down, a final position)
                return Outcome([], "", Text("Export once the game is over: its record holds what the table has not "
                                            "revealed yet"))
            files = library.export(session)
            self.opened = str(session)
            # not "changed": the files are written outside the session database (a retried tap writes them again)
            return Outcome([], library.saved(files), detail=f"exported {session}: {files['json']}, {files['bgstats']}")
        if act.action in (Action.NEXT_PHASE, Action.READ_NOW):
            return Outcome([], "", Text("open a game, or go back"))
        return None

    def block(self) -> dict[str, Any]:
        """``{"games": [Library.summary], "open": null | Library.record}``."""
        library = self.loop.library
        opened = None
        if self.opened is not None:
            try:
                opened = self._record(self.opened)
            except Exception:  # a game that went away meanwhile: the list
                self.opened = None
        return {"games": library.past_games(), "open": opened}

    def _record(self, session: str) -> dict[str, Any]:
        """The opened game's record, made again only when it changed (the view is published every second)."""
        files = self.loop.library.export_paths(session)
        key = (session, *(p.stat().st_mtime if p.is_file() else 0.0 for p in files.values()))
        if self._cached is None or self._cached[0] != key:
            self._cached = (key, self.loop.library.record(session))
        return self._cached[1]


def _when(record: dict[str, Any]) -> str:
    """When the game started, written in the language of whoever the answer is said to (a phone's own)."""
    from companion.i18n import Moment

    return Moment(record["started_at"], "short") if record.get("started_at") else ""
