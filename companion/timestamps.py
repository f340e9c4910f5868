"""Times kept in the session database (a session's start, an event's time: Unix seconds), checked before they are
written as dates: the box writes only times it read from its clock, but a database changed by hand, or damaged on
the disk, may hold Infinity, NaN, a number past any calendar, a text or bytes, and writing one as a date raises
(``datetime.fromtimestamp``: OverflowError, ValueError, TypeError)."""

from __future__ import annotations

import math
from typing import Any

__all__ = ["EARLIEST", "LATEST", "shown", "usable"]

EARLIEST = 0.0
"""The earliest time taken as one (1970-01-01 UTC: a box with no clock battery starts there; it writes no time
before)."""
LATEST = 253370764800.0
"""The latest time taken as one (9999-01-01 UTC: later dates cannot be written in every time zone)."""


def usable(value: Any) -> float | None:
    """``value`` (Unix seconds as stored) as a float that can be written as a date, or None when it is none: not a
    number (a text, bytes, None, a bool), not finite, or outside :data:`EARLIEST`-:data:`LATEST`."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        seconds = float(value)
    except OverflowError:  # a whole number past any float
        return None
    if not math.isfinite(seconds) or not EARLIEST <= seconds <= LATEST:
        return None
    return seconds


def shown(value: Any) -> str:
    """``value`` as a line may quote it (its ``repr``, at most 40 characters; a whole number too long for Python to
    write said by its length)."""
    try:
        said = repr(value)
    except ValueError:  # more digits than sys.get_int_max_str_digits()
        return f"<a number of {value.bit_length() * 30103 // 100000 + 1} digits>"
    return said if len(said) <= 40 else f"{said[:37]}..."
