"""Tableau watcher (Race for the Galaxy cards, Roll for the Galaxy tiles): camera reads -> one-tap questions."""

from __future__ import annotations

import pytest

from companion.camera.watch import AgreeingReads, SeenCard, TableauWatcher
from rules.race.cards import cards
from rules.roll.data import catalogue
from rules.scoring import ScoreInputError


def race_name(card_id: str) -> str:
    try:
        return cards().lookup(card_id, "card").name
    except ScoreInputError as exc:
        raise LookupError(str(exc)) from None


def test_agreeing_reads() -> None:
    a = AgreeingReads(3)
    assert [a.feed(x) for x in "aab"] == [False, False, False]
    assert [a.feed(x) for x in "bbb"] == [False, True, True]
    with pytest.raises(ValueError, match="confirm_reads"):
        AgreeingReads(0)


def test_new_race_card_is_asked_about_once() -> None:
    w = TableauWatcher("Ann", race_name)
    tableau = ["Old Earth"]
    seen = [SeenCard("Old Earth", confidence=0.95), SeenCard("gambling world", confidence=0.9)]  # case folded
    assert w.observe(seen, tableau) is None  # one read
    change = w.observe(seen, tableau)
    assert change.added == ("Gambling World",)
    assert change.missing == ()
    assert w.observe(seen, tableau) is None  # already asked
    # players confirm: the rules' tableau now has it, nothing more to ask
    assert w.observe(seen, ["Old Earth", "Gambling World"]) is None
    assert w.observe(seen, ["Old Earth", "Gambling World"]) is None


def test_card_recorded_but_not_seen_is_missing_not_dropped() -> None:
    w = TableauWatcher("Bo", race_name, confirm_reads=1)
    change = w.observe([SeenCard("Old Earth", confidence=0.9)], ["Old Earth", "Contact Specialist"])
    assert change.missing == ("Contact Specialist",)
    assert change.to_json() == {"player": "Bo", "added": [], "missing": ["Contact Specialist"], "unsure": []}


def test_two_copies_are_counted() -> None:
    # Race allows duplicate worlds but the camera must count them: two seen, one recorded -> one added.
    w = TableauWatcher("Cy", race_name, confirm_reads=1)
    seen = [SeenCard("Old Earth", confidence=0.9), SeenCard("Space Marines", confidence=0.9),
            SeenCard("Space Marines", confidence=0.9)]
    assert w.observe(seen, ["Old Earth", "Space Marines"]).added == ("Space Marines",)


def test_unsure_and_unknown_cards_are_not_added() -> None:
    w = TableauWatcher("Di", race_name, confirm_reads=1, min_confidence=0.6)
    seen = [SeenCard("Old Earth", confidence=0.9), SeenCard("Old Earth", confidence=0.2), SeenCard(None),
            SeenCard("Mystery Planet", confidence=0.99)]
    assert w.observe(seen, ["Old Earth"]) is None
    assert len(w.unsure) == 3
    assert "'Mystery Planet' is not a card of this game" in w.unsure


def test_roll_tiles_resolve_through_the_catalogue() -> None:
    cat = catalogue()
    name = next(iter(cat.developments))
    w = TableauWatcher("Ed", cat.lookup, confirm_reads=1)
    change = w.observe([SeenCard(name.upper(), confidence=0.9)], [])
    assert change.added == (name,)


def test_bad_settings() -> None:
    with pytest.raises(ValueError, match="min_confidence"):
        TableauWatcher("x", race_name, min_confidence=-0.1)
