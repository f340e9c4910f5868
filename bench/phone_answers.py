"""The whole list of notes on its way to a phone (``GET /api/findings``): bytes on the wire and the box's CPU per ask,
as it goes to a phone that accepts no compression and to one accepting each of zstd, Brotli and gzip.

Usage::

    python bench/phone_answers.py                      # 3,000 notes, in Greek, 12 rounds
    python bench/phone_answers.py --notes 500 --lang pl --rounds 20

Each round publishes a new state (one note more: nothing written or compressed is kept from the round before), then
asks as four phones would, through the phone view's Flask app (its test client, in this process): each encoding
once ("first": the list written as JSON for that language, once for the four, and compressed) and again ("again":
what the box kept). CPU is this process's (``time.process_time``), the JPEG baseline (``cv2.imread`` + ``cvtColor``
of the first demo photo saved at quality 95) timed between the asks of each round. The notes are four of the Roll
engine's wordings in turn (a tile another player holds, no phase selected, dice in Dictate, a die to remove), naming
tiles of the catalogue and five players, each with its page and what to do, as the phones get them.

Printed: the answer's size in each encoding, and median CPU ms (and the ratio to the baseline) of a first ask and
of an ask again, per encoding.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

ENCODINGS = {"none": "identity", "zstd": "zstd", "br": "br", "gzip": "gzip"}
NOTE = "the tile {tile} is not in the bag (another player has it)"


def _publish(hub, n: int) -> None:
    from companion.flow import TODO
    from companion.i18n import Text
    from rules.roll.data import catalogue

    players = ("Νίκος", "Kasia", "Ádám", "Ann", "Bob")
    cat = catalogue()
    tiles = sorted({t.world.name for t in cat.game_tiles} | {t.development.name for t in cat.game_tiles})
    said = [  # the engine's own wordings (rules/roll), each with the page it cites and what to do
        (lambda k: Text(NOTE, tile=tiles[k % len(tiles)]), "error", "Roll for the Galaxy, p.1 Components"),
        (lambda k: Text("{player} selected no phase; each player selects exactly one", player=players[k % 5]),
         "error", "Roll for the Galaxy, p.4 Phases"),
        (lambda k: Text("{player} has {total} dice in the Dictate area; only one without Backup Planning",
                        player=players[k % 5], total=2 + k % 3), "warning", "Roll for the Galaxy, p.5 Dictate"),
        (lambda k: Text("{source}: {player} removes one of their dice; say which (Die removed)",
                        source=tiles[k % len(tiles)], player=players[k % 5]), "info",
         "Roll for the Galaxy, p.11 FAQ Immediate effects"),
    ]
    notes = []
    for k in range(n, 0, -1):  # newest first
        what, severity, rule = said[k % len(said)]
        notes.append({"what": what(k), "where": players[(k + 1) % 5], "rule": rule, "severity": severity,
                      "todo": TODO[severity], "seq": k})
    hub.publish({"mode": "play", "game": {"flow": "roll", "findings": notes[:6], "findings_total": n,
                                          "all_findings": notes}})


def _baseline(path: str) -> float:
    import cv2

    started = time.process_time()
    cv2.cvtColor(cv2.imread(path), cv2.COLOR_BGR2GRAY)
    return (time.process_time() - started) * 1000


def main() -> int:
    import cv2

    from companion.hub import StateHub
    from companion.web import create_app

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", type=int, default=3000)
    parser.add_argument("--lang", default="el")
    parser.add_argument("--rounds", type=int, default=12)
    args = parser.parse_args()

    hub = StateHub()
    client = create_app(hub).test_client()
    photo = sorted((ROOT / "companion" / "demo" / "photos").glob("*.jpg"))[0]
    first: dict[str, list[float]] = {k: [] for k in ENCODINGS}
    again: dict[str, list[float]] = {k: [] for k in ENCODINGS}
    sizes: dict[str, int] = {}
    base: list[float] = []
    with tempfile.TemporaryDirectory(prefix="phone_answers_") as tmp:
        jpeg = str(Path(tmp) / "frame.jpg")
        cv2.imwrite(jpeg, cv2.imread(str(photo)), [cv2.IMWRITE_JPEG_QUALITY, 95])
        for k in range(args.rounds):
            _publish(hub, args.notes + k)
            for times in (first, again):
                for name, accepts in ENCODINGS.items():
                    base.append(_baseline(jpeg))
                    started = time.process_time()
                    answer = client.get("/api/findings", headers={"Accept-Encoding": accepts,
                                                                  "Accept-Language": args.lang})
                    times[name].append((time.process_time() - started) * 1000)
                    assert answer.status_code == 200 and answer.headers.get("Content-Encoding", "none") == name, \
                        (name, answer.headers)
                    sizes[name] = len(answer.data)
    jpeg_ms = statistics.median(base)
    print(f"GET /api/findings: {args.notes} notes in {args.lang!r}, {args.rounds} rounds (a new state each); "
          f"JPEG q95 imread+cvtColor baseline {jpeg_ms:.2f} ms CPU")
    for name in ENCODINGS:
        one, two = statistics.median(first[name]), statistics.median(again[name])
        print(f"  {name:5s} {sizes[name]:>9,d} bytes ({sizes[name] / sizes['none']:6.1%}); first ask {one:6.1f} ms "
              f"({one / jpeg_ms:5.1f}x), again {two:5.1f} ms ({two / jpeg_ms:4.1f}x)")
    print("  (the first ask of the first encoding also writes the list as JSON for the language; the others reuse it)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
