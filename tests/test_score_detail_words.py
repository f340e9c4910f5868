"""A score breakdown's detail (``"33 VP in chips"``) is said in the players' language, with its plural form."""

from __future__ import annotations

from companion.i18n import localize
from rules.race import final_scores as race_scores
from rules.roll.endgame import final_scores
from tests.test_race_scoring import FILLER, game
from tests.test_roll_scoring import player


def _chips_detail(breakdown) -> str:
    return next(line.detail for line in breakdown.lines if line.category == "VP chips")


def test_roll_chips_detail_is_translated() -> None:
    [b] = final_scores({"players": [player(vp_chips=33)]})
    assert _chips_detail(b) == "33 VP in chips"
    assert localize(_chips_detail(b), "pl") == "33 PZ w żetonach"
    assert localize(_chips_detail(b), "el") == "33 ΠΝ σε δείκτες"
    assert localize(_chips_detail(b), "hu") == "33 GYP zsetonokban"


def test_race_chips_detail_is_translated() -> None:
    one, many = race_scores(game(["Old Earth"], FILLER, chips=(1, 5)))
    assert localize(_chips_detail(one), "pl") == "1 PZ w żetonach"
    assert localize(_chips_detail(many), "hu") == "5 GYP zsetonokban"


def test_galactic_renaissance_detail_is_translated() -> None:
    # Roll p.8: Galactic Renaissance gives 1/2/3/4 VP at 1/3/6/10 VP in chips: 7 chips reach step 3
    [b] = final_scores({"players": [player(vp_chips=7, tableau=["Galactic Renaissance"])]})
    detail = next(line.detail for line in b.lines if "Renaissance" in line.category)
    assert localize(detail, "pl") == "7 PZ w żetonach to stopień 3 z 1/3/6/10/15..."


# -- the cost-6 bonuses' details and Eclipse's ships: no English in a translated view ----------------------


def _leaks(text, lang):
    from tests.i18n_walk import leaks

    return leaks([text], lang)


def test_race_six_cost_bonus_detail_is_said_in_the_players_language() -> None:
    """Race for the Galaxy, Mining League: 2 per Rare Elements production world, 1 per Rare Elements windfall world,
    2 for Mining Robots, 2 for Mining Conglomerate (cards.json, as tests/test_race_scoring.py::test_mining_league):
    Comet Zone and Mining World produce, Alpha Centauri and Asteroid Belt are windfalls, so 4 + 2 + 2 + 2 = 10. The
    detail was English in every language ("2 production world (rare) x2 + ...")."""
    [b, _] = race_scores(game(["Alpha Centauri", "Mining League", "Comet Zone", "Mining World", "Asteroid Belt",
                               "Mining Robots", "Mining Conglomerate", "Gem World"], FILLER))
    line = next(line for line in b.lines if "Mining League" in line.category)
    assert line.vp == 10
    assert line.detail == ("Rare Elements production world: 2 x 2 VP + Rare Elements windfall world: 2 x 1 VP + "
                           "Mining Robots: 1 x 2 VP + Mining Conglomerate: 1 x 2 VP")
    said = {lang: localize(line.detail, lang) for lang in ("el", "pl", "hu")}
    assert said["pl"].startswith("świat produkcyjny rzadkich pierwiastków: 2 x 2 PZ + ")
    assert said["el"].startswith("κόσμος παραγωγής Σπάνιων Στοιχείων: 2 x 2 ΠΝ + ")
    assert said["hu"].startswith("ritkaelem termelő világ: 2 x 2 GYP + ")
    assert all(_leaks(text, lang) == [] for lang, text in said.items()), said


def test_roll_six_cost_bonus_formula_is_said_in_the_players_language() -> None:
    """Roll for the Galaxy, Galactic Exchange (p.8; as tests/test_roll_scoring.py): white, purple, red, brown and
    green owned: 5 colours. The formula was English ("5 die colours owned (white, purple, ...)")."""
    [b] = final_scores({"players": [player(vp_chips=2, tableau=["Genetics Lab", "Ancient Race", "Galactic Exchange"],
                                           goods={"Ancient Race": ["green"]}, cup={"white": 3, "purple": 1},
                                           citizenry={"red": 2}, zone={"brown": 1})]})
    line = next(line for line in b.lines if "Galactic Exchange" in line.category)
    assert line.vp == 5
    assert localize(line.detail, "pl").startswith("5 kolorów posiadanych kości (")
    assert localize(line.detail, "el").startswith("5 χρώματα ζαριών (")
    assert "κόκκινο" in localize(line.detail, "el") and "piros" in localize(line.detail, "hu")
    for lang in ("el", "pl", "hu"):
        assert _leaks(localize(line.detail, lang), lang) == [], localize(line.detail, lang)


def test_eclipse_ships_are_named_in_the_players_language(store) -> None:
    """Eclipse: a volley's label ("Ann's Cruiser at Bob's Interceptor") and the ship fields' choices named the ships
    in English in every language; the phone still posts the English name."""
    from companion.flow import GameFlow
    from companion.flows import FLOWS
    from companion.player_names import parse_players

    eclipse = FLOWS["eclipse"]
    flow = GameFlow(store.start("eclipse", eclipse.settings(parse_players("Ann,Bob"), {})), eclipse)
    volley = next(f for f in eclipse.forms(flow.engine_view()) if f.id == "volley")
    ship = next(f for f in volley.fields if f.name == "ship")
    assert ship.choices == ("Interceptor", "Cruiser", "Dreadnought", "Starbase")
    assert [localize(label, "pl") for label in ship.labels] == ["Myśliwiec", "Krążownik", "Pancernik", "Baza gwiezdna"]
    from rules.eclipse.fleet import _label

    label = _label("Ann", "Cruiser", "Bob", "Interceptor")
    assert label == "Ann's Cruiser at Bob's Interceptor"
    for lang, ships in (("el", ("Καταδρομικό", "Αναχαιτιστικό")), ("pl", ("Krążownik", "Myśliwiec")),
                        ("hu", ("Cirkáló", "Elfogó"))):
        said = localize(label, lang)
        assert all(s in said for s in ships) and _leaks(said, lang) == [], said


# -- Among the Stars: every line's detail in the table's language (rulebook 6 'Game end') ----------------------


def _among_details(data) -> dict[str, dict[str, str]]:
    from rules.among_the_stars import final_scores as among_scores

    return {b.player: {line.category: line.detail for line in b.lines} for b in among_scores(data)}


def test_among_the_stars_details_are_said_in_the_players_language() -> None:
    """The rulebook's worked example (6 'Game end', 'Játék Vége' in the Hungarian rulebook): György has 63 on the
    Pontozó Tábla, his yellow-box cards give +4, +1, +2, three of his reactors (the Main Reactor among them) hold no
    Energia Kocka, 5 credits are 1 VP per 3, and First Line of Defense (most red) is his. Every detail was English
    in every language ("3 reactor(s) with no cubes", "5 credits, 1 VP per 3")."""
    from tests.test_among_scoring import rulebook_example

    gyorgy = _among_details(rulebook_example())["György"]
    said = {lang: {category: localize(detail, lang) for category, detail in gyorgy.items()}
            for lang in ("el", "pl", "hu")}
    assert gyorgy["empty reactors"] == "3 reactors with no cubes"
    assert said["hu"]["empty reactors"] == "3 reaktor energiakocka nélkül"
    assert said["pl"]["empty reactors"] == "3 reaktory bez kostek energii"
    assert said["el"]["empty reactors"] == "3 αντιδραστήρες χωρίς κύβους ενέργειας"
    assert said["hu"]["credits"] == "5 Credit, 1 GYP minden 3 Credit után"
    assert said["pl"]["credits"] == "5 kredytów, 1 PZ za każde 3"
    assert said["el"]["credits"] == "5 μονάδες, 1 ΠΝ ανά 3"
    assert said["hu"]["VP track"] == "GYP a Pontozó Táblán a játék végi pontozás előtt"
    assert said["pl"]["objectives"] == "First Line of Defense +5"
    # in the order the station was built: Alliance Fleet Base (year 2), Command Centre, Opera House (year 3)
    assert said["hu"]["end-game abilities"] == "Alliance Fleet Base +2, Command Centre +4, Opera House +1"
    for lang, lines in said.items():
        assert [leak for text in lines.values() for leak in _leaks(text, lang)] == [], lines


def test_among_the_stars_race_details_are_said_in_the_players_language() -> None:
    """Races (cards.json, the Hungarian rulebook's FAQ): Humareen scores its least-built location type among the
    types built, + 1: 3 blue, 1 red -> 1 + 1 = 2; Sheptas 1 VP per 2 credits, at most 5 more than 1 per 3: 14
    credits -> 7; a Qualeen's secret objective scores even when tied (2 red each: +5)."""
    from tests.test_among_scoring import chain, player, row

    humareen = _among_details({"players": [
        player("H", 0, 0, chain("Crew Quarters", 3) + [row("Turret", (0, 1))], race="Humareen")]})["H"]["race"]
    assert humareen == "Humareen: the least-built location type has 1 location"
    assert localize(humareen, "pl") == "Humareen: najmniej liczny typ lokacji ma 1 lokację"
    assert localize(humareen, "hu") == "Humareen: a legkevesebbszer épített helyszín típusból 1 helyszín van"
    sheptas = _among_details({"players": [player("S", 0, 14, chain("Crew Quarters", 1), race="Sheptas")]})
    assert localize(sheptas["S"]["credits"], "pl") == "14 kredytów, 1 PZ za każde 2 (maks. 5 więcej niż 1 za każde 3)"
    assert localize(sheptas["S"]["credits"], "el") == "14 μονάδες, 1 ΠΝ ανά 2 (έως 5 περισσότερους από 1 ανά 3)"
    qualeen = _among_details({"objectives": [], "players": [
        player("Q", 0, 0, chain("Turret", 2), race="Qualeen", secret_objective="First Line of Defense"),
        player("B", 0, 0, chain("Pilot Training Area", 2))]})["Q"]["objectives"]
    assert qualeen == "First Line of Defense (secret) +5"
    assert localize(qualeen, "el") == "First Line of Defense (μυστικός στόχος) +5"
    assert localize(qualeen, "hu") == "First Line of Defense (titkos cél) +5"
    for text in (humareen, sheptas["S"]["credits"], qualeen):
        for lang in ("el", "pl", "hu"):
            assert _leaks(localize(text, lang), lang) == [], localize(text, lang)


def test_eclipse_build_choices_are_named_as_the_ships_are(store) -> None:
    """Eclipse's Build form offered 'Myśliwiec | Krążownik | Pancernik | Baza gwiezdna | orbital | monolit' on a Polish
    phone: the Orbital and the Monolith (Rise of the Ancients' structures) are named as the ships beside them are,
    capitalised, in every language; the phone still posts the English name."""
    from companion.flow import GameFlow
    from companion.flows import FLOWS
    from companion.player_names import parse_players

    eclipse = FLOWS["eclipse"]
    flow = GameFlow(store.start("eclipse", eclipse.settings(parse_players("Ann,Bob"), {})), eclipse)
    build = next(f for f in eclipse.forms(flow.engine_view()) if f.id == "build")
    what = next(f for f in build.fields if f.name == "what")
    assert what.choices[-2:] == ("Orbital", "Monolith")
    said = {lang: [localize(label, lang) for label in what.labels] for lang in ("en", "el", "pl", "hu")}
    assert said["en"][-2:] == ["Orbital", "Monolith"]
    assert said["pl"][-2:] == ["Orbital", "Monolit"] and said["hu"][-2:] == ["Orbitál", "Monolit"]
    assert all(label[:1].isupper() for labels in said.values() for label in labels), said


def test_eclipse_asks_with_whom_in_every_language(store) -> None:
    """Eclipse's Diplomatic relations and Alliance founded asked for the other player under a lone preposition: 'Z'
    on a Polish phone, 'Με' on a Greek one, 'Vele' ('with him') on a Hungarian one. The field asks 'with whom'."""
    from companion.flow import GameFlow
    from companion.flows import FLOWS
    from companion.player_names import parse_players

    eclipse = FLOWS["eclipse"]
    flow = GameFlow(store.start("eclipse", eclipse.settings(parse_players("Ann,Bob"), {})), eclipse)
    relations = next(f for f in eclipse.forms(flow.engine_view()) if f.id == "relations")
    label = next(f.label for f in relations.fields if f.name == "with")
    assert [localize(label, lang) for lang in ("el", "pl", "hu")] == ["Με ποιον", "Z kim", "Kivel"]
