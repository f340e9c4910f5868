"""A ship's hexes in one activation of a Move, counted against its Movement (rules/eclipse/drives.py).

Eclipse, Move action; Rise of the Ancients p.4, Ship activation: each activation of a Move moves one ship as far as
its drives allow, its Movement being the drives' total (Nuclear Drive 1, Fusion Drive 2). A Starbase has no drives
and never moves. Before, a Move's steps were never counted: an Interceptor with one Nuclear Drive could cross the
map in one activation with no word from the box.

The map as in tests/test_eclipse_move_steps.py, worked from the printed tiles: Ann's 221 Procyon at (0, -2), 106
Capella at (0, -1), the Galactic Center at (0, 0), joined by full wormholes; so HOME -> CAPELLA -> CENTRE -> CAPELLA
are three hexes, each step legal for its wormhole.
"""

from __future__ import annotations

from rules import Severity
from rules.eclipse import ECLIPSE_GAME
from rules.eclipse.drives import Activation, step
from tests.test_eclipse_flow import start as start_flow
from tests.test_eclipse_move_steps import CAPELLA, CENTRE, HOME, play, said_on


def blueprint(ship: str, movement: int | None) -> tuple[str, str, dict]:
    payload = {"ship": ship} if movement is None else {"ship": ship, "movement": movement}
    return ("blueprint_set", "Ann", payload)


def move(ship: str | None, frm=HOME, to=CAPELLA) -> tuple[str, str, dict]:
    payload = {"action": "move", "from": frm, "to": to}
    return ("action_taken", "Ann", {**payload, "ship": ship} if ship else payload)


def further(frm, to, ship: str | None = None) -> tuple[str, str, dict]:
    return ("ship_moved", "Ann", {"from": frm, "to": to, **({"ship": ship} if ship else {})})


def drive_kinds(result, seq: int) -> list[tuple[str, Severity]]:
    return [k for k in said_on(result, seq) if k[0] in ("beyond_movement", "starbase_moves")]


def test_an_interceptor_with_one_nuclear_drive_moves_one_hex_an_activation():
    """Movement 1 (Nuclear Drive): Move HOME -> CAPELLA is its 1 hex; one more step CAPELLA -> CENTRE is a 2nd hex of
    the same ship (it goes on from where the last step ended): an error naming both numbers, recorded all the same
    (the table decides); its wormhole is still checked."""
    result = play(blueprint("Interceptor", 1), move("Interceptor"), further(CAPELLA, CENTRE))
    assert drive_kinds(result, 6) == []
    assert drive_kinds(result, 7) == [("beyond_movement", Severity.ERROR)]
    found = next(f for f in result.findings if f.seq == 7 and f.rule_kind == "beyond_movement")
    assert found.what == "Ann's Interceptor moves 2 hexes in one activation, but its drives give it Movement 1"
    assert ("full_wormhole", Severity.INFO) in said_on(result, 7)
    assert result.state.activations["Ann"] == Activation("Interceptor", (0, 0), 2)


def test_two_fusion_drives_take_a_ship_three_hexes_and_not_four():
    """Movement 3 (Nuclear Drive 1 + Fusion Drive 2): HOME -> CAPELLA -> CENTRE -> CAPELLA is 3 hexes, allowed; a 4th
    (CAPELLA -> CENTRE) is one too many."""
    result = play(blueprint("Cruiser", 3), move("Cruiser"), further(CAPELLA, CENTRE), further(CENTRE, CAPELLA),
                  further(CAPELLA, CENTRE))
    assert [drive_kinds(result, seq) for seq in (6, 7, 8)] == [[], [], []]
    assert drive_kinds(result, 9) == [("beyond_movement", Severity.ERROR)]


def test_a_step_from_another_hex_is_another_ship():
    """Movement 1: Move HOME -> CAPELLA (1 hex), then a step HOME -> CAPELLA: it does not go on from CAPELLA, so it is
    the Move's next activation, another Interceptor's first hex: no error. A step that names another ship type is
    another activation too, even from where the last one ended."""
    result = play(blueprint("Interceptor", 1), move("Interceptor"), further(HOME, CAPELLA, "Interceptor"),
                  further(CAPELLA, CENTRE, "Cruiser"))
    assert [drive_kinds(result, seq) for seq in (6, 7, 8)] == [[], [], []]
    assert result.state.activations["Ann"] == Activation("Cruiser", (0, 0), 1, number=3)  # the Move's third


def test_a_starbase_never_moves():
    result = play(move("Starbase"))
    assert drive_kinds(result, 5) == [("starbase_moves", Severity.ERROR)]
    found = next(f for f in result.findings if f.seq == 5 and f.rule_kind == "starbase_moves")
    assert found.what == "Ann moves a Starbase: a Starbase has no drives and never moves"


def test_nothing_is_counted_without_the_ship_or_its_movement():
    """A Movement not reported, or a step naming no ship type, is not counted against anything: three hexes of an
    Interceptor whose blueprint has no Movement, and three of an unnamed ship, say nothing about drives."""
    unknown = play(blueprint("Interceptor", None), move("Interceptor"), further(CAPELLA, CENTRE),
                   further(CENTRE, CAPELLA))
    unnamed = play(blueprint("Interceptor", 1), move(None), further(CAPELLA, CENTRE), further(CENTRE, CAPELLA))
    assert [drive_kinds(r, seq) for r in (unknown, unnamed) for seq in (6, 7, 8)] == [[]] * 6
    assert ECLIPSE_GAME.view(unknown.state)["blueprints"]["Ann"]["Interceptor"]["movement"] is None


def test_a_move_named_before_its_hexes_counts_its_first_step():
    """A Move reported with its ship and no hexes, then its steps: the first step is the ship's 1st hex."""
    result = play(blueprint("Interceptor", 1), ("action_taken", "Ann", {"action": "move", "ship": "Interceptor"}),
                  further(HOME, CAPELLA), further(CAPELLA, CENTRE))
    assert drive_kinds(result, 7) == [] and drive_kinds(result, 8) == [("beyond_movement", Severity.ERROR)]


def test_the_activation_is_worked_out_step_by_step():
    blueprints = {("Ann", "Interceptor"): type("B", (), {"movement": 2})()}
    one, said = step(None, (0, -2), (0, -1), ship="Interceptor", player="Ann", blueprints=blueprints,
                     same_move=False)
    assert (one, said) == (Activation("Interceptor", (0, -1), 1), [])
    two, said = step(one, (0, -1), (0, 0), ship=None, player="Ann", blueprints=blueprints, same_move=True)
    assert (two, said) == (Activation("Interceptor", (0, 0), 2), [])
    three, said = step(two, (0, 0), (1, -1), ship=None, player="Ann", blueprints=blueprints, same_move=True)
    assert three.hexes == 3 and [v.rule_kind for v in said] == ["beyond_movement"]
    # a step with no Move under way (same_move False) is a new activation whatever came before
    again, said = step(two, (0, 0), (1, -1), ship=None, player="Ann", blueprints=blueprints, same_move=False)
    assert again == Activation(None, (1, -1), 1) and said == []


def test_the_phone_reports_the_ship_and_the_blueprints_movement(store):
    """On the phone: the blueprint form takes the Movement, the Move and its steps take the ship; Ann's Interceptor
    with Movement 1 going a 2nd hex is flagged in each language, and the step is recorded."""
    from companion import i18n

    flow = start_flow(store, "Ann,Bob", species=["Terran Directorate", "Orion Hegemony"])
    flow.report("Ann", "home", {"sector": "221", "hex": [0, -2], "rotation": 0})
    flow.report("Bob", "home", {"sector": "232", "hex": [0, 2], "rotation": 0})
    flow.report("Ann", "explore", {"sector": "106", "hex": [0, -1], "rotation": 0, "from": [0, -2]})
    flow.report("Bob", "upgrade", {})
    flow.report("Ann", "blueprint", {"ship": "Interceptor", "movement": 1, "yellow_cannons": 1})
    first = flow.report("Ann", "move", {"from": [0, -2], "to": [0, -1], "ship": "Interceptor"})
    assert first.payload["ship"] == "Interceptor"
    second = flow.report("Ann", "step", {"from": [0, -1], "to": [0, 0]})
    found = [f for f in flow.view()["findings"] if f["seq"] == second.seq and f["severity"] == "error"]
    assert [f["what"] for f in found] == ["Ann's Interceptor moves 2 hexes in one activation, but its drives give it "
                                          "Movement 1"]
    said = {lang: i18n.say(found[0]["what"], lang) for lang in ("el", "pl", "hu")}
    assert said == {
        "el": "Αναχαιτιστικό (Ann) κινείται 2 θέσεις σε μία ενεργοποίηση, αλλά οι Προωθητήρες του δίνουν Μετακίνηση 1",
        "pl": "Myśliwiec (Ann) przesuwa się o 2 heksy w jednej aktywacji, ale jego napędy dają wartość ruchu 1",
        "hu": "Ann: Elfogó 2 hexet lép egy aktiválásban, de a hajtóművei csak 1 mozgásértéket adnak"}


def test_a_starbase_blueprint_with_drives_is_an_error_and_recorded_all_the_same():
    """Upgrade action: a Starbase blueprint takes no drives, so its Movement is 0. Reported with Movement 2 (a Fusion
    Drive laid on it), the blueprint is recorded (the table decides) with an error naming the number; Movement 0, or
    left out, is no misplay, and an Interceptor's Movement 2 is none either."""
    result = play(blueprint("Starbase", 2), blueprint("Starbase", 0), blueprint("Starbase", None),
                  blueprint("Interceptor", 2))
    drives = [[k for k in said_on(result, seq) if k[0] == "starbase_drives"] for seq in (5, 6, 7, 8)]
    assert drives == [[("starbase_drives", Severity.ERROR)], [], [], []]
    found = next(f for f in result.findings if f.seq == 5 and f.rule_kind == "starbase_drives")
    assert found.what == "Ann's Starbase blueprint has Movement 2, but a Starbase takes no drives"
    assert found.fix == "take the drives off the Starbase blueprint (Movement 0)"
    assert ("Ann", "Starbase") in result.state.blueprints


def test_the_starbase_blueprint_error_is_said_in_each_language():
    from companion import i18n

    result = play(blueprint("Starbase", 2))
    found = next(f for f in result.findings if f.rule_kind == "starbase_drives")
    assert [i18n.localize(found.what, lang) for lang in ("el", "pl", "hu")] == [
        "Ann: το σχέδιο της Αστροβάσης έχει Μετακίνηση 2, όμως μια Αστροβάση δεν παίρνει Προωθητήρες",
        "Ann: schemat bazy gwiezdnej ma wartość ruchu 2, ale baza gwiezdna nie może mieć napędów",
        "Ann: a Csillagbázis hajótervrajzán 2 a mozgásérték, de a Csillagbázisra nem kerülhet hajtómű"]
    assert i18n.localize(found.fix, "pl") == "zdejmij napędy ze schematu bazy gwiezdnej (wartość ruchu 0)"
