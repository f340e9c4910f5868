"""Eclipse: an influence disc taken back. A player takes back their own discs (Eclipse 1.2 Influence action); another
player's disc leaves a hex only in the Combat phase, once its population is destroyed (1.5 Combat: ships attack
enemy population). Found at a table: Réka's phone sent "Influence disc taken back" on Ζωή's Capella in the Action
phase, the disc went, and Ζωή's hex would have scored nothing at the end.

Hand-worked: Ann (Terran Directorate) starts on 221 Procyon at [0, -2], Bob (Orion Hegemony) on 232 Rigel at [0, 2];
each starting sector is worth 3 VP to the player who controls it at the end (Eclipse 2.1 row 3, hexes.json vp 3).
"""

from __future__ import annotations

import pytest

from companion import i18n
from rules import Event, Severity, replay
from rules.eclipse import ECLIPSE_GAME
from tests.test_eclipse_flow import start

TWO = {"players": [{"name": "Ann", "species": "Terran Directorate"}, {"name": "Bob", "species": "Orion Hegemony"}]}
HOMES = [("hex_placed", "Ann", {"sector": "221", "q": 0, "r": -2, "rotation": 0}),
         ("hex_placed", "Bob", {"sector": "232", "q": 0, "r": 2, "rotation": 0})]
ANN_HOME = {"q": 0, "r": -2}


def play(*rows):
    """The two starting sectors (events 1-2, Ann's turn in round 1's Action phase), then ``rows``."""
    events = [Event(seq=k, kind=kind, payload=payload, player=player)
              for k, (kind, player, payload) in enumerate([*HOMES, *rows], 1)]
    return replay(ECLIPSE_GAME, TWO, events)


def said_on(result, seq: int) -> list[tuple[str, Severity]]:
    return [(f.rule_kind, f.severity) for f in result.findings if f.seq == seq]


def test_another_players_disc_stays_in_the_action_phase():
    result = play(("influence_removed", "Bob", ANN_HOME))
    assert said_on(result, 3) == [("not_your_disc", Severity.ERROR)]
    assert result.state.owners[(0, -2)] == "Ann"  # the disc stays: Ann keeps her hex


def test_a_players_own_disc_goes_back():
    result = play(("influence_removed", "Ann", ANN_HOME))
    assert said_on(result, 3) == [] and (0, -2) not in result.state.owners


def test_another_players_disc_goes_in_combat():
    """Both pass: the Combat phase. Bob destroyed Ann's population, so her disc leaves the hex."""
    result = play(("passed", "Ann", {}), ("passed", "Bob", {}), ("influence_removed", "Bob", ANN_HOME))
    assert result.state.rounds.phase == "combat"
    assert said_on(result, 5) == [] and (0, -2) not in result.state.owners


def test_the_tables_report_is_applied_in_any_phase():
    result = play(("influence_removed", None, ANN_HOME))
    assert said_on(result, 3) == [] and (0, -2) not in result.state.owners


NOT_YOURS = {
    "en": "Bob reports Ann's influence disc on (0, -2) taken back: a player takes back only their own discs; another "
          "player's disc leaves a hex only in the Combat phase, when its population is destroyed",
    "el": "Bob δηλώνει ότι αφαιρέθηκε ο δίσκος επιρροής που έχει Ann στο (0, -2): κάθε παίκτης αφαιρεί μόνο τους "
          "δικούς του δίσκους· ο δίσκος άλλου παίκτη φεύγει από ένα εξάγωνο μόνο στη φάση της Μάχης, όταν "
          "καταστραφεί ο πληθυσμός του",
    "pl": "Bob zgłasza zdjęcie dysku wpływu (Ann) z (0, -2): gracz zdejmuje tylko własne dyski; dysk innego "
          "gracza opuszcza heks tylko w fazie Walki, gdy jego populacja zostanie zniszczona",
    "hu": "Bob azt jelenti, hogy Ann befolyáskorongját levették innen: (0, -2); mindenki csak a saját korongjait "
          "veheti vissza; más játékos korongja csak a Harc fázisban kerül le egy hexről, amikor a népességét "
          "elpusztítják",
}


@pytest.mark.parametrize("lang", ["en", "el", "pl", "hu"])
def test_the_phone_report_keeps_the_hex_and_says_why(store, lang):
    """Round 1, Ann's turn: Bob's phone reports Ann's disc on 221 Procyon taken back. The finding says why in each
    language, the disc stays, and after nine rounds of passing Ann's hexes still score 3 VP, as Bob's do."""
    flow = start(store, species=["Terran Directorate", "Orion Hegemony"])
    flow.report("Ann", "home", {"sector": "221", "hex": [0, -2], "rotation": 0})
    flow.report("Bob", "home", {"sector": "232", "hex": [0, 2], "rotation": 0})
    flow.report("Bob", "disc_back", {"hex": [0, -2]})
    finding = flow.session.replay().findings[-1]
    assert finding.rule_kind == "not_your_disc" and finding.severity is Severity.ERROR
    assert i18n.say(finding.what, lang) == NOT_YOURS[lang]
    for _ in range(9):
        turn = flow.view()["turn"]
        flow.report(turn, "pass", {})
        flow.report("Bob" if turn == "Ann" else "Ann", "pass", {})
        for _ in range(3):
            flow.next_phase()
    flow.report("Ann", "position", {"money": 2})
    flow.report("Bob", "position", {"money": 1})
    flow.next_phase()
    rows = {p["name"]: {c["category"]: c["vp"] for c in p["categories"]} for p in flow.result()["players"]}
    assert rows["Ann"]["hexes"] == 3 and rows["Bob"]["hexes"] == 3
