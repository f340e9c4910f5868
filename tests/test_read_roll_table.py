"""``companion read IMAGE --dice roll --profile P`` on a whole Roll for the Galaxy table: the tiles lie among the dice
and ``read`` has no deck to identify them, so it judges a die read unsure on a tile as the box's camera does
(:func:`companion.commands.files.dice_among_tiles`): the tile's print, not a die."""

from __future__ import annotations

import json

import cv2
import pytest

from companion.cli import main
from companion.commands.files import roll_dice_pairs
from vision.synth import write_enrollment


@pytest.fixture(scope="module")
def roll_profile(tmp_path_factory):
    root = tmp_path_factory.mktemp("roll-table")
    faces: dict[str, list[str]] = {}
    for colour, face in roll_dice_pairs():
        faces.setdefault(colour, []).append(face)
    write_enrollment(root / "enroll", faces, seed=7, symbol_set="A")
    profile = root / "dice.json"
    assert main(["enroll", "roll-dice", str(root / "enroll"), "--out", str(profile)]) == 0
    return profile, faces


def _on_a_die(table, box) -> bool:
    x, y, w, h = box
    centre = (float(x + w / 2), float(y + h / 2))
    return any(cv2.pointPolygonTest(table.polygon_px(p).astype("float32"), centre, False) >= 0
               for p in table.pieces if p.kind == "die")


def test_read_leaves_the_tiles_print_out_on_a_whole_roll_table(roll_profile, tmp_path, capsys):
    """A generated full table (seed 1, 960x540: three rows of five tiles, 20 dice, the four corner markers): a read
    reporting more than the 20 dice laid out counts something that is no die. The bare reader takes shapes in the
    tiles' art and the markers for dice (5 or more of them); ``read`` reports only dice that lie on a die of the
    table, and at least 18 of the 20 (90 %, as a read of a scene of dice alone is held to)."""
    from bench.table_reader import game_ids
    from vision.profiles import DiceProfile
    from vision.roll_dice import RollDiceReader
    from vision.synth_full import full_table

    profile, faces = roll_profile
    table = full_table("roll", game_ids()["roll"], 1, image_size=(960, 540), faces_by_colour=faces)
    frame = table.render(frame_seed=0)
    dice = [p for p in table.pieces if p.kind == "die"]
    assert len(dice) == 20
    image = tmp_path / "table.png"
    cv2.imwrite(str(image), frame)
    bare = RollDiceReader(DiceProfile.load(profile), allowed=roll_dice_pairs()).read(frame)
    assert sum(not _on_a_die(table, d.box) for d in bare.dice) >= 5  # the scene holds print taken for dice
    capsys.readouterr()
    assert main(["read", str(image), "--dice", "roll", "--profile", str(profile), "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert set(record) == {"image", "width", "height", "dice"} and (record["width"], record["height"]) == (960, 540)
    assert 18 <= len(record["dice"]) <= 20
    assert all(_on_a_die(table, d["box"]) for d in record["dice"])
    assert all(set(d) == {"kind", "colour", "face", "value", "box", "confidence"} for d in record["dice"])
