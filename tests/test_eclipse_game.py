"""The Eclipse engine (rules/eclipse/game.py and its handlers): setup, the map's events, Ancients, Hives, Shrines,
structures, diplomacy and alliances, research, the end-of-game reports and the views. Rules from the Rise of the
Ancients rulebook (pages cited) and the first-edition sections named in the findings."""

from __future__ import annotations

import json

import pytest

from companion import i18n
from rules import BadEvent, BadSettings, Event, Severity, replay
from rules.eclipse import ECLIPSE_GAME
from rules.eclipse.endgame import DRACO_VP_PER_ANCIENT, PLANTA_VP_PER_HEX

GAME = ECLIPSE_GAME
FOUR = {"players": [{"name": "Ann", "species": "Terran Directorate"}, {"name": "Bob", "species": "Enlightened of Lyra"},
                    {"name": "Cy", "species": "Descendants of Draco"}, {"name": "Dee", "species": "Planta"}],
        "hives": True, "alliances": True, "developments": True, "warp_portals": True, "rare_technologies": True,
        "ancient_homeworlds": True}
HOMES = [("hex_placed", "Ann", {"sector": "221", "q": 0, "r": -2, "rotation": 3}),  # wormholes on 6, 8, 12, 2
         ("hex_placed", "Bob", {"sector": "238", "q": 2, "r": -2, "rotation": 4}),  # on 8, 10, 2, 4
         ("hex_placed", "Cy", {"sector": "228", "q": 0, "r": 2, "rotation": 0}),  # on 12, 2, 6, 8
         ("hex_placed", "Dee", {"sector": "226", "q": -2, "r": 0, "rotation": 1})]  # on 2, 4, 8, 10


def play(settings, *rows):
    events = [Event(seq=k, kind=kind, payload=payload, player=player)
              for k, (kind, player, payload) in enumerate(rows, 1)]
    return replay(GAME, settings, events)


def last(result, severity=None):
    """The rule kinds raised by the last event (of one severity)."""
    seq = result.applied[-1]
    return [f.rule_kind for f in result.findings if f.seq == seq and (severity is None or f.severity is severity)]


def errors(result):
    return last(result, Severity.ERROR)


def test_setup_refuses_one_board_twice_and_options_for_another_player_count():
    with pytest.raises(BadSettings, match="2 players chose Terran Union and Planta, and only 1 player board shows"):
        GAME.initial_state({"players": [{"name": "A", "species": "Terran Union"}, {"name": "B", "species": "Planta"}]})
    three = GAME.initial_state({"players": ["A", "B", "C"], "species": ["Magellan", "Magellan", "Magellan"]})
    assert [p.species for p in three.players] == ["Magellan"] * 3  # Magellan is on the back of all three new boards
    with pytest.raises(BadSettings, match="for 7-9 players, not 5"):
        GAME.initial_state({"players": list("ABCDE"), "simultaneous": True})
    with pytest.raises(BadSettings, match="for 4-9 players, not 3"):
        GAME.initial_state({"players": list("ABC"), "alliances": True})
    with pytest.raises(BadSettings, match="fewer than 6 players"):
        GAME.initial_state({"players": list("ABCDEF"), "ancient_homeworlds": True})
    state = GAME.initial_state({"players": list("AB"), "galactic_center": True})
    assert state.guardians == {(0, 0): "Ancient Dreadnought"}
    assert GAME.view(state)["map"][0]["guardian"] == "Ancient Dreadnought"


def test_homes_are_laid_with_their_owners_discs():
    result = play(FOUR, *HOMES)
    state = result.state
    assert not [f for f in result.findings if f.severity is not Severity.INFO]
    assert state.owners == {(0, -2): "Ann", (2, -2): "Bob", (0, 2): "Cy", (-2, 0): "Dee"}
    wrong = play(FOUR, ("hex_placed", "Ann", {"sector": "222", "q": 0, "r": -3, "rotation": 0}))
    assert errors(wrong) == ["starting_sector", "starting_sector"]  # ring III with 4 players; Eridani's tile, not Ann's
    taken = play(FOUR, *HOMES, ("hex_placed", None, {"sector": "271", "q": 0, "r": -2, "rotation": 0}))
    assert errors(taken) == ["space_taken"] and taken.state.galaxy.at((0, -2)).sector.id == "221"


def test_a_tile_explored_onto_a_hex_never_replaces_it():
    """Eclipse, Explore: a tile is laid on an empty space. An Inner tile (102 Pollux) reported onto Cy's home at
    (0, 2) (ring II) replaced 228 by 102 on the map, so Cy's home scored Pollux's VP, and 106 Capella reported at
    (0, 0) replaced the Galactic Center; each only said the tile's stack was wrong. Now the map keeps the hex
    there and the error says why; Undo takes the report back."""
    onto_home = play(FOUR, *HOMES, ("hex_placed", "Ann", {"sector": "102", "q": 0, "r": 2, "rotation": 0}))
    assert errors(onto_home) == ["space_taken"]
    assert onto_home.state.galaxy.at((0, 2)).sector.id == HOMES[2][2]["sector"]
    assert onto_home.state.galaxy.find("102") is None
    onto_centre = play(FOUR, *HOMES, ("hex_placed", "Ann", {"sector": "106", "q": 0, "r": 0, "rotation": 0}))
    assert errors(onto_centre) == ["ring_mismatch"]
    assert onto_centre.state.galaxy.at((0, 0)).sector.id == "001" and onto_centre.state.galaxy.find("106") is None


def test_an_explored_hex_is_checked_and_brings_its_ancients():
    # Ann's 221 at (0, -2) turned 3 has a wormhole on 6; (0, -1) is across it; 101 prints 2, 4, 6, 8, 10: no 12
    result = play(FOUR, *HOMES,
                  ("hex_placed", "Ann", {"sector": "101", "q": 0, "r": -1, "rotation": 0, "from": {"q": 0, "r": -2}}))
    assert errors(result) == ["half_wormhole_without_generator"]
    finding = next(f for f in result.findings if f.rule_kind == "half_wormhole_without_generator")
    assert finding.fix == "rotate it 1 step clockwise so its wormhole faces yours" and finding.cell == (0, -1)
    assert result.state.ancients == {(0, -1): 1}  # laid as reported: the players decide
    good = play(FOUR, *HOMES,
                ("hex_placed", "Ann", {"sector": "101", "q": 0, "r": -1, "rotation": 1, "from": {"q": 0, "r": -2}}))
    assert last(good) == ["full_wormhole"]
    nowhere = play(FOUR, *HOMES,
                   ("hex_placed", "Ann", {"sector": "101", "q": 0, "r": -1, "rotation": 1, "from": {"q": 5, "r": 5}}))
    assert last(nowhere, Severity.WARNING) == ["unexplored"] and last(nowhere, Severity.INFO) == ["full_wormhole"]
    hive = play(FOUR, ("hex_placed", None, {"sector": "381", "q": 3, "r": -1, "rotation": 0}))
    assert hive.state.galaxy.at((3, -1)).portal
    off = play({**FOUR, "hives": False}, ("hex_placed", None, {"sector": "212", "q": 1, "r": 1, "rotation": 0}))
    assert last(off, Severity.WARNING) == ["module_not_in_play"]
    with pytest.raises(BadEvent, match="no sector '999'"):
        play(FOUR, ("hex_placed", "Ann", {"sector": "999", "q": 0, "r": -1, "rotation": 0}))
    with pytest.raises(BadEvent, match="rotation"):
        play(FOUR, ("hex_placed", "Ann", {"sector": "101", "q": 0, "r": -1, "rotation": 6}))


def test_influence_waits_for_the_ancients_except_for_draco():
    explored = ("hex_placed", "Ann", {"sector": "104", "q": 1, "r": -1, "rotation": 0})  # 2 Ancients
    result = play(FOUR, *HOMES, explored, ("influence_placed", "Ann", {"q": 1, "r": -1}))
    assert errors(result) == ["ancients_present"] and result.state.owners[(1, -1)] == "Ann"  # the disc is there
    destroyed = play(FOUR, *HOMES, explored, ("ancients_destroyed", "Ann", {"q": 1, "r": -1, "count": 2}),
                     ("influence_placed", "Ann", {"q": 1, "r": -1}))
    assert errors(destroyed) == [] and (1, -1) not in destroyed.state.ancients
    draco = play(FOUR, *HOMES, explored, ("influence_placed", "Cy", {"q": 1, "r": -1}))
    assert errors(draco) == []  # Draco share a hex with basic Ancients (Rise of the Ancients p.7)
    taken = play(FOUR, *HOMES, explored, ("influence_placed", "Cy", {"q": 1, "r": -1}),
                 ("influence_placed", "Ann", {"q": 1, "r": -1}))
    assert errors(taken) == ["hex_controlled", "ancients_present"] and taken.state.owners[(1, -1)] == "Cy"
    centre = play(FOUR, ("influence_placed", "Cy", {"q": 0, "r": 0}))
    assert errors(centre) == ["ancients_present"]  # the GCDS: not even Draco
    removed = play(FOUR, *HOMES, ("influence_removed", None, {"q": 0, "r": -2}))
    assert (0, -2) not in removed.state.owners
    assert last(play(FOUR, ("influence_removed", None, {"q": 0, "r": -2})), Severity.WARNING) == ["no_disc"]


def test_guardians_give_their_tiles_to_who_destroys_them():
    homeworld = ("hex_placed", None, {"sector": "271", "q": -2, "r": 2, "rotation": 0})
    result = play(FOUR, homeworld, ("ancients_destroyed", "Ann", {"q": -2, "r": 2, "guardian": True}),
                  ("ancients_destroyed", "Ann", {"q": 0, "r": 0, "guardian": True}))
    ann = result.state.player("Ann")
    assert (ann.ancient_cruisers,
            ann.dreadnought) == (1, False) and result.state.guardians == {}  # the GCDS gives no tile
    dread = play({**FOUR, "galactic_center": True}, ("ancients_destroyed", "Bob", {"q": 0, "r": 0, "guardian": True}))
    assert dread.state.player("Bob").dreadnought
    scores = {b.player: dict((line.category, line.vp) for line in b.lines) for b in GAME.scores(dread.state)}
    assert scores["Bob"]["Ancient Dreadnought"] == 1  # Rise of the Ancients p.6: +1 VP
    assert errors(play(FOUR, ("ancients_destroyed", "Ann", {"q": 0, "r": -1, "count": 1}))) == ["no_ancients"]


def test_a_hive_moves_one_ancient_to_the_hex_beyond_the_rolled_wormhole():
    cleanup = [("passed", p, {}) for p in ("Ann", "Bob", "Cy", "Dee")] + [("phase_ended", None, {})] * 2
    hive = ("hex_placed", None, {"sector": "212", "q": 1, "r": 1, "rotation": 0})
    beside = ("hex_placed", "Cy", {"sector": "304", "q": 1, "r": 2, "rotation": 0})  # ring (1 + 2 + 3) / 2 = 3
    result = play(FOUR, *HOMES, hive, beside, *cleanup,
                  ("hive_rolled", None, {"q": 1, "r": 1, "die": 4, "to": {"q": 1, "r": 2}}))
    assert result.state.rounds.phase == "cleanup" and last(result) == []
    assert result.state.ancients == {(1, 1): 2, (1, 2): 1}  # Rise of the Ancients p.7: 3 Ancients, one moves
    early = play(FOUR, hive, ("hive_rolled", None, {"q": 1, "r": 1, "die": 2}))
    assert last(early, Severity.WARNING) == ["hive_timing"]
    odd = play(FOUR, hive, ("hive_rolled", None, {"q": 1, "r": 1, "die": 7}))
    assert last(odd, Severity.WARNING) == ["impossible_die"] and odd.state.ancients == {(1, 1): 3}
    assert errors(play(FOUR, *HOMES, ("hive_rolled", None, {"q": 0, "r": -2, "die": 3}))) == ["not_a_hive"]
    far = play(FOUR, *HOMES, hive, *cleanup, ("hive_rolled", None, {"q": 1, "r": 1, "die": 3, "to": {"q": 0, "r": -2}}))
    assert errors(far) == ["not_adjacent"]


def test_a_player_gives_one_ambassador_tile_a_relation_and_has_three_the_rho_indi_syndicate_two():
    """Rise of the Ancients p.3: each player colour has 3 Ambassador tiles ("3 Πλακίδια Πρέσβη"); p.15, the Rho Indi
    Syndicate's board: "Δύο Πρέσβεις". One goes to the other player at each relation, so Ann (Rho Indi) has relations
    with Bob and Cy and none left for Dee; Bob has them with Ann, Cy and Dee and none left for Eve. The relation is
    kept as reported with its error (the table takes it back). Before, any number was taken."""
    five = {"players": [{"name": "Ann", "species": "Rho Indi Syndicate"}, {"name": "Bob", "species": "Planta"},
                        {"name": "Cy", "species": "Mechanema"}, {"name": "Dee", "species": "Orion Hegemony"},
                        {"name": "Eve", "species": "Hydran Progress"}]}
    two = [("relations_formed", "Ann", {"with": "Bob"}), ("relations_formed", "Ann", {"with": "Cy"})]
    assert [f for f in play(five, *two).findings if f.severity is Severity.ERROR] == []
    third = play(five, *two, ("relations_formed", "Ann", {"with": "Dee"}))
    [spent] = [f for f in third.findings if f.severity is Severity.ERROR]
    assert (spent.rule_kind, spent.player) == ("ambassadors_given", "Ann")
    assert spent.what == ("Ann has no Ambassador tile left to give (Ambassador tiles: 2, each with a player they have "
                          "relations with)")
    said = {lang: i18n.localize(spent.what, lang) for lang in ("el", "pl", "hu")}
    assert said == {"el": "Ann: δεν έχει άλλο Πλακίδιο Πρέσβη να δώσει (Πλακίδια Πρέσβη: 2, το καθένα σε παίκτη με τον "
                          "οποίο έχει διπλωματική σχέση)",
                    "pl": "Ann: nie ma już żetonu ambasadora do oddania (żetony ambasadorów: 2, każdy u gracza, "
                          "z którym ma stosunki)",
                    "hu": "Ann játékosnak nem maradt odaadható nagykövet lapkája (nagykövet lapkák: 2, mindegyik egy "
                          "olyan játékosnál, akivel kapcsolata van)"}
    bob = [("relations_formed", "Bob", {"with": w}) for w in ("Cy", "Dee")]
    assert errors(play(five, two[0], *bob)) == []
    fourth = play(five, two[0], *bob, ("relations_formed", "Eve", {"with": "Bob"}))
    assert [(f.rule_kind, f.player) for f in fourth.findings if f.severity is Severity.ERROR] == [
        ("ambassadors_given", "Bob")]
    assert fourth.state.player("Bob").relations == ("Ann", "Cy", "Dee", "Eve")  # kept as reported


UPKEEP = [("passed", p, {}) for p in ("Ann", "Bob", "Cy", "Dee")] + [("phase_ended", None, {})]
NEXT_UPKEEP = [("phase_ended", None, {})] * 2 + UPKEEP


def test_shrines_by_the_enlightened_at_the_start_of_upkeep():
    # Bob's 238 Beta Lyrae: planets money, science, materials (each with an advanced square)
    shrine = ("structure_built", "Bob", {"q": 2, "r": -2, "structure": "shrine", "colour": "science", "cost": 2})
    result = play(FOUR, *HOMES, *UPKEEP, shrine)
    assert last(result) == [] and result.state.structures[(2, -2)][0].colour == "science"
    assert last(play(FOUR, *HOMES, shrine), Severity.WARNING) == ["shrine_timing"]
    again = play(FOUR, *HOMES, *UPKEEP, shrine,
                 ("structure_built", "Bob", {"q": 2, "r": -2, "structure": "shrine", "colour": "money"}))
    assert errors(again) == ["one_shrine_per_upkeep"]
    second = play(FOUR, *HOMES, *UPKEEP, shrine, *NEXT_UPKEEP, shrine)
    assert errors(second) == ["shrine_per_planet"]  # one science planet, no grey one
    ann = play(FOUR, *HOMES, *UPKEEP,
               ("structure_built", "Ann", {"q": 0, "r": -2, "structure": "shrine", "colour": "money"}))
    assert errors(ann) == ["shrine_builder"]
    with pytest.raises(BadEvent, match="colour"):
        play(FOUR, ("structure_built", "Bob", {"q": 2, "r": -2, "structure": "shrine", "colour": "grey"}))


def _three_shrines(cost: int) -> list:
    """Bob (Enlightened, home 238 at (2, -2) turned 4: wormholes on 8, 10, 2, 4) explores 209 at (1, -2) (turned 1: 2,
    4, 8, 12; its 4 meets his 10) and 107 at (1, -1) (its 2 meets his 8), places discs, and builds a money Shrine
    of ``cost`` in each of three Upkeeps: 238, 209 and 107 each have a money planet."""
    rows = [("hex_placed", "Bob", {"sector": "209", "q": 1, "r": -2, "rotation": 1, "from": {"q": 2, "r": -2}}),
            ("influence_placed", "Bob", {"q": 1, "r": -2}),
            ("hex_placed", "Bob", {"sector": "107", "q": 1, "r": -1, "rotation": 0, "from": {"q": 2, "r": -2}}),
            ("influence_placed", "Bob", {"q": 1, "r": -1}), *UPKEEP]
    for k, (q, r) in enumerate([(2, -2), (1, -2), (1, -1)]):
        rows += ([] if k == 0 else NEXT_UPKEEP) + [
            ("structure_built", "Bob", {"q": q, "r": r, "structure": "shrine", "colour": "money", "cost": cost})]
    return rows


def test_three_shrines_of_a_cost_give_their_tile():
    # Rise of the Ancients p.15: three cost-6 Shrines are worth 3 VP; three cost-2 ones act as Wormhole Generator
    done = play(FOUR, *HOMES, *_three_shrines(6))
    assert not [f for f in done.findings if f.severity is not Severity.INFO]
    bob = next(b for b in GAME.scores(done.state) if b.player == "Bob")
    got = {line.category: line.vp for line in bob.lines}
    assert (got["Shrines of Enlightenment"], got["Shrines"]) == (3, 3)
    # 209 at (1, -2) has a wormhole on 12; 317 turned 4 (wormholes on 2 and 4) touches it with edge 6: a half wormhole
    explore = ("hex_placed", "Bob", {"sector": "317", "q": 1, "r": -3, "rotation": 4, "from": {"q": 1, "r": -2}})
    assert last(play(FOUR, *HOMES, *_three_shrines(2), explore)) == ["half_wormhole_with_generator"]
    assert last(play(FOUR, *HOMES, *_three_shrines(4), explore)) == ["half_wormhole_without_generator"]


def test_one_orbital_per_hex_and_one_warp_portal_token():
    exiles = {"players": [{"name": "Ann", "species": "Exiles"}, "Bob"], "developments": True}
    home = ("hex_placed", "Ann", {"sector": "234", "q": 0, "r": -2, "rotation": 3})
    assert errors(play(exiles, home,
                       ("structure_built", "Ann",
                        {"q": 0, "r": -2, "structure": "orbital"}))) == ["one_orbital_per_hex"]
    token = ("structure_built", "Ann", {"q": 0, "r": -2, "structure": "warp_portal"})
    laid = play(exiles, home, ("action_taken", "Ann", {"action": "research", "tech": "Warp Portal"}), token)
    assert last(laid) == [] and laid.state.galaxy.at((0, -2)).portal
    unrecorded = play(exiles, home, token)
    assert last(unrecorded, Severity.WARNING) == ["development_missing"]
    assert "Warp Portal" in unrecorded.state.player("Ann").developments
    twice = play(exiles, home, token, ("hex_placed", "Bob", {"sector": "222", "q": 0, "r": 2, "rotation": 0}),
                 ("structure_built", "Bob", {"q": 0, "r": 2, "structure": "warp_portal"}))
    assert "one_in_the_game" in errors(twice)


def test_research_records_unique_tiles():
    twice = play(FOUR, ("action_taken", "Ann", {"action": "research", "tech": "Shellworld"}),
                 ("action_taken", "Bob", {"action": "research", "tech": "Shellworld"}))
    assert errors(twice) == ["unique_tile"] and twice.state.player("Bob").developments == ()
    rare = play(FOUR, ("action_taken", "Ann", {"action": "research", "tech": "Point Defense"}),
                ("action_taken", "Bob", {"action": "research", "tech": "Point Defense"}))
    assert errors(rare) == ["unique_tile"]
    with pytest.raises(BadEvent, match="the action is one of the six"):
        play(FOUR, ("action_taken", "Ann", {"action": "trade"}))


def test_relations_and_alliances():
    base = [("relations_formed", "Ann", {"with": "Bob"}),
            ("alliance_founded", "Ann", {"alliance": "Nova", "with": "Bob"})]
    result = play(FOUR, *base)
    assert [(p.alliance, p.alliance_side) for p in result.state.players[:2]] == [("Nova", "face")] * 2
    assert errors(play(FOUR,
                       ("alliance_founded", "Ann", {"alliance": "Nova", "with": "Bob"}))) == ["alliance_relations"]
    joined = play(FOUR, *base, ("relations_formed", "Cy", {"with": "Bob"}),
                  ("alliance_joined", "Cy", {"alliance": "Nova"}))
    assert errors(joined) == ["alliance_full"]  # 4-5 players: two members (p.10)
    left = play(FOUR, *base, ("alliance_left", "Bob", {"traitor_card": True}))
    bob = left.state.player("Bob")
    assert (bob.alliance_side, bob.traitor, bob.relations) == ("traitor", True, ("Ann",))
    assert errors(play(FOUR, *base, ("alliance_left", "Bob", {}), ("relations_formed", "Bob", {"with": "Cy"}),
                       ("alliance_founded", "Bob", {"alliance": "Vortex", "with": "Cy"}))) == ["alliance_rejoin"]
    broken = play(FOUR, *base, ("relations_broken", "Ann", {"with": "Bob"}),
                  ("relations_formed", "Ann", {"with": "Cy"}))
    assert errors(broken) == ["traitor_relations"]  # the Traitor card's holder makes no new relations
    few = {"players": ["A", "B", "C"]}
    assert errors(play(few, ("relations_formed", "A", {"with": "B"}))) == ["diplomacy_players"]
    rounds9 = [("phase_ended", None, {})] * 32
    late = play(FOUR, ("relations_formed", "Ann", {"with": "Bob"}), *rounds9,
                ("alliance_founded", "Ann", {"alliance": "Nova", "with": "Bob"}))
    assert late.state.rounds.round == 9 and errors(late) == ["alliance_last_round", "alliance_last_round"]
    with pytest.raises(BadEvent, match="relations are made with another player"):
        play(FOUR, ("relations_formed", "Ann", {"with": "Ann"}))


def test_final_reports_then_the_score_with_unconfirmed_rows():
    end = [("phase_ended", None, {})] * 36
    result = play(FOUR, *HOMES, ("hex_placed", None, {"sector": "212", "q": 1, "r": 1, "rotation": 0}), *end)
    progress = GAME.progress(result.state)
    assert (progress.stage, progress.waiting, progress.over) == ("reporting", ("Ann", "Bob", "Cy", "Dee"), False)
    report = ("position_reported", "Ann", {"reputation": [4, 4], "tech_tracks": {"military": 7, "grid": 0, "nano": 0}})
    reported = play(FOUR, *HOMES, *end, report)
    ann = next(b for b in GAME.scores(reported.state) if b.player == "Ann")
    assert ann.total == 3 + 8 + 5  # 221 (3), reputation 4 + 4, a full military track 5
    with pytest.raises(BadEvent, match="'score' is not a field"):
        play(FOUR, ("position_reported", "Ann", {"score": 10}))
    with pytest.raises(BadEvent, match=r"\): reputation\[0\]: must be between 1 and 4"):
        play(FOUR, ("position_reported", "Ann", {"reputation": [5]}))
    scores = {b.player: {line.category: line.vp for line in b.lines} for b in GAME.scores(result.state)}
    # Draco (Cy): the Hive's 3 Ancients are on the board; Planta (Dee): 1 controlled hex. Both rows UNCONFIRMED.
    assert scores["Cy"]["Ancients on the board"] == 3 * DRACO_VP_PER_ANCIENT
    assert scores["Dee"]["Planta hexes"] == 1 * PLANTA_VP_PER_HEX
    ended = play(FOUR, ("game_ended", None, {}))
    assert GAME.progress(ended.state).over
    warnings = [f.what for f in ended.findings if f.severity is Severity.WARNING]
    assert warnings == ["the game ends in round 1, before round 9 is over"]


def test_volleys_are_kept_for_the_combat_helper():
    result = play(FOUR,
                  ("volley_rolled", "Ann", {"dice": [{"colour": "red", "face": 4}, {"colour": "yellow", "face": 9}],
                                                  "computers": 2, "shields": 1}))
    # 4 + 2 - 1 = 5: a miss; the 9 cannot be: a question
    assert result.state.volley["hits"] == 0 and result.state.volley["questions"]
    assert last(result, Severity.WARNING) == ["impossible_die"]
    assert GAME.view(result.state)["volley"]["dice"] == [{"colour": "red", "face": 4, "hit": False, "damage": 0}]


def test_a_volley_naming_another_ship_or_target_than_the_aimed_one_is_its_own():
    """Eclipse, Combat: a die hits when face + the firing ship's computers - the target's shields >= 6. Ann aims her
    Cruiser (computers 2) at Bob's Interceptor (shields 0), then taps in a volley of her Interceptor at the Ancients
    (no computers, no shields given, no blueprints): 5 + 0 - 0 = 5, a miss. It took the aimed volley's computers
    (5 + 2 = 7: a hit, 1 damage) and its name ("Ann's Cruiser at Bob's Interceptor"). A volley at herself is
    refused even with a volley aimed. The aimed volley's own faces still take its numbers: 4 + 2 = 6, a hit."""
    aimed = ("volley_aimed", "Ann", {"ship": "Cruiser", "target": "Bob", "target_ship": "Interceptor",
                                     "computers": 2, "shields": 0})
    other = play(FOUR, aimed, ("volley_rolled", "Ann", {"dice": [{"colour": "yellow", "face": 5}],
                                                        "ship": "Interceptor", "target": "Ancients"}))
    assert (other.state.volley["hits"], other.state.volley["damage"]) == (0, 0)
    assert other.state.volley["label"] == "Ann's Interceptor at Ancients"
    with pytest.raises(BadEvent, match="the target must be another player"):
        play(FOUR, aimed, ("volley_rolled", "Ann", {"dice": [{"colour": "yellow", "face": 6}], "ship": "Cruiser",
                                                    "target": "Ann"}))
    same = play(FOUR, aimed, ("volley_rolled", "Ann", {"dice": [{"colour": "yellow", "face": 4}], "ship": "Cruiser"}))
    assert (same.state.volley["hits"], same.state.volley["label"]) == (1, "Ann's Cruiser at Bob's Interceptor")


def test_the_view_and_progress_are_plain_and_typed():
    seven = {"players": [f"P{k}" for k in range(7)], "simultaneous": True, "turn_order_card": True}
    state = GAME.initial_state(seven)
    view = GAME.view(state)
    assert json.loads(json.dumps(view)) == view
    assert view["markers"] == {"first": "P0", "second": "P3", "first_waits": False, "second_waits": False}
    progress = GAME.progress(state)
    assert (progress.round_label, progress.turn, progress.rounds,
            progress.last_round) == ("Round 1 of 9, Action phase", "P0", 9, False)
