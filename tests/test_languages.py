"""The four languages are complete (issue 17 'Languages'): every message of the code is in the catalog template,
every entry of the Greek, Polish and Hungarian catalogs is translated (no fuzzy, no leftover), with the message's
own placeholders and the language's plural forms; every screen of an evening speaks the language (no English a
player would read); the phone page in a real browser (Debian's chromium via Playwright) speaks each language at a
phone's size, with a screenshot per language to look at.

The touchscreen's font drawing every character of every catalog is tests/test_i18n.py
(``test_the_touchscreen_font_has_greek_polish_and_hungarian_letters``).
"""

from __future__ import annotations

import gettext
import os
import re
from pathlib import Path
from string import Formatter

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.plurals import get_plural

from companion import i18n
from tests.catalogs import TRANSLATED, catalog, template

ROOT = Path(__file__).resolve().parent.parent
def _key(message) -> tuple[str | None, str]:
    return message.context, message.id if isinstance(message.id, str) else message.id[0]


def _fields(text: str) -> set[str]:
    """The placeholders of a message: ``{name}`` (with its conversion, ``{card!r}``) and ``%s`` / ``%(name)s``."""
    out = set()
    for _literal, name, _spec, conversion in Formatter().parse(text):
        if name is not None:
            out.add(name + ("!" + conversion if conversion else ""))
    out.update(m.group(0) for m in re.finditer(r"%(\([a-z_]+\))?[sdr]", text))
    return out


def test_the_template_holds_every_message_of_the_code():
    """What `pybabel extract -F babel.cfg` finds in the code today is in companion.pot, and nothing more: a message
    added without updating the catalogs fails here (and would be English for every player)."""
    with (ROOT / "babel.cfg").open(encoding="utf-8") as fp:
        method_map, options_map = parse_mapping_cfg(fp)
    in_code = set()
    for _filename, _lineno, message, _comments, context in extract_from_dir(str(ROOT), method_map, options_map,
                                                                           strip_comment_tags=True):
        first = message if isinstance(message, str) else message[0]
        if first:
            in_code.add((context, first))
    in_template = {_key(m) for m in template() if m.id}
    assert sorted(in_code - in_template, key=str) == [], "run pybabel extract and update (see babel.cfg)"
    assert sorted(in_template - in_code, key=str) == [], "messages no code says any more: extract again"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_is_translated_with_its_placeholders_and_plural_forms(lang):
    wanted = {_key(m): m for m in template() if m.id}
    entries = {_key(m): m for m in catalog(lang) if m.id}
    assert sorted(set(wanted) - set(entries), key=str) == [], f"{lang}: messages missing from the catalog"
    assert sorted(set(entries) - set(wanted), key=str) == [], f"{lang}: leftover entries (obsolete messages)"
    assert not catalog(lang).obsolete, f"{lang}: obsolete entries kept in the file"
    plural = get_plural(lang)  # Babel's (CLDR's) plural rule for the language
    header = catalog(lang).mime_headers
    forms = dict(header).get("Plural-Forms", "")
    assert f"nplurals={plural.num_plurals};" in forms.replace(" ", ""), (lang, forms)
    expression = forms.split("plural=", 1)[1].rstrip(";")
    ours = gettext.c2py(expression)
    babel_rule = gettext.c2py(plural.plural_expr)
    assert [ours(n) for n in range(0, 1001)] == [babel_rule(n) for n in range(0, 1001)], (lang, expression)
    problems = []
    for message in entries.values():
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        where = f"{lang} {ids[0]!r}"
        if message.fuzzy:
            problems.append(f"{where}: fuzzy")
        if isinstance(message.id, tuple) and len(strings) != plural.num_plurals:
            problems.append(f"{where}: {len(strings)} plural forms, the language has {plural.num_plurals}")
        wanted = _fields(ids[-1]) | _fields(ids[0])
        for k, text in enumerate(strings):
            if not text or not text.strip():
                problems.append(f"{where}: untranslated (form {k})")
                continue
            have = _fields(text)
            if have - wanted:
                problems.append(f"{where}: placeholders {sorted(have - wanted)} the message does not give")
            missing = wanted - have
            if isinstance(message.id, tuple):  # a form may leave the count out ("one die" said as a word)
                missing -= {"n"} if "n" in _fields(ids[0]) and "n" not in _fields(text) and len(missing) == 1 \
                    and k == 0 else set()
            if missing:
                problems.append(f"{where}: placeholders {sorted(missing)} left out")
            for edge in (lambda s: s[:len(s) - len(s.lstrip())], lambda s: s[len(s.rstrip()):]):
                if edge(text) != edge(ids[0]):
                    problems.append(f"{where}: leading or trailing spaces differ from the message's")
    assert problems == []


API_WORDS = {
    # answered only to a request whose body lacks the state version, which the box's own pages always send: the
    # developer writing a client is told where the version is read
    "the state version the phone showed (session.events of /api/state)",
}
"""Messages that may name the phone API: each is said only to a request the box's pages never make."""


def test_no_message_shows_players_an_api_path():
    """Players read the names of buttons, never the API behind them: before, refusing a phone's Undo in a game said
    "tap \"Undo my last report\" (POST /api/report/undo {\"player\": name})" in every language. No message of the
    template (and no translation of one) names an ``/api/`` path or a ``POST``, but the few in ``API_WORDS``."""
    shown = []
    for lang in (None, *TRANSLATED):
        for message in (template() if lang is None else catalog(lang)):
            if not message.id or _key(message)[1] in API_WORDS:
                continue
            texts = message.id if lang is None else message.string
            for text in (texts if isinstance(texts, tuple) else (texts,)):
                if re.search(r"/api/|\bPOST /", text):
                    shown.append((lang or "en", text))
    assert shown == []


@pytest.mark.parametrize("lang", TRANSLATED)
def test_a_plural_message_is_said_by_the_languages_rule(lang):
    """The compiled catalog says counts as a native speaker would: Polish has three forms (1 / 2-4 / 5+, and 22 but
    12), Greek and Hungarian two."""
    said = {n: i18n.localize(i18n.plural("{n} event", "{n} events", n, n=n), lang) for n in (1, 2, 5, 12, 22)}
    if lang == "pl":
        assert said == {1: "1 zdarzenie", 2: "2 zdarzenia", 5: "5 zdarzeń", 12: "12 zdarzeń", 22: "22 zdarzenia"}
    elif lang == "hu":
        assert said == {n: f"{n} esemény" for n in said}  # Hungarian nouns stay singular after a number
    else:
        assert said[1] != said[2] and said[2] == said[5].replace("5", "2")


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_screen_of_an_evening_speaks_the_language(lang, tmp_path, output_dir):
    """Every touchscreen screen of an evening (tests/i18n_walk.py) and every view a phone of the language gets:
    no English word a player of ``lang`` would read (names, components printed in English, commands and codes
    aside), and the language's own words are there. Screenshots: i18n-<lang>-<screen>.png."""
    from tests.i18n_walk import leaks, shown_strings, walk

    done = walk(lang, tmp_path, output_dir)
    drawn = [text for shot in done.shots for text in shot.texts]
    assert leaks(drawn, lang) == []
    assert leaks([s for view in done.views for s in shown_strings(view)], lang) == []
    undo = i18n.translations(lang).gettext("Undo")
    assert undo != "Undo" and undo in drawn


@pytest.mark.browser
@pytest.mark.parametrize("lang, locale", [("en", "en-GB"), ("el", "el-GR"), ("pl", "pl-PL"), ("hu", "hu-HU")])
def test_the_phone_page_speaks_the_browsers_language(lang, locale, tmp_path, output_dir):
    """A phone whose browser asks for ``locale`` gets the game page in that language (``<html lang>``, the page's
    own words, the box's messages), fitting a phone's width; screenshot phone-<lang>.png."""
    from playwright.sync_api import expect

    from companion.hub import StateHub
    from companion.web import create_app, serve
    from tests.i18n_walk import leaks
    from tests.test_phone_browser import CHROMIUM, CHROMIUM_ARGS, TIMEOUT_MS, flow_on_the_box, join_url

    if not os.access(CHROMIUM, os.X_OK):
        pytest.skip(f"{CHROMIUM} is missing: install Debian's chromium package (apt-get install chromium)")
    sync_playwright = pytest.importorskip("playwright.sync_api").sync_playwright
    say = i18n.translations(lang).gettext
    hub = StateHub()
    server = serve(create_app(hub), host="127.0.0.1", port=0)
    try:
        with sync_playwright() as playwright, flow_on_the_box(hub, tmp_path, "roll", "Ann,Łukasz,Ζωή"):
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2,
                                          is_mobile=True, has_touch=True, locale=locale)
            page = context.new_page()
            page.set_default_timeout(TIMEOUT_MS)
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(join_url(server, hub))
            expect(page.locator("html")).to_have_attribute("lang", lang)
            expect(page.locator("#connection")).to_have_text(say("live"))
            expect(page.locator("#send")).to_have_text(say("Report"))
            page.locator("#seats button", has_text="Ann").click()
            page.locator("#form-pick").select_option("credits")
            page.locator("#fields input").fill("11")  # a refusal: the box's own words, in the phone's language
            page.locator("#send").click()
            problem = i18n.Text("{what} must be a whole number {range}, got {value}", what=i18n.Text("Credits"),
                                range=i18n.Text("from {low} to {high}", low=0, high=10), value="11")
            refusal = i18n.localize(problem, lang)  # the form asks Credits alone: the label is said once
            expect(page.locator("#report-result")).to_contain_text(refusal)
            assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
            page.screenshot(path=str(output_dir / f"phone-{lang}.png"), full_page=True)
            if lang != "en":
                lines = [line for line in page.locator("body").inner_text().splitlines() if line.strip()]
                assert leaks(lines, lang, allow=("Ann", "Łukasz", "Ζωή")) == []
            context.close()
            browser.close()
    finally:
        server.shutdown()
    assert errors == []


@pytest.mark.parametrize("lang", ["el", "pl", "hu"])
def test_a_readers_note_is_said_in_the_boxs_language(lang):
    # vision has no languages: the card reader's mirror note reaches the players through the box's catalog
    from companion.camera.flow import READER_NOTES
    from vision.cards import MIRROR_NOTE

    note = READER_NOTES.get(MIRROR_NOTE, MIRROR_NOTE)
    assert str(note) == MIRROR_NOTE, "the same words as the reader's"
    said = i18n.localize(note, lang)
    assert said != MIRROR_NOTE and said.strip(), f"the mirror note is not translated into {lang}"
    assert i18n.localize("a note no catalog knows", lang) == "a note no catalog knows"


def _keyword_calls(tree, keywords: dict[str, int]):
    """Every call of a babel.cfg keyword in ``tree`` whose message is a literal: ``(line, message)``, also those
    nested in another message's parameters (``Text("{a}", a=Text("b"))``)."""
    import ast

    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
        index = keywords.get(name)
        if index is not None and len(node.args) > index:
            arg = node.args[index]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and arg.value:
                yield node.lineno, arg.value


def test_a_message_inside_another_messages_parameters_is_in_the_template_too():
    """``pybabel extract`` does not see a message written inside another message's call
    (``Text("... {others}", others=Listing(names, Text(" or ")))``): " or " and " and " were never in the catalogs,
    so a Greek phone read "Ann and Bob" in its finding. Every keyword call of babel.cfg with a literal message, at any
    depth, is in companion.pot (a nested one: keep it in a constant, as rules.text.OR)."""
    import ast

    from babel.messages.extract import pathmatch

    with (ROOT / "babel.cfg").open(encoding="utf-8") as fp:
        method_map, options_map = parse_mapping_cfg(fp)
    in_template = {m.id if isinstance(m.id, str) else m.id[0] for m in template() if m.id}
    missing = []
    for path in sorted(ROOT.glob("**/*.py")):
        relative = path.relative_to(ROOT).as_posix()
        if relative.startswith((".venv/", "build/")):
            continue
        pattern = next((p for p, method in method_map if method == "python" and pathmatch(p, relative)), None)
        if pattern is None:
            continue
        keywords = {}  # keyword -> the index of its message argument: {"Text": None} 0, {"NC_": ((1, "c"), 2)} 1
        for name, spec in options_map[pattern].get("keywords", {}).items():
            message = next((a for a in spec if not isinstance(a, tuple)), 1) if spec else 1
            keywords[name] = message - 1
        for line, message in _keyword_calls(ast.parse(path.read_text(encoding="utf-8")), keywords):
            if message not in in_template:
                missing.append(f"{relative}:{line}: {message!r}")
    assert missing == [], "messages pybabel extract cannot see (nested in another message's call)"


@pytest.mark.parametrize("lang, joined", [("el", "Ann και Cy"), ("pl", "Ann i Cy"), ("hu", "Ann és Cy")])
def test_a_list_in_a_finding_is_joined_in_the_players_language(lang, joined):
    """Eclipse's simultaneous play (rulebook: the First and Second Action markers' holders act): Bob acting while
    Ann and Cy hold the markers read 'only the marker holders (Ann and Cy) act now' with its English 'and' on a
    Greek, Polish or Hungarian phone."""
    from rules.eclipse import rounds

    r = rounds.start(("Ann", "Bob", "Cy", "Dee"), simultaneous=True)  # markers: seat 0 and the seat opposite, 2
    _r, verdicts = rounds.act(r, "Bob", "build")
    [out_of_turn] = [v for v in verdicts if v.rule_kind == "out_of_turn"]
    assert "(Ann and Cy)" in out_of_turn.message
    said = i18n.localize(out_of_turn.message, lang)
    assert joined in said and " and " not in said, said


@pytest.mark.parametrize("lang", ["en", *TRANSLATED])
def test_the_qr_codes_hint_fits_beside_the_code_at_a_readable_size(lang, tmp_path):
    """At 800x480 the Greek "Τηλέφωνα: πατήστε τον κωδικό" over a game's QR code was shrunk to 10 px and cut: the
    hint wraps into lines each as wide as the code at most, all of its words drawn, none below the hint's smallest
    size (rendered line height in px at this scale)."""
    from companion.screen.canvas import HINT_MIN_SIZE, QR_SIDE
    from tests.i18n_walk import walk

    done = walk(lang, tmp_path)
    say = i18n.translations(lang).gettext
    seen = 0
    for shot in done.shots:
        for hint, room in ((say("Phones: tap the code"), QR_SIDE), (say("Phones: scan"), QR_SIDE + 6)):
            words = hint.split()
            drawn = shot.drawn
            for k in range(len(drawn)):
                lines, n = [], 0
                while k + n < len(drawn) and len(" ".join(lines).split()) < len(words):
                    lines.append(drawn[k + n][0])
                    n += 1
                if " ".join(lines).split() != words:
                    continue
                seen += 1
                for _text, rect, _room in drawn[k:k + n]:
                    assert rect.width <= room, (shot.name, lines)
                    assert rect.height >= HINT_MIN_SIZE, (shot.name, lines, rect)
                break
    game_screens = {s.name for s in done.shots if s.name.endswith("-table")}
    assert game_screens and seen >= len(game_screens)


@pytest.mark.parametrize("lang, ending", [
    ("el", "αυτός είναι ο τελευταίος γύρος \u2014 αφορά όλο το τραπέζι"),
    ("pl", "to ostatnia runda \u2014 dotyczy całego stołu"),
    ("hu", "ez az utolsó kör \u2014 az egész asztalra vonatkozik"),
])
def test_a_note_for_the_whole_table_reads_on_after_its_dash(lang, ending):
    """Roll for the Galaxy p.7-8: the VP pool running out makes this the last round, a note for everyone at the
    table. The phone shows a finding as '<what> — <where>'; its 'where' once said the bare word 'table', which a
    Hungarian phone read as 'ez az utolsó kör — asztal' ('this is the last round — table')."""
    from rules.core import Event, replay
    from rules.roll import ROLL_GAME

    events = [Event(1, "player_setup", {"faction": 1, "home_world": "New Sparta", "development": "Public Works",
                                        "world": "Spice World"}, player="Ann"),
              Event(2, "player_setup", {"faction": "Alien Archaeology", "home_world": "Alpha Centauri",
                                        "development": "Mining League", "world": "Comet Zone"}, player="Bob"),
              Event(3, "roll", {"dice": []}, player="Ann"),
              Event(4, "vp_changed", {"delta": 24, "reason": "hand-worked: 2 players' pool of 24"}, player="Ann")]
    [last] = [f for f in replay(ROLL_GAME, {"players": ["Ann", "Bob"]}, events).findings
              if "this is the last round" in f.what]
    said = f"{i18n.localize(last.what, lang)} \u2014 {i18n.localize(last.where, lang)}"  # as flow.js renderFindings
    assert said.endswith(ending), said


# hand-written: the chooser's hint under the QR code tells the players what to do, as its sibling "Phones: scan the
# code" does ("σαρώστε τον κωδικό", "zeskanujcie kod", "olvassátok be a kódot"); the Greek and Hungarian said a noun,
# "scanning" ("σάρωση", "beolvasás")
SCAN_HINT = {"el": "Τηλέφωνα: σαρώστε", "pl": "Telefony: zeskanuj", "hu": "Telefonok: olvassátok be"}


@pytest.mark.parametrize("lang", sorted(SCAN_HINT))
def test_the_choosers_qr_hint_says_what_to_do(lang):
    assert i18n.translations(lang).gettext("Phones: scan") == SCAN_HINT[lang]
