"""The one baseline every bench divides by: a JPEG (quality 95) ``cv2.imread`` + ``cv2.cvtColor`` of the same
frame at the same size, timed interleaved with the read in one process.

A frame is what a camera gives; decoding it is what any frame costs, so "the read costs N frame decodes"
compares across machines and loads (a busy 2-core machine slows both alike). Each frame is written once to
a JPEG at quality 95 in a temporary folder (not timed); then, frame by frame, the decode (``imread`` +
``cvtColor`` BGR -> RGB) and the read are timed one after the other, so both see the same load.

    with FrameTimer() as timer:
        for frame in frames:
            result = timer.time(frame, reader.read)     # the read gets the frame itself, not the JPEG
        print(timer.summary_line("1280x720"))
"""

from __future__ import annotations

import statistics
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import cv2
import numpy as np

#: What the ratios are relative to (printed by the benches).
BASELINE = "JPEG q95 imread+cvtColor"
JPEG_QUALITY = 95


class FrameTimer:
    """Interleaved timing of reads against the JPEG decode of the same frames.

    ``time(frame, read)`` encodes ``frame`` (``uint8[H, W, 3]`` BGR) as JPEG q95 (untimed), times its
    ``imread`` + ``cvtColor`` (ms, best of ``decode_reps``), then times ``read(frame)`` (ms) and keeps the
    result's ``timings_ms`` (per-stage ms, when it has them). Figures are medians over the frames timed.

    ``clock``: what both the decode and the read are timed by, in seconds: wall time (``time.perf_counter``, the
    default) or CPU time (``time.process_time``: the figures hold on a machine other work is loading).
    """

    def __init__(self, decode_reps: int = 3, clock: Callable[[], float] = time.perf_counter) -> None:
        self._tmp = tempfile.TemporaryDirectory(prefix="bench_jpeg_")
        self._n = 0
        self.decode_reps = max(1, int(decode_reps))
        self.clock = clock
        self.read_ms: list[float] = []
        self.base_ms: list[float] = []
        self.stage_ms: dict[str, list[float]] = defaultdict(list)

    def __enter__(self) -> FrameTimer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._tmp.cleanup()

    def jpeg(self, frame: np.ndarray) -> Path:
        """Write ``frame`` as a quality-95 JPEG in the timer's folder; return its path."""
        path = Path(self._tmp.name) / f"f{self._n}.jpg"
        self._n += 1
        if not cv2.imwrite(str(path), frame, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY]):
            raise OSError(f"cannot write {path}")
        return path

    def decode_ms(self, path: Path) -> float:
        """Best of ``decode_reps`` ``imread`` + ``cvtColor(BGR2RGB)`` of ``path``, ms (by :attr:`clock`)."""
        best = float("inf")
        for _ in range(self.decode_reps):
            t0 = self.clock()
            im = cv2.imread(str(path), cv2.IMREAD_COLOR)
            cv2.cvtColor(im, cv2.COLOR_BGR2RGB)
            best = min(best, (self.clock() - t0) * 1000.0)
        return best

    def baseline(self, frame: np.ndarray) -> float:
        """The baseline of one frame (ms), recorded; pair it with :meth:`add_read`."""
        ms = self.decode_ms(self.jpeg(frame))
        self.base_ms.append(ms)
        return ms

    def add_read(self, ms: float, timings_ms: dict[str, float] | None = None) -> None:
        """Record a read timed by the caller (ms) and its per-stage timings."""
        self.read_ms.append(float(ms))
        for k, v in (timings_ms or {}).items():
            self.stage_ms[k].append(float(v))

    def time(self, frame: np.ndarray, read: Callable[[np.ndarray], Any]) -> Any:
        """Baseline of ``frame``, then ``read(frame)`` timed (by :attr:`clock`); returns what ``read`` returned."""
        self.baseline(frame)
        t0 = self.clock()
        out = read(frame)
        self.add_read((self.clock() - t0) * 1000.0, getattr(out, "timings_ms", None))
        return out

    @property
    def median_ms(self) -> float:
        return statistics.median(self.read_ms) if self.read_ms else float("nan")

    @property
    def median_base_ms(self) -> float:
        return statistics.median(self.base_ms) if self.base_ms else float("nan")

    @property
    def ratio(self) -> float:
        return self.median_ms / self.median_base_ms if self.base_ms else float("nan")

    def stage_medians(self) -> dict[str, float]:
        """Median ms of every stage seen (a stage missing from a read counts 0 there)."""
        n = len(self.read_ms)
        return {k: statistics.median(v + [0.0] * (n - len(v))) for k, v in self.stage_ms.items()}

    def summary(self) -> dict[str, float]:
        """``{"median_ms", "base_ms", "ratio", "n"}``."""
        return {"median_ms": self.median_ms, "base_ms": self.median_base_ms, "ratio": self.ratio,
                "n": len(self.read_ms)}

    def summary_line(self, what: str) -> str:
        """``what: median X ms = R x JPEG q95 imread+cvtColor (B ms), n frames``."""
        r = self.ratio
        return (f"{what}: median {self.median_ms:.{1 if self.median_ms >= 10 else 2}f} ms = "
                f"{r:.{1 if r >= 1 else 2}f}x {BASELINE} ({self.median_base_ms:.2f} ms), {len(self.read_ms)} frames")

    def stages_line(self, top: int = 0) -> str:
        """``stage ms (ratio x)`` per stage, largest first (``top`` > 0: only the largest ``top``)."""
        med = sorted(self.stage_medians().items(), key=lambda kv: -kv[1])
        if top:
            med = med[:top]
        base = self.median_base_ms
        return ", ".join(f"{k} {v:.1f} ms ({v / base:.1f}x)" for k, v in med)


def time_against_jpeg(frames: Iterable[np.ndarray], read: Callable[[np.ndarray], object]) -> dict[str, float]:
    """``{"median_ms", "base_ms", "ratio", "n"}`` of ``read`` over ``frames`` against the JPEG q95 baseline
    (:class:`FrameTimer`)."""
    with FrameTimer() as timer:
        for frame in frames:
            timer.time(frame, read)
        return timer.summary()
