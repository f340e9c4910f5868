"""Eclipse's score lines say where each row comes from in the players' language: the phones' ``/api/state`` and a
finished game's export gave every line's ``"detail"`` in English to Greek, Polish and Hungarian players.

Each detail is a message of the catalogs, its Developments and Discoveries named as everywhere else (the names file:
the Greek Rise of the Ancients' own names), its English unchanged for the tools that read the JSON."""

from __future__ import annotations

from companion.flow import GameFlow
from companion.hub import StateHub
from companion.i18n import localize
from companion.library import export_documents
from rules.eclipse.endgame import PlayerPosition, score_player
from tests.phones import joined_phone, post_through_loop
from tests.test_eclipse_flow import at_final_scoring
from tests.test_evening import do, evening

# rows 12, 14 and 10 of the scoring table as a player with the Ancient Monument reads them (Rise of the Ancients p.5
# ΑΝΑΠΤΥΞΕΙΣ names "Αρχαίο Μνημείο" and "Κόσμος Κελύφους"; the catalogs name the Ancient Cruisers)
SAID = {
    "en": ["Ancient Monument (Rise of the Ancients p.5)", "Shellworld in a controlled hex (Rise of the Ancients p.5)",
           "Ancient Cruisers destroyed (Rise of the Ancients p.6)"],
    "el": ["Αρχαίο Μνημείο (Αυγή των Αρχαίων σ.5)", "Κόσμος Κελύφους σε εξάγωνο που ελέγχετε (Αυγή των Αρχαίων σ.5)",
           "καταστροφή: Αρχαία Καταδρομικά (Αυγή των Αρχαίων σ.6)"],
    "pl": ["Ancient Monument (Rise of the Ancients s. 5)",
           "Shellworld w kontrolowanym heksie (Rise of the Ancients s. 5)",
           "zniszczono: Pradawne krążowniki (Rise of the Ancients s. 6)"],
    "hu": ["Ancient Monument (Rise of the Ancients 5. o.)",
           "Shellworld egy ellenőrzött hexen (Rise of the Ancients 5. o.)",
           "elpusztítva: Ősi cirkálók (Rise of the Ancients 6. o.)"],
}


def test_every_score_line_detail_is_said_in_each_language_and_stays_english_for_tools():
    """Zoe (Terran Directorate) with the Ancient Monument, every row of Rise of the Ancients: rows 1-7 and 10-17."""
    lines = score_player(PlayerPosition(name="Zoe", species="Terran Directorate",
                                        developments=("Ancient Monument",))).lines
    assert len(lines) == 15 and sum(line.vp for line in lines) == 3  # the Monument's 3 VP (row 12)
    details = {str(line.category): line.detail for line in lines}
    for lang, said in SAID.items():
        assert [localize(details[row], lang) for row in ("Ancient Monument", "Shellworld", "Ancient Cruisers")] == said
    for lang in ("el", "pl", "hu"):
        english = [str(line.detail) for line in lines]
        assert [k for k, line in enumerate(lines) if localize(line.detail, lang) == english[k]] == [], lang


def _finished_game(store) -> GameFlow:
    """Eclipse at final scoring (tests.test_eclipse_flow), both final positions entered and the game scored (the
    table's Score the game): the game is over."""
    flow = at_final_scoring(store)
    flow.report("Ann", "position", {"reputation_4": 1})
    flow.report("Bob", "position", {})
    flow.next_phase()
    assert flow.over()
    return flow


def test_a_greek_phone_reads_the_score_lines_in_greek_and_their_keys_as_before(store, tmp_path):
    flow = _finished_game(store)
    hub = StateHub()
    loop = evening(store, tmp_path, hub=hub)
    do(loop, "resume_game", session=flow.session.id)
    loop.publish(picture=False)
    phone = joined_phone(hub, exports=lambda s: export_documents(store, s))
    assert post_through_loop(phone, loop, "/api/seat", {"player": "Ann"}).status_code == 200
    by_lang, rows = {}, {}
    for lang in ("en", "el", "pl", "hu"):
        answer = phone.get("/api/state", headers={"Accept-Language": lang})
        assert answer.status_code == 200
        [ann] = [p for p in answer.get_json()["game"]["result"]["players"] if p["name"] == "Ann"]
        assert {tuple(sorted(c)) for c in ann["categories"]} == {("category", "detail", "vp")}
        by_lang[lang] = [c["detail"] for c in ann["categories"]]
        rows[lang] = [c["category"] for c in ann["categories"]]
    assert "reputation tiles, face value (Rise of the Ancients p.5 Diplomatic Fleet holds one)" in by_lang["en"]
    assert "Πλακίδια Φήμης, η αξία τους (Αυγή των Αρχαίων σ.5· Διπλωματικός Στόλος: ένα ακόμη)" in by_lang["el"]
    for lang in ("el", "pl", "hu"):
        assert not set(by_lang[lang]) & set(by_lang["en"]), lang
    greek = phone.get(f"/export/{flow.session.id}.json", headers={"Accept-Language": "el"})
    assert greek.status_code == 200
    [ann] = [p for p in greek.get_json()["players"] if p["name"] == "Ann"]
    assert [c["detail"] for c in ann["categories"]] == by_lang["en"]  # what tools read, as before
    assert [c["said"]["detail"] for c in ann["categories"]] == by_lang["el"]  # added: the phone's language
    assert [c["said"]["category"] for c in ann["categories"]] == rows["el"] and rows["el"][0] == "φήμη"
