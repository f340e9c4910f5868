"""The touchscreen's scores with nine players of Eclipse with Rise of the Ancients scoring in all 21 rows, at 800x480
(SDL's dummy driver): the rows were squeezed to 10 px with 14 px text, every name and number drawn over its
neighbours'. Nothing is drawn over anything now; the rows with the fewest VP are summed into one."""

from __future__ import annotations

import pytest

from companion import i18n
from companion.screen import TouchScreen
from companion.screen.game import OTHER_ROWS, Scores
from rules.eclipse.endgame import ROWS

NAMES = ("Ágnes", "Bálint", "Łucja", "Ζωή", "Ann", "Bob", "Cyprian", "Dóra", "Εύα")


def assert_on_screen_apart(screen: TouchScreen, drawn: list) -> None:
    """Every text drawn (``drawn``: (text, pygame.Rect) pairs) lies whole on the screen and over no other text."""
    bounds = screen.surface.get_rect()
    for k, (text, rect) in enumerate(drawn):
        assert bounds.contains(rect), (text, rect)
        for other_text, other_rect in drawn[k + 1:]:
            assert not rect.colliderect(other_rect), (text, rect, other_text, other_rect)


def nine_players_21_rows() -> dict:
    """Player k (0-8) scores 10 + k in reputation (row 1), 5 in hexes (row 3) and 1 in each of the other 19 rows of
    Eclipse's scoring table (Rise of the Ancients, rows 1-21, a species' rows included): 10 + k + 5 + 19 = 34 + k,
    Εύα winning with 42."""
    categories = [str(word) for _, word in ROWS]
    players = []
    for k, name in enumerate(NAMES):
        breakdown = {c: 1 for c in categories} | {"reputation": 10 + k, "hexes": 5}
        players.append({"name": name, "total": 34 + k, "breakdown": breakdown, "winner": name == "Εύα",
                        "categories": [{"category": c, "vp": breakdown[c], "detail": ""} for c in categories]})
    return {"players": players, "winners": ["Εύα"], "rule": "Eclipse, Rise of the Ancients p.12"}


@pytest.mark.parametrize("lang", ["en", "el", "pl", "hu"])
def test_nine_players_scores_in_21_rows_are_drawn_without_one_text_over_another(lang, output_dir):
    result = nine_players_21_rows()
    assert len(result["players"][0]["categories"]) == 21
    screen = TouchScreen(phone_url="http://192.168.1.20:8080/")
    view = {"game": {"title": "Eclipse", "result": result, "over": True}, "status": {}, "box": {"games": True}}
    try:
        i18n.set_box_language(lang)
        Scores().do(screen, view, None)
        screen.save_png(output_dir / f"scores-nine-players-21-rows-{lang}.png")
        drawn = [(str(text), rect) for text, rect, _room in screen.drawn]
        other = i18n.translations(lang).gettext(OTHER_ROWS)
        total_word = i18n.translations(lang).gettext("Total")
    finally:
        i18n.set_box_language("en")
    assert_on_screen_apart(screen, drawn)
    names = {text.removeprefix("★ ").removeprefix("* "): rect for text, rect in drawn
             if text.removeprefix("★ ").removeprefix("* ") in NAMES}
    assert list(names) == list(NAMES)  # every name whole, in seat order
    total = next(rect for text, rect in drawn if text == total_word)
    labels = [text for text, rect in drawn if rect.left < names[NAMES[0]].left and
              names[NAMES[0]].bottom <= rect.top < total.top]
    # the rows without room are summed into one, the last before the totals (in Greek, at READ_MIN_PX, its end cut)
    assert labels[-1] == other or (labels[-1].endswith("…") and other.startswith(labels[-1][:-1]) and
                                   len(labels[-1]) > len(other) * 3 // 4), labels[-1]
    for k, name in enumerate(NAMES):
        column = [(text, rect) for text, rect in drawn
                  if rect.left < names[name].centerx < rect.right and names[name].bottom <= rect.top]
        values = [int(text) for text, rect in column if rect.top < total.top - 6 and text.lstrip("-").isdigit()]
        totals = [text for text, rect in column if abs(rect.top - total.top) <= 6]
        assert totals == [str(34 + k)], (name, totals)
        assert len(values) == len(labels) and sum(values) == 34 + k, (name, values)  # every VP is in a row drawn


GREEK_TABLE = ("Ζωή", "Παναγιώτης", "Ευαγγελία", "Χαράλαμπος", "Αικατερίνη", "Κωνσταντίνος")


@pytest.mark.parametrize("winner", [2, 5])
def test_six_long_names_are_drawn_whole_over_their_columns(winner, output_dir):
    """Six players of Eclipse with names as common as Κωνσταντίνος: one line of names cut four of them ("★ Ευαγγε…",
    "Κωνσταν…"), so the table could not say whose column was whose. Every other name now goes on a second line, with
    two columns' room; each is whole, over its own column, and nothing is drawn over anything. Player k scores k + 1
    in reputation and 20 in hexes, k + 21 in all (Eclipse, End of the game: the scoring table); the winner is also
    starred."""
    players = []
    for k, name in enumerate(GREEK_TABLE):
        breakdown = {"reputation": k + 1, "hexes": 20}
        players.append({"name": name, "total": k + 21, "breakdown": breakdown, "winner": k == winner,
                        "categories": [{"category": c, "vp": v, "detail": ""} for c, v in breakdown.items()]})
    result = {"players": players, "winners": [GREEK_TABLE[winner]], "rule": "Eclipse, End of the game"}
    screen = TouchScreen(phone_url="http://192.168.1.20:8080/")
    view = {"game": {"title": "Eclipse", "result": result, "over": True}, "status": {}, "box": {"games": True}}
    Scores().do(screen, view, None)
    screen.save_png(output_dir / f"scores-six-long-names-{winner}.png")
    drawn = [(str(text), rect) for text, rect, _room in screen.drawn]
    assert_on_screen_apart(screen, drawn)
    names = {text.removeprefix("★ ").removeprefix("* "): rect for text, rect in drawn
             if text.removeprefix("★ ").removeprefix("* ") in GREEK_TABLE}
    assert list(names) == list(GREEK_TABLE)  # every name whole, in seat order
    starred = [text for text, rect in drawn if text.removeprefix("★ ").removeprefix("* ") in GREEK_TABLE
               and text != text.removeprefix("★ ").removeprefix("* ")]
    assert starred == ["★ " + GREEK_TABLE[winner]]  # the winner's column heading only
    totals = [next(rect for text, rect in drawn if text == str(k + 21) and rect.top > names[GREEK_TABLE[-1]].bottom)
              for k in range(len(GREEK_TABLE))]
    for k, name in enumerate(GREEK_TABLE):  # each name stands over its own column: over its total, nearest to it
        assert names[name].left < totals[k].centerx < names[name].right, name
        nearest = min(range(len(totals)), key=lambda j: abs(totals[j].centerx - names[name].centerx))
        assert nearest == k, name
