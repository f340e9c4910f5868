"""Eclipse's technologies, Developments and Discoveries in the players' language (rules.names, like Roll's, Race's
and Among the Stars' names): Greek as the Greek Eclipse: Rise of the Ancients rulebook prints them (shared/seeds/001),
English where it gives none and in Polish and Hungarian (no Eclipse rulebook in those languages)."""

from __future__ import annotations

import os
import unicodedata
from pathlib import Path

import pytest

from companion.i18n import localize
from rules.eclipse.data import DEVELOPMENTS, DISCOVERIES, RARE_TECHNOLOGIES, TECHNOLOGIES
from rules.names import names, source, translated

SEEDS = Path(os.environ.get("TABLETOP_SHARED", Path(__file__).resolve().parents[2] / "shared")) / "seeds"
KINDS = ("eclipse.technology", "eclipse.development", "eclipse.discovery")


def _plain(text: str) -> str:
    """Case and accents set aside: the transcript's headings are in capitals without accents."""
    return "".join(c for c in unicodedata.normalize("NFD", text.casefold()) if not unicodedata.combining(c))


def test_the_greek_names_of_rise_of_the_ancients():
    # p.20 ΣΠΑΝΙΕΣ ΤΕΧΝΟΛΟΓΙΕΣ: "Διαχωριστής Αντιύλης: Σας επιτρέπει ...", "Πηγή Μηδενικού Σημείου: ..."
    assert names("eclipse.technology", "Antimatter Splitter", "el") == "Διαχωριστής Αντιύλης"
    assert names("eclipse.technology", "Zero-Point Source", "el") == "Πηγή Μηδενικού Σημείου"
    # p.15, a species's "Αρχικές Τεχνολογίες: Αστροβάση, Γκαουσιανή Ασπίδα"; p.18 "την Γεννήτρια Σκουληκότρυπας"
    assert names("eclipse.technology", "Gauss Shield", "el") == "Γκαουσιανή Ασπίδα"
    assert names("eclipse.technology", "Wormhole Generator", "el") == "Γεννήτρια Σκουληκότρυπας"
    # p.5 ΑΝΑΠΤΥΞΕΙΣ: "Αποικία Εξόρυξης: Αμέσως πάρτε 12 Υλικά"; p.8 ΝΕΕΣ ΑΝΑΚΑΛΥΨΕΙΣ: "Αρχαία Τροχιά: τοποθετήστε"
    assert names("eclipse.development", "Mining Colony", "el") == "Αποικία Εξόρυξης"
    assert names("eclipse.discovery", "Ancient Orbital", "el") == "Αρχαία Τροχιά"
    # the rulebook never names Plasma Cannon: English
    assert names("eclipse.technology", "Plasma Cannon", "el") == "Plasma Cannon"
    assert source("eclipse.development", "Mining Colony", "el")["page"] == 5


def test_every_technology_and_development_has_its_english_and_polish_and_hungarian_keep_it():
    assert set(translated("eclipse.technology", "en")) == set(TECHNOLOGIES) | set(RARE_TECHNOLOGIES)
    assert set(translated("eclipse.development", "en")) == set(DEVELOPMENTS)
    assert set(translated("eclipse.discovery", "en")) == set(DISCOVERIES) == {"Ancient Warp Portal", "Ancient Orbital"}
    for kind in KINDS:
        assert translated(kind, "pl") == {} and translated(kind, "hu") == {}
    assert names("eclipse.technology", "Antimatter Splitter", "pl") == "Antimatter Splitter"
    assert names("eclipse.development", "Mining Colony", "hu") == "Mining Colony"
    # every Rare Technology and Development has its Greek name (p.20 lists them all)
    assert set(translated("eclipse.technology", "el")) >= set(RARE_TECHNOLOGIES)
    assert set(translated("eclipse.development", "el")) == set(DEVELOPMENTS)


@pytest.mark.shared
@pytest.mark.skipif(not SEEDS.is_dir(), reason=f"the rulebook transcripts are not at {SEEDS} (set TABLETOP_SHARED)")
def test_every_greek_name_is_on_its_page_of_the_greek_rulebook():
    """Each line of the Greek transcript is one page, starting with its number; the name is on the page cited."""
    checked = 0
    for kind in KINDS:
        for id_, name in translated(kind, "el").items():
            where = source(kind, id_, "el")
            assert where["seed"].startswith("001_"), (kind, id_)
            line = (SEEDS / where["seed"]).read_text(encoding="utf-8").split("\n")[where["line"] - 1]
            assert line.split(" ", 1)[0] == str(where["page"]), (kind, id_, where)
            assert where["quote"] in line and _plain(name) in _plain(line), (kind, id_, where)
            checked += 1
    assert checked == 27  # 17 technologies (10 Rare), 8 Developments, 2 Discoveries


def test_a_rare_technology_researched_twice_is_named_in_greek_on_a_phone(store):
    from tests.test_eclipse_flow import start

    flow = start(store, species=["Terran Directorate", "Orion Hegemony"], rare_technologies=True)
    forms = localize(flow.view()["forms"], "el")  # what a Greek phone is sent
    field = next(x for f in forms if f["id"] == "research" for x in f["fields"] if x["name"] == "tech")
    labels = dict(zip(field["choices"], field["labels"], strict=True))  # a phone posts the English id
    assert labels["Point Defense"] == "Άμυνα Σημείου" and labels["Research Station"] == "Ερευνητικός Σταθμός"
    assert labels["Wormhole Generator"] == "Γεννήτρια Σκουληκότρυπας"
    flow.report("Ann", "home", {"sector": "221", "hex": [0, -2], "rotation": 0})
    flow.report("Bob", "home", {"sector": "232", "hex": [0, 2], "rotation": 0})
    flow.report("Ann", "research", {"tech": "Point Defense"})
    flow.report("Bob", "research", {"tech": "Point Defense"})
    said = [f["what"] for f in localize(flow.view()["findings"], "el") if f["rule_kind"] == "unique_tile"]
    assert said == ["Ann έχει ήδη τη Σπάνια Τεχνολογία Άμυνα Σημείου· υπάρχει ένα πλακίδιο από κάθε Σπάνια "
                    "Τεχνολογία"]
    said_pl = [f["what"] for f in localize(flow.view()["findings"], "pl") if f["rule_kind"] == "unique_tile"]
    assert said_pl == ["Ann ma już Point Defense; każda rzadka technologia ma jeden kafelek"]


# Each Development or Discovery tile that lies on a hex or scores a row of its own, as every screen names it: Greek
# as the Greek rulebook prints it (p.5 ΑΝΑΠΤΥΞΕΙΣ, p.8 ΝΕΕΣ ΑΝΑΚΑΛΥΨΕΙΣ), Polish and Hungarian as printed on the tile
# (no Eclipse rulebook in those languages names them): one name, never a third one made up for the score row.
TILE_NAMES = {
    "el": {"Ancient Monument": "Αρχαίο Μνημείο", "Artifact Link": "Σύνδεσμος Τεχνουργήματος",
           "Shellworld": "Κόσμος Κελύφους", "Warp Portal": "Πύλη Στρεβλώσεως",
           "Ancient Warp Portal": "Αρχαία Πύλη Στρεβλώσεως", "Ancient Orbital": "Αρχαία Τροχιά"},
    "pl": {t: t for t in ("Ancient Monument", "Artifact Link", "Shellworld", "Warp Portal", "Ancient Warp Portal",
                          "Ancient Orbital")},
}
TILE_NAMES["hu"] = TILE_NAMES["pl"]


@pytest.mark.parametrize("lang", ["el", "pl", "hu"])
def test_a_tile_has_one_name_on_the_score_rows_in_the_findings_and_in_the_forms(lang):
    """A Polish player read 'Portal warp' on the score row and 'Warp Portal' in the forms and findings (the catalog
    translated the row's word, the names file keeps the tile's printed name); Hungarian 'Ősi orbitál' on the map
    against 'Ancient Orbital' in the form. Every place now names a tile through the names file."""
    from companion.flows.eclipse import RESEARCHED, RESEARCHED_LABELS, TILE_LABELS, TILES, _structure_word
    from rules.eclipse.endgame import ROWS
    from rules.eclipse.words import structure_word

    rows = {str(word): localize(word, lang) for _n, word in ROWS}
    tiles = dict(zip(TILES, localize(list(TILE_LABELS), lang), strict=True))
    researched = dict(zip(RESEARCHED, localize(list(RESEARCHED_LABELS), lang), strict=True))
    structures = {"Shellworld": "shellworld", "Warp Portal": "warp_portal",
                  "Ancient Warp Portal": "ancient_warp_portal", "Ancient Orbital": "ancient_orbital"}
    for english, name in TILE_NAMES[lang].items():
        said = {name}
        if english in rows:  # rows 12-16 of the scoring table
            said.add(rows[english])
        if english in tiles:  # the form of a tile laid on a hex
            said.add(tiles[english])
        if english in researched:  # the Research form
            said.add(researched[english])
        if english in structures:  # the findings about a tile on the map, and the map's labels
            said |= {localize(structure_word(structures[english]), lang),
                     localize(_structure_word(structures[english]), lang)}
        assert said == {name}, (english, said)


@pytest.mark.parametrize("lang", ["el", "pl", "hu"])
def test_no_catalog_entry_names_a_tile_or_a_rulebook_technology_otherwise(lang):
    """The catalogs hold no second name for a Development or Discovery, nor for a technology the language's rulebook
    names (the Greek 'Αστροβάση', p.15, was 'Διαστημικός σταθμός' for the ship the same tile builds): an entry whose
    English is such a name says the names file's."""
    from tests.catalogs import pairs

    named = {english.casefold(): names(kind, english, lang) for kind in ("eclipse.development", "eclipse.discovery")
             for english in translated(kind, "en")}
    named |= {english.casefold(): name for english, name in translated("eclipse.technology", lang).items()}
    assert [(english, said) for english, said in pairs(lang)
            if english.casefold() in named and said != named[english.casefold()]] == []
