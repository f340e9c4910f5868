"""The camera part of a game reads what changed (issue 15): one read per still table, cards kept where nothing
changed, the mirror decided once and kept with the calibration (issue 16), what the readers tell the players in the
view, and a Roll read with more dice of a colour than the game has said in its questions.

Scenes come from ``vision.synth_table.make_scene`` with exact labels; the deck is enrolled from the generator's
reference images.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.calibration import deck_mirror, keep_mirror, save_calibration
from companion.camera import CameraFlow
from companion.cli import main
from companion.flows.roll import too_many_dice
from device import Frame
from tests.camera_tables import whole_frame_for
from tests.test_camera_among import among_deck, among_flow  # noqa: F401 (fixtures)
from vision.cards import MIRROR_NOTE
from vision.synth_table import make_scene
from vision.table import calibrate

SHARED = Path(os.environ.get("TABLETOP_SHARED", Path(__file__).resolve().parents[1].parent / "shared"))
SET_DIR = SHARED / "datasets" / "set_cards_tableau"


@pytest.fixture(scope="module")
def scene():
    return make_scene("among", ["main_reactor", "customs", "power_reactor", "embassy_offices"], seed=3, n_cards=4,
                      effects=False)


def whole_frame(image: np.ndarray):
    """Ann's zone is the whole frame (px); Bob's lies outside it."""
    return whole_frame_for("Ann", image, "Bob")


def read(cam: CameraFlow, image: np.ndarray, k: int, boxes=None, asked: bool = False):
    cam.schedule(float(k), boxes, asked=asked)
    assert cam.due(float(k))
    out = cam.read(Frame(image=image, timestamp=k / 10.0, index=k, source="synthetic"), float(k))
    assert not cam.due(float(k) + 99.0), "one read per still table"
    return out


def test_cards_where_nothing_changed_keep_their_identity_and_a_read_asked_for_says_same_as_before(
        store, among_deck, scene):  # noqa: F811 - among_deck: the fixture imported above
    cal = calibrate(scene.image, scene.layout)
    cam = CameraFlow(among_flow(store), deck=among_deck, calibration=cal, zones=whole_frame(scene.image), mirror=False)
    read(cam, scene.image, 0)
    first = cam._seen["cards:main_reactor"]
    assert len(first.cards) == 4
    questions = [q["text"] for q in cam.view()["questions"]]
    assert questions, "the cards built are asked about"
    # the table stayed as it was: nothing read again, every card kept as it was seen
    read(cam, scene.image, 1, boxes=[])
    again = cam._seen["cards:main_reactor"]
    assert again.timings_ms == {"unchanged": 0.0}
    assert all(a is b for a, b in zip(again.cards, first.cards, strict=True))
    # one card's window read again: the others are the same objects
    c = scene.cards[-1].corners_px
    x0, y0 = c.min(axis=0)
    x1, y1 = c.max(axis=0)
    read(cam, scene.image, 2, boxes=[(int(x0), int(y0), int(x1 - x0), int(y1 - y0))])
    third = cam._seen["cards:main_reactor"]
    assert sorted(o.id for o in third.cards) == sorted(o.id for o in first.cards)
    kept = [o for o in third.cards if any(o.center_px == p.center_px and o.id == p.id for p in first.cards)]
    assert len(kept) >= 2, "the cards away from the change are kept as they were read, not read again"
    # a player asks to read it now: the same table says so
    read(cam, scene.image, 3, asked=True)
    assert cam.view()["message"].startswith("same as before: cards 4")
    assert [q["text"] for q in cam.view()["questions"]] == questions


@pytest.fixture(scope="module")
def set_board():
    """A real webcam photo of a SET board (mirror images: a selfie webcam) and the deck enrolled from the labelled
    crops of another camera."""
    if not SET_DIR.is_dir():
        pytest.skip(f"SET photos not found at {SET_DIR} (set TABLETOP_SHARED)")
    from vision.deck_enroll import build_deck

    return cv2.imread(str(SET_DIR / "boards" / "webcam_20170604_134234.png")), build_deck(
        SET_DIR / "card_crops_labelled_sample")


@pytest.mark.shared
def test_the_mirror_is_decided_on_the_first_read_and_kept(store, set_board):
    board, deck = set_board
    kept: list[bool] = []
    cam = CameraFlow(among_flow(store), deck=deck, zones=whole_frame(board), on_mirror=kept.append)
    assert cam.mirror is None
    read(cam, board, 0)
    assert kept == [True] and cam.mirror is True
    seen = cam._seen["cards:main_reactor"]
    assert sum(c.id is not None for c in seen.cards) >= 10, "read the mirrored way, the cards are the deck's"
    assert cam.view()["reader_notes"] == []
    read(cam, board, 1)
    assert kept == [True], "decided once"


@pytest.mark.shared
def test_a_mirror_set_the_wrong_way_is_said_to_the_players(store, set_board):
    board, deck = set_board
    cam = CameraFlow(among_flow(store), deck=deck, zones=whole_frame(board), mirror=False)
    read(cam, board, 0)
    assert cam.view()["reader_notes"] == [MIRROR_NOTE]


def test_the_mirror_is_kept_with_the_calibration(tmp_path, scene):
    path = tmp_path / "calibration.json"
    save_calibration(calibrate(scene.image, scene.layout), path, source="test", mirror={"set": False})
    assert deck_mirror(path, "among") is None
    keep_mirror(path, "among", True)
    assert deck_mirror(path, "among") is True and deck_mirror(path, "set") is False
    assert json.loads(path.read_text())["table"]["frame_size"] == [1280, 720]
    assert deck_mirror(tmp_path / "missing.json", "among") is None


def test_calibrate_with_a_deck_decides_its_mirror_and_keeps_the_others(
        tmp_path, among_deck, scene, capsys, monkeypatch):  # noqa: F811 - among_deck: the fixture imported above
    deck = tmp_path / "among.npz"
    among_deck.save(deck)
    photo = tmp_path / "table.png"
    cv2.imwrite(str(photo), scene.image)
    out = tmp_path / "c.json"
    corners = f"{scene.layout.width_mm:.3f}x{scene.layout.height_mm:.3f}:40"
    args = ["calibrate", "--source", str(photo), "--corners", corners, "--out", str(out), "--deck", str(deck)]
    # the stand-in cards read alike both ways: not decided, said, left to the game's first read
    assert main(args) == 0
    assert "mirror for deck among not decided" in capsys.readouterr().out
    assert deck_mirror(out, "among") is None
    # decided (the decision itself is vision.cards.decide_mirror's, tested on real photos): kept in the file
    import vision.cards
    from vision.cards import MirrorCheck

    keep_mirror(out, "set", False)
    monkeypatch.setattr(vision.cards, "decide_mirror", lambda *a, **k: MirrorCheck(True, 0.9, 0.4, 6))
    assert main(args) == 0
    assert "this camera mirrors the cards of deck among (decided on 6 cards)" in capsys.readouterr().out
    assert deck_mirror(out, "among") is True and deck_mirror(out, "set") is False, "calibrating again keeps the others"
    assert main(args[:-1] + [str(tmp_path / "none.npz")]) == 3


def test_a_roll_read_with_more_dice_of_a_colour_than_the_game_has_is_questioned():
    purple = [{"kind": "roll", "colour": "purple", "face": "explore", "box": [10 * k, 0, 8, 8], "confidence": 0.9}
              for k in range(12)]
    said = too_many_dice({"Ann": purple[:6], "Bob": purple[6:]})
    assert "12 purple dice (the game has 9)" in said and "not dice" in said
    assert too_many_dice({"Ann": purple[:5]}) == ""


def test_a_mirror_that_cannot_be_decided_is_tried_on_three_reads_only(
        store, among_deck, scene, monkeypatch):  # noqa: F811 - among_deck: the fixture imported above
    import vision.cards
    from companion.camera.flow import MIRROR_TRIES
    from vision.cards import MirrorCheck

    tries = []
    monkeypatch.setattr(vision.cards, "decide_mirror",
                        lambda *a, **k: tries.append(1) or MirrorCheck(None, 1.0, 1.0, 2))
    cam = CameraFlow(among_flow(store), deck=among_deck, zones=whole_frame(scene.image))
    for k in range(MIRROR_TRIES + 2):
        read(cam, scene.image, k, boxes=[])
    assert len(tries) == MIRROR_TRIES and cam.mirror is None


@pytest.mark.parametrize(("lang", "said"), [("en", "camera read 1: cards 1"), ("el", "ανάγνωση κάμερας 1: κάρτες 1"),
                                            ("pl", "odczyt kamery 1: karty: 1"), ("hu", "1. kameraolvasás: 1 kártya")])
def test_a_read_of_one_card_says_its_count_in_each_language(store, among_deck, lang, said):  # noqa: F811
    """A station of the Main Reactor alone (Among the Stars rulebook 3 Setup: each player starts with it): the read
    says one card as each language counts it; before, English said "1 cards" and Greek "1 κάρτες"."""
    from companion import i18n

    alone = make_scene("among", ["main_reactor"], seed=0, n_cards=1, effects=False)
    cam = CameraFlow(among_flow(store), deck=among_deck, calibration=calibrate(alone.image, alone.layout),
                     zones=whole_frame(alone.image), mirror=False)
    read(cam, alone.image, 0)
    assert i18n.localize(cam.view()["message"], lang) == said


@pytest.mark.parametrize(("game", "lang", "said"), [
    ("race", "en", "holds no card of Race for the Galaxy (its cards: customs, embassy_offices, fighter_launch_bay, …)"),
    ("roll", "hu", "egyetlen kártya sem tartozik ehhez a játékhoz: Roll for the Galaxy"),
])
def test_a_deck_of_another_game_is_refused_at_the_start_naming_the_game(tmp_path, among_deck, game, lang, said):  # noqa: F811
    """An Among the Stars deck given to a Race or Roll game: none of its cards is the game's, so the camera would read
    at every still table and ask nothing; the start refuses it (exit 3, as a deck of the other kind), naming the deck,
    the game and its cards, in the box's language. Before, the box ran and every read said each card was not one of
    the game's."""
    import subprocess
    import sys

    among_deck.save(tmp_path / "among.npz")
    photos = tmp_path / "photos"
    photos.mkdir()
    cv2.imwrite(str(photos / "table.png"), np.full((240, 320, 3), 90, np.uint8))
    done = subprocess.run([sys.executable, "-m", "companion.cli", "--language", lang, "run", "--game", game,
                           "--players", "Ann,Bob", "--deck", str(tmp_path / "among.npz"), "--source", str(photos),
                           "--no-web", "--no-screen", "--no-gpio", "--db", str(tmp_path / "s.sqlite3"),
                           "--max-frames", "3"], capture_output=True, text=True, timeout=240)
    assert done.returncode == 3, done.stderr
    assert said in done.stderr and str(tmp_path / "among.npz") in done.stderr


def test_a_newer_read_of_the_dice_replaces_the_waiting_question_so_a_selection_is_recorded_once(store, tmp_path):
    """Roll for the Galaxy: each player selects one phase a round with the die they put on it (rulebook p.4 'Roll and
    assign'). Ann's dice are read (Develop 2: "Ann selected Develop?"), then re-rolled before anyone answers and read
    again (Settle 2): one question waits for Ann, the newer one; an answer to the older is told it was replaced and
    records nothing; confirming the newer records one selection. Before, both waited and confirming both recorded
    Ann's selection twice (found with a replayed table whose dice were rolled twice)."""
    from companion.camera.answers import NotWaiting
    from tests.camera_tables import read_twice
    from tests.test_camera_flow import SwitchingDiceReader, flow_of, halves, setup_roll

    box = lambda x: (x, 100, 30, 30)  # noqa: E731 - Ann's half of the frame (halves(): x below 320)
    reader = SwitchingDiceReader([("white", "develop", box(20)), ("white", "develop", box(60))],
                                 [("white", "settle", box(20)), ("white", "settle", box(60))])
    flow = flow_of(store, "roll")
    setup_roll(flow)
    cam = CameraFlow(flow, dice_reader=reader, zones=halves(), image_dir=tmp_path / "reads")
    image = np.full((240, 640, 3), 70, np.uint8)
    read_twice(cam, image)
    [old] = cam.view()["questions"]
    assert old["text"] == "Ann selected Develop? (dice: Develop 2)"
    read_twice(cam, image)  # the dice rolled again and came to rest: a new still table
    assert reader.calls == 2
    [new] = cam.view()["questions"]
    assert new["text"] == "Ann selected Settle? (dice: Settle 2)" and new["id"] != old["id"]
    with pytest.raises(NotWaiting, match="replaced by the camera's newer read of the dice"):
        cam.confirm(old["id"])
    event = cam.confirm(new["id"])
    assert (event.kind, event.player, event.payload["phase"]) == ("phase_selected", "Ann", "settle")
    assert [e.kind for e in flow.session.events()].count("phase_selected") == 1
    assert cam.view()["questions"] == []


def test_read_now_on_dice_that_did_not_move_keeps_the_waiting_question_and_its_number(store, tmp_path):
    """Roll for the Galaxy: each player selects one phase a round with the die they put on it (rulebook p.4 'Roll and
    assign'). Ann's Develop 2 and Bob's Explore 2, Settle 1 are read: "Ann selected Develop? (dice: Develop 2)" and
    "Bob selected Explore? (dice: Explore 2, Settle 1)" (most workers: Explore). A player taps "Read now" on the same
    dice: the new read has its own picture, and as a camera measures it again Ann's first die lies 1 px further right
    and is read at 0.93 instead of 0.95. Both questions wait as they were, with the same numbers, so a phone answering
    meanwhile records Ann's Develop with the first read's picture; before, both were replaced by the same words with
    new numbers and that answer was told it was replaced. Bob then re-rolls (Settle 2, Explore 1: "Bob selected
    Settle?"): his question is replaced, Ann's still waits under its number."""
    from companion.camera.answers import NotWaiting
    from tests.test_camera_flow import flow_of, halves, setup_roll
    from vision.roll_dice import RollDiceRead, RollDieObservation

    class Reads:
        """The given reads in turn, the last one again after them."""

        def __init__(self, *reads):
            self.reads = [RollDiceRead(640, 240, tuple(RollDieObservation(c, f, (x, 100, 30, 30), conf)
                                                       for c, f, x, conf in dice), {}) for dice in reads]
            self.calls = 0

        def read(self, image):
            self.calls += 1
            return self.reads[min(self.calls, len(self.reads)) - 1]

    bob = [("white", "explore", 340, 0.95), ("white", "explore", 380, 0.95), ("green", "settle", 420, 0.95)]
    rerolled = [("white", "settle", 340, 0.95), ("white", "explore", 380, 0.95), ("green", "settle", 420, 0.95)]
    reader = Reads([("white", "develop", 20, 0.95), ("white", "develop", 60, 0.95), *bob],
                   [("white", "develop", 21, 0.93), ("white", "develop", 60, 0.95), *bob],
                   [("white", "develop", 21, 0.93), ("white", "develop", 60, 0.95), *rerolled])
    flow = flow_of(store, "roll")
    setup_roll(flow)
    cam = CameraFlow(flow, dice_reader=reader, zones=halves(), image_dir=tmp_path / "reads")
    image = np.full((240, 640, 3), 70, np.uint8)
    read(cam, image, 1)
    ann, bob_q = cam.view()["questions"]
    assert (ann["text"], bob_q["text"]) == ("Ann selected Develop? (dice: Develop 2)",
                                            "Bob selected Explore? (dice: Explore 2, Settle 1)")
    first_picture = ann["payload"]["read"]["image"]
    read(cam, image, 2, asked=True)  # "Read now": the same dice read again
    assert reader.calls == 2
    assert cam.view()["questions"] == [ann, bob_q]  # the same numbers, words and read (its picture, its boxes)
    read(cam, image, 3)  # Bob re-rolled
    assert reader.calls == 3
    kept, new = cam.view()["questions"]
    assert kept == ann
    assert new["text"] == "Bob selected Settle? (dice: Explore 1, Settle 2)" and new["id"] != bob_q["id"]
    with pytest.raises(NotWaiting, match="replaced by the camera's newer read of the dice"):
        cam.confirm(bob_q["id"])
    event = cam.confirm(ann["id"])  # the phone that showed Ann's question since the first read
    assert (event.kind, event.player, event.payload["phase"]) == ("phase_selected", "Ann", "develop")
    assert event.payload["read"]["image"] == first_picture and Path(first_picture).is_file()
    assert [e.player for e in flow.session.events() if e.kind == "phase_selected"] == ["Ann"]
