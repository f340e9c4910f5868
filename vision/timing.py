"""Stage timing: one wrapper records the wall time of each named stage (no copied methods)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


def timed_stage(
    timings: dict[str, float],
    name: str,
    fn: Callable[..., Any],
    *args: Any,
    **kwargs: Any,
) -> Any:
    """Call ``fn(*args, **kwargs)``, store its wall time in ``timings[name]`` (milliseconds), return its result.

    A stage run twice under the same name accumulates.
    """
    start = time.perf_counter()
    try:
        return fn(*args, **kwargs)
    finally:
        timings[name] = timings.get(name, 0.0) + (time.perf_counter() - start) * 1000.0
