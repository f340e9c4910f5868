"""The game terms players read are their rulebook's own, game by game and language by language.

The players learnt the games from these editions (``shared/seeds/``): 000 Roll for the Galaxy in Greek, 001 Eclipse:
Rise of the Ancients in Greek, 003 Race for the Galaxy in Polish, 004 Among the Stars in Hungarian. Each row below is
a catalog entry (its ``msgctxt`` when a word two games share in English is each game's own in another language) with
the word the rulebook uses and the rulebook page (Greek transcripts number their pages at the start of each line).

The catalog half of each check always runs; the rulebook half reads the seed when ``$TABLETOP_SHARED`` (or
``../shared``) holds it and is skipped, saying so, when it does not.
"""

from __future__ import annotations

import os
import pickle
import re
import unicodedata
from pathlib import Path

import pytest

from companion.flows.among import AMONG_FLOW
from companion.flows.race import RACE_FLOW
from companion.flows.roll import ROLL_FLOW
from companion.i18n import TERM_CONTEXT, Text, in_game, localize
from companion.kept_words import from_kept, to_kept
from rules.race.scoring import DEVELOPMENTS
from rules.roll.endgame import EndPosition, score_position
from rules.text import plural
from tests.catalogs import ROOT, catalog, messages_saying, said_in

SEEDS = Path(os.environ.get("TABLETOP_SHARED", Path(__file__).resolve().parents[2] / "shared")) / "seeds"
ROLL_EL, ECLIPSE_EL, RACE_PL, AMONG_HU = "000_", "001_", "003_", "004_"
ROLL, RACE = "Roll for the Galaxy", "Race for the Galaxy"

# (language, msgctxt, msgid, the catalog's msgstr, seed, page or None, the rulebook's word on that page)
LABELS = [
    # Roll for the Galaxy, Greek rulebook
    ("el", ROLL, "developments", "τεχνολογίες", ROLL_EL, 8, "ΠΝ ίσοι με το κόστος όλων των τεχνολογιών"),  # p.8 ΝΙΚΗ
    ("el", None, "worlds", "κόσμοι", ROLL_EL, 8, "των τεχνολογιών και των κόσμων"),  # p.8 ΝΙΚΗ
    ("el", None, "VP chips", "δείκτες ΠΝ", ROLL_EL, 8, "Δείκτες ΠΝ"),  # p.8 ΝΙΚΗ
    ("el", ROLL, "Tableau", "Ταμπλό", ROLL_EL, 8, "πλακίδια στο ταμπλό"),  # p.8 Έλεγχος Τέλους
    ("el", None, "Credits", "Μονάδες", ROLL_EL, 8, "Γαλαξιακές Μονάδες"),  # p.8 Πρόσληψη
    ("el", None, "citizenry", "Πολίτες", ROLL_EL, 8, "θέση Πολιτών"),  # p.8 Πρόσληψη
    ("el", None, "cup", "κύπελλο", ROLL_EL, 8, "στο κύπελλό σας"),  # p.8 Πρόσληψη
    # Eclipse: Rise of the Ancients, Greek rulebook
    ("el", None, "Reputation tiles worth {value}", "Πλακίδια Φήμης αξίας {value}", ECLIPSE_EL, 3,
     "Πλακίδια Φήμης"),  # p.3 contents
    ("el", None, "Influence", "Επιρροή", ECLIPSE_EL, 6, "Επιρρο"),
    # the final scores' rows: p.15 (Shrines); a Development's row (Artifact Link, Shellworld, Ancient Monument, p.5
    # ΑΝΑΠΤΥΞΕΙΣ) is named from rules/data/eclipse/names.json, whose Greek names tests/test_eclipse_names.py checks
    ("el", None, "technology tracks", "μετρητές τεχνολογίας", ECLIPSE_EL, 4, "του Μετρητή Τεχνολογίας σας"),
    ("el", None, "Military track tiles", "Πλακίδια στον Μετρητή Στρατού", ECLIPSE_EL, 16,
     "την Τεχνολογία στον Μετρητή Τεχνολογίας Στρατού"),
    ("el", None, "Starbase", "Αστροβάση", ECLIPSE_EL, 15, "Αρχικές Τεχνολογίες: Αστροβάση"),  # the ship, as its tile
    ("el", None, "Development tiles", "πλακίδια Ανάπτυξης", ECLIPSE_EL, 3, "8 Πλακίδια Ανάπτυξης"),  # p.3 contents
    ("el", None, "Shrines of Enlightenment", "Βωμοί της Φώτισης", ECLIPSE_EL, 15, "Οι Βωμοί της Φώτισης"),
    ("el", None, "GCDS", "ΓΚΑΣ", ECLIPSE_EL, 6, "αντί για το ΓΚΑΣ"),  # p.6 ΚΑΤΑΚΤΗΣΗ ΤΟΥ ΓΑΛΑΞΙΑΚΟΥ ΚΕΝΤΡΟΥ
    ("el", None, "Interceptor", "Αναχαιτιστικό", ECLIPSE_EL, 3, "8 Αναχαιτιστικά, 4 Καταδρομικά"),  # p.3 contents
    ("el", None, "Move", "Μετακίνηση", ECLIPSE_EL, 8, "Με την ενέργεια Μετακίνησης"),  # p.8 Jump Drive
    ("el", None, "Species", "Φυλή", ECLIPSE_EL, 12, "επιλέγει μια φυλή"),  # p.12, and p.14 ΕΞΩΓΗΙΝΕΣ ΦΥΛΕΣ
    ("el", None, "species", "φυλή", ECLIPSE_EL, 12, "επιλέγει μια φυλή"),
    # Race for the Galaxy, Polish rulebook (a PDF transcript: its words run together, so spaces are not compared)
    ("pl", RACE, "Tableau", "Układ kart", RACE_PL, None, "układ kart"),
    ("pl", RACE, "developments", "technologie", RACE_PL, None, "technologie"),
    ("pl", None, "worlds", "światy", RACE_PL, None, "światy"),
    ("pl", None, "VP chips", "żetony PZ", RACE_PL, None, "żetony PZ"),
    ("pl", None, "VP", "PZ", RACE_PL, None, "12 PZ"),
    # Among the Stars, Hungarian rulebook
    ("hu", None, "Station", "Űrállomás", AMONG_HU, None, "Űrállomás"),
    ("hu", None, "Credits", "Credit", AMONG_HU, None, "megmaradt 3 Credit után"),  # 6 Játék Vége
    ("hu", None, "VP", "GYP", AMONG_HU, None, "GYP jár"),  # 6 Játék Vége
    ("hu", None, "VP track", "Pontozó tábla", AMONG_HU, None, "Pontozó Tábla"),  # sentence case in a label
    ("hu", None, "Location", "Helyszín", AMONG_HU, None, "Helyszín Kártya"),
    ("hu", None, "Power Reactor built", "Erőmű építése", AMONG_HU, None, "Erőmű Építése"),  # 4 Kör Áttekintése
]

# (language, msgid, a part of the catalog's msgstr, seed, page or None, the rulebook's words there)
PHRASES = [
    # the Greek Roll rulebook's pages, as the box cites them
    ("el", "p.2 Setup", "σ.2 Προετοιμασία", ROLL_EL, 2, "ΠΡΟΕΤΟΙΜΑΣΙΑ"),
    ("el", "p.4 Reveal", "σ.4 Αποκάλυψη", ROLL_EL, 4, "ΑΠΟΚΑΛΥΨΗ"),
    ("el", "p.7 Ship", "σ.7 Αποστολή", ROLL_EL, 7, "Αποστολή"),
    ("el", "p.8 Victory", "σ.8 Νίκη", ROLL_EL, 8, "ΝΙΚΗ"),
    ("el", "p.8 Recall", "σ.8 Ανάκληση", ROLL_EL, 8, "Ανάκληση"),
    ("el", "p.12 Dice faces and distribution", "σ.12 Πλευρές των ζαριών και κατανομή", ROLL_EL, 12,
     "ΠΛΕΥΡΕΣ ΤΩΝ ΖΑΡΙΩΝ ΚΑΙ ΚΑΤΑΝΟΜΗ"),
    ("el", "p.8 Recruit and p.10 FAQ", "σ.10 Σημαντικά σημεία", ROLL_EL, 10, "ΣΗΜΑΝΤΙΚΑ ΣΗΜΕΙΑ"),  # no "FAQ" page
    ("el", "p.11 FAQ Immediate effects", "σ.11 Άμεσα αποτελέσματα", ROLL_EL, 11,
     "Άμεσα Αποτελέσματα"),
    ("el", "a {colour} die has no {face} face (probably a misread colour)", "πλευρά {face}", ROLL_EL, 12,
     "ίδια κατανομή πλευρών"),  # a die's face is a "πλευρά", as a tile's side
    ("el", "{world} is a gray world, which holds no goods", "δεν κρατά προϊόντα", ROLL_EL, 7,
     "δημιουργεί ένα προϊόν"),  # p.7 Παραγωγή: goods are "προϊόντα", never "αγαθά"
    ("el", "{count} goods on {world}; a world holds at most {most} with Galactic Reserves", "{count} προϊόντα",
     ROLL_EL, 7, "δημιουργεί ένα προϊόν"),
    # the Greek Rise of the Ancients' pages
    ("el", "Rise of the Ancients p.4 Rare Technologies", "σ.4 Σπάνιες Τεχνολογίες", ECLIPSE_EL, 4,
     "ΣΠΑΝΙΕΣ ΤΕΧΝΟΛΟΓΙΕΣ"),
    ("el", "Rise of the Ancients p.5 Developments", "σ.5 Αναπτύξεις", ECLIPSE_EL, 5, "ΑΝΑΠΤΥΞΕΙΣ"),
    ("el", "Rise of the Ancients p.7 Ancient Hives", "σ.7 Κυψέλες των Αρχαίων", ECLIPSE_EL, 7, "ΚΥΨΕΛΕΣ ΤΩΝ ΑΡΧΑΙΩΝ"),
    ("el", "Rise of the Ancients p.8 Warp Portals", "σ.8 Πύλες Στρεβλώσεως", ECLIPSE_EL, 8, "ΠΥΛΕΣ ΣΤΡΕΒΛΩΣΕΩΣ"),
    ("el", "Rise of the Ancients p.10-11 Alliances", "σ.10-11 Συμμαχίες", ECLIPSE_EL, 10, "ΣΥΜΜΑΧΙΕΣ"),
    ("el", "Rise of the Ancients p.15 Shrines", "σ.15 Βωμοί", ECLIPSE_EL, 15, "Βωμ"),
    ("el", "each player's species", "η φυλή κάθε παίκτη", ECLIPSE_EL, 12, "επιλέγει μια φυλή"),
    ("el", "{development} is listed twice; each Development tile is unique", "κάθε Πλακίδιο Ανάπτυξης είναι μοναδικό",
     ECLIPSE_EL, 5, "Κάθε Πλακίδιο Ανάπτυξης είναι μοναδικό"),  # p.5 ΑΝΑΠΤΥΞΗ
    # Race in Polish: the phase is the rulebook's "II Rozwój"
    ("pl", "second copy of the development {card} (a tableau holds one copy of each development, rulebook Develop "
     "phase)", "faza Rozwoju", RACE_PL, None, "II Rozwój"),
    # Among the Stars in Hungarian: the rulebook's sections and components
    ("hu", "rulebook 6 'Game end'", "6 „Játék Vége”", AMONG_HU, None, "6 Játék Vége"),
    ("hu", "rulebook 7 'Aggressive mode'", "7 „Agresszív Mód”", AMONG_HU, None, "7 Agresszív Mód"),
    # the contents read "[1.] Áttekintés. [2.] Játékelemek 3. Előkészületek" (the transcript drops the digits 1 and 2)
    ("hu", "rulebook 2 'Components': no more copies than the box holds", "2 „Játékelemek”", AMONG_HU, None,
     "Játékelemek 3. Előkészületek"),
    # the three actions are listed under "4 Kör Áttekintése"; the Hungarian rulebook has no heading of their own
    ("hu", "rulebook 4 'The three actions': a player pays only with credits they have", "4 „Kör Áttekintése”",
     AMONG_HU, None, "4. Kör Áttekintése"),
    ("hu", "has no Main Reactor at [0, 0]", "Főreaktor", AMONG_HU, None, "Főreaktor"),
    ("hu", "has {count} Main Reactors; a station has one", "űrállomásnak", AMONG_HU, None, "Űrállomás"),
    ("hu", "only a Power Reactor is laid face down to fill a split, not {card}", "Erőmű Kártya", AMONG_HU, None,
     "egy Erőmű Kártyát, lefelé fordítva"),  # 5 Kör Vége
    ("hu", "unknown objective {name}", "ismeretlen cél", AMONG_HU, None, "Cél Kártya"),
]


def _bare(text: str) -> str:
    """``text`` without accents, case or spaces: a transcript's capitals drop Greek accents and a PDF's runs
    words together."""
    decomposed = unicodedata.normalize("NFD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c) and not c.isspace()).casefold()


def _rulebook(seed: str, page: int | None) -> str:
    """The rulebook's transcript, or the line of its page ``page`` (a Greek transcript starts each page's line
    with its number); skips when the seeds are not here."""
    found = sorted(SEEDS.glob(f"{seed}*.txt"))
    if not found:
        pytest.skip(f"rulebook {seed}* not found in {SEEDS} (set TABLETOP_SHARED to the shared folder)")
    lines = found[0].read_text(encoding="utf-8").splitlines()
    if page is None:
        return "\n".join(lines)
    on_page = [line for line in lines if line.startswith(f"{page} ")]
    assert on_page, f"{found[0].name} has no page {page}"
    return on_page[0]


def _msgstr(lang: str, context: str | None, msgid: str) -> str:
    message = catalog(lang).get(msgid, context=context)
    assert message is not None, (lang, context, msgid)
    return message.string


@pytest.mark.parametrize("lang, context, msgid, said, seed, page, quote", LABELS,
                         ids=[f"{r[0]}-{r[2]}-{r[1] or 'any'}" for r in LABELS])
def test_a_label_is_the_rulebooks_word(lang, context, msgid, said, seed, page, quote):
    assert _msgstr(lang, context, msgid) == said
    assert _bare(quote) in _bare(_rulebook(seed, page))
    assert any(_bare(word[:4]) in _bare(quote) for word in said.split()), \
        "the rulebook's words hold the label's own word"


@pytest.mark.parametrize("lang, msgid, part, seed, page, quote", PHRASES, ids=[f"{r[0]}-{r[1][:30]}" for r in PHRASES])
def test_a_sentence_and_a_page_cited_are_the_rulebooks(lang, msgid, part, seed, page, quote):
    assert part in _msgstr(lang, None, msgid)
    assert _bare(quote) in _bare(_rulebook(seed, page))


@pytest.mark.parametrize("seed, cites", [(ROLL_EL, r"^p\.\d"), (ECLIPSE_EL, r"^Rise of the Ancients p\.\d")])
def test_every_greek_page_cited_holds_the_section_named(seed, cites):
    """A Greek citation "σ.N Title" (Roll's "p.N ...", Rise of the Ancients' "Rise of the Ancients p.N ...") names a
    section printed on page N of the Greek rulebook: its title's first word is on that page."""
    said = [(message.id, message.string) for message in catalog("el")
            if isinstance(message.id, str) and re.match(cites, message.id)]
    assert len(said) >= 10
    wrong = []
    for msgid, text in said:
        for page, title in re.findall(r"σ\.(\d+)(?:-\d+)? ([Α-ΩΆ-Ώ][^\s,·;()]*)", text):
            if _bare(title[:5]) not in _bare(_rulebook(seed, int(page))):
                wrong.append((msgid, page, title))
    assert wrong == []


def test_every_hungarian_section_cited_is_a_heading_of_the_hungarian_rulebook():
    """Among the Stars' findings cite "szabálykönyv N „Title”": each title is one the Hungarian rulebook prints."""
    cited = {m.group(1): message.id for message in catalog("hu") if message.id
             for m in re.finditer(r"szabálykönyv \d+ „([^”]+)”", message.string if isinstance(message.string, str)
                                  else message.string[0])}
    assert len(cited) >= 8
    rulebook = _bare(_rulebook(AMONG_HU, None))
    assert [title for title in cited if _bare(title) not in rulebook] == []


def test_roll_and_race_each_say_their_own_word_for_the_same_english():
    """Roll's and Race's tableau and developments are one English word each; the Greek Roll rulebook says
    "τεχνολογίες" (p.8) and a tableau of tiles, the Polish Race rulebook "układ kart" (a layout of cards)."""
    assert localize(in_game(ROLL, "developments"), "el") == "τεχνολογίες"
    assert localize(DEVELOPMENTS, "pl") == "technologie"
    assert localize(in_game(ROLL, "developments"), "en") == "developments"
    labels = {flow.name: {c.key: c.label for c in flow.columns} for flow in (ROLL_FLOW, RACE_FLOW, AMONG_FLOW)}
    assert localize(labels[ROLL_FLOW.name]["tableau"], "pl") == "Układ kafelków"
    assert localize(labels[RACE_FLOW.name]["tableau"], "pl") == "Układ kart"
    assert localize(labels[AMONG_FLOW.name]["tableau"], "hu") == "Űrállomás"
    assert localize(labels[AMONG_FLOW.name]["tableau"], "en") == "Station"


def test_a_roll_score_row_is_the_greek_rulebooks_word():
    """Roll for the Galaxy p.8 Victory: VP chips, then the printed costs of the developments (τεχνολογίες) and worlds
    (κόσμοι). Hand-worked: the development Advanced Logistics (cost 1) and the world Spice World (cost 2)."""
    p = EndPosition(name="Ζωή", vp_chips=3, credits=1, developments=("Advanced Logistics",), worlds=("Spice World",))
    rows = {localize(line.category, "el"): line.vp for line in score_position(p).lines}
    assert rows == {"δείκτες ΠΝ": 3, "τεχνολογίες": 1, "κόσμοι": 2}


def test_a_game_word_keeps_its_game_when_copied_kept_and_restored():
    word = in_game(RACE, "Tableau")
    for again in (pickle.loads(pickle.dumps(word)), from_kept(to_kept(word))):
        assert isinstance(again, Text) and again.context == RACE
        assert localize(again, "pl") == "Układ kart"
    assert from_kept(to_kept(Text("Tableau"))).context is None
    with pytest.raises(ValueError, match="game context"):
        from_kept({"text": "Tableau", "plural": None, "n": None, "params": {}, "context": 3})


def test_no_roll_message_says_races_word_for_a_development_in_greek():
    """The Greek Roll rulebook calls a development "τεχνολογία" and its stack "στοίβα τεχνολογίας" (p.6, p.8
    Victory); "ανάπτυξη" is Race's word. Every message the Roll rules say (its English in ``rules/roll``) keeps to
    Roll's: Galactic Bankers' line read "7 αναπτύξεις", the construction zone's stack "στοίβα αναπτύξεων"."""
    said = said_in(*(ROOT / "rules" / "roll").glob("*.py"))
    roll = [message for message in messages_saying("el", said) if not message.context]
    assert len(roll) >= 50
    races_word = [message.id for message in roll
                  for text in ((message.string,) if isinstance(message.string, str) else message.string)
                  if re.search(r"αν[άα]πτυξ|αναπτύξ", text)]
    assert races_word == []
    assert localize(plural("{n} development", "{n} developments", 7), "el") == "7 τεχνολογίες"
    assert _bare("στοίβας τεχνολογίας") in _bare(_rulebook(ROLL_EL, None))


def test_every_greek_race_message_says_one_word_for_a_development():
    """Greek Race for the Galaxy says a development one way: "ανάπτυξη", the Develop phase's own word ("Ανάπτυξη",
    the Greek Roll rulebook's page for Race players, p.9: "προς την Ανάπτυξη και την Αποίκηση"); no Greek Race
    rulebook is among the seeds to name the card otherwise. The card type read "Εξέλιξη" and the score file's
    second copy "τεχνολογίας" (Roll's word, p.8). Every Greek message of the Race rules whose English names a
    development (its English in ``rules/race``, the score file's ``race.*`` problems, the card type) keeps to it."""
    said = said_in(*(ROOT / "rules" / "race").glob("*.py"), problems="race")
    race = [message for message in messages_saying("el", said) if message.context != ROLL]
    assert len(race) >= 40
    naming = [message for message in race
              if re.search(r"\bdevelopments?\b", re.sub(r"\{\w+\}", "", message.id if isinstance(message.id, str)
                                                            else message.id[0]), re.I)]  # not a {development} field
    assert len(naming) >= 7
    other_words = [message.id for message in naming
                   for text in ((message.string,) if isinstance(message.string, str) else message.string)
                   if re.search(r"τεχνολογ|εξ[έε]λιξ|εξελίξ|βελτίωσ", text, re.I)
                   or not re.search(r"αν[άα]πτυξ|αναπτύξ", text, re.I)]
    assert other_words == []
    assert localize(in_game(RACE, "developments"), "el") == "αναπτύξεις"
    assert _msgstr("el", TERM_CONTEXT, "Development") == "Ανάπτυξη"  # the card type (race.card_type)
    assert _msgstr("el", TERM_CONTEXT, "Develop") == "Ανάπτυξη"
    assert _bare("προς την Ανάπτυξη και την Αποίκηση") in _bare(_rulebook(ROLL_EL, 9))


def test_no_greek_message_calls_a_development_an_exelixi():
    """The Greek Rise of the Ancients calls its Development tiles "Πλακίδια Ανάπτυξης" (p.3, p.5), as Greek Race says
    "ανάπτυξη" and Greek Roll "τεχνολογία": no Greek message naming a development says "Εξέλιξη" (five Eclipse
    messages did, beside "Αναπτύξεις" in the same game's citations)."""
    naming = [message for message in catalog("el") if message.id
              and re.search(r"develop", message.id if isinstance(message.id, str) else message.id[0], re.I)]
    assert len(naming) >= 30
    assert [message.id for message in naming
            for text in ((message.string,) if isinstance(message.string, str) else message.string)
            if re.search(r"εξ[έε]λιξ|εξελίξ", text, re.I)] == []
    assert _bare("Πλακίδια Ανάπτυξης") in _bare(_rulebook(ECLIPSE_EL, 5))


def test_no_greek_message_says_another_word_for_the_interceptor_or_the_move_action():
    """The Greek Rise of the Ancients writes the Interceptor "Αναχαιτιστικό" (p.3: "8 Αναχαιτιστικά") and the Move
    action "Μετακίνηση" (p.8: "Με την ενέργεια Μετακίνησης"); the catalog said "Αναχαιτιστής" and "Κίνηση" in eight
    messages (the action's name, its refusals, the wormholes' rule)."""
    said = [text for message in catalog("el") if message.id
            for text in ((message.string,) if isinstance(message.string, str) else message.string)]
    assert len(said) > 2000
    assert [t for t in said if re.search(r"αναχαιτιστ(?!ικ)|(?<![\wά-ώ])κίνησ", t, re.I)] == []
    assert _bare("Αναχαιτιστικά") in _bare(_rulebook(ECLIPSE_EL, 3))
    assert _bare("ενέργεια Μετακίνησης") in _bare(_rulebook(ECLIPSE_EL, 8))
