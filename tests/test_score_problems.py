"""Score-file and check-file errors raised in rules/ reach a player in the player's language: each carries a stable
code and its parameters (``ScoreInputError.code``, ``.params``; the English templates are ``rules.problems.PROBLEMS``),
its English stays in the exception (logs, ``--json`` without ``--language``), and companion says it from those parts
(``companion.i18n.message_of``), never by matching the English."""

from __future__ import annotations

import json
import pickle
import string

import pytest

from companion import i18n
from companion.cli import main
from rules.games import GAMES
from rules.problems import PROBLEMS, json_reason
from rules.scoring import ScoreInputError, json_documents, score_lines
from rules.text import Text


def _roll_error(document) -> ScoreInputError:
    with pytest.raises(ScoreInputError) as info:
        GAMES["roll"].final_scores(document)
    return info.value


def test_a_wrong_type_has_a_code_its_parameters_and_the_english_as_before():
    error = _roll_error({"players": "Ann"})
    assert error.code == "not_array" and error.field == "players"
    assert str(error) == "players: must be a JSON array, got the string 'Ann'"
    assert str(error.params["got"]) == "the string 'Ann'"
    again = pickle.loads(pickle.dumps(error))  # a worker process hands it back whole
    assert again.code == "not_array" and str(again) == str(error)


@pytest.mark.parametrize(("lang", "said"), [
    ("pl", "players: musi być tablicą JSON, podano napis 'Ann'"),
    ("el", "players: πρέπει να είναι πίνακας JSON, βρέθηκε η συμβολοσειρά 'Ann'"),
    ("hu", "players: JSON-tömbnek kell lennie, de ez érkezett: az 'Ann' szöveg"),
])
def test_the_error_is_said_in_the_players_language(lang, said):
    assert i18n.say(_roll_error({"players": "Ann"}), lang) == said


def test_a_misspelt_field_keeps_its_suggestion_in_the_language():
    error = _roll_error({"players": [{"name": "Ann", "credts": 1}]})
    assert error.code == "unknown_field" and error.suggestions == ("credits",)
    said = i18n.say(error, "pl")
    assert said.startswith("players[0].credts: to nie jest znane pole (znane: ")
    assert said.endswith("; czy chodziło o 'credits'?")


def test_json_lines_errors_name_their_line_in_the_language():
    rows = score_lines(GAMES["race"].final_scores, '{"players": []}\n{"players": [}\n')
    bad = rows[1][1]
    assert isinstance(bad, ScoreInputError) and bad.code == "not_json_line"
    assert str(bad).startswith("line 2: is not JSON (")
    assert i18n.say(bad, "hu").startswith("2. sor: nem JSON (")
    with pytest.raises(ScoreInputError) as info:
        json_documents('{"a": 1, "a": 2}', "f.json")
    assert info.value.code == "key_twice"
    assert i18n.say(info.value, "el") == ("f.json: δίνει το κλειδί 'a' δύο φορές στο ίδιο αντικείμενο "
                                          "(ποιο από τα δύο εννοείται;)")


def test_every_code_has_a_translation_with_its_own_fields():
    for code, template in PROBLEMS.items():
        fields = {name for _lit, name, _spec, _conv in string.Formatter().parse(template) if name}
        for lang in ("el", "pl", "hu"):
            said = i18n.translations(lang).gettext(template)
            assert said != template, (code, lang)
            assert {n for _l, n, _s, _c in string.Formatter().parse(said) if n} == fields, (code, lang)


@pytest.mark.parametrize(("lang", "words"), [("pl", "musi być liczbą całkowitą, podano napis '3'"),
                                             ("el", "πρέπει να είναι ακέραιος αριθμός, βρέθηκε η συμβολοσειρά '3'"),
                                             ("hu", "egész számnak kell lennie, de ez érkezett: a '3' szöveg")])
def test_companion_score_says_a_bad_file_in_the_language_asked(tmp_path, capsys, lang, words):
    path = tmp_path / "final.json"
    path.write_text(json.dumps({"players": [{"name": "Ann", "vp_chips": "3"}, {"name": "Bob"}]}))
    assert main(["--language", lang, "score", "roll", str(path)]) == 1
    err = capsys.readouterr().err
    assert words in err and "must be" not in err and err.count("\n") == 1
    assert main(["score", "roll", str(path)]) == 1  # without --language: the English every tool reads
    assert "players[0].vp_chips: must be a whole number, got the string '3'" in capsys.readouterr().err


def test_every_score_input_error_raised_in_rules_has_a_code():
    """No rules module builds a ScoreInputError from English text alone (which companion could only show in
    English): each is made with ``ScoreInputError.coded``; the plain constructor is rules.scoring's own (it re-raises
    a coded error on its JSON Lines line, or wraps another rules error's message)."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent / "rules"
    plain, used = [], set()
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            if isinstance(func, ast.Name) and func.id == "ScoreInputError" and path.name != "scoring.py":
                plain.append(f"{path.relative_to(root)}:{node.lineno}")
            if isinstance(func, ast.Attribute) and func.attr == "coded" and len(node.args) >= 2:
                code = node.args[1]
                if isinstance(code, ast.Constant):
                    used.add(code.value)
                elif isinstance(code, ast.JoinedStr):  # among.unknown_{what}
                    used.update(c for c in PROBLEMS if c.startswith("among.unknown_"))
                else:  # a code chosen by a condition: both are literal names in the module
                    used.update(c for c in PROBLEMS if f'"{c}"' in path.read_text(encoding="utf-8"))
    assert plain == []
    assert sorted(set(PROBLEMS) - used) == []  # no code left that nothing raises


@pytest.mark.parametrize(("game", "document", "lang", "said"), [
    ("among", {"players": [{"name": "Ann", "credits": 0, "vp": 0, "station": []}]}, "pl",
     "players[0].station: nie ma Main Reactor na [0, 0]"),
    ("eclipse", {"game": "eclipse", "kind": "placement"}, "el",
     "kind: πρέπει να είναι 'score' για αυτή την εντολή, βρέθηκε 'placement' (μια περίπτωση placement τη διαβάζει το "
     "companion check eclipse)"),
    ("roll", {"players": [{"name": "Ann", "vp_chips": 0, "credits": 1, "tableau": ["Nowhere Land"]}]}, "hu",
     "players[0].tableau[0]: ismeretlen lapka: 'Nowhere Land'"),
])
def test_each_games_file_errors_are_said_in_the_language(game, document, lang, said):
    with pytest.raises(ScoreInputError) as info:
        GAMES[game].final_scores(document)
    assert info.value.code is not None
    assert i18n.say(info.value, lang).startswith(said)


# Python's JSON parser words its reasons in English ("Expecting value"); a player reading Greek, Polish or Hungarian
# gets them in the language (hand-written expectations), and an empty file is said to be empty
@pytest.mark.parametrize("text", ["", "{", '{"a" 1}', '{"a": 1 "b": 2}', '{"a": 1} x', '"abc', '"a\tb"', '"\\q"',
                                  '"\\u12"', '[1,]', '{"a": 1,}', "nul"])
def test_every_reason_this_python_gives_for_not_json_has_words_to_translate(text):
    try:
        json.loads(text)
    except json.JSONDecodeError as error:
        assert isinstance(json_reason(error.msg), Text), error.msg


@pytest.mark.parametrize(("lang", "said"), [
    ("el", "final.json: δεν είναι JSON (αναμενόταν μια τιμή στη γραμμή 1, στήλη 14)"),
    ("pl", "final.json: to nie jest JSON (oczekiwano wartości w wierszu 1, kolumnie 14)"),
    ("hu", "final.json: nem JSON (itt egy értéknek kellene állnia, 1. sor, 14. oszlop)"),
])
def test_a_file_cut_short_is_said_without_the_parsers_english(tmp_path, capsys, lang, said):
    path = tmp_path / "final.json"
    path.write_text('{"players": [')
    assert main(["--language", lang, "score", "roll", str(path)]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("companion score: ") and err.endswith(f"/{said}") and "Expecting" not in err


@pytest.mark.parametrize(("lang", "said"), [("en", "is empty: there is no JSON in it"),
                                             ("el", "είναι κενό: δεν περιέχει JSON"),
                                             ("pl", "jest pusty: nie ma w nim JSON-a"),
                                             ("hu", "üres: nincs benne JSON")])
def test_an_empty_file_is_said_to_be_empty(tmp_path, capsys, lang, said):
    path = tmp_path / "final.json"
    path.write_text("\n  \n")
    assert main(["--language", lang, "score", "race", str(path)]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("companion score: ") and err.endswith(f"/final.json: {said}")
    assert main(["--language", lang, "score", "eclipse", str(path)]) == 2  # Eclipse's tools expect 2


def test_a_json_lines_line_says_its_reason_in_the_language():
    rows = score_lines(GAMES["race"].final_scores, '{"players": []}\n{"players": [1 2]}\n')
    assert i18n.say(rows[1][1], "pl") == "wiersz 2: to nie jest JSON (oczekiwano ',' w kolumnie 16)"


def test_one_player_of_race_reads_naturally_in_greek():
    # "βρέθηκαν 1" (plural verb, one player) read wrong to a Greek reader; "όχι από 1" fits every count
    error = _race_error({"players": [{"name": "Ann", "tableau": ["Old Earth"]}]})
    assert i18n.say(error, "el") == "players: το Race for the Galaxy παίζεται από 2-4 παίκτες, όχι από 1"


def _race_error(document) -> ScoreInputError:
    with pytest.raises(ScoreInputError) as info:
        GAMES["race"].final_scores(document)
    return info.value
