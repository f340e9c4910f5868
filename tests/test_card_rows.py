"""Cards laid edge to edge found as one outline on a table with no calibration: cut into the cards they are (the start
of an Among the Stars station read through ``companion read --cards`` said "1 card: ?")."""

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from vision.card_rows import row_cuts

AMONG = 88.0 / 63.0   # an Among the Stars card: 63 x 88 mm, long/short


def test_an_outline_two_cards_long_is_cut_in_two_card_shaped_halves():
    """Hand-worked: a 180 x 126 px outline (two 90 x 126 px portrait cards side by side, 126/90 = 1.40, the deck's
    1.397 within 12 %); in three it would be 60 x 126 (2.10): not card-shaped. Three landscape cards stacked,
    126 x 270 px, cut in three 126 x 90 px pieces."""
    quad = np.array([[0, 0], [180, 0], [180, 126], [0, 126]], float)
    cuts = row_cuts(quad, AMONG)
    assert len(cuts) == 1 and len(cuts[0]) == 2
    pieces = sorted(sorted(map(tuple, p.tolist())) for p in cuts[0])
    assert pieces == [[(0, 0), (0, 126), (90, 0), (90, 126)], [(90, 0), (90, 126), (180, 0), (180, 126)]]
    tall = row_cuts(np.array([[0, 0], [126, 0], [126, 270], [0, 270]], float), AMONG)   # three landscape cards
    assert [len(c) for c in tall] == [3]
    assert sorted({round(p[1]) for piece in tall[0] for p in piece}) == [0, 90, 180, 270]


def test_a_square_is_not_cut_and_a_single_card_is_cut_only_where_no_card_of_its_size_is_known():
    """A card of 63 x 88 px halves into two 63 x 44 px pieces, card-shaped again (88/63 = 1.40 against 63/44 = 1.43),
    so :func:`row_cuts` offers the cut; :func:`split_rows` refuses it where a card identified in the frame has the
    size of the whole (its short side 63 px, the pieces' 44: 0.70 of it, under 0.8), and takes it where the frame
    shows no card read surely and the deck identifies both halves."""
    from types import SimpleNamespace as Id

    from vision.card_rows import split_rows

    assert row_cuts(np.array([[0, 0], [100, 0], [100, 100], [0, 100]], float), AMONG) == []
    single = np.array([[200, 0], [263, 0], [263, 88], [200, 88]], float)
    assert [len(c) for c in row_cuts(single, AMONG)] == [2]
    known = np.array([[0, 0], [63, 0], [63, 88], [0, 88]], float)
    asked = []

    def identify(pieces):
        asked.append(len(pieces))
        return [(Id(card_id="customs", confidence=0.9), False) for _ in pieces], list(pieces), [None] * len(pieces)

    unread = (Id(card_id=None, confidence=1.0), False)
    read = (Id(card_id="main_reactor", confidence=0.99), False)
    out = split_rows(object(), AMONG, [known, single], [None, None], [read, unread], [False, False], identify)
    assert len(out[1]) == 2 and asked == []
    out = split_rows(object(), AMONG, [single], [None], [unread], [False], identify)
    assert len(out[1]) == 2 and asked == [2] and out[3] == [False, False]
    weak = lambda pieces: ([(Id(card_id="customs", confidence=0.3), False)] * len(pieces), list(pieces),  # noqa: E731
                           [None] * len(pieces))
    assert len(split_rows(object(), AMONG, [single], [None], [unread], [False], weak)[1]) == 1


@pytest.fixture(scope="module")
def among_deck_file(tmp_path_factory):
    from bench.table_reader import game_ids
    from vision.deck_enroll import build_deck_from_images
    from vision.synth_table import GAME_SHAPES, reference_images

    ids = game_ids()["among"][:14]
    assert "customs" in ids or ids.append("customs") is None
    deck = build_deck_from_images(reference_images(ids, GAME_SHAPES["among"], seed=7), "among", kind="scan",
                                  card_mm=GAME_SHAPES["among"])
    return deck.save(tmp_path_factory.mktemp("deck") / "among.npz")


def test_two_touching_station_cards_read_through_the_command_without_a_calibration(tmp_path, among_deck_file,
                                                                                   capsys, monkeypatch):
    """The Main Reactor and Customs edge to edge (Among the Stars rulebook, 3 Setup: each station starts from its Main
    Reactor; a location is built next to it), the photo read with no calibration: both cards, in one row, the
    location in the cell beside the reactor's."""
    from vision.synth_table import make_scene

    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path / "data"))
    scene = make_scene("among", ["main_reactor", "customs"], seed=0, n_cards=2, effects=False)
    photo = tmp_path / "station.png"
    cv2.imwrite(str(photo), scene.image)
    assert main(["read", str(photo), "--cards", str(among_deck_file), "--json"]) == 0
    cards = json.loads(capsys.readouterr().out)["cards"]
    assert sorted(c["id"] for c in cards) == ["customs", "main_reactor"]
    cells = {c["id"]: tuple(c["cell"]) for c in cards}
    assert cells["main_reactor"] == (0, 0) and abs(cells["customs"][0]) + abs(cells["customs"][1]) == 1
    for card in cards:   # each outline lies on its own card (the labels' exact corners, within 8 px)
        label = next(lab for lab in scene.cards if lab.id == card["id"])
        assert np.linalg.norm(np.mean(card["corners"], axis=0) - label.corners_px.mean(axis=0)) < 8.0
    assert Path(among_deck_file).is_file()
