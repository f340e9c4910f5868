"""The players' languages (issue 17 'Languages'): gettext catalogs through companion.i18n, a phone's language from
its page or its browser, plural rules and formats per language, and a touchscreen font with every letter."""

from __future__ import annotations

import io

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo

from companion import i18n
from companion.screen.canvas import Canvas
from companion.screen.fonts import SAMPLE_LETTERS, font_file, missing_letters
from tests.catalogs import catalog, forms, po_path


@pytest.fixture
def greek_catalog(tmp_path, monkeypatch):
    """A compiled Greek catalog with two entries (a singular and a plural one) in a folder of its own."""
    catalog = Catalog(locale="el", domain=i18n.DOMAIN)
    catalog.add("Games", "Παιχνίδια")
    catalog.add(("{n} player", "{n} players"), ("{n} παίκτης", "{n} παίκτες"))
    folder = tmp_path / "el" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    (folder / f"{i18n.DOMAIN}.mo").write_bytes(buffer.getvalue())
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    i18n.translations.cache_clear()
    yield
    i18n.translations.cache_clear()
    i18n.set_box_language("en")


def test_the_box_language_and_a_phones_language_are_kept_apart(greek_catalog):
    assert i18n._("Games") == "Games"
    i18n.set_box_language("el")
    assert i18n._("Games") == "Παιχνίδια"
    label = i18n.lazy("Games")  # kept English, said in a language by localize
    with i18n.use_language("en"):  # a phone in English while the box speaks Greek
        assert i18n._("Games") == "Games" and i18n.localize(label) == "Games"
        assert i18n.current_language() == "en"
    assert label == "Games" and i18n.localize(label) == "Παιχνίδια"
    assert i18n.localize({"label": label, "n": [label, 3]}, "el") == {"label": "Παιχνίδια", "n": ["Παιχνίδια", 3]}
    assert i18n.localize(i18n.plural("{n} player", "{n} players", 3), "el") == "3 παίκτες"
    assert i18n.ngettext("{n} player", "{n} players", 1) == "{n} παίκτης"
    assert i18n.ngettext("{n} player", "{n} players", 3) == "{n} παίκτες"
    assert i18n.messages("el")["Games"] == "Παιχνίδια"
    assert i18n.set_box_language("tlh") == "en"  # an unknown language: English


def test_a_phones_language_is_its_pick_then_its_browser_then_the_boxs():
    assert i18n.pick_language("pl", "el-GR,el;q=0.9", "hu") == "pl"
    assert i18n.pick_language(None, "de-DE,de;q=0.9,el;q=0.8,en;q=0.5", "hu") == "el"
    assert i18n.pick_language(None, [("fr", 1.0), ("hu-HU", 0.7)], "en") == "hu"
    assert i18n.pick_language("xx", "de,fr", "hu") == "hu"
    assert i18n.pick_language(None, None, None) == i18n.box_language()


def test_numbers_and_dates_follow_the_language():
    with i18n.use_language("pl"):
        assert i18n.format_number(1234.5, 1) == "1\xa0234,5"
    with i18n.use_language("en"):
        assert i18n.format_number(1234.5, 1) == "1,234.5"
    with i18n.use_language("el"):
        assert "2026" in i18n.format_datetime(1_780_000_000)


def test_a_damaged_catalog_is_english_not_a_stop(tmp_path, monkeypatch):
    folder = tmp_path / "hu" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / f"{i18n.DOMAIN}.mo").write_bytes(b"not a catalog")
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    i18n.translations.cache_clear()
    try:
        with i18n.use_language("hu"):
            assert i18n._("Games") == "Games"
    finally:
        i18n.translations.cache_clear()


def test_the_shipped_catalogs_read_in_every_language():
    for lang in i18n.LANGUAGES:
        with i18n.use_language(lang):
            assert isinstance(i18n._("Games"), str)


def test_the_touchscreen_font_has_greek_polish_and_hungarian_letters():
    if font_file() is None:
        pytest.skip("no DejaVu or Noto font installed: apt-get install fonts-dejavu-core (./setup.sh does)")
    canvas = Canvas()
    font = canvas.font(30)
    assert missing_letters(font) == ""
    # every entry of every catalog renders with it (the catalogs' own words, in each language)
    for lang in i18n.LANGUAGES:
        if not po_path(lang).is_file():
            continue
        for message in catalog(lang):
            for one in forms(message.id) + forms(message.string):
                if one:
                    assert missing_letters(font, one) == "", (lang, one)
    surface = canvas.render_text(SAMPLE_LETTERS, 30, (255, 255, 255))
    assert surface.get_width() > 400
    for name in i18n.LANGUAGE_NAMES.values():
        assert missing_letters(font, name) == ""


def test_an_error_of_the_device_or_vision_room_keeps_its_words_for_each_language():
    """``DeviceError.said`` / ``VisionError.said``: the English message as before (``str(exc)``), and
    :func:`i18n.message_of` gives it back as a Text said in the player's language; an error made the old way stays
    its English string."""
    from device import BadImage
    from vision.table import CalibrationFailed

    bad = BadImage.said("image {path} is empty (0 bytes): copy it again or delete it", path="a.jpg")
    assert str(bad) == "image a.jpg is empty (0 bytes): copy it again or delete it" and bad.path == "a.jpg"
    said = i18n.say(bad, "pl")
    assert said == "obraz a.jpg jest pusty (0 bajtów): skopiuj go ponownie albo usuń"
    failed = CalibrationFailed.said("saw calibration markers {seen} but need at least {needed} of {markers} (is the "
                                    "sheet in view, flat and well lit?)", seen="[1]", needed=2, markers="[0, 1, 2, 3]")
    assert "need at least 2 of [0, 1, 2, 3]" in str(failed)
    assert "legalább 2 kell" in i18n.say(failed, "hu")
    assert i18n.say(BadImage("image b.jpg is odd"), "el") == "image b.jpg is odd"


@pytest.mark.parametrize("lang, words", [("el", "ένας αριθμός με περισσότερα από 18 ψηφία"),
                                         ("pl", "liczbę o ponad 18 cyfrach"), ("hu", "18 jegynél hosszabb szám")])
def test_a_huge_number_typed_on_a_phone_is_named_in_its_language(lang, words):
    """A phone reporting 'Credits now: 100000000000000000000' read 'Kredyty musi być w zakresie 0-10, podano a number
    of more than 18 digits': the number's description stayed English inside the Polish refusal."""
    from companion.errors import BadEntry
    from companion.flow_spec import Field, Form, parse_form

    form = Form("credits", i18n.Text("Credits now"), (Field("credits", i18n.Text("Credits"), "int", minimum=0,
                                                            maximum=10),))
    with pytest.raises(BadEntry) as refused:
        parse_form(form, {"credits": 10**20})
    assert str(refused.value).endswith("got a number of more than 18 digits")
    said = i18n.say(refused.value, lang)
    assert words in said and "a number of" not in said, said


@pytest.mark.parametrize("lang", ["en", "el", "pl", "hu"])
def test_a_refusal_of_a_one_field_form_names_its_label_once(lang):
    """Roll's Credits refusal read "Μονάδες τώρα: Μονάδες: πρέπει να είναι 0-10": the form "Credits now" asks
    Credits alone, so naming the form before the field said the label twice. A form of several fields still names
    itself first."""
    from companion.errors import BadEntry
    from companion.flow_spec import Field, Form, parse_form

    credits = i18n.Text("Credits")
    label = i18n.say(credits, lang)
    form = Form("credits", i18n.Text("Credits now"), (Field("credits", credits, "int", minimum=0, maximum=10),))
    for values in ({"credits": 11}, {}, {"credits": "many"}):
        with pytest.raises(BadEntry) as refused:
            parse_form(form, values)
        said = i18n.say(refused.value, lang)
        assert said.count(label) == 1 and i18n.say(i18n.Text("Credits now"), lang) not in said, said
    two = Form("ship", i18n.Text("Good shipped"), (Field("world", i18n.Text("World"), choices=("a", "b")),
                                                    Field("vp", i18n.Text("VP"), "int", minimum=1, maximum=5)))
    with pytest.raises(BadEntry) as refused:
        parse_form(two, {"world": "a", "vp": 9})
    said = i18n.say(refused.value, lang)
    assert said.startswith(i18n.say(i18n.Text("Good shipped"), lang) + ": ") and said.count(i18n.say(
        i18n.Text("VP"), lang)) == 1, said


def test_a_list_read_as_all_or_one_of_them_takes_its_conjunction_once():
    """Three players who have not reported read "Ζωή, Ágnes and Bálint", not "Ζωή and Ágnes and Bálint" (Among the
    Stars' refused Next said that in every language): commas between the items, the language's own word for "and"
    or "or" before the last only, without a comma before it in Greek, Polish and Hungarian."""
    from rules.text import AND, OR, Listing

    names = Listing(["Ζωή", "Ágnes", "Bálint"], AND)
    assert str(names) == "Ζωή, Ágnes and Bálint"
    said = {lang: i18n.localize(names, lang) for lang in ("el", "pl", "hu")}
    assert said == {"el": "Ζωή, Ágnes και Bálint", "pl": "Ζωή, Ágnes i Bálint", "hu": "Ζωή, Ágnes és Bálint"}
    assert i18n.localize(Listing(["Ann", "Bob"], AND), "hu") == "Ann és Bob"
    assert str(Listing(["a", "b", "c", "d"], OR)) == "a, b, c or d"
    assert str(Listing(["a", "b", "c"], " + ")) == "a + b + c"  # a plain separator goes between every two
