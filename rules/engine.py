"""What every engine shares besides the core's data types: its name and title from its declaration.

:class:`GameBase` gives an engine ``name`` and ``title`` from its ``info``
(:class:`rules.core.GameInfo`), so they are declared once.
"""

from __future__ import annotations

from rules.core import GameInfo

__all__ = ["GameBase"]


class GameBase:
    """Base of an engine: ``name`` and ``title`` read from the class's :attr:`info`."""

    info: GameInfo

    @property
    def name(self) -> str:
        """``info.name`` (the session log stores it)."""
        return self.info.name

    @property
    def title(self) -> str:
        """``info.title``."""
        return self.info.title
