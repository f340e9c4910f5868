"""The ``companion`` commands, one module per command group; the parser is :mod:`companion.cli`.

- :mod:`companion.commands.box`: ``run`` and ``demo`` (the main loop and its views), with its parts beside it: which
  game it starts on (``box_game``), the game's camera parts (``box_camera``), a replay of photos (``box_replay``) and
  the views and devices around the loop (``box_views``);
- :mod:`companion.commands.read`: ``read`` (dice, cards, hexes in photos);
- :mod:`companion.commands.enroll`: ``enroll roll-dice`` (from a folder, or ``--guided``) and ``enroll cards``;
- :mod:`companion.commands.calibrate`: ``calibrate`` and ``print-mat``;
- :mod:`companion.commands.export`: ``export`` and ``sessions``;
- :mod:`companion.scoring`: ``score`` and ``check``;
- :mod:`companion.commands.files`: the profiles, decks and output files they share.

This module holds what every command shares: the exit codes and the two errors a command turns into one line.
"""

from __future__ import annotations

__all__ = ["EXIT_DEVICE", "EXIT_INPUT", "EXIT_OK", "EXIT_USAGE", "InputError", "UsageError"]

EXIT_OK, EXIT_INPUT, EXIT_USAGE, EXIT_DEVICE = 0, 1, 2, 3
"""Exit codes: 0 success; 1 some input could not be processed (each named on stderr, the others still
processed); 2 bad command line (a folder named where a file is wanted, as an option's file or a file to write:
:func:`companion.commands.files.refuse_folder`); 3 no camera or another device problem."""


class UsageError(Exception):
    """A command line that cannot be carried out as given (exit 2); the message says what to give."""


class InputError(Exception):
    """A file the command needs is missing or unreadable; ``code`` is the exit code."""

    def __init__(self, message: str, code: int) -> None:
        super().__init__(message)
        self.code = code
