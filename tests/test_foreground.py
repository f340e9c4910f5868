"""vision.foreground: the table's colours from the border, and the mask of what lies on the table (issue 16:
light cards on a gingham cloth were lost in the one-colour model's spread, and its white checks taken for cards)."""

import cv2
import numpy as np

from vision.card_detect import CardsConfig, find_card_quads
from vision.foreground import TableMemory, _robust_gaussian, border_strip, foreground_mask, table_colour_model

CARD = (slice(160, 244), slice(250, 310))     # rows, columns of the card in the test images (60 x 84 px)


def _gingham(rng: np.random.Generator, h: int = 400, w: int = 560, check: int = 7) -> np.ndarray:
    """A red and white gingham (BGR): red where both bands cross, white where none does, their mix elsewhere; its
    checks smaller than the border strip (12 px), so the strip holds all three."""
    yy, xx = np.mgrid[0:h, 0:w]
    band = ((yy // check) % 2) + ((xx // check) % 2)
    colours = np.array([(235, 240, 245), (120, 130, 215), (40, 45, 190)], np.float64)   # white, mixed, red
    img = colours[band] + rng.normal(0, 3, (h, w, 3))
    return np.clip(img, 0, 255).astype(np.uint8)


def _with_card(img: np.ndarray, colour: tuple[int, int, int]) -> np.ndarray:
    out = img.copy()
    out[CARD] = colour
    return out


def _card_and_table(mask: np.ndarray) -> tuple[float, float]:
    """(fraction of the card that is foreground, fraction of the table that is)."""
    card = np.zeros(mask.shape, bool)
    card[CARD] = True
    return float(np.mean(mask[card] > 0)), float(np.mean(mask[~card] > 0))


def test_a_plain_table_is_one_colour():
    rng = np.random.default_rng(1)
    h, w = 300, 400
    shade = np.linspace(0.85, 1.1, w)[None, :, None]               # a light fall-off across wood-coloured felt
    img = np.clip(np.array((60, 110, 150), np.float64) * shade + rng.normal(0, 3, (h, w, 3)), 0, 255)
    lab = cv2.cvtColor(img.astype(np.uint8), cv2.COLOR_BGR2LAB)
    assert len(table_colour_model(border_strip(lab, 0.03), CardsConfig(fg_modes=3))) == 1


def test_a_gingham_is_its_three_colours_and_a_pale_card_on_it_is_found():
    rng = np.random.default_rng(2)
    img = _with_card(_gingham(rng), (200, 225, 170))               # a pale green-blue card
    lab = cv2.cvtColor(img, cv2.COLOR_BGR2LAB)
    assert len(table_colour_model(border_strip(lab, 0.03), CardsConfig(fg_modes=3))) == 3
    card, table = _card_and_table(foreground_mask(img, CardsConfig(fg_modes=3)))
    assert card > 0.95, "the card is foreground"
    assert table < 0.02, "no check of the cloth is"
    # one colour for the whole cloth: its spread is the cloth's three colours; the white checks stand out of it
    _, table_one = _card_and_table(foreground_mask(img, CardsConfig()))
    assert table_one > 0.1


def test_colours_the_cards_share_are_not_taken_for_the_table():
    """A printed playmat: dark, with pale green clouds along the border too; a whole station of pale green cards
    lies on it. A model with the clouds' colour would clear the cards with the clouds: the one-colour model stays."""
    rng = np.random.default_rng(3)
    h, w = 400, 560
    img = np.clip(np.array((40, 30, 30), np.float64) + rng.normal(0, 4, (h, w, 3)), 0, 255).astype(np.uint8)
    for _ in range(120):                                            # clouds, everywhere, the border included
        x, y = int(rng.integers(0, w)), int(rng.integers(0, h))
        cv2.circle(img, (x, y), int(rng.integers(10, 25)), (175, 215, 175), -1)
    img[100:300, 150:410] = (180, 220, 180)                         # the station: pale green cards
    card = np.zeros((h, w), bool)
    card[100:300, 150:410] = True
    lab = cv2.cvtColor(img, cv2.COLOR_BGR2LAB)
    assert len(table_colour_model(border_strip(lab, 0.03), CardsConfig(fg_modes=3))) >= 2, "the border is two colours"
    mask = foreground_mask(img, CardsConfig(fg_modes=3))
    assert float(np.mean(mask[card] > 0)) > 0.95, "the station stays foreground"
    # without the check, the clouds' colour clears the station with the clouds
    assert float(np.mean(foreground_mask(img, CardsConfig(fg_modes=3, fg_mode_inside=100.0))[card] > 0)) < 0.05


def test_a_calibrated_read_finds_pale_cards_on_a_gingham_by_the_first_look():
    """On the top-down image (card size known, ``fg_modes_top``) the detector models the cloth's colours: two pale
    cards (60 x 84 px) on a gingham are two cards of the first look, with nothing of the cloth's checks."""
    rng = np.random.default_rng(5)
    img = _gingham(rng)
    img[100:184, 150:210] = (200, 225, 170)
    img[100:184, 300:360] = (235, 200, 170)
    quads, loose = find_card_quads(img, CardsConfig(fg_modes_top=3), 84 / 60, None, (60.0, 84.0))
    first = [q for q, lo in zip(quads, loose, strict=True) if not lo]
    centres = sorted(tuple(np.round(q.mean(axis=0))) for q in first)
    assert len(first) == 2 and np.allclose(centres, [(179.5, 141.5), (329.5, 141.5)], atol=3.0), centres


def _direct_robust_gaussian(strip: np.ndarray, floor: float):
    """The robust Gaussian written out with np.median and np.cov on the kept pixels (float32 then float64): median
    centre, covariance + floor, refitted without the pixels beyond 3 standard deviations until it settles."""
    border = strip.astype(np.float32)
    keep = np.ones(border.shape[1], bool)
    for _ in range(4):
        part = border[:, keep]
        bg = np.median(part, axis=1).astype(np.float32)
        cov = np.cov(part - bg[:, None]) + np.eye(3) * floor
        d = border - bg[:, None]
        md = np.sqrt(np.maximum(((np.linalg.inv(cov).astype(np.float32) @ d) * d).sum(axis=0), 0.0))
        new_keep = md < 3.0
        if new_keep.sum() < 0.3 * len(new_keep) or np.array_equal(new_keep, keep):
            break
        keep = new_keep
    return bg, cov


def test_the_table_colour_refit_from_running_sums_is_the_direct_fit():
    """The refit without the pixels beyond 3 standard deviations reads the sums of only the pixels it leaves out
    (issue 15): the same centre and covariance as np.median and np.cov of the pixels kept, for a plain table with a
    card cut by the border (few left out) and a table half covered (most left out)."""
    rng = np.random.default_rng(7)
    for covered in (0.05, 0.6):
        n = 4000
        strip = np.clip(rng.normal((120, 135, 150), (6, 3, 4), (n, 3)), 0, 255).T
        k = int(covered * n)
        strip[:, :k] = np.clip(rng.normal((230, 128, 128), 5, (k, 3)), 0, 255).T     # a white card on the border
        strip = np.ascontiguousarray(strip.astype(np.uint8))
        bg, cov = _direct_robust_gaussian(strip, 4.0)
        got = _robust_gaussian(strip, 4.0)
        np.testing.assert_array_equal(got.centre, bg)
        want = np.linalg.cholesky(np.linalg.inv(cov).astype(np.float32).astype(np.float64)).T.astype(np.float32)
        np.testing.assert_allclose(got.whiten, want, rtol=1e-6)


def test_a_kept_table_model_is_reused_while_the_table_is_the_same_and_refitted_when_it_changes():
    """The same gingham and card with fresh noise: the colours of the first read are reused (no new fit)
    and clear the cloth and find the card as a fresh fit does; a plain green felt under the same memory is not
    explained by the gingham's colours: fitted again, and read as a fresh fit reads it."""
    cfg = CardsConfig(fg_modes=3)
    memory = TableMemory()
    first = _with_card(_gingham(np.random.default_rng(4)), (200, 230, 250))
    foreground_mask(first, cfg, memory)
    assert memory.fits == 1
    second = _with_card(_gingham(np.random.default_rng(5)), (200, 230, 250))
    kept = foreground_mask(second, cfg, memory)
    assert memory.fits == 1
    card_kept, table_kept = _card_and_table(kept)
    card_fresh, table_fresh = _card_and_table(foreground_mask(second, cfg))
    assert card_kept > 0.9 and table_kept < 0.02
    assert abs(card_kept - card_fresh) < 0.02 and abs(table_kept - table_fresh) < 0.02

    rng = np.random.default_rng(6)
    felt = np.clip(np.array((60, 120, 40), np.float64) + rng.normal(0, 3, (400, 560, 3)), 0, 255).astype(np.uint8)
    felt = _with_card(felt, (200, 230, 250))
    again = foreground_mask(felt, cfg, memory)
    assert memory.fits == 2
    assert np.array_equal(again, foreground_mask(felt, cfg))
