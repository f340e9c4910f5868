"""Phones under load on loopback: 20 phones on the event stream and the camera picture while a player
reports once a second, for 10 minutes; how fast each report reaches every phone, and whether the box's
memory stays flat.

    .venv/bin/python bench/phone_load.py                 # 20 phones, 10 minutes
    .venv/bin/python bench/phone_load.py --minutes 1 --phones 5

The box is ``companion demo --game roll --players Ann,Bob --no-screen --no-gpio --host 127.0.0.1 --port P`` in a
fresh data folder (the bundled photos replayed in real time: the live picture changes every second). Each
phone is a client of its own, as on a Wi-Fi: its own address (127.0.0.2, 127.0.0.3, ...: all of 127.0.0.0/8
is this machine), its own cookie (it opens the join link the box prints), one ``/api/events`` stream read as it
comes, and the picture fetched as ``companion/static/phone.js`` does: ``/frame.jpg?v=VERSION`` whenever a state
shows a new frame, one at a time. Another joined client reports for Ann and Bob in turn once a second
(``POST /api/report``, the credits form, with the version and a fresh key).

Prints a line each minute, then (a 10-minute run on a busy 2-core machine)::

    phone load: 20 phones (events + picture), a report a second, 600 s, demo --game roll on 127.0.0.1
    reports: 600 sent, 600 answered 200; answer median 70 ms, p95 112 ms
    update (report POST -> its state on a phone's event stream): median 64 ms, p95 108 ms, max 493 ms over 12000
    (phone, report) pairs; never seen 0
    frames: 12220 fetched (20.4 a second), 0 failed; events streamed 13470, streams broken 0
    baseline (JPEG q95 imread + cvtColor, 640x640): 13.09 ms; update median = 4.9x baseline
    box memory (RSS): 121.9 MB at start, 136.6 MB at the end (+14.7 MB; +0.25 MB a minute over the second half); each
    minute: 121.9 133.2 134.4 ...
    box: exit 0 on SIGTERM, 0 tracebacks, 0 connections refused

Targets (issue 12): p95 <= 300 ms and memory flat.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import tempfile
import threading
import time
import urllib.error
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.box_process import BoxProcess, Phone, free_port  # noqa: E402

COMMAND = ["demo", "--game", "roll", "--players", "Ann,Bob", "--no-screen", "--no-gpio"]
PLAYERS = ("Ann", "Bob")
REFUSED = re.compile(r"closing new ones \((\d+) so far\)")


def rss_mb(pid: int) -> float:
    """The resident memory of process ``pid`` (MB, from /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise OSError(f"no VmRSS for process {pid}")


def baseline_ms(repeat: int = 50) -> tuple[float, tuple[int, int]]:
    """The benches' one baseline: ``cv2.imread`` + ``cvtColor`` of a JPEG (quality 95) of the first bundled
    demo photo (median ms over ``repeat``), and its (width, height)."""
    photo = sorted((ROOT / "companion" / "demo" / "photos").glob("*.jpg"))[0]
    image = cv2.imread(str(photo))
    with tempfile.TemporaryDirectory(prefix="phone_load_") as tmp:
        path = str(Path(tmp) / "frame.jpg")
        cv2.imwrite(path, image, [cv2.IMWRITE_JPEG_QUALITY, 95])
        times = []
        for _ in range(repeat):
            started = time.perf_counter()
            cv2.cvtColor(cv2.imread(path), cv2.COLOR_BGR2GRAY)
            times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times), (image.shape[1], image.shape[0])


@dataclass
class Watcher:
    """One phone: its event stream and the picture, as phone.js shows them."""

    phone: Phone
    seen: dict[int, float] = field(default_factory=dict)  # event seq -> when its state reached this phone
    events: int = 0
    frames: int = 0
    frame_failures: int = 0
    stream_failures: int = 0
    _frame_wanted: str | None = None
    _frame_key: str | None = None
    _wake: threading.Event = field(default_factory=threading.Event)

    def read_stream(self, stop: threading.Event) -> None:
        """``/api/events`` line by line; each state's ``session.events`` marks the reports it shows."""
        shown = 0
        while not stop.is_set():
            try:
                with self.phone.opener.open(self.phone.base + "/api/events", timeout=30) as stream:
                    data: list[str] = []
                    for raw in stream:
                        line = raw.decode("utf-8").rstrip("\n")
                        if line.startswith("data: "):
                            data.append(line[6:])
                        elif not line and data:
                            now = time.perf_counter()
                            state = json.loads("\n".join(data))
                            data = []
                            if "session" not in state:
                                continue  # an "event: me" (this phone's seats)
                            self.events += 1
                            last = int(state["session"].get("events") or 0)
                            for seq in range(shown + 1, last + 1):
                                self.seen.setdefault(seq, now)
                            shown = max(shown, last)
                            frame = state.get("frame") or {}
                            key = f"i{frame['index']}" if "index" in frame else f"v{state['version']}"
                            if key != self._frame_key:  # phone.js: a new picture to show
                                self._frame_key = key
                                self._frame_wanted = f"/frame.jpg?v={state['version']}"
                                self._wake.set()
                        if stop.is_set():
                            return
            except OSError:
                if stop.is_set():
                    return
                self.stream_failures += 1
                stop.wait(1.0)  # as EventSource reconnects (retry: 2000)

    def fetch_frames(self, stop: threading.Event) -> None:
        """phone.js's ``loadFrame``: one picture at a time, the newest wanted one next."""
        while not stop.is_set():
            if not self._wake.wait(0.5):
                continue
            self._wake.clear()
            url, self._frame_wanted = self._frame_wanted, None
            if url is None:
                continue
            try:
                with self.phone.opener.open(self.phone.base + url, timeout=30) as answer:
                    answer.read()
                self.frames += 1
            except urllib.error.HTTPError as exc:
                if exc.code != 404:  # 404: no picture yet (phone.js shows "No picture yet")
                    self.frame_failures += 1
            except OSError:
                if not stop.is_set():
                    self.frame_failures += 1


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0-1) of ``values`` (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


def run(phones: int, seconds: float, say: Any = print) -> dict[str, Any]:
    """The load (see the module doc); returns the figures."""
    with tempfile.TemporaryDirectory(prefix="phone_load_") as tmp:
        port = free_port()
        box = BoxProcess(COMMAND, Path(tmp), port=port)
        try:
            box.wait_until(lambda s: bool((s.get("session") or {}).get("id")))
            link = box.join_link()
            assert link is not None, "the box printed no join link"
            watchers = [Watcher(Phone(box.base, source=f"127.0.0.{2 + k}")) for k in range(phones)]
            reporter = Phone(box.base, source="127.0.0.250")
            for phone in [w.phone for w in watchers] + [reporter]:
                phone.join(link)
            stop = threading.Event()
            threads = [threading.Thread(target=work, args=(stop,), daemon=True)
                       for w in watchers for work in (w.read_stream, w.fetch_frames)]
            for thread in threads:
                thread.start()
            time.sleep(2.0)  # every stream open, every phone showing the game
            sent: dict[int, float] = {}
            answer_ms: list[float] = []
            refused: list[str] = []
            rss = [rss_mb(box.pid)]
            version = reporter.version()
            started = time.perf_counter()
            minute = 0
            for n in range(int(seconds)):
                time.sleep(max(0.0, started + n - time.perf_counter()))
                t0 = time.perf_counter()
                status, answer = reporter.post("/api/report", {"player": PLAYERS[n % 2], "form": "credits",
                                                               "values": {"credits": (n // 2) % 11}}, version=version)
                answer_ms.append((time.perf_counter() - t0) * 1000)
                if status == 200 and answer.get("recorded"):
                    for seq in answer["recorded"]:
                        sent[seq] = t0
                    version = int(answer["version"])
                else:
                    refused.append(f"{status} {answer.get('error')}")
                    version = reporter.version()
                if (n + 1) % 60 == 0 or n + 1 == int(seconds):
                    minute += 1
                    rss.append(rss_mb(box.pid))
                    lat = [(w.seen[s] - t) * 1000 for w in watchers for s, t in sent.items() if s in w.seen]
                    say(f"  minute {minute}: {len(sent)} reports, update median {statistics.median(lat):.0f} ms, "
                        f"p95 {percentile(lat, 0.95):.0f} ms; frames {sum(w.frames for w in watchers)}; "
                        f"RSS {rss[-1]:.1f} MB" if lat else f"  minute {minute}: no update seen yet")
            time.sleep(1.0)  # the last report reaches the phones
            stop.set()
            code, err = box.stop()
            for thread in threads:
                thread.join(10)
        finally:
            if box.alive():
                box.kill()
    latencies = [(w.seen[s] - t) * 1000 for w in watchers for s, t in sent.items() if s in w.seen]
    missed = sum(1 for w in watchers for s in sent if s not in w.seen)
    refused_connections = max([int(m.group(1)) for m in map(REFUSED.search, err.splitlines()) if m] or [0])
    return {"phones": phones, "seconds": seconds, "reports": int(seconds), "written": len(sent), "refused": refused,
            "answer_ms": answer_ms, "latency_ms": latencies, "missed": missed,
            "frames": sum(w.frames for w in watchers), "frame_failures": sum(w.frame_failures for w in watchers),
            "stream_failures": sum(w.stream_failures for w in watchers), "events": sum(w.events for w in watchers),
            "rss_mb": rss, "exit": code, "tracebacks": err.count("Traceback"),
            "refused_connections": refused_connections,
            "stderr": err}


def _per_minute(samples: list[float]) -> float:
    """The least-squares slope of samples taken a minute apart (per minute; 0 for fewer than two)."""
    if len(samples) < 2:
        return 0.0
    return float(np.polyfit(np.arange(len(samples)), samples, 1)[0])


def report(figures: dict[str, Any], base: float, size: tuple[int, int]) -> list[str]:
    """The printed lines (see the module doc)."""
    lat, answer, rss = figures["latency_ms"], figures["answer_ms"], figures["rss_mb"]
    median = statistics.median(lat) if lat else float("nan")
    return [
        f"phone load: {figures['phones']} phones (events + picture), a report a second, {figures['seconds']:.0f} s, "
        f"{' '.join(COMMAND[:3])} on 127.0.0.1",
        f"reports: {figures['reports']} sent, {figures['written']} answered 200; answer median "
        f"{statistics.median(answer):.0f} ms, p95 {percentile(answer, 0.95):.0f} ms"
        + (f"; refused: {figures['refused'][:3]}" if figures["refused"] else ""),
        f"update (report POST -> its state on a phone's event stream): median {median:.0f} ms, p95 "
        f"{percentile(lat, 0.95) if lat else float('nan'):.0f} ms, max {max(lat, default=float('nan')):.0f} ms over "
        f"{len(lat)} (phone, report) pairs; never seen {figures['missed']}",
        f"frames: {figures['frames']} fetched ({figures['frames'] / figures['seconds']:.1f} a second), "
        f"{figures['frame_failures']} failed; events streamed {figures['events']}, streams broken "
        f"{figures['stream_failures']}",
        f"baseline (JPEG q95 imread + cvtColor, {size[0]}x{size[1]}): {base:.2f} ms; update median = "
        f"{median / base:.1f}x baseline",
        f"box memory (RSS): {rss[0]:.1f} MB at start, {rss[-1]:.1f} MB at the end ({rss[-1] - rss[0]:+.1f} MB; "
        f"{_per_minute(rss[(len(rss) - 1) // 2:]):+.2f} MB a minute over the second half); "
        f"each minute: {' '.join(f'{v:.1f}' for v in rss)}",
        f"box: exit {figures['exit']} on SIGTERM, {figures['tracebacks']} tracebacks, "
        f"{figures['refused_connections']} connections refused",
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=10.0, help="how long (default 10)")
    parser.add_argument("--phones", type=int, default=20, help="phones on the event stream and picture (default 20)")
    args = parser.parse_args(argv)
    if not 0 < args.minutes <= 24 * 60 or not 1 <= args.phones <= 200:
        parser.error("--minutes must be above 0 (at most a day) and --phones 1-200")
    base, size = baseline_ms()
    figures = run(args.phones, args.minutes * 60, say=lambda line: print(line, flush=True))
    for line in report(figures, base, size):
        print(line)
    lines = figures["stderr"].splitlines()
    for k, line in enumerate(lines):  # each traceback the box logged, with the line before it (what failed)
        if line.startswith("Traceback"):
            print("\n".join(lines[max(0, k - 1):k + 40]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
