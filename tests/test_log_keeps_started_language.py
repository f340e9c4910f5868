"""A box started in one language keeps its command line's words and its log lines in it when a phone (on a box with
no touchscreen, as the demo runs) or the settings screen sets ``box.language`` to another: the demo's log turned
Greek half-way, a log in two languages. The phones' pages and the touchscreen follow the setting."""

from __future__ import annotations

import logging

import pytest

from companion import i18n
from companion.actions import Action
from companion.box_settings import BoxSettings
from companion.screen import TouchScreen
from companion.web import create_app
from tests.test_desk import act, box, race

# hand-written: "refused" and "no such page" as Greek, Polish and Hungarian players read them
REFUSED = {"el": "απορρίφθηκε", "pl": "odrzucono", "hu": "elutasítva"}
NOT_FOUND = {"el": "δεν υπάρχει τέτοια σελίδα", "pl": "nie ma takiej strony", "hu": "nincs ilyen oldal"}


@pytest.fixture
def english_box():
    """The command started in English (what ``companion demo`` without ``--language`` does); back after."""
    i18n.set_box_language("en")
    yield
    i18n.set_box_language("en")


@pytest.mark.parametrize("lang", ["el", "pl", "hu"])
def test_a_phone_setting_the_language_leaves_the_log_and_the_command_line_in_the_started_one(
        english_box, store, tmp_path, caplog, lang):
    settings = BoxSettings(tmp_path / "box-settings.json", "en")
    loop = box(race(store), box_settings=settings, no_screen=True)
    phone = {"client": "phone-1"}
    assert act(loop, Action.OWNER_ASK, "phone", **phone)["status"] == 200  # no touchscreen: allowed at once
    answer = act(loop, Action.CHANGE_SETTING, "phone", setting="box.language", value=lang, **phone)
    assert answer["status"] == 200, answer
    assert i18n.box_language() == lang and settings.language == lang
    # the command's own words: as it started
    assert i18n.current_language() == "en"
    assert i18n._("companion: interrupted; what the command had not saved yet is not saved") == (
        "companion: interrupted; what the command had not saved yet is not saved")
    with caplog.at_level(logging.WARNING, logger="companion.app"):
        refused = act(loop, "report", player="Ann", form="hand", values={"cards": "+-3"})
    assert refused["status"] == 400
    (line,) = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert "refused" in line and REFUSED[lang] not in line, line


@pytest.mark.parametrize("lang", ["el", "pl", "hu"])
def test_a_phone_naming_no_language_is_answered_in_the_setting(english_box, hub, tmp_path, lang):
    BoxSettings(tmp_path / "box-settings.json", "en").change("box.language", lang)
    answer = create_app(hub).test_client().get("/no-such-page")
    assert answer.status_code == 404
    assert NOT_FOUND[lang] in answer.get_json()["error"], answer.get_json()
    assert i18n.current_language() == "en"


def test_the_touchscreen_speaks_the_setting_and_the_command_line_its_own(english_box, tmp_path):
    BoxSettings(tmp_path / "box-settings.json", "en").change("box.language", "el")
    screen = TouchScreen()
    screen.render({"session": {"id": None, "game": "d6", "events": 0}, "status": {"camera": "ok", "message": ""},
                   "game": {"game": "d6"}, "dice": [], "findings": [], "phone_url": "http://192.168.1.20:8080/"})
    labels = [str(button.label) for button in screen.buttons.values()]
    assert labels and any(any("\u0370" <= c <= "\u03ff" for c in label) for label in labels), labels
    assert i18n.current_language() == "en"


def test_a_command_started_in_a_language_speaks_it_and_a_new_start_forgets_the_setting(english_box, tmp_path):
    BoxSettings(tmp_path / "box-settings.json", "en").change("box.language", "pl")
    assert (i18n.box_language(), i18n.current_language()) == ("pl", "en")
    i18n.set_box_language("hu")  # a command started again, in Hungarian
    assert (i18n.box_language(), i18n.current_language()) == ("hu", "hu")
