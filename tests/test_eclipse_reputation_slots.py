"""The reputation track's spaces in the Eclipse score file (``reputation_slots``, optional): each reputation tile kept
and each Ambassador tile received takes a space of the track on the player's species board (Eclipse, reputation
tiles); Diplomatic Fleet holds one more (Rise of the Ancients p.5). Counts worked by hand from the cases' players."""

from __future__ import annotations

import pytest

from companion import i18n
from companion.errors import BadEntry
from rules.eclipse.endgame import final_scores
from rules.scoring import ScoreInputError
from tests.test_eclipse_cases import case
from tests.test_eclipse_flow import at_final_scoring


def refused(data) -> ScoreInputError:
    with pytest.raises(ScoreInputError) as caught:
        final_scores(data)
    return caught.value


def test_tiles_and_ambassadors_beyond_the_track_are_refused_naming_both_counts():
    data = case("score-base-game-traitor-and-ambassadors")   # Dee: reputation 3, 3, 3 and 1 Ambassador: 4 tiles
    data["players"][3]["reputation_slots"] = 4
    assert len(final_scores(data)) == 4                        # 4 tiles on 4 spaces: scored
    data["players"][3]["reputation_slots"] = 3
    err = refused(data)
    assert err.field == "players[3].reputation"
    assert str(err) == ("players[3].reputation: holds 3 reputation tiles, and 1 Ambassador tiles were received, but "
                        "the reputation track has 3 spaces (reputation_slots): each tile kept takes a space; a full "
                        "track keeps a new tile only in place of one (Eclipse, reputation tiles)")
    for lang, words in (("el", "Μετρητής Φήμης έχει 3 θέσεις"), ("pl", "pól na torze reputacji: 3"),
                        ("hu", "a hírnévsávon csak 3 hely van")):
        assert words in i18n.say(err, lang), lang


def test_diplomatic_fleet_holds_one_more():
    data = case("score-nine-players-two-alliances")           # Ann: reputation 4, 3, 3, no Ambassador: 3 tiles
    ann = data["players"][0]
    ann["reputation_slots"] = 2
    assert "has 2 spaces (reputation_slots): each tile" in str(refused(data))
    ann["developments"] = ["Diplomatic Fleet"]                 # 2 spaces + the Fleet's 1 = 3: scored
    assert len(final_scores(data)) == 9
    ann["reputation"] = [4, 3, 3, 2]                           # 4 tiles on 3
    err = refused(data)
    assert err.field == "players[0].reputation" and "and Diplomatic Fleet one more: 3" in str(err)
    assert "Διπλωματικός Στόλος" in i18n.say(err, "el")


def test_without_the_field_nothing_is_checked_and_a_bad_count_is_named():
    data = case("score-base-game-traitor-and-ambassadors")
    assert len(final_scores(data)) == 4
    for bad, words in ((0, "between 1 and 9"), (10, "between 1 and 9"), ("4", "whole number"), (True, "whole number")):
        data["players"][1]["reputation_slots"] = bad
        err = refused(data)
        assert err.field == "players[1].reputation_slots" and words in str(err), (bad, str(err))


def test_a_phones_final_position_with_more_tiles_than_spaces_is_refused_and_nothing_recorded(store):
    # Ann (2 players: no Ambassadors received) reports two tiles of 3 VP on a track she says has one space
    flow = at_final_scoring(store)
    before = len(flow.session.events())
    with pytest.raises(BadEntry) as caught:
        flow.report("Ann", "position", {"reputation_3": 2, "reputation_slots": 1, "money": 2})
    assert "holds 2 reputation tiles, and 0 Ambassador tiles were received, but the reputation track has 1 spaces" \
        in str(caught.value)
    assert len(flow.session.events()) == before
    flow.report("Ann", "position", {"reputation_3": 2, "reputation_slots": 2, "money": 2})
    assert flow.session.events()[-1].payload["reputation_slots"] == 2
    form = next(f for f in flow.view()["forms"] if f["id"] == "position")
    assert any(field["name"] == "reputation_slots" and field["optional"] for field in form["fields"])
