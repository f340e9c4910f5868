"""Eclipse's Action phase on the phones (companion/flows/eclipse.py; Eclipse 1.2, Action phase and Passing): a
passed player is not asked to pass again, an action after passing is refused with the rule, a Move's further steps
take no turn, an action echoed and withdrawn as the action taken in the players' languages, and simultaneous play's
marker holders.
"""

from __future__ import annotations

import pytest

from companion import i18n
from companion.errors import BadEntry
from tests.test_eclipse_flow import start


def test_a_passed_player_is_not_asked_to_pass_again(store):
    """Eclipse 1.2, Passing: after passing a player only reacts (Upgrade, Build or Move), on their own turns; a turn
    with no reaction goes by when the next player acts. Ann passed, then Bob: Cy's turn. Ann's phone offers no Pass
    (before, every time round her turn came she had to pass again, or the next player was "out of turn"); a pass
    sent anyway is refused with the rule, nothing recorded, in each language. Cy acts, Dee acts: Ann's and Bob's
    turns go by with no warning; Ann may still react on hers."""
    from companion import i18n

    flow = start(store, "Ann,Bob,Cy,Dee")
    flow.report("Ann", "pass", {})
    flow.report("Bob", "pass", {})
    view = flow.view()
    assert view["turn"] == "Cy"
    assert "pass" not in view["open_forms"]["Ann"] and "move" in view["open_forms"]["Ann"]  # reactions still
    assert "pass" in view["open_forms"]["Cy"]
    before = flow.session.last_seq
    with pytest.raises(BadEntry) as refused:
        flow.report("Ann", "pass", {})
    said = {lang: i18n.say(refused.value, lang) for lang in ("en", "el", "pl", "hu")}
    assert said["en"] == ("Ann has already passed this round: after passing, a player only reacts (Upgrade, Build or "
                          "Move) on their own turns, and a turn with no reaction goes by when the next player acts "
                          "(it is Cy's turn)")
    assert said["el"].startswith("Ann έχει ήδη πάει πάσο σε αυτόν τον γύρο") and said["el"].endswith("(τώρα παίζει Cy)")
    assert said["pl"].startswith("Ann jest już po spasowaniu w tej rundzie") and said["pl"].endswith("(teraz gra Cy)")
    assert said["hu"].startswith("Ann már passzolt ebben a körben") and said["hu"].endswith("(most Cy következik)")
    assert flow.session.last_seq == before and flow.view()["turn"] == "Cy"
    flow.report("Cy", "upgrade", {})
    flow.report("Dee", "research", {})  # Ann's and Bob's turns (no reaction) go by: Cy's again
    view = flow.view()
    assert view["turn"] == "Cy" and not [f for f in view["findings"] if f["severity"] != "info"]
    flow.report("Cy", "pass", {})
    flow.report("Dee", "research", {})
    flow.report("Ann", "move", {})  # a reaction on her own turn, before Dee's: in turn
    flow.report("Dee", "pass", {})  # Bob's and Cy's turns go by; everyone has passed: Combat
    view = flow.view()
    assert view["round_label"] == "Round 1 of 9, Combat phase"
    assert not [f for f in view["findings"] if f["severity"] != "info"]


def test_an_action_after_passing_is_refused_with_the_rule(store):
    """Eclipse 1.2, Passing: after passing a player may only react (Upgrade, Build, Move). Zoë passed, then her
    phone sends Explore: refused naming the rule, in each language (before: "Explore cannot be reported now (Round 1
    of 9, Action phase)", no reason); nothing is recorded."""
    from companion import i18n

    flow = start(store, "Ann,Zoë,Cy")
    flow.report("Ann", "pass", {})
    flow.report("Zoë", "pass", {})
    before = flow.session.last_seq
    with pytest.raises(BadEntry) as refused:
        flow.report("Zoë", "explore", {"sector": "106 Capella", "hex": [0, -1], "rotation": 0})
    said = {lang: i18n.say(refused.value, lang) for lang in ("en", "el", "pl", "hu")}
    assert said["en"] == "Zoë has passed: only a reaction (Upgrade, Build or Move) is allowed, not Explore"
    assert said["el"] == ("Zoë έχει πάει πάσο: επιτρέπεται μόνο αντίδραση (Αναβάθμιση, Κατασκευή ή Μετακίνηση), όχι "
                          "Εξερεύνηση")
    assert said["pl"].endswith("Eksploracja") and said["hu"].endswith("Felfedezés")
    assert flow.session.last_seq == before
    flow.report("Cy", "pass", {})  # everyone has passed: Combat
    assert flow.view()["round_label"] == "Round 1 of 9, Combat phase"


def test_a_moves_further_steps_are_reported_without_taking_a_turn(store):
    """Eclipse 1.2, Move: one Move action activates ships (Terran: 3), each moving its drives' hexes. The Move form
    gave one step, so a second step had to be a second Move action: "Ann acts out of turn" and the turn moved on
    from the wrong player. "Move: one more step (same Move)" now records each further step, its wormhole checked,
    and the turn stays. Ann's 221 Procyon at (0, -2) (wormholes 12, 2, 6, 8), 106 Capella explored at (0, -1)
    (12, 2, 4, 6): Procyon's 6 meets Capella's 12, Capella's 6 the Galactic Center's 12."""
    flow = start(store, "Ann,Bob", species=["Terran Directorate", "Orion Hegemony"])
    flow.report("Ann", "home", {"sector": "221", "hex": [0, -2], "rotation": 0})
    flow.report("Bob", "home", {"sector": "232", "hex": [0, 2], "rotation": 0})
    flow.report("Ann", "explore", {"sector": "106", "hex": [0, -1], "rotation": 0, "from": [0, -2]})
    flow.report("Bob", "pass", {})
    assert "step" not in flow.view()["open_forms"]["Bob"]  # no Move of Bob's to step on (test_eclipse_move_steps)
    flow.report("Ann", "move", {"from": [0, -2], "to": [0, -1]})
    assert flow.view()["turn"] == "Ann"  # Bob has passed: his turn goes by unless he reacts (Passing)
    step = flow.report("Ann", "step", {"from": [0, -1], "to": [0, 0]})
    view = flow.view()
    assert step.kind == "ship_moved" and view["turn"] == "Ann" and flow.session.events()[-1].kind == "ship_moved"
    mine = [f["what"] for f in view["findings"] if f["seq"] == step.seq]
    assert mine == ["106 Capella and 001 Galactic Center are joined by a full wormhole"], mine
    assert _labels_said(flow, "Move: one more step (same Move)") == {
        "el": "Μετακίνηση: ένα ακόμη βήμα (της ίδιας Μετακίνησης)",
        "pl": "Ruch: jeszcze jeden krok (tego samego Ruchu)", "hu": "Mozgás: még egy lépés (ugyanabban a Mozgásban)"}
    with pytest.raises(BadEntry):  # both hexes of the step are needed
        flow.report("Ann", "step", {"from": [0, -1]})


def _labels_said(flow, label):
    from companion import i18n

    form = next(f for f in flow.view()["forms"] if f["id"] == "step")
    assert str(form["label"]) == label
    return {lang: i18n.say(form["label"], lang) for lang in ("el", "pl", "hu")}


# Explore and Influence as the Greek, Polish and Hungarian tables call them (Eclipse 1.2 Action phase), not the
# phase's "Action" ("Ενέργειες")
ACTION_NAMES = {"el": ("Εξερεύνηση", "Επιρροή"), "pl": ("Eksploracja", "Wpływ"), "hu": ("Felfedezés", "Befolyás")}
RECORDED = {"el": "καταγράφηκε: {what}", "pl": "zapisano: {what}", "hu": "rögzítve: {what}"}


@pytest.mark.parametrize(("lang", "players"), [("el", "Γιώργος,Ζωή"), ("pl", "Zofia,Piotr"), ("hu", "Ágnes,Bálint")])
def test_an_action_is_echoed_and_withdrawn_as_the_action_taken(store, lang, players):
    from companion.actions import Action
    from companion.flow_actions import handle_action

    flow = start(store, players)
    first, second = players.split(",")
    flow.report(first, "home", {"sector": "221", "hex": [0, -2], "rotation": 0})
    flow.report(second, "home", {"sector": "232", "hex": [0, 2], "rotation": 0})
    turn = flow.view()["turn"]
    other = second if turn == first else first
    toward = [0, -1] if turn == first else [0, 1]  # ring I, next to the explorer's starting sector
    explored = handle_action(flow, {"action": Action.REPORT, "origin": "phone", "player": turn, "form": "explore",
                                    "values": {"sector": "103 Beta Leonis", "hex": toward, "rotation": 0}})
    influenced = handle_action(flow, {"action": Action.REPORT, "origin": "phone", "player": other,
                                      "form": "influence", "values": {}})
    explore, influence = ACTION_NAMES[lang]
    assert i18n.say(explored.message, lang) == RECORDED[lang].format(what=f"{turn}: {explore}")
    assert i18n.say(influenced.message, lang) == RECORDED[lang].format(what=f"{other}: {influence}")
    undone = handle_action(flow, {"action": Action.UNDO_REPORT, "origin": "phone", "player": other})
    assert undone.error is None and i18n.say(undone.message, lang).endswith(f": {influence}"), undone


def test_simultaneous_play_a_holder_waiting_to_hand_on_the_marker_is_not_asked_to_act(store):
    """Rise of the Ancients p.13 (simultaneous play): after acting a holder hands the marker clockwise at once, and
    waits while the next player still holds the other. Nine players: the markers start with A1 and E5 (9 // 2 seats
    on). A1, B2, C3 and D4 pass, the First Action marker moving on each time, until D4 must wait for E5. The box
    went on showing D4's turn and offering D4 Pass, and took that Pass again and again (each recorded, the marker
    never moving). Now the turn is E5's, the note says D4 waits, D4's phone has no Pass and D4's pass is refused,
    nothing recorded; once E5 has acted the marker comes to E5's neighbour as the rule moves it."""
    flow = start(store, "A1,B2,C3,D4,E5,F6,G7,H8,I9", simultaneous=True)
    for player in ("A1", "B2", "C3", "D4"):
        flow.report(player, "pass", {})
    assert flow.engine_view()["markers"] == {"first": "D4", "second": "E5", "first_waits": True,
                                             "second_waits": False}
    view = flow.view()
    assert view["turn"] == "E5"
    assert view["note"].startswith("First Action: D4 (waiting: E5 acts first), Second Action: E5")
    assert i18n.say(view["note"], "el").startswith("Πρώτη Ενέργεια: D4 (σε αναμονή: πρώτα παίζει E5), Δεύτερη")
    assert i18n.say(view["note"], "pl").startswith("Pierwsza akcja: D4 (czeka: najpierw gra E5), druga akcja: E5")
    assert i18n.say(view["note"], "hu").startswith("Első akció: D4 (várakozik: előbb E5 következik), második")
    assert "pass" not in view["open_forms"]["D4"] and "pass" in view["open_forms"]["E5"]
    before = flow.session.last_seq
    with pytest.raises(BadEntry) as refused:
        flow.report("D4", "pass", {})
    said = {lang: i18n.say(refused.value, lang) for lang in ("en", "el", "pl", "hu")}
    assert said["en"].endswith("(only the marker holder (E5) acts now)")  # one holder now, not "holders"
    assert said["el"].endswith("(μόνο ο κάτοχος του δείκτη (E5) παίζει τώρα)")
    assert said["pl"].endswith("(teraz działa tylko posiadacz znacznika (E5))")
    assert said["hu"].endswith("(most csak a jelölő birtokosa (E5) cselekszik)")
    assert flow.session.last_seq == before
    flow.report("E5", "explore", {"sector": "101", "hex": [1, -1], "rotation": 0})
    # E5 hands the Second Action marker to F6; the waiting First Action marker comes from D4 to E5
    assert flow.engine_view()["markers"] == {"first": "E5", "second": "F6", "first_waits": False,
                                             "second_waits": False}


def test_simultaneous_play_a_passed_player_holding_a_marker_reacts_or_passes_it_on(store):
    """Rise of the Ancients p.13: the simultaneous variant "follows the basic rules, with the following changes", and
    none of them is about passing (but the first passer's markers for the next round), so Eclipse 1.2's Passing holds:
    a passed player's turn, here an Action marker, is a reaction or nothing, and after it the marker goes on at once.
    Seven players, markers with A and D (7 // 2 seats on). A passes; B, D, C, E, D, F, E and G upgrade: the Second
    Action marker reaches A, who has passed. A's phone offered no Pass, so A could hand the marker on only by
    reacting, and the table stood still. Now the note says A may react or Pass, A's phone offers Pass and the three
    reactions (not Research), and A's Pass hands the marker to B with no warning; B may act at once."""
    flow = start(store, "A,B,C,D,E,F,G", simultaneous=True)
    flow.report("A", "pass", {})
    for player in ("B", "D", "C", "E", "D", "F", "E", "G"):
        flow.report(player, "upgrade", {})
    assert flow.engine_view()["markers"] == {"first": "F", "second": "A", "first_waits": False,
                                             "second_waits": False}
    view = flow.view()
    assert {"pass", "upgrade", "build", "move"} <= set(view["open_forms"]["A"])
    assert "research" not in view["open_forms"]["A"]
    assert ("A has passed and holds an Action marker: a reaction (Upgrade, Build or Move), or Pass to hand it on "
            "(Rise of the Ancients p.13: the basic rules hold)") in view["note"]
    said = {lang: i18n.say(view["note"], lang) for lang in ("el", "pl", "hu")}
    assert "Δείκτη Ενέργειας" in said["el"] and "σ.13" in said["el"]
    assert "znacznik akcji" in said["pl"] and "s. 13" in said["pl"]
    assert "akciójelzőt" in said["hu"] and "13. o." in said["hu"]
    flow.report("A", "pass", {})
    assert flow.engine_view()["markers"] == {"first": "F", "second": "B", "first_waits": False,
                                             "second_waits": False}
    assert flow.engine_view()["passed"] == ["A"]
    flow.report("B", "upgrade", {})
    assert not [f for f in flow.view()["findings"] if f["severity"] != "info"]


def test_simultaneous_play_a_passed_marker_holders_move_reaction_hands_the_marker_on(store):
    """The same table: A, holding the Second Action marker after passing, reacts with a Move instead (one
    activation, Eclipse 1.2 Passing): the marker goes to B as after any action; Research would be refused (only
    reactions after passing)."""
    flow = start(store, "A,B,C,D,E,F,G", simultaneous=True)
    flow.report("A", "pass", {})
    for player in ("B", "D", "C", "E", "D", "F", "E", "G"):
        flow.report(player, "upgrade", {})
    with pytest.raises(BadEntry):
        flow.report("A", "research", {})
    flow.report("A", "move", {})
    assert flow.engine_view()["markers"]["second"] == "B"
    assert not [f for f in flow.view()["findings"] if f["severity"] != "info"]


def test_simultaneous_play_a_passed_player_reacts_only_with_a_marker(store):
    """Rise of the Ancients p.13: only the two Action marker holders act, and the basic rules' Passing holds (a passed
    player reacts on their own turns), so in simultaneous play a passed player's turn is a marker reaching them. Seven
    players, markers with A and D (7 // 2 seats on). A passes: the First Action marker goes to B. A's phone still
    offered Upgrade, Build and Move, and the table's highlighted row named B alone. Now A's phone offers no reaction
    and a Build sent anyway is refused naming the rule and the holders (nothing recorded), in each language; both
    holders are marked as acting; once the Second Action marker reaches A, the reactions are A's again."""
    flow = start(store, "A,B,C,D,E,F,G", simultaneous=True)
    flow.report("A", "pass", {})
    view = flow.view()
    assert view["acting"] == ["B", "D"] and view["turn"] == "B"
    assert not {"upgrade", "build", "move", "pass"} & set(view["open_forms"]["A"])
    assert {"upgrade", "build", "move", "research"} <= set(view["open_forms"]["B"])
    before = flow.session.last_seq
    with pytest.raises(BadEntry) as refused:
        flow.report("A", "build", {})
    said = {lang: i18n.say(refused.value, lang) for lang in ("en", "el", "pl", "hu")}
    assert said["en"] == ("A has passed and holds no Action marker: in simultaneous play a passed player reacts "
                          "(Upgrade, Build or Move) only when an Action marker reaches them (Rise of the Ancients "
                          "p.13, with the basic rules' Passing; only the marker holders (B and D) act now)")
    assert "Δείκτη Ενέργειας" in said["el"] and "σ.13" in said["el"] and "(B και D)" in said["el"]
    assert "znacznika akcji" in said["pl"] and "s. 13" in said["pl"] and "(B i D)" in said["pl"]
    assert "akciójelző" in said["hu"] and "13. o." in said["hu"] and "(B és D)" in said["hu"]
    assert flow.session.last_seq == before
    for player in ("B", "D", "C", "E", "D", "F", "E", "G"):
        flow.report(player, "upgrade", {})
    view = flow.view()
    assert flow.engine_view()["markers"]["second"] == "A"
    assert view["acting"] == ["F", "A"]
    assert {"upgrade", "build", "move", "pass"} <= set(view["open_forms"]["A"])
    flow.report("A", "upgrade", {})
    assert not [f for f in flow.view()["findings"] if f["severity"] != "info"]


def test_normal_play_acting_is_the_turns_player_with_those_who_may_react_first(store):
    """Eclipse 1.2, Passing: in normal play the passed players whose turns come first may react, then the turn's
    player acts: the phones mark all of them. Ann passes, Bob acts: Cy's turn, nobody before Cy has passed."""
    flow = start(store, "Ann,Bob,Cy")
    assert flow.view()["acting"] == ["Ann"]
    flow.report("Ann", "pass", {})
    flow.report("Bob", "upgrade", {})
    assert flow.view()["acting"] == ["Cy"]
    flow.report("Cy", "upgrade", {})  # Ann's turn: she has passed, she may react before Bob acts
    assert flow.view()["acting"] == ["Ann", "Bob"]


def test_the_action_chip_says_who_has_passed_not_bare_names_read_as_the_players_acting(store):
    """Seven players in simultaneous play (Rise of the Ancients p.13): the markers start with A and D (7 // 2 seats
    on), and both pass. The Action chip of the phase strip showed the passed players as bare names ("A, D"), which a
    table reads as the two marker holders acting; it now says "passed: A, D" in each language, and nothing before
    anyone has passed."""
    flow = start(store, "A,B,C,D,E,F,G", simultaneous=True)
    assert flow.view()["phases"][0]["by"] == []
    flow.report("A", "pass", {})
    flow.report("D", "pass", {})
    assert flow.engine_view()["passed"] == ["A", "D"]
    [chip] = flow.view()["phases"][0]["by"]
    said = {lang: i18n.say(chip, lang) for lang in ("en", "el", "pl", "hu")}
    assert said == {"en": "passed: A, D", "el": "πάσο: A, D", "pl": "pas: A, D", "hu": "passzolt: A, D"}
    assert [p["by"] for p in flow.view()["phases"][1:]] == [[], [], []]
