"""Eclipse's camera part (companion/flows/eclipse_camera.py, companion/camera/hexmap.py): the map watcher over
reads of hexes, each newly explored hex asked about with the engine's misplay and fix, the combat dice read as the
aimed volley's roll, and the box's command line for hex decks and Eclipse dice profiles.

The maps are rendered by the project's synthetic table generator (``vision.synth_table.make_hex_scene`` with a given
map) and read by the hex reader with a deck enrolled from stand-in scans; the expected misplays are worked by hand
from ``rules/data/eclipse/hexes.json`` in the comments.
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from companion.camera import CameraFlow
from companion.camera.hexmap import MapWatcher, PlacedTile, SeenHex
from companion.commands import InputError
from companion.commands.files import load_dice_reader
from companion.flow import GameFlow
from companion.flows import FLOWS
from companion.flows.eclipse_camera import ECLIPSE_DICE
from companion.player_names import parse_players
from device import Frame
from tests.camera_tables import run_on_touchscreen
from vision.hexes import build_hex_deck_from_images
from vision.profiles import DiceProfile
from vision.roll_dice import RollDieObservation
from vision.synth_table import hex_reference_images, make_hex_scene
from vision.table import calibrate

ECLIPSE = FLOWS["eclipse"]
SECTORS = ["001", "101", "103", "201", "204", "205", "221", "232", "301"]
"""The Galactic Center, the tiles the maps use and a few more the deck must tell them from."""
GC, HOME = ("001", (0, 0), 0), ("221", (0, -2), 0)


@pytest.fixture(scope="module")
def hex_deck():
    return build_hex_deck_from_images(hex_reference_images(SECTORS), kind="scan")


def eclipse(store) -> GameFlow:
    settings = ECLIPSE.settings(parse_players("Ann,Bob", ECLIPSE.info.colours),
                                {"species": ["Terran Directorate", "Orion Hegemony"]})
    return GameFlow(store.start("eclipse", settings), ECLIPSE)


def frame_of(image: np.ndarray, index: int = 0) -> Frame:
    return Frame(image=image, timestamp=index / 10.0, index=index, source="synthetic")


def read_still(cam: CameraFlow, image: np.ndarray, t0: float = 0.0) -> list:
    """The table became still: the ``confirm_reads`` reads of it."""
    cam.schedule(t0)
    recorded = []
    for k in range(cam.confirm_reads):
        assert cam.due(t0 + k)
        recorded += cam.read(frame_of(image, k), t0 + k)
    return recorded


def scene(*tiles, seed: int = 8):
    """A clean rendered table with exactly ``tiles``. (The reader is not what is tested here: with seeds 7 and 9 it
    turns the lone Galactic Center of the two-hex setup map by 30 degrees, the lattice's ambiguity; the watcher
    then holds that hex unsure and asks nothing about it.)"""
    sc = make_hex_scene(SECTORS, seed=seed, effects=False, tiles=list(tiles))
    assert sorted((h.id, h.axial, h.rotation) for h in sc.hexes) == sorted((t[0], t[1], t[2]) for t in tiles)
    return sc


# -- the map watcher alone ------------------------------------------------------------------------------------


def seen(*hexes, confidence: float = 0.95) -> list[SeenHex]:
    return [SeenHex(at, hid, rot, confidence) for hid, at, rot in hexes]


def test_the_map_watcher_reports_a_change_once_reads_agree():
    watcher = MapWatcher({(0, 0): PlacedTile("001", 0)}, confirm_reads=2)
    assert watcher.observe(seen(GC, HOME)) is None  # one read: a hand may be sliding the tile in
    change = watcher.observe(seen(GC, HOME))
    assert change.added == [((0, -2), PlacedTile("221", 0))] and change.turned == [] and change.missing == []
    assert watcher.observe(seen(GC, HOME)) is None  # the same map again: nothing new
    watcher.observe(seen(GC, ("221", (0, -2), 2)))
    change = watcher.observe(seen(GC, ("221", (0, -2), 2)))
    assert change.turned == [((0, -2), PlacedTile("221", 0), PlacedTile("221", 2))]
    assert watcher.layout[(0, -2)] == PlacedTile("221", 2)


def test_the_map_watcher_never_builds_on_an_unsure_hex_and_keeps_what_it_does_not_see():
    watcher = MapWatcher({(0, 0): PlacedTile("001", 0), (0, -2): PlacedTile("221", 0)}, confirm_reads=1)
    # 101 read unsure at (0, -1), and a second reading of (1, -1) that disagrees with the first: neither is added
    reads = seen(GC, HOME) + seen(("101", (0, -1), 0), confidence=0.3) + seen(("103", (1, -1), 0), ("204", (1, -1), 0))
    assert watcher.observe(reads) is None
    assert any("[0, -1] could not be read surely" in n for n in watcher.unsure)
    # the home sector is not seen (a hand over it): said once, kept on the map
    change = watcher.observe(seen(GC))
    assert change.missing == [((0, -2), PlacedTile("221", 0))] and (0, -2) in watcher.layout
    assert watcher.observe(seen(GC)) is None
    with pytest.raises(ValueError):
        MapWatcher(confirm_reads=0)


# -- the map from the camera ----------------------------------------------------------------------------------


def test_a_newly_explored_hex_is_asked_with_its_misplay_and_fix_and_the_turn_that_fixes_it(store, hex_deck, output_dir):
    flow = eclipse(store)
    home = scene(GC, HOME)
    cam = CameraFlow(flow, deck=hex_deck, calibration=calibrate(home.image, home.layout))
    assert cam.readers == {"hexes"} and cam.view()["hexes"] is True and cam.view()["cards"] is False
    # Setup: Ann's starting sector (221 is the Terran Directorate's) is asked about, for Ann.
    assert read_still(cam, home.image) == []
    [q] = cam.view()["questions"]
    assert (q["text"], q["kind"], q["player"]) == ("Ann's starting sector 221 Procyon at [0, -2]?", "hex_placed", "Ann")
    assert cam.view()["misplays"] == []
    cam.confirm(q["id"])
    assert flow.engine_view()["map"][-1]["sector"] == "221"

    # Ann explores 205 Mu Herculis (ring II, printed wormholes 4, 6, 8) at (-1, -1), across 221's edge 8 (221 has a
    # half-circle there); the new hex touches on its edge 2 and as printed has none: a half wormhole only, and Ann
    # has no Wormhole Generator. Turned k steps its printed 4, 6, 8 lie on 4+2k, 6+2k, 8+2k: 8 reaches 2 in 3
    # steps (6 in 4, 4 in 5): "rotate it 3 steps clockwise". Nothing is recorded until a player answers.
    wrong = scene(GC, HOME, ("205", (-1, -1), 0))
    before = flow.session.last_seq
    read_still(cam, wrong.image, 10.0)
    view = cam.view()
    [q] = view["questions"]
    assert (q["text"], q["kind"], q["player"]) == ("Ann explored 205 Mu Herculis at [-1, -1], rotation 0?",
                                                   "action_taken", "Ann")
    [m] = view["misplays"]
    assert (m["rule"], m["severity"], m["cell"],
            m["card"]) == ("half_wormhole_without_generator", "error", [-1, -1], "205")
    assert m["fix"] == "rotate it 3 steps clockwise so its wormhole faces yours"
    assert m["source"].startswith("Eclipse, Wormhole Generator")
    assert flow.session.last_seq == before
    loop, hub, screen = run_on_touchscreen(flow, wrong.image, cam)
    screen.save_png(output_dir / "eclipse_camera_misplay.png")
    phone = hub.snapshot().view
    assert phone["camera"]["misplays"][0]["fix"] == m["fix"]  # the phones read the same misplay at once

    # Ann turns it 3 steps: the question about it as it was is withdrawn, the new one has no misplay; confirmed,
    # it is Ann's Explore (her turn passes to Bob).
    right = scene(GC, HOME, ("205", (-1, -1), 3))
    read_still(cam, right.image, 20.0)
    view = cam.view()
    [q] = view["questions"]
    assert q["text"] == "Ann explored 205 Mu Herculis at [-1, -1], rotation 3?" and view["misplays"] == []
    event = cam.confirm(q["id"])
    assert (event.kind, event.player, event.origin) == ("action_taken", "Ann", "camera")
    assert flow.view()["turn"] == "Bob" and not [f for f in flow.findings() if f["severity"] != "info"]
    # read again, the map the rules hold asks nothing more
    read_still(cam, right.image, 30.0)
    assert cam.view()["questions"] == [] and cam.view()["misplays"] == []


def test_a_resumed_game_asks_nothing_again_about_its_map(store, hex_deck):
    flow = eclipse(store)
    flow.report("Ann", "home", {"sector": "221 Procyon", "hex": [0, -2], "rotation": 0})
    home = scene(GC, HOME)
    cam = CameraFlow(flow, deck=hex_deck, calibration=calibrate(home.image, home.layout))
    read_still(cam, home.image)
    assert cam.view()["questions"] == []


# -- the combat dice --------------------------------------------------------------------------------------------


class FakeDiceReader:
    """The dice reader's answer for every frame (what ``vision.roll_dice`` would read on an Eclipse profile)."""

    def __init__(self, dice):
        self.dice = [RollDieObservation(c, f, (100 + 60 * k, 300, 40, 40), 0.9) for k, (c, f) in enumerate(dice)]
        self.name = "roll_dice"

    def read(self, image):
        return self


def test_the_combat_dice_are_read_as_the_aimed_volley_and_an_unreadable_die_is_asked_about(store):
    flow = eclipse(store)
    flow.report("Ann", "pass", {})
    flow.report("Bob", "pass", {})  # Combat
    flow.report("Ann", "blueprint", {"ship": "Cruiser", "computers": 1, "yellow_cannons": 2, "red_cannons": 1})
    flow.report("Ann", "volley", {"ship": "Cruiser", "target": "Bob", "shields": 2})
    # Computers +1 against shields 2: a die hits on 6 - 1 + 2 = 7, so only a 6 (a 6 always hits). The camera reads a
    # yellow 6, a yellow 5 (miss) and a red die it cannot read (face null): 1 of 2 dice hit, 1 damage; the third
    # is said in the question and left out by the engine (impossible_die), never guessed.
    reader = FakeDiceReader([("yellow", "6"), ("yellow", "5"), ("red", None)])
    cam = CameraFlow(flow, dice_reader=reader, zones=None)
    assert cam.readers == {"roll_dice"}
    image = np.zeros((240, 320, 3), np.uint8)
    read_still(cam, image)
    [q] = cam.view()["questions"]
    assert q["kind"] == "volley_rolled" and q["player"] == "Ann"
    assert q["text"] == ("Ann's Cruiser at Bob's ships: yellow 6, 5: 1 of 2 dice hit, 1 damage? (1 die could not be "
                         "read: it is left out; re-roll it or tap the faces in)")
    assert q["payload"]["dice"] == [{"colour": "yellow", "face": 6}, {"colour": "yellow", "face": 5},
                                    {"colour": "red", "face": None}]
    cam.confirm(q["id"])
    throw = flow.view()["throws"][0]
    assert [(d["colour"], d["face"], d["hit"]) for d in throw["dice"]] == [("yellow", 6, True), ("yellow", 5, False)]
    assert "left out" in throw["summary"]
    assert any(f.get("rule_kind") == "impossible_die" and f["severity"] == "warning" for f in flow.findings())
    read_still(cam, image, 10.0)  # the volley is rolled: the dice are not read again
    assert cam.view()["questions"] == []


# -- the command line ------------------------------------------------------------------------------------------


def run_cli(*args, env=None):
    return subprocess.run([sys.executable, "-m", "companion.cli", *args], capture_output=True, text=True, timeout=240,
                          env=env)


def test_enroll_eclipse_dice_refuses_a_bad_folder_naming_every_bad_subfolder(tmp_path):
    folder = tmp_path / "dice"
    for name in ("yellow-6", "green-6", "red-7", "orange"):
        (folder / name).mkdir(parents=True)
    done = run_cli("enroll", "eclipse-dice", str(folder), "--out", str(tmp_path / "eclipse.json"))
    assert done.returncode == 1, done.stderr
    lines = done.stderr.strip().splitlines()
    assert "folder green-6/" in done.stderr
    assert "unknown colour 'green'; the dice are yellow, orange, red" in done.stderr
    assert "folder red-7/" in done.stderr and "unknown face '7'; the faces are 1, 2, 3, 4, 5, 6" in done.stderr
    assert "folder orange/" in done.stderr and "name it <colour>-<face>, e.g. yellow-1" in done.stderr
    assert len(lines) == 3 and not (tmp_path / "eclipse.json").exists()
    help_text = run_cli("enroll", "--help").stdout
    assert "eclipse-dice" in help_text


def test_a_dice_profile_of_another_set_of_dice_is_refused(tmp_path):
    roll = DiceProfile(("white",), ("explore",), (("white", "explore"),), np.zeros((1, 3)), (("white", "explore"),),
                       np.zeros((1, 4), np.float32), 2)
    path = roll.save(tmp_path / "roll.json")
    assert DiceProfile.load(path).dice_set == "roll"  # a profile from before sets were named is Roll's
    with pytest.raises(InputError, match="enrolled from roll dice, not Eclipse's: build one with `companion enroll "
                                         "eclipse-dice DIR`"):
        load_dice_reader(ECLIPSE_DICE, str(path))
    with pytest.raises(InputError, match="no dice profile at"):
        load_dice_reader(ECLIPSE_DICE, str(tmp_path / "none.json"))


def test_a_file_that_is_no_dice_profile_names_the_enroll_command_of_eclipses_dice(tmp_path):
    """A picture renamed .json, a JSON object of something else, and a number too long for Python to read are no
    profile (exit 2); the player is told to enroll Eclipse's dice, not Roll's, and no parser English is said."""
    from companion.commands import EXIT_USAGE
    from companion.i18n import use_language

    picture = tmp_path / "picture.json"
    picture.write_bytes(b"\xff\xd8\xff\xe0" + bytes(range(256)))
    other = tmp_path / "other.json"
    other.write_text('{"a": 1}')
    long_number = tmp_path / "long.json"
    long_number.write_text('{"a": ' + "9" * 5000 + "}")
    for path in (picture, other, long_number):
        with pytest.raises(InputError) as caught:
            load_dice_reader(ECLIPSE_DICE, str(path))
        said = str(caught.value)
        assert caught.value.code == EXIT_USAGE
        assert "`companion enroll eclipse-dice DIR`" in said and "roll-dice" not in said
    with use_language("pl"), pytest.raises(InputError) as caught:
        load_dice_reader(ECLIPSE_DICE, str(long_number))
    said = str(caught.value)
    assert "zawiera liczbę zbyt długą" in said and "Exceeds" not in said and "sys.set_int_max_str_digits" not in said


def test_damaged_arrays_of_an_eclipse_profile_name_eclipses_enroll_command_and_the_path_once(tmp_path):
    """An Eclipse profile whose arrays file is damaged said "not a roll-dice profile saved by `companion enroll
    roll-dice` (ValueError: ...)": Roll's command, Python's class name, and the path twice ("cannot load dice
    profile P: dice profile P ...")."""
    import hashlib
    import json

    from companion.commands import EXIT_USAGE
    from companion.i18n import use_language

    eclipse = DiceProfile(("yellow",), ("1",), (("yellow", "1"),), np.zeros((1, 3)), (("yellow", "1"),),
                          np.zeros((1, 4), np.float32), 2, dice_set="eclipse")
    path = eclipse.save(tmp_path / "eclipse.json")
    meta = json.loads(path.read_text())
    arrays = tmp_path / meta["arrays"]
    arrays.write_bytes(b"PK\x03\x04 a copy cut short")
    meta["arrays_sha256"] = hashlib.sha256(arrays.read_bytes()).hexdigest()  # damaged before it was hashed
    path.write_text(json.dumps(meta))
    with pytest.raises(InputError) as caught:
        load_dice_reader(ECLIPSE_DICE, str(path))
    said = str(caught.value)
    assert caught.value.code == EXIT_USAGE and said.count(str(path)) == 1 and str(arrays) in said
    assert "`companion enroll eclipse-dice DIR`" in said and "roll-dice" not in said and "Error" not in said
    with use_language("hu"), pytest.raises(InputError) as caught:
        load_dice_reader(ECLIPSE_DICE, str(path))
    said = str(caught.value)
    assert said.count(str(path)) == 1 and "készíts egyet ezzel: `companion enroll eclipse-dice DIR`" in said
    assert "are damaged" not in said and "cannot load" not in said
    meta["version"] = 9  # a profile of a newer program: its path once too, in the player's language
    path.write_text(json.dumps(meta))
    with use_language("pl"), pytest.raises(InputError) as caught:
        load_dice_reader(ECLIPSE_DICE, str(path))
    said = str(caught.value)
    assert said.count(str(path)) == 1 and "zaktualizuj program" in said and "this program" not in said


@pytest.mark.slow
def test_run_eclipse_takes_a_hex_deck_and_refuses_a_card_deck(tmp_path, hex_deck):
    from vision.deck_enroll import build_deck_from_images
    from vision.synth_table import GAME_SHAPES, reference_images

    cards = build_deck_from_images(reference_images(["old_earth"], GAME_SHAPES["race"]), "race", kind="scan")
    cards.save(tmp_path / "race.npz")
    hex_deck.save(tmp_path / "hexes.npz")
    base = ["demo", "--game", "eclipse", "--players", "Ann,Bob", "--no-web", "--no-screen", "--no-gpio", "--once",
            "--fast", "--db", str(tmp_path / "demo.sqlite3"), "--max-frames", "3"]
    done = run_cli(*base, "--deck", str(tmp_path / "race.npz"))
    assert done.returncode == 3 and "holds cards or square tiles, not Eclipse sector hexes" in done.stderr
    done = run_cli(*base, "--deck", str(tmp_path / "hexes.npz"))
    assert done.returncode == 0, done.stderr
    done = run_cli("demo", "--game", "race", "--players", "Ann,Bob", "--deck", str(tmp_path / "hexes.npz"),
                   "--no-web", "--no-screen", "--db", str(tmp_path / "race.sqlite3"), "--max-frames", "3")
    assert done.returncode == 3 and "holds Eclipse sector hexes, not cards or square tiles" in done.stderr
    done = run_cli("demo", "--game", "among", "--players", "Ann,Bob", "--dice-profile", "x",
                   "--no-web", "--no-screen", "--db", str(tmp_path / "among.sqlite3"))
    assert done.returncode == 2 and "--dice-profile does not go with --game among" in done.stderr


def test_a_dismissed_hex_is_not_asked_again_while_it_stays(store):
    """The camera part alone over reads of hexes (no rendering): a question dismissed ("the camera is wrong") is not
    asked again when another hex is explored; the misplay of a hex still on the table keeps showing."""
    from companion.flows.eclipse_camera import ECLIPSE_CAMERA

    flow = eclipse(store)
    flow.report("Ann", "home", {"sector": "221 Procyon", "hex": [0, -2], "rotation": 0})
    watcher = ECLIPSE_CAMERA.map_watcher(flow.engine_view(), 1, 0.6)
    first = ECLIPSE_CAMERA.observe_map(watcher, seen(GC, HOME, ("205", (-1, -1), 0)), flow.engine_view(), flow)
    assert [p.text for p in first.proposals] == ["Ann explored 205 Mu Herculis at [-1, -1], rotation 0?"]
    assert [m["rule"] for m in first.misplays] == ["half_wormhole_without_generator"]
    # 205's question was dismissed; now 101 Castor appears at (1, -1), away from 205, next to the Galactic Center
    # across 101's edge 8 (101 as printed has a half-circle at 8, the Center on all six edges): legal, asked alone
    second = ECLIPSE_CAMERA.observe_map(watcher, seen(GC, HOME, ("205", (-1, -1), 0), ("101", (1, -1), 0)),
                                        flow.engine_view(), flow)
    assert [p.text for p in second.proposals] == ["Ann explored 101 Castor at [1, -1], rotation 0?"]
    assert [m["cell"] for m in second.misplays] == [[-1, -1]]  # 205 is still on the table, still wrong
    assert second.withdraw == []


def test_eclipse_dice_enrolled_from_a_folder_are_read_as_a_volley(store, tmp_path):
    """``companion enroll eclipse-dice DIR`` builds a profile with the Roll dice reader's own enrollment (the dice set
    is the profile's parameter); the box reads a volley's dice with it. The dice are the synthetic generator's (its
    yellow and red dice, their symbols standing for the faces 6 and 1: the reader learns symbols, not numbers)."""
    from dataclasses import replace as changed

    from companion.cli import main
    from vision import synth

    folder = tmp_path / "eclipse-dice"
    config = changed(synth.ENROLL_CONFIG, width=640, height=360, die_side=(38.0, 44.0))
    synth.write_enrollment(folder, {"yellow": ("ship",), "red": ("wild",)}, seed=11, dice_per_photo=3, config=config)
    (folder / "yellow-ship").rename(folder / "yellow-6")
    (folder / "red-wild").rename(folder / "red-1")
    out = tmp_path / "eclipse.json"
    assert main(["enroll", "eclipse-dice", str(folder), "--out", str(out)]) == 0
    assert DiceProfile.load(out).dice_set == "eclipse"
    reader = load_dice_reader(ECLIPSE_DICE, str(out))
    flow = eclipse(store)
    flow.report("Ann", "pass", {})
    flow.report("Bob", "pass", {})
    flow.report("Bob", "volley", {"ship": "Dreadnought", "target": "Ann", "computers": 0, "shields": 0})
    # A 6 always hits and a 1 always misses (Eclipse, Combat): 1 hit, 1 damage (yellow).
    scene = synth.render_scene(4242, changed(synth.SceneConfig(width=640, height=360, die_side=(38.0, 44.0)),
                                             touching=0.0), dice=[("yellow", "ship"), ("red", "wild")])
    from vision.readers import RollDiceAdapter

    cam = CameraFlow(flow, dice_reader=RollDiceAdapter(reader))
    read_still(cam, scene.image)
    [q] = cam.view()["questions"]
    assert q["text"] == "Bob's Dreadnought at Ann's ships: yellow 6; red 1: 1 of 2 dice hit, 1 damage?"


# -- the combat dice beside the map ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def combat_reader(tmp_path_factory):
    """The Roll dice reader with an Eclipse profile enrolled from photos of the combat dice (what ``companion enroll
    eclipse-dice`` builds), the box's dice reader for Eclipse."""
    from vision.roll_dice import RollDiceConfig, RollDiceReader, build_profile
    from vision.synth_full import write_combat_enrollment

    folder = write_combat_enrollment(tmp_path_factory.mktemp("combat"), seed=7)
    config = RollDiceConfig()
    profile = build_profile(folder, allowed=list(ECLIPSE_DICE.pairs), config=config, dice_set="eclipse")
    return RollDiceReader(profile, config)


@pytest.fixture(scope="module")
def sector_deck():
    """A hex deck of every sector in the rules' data, enrolled from stand-in scans."""
    from rules.eclipse.data import catalogue

    return build_hex_deck_from_images(hex_reference_images(list(catalogue().sectors), seed=7), kind="scan")


def _on(polygons, box) -> bool:
    """Whether the centre of ``box`` (x, y, w, h) px lies inside any of ``polygons`` (float[K, 2] px)."""
    import cv2

    x, y, w, h = box
    centre = (float(x + w / 2), float(y + h / 2))
    return any(cv2.pointPolygonTest(p.astype(np.float32).reshape(-1, 1, 2), centre, False) >= 0 for p in polygons)


@pytest.mark.slow
@pytest.mark.parametrize("adapted", [False, True], ids=["box-reader", "adapter"])
def test_the_combat_dice_are_read_beside_the_map_and_its_artwork_is_never_taken_for_dice(store, sector_deck,
                                                                                         combat_reader, adapted):
    """A whole generated Eclipse table (``vision.synth_full.full_table``: 24 sector hexes, 8 combat dice beside them,
    1280x720) read by the box's camera flow with a hex deck and the Eclipse dice profile (the reader as
    ``companion run`` passes it, or as a :class:`vision.Reader`): the combat pass reads the frame with the hexes its
    map pass found painted out, so every die it reports lies on a real die and the real dice are found; the same dice
    reader shown the whole frame (what the pass read before) takes the map's artwork for dice."""
    from rules.eclipse.data import catalogue
    from vision.readers import RollDiceAdapter
    from vision.synth_full import full_table

    ids = list(catalogue().sectors)
    table = full_table("eclipse", ids, seed=0)
    image = table.render()
    flow = eclipse(store)
    flow.report("Ann", "pass", {})
    flow.report("Bob", "pass", {})  # Combat
    flow.report("Ann", "volley", {"ship": "Cruiser", "target": "Bob", "computers": 0, "shields": 0})
    cam = CameraFlow(flow, deck=sector_deck, calibration=calibrate(image, table.layout),
                     dice_reader=RollDiceAdapter(combat_reader) if adapted else combat_reader)
    assert cam.readers == {"hexes", "roll_dice"}
    read_still(cam, image)
    [volley] = [q for q in cam.view()["questions"] if q["kind"] == "volley_rolled"]
    seen = volley["payload"]["read"]["dice"]

    dice = [p for p in table.pieces if p.kind == "die"]
    hexes = [table.polygon_px(p) for p in table.pieces if p.kind == "hex"]
    die_faces = [table.polygon_px(p) for p in dice]
    assert len(dice) == 8 and len(hexes) == 24
    # no false die: every die the pass reports lies on a real combat die, none on the map
    assert [d for d in seen if not _on(die_faces, d["box"])] == []
    found = [p for p in dice if any(_on([table.polygon_px(p)], d["box"]) for d in seen)]
    assert len(found) >= 7, f"{len(found)} of 8 combat dice found beside the map"
    assert len(seen) == len(found)  # one read per die
    # each die read with its colour and face (the payload's faces are the dice as rolled)
    labelled = sorted((p.colour, p.value) for p in dice)
    read = sorted((d["colour"], d["face"]) for d in volley["payload"]["dice"])
    assert sum(1 for r in read if r in labelled) >= 6

    whole = RollDiceAdapter(combat_reader).read(image)
    false_dice = [d for d in whole.dice if not _on(die_faces, d.box)]
    on_map = [d for d in false_dice if _on(hexes, d.box)]
    assert len(on_map) >= 5, f"the whole frame gave {len(false_dice)} false dice, {len(on_map)} on the map"
