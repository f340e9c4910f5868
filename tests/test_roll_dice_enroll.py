"""Enrolling Roll dice (vision/roll_dice/enroll.py): the dice of an enrollment share one size, so a photo whose dice
came out at another size (a light symbol's frame on a dark die on a table of the die's colour taken for the die) is
looked at again at the enrollment's size, and its pair's template shows the die's face.

Photos come from the second scene generator's enrollment writer (:func:`vision.scenes.write_dice_enrollment`): a
brown die's produce face is a light crate, a square about half the die, on a brown body, on tables that include
brown wood.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision import scenes
from vision.roll_dice import RollDiceConfig, build_profile
from vision.roll_dice.faces import windows_of
from vision.roll_dice.tops import ink_maps, upright_patch

#: brown dice only: two faces whose photos show the dice at their size, and the produce face (light crate)
BROWN = {"brown": ["explore", "develop", "produce"]}
OFF = replace(RollDiceConfig(), enroll_side_off=0.0)


@pytest.fixture(scope="module")
def brown_folder(tmp_path_factory):
    # enrollment seed 2: the produce photo's crates (about 25 px) are taken for the dice (about 57 px) at the
    # size measured on that photo alone
    return scenes.write_dice_enrollment(tmp_path_factory.mktemp("enroll_brown"), BROWN, seed=2, edition="light-ink")


def _labelled_produce_inks(config: RollDiceConfig) -> np.ndarray:
    """The ink patches ``float32[6, 2, q, q]`` of the produce photo's six dice cut at their labelled top faces (the
    generator's own squares): the photo re-rendered from its seed (pair 2 of the folder, photo 0)."""
    cfg = replace(scenes.ENROLL_SCENE, n_dice=(6, 6))
    scene = scenes.render_dice_scene(2 * 100000 + 2 * 100, cfg, dice=[("brown", "produce")] * 6, edition="light-ink")
    patches = []
    for lab in scene.dice:
        (cx, cy), (w, h), ang = cv2.minAreaRect(np.asarray(lab.quad, np.float32))
        patches.append(upright_patch(scene.image, cx, cy, float(np.sqrt(w * h)), ang, config.patch,
                                     config.patch_margin))
    return ink_maps(np.stack(patches), config)[0]


def _best_ncc(profile, inks: np.ndarray, config: RollDiceConfig) -> np.ndarray:
    """Each die's best NCC ``float[N]`` with the profile's brown produce template, over shifts and quarter turns."""
    tpl = profile.templates[profile.template_pairs.index(("brown", "produce"))]
    return np.einsum("nsd,d->ns", windows_of(inks, config), tpl).max(1)


@pytest.mark.slow
def test_a_photo_whose_dice_came_out_a_symbol_frame_small_is_enrolled_at_the_dice_size(brown_folder):
    profile = build_profile(brown_folder)
    alone = build_profile(brown_folder, config=OFF)
    # every photo shows 6 dice of its pair; measured on the produce photo alone, only 5 crates were kept
    assert profile.dice_seen == {"brown-explore": 6, "brown-develop": 6, "brown-produce": 6}
    assert alone.dice_seen["brown-produce"] < 6
    # the photos at the enrollment's size are enrolled as they were
    for pair in (("brown", "explore"), ("brown", "develop")):
        k, j = profile.template_pairs.index(pair), alone.template_pairs.index(pair)
        assert np.array_equal(profile.templates[k], alone.templates[j])
    # the produce template is the die's face: the six dice cut at their labelled squares match it better, every one
    cfg = RollDiceConfig()
    inks = _labelled_produce_inks(cfg)
    assert (_best_ncc(profile, inks, cfg) > _best_ncc(alone, inks, cfg) + 0.05).all()


@pytest.mark.slow
def test_photos_at_one_size_are_enrolled_as_the_size_measured_on_each_gives(tmp_path):
    # the enrollment's photos vary a little in camera distance (dice 46-66 px): none is looked at again
    folder = scenes.write_dice_enrollment(tmp_path / "enroll", BROWN, seed=1, edition="light-ink")
    assert build_profile(folder) == build_profile(folder, config=OFF)


@pytest.mark.slow
def test_a_photo_spoilt_before_its_second_look_keeps_its_first(brown_folder, monkeypatch):
    # the second look reads the photo again; a photo gone or spoilt meanwhile is enrolled as the first look found it,
    # the enrollment does not stop
    from vision.errors import BadFrame
    from vision.roll_dice import enroll

    first_looks = build_profile(brown_folder, config=OFF)
    real, reads = enroll.read_image_file, []

    def once(path):
        reads.append(path)
        if reads.count(path) > 1:
            raise BadFrame(f"cannot read image {path} (missing, not an image, or corrupt)")
        return real(path)

    monkeypatch.setattr(enroll, "read_image_file", once)
    profile = build_profile(brown_folder)
    assert profile == first_looks
    assert len(reads) > len(set(reads))   # the produce photo was asked for a second look
