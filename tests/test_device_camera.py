"""Live camera sources: OpenCV (a fake cv2.VideoCapture), Picamera2 (with a fake picamera2 module), FakeCamera's
faults, and open_source choosing among them."""

from __future__ import annotations

import sys
import threading
import types
from pathlib import Path

import cv2
import numpy as np
import pytest

from device import (
    CameraBusy,
    CameraDisconnected,
    CameraNotFound,
    FakeCamera,
    Fault,
    FaultKind,
    Frame,
    OpenCVSource,
    Picamera2Source,
    ReplaySource,
    UnknownSourceSpec,
    open_source,
)
from tests.camera_frames import solid, values

# -- OpenCVSource ----------------------------------------------------------------------------------


class FakeCapture:
    """Stands in for cv2.VideoCapture: delivers ``frames`` then fails like an unplugged webcam."""

    def __init__(self, target, frames=(), opened=True) -> None:
        self.target = target
        self.frames = list(frames)
        self.opened = opened
        self.released = False
        self.props: dict[int, float] = {}

    def isOpened(self) -> bool:  # noqa: N802 - cv2's name
        return self.opened

    def read(self):
        if self.frames:
            return True, self.frames.pop(0)
        return False, None

    def get(self, prop: int) -> float:
        return self.props.get(prop, 0.0)

    def set(self, prop: int, value: float) -> bool:
        self.props[prop] = value
        return True

    def release(self) -> None:
        self.released = True


def test_opencv_missing_device_index_is_camera_not_found_with_hint() -> None:
    src = OpenCVSource(99)
    assert src.name == "opencv:99"
    with pytest.raises(CameraNotFound) as info:
        src.open()
    message = str(info.value)
    assert "/dev/video99" in message and "opencv:99" in message and "companion demo" in message


def test_opencv_webcam_disconnect_after_frames() -> None:
    captures: list[FakeCapture] = []

    def factory(target):
        captures.append(FakeCapture(target, [solid(5), solid(6)]))
        return captures[-1]

    ticks = iter([1.0, 2.0])
    src = OpenCVSource("0", size=(640, 480), capture_factory=factory, clock=lambda: next(ticks))
    with src:
        a, b = src.read(), src.read()
        with pytest.raises(CameraDisconnected, match="after 2"):
            src.read()
    assert captures[0].target == 0 and captures[0].released
    assert captures[0].props[cv2.CAP_PROP_FRAME_WIDTH] == 640
    assert (a.index, b.index, a.timestamp, b.timestamp) == (0, 1, 1.0, 2.0)
    assert a.source == "opencv:0" and values([a, b]) == [5, 6]


# -- Picamera2Source (fake picamera2 module) -------------------------------------------------------


class FakePicamera2:
    """Records what Picamera2Source asks of picamera2.Picamera2; no hardware."""

    cameras: list[dict] = [{"Model": "imx708", "Num": 0, "Id": "/base/soc/i2c0mux/i2c@1/imx708@1a"}]
    instances: list[FakePicamera2] = []
    fail_init: Exception | None = None
    channels = 3

    def __init__(self, camera_num: int = 0) -> None:
        if FakePicamera2.fail_init is not None:
            raise FakePicamera2.fail_init
        self.camera_num = camera_num
        self.calls: list[tuple] = []
        self.config: dict | None = None
        self.fail_capture = False
        FakePicamera2.instances.append(self)

    @staticmethod
    def global_camera_info() -> list[dict]:
        return list(FakePicamera2.cameras)

    def create_preview_configuration(self, main=None, **kwargs) -> dict:
        self.calls.append(("create_preview_configuration", main))
        return {"main": dict(main or {}), **kwargs}

    def configure(self, config: dict) -> None:
        self.calls.append(("configure",))
        self.config = config

    def start(self) -> None:
        self.calls.append(("start",))

    def capture_array(self, name: str = "main", wait=None) -> np.ndarray:
        self.calls.append(("capture_array", name, wait))
        if self.fail_capture:
            raise TimeoutError("no frame")
        width, height = self.config["main"]["size"]
        return np.full((height, width, self.channels), 7, np.uint8)

    def stop(self) -> None:
        self.calls.append(("stop",))

    def close(self) -> None:
        self.calls.append(("close",))

    def capture_metadata(self, wait=None) -> dict:
        self.calls.append(("capture_metadata", wait))
        return {"ExposureTime": 16000, "AnalogueGain": 2.5, "ColourGains": (1.8, 1.4), "Lux": 300.0}

    def set_controls(self, controls: dict) -> None:
        self.calls.append(("set_controls", dict(controls)))


@pytest.fixture
def fake_picamera2(monkeypatch: pytest.MonkeyPatch) -> type[FakePicamera2]:
    module = types.ModuleType("picamera2")
    module.Picamera2 = FakePicamera2  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "picamera2", module)
    monkeypatch.setattr(FakePicamera2, "instances", [])
    monkeypatch.setattr(FakePicamera2, "fail_init", None)
    monkeypatch.setattr(FakePicamera2, "channels", 3)
    return FakePicamera2


def test_picamera2_frames_are_bgr_uint8_from_rgb888(fake_picamera2: type[FakePicamera2]) -> None:
    ticks = iter([10.0, 10.5])
    src = Picamera2Source(size=(64, 48), clock=lambda: next(ticks))
    with src:
        frames = [src.read(), src.read()]
    cam = fake_picamera2.instances[0]
    assert cam.camera_num == 0
    assert cam.calls[0] == ("create_preview_configuration", {"size": (64, 48), "format": "RGB888"})
    assert cam.calls[-2:] == [("stop",), ("close",)]
    assert ("capture_array", "main", 5.0) in cam.calls
    assert frames[0].image.shape == (48, 64, 3) and frames[0].image.dtype == np.uint8
    assert [(f.index, f.timestamp, f.source) for f in frames] == [(0, 10.0, "picamera2:0"), (1, 10.5, "picamera2:0")]
    assert not src.is_open


def test_picamera2_holds_exposure_and_white_balance_while_the_table_is_still(
        fake_picamera2: type[FakePicamera2]) -> None:
    # Issue 16: a still table's light never steps between two reads: AeEnable/AwbEnable off with the values the camera
    # reports for the latest frame, on again when the table moves; asked twice, it acts once.
    with Picamera2Source(size=(16, 8)) as src:
        src.read()
        src.hold_light(True)
        src.hold_light(True)
        src.hold_light(False)
        src.hold_light(False)
        cam = fake_picamera2.instances[0]
    controls = [c[1] for c in cam.calls if c[0] == "set_controls"]
    assert controls == [{"AeEnable": False, "AwbEnable": False, "ExposureTime": 16000, "AnalogueGain": 2.5,
                         "ColourGains": (1.8, 1.4)},
                        {"AeEnable": True, "AwbEnable": True}]
    src.hold_light(True)  # closed: nothing happens, nothing raised


def test_picamera2_that_refuses_the_controls_reads_on(fake_picamera2: type[FakePicamera2], caplog,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(self, controls):
        raise RuntimeError("control out of range")

    monkeypatch.setattr(fake_picamera2, "set_controls", refuse)
    with Picamera2Source(size=(16, 8)) as src:
        src.hold_light(True)
        assert src.read().image.shape == (8, 16, 3)
    assert "could not hold the exposure and white balance" in caplog.text


def test_picamera2_four_channel_arrays_lose_alpha(fake_picamera2: type[FakePicamera2]) -> None:
    fake_picamera2.channels = 4
    with Picamera2Source(size=(16, 8)) as src:
        assert src.read().image.shape == (8, 16, 3)


def test_picamera2_missing_module_is_camera_not_found_with_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "picamera2", None)  # makes `import picamera2` raise ImportError
    with pytest.raises(CameraNotFound) as info:
        Picamera2Source().open()
    message = str(info.value)
    assert "sudo apt install python3-picamera2" in message and "opencv:0" in message
    assert "picamera2:0" in message


def test_picamera2_broken_import_is_camera_not_found_with_numpy_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    class Broken(types.ModuleType):
        def __getattr__(self, name: str):
            raise ValueError("numpy.dtype size changed, may indicate binary incompatibility")

    monkeypatch.setitem(sys.modules, "picamera2", Broken("picamera2"))
    with pytest.raises(CameraNotFound, match="numpy<2"):
        Picamera2Source().open()
    with pytest.raises(CameraNotFound, match="numpy<2"):  # auto explains it as well
        open_source("auto", capture_factory=lambda target: FakeCapture(target, opened=False))


def test_auto_without_any_camera_says_the_demo_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """`auto` tries the Pi camera, then the webcam, whose own error already ends with the demo hint: the message
    (what `companion doctor` prints on its camera line) says "run `companion demo`" once, at its end."""
    monkeypatch.setitem(sys.modules, "picamera2", None)  # no picamera2 here
    with pytest.raises(CameraNotFound) as info:
        open_source("auto", capture_factory=lambda target: FakeCapture(target, opened=False))
    message = str(info.value)
    assert message.startswith("no camera found (auto): picamera2: ") and "opencv:0" in message
    assert message.count("companion demo") == 1 and message.endswith("or run `companion demo` to replay photos")


def test_picamera2_no_camera(fake_picamera2: type[FakePicamera2], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fake_picamera2, "cameras", [])
    with pytest.raises(CameraNotFound, match="no camera at picamera2:0"):
        Picamera2Source().open()
    assert fake_picamera2.instances == []


def test_picamera2_busy(fake_picamera2: type[FakePicamera2]) -> None:
    try:
        try:
            raise RuntimeError("Failed to acquire camera: Device or resource busy")
        except RuntimeError as inner:
            raise RuntimeError("Camera __init__ sequence did not complete.") from inner
    except RuntimeError as outer:
        fake_picamera2.fail_init = outer
    with pytest.raises(CameraBusy, match="in use by another program"):
        Picamera2Source().open()


def test_picamera2_capture_failure_is_disconnect(fake_picamera2: type[FakePicamera2]) -> None:
    with Picamera2Source(size=(8, 8)) as src:
        src.read()
        fake_picamera2.instances[0].fail_capture = True
        with pytest.raises(CameraDisconnected, match="after 1"):
            src.read()


# -- FakeCamera ----------------------------------------------------------------------------------


def frames_0_to(n: int) -> list[np.ndarray]:
    return [solid(10 * i) for i in range(n)]


def test_fake_camera_replays_and_records() -> None:
    cam = FakeCamera(frames_0_to(3))
    frames = list(cam)  # iterating opens it and stops at EndOfStream
    cam.close()
    assert values(frames) == [0, 10, 20] and [f.index for f in frames] == [0, 1, 2]
    assert [f.timestamp for f in frames] == pytest.approx([0.0, 0.1, 0.2])
    assert cam.calls == [("open",), ("read", 0), ("read", 1), ("read", 2), ("end",), ("close",)]


def test_fake_camera_drop_glare_and_white_balance_faults() -> None:
    cam = FakeCamera(frames_0_to(5), faults=[Fault.drop(1), Fault.glare(2, box=(4, 4, 12, 12)), "wb_flip@3"])
    with cam:
        frames = list(cam)
    assert [f.index for f in frames] == [0, 2, 3, 4]  # the dropped frame leaves a gap
    glare = frames[1].image
    assert glare[10, 10].tolist() == [255, 255, 255] and glare[0, 0].tolist() == [20, 21, 22]
    assert int((glare == 255).all(axis=2).sum()) > 50
    assert frames[2].image[0, 0].tolist() == [32, 31, 30]  # red and blue swapped
    assert frames[3].image[0, 0].tolist() == [40, 41, 42]
    assert ("drop", 1) in cam.calls and ("glare", 2) in cam.calls and ("wb_flip", 3) in cam.calls


def test_fake_camera_random_glare_is_seeded() -> None:
    def glare_mask(seed: int) -> np.ndarray:
        with FakeCamera([solid(0, 60, 80)], faults=[Fault.glare(0)], seed=seed) as cam:
            return (cam.read().image == 255).all(axis=2)

    assert glare_mask(3).any()
    np.testing.assert_array_equal(glare_mask(3), glare_mask(3))
    assert not np.array_equal(glare_mask(3), glare_mask(4))


def test_fake_camera_disconnect_until_reopened() -> None:
    cam = FakeCamera(frames_0_to(6), faults=[Fault.disconnect(2)])
    cam.open()
    assert values([cam.read(), cam.read()]) == [0, 10]
    with pytest.raises(CameraDisconnected) as info:
        cam.read()
    assert isinstance(info.value, ConnectionError)
    with pytest.raises(CameraDisconnected):
        cam.read()
    cam.close()
    cam.open()  # plugged back in: the frame being captured at the loss is gone
    assert cam.read().index == 3
    assert cam.calls.count(("disconnect", 2)) == 1 and ("disconnect", 3) in cam.calls


def test_fake_camera_busy_on_open() -> None:
    cam = FakeCamera(frames_0_to(1), faults=[Fault.busy(0)])
    with pytest.raises(CameraBusy, match="busy@0"):
        cam.open()
    assert not cam.is_open
    with cam:  # the second attempt succeeds
        assert cam.read().index == 0
    assert cam.calls[:2] == [("busy",), ("open",)] and cam.open_attempts == 2


def test_fake_camera_loop_and_fault_parsing() -> None:
    with FakeCamera(frames_0_to(2), loop=True, clock=lambda: 42.0) as cam:
        frames = [cam.read() for _ in range(5)]
    assert values(frames) == [0, 10, 0, 10, 0] and frames[4].index == 4 and frames[4].timestamp == 42.0
    assert Fault.parse("DROP@7") == Fault(FaultKind.DROP, 7)
    assert Fault.parse("busy") == Fault(FaultKind.BUSY, 0)
    with pytest.raises(ValueError, match="wb_flip"):
        Fault.parse("smoke@1")
    with pytest.raises(ValueError):
        FakeCamera([])


def test_fake_camera_black_saturated_and_frozen_frames() -> None:
    cam = FakeCamera(frames_0_to(8), faults=["black@1x2", Fault.saturated(3), Fault.freeze(4, count=2)], live=True)
    with cam:
        frames = list(cam)
    assert cam.live and [f.index for f in frames] == list(range(8))
    assert [int(f.image.max()) for f in frames[1:3]] == [0, 0] and int(frames[3].image.min()) == 255
    assert values(frames[4:]) == [40, 40, 40, 70]  # frames 5 and 6 repeat frame 4's picture
    assert np.array_equal(frames[5].image, frames[4].image)
    assert ("black", 2) in cam.calls and ("saturated", 3) in cam.calls and ("freeze", 6) in cam.calls
    assert Fault.parse("black@3x10") == Fault.black(3, count=10)
    with pytest.raises(ValueError, match="KIND@NxCOUNT"):
        Fault.parse("black@3x0")


def test_fake_camera_stall_error_and_gone_faults() -> None:
    cam = FakeCamera(frames_0_to(6),
                     faults=[Fault.stall(0, seconds=0.01), Fault.error(1, count=2), Fault.gone(3, count=2)])
    cam.open()
    assert cam.read().index == 0 and cam.calls[1:3] == [("stall", 0), ("read", 0)]  # blocked, then delivered
    with pytest.raises(cv2.error, match="error@1"):
        cam.read()
    with (FakeCamera(frames_0_to(1), faults=[Fault.error(0, exception=OSError(5, "I/O"))]) as other,
          pytest.raises(OSError)):
        other.read()
    with pytest.raises(cv2.error, match="error@2"):
        cam.read()
    with pytest.raises(CameraDisconnected, match="gone"):
        cam.read()
    cam.close()
    for _ in range(2):
        with pytest.raises(CameraNotFound, match="plug it back in"):
            cam.open()
    cam.open()  # back
    assert cam.read().index == 4 and cam.open_attempts == 4


def test_fake_camera_stall_until_released() -> None:
    cam = FakeCamera(frames_0_to(2), faults=[Fault.stall(1)])
    cam.open()
    cam.read()
    got: list[Frame] = []
    reader = threading.Thread(target=lambda: got.append(cam.read()))
    reader.start()
    reader.join(timeout=0.2)
    assert reader.is_alive() and not got  # blocked
    cam.unstall()
    reader.join(timeout=10)
    assert [f.index for f in got] == [1]


# -- open_source -------------------------------------------------------------------------------------


def test_open_source_spec_forms(tmp_path: Path) -> None:
    cam = open_source("opencv:2")
    assert isinstance(cam, OpenCVSource) and cam.index == 2 and cam.name == "opencv:2" and not cam.is_open
    cam = open_source("opencv:/videos/game.mp4")
    assert isinstance(cam, OpenCVSource) and cam.path == Path("/videos/game.mp4")
    cam = open_source("picamera2")
    assert isinstance(cam, Picamera2Source) and cam.camera_num == 0
    cam = open_source("picamera2:1", size=(640, 480))
    assert isinstance(cam, Picamera2Source) and cam.name == "picamera2:1" and cam.size == (640, 480)
    cam = open_source(str(tmp_path), hold_frames=30, loop=True, size=(640, 480))  # size: not a replay option
    assert isinstance(cam, ReplaySource) and cam.hold_frames == 30 and cam.loop and cam.path == tmp_path
    cam = open_source(f"replay:{tmp_path}")
    assert isinstance(cam, ReplaySource) and cam.name == f"replay:{tmp_path}"
    cam = open_source("game.MP4")
    assert isinstance(cam, ReplaySource) and cam.path.name == "game.MP4"


@pytest.mark.parametrize("spec", ["webcam", "picamera2:x", "opencv:", "", "usb0"])
def test_open_source_unknown_spec(spec: str) -> None:
    with pytest.raises(UnknownSourceSpec) as info:
        open_source(spec)
    assert isinstance(info.value, ValueError)
    assert repr(spec) in str(info.value) and "opencv:N" in str(info.value)


def test_open_source_rejects_options_no_source_takes(tmp_path: Path) -> None:
    with pytest.raises(TypeError, match="hold_frame"):
        open_source(str(tmp_path), hold_frame=3)


def test_open_source_auto_prefers_picamera2(fake_picamera2: type[FakePicamera2]) -> None:
    cam = open_source("auto")
    assert isinstance(cam, Picamera2Source) and not cam.is_open


def test_open_source_auto_falls_back_to_opencv(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "picamera2", None)
    made: list[FakeCapture] = []

    def factory(target):
        made.append(FakeCapture(target, [solid(1)]))
        return made[-1]

    cam = open_source("auto", capture_factory=factory, hold_frames=5)
    assert isinstance(cam, OpenCVSource) and cam.name == "opencv:0"
    assert not cam.is_open and made[0].released  # probed, then closed again
    with cam:
        assert cam.read().index == 0


def test_open_source_auto_without_camera_suggests_demo(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "picamera2", None)
    with pytest.raises(CameraNotFound) as info:
        open_source("auto", capture_factory=lambda target: FakeCapture(target, opened=False))
    message = str(info.value)
    assert "companion demo" in message and "python3-picamera2" in message and "opencv:0" in message


def test_camera_module_reexports_implementations() -> None:
    from device import camera

    assert camera.ReplaySource is ReplaySource and camera.open_source is open_source
    with pytest.raises(AttributeError):
        camera.NoSuchThing  # noqa: B018
