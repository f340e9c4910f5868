"""Race for the Galaxy game state: rounds, phases, legality findings, end of game.

Rule references: "seed" is the Polish rulebook transcript (shared/seeds/003_...), "digest"
the English rules digest (shared/rules/race-for-the-galaxy.md), by section.
"""

from __future__ import annotations

import json

import pytest

from rules import GAMES, BadEvent, Event, Severity, UnknownEvent, replay
from rules.race import RACE_GAME, Stage, final_scores, plan_phases
from rules.race.game import PhaseStep


class Log:
    """Builds an event log with increasing seqs."""

    def __init__(self) -> None:
        self.events: list[Event] = []

    def __call__(self, kind: str, **payload) -> Log:
        self.events.append(Event(seq=len(self.events) + 1, kind=kind, payload=payload, at=1000.0 + len(self.events)))
        return self

    def round(self, **choices) -> Log:
        return self("actions_selected", choices=choices)

    def done(self, times: int = 1) -> Log:
        for _ in range(times):
            self("phase_done")
        return self


def run(log: Log, players=("Ann", "Bob"), **settings):
    return replay(RACE_GAME, {"players": list(players), **settings}, log.events)


def errors(result, severity=Severity.ERROR):
    return [f.what for f in result.findings if f.severity is severity]


def setup(ann="Old Earth", bob="Epsilon Eridani") -> Log:
    return Log()("start_world", player="Ann", card=ann)("start_world", player="Bob", card=bob)


# -- the Game protocol ----------------------------------------------------------------------


def test_race_is_listed_and_declares_its_event_kinds():
    assert GAMES["race"] is RACE_GAME
    assert RACE_GAME.name == "race" and RACE_GAME.title == "Race for the Galaxy"
    with pytest.raises(UnknownEvent, match="race"):
        RACE_GAME.apply(RACE_GAME.initial_state({"players": ["A", "B"]}), Event(seq=1, kind="dice_read"))


def test_apply_is_pure():
    state = RACE_GAME.initial_state({"players": ["Ann", "Bob"]})
    before = RACE_GAME.view(state)
    RACE_GAME.apply(state, Event(seq=1, kind="start_world", payload={"player": "Ann", "card": "Old Earth"}))
    assert RACE_GAME.view(state) == before


def test_vp_pool_is_twelve_per_player():
    # Seed, setup (transcript lines 121-123): 12 VP per player in 1- and 5-VP chips; the
    # 10-VP chips are set aside for the last round.
    for n in (2, 3, 4):
        assert RACE_GAME.initial_state({"players": [f"P{i}" for i in range(n)]}).pool == 12 * n


@pytest.mark.parametrize(
    "settings",
    [{"players": ["A"]}, {"players": ["A", "B", "C", "D", "E"]}, {"players": ["A", "A"]},
     {"players": ["A", "B", "C"], "advanced": True}],
)
def test_bad_settings(settings):
    with pytest.raises(BadEvent):
        RACE_GAME.initial_state(settings)


def test_unknown_card_is_a_bad_event_with_suggestion():
    with pytest.raises(BadEvent, match="did you mean 'Old Earth'"):
        run(Log()("start_world", player="Ann", card="Old Eart"))


def test_start_worlds_from_settings_and_alpha_centauri_windfall():
    # Seed, setup 5: Alpha Centauri starts with a good on it.
    state = RACE_GAME.initial_state({"players": ["Ann", "Bob"],
                                     "start_worlds": {"Ann": "Alpha Centauri", "Bob": "New Sparta"}})
    assert state.player("Ann").tableau[0].good is True
    assert state.player("Bob").tableau[0].good is False


def test_start_world_findings_cite_the_rulebook_section_never_a_digest_number():
    """Race for the Galaxy, Setup: one start world dealt face up to each player. What players read names the
    rulebook's section, not a numbered list of the project's notes ("setup 3")."""
    import re

    log = Log()("start_world", player="Ann", card="Old Earth")("start_world", player="Ann", card="Earth's Lost Colony")
    log("start_world", player="Bob", card="Old Earth")("start_world", player="Bob", card="Gambling World")
    found = run(log).findings
    assert {f.what for f in found} >= {"Ann already has a start world", "Gambling World is not a start world"}
    for f in found:
        assert f.rule.startswith("Race for the Galaxy, Setup: start worlds"), f.rule
        assert not re.search(r"\b(setup|round|digest) ?\d|§", f.rule), f.rule
    options = {o.name: o for o in RACE_GAME.info.options}
    assert "setup 3" not in options["start_worlds"].help and "setup 3" not in options["start_worlds"].distinct


# -- the round: selection and phases (seed; digest §3) --------------------------------------


def test_only_selected_phases_in_order_with_bonus_for_choosers():
    steps = plan_phases({"Ann": ("produce",), "Bob": ("develop",), "Cy": ("develop",)})
    assert [s.phase for s in steps] == ["develop", "produce"]
    assert steps[0].bonus_for("Bob") == ("develop",) and steps[0].bonus_for("Cy") == ("develop",)
    assert steps[0].bonus_for("Ann") == ()
    assert steps[1].bonus_for("Ann") == ("produce",)


def test_two_explore_cards_one_explore_phase():
    steps = plan_phases({"Ann": ("explore_5",), "Bob": ("explore_1_1",)})
    assert steps == (PhaseStep("explore", (("Ann", ("explore_5",)), ("Bob", ("explore_1_1",)))),)


def test_advanced_both_develop_cards_give_a_second_develop_phase():
    # Digest §3 advanced 2-player: both Develop cards -> two Develop phases with a bonus in
    # each; the opponent who chose Develop once gets the bonus in the first only.
    steps = plan_phases({"Ann": ("develop", "develop_2"), "Bob": ("develop", "produce")}, advanced=True)
    assert [(s.phase, s.second) for s in steps] == [("develop", False), ("develop", True), ("produce", False)]
    assert steps[0].bonus_for("Ann") == ("develop",) and steps[0].bonus_for("Bob") == ("develop",)
    assert steps[1].bonus_for("Ann") == ("develop_2",) and steps[1].bonus_for("Bob") == ()


def test_a_round_runs_through_its_phases():
    log = setup().round(Ann="develop", Bob="settle")
    r = run(log)
    assert r.state.stage is Stage.PHASES and r.state.round == 1
    assert [s.label for s in r.state.steps] == ["II Develop", "III Settle"]
    assert r.state.current.phase == "develop"
    r = run(log.done())
    assert r.state.current.phase == "settle"
    r = run(log.done()("round_ended"))
    assert r.state.stage is Stage.SELECT and r.findings == ()


def test_wrong_number_of_action_cards():
    r = run(setup().round(Ann=["develop", "settle"], Bob="settle"))
    assert any("chose 2 action cards" in w for w in errors(r))
    r = run(setup().round(Ann="develop_2", Bob="settle"))
    assert any("only in the advanced" in w for w in errors(r))
    with pytest.raises(BadEvent, match="Bob: Action cards revealed: not given"):
        run(setup().round(Ann="develop"))
    with pytest.raises(BadEvent, match="Bob: Action cards revealed must be Explore"):
        run(setup().round(Ann="develop", Bob="trade"))


def test_hand_limit_at_round_end():
    # Seed, the round (transcript lines 318-327): after the phases, discard down to 10 cards.
    r = run(setup().round(Ann="produce", Bob="produce").done()("round_ended", hands={"Ann": 11, "Bob": 10}))
    (what,) = errors(r)
    assert "Ann ends round 1 with 11 cards" in what
    assert r.state.player("Ann").hand == 11


def test_a_hand_counted_in_an_earlier_round_is_not_flagged_again():
    # The round: discard down to 10 at the end of every round. Ann counts 11 cards in round 1: flagged at its end,
    # where she discards. Round 2 goes by without a count: her hand is no longer 11, so nothing is flagged; she
    # counts 12 in round 3's Produce: flagged at round 3's end, once.
    log = setup().round(Ann="produce", Bob="produce")("hand_counted", player="Ann", cards=11).done()("round_ended")
    r = run(log)
    assert errors(r) == ["Ann ends round 1 with 11 cards in hand; discard down to 10"]
    log = log.round(Ann="produce", Bob="produce").done()("round_ended")
    assert errors(run(log)) == ["Ann ends round 1 with 11 cards in hand; discard down to 10"]
    log = log.round(Ann="produce", Bob="produce")("hand_counted", player="Ann", cards=12).done()("round_ended")
    assert errors(run(log)) == ["Ann ends round 1 with 11 cards in hand; discard down to 10",
                                "Ann ends round 3 with 12 cards in hand; discard down to 10"]


def test_a_hand_over_ten_counted_after_its_round_ended_is_flagged_once():
    # The round: discard down to 10 at the end of every round. Round 1 is ended with no count; while the players
    # choose round 2's action cards Ann counts 12 cards: the discard of round 1 was missed, and the count says so at
    # once, as round 1's hand. Round 2 then goes by without a count: her hand is not flagged again at its end.
    log = setup().round(Ann="produce", Bob="produce").done()("round_ended")("hand_counted", player="Ann", cards=12)
    assert errors(run(log)) == ["Ann ends round 1 with 12 cards in hand; discard down to 10"]
    log = log.round(Ann="produce", Bob="produce").done()("round_ended")
    assert errors(run(log)) == ["Ann ends round 1 with 12 cards in hand; discard down to 10"]
    # a count of 10 or fewer then is no finding, nor is one during a round's phases until that round's end
    assert errors(run(setup().round(Ann="produce", Bob="produce").done()("round_ended")
                      ("hand_counted", player="Ann", cards=10))) == []
    assert errors(run(setup().round(Ann="produce", Bob="produce")("hand_counted", player="Ann", cards=12))) == []


# -- Develop: duplicate development, payment (seed Develop; digest §4 II) --------------------


def test_second_copy_of_a_development_in_one_tableau():
    # Seed, Develop (transcript line 439): no development identical to one already in the tableau.
    log = setup().round(Ann="develop", Bob="develop")("card_placed", player="Ann", card="Space Marines").done()
    log.round(Ann="develop", Bob="settle")("card_placed", player="Ann", card="Space Marines")
    r = run(log)
    assert any("already has Space Marines" in w for w in errors(r))


def test_the_other_player_may_own_the_same_development():
    log = setup().round(Ann="develop", Bob="develop")
    r = run(log("card_placed", player="Ann", card="Space Marines")("card_placed", player="Bob", card="Space Marines"))
    assert r.findings == ()


def test_develop_bonus_pays_one_less():
    # Replicant Robots costs 4; the Develop bonus pays 1 less -> 3 for Ann, 4 for Bob.
    log = setup().round(Ann="develop", Bob="settle")
    r = run(log("card_placed", player="Ann", card="Replicant Robots", paid=3)
            ("card_placed", player="Bob", card="Replicant Robots", paid=3))
    (what,) = errors(r)
    assert "costs 4" in what and "3 were paid" in what


def test_one_card_per_phase_and_placed_in_the_right_phase():
    log = setup().round(Ann="develop", Bob="develop")
    r = run(log("card_placed", player="Ann", card="Space Marines")("card_placed", player="Ann", card="Public Works"))
    assert any("second card in one II Develop phase" in w for w in errors(r))
    r = run(setup().round(Ann="develop", Bob="develop")("card_placed", player="Ann", card="Gem World", paid=2))
    assert any("outside the Settle phase" in f.what for f in r.findings)


# -- Settle: military (seed Settle, military conquest; digest §4 III) -----------------------


def settle_round(ann="Old Earth", bob="Epsilon Eridani") -> Log:
    return setup(ann, bob).round(Ann="settle", Bob="settle")


def test_conquest_needs_military_at_least_defense():
    # Seed, Settle, military conquest (transcript lines 621-669): Military >= defense.
    # New Sparta: +2 Military; Pirate World defense 3 -> 2 < 3, illegal.
    r = run(settle_round(ann="New Sparta")("card_placed", player="Ann", card="Pirate World"))
    (what,) = errors(r)
    assert "Pirate World (defense 3) with only 2 Military" in what
    # Former Penal Colony defense 2: 2 >= 2, legal.
    assert errors(run(settle_round(ann="New Sparta")("card_placed", player="Ann", card="Former Penal Colony"))) == []


def test_negative_military_powers_count():
    # New Sparta +2, Empath World -1 (placed in an earlier round) -> 1 < defense 2.
    log = settle_round(ann="New Sparta")("card_placed", player="Ann", card="Empath World").done()("round_ended")
    log.round(Ann="settle", Bob="settle")("card_placed", player="Ann", card="Former Penal Colony")
    r = run(log)
    assert any("defense 2) with only 1 Military" in w for w in errors(r))


def test_qualified_military_only_against_matching_worlds():
    # Alpha Centauri: +1 Military against Rare worlds only.
    # Runaway Robots (Rare, defense 1): 1 >= 1 legal. Star Nomad Lair (Novelty, defense 1): 0 < 1.
    assert errors(run(settle_round(ann="Alpha Centauri")("card_placed", player="Ann", card="Runaway Robots"))) == []
    r = run(settle_round(ann="Alpha Centauri")("card_placed", player="Ann", card="Star Nomad Lair"))
    assert any("with only 0 Military" in w for w in errors(r))


def test_new_military_tactics_discarded_adds_three_for_this_settle_phase():
    # New Sparta +2, New Military Tactics discarded +3 -> 5 >= Lost Alien Warship's defense 5.
    log = setup(ann="New Sparta").round(Ann="develop", Bob="develop")
    log = log("card_placed", player="Ann", card="New Military Tactics").done()
    log.round(Ann="settle", Bob="settle")("card_discarded", player="Ann", card="New Military Tactics")
    r = run(log("card_placed", player="Ann", card="Lost Alien Warship"))
    assert errors(r) == []
    assert r.state.player("Ann").find("New Military Tactics") is None
    # Without the discard: 2 < 5.
    log = setup(ann="New Sparta").round(Ann="develop", Bob="develop")
    log = log("card_placed", player="Ann", card="New Military Tactics").done()
    r = run(log.round(Ann="settle", Bob="settle")("card_placed", player="Ann", card="Lost Alien Warship"))
    assert any("with only 2 Military" in w for w in errors(r))


def test_powers_work_from_the_phase_after_placement():
    # Digest §5: a power works from the phase after the one its card was placed in.
    # Space Marines (+2 Military) placed in Develop counts in this round's Settle phase:
    # Old Earth 0 + 2 = 2 >= Former Penal Colony's defense 2.
    log = setup().round(Ann="develop", Bob="settle")
    log("card_placed", player="Ann", card="Space Marines").done()
    r = run(log)
    assert errors(r) == [] and r.state.current.phase == "settle"
    r = run(log("card_placed", player="Ann", card="Former Penal Colony"))
    assert errors(r) == []


def test_advanced_second_settle_uses_powers_placed_in_the_first():
    # Digest §3 advanced 2-player: both Settle cards -> two Settle phases; powers placed in
    # the first already work in the second. Former Penal Colony (+1) placed in the first;
    # in the second, Military = New Sparta 2 + Penal Colony 1 = 3 < Rebel Outpost's defense 5.
    log = setup(ann="New Sparta").round(Ann=["settle", "settle_2"], Bob=["develop", "produce"])
    log("card_placed", player="Ann", card="Former Penal Colony")  # 2 >= 2 (New Sparta)
    log.done()("card_placed", player="Ann", card="Rebel Outpost")
    r = run(log, advanced=True)
    (what,) = errors(r)
    assert "Rebel Outpost (defense 5) with only 3 Military" in what


def test_contact_specialist_pays_instead_of_conquering_but_not_for_alien_worlds():
    log = setup().round(Ann="develop", Bob="develop")
    log = log("card_placed", player="Ann", card="Contact Specialist").done()("round_ended")
    log.round(Ann="settle", Bob="settle")("card_placed", player="Ann", card="Pirate World", method="pay", paid=2)
    assert errors(run(log)) == []  # defense 3 - 1 = 2 cards
    log = setup().round(Ann="develop", Bob="develop")
    log = log("card_placed", player="Ann", card="Contact Specialist").done()("round_ended")
    log.round(Ann="settle", Bob="settle")("card_placed", player="Ann", card="Alien Robot Sentry", method="pay", paid=1)
    assert any("cannot pay for the Alien military world" in w for w in errors(run(log)))
    r = run(settle_round()("card_placed", player="Ann", card="Pirate World", method="pay", paid=2))
    assert any("without Contact Specialist" in w for w in errors(r))


def test_a_military_world_reported_without_saying_how_is_paid_for_where_contact_specialist_may_pay():
    # Seed, Settle, Contact Specialist: its owner may pay defense - 1 cards for a non-Alien military world instead
    # of conquering it. A phone reports only "Card placed": with Military -1 (Contact Specialist's own -1) against
    # Malevolent Lifeforms' defense 4, Ann paid for it: no misplay. Against the Alien Lost Alien Warship (defense 5)
    # she cannot pay, so it stays a conquest with -1 Military. Bob (no Contact Specialist; Epsilon Eridani +1 Military)
    # conquers as before.
    def contact_then(card: str, bob: str = "") -> Log:
        log = setup().round(Ann="develop", Bob="develop")
        log = log("card_placed", player="Ann", card="Contact Specialist").done()("round_ended")
        log = log.round(Ann="settle", Bob="settle")("card_placed", player="Ann", card=card)
        return log("card_placed", player="Bob", card=bob) if bob else log

    assert errors(run(contact_then("Malevolent Lifeforms"))) == []
    (what,) = errors(run(contact_then("Lost Alien Warship")))
    assert "Ann conquers Lost Alien Warship (defense 5) with only -1 Military" in what
    (what,) = errors(run(contact_then("Malevolent Lifeforms", bob="Rebel Warrior Race")))
    assert "Bob conquers Rebel Warrior Race (defense 3) with only 1 Military" in what


# -- goods (seed: three uses of a card, windfall; digest §4 III and V) ---------------------


def test_good_on_a_card_that_does_not_hold_goods():
    """Old Earth has no goods kind: a good reported on it is an error, and it is not counted as lying there (so
    neither consumed later nor counted at the tie-break: cards in hand + goods)."""
    r = run(setup()("good_placed", player="Ann", world="Old Earth"))
    assert any("Old Earth does not produce or hold goods" in w for w in errors(r))
    assert r.state.player("Ann").goods == 0


def test_windfall_good_only_at_first_placement():
    log = settle_round()("card_placed", player="Ann", card="Galactic Resort", good=False)
    assert errors(run(log("good_placed", player="Ann", world="Galactic Resort"))) == []  # still its placement
    log.done()("round_ended").round(Ann="develop", Bob="develop")("good_removed", player="Ann", world="Galactic Resort")
    r = run(log("good_placed", player="Ann", world="Galactic Resort"))
    assert any("windfall good added to Galactic Resort outside its first placement" in w for w in errors(r))


def test_windfall_good_on_a_non_windfall_world_when_placed():
    r = run(settle_round()("card_placed", player="Ann", card="Gem World", good=True))
    assert any("gets no good when placed" in w for w in errors(r))


def test_production_world_gets_goods_only_in_produce():
    log = settle_round()("card_placed", player="Ann", card="Gem World")
    r = run(log("good_placed", player="Ann", world="Gem World"))
    assert any("only in the Produce phase" in w for w in errors(r))
    log = settle_round()("card_placed", player="Ann", card="Gem World").done()("round_ended")
    log = log.round(Ann="produce", Bob="produce")
    r = run(log("good_placed", player="Ann", world="Gem World"))
    assert errors(r) == [] and r.state.player("Ann").goods == 1
    r = run(log("good_placed", player="Ann", world="Gem World"))
    assert any("already holds a good" in w for w in errors(r))


def test_windfall_world_produces_only_with_bonus_or_power():
    # Produce bonus: one windfall world; Mining Robots: one Rare windfall world.
    log = settle_round(ann="Alpha Centauri")
    log = log("card_placed", player="Ann", card="Galactic Resort", good=False).done()("round_ended")
    log.round(Ann="produce", Bob="develop")
    log.done()  # Develop phase (Bob's), then Produce
    log("good_removed", player="Ann", world="Alpha Centauri")
    r = run(log("good_placed", player="Ann", world="Galactic Resort"))  # the Produce bonus
    assert errors(r) == []
    r = run(log("good_placed", player="Ann", world="Alpha Centauri"))  # no bonus left, no power
    assert any("has none left" in w for w in errors(r))
    # Bob did not choose Produce: no windfall production for him.
    log2 = settle_round()("card_placed", player="Bob", card="Asteroid Belt", good=False).done()("round_ended")
    r = run(log2.round(Ann="produce", Bob="produce")("good_placed", player="Bob", world="Asteroid Belt"))
    assert errors(r) == []  # Bob chose Produce this time
    log3 = settle_round()("card_placed", player="Bob", card="Asteroid Belt", good=False).done()("round_ended")
    r = run(log3.round(Ann="produce", Bob="develop").done()("good_placed", player="Bob", world="Asteroid Belt"))
    assert any("Asteroid Belt is a windfall world" in w for w in errors(r))


def test_windfall_power_produces_on_matching_world():
    # Mining Robots: produce on a Rare windfall world with no good.
    log = setup(ann="Alpha Centauri").round(Ann="develop", Bob="develop")
    log = log("card_placed", player="Ann", card="Mining Robots").done()("round_ended")
    log.round(Ann="consume_trade", Bob="produce")("good_removed", player="Ann", world="Alpha Centauri").done()
    r = run(log("good_placed", player="Ann", world="Alpha Centauri"))
    assert errors(r) == []


# -- end of game (digest §6) ----------------------------------------------------------------


def test_twelve_card_tableau_ends_the_game_after_the_round():
    worlds = ["Gem World", "Comet Zone", "Spice World", "New Vinland", "Artist Colony", "Plague World",
              "Distant World", "Secluded World", "Space Port", "Prosperous World", "New Earth"]
    log = setup()
    for w in worlds:
        log.round(Ann="settle", Bob="settle")("card_placed", player="Ann", card=w).done()
        if w != worlds[-1]:
            log("round_ended")
    r = run(log)
    assert len(r.state.player("Ann").tableau) == 12
    assert r.state.ending and r.state.stage is Stage.ROUND_END
    assert any("12 cards in their tableau" in f.what for f in r.findings if f.severity is Severity.INFO)
    r = run(log("round_ended"))
    assert r.state.stage is Stage.OVER
    r = run(log.round(Ann="settle", Bob="settle"))
    assert any("game is over" in f.what for f in r.findings if f.severity is Severity.WARNING)


def test_empty_vp_pool_ends_the_game_after_the_round():
    # 2 players: pool 24. 20 + 4 VP taken in the Consume phase -> empty; the round is finished,
    # later chips still paid from the set-aside chips (the pool stays at 0, digest §6).
    log = setup().round(Ann="consume_x2", Bob="produce")("vp_changed", player="Ann", delta=20)
    assert run(log).state.ending == ()
    log("vp_changed", player="Bob", delta=4)("vp_changed", player="Ann", delta=2)
    r = run(log)
    assert (r.state.pool, r.state.set_aside_paid) == (0, 2) and r.state.player("Ann").vp_chips == 22
    assert r.state.ending and r.state.stage is Stage.PHASES
    r = run(log.done(2)("round_ended"))
    assert r.state.stage is Stage.OVER
    assert [b.total for b in RACE_GAME.scores(r.state)] == [24, 5]  # 22 + Old Earth 2; 4 + Epsilon Eridani 1


def test_undo_withdraws_a_placement():
    log = settle_round()("card_placed", player="Ann", card="Pirate World")
    assert errors(run(log))
    log("undo", seq=len(log.events))
    r = run(log)
    assert r.findings == () and r.state.player("Ann").find("Pirate World") is None


def test_view_is_json():
    r = run(settle_round()("card_placed", player="Ann", card="Galactic Resort"))
    view = RACE_GAME.view(r.state)
    json.dumps(view)
    assert view["current_phase"] == "III Settle"
    assert view["players"][0]["tableau"] == [{"card": "Old Earth", "goods": 0}, {"card": "Galactic Resort", "goods": 1}]
    assert view["players"][0]["score"] == 4  # Old Earth 2 + Galactic Resort 2


def test_a_short_game_end_to_end_and_its_view_is_a_score_input():
    # Two rounds; Ann takes 24 VP (the whole 2-player pool) in round 2 -> last round.
    # Ann: Old Earth 2 + Galactic Resort 2 (windfall good) + Space Marines 1; chips 24 -> 29.
    # Bob: Epsilon Eridani 1 + Gem World 1 (a good from Produce); chips 0 -> 2.
    log = setup().round(Ann="develop", Bob="settle")
    log("card_placed", player="Ann", card="Space Marines", paid=1)  # cost 2 - 1 (bonus)
    log.done()("card_placed", player="Ann", card="Galactic Resort", paid=3)
    log("card_placed", player="Bob", card="Gem World", paid=2).done()("round_ended", hands={"Ann": 3, "Bob": 4})
    log.round(Ann="consume_x2", Bob="produce")("good_removed", player="Ann", world="Galactic Resort")  # consumed
    log("vp_changed", player="Ann", delta=24).done()
    log("good_placed", player="Bob", world="Gem World").done()("round_ended", hands={"Ann": 2, "Bob": 5})
    r = run(log)
    assert [f.severity for f in r.findings] == [Severity.INFO, Severity.INFO]  # last round; game over
    assert r.state.stage is Stage.OVER and r.state.round == 2
    scores = RACE_GAME.scores(r.state)
    assert [b.total for b in scores] == [29, 2]
    assert final_scores(RACE_GAME.view(r.state)) == scores


def test_advanced_second_develop_phase_bonus_only_for_the_double_chooser():
    # Digest §3: Ann chose both Develop cards, Bob one. Second Develop phase: Ann still pays
    # 1 less (Research Labs 4 - 1 = 3), Bob pays full (Drop Ships 4).
    log = setup().round(Ann=["develop", "develop_2"], Bob=["develop", "produce"])
    log("card_placed", player="Ann", card="Public Works", paid=0)
    log("card_placed", player="Bob", card="Public Works", paid=0)
    log.done()("card_placed", player="Ann", card="Research Labs", paid=3)
    log("card_placed", player="Bob", card="Drop Ships", paid=3)
    r = run(log, advanced=True)
    (what,) = errors(r)
    assert "Drop Ships costs 4 cards here but 3 were paid" in what


def test_a_card_placed_past_the_decks_copies_says_how_many_the_deck_has_in_every_language():
    """The base deck (digest §1, components) holds one Old Earth and two Public Works. A third player's Public Works,
    or a placed Old Earth while it is Ann's start world, is more than the deck has: said with the deck's count in the
    language's own plural ("time(s)" and "φορά(ές)" before)."""
    from companion import i18n

    log = setup()("actions_selected", choices={"Ann": "develop", "Bob": "develop", "Cy": "settle"})
    log("card_placed", player="Ann", card="Public Works")("card_placed", player="Bob", card="Public Works")
    log("card_placed", player="Cy", card="Public Works")
    log("phase_done")("card_placed", player="Bob", card="Old Earth")
    warned = [f.what for f in run(log, players=("Ann", "Bob", "Cy")).findings if "misread?" in f.what]
    assert [str(w) for w in warned] == ["Public Works: all 2 in the deck are already in play: misread?",
                                        "Old Earth is already in play, and the deck has only 1: misread?"]
    assert i18n.localize(warned[0], "pl") == "Public Works: wszystkie 2 z talii są już w grze: błędny odczyt?"
    assert i18n.localize(warned[1], "el") == ("Old Earth: είναι ήδη στο παιχνίδι, και η τράπουλα έχει μόνο 1: "
                                              "λάθος ανάγνωση;")
    assert i18n.localize(warned[0], "hu") == ("Public Works: a pakli összes (2) példánya már játékban van: rossz "
                                              "olvasás?")
