"""Eclipse's reputation tiles in a final position: the bag's tiles of each value.

Hand-worked from the rulebooks' numbers: the base bag holds 12 tiles of 1 VP, 9 of 2, 7 of 3 and 4 of 4 (the
first-edition summary and FAQ, rules digest 2.1); Rise of the Ancients adds 2x1, 2x2, 3x3 and 2 or 3 of 4 VP for
7-9 players (p.12, p.20).
"""

from __future__ import annotations

from companion import i18n
from rules import Event, Severity, replay
from rules.eclipse import ECLIPSE_GAME
from rules.eclipse.reputation import bag, hand_verdicts, table_verdicts

FOUR = {"players": [{"name": "Ann", "species": "Terran Directorate"}, {"name": "Bob", "species": "Enlightened of Lyra"},
                    {"name": "Cy", "species": "Descendants of Draco"}, {"name": "Dee", "species": "Planta"}],
        "developments": True}
SEVEN = {"players": ["P0", "P1", "P2", "P3", "P4", "P5", "P6"]}


def play(settings, *rows):
    events = [Event(seq=k, kind=kind, payload=payload, player=player)
              for k, (kind, player, payload) in enumerate(rows, 1)]
    return replay(ECLIPSE_GAME, settings, events)


def found(result, kind):
    """The findings of rule ``kind`` raised by the last event."""
    seq = result.applied[-1]
    return [f for f in result.findings if f.seq == seq and f.rule_kind == kind]


def report(player, reputation, ambassadors=0, developments=()):
    return ("position_reported", player, {"reputation": list(reputation), "ambassadors_received": ambassadors,
                                          "developments": list(developments)})


def test_the_bag_by_player_count():
    assert bag(4) == {1: 12, 2: 9, 3: 7, 4: 4}  # 32 tiles
    assert sum(bag(6).values()) == 32
    # 7-9 players (Rise of the Ancients p.12): +2x1, +2x2, +3x3, and 3 of 4 VP (p.20; p.12 says 2)
    assert bag(7) == {1: 14, 2: 11, 3: 10, 4: 7}


def test_twelve_tiles_worth_40_are_kept_with_a_finding_on_the_bag():
    tiles = [4] * 4 + [3] * 8  # 16 + 24 = 40 VP
    result = play(FOUR, report("Ann", tiles))
    bag_found = found(result, "reputation_bag")
    assert [f.what for f in bag_found] == ["Ann reports more reputation tiles of 3 VP than the game has: the bag "
                                           "holds 7"]  # 8 > 7; the four 4s are all of the bag's 4s: no finding
    assert bag_found[0].severity is Severity.ERROR and bag_found[0].player == "Ann"
    ann = next(b for b in ECLIPSE_GAME.scores(result.state) if b.player == "Ann")
    assert ann.lines[0].vp == 40  # a finding, not a refusal: the report stands until the table corrects it


def test_the_finding_speaks_the_players_language_and_cites_the_rule():
    result = play(FOUR, report("Ann", [3] * 8))
    f = found(result, "reputation_bag")[0]
    # the count of Ann's hidden tiles is not said: the table sees the finding
    assert i18n.say(f.what, "pl") == "Ann zgłasza więcej żetonów reputacji za 3 PZ, niż jest w grze: w worku jest 7"
    assert i18n.say(f.what, "hu").startswith("Ann több 3 GYP értékű hírnévlapkát jelent be")
    assert i18n.say(f.what, "el").startswith("Ann δηλώνει περισσότερα Πλακίδια Φήμης των 3 ΠΝ")
    assert i18n.say(f.rule, "el").startswith("Eclipse, Πλακίδια Φήμης (το σακουλάκι: 12 του 1 ΠΝ")
    assert i18n.say(f.rule, "en").startswith("Eclipse, Reputation tiles (the bag: 12 of 1 VP, 9 of 2, 7 of 3, 4 of 4)")
    assert i18n.say(f.fix, "en") == "check the values of the reputation tiles"


def test_the_reports_together_cannot_hold_more_of_a_value_than_the_bag():
    first = play(FOUR, report("Ann", [4, 4, 4]))
    assert found(first, "reputation_bag") == []
    both = play(FOUR, report("Ann", [4, 4, 4]), report("Bob", [4, 4, 1]))  # 3 + 2 = 5 tiles of 4 VP, the bag has 4
    table = found(both, "reputation_bag")
    assert [f.what for f in table] == ["the players' reports together hold more reputation tiles of 4 VP than the "
                                       "game has: the bag holds 4"]  # no count of Ann's hidden tiles
    assert table[0].player is None
    corrected = play(FOUR, report("Ann", [4, 4, 4]), report("Bob", [4, 4, 1]), report("Bob", [4, 3, 1]))
    assert found(corrected, "reputation_bag") == []  # Bob's corrected report replaces his first: 4 tiles of 4 VP


def test_seven_players_play_with_rise_of_the_ancients_tiles():
    five_fours = [4] * 5
    assert found(play(FOUR, report("Ann", five_fours)), "reputation_bag")  # 5 > 4
    seven = play(SEVEN, report("P0", five_fours))  # 5 <= 7
    assert found(seven, "reputation_bag") == []


def test_the_checks_alone():
    in_bag = bag(2)
    assert hand_verdicts("A", [], in_bag) == []
    assert hand_verdicts("A", [1] * 12, in_bag) == []  # all twelve 1s of the bag
    assert [v.rule_kind for v in hand_verdicts("A", [1] * 13, in_bag)] == ["reputation_bag"]
    # a player's own excess is their finding, not the table's as well
    assert table_verdicts([[2] * 10, [2]], [2] * 10, in_bag) == []
    assert [v.legal for v in table_verdicts([[2] * 5, [2] * 5], [2] * 5, in_bag)] == [False]  # 10 > 9
