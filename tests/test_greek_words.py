"""Greek sentences about a player fit every player (the box's Greek catalog).

"ο παίκτης Ζωή μπήκε" gives Ζωή a man's article and noun ("the (male) player Zoe joined"), and so do "Ο παίκτης
Ελένη έχτισε…;" and "Μαρία … φτάνει πρώτος" (a man's "first"). A sentence whose subject is a player's name starts
with the name, with no article, and Greek verbs say nothing of the speaker's gender: "Ζωή μπήκε (κόκκινο, θέση 1)",
"Νίκος κατακτά Rebel Warrior Race (άμυνα 3) με μόνο 2 Στρατό"."""

from __future__ import annotations

import re

import pytest

from tests.catalogs import ROOT, forms, messages_saying, pairs, said_in

NAMED = r"\{(?:player|players|holder|holders|names|winner|who|owner)\}"
"""The placeholders a player's name (or the players' names) fills."""

MASCULINE_SUBJECT = re.compile(r"\b[Οο] (?:παίκτης )?" + NAMED + r"|" + NAMED + r"[^·:;,()]*\bπρώτος\b")
"""A player's name as a subject under a man's article ("ο παίκτης {player}", "την έχει ο {holder}") or with a man's
"first" ("{player} φτάνει πρώτος")."""


MASCULINE_NAMED = re.compile(r"(?<!/)\b(?:[Ττ]ου|[Ττ]ον|[Σσ]του|[Σσ]τον) " + NAMED
                             + r"|(?<!ανά )\bπαίκτη(?:ς)? \{|\bπαίκτες \{")
"""A player's name anywhere else under a man's article or noun: whose it is ("η θέση του παίκτη {player}", "τη
θέση του {player}"), for or to whom ("για τον παίκτη {player}", "με τον παίκτη {other}"), "παίκτης {player}" and
"οι παίκτες {player} και {other}" (a man's plural). "ανά παίκτη {option}" (an option per player, not a name) is left
alone."""

BOTH_ARTICLES = re.compile(r"\b(?:[Ττ]ου/της|[Ττ]ης/του|[Οο]/[Ηη]|[Ηη]/[Οο]|[Ττ]ον/την|[Ττ]ην/τον) " + NAMED)
"""A player's name under both articles ("η θέση του/της {player}", "ο/η {player} πατά"): a form for filling in, not a
sentence about the player at the table; the name opens the sentence or stands on its own instead ("{player}: η θέση
πέρασε …", "{player} πατά …")."""


PLURAL_NAMED = re.compile(r"(?<!/)\b(?:[Ττ]ων|[Σσ]των|[Οο]ι|[Ττ]ους|[Σσ]τους) " + NAMED)
"""Names under a plural article ("τη θέση των {players}", "αναμονή για … των {names}"): the placeholder is filled with
a list of one name or more ("Ζωή" alone, "Ζωή και Νίκος"), so "των Ζωή" is wrong for one player, and Greek gives a
name no article anyway; the list stands after a colon instead ("…: Ζωή και Νίκος")."""

TAPPED_PLAYER_HIS = re.compile(r"\bέναν παίκτη\b[^.;:]*\bτ(?:ου|ον)\b")
"""A player the table picks on the screen, then named "his" ("Πατήστε έναν παίκτη, μετά τη θέση του"): the player
tapped may be Ζωή; the name tapped is an "όνομα", whose "του" fits everyone."""


def gendered(text: str) -> list[str]:
    """The pieces of ``text`` that give a player named in it a man's grammatical gender (as the subject, as whose
    something is, or as an object), both genders' articles, or a plural article for what may be one name."""
    return [m.group(0) for pattern in (MASCULINE_SUBJECT, MASCULINE_NAMED, BOTH_ARTICLES, PLURAL_NAMED,
                                       TAPPED_PLAYER_HIS)
            for m in pattern.finditer(text)]


@pytest.mark.parametrize("text", [
    "ο παίκτης {player} μπήκε ({colour}, θέση {seat})",
    "Ο παίκτης {player} έχτισε {card} στο {cell};",
    "{player} δεν έχει την Κάρτα (την έχει ο {holder}: την παίρνει ο δεύτερος παίκτης)",
    "{objective}: {player} φτάνει πρώτος τους {threshold} ΠΝ",
    "η θέση του παίκτη {player} ορίστηκε",
    "{tile}: δεν είναι στο ταμπλό του παίκτη {player}",
    "δηλώθηκαν {reported} {colour} ζάρια για τον παίκτη {player}",
    "πατήστε τη θέση του {player} σε αυτό το τηλέφωνο",
    "δεν αναφέρει πια για τον {player}",
    "δεν έχετε διπλωματικές σχέσεις με τον παίκτη {other}",
    "ο τομέας {sector} έχει ήδη τον Δίσκο Επιρροής του παίκτη {owner}",
    "δεν υπάρχει παίκτης {player}",
    "οι παίκτες {player} και {other} έχουν ήδη σχέσεις",
    "η θέση του/της {player} πέρασε στο τηλέφωνο που τη ζήτησε",
    "ο/η {player} πατά «Παραίτηση από τη θέση μου» σε εκείνο το τηλέφωνο",
    "πατήστε τη θέση των {players} στην εικόνα ή Εξίσου μοιρασιά",
    "αναμονή για τις κάρτες δράσης των {names}",
    "η Φάση Ενεργειών τελειώνει πριν πάνε πάσο οι {players}",
    "Πατήστε έναν παίκτη, μετά τη θέση του στην εικόνα",
])
def test_a_mans_article_or_word_for_a_player_is_found(text):
    assert gendered(text)


@pytest.mark.parametrize("text", [
    "{player} μπήκε ({colour}, θέση {seat})",
    "{player} έχτισε {card} στο {cell};",
    "{objective}: {player} φτάνει πρώτα στους {threshold} ΠΝ",
    "κάθε παίκτης επιλέγει ακριβώς μία",
    "την παίρνει ο δεύτερος παίκτης που πάει πάσο",
    "{player}: η θέση ορίστηκε",
    "{tile}: δεν είναι στο ταμπλό ({player})",
    "{player}: η θέση είναι ελεύθερη: το τηλέφωνο με το οποίο παίζει {player} πατά {player} για να την πάρει",
    "Παίζει {player} (δεξιόστροφα)",
    "{player} και {other} έχουν ήδη σχέσεις",
    "δεν υπάρχει παίκτης με το όνομα {player}",
    "{player}: η θέση πέρασε στο τηλέφωνο που τη ζήτησε",
    "Παραίτηση από τη θέση μου",
    "το {game} δεν έχει επιλογή ανά παίκτη {option}",
    "ο τομέας {sector} σχηματίζει πλήρη σκουληκότρυπα με τον {other}",
    "πατήστε στην εικόνα τη θέση για κάθε όνομα ({players}) ή Εξίσου μοιρασιά",
    "αναμονή για τις κάρτες δράσης: {names}",
    "Πατήστε ένα όνομα, μετά τη θέση του στην εικόνα",
    "Η ζώνη κάθε παίκτη έχει περίγραμμα στο χρώμα του",
    "μία φυλή ανά παίκτη, με τη σειρά των θέσεων",
])
def test_a_sentence_that_fits_every_player_is_left_alone(text):
    assert gendered(text) == []


def test_no_greek_sentence_makes_a_player_a_man():
    """Every Greek message naming a player fits a woman as well as a man, without both articles: a player joining
    ("Ζωή μπήκε"), the rules' findings ("Ζωή κατακτά …", "{tile}: δεν είναι στο ταμπλό (Ζωή)"), the camera's
    questions ("Ελένη έχτισε Turret στο [0, 1];"), a phone's seat ("Ζωή: η θέση ορίστηκε"), a seat another phone
    holds ("Ζωή: η θέση ανήκει σε άλλο τηλέφωνο", "η θέση του/της Ζωή" before); a list of names, which may hold one,
    after a colon ("αναμονή για την επιλογή φάσης: Ζωή", "… των Ζωή" before); the setup's "Πατήστε ένα όνομα, μετά τη
    θέση του" ("έναν παίκτη, μετά τη θέση του": his, before)."""
    assert [(english, said) for english, said in pairs("el") if gendered(said)] == []


TILE = r"\{(?:development|discovery|structure|tech|guardian)\}"
"""The placeholders an Eclipse tile's or piece's name fills: a Development ("Διπλωματικός Στόλος", "Αποικία
Εξόρυξης", "Αρχαίο Μνημείο": Greek rulebook p.5, p.20), a Discovery ("Αρχαία Τροχιά", p.8), a structure built or laid
("Μονόλιθος", "Τροχιά", "Βωμός"), a technology, a guardian ("Αρχαίο Θωρηκτό", p.6)."""

ARTICLE_BEFORE_TILE = re.compile(r"(?<!\w)(?:[Οο]|[Ηη]|[Ττ]ο|[Ττ]ον|[Ττ]ην?|[Ττ]ου|[Ττ]ης|[Οο]ι|[Ττ]α|[Ττ]ους|[Ττ]ις"
                                 r"|[Ττ]ων|[Σσ]τ(?:ο|ον|ην?|ου|ης|ους|ις|α|ων)|[Έέ]ναν?|[Μμ]ια|[Μμ]ία) [«\"]?" + TILE)
"""An article right before a tile's name ("κρατά επίσης την {development}", "είναι το {structure}"): it fits the
names of one gender only (την Αποικία Εξόρυξης, but not την Διπλωματικός Στόλος). The name stands after the noun it
is ("το πλακίδιο {structure}", "την Ανάπτυξη {development}", whose article is the noun's), with no article, or after
a colon."""


@pytest.mark.parametrize("text, found", [
    ("το {other} κρατά επίσης την {development}· κάθε Πλακίδιο Ανάπτυξης είναι μοναδικό", True),
    ("Κατασκευή: σε ποιο εξάγωνο [q, r] είναι το {structure};", True),
    ("καταστρέψτε πρώτα το {guardian}", True),
    ("{holder} έχει την Ανάπτυξη {development}", False),
    ("υπάρχει ένα πλακίδιο {structure}, και είναι ήδη στον χάρτη", False),
    ("{development}: Τεχνουργήματα σε εξάγωνα που ελέγχετε", False),
])
def test_an_article_before_a_tiles_name_is_found(text, found):
    assert bool(ARTICLE_BEFORE_TILE.search(text)) is found


def test_no_greek_sentence_gives_a_tile_the_gender_of_another():
    """Every Greek message naming an Eclipse tile reads right whatever its name's gender: a Development another
    player holds ("κρατά επίσης το Πλακίδιο Ανάπτυξης Διπλωματικός Στόλος"; "την Διπλωματικός Στόλος" before), the
    hex a Monolith or an Orbital is built on ("το πλακίδιο Μονόλιθος"; "το Μονόλιθος", "το Τροχιά" before), a guardian
    still on a hex."""
    assert [(english, said) for english, said in pairs("el") if ARTICLE_BEFORE_TILE.search(said)] == []


FIELD_ARTICLE = re.compile(r"(?<!\w)(?:[Οο]|[Ηη]|[Ττ]ο|[Ττ]ον|[Ττ]ην?|[Ττ]ου|[Ττ]ης) [«\"']?\{field\}")
"""An article right before a form field's label ("λείπει το {field}"): the labels have every gender (η Φατρία, ο
Αρχικός κόσμος, το Πλακίδιο, η Κάρτα), so "λείπει το Φατρία" gave a feminine label a neuter article. The label stands
after the noun "πεδίο" (field), whose article is its own: "λείπει το πεδίο Φατρία"."""


@pytest.mark.parametrize("text, found", [
    ("λείπει το {field}", True),
    ("το {field} πρέπει να είναι κείμενο έως 100 χαρακτήρων", True),
    ("λείπει το πεδίο {field}", False),
    ("{form}: άγνωστο πεδίο {field}· πεδία: {fields}", False),
])
def test_an_article_before_a_fields_label_is_found(text, found):
    assert bool(FIELD_ARTICLE.search(text)) is found


def test_no_greek_sentence_gives_a_fields_label_the_gender_of_another():
    """A report sent without its faction read "Προετοιμασία: λείπει το Φατρία" (a neuter article before a feminine
    label); a card name over 100 characters "το Κάρτα …". Every Greek message naming a form's field reads right
    whatever the label's gender."""
    assert [(english, said) for english, said in pairs("el") if FIELD_ARTICLE.search(said)] == []


FIELD_ADJECTIVE = re.compile(r"\{field\} \((?:προαιρετικ|υποχρεωτικ)(?:ό|ή|ός)\)")
"""A gendered adjective right after a form field's label ("{field} (προαιρετικό)"): a neuter "optional" after a
feminine label read "Φατρία (προαιρετικό)". The adverb "προαιρετικά" (optionally) fits labels of every gender."""


@pytest.mark.parametrize("text, found", [
    ("{field} (προαιρετικό)", True),
    ("{field} (προαιρετική)", True),
    ("{field} (προαιρετικά)", False),
])
def test_a_gendered_adjective_after_a_fields_label_is_found(text, found):
    assert bool(FIELD_ADJECTIVE.search(text)) is found


def test_no_greek_sentence_gives_a_fields_label_a_gendered_adjective():
    """A Roll setup form's optional faction read "Φατρία (προαιρετικό)", a neuter adjective after a feminine label;
    every Greek message that marks a field optional reads right whatever the label's gender."""
    assert [(english, said) for english, said in pairs("el") if FIELD_ADJECTIVE.search(said)] == []


REACTOR_NAMED = re.compile(r"\b(?:[Οο]|[Ττ]ον|[Ττ]ου) \{(?:reactor|card)\}")
"""A reactor's card name under the article of "ο αντιδραστήρας" (masculine, as the catalog already says "ένας Power
Reactor", "ορίστηκαν … από αυτόν"): "ο Main Reactor στο [0, 0] έχει 2 κύβους", "από τον Main Reactor"."""

REACTOR_MESSAGES = re.compile(r"\bthe \{reactor\}|\bthe \{card\} must be at \[0, 0\]")
"""The English messages that name one reactor of a station as "the {reactor}" (and the Main Reactor placed away from
[0, 0], whose ``{card}`` is always a Main Reactor: ``rules/problems.py`` ``among.main_reactor_cell``)."""


@pytest.mark.parametrize("text, found", [
    ("{card}: ο {reactor} στο {cell} έχει {n} κύβους ενέργειας", True),
    ("{n} κύβος από τον {reactor} στο {cell}", True),
    ("{card}: {reactor} στο {cell} έχει {n} κύβους ενέργειας", False),
    ("{n} κύβος από {reactor} στο {cell}", False),
])
def test_a_reactors_article_is_found(text, found):
    assert bool(REACTOR_NAMED.search(text)) is found


def test_every_greek_message_names_the_reactor_with_its_article():
    """"Main Reactor στο [0, 0] έχει 2 κύβους" (Among the Stars' energy choices) read without the article Greek needs
    before a noun that is the subject or the object of "από"; the English "the {reactor}" is "ο {reactor}" / "τον
    {reactor}" in every Greek message, masculine as "ο αντιδραστήρας" (a reactor's card name stays the edition's
    English: the seeds hold no Greek Among the Stars rulebook)."""
    missing = [(english, said) for english, said in pairs("el")
               if REACTOR_MESSAGES.search(english) and not REACTOR_NAMED.search(said)]
    assert missing == []
    assert sum(1 for english, _said in pairs("el") if REACTOR_MESSAGES.search(english)) >= 8


CARD_NAMED = re.compile(r"(?<!\w)([Οο]|[Ηη]|[Ττ]ο|[Ττ]ον|[Ττ]ην?|[Ττ]ου|[Ττ]ης|[Οο]ι|[Ττ]α|[Ττ]ους|[Ττ]ις|[Ττ]ων"
                        r"|[Σσ]τ(?:ο|ον|ην?|ου|ης|ους|ις|α|ων)) [«\"]?\{(?:card|world|tile|home|other)(?:!r)?\}")
"""An article right before a Race card's or a Roll tile's name (its card names are printed in English in the Greek
editions, so the article is the one of what the card is): a world is "ο κόσμος" (masculine), a development "η
ανάπτυξη" (Roll: "η τεχνολογία"), a card of either kind "η κάρτα"; no Race card or Roll tile side is neuter."""

WORLD_ARTICLES = {"ο", "τον", "στον", "του"}
"""The articles of "ο κόσμος" (nominative, accusative, σε + accusative, genitive)."""

NOMINATIVE_AFTER_PREPOSITION = re.compile(r"\b(?:για|από|με|χωρίς|ως|σε) [Οο] \{")
"""A nominative article after a preposition ("για ο {card}"): Greek prepositions take the accusative ("τον")."""


def wrong_card_articles(english: str, greek: str) -> list[str]:
    """The articles before a card's name in ``greek`` that do not agree with what the card is: only a world's
    masculine ones, and only where ``english`` says the card is a world (or holds goods: goods lie on worlds);
    any nominative after a preposition."""
    bare = re.sub(r"\{\w+(?:![rs])?\}", "", english)
    world = re.search(r"\bworlds?\b|\bgoods?\b", bare, re.I)
    wrong = [m.group(0) for m in CARD_NAMED.finditer(greek) if not (world and m.group(1).lower() in WORLD_ARTICLES)]
    return wrong + [m.group(0) for m in NOMINATIVE_AFTER_PREPOSITION.finditer(greek)]


@pytest.mark.parametrize("english, greek, wrong", [
    ("a windfall good added to {card} outside its first placement",
     "προϊόν απρόσμενου κέρδους προστέθηκε στο {card} εκτός της πρώτης τοποθέτησής του", True),
    ("a windfall good added to {card} outside its first placement",
     "προϊόν απρόσμενου κέρδους προστέθηκε στον {card} εκτός της πρώτης τοποθέτησής του", False),
    ("{card} is in play {count} times but the deck has {most}", "το {card} είναι στο παιχνίδι {count} φορές", True),
    ("{card} is in play {count} times but the deck has {most}", "ο {card} είναι στο παιχνίδι {count} φορές", True),
    ("{card} is in play {count} times but the deck has {most}", "{card}: είναι στο παιχνίδι {count} φορές", False),
    ("{world} is a gray world, which holds no goods", "το {world} είναι γκρι κόσμος", True),
    ("{world} is a gray world, which holds no goods", "ο {world} είναι γκρι κόσμος", False),
    ("{player}'s start world is {card}?", "{player}: ο αρχικός κόσμος είναι ο {card};", False),
    ("{player} pays for the military world {card}", "{player} πληρώνει για ο {card}", True),
    ("no good lies on {card} in {player}'s tableau", "{player}: δεν υπάρχει προϊόν πάνω στην κάρτα {card}", False),
    ("{tile} and {other} are the two sides of one tile", "τα {tile} και {other} είναι οι δύο πλευρές", True),
])
def test_an_article_that_does_not_fit_the_card_is_found(english, greek, wrong):
    assert bool(wrong_card_articles(english, greek)) is wrong


def test_every_greek_race_and_roll_message_names_a_card_with_the_article_of_what_it_is():
    """Greek Race for the Galaxy said "προϊόν απρόσμενου κέρδους προστέθηκε στο Gem World" and "ένα προϊόν πάνω στο
    Spice World", a neuter article before a world ("ο κόσμος"), and "το Contact Specialist είναι στο παιχνίδι 3
    φορές" before a development ("η ανάπτυξη"); Roll "το Space Piracy είναι τεχνολογία", "2 προϊόντα στο Alpha
    Centauri". Every Greek message of the Race and Roll rules and flows names a world "ο/τον/στον {card}", any other
    card after its noun ("στην κάρτα {card}", "το πλακίδιο {tile}") or with no article ("{card}: …")."""
    said = (said_in(*(ROOT / "rules" / "race").glob("*.py"), ROOT / "companion" / "flows" / "race.py", problems="race")
            | said_in(*(ROOT / "rules" / "roll").glob("*.py"), ROOT / "companion" / "flows" / "roll.py",
                      problems="roll"))
    checked = [(forms(message.id)[min(k, len(forms(message.id)) - 1)], greek)
               for message in messages_saying("el", said) for k, greek in enumerate(forms(message.string)) if greek]
    assert len(checked) >= 150
    assert [(english, greek) for english, greek in checked if wrong_card_articles(english, greek)] == []
    worlds = [greek for _english, greek in checked if CARD_NAMED.search(greek)]
    assert len(worlds) >= 8, worlds


ARTICLE = (r"(?<!\w)(?:[Οο]|[Ηη]|[Ττ]ο|[Ττ]ον|[Ττ]ην?|[Ττ]ου|[Ττ]ης|[Οο]ι|[Ττ]α|[Ττ]ους|[Ττ]ις|[Ττ]ων"
           r"|[Σσ]τ(?:ο|ον|ην?|ου|ης|ους|ις|α|ων)|[Έέ]ναν?|[Μμ]ια|[Μμ]ία)")
"""A Greek article, alone or joined to "σε" (στο, στη, στον), in every gender, case and number."""

GAME_NAME_AFTER_ARTICLE = re.compile(
    r"(" + ARTICLE + r") [«\"]?\{(card|world|tile|home|sector|hex|species|objective|structure|guardian|development"
    r"|discovery|tech|alliance|location|race|action|reactor|holder|other)(?:!r)?\}")
"""An article right before the name of a thing of Eclipse or Among the Stars: a sector, a species ("Rho Indi
Syndicate"), an objective, a card, an action, a position in a score file ("players[1]", "map[3]")."""

SECTOR_OR_REACTOR = {"ο", "τον", "στον", "του"}
"""The articles of "ο τομέας" (a sector) and "ο αντιδραστήρας" (a reactor), both masculine."""


def wrong_game_name_articles(english: str, greek: str) -> list[str]:
    """The articles before a name of Eclipse or Among the Stars in ``greek`` that cannot agree with every name the
    placeholder takes: any article, except a sector's or a reactor's masculine one (and the Main Reactor's, which
    ``REACTOR_MESSAGES`` names as a ``{card}``); ``{other}`` where ``english`` says "at {other}" is a cell, not a
    name."""
    wrong = []
    for m in GAME_NAME_AFTER_ARTICLE.finditer(greek):
        article, name = m.group(1).lower(), m.group(2)
        if name == "other" and re.search(r"\bat \{other\}", english):
            continue
        if article in SECTOR_OR_REACTOR and (name in ("sector", "reactor")
                                             or (name == "card" and REACTOR_MESSAGES.search(english))):
            continue
        wrong.append(m.group(0))
    return wrong


@pytest.mark.parametrize("english, greek, wrong", [
    ("{sector} at {cell} makes a full wormhole with {other}",
     "ο τομέας {sector} στο {cell} σχηματίζει πλήρη σκουληκότρυπα με τον {other}", True),
    ("{sector} at {cell} makes a full wormhole with {other}",
     "ο τομέας {sector} στο {cell} σχηματίζει πλήρη σκουληκότρυπα με τον τομέα {other}", False),
    ("Traitor card; the {species} lose nothing", "Κάρτα Προδότη· οι {species} δεν χάνουν τίποτα", True),
    ("Traitor card; the {species} lose nothing", "Κάρτα Προδότη· η φυλή {species} δεν χάνει τίποτα", False),
    ("{objective} is listed twice", "το {objective} αναφέρεται δύο φορές", True),
    ("{objective} is listed twice", "ο στόχος {objective} αναφέρεται δύο φορές", False),
    ("no map tile at {cell}: a {action} goes to a hex on the map", "μια {action} πηγαίνει σε εξάγωνο", True),
    ("{other} holds {development} too", "το {other} κρατά επίσης το Πλακίδιο Ανάπτυξης {development}", True),
    ("{player}'s starting sector {sector} at {cell}?", "{player}: ο αρχικός τομέας είναι ο {sector} στο {cell};",
     False),
    ("the {reactor} at {cell}", "ο {reactor} στο {cell}", False),
    ("{card} at {cell}: the {reactor} at {other} is {far}", "{card} στο {cell}: ο {reactor} στο {other} είναι {far}",
     False),
])
def test_an_article_that_does_not_fit_every_name_is_found(english, greek, wrong):
    assert bool(wrong_game_name_articles(english, greek)) is wrong


def test_every_greek_eclipse_and_among_the_stars_message_names_a_thing_after_its_noun():
    """"σχηματίζει πλήρη σκουληκότρυπα με τον 105" read as a man's name, "οι Rho Indi Syndicate δεν χάνουν τίποτα" gave
    one species a plural article, "το Accelerated Construction αναφέρεται δύο φορές" an objective (ο στόχος) a
    neuter one. Every Greek message of Eclipse's and Among the Stars' rules and flows names a sector "τον τομέα
    {other}", a species "η φυλή {species}", an objective "ο στόχος {objective}", a position in a score file with no
    article ("players[1]: κρατά επίσης …"); a sector or a reactor alone keeps its masculine article."""
    eclipse = said_in(*(ROOT / "rules" / "eclipse").glob("*.py"), *(ROOT / "companion" / "flows").glob("eclipse*.py"),
                      problems="eclipse")
    among = said_in(*(ROOT / "rules" / "among_the_stars").glob("*.py"), ROOT / "companion" / "flows" / "among.py",
                    problems="among")
    for said, at_least in ((eclipse, 400), (among, 150)):
        checked = [(forms(message.id)[min(k, len(forms(message.id)) - 1)], greek)
                   for message in messages_saying("el", said) for k, greek in enumerate(forms(message.string)) if greek]
        assert len(checked) >= at_least
        assert [(english, greek) for english, greek in checked if wrong_game_name_articles(english, greek)] == []


FILE_AFTER_ARTICLE = re.compile(ARTICLE + r" [«\"]?\{(?:path|folder|parent|photo|profile|service|db|box|demo|out"
                                          r"|device)(?:!r)?\}")
"""An article right before a file's, a folder's, a service's or a device's name ("στο {folder}", "το {path}"): a
folder is "ο φάκελος", a path "η διαδρομή", a photo "η φωτογραφία", a service "η υπηρεσία", and a path may be a
folder or a file. The name stands after its noun: "στον φάκελο {folder}", "το αρχείο {path}", "η διαδρομή {path}"."""

CAMERA_AFTER_ARTICLE = re.compile(ARTICLE + r" \{name\}")
"""An article right before a camera's name ("η {name}" in one message, "το {name}" in another, for one camera): it
stands after "η κάμερα" (or "η πηγή", a replay)."""


@pytest.mark.parametrize("text, found", [
    ("πίσω στο {folder}", True),
    ("πίσω στον φάκελο {folder}", False),
    ("το {path} είναι φάκελος: δώστε όνομα αρχείου", True),
    ("η διαδρομή {path} είναι φάκελος: δώστε όνομα αρχείου", False),
    ("κρατήθηκε το {photo}", True),
    ("κρατήθηκε η φωτογραφία {photo}", False),
    ("το {service} τρέχει", True),
    ("η υπηρεσία {service} τρέχει", False),
])
def test_an_article_before_a_files_name_is_found(text, found):
    assert bool(FILE_AFTER_ARTICLE.search(text)) is found


def test_no_greek_sentence_gives_a_file_folder_or_camera_an_article_of_its_own():
    """The command line and the box's health lines said "πίσω στο photos/red-1" (a folder, ο φάκελος, under a neuter
    article), "η picamera2:0 δεν ξεκίνησε" and "το picamera2:0 δίνει καρέ" (one camera, two genders), "το
    companion.service τρέχει". Every Greek message names a folder, a file, a path, a photo, a service, a device and a
    camera after its noun."""
    from tests.catalogs import messages

    named = [(english, greek) for english, greek in pairs("el")
             if re.search(r"\{(?:path|folder|photo|db)\}", english)]
    assert len(named) >= 100
    assert [(english, greek) for english, greek in pairs("el") if FILE_AFTER_ARTICLE.search(greek)] == []
    cameras = [greek for message in messages("el") if "{name}" in forms(message.id)[0]
               and any(where.startswith(("device/", "companion/doctor.py")) for where, _line in message.locations)
               for greek in forms(message.string)]
    assert len(cameras) >= 15
    assert [greek for greek in cameras if CAMERA_AFTER_ARTICLE.search(greek)] == []
