"""Among the Stars: a Qualeen player's secret objective, entered on their own phone, hidden until the game is scored.

Rulebook 'Races' (the rules digest §11 and the Hungarian race tile): "Qualeen. At setup, draw 2 extra objectives and
keep one secretly. It may be scored at game end even when tied." The Hungarian FAQ: a secret Accelerated Construction
is revealed as soon as it is met. The box had no form for it: only a `companion score among` file could carry it.

Every total is worked by hand in the comments (rulebook 6 'Game end': objectives, end-game abilities, empty reactors,
1 VP per 3 credits).
"""

from __future__ import annotations

import json

import pytest

from companion import i18n
from companion.errors import BadEntry
from companion.library import Library
from rules.among_the_stars import AMONG_GAME
from rules.among_the_stars.game import SECRET_OBJECTIVE_CHOSEN
from rules.core import BadEvent, Severity
from tests.test_among_game import Log, run
from tests.test_flow import start

HIDDEN = "a Qualeen's secret objective stays hidden: it counts once the game is scored"
THREE = "Ágnes,Bálint,Csilla"
FACE_UP = ["First Line of Defense", "Intergalactic Trade", "Peace Among the Stars"]  # 3 players: 3 objectives


def qualeen_table(store, secret: str | None = "On Budget", **options):
    """Ágnes (Qualeen), Bálint and Csilla (no race); the three colour objectives above face up; Ágnes keeps
    ``secret`` on her phone."""
    flow = start(store, "among", THREE, races=["Qualeen", "", ""], objectives=FACE_UP, **options)
    if secret:
        flow.report("Ágnes", "secret", {"objective": secret})
    return flow


def every_round_discarded(flow, rounds: int = 24) -> None:
    """Every player discards for credits every round of the 4 years (rulebook 4 'Discard a card for credits')."""
    for _ in range(rounds):
        for name in flow.names:
            flow.report(name, "discard", {})
        flow.next_phase()


def totals(players) -> dict[str, int]:
    return {p["name"]: p["total"] for p in players}


def test_the_secret_objective_scores_even_when_tied_and_only_once_the_game_is_scored(store):
    """Each of the three discards every round: 4 x 10 + 24 x 3 = 112 credits each, 112 // 3 = 37 VP; the Main
    Reactor keeps its 2 cubes (0 VP); no location anywhere, so every face-up colour objective is tied at 0 and goes to
    nobody. Ágnes' secret On Budget (most credits, 5 VP: the Hungarian 'Game end' example) is tied three ways at 112,
    and still scores for her (Qualeen: even when tied): Ágnes 37 + 5 = 42, Bálint 37, Csilla 37."""
    flow = qualeen_table(store)
    library = Library(store)
    every_round_discarded(flow, 23)
    record = library.record(flow.session.id)  # the last round not played yet: the history shows the table alone,
    # 40 + 23 x 3 = 109 credits each, 109 // 3 = 36 VP, and no secret +5 for Ágnes yet
    assert totals(record["result"]["players"]) == {"Ágnes": 36, "Bálint": 36, "Csilla": 36}
    assert str(record["hidden"]) == HIDDEN
    shown = {k: v for k, v in flow.view().items() if k != "forms"}  # the forms list every objective one may keep
    assert "On Budget" not in json.dumps(shown, default=str)  # the phones' and touchscreen's view
    every_round_discarded(flow, 1)
    assert flow.over()
    result = flow.view()["result"]
    assert totals(result["players"]) == {"Ágnes": 42, "Bálint": 37, "Csilla": 37}
    assert result["winners"] == ["Ágnes"]
    [objectives] = [c for c in result["players"][0]["categories"] if c["category"] == "objectives"]
    assert objectives["vp"] == 5 and "On Budget (secret) +5" in str(objectives["detail"])
    assert library.record(flow.session.id)["hidden"] is None


def test_a_secret_not_tied_for_best_scores_nothing_and_the_others_cannot_score_it():
    """Bálint adds 3 credits by a correction and everyone discards every round: Bálint 115, Ágnes and Csilla 112. Ágnes'
    secret On Budget is not hers (115 > 112): 0. Bálint leads On Budget but it is not face up: 0 for him too.
    Totals: Ágnes 37, Bálint 115 // 3 = 38, Csilla 37."""
    log = Log()
    log.add(SECRET_OBJECTIVE_CHOSEN, "Ágnes", objective="On Budget")
    log.add("credits_changed", "Bálint", delta=3, reason="test")
    for _ in range(24):
        log.end_round("Ágnes", "Bálint", "Csilla")
    r = run(log, players=[{"name": "Ágnes", "race": "Qualeen"}, "Bálint", "Csilla"], objectives=FACE_UP)
    assert r.state.over
    assert {b.player: b.total for b in r.state.scores} == {"Ágnes": 37, "Bálint": 38, "Csilla": 37}


def test_marvels_in_space_kept_secretly_and_tied_gives_no_lead():
    """Marvels in Space scores 2 x the lead over the next player (digest §12); tied for best, Ágnes' lead over the
    best other player is 0, so "even when tied" scores 2 x 0 = 0 (the score file's rule, the same here)."""
    log = Log()
    log.add(SECRET_OBJECTIVE_CHOSEN, "Ágnes", objective="Marvels in Space")
    for _ in range(24):
        log.end_round("Ágnes", "Bálint")
    r = run(log, players=[{"name": "Ágnes", "race": "Qualeen"}, "Bálint"])
    [agnes] = [b for b in r.state.scores if b.player == "Ágnes"]
    assert dict((line.category, line.vp) for line in agnes.lines)["objectives"] == 0


def test_a_secret_accelerated_construction_is_revealed_when_met_even_when_tied():
    """Hungarian FAQ (Qualeen): "this one objective is revealed when it is met". Both reach 50 VP in round 1 (a
    correction each): a face-up Accelerated Construction tied would go to nobody, but Ágnes keeps it secretly and
    scores its 4 VP at the round's end (50 + 4 = 54), said to the table; Bálint stays at 50."""
    log = Log()
    log.add(SECRET_OBJECTIVE_CHOSEN, "Ágnes", objective="Accelerated Construction")
    log.add("vp_changed", "Ágnes", delta=50, reason="test")
    log.add("vp_changed", "Bálint", delta=50, reason="test")
    log.end_round("Ágnes", "Bálint")
    r = run(log, players=[{"name": "Ágnes", "race": "Qualeen"}, "Bálint"])
    assert (r.state.player("Ágnes").vp, r.state.player("Bálint").vp) == (54, 50)
    [said] = [f for f in r.findings if "secret" in str(f.what)]
    assert said.severity is Severity.INFO and "+4 VP" in str(said.what)
    assert AMONG_GAME.public(r.state) == r.state  # revealed: nothing left to hide
    log.end_round("Ágnes", "Bálint")  # never twice
    assert run(log, players=[{"name": "Ágnes", "race": "Qualeen"}, "Bálint"]).state.player("Ágnes").vp == 54


def test_the_form_is_private_to_the_qualeen_and_offers_only_objectives_not_face_up(store):
    flow = qualeen_table(store, secret=None)
    assert flow.private_form("secret")
    view = flow.view()
    assert "secret" in view["open_forms"]["Ágnes"] and "secret" not in view["open_forms"]["Bálint"]
    [form] = [f for f in view["forms"] if f["id"] == "secret"]
    assert form["private"] and set(form["fields"][0]["choices"]) == {
        "Well Organised", "Grand Attractions", "Marvels in Space", "On Budget", "Accelerated Construction"}
    with pytest.raises(BadEntry) as refused:
        flow.report("Ágnes", "secret", {"objective": "First Line of Defense"})
    assert "face up on the table" in str(refused.value)
    with pytest.raises(BadEntry) as refused:
        flow.report("Bálint", "secret", {"objective": "On Budget"})
    said = {lang: i18n.localize(i18n.message_of(refused.value), lang) for lang in ("en", "hu")}
    assert said == {"en": "only a Qualeen player keeps a secret objective",
                    "hu": "csak a Qualeen játékosnak van titkos célja"}
    flow.report("Ágnes", "secret", {"objective": "Grand Attractions"})
    assert flow.undo_report("Ágnes", form="secret") is not None  # a slip withdrawn, then the right one entered
    flow.report("Ágnes", "secret", {"objective": "On Budget"})
    state = flow.session.replay().state
    assert state.player("Ágnes").secret_objective == "on_budget"
    assert AMONG_GAME.public(state).player("Ágnes").secret_objective is None
    assert flow.findings() == []  # nothing said to the table names it


def test_the_rules_refuse_a_secret_objective_from_a_player_of_another_race():
    log = Log()
    log.add(SECRET_OBJECTIVE_CHOSEN, "Bálint", objective="On Budget")
    with pytest.raises(BadEvent, match="only a Qualeen player"):
        run(log, players=[{"name": "Ágnes", "race": "Qualeen"}, "Bálint"])


def test_only_the_phone_holding_the_qualeens_seat_sends_the_secret(store):
    """A private report (as Eclipse's final position): no other phone may enter it, not even for a seat no phone
    holds yet; the phone that claimed Ágnes' seat may."""
    from tests.test_desk import ANN_PHONE, BOB_PHONE, act, box

    loop = box(qualeen_table(store, secret=None))
    secret = {"form": "secret", "values": {"objective": "On Budget"}}
    refused = act(loop, "report", player="Ágnes", client=BOB_PHONE, **secret)
    assert refused["status"] == 403 and "Ágnes enters it on their own phone" in refused["error"]
    act(loop, "claim_seat", player="Ágnes", client=ANN_PHONE)
    assert act(loop, "report", player="Ágnes", client=BOB_PHONE, **secret)["status"] == 403
    assert act(loop, "report", player="Ágnes", client=ANN_PHONE, **secret)["status"] == 200
    assert loop.flow.session.replay().state.player("Ágnes").secret_objective == "on_budget"


AC = "Accelerated Construction"
REVEALED = "Accelerated Construction (secret): revealed when met, its 4 VP on the VP track"


def secret_ac_file(vp: int, **revealed) -> dict:
    """A score file of the worked game below: Ágnes (Qualeen, secret Accelerated Construction) and Bálint, 112 credits
    each, only their Main Reactors (2 cubes each: no empty reactor), no objective face up."""
    from tests.test_among_scoring import MR, player
    return {"players": [player("Ágnes", vp, 112, [MR], race="Qualeen", secret_objective=AC, **revealed),
                        player("Bálint", 0, 112, [MR])]}


def lines(breakdown) -> dict:
    return {line.category: (line.vp, str(line.detail)) for line in breakdown.lines}


def test_a_secret_accelerated_construction_met_in_play_scores_once_in_the_box_and_in_a_score_file():
    """Hungarian FAQ (Qualeen): a secret Accelerated Construction "is revealed when it is met - no need to wait for the
    end of the game", and scored then (digest §12: 4 VP to the first at 50). The box: Ágnes reaches 50 in year 1
    (a correction), it is revealed, 50 + 4 = 54 on the track; both discard every round (4 x 10 + 24 x 3 = 112
    credits, 37 VP). End: Ágnes 54 + 37 = 91, Bálint 37, her objectives line 0 and saying why. A score file of the
    same table says so with secret_revealed true and scores the same; kept secret to the end (false, track 50) it
    scores its 4 VP now: 50 + 4 + 37 = 91; a file that does not say which, with a track at 50 or more, is refused
    (it cannot know whether the 4 VP are on the track); not met (49) it scores nothing: 49 + 37 = 86."""
    from rules.among_the_stars import final_scores
    from rules.scoring import ScoreInputError

    log = Log()
    log.add(SECRET_OBJECTIVE_CHOSEN, "Ágnes", objective=AC)
    log.add("vp_changed", "Ágnes", delta=50, reason="test")
    for _ in range(24):
        log.end_round("Ágnes", "Bálint")
    r = run(log, players=[{"name": "Ágnes", "race": "Qualeen"}, "Bálint"])
    box = {b.player: b for b in r.state.scores}
    assert {name: b.total for name, b in box.items()} == {"Ágnes": 91, "Bálint": 37}
    assert lines(box["Ágnes"])["objectives"] == (0, REVEALED)

    told = {b.player: b for b in final_scores(secret_ac_file(54, secret_revealed=True))}
    assert {name: b.total for name, b in told.items()} == {"Ágnes": 91, "Bálint": 37}
    assert lines(told["Ágnes"]) == lines(box["Ágnes"])  # the box and the file agree line by line
    kept = {b.player: b for b in final_scores(secret_ac_file(50, secret_revealed=False))}
    assert kept["Ágnes"].total == 91 and lines(kept["Ágnes"])["objectives"] == (4, "Accelerated Construction "
                                                                                   "(secret) +4")
    with pytest.raises(ScoreInputError) as unsaid:
        final_scores(secret_ac_file(54))
    assert unsaid.value.field == "players[0].secret_revealed" and unsaid.value.code == "among.secret_revealed_unsaid"
    assert "at 54" in str(unsaid.value) and "(50 VP" in str(unsaid.value)
    unmet = {b.player: b for b in final_scores(secret_ac_file(49))}
    assert unmet["Ágnes"].total == 86 and lines(unmet["Ágnes"])["objectives"] == (0, "")


def test_secret_revealed_is_for_a_secret_accelerated_construction_only():
    from rules.among_the_stars import final_scores
    from rules.scoring import ScoreInputError

    data = secret_ac_file(10, secret_revealed=True)
    data["players"][0]["secret_objective"] = "On Budget"  # scored at the end, never revealed before it
    with pytest.raises(ScoreInputError) as refused:
        final_scores(data)
    assert refused.value.code == "among.secret_revealed_other"
    data["players"][0]["secret_revealed"] = "yes"
    with pytest.raises(ScoreInputError, match="must be true or false"):
        final_scores(data)


def test_a_secret_objective_entered_after_the_first_round_is_said_to_the_table_without_naming_it(store):
    """Rulebook 'Races', Qualeen: "At setup, draw 2 extra objectives and keep one secretly". Entered (and corrected)
    in year 1's first round: nothing to say. First entered in round 2 (the card was kept at setup, the phone forgot):
    a warning to the table naming Ágnes and the round, never the objective (she could have picked it knowing who
    leads what)."""
    flow = qualeen_table(store, secret=None)
    flow.report("Ágnes", "secret", {"objective": "Grand Attractions"})
    flow.undo_report("Ágnes", form="secret")
    assert flow.findings() == []
    every_round_discarded(flow, 1)
    flow.report("Ágnes", "secret", {"objective": "On Budget"})
    [late] = flow.findings()
    assert (late["severity"], late["player"]) == ("warning", "Ágnes")
    assert late["rule"] == "Among the Stars, Qualeen race tile"
    assert late["what"] == ("Ágnes entered a secret objective in year 1, round 2: a Qualeen keeps one from the setup, "
                            "so it is entered in the first round")
    assert "On Budget" not in str(flow.view()["findings"]) and "Grand Attractions" not in str(flow.view()["findings"])
    assert i18n.localize(late["what"], "hu").startswith("Ágnes az 1. év 2. körében adott meg titkos célt")


KEPT = ("a Qualeen keeps one secret objective from the setup (race tile: draw 2 extra objectives, keep 1 secretly); "
        "after year 1, round 1 it is not changed")


def test_the_secret_objective_kept_from_the_setup_is_not_changed_after_the_first_round(store):
    """Qualeen race tile (rules digest 11 Races; Hungarian race text): "At setup draw 2 extra objectives, keep 1
    secretly" - the one kept at setup is hers to the end. Before, her phone's "Withdraw my entry" worked until the game
    was scored, so she could swap On Budget for another objective in year 4 knowing who leads what (a warning only).
    Now, in year 1's first round a slip is still withdrawn and corrected; once that round is over the button is gone,
    a withdrawal or another entry is refused naming the rule, nothing is recorded, and the objective kept at setup
    scores: every player discards every round, 112 credits, 37 VP each; On Budget tied three ways still scores 5 for
    her (Qualeen: even when tied): Ágnes 42, Bálint 37, Csilla 37."""
    from companion.errors import MovedOn
    from tests.test_desk import ANN_PHONE, act, box

    flow = qualeen_table(store, secret="Grand Attractions")
    assert [w["form"] for w in flow.view()["withdraw"]["Ágnes"]] == ["secret"]  # round 1: a slip can be corrected
    flow.undo_report("Ágnes", form="secret")
    flow.report("Ágnes", "secret", {"objective": "On Budget"})
    every_round_discarded(flow, 1)  # year 1, round 2: kept for good
    assert flow.view()["withdraw"]["Ágnes"] == [] and "secret" not in flow.view()["open_forms"]["Ágnes"]
    last = flow.session.last_seq
    with pytest.raises(MovedOn) as refused:
        flow.undo_report("Ágnes", form="secret")
    assert str(refused.value) == (f"Ágnes's entry on Secret objective (Qualeen) can no longer be withdrawn: {KEPT}; "
                                  "nothing was recorded")
    said = {lang: i18n.localize(refused.value.args[0], lang) for lang in ("el", "pl", "hu")}
    assert said["el"].startswith("Ágnes: η καταχώριση (Μυστικός στόχος (Qualeen)) δεν μπορεί πλέον να αποσυρθεί: "
                                 "ο Qualeen κρατά έναν μυστικό στόχο από την προετοιμασία"), said
    assert said["pl"].startswith("Ágnes: wpisu (Tajny cel (Qualeen)) nie można już wycofać: Qualeen zatrzymuje jeden "
                                 "tajny cel już przy przygotowaniu gry"), said
    assert said["hu"].startswith("Ágnes: a bejegyzés (Titkos cél (Qualeen)) már nem vonható vissza: a Qualeen az "
                                 "előkészületek óta egy titkos célt tart"), said
    with pytest.raises(MovedOn) as again:
        flow.report("Ágnes", "secret", {"objective": "Well Organised"})
    assert str(again.value) == f"Secret objective (Qualeen): Ágnes has an entry in force already: {KEPT}"
    loop = box(flow)  # her phone, from a page drawn in round 1 that still shows the button
    act(loop, "claim_seat", player="Ágnes", client=ANN_PHONE)
    answer = act(loop, "undo_report", player="Ágnes", client=ANN_PHONE, form="secret")
    assert answer["status"] == 409 and answer["recorded"] == [], answer
    assert flow.session.last_seq == last  # nothing recorded
    assert flow.session.replay().state.player("Ágnes").secret_objective == "on_budget"
    every_round_discarded(flow, 23)
    assert flow.over()
    assert totals(flow.view()["result"]["players"]) == {"Ágnes": 42, "Bálint": 37, "Csilla": 37}
    assert flow.findings() == []  # entered and corrected in round 1: nothing said to the table


def test_the_rules_refuse_a_change_of_the_secret_objective_after_the_first_round():
    """The same rule in the engine (a session or score file written by hand): a second secret objective in year 1,
    round 1 replaces the first; one in round 2 while another is in force is refused naming the rule."""
    players = [{"name": "Ágnes", "race": "Qualeen"}, "Bálint"]
    log = Log()
    log.add(SECRET_OBJECTIVE_CHOSEN, "Ágnes", objective="Grand Attractions")
    log.add(SECRET_OBJECTIVE_CHOSEN, "Ágnes", objective="On Budget")  # a slip corrected in round 1
    assert run(log, players=players).state.player("Ágnes").secret_objective == "on_budget"
    log.end_round("Ágnes", "Bálint")
    log.add(SECRET_OBJECTIVE_CHOSEN, "Ágnes", objective="Well Organised")
    with pytest.raises(BadEvent, match=r"Ágnes has a secret objective in force: a Qualeen keeps one secret objective "
                                       r"from the setup"):
        run(log, players=players)


def test_the_secret_objective_is_kept_from_the_setup_its_form_closes_once_entered_and_opens_when_withdrawn(store):
    """Qualeen race tile (cards.json "qualeen"; rules digest 11 Races): "At setup draw 2 extra objectives, keep 1
    secretly." She keeps one: once entered the form leaves her phone's list and another entry is refused naming the
    button that withdraws it; "Undo my last report" passes it by (her round's discard is withdrawn, not her secret);
    "Withdraw my entry: Secret objective (Qualeen)" withdraws it and opens the form again."""
    from tests.test_desk import ANN_PHONE, act, box

    flow = qualeen_table(store, secret=None)
    assert flow.view()["withdraw"] == {"Ágnes": [], "Bálint": [], "Csilla": []}
    flow.report("Ágnes", "secret", {"objective": "Grand Attractions"})  # a slip: she kept On Budget
    view = flow.view()
    assert "secret" not in view["open_forms"]["Ágnes"] and "discard" in view["open_forms"]["Ágnes"]
    [kept] = view["withdraw"]["Ágnes"]
    assert kept["form"] == "secret"
    said = {lang: i18n.localize(kept["label"], lang) for lang in ("en", "el", "pl", "hu")}
    assert said == {"en": "Withdraw my entry: Secret objective (Qualeen)",
                    "el": "Απόσυρση της καταχώρισής μου: Μυστικός στόχος (Qualeen)",
                    "pl": "Wycofaj mój wpis: Tajny cel (Qualeen)",
                    "hu": "Bejegyzésem visszavonása: Titkos cél (Qualeen)"}
    with pytest.raises(BadEntry) as refused:
        flow.report("Ágnes", "secret", {"objective": "On Budget"})
    assert str(refused.value) == ("Secret objective (Qualeen): Ágnes has an entry in force already; withdraw it first "
                                  "(“Withdraw my entry: Secret objective (Qualeen)”), then enter another")
    flow.report("Ágnes", "discard", {})
    discard = flow.undo_report("Ágnes")  # her newest report but the secret: the discard
    withdrawn = next(e for e in flow.session.events() if e.seq == discard.payload["seq"])
    assert withdrawn.kind == "card_discarded"
    assert flow.session.replay().state.player("Ágnes").secret_objective == "grand_attractions"
    with pytest.raises(BadEntry, match="“Undo my last report” withdraws the newest report"):
        flow.undo_report("Ágnes", form="vp")

    loop = box(flow)  # from her phone: the button posts the form it withdraws
    act(loop, "claim_seat", player="Ágnes", client=ANN_PHONE)
    answer = act(loop, "undo_report", player="Ágnes", client=ANN_PHONE, form="secret")
    assert answer["status"] == 200, answer
    assert flow.session.replay().state.player("Ágnes").secret_objective is None
    view = flow.view()
    assert "secret" in view["open_forms"]["Ágnes"] and view["withdraw"]["Ágnes"] == []
    again = act(loop, "undo_report", player="Ágnes", client=ANN_PHONE, form="secret")
    assert again["recorded"] == [] and again["status"] == 409  # nothing left to withdraw: the page redraws
    assert "Ágnes has no entry on Secret objective (Qualeen) to withdraw" in again["error"], again
    flow.report("Ágnes", "secret", {"objective": "On Budget"})
    assert flow.session.replay().state.player("Ágnes").secret_objective == "on_budget"
    assert flow.findings() == []  # all within round 1: nothing said to the table


@pytest.mark.parametrize("lang", ["el", "pl", "hu"])
def test_withdrawing_a_secret_objective_that_is_not_there_is_refused_as_stale_naming_the_form(store, lang):
    """A player who keeps no secret objective (Bálint: no Qualeen) or whose entry is already withdrawn (a second tap
    on the button from a page not yet redrawn) withdraws nothing. Before: 200 "Bálint has no report to undo", though
    Bálint had a report in force. Now 409 (the page redraws), naming the form, in the phone's language."""
    from companion.errors import MovedOn
    from tests.test_desk import ANN_PHONE, act, box

    flow = qualeen_table(store)
    flow.report("Bálint", "discard", {})
    last = flow.session.last_seq
    with pytest.raises(MovedOn) as refused:
        flow.undo_report("Bálint", form="secret")
    said = i18n.localize(refused.value.args[0], lang)
    assert "Bálint" in said and i18n.localize(i18n.Text("Secret objective (Qualeen)"), lang) in said
    assert "nothing to withdraw" not in said
    assert flow.undo_report("Ágnes", form="secret") is not None
    with pytest.raises(MovedOn):
        flow.undo_report("Ágnes", form="secret")
    assert flow.session.last_seq == last + 1  # the one withdrawal only
    loop = box(flow)
    act(loop, "claim_seat", player="Bálint", client=ANN_PHONE)
    answer = act(loop, "undo_report", player="Bálint", client=ANN_PHONE, form="secret")
    assert answer["status"] == 409, answer
