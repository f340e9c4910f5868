"""The touchscreen at 480 x 320 (the 3.5" screens many boxes use) in Greek, Polish and Hungarian: what a player
needs to read is drawn whole, over more lines where one is too narrow, never cut with "…" and never below 12 px:

- the dice screen: the phone address a player types ("http://192.168.1.20:8080/", it was "http://192.168.1.…"),
  Greek "Άθροισμα" (Sum, it was "Άθρο…") and "0 δεν διαβάστηκαν" (it was "0 δεν διαβάστ…");
- Roll for the Galaxy's phase tiles: "jeszcze nie odkryto", "még nincs felfedve" (not revealed yet) and Greek
  "Διαχείριση Αυτοκρατορίας" (Manage Empire; it was "Διαχείριση…");
- the setup screen: "Roll for the Galaxy: przygotowanie" (it was "…: prz…") and a chip's "czerwony, podział po
  równo" (red, even split; it was "czerwony, podział…");
- a game screen's health warning says where its message is (the Owner page), not its level alone.

Words hand-written from the catalogs; the screens are the evening's walk's (:func:`tests.i18n_walk.walk`), drawn
again at 480 x 320 and at 800 x 480 (which must keep them whole too)."""

from __future__ import annotations

import pytest

from companion import i18n
from companion.screen import TouchScreen
from companion.screen.canvas import READ_MIN_PX
from tests.i18n_walk import walk

LANGS = ["el", "pl", "hu"]
SIZES = [(480, 320), (800, 480)]
URL = "http://192.168.1.20:8080/"
NOT_REVEALED = {"el": "ακόμη κρυφή", "pl": "jeszcze nie odkryto", "hu": "még nincs felfedve"}
MANAGE_EMPIRE = {"el": "Διαχείριση Αυτοκρατορίας", "pl": "Zarządzanie imperium", "hu": "Birodalom irányítása"}
SUM = {"el": "Άθροισμα", "pl": "Suma", "hu": "Összeg"}
NONE_UNREADABLE = {"el": "0 δεν διαβάστηκαν", "pl": "0 nieczytelnych", "hu": "0 olvashatatlan"}
SETUP_TITLE = {"el": "Roll for the Galaxy: προετοιμασία", "pl": "Roll for the Galaxy: przygotowanie",
               "hu": "Roll for the Galaxy: előkészületek"}
RED_EVEN = {"el": "κόκκινο, ίση μοιρασιά", "pl": "czerwony, podział po równo", "hu": "piros, egyenlő felosztás"}
WARNING = {"level": "WARN", "key": "light", "message": i18n.Text("the table is dim: add light over it")}
SEE_OWNER = {"el": "⚠ ΠΡΟΣΟΧΗ: δείτε «Σελίδα ιδιοκτήτη»", "pl": "⚠ UWAGA: zob. „Strona właściciela”",
             "hu": "⚠ FIGYELEM: lásd: Tulajdonosi oldal"}


@pytest.fixture(scope="module")
def views(tmp_path_factory):
    """Each language's views of the walk by screen name."""
    return {lang: {s.name: s.view for s in walk(lang, tmp_path_factory.mktemp(lang)).shots} for lang in LANGS}


def _drawn(view, lang, size):
    before = i18n.box_language()
    i18n.set_box_language(lang)
    try:
        screen = TouchScreen(size=size, phone_url=URL)
        screen.render(type("S", (), {"view": view, "frame": None, "jpeg": None})())
        return [(text, rect) for text, rect, _room in screen.drawn if text.strip()]
    finally:
        i18n.set_box_language(before)


def _readable(drawn, size):
    for text, rect in drawn:
        assert rect.height >= READ_MIN_PX, (text, rect)
        assert rect.left >= 0 and rect.top >= 0 and rect.right <= size[0] and rect.bottom <= size[1], (text, rect)


def _columns(drawn):
    """The texts drawn on a centre line (a tile's lines, centred on it), top to bottom, joined by spaces."""
    by_centre: dict[int, list] = {}
    for text, rect in drawn:
        by_centre.setdefault(rect.centerx, []).append((rect.y, text))
    return [" ".join(text for _y, text in sorted(lines)) for lines in by_centre.values()]


def _lines_from(drawn, first):
    """The line starting with ``first`` and the lines right under it at the same left edge (a wrapped text)."""
    [(start, rect)] = [(text, rect) for text, rect in drawn if text.startswith(first)]
    below = sorted((r.y, r.height, text) for text, r in drawn if r.x == rect.x and r.y > rect.y)
    lines, bottom = [start], rect.bottom
    for y, height, text in below:
        if y > bottom + 4:  # a gap: the next text, not this one's next line
            break
        lines.append(text)
        bottom = y + height
    return lines


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LANGS)
def test_the_dice_screen_shows_the_phone_address_the_sum_and_the_unreadable_whole(views, lang, size):
    drawn = _drawn(views[lang]["dice"], lang, size)
    _readable(drawn, size)
    lines = _lines_from(drawn, "http://")
    assert "".join(lines).startswith(URL), lines  # every character, on one line or two, none cut
    assert len(lines) <= 2 and not any("…" in line for line in lines), lines
    texts = [text for text, _rect in drawn]
    assert SUM[lang] in texts, texts
    unreadable = " ".join(_lines_from(drawn, NONE_UNREADABLE[lang].split()[0] + " "))
    assert unreadable.startswith(NONE_UNREADABLE[lang]), unreadable


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LANGS)
def test_roll_s_phase_tiles_say_their_names_and_not_revealed_yet_whole(views, lang, size):
    drawn = _drawn(views[lang]["roll-table"], lang, size)
    _readable(drawn, size)
    top = min(rect.y for text, rect in drawn if text.startswith(NOT_REVEALED[lang].split()[0]))
    strip = [(text, rect) for text, rect in drawn if top - 60 <= rect.y <= top + 30]
    tiles = _columns(strip)
    assert sum(tile.endswith(NOT_REVEALED[lang]) for tile in tiles) == 5, tiles  # I to V, not yet chosen
    assert MANAGE_EMPIRE[lang] in tiles, tiles
    assert not any("…" in tile for tile in tiles), tiles


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LANGS)
def test_the_setup_screen_names_the_game_and_each_chip_s_colour_and_state_whole(views, lang, size):
    view = dict(views[lang]["setup"])
    game = dict(view["game"], zones="even",
                players=[dict(p, seated=False) for p in view["game"]["players"]])
    view["game"] = game
    drawn = _drawn(view, lang, size)
    _readable(drawn, size)
    title = " ".join(_lines_from(drawn, "Roll for the Galaxy"))
    assert title.startswith(SETUP_TITLE[lang]), title
    chip = " ".join(_lines_from(drawn, RED_EVEN[lang].split()[0] + " "))
    assert chip == RED_EVEN[lang], chip


@pytest.mark.parametrize("lang", LANGS)
def test_a_game_screen_s_warning_says_where_its_message_is_at_480_by_320(views, lang):
    view = dict(views[lang]["roll-table"])
    view["box"] = dict(view.get("box") or {}, health=WARNING, games=True)
    drawn = _drawn(view, lang, (480, 320))
    _readable(drawn, (480, 320))
    level = SEE_OWNER[lang].split(":")[0]
    said = " ".join(_lines_from(drawn, level))
    assert said in (SEE_OWNER[lang], " ".join(f"{level}: {WARNING['message']}".split())) or \
        said.startswith(level + ":") and len(said) > len(SEE_OWNER[lang]), said
    assert "…" not in said, said


DIE_UNREAD = {"el": "⚠ 1 ζάρι δεν διαβάστηκε· ελέγξτε το ή διορθώστε τη ζαριά",
              "pl": "⚠ nie udało się odczytać 1 kości; sprawdź ją albo popraw rzut",
              "hu": "⚠ 1 kocka nem olvasható; ellenőrizd, vagy javítsd a dobást"}
"""The dice screen's finding for one die not read, as each catalog says it (its sign first)."""


@pytest.mark.parametrize("lang", LANGS)
def test_the_dice_screen_s_finding_is_whole_on_two_lines_at_480_by_320(views, lang):
    drawn = _drawn(views[lang]["dice"], lang, (480, 320))
    _readable(drawn, (480, 320))
    said = " ".join(_lines_from(drawn, DIE_UNREAD[lang].split()[0] + " " + DIE_UNREAD[lang].split()[1]))
    assert said.startswith(DIE_UNREAD[lang]), said
    assert "…" not in said, said
