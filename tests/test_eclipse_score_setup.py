"""``companion score eclipse FILE`` with the game's set-up (rules/eclipse/endgame.py ``setup``).

Rise of the Ancients p.2: a game uses all, some or none of the expansion's modules; Eclipse 1.2, Diplomacy: with 2 or
3 players there are no diplomatic relations (no Ambassadors, no Traitor card). A score file listed every row, Ancient
Cruisers, Ancient Dreadnought, Warp Portal... at 0 for a game set up without them. A file's optional ``setup``
(``modules``, ``players``) now lists only the rows that apply; a file without one keeps every row, as before; a bad
set-up is refused naming the field.

Hand-worked case (3 players, Rise of the Ancients with the Developments module only):
- Ann, Terran Directorate: reputation 3 + 2 = 5; 221 Procyon 3 VP; Ancient Monument 3; Military track 4 tiles 1:
  12.
- Bob, Planta: 226 61 Cygni 3 VP; one Discovery kept as VP 2: 5 (Planta's own row is not in the file).
- Cy, Orion Hegemony: reputation 4; one Monolith 3: 7.
"""

from __future__ import annotations

import argparse
import copy
import io
import json

import pytest

from companion import i18n, scoring
from rules.eclipse.endgame import final_scores
from rules.scoring import ScoreInputError


def player(name: str, species: str, **fields) -> dict:
    """A score-file player with every field present, 0 / false / [] / null unless given."""
    out = {"name": name, "species": species, "resources": {"money": 0, "science": 0, "materials": 0},
           "reputation": [], "ambassadors_received": 0, "controlled_hexes": [], "discoveries_kept_as_vp": 0,
           "monoliths": 0, "tech_tracks": {"military": 0, "grid": 0, "nano": 0}, "traitor": False,
           "ancient_cruisers_destroyed": 0, "ancient_dreadnought_destroyed": False, "developments": [],
           "warp_portal_hex": None, "shellworld_hex": None, "ancient_warp_portal_hex": None, "shrines_controlled": 0,
           "shrines_of_enlightenment_tile": False, "orbitals_with_cubes": 0,
           "magellan_discoveries_discarded_or_used": 0, "alliance": None, "alliance_tile_side": None}
    out.update(fields)
    return out


FILE = {
    "game": "eclipse", "kind": "score", "rise_of_the_ancients": True, "alliances_in_play": [],
    "ancient_orbital_hex": None,
    "players": [
        player("Ann", "Terran Directorate", reputation=[3, 2], controlled_hexes=["221"],
               developments=["Ancient Monument"], tech_tracks={"military": 4, "grid": 0, "nano": 0}),
        player("Bob", "Planta", controlled_hexes=["226"], discoveries_kept_as_vp=1),
        player("Cy", "Orion Hegemony", reputation=[4], monoliths=1),
    ],
    "setup": {"modules": ["developments"], "players": 3},
}
MODULE_ROWS = {"Ancient Cruisers", "Ancient Dreadnought", "Ancient Warp Portal", "alliance tile"}
DEVELOPMENT_ROWS = {"Ancient Monument", "Artifact Link", "Shellworld", "Warp Portal"}


def rows(data: dict) -> list[dict[str, int]]:
    return [{line.category: line.vp for line in b.lines} for b in final_scores(data)]


def without_setup() -> dict:
    data = copy.deepcopy(FILE)
    del data["setup"]
    return data


def test_a_set_up_file_lists_only_the_rows_that_apply():
    scored = rows(FILE)
    assert [sum(r.values()) for r in scored] == [12, 5, 7]
    for r in scored:
        assert MODULE_ROWS.isdisjoint(r) and {"ambassadors", "traitor"}.isdisjoint(r)
        assert DEVELOPMENT_ROWS <= set(r)
    assert scored[0]["Ancient Monument"] == 3 and scored[0]["technology tracks"] == 1


def test_a_file_without_set_up_lists_every_row_as_before():
    scored = rows(without_setup())
    assert [sum(r.values()) for r in scored] == [12, 5, 7]
    assert all(MODULE_ROWS | DEVELOPMENT_ROWS <= set(r) for r in scored)


def test_the_set_ups_player_count_brings_diplomacy_rows_back():
    """Three players listed of a 4-player game (``setup.players`` 4): Ambassadors and the Traitor card are played,
    so their rows are listed (0 each); totals unchanged."""
    data = copy.deepcopy(FILE)
    data["setup"]["players"] = 4
    scored = rows(data)
    assert [sum(r.values()) for r in scored] == [12, 5, 7]
    assert all(r["ambassadors"] == 0 and r["traitor"] == 0 for r in scored)


def test_the_command_prints_only_the_rows_that_apply(tmp_path):
    path = tmp_path / "final.json"
    path.write_text(json.dumps(FILE), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    assert scoring.cmd_score(argparse.Namespace(game="eclipse", file=path, json=False), out, err) == 0
    table = out.getvalue()
    assert "Ancient Monument" in table and "Ancient Cruisers" not in table and "alliance tile" not in table
    assert [line.split()[-3:] for line in table.splitlines() if line.startswith("total")] == [["12", "5", "7"]]
    path.write_text(json.dumps(without_setup()), encoding="utf-8")
    out = io.StringIO()
    assert scoring.cmd_score(argparse.Namespace(game="eclipse", file=path, json=False), out, err) == 0
    assert "Ancient Cruisers" in out.getvalue() and err.getvalue() == ""


@pytest.mark.parametrize(("edit", "field", "words"), [
    (lambda d: d.update(setup=[]), "setup", "JSON object"),
    (lambda d: d["setup"].update(modlues=[]), "setup.modlues", "modules"),
    (lambda d: d["setup"].update(modules=["developments", "alliance"]), "setup.modules[1]", "'alliances'"),
    (lambda d: d["setup"].update(modules=["developments", "developments"]), "setup.modules[1]", "listed twice"),
    (lambda d: d["setup"].update(players=1), "setup.players", "2"),
    (lambda d: d["setup"].update(players=2), "setup.players", "is 2, but 3 players are listed"),
    (lambda d: d["setup"].update(players="3"), "setup.players", "whole number"),
    (lambda d: d["setup"].update(modules=[]), "players[0].developments",
     "belongs to the developments module, and setup.modules leaves it out"),
    (lambda d: d["players"][2].update(ancient_cruisers_destroyed=1), "players[2].ancient_cruisers_destroyed",
     "ancient_homeworlds module"),
    (lambda d: d.update(rise_of_the_ancients=False) or d["players"][0].update(developments=[]),
     "setup.modules", "rise_of_the_ancients is false"),
])
def test_a_bad_set_up_is_refused_naming_the_field(edit, field, words):
    data = copy.deepcopy(FILE)
    edit(data)
    with pytest.raises(ScoreInputError) as caught:
        final_scores(data)
    assert caught.value.field == field and words in str(caught.value), str(caught.value)
    said = {lang: i18n.say(caught.value, lang) for lang in ("el", "pl", "hu")}
    assert all(field in s and s != str(caught.value) for s in said.values()), said


def test_the_command_names_the_bad_field_and_scores_nothing(tmp_path):
    data = copy.deepcopy(FILE)
    data["setup"]["modules"] = ["developments", "hive"]
    path = tmp_path / "final.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    code = scoring.cmd_score(argparse.Namespace(game="eclipse", file=path, json=False), out, err)
    assert code != 0 and out.getvalue() == ""
    assert "setup.modules[1]" in err.getvalue() and "'hives'" in err.getvalue()


@pytest.mark.parametrize(("sector", "module"), [("271", "ancient_homeworlds"), ("319", "hives"),
                                                ("281", "warp_portals")])
def test_a_controlled_hex_only_a_module_left_out_brings_is_refused(sector, module):
    """Rise of the Ancients p.6 (Ancient Homeworlds, 271-274), p.7 (Ancient Hives, 212 and 319) and p.8 (the Portal
    sectors 281, 381 and 382 are shuffled into the stacks only with the Warp Portals): a game set up without the
    module never lays its sectors. Cy's controlled hexes list one (a hex number mistyped, or the set-up misremembered):
    the file was scored with the hex's VP in Cy's hexes row. Now it is refused naming the hex's place in the file and
    the module; with the module in the set-up it scores: Ancient Homeworlds 3 VP, a Hive or a Portal sector 2 VP,
    printed on the tiles (Cy 7 + the hex)."""
    data = copy.deepcopy(FILE)
    data["players"][2]["controlled_hexes"] = [sector]
    with pytest.raises(ScoreInputError) as caught:
        final_scores(data)
    assert caught.value.field == "players[2].controlled_hexes[0]"
    assert f"belongs to the {module} module, and setup.modules leaves it out" in str(caught.value)
    assert all(i18n.say(caught.value, lang) != str(caught.value) for lang in ("el", "pl", "hu"))
    data["setup"]["modules"].append(module)
    assert [b.total for b in final_scores(data)] == [12, 5, 7 + {"271": 3, "319": 2, "281": 2}[sector]]


def test_an_alliance_of_three_at_four_or_five_players_is_refused():
    """Rise of the Ancients p.10: "with four and five players, only two players may belong to the same alliance"; from
    six players a third may join. A file of four players with three holding Nova tiles was scored (Nova's team score
    the floor of the three totals' mean, p.11), and so was one whose set-up says 5 players. Now both are refused at the
    third member's alliance, naming the player count and p.10; the same three with ``setup.players`` 6 score, each
    with their face-up tile (+2) and one Ambassador received (+1): 3 VP each, the team 3 (p.11)."""
    data = copy.deepcopy(FILE)
    data["players"] = [player(name, species) for name, species in (
        ("Ann", "Terran Directorate"), ("Bob", "Planta"), ("Cy", "Orion Hegemony"), ("Dee", "Hydran Progress"))]
    data["alliances_in_play"] = ["Nova"]
    data["setup"] = {"modules": ["alliances"]}
    for member in data["players"][:3]:
        member.update(alliance="Nova", alliance_tile_side="face", ambassadors_received=1)
    for seats in (None, 5):
        if seats is not None:
            data["setup"]["players"] = seats
        with pytest.raises(ScoreInputError) as caught:
            final_scores(data)
        assert caught.value.field == "players[2].alliance"
        assert str(caught.value).endswith(f"3 players hold a Nova tile; with {seats or 4} players an alliance has at "
                                          "most 2 members (Rise of the Ancients p.10)")
        assert all("10" in i18n.say(caught.value, lang) for lang in ("el", "pl", "hu"))
    data["setup"]["players"] = 6
    assert [b.total for b in final_scores(data)] == [3, 3, 3, 0]


@pytest.mark.parametrize("seats", [7, 9])
def test_seven_or_more_seats_without_rise_of_the_ancients_are_refused(seats):
    """The base game seats 2-6; Rise of the Ancients brings the pieces for up to nine players (p.3). A base-game file
    (``rise_of_the_ancients`` false) whose set-up said 7 or 9 players was scored, with the expansion's reputation tiles
    for 7-9 players in its bag (p.12). Now it is refused at ``setup.players``, in each language; 6 players score."""
    data = copy.deepcopy(FILE)
    data["rise_of_the_ancients"] = False
    data["players"][0]["developments"] = []
    data["setup"] = {"players": seats}
    with pytest.raises(ScoreInputError) as caught:
        final_scores(data)
    assert caught.value.field == "setup.players"
    assert str(caught.value).endswith(f"{seats} players: the base game seats 2-6, Rise of the Ancients up to 9 (p.3), "
                                      "and rise_of_the_ancients is false")
    assert all(i18n.say(caught.value, lang) != str(caught.value) for lang in ("el", "pl", "hu"))
    data["setup"]["players"] = 6
    assert [b.total for b in final_scores(data)] == [9, 5, 7]
