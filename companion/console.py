"""The ``companion`` console script's entry point (``[project.scripts]`` in pyproject.toml).

Loading the command line (:mod:`companion.cli`, which loads the games' rules for their names) takes about a second,
more on a busy Raspberry Pi. A Ctrl-C in that second used to surface as Python's traceback of whatever was being
imported; here it is held until the command line is loaded, then said as any other interrupted command is: one line
in the command's language (``--language``, else the box's), exit code 130, nothing run.
"""

from __future__ import annotations

import signal
import sys
from typing import Any

__all__ = ["main"]


def main() -> int:
    """Load :mod:`companion.cli` with Ctrl-C held, then run the command of ``sys.argv``; returns the exit code
    (:func:`companion.cli.main`'s, or 130 when Ctrl-C was pressed while it loaded)."""
    pressed: list[int] = []

    def hold(signum: int, frame: Any) -> None:
        pressed.append(signum)

    # only Python's own Ctrl-C (a KeyboardInterrupt) is held: an ignored one (nohup, a service) stays ignored
    holding = signal.getsignal(signal.SIGINT) is signal.default_int_handler
    try:
        if holding:
            signal.signal(signal.SIGINT, hold)
    except ValueError:  # not the main thread (a caller's own thread): signals are not ours to hold
        holding = False
    try:
        from companion import cli
    finally:
        if holding:
            signal.signal(signal.SIGINT, signal.default_int_handler)
    if pressed:
        return cli.interrupted(sys.argv[1:])
    return cli.main()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
