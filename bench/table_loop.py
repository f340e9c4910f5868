"""The rig of the loop benches (:mod:`bench.latency`, :mod:`bench.one_record`): seeded frame sequences of a dice
tray, a camera that plays them in real time, the box's real loop in the d6 mode built as ``companion run`` builds
it, the phone view on 127.0.0.1 and a phone's event stream.

Nothing here is timed against the JPEG baseline: these benches measure wall-clock delays (ms) from a moment in the
scene (a settle, a photo shown) to the phone's event, and counts of reads against the sequences' truth.
"""

from __future__ import annotations

import http.client
import json
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from device.camera import CameraSource, Frame
from device.errors import EndOfStream
from vision.motion import StillnessDetector
from vision.synth_full import dice_tray
from vision.synth_motion import MotionSequence, play_sequence


def table_stillness() -> StillnessDetector:
    """The stillness detector ``companion run`` gives its loop (:func:`companion.reading.table_stillness` where the
    box has it, else a default :class:`vision.motion.StillnessDetector`, as before it)."""
    try:
        from companion.reading import table_stillness as box_stillness
    except ImportError:
        return StillnessDetector()
    return box_stillness()


def tray_sequence(seed: int, events: Sequence[str], size: tuple[int, int], fps: float, dice: int = 6,
                  rest: tuple[float, float] = (0.8, 1.2)) -> MotionSequence:
    """A seeded sequence of ``events`` (:data:`vision.synth_motion.EVENTS`) on a dice tray of ``dice`` pip dice."""
    return play_sequence(dice_tray(seed, dice, size), events, seed=seed, fps=fps, rest=rest)


class PacedSequence(CameraSource):
    """A live camera playing ``images`` at ``fps`` in real time from :meth:`open`: frame k is captured at
    ``start + k / fps`` (monotonic s); a read waits for the next frame, or, when the reader fell behind, hands out
    the newest frame captured (the ones in between are lost, as a live camera drops them). :attr:`due` gives each
    frame's capture time; :attr:`delivered` the indexes handed out."""

    live = True

    def __init__(self, images: Sequence[np.ndarray], fps: float, name: str = "sequence") -> None:
        self.images = list(images)
        self.fps = float(fps)
        self.name = name
        self.start = 0.0
        self._next = 0
        self._open = False
        self.delivered: list[int] = []

    def due(self, k: int) -> float:
        """Monotonic s when frame ``k`` is captured."""
        return self.start + k / self.fps

    def open(self) -> None:
        if not self._open:
            self._open = True
            self.start = time.monotonic() + 0.2

    def read(self) -> Frame:
        if not self._open:
            raise RuntimeError(f"{self.name} is not open")
        now = time.monotonic()
        k = max(self._next, int((now - self.start) * self.fps))
        if k >= len(self.images):
            raise EndOfStream(f"{self.name} ended after {len(self.images)} frames")
        wait = self.due(k) - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        self._next = k + 1
        self.delivered.append(k)
        return Frame(image=self.images[k].copy(), timestamp=self.due(k), index=k, source=self.name)

    def close(self) -> None:
        self._open = False


@dataclass
class PhoneStream:
    """A phone's ``GET /api/events`` stream on 127.0.0.1: every ``state`` event's arrival (monotonic s) and view."""

    port: int
    states: list[tuple[float, dict[str, Any]]] = field(default_factory=list)
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    def start(self) -> PhoneStream:
        ready = threading.Event()
        self._thread = threading.Thread(target=self._listen, args=(ready,), name="phone-stream", daemon=True)
        self._thread.start()
        if not ready.wait(10.0):
            raise RuntimeError("the phone view's event stream did not answer within 10 s")
        return self

    def _listen(self, ready: threading.Event) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.port)  # no timeout: the server's shutdown ends it
        conn.request("GET", "/api/events", headers={"Accept": "text/event-stream"})
        resp = conn.getresponse()
        kind, data = None, []
        while not self._stop.is_set():
            try:
                line = resp.fp.readline()
            except OSError:
                break
            if not line:
                break
            text = line.decode("utf-8").rstrip("\n")
            if text.startswith("event:"):
                kind = text[6:].strip()
            elif text.startswith("data:"):
                data.append(text[5:].strip())
            elif not text:
                if kind == "state" and data:
                    self.states.append((time.monotonic(), json.loads("\n".join(data))))
                    ready.set()
                kind, data = None, []
        conn.close()

    def first_with(self, test) -> float | None:
        """Arrival (monotonic s) of the first state ``test(view)`` holds for, or None."""
        return next((t for t, view in list(self.states) if test(view)), None)

    def stop(self) -> None:
        """Stop listening (after the server's shutdown, which ends the stream)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5.0)


def phone_view(hub: Any) -> tuple[Any, PhoneStream]:
    """The phone view of ``hub`` served by waitress on 127.0.0.1 (a free port) and a phone listening to it."""
    from companion.web import create_app, serve

    server = serve(create_app(hub), host="127.0.0.1", port=0)
    return server, PhoneStream(server.port).start()


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-quantile (0-1) by the nearest rank; NaN for no values."""
    d = sorted(values)
    return d[min(len(d) - 1, int(round(q * (len(d) - 1))))] if d else float("nan")


def settle_windows(seq: MotionSequence) -> list[tuple[int, int, int, bool]]:
    """(first rest frame, first frame of the next event or the end, layout, changed) of each settle."""
    out = []
    for start, k, changed in seq.settles:
        end = next((first for _, first, _ in seq.events if first >= start), len(seq.frames))
        out.append((start, end, k, changed))
    return out


class SequenceCamera(CameraSource):
    """Frames ``first`` .. ``last - 1`` of ``images`` as fast as they are read, each with its index in the whole
    sequence and the timestamp ``index / fps`` (a replay: no frame is lost)."""

    def __init__(self, images: Sequence[np.ndarray], first: int, last: int, fps: float, name: str = "sequence") -> None:
        self.images = images
        self.first, self.last = int(first), int(last)
        self.fps = float(fps)
        self.name = name
        self._next = self.first
        self._open = False

    def open(self) -> None:
        self._open = True

    def read(self) -> Frame:
        if not self._open:
            raise RuntimeError(f"{self.name} is not open")
        if self._next >= self.last:
            raise EndOfStream(f"{self.name} ended at frame {self.last}")
        k, self._next = self._next, self._next + 1
        return Frame(image=self.images[k].copy(), timestamp=k / self.fps, index=k, source=self.name)

    def close(self) -> None:
        self._open = False
