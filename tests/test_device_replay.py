"""The camera contract (Frame, the error types) and replay sources: photo folders, single photos and video
files given in place of a camera."""

from __future__ import annotations

import ast
import dataclasses
import logging
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

import device
from device import (
    BadImage,
    CameraNotFound,
    DeviceError,
    EndOfStream,
    Frame,
    OpenCVSource,
    ReplaySource,
)
from device.replay import decode_image, natural_key
from tests.camera_frames import H, W, solid, values

DEVICE_DIR = Path(device.__file__).parent


def write_photos(folder: Path, names_values: dict[str, int]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, value in names_values.items():
        assert cv2.imwrite(str(folder / name), solid(value)), name


def read_all(src, limit: int = 100) -> list[Frame]:
    out = []
    for frame in src:
        out.append(frame)
        if len(out) >= limit:
            break
    return out


def write_video(path: Path, intensities: list[int], fps: float = 10.0) -> None:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), fps, (W * 2, H * 2))
    assert writer.isOpened(), "this OpenCV build cannot write MJPG .avi"
    for v in intensities:
        writer.write(np.full((H * 2, W * 2, 3), v, np.uint8))
    writer.release()


# -- contract ------------------------------------------------------------------------------------


def test_frame_is_frozen_with_contract_fields() -> None:
    frame = Frame(image=solid(1), timestamp=0.5, index=3, source="fake")
    assert [f.name for f in dataclasses.fields(Frame)] == ["image", "timestamp", "index", "source"]
    assert (frame.width, frame.height) == (W, H)
    with pytest.raises(dataclasses.FrozenInstanceError):
        frame.index = 4  # type: ignore[misc]


@pytest.mark.parametrize(
    ("error", "builtin"),
    [
        (device.CameraNotFound, FileNotFoundError),
        (device.CameraBusy, RuntimeError),
        (device.CameraDisconnected, ConnectionError),
        (device.EndOfStream, EOFError),
        (device.BadImage, ValueError),
        (device.UnknownSourceSpec, ValueError),
        (device.GPIOUnavailable, RuntimeError),
    ],
)
def test_errors_inherit_device_error_and_builtin(error: type, builtin: type) -> None:
    exc = error("message")
    assert isinstance(exc, DeviceError) and isinstance(exc, builtin)
    assert str(exc) == "message"


def test_no_module_level_picamera2_or_libcamera_import() -> None:
    for path in DEVICE_DIR.glob("*.py"):
        tree = ast.parse(path.read_text(), str(path))
        for node in tree.body:  # module level only: imports inside functions are the lazy ones
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            assert not any(n.split(".")[0] in ("picamera2", "libcamera") for n in names), f"{path}: {names}"
    code = (
        "import sys, device, device.camera, device.picam, device.sources, device.gpio;"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('picamera2', 'libcamera')];"
        "assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)


# -- ReplaySource ----------------------------------------------------------------------------------


def test_natural_key_orders_numbers_numerically() -> None:
    names = ["img10.jpg", "img2.jpg", "IMG1.jpg", "img2b.jpg", "a.png"]
    assert sorted(names, key=natural_key) == ["a.png", "IMG1.jpg", "img2.jpg", "img2b.jpg", "img10.jpg"]


def test_replay_folder_in_natural_order_then_end_of_stream(tmp_path: Path) -> None:
    write_photos(tmp_path, {"img10.png": 100, "img2.png": 20, "img1.png": 10, "IMG3.PNG": 30})
    (tmp_path / "notes.txt").write_text("not a photo")
    src = ReplaySource(tmp_path, fps=5)
    with src:
        assert [p.name for p in src.files] == ["img1.png", "img2.png", "IMG3.PNG", "img10.png"]
        frames = [src.read() for _ in range(4)]
        assert src.current_file is not None and src.current_file.name == "img10.png"
        with pytest.raises(EndOfStream):
            src.read()
        with pytest.raises(EndOfStream):  # stays ended
            src.read()
    assert values(frames) == [10, 20, 30, 100]
    assert [f.index for f in frames] == [0, 1, 2, 3]
    assert [f.timestamp for f in frames] == pytest.approx([0.0, 0.2, 0.4, 0.6])
    assert all(f.source == f"replay:{tmp_path}" for f in frames)
    assert all(f.image.dtype == np.uint8 and f.image.shape == (H, W, 3) for f in frames)
    assert frames[0].image[0, 0].tolist() == [10, 11, 12]  # BGR order kept
    assert not src.is_open


def test_replay_hold_and_loop(tmp_path: Path) -> None:
    write_photos(tmp_path, {"a1.png": 10, "a2.png": 20})
    src = ReplaySource(tmp_path, hold_frames=3, loop=True)
    with src:
        frames = [src.read() for _ in range(9)]
    assert values(frames) == [10, 10, 10, 20, 20, 20, 10, 10, 10]
    assert [f.index for f in frames] == list(range(9))
    assert frames[8].timestamp == pytest.approx(8 / 10.0)  # DEFAULT_FPS
    frames[0].image[:] = 0  # each frame is a copy
    assert values(frames[1:3]) == [10, 10]


def test_replay_reopen_starts_over_and_noise_is_seeded(tmp_path: Path) -> None:
    write_photos(tmp_path, {"a.png": 100})
    src = ReplaySource(tmp_path, hold_frames=3, noise=3.0, seed=7)
    with src:
        first = [src.read().image for _ in range(3)]
    with src:
        again = [src.read().image for _ in range(3)]
    for a, b in zip(first, again, strict=True):
        np.testing.assert_array_equal(a, b)
    assert not np.array_equal(first[0], first[1])  # held frames jitter like a sensor
    assert abs(float(first[0].astype(float).mean()) - 101.0) < 1.0
    other = ReplaySource(tmp_path, noise=3.0, seed=8)
    with other:
        assert not np.array_equal(other.read().image, first[0])


def test_replay_realtime_paces_with_injected_clock(tmp_path: Path) -> None:
    write_photos(tmp_path, {"a.png": 1, "b.png": 2, "c.png": 3})
    now = [100.0]
    sleeps: list[float] = []

    def sleep(seconds: float) -> None:
        sleeps.append(seconds)
        now[0] += seconds

    src = ReplaySource(tmp_path, fps=4, realtime=True, clock=lambda: now[0], sleep=sleep)
    with src:
        for _ in range(3):
            src.read()
    assert sleeps == pytest.approx([0.25, 0.25])
    assert now[0] == pytest.approx(100.5)


def test_replay_truncated_jpeg_is_bad_image_naming_the_file(tmp_path: Path) -> None:
    write_photos(tmp_path, {"p1.jpg": 10, "p3.jpg": 30})
    ok, buf = cv2.imencode(".jpg", solid(20, 120, 160))
    assert ok
    data = buf.tobytes()
    bad = tmp_path / "p2.jpg"
    bad.write_bytes(data[: len(data) * 2 // 3])
    src = ReplaySource(tmp_path)
    with src:
        assert values([src.read()]) == pytest.approx([10], abs=3)  # JPEG is lossy
        with pytest.raises(BadImage) as info:
            src.read()
        assert str(bad) in str(info.value) and info.value.path == str(bad)
        assert isinstance(info.value, ValueError)
        assert values([src.read()]) == pytest.approx([30], abs=3)  # the caller may skip it and go on


def test_jpeg_missing_only_its_end_marker_is_rejected(tmp_path: Path) -> None:
    ok, buf = cv2.imencode(".jpg", solid(50, 64, 64))
    assert ok
    path = tmp_path / "cut.jpg"
    path.write_bytes(buf.tobytes()[:-2])  # older OpenCV would decode this without complaint
    with pytest.raises(BadImage, match="truncated"):
        decode_image(path)
    path.write_bytes(buf.tobytes())
    assert decode_image(path).shape == (64, 64, 3)


def test_replay_skip_bad_logs_and_continues(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    write_photos(tmp_path, {"1.png": 10, "3.png": 30})
    (tmp_path / "2.jpg").write_bytes(b"\xff\xd8 this is not a jpeg")
    with caplog.at_level(logging.WARNING, logger="device.replay"):
        with ReplaySource(tmp_path, skip_bad=True) as src:
            assert values(read_all(src)) == [10, 30]
    assert any("2.jpg" in r.getMessage() for r in caplog.records)


def test_replay_all_bad_is_refused_at_open_and_mid_replay(tmp_path: Path) -> None:
    (tmp_path / "a.png").write_bytes(b"garbage")
    (tmp_path / "b.png").write_bytes(b"")
    src = ReplaySource(tmp_path, skip_bad=True, loop=True)
    with pytest.raises(BadImage, match="none of the 2 images") as info:  # nothing to replay, as an empty folder
        src.open()
    assert "the first: " in str(info.value) and "a.png" in str(info.value)  # why, for one of them
    assert not src.is_open
    write_photos(tmp_path, {"a.png": 10})
    with src:
        assert values([src.read()]) == [10]
        (tmp_path / "a.png").write_bytes(b"garbage again")  # both bad now, mid-replay
        with pytest.raises(BadImage, match="none of the 2 images"):
            src.read()


def test_a_single_photo_that_cannot_be_decoded_says_its_own_problem(tmp_path: Path) -> None:
    photo = tmp_path / "table.png"
    photo.write_bytes(b"")
    with pytest.raises(BadImage, match=r"table\.png is empty \(0 bytes\)"):
        ReplaySource(photo).open()


def test_replay_empty_folder_names_folder_and_extensions(tmp_path: Path) -> None:
    (tmp_path / "readme.txt").write_text("no photos here")
    src = ReplaySource(tmp_path)
    with pytest.raises(CameraNotFound) as info:
        src.open()
    message = str(info.value)
    assert str(tmp_path) in message and ".jpg" in message and ".png" in message
    assert isinstance(info.value, FileNotFoundError)
    assert not src.is_open


def test_replay_missing_path(tmp_path: Path) -> None:
    with pytest.raises(CameraNotFound, match=r"nope does not exist: give a folder of photos"):
        ReplaySource(tmp_path / "nope").open()


def test_replay_rejects_bad_arguments(tmp_path: Path) -> None:
    with pytest.raises(ValueError):
        ReplaySource(tmp_path, hold_frames=0)
    with pytest.raises(ValueError):
        ReplaySource(tmp_path, fps=0)
    with pytest.raises(RuntimeError, match="not open"):
        ReplaySource(tmp_path).read()


def test_replay_video_file(tmp_path: Path) -> None:
    video = tmp_path / "roll.avi"
    write_video(video, [0, 60, 120, 180, 240], fps=10.0)
    with ReplaySource(video) as src:
        frames = read_all(src)
    assert len(frames) == 5
    assert [round(v / 60) for v in values(frames)] == [0, 1, 2, 3, 4]  # MJPG is lossy
    assert frames[0].image.shape == (H * 2, W * 2, 3) and frames[0].image.dtype == np.uint8
    assert [f.timestamp for f in frames] == pytest.approx([0.0, 0.1, 0.2, 0.3, 0.4])
    assert src.effective_fps == pytest.approx(10.0)

    with ReplaySource(video, hold_frames=2, loop=True) as src:
        frames = [src.read() for _ in range(12)]
    assert [round(v / 60) for v in values(frames)] == [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 0, 0]


@pytest.mark.parametrize("content", [b"RIFF\x00\x00\x00\x00AVI garbage", b""], ids=["garbage", "empty"])
def test_replay_corrupt_video_is_bad_image_at_open(tmp_path: Path, content: bytes) -> None:
    """A video OpenCV cannot open is nothing to replay: refused at open (as a folder none of whose photos decodes),
    not a box that starts and waits for frames that never come."""
    video = tmp_path / "broken.avi"
    video.write_bytes(content)
    src = ReplaySource(video)
    with pytest.raises(BadImage) as info:
        src.open()
    said = "is empty (0 bytes): copy it again" if not content else "cannot open the video"
    assert "broken.avi" in str(info.value) and said in str(info.value)


def test_opencv_video_file_ends_with_end_of_stream(tmp_path: Path) -> None:
    video = tmp_path / "clip.avi"
    write_video(video, [30, 90, 150])
    with OpenCVSource(str(video)) as src:
        frames = [src.read() for _ in range(3)]
        with pytest.raises(EndOfStream):
            src.read()
    assert src.name == f"opencv:{video}"
    assert [f.timestamp for f in frames] == pytest.approx([0.0, 0.1, 0.2])
    with pytest.raises(CameraNotFound, match="no video file"):
        OpenCVSource(str(tmp_path / "missing.mp4")).open()
