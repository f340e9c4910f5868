"""The touchscreen's health line never cuts its message mid-word.

On the game screen the line beside the bottom buttons is about 170 px wide: the calibration warning read
"⚠ UWAGA: kamera nie została skalibr…" in Polish, a sentence cut to a quarter. The message is now drawn whole where
the room holds it (word-wrapped on the setup and table check screens' taller corner), and where it does not, the
level says where the whole message is: the Owner page every phone links to.
"""

from __future__ import annotations

import pytest

from companion import i18n
from companion.screen import TouchScreen
from tests.test_flow import start

CALIBRATION = ("the camera has not been calibrated for this table, so card positions are rough: the box's owner can "
               "calibrate it")
# hand-written: the short form in each language (the Owner page's link label as every phone shows it)
SHORT = {"en": "WARN: see Owner page", "el": "ΠΡΟΣΟΧΗ: δείτε «Σελίδα ιδιοκτήτη»",
         "pl": "UWAGA: zob. „Strona właściciela”", "hu": "FIGYELEM: lásd: Tulajdonosi oldal"}


def _health_drawn(screen: TouchScreen, health: dict, flow) -> list[str]:
    view = {"session": {"id": flow.session.id, "game": flow.spec.name, "events": flow.session.last_seq},
            "status": {"camera": "ok", "reader": "watching", "message": ""}, "box": {"health": health},
            "game": flow.view(), "findings": [], "phone_url": "http://192.168.1.20:8080/"}
    screen.render(view)
    return [str(text) for text, _rect, _room in screen.drawn]


@pytest.mark.parametrize("lang", ["en", "el", "pl", "hu"])
def test_the_game_screens_health_line_is_whole_or_says_where_it_is(store, lang):
    flow = start(store, "race", "Łucja,Ζωή")
    try:
        i18n.set_box_language(lang)
        message = i18n.say(i18n.Text(CALIBRATION), lang)
        drawn = _health_drawn(TouchScreen(phone_url="http://192.168.1.20:8080/"),
                              {"level": "WARN", "key": "calibration", "message": message}, flow)
        level = i18n.say(i18n.Text("WARN"), lang)
        first = next(k for k, text in enumerate(drawn) if text.startswith(f"⚠ {level}:"))
        health = " ".join(drawn[first:])  # the health line is drawn last, on as many lines as it takes
        assert "…" not in health, health  # nothing cut
        assert health in (f"⚠ {level}: {message}", f"⚠ {SHORT[lang]}"), health  # whole, or where it is whole
        narrow = TouchScreen(phone_url="http://192.168.1.20:8080/")
        narrow.draw_health({"box": {"health": {"level": "WARN", "message": message}}}, narrow.rect(600, 452, 170, 22),
                           size=18)  # the game screen's corner beside its Games button: too narrow for it
        # where it is, or, where that does not fit the corner at READ_MIN_PX (Greek, Polish, Hungarian), the level alone
        assert [str(text) for text, _rect, _room in narrow.drawn] == [f"⚠ {SHORT[lang]}" if lang == "en" else
                                                                       f"⚠ {level}"]
        short = _health_drawn(TouchScreen(phone_url="http://192.168.1.20:8080/"),
                              {"level": "WARN", "key": "network", "message": "no network"}, flow)
        assert any(text.endswith(": no network") for text in short), short  # a short one is drawn as it is
    finally:
        i18n.set_box_language("en")


@pytest.mark.parametrize("lang", ["en", "el", "pl", "hu"])
def test_the_setup_screens_corner_says_where_the_message_is_whole_not_cut(lang):
    """The setup screen's corner (106 × 70 design px) drew "⚠ WARN: see Owner pa…": where the message does not fit,
    where it is is word-wrapped on the lines the corner holds, and where not even that fits, the level alone."""
    try:
        i18n.set_box_language(lang)
        message = i18n.say(i18n.Text(CALIBRATION), lang)
        health = {"box": {"health": {"level": "WARN", "message": message}}}
        corner = TouchScreen(phone_url="http://192.168.1.20:8080/")
        corner.draw_health(health, corner.rect(688, 404, 106, 70), size=16)
        drawn = [str(text) for text, _rect, _room in corner.drawn]
        assert " ".join(drawn) == f"⚠ {SHORT[lang]}", drawn  # the short form whole, over several lines
        sliver = TouchScreen(phone_url="http://192.168.1.20:8080/")
        sliver.draw_health(health, sliver.rect(688, 404, 106, 16), size=16)  # one line's height only
        level = i18n.say(i18n.Text("WARN"), lang)
        assert [str(text) for text, _rect, _room in sliver.drawn] == [f"⚠ {level}"]
    finally:
        i18n.set_box_language("en")
