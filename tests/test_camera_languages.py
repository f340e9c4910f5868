"""Camera messages from device/ reach the touchscreen and every phone in their language: device/ keeps each error's
English template (its stable code, marked with N_) and parameters (``DeviceError.said``), companion says it
(``companion.i18n.message_of``), a camera reason quoted in another message too, and the demo hint once."""

from __future__ import annotations

import shutil
import sys

import pytest

from companion import i18n
from companion.app import MainLoop
from companion.flow import GameFlow
from companion.flows import FLOWS
from companion.hub import StateHub
from companion.player_names import parse_players
from companion.session import SessionStore
from companion.web import state_json
from device import CameraNotFound, OpenCVSource, ReplaySource, open_source
from device.errors import DEMO_HINT, BadImage
from tests.test_camera_faults import FAST, step_until, write_folder
from tests.test_device_camera import FakeCapture
from vision.motion import StillnessDetector

# hand-written: how a Greek, Polish and Hungarian player reads "no camera at /dev/video7 ... companion demo"
NO_WEBCAM = {"el": ("καμία κάμερα στη συσκευή /dev/video7 (opencv:7): ελέγξτε το καλώδιο USB",
                    "ή τρέξτε `companion demo`"),
             "pl": ("brak kamery pod ścieżką /dev/video7 (opencv:7): sprawdź kabel USB",
                    "albo uruchom `companion demo`"),
             "hu": ("nincs kamera itt: /dev/video7 (opencv:7): ellenőrizd az USB-kábelt",
                    "vagy futtasd a `companion demo` parancsot")}


@pytest.mark.parametrize("lang", ["el", "pl", "hu"])
def test_a_webcam_that_is_not_there_is_said_in_the_players_language(lang, monkeypatch):
    monkeypatch.setattr("device.opencv_source.os.path.exists", lambda path: False)
    source = OpenCVSource(7, capture_factory=lambda target: FakeCapture(target, opened=False))
    with pytest.raises(CameraNotFound) as info:
        source.open()
    english = str(info.value)
    assert english.startswith("no camera at /dev/video7 (opencv:7): check the USB cable")
    assert english.endswith(DEMO_HINT)
    said = i18n.say(info.value, lang)
    start, hint = NO_WEBCAM[lang]
    assert said.startswith(start) and said.endswith(hint + (" για επανάληψη φωτογραφιών" if lang == "el" else
                                                            ", by odtworzyć zdjęcia" if lang == "pl" else
                                                            " fotók visszajátszásához"))
    assert "check" not in said and "or run" not in said


def test_auto_quotes_the_webcams_reason_in_the_same_language_and_the_demo_hint_once(monkeypatch):
    monkeypatch.setitem(sys.modules, "picamera2", None)  # no picamera2 here
    with pytest.raises(CameraNotFound) as info:
        open_source("auto", capture_factory=lambda target: FakeCapture(target, opened=False))
    assert str(info.value).count("companion demo") == 1  # the English, as before
    said = i18n.say(info.value, "pl")
    assert said.startswith("nie znaleziono kamery (auto): picamera2: picamera2 nie jest zainstalowane")
    assert "opencv:0: " in said and "Podłącz kamerę albo uruchom `companion demo`, by odtworzyć zdjęcia" in said
    assert said.count("companion demo") == 1 and "camera" not in said.replace("picamera2", "")


@pytest.mark.parametrize(("lang", "words"), [("el", "χάθηκε"), ("pl", "zniknęły"), ("hu", "eltűnt")])
def test_a_replay_gone_mid_game_reads_in_the_language_on_the_touchscreen_and_the_phone(tmp_path, lang, words):
    """The camera stops (its replay folder is taken away) in a game: the status message both views show is the
    device's error, said in the box's language and in each phone's."""
    store = SessionStore(tmp_path / "box.sqlite3")
    session = store.start("roll", FLOWS["roll"].settings(parse_players("Ann,Bob"), {}))
    folder = tmp_path / "photos"
    write_folder(folder, [90, 150])
    hub = StateHub()
    loop = MainLoop(source=ReplaySource(folder, loop=True, hold_frames=3), reader=None, session=session, hub=hub,
                    stillness=StillnessDetector(), flow=GameFlow(session, FLOWS["roll"]), stop_at_end=True,
                    sleep=lambda s: None, reconnect_s=0.0, camera_health=FAST)
    try:
        step_until(loop, lambda: loop.stats.frames >= 2)
        shutil.move(folder, tmp_path / "elsewhere")
        step_until(loop, lambda: loop.camera == "lost")
        assert str(loop.message) == "photo replay is gone: put its photos back; the game goes on"
        phone = state_json(hub.snapshot(), lang)["status"]["message"]
        assert words in phone and str(tmp_path) not in phone and "put its photos back" not in phone
        assert i18n.localize(hub.snapshot().view, lang)["status"]["message"] == phone  # the touchscreen, set to lang
        assert state_json(hub.snapshot(), "en")["status"]["message"] == str(loop.message)
    finally:
        loop._watch.close()
        store.close()


@pytest.mark.parametrize(("lang", "words", "auto"), [
    ("el", "άγνωστη πηγή κάμερας 'bogus:1'", "δεν βρέθηκε κάμερα (auto)"),
    ("pl", "nieznane źródło kamery 'bogus:1'", "nie znaleziono kamery (auto)"),
    ("hu", "ismeretlen kameraforrás: 'bogus:1'", "nem található kamera (auto)")])
def test_a_camera_source_the_box_cannot_open_is_said_on_the_owner_page_in_the_language(tmp_path, lang, words, auto):
    """A bad ``camera.source`` (the configuration's problem) and the camera the box then falls back to (the doctor's
    camera check: the owner page, the touchscreen's status line) are said in the owner's language, as the device
    said them."""
    from companion.config import load
    from companion.doctor import CameraCheck, DoctorContext

    path = tmp_path / "config.toml"
    path.write_text('[camera]\nsource = "bogus:1"\n', encoding="utf-8")
    config = load(path, env={})
    problem = i18n.say(config.problems[0].text(), lang)
    assert words in problem and "unknown camera source" not in problem
    ctx = DoctorContext(config, data_dir=tmp_path, run=lambda cmd: (127, "not here"), address=lambda: "192.168.1.20")
    result = CameraCheck().perform_check(ctx)
    if "no camera found (auto)" in str(result.message):  # no camera on this machine: the auto fallback's message
        said = i18n.say(result.message, lang)
        assert auto in said and "no camera found" not in said and said.count("companion demo") == 1


def test_a_bad_photo_mid_game_names_the_photo_and_the_replay_never_their_folder(tmp_path):
    """A source's error as players are told it (device.errors.told_players): an unreadable photo by its file name,
    a source named by its kind, an error quoted in another the same; the owner's own words keep the paths."""
    from device.errors import Words, told_players
    from device.images import decode_image

    photo = tmp_path / "photos" / "IMG_0007.jpg"
    photo.parent.mkdir()
    photo.write_bytes(b"")
    with pytest.raises(BadImage) as caught:
        decode_image(photo)
    bad = caught.value
    told = told_players(bad, Words("photo replay"))
    assert str(told) == "image IMG_0007.jpg is empty (0 bytes): copy it again or delete it" and str(photo) in str(bad)
    quoting = CameraNotFound.said("{problem} ({name})", problem=CameraNotFound.said(
        "no video file at {path} ({name}): check the path", path=str(tmp_path / "v.mp4"), name=f"opencv:{tmp_path}"),
        name=f"opencv:{tmp_path}")
    said = i18n.say(told_players(quoting, Words("video replay")), "pl")
    assert str(tmp_path) not in said and "odtwarzanie wideo" in said


def test_a_pi_camera_the_system_refuses_is_said_in_the_players_words(monkeypatch):
    """picamera2's failures carried the system's English reason ("No such device", "Input/output error") to the
    players; the reason in its chain is said in the box's words for it."""
    import errno
    import os

    from device import Picamera2Source
    from device.errors import CameraDisconnected
    from tests.test_device_camera import FakePicamera2

    module = type(sys)("picamera2")
    module.Picamera2 = FakePicamera2
    monkeypatch.setitem(sys.modules, "picamera2", module)
    monkeypatch.setattr(FakePicamera2, "instances", [])
    failed = RuntimeError("libcamera: camera could not be opened")
    failed.__cause__ = OSError(errno.ENODEV, os.strerror(errno.ENODEV))
    monkeypatch.setattr(FakePicamera2, "fail_init", failed)
    with pytest.raises(CameraNotFound) as refused:
        Picamera2Source(0).open()
    said = i18n.say(refused.value, "el")
    assert "δεν υπάρχει τέτοια συσκευή" in said and "No such device" not in said, said
    monkeypatch.setattr(FakePicamera2, "fail_init", None)
    camera = Picamera2Source(0)
    camera.open()

    def broken(*args, **kwargs):
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    monkeypatch.setattr(FakePicamera2.instances[0], "capture_array", broken)
    with pytest.raises(CameraDisconnected) as lost:
        camera.read()
    said = i18n.say(lost.value, "pl")
    assert "błąd wejścia/wyjścia" in said and "Input/output error" not in said, said
    camera.close()


# hand-written: the two warnings of a game's camera part as a Greek, Polish and Hungarian box owner reads them
ZONES_WITHOUT_CALIBRATION = {"el": "το τραπέζι μοιράζεται εξίσου στους παίκτες",
                             "pl": "stół jest dzielony po równo między graczy",
                             "hu": "az asztal egyenlően oszlik meg a játékosok között"}
PICTURE_NOT_KEPT = {"el": "το παιχνίδι συνεχίζεται χωρίς αυτήν", "pl": "gra toczy się dalej bez niego",
                    "hu": "a játék nélküle megy tovább"}


@pytest.mark.parametrize("lang", ["el", "pl", "hu"])
def test_the_camera_parts_warnings_are_said_in_the_owners_language(lang, store, tmp_path, caplog):
    """Zones saved in table mm with no calibration to place them (the table split evenly instead), and a dice read's
    picture that cannot be kept (a file where its folder should be): each warning in the run's language, and the game
    goes on (even zones; the question still asked, with no picture)."""
    import numpy as np

    from companion.camera import CameraFlow
    from tests.camera_tables import read_twice
    from tests.test_camera_flow import FakeDiceReader, halves, setup_roll
    from vision.table import Zones

    settings = FLOWS["roll"].settings(parse_players("Ann,Bob"), {})
    settings["zones"] = Zones.even(["Ann", "Bob"], 600.0, 400.0).to_json()  # units "mm"
    flow = GameFlow(store.start("roll", settings), FLOWS["roll"])
    setup_roll(flow)
    with i18n.use_language(lang), caplog.at_level("WARNING", logger="companion.camera"):
        assert CameraFlow(flow, dice_reader=FakeDiceReader([])).zones is None  # split evenly on the first frame
    said = [r.getMessage() for r in caplog.records]
    assert len(said) == 1 and ZONES_WITHOUT_CALIBRATION[lang] in said[0] and "companion calibrate" in said[0], said

    caplog.clear()
    blocked = tmp_path / "reads"
    blocked.write_text("a file where the pictures' folder goes")
    reader = FakeDiceReader([("white", "develop", (20, 100, 30, 30)), ("white", "explore", (340, 100, 30, 30))])
    cam = CameraFlow(flow, dice_reader=reader, zones=halves(), image_dir=blocked)
    image = np.full((240, 640, 3), 70, np.uint8)
    with i18n.use_language(lang), caplog.at_level("WARNING", logger="companion.camera"):
        read_twice(cam, image)
    said = [r.getMessage() for r in caplog.records]
    assert len(said) == 1 and PICTURE_NOT_KEPT[lang] in said[0] and str(blocked) in said[0], said
    assert "cannot keep" not in said[0]
    assert len(cam.view()["questions"]) == 2  # the phases are still asked
