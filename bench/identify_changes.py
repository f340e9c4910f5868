"""What the card reader's identify stage costs after one change on a calibrated table (issue 15: a new card identified
in <= 1.5 ms; 0 ms for a card that did not move).

``bench/identify_split.py`` splits the cold read (every card new); this bench reads the frames the box reads after a
change, as it reads them (``bench/full_table.py``'s ``read_after_change``: the change boxes, then only windows round
them, :func:`vision.cards.read_cards_changes`). A die re-rolled should cost the tiles nothing (no card came, went or
moved); a card played should cost the identification of that card alone.

Scenes: :func:`vision.synth_full.full_table` at 1280x720, layout seeds ``--seeds``, calibrated from the frame of seed
0, which is read once untimed (the read every change is read against); then for each change of the game
(``bench/full_table.py``'s ``CHANGES``: Roll for the Galaxy a die re-rolled and a tile played; Race for the Galaxy and
Among the Stars a card played) and each change seed of ``--changes``, the frame after it (frame seed 1) is read
``--rounds`` times after the change, and once whole (``read_all``) to compare.

Printed, one line per frame: the identify stage's CPU ms of the reading thread (median over the rounds; 0 when the
stage did not run), how many crops the deck scored in it (:meth:`vision.deck.DeckProfile.score_many` and
``score_places_many``: the first look and every second look), how many cards the change added, and whether the read
after the change names the same cards as the whole frame's read. Then per change: the frames, those whose identify
ran, the median identify ms, and for cards played the median identify ms per card added.

    python bench/identify_changes.py --games roll --seeds 1,102,108 --changes 2..7 --rounds 3
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before numpy: single-threaded BLAS, as the box sets it

import argparse
import statistics
import sys
import tempfile
import time
import types
from dataclasses import dataclass
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


@dataclass(frozen=True)
class ChangeRead:
    """One frame after a change: its layout seed, change kind and seed, the identify stage's CPU ms (median over the
    rounds), the crops the deck scored in one read, the cards the change added, and whether the read after the change
    names the same cards as the whole frame's read."""

    seed: int
    kind: str
    change_seed: int
    identify_ms: float
    crops: int
    added: int
    same: bool


def parse_seeds(text: str) -> list[int]:
    """``"2..7"`` -> [2, 3, 4, 5, 6, 7]; ``"1,102"`` -> [1, 102] (both may be mixed: ``"1,5..6"``).

    Raises:
        ValueError: a part is not a whole number or a range ``a..b`` with a <= b."""
    out: list[int] = []
    for part in (p.strip() for p in text.split(",") if p.strip()):
        if ".." in part:
            a, b = (int(x) for x in part.split("..", 1))
            if a > b:
                raise ValueError(f"seed range {part!r} runs backwards")
            out.extend(range(a, b + 1))
        else:
            out.append(int(part))
    return out


def summary(rows: list[ChangeRead]) -> dict[str, dict[str, float | int | None]]:
    """Per change kind (in the order first seen): ``frames``; ``ran``, the frames whose identify stage cost anything;
    ``median_ms``, the median identify ms over every frame (0 for a frame it did not run in); ``per_card_ms``, the
    median over the frames that added cards of their identify ms per card added (None when none added any);
    ``differ``, the frames read otherwise than the whole frame."""
    out: dict[str, dict[str, float | int | None]] = {}
    for kind in dict.fromkeys(r.kind for r in rows):
        mine = [r for r in rows if r.kind == kind]
        added = [r.identify_ms / r.added for r in mine if r.added > 0]
        out[kind] = {"frames": len(mine), "ran": sum(r.identify_ms > 0 for r in mine),
                     "median_ms": statistics.median(r.identify_ms for r in mine),
                     "per_card_ms": statistics.median(added) if added else None,
                     "differ": sum(not r.same for r in mine)}
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", default="roll", help="comma-separated, from race, among, roll")
    ap.add_argument("--seeds", default="1,102,108", help="layout seeds: comma-separated, or a..b")
    ap.add_argument("--changes", default="2..7", help="change seeds: comma-separated, or a..b")
    ap.add_argument("--rounds", type=int, default=3, help="timed reads of every frame after its change")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    import vision.deck
    import vision.timing

    vision.timing.time = types.SimpleNamespace(perf_counter=time.thread_time)   # the stages in CPU ms of this thread
    scored = [0]
    own = vision.deck.DeckProfile._scored

    def counted(self, crops, off_centre):
        scored[0] += len(crops)
        return own(self, crops, off_centre)

    vision.deck.DeckProfile._scored = counted

    from bench.full_table import CHANGES, GameReaders, change, read_after_change, read_all
    from vision.inference import InferenceConfig
    from vision.synth_full import full_table
    from vision.table import calibrate

    def names(read) -> list[str]:
        return sorted(o.id or "?" for s in read.sightings if s.reader == "cards" for o in s.cards)

    print(f"tree: {ROOT}; CPU ms of the reading thread, medians over {args.rounds} rounds; load average "
          f"{os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory(prefix="identify_changes_") as tmp:
        gr = GameReaders(Path(tmp) / "readers", InferenceConfig())
        for game in [g.strip() for g in args.games.split(",") if g.strip()]:
            print(f"== {game} (calibrated)\n  seed change        identify  crops added  same as whole")
            rows: list[ChangeRead] = []
            for seed in parse_seeds(args.seeds):
                table = full_table(game, gr.ids[game], seed, (1280, 720), gr.faces)
                first = table.render(frame_seed=0)
                readers = gr.readers(game, calibrate(first, table.layout))
                cold = read_all(readers, first)
                for kind in CHANGES[game]:
                    for cs in parse_seeds(args.changes):
                        pieces = change(table, kind, gr.ids[game], gr.faces, cs)
                        after = table.render(pieces, frame_seed=1)
                        ms, crops = [], 0
                        for _ in range(max(1, args.rounds)):
                            scored[0] = 0
                            got = read_after_change(readers, after, cold, first)
                            ms.append(got.timings_ms.get("cards.identify", 0.0))
                            crops = scored[0]
                        whole = read_all(readers, after)
                        added = sum(p.kind == "card" for p in pieces) - sum(p.kind == "card" for p in table.pieces)
                        same = names(got) == names(whole)
                        row = ChangeRead(seed, kind, cs, statistics.median(ms), crops, added, same)
                        rows.append(row)
                        print(f"  {seed:>4} {kind:8} {cs:>3} {row.identify_ms:8.1f}  {crops:5d} {added:5d}  "
                              f"{'yes' if row.same else 'NO'}")
            for kind, s in summary(rows).items():
                per = f"; {s['per_card_ms']:.2f} ms a card added" if s["per_card_ms"] is not None else ""
                print(f"  {kind}: {s['frames']} frames, identify ran in {s['ran']}, median {s['median_ms']:.2f} ms"
                      f"{per}; read otherwise than the whole frame: {s['differ']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
