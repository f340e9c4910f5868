"""Median read time of a reader against ``cv2.imread`` + ``cv2.cvtColor`` of the same frames (shared by the benches).

Each frame is written to a PNG in a temporary folder, then, per frame, ``imread`` + ``cvtColor`` is timed and
the reader is timed on the decoded image, so the ratio compares the read with what any camera frame costs.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Callable, Iterable
from pathlib import Path

import cv2
import numpy as np


def time_against_imread(frames: Iterable[np.ndarray], read: Callable[[np.ndarray], object]) -> dict[str, float]:
    """``{"median_ms", "base_ms", "ratio"}`` over ``frames`` (``uint8[H, W, 3]`` BGR): the median wall time of
    ``read(image)`` in ms, the median of ``imread`` + ``cvtColor`` (BGR -> gray) in ms, and their ratio."""
    t_read: list[float] = []
    t_base: list[float] = []
    with tempfile.TemporaryDirectory(prefix="bench_frames_") as tmp:
        for k, frame in enumerate(frames):
            path = Path(tmp) / f"f{k}.png"
            cv2.imwrite(str(path), frame)
            t0 = time.perf_counter()
            im = cv2.imread(str(path))
            cv2.cvtColor(im, cv2.COLOR_BGR2GRAY)
            t1 = time.perf_counter()
            read(im)
            t2 = time.perf_counter()
            t_base.append(t1 - t0)
            t_read.append(t2 - t1)
    med, base = statistics.median(t_read), statistics.median(t_base)
    return {"median_ms": med * 1000, "base_ms": base * 1000, "ratio": med / base}
