"""What players read never shows how the box was built (issue 17 'Internal words reach the players'): no event
kinds or stage ids (``round_end``), no event numbers (``undid event 50``), no sources of the project's research
("(seed)", "digest §4 V", "[S2]"); the rules are cited by the rulebook's own words and pages.

Every playthrough (``tests/playthroughs``) is replayed through its game's flow; at every step the texts of the
view players read, and the messages of Next, a report and the Undos, are held to that."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from companion.actions import Action, Posted
from companion.flow import GameFlow
from companion.flow_actions import handle_action
from companion.flows import FLOWS
from companion.modes.dice import undo
from companion.session import SessionStore
from tests.test_game_conformance import load, playthroughs_of

INTERNAL = [
    (re.compile(r"digest", re.I), "the English digest"),
    (re.compile(r"\bseeds?\b", re.I), "the seed rulebooks"),
    (re.compile(r"§"), "a digest section sign"),
    (re.compile(r"\[S\d+\]"), "a research source"),
    (re.compile(r"\b[a-z]+_[a-z_]+\b"), "an identifier (event kind, stage, key)"),
    (re.compile(r"\bevent \d+|#\d+"), "an event number"),
]

TEXT_KEYS = {"note", "round_label", "label", "why", "what", "where", "rule", "todo", "fix", "category", "detail",
             "ending", "pool_label", "role", "message", "text", "prompt"}
"""Keys of the view whose strings are sentences or labels players read (names, ids and choices are left out)."""


def texts(value: Any, key: str = "") -> Iterator[tuple[str, str]]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield from texts(v, k)
    elif isinstance(value, list):
        for v in value:
            yield from texts(v, key)
    elif isinstance(value, str) and key in TEXT_KEYS and value:
        yield key, value


def internal_words(text: str) -> list[str]:
    return [why for pattern, why in INTERNAL if pattern.search(text)]


def test_the_patterns_catch_what_the_issue_found():
    for text in ("round_end", "undid event 50", "Settle (seed)", "digest §4 V", "rulebook; digest §"):
        assert internal_words(text), text
    for text in ("Roll for the Galaxy, p.7 Ship", "Rulebook p. 7, Settle", "Ann: Phase selected recorded",
                 "Among the Stars, rulebook 4 'Build a location': a card goes on an empty place"):
        assert not internal_words(text), text


PLAYTHROUGHS = [pytest.param(name, path, id=path.stem) for name in FLOWS for path in playthroughs_of(name)]


@pytest.mark.parametrize("name, path", PLAYTHROUGHS)
def test_every_view_and_answer_of_a_playthrough_speaks_the_players_words(name, path, tmp_path):
    play = load(path)
    bad: dict[str, set[str]] = {}
    with SessionStore(tmp_path / "w.sqlite3") as store:
        session = store.start(name, play.settings)
        flow = GameFlow(session, FLOWS[name])
        for step in play.steps:
            event = step.event
            if event.kind == "undo":
                session.undo(origin="cli")
            else:
                session.append(event.kind, dict(event.payload), player=event.player, origin="phone")
            said = [*texts(flow.view())]
            said.append(("undo", undo(session, "touchscreen", flow.describe).message))
            session.redo(origin="touchscreen")
            for key, text in said:
                for why in internal_words(text):
                    bad.setdefault(f"{why}: {key}", set()).add(text)
        # Next and a withdrawn report, as the phones and the touchscreen are answered
        answer = handle_action(flow, Posted(Action.NEXT_PHASE, "touchscreen", Action.NEXT_PHASE.payload()))
        for text in (answer.message, answer.error or ""):
            for why in internal_words(text):
                bad.setdefault(f"{why}: next", set()).add(text)
    assert not bad, bad
