"""Benchmark of the Eclipse rules: scoring a 9-player game with alliances, checking an Explore on a 40-hex map.

Each measure is the median wall time of reading the file and answering (``companion score eclipse`` /
``companion check eclipse`` without the printing), as a ratio to a JSON load of the same file (read and
``json.loads``), timed in one process and interleaved (load, work, load, work, ...), as issue 14 asks.

- score: ``tests/cases/eclipse/score-nine-players-two-alliances.json`` (9 players, Nova and Vortex, one member
  on the Traitor side): ``final_scores`` and the standings with the alliances (``scores_json``);
- check: a placement file whose map holds 40 hexes (the Galactic Center, rings I-III full and three hexes of
  ring IV, seeded rotations) and an Explore of a ring-IV space: ``check_placement``;
- whole map: the same 40 hexes checked one by one as a camera would see them laid, ring by ring, each an
  Explore onto the map of the hexes before it (``check_explore`` with no known explorer's hex).

    python bench/eclipse_rules.py                 # 2000 rounds of each
    python bench/eclipse_rules.py --rounds 500 --seed 7
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rules.eclipse import ECLIPSE_GAME, check_placement, final_scores  # noqa: E402
from rules.eclipse.data import catalogue  # noqa: E402
from rules.eclipse.galaxy import Galaxy, PlacedHex, ring  # noqa: E402
from rules.eclipse.placement import check_explore  # noqa: E402
from rules.scoring import scores_json  # noqa: E402

SCORE_FILE = ROOT / "tests" / "cases" / "eclipse" / "score-nine-players-two-alliances.json"


def ring_cells(n: int) -> list[tuple[int, int]]:
    """The positions of ring ``n``, in a fixed order."""
    return sorted((q, r) for q in range(-n, n + 1) for r in range(-n, n + 1) if ring(q, r) == n)


def forty_hex_map(seed: int) -> dict:
    """A placement file: 40 hexes on the table (1 + 6 + 12 + 18 + 3), then an Explore of an empty ring-IV space."""
    rng = random.Random(seed)
    stacks = {0: ["001"], 1: [f"10{k}" for k in range(1, 7)], 2: [f"2{k:02d}" for k in range(1, 12)] + ["213"],
              3: [f"3{k:02d}" for k in range(1, 19)], 4: ["320", "321", "322"]}
    tiles = []
    for n in range(0, 5):
        cells = ring_cells(n)[: len(stacks[n])]
        for cell, sector in zip(cells, stacks[n]):
            tiles.append({"sector": sector, "q": cell[0], "r": cell[1], "rotation": 0 if n == 0 else rng.randrange(6)})
    taken = {(t["q"], t["r"]) for t in tiles}
    source = next(c for c in ring_cells(3))
    space = next(c for c in ring_cells(4) if c not in taken and abs(c[0] - source[0]) + abs(c[1] - source[1]) <= 2
                 and ring(c[0] - source[0], c[1] - source[1]) == 1)
    return {"game": "eclipse", "kind": "placement", "action": "explore", "map": tiles,
            "from": {"q": source[0], "r": source[1]},
            "explored": {"sector": "323", "q": space[0], "r": space[1], "rotation": rng.randrange(6)},
            "player_techs": []}


def check_whole_map(data: dict) -> int:
    """Every hex of the file's map checked as laid in order onto the hexes before it; the illegal ones counted."""
    cat = catalogue()
    tiles = [PlacedHex(cat.sector(t["sector"]), (t["q"], t["r"]), t["rotation"]) for t in data["map"]]
    galaxy = Galaxy.of(tiles[:1])
    illegal = 0
    for placed in tiles[1:]:
        illegal += not all(v.legal for v in check_explore(galaxy, placed))
        galaxy = galaxy.with_hex(placed)
    return illegal


def interleaved(path: Path, work, rounds: int) -> tuple[float, float]:
    """Median seconds of (read + json.loads) and of (read + json.loads + ``work``), interleaved."""
    base: list[float] = []
    full: list[float] = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        json.loads(path.read_text(encoding="utf-8"))
        t1 = time.perf_counter()
        work(json.loads(path.read_text(encoding="utf-8")))
        t2 = time.perf_counter()
        base.append(t1 - t0)
        full.append(t2 - t1)
    return statistics.median(base), statistics.median(full)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2000, help="timed rounds of each measure (default 2000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the 40-hex map's rotations")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench_eclipse_") as tmp:
        placement = Path(tmp) / "forty-hexes.json"
        placement.write_text(json.dumps(forty_hex_map(args.seed)), encoding="utf-8")
        findings = check_placement(json.loads(placement.read_text(encoding="utf-8")))
        printed = scores_json(final_scores(json.loads(SCORE_FILE.read_text(encoding="utf-8"))), ECLIPSE_GAME)
        score_base, score_time = interleaved(SCORE_FILE, lambda d: scores_json(final_scores(d), ECLIPSE_GAME), args.rounds)
        check_base, check_time = interleaved(placement, check_placement, args.rounds)
        map_base, map_time = interleaved(placement, check_whole_map, max(1, args.rounds // 4))
        illegal = check_whole_map(json.loads(placement.read_text(encoding="utf-8")))
        hexes = len(json.loads(placement.read_text(encoding="utf-8"))["map"])
    print(f"score 9 players, 2 alliances: median {score_time * 1e3:.3f} ms; JSON load {score_base * 1e3:.3f} ms; "
          f"ratio {score_time / score_base:.1f}  (winners {', '.join(printed['winners'])}; teams {printed['team_scores']})")
    print(f"check an explore on a {hexes}-hex map: median {check_time * 1e3:.3f} ms; JSON load {check_base * 1e3:.3f} ms; "
          f"ratio {check_time / check_base:.1f}  (first finding: {findings[0].rule_kind})")
    print(f"check all {hexes - 1} hexes of that map as laid: median {map_time * 1e3:.3f} ms; JSON load {map_base * 1e3:.3f} ms; "
          f"ratio {map_time / map_base:.1f}  ({illegal} of {hexes - 1} seeded placements break a rule)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
