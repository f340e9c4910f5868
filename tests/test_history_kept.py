"""The history's first look after a start takes each game's kept summary instead of replaying every game
(``companion.summaries``), and replays any game whose record changed since, or whose kept summary is damaged.

The game is the golden Race playthrough (``tests/playthroughs/race-three-rounds.jsonl``), worked by hand there from
the rulebook: Ann 24 VP chips + Old Earth 2 + Investment Credits 1 + Asteroid Belt 1 = 28, Bob 0 + Epsilon Eridani 1
+ Gem World 1 = 2; the pool of 24 empties in round 3's IV Consume (Ann's 22 chips), so round 3 ends the game.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.library import Library

PLAYTHROUGH = Path(__file__).resolve().parent / "playthroughs" / "race-three-rounds.jsonl"


def recorded(store) -> str:
    """The Race playthrough recorded event by event, as the box records reports; its session id."""
    rows = [json.loads(line) for line in PLAYTHROUGH.read_text(encoding="utf-8").splitlines() if line.strip()]
    session = store.start("race", rows[0]["settings"])
    for row in rows[1:]:
        if "kind" in row:
            session.append(row["kind"], row.get("payload", {}), player=row.get("player"), origin="phone")
    return session.id


def scores(line: dict) -> list[tuple[str, int, bool]]:
    return [(p["name"], p["total"], p["winner"]) for p in line["players"]]


def never_replayed(monkeypatch, library: Library) -> None:
    def replayed(session_id, events=None):
        raise AssertionError(f"game {session_id} replayed")

    monkeypatch.setattr(library, "summary", replayed)


def test_a_box_started_again_lists_its_games_without_replaying_them(store, monkeypatch):
    game = recorded(store)
    first = Library(store).past_games()
    assert [(g["session"], g["finished"], g["winners"]) for g in first] == [(game, True, ["Ann"])]
    assert scores(first[0]) == [("Ann", 28, True), ("Bob", 2, False)]
    started_again = Library(store)
    never_replayed(monkeypatch, started_again)
    assert started_again.past_games() == first
    assert started_again.open_games() == []  # the chooser's look: the same summaries


def test_a_game_whose_record_changed_since_its_summary_is_replayed(store):
    game = recorded(store)
    Library(store).past_games()
    # a table's Undo after the game was scored (an event added): the last round's end withdrawn, the game open again
    store.get(game).undo(origin="touchscreen")
    [line] = Library(store).past_games()
    assert line["finished"] is False and line["winners"] == [] and line["events"] == 24
    with store.transaction(write=True, doing="taking the Undo out of the record") as conn:
        conn.execute("DELETE FROM events WHERE session_id = ? AND seq > 23", (game,))
    [line] = Library(store).past_games()  # its record as it was: scored again, and kept
    assert line["finished"] is True and scores(line) == [("Ann", 28, True), ("Bob", 2, False)]
    # an event rewritten in place, the count the same: Ann's 22 chips of round 3 were 21 (the pool keeps 1, so round 3
    # no longer ends the game): Ann 23 chips + 2 + 1 + 1 = 27
    with store.transaction(write=True, doing="rewriting an event") as conn:
        changed = conn.execute("UPDATE events SET payload = json_set(payload, '$.delta', 21) WHERE session_id = ? AND"
                               " kind = 'vp_changed' AND json_extract(payload, '$.delta') = 22", (game,)).rowcount
    assert changed == 1
    [line] = Library(store).past_games()
    assert line["finished"] is False and line["winners"] == [] and line["events"] == 23
    assert scores(line) == [("Ann", 27, False), ("Bob", 2, False)]


@pytest.mark.parametrize("damage", ["not JSON", '"a string"', "{}", "too long", "another program", "wrong totals",
                                    "another game's", "words of no kept shape", "no table", "a start not a number",
                                    "a start not the game's", "a colour not a name"])
def test_a_damaged_or_missing_kept_summary_is_replayed_and_never_stops_the_box(store, damage):
    game = recorded(store)
    Library(store).past_games()
    key = f"summary:{game}"
    with store.transaction(write=True, doing="damaging the kept summary") as conn:
        [(text,)] = conn.execute("SELECT value FROM box_state WHERE key = ?", (key,)).fetchall()
        kept = json.loads(text)
        if damage == "not JSON":
            text = '{"digest": "'
        elif damage == '"a string"':
            text = damage
        elif damage == "{}":
            text = "{}"
        elif damage == "too long":
            text = json.dumps({**kept, "pad": "x" * 300_000})
        elif damage == "another program":
            text = json.dumps({**kept, "made_by": "0" * 32})
        elif damage == "wrong totals":
            kept["summary"]["players"][0]["total"] = "28"
            text = json.dumps(kept)
        elif damage == "another game's":
            kept["summary"]["session"] = "20200101-000000-aaaaaa"
            text = json.dumps(kept)
        elif damage == "a start not a number":  # the phones' JSON has no NaN: the whole table's view was refused
            kept["summary"]["started_at"] = float("nan")
            text = json.dumps(kept)
        elif damage == "a start not the game's":
            kept["summary"]["started_at"] = 1e300
            text = json.dumps(kept)
        elif damage == "a colour not a name":
            kept["summary"]["players"][0]["colour"] = {"r": 1}
            text = json.dumps(kept)
        elif damage == "words of no kept shape":
            kept["summary"]["round_label"] = {"text": "{0.__class__}", "plural": None, "n": None, "params": {}}
            text = json.dumps(kept)
        if damage == "no table":
            conn.execute("DROP TABLE box_state")
        else:
            conn.execute("UPDATE box_state SET value = ? WHERE key = ?", (text, key))
    [line] = Library(store).past_games()
    assert line["session"] == game and line["finished"] is True and "unreadable" not in line
    assert scores(line) == [("Ann", 28, True), ("Bob", 2, False)]
    assert line["started_at"] == store.get(game).started_at
    assert [p["colour"] for p in line["players"]] == ["red", "blue"]  # the first two seats' colours
    json.dumps(line, allow_nan=False)  # what the phones are sent


def test_a_look_during_an_action_keeps_its_summaries_after_it_never_in_its_transaction(store, monkeypatch):
    """The chooser looks at the open games while it answers a tap, inside that action's transaction: the summaries
    it replayed for are kept at the next look outside it, so a failing write can never undo the action."""
    game = recorded(store)
    library = Library(store)
    with store.transaction(write=True, doing="an action"):
        assert library.open_games() == []
        assert store.in_transaction
    with store.transaction(write=False, doing="counting the kept summaries") as conn:
        assert conn.execute("SELECT COUNT(*) FROM box_state WHERE key LIKE 'summary:%'").fetchone() == (0,)
    library.past_games()
    started_again = Library(store)
    never_replayed(monkeypatch, started_again)
    [line] = started_again.past_games()
    assert line["session"] == game and scores(line) == [("Ann", 28, True), ("Bob", 2, False)]
