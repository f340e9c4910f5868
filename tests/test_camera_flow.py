"""The camera inside the Race for the Galaxy and Roll for the Galaxy flows (issues 4, 5, 6, 7): tableau
cards and tiles seen become one-tap questions, the dice on the phase strips propose the phases, and the
dice are counted at the end.

Frames come from the project's synthetic table generator (``vision.synth_table.make_scene``) with
exact labels, read with a deck enrolled from the generator's reference images. Expectations are
worked by hand from the scene labels and the rulebooks (cited per test).
"""

from __future__ import annotations

import numpy as np
import pytest

from companion.camera import CameraFlow
from companion.flow import GameFlow
from companion.flows import FLOWS
from companion.player_names import parse_players
from tests.camera_tables import read_twice, run_on_touchscreen, tap, whole_frame_for
from vision.deck_enroll import build_deck_from_images
from vision.synth_table import GAME_SHAPES, make_scene, reference_images
from vision.table import Zones, calibrate

# -- Race for the Galaxy and Roll for the Galaxy tableaus -----------------------------------------------


def flow_of(store, game: str, players: str = "Ann,Bob") -> GameFlow:
    session = store.start(game, FLOWS[game].settings(parse_players(players), {}))
    return GameFlow(session, FLOWS[game])


def deck_for(game: str, ids: list[str]):
    return build_deck_from_images(reference_images(ids, GAME_SHAPES[game]), game, card_mm=GAME_SHAPES[game],
                                  kind="scan")


def test_race_card_seen_is_asked_and_only_hand_and_chips_stay_on_the_phone(store):
    ids = ["old_earth", "gambling_world", "contact_specialist", "space_marines"]
    deck = deck_for("race", ids)
    scene = make_scene("race", ["old_earth", "gambling_world"], seed=3, n_cards=2, effects=False)
    assert sorted(c.id for c in scene.cards) == ["gambling_world", "old_earth"]
    flow = flow_of(store, "race")
    flow.report("Ann", "start", {"card": "Old Earth"})
    flow.report("Bob", "start", {"card": "Alpha Centauri"})
    flow.report("Ann", "select", {"action": "Settle"})
    flow.report("Bob", "select", {"action": "Settle"})  # both chose: digest §3, Settle runs
    cam = CameraFlow(flow, deck=deck, calibration=calibrate(scene.image, scene.layout),
                     zones=whole_frame_for("Ann", scene.image, "Bob"))
    read_twice(cam, scene.image)
    view = cam.view()
    # Old Earth is already in Ann's tableau: only Gambling World is asked about
    assert [q["text"] for q in view["questions"]] == ["Ann placed Gambling World?"]
    assert view["covers"] == ["card", "start"]
    event = cam.confirm(view["questions"][0]["id"])
    assert (event.kind, event.player, event.origin, event.payload) == (
        "card_placed", "Ann", "camera", {"player": "Ann", "card": "Gambling World"})
    assert flow.view()["players"][0]["tableau"] == 2


def ann_settling_watched(store):
    """A Race for the Galaxy game where Ann and Bob both chose Settle, watched by a camera whose whole picture is
    Ann's zone: ``(flow, cam, look)``, ``look(scene)`` the questions a read of ``scene`` leaves."""
    deck = deck_for("race", ["old_earth", "gambling_world", "contact_specialist", "space_marines"])
    flow = flow_of(store, "race")
    flow.report("Ann", "start", {"card": "Old Earth"})
    flow.report("Bob", "start", {"card": "Alpha Centauri"})
    flow.report("Ann", "select", {"action": "Settle"})
    flow.report("Bob", "select", {"action": "Settle"})
    cam = CameraFlow(flow, deck=deck)

    def look(scene) -> list[str]:  # the camera over this table, Ann's zone the whole picture
        cam.calibration = calibrate(scene.image, scene.layout)
        cam.zones = whole_frame_for("Ann", scene.image, "Bob")
        read_twice(cam, scene.image)
        return [q["text"] for q in cam.view()["questions"]]

    return flow, cam, look


def test_a_dismissed_misread_is_not_asked_again_while_the_camera_keeps_seeing_it(store):
    """Ann's Contact Specialist is read as Gambling World: she dismisses "Ann placed Gambling World?" and reports
    her card from her phone (Race for the Galaxy, Settle: one card placed). Every read after that, of the same
    table or once she has placed another card, asked "Ann placed Gambling World?" again; it is now asked again only
    after a read that no longer sees it (the card was taken away, then laid again)."""
    misread = make_scene("race", ["old_earth", "gambling_world"], seed=3, n_cards=2, effects=False)
    flow, cam, look = ann_settling_watched(store)

    assert look(misread) == ["Ann placed Gambling World?"]
    cam.dismiss(cam.view()["questions"][0]["id"], origin="phone")
    flow.report("Ann", "card", {"card": "Contact Specialist"})  # her correction, from her phone
    assert look(misread) == []  # the same table read again (Read now)
    flow.next_phase()  # Settle done: the round ends; Develop chosen and run in the next (digest §3)
    flow.report("Ann", "select", {"action": "Develop"})
    flow.report("Bob", "select", {"action": "Develop"})
    flow.next_phase()
    more = make_scene("race", ["old_earth", "gambling_world", "space_marines"], seed=5, n_cards=3, effects=False)
    assert sorted(c.id for c in more.cards) == ["gambling_world", "old_earth", "space_marines"]
    assert look(more) == ["Ann placed Space Marines?"]  # her next card only
    alone = make_scene("race", ["old_earth"], seed=4, n_cards=1, effects=False)
    cam.dismiss(cam.view()["questions"][0]["id"])
    assert look(alone) == []  # Gambling World taken away ...
    assert look(misread) == ["Ann placed Gambling World?"]  # ... and laid again: asked


def test_a_dismissed_card_taken_away_and_laid_for_real_later_is_asked(store):
    """A card the camera saw for a moment (shown to the table, then taken back) is dismissed; the reads then show
    just the rules' tableau again. When the player later really places it (Race for the Galaxy, Settle: one card
    placed), it is asked about."""
    shown = make_scene("race", ["old_earth", "gambling_world"], seed=3, n_cards=2, effects=False)
    alone = make_scene("race", ["old_earth"], seed=4, n_cards=1, effects=False)
    flow, cam, look = ann_settling_watched(store)

    assert look(shown) == ["Ann placed Gambling World?"]
    cam.dismiss(cam.view()["questions"][0]["id"])
    assert look(alone) == []  # taken back: the table is Ann's tableau as recorded (Bob's zone lies off the picture)
    assert look(shown) == ["Ann placed Gambling World?"]  # placed for real


def test_race_start_world_seen_in_setup_is_asked_as_start_world(store):
    deck = deck_for("race", ["old_earth", "gambling_world", "contact_specialist"])
    scene = make_scene("race", ["old_earth"], seed=4, n_cards=1, effects=False)
    flow = flow_of(store, "race")
    cam = CameraFlow(flow, deck=deck, calibration=calibrate(scene.image, scene.layout),
                     zones=whole_frame_for("Bob", scene.image, "Ann"))
    read_twice(cam, scene.image)
    [q] = cam.view()["questions"]
    assert (q["text"], q["kind"], q["payload"]) == ("Bob's start world is Old Earth?", "start_world",
                                                   {"player": "Bob", "card": "Old Earth"})


def setup_roll(flow: GameFlow) -> None:
    from rules.roll.data import catalogue

    label = lambda n: " / ".join(catalogue().faction(n).names)  # noqa: E731
    flow.report("Ann", "setup", {"faction": label(1), "home_world": "Old Earth",
                                 "development": "Advanced Logistics", "world": "Spice World"})
    flow.report("Bob", "setup", {"faction": label(2), "home_world": "Alpha Centauri",
                                 "development": "Alien Research Team", "world": "Information Hub"})


def test_roll_tile_seen_is_asked_as_tile_built(store):
    # Ann's tableau after setup (p.2): faction tile 1 (Space Piracy / Hidden Fortress, one tile showing
    # one side) and Old Earth; Spice World waits in her construction zone. The camera sees the faction
    # tile's Space Piracy side, Old Earth and Spice World: only Spice World is new.
    deck = deck_for("roll", ["old_earth", "space_piracy", "spice_world", "advanced_logistics"])
    scene = make_scene("roll", ["old_earth", "space_piracy", "spice_world"], seed=5, n_cards=3, effects=False)
    assert sorted(c.id for c in scene.cards) == ["old_earth", "space_piracy", "spice_world"]
    flow = flow_of(store, "roll")
    setup_roll(flow)
    cam = CameraFlow(flow, deck=deck, calibration=calibrate(scene.image, scene.layout),
                     zones=whole_frame_for("Ann", scene.image, "Bob"))
    read_twice(cam, scene.image)
    assert cam.view()["questions"] == []  # setup: the starting tiles come from the Setup form
    flow.report("Ann", "select", {"phase": "settle"})
    flow.report("Bob", "select", {"phase": "settle"})
    flow.next_phase()  # reveal
    flow.next_phase()  # III Settle
    read_twice(cam, scene.image)
    [q] = cam.view()["questions"]
    assert (q["text"], q["kind"], q["payload"]) == ("Ann built Spice World?", "tile_built", {"tile": "Spice World"})
    notes = cam.view()["notes"]
    assert "Ann" not in notes  # the faction tile's hidden side is not "missing"
    # Bob's zone lies outside the frame: his tiles are recorded but not seen (said, never removed)
    assert "Alpha Centauri is recorded for Bob but not seen" in notes["Bob"]
    tiles = flow.engine_view()["players"][0]["tiles"]
    cam.confirm(q["id"])
    assert flow.engine_view()["players"][0]["tiles"] == tiles + 1


# -- Roll for the Galaxy: the dice on the phase strips ------------------------------------------------


class FakeDiceReader:
    """Stands in for ``vision.roll_dice.RollDiceReader``: the given dice at the given boxes (px)."""

    def __init__(self, dice):
        from vision.roll_dice import RollDiceRead, RollDieObservation

        self.result = RollDiceRead(640, 240, tuple(RollDieObservation(c, f, box, 0.95) for c, f, box in dice), {})
        self.calls = 0

    def read(self, image):
        self.calls += 1
        return self.result


def halves(w=640, h=240) -> Zones:
    return Zones({"Ann": np.array([[0, 0], [w / 2, 0], [w / 2, h], [0, h]], float),
                  "Bob": np.array([[w / 2, 0], [w, 0], [w, h], [w / 2, h]], float)}, units="px")


def test_roll_dice_propose_the_phases_and_a_correction_is_kept_with_the_picture(store, tmp_path):
    # Ann's strip (left half): Develop x3, Ship, Wild -> most workers on Develop -> "Ann selected Develop?".
    # Bob's strip (right half): Explore x2, Settle x2 -> a tie goes to the earlier phase (I Explore);
    # the players correct it to Settle with one tap.
    box = lambda x: (x, 100, 30, 30)  # noqa: E731
    reader = FakeDiceReader([("white", "develop", box(20)), ("white", "develop", box(60)), ("red", "develop", box(100)),
                             ("blue", "ship", box(140)), ("white", "wild", box(180)),
                             ("white", "explore", box(340)), ("white", "explore", box(380)),
                             ("green", "settle", box(420)), ("green", "settle", box(460))])
    flow = flow_of(store, "roll")
    setup_roll(flow)
    cam = CameraFlow(flow, dice_reader=reader, zones=halves(), image_dir=tmp_path / "reads")
    image = np.full((240, 640, 3), 70, np.uint8)
    read_twice(cam, image)
    assert reader.calls == 1  # one dice read per still table
    q_ann, q_bob = cam.view()["questions"]
    assert q_ann["text"] == "Ann selected Develop? (dice: Develop 3, Ship 1, Wild 1)"
    assert q_bob["text"] == "Bob selected Explore? (dice: Explore 2, Settle 2)"
    assert q_bob["choices"] == ["explore", "develop", "settle", "produce", "ship"] and q_bob["proposed"] == "explore"
    ann = cam.confirm(q_ann["id"])
    assert (ann.kind, ann.player, ann.origin, ann.payload["phase"]) == ("phase_selected", "Ann", "camera", "develop")
    assert ann.payload["read"]["corrected"] is False
    bob = cam.confirm(q_bob["id"], choice="settle")
    assert bob.payload["phase"] == "settle"
    read = bob.payload["read"]
    assert (read["proposed"], read["corrected"]) == ("explore", True)
    assert read["workers"] == {"explore": 2, "develop": 0, "settle": 2, "produce": 0, "ship": 0}
    from pathlib import Path

    assert Path(read["image"]).is_file() and Path(read["image"]).parent.parent == tmp_path / "reads"
    assert len(read["dice"]) == 4 and read["dice"][0]["face"] == "explore"
    # never silently: the engine holds the selections only after the answers, and Reveal may now run
    assert [p["selected"] for p in flow.engine_view()["players"]] == ["develop", "settle"]
    assert flow.view()["next"]["enabled"] is True
    # an answered question cannot be answered twice
    with pytest.raises(ValueError, match="already answered"):
        cam.confirm(q_bob["id"], choice="settle")


def test_roll_dice_are_not_read_once_the_phases_are_revealed(store):
    reader = FakeDiceReader([("white", "develop", (20, 100, 30, 30))])
    flow = flow_of(store, "roll")
    setup_roll(flow)
    flow.report("Ann", "select", {"phase": "develop"})
    flow.report("Bob", "select", {"phase": "develop"})
    flow.next_phase()  # Reveal (p.4): the phases are known
    cam = CameraFlow(flow, dice_reader=reader, zones=halves())
    read_twice(cam, np.full((240, 640, 3), 70, np.uint8))
    assert reader.calls == 0 and cam.view()["questions"] == []


def test_touchscreen_offers_the_other_phases_as_one_tap_corrections(store, output_dir):
    reader = FakeDiceReader([("white", "explore", (340, 100, 30, 30)), ("green", "settle", (420, 100, 30, 30)),
                             ("white", "explore", (380, 100, 30, 30))])
    flow = flow_of(store, "roll")
    setup_roll(flow)
    cam = CameraFlow(flow, dice_reader=reader, zones=halves(), reread_s=0.0)
    loop, hub, screen = run_on_touchscreen(flow, np.full((240, 640, 3), 70, np.uint8), cam)
    screen.save_png(output_dir / "camera_roll_phase_question.png")
    [q] = hub.snapshot().view["camera"]["questions"]
    assert q["text"] == "Bob selected Explore? (dice: Explore 2, Settle 1)"
    # Confirm (Explore), one button per other phase, Dismiss
    assert {"camera_confirm", "camera_confirm:develop", "camera_confirm:settle", "camera_confirm:produce",
            "camera_confirm:ship", "camera_dismiss"} <= set(screen.buttons)
    assert "camera_confirm:explore" not in screen.buttons
    assert all(min(b.rect.size) >= 48 for b in screen.buttons.values())
    tap(screen, hub, "camera_confirm:settle")
    loop.take_actions()
    last = flow.session.events()[-1]
    assert (last.kind, last.player, last.payload["phase"], last.payload["read"]["corrected"]) == (
        "phase_selected", "Bob", "settle", True)


# -- Roll for the Galaxy: the dice count at the end (issue 6 'Wired into the game', p.8 Victory) -----------


def roll_to_the_end(flow: GameFlow) -> None:
    """Setup, one round in which Ann builds Galactic Exchange and takes the whole VP pool (24 VP for two
    players, p.2 Setup), Manage Empire, then the end (p.8 End check: the pool is empty)."""
    setup_roll(flow)
    flow.report("Ann", "select", {"phase": "develop"})
    flow.report("Bob", "select", {"phase": "develop"})
    flow.next_phase()  # Reveal
    flow.next_phase()  # II Develop
    flow.report("Ann", "tile", {"tile": "Galactic Exchange"})
    flow.report("Ann", "vp", {"vp": 24})
    flow.next_phase()  # Manage Empire
    flow.next_phase()  # end of game
    assert flow.over()


class SwitchingDiceReader(FakeDiceReader):
    """The dice of each pass in turn (the table changes between the passes)."""

    def __init__(self, *passes):
        self.passes = [FakeDiceReader(dice).result for dice in passes]
        self.calls = 0

    def read(self, image):
        self.calls += 1
        return self.passes[min(self.calls, len(self.passes)) - 1]


def test_roll_dice_are_counted_by_colour_at_the_end_for_the_bonuses_and_the_tiebreak(store, tmp_path):
    # Pass 1, cups closed: Ann's zone (left) shows her citizenry and construction-zone dice: white x2, red,
    # purple, blue; Bob's: white x2. Pass 2, cups emptied: Ann's zone adds white x3, red, purple; Bob's
    # adds white x3 and a die of unknown colour.
    box = lambda x, y=40: (x, y, 30, 30)  # noqa: E731
    first = [("white", "explore", box(20)), ("white", "ship", box(60)), ("red", "develop", box(100)),
             ("purple", "ship", box(140)), ("blue", "produce", box(180)),
             ("white", "explore", box(340)), ("white", "settle", box(380))]
    cups = [("white", "explore", box(20, 140)), ("white", "develop", box(60, 140)), ("white", "ship", box(100, 140)),
            ("red", "settle", box(140, 140)), ("purple", "ship", box(180, 140)),
            ("white", "explore", box(340, 140)), ("white", "explore", box(380, 140)),
            ("white", "explore", box(420, 140)), (None, None, box(460, 140))]
    reader = SwitchingDiceReader(first, first + cups)
    flow = flow_of(store, "roll")
    roll_to_the_end(flow)
    before = {p["name"]: p for p in flow.result()["players"]}
    # p.2 Setup: Ann owns white, red (Hidden Fortress) and purple (Old Earth) dice: 3 colours
    assert before["Ann"]["breakdown"]["Galactic Exchange bonus"] == 3
    cam = CameraFlow(flow, dice_reader=reader, zones=halves(), image_dir=tmp_path / "reads")
    assert cam.view()["count"] == {"next": "citizenry", "prompt": FLOWS["roll"].camera.count_prompt("citizenry")}
    image = np.full((240, 640, 3), 70, np.uint8)
    read_twice(cam, image)
    assert reader.calls == 1  # one count per still table
    q_ann, q_bob = cam.view()["questions"]
    assert q_ann["text"] == "Ann: 2 white, 1 red, 1 purple, 1 blue in citizenry and construction zone?"
    # Bob's Alpha Centauri holds a brown good from setup (p.2): a good is not counted here
    assert q_bob["text"] == "Bob: 2 white in citizenry and construction zone (goods 1 brown not counted)?"
    assert cam.view()["count"]["next"] == "cup" and "empty your cup" in cam.message
    # no deck: no cards said
    assert str(cam.message).startswith(f"camera read {cam.confirm_reads}: dice counted 7 (citizenry);")
    ann = cam.confirm(q_ann["id"])
    assert (ann.kind, ann.player, ann.origin) == ("dice_counted", "Ann", "camera")
    assert ann.payload["citizenry"] == {"white": 2, "red": 1, "purple": 1, "blue": 1}
    assert ann.payload["read"]["place"] == "citizenry" and len(ann.payload["read"]["dice"]) == 5
    cam.confirm(q_bob["id"])
    # the players empty their cups: the table moves, then is still again
    read_twice(cam, image)
    q_ann, q_bob = cam.view()["questions"]
    assert q_ann["text"] == "Ann: 3 white, 1 red, 1 purple in the cup?"
    assert q_bob["text"] == "Bob: 3 white in the cup?; 1 die of unknown colour left out"
    assert cam.view()["count"]["next"] is None
    assert cam.confirm(q_ann["id"]).payload["cup"] == {"white": 3, "red": 1, "purple": 1}
    cam.confirm(q_bob["id"])
    after = {p["name"]: p for p in flow.result()["players"]}
    # Ann owns white, red, purple, blue: 4 colours (p.8; a purple die is only purple)
    assert after["Ann"]["breakdown"]["Galactic Exchange bonus"] == 4
    credits = {p["name"]: p["credits"] for p in flow.engine_view()["players"]}
    # tie-break: dice in the cup + credits (the citizenry is not the cup)
    assert after["Ann"]["tiebreak"] == [5 + credits["Ann"]]
    assert after["Bob"]["tiebreak"] == [3 + credits["Bob"]]
    # "Count dice" again once done starts over with the first pass
    cam.count_again()
    assert cam.view()["count"]["next"] == "citizenry"


def test_the_dice_count_waits_for_the_end_and_takes_goods_off(store):
    reader = FakeDiceReader([("white", "explore", (20, 40, 30, 30)), ("green", "settle", (60, 40, 30, 30))])
    flow = flow_of(store, "roll")
    setup_roll(flow)
    cam = CameraFlow(flow, dice_reader=reader, zones=halves())
    assert cam.view()["count"] is None  # not over: the dice are phase-strip proposals, not a count
    from companion.flows.roll import ROLL_CAMERA

    view = flow.engine_view()
    view["stage"] = "over"
    view["players"][0]["goods"] = {"Old Earth": ["green"]}
    seen = {"Ann": [d.to_json() for d in reader.result.dice]}
    [q] = ROLL_CAMERA.count_proposals(seen, view, "citizenry", {}, None)
    assert q.text == "Ann: 1 white in citizenry and construction zone (goods 1 green not counted)?"
    assert q.payload["citizenry"] == {"white": 1}


def test_touchscreen_asks_the_dice_count_then_shows_the_scores_with_count_dice(store, output_dir):
    reader = FakeDiceReader([("white", "explore", (20, 40, 30, 30)), ("red", "develop", (60, 40, 30, 30)),
                             ("purple", "ship", (100, 40, 30, 30))])
    flow = flow_of(store, "roll")
    roll_to_the_end(flow)
    cam = CameraFlow(flow, dice_reader=reader, zones=halves(), reread_s=0.0)
    loop, hub, screen = run_on_touchscreen(flow, np.full((240, 640, 3), 70, np.uint8), cam)
    screen.save_png(output_dir / "camera_roll_count_question.png")
    [q] = hub.snapshot().view["camera"]["questions"]
    assert q["text"] == "Ann: 1 white, 1 red, 1 purple in citizenry and construction zone?"
    assert {"camera_confirm", "camera_dismiss"} <= set(screen.buttons)
    tap(screen, hub, "camera_confirm")
    loop.take_actions()
    loop.publish()
    assert flow.session.events()[-1].kind == "dice_counted"
    # no question waits: the scores, with "Count dice" for the next pass (the cups)
    assert "count_dice" in screen.buttons and screen.buttons["count_dice"].action == "read_now"
    screen.save_png(output_dir / "camera_roll_count_scores.png")
