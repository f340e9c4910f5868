"""Issue 16: a table read with no calibration finds no cards in a playmat's printed grid, a checked cloth, wood grain
or a printed board (vision.card_mat takes a mat's printed lines out of the foreground; vision.card_pitch's spacing
of the edges counts only when its cells hold cards' content), and cards lying on a grid mat are still read at their
own size and named by `companion read`.

Every scene is generated here, seeded: 1280 x 720 px, Among the Stars cards (63 x 88 mm) pasted 64 x 89 px."""

from __future__ import annotations

import json
import math

import cv2
import numpy as np
import pytest

from vision import synth
from vision.card_detect import CardsConfig, blobs_of, fill_holes, find_card_quads, foreground_mask, resize_for_work
from vision.card_mat import without_printed_lines
from vision.card_pitch import choose_card_size, edge_pitch
from vision.quads import quad_size
from vision.synth_table import GAME_SHAPES, stand_in_card

ASPECT = 88.0 / 63.0
H, W = 720, 1280
SHORT = 64                                   # a card's short side in the scenes, px
LONG = int(round(SHORT * ASPECT))            # 89 px
IDS = ["fighter_launch_bay", "shield_generator", "turret", "alien_bazaar", "customs", "energy_market", "garden",
       "holographic_display_area", "restaurant"]


def _noisy(img: np.ndarray, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.clip(img.astype(np.int16) + rng.integers(-6, 7, img.shape), 0, 255).astype(np.uint8)


def _grid(w: int, h: int, every: tuple[int, int], bg: tuple[int, int, int], line: tuple[int, int, int],
          width: int = 2) -> np.ndarray:
    """uint8[h, w, 3] BGR: a mat of colour ``bg`` printed with lines of ``line`` every (x, y) px, ``width`` px wide."""
    img = np.zeros((h, w, 3), np.uint8)
    img[:] = bg
    for x in range(7, w, every[0]):
        cv2.line(img, (x, 0), (x, h), line, width)
    for y in range(5, h, every[1]):
        cv2.line(img, (0, y), (w, y), line, width)
    return img


def _gingham(w: int, h: int, check: int) -> np.ndarray:
    """uint8[h, w, 3] BGR: a red and white gingham, checks of ``check`` px (white, pink where one band crosses, red
    where two do)."""
    yy, xx = np.mgrid[0:h, 0:w]
    t = (((xx // check) % 2) + ((yy // check) % 2)) / 2.0
    white, red = np.array([245.0, 245.0, 245.0]), np.array([40.0, 40.0, 200.0])
    return (white * (1 - t[..., None]) + red * t[..., None]).astype(np.uint8)


def _on_table(cloth: np.ndarray) -> np.ndarray:
    """``cloth`` lying in the middle of a plain dark table (the table fills the frame's border)."""
    img = np.zeros((H, W, 3), np.uint8)
    img[:] = (30, 45, 70)
    ch, cw = cloth.shape[:2]
    y0, x0 = (H - ch) // 2, (W - cw) // 2
    img[y0:y0 + ch, x0:x0 + cw] = cloth
    return img


def _paste(img: np.ndarray, card_id: str, x: int, y: int) -> None:
    art = stand_in_card(card_id, GAME_SHAPES["among"], 3.0)
    img[y:y + LONG, x:x + SHORT] = cv2.resize(art, (SHORT, LONG), interpolation=cv2.INTER_AREA)


def _cards_on(mat: np.ndarray) -> tuple[np.ndarray, list[tuple[str, int, int]]]:
    """``mat`` with 9 cards on it: two side by side, one alone and a block of 2 x 3, each 2 px from its neighbour
    (no card alone has company of its own shape only: the pair and the block are shaped like a card too).
    Returns (the image, [(card id, left px, top px)])."""
    img = mat.copy()
    places = [(200, 200), (266, 200), (600, 300)] + [(850 + 66 * j, 150 + 91 * i) for i in range(2) for j in range(3)]
    laid = [(cid, x, y) for cid, (x, y) in zip(IDS, places, strict=True)]
    for cid, x, y in laid:
        _paste(img, cid, x, y)
    return img, laid


def _texture(kind: str, seed: int) -> np.ndarray:
    """uint8[H, W, 3] BGR: :func:`vision.synth.table_texture` of ``kind`` (wood grain, a printed board) filling the
    view."""
    return np.clip(synth.table_texture(np.random.default_rng(seed), kind, H, W), 0, 255).astype(np.uint8)


EMPTY = {
    "lines every 40 x 56 px": lambda: _grid(W, H, (40, 56), (150, 175, 185), (70, 80, 90)),
    "lines every 60 px": lambda: _grid(W, H, (60, 60), (150, 175, 185), (70, 80, 90)),
    "light lines every 40 x 56 px on a green mat": lambda: _grid(W, H, (40, 56), (40, 70, 40), (200, 220, 200), 1),
    "gingham": lambda: _gingham(W, H, 40),
    "wood grain": lambda: _texture("wood", 11),
    "printed board": lambda: _texture("mat", 12),
}


@pytest.mark.parametrize("name", list(EMPTY))
def test_a_table_with_no_cards_reads_no_card(name):
    # 8172336 read the two grids as 184 and 35 cards of the grid's spacing (42c8765: 1 and 1, the whole frame)
    frame = _noisy(EMPTY[name](), seed=3)
    assert find_card_quads(frame, CardsConfig(), ASPECT)[0] == []


@pytest.mark.parametrize("cloth", ["grid mat", "gingham", "grid mat with cards"])
def test_a_mat_lying_on_the_table_is_one_blob_at_most(cloth):
    """A mat or cloth lying on a plain table is foreground as a whole (its own lines inside): its printed grid or its
    checks repeat at their own spacing with plain cells, which sets no card size; at most the mat itself is read (as
    42c8765 read it), never a lattice of cards (8172336: 123, 8 and 23)."""
    if cloth == "grid mat":
        mat = _grid(1100, 460, (40, 56), (150, 175, 185), (70, 80, 90))
    elif cloth == "gingham":
        mat = _gingham(1000, 400, 40)
    else:
        mat = _grid(1100, 450, (60, 60), (70, 45, 30), (190, 200, 200))
        for j, cid in enumerate(IDS[:3]):
            _paste(mat, cid, 210 + 66 * j, 65)
        _paste(mat, IDS[3], 610, 165)
    quads = find_card_quads(_noisy(_on_table(mat), seed=4), CardsConfig(), ASPECT)[0]
    assert len(quads) <= 1


def _work_blobs(frame: np.ndarray) -> tuple[np.ndarray, list]:
    c = CardsConfig()
    img, _ = resize_for_work(frame, c)
    mask = without_printed_lines(foreground_mask(img, c), c.min_area_frac * H * W, ASPECT, c.min_part_frac,
                                 c.mat_line_area)
    return img, blobs_of(fill_holes(mask), c)


def test_the_cells_of_a_printed_grid_or_a_gingham_are_alike_and_cards_are_not():
    min_side = 0.7 * math.sqrt(CardsConfig().min_area_frac * H * W / ASPECT)
    img, blobs = _work_blobs(_noisy(_on_table(_grid(1100, 460, (40, 56), (150, 175, 185), (70, 80, 90))), seed=5))
    found = edge_pitch(img, blobs, ASPECT, min_side)
    # the grid's spacing; its cells alike (under a grey level apart: one plain cell repeated)
    assert abs(found.short - 40) <= 3 and found.cells() < 1.0 < CardsConfig().pitch_cells
    img, blobs = _work_blobs(_noisy(_cards_on(_grid(W, H, (60, 60), (70, 45, 30), (190, 200, 200)))[0], seed=5))
    found = edge_pitch(img, blobs, ASPECT, min_side)
    # the cards' spacing; each a picture of its own (the stand-in art's colours are drawn 40-250 per channel)
    assert abs(found.short - (SHORT + 2)) <= 0.1 * SHORT and found.cells() >= 2 * CardsConfig().pitch_cells
    img, blobs = _work_blobs(_noisy(_on_table(_gingham(1000, 400, 40)), seed=5))
    found = edge_pitch(img, blobs, ASPECT, min_side)
    assert found.cells() < CardsConfig().pitch_cells / 2     # a gingham's cells: alike every second cell


def test_a_spacing_of_plain_cells_counts_only_where_a_card_shaped_blob_agrees():
    # pitch 41 px: a 40 x 56 px blob alone is a card whether or not the cells hold cards; a 2 x 2 block is none
    assert choose_card_size([(40.0, 56.0)], [2200.0], 41.0, ASPECT, cells_hold_cards=False) == (40.0, 56.0)
    assert choose_card_size([(82.0, 114.0)], [9300.0], 41.0, ASPECT, cells_hold_cards=False) is None
    assert choose_card_size([], [], 41.0, ASPECT, cells_hold_cards=False) is None
    assert choose_card_size([], [], 41.0, ASPECT) == (41.0, pytest.approx(41.0 * ASPECT))
    asked = []
    assert choose_card_size([(40.0, 56.0)], [2200.0], 41.0, ASPECT, cells_hold_cards=lambda: asked.append(1)) == (
        40.0, 56.0) and asked == []     # a blob agrees: the cells are not looked at


def test_a_mask_with_no_printed_lines_is_kept_as_it_is():
    mask = np.zeros((H, W), np.uint8)
    cv2.rectangle(mask, (100, 100), (163, 188), 255, -1)       # a card
    cv2.line(mask, (163, 150), (260, 150), 255, 2)             # a short thin shadow edge beside it
    assert without_printed_lines(mask, 1843.0, ASPECT, 0.3, 1.0) is mask
    grid = _grid(W, H, (60, 60), (0, 0, 0), (255, 255, 255))[:, :, 0]
    grid[100:189, 100:164] = 255
    out = without_printed_lines(grid, 1843.0, ASPECT, 0.3, 1.0)
    ys, xs = np.nonzero(out)
    # the card stays (its corners rounded by the disc, 7 px); of the lines nothing is left but a pixel or two where
    # they meet the card (the disc there lies on the card)
    assert out[104:185, 104:160].all() and np.count_nonzero(out[100:189, 100:164]) >= 0.97 * 89 * 64
    assert xs.min() >= 98 and xs.max() <= 165 and ys.min() >= 98 and ys.max() <= 190
    with pytest.raises(ValueError, match="2-D uint8"):
        without_printed_lines(grid.astype(np.float32), 1843.0, ASPECT, 0.3, 1.0)
    with pytest.raises(ValueError, match="positive"):
        without_printed_lines(grid, 0.0, ASPECT, 0.3, 1.0)


@pytest.mark.parametrize("bg, line, every, width", [((70, 45, 30), (190, 200, 200), (60, 60), 2),
                                                     ((40, 90, 40), (150, 200, 150), (40, 56), 1)])
def test_cards_on_a_grid_mat_are_found_at_their_own_size(bg, line, every, width):
    """Every card found once, at its size within 15 % and its place within a fifth of its short side: a printed line
    touching a card's side is read as part of the card, never as a card of its own (the 60 px grid runs 3 px beside
    the card alone, whose outline then sets the card's size 8 % wide, and the block of 2 x 3 is cut up to 12 px off
    its cards)."""
    frame, laid = _cards_on(_grid(W, H, every, bg, line, width))
    quads = find_card_quads(_noisy(frame, seed=6), CardsConfig(), ASPECT)[0]
    assert len(quads) == len(laid)
    for cid, x, y in laid:
        centre = np.array([x + SHORT / 2, y + LONG / 2])
        q = min(quads, key=lambda q: float(np.linalg.norm(q.mean(axis=0) - centre)))
        short, long_ = quad_size(q)
        assert np.linalg.norm(q.mean(axis=0) - centre) < 0.2 * SHORT, cid
        assert abs(short - SHORT) <= 0.15 * SHORT and abs(long_ - LONG) <= 0.15 * LONG, (cid, short, long_)


@pytest.fixture(scope="module")
def among_deck_file(tmp_path_factory):
    from vision.deck_enroll import build_deck_from_images
    from vision.synth_table import reference_images

    deck = build_deck_from_images(reference_images(["main_reactor"] + IDS, GAME_SHAPES["among"], seed=7), "among",
                                  kind="scan", card_mm=GAME_SHAPES["among"])
    return deck.save(tmp_path_factory.mktemp("deck") / "among.npz")


def test_companion_read_names_the_cards_on_a_grid_mat_and_nothing_on_an_empty_one(tmp_path, among_deck_file,
                                                                                    capsys, monkeypatch):
    from companion.cli import main

    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path / "data"))
    mat = _grid(W, H, (60, 60), (70, 45, 30), (190, 200, 200))
    frame, laid = _cards_on(mat)
    photos = [tmp_path / "cards.png", tmp_path / "empty.png", tmp_path / "grid.png"]
    cv2.imwrite(str(photos[0]), _noisy(frame, seed=7))
    cv2.imwrite(str(photos[1]), _noisy(mat, seed=7))
    cv2.imwrite(str(photos[2]), _noisy(EMPTY["lines every 40 x 56 px"](), seed=7))
    assert main(["read", *map(str, photos), "--cards", str(among_deck_file), "--json"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert sorted(c["id"] for c in records[0]["cards"]) == sorted(cid for cid, _, _ in laid)
    assert records[1]["cards"] == [] and records[2]["cards"] == []
