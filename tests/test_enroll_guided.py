"""``companion enroll roll-dice --guided``: the box walks through every colour/face pair (issue 6).

The camera is a ReplaySource (or a FakeCamera) over synthetic enrollment photos (vision/synth.py),
one photo per pair in the walk's order, each held for ``HOLD`` frames: the tray "shows" that pair for
a while, as when a person puts the dice in. An :class:`Operator` plays the person: it presses OK at a
prompt only when the camera has just turned to the pair asked for, and follows a script of other
buttons. Frames come only when the loop reads them, so nothing here depends on timing.
"""

from __future__ import annotations

import io
import shutil
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pygame
import pytest

from companion.cli import main
from companion.commands.files import roll_dice_pairs
from companion.enroll_guided import (
    EnrollInbox,
    GuidedEnrollment,
    Pair,
    Step,
    guided_pairs,
    photos_in,
    roll_dice_detector,
    run_guided,
)
from companion.screen import BUTTON_MIN_PX, Screen, TouchScreen
from device import Controls, FakeCamera, Fault, ReplaySource

HOLD = 12  # frames each pair's photo stays in view: 1.2 s at 10 fps; the table is still after 0.6 s
FPS = 10.0


@pytest.fixture(scope="module")
def enrolled(tmp_path_factory) -> tuple[Path, dict[str, list[str]]]:
    """Synthetic enrollment photos of every pair of the game: ``root/<colour>-<face>/photo_0.png``."""
    from vision.synth import write_enrollment

    root = tmp_path_factory.mktemp("guided") / "synth"
    faces: dict[str, list[str]] = {}
    for colour, face in roll_dice_pairs():
        faces.setdefault(colour, []).append(face)
    write_enrollment(root, faces, seed=7, symbol_set="A")
    return root, faces


@pytest.fixture(scope="module")
def detect():
    return roll_dice_detector()


def camera_folder(tmp: Path, enrolled_root: Path, pairs: list[Pair]) -> Path:
    """``tmp/camera/NN-<colour>-<face>.png``: the pairs' photos in walk order, for a ReplaySource."""
    out = tmp / "camera"
    out.mkdir()
    for k, pair in enumerate(pairs):
        shutil.copy(enrolled_root / pair.folder / "photo_0.png", out / f"{k:02d}-{pair.folder}.png")
    return out


def replay(folder: Path, loop: bool = False) -> ReplaySource:
    return ReplaySource(folder, fps=FPS, hold_frames=HOLD, loop=loop)


def shown_by_replay(source: ReplaySource) -> Callable[[], str | None]:
    """The pair folder name the replay shows now (from its file name ``NN-<colour>-<face>.png``)."""
    return lambda: None if source.current_file is None else source.current_file.stem.split("-", 1)[1]


class Operator:
    """The person at the table, called once per frame (``run_guided``'s ``pump``).

    Args:
        enrollment, inbox: the walk and where to post.
        shown: the pair folder the camera shows now.
        script: ``(step, pair folder, action)`` entries taken in order when the walk is at that step and
            pair; otherwise OK: at a prompt as soon as the camera turns to the pair (the dice just put
            in), at a check at once.
        on_step: called with the enrollment at every new revision (screenshots).
    """

    def __init__(self, enrollment: GuidedEnrollment, inbox: EnrollInbox, shown: Callable[[], str | None],
                 script: list[tuple[str, str, str]] = (), on_step: Callable[[GuidedEnrollment], None] | None = None):
        self.enrollment, self.inbox, self.shown = enrollment, inbox, shown
        self.script = list(script)
        self.on_step = on_step
        self.acted_at = -1
        self.last_shown: str | None = None
        self.posted: list[tuple[str, str, str]] = []

    def __call__(self) -> None:
        e = self.enrollment
        now = self.shown()
        turned, self.last_shown = now != self.last_shown, now
        if e.revision == self.acted_at or e.pair is None or (e.step is Step.PROMPT and e.waiting_still):
            return
        if self.on_step is not None:
            self.on_step(e)
        here = (e.step.value, e.pair.folder)
        if self.script and self.script[0][:2] == here:
            action = self.script.pop(0)[2]
        elif e.step is Step.CHECK or (turned and now == e.pair.folder):
            action = "enroll_ok"
        else:
            return  # wait for the camera to show the pair
        self.posted.append((*here, action))
        self.acted_at = e.revision
        self.inbox.post_action(action, origin="touchscreen")


def layout(folder: Path) -> dict[str, list[str]]:
    """``{pair folder: [photo names]}`` of an enrollment folder (pairs with photos only)."""
    return {sub.name: [p.name for p in photos_in(sub)] for sub in sorted(folder.iterdir())
            if sub.is_dir() and photos_in(sub)}


# ------------------------------------------------------------------ the pairs


def test_the_walk_asks_for_the_pairs_the_dice_have_in_rulebook_order():
    pairs = guided_pairs()
    assert {(p.colour, p.face) for p in pairs} == set(roll_dice_pairs())
    assert len(pairs) == len(set(pairs)) == 30
    assert pairs[0] == Pair("white", "explore") and pairs[-1] == Pair("yellow", "wild")
    assert Pair("white", "wild") not in pairs and Pair("yellow", "explore") not in pairs
    assert [p.face for p in pairs if p.colour == "white"] == ["explore", "develop", "settle", "produce", "ship"]
    assert Pair("white", "explore").label == "white dice showing Explore"


# ------------------------------------------------------------------ the whole walk -> a profile that reads


@pytest.mark.slow
def test_full_walk_saves_one_photo_per_pair_and_the_profile_reads_a_scene(enrolled, detect, tmp_path, capsys):
    root, faces = enrolled
    pairs = list(guided_pairs())
    source = replay(camera_folder(tmp_path, root, pairs))
    folder = tmp_path / "photos"
    enrollment = GuidedEnrollment(folder, pairs, detect)
    inbox = EnrollInbox()
    operator = Operator(enrollment, inbox, shown_by_replay(source))
    seen: list[int] = []
    with source:
        outcome = run_guided(source, enrollment, inbox, pump=operator,
                             on_change=lambda v: seen.append(v["enroll"]["seen"]) if v["enroll"]["seen"] is not None
                             else None)

    assert outcome.step is Step.FINISHED and outcome.missing == ()
    assert layout(folder) == {p.folder: ["01.png"] for p in pairs}
    assert outcome.photos == 30 and outcome.pairs_done == 30
    assert len(seen) == 30 and all(n >= 5 for n in seen), seen  # 6 dice per synthetic photo
    # every photo is the camera's frame of the right pair (the capture waited for the pair's still picture)
    for p in pairs[:3]:
        assert np.array_equal(cv2.imread(str(folder / p.folder / "01.png")),
                              cv2.imread(str(root / p.folder / "photo_0.png")))

    # the profile: built by the folder command's own code
    profile = tmp_path / "guided.json"
    assert main(["enroll", "roll-dice", str(folder), "--out", str(profile)]) == 0
    assert "saved dice profile" in capsys.readouterr().out

    from vision.profiles import DiceProfile
    from vision.roll_dice import RollDiceReader
    from vision.synth import SceneConfig, render_scene

    reader = RollDiceReader(DiceProfile.load(profile), allowed=roll_dice_pairs())
    right = total = 0
    for seed in (9001, 9002):
        scene = render_scene(seed, SceneConfig(symbol_set="A"), faces_by_colour=faces)
        read = reader.read(scene.image).dice
        centres = np.array([[d.box[0] + d.box[2] / 2, d.box[1] + d.box[3] / 2]
                            for d in read]) if read else np.zeros((0, 2))
        for label in scene.dice:
            total += 1
            if not len(centres):
                continue
            k = int(np.argmin(np.hypot(*(centres - np.array(label.centre)).T)))
            if (read[k].colour, read[k].face) == (label.colour, label.face):
                right += 1
    assert right >= 0.8 * total, f"{right} of {total} dice read right"


# ------------------------------------------------------------------ Another / Skip / Back / Retake, and the screen


def test_another_skip_back_and_retake(enrolled, detect, tmp_path, output_dir):
    root, _ = enrolled
    a, b, c = Pair("white", "explore"), Pair("white", "develop"), Pair("red", "wild")
    source = replay(camera_folder(tmp_path, root, [a, b, c]), loop=True)
    folder = tmp_path / "photos"
    enrollment = GuidedEnrollment(folder, [a, b, c], detect)
    inbox = EnrollInbox()
    screen = TouchScreen()
    shots: dict[str, Path] = {}

    def screenshot(e: GuidedEnrollment) -> None:
        name = "prompt" if e.step is Step.PROMPT else "check"
        if name not in shots and e.pair == a:
            shots[name] = screen.save_png(output_dir / f"enroll_{name}.png")

    script = [
        ("check", a.folder, "enroll_another"),   # keep 01, take one more of A -> 02
        ("prompt", b.folder, "enroll_skip"),     # B: nothing
        ("prompt", c.folder, "enroll_back"),     # back to B (no photo: asked again)
        ("check", b.folder, "enroll_retake"),    # B's 01 dropped, taken again
        ("check", b.folder, "enroll_back"),      # keep B/01, back to A's last photo (02)
        ("check", a.folder, "enroll_skip"),      # drop A/02, go on to B (which has 01)
        ("prompt", b.folder, "enroll_skip"),
        ("check", c.folder, "enroll_skip"),      # C photographed, then dropped: C stays without photos
    ]
    operator = Operator(enrollment, inbox, shown_by_replay(source), script, on_step=screenshot)
    with source:
        outcome = run_guided(source, enrollment, inbox, screen=screen, pump=operator)

    assert operator.script == [], operator.posted
    assert outcome.step is Step.FINISHED
    assert layout(folder) == {a.folder: ["01.png"], b.folder: ["01.png"]}
    assert outcome.missing == (c,)
    assert screen.state is Screen.ENROLL
    # the photos kept are the right pairs' pictures
    assert np.array_equal(cv2.imread(str(folder / b.folder / "01.png")),
                          cv2.imread(str(root / b.folder / "photo_0.png")))

    # the screenshots (look at them: tests/_output/enroll_prompt.png, enroll_check.png)
    assert set(shots) == {"prompt", "check"}
    for path in shots.values():
        assert cv2.imread(str(path)).shape == (480, 800, 3)


def test_the_prompt_screen_buttons_and_keys_post_to_the_inbox(enrolled, detect, tmp_path, output_dir):
    root, _ = enrolled
    a, b = Pair("white", "explore"), Pair("white", "develop")
    enrollment = GuidedEnrollment(tmp_path / "photos", [a, b], detect)
    image = cv2.imread(str(root / a.folder / "photo_0.png"))
    from device import Frame

    frame = Frame(image=image, timestamp=0.0, index=0, source="test")
    screen = TouchScreen()
    from companion.screen import ScreenSnapshot

    screen.render(ScreenSnapshot(view=enrollment.view(frame), frame=image))
    screen.save_png(output_dir / "enroll_prompt_first.png")
    assert screen.state is Screen.ENROLL
    buttons = screen.buttons
    assert set(buttons) == {"enroll_ok", "enroll_another", "enroll_retake", "enroll_back", "enroll_skip", "quit"}
    assert {k for k, v in buttons.items() if v.enabled} == {"enroll_ok", "enroll_skip", "quit"}  # first pair: no Back
    for button in buttons.values():
        assert button.rect.width >= BUTTON_MIN_PX and button.rect.height >= BUTTON_MIN_PX
        assert screen.surface.get_rect().contains(button.rect) and not button.rect.colliderect(screen.frame_rect)
    inbox = EnrollInbox()
    pos = buttons["enroll_ok"].rect.center
    screen.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1), inbox)
    assert screen.handle_event(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1), inbox) == "enroll_ok"
    assert screen.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN), inbox) == "enroll_ok"
    assert screen.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_b), inbox) is None  # Back is disabled
    assert screen.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE), inbox) == "quit"
    assert [x["action"] for x in inbox.take_actions()] == ["enroll_ok", "enroll_ok", "quit"]
    with pytest.raises(ValueError):
        inbox.post_action("undo", origin="touchscreen")


def test_the_gpio_button_is_ok(tmp_path):
    from gpiozero.pins.mock import MockFactory

    factory = MockFactory()
    inbox = EnrollInbox()
    posted = threading.Event()

    def on_press() -> None:  # gpiozero calls back on its own thread
        inbox.post_action("enroll_ok", origin="button")
        posted.set()

    controls = Controls(pin_factory=factory, bounce_time=None, on_press=on_press)
    try:
        factory.pin(17).drive_low()
        assert posted.wait(5), "the button press never reached the enrollment"
        got = inbox.take_actions()
        assert [(x["action"], x["origin"]) for x in got] == [("enroll_ok", "button")]
    finally:
        controls.close()
        factory.reset()
        factory.close()


# ------------------------------------------------------------------ resume, interrupt, camera lost


def test_resume_with_keep_skips_the_pairs_already_photographed(enrolled, detect, tmp_path):
    root, _ = enrolled
    a, b, c = Pair("white", "explore"), Pair("white", "develop"), Pair("red", "wild")
    folder = tmp_path / "photos"
    (folder / a.folder).mkdir(parents=True)
    shutil.copy(root / a.folder / "photo_0.png", folder / a.folder / "mine.png")
    enrollment = GuidedEnrollment(folder, [a, b, c], detect)
    assert enrollment.already == (a,) and enrollment.walk == (b, c)
    source = replay(camera_folder(tmp_path, root, [b, c]))
    inbox = EnrollInbox()
    operator = Operator(enrollment, inbox, shown_by_replay(source))
    with source:
        outcome = run_guided(source, enrollment, inbox, pump=operator)
    assert [x[:2] for x in operator.posted if x[0] == "prompt"] == [("prompt", b.folder), ("prompt", c.folder)]
    assert outcome.step is Step.FINISHED and outcome.missing == ()
    assert layout(folder) == {a.folder: ["mine.png"], b.folder: ["01.png"], c.folder: ["01.png"]}


@pytest.mark.parametrize("how", ["quit", "ctrl-c"])
def test_interrupting_keeps_the_photos(enrolled, detect, tmp_path, how):
    root, _ = enrolled
    a, b = Pair("white", "explore"), Pair("white", "develop")
    source = replay(camera_folder(tmp_path, root, [a, b]))
    folder = tmp_path / "photos"
    enrollment = GuidedEnrollment(folder, [a, b], detect)
    inbox = EnrollInbox()
    operator = Operator(enrollment, inbox, shown_by_replay(source))

    def pump() -> None:
        if enrollment.pair == b:  # A is done: stop here
            if how == "quit":
                inbox.post_action("quit", origin="touchscreen")
                return
            raise KeyboardInterrupt
        operator()

    with source:
        outcome = run_guided(source, enrollment, inbox, pump=pump)
    assert outcome.step is Step.STOPPED
    assert ("Ctrl-C" in outcome.message) == (how == "ctrl-c")
    assert layout(folder) == {a.folder: ["01.png"]} and outcome.missing == (b,)


def test_a_camera_lost_mid_way_keeps_the_photos(enrolled, detect, tmp_path, output_dir):
    root, _ = enrolled
    a, b = Pair("white", "explore"), Pair("white", "develop")
    frames = [cv2.imread(str(root / p.folder / "photo_0.png")) for p in (a, b)]
    # A's photo for HOLD frames, then B's; the camera goes at B's third frame (before B is still)
    camera = FakeCamera([frames[0]] * HOLD + [frames[1]] * HOLD, faults=[Fault.disconnect(HOLD + 2)], fps=FPS)

    def shown() -> str | None:
        reads = [c[1] for c in camera.calls if c[0] == "read"]
        return None if not reads else (a, b)[reads[-1] // HOLD].folder

    folder = tmp_path / "photos"
    enrollment = GuidedEnrollment(folder, [a, b], detect)
    inbox = EnrollInbox()
    screen = TouchScreen()
    outcome = run_guided(camera, enrollment, inbox, screen=screen, pump=Operator(enrollment, inbox, shown))
    camera.close()
    assert outcome.step is Step.CAMERA_LOST
    assert "camera lost" in outcome.message and "stopped delivering" in outcome.message
    assert layout(folder) == {a.folder: ["01.png"]}
    assert enrollment.view()["status"]["camera"] == "lost"
    screen.save_png(output_dir / "enroll_camera_lost.png")  # the ended screen draws without a frame


def test_a_frame_without_dice_is_not_saved(detect, tmp_path):
    a = Pair("white", "explore")
    table = np.full((360, 640, 3), 120, np.uint8)
    camera = FakeCamera([table] * HOLD, fps=FPS)
    enrollment = GuidedEnrollment(tmp_path / "photos", [a], detect)
    inbox = EnrollInbox()
    inbox.post_action("enroll_ok", origin="touchscreen")
    checked: list[dict] = []

    def pump() -> None:
        if enrollment.step is Step.CHECK and not checked:
            checked.append(enrollment.view())
            assert not enrollment.enabled()["enroll_ok"] and enrollment.enabled()["enroll_retake"]
            inbox.post_action("enroll_skip", origin="touchscreen")

    with camera:
        outcome = run_guided(camera, enrollment, inbox, pump=pump)
    assert checked and checked[0]["enroll"]["seen"] == 0 and checked[0]["enroll"]["photo"] is None
    assert outcome.step is Step.FINISHED and outcome.photos == 0


# ------------------------------------------------------------------ the command line


def test_command_line_usage_errors(tmp_path, capsys):
    assert main(["enroll", "roll-dice"]) == 2
    assert "--guided" in capsys.readouterr().err
    assert main(["enroll", "roll-dice", str(tmp_path), "--guided"]) == 2
    assert "--keep" in capsys.readouterr().err
    assert main(["enroll", "roll-dice", str(tmp_path), "--keep", str(tmp_path)]) == 2
    assert "--keep goes with --guided" in capsys.readouterr().err


@pytest.mark.parametrize("shot", ["folder", "shot.txt", "record.png"])
def test_guided_screenshot_that_cannot_be_saved_is_refused_before_anything_is_made(tmp_path, monkeypatch, capsys,
                                                                                    shot):
    # a folder given as --screenshot stopped the walk at its first screen with pygame's traceback
    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path / "data"))
    (tmp_path / "folder").mkdir()
    (tmp_path / "record.png").write_bytes(b"SQLite format 3\x00")
    code = main(["enroll", "roll-dice", "--guided", "--windowed", "--no-gpio", "--source", str(tmp_path / "none"),
                 "--screenshot", str(tmp_path / shot)])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and err[0].startswith(f"companion enroll roll-dice: --screenshot {tmp_path}")
    assert not (tmp_path / "data" / "enrollment").exists()  # no photo folder made, no camera opened
    assert (tmp_path / "record.png").read_bytes() == b"SQLite format 3\x00"


def test_guided_screenshot_that_fails_mid_way_is_one_log_line_and_the_walk_goes_on(enrolled, tmp_path, monkeypatch,
                                                                                    capsys, caplog):
    import logging

    root, _ = enrolled
    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))

    def fail(self, path):
        raise pygame.error(f"Couldn't open {path}")

    monkeypatch.setattr(TouchScreen, "save_png", fail)
    with caplog.at_level(logging.INFO):
        code = main(["enroll", "roll-dice", "--guided", "--windowed", "--no-gpio", "--name", "mine",
                     "--source", str(root / "white-explore" / "photo_0.png"), "--screenshot", str(tmp_path / "s.png")])
    assert code == 1  # stopped at the end of the terminal's input, as without --screenshot
    failed = [r for r in caplog.records if "cannot save --screenshot" in r.getMessage()]
    assert len(failed) == 1 and failed[0].levelno == logging.ERROR
    assert not [r for r in caplog.records if r.exc_info]  # no traceback
    assert "nothing kept; to start again: companion enroll roll-dice --guided" in capsys.readouterr().err


@pytest.mark.slow
def test_command_line_resumes_from_the_terminal_and_saves_the_profile(enrolled, tmp_path, monkeypatch, capsys):
    """``--guided --no-screen --keep DIR``: every pair but White Explore is in DIR; Enter takes it, Enter
    keeps it, and the folder command's code builds and saves the profile (same summary line)."""
    root, _ = enrolled
    keep = tmp_path / "keep"
    shutil.copytree(root, keep)
    shutil.rmtree(keep / "white-explore")
    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n\n"))
    profile = tmp_path / "p.json"
    code = main(["enroll", "roll-dice", "--guided", "--no-screen", "--no-gpio", "--keep", str(keep),
                 "--source", str(root / "white-explore" / "photo_0.png"), "--out", str(profile)])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "[1/1] Put the white dice showing Explore in the tray, then press Enter" in out
    assert "dice seen: saved white-explore/01.png" in out
    assert f"saved dice profile {profile}" in out and profile.exists()
    assert photos_in(keep / "white-explore") == [keep / "white-explore" / "01.png"]


def test_command_line_end_of_input_stops_and_says_how_to_resume(tmp_path, monkeypatch, capsys, enrolled):
    """Stopped after one photo: the folder is kept and named, with the command that goes on from it."""
    root, _ = enrolled
    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n"))  # Enter takes White Explore's photo, then the input ends
    code = main(["enroll", "roll-dice", "--guided", "--no-screen", "--no-gpio",
                 "--source", str(root / "white-explore" / "photo_0.png"), "--name", "mine"])
    err = capsys.readouterr().err
    assert code == 1
    folders = list((tmp_path / "data" / "enrollment").iterdir())
    assert len(folders) == 1 and folders[0].name.startswith("mine-")
    assert photos_in(folders[0] / "white-explore") == [folders[0] / "white-explore" / "01.png"]
    assert f"--guided --keep {folders[0]}" in err and "--name mine" in err
    assert f"companion enroll roll-dice {folders[0]} --name mine" in err


@pytest.mark.parametrize("lang, words", [("en", "no photo taken, nothing kept"), ("el", "καμία φωτογραφία"),
                                         ("pl", "nie zrobiono żadnego zdjęcia"), ("hu", "nem készült fotó")])
def test_a_walk_quit_at_once_leaves_no_folder_behind(tmp_path, monkeypatch, capsys, enrolled, lang, words):
    """Quit before the first photo left an empty <data>/enrollment/mine-<time>/ behind, and the message sent the
    owner to resume from it. Nothing the walk made stays, an owner's own --keep folder does, and the message says how
    to start again in the command's language."""
    root, _ = enrolled
    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))
    command = ["--language", lang, "enroll", "roll-dice", "--guided", "--no-screen", "--no-gpio",
               "--source", str(root / "white-explore" / "photo_0.png"), "--name", "mine"]
    assert main(command) == 1
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert words in err and "--keep" not in err and err.endswith(
        f"companion enroll roll-dice --guided --source {root / 'white-explore' / 'photo_0.png'} --name mine"), err
    assert not (tmp_path / "data" / "enrollment").exists()
    monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))
    assert main([*command, "--keep", str(tmp_path / "new" / "photos")]) == 1  # made by the walk: removed, parents too
    assert not (tmp_path / "new").exists()
    (tmp_path / "mine").mkdir()
    monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))
    assert main([*command, "--keep", str(tmp_path / "mine")]) == 1  # the owner's own folder stays
    assert (tmp_path / "mine").is_dir() and f"--keep {tmp_path / 'mine'}" in capsys.readouterr().err
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main([*command[2:-4], "--source", str(tmp_path / "no-camera-here"), "--name", "mine"]) == 3  # no camera
    assert not (tmp_path / "data" / "enrollment").exists()


def test_the_command_to_go_on_quotes_a_folder_with_a_space(tmp_path):
    # The hint is pasted into a shell as it is: a folder or profile name with a space must stay one argument.
    import argparse
    import shlex

    from companion.commands.enroll import _resume_hint

    folder = tmp_path / "my dice"
    args = argparse.Namespace(source="/dev/video 2", name="roll", out=str(tmp_path / "our dice.json"))
    hint = _resume_hint(args, folder)
    go_on = hint.split("to go on: ", 1)[1].split("  (", 1)[0]
    assert shlex.split(go_on) == ["companion", "enroll", "roll-dice", "--guided", "--keep", str(folder),
                                  "--source", "/dev/video 2", "--out", str(tmp_path / "our dice.json")]
    build = hint.rsplit(": ", 1)[1]
    assert shlex.split(build) == ["companion", "enroll", "roll-dice", str(folder), "--out",
                                  str(tmp_path / "our dice.json")]
