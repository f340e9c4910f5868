"""SIGKILL the box at random moments of scripted games played over HTTP, start it again with the same
command, and account for every event: nothing acknowledged lost or doubled, nothing unacknowledged recorded.

    .venv/bin/python bench/kill_trials.py               # 200 kills (about 20 min on a busy 2-core machine)
    .venv/bin/python bench/kill_trials.py --trials 20 --seed 7

Each game is a fresh data folder and one command line, run again after every kill:

- ``companion demo --game roll --no-screen --no-gpio --host 127.0.0.1 --port P``: the setup step played on a
  phone (players added, removed, renamed, the table split evenly, Start), then the game: two phones claim
  Ann's and Bob's seats and report from their open forms with random values, withdraw their newest report
  ("Undo my last report"); a third phone presses Next with the label it shows, asks for a camera read
  (``read_now``) and reports for seats no phone holds;
- ``companion demo --game d6 --hold 1 --no-screen --no-gpio ...``: the camera reads the replayed photos
  (every photo held 1 s) while phones ask for reads and undo the latest;
- ``companion demo --game choose ...`` (``--games choose``): the Roll game chosen on the chooser from a phone, then
  set up and played as above; a box killed during the setup must come back to it (the chooser instead, with a
  setup under way in the database, counts as a restart that differs from a clean replay).

Most kills come at a random moment 0.2-3 s into a running game, with the phones tapping (several taps in
flight); one in ten comes 0-1.5 s after the start, while the box is still starting. A tap whose answer was
lost to the kill is sent again after the restart with the same idempotency key and version, as the phone
page does. After the last kill of a game the box is started once more and stopped with SIGTERM.

What is counted (one database per game; its ``events`` and ``setup_events`` logs):

- *acknowledged*: each event a 2xx answer named in ``recorded`` (its row is read from the database when
  the answer arrives: a row missing then is *lost* at once), and each event the box published in
  ``/api/state`` (``session.events``): a camera read players have seen. Seat claims answered 2xx are checked
  too (the phone's ``/api/me`` after each restart).
- *lost*: acknowledged, but missing from the log or changed (kind, player, payload) at the end.
- *duplicated*: one tap recorded twice: a seq named by two taps' answers, a retried key answered with other
  seqs, or an unacknowledged event equal to one its retried tap had recorded.
- *phantom*: an event in the log that no answer named and no view showed, and that the camera did not
  make (a camera read recorded just before a kill is nobody's tap; those are counted on their own line).
- *restarted state equals a clean replay*: after each restart, ``/api/state``'s game (before any tap) equals
  the view built from a copy of the database cut at that state's version (``GameFlow`` for a game,
  ``TableSetup`` while setting up, the game's ``view`` for d6), in this process (seat claims are checked
  on their own).

Prints (exit 0 when lost, duplicated and phantom are 0, every 2xx was durable and every restart matched;
the figures of a run on a busy 2-core machine)::

    kill trials: 200 SIGKILLs in 8 games (roll 150, d6 50), 898 s
    taps: 3170 sent, 2196 answered 2xx, 833 refused (400 403 409), 0 answered 5xx, 141 in flight at a kill
    in flight at a kill, sent again with the same key: 15 answered as before (written before the kill), 71 done then,
    55 refused (9 400, 46 409)
    events: acknowledged 1661 (1547 by answers, 114 shown by the box), lost 0, duplicated 0, phantom 0
    camera reads recorded but not yet shown at a kill: 0
    every 2xx durable: yes (2282 of 2282 answers; 12 of 12 seat claims)
    restarted state equals a clean replay: 191 of 191 restarts
    box stderr: 0 tracebacks; final SIGTERM stops: 8 of 8 exit 0

(A tap sent again after a kill is "refused" when it was not written before the kill and no longer fits the
game when it comes again: another phone's tap came first (409), or its form has closed (400).)
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import shutil
import sqlite3
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.box_process import BoxProcess, Phone, form_values, free_port  # noqa: E402

GAME_KINDS = ("roll", "roll", "d6")
"""The games played in turn, one data folder each (``--games`` picks others)."""

COMMANDS = {
    "roll": ["demo", "--game", "roll", "--no-screen", "--no-gpio"],
    "d6": ["demo", "--game", "d6", "--hold", "1", "--no-screen", "--no-gpio"],
    "choose": ["demo", "--game", "choose", "--no-screen", "--no-gpio"],
}
"""The command line of each kind of game (``--host``/``--port`` are added), the same for every restart."""

NAMES = ("Ann", "Bob", "Cecil", "Dóra", "Ewa", "Gábor", "Łucja", "Zoë")
"""Names the setup phone types."""

EARLY_KILLS = 0.1
"""Share of kills that come while the box is still starting."""

BROKEN = (OSError, http.client.HTTPException, ValueError)
"""What a request to a box killed under it raises (refused, reset, cut short, half a JSON body)."""


@dataclass
class Tap:
    """One state-changing request as a phone sent it (resent as it is after a kill)."""

    phone: str
    path: str
    body: dict[str, Any]
    version: int
    key: str

    @property
    def log(self) -> str:
        """The log its events go to: the setup's before Start, else the game's."""
        return "setup_events" if self.path == "/api/setup" else "events"


Row = tuple[str, Any, str, str]
"""An event as stored: (kind, player, payload JSON, origin)."""


def read_log(db: Path, log: str) -> dict[int, Row]:
    """Every event of ``log`` (``events`` or ``setup_events``) of the only game in ``db``, by seq; {} when
    the database or the table does not exist yet. Read-only: never checkpoints or recovers anything."""
    if not db.exists():
        return {}
    player = "player" if log == "events" else "NULL"
    try:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30)
    except sqlite3.OperationalError:
        return {}
    try:
        rows = conn.execute(f"SELECT seq, kind, {player}, payload, origin FROM {log}").fetchall()
    except sqlite3.OperationalError:  # the schema is not made yet
        return {}
    finally:
        conn.close()
    return {seq: (kind, who, payload, origin) for seq, kind, who, payload, origin in rows}


@dataclass
class Ledger:
    """What the phones were told, and what the database holds (see the module doc)."""

    sent: int = 0
    ok: int = 0
    refused: int = 0
    faults: int = 0
    in_flight: int = 0
    retried_as_before: int = 0
    retried_done: int = 0
    retried_refused: Counter[int] = field(default_factory=Counter)  # HTTP status -> taps sent again and refused
    acked: dict[tuple[str, int], Row] = field(default_factory=dict)
    ack_key: dict[tuple[str, int], str] = field(default_factory=dict)
    key_seqs: dict[str, list[int]] = field(default_factory=dict)
    shown: dict[tuple[str, int], Row] = field(default_factory=dict)
    retried_rows: list[Row] = field(default_factory=list)
    claims: dict[str, set[str]] = field(default_factory=dict)
    claims_acked: int = 0
    claims_lost: int = 0
    lost: list[str] = field(default_factory=list)
    duplicated: list[str] = field(default_factory=list)
    phantom: list[str] = field(default_factory=list)
    camera_unshown: int = 0
    not_durable: int = 0
    restarts: int = 0
    replay_equal: int = 0
    replay_differs: list[str] = field(default_factory=list)
    tracebacks: int = 0
    clean_stops: int = 0
    events_acked: int = 0
    events_by_answer: int = 0
    games: list[tuple[str, int]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def answered(self, db: Path, tap: Tap, status: int, answer: dict[str, Any], before: int | None = None) -> None:
        """Count an answer; a 2xx's events are read from the database now (a missing one is lost). ``before``:
        for a tap sent again after a kill, the last seq its log held when the box came back."""
        retried = before is not None
        with self.lock:
            if 200 <= status < 300:
                self.ok += not retried
                seqs = [int(s) for s in answer.get("recorded") or []]
                if tap.key in self.key_seqs and self.key_seqs[tap.key] != seqs:
                    self.duplicated.append(f"key {tap.key} answered {self.key_seqs[tap.key]}, then {seqs}")
                if retried:
                    if seqs and max(seqs) <= before:
                        self.retried_as_before += 1
                    else:
                        self.retried_done += 1
                self.key_seqs[tap.key] = seqs
                rows = read_log(db, tap.log) if seqs else {}
                for seq in seqs:
                    where = (tap.log, seq)
                    if self.ack_key.get(where, tap.key) != tap.key:
                        self.duplicated.append(f"{tap.log} #{seq} named by two taps' answers")
                    row = rows.get(seq)
                    if row is None:
                        self.not_durable += 1
                        self.lost.append(f"{tap.log} #{seq}: answered {status} but not in the database")
                        continue
                    self.acked[where] = row
                    self.ack_key[where] = tap.key
                    if retried:
                        self.retried_rows.append(row)
                if tap.path == "/api/seat":
                    self.claims.setdefault(tap.phone, set()).add(tap.body["player"])
                    self.claims_acked += 1
            elif retried:
                self.retried_refused[status] += 1
            elif status >= 500:
                self.faults += 1
            else:
                self.refused += 1

    def saw(self, db: Path, state: dict[str, Any]) -> None:
        """The box showed the game's log up to ``session.events``: those events are acknowledged."""
        session = state.get("session") or {}
        if not session.get("id"):
            return
        shown_up_to = int(session.get("events") or 0)
        with self.lock:
            missing = [s for s in range(1, shown_up_to + 1) if ("events", s) not in self.shown]
        if not missing:
            return
        rows = read_log(db, "events")
        with self.lock:
            for seq in missing:
                if seq in rows:
                    self.shown[("events", seq)] = rows[seq]
                else:
                    self.not_durable += 1
                    self.lost.append(f"events #{seq}: shown by the box but not in the database")

    def audit(self, db: Path) -> None:
        """At a game's end (the box stopped): lost, duplicated and phantom events of its database."""
        logs = {log: read_log(db, log) for log in ("events", "setup_events")}
        told = {**self.shown, **self.acked}
        self.events_acked += len(told)
        self.events_by_answer += len(self.acked)
        for (log, seq), row in told.items():
            now = logs[log].get(seq)
            if now is None:
                self.lost.append(f"{log} #{seq} {row[0]}: acknowledged, gone from the database")
            elif now != row:
                self.lost.append(f"{log} #{seq}: acknowledged as {row}, now {now}")
        for log, rows in logs.items():
            for seq, row in rows.items():
                if (log, seq) in told:
                    continue
                if row[3] == "camera":
                    self.camera_unshown += 1
                elif row in self.retried_rows:
                    self.duplicated.append(f"{log} #{seq} {row[0]}: a retried tap recorded again")
                else:
                    self.phantom.append(f"{log} #{seq} {row[0]} by {row[3]}: no answer named it")
        for kept in (self.acked, self.ack_key, self.shown, self.retried_rows):  # the next game has its own
            kept.clear()


# -- the phones --------------------------------------------------------------------------------------


def roll_setup_tap(rng: random.Random, game: dict[str, Any]) -> dict[str, Any] | None:
    """What the phone at the table does in the setup step: add players, now and then remove or rename one
    or split evenly, and Start once it may."""
    players = [p["name"] for p in game.get("players") or []]
    free = [n for n in NAMES if n.lower() not in {p.lower() for p in players}]
    taken = {p["colour"] for p in game.get("players") or []}
    colours = [c for c in game.get("colours") or [] if c not in taken]
    roll = rng.random()
    if free and colours and (len(players) < 2 or (len(players) < game.get("max_players", 4) and roll < 0.25)):
        return {"action": "player", "name": rng.choice(free), "colour": rng.choice(colours)}
    if players and roll < 0.32:
        return {"action": "remove", "name": rng.choice(players)}
    if players and free and roll < 0.4:
        return {"action": "rename", "name": rng.choice(players), "new_name": rng.choice(free)}
    if roll < 0.48:
        return {"action": "even"}
    if game.get("can_start") and roll < 0.8:
        return {"action": "start"}
    return None


def roll_game_tap(rng: random.Random, who: str, seat: int | None, state: dict[str, Any],
                  claims: set[str]) -> tuple[str, dict[str, Any]] | None:
    """A tap of a game phone: the seat phones claim their seat, report and withdraw; the table phone
    presses Next, asks for a read, or reports for an unclaimed seat."""
    game = state.get("game") or {}
    players = game.get("players") or []
    forms = {f["id"]: f for f in game.get("forms") or []}

    def report(player: str) -> tuple[str, dict[str, Any]] | None:
        open_ids = (game.get("open_forms") or {}).get(player) or []
        if not open_ids:
            return None
        form = forms[rng.choice(open_ids)]
        values = form_values(form, rng.choice, rng.randint, lambda: rng.random() < 0.3)
        return "/api/report", {"player": player, "form": form["id"], "values": values}

    if seat is not None:
        if seat >= len(players):
            return None
        player = players[seat]["name"]
        if player not in claims:
            return "/api/seat", {"player": player}
        if rng.random() < 0.15:
            return "/api/report/undo", {"player": player}
        return report(player)
    roll = rng.random()
    if roll < 0.35:
        label = (game.get("next") or {}).get("label")
        return "/api/action", {"action": "next_phase", **({"label": label} if label else {})}
    if roll < 0.45:
        return "/api/action", {"action": "read_now"}
    unclaimed = [p["name"] for p in players if not p.get("claimed")]
    return report(rng.choice(unclaimed)) if unclaimed else None


def d6_tap(rng: random.Random) -> tuple[str, dict[str, Any]]:
    """A d6 phone: read now, or undo the latest read."""
    return "/api/action", {"action": "read_now" if rng.random() < 0.6 else "undo"}


class Phones:
    """Three phones (own cookies, kept across restarts) playing one game until told to stop."""

    WHO = (("ann", 0), ("bob", 1), ("table", None))

    def __init__(self, kind: str, base: str, db: Path, ledger: Ledger, rng: random.Random) -> None:
        self.kind, self.db, self.ledger = kind, db, ledger
        self.phones = {who: Phone(base, timeout_s=20) for who, _ in self.WHO}
        self.seeds = {who: rng.randrange(2**32) for who, _ in self.WHO}
        self.in_flight: list[Tap] = []
        self.started = False  # the game of this data folder has been started (the chooser starts no other)

    def play(self, stop: threading.Event) -> list[threading.Thread]:
        threads = [threading.Thread(target=self._phone, args=(who, seat, stop), daemon=True) for who, seat in self.WHO]
        threads.append(threading.Thread(target=self._watch, args=(stop,), daemon=True))
        for thread in threads:
            thread.start()
        return threads

    def _watch(self, stop: threading.Event) -> None:
        """What players see: each state the box shows acknowledges the events it counts."""
        phone = Phone(self.phones["table"].base, timeout_s=5)
        while not stop.is_set():
            try:
                self.ledger.saw(self.db, phone.get("/api/state"))
            except BROKEN:
                return
            stop.wait(0.1)

    def _phone(self, who: str, seat: int | None, stop: threading.Event) -> None:
        rng = random.Random(self.seeds[who])
        self.seeds[who] = rng.randrange(2**32)  # the next run of this phone goes on differently
        phone = self.phones[who]
        while not stop.is_set():
            try:
                state = phone.get("/api/state")
            except BROKEN:
                return
            game = state.get("game") or {}
            self.started = self.started or bool((state.get("session") or {}).get("id"))
            picked: tuple[str, dict[str, Any]] | None
            if self.kind == "d6":
                picked = d6_tap(rng)
            elif state.get("mode") == "choose":  # the chooser: the table's phone goes back to the game left open
                left = ((state.get("choose") or {}).get("open") or [{}])[0].get("session")  # (one a data folder)
                body = ({"action": "resume", "session": left} if left
                        else None if self.started else {"action": "choose", "game": "roll"})  # over: no other game
                picked = ("/api/box", body) if seat is None and body else None
            elif game.get("setup"):
                body = roll_setup_tap(rng, game) if seat is None else None
                picked = ("/api/setup", body) if body else None
            else:
                with self.ledger.lock:
                    claims = set(self.ledger.claims.get(who, ()))
                picked = roll_game_tap(rng, who, seat, state, claims)
            if picked is not None:
                path, body = picked
                tap = Tap(who, path, body, int((state.get("session") or {}).get("events") or 0),
                          f"k{rng.getrandbits(64):016x}")
                if not self.send(tap):
                    return
            stop.wait(rng.uniform(0.03, 0.2))

    def send(self, tap: Tap, before: int | None = None) -> bool:
        """Send ``tap`` (``before``: see :meth:`Ledger.answered`); False when the box went away under it (then
        it is kept to be sent again)."""
        retried = before is not None
        with self.ledger.lock:
            self.ledger.sent += not retried
        try:
            status, answer = self.phones[tap.phone].post(tap.path, tap.body, version=tap.version, key=tap.key)
        except BROKEN:
            with self.ledger.lock:
                self.ledger.in_flight += not retried
                if tap.path != "/api/box":  # a move between screens records nothing: the phone looks again instead
                    self.in_flight.append(tap)
            return False
        self.ledger.answered(self.db, tap, status, answer, before)
        return True

    def resend(self) -> None:
        """Send again every tap whose answer a kill cut off (same key, same version)."""
        pending, self.in_flight = self.in_flight, []
        held = {log: max(read_log(self.db, log), default=0) for log in ("events", "setup_events")}
        for tap in pending:
            self.send(tap, before=held[tap.log])

    def join(self, box: BoxProcess) -> None:
        for phone in self.phones.values():
            box.join(phone)

    def check_claims(self) -> None:
        """Every seat claim answered 2xx is still this phone's (``/api/me``)."""
        for who, claimed in self.ledger.claims.items():
            seats = set(self.phones[who].get("/api/me").get("seats") or [])
            for player in claimed - seats:
                self.ledger.claims_lost += 1
                self.ledger.lost.append(f"{who}'s claim of {player}'s seat")
            self.ledger.claims[who] = claimed & seats  # a seat renamed away in the setup is no longer held


# -- the clean replay --------------------------------------------------------------------------------


def _plain(value: Any) -> Any:
    return json.loads(json.dumps(value, sort_keys=True, default=str))


def _without_claims(game: dict[str, Any]) -> dict[str, Any]:
    players = [{k: v for k, v in p.items() if k != "claimed"} for p in game.get("players") or []]
    return {**game, "players": players} if "players" in game else game


def clean_view(kind: str, db: Path, state: dict[str, Any], scratch: Path) -> dict[str, Any]:
    """The game view a fresh replay of ``db`` (a copy, cut at ``state``'s version) gives; on the chooser ``{}``, or
    ``{"setup under way": id}`` when the database holds a setup with events not started (the box should have come
    back to it)."""
    from companion.flow import GameFlow
    from companion.flows import FLOWS
    from companion.session import SessionStore
    from companion.setup_flow import TableSetup
    from companion.webstream import pushed

    if scratch.exists():
        shutil.rmtree(scratch)
    scratch.mkdir(parents=True)
    copy = scratch / db.name
    for suffix in ("", "-wal", "-shm"):
        if Path(f"{db}{suffix}").exists():
            shutil.copyfile(f"{db}{suffix}", f"{copy}{suffix}")
    session = state.get("session") or {}
    version = int(session.get("events") or 0)
    game = "roll" if kind == "choose" else kind
    conn = sqlite3.connect(copy)
    if not session.get("id") and not (state.get("game") or {}).get("setup"):  # the chooser
        try:
            row = conn.execute("SELECT s.id FROM setups s JOIN setup_events e ON e.setup_id = s.id "
                               "WHERE s.ended_at IS NULL LIMIT 1").fetchone()
        except sqlite3.OperationalError:  # no tables yet: nothing chosen
            row = None
        conn.close()
        return {"setup under way": row[0]} if row else {}
    with conn:
        if session.get("id"):
            conn.execute("DELETE FROM events WHERE seq > ?", (version,))
        else:  # setting up: as the setup stood (a Start after it undone in the copy)
            conn.execute("DELETE FROM events")
            conn.execute("DELETE FROM sessions")
            conn.execute("UPDATE setups SET ended_at = NULL")
            conn.execute("DELETE FROM setup_events WHERE seq > ?", (version,))
        options = conn.execute("SELECT options FROM setups").fetchone() if not session.get("id") else None
    conn.close()
    with SessionStore(copy) as store:
        if not session.get("id"):
            setup = TableSetup(store, FLOWS[game], json.loads(options[0]) if options else {}, resume=True)
            return _plain(setup.view())
        replayed = store.get(session["id"])
        if game in FLOWS:  # as the box pushes it to phones: the whole list of notes asked for apart
            return _plain(pushed({"game": GameFlow(replayed, FLOWS[game]).view()})["game"])
        return _plain(replayed.game.view(replayed.replay().state))


# -- the trials ----------------------------------------------------------------------------------------


def ready(state: dict[str, Any]) -> bool:
    """The box runs its game (or its setup step, or the chooser)."""
    return bool((state.get("session") or {}).get("id") or (state.get("game") or {}).get("setup")
                or state.get("mode") == "choose")


def play_game(kind: str, kills: int, rng: random.Random, ledger: Ledger, folder: Path,
              say: Callable[[str], None]) -> None:
    """``kills`` SIGKILLs of one game in ``folder``, then one more start and a SIGTERM; audited."""
    data = folder / "data"
    data.mkdir(parents=True)
    db = data / "demo.sqlite3"
    port = free_port()
    ledger.claims.clear()
    phones = Phones(kind, f"http://127.0.0.1:{port}", db, ledger, rng)
    final: dict[str, Any] = {}
    for trial in range(kills + 1):
        last = trial == kills
        box = BoxProcess(COMMANDS[kind], data, port=port, phone=phones.phones["table"])
        try:
            if not last and rng.random() < EARLY_KILLS:
                time.sleep(rng.uniform(0.0, 1.5))  # while it starts: opening the database, the camera, the port
                box.kill()
                continue
            state = box.wait_until(ready)
            phones.join(box)
            restarted = _plain(state.get("game") or {})
            # the chooser's replay is what the database holds now, before the phones choose (a game's is cut at
            # the state's version, so it may be made after they play)
            clean = clean_view(kind, db, state, folder / "replay") if state.get("mode") == "choose" else None
            phones.resend()
            if state.get("mode") != "choose":  # seats are a game's: checked once the box is back in it
                phones.check_claims()
            ledger.saw(db, state)
            if last:
                final = state
                code, _ = box.stop()
                ledger.clean_stops += code == 0
            else:
                stop = threading.Event()
                threads = phones.play(stop)
                time.sleep(rng.uniform(0.2, 3.0))
                box.kill()
                stop.set()
                for thread in threads:
                    thread.join(30)
            ledger.restarts += 1
            if clean is None:
                clean = clean_view(kind, db, state, folder / "replay")
            if _without_claims(restarted) == _without_claims(clean):
                ledger.replay_equal += 1
            else:
                ledger.replay_differs.append(f"{kind} restart {trial}: {_first_difference(restarted, clean)}")
        finally:
            if box.alive():
                box.kill()
            ledger.tracebacks += "".join(box.err).count("Traceback")
    ledger.audit(db)
    game = final.get("game") or {}
    where = "setting up" if game.get("setup") else game.get("round_label") or f"{game.get('rolls')} rolls"
    say(f"  {kind}: {kills} kills, the game at {where} with {(final.get('session') or {}).get('events')} events; "
        f"{ledger.sent} taps so far, lost {len(ledger.lost)}, duplicated {len(ledger.duplicated)}, "
        f"phantom {len(ledger.phantom)}")


def _first_difference(a: Any, b: Any, path: str = "game") -> str:
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            if a.get(key) != b.get(key):
                return _first_difference(a.get(key), b.get(key), f"{path}.{key}")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for k, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return _first_difference(x, y, f"{path}[{k}]")
    return f"{path}: restarted {json.dumps(a)[:120]}, replay {json.dumps(b)[:120]}"


def run(trials: int, seed: int, per_game: int, say: Callable[[str], None] = print,
        kinds: tuple[str, ...] = GAME_KINDS) -> Ledger:
    """``trials`` kills in games of ``per_game`` kills (``kinds`` in turn, of :data:`COMMANDS`); the ledger."""
    rng = random.Random(seed)
    ledger = Ledger()
    with tempfile.TemporaryDirectory(prefix="kill_trials_") as tmp:
        done = game = 0
        while done < trials:
            kills = min(per_game, trials - done)
            kind = kinds[game % len(kinds)]
            play_game(kind, kills, rng, ledger, Path(tmp) / f"game{game}", say)
            ledger.games.append((kind, kills))
            done += kills
            game += 1
    return ledger


def report(ledger: Ledger, trials: int, seconds: float) -> list[str]:
    """The printed lines (see the module doc)."""
    by_kind: dict[str, int] = {}
    for kind, kills in ledger.games:
        by_kind[kind] = by_kind.get(kind, 0) + kills
    kinds = ", ".join(f"{k} {n}" for k, n in by_kind.items())
    acked = ledger.ok + ledger.retried_as_before + ledger.retried_done  # 2xx answers
    durable = "yes" if not ledger.not_durable and not ledger.claims_lost else "NO"
    return [
        f"kill trials: {trials} SIGKILLs in {len(ledger.games)} games ({kinds}), {seconds:.0f} s",
        f"taps: {ledger.sent} sent, {ledger.ok} answered 2xx, "
        f"{ledger.refused} refused (400 403 409), {ledger.faults} answered 5xx, {ledger.in_flight} in flight at a kill",
        f"in flight at a kill, sent again with the same key: {ledger.retried_as_before} answered as before (written "
        f"before the kill), {ledger.retried_done} done then, {sum(ledger.retried_refused.values())} refused"
        + (f" ({', '.join(f'{n} {code}' for code, n in sorted(ledger.retried_refused.items()))})"
           if ledger.retried_refused else ""),
        f"events: acknowledged {ledger.events_acked} ({ledger.events_by_answer} by answers, "
        f"{ledger.events_acked - ledger.events_by_answer} shown by the box), lost {len(ledger.lost)}, "
        f"duplicated {len(ledger.duplicated)}, phantom {len(ledger.phantom)}",
        f"camera reads recorded but not yet shown at a kill: {ledger.camera_unshown}",
        f"every 2xx durable: {durable} ({acked - ledger.not_durable} of {acked} answers; "
        f"{ledger.claims_acked - ledger.claims_lost} of {ledger.claims_acked} seat claims)",
        f"restarted state equals a clean replay: {ledger.replay_equal} of {ledger.restarts} restarts",
        f"box stderr: {ledger.tracebacks} tracebacks; final SIGTERM stops: {ledger.clean_stops} of "
        f"{len(ledger.games)} exit 0",
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials", type=int, default=200, help="SIGKILLs in all (default 200)")
    parser.add_argument("--seed", type=int, default=12, help="random seed (default 12)")
    parser.add_argument("--per-game", type=int, default=25, help="kills per game before a new one (default 25)")
    parser.add_argument("--games", default=",".join(GAME_KINDS),
                        help=f"the kinds of game played in turn, of {', '.join(COMMANDS)} (default "
                             f"{','.join(GAME_KINDS)})")
    parser.add_argument("--quiet", action="store_true", help="print the summary only")
    args = parser.parse_args(argv)
    kinds = tuple(k.strip() for k in args.games.split(",") if k.strip())
    if not kinds or any(k not in COMMANDS for k in kinds):
        parser.error(f"--games: a list of {', '.join(COMMANDS)}")
    if args.trials < 1 or args.per_game < 1:
        parser.error("--trials and --per-game must be at least 1")
    started = time.monotonic()
    ledger = run(args.trials, args.seed, args.per_game,
                 say=(lambda _: None) if args.quiet else (lambda line: print(line, flush=True)), kinds=kinds)
    for line in report(ledger, args.trials, time.monotonic() - started):
        print(line)
    for what, items in (("lost", ledger.lost), ("duplicated", ledger.duplicated), ("phantom", ledger.phantom),
                        ("replay differs", ledger.replay_differs)):
        for item in items[:10]:
            print(f"  {what}: {item}")
    good = not (ledger.lost or ledger.duplicated or ledger.phantom or ledger.replay_differs or ledger.not_durable)
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main())
