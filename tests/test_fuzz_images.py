"""A bounded, seeded fuzz of image decoding (device.images.decode_image, every picture file the box reads):
random bytes, truncated and corrupt PNG/JPEG/BMP/WebP/TIFF files, headers declaring huge sizes. Each file
decodes to a bounded BGR picture or is refused with one BadImage line naming it; nothing else is raised
and nothing reaches standard error."""

from __future__ import annotations

import struct
import tempfile
import zlib
from pathlib import Path

import cv2
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from device import BadImage, decode_image
from device.opencv_env import MAX_IMAGE_PIXELS
from tests.fuzzing import FUZZ, run_cli


def _encodings() -> dict[str, bytes]:
    rng = np.random.default_rng(12)
    image = rng.integers(0, 255, (24, 32, 3), np.uint8)
    image[6:18, 8:24] = (40, 200, 90)  # some structure, so the codecs have more than noise to carry
    out = {}
    for ext in (".png", ".jpg", ".bmp", ".webp", ".tif"):
        ok, buf = cv2.imencode(ext, image)
        assert ok, ext
        out[ext] = buf.tobytes()
    return out


ENCODED = _encodings()


def png_with_size(width: int, height: int, fix_crc: bool) -> bytes:
    """The fuzz's PNG with its header's width and height replaced (CRC fixed or left stale)."""
    data = bytearray(ENCODED[".png"])
    data[16:24] = struct.pack(">II", width, height)
    if fix_crc:
        data[29:33] = struct.pack(">I", zlib.crc32(bytes(data[12:29])) & 0xFFFFFFFF)
    return bytes(data)


def jpeg_with_size(width: int, height: int) -> bytes:
    """The fuzz's JPEG with its start-of-frame's width and height replaced."""
    data = bytearray(ENCODED[".jpg"])
    sof = next(i for i in range(2, len(data) - 9) if data[i] == 0xFF and data[i + 1] in (0xC0, 0xC1, 0xC2))
    data[sof + 5:sof + 9] = struct.pack(">HH", height, width)
    return bytes(data)


dimension = st.one_of(st.integers(0, 300), st.integers(0, 2**16 - 1), st.sampled_from([2**31 - 1, 2**32 - 1, 70_000]))
truncated = st.sampled_from(sorted(ENCODED)).flatmap(
    lambda ext: st.integers(0, len(ENCODED[ext])).map(lambda n: ENCODED[ext][:n]))
corrupted = st.tuples(
    st.sampled_from(sorted(ENCODED)),
    st.lists(st.tuples(st.one_of(st.integers(0, 64), st.integers(0, 3000)), st.integers(0, 255)),
             min_size=1, max_size=8),
).map(lambda spec: _patched(ENCODED[spec[0]], spec[1]))
huge = st.one_of(
    st.builds(png_with_size, dimension, dimension, st.booleans()),
    st.builds(jpeg_with_size, st.integers(0, 2**16 - 1), st.integers(0, 2**16 - 1)),
)
files = st.one_of(st.binary(max_size=2048), truncated, corrupted, huge,
                  st.sampled_from([b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff", b"BM",
                                   b"RIFF\x00\x00\x00\x00WEBP", b"II*\x00"]))


def _patched(data: bytes, changes: list[tuple[int, int]]) -> bytes:
    out = bytearray(data)
    for at, value in changes:
        if at < len(out):
            out[at] = value
    return bytes(out)


def declared_pixels(data: bytes) -> int | None:
    """What the fuzz put into a header it made (PNG IHDR, JPEG SOF), or None."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24 and data[12:16] == b"IHDR":
        width, height = struct.unpack(">II", data[16:24])
        return width * height
    return None


def test_decoding_any_file_gives_a_bounded_picture_or_one_line(capfd):
    with tempfile.TemporaryDirectory() as folder:
        @settings(FUZZ, max_examples=300)  # cheap: a decode is a millisecond or so
        @given(data=files, suffix=st.sampled_from([".png", ".jpg", ".jpeg", ".bmp", ".webp", ".tif"]))
        def fuzz(data, suffix):
            path = Path(folder) / f"photo{suffix}"
            path.write_bytes(data)
            try:
                image = decode_image(path)
            except BadImage as exc:
                message = str(exc)
                assert str(path) in message and "\n" not in message, message
                assert exc.path == str(path)
                return
            assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3
            assert image.shape[0] * image.shape[1] <= MAX_IMAGE_PIXELS
            declared = declared_pixels(data)
            assert declared is None or declared <= MAX_IMAGE_PIXELS  # a huge header never reaches the decoder

        fuzz()
    out, err = capfd.readouterr()
    assert (out, err) == ("", "")  # no libpng/libjpeg/OpenCV line reached the user


def test_huge_declared_sizes_are_always_refused_from_the_header():
    with tempfile.TemporaryDirectory() as folder:
        @FUZZ
        @given(width=st.integers(7072, 2**31 - 1), height=st.integers(7072, 2**31 - 1),
               kind=st.sampled_from(["png", "jpg"]))
        def fuzz(width, height, kind):
            if kind == "jpg":
                width, height = min(width, 2**16 - 1), min(height, 2**16 - 1)
            data = png_with_size(width, height, True) if kind == "png" else jpeg_with_size(width, height)
            path = Path(folder) / f"bomb.{kind}"
            path.write_bytes(data)
            try:
                decode_image(path)
            except BadImage as exc:
                assert f"is {width}x{height} px" in str(exc)
            else:
                raise AssertionError(f"{width}x{height} decoded")

        fuzz()


def test_companion_read_on_fuzzed_files_exits_0_or_1_with_one_line_per_bad_file():
    with tempfile.TemporaryDirectory() as folder:
        good = Path(folder) / "good.png"
        good.write_bytes(ENCODED[".png"])

        @settings(FUZZ, max_examples=6)  # each run loads the dice reader's model: a few examples only
        @given(data=files)
        def fuzz(data):
            bad = Path(folder) / "fuzzed.jpg"
            bad.write_bytes(data)
            code, out, err = run_cli(["read", str(bad), str(good), "--json"])
            assert code in (0, 1) and "Traceback" not in err
            assert len(out.splitlines()) == (2 if code == 0 else 1)  # the good photo is read either way
            assert err == "" if code == 0 else (err.count("\n") == 1 and err.startswith(f"companion read: image {bad}")
                                                 or err.startswith(f"companion read: {bad}")), err

        fuzz()
