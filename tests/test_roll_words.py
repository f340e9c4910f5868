"""What a Roll for the Galaxy table reads during a phase, in each language: the note under the phase strip asks the
player (any player, any gender) to report what was built, produced or shipped (p.4-6: players report their own
phase results)."""

from __future__ import annotations

import re

import pytest

from companion import i18n
from rules.roll.words import phase_word
from tests.catalogs import catalog
from tests.test_camera_flow import flow_of, setup_roll


def test_the_phase_note_asks_every_player_alike_in_polish(store):
    """Polish speaks to a player without a masculine past tense ("zbudowałeś" would say the player is a man), as the
    catalog does after a player's name; Greek addresses the table, Hungarian has no gender."""
    flow = flow_of(store, "roll")
    setup_roll(flow)
    flow.report("Ann", "select", {"phase": "develop"})
    flow.report("Bob", "select", {"phase": "develop"})
    flow.next_phase()  # Reveal
    flow.next_phase()  # II Develop
    note = flow.view()["note"]
    assert str(note) == "Develop: report what you built, produced, shipped"
    said = {lang: i18n.localize(note, lang) for lang in ("pl", "el", "hu")}
    assert said["pl"] == "Rozwój: zgłoś, co zostało zbudowane, wyprodukowane, wysłane"
    assert "łeś" not in said["pl"] and "łaś" not in said["pl"]
    assert said["el"].endswith("δηλώστε τι χτίσατε, παραγάγατε, αποστείλατε")
    assert said["hu"].endswith("jelentsd be, mit építettél, termeltél, szállítottál")


ROLL_CITATION = re.compile(r"^p\.\d+ (Explore|Develop|Settle|Produce|Ship)\b")


@pytest.mark.parametrize("lang", ["el", "pl", "hu"])
def test_a_rule_cited_by_a_phase_names_the_phase_as_the_strip_does(lang):
    """A Roll rule cited by its phase ("p.7 Ship: a shipper that consumes a good gives VP chips") names the phase
    with the word the phase strip and the round's list use, so one line never calls one phase two things (Polish
    said "s. 7 Wysyłka" beside "w fazie V Transport")."""
    cited = [(m.id, ROLL_CITATION.match(m.id).group(1).lower(), m.string) for m in catalog(lang)
             if isinstance(m.id, str) and ROLL_CITATION.match(m.id)]
    assert {phase for _, phase, _ in cited} >= {"explore", "produce", "ship"}
    for msgid, phase, said in cited:
        word = i18n.localize(phase_word(phase), lang)
        assert word in said, (msgid, said, word)


def test_the_reveal_note_says_which_phase_comes_and_does_not_ask_for_reports_yet(store):
    """At Reveal nothing has been built, produced or shipped yet (p.4 Reveal, then the phases in order, p.5-7): the
    note names the first phase selected and asks for reports once it is on. Before, it asked for them at Reveal, and
    the same report then got the warning "reported during Reveal, not Settle"."""
    flow = flow_of(store, "roll")
    setup_roll(flow)
    flow.report("Ann", "select", {"phase": "settle"})
    flow.report("Bob", "select", {"phase": "develop"})
    flow.next_phase()  # Reveal: Develop (II) runs before Settle (III)
    note = flow.view()["note"]
    assert str(note) == "Reveal: next comes Develop; report once it is on"
    said = {lang: i18n.localize(note, lang) for lang in ("pl", "el", "hu")}
    assert said["el"] == "Αποκάλυψη: ακολουθεί η φάση Ανάπτυξη· δηλώστε όταν έρθει"
    assert said["pl"] == "Odkrycie: następna jest faza Rozwój; zgłaszaj w jej trakcie"
    assert said["hu"] == "Felfedés: a következő fázis: Fejlesztés; a fázisában jelentsd be"
    flow.next_phase()  # II Develop: now the note asks
    assert str(flow.view()["note"]) == "Develop: report what you built, produced, shipped"


def test_a_report_in_the_wrong_phase_reads_as_a_sentence_in_polish_hungarian_and_greek(store):
    """A tile built reported in another phase (p.6: developments are built in Develop, worlds in Settle) is warned in
    every language. Polish said "zbudowano Spice World zgłoszone w czasie: …", a clause then a neuter participle
    agreeing with nothing (and "wyprodukowany towar zgłoszone", a masculine noun with a neuter participle); it now
    says what was reported, then when, with the impersonal "zgłoszono" that needs no agreement. Hungarian read two
    participles in a row ("Spice World megépítve bejelentve ekkor: …"): it names the building, then says when it was
    reported ("… megépítése: ekkor jelentették be: …"); Greek chained two verbs ("Spice World: χτίστηκε: δηλώθηκε
    …"): the report's time follows as its own clause ("…· η δήλωση έγινε κατά τη διάρκεια: …")."""
    flow = flow_of(store, "roll")
    setup_roll(flow)
    flow.report("Ann", "select", {"phase": "settle"})
    flow.report("Bob", "select", {"phase": "develop"})
    flow.next_phase()  # Reveal
    flow.next_phase()  # II Develop
    flow.report("Ann", "tile", {"tile": "Spice World"})  # a world, in Develop
    flow.report("Ann", "good", {"world": "Spice World", "colour": "white"})  # a good, in Develop
    found = [f["what"] for f in flow.view()["findings"] if "reported during" in str(f["what"])]
    assert [str(f) for f in found] == ["a good produced reported during Develop, not Produce",
                                       "Spice World built reported during Develop, not Settle"]
    polish = [i18n.localize(f, "pl") for f in found]
    assert polish == ["wyprodukowany towar: zgłoszono w czasie: Rozwój, a nie Produkcja",
                      "zbudowano Spice World: zgłoszono w czasie: Rozwój, a nie Kolonizacja"]
    assert [i18n.localize(f, "hu") for f in found] == [
        "egy termelt áru: ekkor jelentették be: Fejlesztés, nem ekkor: Termelés",
        "Spice World megépítése: ekkor jelentették be: Fejlesztés, nem ekkor: Letelepedés"]
    assert [i18n.localize(f, "el") for f in found] == [
        "ένα προϊόν παράχθηκε· η δήλωση έγινε κατά τη διάρκεια: Ανάπτυξη, όχι: Παραγωγή",
        "Spice World: χτίστηκε· η δήλωση έγινε κατά τη διάρκεια: Ανάπτυξη, όχι: Αποίκιση"]
