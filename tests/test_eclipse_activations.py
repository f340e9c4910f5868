"""Ship activations in one Move (rules/eclipse/drives.py, map_events.ship_moved).

Rise of the Ancients p.4, Ship activation: "the Move action consists of several ship activations; the number of arrows
on your Move action symbol is the number of activations per Move; with each activation you move one ship as far as
its Drives allow". The boards: Magellan and Exiles "move up to two ships, or one ship twice" (p.14), the Rho Indi
Syndicate "up to four ships (four activations)" (p.15; its p.16 example again), the Enlightened two (p.15). A
reaction, after passing, is a weaker Move (Eclipse, Action phase, Passing): one activation, UNCONFIRMED, so a warning.

The map of tests/test_eclipse_move_steps.py, worked from the printed tiles: HOME (0, -2) -> CAPELLA (0, -1) ->
CENTRE (0, 0) are steps through full wormholes either way, each a neighbour of the next.
"""

from __future__ import annotations

import pytest

from rules import Event, Severity, replay
from rules.eclipse import ECLIPSE_GAME
from tests.test_eclipse_move_steps import CAPELLA, CENTRE, HOME, SET_UP, said_on

COUNTED = ("too_many_activations", "beyond_movement", "second_jump")


def play(species: str, *rows):
    """Ann plays ``species`` (Bob Orion Hegemony): the set-up of tests/test_eclipse_move_steps.py, then ``rows``."""
    settings = {"players": [{"name": "Ann", "species": species}, {"name": "Bob", "species": "Orion Hegemony"}]}
    events = [Event(seq=k, kind=kind, payload=payload, player=player)
              for k, (kind, player, payload) in enumerate([*SET_UP, *rows], 1)]
    return replay(ECLIPSE_GAME, settings, events)


def move(frm, to, ship: str, jump: bool = False):
    return ("action_taken", "Ann", {"action": "move", "from": frm, "to": to, "ship": ship,
                                    **({"jump": True} if jump else {})})


def step(frm, to, ship: str | None = None, jump: bool = False, again: bool = False):
    return ("ship_moved", "Ann", {"from": frm, "to": to, **({"ship": ship} if ship else {}),
                                  **({"jump": True} if jump else {}), **({"again": True} if again else {})})


def errors(result, seq: int) -> list[str]:
    return [kind for kind, severity in said_on(result, seq) if kind in COUNTED and severity is Severity.ERROR]


def blueprint(ship: str, movement: int, jump_drive: bool):
    return ("blueprint_set", "Ann", {"ship": ship, "movement": movement, "jump_drive": jump_drive})


def test_the_magellan_cruiser_of_page_8_moves_twice_in_one_move():
    """p.8's example, step by step: the Magellan player's Cruiser has the Jump Drive and a Fusion Drive (Movement 2).
    First activation: two hexes [1, 2] and a jump [3]; second activation (the same ship again): one hex [4], a jump
    [5], one more hex [6]. Two activations, each its Movement and one jump: no error. A third activation (the same
    ship again from where it stands) is one more than a Magellan Move gives: flagged once, at the step starting it,
    naming the board's page."""
    result = play("Magellan", blueprint("Cruiser", 2, True),
                  move(HOME, CAPELLA, "Cruiser"), step(CAPELLA, CENTRE), step(CENTRE, CAPELLA, jump=True),
                  step(CAPELLA, CENTRE, again=True), step(CENTRE, CAPELLA, jump=True), step(CAPELLA, HOME),
                  step(HOME, CAPELLA, again=True), step(CAPELLA, CENTRE))
    assert [errors(result, seq) for seq in range(6, 12)] == [[]] * 6
    assert errors(result, 12) == ["too_many_activations"] and errors(result, 13) == []
    found = next(f for f in result.findings if f.rule_kind == "too_many_activations")
    assert found.what == ("Ann plays Magellan: one Move gives 2 activations (Rise of the Ancients p.14), and this "
                          "step starts activation 3")
    assert found.severity is Severity.ERROR and "p.4" in found.rule


def test_without_saying_again_the_same_ship_going_on_is_one_activation():
    """The same six steps with no "again": one activation of 6 hexes, beyond the Movement 2 and the jump: the box
    cannot tell a second activation from going on, so the table says it with "again" (the phone's field)."""
    result = play("Magellan", blueprint("Cruiser", 2, True),
                  move(HOME, CAPELLA, "Cruiser"), step(CAPELLA, CENTRE), step(CENTRE, CAPELLA, jump=True),
                  step(CAPELLA, CENTRE))
    assert errors(result, 9) == ["beyond_movement"]


def test_the_syndicate_of_page_16_activates_four_ships_and_no_fifth():
    """p.16's example: the Syndicate's Move gives four activations: each of two Cruisers (Nuclear Drive, Movement 1,
    and a Jump Drive) moves a hex and jumps one more, then each of two Interceptors moves once. No error. A fifth
    ship is one activation too many (p.15: "up to four ships (four activations)")."""
    result = play("Rho Indi Syndicate", blueprint("Cruiser", 1, True), blueprint("Interceptor", 1, False),
                  move(HOME, CAPELLA, "Cruiser"), step(CAPELLA, CENTRE, jump=True),
                  step(HOME, CAPELLA, "Cruiser"), step(CAPELLA, CENTRE, jump=True),
                  step(HOME, CAPELLA, "Interceptor"), step(CENTRE, CAPELLA, "Interceptor"),
                  step(HOME, CAPELLA, "Interceptor"))
    assert [errors(result, seq) for seq in range(7, 13)] == [[]] * 6
    assert errors(result, 13) == ["too_many_activations"]
    found = next(f for f in result.findings if f.rule_kind == "too_many_activations")
    assert found.what == ("Ann plays Rho Indi Syndicate: one Move gives 4 activations (Rise of the Ancients p.15), "
                          "and this step starts activation 5")


def test_a_move_reactions_second_activation_is_asked_about_not_flagged():
    """Ann passes; Bob upgrades; on her turn Ann reacts with a Move: an Interceptor (Movement 2) HOME -> CAPELLA ->
    CENTRE is one activation (nothing said); another ship from HOME, or the same one again, starts a second
    activation. The sources have a reaction only as "a weaker Upgrade, Build or Move" (Eclipse, Action phase,
    Passing): its one-activation limit is in no stored rulebook (the rules digest marks it UNCONFIRMED, and the Greek
    Rise of the Ancients rulebook says nothing of reactions), so it was a misplay on a rule the box cannot cite. Now it
    is a warning for the table to settle, naming Passing, whatever the species (Exiles give two on a Move action);
    the step is recorded either way."""
    for again in (False, True):
        frm = CENTRE if again else HOME
        result = play("Exiles", blueprint("Interceptor", 2, False), ("passed", "Ann", {}),
                      ("action_taken", "Bob", {"action": "upgrade"}), move(HOME, CAPELLA, "Interceptor"),
                      step(CAPELLA, CENTRE), step(frm, CAPELLA, again=again))
        assert result.state.rounds.passed == ("Ann",)
        assert [errors(result, seq) for seq in (8, 9, 10)] == [[], [], []]
        found = [f for f in result.findings if f.rule_kind == "too_many_activations"]
        assert [(f.seq, f.severity) for f in found] == [(10, Severity.WARNING)]
        assert found[0].what == ("Ann has passed: a Move reaction is one activation (one ship moved once), and this "
                                 "step starts activation 2")
        assert "Passing" in found[0].rule
        assert len(result.state.activations) == 1 and result.state.activations["Ann"].number == 2


def test_a_base_game_species_moves_are_not_counted():
    """The base game's boards are not in the sources: a Terran's five activations in one Move are not flagged (nor
    before this change), and a Move action of an Exiles player, two activations, is not either."""
    terran = play("Terran Directorate", move(HOME, CAPELLA, "Interceptor"), *[step(HOME, CAPELLA)] * 4)
    assert not [f for f in terran.findings if f.rule_kind == "too_many_activations"]
    exiles = play("Exiles", move(HOME, CAPELLA, "Interceptor"), step(HOME, CAPELLA))
    assert not [f for f in exiles.findings if f.rule_kind == "too_many_activations"]


def test_a_jump_drive_beside_other_drives_is_allowed_and_said_so():
    """Rise of the Ancients p.8: the Greek text says the Jump Drive cannot be on a ship with other drives, but its own
    example (a Cruiser with the Jump Drive and a Fusion Drive) and p.16's (Cruisers with Jump Drives and Nuclear
    Drives) have both: the blueprint is recorded with an information note citing the examples, never an error; a
    Jump Drive alone (Movement 0) or drives alone get no note."""
    result = play("Magellan", blueprint("Cruiser", 2, True), blueprint("Interceptor", 0, True),
                  blueprint("Dreadnought", 1, False))
    notes = [(f.seq, f.severity) for f in result.findings if f.rule_kind == "jump_beside_drives"]
    assert notes == [(5, Severity.INFO)]
    found = next(f for f in result.findings if f.rule_kind == "jump_beside_drives")
    assert found.what == ("Ann's Cruiser has a Jump Drive beside other drives (Movement 2): allowed, as in the "
                          "rulebook's examples (a Cruiser with the Jump Drive and a Fusion Drive, p.8; the Syndicate's "
                          "Cruisers with Jump Drives and Nuclear Drives, p.16): each activation, its Movement and one "
                          "jump")
    assert "p.8" in found.rule


def carried(frm, to, ship: str | None = "Interceptor"):
    return ("ship_moved", "Ann", {"from": frm, "to": to, **({"ship": ship} if ship else {}), "carried": True})


def test_interceptors_riding_in_an_interceptor_bay_are_no_activations():
    """Rise of the Ancients p.4, Interceptor Bay: "each Interceptor Bay lets you move up to two non-pinned Interceptors
    there with one single Ship activation"; afterwards an Interceptor may leave the Bay and move on its own with another
    activation. A Magellan Move gives two activations (p.14). The Dreadnought (Movement 2) moves two hexes carrying two
    Interceptors (Movement 1), each reported hex by hex: one activation, the Interceptors' two hexes counted against
    nothing. One Interceptor then leaves the Bay and moves a hex: activation 2, allowed. The other moves too:
    activation 3, one more than the board gives. Before, the carried steps were activations 2-5, each flagged."""
    result = play("Magellan", blueprint("Dreadnought", 2, False), blueprint("Interceptor", 1, False),
                  move(HOME, CAPELLA, "Dreadnought"), carried(HOME, CAPELLA), carried(HOME, CAPELLA),
                  step(CAPELLA, CENTRE), carried(CAPELLA, CENTRE), carried(CAPELLA, CENTRE, ship=None),
                  step(CENTRE, CAPELLA, "Interceptor"), step(CENTRE, CAPELLA, "Interceptor"))
    assert [errors(result, seq) for seq in range(7, 14)] == [[]] * 7
    assert errors(result, 14) == ["too_many_activations"]
    assert not [f for f in result.findings if f.rule_kind.startswith("carried")]


def test_only_an_interceptor_rides_in_a_bay_and_only_behind_a_ship_that_moved():
    """Rise of the Ancients p.4: the Bay carries Interceptors. A Cruiser reported as carried is flagged naming the
    part; an Interceptor carried before any ship of the Move has moved (a Move reported without hexes), or behind an
    Interceptor, has no ship to carry it."""
    result = play("Magellan", ("action_taken", "Ann", {"action": "move"}), carried(HOME, CAPELLA))
    assert [k for k, s in said_on(result, 6) if k != "full_wormhole"] == ["carried_without_carrier"]
    result = play("Magellan", move(HOME, CAPELLA, "Interceptor"), carried(HOME, CAPELLA))
    assert [k for k, s in said_on(result, 6) if k != "full_wormhole"] == ["carried_without_carrier"]
    result = play("Magellan", move(HOME, CAPELLA, "Dreadnought"), carried(HOME, CAPELLA, ship="Cruiser"))
    assert [k for k, s in said_on(result, 6) if k != "full_wormhole"] == ["carried_not_interceptor"]
    found = next(f for f in result.findings if f.rule_kind == "carried_not_interceptor")
    assert found.what == "Ann's Cruiser is reported riding in an Interceptor Bay: only Interceptors ride in one"
    assert "p.4" in found.rule and found.severity is Severity.ERROR


def test_a_ship_going_on_beyond_its_movement_is_told_how_to_say_another_activation():
    """The box cannot tell the same ship activated again from its activation going on (a step names a ship type, and
    ships of a type are alike): the p.8 Cruiser's second activation sent without "again" is flagged beyond its
    Movement, and the fix now says to report it as another activation of the same ship; a ship's first step beyond
    its Movement (no activation going on) keeps the plain fix."""
    result = play("Magellan", blueprint("Cruiser", 2, True),
                  move(HOME, CAPELLA, "Cruiser"), step(CAPELLA, CENTRE), step(CENTRE, CAPELLA, jump=True),
                  step(CAPELLA, CENTRE))
    found = next(f for f in result.findings if f.rule_kind == "beyond_movement")
    assert found.fix.startswith("if this is the same ship activated again, undo the step and report it as starting "
                                "another activation of the same ship")
    result = play("Magellan", blueprint("Cruiser", 0, False), move(HOME, CAPELLA, "Cruiser"))
    found = next(f for f in result.findings if f.rule_kind == "beyond_movement")
    assert found.fix == "take the step back, or correct the Movement on the blueprint"


def magellan_dreadnought_moved(store):
    """A 2-player flow (Ann Magellan, Bob Orion Hegemony) where Ann has explored next to her home and begun a Move
    of her Dreadnought there: the next step reported is another step of that Move."""
    from tests.test_eclipse_flow import start

    flow = start(store, species=["Magellan", "Orion Hegemony"])
    flow.report("Ann", "home", {"sector": "221", "hex": [0, -2], "rotation": 0})
    flow.report("Bob", "home", {"sector": "232", "hex": [0, 2], "rotation": 0})
    flow.report("Ann", "explore", {"sector": "106", "hex": [0, -1], "rotation": 0, "from": [0, -2]})
    flow.report("Bob", "upgrade", {})
    flow.report("Ann", "move", {"from": [0, -2], "to": [0, -1], "ship": "Dreadnought"})
    return flow


def test_the_phones_step_form_says_an_interceptor_rides_in_the_bay(store):
    """The step form's field "An Interceptor riding in an Interceptor Bay (no activation)" (yes) records the step as
    carried: a Magellan Dreadnought's Move with two Interceptors riding along, then one more ship, is two activations
    and no error (before, the Interceptors' steps were activations 2 and 3, the second flagged); the field is said in
    each language, the Greek with the rulebook's Βάση Αναχαιτιστικών (p.4)."""
    from companion import i18n

    flow = magellan_dreadnought_moved(store)
    for _ in range(2):
        flow.report("Ann", "step", {"from": [0, -2], "to": [0, -1], "ship": "Interceptor", "carried": "yes"})
    flow.report("Ann", "step", {"from": [0, -2], "to": [0, -1], "ship": "Cruiser"})
    assert not [f for f in flow.view()["findings"] if "activation" in f["what"]]
    field = next(f for f in next(f for f in flow.view()["forms"] if f["id"] == "step")["fields"]
                 if f["name"] == "carried")
    assert field["label"] == "An Interceptor riding in an Interceptor Bay (no activation)"
    assert "Βάση Αναχαιτιστικών" in i18n.say(field["label"], "el")
    assert "Myśliwiec" in i18n.say(field["label"], "pl") and "Elfogó" in i18n.say(field["label"], "hu")


def test_an_interceptor_in_a_bay_goes_where_its_carrier_went():
    """Rise of the Ancients p.4: the Interceptors ride in the Bay, so they go where the carrying ship goes in its
    activation. The Dreadnought moves HOME -> CAPELLA: an Interceptor carried CAPELLA -> CENTRE, ahead of it, is
    flagged naming both hexes; once the Dreadnought has gone on to CENTRE, the same step, and one reported over the
    whole way HOME -> CENTRE, are allowed; back the other way (CENTRE -> HOME) is not."""
    result = play("Magellan", move(HOME, CAPELLA, "Dreadnought"), carried(CAPELLA, CENTRE))
    assert [k for k, s in said_on(result, 6) if k != "full_wormhole"] == ["carried_off_path"]
    found = next(f for f in result.findings if f.rule_kind == "carried_off_path")
    assert found.what == ("Ann's Interceptor rides in an Interceptor Bay from (0, -1) to (0, 0), but the ship "
                          "carrying it has not moved from the one to the other in this activation")
    result = play("Magellan", move(HOME, CAPELLA, "Dreadnought"), step(CAPELLA, CENTRE), carried(CAPELLA, CENTRE),
                  carried(HOME, CENTRE), carried(CENTRE, HOME))
    assert [k for k, s in said_on(result, 7) if k.startswith("carried")] == []
    assert [k for k, s in said_on(result, 8) if k.startswith("carried")] == []
    assert [k for k, s in said_on(result, 9) if k.startswith("carried")] == ["carried_off_path"]


def test_a_step_both_riding_in_a_bay_and_another_activation_is_refused(store):
    """Rise of the Ancients p.4: an Interceptor riding in an Interceptor Bay moves with its carrier's activation and
    starts none, so a step sent with both "riding in the Bay" and "starts another activation" says two things that
    cannot both be. It was recorded as riding (the other answer dropped); now it is refused naming both answers, in
    the player's language, and nothing is recorded."""
    from companion import i18n
    from companion.errors import BadEntry

    flow = magellan_dreadnought_moved(store)
    before = flow.session.last_seq
    with pytest.raises(BadEntry) as refused:
        flow.report("Ann", "step", {"from": [0, -2], "to": [0, -1], "ship": "Interceptor", "carried": "yes",
                                    "again": "ναι"})
    said = refused.value.args[0]
    assert "starts no activation" in i18n.say(said, "en") and "Rise of the Ancients p.4" in i18n.say(said, "en")
    assert "Βάση Αναχαιτιστικών" in i18n.say(said, "el") and "Myśliwiec" in i18n.say(said, "pl")
    assert "Elfogó" in i18n.say(said, "hu")
    assert flow.session.last_seq == before
    flow.report("Ann", "step", {"from": [0, -2], "to": [0, -1], "ship": "Interceptor", "carried": "yes",
                                "again": "no"})
    step = flow.session.events()[-1]
    assert flow.session.last_seq > before and step.kind == "ship_moved" and step.payload.get("carried") is True
    assert "again" not in step.payload
