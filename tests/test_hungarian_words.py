"""Hungarian words for the game's own terms are one word each across the box (the Hungarian catalog).

Among the Stars' table in Hungarian read "Év: 1/4, forduló: 1/6" over round buttons "1. kör" and a Next of "Forduló
vége": one round, two words. A round is a "kör" everywhere, as the Hungarian Among the Stars rulebook says it ("Kör
Áttekintése", round overview) and as every other game's table already did."""

from __future__ import annotations

import re
from itertools import pairwise

import pytest

from rules.names import kinds, translated
from tests.catalogs import pairs

ROUND = re.compile(r"\brounds?\b", re.I)
PLACEHOLDER = re.compile(r"\{[^}]*\}")


def test_a_round_is_a_kor_in_every_hungarian_message():
    """Every message that names a round (not only a placeholder that says it) says "kör" and never "forduló"."""
    naming = [(english, said) for english, said in pairs("hu") if ROUND.search(PLACEHOLDER.sub("", english))]
    assert len(naming) > 30  # the rounds of four games: a check that would see them
    assert [(english, said) for english, said in naming if "kör" not in said.lower()] == []
    assert [said for _english, said in pairs("hu") if "fordul" in said.lower()] == []


THESE_NAMES = re.compile(r"\b(?:ezek|azok|rájuk|nekik|őket|tőlük|ők)\w*\b[^.;]*\{(?:players|names)\}")
"""A list of names under a plural pronoun ("koppints a képen ezek helyére: {players}", "várakozás rájuk: {players}"):
the list may hold one name, and "ezek helyére: Anna" (these ones' seats: Anna) is wrong for her alone; the list
stands after a lead-in that fits one name or more ("várakozás a fázisválasztásra: Anna")."""


@pytest.mark.parametrize("text, found", [
    ("koppints a képen ezek helyére: {players}, vagy Egyenlő felosztás", True),
    ("várakozás ezek fázisválasztására: {names}", True),
    ("az Akció fázis véget ér, mielőtt ezek passzoltak: {players}", True),
    ("az Akció fázis akkor ér véget, ha mindenki passzolt (várakozás rájuk: {players})", True),
    ("koppints a képen minden játékos helyére ({players}), vagy Egyenlő felosztás", False),
    ("várakozás a fázisválasztásra: {names}", False),
    ("az Akció fázis véget ér passz nélkül: {players}", False),
])
def test_a_plural_pronoun_before_a_list_of_names_is_found(text, found):
    assert bool(THESE_NAMES.search(text)) is found


def test_no_hungarian_list_of_names_stands_under_a_plural_pronoun():
    """Every Hungarian message with a list of names reads right for one name: the setup's "koppints a képen minden
    játékos helyére (Anna)", the waiting lines "várakozás a fázisválasztásra: Anna", Eclipse's early end of the Action
    phase "az Akció fázis véget ér passz nélkül: Anna" ("ezek …: Anna" and "várakozás rájuk: Anna" before)."""
    assert [(english, said) for english, said in pairs("hu") if THESE_NAMES.search(said)] == []


PROPER_NAMES = ("Gyorsított Gyártás", "Ősi Kaptárak", "Ősi Szülőbolygó", "Galaktikus Központ", "Rise of the Ancients",
                "A Fajok")
"""Names of one thing that keep their capitals inside a label: an objective card, Rise of the Ancients' sections and
sector type (Ancient Homeworlds), the Galactic Center hex, the expansion's title, the Among the Stars rulebook's
"A Fajok" (Races) cited as printed."""


def title_cased(english: str, said: str, names: tuple[str, ...] = PROPER_NAMES) -> list[str]:
    """The labels in ``said`` written in Title Case: in each part between punctuation (a label, one item of a list, or a
    sum written with "+", whose terms are words of a sentence), two to four words whose words after the first all start
    with a capital ("Lap Eldobása Creditért", "{n} Energia Kocka", "Pénz + Tudomány + Nyersanyag"), leaving out
    placeholders, words carried over from ``english`` (names, "VP" as "GYP" is all capitals), ``names`` (the language's
    names of one thing, :data:`PROPER_NAMES` for Hungarian) and rulebook headings as printed, quoted („Kör Áttekintése”)
    or after their number ("7 Agresszív Mód"). Hungarian writes a label in sentence case: "Lap eldobása creditért",
    "Erőmű építése", "2 energiakocka"; so does Polish ("zasoby: pieniądze + nauka + materiały")."""
    body = re.sub(r"„[^”]*”", " ", PLACEHOLDER.sub(" ", said))
    for name in names:
        body = body.replace(name, " ")
    carried = set(re.findall(r"\w+", english))
    found = []
    for part in re.split(r"[:;,.()\"!?–]", body):
        if part.strip()[:1].isdigit():  # a rulebook section after its number
            continue
        words = re.findall(r"[^\W\d_]+", part)
        rest = [w for w in words[1:] if w not in carried and not w.isupper()]
        if 2 <= len(words) <= 4 and words[0][0].isupper() and rest and all(w[0].isupper() for w in rest):
            found.append(part.strip())
    return found


@pytest.mark.parametrize("english, said, found", [
    ("Card discarded for credits", "Lap Eldobása Creditért", ["Lap Eldobása Creditért"]),
    ("{n} energy cubes", "{n} Energia Kocka", ["Energia Kocka"]),
    ("Card discarded for credits", "Lap eldobása creditért", []),
    ("{n} energy cubes", "{n} energiakocka", []),
    ("rulebook 6 'Game end'", "szabálykönyv 6 „Játék Vége”", []),  # a heading as the rulebook prints it
    ("(Among the Stars rulebook, 7 Aggressive mode)", "(Among the Stars szabálykönyv, 7 Agresszív Mód)", []),
    ("objective card (Accelerated Construction)", "Célkártya (Gyorsított Gyártás)", []),
    ("Secret objective (Qualeen)", "Titkos Cél (Qualeen)", ["Titkos Cél"]),
    ("resources: Money + Science + Materials", "erőforrások: Pénz + Tudomány + Nyersanyag",
     ["Pénz + Tudomány + Nyersanyag"]),
    ("resources: Money + Science + Materials", "erőforrások: pénz + tudomány + nyersanyag", []),
    ("dice in cup + credits", "a pohárban lévő kockák + Credit", []),
])
def test_a_title_cased_label_is_found(english, said, found):
    assert title_cased(english, said) == found


def test_hungarian_labels_are_in_sentence_case():
    """Among the Stars' forms and rows on a Hungarian phone: "Erőmű építése", "Lap eldobása creditért",
    "2 energiakocka", "Titkos cél (Qualeen)" (Title Case before, as English writes a heading); Eclipse's tie-break
    "erőforrások: pénz + tudomány + nyersanyag" (End of the game: the most resources; "Pénz + Tudomány + Nyersanyag"
    before)."""
    assert [(english, said) for english, said in pairs("hu") if title_cased(english, said)] == []


@pytest.mark.parametrize(("lang", "said"), [("hu", "Ágnes: faj Sheptas"), ("pl", "Ágnes: rasa Sheptas"),
                                            ("el", "Ágnes: φυλή Sheptas"), ("en", "Ágnes: race Sheptas")])
def test_a_players_race_is_said_in_the_singular(store, lang, said):
    """One player picks one race (Among the Stars, Races: each player takes one race tile): "Ágnes: faj Sheptas",
    not the plural "fajok" (races) the setup page's heading uses."""
    from companion.flows import FLOWS
    from companion.i18n import say
    from companion.setup_flow import TableSetup

    setup = TableSetup(store, FLOWS["among"])
    for name in ("Ágnes", "Bálint"):
        setup.add_player(name)
    assert say(setup.choose("Ágnes", "races", "Sheptas"), lang) == said


NAMED_BY_THE_BOX = frozenset(n for kind in kinds() for lang in ("en", "hu") for n in translated(kind, lang).values())
"""The names file's names of cards, locations, reactors, objectives, races, technologies (:mod:`rules.names`), in
English and as the Hungarian rulebook prints them ("Holografikus Kivetítő", "Gyorsított Gyártás"): capitals allowed."""

MODULES = ("Szövetségek",)
"""Rise of the Ancients' Alliances module as a name ("a Szövetségek modul nincs játékban")."""

_TOKEN = re.compile(r"[^\W\d_]+|[^\w\s]+|\d+")


def _tokens(said: str) -> list[str]:
    """``said`` as words and punctuation, with placeholders, quotes and :data:`NAMED_BY_THE_BOX` names left out (a
    comma in their place, so no word is read as next to another across them)."""
    body = re.sub(r"„[^”]*”|\"[^\"]*\"", " , ", PLACEHOLDER.sub(" , ", said))
    for name in sorted((*NAMED_BY_THE_BOX, *PROPER_NAMES, *MODULES), key=len, reverse=True):
        body = body.replace(name, " , ")
    return _TOKEN.findall(body)


def _lowercase_word(word: str) -> bool:
    return word[:1].isalpha() and word[:1].islower()


def _same_word(a: str, b: str) -> bool:
    """Two Hungarian forms of one word: equal, or one is the other with endings ("cél", "célként", "céljaként")."""
    return a == b or (min(len(a), len(b)) >= 3 and (a.startswith(b) or b.startswith(a)))


def mixed_case(said: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """``(phrase, message)`` of each mid-sentence capital in ``said`` (``(English, translation)`` pairs) that the same
    catalog writes in lowercase after the same word elsewhere: "titkos Céljaként" where other messages say "titkos
    cél", "titkos célként". A capital after an article, a number word or a conjunction ("a Tovább gomb", "az Akció
    fázis", "minden Fejlesztés lapka" name a button, a phase, a tile) is not asked about, nor a name of the names
    file, a quote or a word carried over from the English (a race, "VP")."""
    function_words = {"a", "az", "egy", "két", "minden", "és", "vagy", "is", "de", "ha", "meg", "nincs"}
    lowercase_after: dict[str, set[str]] = {}
    for _english, text in said:
        tokens = _tokens(text)
        for before, word in pairwise(tokens):
            if _lowercase_word(before) and _lowercase_word(word):
                lowercase_after.setdefault(before, set()).add(word)
    found = []
    for english, text in said:
        tokens, carried = _tokens(text), set(re.findall(r"\w+", english))
        for before, word in pairwise(tokens):
            if (_lowercase_word(before) and before not in function_words and word[:1].isupper() and not word.isupper()
                    and word not in carried
                    and any(_same_word(word.lower(), w) for w in lowercase_after.get(before, ()))):
                found.append((f"{before} {word}", text))
    return found


@pytest.mark.parametrize("said, found", [
    ([("revealed as their secret objective", "felfedi titkos Céljaként"), ("secret objective", "titkos cél")],
     ["titkos Céljaként"]),
    ([("revealed as their secret objective", "felfedi titkos céljaként"), ("secret objective", "titkos cél")], []),
    ([("the Next button", "a Tovább gomb"), ("next round", "a további kör")], []),  # a button's name
    ([("Holographic Display Area built", "épített Holografikus Kivetítő"), ("built", "épített holo")], []),  # a card
    ([("only Qualeen", "csak Qualeen"), ("only qualified", "csak qualifikált")], []),  # the race, as in English
])
def test_a_mid_sentence_capital_is_found(said, found):
    assert [phrase for phrase, _text in mixed_case(said)] == found


def test_hungarian_messages_have_no_mid_sentence_capitals():
    """A Qualeen's secret objective reads "felfedi titkos céljaként" and "a Qualeen titkos célja rejtve marad", as the
    catalog's other messages write "titkos cél" ("titkos Céljaként", "titkos Célja", "titkos Célod" before)."""
    assert mixed_case(pairs("hu")) == []



@pytest.mark.parametrize(("lang", "said"), [("hu", "Ágnes: faj: nincs kiválasztva"), ("pl", "Ágnes: rasa: nie wybrano"),
                                            ("el", "Ágnes: φυλή: δεν επιλέχθηκε"), ("en", "Ágnes: race: none chosen")])
def test_a_race_taken_back_at_setup_is_said_without_a_gendered_none(store, lang, said):
    """Ágnes's race picked, then cleared on the setup page: before, "Ágnes: φυλή κανένα" (a neuter "none" beside the
    feminine φυλή); now "none chosen" after the option's name, with nothing to agree with."""
    from companion.flows import FLOWS
    from companion.i18n import say
    from companion.setup_flow import TableSetup

    setup = TableSetup(store, FLOWS["among"])
    for name in ("Ágnes", "Bálint"):
        setup.add_player(name)
    setup.choose("Ágnes", "races", "Sheptas")
    assert say(setup.choose("Ágnes", "races", ""), lang) == said


PASSIVE_PARTICIPLE = re.compile(r"\blett (?:\w+ )?\w+(?:va|ve)\b|\b\w+(?:va|ve) \w+(?:va|ve)\b")
"""A "lett" + participle passive ("{paid} lett fizetve", "kocka lett bejelentve") or two participles in a row
("megépítve bejelentve"): Hungarian says who did it with an impersonal verb ("lappal fizettek", "kockát jelentettek
be", "ekkor jelentették be")."""


@pytest.mark.parametrize("text, found", [
    ("{card} itt {n} lapba kerül, de {paid} lett fizetve", True),
    ("{player} {n} kockája nem lett bejelentve a sávon", True),
    ("Spice World megépítve bejelentve ekkor: Fejlesztés", True),
    ("{card} itt {n} lapba kerül, de {paid} lappal fizettek", False),
    ("Spice World megépítése: ekkor jelentették be: Fejlesztés, nem ekkor: Letelepedés", False),
    ("2 játékos: az extra fehér kocka nincs bejelentve", False),
])
def test_a_passive_participle_is_found(text, found):
    assert bool(PASSIVE_PARTICIPLE.search(text)) is found


def test_no_hungarian_race_or_roll_message_says_what_was_done_with_a_passive_participle():
    """"Spice World megépítve bejelentve ekkor: Fejlesztés" (a wrong-phase warning of Roll), "de 2 lett fizetve",
    "3 kék kocka lett bejelentve": every Hungarian message of the Race and Roll rules and flows says what the table
    did with a verb."""
    from tests.catalogs import ROOT, said_in

    said = (said_in(*(ROOT / "rules" / "race").glob("*.py"), ROOT / "companion" / "flows" / "race.py", problems="race")
            | said_in(*(ROOT / "rules" / "roll").glob("*.py"), ROOT / "companion" / "flows" / "roll.py",
                      problems="roll"))
    assert _passives(said, at_least=150) == []


def test_no_hungarian_among_the_stars_message_says_what_was_paid_with_a_passive_participle():
    """"{paid} lett fizetve", "az energia innen lett fizetve" (a card's energy, Among the Stars: Energy): the
    energy paid for a card is said with a verb, "{paid} energiát fizettek", "az energiát innen fizették"."""
    from tests.catalogs import ROOT, said_in

    said = said_in(*(ROOT / "rules" / "among_the_stars").glob("*.py"), ROOT / "companion" / "flows" / "among.py")
    assert _passives(said, at_least=100) == []


def _passives(said: set[str], at_least: int) -> list[str]:
    """The Hungarian texts (every plural form) of the messages whose English is one of ``said`` that use a passive
    participle; first asserting at least ``at_least`` texts were looked at, so a moved file cannot empty the check."""
    from tests.catalogs import forms, messages_saying

    texts = [text for message in messages_saying("hu", said) for text in forms(message.string) if text]
    assert len(texts) >= at_least
    return [text for text in texts if PASSIVE_PARTICIPLE.search(text)]


NAMES = (r"(?:card|world|tile|home|location|sector|hex|reactor|species|objective|structure|guardian|development"
         r"|discovery|tech|alliance|race|other|path|folder|parent|db|box|demo|device|deck|profile|photo)")
"""The placeholders a printed name fills (a card, a world, a sector, a file, a folder, a deck)."""

SUFFIX_ON_NAME = re.compile(r"\{" + NAMES + r"(?:![rs])?\}-?[a-záéíóöőúüű]")
"""A case ending written onto a name ("{card}-t", "{world}on", "{sector}-ben"): the ending agrees with the name's
last sounds (vowel harmony), which the box does not know; the name stands before a Hungarian noun that
takes the ending ("a(z) {card} kártyát", "a(z) {world} világon", "a(z) {sector} hexben")."""

BARE_ARTICLE = re.compile(r"(?<![\w(])[Aa]z? \{(\w+)(?:![rs])?\}")
""""a" or "az" right before a placeholder: which one is right depends on the sound the name or number starts with
("az 1", "a 2", "az Alpha Centauri", "a Spice World"), unknown to the box; "a(z) {card}" is the Hungarian way to say
both. A placeholder filled by one word of the catalog itself ("az {history}", the History button, Előzmények) is
known."""

KNOWN_WORDS = {"history", "ancients"}
"""Placeholders filled by one translated word whose first sound is known (Előzmények, Ősök)."""


@pytest.mark.parametrize("text, found", [
    ("{player} elvette a(z) {card}-t", True),
    ("{count} áru van {world}on", True),
    ("{count} áru a(z) {world} világon", False),
    ("{sector} hexen már van orbitál", False),
])
def test_an_ending_on_a_name_is_found(text, found):
    assert bool(SUFFIX_ON_NAME.search(text)) is found


@pytest.mark.parametrize("text, found", [
    ("a {rng} távolságon belüli reaktorokból", True),
    ("ezzel a {vp} GYP értékű hírnévlapkák száma", True),
    ("a(z) {rng} távolságon belüli reaktorokból", False),
    ("egy korábbi játék az {history} alatt nyílik meg", False),
])
def test_a_or_az_before_an_unknown_name_or_number_is_found(text, found):
    assert bool(unknown_articles(text)) is found


def unknown_articles(text: str) -> list[str]:
    """The "a" or "az" in ``text`` right before a placeholder whose first sound is not known."""
    return [m.group(0) for m in BARE_ARTICLE.finditer(text) if m.group(1) not in KNOWN_WORDS]


def test_every_hungarian_message_puts_endings_on_a_noun_and_says_a_z_before_an_unknown_name():
    """"a 1 távolságon belüli reaktorokból" (Among the Stars' energy, distance 1: "az 1"), "a 1280x720 képkockák
    közepén", "ezzel a 1 GYP értékű hírnévlapkák": "a(z)" before a number or a name the box cannot hear. No Hungarian
    message writes an ending onto a name; each name that takes one stands before its noun with "a(z)": "a(z)
    {sector} hexen", "a(z) {tile} lapkához", "a(z) {card} lapot építed"."""
    checked = [(english, said) for english, said in pairs("hu") if re.search(r"\{" + NAMES + r"\}", english)]
    assert len(checked) >= 350
    assert [(english, said) for english, said in pairs("hu") if SUFFIX_ON_NAME.search(said)] == []
    assert [(english, said) for english, said in pairs("hu") if unknown_articles(said)] == []
    sector_hexes = [said for _english, said in pairs("hu") if re.search(r"\{sector\} hex(?:en|ben)", said)]
    assert len(sector_hexes) >= 5
    assert [said for said in sector_hexes if not re.search(r"a\(z\) \{sector\} hex(?:en|ben)", said)] == []
