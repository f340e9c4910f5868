"""Image files the box decodes (device.images, device.opencv_env): sizes checked from the header before
decoding, one line per refusal, and no OpenCV / libpng / libjpeg noise on standard error."""

from __future__ import annotations

import os
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from device import BadImage, CameraNotFound, EndOfStream, OpenCVSource, ReplaySource, decode_image
from device.images import check_image_size
from device.opencv_env import MAX_IMAGE_PIXELS, OPENCV_ENVIRONMENT, configure_opencv, native_noise_dropped


def png_chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png_declaring(width: int, height: int, rows: int = 4) -> bytes:
    """A PNG whose header declares width x height (8-bit RGB) with only ``rows`` rows of zeros compressed:
    a decompression bomb's header at a test's size (the real one compresses 1.2 GB into 389 KB)."""
    idat = zlib.compress((b"\x00" + b"\x00" * (3 * width)) * rows, 9)
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr) + png_chunk(b"IDAT", idat) + png_chunk(b"IEND", b"")


def test_a_decompression_bomb_is_refused_from_its_header_in_one_line(tmp_path):
    bomb = tmp_path / "bomb.png"
    bomb.write_bytes(png_declaring(20000, 20000))
    with pytest.raises(BadImage) as info:
        decode_image(bomb)
    message = str(info.value)
    assert message == f"image {bomb} is 20000x20000 px (400 MP): the box decodes at most 50 MP; scale it down"
    assert info.value.path == str(bomb)


def test_a_picture_within_the_bound_decodes_and_the_header_size_is_reported(tmp_path):
    ok, buf = cv2.imencode(".png", np.full((30, 40, 3), 90, np.uint8))
    assert ok
    assert check_image_size(buf.tobytes(), "x.png") == (40, 30)
    assert check_image_size(b"not an image", "x.png") is None  # unknown header: OpenCV decides, within its limit
    side = int(MAX_IMAGE_PIXELS**0.5)
    assert check_image_size(png_declaring(side, side, rows=1), "edge.png") == (side, side)  # at the bound: allowed
    with pytest.raises(BadImage, match=r"7072x7071 px"):
        check_image_size(png_declaring(7072, 7071, rows=1), "over.png")


@pytest.mark.parametrize("kind", ["folder", "pipe", "device", "missing"])
def test_only_regular_files_are_read(tmp_path, kind):
    path = {"folder": tmp_path, "pipe": tmp_path / "p.png", "device": Path("/dev/zero"), "missing": tmp_path / "no.png"}[kind]
    if kind == "pipe":
        os.mkfifo(path)  # opening it for reading must not wait for a writer
    with pytest.raises(BadImage) as info:
        decode_image(path)
    assert str(path) in str(info.value) and "\n" not in str(info.value)


def test_opencv_limits_are_set_before_cv2_is_imported():
    # In a fresh process the box's packages set OpenCV's environment first: OpenCV itself then refuses
    # the bomb's header at once (checked: setting it after `import cv2` has no effect).
    code = (
        "import companion, os, cv2, numpy as np, sys;"
        "print(os.environ['OPENCV_IO_MAX_IMAGE_PIXELS'], cv2.utils.logging.getLogLevel());"
        "data = np.frombuffer(sys.stdin.buffer.read(), np.uint8)\n"
        "try:\n    cv2.imdecode(data, cv2.IMREAD_COLOR); print('decoded')\n"
        "except cv2.error as e:\n    print('refused', 'CV_IO_MAX_IMAGE_PIXELS' in str(e))\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENCV_")}
    result = subprocess.run([sys.executable, "-c", code], input=png_declaring(20000, 20000), capture_output=True,
                            env=env, timeout=120)
    assert result.stdout.decode().split() == [str(MAX_IMAGE_PIXELS), "0", "refused", "True"], result.stderr
    assert result.stderr == b""


def test_an_owner_setting_is_kept():
    environ = {"OPENCV_IO_MAX_IMAGE_PIXELS": "1000"}
    configure_opencv(environ)
    assert environ == {**OPENCV_ENVIRONMENT, "OPENCV_IO_MAX_IMAGE_PIXELS": "1000"}


def corrupt_jpeg(tmp_path: Path) -> Path:
    image = np.random.default_rng(1).integers(0, 255, (64, 64, 3), np.uint8)
    ok, buf = cv2.imencode(".jpg", image)
    assert ok
    data = bytearray(buf.tobytes())
    middle = len(data) // 2
    data[middle:middle + 40] = b"\xff" * 40  # damaged entropy-coded data; the end marker is still there
    path = tmp_path / "damaged.jpg"
    path.write_bytes(bytes(data))
    return path


def test_libjpeg_and_libpng_warnings_do_not_reach_the_user(tmp_path, capfd):
    damaged = corrupt_jpeg(tmp_path)
    decode_image(damaged)  # libjpeg decodes what it can ("Corrupt JPEG data: ..." on stderr before)
    ok, buf = cv2.imencode(".png", np.zeros((8, 8, 3), np.uint8))
    png = bytearray(buf.tobytes())
    png[37:41] = b"IDA\x00"  # a broken chunk type: "libpng error: IDA[00]: bad header"
    bad_png = tmp_path / "bad.png"
    bad_png.write_bytes(bytes(png))
    with pytest.raises(BadImage, match="cannot be decoded"):
        decode_image(bad_png)
    (tmp_path / "junk.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"junk" * 10)  # OpenCV's own "[ERROR:...]" line
    with pytest.raises(BadImage):
        decode_image(tmp_path / "junk.png")
    out, err = capfd.readouterr()
    assert err == "" and out == ""


def test_other_output_during_a_decode_is_passed_on(capfd):
    with native_noise_dropped():
        os.write(2, b"libpng warning: iCCP: known incorrect sRGB profile\n")
        os.write(2, b"2026-12-01 20:00:00,000 WARNING companion: our own line\n")
    assert capfd.readouterr().err == "2026-12-01 20:00:00,000 WARNING companion: our own line\n"


class HugeCapture:
    """A cv2.VideoCapture stand-in whose container declares 20000 x 20000 px frames."""

    released = False

    def __init__(self, _target):
        pass

    def isOpened(self):
        return True

    def get(self, prop):
        return {cv2.CAP_PROP_FRAME_WIDTH: 20000.0, cv2.CAP_PROP_FRAME_HEIGHT: 20000.0}.get(prop, 0.0)

    def read(self):
        raise AssertionError("no frame may be decoded")

    def release(self):
        HugeCapture.released = True


def test_a_video_with_frames_over_the_bound_is_refused_before_any_frame_is_decoded(tmp_path):
    video = tmp_path / "huge.avi"
    video.write_bytes(b"RIFF")
    with pytest.raises(CameraNotFound, match=r"20000x20000 px frames \(400 MP\)"):
        OpenCVSource(video, capture_factory=HugeCapture).open()
    assert HugeCapture.released


def test_a_replayed_bomb_is_skipped_like_any_bad_photo(tmp_path):
    assert cv2.imwrite(str(tmp_path / "1.png"), np.full((20, 20, 3), 80, np.uint8))
    (tmp_path / "2.png").write_bytes(png_declaring(20000, 20000))
    with ReplaySource(tmp_path, skip_bad=True) as src:
        assert src.read().image.shape == (20, 20, 3)
        with pytest.raises(EndOfStream):
            src.read()


def test_companion_read_refuses_a_bomb_in_one_line(tmp_path):
    bomb = tmp_path / "bomb.png"
    bomb.write_bytes(png_declaring(20000, 20000))
    result = subprocess.run([sys.executable, "-m", "companion.cli", "read", str(bomb), "--json"],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr == f"companion read: image {bomb} is 20000x20000 px (400 MP): the box decodes at most 50 MP; scale it down\n"


def test_enroll_and_calibrate_refuse_a_bomb_before_vision_decodes_it(tmp_path, capsys):
    from companion.commands.calibrate import cmd_calibrate
    from companion.commands.enroll import cmd_enroll_cards, cmd_enroll_roll_dice

    bomb = png_declaring(20000, 20000)
    (tmp_path / "dice" / "white-explore").mkdir(parents=True)
    (tmp_path / "dice" / "white-explore" / "01.png").write_bytes(bomb)
    (tmp_path / "cards" / "c1").mkdir(parents=True)
    (tmp_path / "cards" / "c1" / "a.png").write_bytes(bomb)
    (tmp_path / "lens.png").write_bytes(bomb)
    assert cmd_enroll_roll_dice(tmp_path / "dice", tmp_path / "p.json", warn_missing=False) == 1
    assert cmd_enroll_cards(tmp_path / "cards", tmp_path / "deck.json") == 1
    assert cmd_calibrate(str(tmp_path / "none"), [tmp_path / "lens.png"], tmp_path / "cal.json") == 1
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 3 and all("20000x20000 px (400 MP)" in line for line in lines)
    assert not (tmp_path / "p.json").exists() and not (tmp_path / "deck.json").exists()


def test_opencv_refusing_a_header_is_the_same_one_line(tmp_path):
    # A header imagesize cannot read (here: pretended) is left to OpenCV, whose own limit then refuses it.
    bomb = tmp_path / "odd.png"
    bomb.write_bytes(png_declaring(20000, 20000))
    code = (
        "import sys, device.images as im\n"
        "im.check_image_size = lambda data, name: None\n"
        "try:\n    im.decode_image(im.Path(sys.argv[1]))\n"
        "except im.BadImage as exc:\n    print(exc)\n"
    )
    result = subprocess.run([sys.executable, "-c", code, str(bomb)], capture_output=True, text=True, timeout=120)
    assert result.stdout == f"image {bomb} is larger than 50 MP by its header: the box decodes no bigger picture; scale it down\n"
    assert result.stderr == ""
