"""Nothing players read on the touchscreen is drawn below :data:`companion.screen.canvas.READ_MIN_PX` real px at the
800 x 480 layout either, in Greek, Polish and Hungarian (the 480 x 320 window had that floor already): Roll for the
Galaxy's Manage Empire in Greek ("Διαχείριση Αυτοκρατορίας", 10 px on its phase tile) goes over two lines of its
tile, a players-table heading keeps its words whole beside a 40-character name ("Układ kafelków"), the dice screen's
"Recent rolls" heading and Among the Stars' 2-player passing note wrap rather than shrink. Every screen of an evening
(:func:`tests.i18n_walk.walk`) is checked and saved."""

from __future__ import annotations

import pytest

from companion import i18n
from companion.screen import TouchScreen
from companion.screen.canvas import READ_MIN_PX
from tests.i18n_walk import walk
from tests.test_camera_browser import bob_asked_about_his_phase

LANGS = ["el", "pl", "hu"]


@pytest.mark.parametrize("lang", LANGS)
def test_every_screen_of_an_evening_draws_its_words_at_a_readable_size(tmp_path, output_dir, lang):
    shots = walk(lang, tmp_path, output_dir).shots   # the walk's screen is the 800 x 480 layout
    assert len(shots) > 20
    for shot in shots:
        drawn = [(text, rect, room) for text, rect, room in shot.drawn if text.strip()]
        small = [(text, rect.height) for text, rect, _room in drawn if rect.height < READ_MIN_PX]
        assert small == [], (shot.name, small)
        for text, rect, room in drawn:  # nothing runs out of its room or the window
            assert room is None or rect.width <= room + 1, (shot.name, text, rect, room)
            assert rect.right <= 800 and rect.bottom <= 480, (shot.name, text, rect)


def _texts(shots, name):
    return [text for text, _rect, _room in next(s for s in shots if s.name == name).drawn if text.strip()]


def _whole(texts, words):
    """Whether ``words`` are drawn whole, on one line or on lines one after the other."""
    for k, text in enumerate(texts):
        said = text
        while words.startswith(said) and said != words and k + 1 < len(texts):
            k += 1
            said = f"{said} {texts[k]}"
        if said == words:
            return True
    return False


HEADINGS = {"el": ("Ταμπλό", "Μονάδες"), "pl": ("Układ kafelków", "Kredyty"), "hu": ("Tabló", "Credit")}
"""Roll for the Galaxy's players-table headings (the tableau's tiles, the credits) in each language."""


@pytest.mark.parametrize("lang", LANGS)
def test_headings_are_whole_where_a_long_name_takes_the_room(tmp_path, lang):
    shots = walk(lang, tmp_path).shots
    table = _texts(shots, "roll-table")
    for heading in HEADINGS[lang]:  # the 40-character name beside them is cut with "…" first
        assert heading in table, (heading, table)
    with _box_language(lang):
        recent = i18n.say(i18n.Text("Recent rolls (newest first)"), lang)
    assert _whole(_texts(shots, "dice"), recent), _texts(shots, "dice")


class _box_language:
    """The box speaking ``lang`` for a while (English again after)."""

    def __init__(self, lang):
        self.lang = lang

    def __enter__(self):
        i18n.set_box_language(self.lang)

    def __exit__(self, *exc):
        i18n.set_box_language("en")


MANAGE = {"el": "Διαχείριση Αυτοκρατορίας", "pl": "Zarządzanie imperium", "hu": "Birodalom irányítása"}
"""Roll for the Galaxy's Manage Empire phase (p.8) as each language's rulebook or catalog names it."""


@pytest.mark.parametrize("lang", LANGS)
def test_manage_empire_is_drawn_whole_on_its_phase_tile(store, hub, output_dir, lang):
    # Roll for the Galaxy, p.3: the phase strip's six tiles, Manage Empire the last (the longest name in Greek)
    bob_asked_about_his_phase(store, hub)
    with _box_language(lang):
        screen = TouchScreen(size=(800, 480), phone_url="http://192.168.1.20:8080/")
        screen.render(hub.snapshot())
        screen.save_png(output_dir / f"screen_readable_800_{lang}.png")
    drawn = [(text, rect) for text, rect, _room in screen.drawn if text.strip()]
    assert all(rect.height >= READ_MIN_PX for _text, rect in drawn), [(t, r.height) for t, r in drawn]
    assert _whole([text for text, _rect in drawn], MANAGE[lang])
    if lang == "el":   # it does not fit its tile on one line at a readable size: two lines, one under the other
        top, bottom = next((a, b) for a, b in zip(drawn, drawn[1:], strict=False)
                           if f"{a[0]} {b[0]}" == MANAGE["el"])
        assert bottom[1].top >= top[1].bottom - 2 and abs(bottom[1].centerx - top[1].centerx) <= 1
