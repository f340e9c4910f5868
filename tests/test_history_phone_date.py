"""A game opened from the history on a phone is named with its date as the phone's language writes dates (Babel's
short date and time), as the rest of the phone's text is: found at a Hungarian table, where the answer said
"Eclipse, 12/6/26, 9:53 AM", written in the box's English when the tap was answered."""

from __future__ import annotations

import time

import pytest

from companion.actions import Action
from companion.modes import ModeName
from tests.phones import joined_phone, post_through_loop
from tests.test_evening import evening


def _written(started: float) -> dict[str, tuple[str, ...]]:
    """The game's start as each language writes a short date, worked from its local date: Hungarian year first
    with dots and a zero-padded month and day, Polish day.month.year, Greek day/month/two-digit year and its
    "π.μ."/"μ.μ.", English month/day/year with AM or PM."""
    t = time.localtime(started)
    y, m, d = t.tm_year, t.tm_mon, t.tm_mday
    return {"hu": (f"{y}. {m:02d}. {d:02d}.",), "pl": (f"{d}.{m:02d}.{y}",),
            "el": (f"{d}/{m}/{y % 100}", "μ." if t.tm_hour < 12 else "μ.μ."),
            "en": (f"{m}/{d}/{y % 100}", "AM" if t.tm_hour < 12 else "PM")}


@pytest.mark.parametrize("lang", ["hu", "pl", "el", "en"])
def test_a_game_opened_from_the_history_is_dated_in_the_phones_language(store, tmp_path, lang):
    loop = evening(store, tmp_path)
    for name, payload in (("choose_game", {"game": "race"}), ("setup_player", {"player": "Ágnes"}),
                          ("setup_player", {"player": "Bálint"}), ("setup_start", {})):
        assert loop.dispatch({"action": Action(name), "origin": "touchscreen", **payload}).error is None
    session = loop.session.id
    assert loop.dispatch({"action": Action("history"), "origin": "touchscreen"}).error is None
    loop.publish()
    phone = joined_phone(loop.hub, reply_s=30)
    phone.set_cookie("lang", lang)
    assert loop.mode_name is ModeName.HISTORY
    loop.publish()
    version = (phone.get("/api/state").get_json().get("session") or {}).get("events") or 0
    answer = post_through_loop(phone, loop, "/api/box", {"action": "open", "session": session, "version": version,
                                                          "key": "h2"})
    assert answer.status_code == 200, answer.get_json()
    message = answer.get_json()["message"]
    started = loop.library.summary(session)["started_at"]
    assert message.startswith("Race for the Galaxy"), message
    assert all(part in message for part in _written(started)[lang]), message
    if lang != "en":
        assert "AM" not in message and "PM" not in message, message
