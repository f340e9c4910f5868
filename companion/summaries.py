"""The history's one-line summaries of past games, kept in the session database so that a box just started lists its
games without replaying every one of them (:meth:`companion.library.Library.past_games`).

A summary is kept in ``box_state`` (schema 4) under ``summary:<session id>`` as ``{"digest", "made_by", "summary"}``:

- ``digest``: :func:`game_digest` of the game when its summary was made: its session row (game, settings, start and
  end) and every event in order, each with its kind, payload, time, player and origin. A game whose record changed
  in any way since (an event added, withdrawn or rewritten) has another digest, and is replayed again.
- ``made_by``: :func:`made_by`, a digest of the program that scores games (the rules, the games' flows, this
  summary's shape): a box updated since the summary was made replays the game again, so a scoring fix shows.
- ``summary``: :meth:`companion.library.Library.summary` without its ``"title"`` (the game's own, added back when
  read), its ``"round_label"`` as kept words (:mod:`companion.kept_words`: said in each phone's language).

A kept summary of any other shape, a damaged row, a file older than schema 4 or opened read-only, or a storage that
refuses to write: the game is replayed as before, and nothing stops the box.
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import math
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from companion.kept_words import from_kept, to_kept

__all__ = ["game_digest", "kept_summaries", "keep_summaries", "made_by"]

log = logging.getLogger(__name__)

KEY = "summary:"
"""The ``box_state`` keys' prefix: ``summary:<session id>``."""

MAX_CHARS = 200_000
"""The longest kept summary read back (characters): a 9-player game's is under 2,000."""

SHAPE = 1
"""The kept summary's shape; part of :func:`made_by`, so a change of it makes every game replay once."""

SUMMARY_KEYS = frozenset({"session", "game", "players", "started_at", "finished", "winners", "round_label", "events"})
PLAYER_KEYS = frozenset({"name", "colour", "total", "winner"})


@functools.cache
def made_by() -> str:
    """A hex digest of the program that makes a summary: every file of the ``rules`` package (its code and its data),
    the games' flows (``companion/flow*.py``, ``companion/flows/``), :mod:`companion.library` and :data:`SHAPE`.
    Read once a run (about 3 MB)."""
    import rules

    here = Path(__file__).resolve().parent
    files = sorted(p for p in Path(rules.__file__).resolve().parent.rglob("*") if p.is_file()
                   and p.suffix in (".py", ".json", ".csv", ".txt") and "__pycache__" not in p.parts)
    files += sorted(here.glob("flow*.py")) + sorted((here / "flows").rglob("*.py")) + [here / "library.py"]
    h = hashlib.blake2b(str(SHAPE).encode(), digest_size=16)
    for path in files:
        h.update(path.name.encode() + b"\0")
        try:
            h.update(path.read_bytes())
        except OSError:
            h.update(b"?")
    return h.hexdigest()


def game_digest(store: Any, session_id: str) -> str:
    """A hex digest of everything game ``session_id``'s summary is made from: its session row and every event in
    order (seq, kind, payload, time, player, origin).

    Raises:
        companion.errors.SessionError, StorageError: the database cannot be read.
    """
    h = hashlib.blake2b(digest_size=16)
    with store.transaction(write=False, doing="reading a game for the history") as conn:
        row = conn.execute("SELECT game, settings, started_at, ended_at FROM sessions WHERE id = ?",
                           (session_id,)).fetchone()
        h.update(repr(row).encode("utf-8", "surrogatepass"))
        for event in conn.execute("SELECT seq, kind, payload, at, player, origin FROM events WHERE session_id = ?"
                                  " ORDER BY seq", (session_id,)):
            h.update(b"\n" + repr(event).encode("utf-8", "surrogatepass"))
    return h.hexdigest()


def _summary_of(kept: Any, session_id: str) -> dict[str, Any] | None:
    """The summary a kept value holds, checked (its keys, its players' and its values' types, its session), with
    its round label as words; None for a value of any other shape."""
    if not isinstance(kept, dict) or set(kept) != SUMMARY_KEYS or kept["session"] != session_id:
        return None
    players, winners = kept["players"], kept["winners"]
    if not isinstance(kept["game"], str) or type(kept["finished"]) is not bool or type(kept["events"]) is not int:
        return None
    if (not isinstance(kept["started_at"], (int, float)) or isinstance(kept["started_at"], bool)
            or not math.isfinite(kept["started_at"])):  # NaN would make the phones' JSON unreadable
        return None
    if not isinstance(players, list) or not isinstance(winners, list) or not all(isinstance(w, str) for w in winners):
        return None
    for p in players:
        if (not isinstance(p, dict) or set(p) != PLAYER_KEYS or not isinstance(p["name"], str)
                or not isinstance(p["colour"], str) or type(p["total"]) is not int or type(p["winner"]) is not bool):
            return None
    try:
        label = from_kept(kept["round_label"])
    except (ValueError, TypeError, RecursionError):
        return None
    return {**kept, "round_label": "" if label is None else label}


def kept_summaries(store: Any) -> dict[str, tuple[str, dict[str, Any]]]:
    """Every summary kept by this program (:func:`made_by`): session id -> ``(digest, summary)``, the summary checked
    and without its ``"title"``. Empty for a file older than schema 4; a damaged or foreign row is left out, the
    count said once in the log. Never raises for what the file holds; a database that cannot be read raises
    :class:`companion.errors.SessionError` or StorageError as any read does."""
    if store.schema < 4:
        return {}
    with store.transaction(write=False, doing="reading the history's summaries") as conn:
        rows = conn.execute("SELECT substr(key, ?), CASE WHEN length(value) <= ? THEN value END FROM box_state"
                            " WHERE key >= ? AND key < ?", (len(KEY) + 1, MAX_CHARS, KEY, KEY[:-1] + ";")).fetchall()
    ours, out, damaged = made_by(), {}, 0
    for session_id, text in rows:
        try:
            value = json.loads(text)
        except (ValueError, TypeError, RecursionError):
            damaged += 1
            continue
        if not isinstance(value, dict):
            damaged += 1
            continue
        if value.get("made_by") != ours:  # kept by the program before an update: replayed, and kept anew
            continue
        summary = _summary_of(value.get("summary"), session_id)
        if summary is None or not isinstance(value.get("digest"), str):
            damaged += 1
            continue
        out[session_id] = (value["digest"], summary)
    if damaged:
        log.warning("the history's kept summaries: %d damaged, those games are replayed", damaged)
    return out


def keep_summaries(store: Any, made: Mapping[str, tuple[str, Mapping[str, Any]]]) -> None:
    """Keep each game's summary (session id -> ``(digest, summary)``, the digest taken before the summary was made)
    in one transaction, replacing the ones before. A file older than schema 4, or a storage that refuses: nothing
    kept, said in the log at debug level (the next start replays those games), never raised."""
    from companion.errors import SessionError, StorageError

    if not made or store.schema < 4 or store.read_only is not None:
        return
    rows = []
    for session_id, (digest, summary) in made.items():
        kept = {k: v for k, v in summary.items() if k != "title"}
        kept["round_label"] = to_kept(kept.get("round_label"))
        try:
            rows.append((KEY + session_id, json.dumps({"digest": digest, "made_by": made_by(), "summary": kept},
                                                      separators=(",", ":"), ensure_ascii=False, allow_nan=False)))
        except (TypeError, ValueError, RecursionError) as exc:  # a start time changed by hand (bytes, Infinity)
            log.debug("the history's summary of %s not kept (%s): the next start replays it", session_id, exc)
    try:
        with store.transaction(write=True, doing="keeping the history's summaries") as conn:
            now = time.time()
            conn.executemany("INSERT OR REPLACE INTO box_state (key, value, at) VALUES (?, ?, ?)",
                             [(key, value, now) for key, value in rows])
    except (SessionError, StorageError, ValueError) as exc:
        log.debug("the history's summaries not kept (%s): the next start replays those games", exc)
