"""Eclipse with Rise of the Ancients: a hex whose influence disc went on while Ancients held it.

Rules: no influence disc goes on a hex while Ancients remain there; the Descendants of Draco may share a hex with
basic Ancients but never with an Ancient Cruiser (Ancient Homeworld), the GCDS or the Ancient Dreadnought (Rise of
the Ancients p.6-7: "Το Καταδρομικό του Κόσμου αυτού πρέπει να καταστραφεί πριν μπορέσετε να τοποθετήσετε Δίσκο
Επιρροής"; rules digest 3.4, 3.7). Controlled hexes score their printed VP at the end (digest 2.1 row 3; Planta +1 per
controlled hex, row 9). The box keeps a disc reported over Ancients with an error finding; before, such a hex scored
as if the disc were lawful when the game ended with the Ancients still there. Now it scores nothing for it while they
remain, and the hexes line says which hex and why.

Hex VP from the component data (``shared/data/eclipse/hexes.json``): 221 Procyon 3, 238 Beta Lyrae 3, 228 Sigma
Draconis 3, 226 61 Cygni 3, 104 Arcturus 2 (2 Ancients), 101 Castor 2 (1 Ancient), 105 Zeta Herculis 3 (1 Ancient),
271 Omega Fornacis 3 (an Ancient Homeworld, its Ancient Cruiser on it).
"""

from __future__ import annotations

from companion import i18n
from rules import Severity
from tests.test_eclipse_game import FOUR, GAME, HOMES, play

END = [("phase_ended", None, {})] * 36  # the 9 rounds' phases: the table then waits for the final positions
MAP = [
    ("hex_placed", "Ann", {"sector": "104", "q": 1, "r": -1, "rotation": 0}),
    ("influence_placed", "Ann", {"q": 1, "r": -1}),  # over 2 Ancients: an error, kept as reported
    ("hex_placed", "Bob", {"sector": "105", "q": 1, "r": 0, "rotation": 0}),
    ("influence_placed", "Bob", {"q": 1, "r": 0}),  # over 1 Ancient...
    ("ancients_destroyed", "Bob", {"q": 1, "r": 0, "count": 1}),  # ...reported destroyed later: his hex
    ("hex_placed", "Cy", {"sector": "101", "q": 0, "r": 1, "rotation": 0}),
    ("influence_placed", "Cy", {"q": 0, "r": 1}),  # Draco share a hex with basic Ancients
    ("hex_placed", None, {"sector": "271", "q": -2, "r": 2, "rotation": 0}),
    ("influence_placed", "Dee", {"q": -2, "r": 2}),  # the Ancient Cruiser still there: an error
]


def lines(state) -> dict[str, dict[str, int]]:
    return {b.player: {line.category: line.vp for line in b.lines if line.vp} for b in GAME.scores(state)}


def test_a_hex_the_ancients_still_hold_scores_nothing_for_the_disc_put_over_them():
    """Ann: 221 3; 104 Arcturus still holds its 2 Ancients: not counted -> 3 (before: 3 + 2 = 5).
    Bob: 238 3 + 105 Zeta Herculis 3 (its Ancient destroyed) -> 6.
    Cy (Draco): 228 3 + 101 Castor 2 (shared with its Ancient, lawful) = 5; Ancients on the board 2 + 1 = 3 (row 8,
    UNCONFIRMED, one per Ancient) -> 8.
    Dee (Planta): 226 3; 271 Omega Fornacis still guarded by its Ancient Cruiser: not counted; Planta +1 per controlled
    hex: 1 -> 4 (before: 3 + 3 + 2 = 8)."""
    result = play(FOUR, *HOMES, *MAP, *END)
    errors = [(f.player, f.rule_kind) for f in result.findings if f.severity is Severity.ERROR]
    assert errors == [("Ann", "ancients_present"), ("Bob", "ancients_present"), ("Dee", "ancients_present")]
    scores = lines(result.state)
    assert scores["Ann"] == {"hexes": 3}
    assert scores["Bob"] == {"hexes": 6}
    assert scores["Cy"] == {"hexes": 5, "Ancients on the board": 3}
    assert scores["Dee"] == {"hexes": 3, "Planta hexes": 1}
    totals = {b.player: b.total for b in GAME.scores(result.state)}
    assert totals == {"Ann": 3, "Bob": 6, "Cy": 8, "Dee": 4}
    [ann_hexes] = [line for line in GAME.scores(result.state)[0].lines if line.category == "hexes"]
    assert str(ann_hexes.detail) == ("controlled hexes' printed VP, without hexes Ancients still hold (104 Arcturus): "
                                     "no influence disc goes there while they remain (Rise of the Ancients p.6)")
    said = {lang: i18n.localize(ann_hexes.detail, lang) for lang in ("el", "pl", "hu")}
    assert said == {
        "el": "οι τυπωμένοι ΠΝ των εξαγώνων που ελέγχετε, χωρίς τα εξάγωνα που κρατούν ακόμη οι Αρχαίοι "
              "(104 Arcturus): κανένας Δίσκος Επιρροής δεν μπαίνει εκεί όσο μένουν (Αυγή των Αρχαίων σ.6)",
        "pl": "wydrukowane PZ kontrolowanych heksów, bez heksów, które wciąż zajmują Pradawni (104 Arcturus): "
              "żaden dysk wpływu nie trafia tam, dopóki zostają (Rise of the Ancients s. 6)",
        "hu": "az ellenőrzött hexekre nyomtatott GYP, az Ősök által még tartott hexek nélkül (104 Arcturus): "
              "nem kerülhet oda befolyáskorong, amíg ott vannak (Rise of the Ancients 6. o.)"}
    assert result.state.owners[(1, -1)] == "Ann"  # the disc stays on the map as reported


def test_the_hex_scores_once_its_ancients_are_destroyed_or_the_disc_is_put_there_again():
    """Ann's Arcturus counts (2 VP) once its 2 Ancients are reported destroyed, the disc staying where it was;
    a disc taken off the hex and put back after the Ancients are gone is lawful too. Dee's Omega Fornacis counts once
    its Ancient Cruiser is destroyed: 3 + its Cruiser +1 (Rise of the Ancients p.6) and Planta +1 per hex 2."""
    destroyed = play(FOUR, *HOMES, *MAP, ("ancients_destroyed", "Ann", {"q": 1, "r": -1, "count": 2}),
                     ("ancients_destroyed", "Dee", {"q": -2, "r": 2, "guardian": True}), *END)
    scores = lines(destroyed.state)
    assert scores["Ann"] == {"hexes": 5}
    assert scores["Dee"] == {"hexes": 6, "Ancient Cruisers": 1, "Planta hexes": 2}
    again = play(FOUR, *HOMES, *MAP, ("influence_removed", None, {"q": 1, "r": -1}),
                 ("ancients_destroyed", "Ann", {"q": 1, "r": -1, "count": 2}),
                 ("influence_placed", "Ann", {"q": 1, "r": -1}), *END)
    assert lines(again.state)["Ann"] == {"hexes": 5} and again.state.discs_over_ancients.get((1, -1)) is None


def test_a_disc_already_there_when_a_hive_ancient_moves_in_still_counts():
    """A Hive's Ancient moving onto a hex that holds a disc (Rise of the Ancients p.7: at the end of Cleanup) breaks
    no rule: the disc stays until Combat removes it, so the hex still scores. Dee's 61 Cygni 3 + Planta 1 = 4."""
    cleanup = [("passed", p, {}) for p in ("Ann", "Bob", "Cy", "Dee")] + [("phase_ended", None, {})] * 2
    hive = ("hex_placed", None, {"sector": "212", "q": -2, "r": 1, "rotation": 0})
    result = play(FOUR, *HOMES, hive, *cleanup,
                  ("hive_rolled", None, {"q": -2, "r": 1, "die": 1, "to": {"q": -2, "r": 0}}), *END)
    assert result.state.ancients.get((-2, 0)) == 1 and result.state.owners[(-2, 0)] == "Dee"
    assert lines(result.state)["Dee"] == {"hexes": 3, "Planta hexes": 1}
