"""rules.names: game terms per language from the players' rulebooks, English where an edition gives none,
and every translated name traced to its line in the rulebook transcript (shared/seeds/)."""

from __future__ import annotations

import json
import os
from importlib import resources
from pathlib import Path

import pytest

from rules.names import GAMES, LANGUAGES, UnknownTerm, kinds, names, source, translated

SHARED = Path(os.environ.get("TABLETOP_SHARED", Path(__file__).resolve().parents[1].parent / "shared"))
SEEDS = SHARED / "seeds"


def test_the_greek_roll_polish_race_and_hungarian_among_the_stars_terms():
    # Greek rulebook, p.3 Rounds: "Φάση ΙΙΙ: Αποίκιση" ... p.1 Components: "ζάρι Στρατού (κόκκινο, 22)"
    assert [names("roll.phase", p, "el") for p in ("explore", "develop", "settle", "produce", "ship")] == [
        "Εξερεύνηση", "Ανάπτυξη", "Αποίκιση", "Παραγωγή", "Αποστολή"]
    assert names("roll.face", "wild", "el") == "Μπαλαντέρ"
    assert names("roll.die", "red", "el") == "Ζάρι Στρατού" and names("roll.colour", "red", "el") == "κόκκινο"
    # Polish rulebook, Rounds: "I Eksploracja ... V Produkcja"
    assert [names("race.phase", p, "pl") for p in ("explore", "develop", "settle", "consume", "produce")] == [
        "Eksploracja", "Rozwój", "Kolonizacja", "Konsumpcja", "Produkcja"]
    assert names("race.card_type", "development", "pl") == "Technologia"
    # Hungarian rulebook: the example's "Holografikus Kivetítő", the FAQ's "Étterem", the components' "Főreaktor"
    assert names("among_the_stars.location", "holographic_display_area", "hu") == "Holografikus Kivetítő"
    assert names("among_the_stars.location", "restaurant", "hu") == "Étterem"
    assert names("among_the_stars.reactor", "main_reactor", "hu") == "Főreaktor"
    assert names("among_the_stars.location_type", "military", "hu") == "Hadi"


def test_english_from_the_component_data_and_as_the_fallback():
    assert names("roll.phase", "settle", "en") == "Settle"
    assert names("race.phase", "consume", "en") == "Consume"          # game.json
    assert names("race.action", "explore_5", "pl") == "Explore +5"    # no Polish name: the card's English
    assert names("race.card", "Old Earth", "pl") == "Old Earth"       # the Polish edition keeps card names
    assert names("roll.tile", "Space Piracy", "el") == "Space Piracy"  # the Greek edition keeps tile names
    assert names("among_the_stars.location", "garden", "hu") == "Garden"
    assert names("roll.phase", "settle", "hu") == "Settle"  # no Hungarian Roll rulebook
    assert names("roll.phase", "settle", "de") == "Settle"  # not a box language


def test_unknown_kinds_and_ids_are_named():
    with pytest.raises(UnknownTerm, match="roll.tiles"):
        names("roll.tiles", "Space Piracy", "el")
    with pytest.raises(LookupError, match="no roll.phase 'consume'"):
        names("roll.phase", "consume", "el")


def test_every_term_has_english_and_every_kind_its_ids():
    from rules.roll.data import COLOURS, FACES, PHASES, WORLD_COLOURS
    from rules.roll.state import Stage

    for kind in kinds():
        english = translated(kind, "en")
        assert english and all(english.values()), kind
    assert set(translated("roll.phase", "en")) == set(PHASES)
    assert set(translated("roll.face", "en")) == set(FACES)
    assert set(translated("roll.die", "en")) == set(COLOURS)
    assert set(translated("roll.colour", "en")) == set(COLOURS) | set(WORLD_COLOURS)
    assert set(translated("roll.step", "en")) <= {s.value for s in Stage} | {"phases"}
    race_game = json.loads((resources.files("rules") / "data" / "race" / "game.json").read_text(encoding="utf-8"))
    assert set(translated("race.phase", "en")) == {p["id"] for p in race_game["phases"]}
    among_file = resources.files("rules") / "data" / "among_the_stars" / "cards.json"
    among = json.loads(among_file.read_text(encoding="utf-8"))
    assert set(translated("among_the_stars.location_type", "en")) == {loc["type"] for loc in among["locations"]}
    for kind in kinds():  # a translation never names an id the game does not have
        for lang in LANGUAGES[1:]:
            assert set(translated(kind, lang)) <= set(translated(kind, "en")), (kind, lang)


def test_every_translation_carries_its_source():
    for kind in kinds():
        for lang in LANGUAGES[1:]:
            for id_ in translated(kind, lang):
                where = source(kind, id_, lang)
                if "of" in where:  # a name made of two: each with its own source, or the same in both editions
                    parts = [(part_kind, part_id) for part_kind, part_id in where["of"]]
                    assert where["note"] and any(source(*part, lang) for part in parts), (kind, id_, lang)
                    assert all(source(*part, lang) or names(*part, "en") == names(*part, lang)
                               for part in parts), (kind, id_, lang)
                    continue
                assert where["seed"].endswith(".txt") and where["line"] >= 1 and where["quote"], (kind, id_, lang)
                assert where["name"].casefold() in where["quote"].casefold(), (kind, id_, lang)
    assert source("roll.phase", "settle", "en") is None
    assert source("race.card", "Old Earth", "pl") is None


@pytest.mark.shared
@pytest.mark.skipif(not SEEDS.is_dir(), reason=f"the rulebook transcripts are not at {SEEDS} (set TABLETOP_SHARED)")
def test_every_quote_is_on_its_line_of_the_rulebook_transcript():
    checked = 0
    for kind in kinds():
        for lang in LANGUAGES[1:]:
            for id_ in translated(kind, lang):
                where = source(kind, id_, lang)
                if "of" in where:  # its parts' quotes are checked as theirs
                    continue
                lines = (SEEDS / where["seed"]).read_text(encoding="utf-8").split("\n")
                assert where["quote"] in lines[where["line"] - 1], (kind, id_, lang, where)
                checked += 1
    assert checked == 78  # Greek 58 (Roll 31, Eclipse 27), Polish 7, Hungarian 13


def test_the_names_files_keep_their_shape():
    for game in GAMES:
        doc = json.loads((resources.files("rules") / "data" / game / "names.json").read_text(encoding="utf-8"))
        assert {"what", "languages", "absent"} <= set(doc["_meta"])
        for kind, entries in doc.items():
            if kind.startswith("_"):
                continue
            for id_, entry in entries.items():
                assert set(entry) <= set(LANGUAGES), (game, kind, id_)
                assert all(isinstance(entry[lang], dict) for lang in entry if lang != "en"), (game, kind, id_)


def test_the_vak_main_reactor_is_named_in_hungarian_as_the_catalog_says_it():
    """A Hungarian Vak player's first card read "Vak Main Reactor" while every other player's read "Főreaktor" and
    the box's own Hungarian messages said "a Vak Főreaktor": the rulebook does not name the Vak's own reactor, so it
    is named as the English card is, by the race (the same name in both editions) and the rulebook's Főreaktor."""
    assert names("among_the_stars.reactor", "vak_main_reactor", "en") == "Vak Main Reactor"
    assert names("among_the_stars.reactor", "vak_main_reactor", "hu") == "Vak Főreaktor"
    assert translated("among_the_stars.reactor", "hu")["vak_main_reactor"] == "Vak Főreaktor"
    assert source("among_the_stars.reactor", "vak_main_reactor", "hu")["name"] == "Vak Főreaktor"
    # the languages with no Among the Stars edition keep the English card's name whole
    assert {names("among_the_stars.reactor", "vak_main_reactor", lang) for lang in ("el", "pl")} == {
        "Vak Main Reactor"}
    from companion.i18n import localize
    from rules.among_the_stars.data import VAK_MAIN_REACTOR, catalogue

    assert localize(catalogue().card(VAK_MAIN_REACTOR).word, "hu") == "Vak Főreaktor"
