"""Eclipse end scoring (rules/eclipse/endgame.py): each row of the scoring table, alliances and the winner, and
what the score file refuses. Values worked by hand from the rows and the Rise of the Ancients rulebook."""

from __future__ import annotations

import pytest

from companion import i18n
from rules.core import ScoreBreakdown, ScoreLine
from rules.eclipse import endgame
from rules.eclipse.data import catalogue
from rules.eclipse.endgame import (
    DRACO_VP_PER_ANCIENT,
    FILE_ROWS,
    PLANTA_VP_PER_HEX,
    PlayerPosition,
    final_scores,
    score_player,
    standings,
)
from rules.scoring import ScoreInputError
from tests.test_eclipse_cases import case

CAT = catalogue()


def lines(b: ScoreBreakdown) -> dict[str, int]:
    return {line.category: line.vp for line in b.lines}


def hexes(*ids: str):
    return tuple(CAT.sector(i) for i in ids)


@pytest.mark.parametrize(("tiles", "vp"), [(0, 0), (3, 0), (4, 1), (5, 2), (6, 3), (7, 5)])
def test_row_6_a_tech_track(tiles, vp):
    p = PlayerPosition("Ann", "Planta", tech_tracks={"military": tiles, "grid": 0, "nano": 0})
    assert lines(score_player(p))["technology tracks"] == vp


def test_rows_1_to_7_and_the_syndicate_traitor():
    p = PlayerPosition("Ann", "Orion Hegemony", reputation=(4, 1), ambassadors_received=2,
                       controlled_hexes=hexes("232", "102"),
                       discoveries_kept_as_vp=3, monoliths=2, traitor=True)
    got = lines(score_player(p, rise=False))
    assert got == {"reputation": 5, "ambassadors": 2, "hexes": 6, "discoveries": 6, "monoliths": 6,
                   "technology tracks": 0, "traitor": -2}
    assert lines(score_player(PlayerPosition("Ann", "Rho Indi Syndicate", traitor=True)))["traitor"] == 0  # p.15


def test_rows_8_and_9_are_behind_their_constants_and_out_of_the_file():
    draco = PlayerPosition("Ann", "Descendants of Draco", ancients_on_board=3)
    planta = PlayerPosition("Bob", "Planta", controlled_hexes=hexes("226", "201"))
    assert lines(score_player(draco))["Ancients on the board"] == 3 * DRACO_VP_PER_ANCIENT
    assert lines(score_player(planta))["Planta hexes"] == 2 * PLANTA_VP_PER_HEX
    # what players read states the rule and its source, with no note about how sure the source is
    assert score_player(draco).lines[7].detail == (
        "Descendants of Draco: 1 VP for each Ancient ship left on the board, not the Ancient Dreadnought nor an "
        "Ancient Cruiser on an Ancient Homeworld (species board; Rise of the Ancients p.6)")
    planta_line = next(line for line in score_player(planta).lines if line.category == "Planta hexes")
    assert planta_line.detail == "Planta: 1 VP for each controlled hex, on top of its printed VP (species board)"
    assert "Ancients on the board" not in lines(score_player(PlayerPosition("Ann",
                                                                            "Descendants of Draco")))  # unknown count
    assert 8 not in FILE_ROWS and 9 not in FILE_ROWS
    assert "Planta hexes" not in lines(score_player(planta, rows=FILE_ROWS))


def test_rise_of_the_ancients_rows_need_control_at_the_end():
    p = PlayerPosition("Ann", "Terran Union", controlled_hexes=hexes("225", "204"),
                       developments=("Artifact Link", "Shellworld", "Warp Portal", "Ancient Monument"),
                       shellworld_hex=CAT.sector("301"), warp_portal_hex=CAT.sector("204"),
                       ancient_warp_portal_hex=CAT.sector("225"), ancient_cruisers_destroyed=3,
                       ancient_dreadnought_destroyed=True, alliance="Nova", alliance_tile_side="traitor")
    got = lines(score_player(p, CAT.sector("204")))
    # artifacts: 225 (1) + 204 (1) + the Ancient Orbital on 204 (1); the Shellworld lies on 301, not controlled
    assert (got["Artifact Link"], got["Shellworld"], got["Warp Portal"], got["Ancient Warp Portal"]) == (3, 0, 1, 2)
    assert (got["Ancient Cruisers"], got["Ancient Dreadnought"], got["Ancient Monument"],
            got["alliance tile"]) == (3, 1, 3, -3)
    assert score_player(p).team is None  # a Traitor side scores alone


def test_species_rows_only_for_their_species():
    lyra = PlayerPosition("Ann", "Enlightened of Lyra", shrines_controlled=2, shrines_of_enlightenment_tile=True,
                          orbitals_with_cubes=4, magellan_discoveries_discarded_or_used=4)
    assert {k: v for k, v in lines(score_player(lyra)).items() if k in ("Shrines of Enlightenment", "Shrines")} == {
        "Shrines of Enlightenment": 3, "Shrines": 2}
    assert "Orbitals" not in lines(score_player(lyra)) and "Magellan discoveries" not in lines(score_player(lyra))
    exiles = PlayerPosition("Bob", "Exiles", orbitals_with_cubes=4, shrines_controlled=2)
    assert lines(score_player(exiles))["Orbitals"] == 4 and "Shrines" not in lines(score_player(exiles))
    assert lines(score_player(PlayerPosition("Cy", "Magellan",
                                             magellan_discoveries_discarded_or_used=4)))["Magellan discoveries"] == 4


def _b(name: str, total: int, resources: int = 0, team: str | None = None) -> ScoreBreakdown:
    return ScoreBreakdown(name, (ScoreLine("reputation", total),), tiebreak=(resources,), team=team)


def test_the_rulebook_alliance_example():
    # Rise of the Ancients p.11: Nova's 26, 44, 30 -> floor(100 / 3) = 33 beats 32, 31, 30
    result = standings([_b("Alexandros", 26, team="Nova"), _b("Giannis", 44, team="Nova"),
                        _b("Kostas", 30, team="Nova"),
                        _b("Vasilis", 32), _b("Iakovos", 31), _b("Loukas", 30)])
    assert result.teams == {"Nova": 33} and result.winners == ("Alexandros", "Giannis", "Kostas")


def test_ties_go_to_resources_then_are_shared():
    # a team of 2 with 20 + 21 = 41 -> 20, resources (5 + 6) // 2 = 5, against a player with 20 and 5: shared
    result = standings([_b("Ann", 20, 5, "Vortex"), _b("Bob", 21, 6, "Vortex"), _b("Cy", 20, 5)])
    assert result.teams == {"Vortex": 20} and set(result.winners) == {"Ann", "Bob", "Cy"}
    assert standings([_b("Ann", 20, 5, "Vortex"), _b("Bob", 21, 6, "Vortex"), _b("Cy", 20, 6)]).winners == ("Cy",)
    assert standings([_b("Ann", 9), _b("Bob", 9, 1)]).teams == {}


@pytest.mark.parametrize(("edit", "field", "words"), [
    (lambda d: d["players"][0].update(species="Eridiani Empire"), "players[0].species",
     "did you mean 'Eridani Empire'"),
    (lambda d: d["players"][3].update(species="Eridani Empire"), "players[3].species", "player boards"),
    (lambda d: [p.update(species="Planta") for p in d["players"][2:]], "players[3].species",
     "2 players chose Planta, and the player boards that show them number 1"),  # not "Planta and Planta need ..."
    (lambda d: d["players"][2].update(controlled_hexes=["224", "101"]),
     "players[2].controlled_hexes[1]", "also in players[1]"),
    (lambda d: d["players"][1].update(developments=["Trade Fleet"]), "players[1].developments[0]",
     "players[0] holds Trade Fleet"),
    (lambda d: d["players"][2].update(traitor=True), "players[2].traitor", "the Traitor card"),
    (lambda d: d["players"][2].update(alliance="Nova", alliance_tile_side="face"),
     "players[2].alliance", "alliances_in_play"),
    (lambda d: d["players"][2].update(alliance_tile_side="face"), "players[2].alliance_tile_side", "must be null"),
    (lambda d: d["players"][1].update(alliance_tile_side=None), "players[1].alliance_tile_side",
     "\"face\" or \"traitor\""),
    (lambda d: d["players"][2].update(warp_portal_hex="224"), "players[2].warp_portal_hex", "Warp Portal Development"),
    (lambda d: d["players"][2].update(tech_tracks={"military": 8, "grid": 0, "nano": 0}),
     "players[2].tech_tracks.military", "between 0 and 7"),
    (lambda d: d["players"][3].update(name="ann"), "players[3].name", "also the name of players[0]"),
    (lambda d: d.update(rise_of_the_ancients=False), "alliances_in_play", "a Rise of the Ancients module"),
    (lambda d: d.update(rise_of_the_ancients=False, alliances_in_play=[]), "players[0].species",
     "Rise of the Ancients species"),
    (lambda d: d["players"].pop()
     and d["players"][0].update(alliance=None, alliance_tile_side=None) or d["players"].pop(),
     "alliances_in_play", "not used with 2 players"),
    (lambda d: d.update(alliances_in_play=["Nova", "Vortex", "Radiance", "Fourth"]), "alliances_in_play[3]",
     "the alliances"),
    (lambda d: d.update(alliances_in_play=["Nova", "Vortx"]), "alliances_in_play[1]", "did you mean 'Vortex'"),
    (lambda d: d["players"][0].pop("orbitals_with_cubes"), "players[0].orbitals_with_cubes", "missing"),
])
def test_the_score_file_refuses_what_the_table_cannot_hold(edit, field, words):
    data = case("score-traitor-side-tie-on-resources")  # Ann (Syndicate, Vortex traitor side), Bob (Vortex), Cy, Dee
    edit(data)
    with pytest.raises(ScoreInputError) as caught:
        final_scores(data)
    assert caught.value.field == field and words in str(caught.value), str(caught.value)


def test_an_alliance_has_three_tiles():
    data = case("score-nine-players-two-alliances")
    for p in data["players"][3:5]:
        p.update(alliance="Nova", alliance_tile_side="face")
    with pytest.raises(ScoreInputError, match=r"players\[3\]\.alliance: 5 players hold a Nova tile; an alliance has 3"):
        final_scores(data)


def test_the_base_game_refuses_rise_of_the_ancients_content():
    data = case("score-base-game-tie-on-resources")
    data["players"][0]["controlled_hexes"].append("281")
    with pytest.raises(ScoreInputError,
                       match=r"controlled_hexes\[3\]: hex 281 Delta Corvi is a Rise of the Ancients tile"):
        endgame.parse_score(data)
    data = case("score-base-game-tie-on-resources")
    data["players"][1]["ancient_cruisers_destroyed"] = 1
    with pytest.raises(ScoreInputError,
                       match=r"players\[1\]\.ancient_cruisers_destroyed: is a Rise of the Ancients count"):
        endgame.parse_score(data)


def test_the_score_file_refuses_more_tiles_of_a_value_than_the_bag():
    data = case("score-base-game-traitor-and-ambassadors")  # 4 players: Bob holds both 4s reported
    data["players"][3]["reputation"] = [3, 3, 3, 4, 4, 4]  # with Bob's two: 5 tiles of 4 VP, the base bag has 4
    with pytest.raises(ScoreInputError) as caught:
        final_scores(data)
    assert caught.value.field == "players[3].reputation"
    assert "brings the reputation tiles of 4 VP to 5" in str(caught.value) and "the bag holds 4" in str(caught.value)
    assert "podnosi liczbę żetonów reputacji za 4 PZ do 5" in i18n.say(caught.value, "pl")
    nine = case("score-nine-players-two-alliances")  # 6 tiles of 4 VP reported
    nine["players"][8]["reputation"] = [2, 2, 4]  # 7: Rise of the Ancients adds tiles of 4 VP for 7-9 players
    assert len(final_scores(nine)) == 9
    nine["players"][8]["reputation"] = [2, 4, 4]  # 8 > 7
    with pytest.raises(ScoreInputError, match=r"players\[8\]\.reputation: brings the reputation tiles of 4 VP to 8"):
        final_scores(nine)


def test_rows_nobody_can_score_without_diplomacy_are_left_out():
    """Diplomacy (Ambassadors and the Traitor card) is played with 4 or more players: a 3-player table's score read
    "Ambassadors 0" and "Traitor 0" for every player. Hand-worked, 3 players: Ann reputation 3 + 2 and 221 Procyon
    (3 VP) = 8; Bob 226 61 Cygni (3) as Planta (+1) = 4; Cy nothing = 0: no Ambassadors or Traitor rows. With a
    4th player the rows are there (0 each), and a 3-player position that holds a Traitor (a score file may) keeps
    them, so no VP is hidden."""
    from rules.eclipse.endgame import Position

    three = (PlayerPosition("Ann", "Terran Directorate", reputation=(3, 2), controlled_hexes=hexes("221")),
             PlayerPosition("Bob", "Planta", controlled_hexes=hexes("226")),
             PlayerPosition("Cy", "Orion Hegemony"))
    scored = endgame.score_position(Position(three))
    assert [b.total for b in scored] == [8, 4, 0]
    assert all({"ambassadors", "traitor"}.isdisjoint(lines(b)) for b in scored)
    four = endgame.score_position(Position((*three, PlayerPosition("Dee", "Mechanema"))))
    assert all(lines(b)["ambassadors"] == 0 and lines(b)["traitor"] == 0 for b in four)
    kept = endgame.score_position(Position((*three[:2], PlayerPosition("Cy", "Orion Hegemony", traitor=True))))
    assert lines(kept[2])["traitor"] == -2 and lines(kept[0])["ambassadors"] == 0


def test_rows_of_modules_left_out_of_the_set_up_are_left_out():
    """Rise of the Ancients p.2: a game uses all, some or none of the modules. A 4-player game with only the alliances
    module listed Ancient Cruisers, Ancient Dreadnought, Ancient Monument, Artifact Link, Shellworld, Warp Portal and
    Ancient Warp Portal as 0 for everyone. Hand-worked: Ann 221 Procyon (3) + alliance tile face up (+2) = 5; Bob
    226 61 Cygni (3) + Planta 1 hex (+1) + alliance tile face up (+2) = 6; Cy reputation 4 = 4; Dee Traitor card -2.
    The Ancient Cruiser Cy destroyed anyway (reported, +1) keeps its row: Cy 5, and no total changes."""
    from rules.eclipse.endgame import Position

    four = (PlayerPosition("Ann", "Terran Directorate", controlled_hexes=hexes("221"), alliance="Nova",
                           alliance_tile_side="face"),
            PlayerPosition("Bob", "Planta", controlled_hexes=hexes("226"), alliance="Nova", alliance_tile_side="face"),
            PlayerPosition("Cy", "Orion Hegemony", reputation=(4,)),
            PlayerPosition("Dee", "Mechanema", traitor=True))
    modules = {"alliances": True, "developments": False, "ancient_homeworlds": False, "galactic_center": False,
               "warp_portals": False, "hives": False, "rare_technologies": False}
    scored = endgame.score_position(Position(four, ("Nova",), modules=modules))
    assert [b.total for b in scored] == [5, 6, 4, -2]
    gone = {"Ancient Cruisers", "Ancient Dreadnought", "Ancient Monument", "Artifact Link", "Shellworld", "Warp Portal",
            "Ancient Warp Portal"}
    for b in scored:
        assert gone.isdisjoint(lines(b))
        assert {"ambassadors", "traitor", "alliance tile"} <= set(lines(b))
    cy = PlayerPosition("Cy", "Orion Hegemony", reputation=(4,), ancient_cruisers_destroyed=1)
    kept = endgame.score_position(Position((*four[:2], cy, four[3]), ("Nova",), modules=modules))
    assert [b.total for b in kept] == [5, 6, 5, -2]
    assert all(lines(b)["Ancient Cruisers"] == (1 if b.player == "Cy" else 0) for b in kept)
    assert all("Ancient Monument" not in lines(b) for b in kept)
    every = endgame.score_position(Position(four, ("Nova",), modules={m: True for m in modules}))
    assert [b.total for b in every] == [5, 6, 4, -2]
    assert all(gone <= set(lines(b)) for b in every)
    unknown = endgame.score_position(Position(four, ("Nova",)))  # the score file: no set-up, every row
    assert all(gone <= set(lines(b)) for b in unknown)
