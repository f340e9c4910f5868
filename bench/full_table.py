"""Full-table reads: every game's whole table at once, cold and after one change, against one baseline.

Usage::

    python bench/full_table.py                                   # 4 games x 2 sizes, 3 frames each
    python bench/full_table.py --games roll --sizes 1280x720 --reps 5 --threads 2

Scenes (:func:`vision.synth_full.full_table`, seeded): Roll for the Galaxy (20 dice + 15 tiles), Race for the
Galaxy (4 tableaux, 40 cards), Among the Stars (4 stations, 40 locations), Eclipse (24 sector hexes + 8 combat
dice), at 1280x720 and 2304x1296 (the Pi camera's default size). Decks are enrolled from the stand-in 'scans',
the Roll dice and Eclipse's combat dice from synthetic enrollment folders (the combat dice as ``companion enroll
eclipse-dice`` does: the box reads them with the Roll dice reader and that profile, colour and face, since a hit's
damage is its colour's and the 1 and 6 are no pips; they are read beside the map, the hexes the hex read found
painted out, :class:`vision.hexes.OffMapDice`); after the reads of a frame, the dice that are the printed art of
a tile the card read identified are dropped, as the box does (:func:`vision.card_art.without_art`, stage
``roll_dice.art``; ``--no-art-check``: kept); the table is calibrated once from its corner markers
(:func:`vision.table.calibrate`), as the box does at set-up.

Printed per game and size (medians over ``--reps`` frames, each frame with fresh sensor noise; every
figure also as a ratio to a JPEG (quality 95) ``imread`` + ``cvtColor`` of the same frame, timed interleaved
in this process, :mod:`bench.frame_timing`):

* ``cold``: the read of a table whose components are all new (every reader of the game on the frame; the dice and
  the tiles in ``--order``, by default as the box reads them: the tiles' first look, then the dice told the tiles
  found, whose print they do not match against the faces, stage ``roll_dice.art_tops``, then a tile read's second
  look where it would run, told where the dice lie);
  the dice reader keeps the die size it searched on an earlier read of the table, as the box's reader of its one
  fixed camera does (``remember_size``: it searches again after ``size_recheck_every`` full reads, or where the
  evidence at the kept size falls), so a cold read reads the dice at one die size;
* ``first read``: the same frame read with no die size kept (the box's first read after it starts, and every
  ``size_recheck_every``-th full read): the dice reader searches the die size over every size it tries
  (``size_hypotheses``); timed just before the cold read, the die size then kept as before;
* ``after <change>``: the read of the next settled frame after one change (a die rolled again, a card
  played), given the previous read and the region that changed (:func:`vision.incremental.read_changes`,
  the region from :func:`vision.motion.change_boxes` of the two frames), in the box's order for a read of the
  changes (:func:`vision.dice_and_cards.changes_order`: the card reads first, then the dice read told the cards
  found, whose print it does not match against the faces: stage ``roll_dice.art_tops``; a change the cards' print
  explains whole, no die on it or beside it, it does not read at all: stage ``roll_dice.art_change``);
* the per-stage medians of each (``reader.stage``), largest first;
* what was read: dice, cards and hexes found and identified against the scene's labels, and the dice reported
  where there is none (false); for a change, whether
  the changed piece was read right, and on how many pieces the read after it says what a cold read of the
  same frame says (a cold read of a frame with fresh noise may itself differ on a borderline piece).
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before numpy: the bench sets threads on purpose

import argparse
import shutil
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.frame_timing import FrameTimer
from bench.hex_reader import sector_ids
from bench.table_reader import game_ids
from vision import synth
from vision import timing as timing_module
from vision.cards import CardsConfig
from vision.deck_enroll import build_deck_from_images
from vision.dice_and_cards import (
    ORDERS,
    cards_reader_with,
    changes_order,
    dice_reader_with,
    first_look,
    kept_dice,
    read_dice_and_cards,
)
from vision.hexes import OffMapDice, build_hex_deck_from_images
from vision.incremental import read_changes
from vision.inference import RUNTIMES, InferenceConfig, set_opencv_threads
from vision.motion import change_boxes
from vision.profiles import load_dice_faces
from vision.readers import CardsAdapter, HexesAdapter, RollDiceAdapter
from vision.roll_dice import RollDiceConfig, RollDiceReader, build_profile
from vision.synth_full import COMBAT_DICE, FULL_GAMES, FullTable, add_card, full_table, reroll, write_combat_enrollment
from vision.synth_table import GAME_SHAPES, hex_reference_images, reference_images
from vision.table import calibrate

SHARED = Path(os.environ.get("TABLETOP_SHARED", ROOT.parent / "shared"))
ORDER = "tiles_first"
"""How :func:`read_all` reads the dice and the cards of a frame (:data:`vision.dice_and_cards.ORDERS`), as the box
does by default: the tiles' first look first, then the dice told the tiles found (a face their print explains is not
matched), then a card read's second look where it would run, told where the dice lie."""
ART_CHECK = True
"""Whether the dice that are a card's printed art are dropped after the reads (:func:`_read`), as the box does."""
CLOCK = time.perf_counter
"""What the reads, their stages and the baseline are timed by (``--cpu``: ``time.process_time``)."""

CHANGES = {"roll": ("reroll", "add_card"), "race": ("add_card",), "among": ("add_card",), "eclipse": ("reroll",)}


@dataclass
class TableRead:
    """The sightings of every reader of a game on one frame, and their stage timings as ``reader.stage``."""

    sightings: tuple
    timings_ms: dict[str, float] = field(default_factory=dict)


def _hexes(sightings) -> tuple:
    return tuple(h for s in sightings for h in s.hexes)


_DICE_THREAD: list[ThreadPoolExecutor] = []


def _read(readers, frame, one, order: str | None = None, kept: tuple = (), first=None) -> list:
    """Each reader's sighting of ``frame``, in ``readers``' order, read as the box reads them
    (:meth:`companion.camera.flow.CameraFlow.see`): a map reader, then the dice beside the map
    (:class:`vision.hexes.OffMapDice`) given the hexes it found; the dice and the cards in ``order`` (None:
    ``ORDER``; ``kept``: the dice of the last read a read of the changes keeps, for ``"cards_first"``), then the art
    check (:func:`vision.dice_and_cards.read_dice_and_cards`: the dice that are the printed art of a card the card
    read identified dropped; timed as the dice reader's ``art`` stage; ``ART_CHECK`` off: kept).
    ``one(reader, hexes_before, explained, cards)``: one reader's read (``cards``: those the card reads found, told
    to the dice read of ``"cards_first"`` and ``"tiles_first"``, else ()); ``first(reader)``: a card reader's first
    look for ``"tiles_first"`` (:func:`vision.dice_and_cards.first_look`; None: none)."""
    order = ORDER if order is None else order
    dice = next((r for r in readers if isinstance(r, RollDiceAdapter)), None)
    cards = {k: r for k, r in enumerate(readers) if isinstance(r, CardsAdapter)}
    out: dict[int, object] = {}
    if dice is not None or cards:
        if order == "beside" and not _DICE_THREAD:
            _DICE_THREAD.append(ThreadPoolExecutor(max_workers=1, thread_name_prefix="bench-dice"))
        art = next((r.deck.art for r in cards.values() if r.deck is not None), None) if ART_CHECK else None
        seen, read = read_dice_and_cards(
            frame, None if dice is None else (lambda found=(): one(dice, (), (), found)),
            {k: (lambda explained, r=r: one(r, (), explained, ())) for k, r in cards.items()}, art, order,
            _DICE_THREAD[0] if _DICE_THREAD else None, kept,
            None if first is None else {k: first(r) for k, r in cards.items()})
        out.update(read)
        if dice is not None:
            out[readers.index(dice)] = seen
    hexes: tuple = ()
    for k, r in enumerate(readers):
        if k not in out:
            out[k] = one(r, hexes, (), ())
            hexes += tuple(out[k].hexes)
    return [out[k] for k in range(len(readers))]


def read_all(readers, frame, order: str | None = None) -> TableRead:
    """Every reader on ``frame``, as the box reads them (:func:`_read`; ``order``: None, ``ORDER``)."""
    art = next((r.deck.art for r in readers if isinstance(r, CardsAdapter) and r.deck is not None), None)
    sightings = _read(readers, frame, lambda r, hexes, explained, cards: r.read(frame, hexes)
                      if isinstance(r, OffMapDice) else
                      dice_reader_with(cards_reader_with(r, explained), cards, art).read(frame), order,
                      first=lambda r: first_look(r, frame))
    return TableRead(tuple(sightings), {f"{s.reader}.{k}": v for s in sightings for k, v in s.timings_ms.items()})


def read_after_change(readers, frame, previous: TableRead, before: np.ndarray, order: str | None = None) -> TableRead:
    """The read of ``frame`` after one change since ``before`` (the frame ``previous`` was read on): the
    change boxes of the two frames (:func:`vision.motion.change_boxes`, timed as ``motion.change_boxes``),
    then each reader reads only those (:func:`vision.incremental.read_changes`), as the box reads them
    (:func:`_read`; ``order``: None, ``ORDER``)."""
    t0 = CLOCK()
    boxes = change_boxes(before, frame)
    t_boxes = (CLOCK() - t0) * 1000.0
    last = dict(zip(map(id, readers), previous.sightings, strict=True))
    # as the box: the card reads first where every read reads only the changes (changes_order)
    order = changes_order(ORDER if order is None else order, frame.shape, previous.sightings, boxes)
    dice = next((last[id(r)] for r in readers if isinstance(r, RollDiceAdapter)), None)
    art = next((r.deck.art for r in readers if isinstance(r, CardsAdapter) and r.deck is not None), None) \
        if ART_CHECK else None

    def one(r, hexes, explained, cards):
        if isinstance(r, OffMapDice):
            return r.read_changes(frame, last[id(r)], boxes, hexes)
        told = dice_reader_with(cards_reader_with(r, explained), cards, art)
        return read_changes(told, frame, last[id(r)], boxes)

    sightings = _read(readers, frame, one, order, kept_dice(dice, boxes),
                      lambda r: first_look(r, frame, last[id(r)], boxes))
    timings = {f"{s.reader}.{k}": v for s in sightings for k, v in s.timings_ms.items()}
    return TableRead(tuple(sightings), {"motion.change_boxes": t_boxes, **timings})


# ----------------------------------------------------------------------------------------------- readers


class GameReaders:
    """Enrolled decks and dice profiles per game (built once), readers per calibration."""

    def __init__(self, work: Path, inference: InferenceConfig) -> None:
        self.inference = inference
        self.ids = game_ids()
        self.ids["eclipse"] = sector_ids()
        dice_json = SHARED / "data" / "roll" / "dice.json"
        self.faces = load_dice_faces(dice_json) if dice_json.is_file() else dict(synth.ALL_FACES_BY_COLOUR)
        self._work = work
        self._decks: dict[str, object] = {}
        self._roll: RollDiceReader | None = None
        self._combat: RollDiceReader | None = None

    def deck(self, game: str):
        if game not in self._decks:
            if game == "eclipse":
                self._decks[game] = build_hex_deck_from_images(hex_reference_images(self.ids[game], seed=7),
                                                               name="eclipse", kind="scan")
            else:
                self._decks[game] = build_deck_from_images(reference_images(self.ids[game], GAME_SHAPES[game], seed=7),
                                                           name=game, kind="scan", card_mm=GAME_SHAPES[game])
        return self._decks[game]

    def roll_dice(self) -> RollDiceReader:
        if self._roll is None:
            synth.write_enrollment(self._work / "enroll", self.faces, seed=7, symbol_set="A")
            cfg = RollDiceConfig(inference=self.inference)
            # as the box reads its one fixed camera: the dice' size searched once, then kept while it holds
            self._roll = RollDiceReader(build_profile(self._work / "enroll", config=cfg), cfg, remember_size=True)
        return self._roll

    def forget_die_sizes(self) -> list:
        """Clear the die size every dice reader built here keeps (as a box just started has none); returns what they
        kept, for :meth:`keep_die_sizes`."""
        readers = [r for r in (self._roll, self._combat) if r is not None]
        kept = [(r, r._memory) for r in readers]
        for r in readers:
            r._memory = None
        return kept

    @staticmethod
    def keep_die_sizes(kept: list) -> None:
        """Give the dice readers back the die sizes :meth:`forget_die_sizes` cleared (where they kept one)."""
        for r, memory in kept:
            if memory is not None:
                r._memory = memory

    def combat_dice(self) -> RollDiceReader:
        """Eclipse's combat dice as the box reads them: the Roll dice reader with a profile enrolled from photos of
        the dice (``companion enroll eclipse-dice``)."""
        if self._combat is None:
            folder = write_combat_enrollment(self._work / "combat", seed=7)
            cfg = RollDiceConfig(inference=self.inference)
            pairs = [(c, str(v)) for c in COMBAT_DICE for v in range(1, 7)]
            # as the box reads them (remember_size, like the Roll dice above)
            self._combat = RollDiceReader(build_profile(folder, allowed=pairs, config=cfg, dice_set="eclipse"), cfg,
                                          remember_size=True)
        return self._combat

    def readers(self, game: str, calibration) -> list:
        cards = CardsConfig(anchor_id="main_reactor" if game == "among" else None)
        if game == "eclipse":
            combat = RollDiceAdapter(self.combat_dice(), calibration=calibration)
            return [HexesAdapter(self.deck(game), calibration), OffMapDice(combat)]
        out = [CardsAdapter(self.deck(game), calibration, config=cards)]
        if game == "roll":
            out.insert(0, RollDiceAdapter(self.roll_dice(), calibration=calibration))
        return out


# ----------------------------------------------------------------------------------------------- scoring


def _inside(poly: np.ndarray, pt) -> bool:
    return cv2.pointPolygonTest(poly.astype(np.float32).reshape(-1, 1, 2), (float(pt[0]), float(pt[1])), False) >= 0


def piece_reads(table: FullTable, pieces, read: TableRead) -> list[object]:
    """Per piece, what the read says of it: the id (a card or hex) or the colour/face or value (a die) of
    the observation whose centre lies on it (each observation used once), or None when none does."""
    dice = [d for s in read.sightings for d in s.dice]
    flat = [c for s in read.sightings for c in (*s.cards, *s.hexes)]
    used_d: set[int] = set()
    used_c: set[int] = set()
    out: list[object] = []
    for p in pieces:
        poly = table.polygon_px(p)
        got = None
        if p.kind == "die":
            for k, d in enumerate(dice):
                x, y, w, h = d.box
                if k not in used_d and _inside(poly, (x + w / 2, y + h / 2)):
                    used_d.add(k)
                    got = ("die", getattr(d, "colour", None), getattr(d, "face", None), d.value)
                    break
        else:
            for k, c in enumerate(flat):
                if k not in used_c and _inside(poly, c.center_px):
                    used_c.add(k)
                    got = ("card", c.id)
                    break
        out.append(got)
    return out


def what_was_read(table: FullTable, pieces, read: TableRead) -> dict[str, int]:
    """Counts against the labels: pieces of each kind, found (an observation's centre on it), identified
    (the right id, or for a die the right colour and face (Roll, Eclipse's combat dice) or value (d6)), and the
    dice reported whose centre lies on no die of ``pieces`` (``dice_false``)."""
    out = {"dice": 0, "dice_found": 0, "dice_right": 0, "cards": 0, "cards_found": 0, "cards_right": 0}
    dice = [table.polygon_px(p) for p in pieces if p.kind == "die"]
    out["dice_false"] = sum(not any(_inside(q, (d.box[0] + d.box[2] / 2, d.box[1] + d.box[3] / 2)) for q in dice)
                            for s in read.sightings for d in s.dice)
    for p, got in zip(pieces, piece_reads(table, pieces, read), strict=True):
        if p.kind == "die":
            out["dice"] += 1
            if got is not None:
                out["dice_found"] += 1
                right = (got[1], got[2]) == (p.colour, p.face) if p.face is not None else got[3] == p.value
                out["dice_right"] += int(right)
        else:
            out["cards"] += 1
            if got is not None:
                out["cards_found"] += 1
                out["cards_right"] += int(got[1] == p.id)
    return out


def agreement(table: FullTable, pieces, a: TableRead, b: TableRead) -> tuple[int, int]:
    """(pieces both reads say the same of, pieces): :func:`piece_reads` compared."""
    ra, rb = piece_reads(table, pieces, a), piece_reads(table, pieces, b)
    return sum(x == y for x, y in zip(ra, rb, strict=True)), len(pieces)


def counts_line(c: dict[str, int]) -> str:
    parts = []
    if c["dice"]:
        parts.append(f"dice found {c['dice_found']}/{c['dice']}, right {c['dice_right']}, false {c['dice_false']}")
    if c["cards"]:
        parts.append(f"cards/tiles/hexes found {c['cards_found']}/{c['cards']}, identified {c['cards_right']}")
    return "; ".join(parts)


# ----------------------------------------------------------------------------------------------- the run


def change(table: FullTable, kind: str, ids, faces, seed: int):
    if kind == "reroll":
        pieces, _, _ = reroll(table, table.pieces, seed, faces)
    else:
        pieces, _ = add_card(table, table.pieces, ids, seed)
    return pieces


def bench_table(gr: GameReaders, game: str, size: tuple[int, int], seed: int, reps: int) -> None:
    ids = gr.ids[game]
    table = full_table(game, ids, seed, size, gr.faces)
    first = table.render(frame_seed=0)
    cal = calibrate(first, table.layout)
    readers = gr.readers(game, cal)
    changed = {kind: change(table, kind, ids, gr.faces, seed + 1) for kind in CHANGES[game]}
    cold = FrameTimer(clock=CLOCK)
    searched = FrameTimer(clock=CLOCK)
    after = {kind: FrameTimer(clock=CLOCK) for kind in changed}
    agree = {kind: [0, 0] for kind in changed}
    right = {kind: [0, 0] for kind in changed}
    counts = None
    for rep in range(reps):
        frame = table.render(frame_seed=10 * rep)
        kept = gr.forget_die_sizes()
        searched.time(frame, lambda f: read_all(readers, f))
        gr.keep_die_sizes(kept)
        read = cold.time(frame, lambda f: read_all(readers, f))
        if counts is None:
            counts = what_was_read(table, table.pieces, read)
        for kind, pieces in changed.items():
            frame2 = table.render(pieces, frame_seed=10 * rep + 1)
            got = after[kind].time(frame2, lambda f, read=read, frame=frame: read_after_change(readers, f, read, frame))
            same, n = agreement(table, pieces, got, read_all(readers, frame2))
            agree[kind][0] += same
            agree[kind][1] += n
            new = [p for p in pieces if p not in table.pieces]
            c = what_was_read(table, new, got)
            right[kind][0] += c["dice_right"] + c["cards_right"]
            right[kind][1] += len(new)
    w, h = size
    print(f"== {game} {w}x{h}: {len(table.pieces)} pieces; cold read: {counts_line(counts)}")
    print("  " + cold.summary_line("cold read"))
    print("    stages: " + cold.stages_line(top=8))
    print("  " + searched.summary_line("first read (die size searched)"))
    print("    stages: " + searched.stages_line(top=8))
    for kind, timer in after.items():
        print("  " + timer.summary_line(f"after {kind}") + f"; the changed piece read right {right[kind][0]}/"
              f"{right[kind][1]}, every piece as a cold read of that frame says {agree[kind][0]}/{agree[kind][1]}")
        print("    stages: " + timer.stages_line(top=8))
    cold.close()
    searched.close()
    for t in after.values():
        t.close()


def main(argv: list[str] | None = None) -> int:
    global ORDER, ART_CHECK, CLOCK
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", default=",".join(FULL_GAMES), help="comma-separated, from " + ", ".join(FULL_GAMES))
    ap.add_argument("--sizes", default="1280x720,2304x1296", help="comma-separated WxH")
    ap.add_argument("--reps", type=int, default=3, help="frames per table (each with fresh noise)")
    ap.add_argument("--seed", type=int, default=1, help="layout seed")
    ap.add_argument("--threads", type=int, default=1,
                    help="threads of OpenCV and of the inference runtime (0: the machine's cores, at most 4)")
    ap.add_argument("--order", default=ORDER, choices=ORDERS,
                    help="the dice and the cards of a frame: the tiles' first look, the dice told the tiles, then a "
                         "second look told the dice (as the box does); the dice first and the cards told where they "
                         "lie; the dice on a second thread beside the cards; or the cards then the dice")
    ap.add_argument("--serial", action="store_true", help="the same as --order serial")
    ap.add_argument("--no-art-check", action="store_true",
                    help="keep the dice that are a tile's printed art (the reads before the box's art check)")
    ap.add_argument("--runtime", default="auto", choices=RUNTIMES, help="inference runtime of the CNNs")
    ap.add_argument("--cpu", action="store_true",
                    help="time the reads, their stages and the baseline by the process's CPU time (time.process_time) "
                         "instead of wall time: the ratios hold on a machine other work is loading (not with "
                         "--order beside, whose second thread's CPU adds to the read's)")
    args = ap.parse_args(argv)
    set_opencv_threads(args.threads)
    ORDER = "serial" if args.serial else args.order
    ART_CHECK = not args.no_art_check
    if args.cpu:
        CLOCK = time.process_time
        timing_module.time = SimpleNamespace(perf_counter=time.process_time)  # every reader's stage timer
    games = [g.strip() for g in args.games.split(",") if g.strip()]
    sizes = [tuple(int(v) for v in s.lower().split("x")) for s in args.sizes.split(",") if s.strip()]
    work = Path(tempfile.mkdtemp(prefix="full_table_"))
    print(f"threads: OpenCV {cv2.getNumThreads()}, inference {args.runtime} {args.threads}, "
          f"dice and cards {ORDER}; {'CPU' if args.cpu else 'wall'} time; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    try:
        t0 = time.perf_counter()
        gr = GameReaders(work, InferenceConfig(args.runtime, args.threads))
        for game in games:
            for size in sizes:
                bench_table(gr, game, size, args.seed, args.reps)
        print(f"[{time.perf_counter() - t0:.0f} s; load average {os.getloadavg()[0]:.1f}]")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
