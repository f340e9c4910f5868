"""Among the Stars through the camera flow on generated whole tables with no player zones saved: what each player's
station watcher takes in from one read, against where the cards really lie.

Usage::

    python bench/among_stations.py --seeds 100-109 [--tree /tmp/old-tree] [--calibrated] [--seats] [--answer]

Scenes: :func:`vision.synth_full.full_table` (``"among"``: four stations of ten cards, the odd players' read from
the far side) at 1280x720, frame seed 0; a flow of four players P1-P4 (station k is player k's) with no ``"zones"``
in its settings; ``--seats`` gives the flow ``"seat_points"`` as the Players step keeps them when Start is tapped
before the first picture (each a card's length beyond the station's reactor, towards the table's near or far edge);
``--calibrated``: the table calibrated from its corner markers, else none. ``--tree``: read with another checkout's
code (its ``companion``, ``vision`` and ``rules``), e.g. main's, for a before/after.

Printed per layout and in total: cards laid; cards a watcher holds at the cell and for the player where they really
lie (``right``); cards it holds for the wrong player or at a wrong cell (``wrong``); questions asked about builds, and
those whose player, card and cell are all right; "whose station is this?" questions, and those offering the station's
true player (the player whose reactor lies nearest the question's place); whether the table was told it cannot tell
stations apart. ``--answer``: each "whose station" question is then answered with its true player (one tap, as a
player at the table would) and the table read once more: the same figures after the answers.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def seeds_of(text: str) -> list[int]:
    """``"100-109"`` or ``"100,103"`` -> the seeds."""
    out: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        out += list(range(int(lo), int(hi or lo) + 1))
    return out


KEYS = ("laid", "right", "wrong", "asked", "asked_right", "whose", "whose_ok", "told")


def count(cam, view, truth, reactors, cat) -> dict[str, int]:
    """One read's figures (module doc): ``truth`` {(player, cell): card id}, ``reactors`` {player: reactor px}."""
    row = dict(laid=len(truth), right=0, wrong=0, asked=0, asked_right=0, whose=0, whose_ok=0,
               told=int(any("cannot tell" in str(n) for n in view["reader_notes"])))
    for name, w in cam.watchers.items():
        for cell, card in w.layout.items():
            ok = truth.get((name, cell)) == cat.card(card).id
            row["right" if ok else "wrong"] += 1
    for q in view["questions"]:
        if q.get("choose_player"):
            row["whose"] += 1
            row["whose_ok"] += int(owner_of(q, reactors) in q["choices"])
            continue
        row["asked"] += 1
        card = q["payload"].get("card") or "Power Reactor"
        cell = tuple(q["payload"]["cell"])
        row["asked_right"] += int(cat.card(truth.get((q["player"], cell), "main_reactor")).name == card)
    return row


def owner_of(q, reactors) -> str:
    """The player whose reactor lies nearest a whose-station question's place."""
    import numpy as np

    at = np.asarray(q["payload"]["at"], np.float64)
    return min(reactors, key=lambda name: float(np.hypot(*(reactors[name] - at))))


def said(row) -> str:
    return (f"laid {row['laid']}, right {row['right']}, wrong {row['wrong']}, asked {row['asked']} "
            f"({row['asked_right']} right), whose-station asked {row['whose']} ({row['whose_ok']} offering its "
            f"player), told it cannot tell stations apart: {row['told']}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", default="100-109")
    ap.add_argument("--tree", type=Path, default=ROOT, help="the checkout whose code reads (default: this one)")
    ap.add_argument("--calibrated", action="store_true")
    ap.add_argument("--seats", action="store_true")
    ap.add_argument("--answer", action="store_true", help="answer each whose-station question with its true player, "
                                                          "then read again")
    args = ap.parse_args(argv)
    sys.path.insert(0, str(args.tree.resolve()))
    sys.path.insert(1, str(ROOT))
    os.environ.setdefault("TABLETOP_SHARED", "/work/shared")

    import numpy as np

    import companion
    from bench.table_reader import game_ids
    from companion.camera import CameraFlow
    from companion.flow import GameFlow
    from companion.flows import FLOWS
    from companion.player_names import parse_players
    from companion.session import SessionStore
    from device import Frame
    from rules.among_the_stars.data import catalogue
    from vision.deck_enroll import build_deck_from_images
    from vision.synth_full import full_table
    from vision.synth_table import GAME_SHAPES, reference_images
    from vision.table import calibrate
    print(f"code: {Path(companion.__file__).resolve().parents[1]}; calibrated: {args.calibrated}; "
          f"seats tapped: {args.seats}")
    cat = catalogue()
    ids = game_ids()["among"]
    deck = build_deck_from_images(reference_images(ids, GAME_SHAPES["among"], seed=7), name="among", kind="scan",
                                  card_mm=GAME_SHAPES["among"])
    names = ["P1", "P2", "P3", "P4"]
    total = {k: 0 for k in KEYS}
    after = {k: 0 for k in KEYS}

    with tempfile.TemporaryDirectory() as tmp:
        for seed in seeds_of(args.seeds):
            table = full_table("among", ids, seed)
            image = table.render(frame_seed=0)
            truth = {(names[p.player], p.cell): p.id for p in table.pieces if p.player is not None}
            reactors = {names[p.player]: table.to_px(np.array([p.centre_mm]))[0] for p in table.pieces
                        if p.player is not None and p.cell == (0, 0)}
            settings = dict(FLOWS["among"].settings(parse_players(",".join(names)), {}))
            if args.seats:
                seats = {}
                for k, name in enumerate(names):
                    mr = next(p for p in table.pieces if p.player == k and p.cell == (0, 0))
                    far = 1 if k % 2 == 0 else -1     # the odd stations face the far side of the table
                    at = table.to_px(np.array([[mr.centre_mm[0], mr.centre_mm[1] + far * mr.size_mm[1]]]))[0]
                    seats[name] = [float(at[0]), float(at[1])]
                settings["seat_points"] = seats
            with SessionStore(Path(tmp) / f"s{seed}.sqlite3") as store:
                flow = GameFlow(store.start("among", settings), FLOWS["among"])
                cam = CameraFlow(flow, deck=deck, calibration=calibrate(image, table.layout) if args.calibrated
                                 else None)
                frame = Frame(image=image, timestamp=0.0, index=0, source="generated")
                cam.schedule(0.0)
                cam.read(frame, 0.0)
                view = cam.view()
                row = count(cam, view, truth, reactors, cat)
                print(f"layout {seed}: {said(row)}")
                for k in KEYS:
                    total[k] += row[k]
                if args.answer:
                    for q in [q for q in view["questions"] if q.get("choose_player")]:
                        player = owner_of(q, reactors)
                        if player in q["choices"]:
                            cam.confirm(q["id"], player)
                    cam.schedule(1.0)
                    cam.read(frame, 1.0)
                    row = count(cam, cam.view(), truth, reactors, cat)
                    print(f"layout {seed} answered: {said(row)}")
                    for k in KEYS:
                        after[k] += row[k]
    print(f"total: {said(total)} (on {total['told']} layouts)")
    if args.answer:
        print(f"total answered: {said(after)} (on {after['told']} layouts)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
