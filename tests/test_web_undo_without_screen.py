"""Who may tap the table's Undo (``{"action": "undo"}``) in a game, as companion/web.py's docstring says: on a box with
a touchscreen a phone is refused (403, nothing asked of the loop: it withdraws only its own report); on a box without
one (``--no-screen``) a joined phone's Undo goes to the table as the touchscreen's would."""

from __future__ import annotations

import pytest

from companion.actions import Action
from companion.desk import _without_screen
from companion.hub import Pairing
from companion.web import create_app
from tests.test_web import Answering, written

SECRET = "undo-secret-0000000000"


def _game(screen: bool) -> dict:
    return {"session": {"id": "s1", "game": "roll", "events": 12}, "status": {"message": "ok"},
            "box": {"screen": screen}, "game": {"flow": "roll", "next": {"label": "Settle", "enabled": True},
                     "players": [{"name": "Ann", "claimed": True}]}}


@pytest.fixture
def phone(hub):
    hub.set_pairing(Pairing("g1", SECRET, {}))
    app = create_app(hub, reply_s=2.0)
    client = app.test_client()
    assert client.get(f"/join/{SECRET}").status_code == 303
    return client


def test_with_a_touchscreen_a_phones_undo_in_a_game_is_refused_unasked(phone, hub):
    hub.publish(_game(screen=True))
    with Answering(hub, written) as loop:
        answer = phone.post("/api/action", json={"action": "undo", "version": 12, "key": "u1"})
    assert answer.status_code == 403 and "touchscreen" in answer.get_json()["error"]
    assert loop.taken == []


def test_without_a_touchscreen_a_joined_phones_undo_in_a_game_goes_to_the_table(phone, hub):
    hub.publish(_game(screen=False))
    with Answering(hub, written) as loop:
        answer = phone.post("/api/action", json={"action": "undo", "version": 12, "key": "u1"})
    assert answer.status_code == 200, answer.get_json()
    assert [taken["action"] for taken in loop.taken] == ["undo"]


def test_without_a_touchscreen_the_desk_lets_a_joined_phone_undo_and_no_other():
    assert _without_screen(Action.UNDO, {"client": "phone-1"}) == ""
    assert "QR code" in str(_without_screen(Action.UNDO, {}))
