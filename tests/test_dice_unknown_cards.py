"""Dice read on a table whose cards or tiles no deck identifies (a Roll game played with a dice profile alone): an
unsure die on a tile is the tile's print, a sure one is a die lying on it; and the box builds its dice reader that way
when the game's tiles have no deck."""

import argparse
from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision.readers import RollDiceAdapter, off_unknown_cards
from vision.roll_dice import RollDieObservation


def die(x, y, conf, side=30):
    return RollDieObservation("white", "explore", (x, y, side, side), conf)


def table_with_a_tile():
    """A dark cloth 640x360 with one light tile 150 px square (its top-left at (200, 100)), printed with a dark
    square 30 px wide in its middle, as a tile's art shows a die-like symbol."""
    img = np.full((360, 640, 3), (40, 70, 50), np.uint8)
    cv2.rectangle(img, (200, 100), (349, 249), (215, 225, 230), -1)
    cv2.rectangle(img, (210, 110), (339, 239), (120, 90, 160), 3)   # the tile's printed frame
    cv2.rectangle(img, (260, 160), (289, 189), (30, 30, 30), -1)    # a symbol of its art
    return img


def test_an_unsure_die_on_an_unknown_tile_is_its_print_and_a_sure_one_is_a_die():
    img = table_with_a_tile()
    printed = die(260, 160, 0.4)        # centred on the tile, read unsure: the print
    lying = die(300, 200, 0.95)         # centred on the tile, read surely: a die lying on it
    beside = die(450, 160, 0.3)         # on the cloth, unsure: not the tile's business
    kept = off_unknown_cards(img, [printed, lying, beside], aspect=1.0)
    assert kept == (lying, beside)


def test_nothing_is_left_out_when_every_die_is_sure_or_no_card_lies_there():
    img = table_with_a_tile()
    sure = (die(260, 160, 0.9), die(450, 160, 0.85))
    assert off_unknown_cards(img, sure, aspect=1.0) == sure
    cloth = np.full((360, 640, 3), (40, 70, 50), np.uint8)
    cv2.rectangle(cloth, (100, 100), (129, 129), (230, 230, 230), -1)
    alone = (die(100, 100, 0.3),)
    assert off_unknown_cards(cloth, alone, aspect=1.0) == alone


def test_a_cluster_of_sure_dice_taken_for_a_card_keeps_its_unsure_die(monkeypatch):
    """Four sure dice and an unsure one touching in a block 80 px square that the detector takes for a card: what lies
    there is mostly dice (the sure dice' boxes, 4 x 40 x 40 = 6400 px^2, cover all of its 6400 px^2, more than half),
    so the unsure die stays; a tile of the same size holding only the unsure die loses it."""
    block = np.array([[200, 100], [280, 100], [280, 180], [200, 180]], np.float64)
    monkeypatch.setattr("vision.readers.find_card_quads", lambda frame, config, aspect: ([block], [False]))
    img = np.full((360, 640, 3), (40, 70, 50), np.uint8)
    sure = [die(x, y, 0.95, 40) for x, y in ((200, 100), (240, 100), (200, 140), (240, 140))]
    unsure = die(220, 120, 0.3, 40)
    assert off_unknown_cards(img, [*sure, unsure], aspect=1.0) == (*sure, unsure)
    far = [die(500, 100, 0.95, 40), die(500, 200, 0.95, 40), die(420, 280, 0.95, 40)]   # on the cloth
    assert off_unknown_cards(img, [*far, unsure], aspect=1.0) == tuple(far)



def test_two_touching_dice_taken_for_a_quad_are_no_square_tile(monkeypatch):
    """A dice-only photo (gingham and player boards, ``vision.scenes.render_dice_scene`` seed 2 at 960x540): a blue die
    read unsure (0.58) touched a die the reader missed, and the detector took the two for one quad 55 x 95 px, 1 : 1.73,
    about three dice' area: ``companion read --dice roll`` left a real die out. Roll's tiles are square (aspect 1.0,
    within the detector's 22 %): a quad that long is no tile and leaves the die in; a square tile of the same area keeps
    leaving its print out."""
    pair = np.array([[361, 106], [415, 118], [394, 211], [340, 199]], np.float64)
    tile = np.array([[340, 106], [413, 106], [413, 179], [340, 179]], np.float64)   # 73 px square: the same area
    unsure = RollDieObservation("blue", "wild", (362, 101, 48, 48), 0.58)
    alone = die(700, 300, 0.95, 42)   # a sure die elsewhere on the cloth
    img = np.full((540, 960, 3), (40, 70, 50), np.uint8)
    monkeypatch.setattr("vision.readers.find_card_quads", lambda frame, config, aspect: ([pair], [False]))
    assert off_unknown_cards(img, [unsure, alone], aspect=1.0) == (unsure, alone)
    monkeypatch.setattr("vision.readers.find_card_quads", lambda frame, config, aspect: ([tile], [False]))
    assert off_unknown_cards(img, [unsure, alone], aspect=1.0) == (alone,)

class FakeReader:
    """A Roll dice reader that reports fixed dice (what ``RollDiceReader.read`` returns, in its shape)."""

    def __init__(self, dice):
        self.dice = tuple(dice)
        self.config = None

    def read(self, frame, white=None, **kw):
        from vision.roll_dice import RollDiceRead

        return RollDiceRead(frame.shape[1], frame.shape[0], self.dice, {}, None, 1.0)


def test_the_adapter_leaves_the_tiles_print_out_only_when_told_the_cards_are_unknown():
    img = table_with_a_tile()
    printed, beside = die(260, 160, 0.4), die(450, 160, 0.3)
    reader = RollDiceAdapter(FakeReader([printed, beside]))
    assert reader.read(img).dice == (printed, beside)
    told = replace(reader, unknown_cards=1.0)
    seen = told.read(img)
    assert seen.dice == (beside,) and "unknown_cards" in seen.timings_ms


@pytest.mark.parametrize("deck", [False, True])
def test_the_box_reads_a_roll_game_without_a_tile_deck_knowing_its_tiles_are_there(tmp_path, monkeypatch, deck):
    """``run --game roll --dice-profile P`` with no ``--deck``: the dice reader is told the table holds square tiles
    no deck identifies; with a tile deck the card read tells it of them (and the art check runs), so it is not."""
    import companion.commands.box_camera as box

    class Profile:
        dice_set = "roll"

    monkeypatch.setattr("vision.profiles.DiceProfile.load", classmethod(lambda cls, path: Profile()))
    monkeypatch.setattr("vision.roll_dice.RollDiceReader.__init__", lambda self, *a, **kw: None)
    if deck:
        monkeypatch.setattr(box, "load_deck", lambda *a, **kw: object())
        monkeypatch.setattr(box, "_refuse_other_game", lambda *a, **kw: None)
    profile = tmp_path / "roll.json"
    profile.write_text("{}")
    args = argparse.Namespace(calibration=None, deck="tiles" if deck else None, dice_profile=str(profile),
                              game="roll")
    monkeypatch.setattr(box, "_load_box_calibration", lambda given: None)
    made = {}

    class Camera:
        def __init__(self, flow, deck=None, calibration=None, dice_reader=None, **kw):
            made["dice"] = dice_reader

    monkeypatch.setattr("companion.camera.CameraFlow", Camera)
    monkeypatch.setattr(box, "_deck_mirror", lambda *a: (None, None))
    make_camera, calibration = box._camera_parts(args)
    make_camera(object())
    assert isinstance(made["dice"], RollDiceAdapter)
    assert made["dice"].unknown_cards == (None if deck else 1.0)
