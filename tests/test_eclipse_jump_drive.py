"""The Jump Drive (rules/eclipse/drives.py, map_events.ship_moved): Rise of the Ancients p.8, New Discoveries: "with
the Move action you may move the ship to any neighbouring hex, whatever wormholes there are; the Jump Drive is used
once per ship activation (p.4); a ship activated more than once in one Move jumps at each, at any time". The page's
example: Cruisers with Nuclear Drives "move [9] and jump [10]", so the jump is a hex beyond the drives' Movement. A
ship whose only drive is a Jump Drive reported Movement 0 and was flagged at its first hex.

The map of tests/test_eclipse_move_steps.py, worked from the printed tiles: Ann's 221 Procyon at (0, -2) (wormholes
12, 2, 6, 8), 106 Capella at (0, -1), the Galactic Center at (0, 0). With Capella at rotation 0 (12, 2, 4, 6) every
step HOME -> CAPELLA -> CENTRE is through a full wormhole. Laid at rotation 1 its wormholes are at 2, 4, 6, 8: no 12
meets Procyon's 6, so HOME -> CAPELLA is a half wormhole (no Wormhole Generator): only a jump goes there; its 6 still
meets the Center's 12.
"""

from __future__ import annotations

from rules import Event, Severity, replay
from rules.eclipse import ECLIPSE_GAME
from tests.test_eclipse_move_steps import CAPELLA, CENTRE, HOME, SET_UP, TWO, said_on

TURNED = [*SET_UP[:2], ("action_taken", "Ann", {**SET_UP[2][2], "rotation": 1}), SET_UP[3]]


def play(*rows, turned: bool = False):
    """The set-up (Capella turned one step with ``turned``) and ``rows`` (``(kind, player, payload)``), replayed."""
    events = [Event(seq=k, kind=kind, payload=payload, player=player)
              for k, (kind, player, payload) in enumerate([*(TURNED if turned else SET_UP), *rows], 1)]
    return replay(ECLIPSE_GAME, TWO, events)


def blueprint(ship: str, movement: int, jump_drive: bool | None) -> tuple[str, str, dict]:
    payload = {"ship": ship, "movement": movement}
    return ("blueprint_set", "Ann", payload if jump_drive is None else {**payload, "jump_drive": jump_drive})


def move(ship: str, frm=HOME, to=CAPELLA, jump: bool = False) -> tuple[str, str, dict]:
    return ("action_taken", "Ann", {"action": "move", "from": frm, "to": to, "ship": ship, **({"jump": True} if jump
                                                                                            else {})})


def step(frm, to, jump: bool = False) -> tuple[str, str, dict]:
    return ("ship_moved", "Ann", {"from": frm, "to": to, **({"jump": True} if jump else {})})


ERRORS = ("beyond_movement", "second_jump", "jump_without_drive", "not_adjacent")


def errors(result, seq: int) -> list[str]:
    return [kind for kind, severity in said_on(result, seq) if kind in ERRORS and severity is Severity.ERROR]


def test_the_rulebooks_cruisers_move_one_hex_and_jump_one_more():
    """p.8's example: a Cruiser with a Nuclear Drive (Movement 1) and a Jump Drive moves HOME -> CAPELLA and jumps
    CAPELLA -> CENTRE: 2 hexes, no error. A 3rd hex (CENTRE -> CAPELLA) is beyond both: the Movement error."""
    result = play(blueprint("Cruiser", 1, True), move("Cruiser"), step(CAPELLA, CENTRE, jump=True),
                  step(CENTRE, CAPELLA))
    assert [errors(result, seq) for seq in (6, 7)] == [[], []]
    assert errors(result, 8) == ["beyond_movement"]


def test_a_ship_whose_only_drive_is_a_jump_drive_jumps_one_hex_an_activation():
    """Movement 0 and a Jump Drive: Move HOME -> CAPELLA, where no full wormhole leads, is its jump (not marked as
    one: the box takes the step that needs it as the jump): no error, an info that it is a jump. One more hex
    (CAPELLA -> CENTRE, a full wormhole) is 2 hexes on Movement 0: flagged."""
    result = play(blueprint("Interceptor", 0, True), move("Interceptor"), step(CAPELLA, CENTRE), turned=True)
    assert errors(result, 6) == []
    assert ("jump", Severity.INFO) in said_on(result, 6)
    assert errors(result, 7) == ["beyond_movement"]
    found = next(f for f in result.findings if f.seq == 7 and f.rule_kind == "beyond_movement")
    assert found.what == "Ann's Interceptor moves 2 hexes in one activation, but its drives give it Movement 0"


def test_one_jump_an_activation_and_only_with_a_jump_drive():
    """A second marked jump in one activation is flagged (once per activation); a jump by a ship whose blueprint was
    reported without a Jump Drive is flagged; a jump between hexes that are not neighbours (HOME -> CENTRE, two hexes
    apart) keeps its wormhole error; a ship with no Jump Drive reported still needs a wormhole (HOME -> CAPELLA
    turned: the error as before)."""
    twice = play(blueprint("Cruiser", 2, True), move("Cruiser", jump=True), step(CAPELLA, CENTRE, jump=True))
    assert errors(twice, 6) == [] and errors(twice, 7) == ["second_jump"]
    found = next(f for f in twice.findings if f.rule_kind == "second_jump")
    assert found.what == ("Ann's Cruiser jumps a second time in one activation: a Jump Drive is used once an "
                          "activation")
    assert "Rise of the Ancients p.8" in found.rule
    without = play(blueprint("Cruiser", 1, False), move("Cruiser", jump=True), turned=True)
    assert errors(without, 6) == ["not_adjacent", "jump_without_drive"]
    far = play(blueprint("Cruiser", 1, True), move("Cruiser", HOME, CENTRE, jump=True))
    assert errors(far, 6) == ["not_adjacent"]
    unknown = play(blueprint("Cruiser", 1, None), move("Cruiser"), turned=True)
    assert errors(unknown, 6) == ["not_adjacent"]


def test_a_jump_the_table_marks_for_a_ship_whose_blueprint_is_not_known_is_taken_as_one():
    """No blueprint reported: a marked jump HOME -> CAPELLA (turned) is taken as the table says, with no error."""
    result = play(move("Cruiser", jump=True), turned=True)
    assert errors(result, 5) == []


def test_the_phone_reports_a_jump_drive_on_a_blueprint_and_a_step_as_a_jump(store):
    """On the phone: the blueprint's "Has a Jump Drive" and the Move's "A jump (Jump Drive)". Ann's Interceptor with
    a Jump Drive and Movement 0 moves HOME -> CAPELLA (full wormhole) marked as its jump: no error; one more step
    CAPELLA -> CENTRE is beyond it, flagged; in Greek the Jump Drive is the rulebook's Προωθητήρας Άλματος (p.8)."""
    from companion import i18n
    from tests.test_eclipse_flow import start as start_flow

    flow = start_flow(store, "Ann,Bob", species=["Terran Directorate", "Orion Hegemony"])
    flow.report("Ann", "home", {"sector": "221", "hex": [0, -2], "rotation": 0})
    flow.report("Bob", "home", {"sector": "232", "hex": [0, 2], "rotation": 0})
    flow.report("Ann", "explore", {"sector": "106", "hex": [0, -1], "rotation": 0, "from": [0, -2]})
    flow.report("Bob", "upgrade", {})
    flow.report("Ann", "blueprint", {"ship": "Interceptor", "movement": 0, "jump_drive": "yes"})
    first = flow.report("Ann", "move", {"from": [0, -2], "to": [0, -1], "ship": "Interceptor", "jump": "yes"})
    assert first.payload["jump"] is True
    second = flow.report("Ann", "step", {"from": [0, -1], "to": [0, 0]})
    found = [f for f in flow.view()["findings"] if f["severity"] == "error"]
    assert [(f["seq"], f["what"]) for f in found] == [
        (second.seq, "Ann's Interceptor moves 2 hexes in one activation, but its drives give it Movement 0")]
    form = next(f for f in flow.view()["forms"] if f["id"] == "blueprint")
    label = next(field["label"] for field in form["fields"] if field["name"] == "jump_drive")
    assert i18n.say(label, "el") == "Έχει Προωθητήρα Άλματος"


def test_a_move_marked_as_a_jump_without_its_hexes_is_refused_not_recorded_without_the_jump(store):
    """Rise of the Ancients p.8: the jump is one step to a neighbouring hex. A Move sent with 'A jump' yes and no
    hexes was recorded as a plain Move, the jump dropped unsaid; it is refused naming the hexes, nothing recorded,
    in each language."""
    import pytest

    from companion import i18n
    from companion.errors import BadEntry
    from tests.test_eclipse_flow import start

    flow = start(store, "Ann,Bob", species=["Terran Directorate", "Orion Hegemony"])
    flow.report("Ann", "home", {"sector": "221", "hex": [0, -2], "rotation": 0})
    flow.report("Bob", "home", {"sector": "232", "hex": [0, 2], "rotation": 0})
    before = flow.session.last_seq
    with pytest.raises(BadEntry) as refused:
        flow.report("Ann", "move", {"ship": "Cruiser", "jump": "yes"})
    said = {lang: i18n.say(refused.value, lang) for lang in ("en", "el", "pl", "hu")}
    assert said["en"] == ("Move: a jump is a step to a neighbouring hex: give its hexes (from and to), or leave the "
                          "jump blank")
    assert said["el"].startswith("Μετακίνηση: το άλμα") and said["pl"].startswith("Ruch: skok")
    assert said["hu"].startswith("Mozgás: az ugrás")
    assert flow.session.last_seq == before
    flow.report("Ann", "move", {"ship": "Cruiser", "jump": "no"})  # a Move with no step still records
    assert flow.session.last_seq == before + 1


def test_a_starbase_with_a_jump_drive_alone_is_flagged_as_any_drive_on_a_starbase():
    """Rise of the Ancients p.18, questions and answers: "the Jump Drive is in every respect like the other drives ...
    it cannot be placed on Starbases"; Eclipse, Upgrade action: a Starbase blueprint takes no drives. A Starbase
    blueprint with a Jump Drive and Movement 0 was recorded with no word (only Movement above 0 was flagged). Now it
    is the same ``starbase_drives`` error, naming the Jump Drive and p.18, in each language; a Starbase with neither,
    or an Interceptor with a Jump Drive alone, gets nothing."""
    from companion import i18n

    result = play(blueprint("Starbase", 0, True), blueprint("Starbase", 0, False), blueprint("Interceptor", 0, True))
    found = [f for f in result.findings if f.seq is not None and f.seq > len(SET_UP)]
    assert [(f.seq, f.rule_kind, f.severity) for f in found] == [(5, "starbase_drives", Severity.ERROR)]
    assert found[0].what == ("Ann's Starbase blueprint has a Jump Drive, but a Starbase takes no drives, the Jump "
                             "Drive neither")
    assert "p.18" in found[0].rule
    for lang, page in (("el", "σ.18"), ("pl", "s. 18"), ("hu", "18. o.")):
        assert page in i18n.say(found[0].rule, lang) and i18n.say(found[0].what, lang) != found[0].what
