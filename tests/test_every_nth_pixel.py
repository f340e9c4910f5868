"""vision.frames.every_nth_pixel: the bytes of ``image[::step, ::step]`` whichever way they are gathered."""

from __future__ import annotations

import numpy as np
import pytest

from vision.frames import every_nth_pixel


@pytest.mark.parametrize("size", [(720, 1280), (1296, 2304), (723, 1283), (45, 7 * 331), (3040, 4056)])
@pytest.mark.parametrize("step", [1, 2, 3, 4, 7, 12])
def test_every_nth_pixel_is_the_strided_copy_of_any_layout(size, step):
    """Sizes the step divides (OpenCV's nearest-neighbour resize) and sizes it does not (numpy's gather), BGR and
    grey, contiguous, a crop of a larger frame, mirrored, channels reversed, Fortran-ordered: always the same bytes
    as ``image[::step, ::step]``, C-contiguous."""
    rng = np.random.default_rng(size[0] * 31 + step)
    frame = rng.integers(0, 256, (*size, 3), dtype=np.uint8)
    grey = frame[..., 1].copy()
    bgra = rng.integers(0, 256, (*size, 4), dtype=np.uint8)
    for img in (frame, frame[step:, : size[1] - step], frame[:, ::-1], frame[..., ::-1], np.asfortranarray(frame),
                grey, grey[:, ::-1], bgra):
        got = every_nth_pixel(img, step)
        want = img[::step, ::step]
        assert got.flags.c_contiguous and got.dtype == img.dtype and got.shape == want.shape
        assert np.array_equal(got, want)


def test_every_nth_pixel_refuses_a_step_below_one():
    with pytest.raises(ValueError, match="step of at least 1"):
        every_nth_pixel(np.zeros((8, 8, 3), np.uint8), 0)
