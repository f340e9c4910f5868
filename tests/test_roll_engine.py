"""Roll for the Galaxy engine (rules/roll/game.py): setup, rounds, findings, powers, end of game.

Known values cite the rulebook page (Greek edition, shared/seeds/000_1d34022fb175a604.txt) or
are worked by hand in a comment; tile facts are the printed values in rules/data/roll/tiles.json.
"""

from __future__ import annotations

from typing import Any

import pytest

from rules.core import BadEvent, Event, Severity, UnknownEvent, replay
from rules.roll import ROLL_GAME, Dice, Stage
from rules.roll.data import catalogue


class Table:
    """Builds an event log and replays it through the engine."""

    def __init__(self, *names: str) -> None:
        self.settings = {"players": list(names)}
        self.events: list[Event] = []

    def add(self, kind: str, player: str | None = None, **payload: Any) -> Table:
        self.events.append(Event(seq=len(self.events) + 1, kind=kind, payload=payload, player=player))
        return self

    def setup(self, player: str, faction, home: str, development: str, world: str) -> Table:
        return self.add("player_setup", player, faction=faction, home_world=home, development=development, world=world)

    def assign(self, player: str, *dice: tuple) -> Table:
        """Dice as (colour, face, column[, "selected"])."""
        return self.add(
            "assign",
            player,
            dice=[{"colour": d[0], "face": d[1], "column": d[2], "selected": len(d) > 3} for d in dice],
        )

    def run(self):
        return replay(ROLL_GAME, self.settings, self.events)

    def findings(self, severity: Severity | None = None, seq: int | None = None):
        r = self.run()
        return [f for f in r.findings if (severity is None or f.severity == severity) and (seq is None or f.seq == seq)]

    def last_findings(self):
        return self.findings(seq=len(self.events))


def two_players() -> Table:
    """Ann: faction 1 (Space Piracy / Hidden Fortress), New Sparta; Bob: faction 2 (Alien
    Archaeology / Alien Rosetta Stone World), Alpha Centauri."""
    t = Table("Ann", "Bob")
    t.setup("Ann", 1, "New Sparta", "Public Works", "Spice World")
    t.setup("Bob", "Alien Archaeology", "Alpha Centauri", "Mining League", "Comet Zone")
    return t


def whats(findings) -> str:
    return " | ".join(f.what for f in findings)


# --- setup -------------------------------------------------------------------------------


def test_setup_stays_open_for_each_player_until_that_player_selects_a_phase():
    # Roll for the Galaxy p.2 Setup: players set up at the same time; Ann finishing first and selecting her
    # phase (p.3 Assign) does not close Bob's setup (issue 17). Bob's setup after his own selection is late.
    t = Table("Ann", "Bob")
    t.setup("Ann", 1, "New Sparta", "Public Works", "Spice World")
    t.add("phase_selected", "Ann", phase="develop")
    assert t.run().state.stage is Stage.ASSIGN and t.run().state.round == 1
    t.setup("Bob", "Alien Archaeology", "Alpha Centauri", "Mining League", "Comet Zone")
    assert [f for f in t.last_findings() if f.severity is not Severity.INFO] == []
    bob = next(p for p in t.run().state.players if p.name == "Bob")
    assert bob.faction == 2 and bob.credits == 1 and "Alpha Centauri" in bob.worlds
    t.add("phase_selected", "Bob", phase="settle")
    t.add("reveal", extra_white="ship")
    assert not [f for f in t.findings() if "no setup reported" in f.what]
    late = Table("Ann", "Bob").setup("Ann", 1, "New Sparta", "Public Works", "Spice World")
    late.add("phase_selected", "Bob", phase="develop")
    late.setup("Bob", "Alien Archaeology", "Alpha Centauri", "Mining League", "Comet Zone")
    assert "Bob's setup reported after the game started" in whats(late.last_findings())


def test_reveal_names_a_player_who_never_set_up():
    t = Table("Ann", "Bob").setup("Ann", 1, "New Sparta", "Public Works", "Spice World")
    t.add("phase_selected", "Ann", phase="develop").add("phase_selected", "Bob", phase="settle")
    assert not [f for f in t.findings() if "no setup reported" in f.what]  # not while round 1 is being assigned
    t.add("reveal", extra_white="ship")
    assert "Bob has no setup reported" in whats(t.last_findings())


def test_setup_dice_credits_and_tiles():
    # p.2 Setup: 3 white dice in the cup, 2 in the Citizenry, plus the faction/home world dice;
    # credits on $1. Ann: New Sparta gives 2 red to the Citizenry, Hidden Fortress 1 red.
    # Bob: Alpha Centauri a brown good; Alien Rosetta Stone World a yellow to the Citizenry.
    # p.12: faction + home world count as 3 tiles.
    s = two_players().run().state
    ann, bob = s.player("Ann"), s.player("Bob")
    assert ann.cup == Dice.of(white=3) and ann.citizenry == Dice.of(white=2, red=3)
    assert bob.citizenry == Dice.of(white=2, yellow=1) and bob.goods == (("Alpha Centauri", ("brown",)),)
    assert ann.credits == 1 and ann.tile_count == 3
    assert ann.dev_stack == ("Public Works",) and ann.world_stack == ("Spice World",)
    # p.2: 12 VP per player in the pool, 10 more set aside; 4 tiles left the bag of 55.
    assert (s.vp_pool, s.vp_reserve, len(s.bag)) == (24, 10, 51)


def test_doomed_world_starts_with_8_and_no_dice():
    # p.2 Setup: Doomed World gives no dice; its owner starts with $8.
    t = Table("Ann", "Bob").setup("Ann", 9, "Doomed World", "Public Works", "Spice World")
    ann = t.run().state.player("Ann")
    # Faction 9: Awakened Alien Outpost red -> Citizenry, Destroyed Colony purple -> cup.
    assert ann.credits == 8
    assert ann.cup == Dice.of(white=3, purple=1) and ann.citizenry == Dice.of(white=2, red=1)


def test_setup_conflicts_are_findings():
    t = two_players().setup("Bob", 1, "New Sparta", "Galactic Federation", "Artist Colony")
    text = whats(t.last_findings())
    assert "already has faction tile" in text and "already has home world" in text
    assert "two sides of one tile" in text


def test_setup_of_the_two_sides_of_one_tile_does_not_say_another_player_has_it():
    # p.2 Setup: a player draws two tiles from the bag. Advanced Logistics and Designer Species, Ultd. are the two
    # sides of one tile: one tile left the bag (55 -> 54), and no other player holds it.
    t = Table("Ann", "Bob").setup("Ann", 1, "New Sparta", "Advanced Logistics", "Designer Species, Ultd.")
    errors = whats(t.last_findings())
    assert "two sides of one tile" in errors and "not in the bag" not in errors, errors
    assert len(t.run().state.bag) == 54


def test_a_setup_reported_again_gives_back_its_first_tiles():
    # p.2 Setup: Ann corrects her home world and keeps her two tiles; they are hers, not another player's: the
    # replaced setup's tiles go back to the bag before the new one draws (still 4 tiles out of 55: 51 left).
    t = two_players().setup("Ann", 1, "Old Earth", "Public Works", "Spice World")
    said = t.last_findings()
    assert [f.severity for f in said] == [Severity.WARNING] and "new setup replaces it" in said[0].what, whats(said)
    assert len(t.run().state.bag) == 51
    # a tile Bob drew is still his: taking it is a finding, and setting up again never puts his tile in the bag
    t = two_players().setup("Ann", 1, "New Sparta", "Mining League", "Spice World")
    assert "Mining League's tile is not in the bag (another player has it)" in whats(t.last_findings())
    state = t.setup("Ann", 1, "New Sparta", "Public Works", "Spice World").run().state
    assert len(state.bag) == 51 and catalogue().tile_of["Mining League"] not in state.bag


def test_setup_needs_2_to_5_players():
    with pytest.raises(BadEvent):
        ROLL_GAME.initial_state({"players": ["Solo"]})
    with pytest.raises(BadEvent):
        ROLL_GAME.initial_state({"players": list("ABCDEF")})


# --- roll, assign, reveal: the reported layout is checked ---------------------------------


def test_die_face_the_colour_does_not_have():
    # p.12 / digest section 2: yellow has no Explore face, white no Wild face.
    t = two_players().add(
        "roll", "Ann", dice=[{"colour": "white", "face": "wild"}, {"colour": "white", "face": "explore"}]
    )
    assert "white die has no Wild face" in whats(t.last_findings())
    t.assign("Bob", ("yellow", "explore", "explore", "selected"))
    assert any("yellow die has no Explore face" in f.what for f in t.last_findings())


def test_two_phase_selections_by_one_player():
    # p.3 Assign: each player selects exactly one phase.
    t = two_players().assign("Ann", ("white", "develop", "develop", "sel"), ("white", "settle", "settle", "sel"))
    found = t.last_findings()
    assert any("2 phase selections" in f.what and f.severity == Severity.ERROR for f in found)


def test_no_phase_selection():
    t = two_players().assign("Ann", ("white", "develop", "develop"))
    assert "selected no phase" in whats(t.last_findings())


def test_more_dice_reported_than_the_player_owns():
    # Ann's cup holds 3 white dice at the start (p.2); a roll of 4 white is a misread.
    t = two_players().add("roll", "Ann", dice=[{"colour": "white", "face": "explore"}] * 4)
    found = t.last_findings()
    assert any("4 white dice reported for Ann, but Ann has only 3 in the cup" in f.what for f in found)
    t.assign("Ann", ("red", "develop", "develop", "sel"))  # Ann's red dice are in the Citizenry
    assert "1 red dice reported for Ann" in whats(t.last_findings())


def test_dictate_twice_without_backup_planning_and_too_many_off_face_workers():
    # p.3 Assign: one Dictate moves one other worker; more needs Backup Planning / powers.
    t = two_players().assign(
        "Ann", ("white", "develop", "develop", "sel"), ("white", "explore", "dictate"), ("white", "explore", "dictate")
    )
    assert "2 dice in the Dictate area" in whats(t.last_findings())
    t = two_players().assign(
        "Ann",
        ("white", "develop", "develop", "sel"),
        ("white", "explore", "dictate"),
        ("white", "explore", "ship"),  # moved: 1 move, covered by the Dictate
    )
    assert not t.last_findings()
    t = two_players().assign(
        "Ann",
        ("white", "develop", "develop", "sel"),
        ("white", "explore", "ship"),
        ("white", "explore", "ship"),  # 2 moves, no Dictate, no Reassign power
    )
    assert "can move at most 0" in whats(t.last_findings())


def test_reveal_runs_selected_phases_and_the_2_player_white_die():
    # p.4 Reveal: 2 players roll an extra white die; its phase also runs. Dictated dice and
    # workers of phases that do not run go back to the cup.
    t = two_players()
    t.assign(
        "Ann", ("white", "develop", "develop", "sel"), ("white", "explore", "dictate"), ("white", "produce", "produce")
    )
    t.assign("Bob", ("white", "ship", "ship", "sel"), ("white", "explore", "explore"), ("white", "settle", "settle"))
    t.add("reveal", extra_white="explore")
    s = t.run().state
    assert s.stage == Stage.REVEAL and s.selected == ("explore", "develop", "ship")
    ann = s.player("Ann")
    # Ann: dictated die and the producer (Produce not selected) -> cup 2; developer stays.
    assert ann.cup == Dice.of(white=2) and ann.column("develop") == Dice.of(white=1)
    assert s.player("Bob").column("settle") == Dice()


def test_extra_white_die_cannot_show_wild_and_is_only_for_2_players():
    t = two_players().add("reveal", extra_white="wild")
    assert "white die has no Wild face" in whats(t.last_findings())
    t3 = Table("A", "B", "C").add("reveal", extra_white="explore")
    assert "only with 2 players" in whats(t3.last_findings())


def test_the_extra_white_die_reported_twice_with_two_faces_is_said_and_the_last_counts():
    # p.4 Reveal, 2 players: one extra white die. Ann's phone sends Explore with her selection, Bob's sends Develop
    # with his: the table is told both faces, and the die counts as the last one reported (Develop runs, Explore
    # does not, nobody having selected it). The same face sent twice says nothing.
    t = two_players()
    t.add("phase_selected", "Ann", phase="settle", extra_white="explore")
    t.add("phase_selected", "Bob", phase="ship", extra_white="develop")
    assert whats(t.last_findings()) == (
        "the extra white die: Bob reports Develop, reported before as Explore; the last report counts")
    t.add("reveal")
    assert t.run().state.selected == ("develop", "settle", "ship")
    same = two_players()
    same.add("phase_selected", "Ann", phase="settle", extra_white="explore")
    same.add("phase_selected", "Bob", phase="ship", extra_white="explore")
    assert not [f for f in same.last_findings() if "extra white die" in f.what]


def test_only_selected_phases_run():
    t = two_players()
    t.assign("Ann", ("white", "develop", "develop", "sel"))
    t.assign("Bob", ("white", "develop", "develop", "sel"))
    t.add("reveal", extra_white="develop")
    t.add("phase", phase="produce")
    assert "phase Produce was not selected" in whats(t.last_findings())


# --- phases --------------------------------------------------------------------------------


def round_to(t: Table, phase: str, ann=("white", "develop", "develop", "sel"), extra="develop") -> Table:
    t.assign("Ann", ann)
    t.assign("Bob", ("white", phase, phase, "sel"))
    t.add("reveal", extra_white=extra)
    return t


def test_good_on_a_grey_world():
    # p.7 Produce: goods go on non-gray worlds. Alien Rosetta Stone World is gray.
    t = round_to(two_players(), "produce")
    t.add("phase", phase="develop").add("phase", phase="produce")
    t.add("goods_placed", "Bob", world="Alien Rosetta Stone World", colour="white")
    assert any("gray world" in f.what and f.severity == Severity.ERROR for f in t.last_findings())
    assert t.run().state.player("Bob").goods_on("Alien Rosetta Stone World") == ()


def test_more_goods_than_a_world_holds_without_galactic_reserves():
    # p.7 Produce: 1 good per world (2 with Galactic Reserves). Alpha Centauri already has one.
    t = round_to(two_players(), "produce")
    t.add("phase", phase="develop").add("phase", phase="produce")
    t.add("goods_placed", "Bob", world="Alpha Centauri", colour="white")
    assert "without Galactic Reserves" in whats(t.last_findings())


def test_galactic_reserves_allows_two_goods_not_three():
    t = Table("Ann", "Bob").setup("Ann", 3, "Earth's Lost Colony", "Galactic Reserves", "Spice World")
    t.setup("Bob", 2, "Old Earth", "Public Works", "Gem World")
    t.assign(
        "Ann", ("white", "produce", "produce", "sel"), ("white", "produce", "produce"), ("white", "produce", "produce")
    )
    t.assign("Bob", ("white", "develop", "develop", "sel"))
    # Bob's Develop lets Ann's Galactic Reserves complete; its 6 developers are not part of
    # this test, so the report names none (a count finding; the tile is still built).
    t.add("reveal", extra_white="ship")
    t.add("phase", phase="develop")
    t.add("tile_built", "Ann", tile="Galactic Reserves", dice={})
    t.add("phase", phase="produce")
    # Earth's Lost Colony already holds a blue good (p.2 Setup): one more = 2, allowed.
    t.add("goods_placed", "Ann", world="Earth's Lost Colony", colour="white")
    assert not [f for f in t.last_findings() if "goods on" in f.what]
    t.add("goods_placed", "Ann", world="Earth's Lost Colony", colour="white")
    assert "3 goods on Earth's Lost Colony: a world holds 2 with Galactic Reserves" in whats(t.last_findings())


def test_trade_prices_by_world_colour_and_consume_vp():
    # p.7 Ship: Trade pays by the world's colour (brown $4); Consume 1 VP +1 good matches world
    # +1 shipper matches; purple matches every world: 2 purple dice always give 3 VP.
    t = Table("Ann", "Bob").setup("Ann", 8, "Alpha Centauri", "Public Works", "Spice World")
    t.setup("Bob", 2, "Old Earth", "Galactic Federation", "Gem World")
    # Ann's goods from setup: Alpha Centauri brown. Faction 8's Meteorite Planet gives brown -> Citizenry.
    t.assign("Ann", ("white", "ship", "ship", "sel"), ("white", "ship", "ship"))
    t.assign("Bob", ("white", "ship", "ship", "sel"))
    t.add("reveal", extra_white="ship")
    t.add("phase", phase="ship")
    t.add("goods_shipped", "Ann", world="Alpha Centauri", good="brown", shipper="white", mode="trade")
    ann = t.run().state.player("Ann")
    # $1 + $4 (brown world) = $5; Mining Industry pays only on Consume.
    assert ann.credits == 5
    assert ann.citizenry["brown"] == 2 and ann.citizenry["white"] == 3


def test_consume_purple_good_and_purple_shipper_is_3_vp():
    # p.7 Ship: two purple dice always give 1 + 1 + 1 = 3 VP, whatever the world.
    t = Table("Ann", "Bob").setup("Ann", 3, "Old Earth", "Public Works", "Spice World")
    t.setup("Bob", 2, "New Sparta", "Galactic Federation", "Gem World")
    # Old Earth gives a purple die to the Citizenry; put it to work by a Recruit first.
    t.add("roll", "Ann", dice=[])  # round 1 starts
    t.add("phase", phase="manage")
    t.add("recruit", "Ann", dice={"purple": 1})
    t.assign("Ann", ("white", "produce", "produce", "sel"), ("purple", "ship", "ship"))
    t.assign("Bob", ("white", "ship", "ship", "sel"))
    t.add("reveal", extra_white="produce")
    t.add("phase", phase="produce")
    t.add("goods_placed", "Ann", world="Space Mall", colour="white")
    t.add("phase", phase="ship")
    t.add("recall", "Ann")  # out of Manage Empire: a finding, nothing moves
    assert "a recall reported during Ship" in whats(t.last_findings())
    t.add("goods_shipped", "Ann", world="Space Mall", good="white", shipper="purple", mode="consume")
    s = t.run().state
    # white good on a blue world: 1 + 0 (white is not blue) + 1 (purple shipper) = 2 VP.
    assert s.player("Ann").vp_chips == 2 and s.vp_pool == 24 - 2


def test_space_piracy_three_red_dice_pay_2():
    # p.11 FAQ "round up", example 1: Space Piracy with 3 red dice in the Citizenry at the end
    # of Ship pays 1.5 -> $2. Ann (faction 1, New Sparta) has exactly 3 red in the Citizenry.
    t = two_players()
    round_to(t, "ship", ann=("white", "ship", "ship", "sel"), extra="ship")
    t.add("phase", phase="ship").add("phase", phase="manage")
    assert t.run().state.player("Ann").credits == 1 + 2


def test_public_works_pays_for_each_later_development():
    # p.11 FAQ: a player who builds Public Works and then 2 more developments gets $2.
    t = Table("Ann", "Bob").setup("Ann", 1, "New Sparta", "Public Works", "Spice World")
    t.setup("Bob", 2, "Old Earth", "Mining League", "Gem World")
    t.assign("Ann", ("white", "explore", "explore", "sel"), ("white", "explore", "explore"))
    t.assign("Bob", ("white", "develop", "develop", "sel"))
    t.add("reveal", extra_white="explore")
    t.add("phase", phase="explore")
    # Scout twice: Backup Planning (cost 1) and Diversification (cost 1) to the development stack.
    t.add(
        "explored", "Ann", action="scout", colour="white", tiles=[{"tile": "Backup Planning", "stack": "development"}]
    )
    t.add(
        "explored", "Ann", action="scout", colour="white", tiles=[{"tile": "Diversification", "stack": "development"}]
    )
    t.add("phase", phase="develop")
    for name in ("Public Works", "Backup Planning", "Diversification"):
        t.add("tile_built", "Ann", tile=name, dice={})  # dice not reported: a count finding only
    ann = t.run().state.player("Ann")
    assert ann.developments[-3:] == ("Public Works", "Backup Planning", "Diversification")
    assert ann.credits == 1 + 2


def test_free_trade_zone_and_replicant_robots_discounts():
    # p.10 FAQ (Free Trade Zone): a gray world of cost 3 or 4 costs 2, or 1 with Replicant
    # Robots as well.
    from rules.roll import catalogue
    from rules.roll.powers import adjusted_cost

    cat = catalogue()
    trading, transport = (cat.worlds["Trading World"], cat.worlds["Transport Hub"])  # gray 3, gray 4
    assert trading.cost == 3 and transport.cost == 4
    assert adjusted_cost(trading, ["Free Trade Zone"], cat) == 2
    assert adjusted_cost(transport, ["Free Trade Zone"], cat) == 2
    assert adjusted_cost(transport, ["Free Trade Zone", "Replicant Robots"], cat) == 1


def test_tile_built_with_the_wrong_number_of_workers():
    # p.6 Develop: a tile completes when its developers equal its cost. Public Works costs 1.
    t = two_players()
    round_to(t, "develop", ann=("white", "develop", "develop", "sel"))
    t.add("phase", phase="develop")
    t.add("tile_built", "Ann", tile="Public Works", dice={"white": 2})
    assert "needs 1 developers" in whats(t.last_findings())


def test_unfinished_developers_stay_on_the_tile():
    # p.6: developers on an unfinished tile stay on it between rounds.
    t = two_players()
    round_to(t, "develop", ann=("white", "develop", "develop", "sel"))
    t.add("phase", phase="develop").add("phase", phase="manage")
    bob = t.run().state.player("Bob")
    assert bob.dev_workers == Dice.of(white=1)  # Mining League (6) has 1 of 6 developers
    # The construction zone does not score (p.8): Bob = Alien Archaeology 1 + Rosetta 1 + Alpha Centauri 1.
    assert [b.total for b in ROLL_GAME.scores(t.run().state)][1] == 3


# --- credits and Manage Empire ------------------------------------------------------------


def test_credits_above_10():
    t = two_players().add("credits_changed", "Ann", credits=12)
    found = t.last_findings()
    assert any("never pass $10" in f.what and f.severity == Severity.ERROR for f in found)
    assert t.run().state.player("Ann").credits == 10
    # p.4: a gain over $10 is lost (capped, an INFO finding).
    t.add("credits_changed", "Ann", delta=3)
    assert t.run().state.player("Ann").credits == 10
    assert t.last_findings()[0].severity == Severity.INFO


def test_recruit_costs_1_a_die_and_0_becomes_1():
    # p.8 illustration: recruit 4 workers, lose $4, then gain back $1; 1 stays in the Citizenry.
    # Ann: $4 and 5 dice in the Citizenry (2 white + 3 red from setup).
    t = two_players().add("credits_changed", "Ann", credits=4).add("roll", "Ann", dice=[])
    t.add("phase", phase="manage").add("recruit", "Ann", dice={"white": 2, "red": 2})
    ann = t.run().state.player("Ann")
    assert ann.credits == 1 and ann.citizenry.total == 1 and ann.cup == Dice.of(white=5, red=2)


def test_recruit_is_mandatory_and_limited_by_credits():
    t = two_players().add("credits_changed", "Ann", credits=3).add("roll", "Ann", dice=[])
    t.add("phase", phase="manage").add("recruit", "Ann", dice={"white": 1})
    assert "must recruit 3" in whats(t.last_findings())
    t.add("recruit", "Bob", dice={"white": 2})  # Bob has $1
    assert "recruited 2 dice with $1" in whats(t.last_findings())


def test_recall_only_in_manage_empire():
    # p.8 / p.10 FAQ: nothing can be recalled at setup; recall happens only in Manage Empire.
    t = two_players().add("recall", "Bob", goods=[{"world": "Alpha Centauri", "colour": "brown"}])
    assert "recall reported during Setup" in whats(t.last_findings())
    t = two_players().add("roll", "Bob", dice=[]).add("phase", phase="manage")
    t.add("recall", "Bob", goods=[{"world": "Alpha Centauri", "colour": "brown"}])
    bob = t.run().state.player("Bob")
    assert bob.goods == () and bob.cup["brown"] == 1


# --- end of game ---------------------------------------------------------------------------


def test_vp_pool_exhausted_triggers_the_end_and_uses_the_10_set_aside():
    # p.2: 2 players -> 24 VP in the pool; p.7: when it runs out, add the 10 set aside and keep
    # paying; the game ends after this round.
    t = two_players().add("roll", "Ann", dice=[])
    t.add("vp_changed", "Ann", delta=20, reason="test").add("vp_changed", "Bob", delta=6, reason="test")
    s = t.run().state
    # 20 + 6 = 26 = 24 from the pool + 2 from the reserve.
    assert (s.vp_pool, s.vp_reserve) == (0, 8)
    assert s.ending == ("VP pool exhausted",)
    assert "end of game triggered" in whats(t.last_findings())


def test_twelve_tiles_trigger_the_end_faction_counts_two():
    # p.8 / p.12: a faction tile counts 2, so a player starts at 3 tiles; 9 built tiles -> 12.
    t = Table("Ann", "Bob").setup("Ann", 1, "New Sparta", "Public Works", "Spice World")
    t.setup("Bob", 2, "Old Earth", "Mining League", "Gem World")
    t.assign("Ann", ("white", "develop", "develop", "sel"))
    t.assign("Bob", ("white", "settle", "settle", "sel"))
    t.add("reveal", extra_white="develop")
    t.add("phase", phase="develop")
    builds = [
        "Public Works",
        "Backup Planning",
        "Diversification",
        "Hydroponics Guild",
        "Jumpdrive Research",
        "Space Mercenaries",
        "Technology Unions",
        "Terraforming Robots",
    ]
    for name in builds:  # 8 tiles: 3 + 8 = 11, not yet
        t.add("tile_built", "Ann", tile=name, dice={})
    assert t.run().state.ending == ()
    assert t.run().state.player("Ann").tile_count == 11
    t.add("tile_built", "Ann", tile="Advanced Logistics", dice={})
    s = t.run().state
    assert s.player("Ann").tile_count == 12 and s.ending == ("Ann has 12 tiles or more",)


def test_the_round_in_progress_finishes():
    # p.3: when an end condition is met, finish the current round, then score.
    t = two_players().add("roll", "Ann", dice=[]).add("vp_changed", "Ann", delta=24)
    t.add("game_end")
    assert "the round in progress finishes first" in whats(t.last_findings())
    t = two_players().add("roll", "Ann", dice=[]).add("vp_changed", "Ann", delta=24).add("phase", phase="manage")
    t.add("game_end")
    assert not [f for f in t.last_findings() if f.severity != Severity.INFO]
    assert t.run().state.stage == Stage.OVER
    t = two_players().add("roll", "Ann", dice=[]).add("vp_changed", "Ann", delta=24).add("phase", phase="manage")
    t.add("roll", "Ann", dice=[])
    assert "the game ended after round 1" in whats(t.last_findings())


def test_game_end_without_an_end_condition():
    t = two_players().add("roll", "Ann", dice=[]).add("phase", phase="manage").add("game_end")
    assert "VP pool is not empty and no tableau has 12 tiles" in whats(t.last_findings())


def test_engine_score_matches_the_score_command():
    # Same position through both paths: Ann (faction 1, New Sparta) with 5 VP chips.
    t = two_players().add("roll", "Ann", dice=[]).add("vp_changed", "Ann", delta=5)
    state = t.run().state
    engine = ROLL_GAME.scores(state)[0]
    ann = state.player("Ann")
    data = {
        "players": [
            {
                "name": "Ann",
                "vp_chips": 5,
                "credits": ann.credits,
                "tableau": ["Space Piracy", "Hidden Fortress", "New Sparta"],
                "dice": {"cup": ann.cup.to_json(), "citizenry": ann.citizenry.to_json()},
            }
        ]
    }
    [command] = ROLL_GAME.final_scores(data)
    # 5 chips + Space Piracy 0 + Hidden Fortress 2 + New Sparta 2 = 9.
    assert engine.total == command.total == 9
    assert engine.tiebreak == command.tiebreak


# --- protocol ------------------------------------------------------------------------------


def test_undo_withdraws_a_report():
    t = two_players().add("credits_changed", "Ann", credits=7).add("undo", seq=3)
    assert t.run().state.player("Ann").credits == 1


def test_unknown_event_and_bad_payloads():
    with pytest.raises(UnknownEvent):
        two_players().add("teleport", "Ann").run()
    with pytest.raises(BadEvent):
        two_players().add("roll", "Ann", dice=[{"colour": "pink", "face": "explore"}]).run()
    with pytest.raises(BadEvent):
        two_players().add("credits_changed", "Zed", credits=1).run()
    with pytest.raises(BadEvent, match="did you mean"):
        Table("A", "B").setup("A", 1, "New Spartaa", "Public Works", "Spice World").run()


def test_view_is_json_and_lists_reminders_with_phases():
    import json

    t = Table("Ann", "Bob").setup("Ann", 4, "New Sparta", "Public Works", "Spice World")
    t.setup("Bob", 2, "Old Earth", "Mining League", "Gem World")
    t.assign("Ann", ("white", "explore", "explore", "sel"))
    t.assign("Bob", ("white", "explore", "explore", "sel"))
    t.add("reveal", extra_white="explore").add("phase", phase="explore")
    view = ROLL_GAME.view(t.run().state)
    json.dumps(view)
    assert view["stage"] == "explore"
    assert {"player": "Ann", "tile": "Improved Reconnaissance", "phase": "explore"}.items() <= view["reminders"][
        0
    ].items()


def test_apply_does_not_mutate_the_state():
    t = two_players()
    before = t.run().state
    after, _ = ROLL_GAME.apply(before, Event(seq=99, kind="credits_changed", player="Ann", payload={"credits": 5}))
    assert before.player("Ann").credits == 1 and after.player("Ann").credits == 5


# --- a whole round, worked by hand (golden transcript) -------------------------------------


def test_one_round_transcript_worked_by_hand():
    # Setup (Roll for the Galaxy, p.2):
    #   Ann: faction 2 (Alien Archaeology 1 / Alien Rosetta Stone World 1, gray: yellow -> Citizenry),
    #        home Damaged Alien Factory (1, yellow: yellow -> Citizenry); zone: Public Works / Spice World.
    #        cup 3 white; Citizenry 2 white + 2 yellow; $1.
    #   Bob: faction 1 (Space Piracy 0 / Hidden Fortress 2, gray: red -> Citizenry),
    #        home Earth's Lost Colony (2, blue: blue good); zone: Galactic Federation / Gem World.
    #        cup 3 white; Citizenry 2 white + 1 red; a blue good on Earth's Lost Colony; $1.
    t = Table("Ann", "Bob")
    t.setup("Ann", 2, "Damaged Alien Factory", "Public Works", "Spice World")
    t.setup("Bob", 1, "Earth's Lost Colony", "Galactic Federation", "Gem World")
    t.add("roll", "Ann", dice=[{"colour": "white", "face": f} for f in ("settle", "settle", "explore")])
    t.add("roll", "Bob", dice=[{"colour": "white", "face": f} for f in ("ship", "produce", "explore")])
    t.assign("Ann", ("white", "settle", "settle", "sel"), ("white", "settle", "settle"),
             ("white", "explore", "explore"))
    t.assign("Bob", ("white", "ship", "ship", "sel"), ("white", "produce", "produce"), ("white", "explore", "explore"))
    # p.4 Reveal: selected Settle (Ann), Ship (Bob), and Develop from the extra white die.
    # Explore and Produce do not run: Ann's explorer and Bob's explorer and producer -> cups.
    t.add("reveal", extra_white="develop")
    t.add("phase", phase="develop")
    t.add("phase", phase="settle")
    # p.6: Spice World costs 2 = Ann's 2 settlers -> Citizenry; Spice World gives a blue die to the cup.
    t.add("tile_built", "Ann", tile="Spice World", dice={"white": 2})
    t.add("phase", phase="ship")
    # p.7: Consume the blue good on a blue world with a white shipper: 1 + 1 (good matches) + 0 = 2 VP.
    t.add("goods_shipped", "Bob", world="Earth's Lost Colony", good="blue", shipper="white", mode="consume")
    # End of Ship: Space Piracy, 1 red die in Bob's Citizenry -> ceil(1/2) = $1 -> Bob $2.
    t.add("phase", phase="manage")
    # p.8 Recruit: Ann $1 -> 1 die (yellow), $0 -> $1. Bob $2 -> 2 dice (red, blue), $0 -> $1.
    t.add("recruit", "Ann", dice={"yellow": 1})
    t.add("recruit", "Bob", dice={"red": 1, "blue": 1})
    r = t.run()
    assert [f for f in r.findings if f.severity != Severity.INFO] == []
    s = r.state
    ann, bob = s.player("Ann"), s.player("Bob")
    # Ann: cup = 1 white (explorer back) + 1 blue (Spice World) + 1 yellow (recruited);
    #      Citizenry = 2 white + 2 white settlers + 2 yellow - 1 yellow = 4 white + 1 yellow.
    assert ann.cup == Dice.of(white=1, blue=1, yellow=1) and ann.citizenry == Dice.of(white=4, yellow=1)
    assert (ann.credits, ann.vp_chips, ann.tile_count) == (1, 0, 4)
    # Bob: cup = 2 white (explorer, producer) + red + blue; Citizenry = 2 white + white shipper.
    assert bob.cup == Dice.of(white=2, red=1, blue=1) and bob.citizenry == Dice.of(white=3)
    assert (bob.credits, bob.vp_chips, bob.goods) == (1, 2, ())
    assert (s.vp_pool, s.stage) == (24 - 2, Stage.MANAGE)
    # Score now (p.8): Ann 0 + developments 1 + worlds 1 + 1 + 2 = 5; Bob 2 + 0 + 2 + 2 = 6.
    # Tie-break values: Ann cup 3 + $1 = 4; Bob cup 4 + $1 = 5.
    scores = ROLL_GAME.scores(s)
    assert [(b.total, b.tiebreak) for b in scores] == [(5, (4,)), (6, (5,))]


def test_stock_pays_2_or_4_with_alien_archaeology_and_a_yellow_explorer():
    # Roll for the Galaxy, p.5: Stock +$2; Alien Archaeology: a yellow explorer Stocks for $4.
    # Bob (faction 2, Alien Archaeology) recruits his yellow die (Alien Rosetta Stone World gave
    # it at setup) in round 1, then explores with it (Wild face) and a white die in round 2.
    t = two_players().add("roll", "Bob", dice=[]).add("phase", phase="manage")
    t.add("recruit", "Bob", dice={"yellow": 1})  # $1 -> $0 -> $1 (p.8)
    t.assign("Bob", ("yellow", "wild", "explore", "sel"), ("white", "explore", "explore"))
    t.assign("Ann", ("white", "explore", "explore", "sel"))
    t.add("reveal", extra_white="explore").add("phase", phase="explore")
    t.add("explored", "Bob", action="stock", colour="yellow")
    t.add("explored", "Bob", action="stock", colour="white")
    bob = t.run().state.player("Bob")
    assert bob.credits == 1 + 4 + 2
    assert bob.citizenry["yellow"] == 1 and bob.column("explore") == Dice()


def test_scout_draws_one_more_than_returned_to_the_bottom():
    # Roll for the Galaxy, p.5: return tiles, draw (returned + 1), each to the bottom of the
    # stack of its chosen side; returned tiles go back in the bag at the end of Explore.
    t = two_players()
    t.assign("Ann", ("white", "explore", "explore", "sel"))
    t.assign("Bob", ("white", "explore", "explore", "sel"))
    t.add("reveal", extra_white="explore").add("phase", phase="explore")
    t.add(
        "explored",
        "Ann",
        action="scout",
        colour="white",
        returned=["Spice World"],
        tiles=[{"tile": "Space Port", "stack": "world"}, {"tile": "Backup Planning", "stack": "development"}],
    )
    s = t.run().state
    ann = s.player("Ann")
    assert ann.world_stack == ("Space Port",) and ann.dev_stack == ("Public Works", "Backup Planning")
    assert len(s.bag) == 51 - 2 and len(s.returned) == 1
    t.add("explored", "Ann", action="scout", colour="white", tiles=[])  # no white explorer left
    found = whats(t.last_findings())
    assert "scouted 0 tiles after returning 0" in found and "no white worker left" in found
    t.add("phase", phase="manage")
    assert len(t.run().state.bag) == 51 - 2 + 1  # Spice World's tile is back in the bag


def test_genetics_lab_pays_for_each_green_die_good_on_the_worlds_at_the_end_of_produce():
    """Genetics Lab (faction 5; ``tiles.json``: "At end of phase, +$2 per good that is a green die (not per good on a
    green world)"; the Greek rulebook's FAQ, Genetics Lab: "Η δύναμη αυτή υπολογίζει μόνο τον αριθμό των ζαριών
    Γονιδίων σαν προϊόντα, και όχι τον αριθμό των προϊόντων σε κόσμους Γονιδίων"). Neither says "produced": it counts
    the green dice that are goods when Produce ends, the ones already there included.

    Ann: faction 5 (Genetics Lab / The Last of the Gnarssh, green: green -> Citizenry), home Ancient Race (green: a
    green good at setup, p.2), $1. Her white producer makes a good on The Last of the Gnarssh (a green world). End of
    Produce: the green die on Ancient Race (from setup, not made this phase) $2; the white die on the green world $0:
    $1 + $2 = $3."""
    t = Table("Ann", "Bob")
    t.setup("Ann", 5, "Ancient Race", "Public Works", "Spice World")
    t.setup("Bob", 1, "Earth's Lost Colony", "Galactic Federation", "Gem World")
    t.assign("Ann", ("white", "produce", "produce", "sel"))
    t.assign("Bob", ("white", "develop", "develop", "sel"))
    t.add("reveal", extra_white="develop")
    t.add("phase", phase="develop")
    t.add("phase", phase="produce")
    t.add("goods_placed", "Ann", world="The Last of the Gnarssh", colour="white")
    assert t.run().state.player("Ann").credits == 1  # paid at the end of the phase, not before
    t.add("phase", phase="manage")
    ann = t.run().state.player("Ann")
    assert sorted(ann.goods) == [("Ancient Race", ("green",)), ("The Last of the Gnarssh", ("white",))]
    assert ann.credits == 3
    assert t.findings(Severity.ERROR) == []
