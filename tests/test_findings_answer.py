"""``GET /api/findings``: every note of the game, newest first, for any phone (a watcher too, as ``/api/state``), in
the phone's language; a game of thousands of notes is written once per state and language, not at every ask (an
unfolded phone asks at each new state, and any phone may ask 30 times a second: at 3,000 notes each writing took
about 75 ms of the box's CPU)."""

from __future__ import annotations

import pytest

from companion import i18n
from companion.hub import StateHub
from companion.i18n import Text
from companion.web import create_app

#: Roll for the Galaxy p.1 Components: each tile exists once (hand-made notes; the wording is the engine's own).
NOTE = "the tile {tile} is not in the bag (another player has it)"


def _notes(n: int) -> list[dict]:
    return [{"what": Text(NOTE, tile=f"Gem World {k}"), "where": "Ann", "rule": "Roll for the Galaxy, p.1",
             "severity": "error", "todo": ""} for k in range(n, 0, -1)]  # newest first


@pytest.fixture
def client():
    hub = StateHub()
    notes = _notes(8)
    hub.publish({"mode": "game", "game": {"findings": notes[:6], "findings_total": 8, "all_findings": notes}})
    return hub, create_app(hub).test_client()


def test_a_watching_phone_gets_every_note_newest_first_in_its_language(client):
    hub, phone = client
    answer = phone.get("/api/findings?game=other&x=" + "%ff" * 300, headers={"Accept-Language": "el-GR"})
    assert answer.status_code == 200 and answer.headers["Cache-Control"] == "no-store"
    body = answer.get_json()
    assert body["version"] == hub.snapshot().version and len(body["findings"]) == 8
    assert [f["what"] for f in body["findings"]][:2] == [
        i18n.localize(Text(NOTE, tile="Gem World 8"), "el"), i18n.localize(Text(NOTE, tile="Gem World 7"), "el")]
    assert "all_findings" not in phone.get("/api/state").get_json()["game"]


def test_the_notes_of_one_state_are_written_once_per_language(client, monkeypatch):
    hub, phone = client
    said: list[str] = []
    localize = i18n.localize

    def counted(value, *args, **kwargs):
        if isinstance(value, list):  # the notes (the state's own localizing is of a dict)
            said.append(args[0] if args else kwargs.get("lang"))
        return localize(value, *args, **kwargs)

    monkeypatch.setattr(i18n, "localize", counted)
    first = [phone.get("/api/findings", headers={"Accept-Language": "pl"}).data for _ in range(5)]
    assert len(set(first)) == 1 and said == ["pl"]
    phone.get("/api/findings", headers={"Accept-Language": "hu"})
    assert said == ["pl", "hu"]
    notes = _notes(9)  # a new note: the new state is written anew
    hub.publish({"mode": "game", "game": {"findings": notes[:6], "findings_total": 9, "all_findings": notes}})
    assert len(phone.get("/api/findings", headers={"Accept-Language": "pl"}).get_json()["findings"]) == 9
    assert said == ["pl", "hu", "pl"]
