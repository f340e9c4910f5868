"""A Roll for the Galaxy payload the rules refuse reaches the phone that posted it in its language (el, pl, hu),
naming the field as the phone's form labels it ("Φατρία", "Pole „Kredyty”", "Kezdővilág") and what was wrong; the
English words and the payload's keys never reach it, and nothing is recorded.

The phone's own forms check their fields before the rules see them, so a payload the rules refuse comes from
elsewhere: a page older than the box, a tool, a payload posted by hand. Here the form's values go to the rules as
the phone posted them (the Roll spec's ``report_event`` passes them through), so each payload is refused by the
rules themselves: the engine every game shares (a field not given, text where a whole number goes) and Roll's own
(a phase Roll does not have, a tile no tile is named, p.3 Rounds and p.1 Components).

Expected words are hand-written from the catalogs' entries: el "{what}: δεν δόθηκε", pl "Pole „{what}”: nie podano
wartości", hu "{what}: nincs megadva"; "a whole number" is "έναν ακέραιο αριθμό", "liczbę całkowitą", "egy egész
számot" in the three.
"""

from __future__ import annotations

import numpy as np
import pytest

from companion.app import MainLoop
from companion.flow import GameFlow
from companion.flows import FLOWS
from companion.hub import StateHub
from companion.player_names import parse_players
from device import FakeCamera
from tests.phones import joined_phone, post_through_loop
from vision.motion import StillnessDetector

KINDS = {"setup": "player_setup", "select": "phase_selected", "credits": "credits_changed", "tile": "tile_built"}
SETUP = {"faction": 3, "home_world": "Alpha Centauri", "development": "Investment Credits", "world": "Gem World"}


def _phone(store, monkeypatch, lang):
    """A two-player Roll table's box (Ann and Bob, nothing reported) and a phone joined to it in ``lang``; the spec
    hands each report's values to the rules as they were posted."""
    spec = FLOWS["roll"]
    monkeypatch.setattr(spec, "report_event", lambda form, values, player, view: (KINDS[form], dict(values)))
    monkeypatch.setattr("companion.flow_reports.parse_form", lambda form, values: dict(values))
    flow = GameFlow(store.start("roll", spec.settings(parse_players("Ann,Bob"), {})), spec)
    hub = StateHub()
    loop = MainLoop(source=FakeCamera([np.full((60, 80, 3), 90, np.uint8)] * 40), reader=None, session=flow.session,
                    hub=hub, stillness=StillnessDetector(), flow=flow, stop_at_end=True, sleep=lambda s: None)
    loop.publish()
    phone = joined_phone(hub, reply_s=10.0)
    phone.set_cookie("lang", lang)
    return flow, loop, phone


def _refused(store, monkeypatch, lang, form, values):
    flow, loop, phone = _phone(store, monkeypatch, lang)
    answer = post_through_loop(phone, loop, "/api/report", {"player": "Ann", "form": form, "values": values})
    assert answer.status_code == 400, answer.get_json()
    assert flow.session.last_seq == 0  # nothing recorded
    return answer.get_json()["error"]


@pytest.mark.parametrize(("lang", "said"), [("el", "Φατρία: δεν δόθηκε"),
                                            ("pl", "Pole „Frakcja”: nie podano wartości"),
                                            ("hu", "Frakció: nincs megadva")])
def test_a_field_not_given_is_named_by_the_forms_label(store, monkeypatch, lang, said):
    values = {k: v for k, v in SETUP.items() if k != "faction"}
    error = _refused(store, monkeypatch, lang, "setup", values)
    assert error.endswith(said), error
    assert "faction" not in error and "payload" not in error


@pytest.mark.parametrize(("lang", "said"), [
    ("el", "Μονάδες: πρέπει να περιέχει έναν ακέραιο αριθμό, δόθηκε 'five'"),
    ("pl", "Pole „Kredyty” musi zawierać liczbę całkowitą, podano 'five'"),
    ("hu", "Credit: egy egész számot kell megadni, kapott érték: 'five'"),
])
def test_text_where_a_whole_number_goes_says_so(store, monkeypatch, lang, said):
    # Roll for the Galaxy, p.4 Phases: credits run $0-$10, a whole number
    error = _refused(store, monkeypatch, lang, "credits", {"credits": "five"})
    assert error.endswith(said), error


@pytest.mark.parametrize(("lang", "field", "phases"), [
    ("el", "Φάση", "Αποστολή"), ("pl", "Pole „Faza”", "Transport"), ("hu", "Fázis", "Szállítás")])
def test_a_phase_roll_does_not_have_is_refused_naming_the_five(store, monkeypatch, lang, field, phases):
    # Roll for the Galaxy, p.3 Rounds: five phases, Explore to Ship
    error = _refused(store, monkeypatch, lang, "select", {"phase": "dance"})
    assert field in error and phases in error and "'dance'" in error, error
    for english in ("must be", "got", "Ship", "settle"):
        assert english not in error, error


@pytest.mark.parametrize(("lang", "said"), [
    ("el", "Αρχικός κόσμος της ζώνης: κανένα πλακίδιο δεν ονομάζεται 'Gem Wrld'· μήπως εννοείτε Gem World"),
    ("pl", "Pole „Świat startowy”: żaden kafelek nie nazywa się 'Gem Wrld'; może chodziło o Gem World"),
    ("hu", "Kezdővilág: nincs 'Gem Wrld' nevű lapka; talán erre gondoltál: Gem World"),
])
def test_the_setups_world_is_named_as_the_setup_form_labels_it(store, monkeypatch, lang, said):
    # the setup form's world is the Starting world (p.2 Setup), not the World of the goods forms; a misspelt name
    # is answered with the closest tile's
    error = _refused(store, monkeypatch, lang, "setup", {**SETUP, "world": "Gem Wrld"})
    assert said in error and "did you mean" not in error, error  # the closest first, then others like it
