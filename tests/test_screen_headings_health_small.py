"""The touchscreen in Greek, Polish and Hungarian where room is short:

- at 800 x 480 a game screen with a Games button says more of a health warning than its level alone ("⚠ ΠΡΟΣΟΧΗ"):
  the message, or where it is (the Owner page), on two lines of 12 px in the corner beside the buttons;
- at 480 x 320 the players table spans its room (it was drawn in 60 % of it: ``ts.s(1)`` is 1 there), so its
  headings are whole ("Układ kafelków", "Kredyty", "Ταμπλό", "Μονάδες"; they were "Układ…", "Τα…", "Μο…");
- a Greek word breaks before three consonants whose first two can begin a word ("Περι-στροφή") and between two that
  cannot ("Ενέρ-γεια"), as Greek hyphenation does; it had no break and ended in "…".

Words hand-written from the catalogs; the screens are the evening's walk's (:func:`tests.i18n_walk.walk`), drawn
again with a warning (the dim table of :mod:`device.health`)."""

from __future__ import annotations

import pytest

from companion import i18n
from companion.screen import TouchScreen
from companion.screen.canvas import READ_MIN_PX, syllable_break
from companion.screen.game import design_px
from tests.i18n_walk import walk

LANGS = ["el", "pl", "hu"]
WARNING = {"level": "WARN", "key": "light", "message": i18n.Text("the table is dim: add light over it")}
LEVEL = {"el": "⚠ ΠΡΟΣΟΧΗ", "pl": "⚠ UWAGA", "hu": "⚠ FIGYELEM"}
"""A warning's sign and level as each language's catalog says it."""
HEADINGS = {"el": ("Ταμπλό", "Μονάδες", "ΠΝ"), "pl": ("Układ kafelków", "Kredyty", "PZ"),
            "hu": ("Tabló", "Credit", "GYP")}
"""Roll for the Galaxy's players-table headings (tableau, credits, VP) in each language."""


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    """Each language's Roll for the Galaxy table view, with a health warning and the Games button."""
    views = {}
    for lang in LANGS:
        shots = walk(lang, tmp_path_factory.mktemp(lang)).shots
        view = dict(next(s for s in shots if s.name == "roll-table").view)
        view["box"] = dict(view.get("box") or {}, health=WARNING, games=True)
        views[lang] = view
    return views


def _drawn(view, lang, size):
    before = i18n.box_language()
    i18n.set_box_language(lang)
    try:
        screen = TouchScreen(size=size, phone_url="http://192.168.1.20:8080/")
        screen.render(type("S", (), {"view": view, "frame": None, "jpeg": None})())
        return [(text, rect) for text, rect, _room in screen.drawn if text.strip()]
    finally:
        i18n.set_box_language(before)


@pytest.mark.parametrize("lang", LANGS)
def test_a_warning_beside_the_games_button_says_more_than_its_level(tables, lang):
    drawn = _drawn(tables[lang], lang, (800, 480))
    [top] = [rect.y for text, rect in drawn if text.startswith(LEVEL[lang]) and rect.x >= 630]
    health = [(text, rect) for text, rect in drawn if rect.x >= 630 and rect.y >= top]
    said = " ".join(text for text, _rect in health)
    assert said.startswith(LEVEL[lang] + ":"), said  # the level and, after it, what or where
    assert len(said) > len(LEVEL[lang]) + 5, said
    assert not said.endswith("…"), said
    for text, rect in health:
        assert rect.height >= READ_MIN_PX and rect.bottom <= 480 and rect.right <= 800, (text, rect)


@pytest.mark.parametrize("lang", LANGS)
def test_the_players_table_headings_are_whole_at_480_by_320(tables, lang):
    texts = [text for text, _rect in _drawn(tables[lang], lang, (480, 320))]
    for heading in HEADINGS[lang]:
        assert heading in texts, (heading, texts)


def test_a_design_px_at_480_by_320_is_six_tenths_of_a_px():
    assert design_px(TouchScreen(size=(480, 320))) == 0.6
    assert design_px(TouchScreen(size=(800, 480))) == 1.0


@pytest.mark.parametrize(("head", "tail", "allowed"), [
    ("Περι", "στροφή", True),   # στρ: στ begins Greek words (στόλος), so all three open the syllable
    ("Περισ", "τροφή", False),  # not inside that cluster
    ("επι", "στροφή", True),
    ("Ενέρ", "γεια", True),     # ργ begins no Greek word: split between
    ("Ενέ", "ργεια", False),
    ("Διόρ", "θωση", True),
    ("Σταθ", "μός", True),
    ("Ανάπ", "τυξη", False),    # πτ begins Greek words: kept together ("Ανά-πτυξη")
    ("Ανά", "πτυξη", True),
    ("Απόρ", "ριψη", True),
    ("Pot", "wierdź", True),    # Latin letters as before
    ("Po", "twierdź", False),
])
def test_greek_breaks_before_a_cluster_that_can_begin_a_word_and_inside_one_that_cannot(head, tail, allowed):
    assert syllable_break(head, tail) is allowed
