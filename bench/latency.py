"""Dice settled -> phone updated: the delay through the box's real loop and phone view, on frame sequences and on
the demo's photos.

Usage::

    python bench/latency.py                        # 2 sequences at 1280x720, 15 fps, and the demo's photos
    python bench/latency.py --sequences 4 --fps 30 --size 960x540
    python bench/latency.py --sequences 0          # the demo only

1. Sequences (:func:`vision.synth_motion.play_sequence` on :func:`vision.synth_full.dice_tray`, seeded): dice rolled
   (some of them, or one), a hand hovering, an arm sweeping over the dice, a shadow passing. A camera plays them in
   real time (:class:`bench.table_loop.PacedSequence`: a frame the loop was too busy to take is lost, as on a live
   camera) into the loop ``companion run`` builds for the d6 dice (:class:`companion.app.MainLoop`, the real
   :class:`vision.D6Reader`, a session in a temporary database); the phone view is served by waitress on
   127.0.0.1 and a phone listens to ``/api/events``. Printed: settle -> event median and p95 (ms, from the
   capture of the first frame at rest to the phone receiving the state with the new read), false reads (a read
   recorded from a frame where something moved or a hand was in view), missed settles (a changed layout that
   came to rest and was not recorded before the next event), reads of an unchanged layout, and how many
   recorded reads hold the right values.
2. The demo (``companion demo``'s replay of its bundled photos, as the command sets it up, one pass): from a photo
   shown (its first frame) to the phone receiving its read, median and p95 (ms).
3. The read worker of a game: a full Roll table's dice pass and card pass in each order the box can read them
   (``CameraFlow(order=...)``, :mod:`vision.dice_and_cards`), medians and the ratio to the JPEG baseline.

Targets (issue 15): median <= 300 ms, p95 <= 400 ms.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import logging
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.table_loop import PacedSequence, percentile, phone_view, settle_windows, table_stillness, tray_sequence

EVENTS = ["roll", "hover", "roll", "sweep", "reroll", "shadow", "roll", "reroll"]


def _loop(source, store, reader, hub):
    from companion.app import MainLoop

    session = store.start("d6", {"source": source.name})
    loop = MainLoop(source=source, reader=reader, session=session, hub=hub, stillness=table_stillness(),
                    stop_at_end=True)
    return loop, session


def _latest_seq(view: dict) -> int:
    latest = (view.get("game") or {}).get("latest") or {}
    return int(latest.get("seq") or 0)


def run_sequence(seq, reader, folder: Path) -> dict:
    """Play ``seq`` through the loop and the phone view; score the recorded reads against its truth."""
    from companion.hub import StateHub
    from companion.session import SessionStore

    hub = StateHub()
    source = PacedSequence([f.image for f in seq.frames], seq.fps)
    with SessionStore(folder / f"seq-{id(seq)}.sqlite3") as store:
        loop, session = _loop(source, store, reader, hub)
        server, phone = phone_view(hub)
        try:
            loop.run()
            time.sleep(0.3)  # the last state on its way to the phone
        finally:
            server.shutdown()
            phone.stop()
        reads = [(e.seq, int(e.payload["frame"]), e.payload["values"]) for e in session.events()
                 if e.kind == "dice_read"]
    frames = seq.frames
    false = [f for _, f, _ in reads if frames[f].moving or frames[f].hand or frames[f].layout is None]
    delays, missed, unchanged, right, judged = [], 0, 0, 0, 0
    for start, end, k, changed in settle_windows(seq):
        got = [(s, f, v) for s, f, v in reads if start <= f < end]
        truth = sorted(p.value for p in seq.layouts[k] if p.kind == "die")
        for _, _, values in got:
            judged += 1
            right += sorted(v or 0 for v in values) == truth
        if not changed:
            unchanged += len(got)
            continue
        if not got:
            missed += 1
            continue
        s = got[0][0]
        arrived = phone.first_with(lambda view, s=s: _latest_seq(view) >= s)
        if arrived is not None:
            delays.append((arrived - source.due(start)) * 1000.0)
    changed = sum(ch for _, _, ch in seq.settles)
    return {"reads": len(reads), "false": len(false), "missed": missed, "unchanged": unchanged, "delays": delays,
            "changed": changed, "right": right, "judged": judged, "frames": len(frames),
            "lost": len(frames) - len(set(source.delivered))}


def replay_options(hold: float) -> dict:
    """How ``companion demo`` replays photos (``companion.commands.box.replay_options`` where the box has it, else
    its constants before: 10 fps, each photo held ``hold`` s, sensor noise 1.5, paced in real time)."""
    try:
        from companion.commands.box import replay_options as box_options
    except ImportError:
        fps = 10.0
        return {"fps": fps, "hold_frames": max(1, round(hold * fps)), "skip_bad": True, "noise": 1.5, "loop": False,
                "realtime": True}
    return box_options(str(ROOT / "companion" / "demo" / "photos"), hold=hold, loop=False, realtime=True)


def run_demo(reader, folder: Path, hold: float) -> dict:
    """``companion demo``'s replay of its photos, one pass: photo shown -> the phone receives its read."""
    from companion.hub import StateHub
    from companion.session import SessionStore
    from device.replay import ReplaySource

    shown: dict[str, float] = {}

    class Watched(ReplaySource):
        def read(self):
            frame = super().read()
            name = str(self.current_file)
            if name not in shown:
                shown[name] = self._started_at + frame.timestamp  # the moment the photo is on the table
            return frame

    hub = StateHub()
    source = Watched(ROOT / "companion" / "demo" / "photos", **replay_options(hold))
    with SessionStore(folder / "demo.sqlite3") as store:
        loop, session = _loop(source, store, reader, hub)
        server, phone = phone_view(hub)
        try:
            loop.run()
            time.sleep(0.3)
        finally:
            server.shutdown()
            phone.stop()
        events = [e for e in session.events() if e.kind == "dice_read"]
    delays = []
    for e in events:
        at = shown.get(str(e.payload.get("image")))
        arrived = phone.first_with(lambda view, s=e.seq: _latest_seq(view) >= s)
        if at is not None and arrived is not None:
            delays.append((arrived - at) * 1000.0)
    return {"photos": len(shown), "reads": len(events), "delays": delays}


def _line(name: str, delays: list[float]) -> str:
    med = statistics.median(delays) if delays else float("nan")
    return f"{name}: median {med:.0f} ms, p95 {percentile(delays, 0.95):.0f} ms over {len(delays)}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sequences", type=int, default=2, help="seeded sequences played (0: the demo only)")
    ap.add_argument("--fps", type=float, default=15.0, help="frames per second of the sequences")
    ap.add_argument("--size", default="1280x720", help="frame size of the sequences, WxH")
    ap.add_argument("--seed", type=int, default=300, help="first sequence seed")
    ap.add_argument("--hold", type=float, default=2.0, help="seconds each demo photo is shown")
    ap.add_argument("--no-demo", action="store_true", help="skip the demo's photos")
    ap.add_argument("--parallel", type=int, default=6, metavar="N",
                    help="frames of a full Roll table read with the dice and card passes in each order the box "
                         "can read them (0: skip)")
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    from vision import D6Reader

    size = tuple(int(v) for v in args.size.lower().split("x"))
    reader = D6Reader()
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; d6 reader on {reader.runtime}")
    with tempfile.TemporaryDirectory(prefix="bench_latency_") as tmp:
        folder = Path(tmp)
        if args.sequences > 0:
            tot = {"reads": 0, "false": 0, "missed": 0, "unchanged": 0, "delays": [], "changed": 0, "right": 0,
                   "judged": 0, "frames": 0, "lost": 0}
            for k in range(args.sequences):
                t0 = time.perf_counter()
                seq = tray_sequence(args.seed + k, EVENTS, size, args.fps)
                rendered = time.perf_counter() - t0
                r = run_sequence(seq, reader, folder)
                for key, v in r.items():
                    tot[key] += v
                print(f"  sequence {args.seed + k}: {r['frames']} frames [{rendered:.0f} s to render], "
                      f"{r['changed']} rolls, {r['reads']} reads, {_line('settle -> event', r['delays'])}")
                del seq
            print(f"sequences: {args.sequences} x {EVENTS} at {args.fps:g} fps {size[0]}x{size[1]}, "
                  f"{tot['frames']} frames ({tot['lost']} not taken by the loop), {tot['changed']} changed layouts "
                  f"at rest")
            print(f"  {_line('settle -> phone event', tot['delays'])}")
            print(f"  reads {tot['reads']}, false reads {tot['false']}, missed settles {tot['missed']}, reads of an "
                  f"unchanged layout {tot['unchanged']}, reads with the right values {tot['right']}/{tot['judged']}")
        if not args.no_demo:
            r = run_demo(reader, folder, args.hold)
            print(f"demo: {r['photos']} photos shown ({args.hold:g} s each), {r['reads']} reads")
            print(f"  {_line('photo shown -> phone event', r['delays'])}")
    if args.parallel > 0:
        print(f"read worker, full Roll table 1280x720 (15 tiles, 20 dice), by order: {parallel_reads(args.parallel)}")
    print("targets: median <= 300 ms, p95 <= 400 ms")
    return 0


def parallel_reads(frames: int = 6, seed: int = 11) -> str:
    """The dice pass and the card pass of a full Roll table (15 tiles, 20 dice, 1280x720, everything new) in each
    order of :func:`vision.dice_and_cards.read_dice_and_cards` (as :class:`companion.camera.CameraFlow` reads them:
    ``tiles_first``, its default, the card pass's first look, the dice told its tiles, then its second look told the
    dice where it finds a place; ``explained``, the dice first and the card pass told where they lie; ``beside``, the
    dice on a second thread; ``serial``, the cards then the dice), the art check after: medians (ms) interleaved in
    one process, and their ratio to the JPEG baseline."""
    from concurrent.futures import ThreadPoolExecutor

    from bench.frame_timing import BASELINE, FrameTimer
    from bench.full_table import GameReaders
    from vision.dice_and_cards import ORDERS, cards_reader_with, dice_reader_with, first_look, read_dice_and_cards
    from vision.inference import InferenceConfig
    from vision.synth_full import full_table
    from vision.table import calibrate

    with tempfile.TemporaryDirectory(prefix="bench_parallel_") as tmp:
        readers = GameReaders(Path(tmp), InferenceConfig())
        table = full_table("roll", readers.ids["roll"], seed, (1280, 720), faces_by_colour=readers.faces)
        image = table.render(frame_seed=1)
        dice, cards = readers.readers("roll", calibrate(image, table.layout))
        pool = ThreadPoolExecutor(max_workers=1)
        timers = {order: FrameTimer() for order in ORDERS}

        def read(f, order):
            return read_dice_and_cards(f, lambda found=(): dice_reader_with(dice, found, cards.deck.art).read(f),
                                       {"cards": lambda explained: cards_reader_with(cards, explained).read(f)},
                                       cards.deck.art, order, pool, first={"cards": first_look(cards, f)})

        for k in range(frames):
            img = table.render(frame_seed=k + 2)
            for order in (ORDERS if k % 2 == 0 else ORDERS[::-1]):
                timers[order].time(img, lambda f, order=order: read(f, order))
        pool.shutdown()
        line = ", ".join(f"{order} {t.median_ms:.0f} ms ({t.ratio:.0f}x)" for order, t in timers.items())
        line += f"; {BASELINE} {timers['explained'].median_base_ms:.1f} ms"
        for t in timers.values():
            t.close()
    return line


if __name__ == "__main__":
    raise SystemExit(main())
