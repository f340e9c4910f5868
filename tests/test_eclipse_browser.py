"""Eclipse from two phones in a real browser (Debian's chromium via Playwright): each player claims their seat,
lays their starting sector and plays part of a round (Explore with its hex, Pass), sees the map and the tracker,
then enters the hidden end position on their own phone and sees the score screen.

Never downloads a browser: uses /usr/bin/chromium, and skips with the reason when it or Playwright is missing.
"""

from __future__ import annotations

from contextlib import ExitStack

import pytest

from companion.web import create_app, serve
from tests.browser_pages import PHONE_390, joined_page
from tests.test_phone_browser import browser, flow_on_the_box  # noqa: F401 (fixture)

pytestmark = pytest.mark.browser


def report(page, form: str, **values) -> None:
    """Fill ``form`` on the phone and send it; cells as (q, r)."""
    page.locator("#form-pick").select_option(form)
    for name, value in values.items():
        field = page.locator(f'#fields [data-field="{name}"]')
        if isinstance(value, tuple):
            field.locator("input[data-axis=i]").fill(str(value[0]))
            field.locator("input[data-axis=j]").fill(str(value[1]))
        elif field.evaluate("node => node.tagName") == "SELECT":
            field.select_option(str(value))
        else:
            field.fill(str(value))
    page.locator("#send").click()


def pass_to_the_final_positions(hub) -> None:
    """Every player passes and the table taps Next, through the box's loop, until the nine rounds are over and the
    table waits for the final positions (Eclipse, End of the game)."""
    for _ in range(200):
        game = hub.snapshot().view["game"]
        if game["stage"] == "reporting":
            return
        if game["stage"] == "action":
            answer = hub.request("report", origin="cli", timeout=5, player=game["turn"], form="pass", values={})
        else:
            answer = hub.request("next_phase", origin="cli", timeout=5)
        assert answer is not None and answer["status"] == 200, answer
    raise AssertionError("the nine rounds did not end in 200 steps")


def test_two_phones_play_part_of_a_round_and_see_the_score(browser, hub, tmp_path, output_dir):  # noqa: F811
    from playwright.sync_api import expect

    server = serve(create_app(hub), host="127.0.0.1", port=0)
    phones = []
    try:
        with flow_on_the_box(hub, tmp_path, "eclipse", species=["Terran Directorate", "Orion Hegemony"]), \
                ExitStack() as opened:
            for name in ("Ann", "Bob"):
                page, errors = opened.enter_context(joined_page(browser, server, hub, **PHONE_390))
                phones.append((page, errors))
                expect(page.locator("#title")).to_have_text("Eclipse")
                page.locator("#seats button", has_text=name).click()
                expect(page.locator("#me")).to_have_text(name)
            (ann, _), (bob, _) = phones
            expect(ann.locator("#round-label")).to_have_text("Round 1 of 9, Action phase")
            expect(ann.locator("#players thead th")).to_have_text(["Player", "Hexes"])  # no relations with 2
            expect(ann.locator("#players tbody tr.turn")).to_contain_text("Ann")

            # Setup: each lays their starting sector (ring II with 2 players).
            report(ann, "home", sector="221 Procyon", hex=(0, -2), rotation=0)
            expect(ann.locator("#report-result")).to_contain_text("Ann: Starting sector laid (setup) recorded")
            report(bob, "home", sector="232 Rigel", hex=(0, 2), rotation=0)
            expect(bob.locator("#report-result")).to_contain_text("Bob: Starting sector laid (setup) recorded")
            # Ann explores 101 Castor at (0, -1) as printed: only a half wormhole towards her home (221's printed
            # 6 faces it, 101 has no half-circle on its edge 12): both phones show the rule and the fix at once.
            report(ann, "explore", sector="101 Castor", hex=(0, -1), rotation=0, **{"from": (0, -2)})
            expect(ann.locator("#report-result")).to_contain_text("Ann: Explore recorded")
            for page in (ann, bob):
                expect(page.locator("#findings li").first).to_contain_text("only a half wormhole")
                expect(page.locator("#findings li").first).to_contain_text("Eclipse, Wormhole Generator")
                expect(page.locator("#findings li .fix").first).to_have_text(
                    "Fix: rotate it 1 step clockwise so its wormhole faces yours")
            ann.screenshot(path=str(output_dir / "phone_eclipse_finding_fix.png"), full_page=True)
            # ... she takes it back, and lays it turned 1 step: legal.
            ann.locator("#undo-report").click()
            expect(ann.locator("#report-result")).to_contain_text("withdrawn")
            report(ann, "explore", sector="101 Castor", hex=(0, -1), rotation=1, **{"from": (0, -2)})
            expect(bob.locator("#players tbody tr.turn")).to_contain_text("Bob")
            board = bob.locator("#boards figure")
            expect(board.locator("g.cell:not(.space) text.label")).to_have_text(["001", "101", "221", "232"])
            bob.screenshot(path=str(output_dir / "phone_eclipse_round.png"), full_page=True)
            report(bob, "pass")
            expect(ann.locator("#note")).to_contain_text("passed: Bob; next round starts: Bob")

            # The rest of the game is played at the table, through the box's loop, up to the end of round 9.
            pass_to_the_final_positions(hub)
            for page in (ann, bob):
                expect(page.locator("#form-pick option")).to_have_text(
                    ["Final position (hidden: only on your phone)"])
            # Ann: reputation 3, one Discovery kept (2), military track 5 tiles (2), her home 221 (3 VP; no disc went
            # on 101, so it is not hers) = 10.
            report(ann, "position", reputation_3=1, discoveries=1, military=5, money=2, science=2, materials=2)
            expect(ann.locator("#report-result")).to_contain_text("Final position recorded")
            expect(bob.locator("#score-section")).to_be_hidden()  # nothing shows before everyone has reported
            # Bob: reputation 4 + 2, hex 232 (3) = 9.
            report(bob, "position", reputation_4=1, reputation_2=1, money=1, science=0, materials=0)
            expect(bob.locator("#phone-next")).to_have_text("Next: Score the game")  # a last look, then scored
            bob.locator("#phone-next").click()
            for page in (ann, bob):
                expect(page.locator("#score-section")).to_be_visible()
                expect(page.locator("#winner")).to_have_text("Winner: Ann")
                # the winner marked with a star, not only a colour
                expect(page.locator("#scores tr.winner-row")).to_have_text("Total\u2605 109")
            ann.screenshot(path=str(output_dir / "phone_eclipse_scores.png"), full_page=True)
            result = hub.snapshot().view["game"]["result"]
            assert {p["name"]: p["total"] for p in result["players"]} == {"Ann": 10, "Bob": 9}
    finally:
        server.shutdown()
    assert all(errors == [] for _, errors in phones)


def test_the_setup_step_picks_each_players_species_on_the_phone(browser, hub, tmp_path, output_dir):  # noqa: F811
    """Species are picked beside each name; two species of one double-sided board are refused at once, with the
    rule (Rise of the Ancients p.3); Start records the species."""
    import numpy as np
    from playwright.sync_api import expect

    from companion.app import MainLoop
    from companion.flows import FLOWS
    from companion.session import SessionStore
    from companion.setup_flow import TableSetup
    from device import FakeCamera
    from tests.test_camera_browser import LoopThread
    from vision.motion import StillnessDetector

    server = serve(create_app(hub), host="127.0.0.1", port=0)
    with SessionStore(tmp_path / "setup.sqlite3") as store:
        loop = MainLoop(source=FakeCamera([np.full((240, 320, 3), 70, np.uint8)]), reader=None, session=None, hub=hub,
                        stillness=StillnessDetector(), setup=TableSetup(store, FLOWS["eclipse"]), sleep=lambda s: None)
        loop.publish()
        try:
            with joined_page(browser, server, hub, **PHONE_390) as (page, errors):
                with LoopThread(loop):
                    expect(page.locator("#setup-section")).to_be_visible()
                    for name in ("Ann", "Bob"):
                        page.locator("#setup-name").fill(name)
                        page.locator("#setup-add").click()
                        expect(page.locator("#setup-players li .name").last).to_have_text(name)
                    picks = page.locator("#setup-players select.choice")
                    picks.nth(0).select_option("Terran Directorate")
                    expect(page.locator("#setup-result")).to_have_text("Ann: species Terran Directorate")
                    picks.nth(1).select_option("Eridani Empire")  # the other side of Ann's board
                    expect(page.locator("#setup-result")).to_contain_text(
                        "2 players chose Terran Directorate and Eridani Empire, and only 1 player board shows them")
                    expect(picks.nth(1)).to_have_value("")  # the refused pick is not kept
                    picks.nth(1).select_option("Orion Hegemony")
                    expect(page.locator("#setup-result")).to_have_text("Bob: species Orion Hegemony")
                    page.screenshot(path=str(output_dir / "phone_eclipse_setup.png"), full_page=True)
                    page.locator("#setup-start").click()
                    expect(page.locator("#setup-section")).to_be_hidden()
                    expect(page.locator("#players tbody tr").first).to_contain_text("Ann \u2014 Terran Directorate")
                assert [p.get("species") for p in loop.flow.session.settings["players"]] == ["Terran Directorate",
                                                                                             "Orion Hegemony"]
                assert errors == []
        finally:
            server.shutdown()


def test_a_phone_turns_the_alliances_on_for_a_game_chosen_on_the_box(browser, hub, tmp_path, output_dir):  # noqa: F811
    """Eclipse chosen on the box's chooser (no command-line options): on a 360 px Greek phone the setup lists the
    game's on/off options, each with what it does and its rulebook page; ticking the alliances (Rise of the Ancients
    p.10-11, 4 or more players) is recorded at once and Start plays them. The seat dots beside the names hold their
    colour's letters whole."""
    from playwright.sync_api import expect

    from tests.test_camera_browser import LoopThread
    from tests.test_setup_options_browser import setup_phone

    with setup_phone(browser, hub, tmp_path, "eclipse", "el-GR") as (loop, page, errors):
        with LoopThread(loop):
            expect(page.locator("#setup-options legend")).to_have_text("Επιλογές παιχνιδιού")
            for name in ("Ζωή", "Νίκος", "Ελένη", "Γιώργος"):
                page.locator("#setup-name").fill(name)
                page.locator("#setup-add").click()
                expect(page.locator("#setup-players li .name").last).to_have_text(name)
            alliances = page.locator('#setup-option-list input[data-option="alliances"]')
            expect(alliances).not_to_be_checked()
            expect(page.locator("#setup-option-list label").filter(
                has=page.locator('input[data-option="alliances"]'))).to_contain_text(
                "συμμαχίες που βαθμολογούνται μαζί (Αυγή των Αρχαίων σ.10-11")
            alliances.check()
            expect(page.locator("#setup-result")).to_have_text("η ενότητα Συμμαχιών: σε χρήση")
            expect(alliances).to_be_checked()
            width = page.evaluate("document.documentElement.scrollWidth")
            # each seat dot holds its colour's letters whole ("Κο" for κόκκινο was drawn "Κ" over "ο")
            spilled = page.evaluate("""() => [...document.querySelectorAll('#setup-players .dot')]
                .filter((d) => d.scrollHeight > d.clientHeight || d.scrollWidth > d.clientWidth)
                .map((d) => d.textContent)""")
            page.screenshot(path=str(output_dir / "phone_eclipse_setup_options.png"), full_page=True)
            page.locator("#setup-start").click()
            expect(page.locator("#setup-section")).to_be_hidden()
        assert width <= 360  # the options' words wrap inside the phone's width
        assert spilled == []
        assert loop.flow.session.settings["alliances"] is True
        assert errors == []


def test_a_second_tap_before_the_box_shows_the_first_is_made_against_the_first(browser, hub, tmp_path):  # noqa: F811
    """A phone's second tap right after its first (the box has not published the first's state yet) is made
    against the state the first wrote, as its answer says: judged by the rules, never refused as made against
    an older state."""
    import numpy as np
    from playwright.sync_api import expect

    from companion.app import MainLoop
    from companion.flows import FLOWS
    from companion.session import SessionStore
    from companion.setup_flow import TableSetup
    from device import FakeCamera
    from tests.phones import LoopThread
    from vision.motion import StillnessDetector

    server = serve(create_app(hub), host="127.0.0.1", port=0)
    with SessionStore(tmp_path / "slow.sqlite3") as store:
        loop = MainLoop(source=FakeCamera([np.full((240, 320, 3), 70, np.uint8)]), reader=None, session=None, hub=hub,
                        stillness=StillnessDetector(), setup=TableSetup(store, FLOWS["eclipse"]), sleep=lambda s: None)
        loop.publish()
        try:
            with joined_page(browser, server, hub, **PHONE_390) as (page, errors):
                with LoopThread(loop):
                    for name in ("Ann", "Bob"):
                        page.locator("#setup-name").fill(name)
                        page.locator("#setup-add").click()
                        expect(page.locator("#setup-players li .name").last).to_have_text(name)
                    loop.publish = lambda *args, **kw: None  # from now on the box answers taps but shows nothing new
                    picks = page.locator("#setup-players select.choice")
                    picks.nth(0).select_option("Terran Directorate")
                    expect(page.locator("#setup-result")).to_have_text("Ann: species Terran Directorate")
                    picks.nth(1).select_option("Orion Hegemony")
                    expect(page.locator("#setup-result")).to_have_text("Bob: species Orion Hegemony")
                assert [p["choices"]["species"] for p in loop.setup.view()["players"]] == ["Terran Directorate",
                                                                                         "Orion Hegemony"]
                assert errors == []
        finally:
            server.shutdown()


@pytest.mark.parametrize("locale", ["pl-PL", "el-GR", "hu-HU"])
def test_a_species_beside_a_name_is_never_cut_in_the_middle_of_a_word(browser, hub, tmp_path, locale):  # noqa: F811
    """On a 360 px Polish phone the players' table drew 'Łucja — Terran Directorat' / 'e': the columns' headings
    ('Ambasadorowie', 'Sojusz') took the room and the species broke anywhere. A species' words stay whole (the
    column takes the longest word; what does not fit scrolls inside the table, never the page)."""
    from playwright.sync_api import expect

    from tests.test_evening_browser import CUT_WORDS, fits

    server = serve(create_app(hub), host="127.0.0.1", port=0)
    try:
        with flow_on_the_box(hub, tmp_path, "eclipse", "Łucja,Bálint",
                             species=["Terran Directorate", "Orion Hegemony"]):
            with joined_page(browser, server, hub, locale=locale, width=360, height=800, mobile=True) as (page, _):
                roles = page.locator("#players td.player-name .role")
                expect(roles).to_have_count(2)
                expect(roles.first).to_have_text(" \u2014 Terran Directorate")
                assert roles.evaluate_all(CUT_WORDS) == []
                assert fits(page)
    finally:
        server.shutdown()


def test_a_player_is_not_offered_as_their_own_ambassador_or_target(browser, hub, tmp_path):  # noqa: F811
    """Eclipse's Diplomatic relations ('With') and 'You attacked a player you have relations with' ('Whom') offered the
    reporting player among the choices, and the box then refused the report ('you cannot choose yourself'): the
    phone offers the other players only, and still posts the choice's name; an attack offers only the players the
    reporter has relations with, and with none says so instead of a list."""
    from playwright.sync_api import expect

    server = serve(create_app(hub), host="127.0.0.1", port=0)
    try:
        with flow_on_the_box(hub, tmp_path, "eclipse", "Łucja,Bálint,Zoë,Ζωή",  # relations: 4 or more players
                             species=["Terran Directorate", "Orion Hegemony", "Hydran Progress", "Mechanema"]) as flow:
            with joined_page(browser, server, hub, **PHONE_390) as (page, errors):
                page.locator("#seats button", has_text="Łucja").click()
                expect(page.locator("#me")).to_have_text("Łucja")
                page.locator("#form-pick").select_option("relations")
                choices = page.locator("#fields select").first.locator("option")
                expect(choices).to_have_text(["choose…", "Bálint", "Zoë", "Ζωή"])
                # no relations yet: the attack's form says so instead of a list, and cannot be sent
                page.locator("#form-pick").select_option("attack")
                expect(page.locator("#fields .form-none")).to_contain_text("relations with no one")
                expect(page.locator("#fields select")).to_have_count(0)
                expect(page.locator("#send")).to_be_hidden()
                report(page, "relations", **{"with": "Zoë"})
                expect(page.locator("#report-result")).to_contain_text("recorded")
                assert [(e.player, e.payload.get("with")) for e in flow.session.events()][-1] == ("Łucja", "Zoë")
                # Eclipse, Diplomacy: only a player Łucja has relations with can be attacked as a broken treaty
                page.locator("#form-pick").select_option("attack")
                expect(page.locator("#fields select").first.locator("option")).to_have_text(["choose…", "Zoë"])
                expect(page.locator("#send")).to_be_visible()
                assert not errors, errors
    finally:
        server.shutdown()


def test_a_hex_fields_boxes_show_the_axes_its_label_names(browser, hub, tmp_path):  # noqa: F811
    """'Hex [q, r]' on a Hungarian phone stood over two boxes marked 'i' and 'j': each box now shows the axis the
    label names, q and r (the Polish 'Heks [q, r]' and the Greek 'Εξάγωνο [q, r]' alike)."""
    from playwright.sync_api import expect

    server = serve(create_app(hub), host="127.0.0.1", port=0)
    try:
        with flow_on_the_box(hub, tmp_path, "eclipse", species=["Terran Directorate", "Orion Hegemony"]):
            with joined_page(browser, server, hub, **PHONE_390) as (page, errors):
                page.locator("#seats button", has_text="Ann").click()
                expect(page.locator("#me")).to_have_text("Ann")
                page.locator("#form-pick").select_option("explore")
                hexes = page.locator('#fields [data-field="hex"] input[type=number]')
                expect(hexes).to_have_count(2)
                assert [hexes.nth(k).get_attribute("placeholder") for k in (0, 1)] == ["q", "r"]
                assert errors == []
    finally:
        server.shutdown()


@pytest.mark.parametrize("locale", ["el-GR", "pl-PL", "hu-HU"])
def test_the_report_dropdown_shows_the_chosen_name_whole_where_it_is_tapped(browser, hub, tmp_path, locale,  # noqa: F811
                                                                             output_dir):
    """On a 360 px phone the closed 'What changed?' dropdown showed 'Δίσκος Επιρροής τοποθετήθηκε (' for 'Δίσκος
    Επιρροής τοποθετήθηκε (μετά τη μάχη)' (Eclipse's influence disc placed after a battle) until opened: a closed
    <select> draws one line, and the whole name was said again in a line under it. The dropdown's face now shows the
    chosen name whole, on two lines where one does not hold it, and a tap anywhere on that name opens the dropdown."""
    from playwright.sync_api import expect

    from tests.test_evening_browser import CUT_WORDS, fits

    server = serve(create_app(hub), host="127.0.0.1", port=0)
    try:
        with flow_on_the_box(hub, tmp_path, "eclipse", "Ζωή,Bálint", species=["Terran Directorate", "Orion Hegemony"]):
            with joined_page(browser, server, hub, locale=locale, width=360, height=800, mobile=True) as (page, _):
                page.locator("#seats button", has_text="Ζωή").click()
                expect(page.locator("#me")).to_have_text("Ζωή")
                pick, name = page.locator("#form-pick"), page.locator("#form-name")
                labels = dict(pick.evaluate("s => [...s.options].map((o) => [o.value, o.text])"))
                assert len(labels) >= 5
                heights = {}
                for form, label in labels.items():
                    pick.select_option(form)
                    expect(name).to_be_visible()
                    expect(name).to_have_text(label)  # whole: every word of it, nothing cut at the edge
                    assert name.evaluate("n => n.scrollWidth <= n.clientWidth") and name.evaluate_all(CUT_WORDS) == []
                    box = name.bounding_box()
                    heights[form] = box["height"]
                    # where a finger lands on the name (its middle, its corners), the dropdown is what it taps
                    for x, y in ((0.5, 0.5), (0.05, 0.15), (0.95, 0.85)):
                        at = (box["x"] + x * box["width"], box["y"] + y * box["height"])
                        assert page.evaluate("([x, y]) => document.elementFromPoint(x, y).id", at) == "form-pick"
                    assert pick.bounding_box() == box
                assert fits(page)
                # 'Δίσκος Επιρροής τοποθετήθηκε (μετά τη μάχη)', 'Befolyáskorong lehelyezve (csata után)': two lines
                longest = max(labels, key=lambda k: len(labels[k]))
                assert heights[longest] > 1.5 * min(heights.values())
                pick.select_option(longest)
                page.locator("#report-section").screenshot(path=str(output_dir / f"phone_report_name_{locale}.png"))
    finally:
        server.shutdown()


def test_a_players_undo_during_the_final_positions_withdraws_only_their_own_entry(browser, hub, tmp_path,  # noqa: F811
                                                                                     output_dir):
    """After round 9, "Undo my last report" sat beside "Report" on each phone; tapped before entering a final
    position it withdrew the player's round-9 Pass and the game stood at round 9's Cleanup again. On 360 px phones (Ann
    in Greek, Bob in English) the button now names the entry it withdraws, shows only once there is one, withdraws
    Ann's own entry and nothing before it. Bob, the last to enter, still withdraws his slip (reputation 4 + 4) before
    "Score the game" on Ann's phone scores the entries in force: Ann reputation 3 + hex 221 (3) = 6, Bob reputation 4 +
    hex 232 (3) = 7 (Eclipse, End of the game; rules/data/eclipse/hexes.json)."""
    from playwright.sync_api import expect

    from tests.test_evening_browser import fits

    server = serve(create_app(hub), host="127.0.0.1", port=0)
    try:
        with flow_on_the_box(hub, tmp_path, "eclipse", species=["Terran Directorate", "Orion Hegemony"]) as flow, \
                ExitStack() as opened:
            for name, sector, cell in (("Ann", "221", [0, -2]), ("Bob", "232", [0, 2])):
                answer = hub.request("report", origin="cli", timeout=5, player=name, form="home",
                                     values={"sector": sector, "hex": cell, "rotation": 0})
                assert answer is not None and answer["status"] == 200, answer
            pass_to_the_final_positions(hub)
            pages = {}
            for name, locale in (("Ann", "el-GR"), ("Bob", "en-US")):
                page, errors = opened.enter_context(joined_page(browser, server, hub, locale=locale, width=360,
                                                                height=800, mobile=True))
                page.locator("#seats button", has_text=name).click()
                expect(page.locator("#me")).to_have_text(name)
                pages[name] = (page, errors)
            (ann, ann_errors), (bob, bob_errors) = pages["Ann"], pages["Bob"]
            expect(ann.locator("#form-pick option")).to_have_text(["Τελική θέση (κρυφό: μόνο στο τηλέφωνό σας)"])
            expect(ann.locator("#undo-report")).to_be_hidden()  # nothing entered: nothing to withdraw
            expect(bob.locator("#undo-report")).to_be_hidden()

            report(ann, "position", reputation_4=2, money=9)
            expect(ann.locator("#report-result")).to_contain_text("Τελική θέση")
            undo = ann.locator("#undo-report")
            expect(undo).to_be_visible()
            expect(undo).to_have_text("Απόσυρση της καταχώρισής μου: Τελική θέση")
            assert fits(ann)
            expect(bob.locator("#undo-report")).to_be_hidden()  # Bob has entered nothing
            undo.click()
            expect(ann.locator("#report-result")).to_contain_text("αποσύρθηκε")
            expect(undo).to_be_hidden()
            expect(bob.locator("#round-label")).to_have_text("Game end: final positions")  # not round 9's Cleanup
            assert flow.progress().stage == "reporting"
            assert [e.kind for e in flow.session.events()][-2:] == ["position_reported", "undo"]

            report(ann, "position", reputation_4=0, money=0, reputation_3=1)  # the form kept what she sent before
            expect(undo).to_be_visible()
            report(bob, "position", reputation_4=2)  # the last entry, by a slip: still his to withdraw
            expect(bob.locator("#score-section")).to_be_hidden()
            bob_undo = bob.locator("#undo-report")
            expect(bob_undo).to_have_text("Withdraw my entry: Final position")
            bob.screenshot(path=str(output_dir / "phone_eclipse_last_look_en.png"), full_page=True)
            bob_undo.click()
            expect(bob.locator("#report-result")).to_contain_text("withdrawn")
            report(bob, "position", reputation_2=0, reputation_4=1)
            score = ann.locator("#phone-next")
            expect(score).to_have_text("Επόμενο: Βαθμολόγηση παιχνιδιού")
            assert fits(ann)
            ann.screenshot(path=str(output_dir / "phone_eclipse_last_look_el.png"), full_page=True)
            score.click()
            for page in (ann, bob):
                expect(page.locator("#score-section")).to_be_visible()
            expect(bob.locator("#winner")).to_have_text("Winner: Bob")
            result = hub.snapshot().view["game"]["result"]
            assert {p["name"]: p["total"] for p in result["players"]} == {"Ann": 6, "Bob": 7}
            assert ann_errors == [] and bob_errors == []
    finally:
        server.shutdown()


def test_the_greek_undo_button_says_what_it_does_on_two_lines_at_most(browser, hub, tmp_path, output_dir):  # noqa: F811
    """On a 360 px phone in Greek, Eclipse's "Undo my last report" read "Αναίρεση της τελευταίας μου αναφοράς" on five
    lines beside "Αναφορά": it reads "Αναιρώ την αναφορά μου" ("I undo my report": a phone withdraws its own newest
    report, the table's Undo is another button), on at most two lines; the messages that name the button name it so."""
    from playwright.sync_api import expect

    from tests.test_evening_browser import fits

    server = serve(create_app(hub), host="127.0.0.1", port=0)
    try:
        with flow_on_the_box(hub, tmp_path, "eclipse", species=["Terran Directorate", "Orion Hegemony"]), \
                joined_page(browser, server, hub, locale="el-GR", width=360, height=800, mobile=True) as (page, errors):
            page.locator("#seats button", has_text="Ann").click()
            expect(page.locator("#me")).to_have_text("Ann")
            report(page, "home", sector="221 Procyon", hex=(0, -2), rotation=0)
            undo = page.locator("#undo-report")
            expect(undo).to_be_visible()
            lines = undo.evaluate("""node => {
                const range = document.createRange(); range.selectNodeContents(node);
                return new Set([...range.getClientRects()].map(r => Math.round(r.top))).size; }""")
            page.locator("#report-section").screenshot(path=str(output_dir / "phone_eclipse_undo_el_360.png"))
            expect(undo).to_have_text("Αναιρώ την αναφορά μου")
            assert 1 <= lines <= 2, lines
            assert fits(page)
            assert errors == []
    finally:
        server.shutdown()


def test_a_passed_players_phone_offers_reactions_and_no_second_pass(browser, hub, tmp_path):  # noqa: F811
    """Eclipse 1.2, Passing: after passing a player only reacts (Upgrade, Build or Move) on their own turns; a turn
    with no reaction goes by when the next player acts. Réka's Hungarian phone at 360 px: once she has passed it
    offers the three reactions and no Pass (before, each time round she had to tap Pass again or the next player was
    "out of turn"), and when her turn comes before Ann's the table note says she may react first; Ann acts and
    the game goes on with no warning. Réka's relations form no longer offers Ann once they have relations (Eclipse
    1.2, Diplomacy: one pair of Ambassadors a pair of players)."""
    from playwright.sync_api import expect

    from tests.browser_pages import joined_page

    def table(player: str, form: str, values: dict) -> None:  # another phone's report, through the box's loop
        answer = hub.request("report", origin="cli", timeout=5, player=player, form=form, values=values)
        assert answer is not None and answer["status"] == 200, answer

    server = serve(create_app(hub), host="127.0.0.1", port=0)
    try:
        with flow_on_the_box(hub, tmp_path, "eclipse", "Ann,Réka,Cy,Dee",
                             species=["Terran Directorate", "Orion Hegemony", "Planta", "Mechanema"]) as flow:
            with joined_page(browser, server, hub, locale="hu-HU") as (page, errors):
                page.locator("#seats button", has_text="Réka").click()
                expect(page.locator("#me")).to_have_text("Réka")
                table("Ann", "upgrade", {})
                report(page, "pass")
                expect(page.locator("#report-result")).to_contain_text("Réka: Passz")
                offered = page.locator("#form-pick option")
                expect(offered.filter(has_text="Passz")).to_have_count(0)
                for reaction in ("Fejlesztés", "Építés", "Mozgás"):
                    expect(offered.filter(has_text=reaction).first).to_be_attached()
                table("Cy", "upgrade", {})
                table("Dee", "upgrade", {})
                table("Ann", "upgrade", {})  # Réka's turn: she may react, or it goes by when Cy acts
                expect(page.locator("#note")).to_contain_text(
                    "passzolás után először reagálhat: Réka (Fejlesztés, Építés vagy Mozgás)")
                table("Cy", "upgrade", {})
                assert not [f for f in flow.view()["findings"] if f["severity"] != "info"]
                table("Ann", "relations", {"with": "Réka"})
                page.locator("#form-pick").select_option("relations")
                expect(page.locator("#fields select").first.locator("option")).to_have_text(
                    ["válassz…", "Cy", "Dee"])
                assert page.evaluate("document.documentElement.scrollWidth") <= 360
                assert not errors, errors
    finally:
        server.shutdown()


def test_a_ships_second_activation_is_said_on_the_greek_phone_and_a_third_is_flagged(browser, hub,  # noqa: F811
                                                                                     tmp_path):
    """Rise of the Ancients p.4 and p.8's example: one ship may be activated twice in one Move, and a Magellan Move
    gives two activations (p.14). The step form of Νίκος's Greek phone at 360 px has the field "Ξεκινά νέα
    ενεργοποίηση του ίδιου Σκάφους" (before, a second activation of the same ship was counted as the first going on,
    and flagged beyond its Movement); the second activation is recorded with no error; a third is flagged in Greek
    naming the board's page, and the page stays 360 px wide."""
    from playwright.sync_api import expect

    from tests.browser_pages import PHONE_360

    def table(player: str, form: str, values: dict) -> None:  # another phone's report, through the box's loop
        answer = hub.request("report", origin="cli", timeout=5, player=player, form=form, values=values)
        assert answer is not None and answer["status"] == 200, answer

    server = serve(create_app(hub), host="127.0.0.1", port=0)
    try:
        with flow_on_the_box(hub, tmp_path, "eclipse", "Νίκος,Bob", species=["Magellan", "Orion Hegemony"]) as flow:
            table("Νίκος", "home", {"sector": "221", "hex": [0, -2], "rotation": 0})
            table("Bob", "home", {"sector": "232", "hex": [0, 2], "rotation": 0})
            table("Νίκος", "explore", {"sector": "106", "hex": [0, -1], "rotation": 0, "from": [0, -2]})
            table("Bob", "upgrade", {})
            with joined_page(browser, server, hub, locale="el-GR", **PHONE_360) as (page, errors):
                page.locator("#seats button", has_text="Νίκος").click()
                expect(page.locator("#me")).to_have_text("Νίκος")
                report(page, "move", **{"from": (0, -2), "to": (0, -1), "ship": "Cruiser"})
                expect(page.locator("#report-result")).to_contain_text("Νίκος")
                page.locator("#form-pick").select_option("step")
                expect(page.locator("#fields")).to_contain_text("Ξεκινά νέα ενεργοποίηση του ίδιου Σκάφους")
                expect(page.locator("#fields")).to_contain_text(  # Rise of the Ancients p.4, Interceptor Bay
                    "Αναχαιτιστικό που μεταφέρεται σε Βάση Αναχαιτιστικών (δεν είναι ενεργοποίηση)")
                assert page.evaluate("document.documentElement.scrollWidth") <= 360
                report(page, "step", **{"from": (0, -1), "to": (0, 0), "again": "yes"})
                expect(page.locator("#report-result")).to_contain_text("Νίκος")
                assert [f["what"] for f in flow.view()["findings"] if f["severity"] == "error"] == [
                    "221 Procyon is the Terran Directorate starting sector, not Magellan's"]  # the only error
                report(page, "step", **{"from": (0, 0), "to": (0, -1), "again": "yes"})
                expect(page.locator("#findings")).to_contain_text(
                    "μία ενέργεια Μετακίνησης δίνει 2 ενεργοποιήσεις (Αυγή των Αρχαίων σ.14), και αυτό το βήμα "
                    "ξεκινά την ενεργοποίηση 3")
                assert page.evaluate("document.documentElement.scrollWidth") <= 360
                assert not errors, errors
    finally:
        server.shutdown()


def test_simultaneous_play_a_passed_phone_without_a_marker_offers_no_reaction(browser, hub, tmp_path):  # noqa: F811
    """Rise of the Ancients p.13: in simultaneous play the two Action marker holders act at once, and a passed player
    reacts only when a marker reaches them (the basic rules' Passing). Seven players, Ania's Polish phone at 360 px:
    both holders' rows are marked (before, only the First Action marker's), and once Ania has passed her phone offers
    no Upgrade, Build or Move (before it did, with no marker), until the Second Action marker comes to her."""
    from playwright.sync_api import expect

    from tests.browser_pages import PHONE_360

    def table(player: str, form: str, values: dict) -> None:  # another phone's report, through the box's loop
        answer = hub.request("report", origin="cli", timeout=5, player=player, form=form, values=values)
        assert answer is not None and answer["status"] == 200, answer

    server = serve(create_app(hub), host="127.0.0.1", port=0)
    try:
        with flow_on_the_box(hub, tmp_path, "eclipse", "Ania,B,C,D,E,F,G", simultaneous=True):
            with joined_page(browser, server, hub, locale="pl-PL", **PHONE_360) as (page, errors):
                page.locator("#seats button", has_text="Ania").click()
                expect(page.locator("#me")).to_have_text("Ania")
                marked = page.locator("#players tbody tr.turn td.player-name")
                expect(marked).to_contain_text(["Ania", "D"])
                report(page, "pass")
                expect(page.locator("#report-result")).to_contain_text("Ania")
                expect(marked).to_contain_text(["B", "D"])
                offered = page.locator("#form-pick option")
                for reaction in ("Ulepszenie", "Budowa", "Ruch"):
                    expect(offered.filter(has_text=reaction)).to_have_count(0)
                for player in ("B", "D", "C", "E", "D", "F", "E", "G"):
                    table(player, "upgrade", {})
                expect(marked).to_contain_text(["Ania", "F"])  # the rows in seat order
                expect(offered.filter(has_text="Ulepszenie").first).to_be_attached()
                assert page.evaluate("document.documentElement.scrollWidth") <= 360
                assert not errors, errors
    finally:
        server.shutdown()
