"""Hungarian's definite article before a word a placeholder brought: "a" before a consonant sound, "az" before a
vowel sound (hand-worked from Hungarian grammar: "az alma", "a körte", "az 5.", "a 10.", "az 1000", "az 50")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.articles import hungarian_article, hungarian_articles
from companion.i18n import Text, say

CASES = Path(__file__).parent / "cases" / "eclipse"


@pytest.mark.parametrize(("following", "article"), [
    ("Név", "a"), ("Eclipse", "az"), ("Ann", "az"), ("Bob", "a"), ("Őrs", "az"), ("Úrhölgy", "az"), ("Zoë", "a"),
    ("'pink'", "a"), ("„Export”", "az"), ("(Előzmények)", "az"),
    ("1. sor", "az"),      # egy, első
    ("5. kör", "az"),      # öt, ötödik
    ("10. kör", "a"),      # tíz
    ("15 pont", "a"),      # tizenöt
    ("50 pont", "az"),     # ötven
    ("100 pont", "a"),     # száz
    ("233. állapot", "a"), # kétszázharminchárom
    ("500 pont", "az"),    # ötszáz
    ("1000 pont", "az"),   # ezer
    ("5000 pont", "az"),   # ötezer
    ("12000 pont", "a"),   # tizenkétezer
    ("0", "a"),            # nulla
    ("S oszlop", "az"),    # es: a capital letter alone
    ("Sam", "a"),
])
def test_the_article_goes_by_the_first_sound_of_the_next_word(following, article):
    assert hungarian_article(following) == article


@pytest.mark.parametrize("following", ["/home/pi/x.json", "", "— semmi", "[] lista"])
def test_a_word_whose_first_sound_is_not_plain_keeps_a_z(following):
    assert hungarian_article(following) is None
    assert hungarian_articles(f"a(z) {following}") == f"a(z) {following}"


def test_every_a_z_of_a_message_is_fitted_and_a_capital_stays_a_capital():
    fitted = hungarian_articles("A(z) Eclipse a(z) 5. körben a(z) Név mezőt kéri")
    assert fitted == "Az Eclipse az 5. körben a Név mezőt kéri"
    assert hungarian_articles("szia(z) x") == "szia(z) x"  # not an article


def test_a_message_said_in_hungarian_has_the_article_of_its_placeholder_and_other_languages_are_untouched():
    """The phone's "the name is too long" read "a(z) Név hosszabb 40 karakternél"."""
    said = Text("{field} is longer than {most} characters", field=Text("Name"), most=40)
    assert say(said, "hu") == "a Név hosszabb 40 karakternél"
    assert say(said, "en") == "Name is longer than 40 characters"


@pytest.mark.parametrize(("following", "article"), [
    ("x oszlop", "az"),  # iksz
    ("s sor", "az"),     # es
    ("f", "az"),         # ef
    ("b oszlop", "a"),   # bé
    ("k", "a"),          # ká
])
def test_a_small_letter_alone_takes_the_article_of_its_name_as_a_capital_does(following, article):
    assert hungarian_article(following) == article
    assert hungarian_article(following[0].upper() + following[1:]) == article


def test_a_command_line_message_filled_after_translation_prints_its_article_fitted(tmp_path, capsys, monkeypatch):
    """`companion --language hu run --port 500000` printed 'a(z) 500000 port kívül esik ...' and `read --cards
    eclipse` (a deck that does not load) 'a(z) eclipse pakli nem tölthető be': the message is translated first and
    filled after, so the printed line is where its article is fitted (ötszázezer: "az"; eclipse: "az")."""
    from companion.cli import main
    from companion.commands.box import demo_photos

    with pytest.raises(SystemExit):
        main(["--language", "hu", "run", "--port", "500000"])
    err = capsys.readouterr().err
    assert "az 500000 port" in err and "a(z)" not in err, err
    with pytest.raises(SystemExit):
        main(["--language", "hu", "run", "--port", "70000"])
    err = capsys.readouterr().err
    assert "a 70000 port" in err and "a(z)" not in err, err

    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path / "data"))
    (tmp_path / "data" / "decks").mkdir(parents=True)
    (tmp_path / "data" / "decks" / "eclipse.npz").write_bytes(b"not a deck at all" * 10)
    photo = str(sorted(demo_photos().glob("*.jpg"))[0])
    assert main(["--language", "hu", "read", photo, "--cards", "eclipse"]) == 2
    err = capsys.readouterr().err
    assert "az eclipse pakli" in err and "a(z)" not in err, err
    assert main(["--language", "en", "read", photo, "--cards", "eclipse"]) == 2
    assert "cannot load deck eclipse" in capsys.readouterr().err


def test_data_a_command_prints_is_printed_as_recorded_in_hungarian_too(tmp_path, capsys):
    """A player may be named "a(z) Éva" (a name holds no ',' or ':' only): `sessions --json` and `export --json -`
    print the names as the box recorded them, in Hungarian as in English; only messages are fitted."""
    import json

    from companion.cli import main
    from companion.flow import GameFlow
    from companion.flows import FLOWS
    from companion.player_names import parse_players
    from companion.session import SessionStore

    db = tmp_path / "games.sqlite3"
    with SessionStore(db) as store:
        session = store.start("race", FLOWS["race"].settings(parse_players("a(z) Éva,Bob"), {}))
        GameFlow(session, FLOWS["race"])
    for lang in ("hu", "en"):
        assert main(["--language", lang, "sessions", "--db", str(db), "--json"]) == 0
        row = json.loads(capsys.readouterr().out.splitlines()[0])
        assert row["players"] == ["a(z) Éva", "Bob"], (lang, row)
        assert main(["--language", lang, "export", "--db", str(db), "--unfinished", "--json", "-"]) == 0
        out = capsys.readouterr().out
        assert "a(z) Éva" in out and "az Éva" not in out, (lang, out)


def test_a_name_holding_a_z_is_said_as_the_player_wrote_it_and_the_catalogs_own_a_z_is_still_fitted():
    """A player named "a(z) Éva" was said "az Éva" on phones in Hungarian: only the "a(z)" a translation writes
    before a placeholder is fitted, never one inside the placeholder's own value."""
    from companion.i18n import Text, fit_articles, say

    assert fit_articles("a(z) Éva", "hu") == "az Éva"  # the catalog's own mark before a word
    said = say(Text("no player {name!r}", name="a(z) Éva"), "hu")
    assert "a(z) Éva" in said and "az Éva" not in said, said
    said = say(Text("{form}: {field}: you cannot choose yourself ({player}); choose another player: {players}",
                    form="a(z) Éva", field="x", player="a(z) Éva", players="Bob"), "hu")
    assert said.count("a(z) Éva") == 2, said


def test_the_command_lines_messages_print_a_players_name_as_written_in_hungarian(tmp_path, capsys):
    """A player named "a(z) Éva" was printed "az Éva" in the text `companion sessions` lists and in a refusal of
    --players ('A(z) ÉVA' became 'Az ÉVA'): the output fitted the name's own "a(z)" as if the catalog had written it.
    The names are printed as written; the catalog's own "a(z)" in the same lines is still fitted."""
    from companion.cli import main
    from companion.flow import GameFlow
    from companion.flows import FLOWS
    from companion.player_names import parse_players
    from companion.session import SessionStore

    db = tmp_path / "games.sqlite3"
    with SessionStore(db) as store:
        session = store.start("race", FLOWS["race"].settings(parse_players("a(z) Éva,A(z) ödön"), {}))
        GameFlow(session, FLOWS["race"])
    assert main(["--language", "hu", "sessions", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "  a(z) Éva, A(z) ödön  " in out and "az Éva" not in out and "Az ödön" not in out, out

    code = main(["--language", "hu", "demo", "--game", "race", "--players", "a(z) Éva,A(z) ÉVA", "--db",
                 str(tmp_path / "demo.sqlite3"), "--no-screen", "--no-web", "--no-gpio", "--max-frames", "1"])
    err = capsys.readouterr().err
    assert code == 2 and "'A(z) ÉVA' ('a(z) Éva' néven) már játszik" in err, err
    assert "\u2060" not in out + err



def test_a_score_table_prints_the_players_names_as_written_in_hungarian(tmp_path, capsys):
    """`companion score` heads its columns with the players' names and names the winner: as written."""
    from companion.cli import main

    case = json.loads((CASES / "score-traitor-side-tie-on-resources.json").read_text())
    for player in case["players"]:
        player["name"] = {"Cy": "a(z) Ödön", "Ann": "A(z) Éva"}.get(player["name"], player["name"])
    path = tmp_path / "score.json"
    path.write_text(json.dumps(case), encoding="utf-8")
    assert main(["--language", "hu", "score", "eclipse", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["A(z)", "Éva", "Bob", "a(z)", "Ödön", "Dee"], lines[0]
    assert lines[-1].endswith(": a(z) Ödön") and "\u2060" not in "".join(lines), lines[-1]
