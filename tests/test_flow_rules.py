"""Rules additions the at-table flow needs: Roll's phase_selected and "tableau" tracking, Race's
action_chosen and the round's steps in its view; a player's setup report closes once they select a
phase. Rulebook pages as in the engines' modules."""

from __future__ import annotations

import pytest

from companion.flow import GameFlow
from companion.flows import FLOWS
from companion.player_names import parse_players
from rules import BadEvent, Event, Severity, replay
from rules.race import RACE_GAME
from rules.roll import ROLL_GAME


def events(*specs):
    return [Event(seq=k + 1, kind=kind, player=player, payload=payload)
            for k, (kind, player, payload) in enumerate(specs)]


def test_roll_phase_selection_without_dice_reveals_the_selected_phases():
    # Roll for the Galaxy, p.3-4: each player selects one phase; 2 players add the extra white die's phase.
    log = events(("phase_selected", "Ann", {"phase": "settle", "extra_white": "explore"}),
                 ("phase_selected", "Bob", {"phase": "ship"}),
                 ("reveal", None, {}))
    result = replay(ROLL_GAME, {"players": ["Ann", "Bob"], "tracking": "tableau"}, log)
    view = ROLL_GAME.view(result.state)
    assert view["selected"] == ["explore", "settle", "ship"] and view["round"] == 1
    assert not [f for f in result.findings if f.severity is not Severity.INFO and "setup" not in f.what]
    with pytest.raises(BadEvent, match="Phase must be Explore, Develop, Settle, Produce or Ship, got 'dance'"):
        replay(ROLL_GAME, {"players": ["Ann", "Bob"]}, events(("phase_selected", "Ann", {"phase": "dance"})))


def roll_at_ship(store, bob=(1, "Old Earth")) -> GameFlow:
    """A two-player Roll for the Galaxy game at V Ship of its first round, both players having selected Ship: Ann
    plays faction 3 on Alpha Centauri (a brown world with a brown good from setup), Bob ``bob`` = (faction, home
    world)."""
    roll = GameFlow(store.start("roll", FLOWS["roll"].settings(parse_players("Ann,Bob"), {})), FLOWS["roll"])
    for player, faction, home in (("Ann", 3, "Alpha Centauri"), ("Bob", *bob)):
        roll.report(player, "setup", {"faction": " / ".join(ROLL_GAME.cat.faction(faction).names),
                                      "home_world": home, "development": "Investment Credits", "world": "Gem World"})
    roll.report("Ann", "select", {"phase": "ship"})
    roll.report("Bob", "select", {"phase": "ship"})
    roll.next_phase()  # Reveal
    roll.next_phase()  # V Ship
    return roll


def roll_at_the_last_rounds_end(store) -> GameFlow:
    """A two-player Roll for the Galaxy game at Manage Empire of the round in which Ann's 24 VP emptied the pool (2
    players: the pool holds 24 VP, p.2 Setup): the end of the last round (p.8 End check)."""
    roll = roll_at_ship(store)
    roll.report("Ann", "vp", {"vp": 24})  # 2 players: the pool holds 24 VP (p.2 Setup); it is empty now
    roll.next_phase()  # Manage Empire, the end of the last round
    return roll


def race_with_the_pool_emptied(store) -> GameFlow:
    """A two-player Race for the Galaxy game in its first round whose 24 VP pool (2 players, Race: Setup) Ann's
    Consume has just emptied: the round is the last one (Race: end of game)."""
    race = GameFlow(store.start("race", FLOWS["race"].settings(parse_players("Ann,Bob"), {})), FLOWS["race"])
    race.report("Ann", "start", {"card": "Old Earth"})
    race.report("Bob", "start", {"card": "New Sparta"})
    race.report("Ann", "select", {"action": "Consume: x2 VP"})
    race.report("Bob", "select", {"action": "Consume: Trade ($)"})
    race.report("Ann", "vp", {"vp": 24})  # 2 players: 24 VP in the pool (Race: Setup), now empty
    return race


def test_the_last_round_note_gives_way_to_the_result_once_the_game_is_over(store):
    """Roll for the Galaxy p.8 End check and Race for the Galaxy (end of game): emptying the VP pool makes the round
    the last one, and the findings say so while it is played. Once the game is over the result says it ended: the
    note is no longer listed (it was, under the final scores); Undo back into the round lists it again."""
    roll = roll_at_the_last_rounds_end(store)

    def last_round_notes(flow):
        return [f["what"] for f in flow.view()["findings"] if "this is the last round" in str(f["what"])]

    assert last_round_notes(roll) == ["end of game triggered (VP pool exhausted): this is the last round"]
    roll.next_phase()  # the game ends
    assert roll.view()["over"] and last_round_notes(roll) == []
    assert roll.view()["findings"]  # the other findings stay listed
    roll.session.undo("touchscreen")  # the table's Undo reopens the last round
    assert not roll.view()["over"] and len(last_round_notes(roll)) == 1
    race = race_with_the_pool_emptied(store)
    assert [str(n).split(":")[0] for n in last_round_notes(race)] == [
        "the VP pool is empty (set-aside chips pay out until the round ends)"]
    while not race.view()["over"]:
        race.next_phase()
    assert last_round_notes(race) == []


def test_roll_tracking_must_be_known():
    with pytest.raises(BadEvent, match="'tracking' must be one of full, tableau"):
        ROLL_GAME.initial_state({"players": ["Ann", "Bob"], "tracking": "dice"})


def test_roll_tableau_tracking_builds_from_the_bag_without_worker_checks():
    log = events(("phase_selected", "Ann", {"phase": "develop", "extra_white": "produce"}),
                 ("phase_selected", "Bob", {"phase": "develop"}),
                 ("reveal", None, {}), ("phase", None, {"phase": "develop"}),
                 ("tile_built", "Ann", {"tile": "Advanced Logistics"}),  # printed cost 1, no worker reported
                 ("phase", None, {"phase": "produce"}),
                 ("goods_placed", "Ann", {"world": "Spice World", "colour": "green"}))  # not in her tableau
    result = replay(ROLL_GAME, {"players": ["Ann", "Bob"], "tracking": "tableau"}, log)
    ann = result.state.player("Ann")
    assert "Advanced Logistics" in ann.developments and ann.goods == ()
    problems = [f.what for f in result.findings if f.severity is Severity.ERROR]
    assert problems == ["Spice World is not in Ann's tableau"]  # no worker/cup complaints
    full = replay(ROLL_GAME, {"players": ["Ann", "Bob"]}, log)
    assert any("needs 1 developers" in f.what for f in full.findings)  # the full tracking still checks workers


def test_race_choices_stay_hidden_until_everyone_has_chosen():
    players = {"players": ["Ann", "Bob"]}
    one = replay(RACE_GAME, players, events(("action_chosen", None, {"player": "Ann", "actions": "develop"})))
    view = RACE_GAME.view(one.state)
    assert view["chosen"] == ["Ann"] and view["steps"] == [] and view["stage"] == "setup"
    both = replay(RACE_GAME, players, events(("action_chosen", None, {"player": "Ann", "actions": "settle"}),
                                             ("action_chosen", None, {"player": "Ann", "actions": "develop"}),
                                             ("action_chosen", None, {"player": "Bob", "actions": ["develop"]})))
    view = RACE_GAME.view(both.state)
    # Ann changed her mind before Bob chose: one Develop phase, both get its bonus (digest §3).
    assert view["stage"] == "phases" and view["chosen"] == [] and view["step"] == 0
    assert view["steps"] == [{"phase": "develop", "label": "II Develop", "second": False,
                              "bonus": {"Ann": ["develop"], "Bob": ["develop"]}}]
    with pytest.raises(BadEvent, match="Action card must be Explore .*, got 'warp'"):
        replay(RACE_GAME, players, events(("action_chosen", None, {"player": "Ann", "actions": "warp"})))


def test_a_setup_cannot_be_withdrawn_from_a_phone_once_that_player_is_done(store):
    # Roll for the Galaxy p.2 Setup: each player sets up at their own pace; a player's setup form closes once
    # that player selects a phase (issue 17: one player's selection no longer closes the others' setup), so
    # withdrawing a setup after that would leave the player with no way to report it again.
    from companion.errors import BadEntry
    from tests.test_flow import faction_label

    session = store.start("roll", FLOWS["roll"].settings(parse_players("Ann,Bob"), {}))
    flow = GameFlow(session, FLOWS["roll"])
    flow.report("Ann", "setup", {"faction": faction_label(1), "home_world": "Old Earth",
                                 "development": "Advanced Logistics", "world": "Spice World"})
    flow.report("Bob", "setup", {"faction": faction_label(2), "home_world": "Alpha Centauri",
                                 "development": "Alien Research Team", "world": "Information Hub"})
    assert flow.table().stage == "setup"
    undo = flow.undo_report("Bob")  # during setup: withdrawn, and Bob can report it again
    assert undo is not None and undo.kind == "undo"
    flow.report("Bob", "setup", {"faction": faction_label(2), "home_world": "Alpha Centauri",
                                 "development": "Alien Research Team", "world": "Information Hub"})
    flow.report("Ann", "select", {"phase": "develop", "extra_white": "ship"})
    assert flow.table().stage != "setup"
    assert flow.undo_report("Bob").kind == "undo"  # Bob has not selected a phase: his setup is still open
    flow.report("Bob", "setup", {"faction": faction_label(2), "home_world": "Alpha Centauri",
                                 "development": "Alien Research Team", "world": "Information Hub"})
    assert flow.undo_report("Ann").kind == "undo"  # Ann's phase selection can still be withdrawn before Reveal
    flow.report("Ann", "select", {"phase": "develop", "extra_white": "ship"})
    last = flow.session.last_seq
    with pytest.raises(BadEntry, match="Ann has selected a phase, so their setup is done"):  # Ann is done
        flow.report("Ann", "setup", {"faction": faction_label(1), "home_world": "Old Earth",
                                     "development": "Advanced Logistics", "world": "Spice World"})
    assert flow.session.last_seq == last  # nothing recorded
    flow.report("Bob", "select", {"phase": "settle"})
    flow.next_phase()  # Reveal (p.4): the selections are public now and run this round
    last = flow.session.last_seq
    with pytest.raises(BadEntry, match=r"Ann.s report \(.*\) can no longer be withdrawn") as refused:
        flow.undo_report("Ann")
    assert flow.session.last_seq == last
    # the table's Undo both ways: a box without a touchscreen has the phones' "Undo the table's last entry"
    assert str(refused.value).endswith("the table's Undo takes back the newest event (the touchscreen's, or “Undo "
                                       "the table's last entry” on a phone)")
    from companion import i18n
    assert i18n.localize(i18n.message_of(refused.value), "pl").endswith(
        "najnowsze zdarzenie cofa Cofnij stołu (na ekranie dotykowym albo „Cofnij ostatni wpis stołu” w telefonie)")


def test_no_round_can_be_started_from_a_phone_once_the_last_round_is_at_its_end(store):
    """Roll for the Galaxy p.8 End check and Race for the Galaxy (end of game): the game ends after the round in which
    the VP pool empties. Once that round is at its end (Roll: Manage Empire; Race: the round's end), a phone no
    longer offers the next round's phase or action card (before, a selection started a round after the last one,
    found only afterwards as an error); Next ends the game."""
    from companion import i18n
    from companion.errors import BadEntry

    roll = roll_at_the_last_rounds_end(store)
    view = roll.view()
    assert view["stage"] == "manage" and view["ending"] and view["next"]["label"] == "End game"
    assert "select" not in view["open_forms"]["Ann"] and "vp" in view["open_forms"]["Ann"]
    with pytest.raises(BadEntry, match="the game ends with this round") as refused:
        roll.report("Bob", "select", {"phase": "develop"})
    said = {lang: i18n.localize(i18n.message_of(refused.value), lang) for lang in ("el", "pl", "hu")}
    assert said["el"].startswith("το παιχνίδι τελειώνει με αυτόν τον γύρο (")
    assert said["pl"].startswith("gra kończy się na tej rundzie (")
    assert said["hu"].startswith("a játék ezzel a körrel véget ér (")
    roll.next_phase()
    assert roll.view()["over"] and roll.view()["round"] == 1

    race = race_with_the_pool_emptied(store)
    while race.view()["stage"] != "round_end":
        race.next_phase()
    view = race.view()
    assert view["ending"] and "select" not in view["open_forms"]["Bob"] and "hand" in view["open_forms"]["Bob"]
    with pytest.raises(BadEntry, match="the game ends with this round") as refused:
        race.report("Bob", "select", {"action": "Settle"})
    assert i18n.localize(i18n.message_of(refused.value), "pl").endswith("(Race for the Galaxy, koniec gry)")
    race.next_phase()
    assert race.view()["over"] and race.view()["round"] == 1


def test_roll_asks_about_vp_chips_no_good_consumed_paid_for_once_ship_is_over(store):
    """Roll for the Galaxy, p.7 Ship: a shipper that consumes a good gives VP chips (1, +1 when the good's colour
    matches the world's, +1 when the shipper's does). Ann's phone reports 3 VP chips, then her shipper consuming the
    brown good of Alpha Centauri (a brown world: 1 + 1 = 2 VP); Bob's reports 2 VP chips and nothing shipped. Once
    Ship is over, every report of it in, Bob is asked which consume paid his chips, Ann is not: the same question
    Race asks at the end of IV Consume (rules.consume)."""
    roll = roll_at_ship(store)
    assert roll.engine_view()["players"][0]["goods"] == {"Alpha Centauri": ["brown"]}  # its good from setup
    roll.report("Ann", "vp", {"vp": 3})
    roll.report("Ann", "ship", {"world": "Alpha Centauri", "mode": "consume", "good": "brown", "shipper": "white"})
    roll.report("Bob", "vp", {"vp": 2})
    asked = [f for f in roll.findings(limit=20) if "consume power paid them" in f["what"]]
    assert asked == []  # Ship is still being played
    roll.next_phase()  # Manage Empire
    asked = [f for f in roll.findings(limit=20) if "consume power paid them" in f["what"]]
    assert [(f["what"], f["severity"], f["rule"]) for f in asked] == [
        ("Bob took 2 VP in chips in V Ship and no good of theirs was consumed in it: which consume power paid them?",
         "warning", "Roll for the Galaxy, p.7 Ship: a shipper that consumes a good gives VP chips")]
    # Ann's shipment paid 2 of the 3 chips she reported: the same chips, counted once (p.7 Ship); the third chip is
    # beyond what her Consume gives, and she is asked which power paid it
    assert [p["vp_chips"] for p in roll.engine_view()["players"]] == [3, 2]
    assert [f["what"] for f in roll.findings(limit=20) if "beyond" in f["what"]] == [
        "Ann took 1 VP in chips in V Ship beyond the 2 VP their shipments paid: which power paid them?"]


def test_roll_chips_reported_for_a_consume_are_the_chips_it_paid_counted_once(store):
    """Roll for the Galaxy, p.7 Ship: "each Consume gives the player 1 to 3 VP chips: 1 always, +1 if the good's
    colour is the world's, +1 if the shipper's is" (a purple die matches every world). The shipment's report pays
    those chips; a player who also reports the chips they took for it has them counted once, whichever comes first.

    Worked by hand: Ann's brown good on Alpha Centauri (brown) shipped by a white shipper: 1 + 1 = 2 VP. She reports
    the shipment, then "2 VP chips". Bob reports "3 VP chips", then his blue good on Earth's Lost Colony (blue)
    shipped by a purple shipper: 1 + 1 + 1 = 3 VP. Chips: Ann 2, Bob 3; the 2-player pool of 24 VP (p.2 Setup) keeps
    24 - 5 = 19. Both consumed a good, so nobody is asked which power paid their chips."""
    roll = roll_at_ship(store, bob=(6, "Earth's Lost Colony"))
    roll.report("Ann", "ship", {"world": "Alpha Centauri", "mode": "consume", "good": "brown", "shipper": "white"})
    roll.report("Ann", "vp", {"vp": 2})
    roll.report("Bob", "vp", {"vp": 3})
    roll.report("Bob", "ship", {"world": "Earth's Lost Colony", "mode": "consume", "good": "blue",
                                "shipper": "purple"})
    view = roll.engine_view()
    assert [p["vp_chips"] for p in view["players"]] == [2, 3] and view["vp_pool"] == 24 - 5
    once = [f["what"] for f in roll.findings(limit=20) if "counted once" in f["what"] or "counted within" in f["what"]]
    # Bob reported before shipping: his 3 may have been other chips (a power's), so the box says what to report then
    assert sorted(once) == ["Ann: 2 VP in chips both reported and paid by a shipment in V Ship, counted once",
                            "Bob: the 3 VP in chips a good consumed paid in V Ship are counted within the 3 VP in "
                            "chips reported before it; if they were not among those, report the phase's total in VP "
                            "chips taken: 6"]
    roll.next_phase()  # Manage Empire: every report of Ship is in
    assert not [f for f in roll.findings(limit=20) if "which consume power" in f["what"] or "beyond" in f["what"]]
    assert [p["vp_chips"] for p in roll.engine_view()["players"]] == [2, 3]
