"""The touchscreen's game screens (companion/screen/game.py): the players table and the score table with the longest
names a player may give, drawn by SDL's dummy driver and saved for a person to look at."""

from __future__ import annotations

import pytest

from companion.flow import GameFlow
from companion.flows import FLOWS
from companion.player_names import MAX_NAME, parse_players
from companion.screen import TouchScreen

# four names of MAX_NAME characters, each different from its first letters on (a cut name still tells them apart)
NAMES = [f"{first} {'Featherstonehaugh-Wolfeschlegel'}"[:MAX_NAME].ljust(MAX_NAME, "x")
         for first in ("Bartholomew", "Maximilian", "Konstantinos", "Szczepan")]
WAITING = "  (waiting)"  # after the name of a player the table waits for (the players table's English)
READABLE = 24
"""The smallest design size (px) a name is drawn at: below it the touchscreen's text cannot be read at arm's
length; a longer name is cut with '…' instead."""


@pytest.fixture
def sized(monkeypatch):
    """Every text the touchscreen draws as ``(text, design size, where, the width it had to fit)``."""
    drawn: list[tuple[str, int, object, int | None]] = []
    text = TouchScreen.text

    def noted(self, said, pos, size, colour, anchor="topleft", room=None):
        rect = text(self, said, pos, size, colour, anchor, room)
        drawn.append((said, size, rect, room))
        return rect

    monkeypatch.setattr(TouchScreen, "text", noted)
    return drawn


def _shoot(flow: GameFlow, path) -> None:
    screen = TouchScreen(phone_url="http://192.168.1.20:8080/")
    view = {"session": {"id": flow.session.id, "game": flow.spec.name, "events": flow.session.last_seq},
            "status": {"camera": "ok", "reader": "watching", "message": ""},
            "game": flow.view(), "findings": flow.view()["findings"], "phone_url": "http://192.168.1.20:8080/"}
    screen.render(view)
    screen.save_png(path)


def _names_drawn(drawn) -> list[tuple[str, int, object, int | None]]:
    """The drawn texts that are (the start of) one of :data:`NAMES`, cut with '…' or whole, after the winner's sign
    (one character and a space) if there is one."""
    def named(said: str) -> bool:
        said = said.removesuffix(WAITING).removesuffix("…")
        cores = [said, said[2:]] if said[1:2] == " " else [said]
        return any(len(core) > 3 and name.startswith(core) for core in cores for name in NAMES)

    return [d for d in drawn if named(d[0])]


def _assert_readable_and_inside(names, cut: bool = True) -> None:
    assert len(names) == len(NAMES), [n[0] for n in names]
    for said, size, rect, room in names:
        assert size >= READABLE, (said, size)
        if cut:
            assert said.removesuffix(WAITING).endswith("…") and len(said) < MAX_NAME, said  # cut, not shrunk
        assert room is not None and rect.width <= room, (said, rect.width, room)


def test_long_names_are_cut_with_an_ellipsis_at_a_readable_size_in_the_players_and_score_tables(store, sized,
                                                                                                  output_dir):
    """Names of 40 characters were shrunk to 12 px (unreadable) in both tables: they keep at least 24 px, whole where
    the players table has the room, else ending with '…' where their column ends. Race for the Galaxy, four players;
    the game ends when the pool of 12 VP chips per player is empty (rulebook p.11, 'Game end')."""
    flow = GameFlow(store.start("race", FLOWS["race"].settings(parse_players(",".join(NAMES)), {})), FLOWS["race"])
    for name, world in zip(NAMES, ("Old Earth", "Epsilon Eridani", "Alpha Centauri", "New Sparta"), strict=True):
        flow.report(name, "start", {"card": world})
    for name in NAMES[:3]:
        flow.report(name, "select", {"action": "Develop"})
    _shoot(flow, output_dir / "screen_long_names_players.png")
    names = _names_drawn(sized)
    _assert_readable_and_inside(names, cut=False)
    # the players table has room for a whole name of 40 letters at 24 px beside its two columns (Tableau, VP chips)
    assert [said for said, *_ in names[:3]] == NAMES[:3]
    assert [said for said, *_ in names if said.endswith(WAITING)] == [names[3][0]]  # its name is cut, not the words
    assert names[3][0].removesuffix(WAITING).endswith("…")
    flow.report(NAMES[3], "select", {"action": "Develop"})

    flow.report(NAMES[0], "vp", {"vp": 24})  # the pool of 4 x 12 chips is empty: the last round
    flow.report(NAMES[1], "vp", {"vp": 24})
    for _ in range(6):
        if flow.over():
            break
        flow.next_phase()
    assert flow.over()
    sized.clear()
    _shoot(flow, output_dir / "screen_long_names_scores.png")
    _assert_readable_and_inside(_names_drawn(sized))


@pytest.mark.parametrize("lang", ["en", "el", "pl", "hu"])
def test_roll_s_phase_strip_shows_the_unrevealed_phase_tiles_before_reveal(store, sized, output_dir, lang):
    """Before Reveal the strip was a blank panel. As on the table (Roll for the Galaxy digest §3 Setup: the five
    phase tiles lie unselected side up; §4: Reveal flips the selected ones, then they run in order I-V, then Manage
    Empire), it shows the five tiles I-V, each saying it is not revealed yet, and Manage Empire; nobody's hidden
    selection shows. After Reveal it shows only the selected phases, with who selected each."""
    from companion import i18n
    from companion.flows.roll import PHASE_NAMES
    from companion.i18n import Text
    from rules.roll.data import catalogue

    def faction(number: int) -> str:
        return " / ".join(catalogue().faction(number).names)

    flow = GameFlow(store.start("roll", FLOWS["roll"].settings(parse_players("Ann,Bob"), {})), FLOWS["roll"])
    flow.report("Ann", "setup", {"faction": faction(1), "home_world": "Old Earth",
                                 "development": "Advanced Logistics", "world": "Spice World"})
    flow.report("Bob", "setup", {"faction": faction(2), "home_world": "Alpha Centauri",
                                 "development": "Alien Research Team", "world": "Information Hub"})
    flow.report("Ann", "select", {"phase": "develop"})  # hidden behind her screen until Reveal
    assert [(p["label"], p["by"], p["state"]) for p in flow.view()["phases"]] == [
        ("I Explore", ["not revealed yet"], "unselected"), ("II Develop", ["not revealed yet"], "unselected"),
        ("III Settle", ["not revealed yet"], "unselected"), ("IV Produce", ["not revealed yet"], "unselected"),
        ("V Ship", ["not revealed yet"], "unselected"), ("Manage Empire", [], "next")]
    try:
        i18n.set_box_language(lang)
        names = [i18n.say(PHASE_NAMES[ph], lang) for ph in ("explore", "develop", "settle", "produce", "ship")]
        labels = [f"{n} {name}" for n, name in zip(("I", "II", "III", "IV", "V"), names, strict=True)]
        hidden = i18n.say(Text("not revealed yet"), lang)
        assert lang == "en" or hidden != "not revealed yet"  # translated
        _shoot(flow, output_dir / f"screen_roll_before_reveal_{lang}.png")
        strip = [(said, rect, room) for said, _size, rect, room in sized if 76 <= rect.top < 146]
        drawn = [said for said, _rect, _room in strip]
        assert drawn.count(hidden) == 5 and "Ann" not in drawn, drawn
        assert all(label in drawn for label in labels), drawn
        manage = i18n.say(PHASE_NAMES["manage"], lang)  # on one line, or whole on two (Greek at 800 x 480)
        assert manage in drawn or any(f"{a} {b}" == manage for a, b in zip(drawn, drawn[1:], strict=False)), drawn
        for said, rect, room in strip:
            assert room is not None and rect.width <= room and not said.endswith("…"), (said, rect.width, room)
            assert 0 <= rect.left and rect.right <= 800, (said, rect)
    finally:
        i18n.set_box_language("en")
    flow.report("Bob", "select", {"phase": "settle", "extra_white": "ship"})
    flow.next_phase()  # Reveal
    assert [(p["label"], p["by"], p["state"]) for p in flow.view()["phases"]] == [
        ("II Develop", ["Ann"], "next"), ("III Settle", ["Bob"], "next"), ("V Ship", ["extra white die"], "next"),
        ("Manage Empire", [], "next")]


@pytest.mark.parametrize("lang", ["en", "el", "pl", "hu"])
def test_among_the_stars_two_player_passing_note_is_drawn_whole_on_two_lines(store, sized, output_dir, lang):
    """With 2 players, the year's note says how hands pass with the virtual players (Among the Stars rulebook 8,
    2-player rules). In Greek, Polish and Hungarian it needed three lines at 18 px and its end (whom to pass the rest
    to) was cut with '…'. It is drawn whole on two lines, at the largest size down to the note's least (14 px) where
    it fits, inside the room left of the QR code; English keeps 18 px."""
    from companion import i18n

    flow = GameFlow(store.start("among", FLOWS["among"].settings(parse_players("Ann,Bob"), {})), FLOWS["among"])
    try:
        i18n.set_box_language(lang)
        note = i18n.say(flow.view()["note"], lang)
        _shoot(flow, output_dir / f"screen_among_two_players_{lang}.png")
    finally:
        i18n.set_box_language("en")
    words = note.split()
    drawn = [d for d in sized if 146 <= d[2].top < 190 and d[0].split() and set(d[0].split()) <= {*words, "…"}]
    # two lines; Greek's, at 14 px no smaller than READ_MIN_PX, takes a third rather than a cut
    assert len(drawn) == (3 if lang == "el" else 2), [d[0] for d in drawn]
    assert " ".join(said for said, *_ in drawn) == " ".join(words), [d[0] for d in drawn]
    for said, size, rect, room in drawn:
        assert 14 <= size <= 18 and (lang != "en" or size == 18), (said, size)
        assert room is not None and rect.width <= room and not said.endswith("…"), (said, rect.width, room)


def test_the_status_beside_the_buttons_is_drawn_whole(store, tmp_path):
    """Roll for the Galaxy's table in Hungarian said 'várakozás minden játékos…' beside the buttons: why Next waits
    was cut after its third word. It is drawn whole, on up to three smaller lines, in every language."""
    from companion import i18n
    from companion.hub import StateHub
    from companion.screen import TouchScreen
    from tests.test_evening import do, evening

    loop = evening(store, tmp_path, hub=StateHub())
    do(loop, "choose_game", game="roll")
    for name in ("Ζωή", "Bálint"):
        do(loop, "setup_player", player=name)
    do(loop, "setup_start")
    screen = TouchScreen(pairing=loop.hub.pairing)
    try:
        for lang in ("en", "el", "pl", "hu"):
            i18n.set_box_language(lang)
            loop.publish()
            view = loop.hub.snapshot().view
            why = i18n.localize(view["game"]["next"]["why"], lang)
            assert why and not view["game"]["next"]["enabled"]
            screen.render(type("S", (), {"view": view, "frame": None, "jpeg": None})())
            drawn = [str(text) for text, _rect, _room in screen.drawn]
            lines = next((drawn[k:k + n] for n in (1, 2, 3) for k in range(len(drawn))
                          if " ".join(drawn[k:k + n]) == why), None)
            assert lines is not None, (lang, why, drawn)
    finally:
        i18n.set_box_language("en")


GREEK_NAMES = ("Ζωή", "Παναγιώτης", "Ευαγγελία", "Χαράλαμπος", "Κωνσταντίνος")


def test_names_in_the_two_halves_of_the_players_table_are_whole_where_the_table_has_the_room(store, sized,
                                                                                              output_dir):
    """Five players of Roll for the Galaxy in the last round (p.8 End check: the pool of 12 VP a player emptied by
    12 shipped each): the LAST ROUND banner and the finding under the rows leave the players table two halves side by
    side, and there 'Κωνσταντίνος' was cut 'Κωνσταντί…' while its number columns had room to spare. Each name is
    whole now, at a readable size, and ends before the first number of its row."""
    from rules.roll.data import catalogue

    flow = GameFlow(store.start("roll", FLOWS["roll"].settings(parse_players(",".join(GREEK_NAMES)), {})),
                    FLOWS["roll"])
    homes = ("Old Earth", "Alpha Centauri", "New Sparta", "Epsilon Eridani", "Ancient Race")
    for k, (name, home) in enumerate(zip(GREEK_NAMES, homes, strict=True)):
        flow.report(name, "setup", {"faction": " / ".join(catalogue().faction(k + 1).names), "home_world": home,
                                    "development": "Investment Credits", "world": "Gem World"})
    for name in GREEK_NAMES:
        flow.report(name, "select", {"phase": "ship"})
    flow.next_phase()  # Reveal
    flow.next_phase()  # V Ship
    for name in GREEK_NAMES:
        flow.report(name, "vp", {"vp": 12})  # 5 x 12 chips: the pool is empty, this round is the last
    assert flow.view()["last_round"] and flow.view()["findings"]
    _shoot(flow, output_dir / "screen_five_greek_names_two_halves.png")
    starts = {n[:k] for n in GREEK_NAMES for k in range(3, len(n) + 1)}
    names = {said.removesuffix(WAITING): (size, rect) for said, size, rect, _room in sized
             if said.removesuffix(WAITING).removesuffix("…") in starts}
    assert sorted(names) == sorted(GREEK_NAMES), list(names)  # every name whole, none cut with '…'
    assert len({rect.left for _size, rect in names.values()}) == 2  # in two halves
    for name, (size, rect) in names.items():
        assert size >= READABLE, (name, size)
        row = [r for said, _s, r, _room in sized if said.isdigit() and abs(r.centery - rect.centery) <= 3
               and r.left >= rect.left]
        assert row and rect.right < min(r.left for r in row), (name, rect, row)
