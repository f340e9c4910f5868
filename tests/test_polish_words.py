"""Polish sentences about a player fit every player (the box's Polish catalog).

Polish past tenses say the speaker's gender: "Łucja zbudował Turret" and "Łucja nie wykonał akcji" are a man's
forms, read by a woman at the table about herself; "Zwycięzca: Łucja" is the same with a noun. A sentence whose
subject is a player's name says it without a gendered form: a present tense ("Ann dołącza"), an impersonal past
("Łucja: zbudowano Turret", "Łucja: brak akcji") or a neutral noun ("Wygrywa: Łucja", "Wspólne zwycięstwo").

"miejsce gracza Łucja" gives her a man's noun as well (and leaves her name uninflected): whose something is, or for
whom, says the name first or in brackets, in the nominative ("Łucja: miejsce ustalone", "{tile} nie jest w strefie
budowy (Łucja)")."""

from __future__ import annotations

import re

import pytest

from tests.catalogs import pairs
from tests.test_hungarian_words import title_cased

PLACEHOLDER = re.compile(r"\{[^}]*\}")
"""A message's placeholder ("{card}"): not a word of its own."""

PERSON = r"\{(?:player|players|names|winner|who)\}"
"""The placeholders a player's name (or the players' names) fills."""

MASCULINE_PAST = re.compile(
    r"(?<!gracza )" + PERSON + r"\s+(?:(?:nie|już|ponownie|dwa razy)\s+)*\w+ł\b"
    r"|\b[Zz]wycięzca\b"
)
"""A player's name as the subject of a man's past form ("{player} zbudował", "{player} nie wykonał") or under the
noun for a man who won. "miejsce gracza {player} zajął ten telefon" is the phone's doing (the player is "gracza",
the owner): not a past form of the player's (the noun is ``MASCULINE_NOUN``'s)."""

MASCULINE_NOUN = re.compile(r"\bgracz(?:a|owi|em|u)? \{(?:player|players|names|winner|who|owner|holders)\b")
"""A player's name under a man's noun: "miejsce gracza {player}", "dla gracza {player}", "nieznany gracz {player}".
"opcji dla gracza {option}" (an option per player) and "nie ma gracza o imieniu {player}" (no such player) are
left alone."""


LIST = r"\{(?:players|names)\}"
"""The placeholders a list of one name or more fills ("Łucja" alone, "Łucja, Ann")."""

MEN_PLURAL = re.compile(
    LIST + r"\s+(?:(?:nie|już|razem)\s+)*\w+li\b|\b\w+li:\s*" + LIST + r"|\b[Zz]wycięzcy\b[^;]*" + LIST
)
"""A list of names as the subject of a masculine-personal plural past ("{players} osiągnęli razem", "zanim spasowali:
{players}") or under the men's plural noun ("zwycięzcy (ex aequo): {names}"): wrong for one name ("Łucja
osiągnęli") and for women only ("osiągnęły", "zwyciężczynie"); the list stands after a neutral lead-in instead
("remis, po 5 PZ: Łucja, Ann", "pas: Łucja", "wspólne zwycięstwo: Łucja, Ann")."""


def gendered(text: str) -> list[str]:
    """The pieces of ``text`` that give a player a man's grammatical gender, or a list of names the men's plural."""
    return [m.group(0) for pattern in (MASCULINE_PAST, MASCULINE_NOUN, MEN_PLURAL) for m in pattern.finditer(text)]


@pytest.mark.parametrize("text", [
    "{player} zbudował {card} na {cell}?",
    "{player} nie wykonał akcji w roku {year}, rundzie {round}",
    "{player} wybrał już fazę",
    "{player} spasował: dozwolona jest tylko reakcja",
    "Zwycięzca: {names}",
    "zwycięzca: {names}",
    "miejsce gracza {player} zajął ten telefon",
    "{tile} nie jest w strefie budowy gracza {player}",
    "brak zgłoszonego przydziału dla gracza {player}",
    "na {sector} jest już dysk wpływu gracza {owner}; na heksie jest jeden dysk",
    "nieznany gracz {player}; gracze: {players}",
    "{objective}: {players} osiągnęli razem {best} PZ; nikt nie punktuje",
    "spasowali: {players}; następną rundę zaczyna: {player}",
    "faza akcji kończy się, zanim spasowali: {players}",
    "zwycięzcy (ex aequo): {names}",
])
def test_a_mans_form_about_a_player_is_found(text):
    assert gendered(text)


@pytest.mark.parametrize("text", [
    "{player} dołącza ({colour}, miejsce {seat})",
    "{player}: zbudowano {card} na {cell}?",
    "{player}: brak akcji w roku {year}, rundzie {round}",
    "{player}: miejsce zajął ten telefon",
    "{player}: miejsca nie zajął żaden telefon",
    "{tile} nie jest w strefie budowy ({player})",
    "nie ma gracza o imieniu {player}",
    "{game} nie ma opcji dla gracza {option} (opcje: {offered})",
    "Wygrywa: {names}",
    "Wspólne zwycięstwo: {names}",
    "ekran odrzucił jasność ({why})",
    "{objective}: remis, po {best} PZ: {players}; nikt nie punktuje",
    "pas: {players}; następną rundę zaczyna: {player}",
    "faza akcji kończy się bez pasu: {players}",
    "wspólne zwycięstwo: {names}",
    "czekamy na: {players}",
])
def test_a_sentence_that_fits_every_player_is_left_alone(text):
    assert gendered(text) == []


def test_no_polish_sentence_gives_a_player_a_mans_form():
    """Every Polish message about a player fits a woman as well as a man: the camera's questions ("Łucja: zbudowano
    Turret na [0, 1]?"), the rules' findings ("Łucja: brak akcji w roku 1, rundzie 1"), the winner ("Wygrywa:
    Łucja"), a phone's seat ("Łucja: miejsce ustalone"); a list of names, which may hold one name or only women's,
    after a neutral lead-in ("pas: Łucja", "spasowali: Łucja" before; "remis, po 5 PZ: Łucja, Ann", "Łucja, Ann
    osiągnęli razem" before)."""
    assert [(english, said) for english, said in pairs("pl") if gendered(said)] == []


UNINFLECTED = re.compile(r"\b(?:z|ze|dla|od|do|u|bez|przy|przeciw|przeciwko|wobec|między|przez|o) "
                         r"\{(?:player|other|winner|who|holder|owner)\}")
"""A player's name after a preposition that asks for another case ("z {other}": "z Bob" for "z Bobem", "z Łucja" for
"z Łucją"): the box cannot inflect a name, so the name stands in the nominative ("{other} i ty …")."""


@pytest.mark.parametrize("text, found", [
    ("nie masz stosunków dyplomatycznych z {other}: tu zgłasza się tylko atak", True),
    ("brak przydziału dla {player}", True),
    ("{other} i ty nie macie stosunków dyplomatycznych", False),
    ("{card}: energię wzięto z {cell}, czyli z reaktora", False),
])
def test_a_name_after_a_preposition_that_inflects_it_is_found(text, found):
    assert bool(UNINFLECTED.search(text)) is found


def test_the_diplomacy_refusal_names_the_other_player_as_the_table_wrote_the_name():
    """Eclipse 1.2, Diplomacy: attacking a player you have no relations with is refused naming them. Polish said "nie
    masz stosunków dyplomatycznych z Bob" (the name left in the nominative after "z", which asks for "z Bobem"); the
    name now opens the sentence as written: "Bob i ty nie macie stosunków dyplomatycznych: …". The sectors and cells
    that {other} names in other messages ("z {other}" of a wormhole, a reactor) are not players."""
    english = ("you have no diplomatic relations with {other}: only an attack on a player you exchanged Ambassadors "
               "with is reported here (the Ambassadors go back and the attacker takes the Traitor card: Eclipse 1.2, "
               "Diplomacy)")
    said = dict(pairs("pl"))[english]
    assert said.startswith("{other} i ty nie macie stosunków dyplomatycznych") and not UNINFLECTED.search(said)
    players_named = [(e, s) for e, s in pairs("pl") if re.search(r"\{(?:player|winner|who|holder|owner)\}", s)]
    assert [(e, s) for e, s in players_named if UNINFLECTED.search(s)] == []


def test_every_polish_race_message_calls_a_development_technologia():
    """The Polish Race for the Galaxy rulebook calls a development card "technologia" (its components: "technologia",
    "świat"; II Rozwój, "dodaje wybraną technologię do swego układu kart"): every Polish message of Race's rules and
    flow that names a development says it so, one word for the idea ("Rozwój" stays the phase's name)."""
    import re

    from tests.catalogs import catalog

    def of_race(message) -> bool:
        return message.context == "Race for the Galaxy" or any(
            loc.startswith(("rules/race/", "companion/flows/race")) for loc, _line in message.locations)

    naming = [(m.id, m.string) for m in catalog("pl") if m.id and of_race(m)
              and re.search(r"\bdevelopments?\b", PLACEHOLDER.sub("", m.id if isinstance(m.id, str) else m.id[0]))]
    assert len(naming) >= 6  # the score row, the 6-cost rules, the copy found twice
    assert [(i, s) for i, s in naming if "technologi" not in (s if isinstance(s, str) else s[0]).lower()] == []


PL_NAMES = ("Pradawnych", "Ula", "Kapliczki Oświecenia", "Centrum Galaktyki")
"""Polish names of one thing in Eclipse: the Ancients (Pradawni), the Ancient Hive (Ul), the Shrines of Enlightenment,
the Galactic Center."""


@pytest.mark.parametrize("english, said, found", [
    ("resources: Money + Science + Materials", "zasoby: Pieniądze + Nauka + Materiały",
     ["Pieniądze + Nauka + Materiały"]),
    ("resources: Money + Science + Materials", "zasoby: pieniądze + nauka + materiały", []),
    ("Ancient ships", "Statki Pradawnych", []),
    ("the Galactic Center", "Centrum Galaktyki", []),
])
def test_a_polish_title_cased_label_is_found(english, said, found):
    assert title_cased(english, said, PL_NAMES) == found


def test_polish_labels_are_in_sentence_case():
    """Polish writes common nouns in lowercase inside a sentence: Eclipse's tie-break reads "zasoby: pieniądze + nauka
    + materiały" (End of the game: the most resources; "Pieniądze + Nauka + Materiały" before)."""
    assert [(english, said) for english, said in pairs("pl") if title_cased(english, said, PL_NAMES)] == []


CARD_PARTICIPLE = re.compile(r"(?:^|: )\{(?:card|world)\} \w+(?:na|ta|ny|ty|ne|te)\b")
"""A card's bare name followed by a past participle of one gender ("{card} położona", "{card} użyta"): the
participle agrees with a noun the sentence never says (a world is "świat", masculine). The impersonal "położono",
"odrzucono", "użyto" needs no agreement."""

CARD_PRONOUN = re.compile(r"\b(?:jej|ją|jego|go)\b")
"""A pronoun standing for the card ("poza jej pierwszym wyłożeniem"): it agrees with a noun the sentence must say
("do świata {card} poza jego …", "użyto karty {card} …, w której ją położono")."""


@pytest.mark.parametrize("text, found", [
    ("{card} położona poza fazą {phase} (teraz: {now})", True),
    ("{card}: położono poza fazą {phase} (teraz: {now})", False),
    ("{card} użyta w fazie, w której ją położono; jej zdolność działa od następnej fazy", True),
    ("użyto karty {card} w fazie, w której ją położono; jej zdolność działa od następnej fazy", False),
    ("towar windfall dodany do {card} poza jej pierwszym wyłożeniem", True),
    ("towar windfall dodany do świata {card} poza jego pierwszym wyłożeniem", False),
])
def test_a_card_left_to_agree_with_an_unsaid_noun_is_found(text, found):
    assert bool(CARD_PARTICIPLE.search(text) or bare_card_pronoun(text)) is found


def bare_card_pronoun(text: str) -> bool:
    """``text`` names a card bare and stands a pronoun for it, and never says the noun the pronoun agrees with."""
    return bool(CARD_PRONOUN.search(text)) and not re.search(r"\b(?:kart|świat)\w*", text)


def test_no_polish_race_or_roll_message_leaves_a_card_to_agree_with_an_unsaid_noun():
    """"Spice World położona poza fazą Kolonizacja", "towar windfall dodany do Gem World poza jej pierwszym
    wyłożeniem": a feminine participle or pronoun for a world (świat); every Polish message of the Race and Roll
    rules and flows says the card's noun or the impersonal form."""
    from tests.catalogs import ROOT, forms, messages_saying, said_in

    said = (said_in(*(ROOT / "rules" / "race").glob("*.py"), ROOT / "companion" / "flows" / "race.py", problems="race")
            | said_in(*(ROOT / "rules" / "roll").glob("*.py"), ROOT / "companion" / "flows" / "roll.py",
                      problems="roll"))
    naming = [text for message in messages_saying("pl", said) for text in forms(message.string)
              if re.search(r"\{(?:card|world)\}", text)]
    assert len(naming) >= 30
    assert [text for text in naming if CARD_PARTICIPLE.search(text) or bare_card_pronoun(text)] == []


NAME_AFTER_PREPOSITION = re.compile(
    r"(?<![\w-])(?:na|w|we|do|z|ze|od|dla|o|przy|po|pod|nad|przed|za|bez|u|między|przez|ku) [„\"]?"
    r"\{(card|world|tile|home|location|sector|hex|reactor|species|objective|structure|guardian|development|discovery"
    r"|tech|alliance|race|other|game|path|folder|parent|db|box|demo|device|spec|host|option)(?:!r)?\}(?![.\[])", re.I)
"""A printed name right after a Polish preposition ("na {card} jest już towar", "z {other}", "w {folder}"): the
preposition asks for a case ("na świecie", "z heksem", "w folderze") and the box cannot inflect "Spice World" or
"photos/red-1", so the name stands after a Polish noun in that case. A position in a score file
("{other}.controlled_hexes") is code, not a name."""


def uninflected_names(english: str, polish: str) -> list[str]:
    """The names in ``polish`` right after a preposition; ``{other}`` where ``english`` says "at {other}" is a cell
    ("na [0, 1]"), not a name."""
    return [m.group(0) for m in NAME_AFTER_PREPOSITION.finditer(polish)
            if not (m.group(1) == "other" and re.search(r"\bat \{other\}", english))]


@pytest.mark.parametrize("english, polish, found", [
    ("{card} already holds a good; a world holds at most one", "na {card} jest już towar; świat ma najwyżej jeden",
     True),
    ("{card} already holds a good; a world holds at most one",
     "na świecie {card} jest już towar; świat ma najwyżej jeden", False),
    ("{sector} at {cell} makes a full wormhole with {other}", "{sector} na {cell} tworzy pełny tunel z {other}", True),
    ("{sector} at {cell} makes a full wormhole with {other}", "{sector} na {cell} tworzy pełny tunel z heksem {other}",
     False),
    ("{n} cube from the {reactor} at {cell}, {left} left", "{n} kostka z {reactor} na {cell}", True),
    ("{n} cube from the {reactor} at {cell}, {left} left", "{n} kostka z karty {reactor} na {cell}", False),
    ("back to {folder}", "z powrotem do {folder}", True),
    ("back to {folder}", "z powrotem do folderu {folder}", False),
    ("the {reactor} at {other} is {far}", "{reactor} na {other} jest {far}", False),
    ("hex {hex} is also in {other}.controlled_hexes", "heks {hex} jest też w {other}.controlled_hexes", False),
])
def test_a_name_left_uninflected_after_a_preposition_is_found(english, polish, found):
    assert bool(uninflected_names(english, polish)) is found


def test_every_polish_message_names_a_card_world_hex_or_file_after_a_polish_noun():
    """Race said "na Spice World jest już towar", Roll "na Alpha Centauri nie ma towaru do wysłania", Eclipse
    "tworzy pełny tunel z 105", Among the Stars "kostka z Main Reactor", the command line "z powrotem do photos/red-1":
    English names left in the nominative where Polish inflects. Every Polish message puts such a name after a noun in
    the preposition's case: "na świecie Spice World", "z heksem 105", "z karty Main Reactor", "do folderu
    photos/red-1", "w pliku {path}"."""
    checked = [(english, polish) for english, polish in pairs("pl")
               if re.search(r"\{(?:card|world|sector|reactor|folder|path)\}", english)]
    assert len(checked) >= 250
    assert [(english, polish) for english, polish in pairs("pl") if uninflected_names(english, polish)] == []
