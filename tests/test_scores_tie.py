"""A Roll for the Galaxy game ending on equal totals, played on the touchscreen with the phones' reports: the scores
screen says the totals are tied and shows the tie-break that decided (Roll for the Galaxy p.8 Victory: dice in the
cup plus credits), in the table's language."""

from __future__ import annotations

import pytest

from companion import i18n
from companion.hub import StateHub
from companion.modes import ModeName
from companion.screen import Screen, TouchScreen
from rules.roll.data import catalogue
from tests.test_evening import do, evening
from tests.test_evening_screens import shot
from tests.test_phone_browser import browser  # noqa: F401  (the browser fixture)


def report(loop, player: str, form: str, **values) -> None:
    do(loop, "report", "phone", player=player, form=form, values=values)


def roll_tied_at_25(store, tmp_path):
    """Ágnes and Bálint play two rounds of Roll for the Galaxy to an emptied VP pool (24 VP for 2 players, p.2 Setup).

    Worked by hand from the rulebook (p.8 Victory: VP chips + the printed cost of every tableau tile + cost-6
    bonuses):
    - Ágnes: 15 VP chips; developments Consumer Markets 3 + Investment Credits 4; worlds Space Mall 0 + Alpha
      Centauri 1 + Spice World 2: 15 + 7 + 3 = 25.
    - Bálint: 9 VP chips; developments Space Piracy 0 + Galactic Renaissance 6; worlds Hidden Fortress 2 + Old Earth
      3 + Gem World 2; Galactic Renaissance +3 at 6-9 VP in chips: 9 + 6 + 7 + 3 = 25.
    - Tie-break, dice in the cup plus credits: Ágnes 3 white + Space Mall's and Spice World's blue dice = 5, and $1 +
      $4 for a brown good traded = $5: 10; Bálint 3 white + Gem World's blue = 4, and $1 + Space Piracy's $1 after
      each of the two Ship phases (1 red die in his Citizenry) = $3: 7. Ágnes wins.
    """
    factions = {f.number: " / ".join(f.names) for f in catalogue().factions}
    loop = evening(store, tmp_path, hub=StateHub())
    do(loop, "choose_game", game="roll")
    for name in ("Ágnes", "Bálint"):
        do(loop, "setup_player", "phone", player=name)
    do(loop, "setup_start")
    report(loop, "Ágnes", "setup", faction=factions[3], home_world="Alpha Centauri", development="Investment Credits",
           world="Spice World")
    report(loop, "Bálint", "setup", faction=factions[1], home_world="Old Earth", development="Galactic Renaissance",
           world="Gem World")
    report(loop, "Ágnes", "select", phase="develop")
    report(loop, "Bálint", "select", phase="settle", extra_white="ship")
    do(loop, "next_phase")  # Reveal
    do(loop, "next_phase")  # II Develop
    report(loop, "Ágnes", "tile", tile="Investment Credits")
    do(loop, "next_phase")  # III Settle
    report(loop, "Bálint", "tile", tile="Gem World")
    do(loop, "next_phase")  # V Ship
    report(loop, "Ágnes", "ship", world="Alpha Centauri", mode="trade", good="brown", shipper="white")
    do(loop, "next_phase")  # Manage Empire
    report(loop, "Ágnes", "select", phase="settle")
    report(loop, "Bálint", "select", phase="develop", extra_white="ship")
    for _ in range(2):  # Reveal, II Develop
        do(loop, "next_phase")
    report(loop, "Bálint", "tile", tile="Galactic Renaissance")
    do(loop, "next_phase")  # III Settle
    report(loop, "Ágnes", "tile", tile="Spice World")
    do(loop, "next_phase")  # V Ship
    report(loop, "Ágnes", "vp", vp=15)
    report(loop, "Bálint", "vp", vp=9)  # the pool is empty: this round is the last (p.8 End check)
    do(loop, "next_phase")  # Manage Empire
    do(loop, "next_phase")  # the end
    return loop


def label_then_values(drawn: list[str], label: str, values: list[str]) -> bool:
    """Whether ``drawn`` holds ``label`` (on one line or several) directly followed by ``values``."""
    for start in range(len(drawn)):
        for end in range(start + 1, min(start + 4, len(drawn)) + 1):
            if " ".join(drawn[start:end]) == label and drawn[end:end + len(values)] == values:
                return True
    return False


#: (language, the line saying the tie, the tie-break row's label) for the game of :func:`roll_tied_at_25`
TIED_IN_EVERY_LANGUAGE = (
    ("en", "Ágnes, Bálint tied on 25 VP; the tie-break under the totals decides", "Tie-break: dice in cup + credits"),
    ("hu", "Ágnes, Bálint: holtverseny, 25 GYP; az összegek alatti holtverseny-döntő dönt",
     "Holtverseny-döntő: a pohárban lévő kockák + Credit"),
    ("el", "Ágnes, Bálint: ισοπαλία με 25 ΠΝ· κρίνει η άρση ισοπαλίας κάτω από τα σύνολα",
     "Άρση ισοπαλίας: ζάρια στο κύπελλο + μονάδες"),
    ("pl", "Ágnes, Bálint: remis, po 25 PZ; rozstrzyga dogrywka pod sumami",
     "Rozstrzygnięcie remisu: kości w kubku + kredyty"),
)


def assert_tie_drawn(loop, screen, output_dir, name: str, state, languages) -> None:
    """Draw ``screen`` in each of ``languages`` ((lang, the tie's line, the tie-break row's label)) and assert it says
    the tie and shows the row under the totals: Ágnes 10, Bálint 7 (:func:`roll_tied_at_25`)."""
    try:
        for lang, tied, row in languages:
            i18n.set_box_language(lang)
            shot(loop, screen, f"{name}-{lang}", output_dir)
            assert screen.state is state
            drawn = [str(text) for text, _, _ in screen.drawn]
            assert tied in drawn, (lang, drawn)
            # the row's label (whole, on one or two lines), then each player's value in seat order
            assert label_then_values(drawn, row, ["10", "7"]), (lang, drawn)
    finally:
        i18n.set_box_language("en")


def test_equal_totals_say_the_tie_and_show_the_tie_break_that_decided(store, tmp_path, output_dir):
    """The screen said 'Winner: Ágnes' over 25 and 25 and nothing more: the table could not see why Bálint lost. It
    says the two tied and shows the tie-break under the totals (10 against 7), in the table's language, labelled
    with what it counts (p.8 Victory: dice in the cup + credits; the row said only 'Tie-break')."""
    loop = roll_tied_at_25(store, tmp_path)
    assert loop.mode_name is ModeName.SCORES
    result = loop.view()["game"]["result"]
    assert [(p["name"], p["total"], p["tiebreak"]) for p in result["players"]] == [("Ágnes", 25, [10]),
                                                                                   ("Bálint", 25, [7])]
    assert result["winners"] == ["Ágnes"]
    screen = TouchScreen(pairing=loop.hub.pairing)
    assert_tie_drawn(loop, screen, output_dir, "scores-tie", Screen.SCORES, TIED_IN_EVERY_LANGUAGE)



def test_the_history_shows_the_tie_break_as_the_scores_screen_did(store, tmp_path, output_dir):
    """The tied game opened from the touchscreen's history drew 25 and 25 under 'Winner: Ágnes' with no tie-break
    row, while a phone's history showed it: the touchscreen's history draws the row under the totals (p.8 Victory:
    Ágnes 10, Bálint 7, worked in :func:`roll_tied_at_25`), labelled with what it counts, in the table's language."""
    from tests.test_evening_screens import tap

    loop = roll_tied_at_25(store, tmp_path)
    screen = TouchScreen(pairing=loop.hub.pairing)

    def touch(name: str) -> None:
        assert tap(screen, loop.hub, name) is not None, name
        loop.take_actions()

    shot(loop, screen, "history-tie-scores", output_dir)
    touch("games")
    shot(loop, screen, "history-tie-choose", output_dir)
    touch("history")
    shot(loop, screen, "history-tie-list", output_dir)
    touch(next(name for name in screen.buttons if name.startswith("open_game:")))
    assert_tie_drawn(loop, screen, output_dir, "history-tie-open", Screen.HISTORY, TIED_IN_EVERY_LANGUAGE)


def test_a_clear_winner_shows_no_tie_break(store, tmp_path, output_dir):
    """Without equal totals the scores screen keeps its rows: no tie line, no tie-break row."""
    from companion.screen.game import tie_broken

    result = {"players": [{"name": "Ann", "total": 26, "tiebreak": [3]}, {"name": "Bob", "total": 25, "tiebreak": [9]}],
              "winners": ["Ann"]}
    assert tie_broken(result) == []
    shared = {"players": [{"name": "Ann", "total": 25, "tiebreak": [7]}, {"name": "Bob", "total": 25, "tiebreak": [7]}],
              "winners": ["Ann", "Bob"]}
    assert tie_broken(shared) == []  # a shared win says so in its headline
    broken = {"players": [*result["players"][:1], {"name": "Cy", "total": 26, "tiebreak": [5]}], "winners": ["Cy"]}
    assert [p["name"] for p in tie_broken(broken)] == ["Ann", "Cy"]


@pytest.mark.browser
def test_a_phone_sees_the_tie_and_the_tie_break_under_the_totals(browser, tmp_path, output_dir):  # noqa: F811
    """The phones said 'Nyertes: Ágnes' over 25 and 25 as the touchscreen did: a Hungarian phone on the box restarted
    on the tied game's scores says the tie in the winner's line and shows the tie-break row (10 against 7), and the
    same row on the game opened from the history."""
    from playwright.sync_api import expect

    from companion.session import SessionStore
    from tests.test_evening_browser import CUT_WORDS, box_on, fits, phone

    with SessionStore(tmp_path / "box.sqlite3") as store:
        roll_tied_at_25(store, tmp_path)
        with box_on(store, tmp_path) as (loop, hub, server):
            context, page, errors = phone(browser, "hu-HU")
            try:
                page.goto(f"{server.url}join/{hub.pairing().secret}")
                expect(page.locator("#winner")).to_have_text("Győztes: Ágnes")
                expect(page.locator("#tie-note")).to_have_text(
                    "Ágnes, Bálint: holtverseny, 25 GYP; az összegek alatti holtverseny-döntő dönt")
                row = page.locator("#scores tr.tiebreak-row td")
                expect(row).to_have_text(["Holtverseny-döntő: a pohárban lévő kockák + Credit", "10", "7"])
                assert fits(page)
                assert page.locator("#scores th").evaluate_all(CUT_WORDS) == []  # 'Bálint' was drawn 'Bálin' / 't'
                page.screenshot(path=str(output_dir / "scores-tie-phone-hu.png"), full_page=True)
                page.locator("#box-nav button[data-box-action=history]").click()
                page.locator("#history-list button").first.click()
                expect(page.locator("#history-scores tr.tiebreak-row td")).to_have_text(
                    ["Holtverseny-döntő: a pohárban lévő kockák + Credit", "10", "7"])
                assert not errors, errors
            finally:
                context.close()


@pytest.mark.parametrize(("game", "said"), [
    # each rulebook's tie-break (the digests in shared/rules): Roll p.8 Victory, Race end of game, Among the Stars
    # 6 'Game end' (the Hungarian rulebook: 'az Erőművek itt nem számítanak'), Eclipse's end of the game
    ("roll", {"en": "dice in cup + credits", "pl": "kości w kubku + kredyty"}),
    ("race", {"en": "cards in hand + goods", "el": "κάρτες στο χέρι + προϊόντα"}),
    ("among", {"en": "locations without reactors, then credits", "hu": "helyszínek Erőművek nélkül, aztán Credit"}),
    ("eclipse", {"en": "resources: Money + Science + Materials", "hu": "erőforrások: pénz + tudomány + nyersanyag"}),
])
def test_every_game_says_what_its_tie_break_counts(store, game, said):
    """The scores' result names what each player's tie-break values count, in each language; the export (format 1)
    keeps its fields."""
    from companion.flow import GameFlow
    from companion.flows import FLOWS
    from companion.player_names import parse_players
    from tests.i18n_walk import leaks

    spec = FLOWS[game]
    players = parse_players("Ann,Bob")
    options = {"species": ("Terran Directorate", "Orion Hegemony")} if game == "eclipse" else {}
    flow = GameFlow(store.start(game, spec.settings(players, options)), spec)
    result = flow.result()
    assert result["tiebreak_rule"] == said["en"]
    for lang, words in said.items():
        assert i18n.localize(result["tiebreak_rule"], lang) == words
    for lang in ("el", "pl", "hu"):
        assert leaks([i18n.localize(result["tiebreak_rule"], lang)], lang) == []
    assert "tiebreak_rule" not in flow.export_json()
