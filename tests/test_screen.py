"""The touchscreen view renders snapshots headless (SDL dummy driver, see conftest) and posts taps."""

from __future__ import annotations

import cv2
import numpy as np
import pygame
import pytest

from companion.hub import StateHub
from companion.qr import qr_matrix, qr_surface
from companion.screen import BUTTON_MIN_PX, Screen, ScreenSnapshot, TouchScreen, frame_to_surface

RED_BGR = (0, 0, 255)  # pure red in OpenCV's BGR order
GREEN_BGR = (0, 200, 0)
BLUE_BGR = (255, 0, 0)


@pytest.fixture
def frame() -> np.ndarray:
    """uint8[480, 640, 3] BGR: grey table, a red block top-left, a blue block bottom-right, a boxed 'die'."""
    image = np.full((480, 640, 3), 90, dtype=np.uint8)
    image[40:200, 40:240] = RED_BGR
    image[300:460, 420:620] = BLUE_BGR
    cv2.rectangle(image, (280, 180), (360, 260), GREEN_BGR, 4)
    cv2.putText(image, "4", (300, 240), cv2.FONT_HERSHEY_SIMPLEX, 2, GREEN_BGR, 4)
    return image


def _tap(screen: TouchScreen, hub: StateHub, pos: tuple[int, int]) -> str | None:
    screen.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1), hub)
    return screen.handle_event(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1), hub)


def _frame_pixel(screen: TouchScreen, frame: np.ndarray, x: int, y: int) -> tuple[int, int, int]:
    """The screen's RGB at the place where frame pixel (x, y) was drawn."""
    rect = screen.frame_rect
    sx = rect.width / frame.shape[1]
    sy = rect.height / frame.shape[0]
    return tuple(screen.surface.get_at((rect.x + int(x * sx), rect.y + int(y * sy))))[:3]


def test_watching_screen_shows_frame_tally_and_buttons(tmp_path, output_dir, make_view, frame):
    view = make_view(
        [6, 6, 4, 2, None],
        seq=3,
        history=[[1, 1, 5], [3, 6]],
        findings=[{"what": "A die is cocked", "where": "roll 3", "severity": "warning", "rule": "d6, 2", "seq": 3}],
    )
    screen = TouchScreen()
    surface = screen.render(ScreenSnapshot(view=view, frame=frame, version=7))

    assert surface.get_size() == (800, 480)
    assert screen.state is Screen.WATCHING
    # The frame is on the left, scaled to fit with its aspect ratio (4:3), BGR shown as RGB.
    rect = screen.frame_rect
    assert rect is not None and rect.right <= 460 and rect.x < 20 and rect.y < 20
    assert rect.width / rect.height == pytest.approx(640 / 480, rel=0.01)
    assert _frame_pixel(screen, frame, 140, 120) == (255, 0, 0)  # red block stays red (not blue)
    assert _frame_pixel(screen, frame, 520, 380) == (0, 0, 255)  # blue block stays blue
    assert _frame_pixel(screen, frame, 10, 10) == (90, 90, 90)
    # Buttons are touch-sized.
    buttons = screen.buttons
    assert set(buttons) == {"read_now", "undo"}
    for button in buttons.values():
        assert button.rect.width >= BUTTON_MIN_PX and button.rect.height >= BUTTON_MIN_PX
        assert surface.get_rect().contains(button.rect)
        assert not button.rect.colliderect(rect)

    screen.save_png(tmp_path / "screen.png")
    screen.save_png(output_dir / "screen.png")
    assert (tmp_path / "screen.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    # The QR code on the saved screenshot scans back to the phone URL.
    shot = cv2.imread(str(tmp_path / "screen.png"))
    assert shot.shape == (480, 800, 3)
    decoded, _, _ = cv2.QRCodeDetector().detectAndDecode(shot[:, 460:])
    assert decoded == "http://192.168.1.20:8080/"


def test_jpeg_snapshot_from_the_hub_renders(make_view, frame, hub):
    ok, jpeg = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 95])
    assert ok
    snapshot = hub.publish(make_view([3, 3]), jpeg.tobytes())
    screen = TouchScreen()
    screen.render(snapshot)
    r, g, b = _frame_pixel(screen, frame, 140, 120)
    assert r > 200 and g < 60 and b < 60  # red after JPEG round trip


def test_tap_on_undo_posts_undo_and_never_touches_state(make_view, frame, hub):
    view = make_view([5, 5, 1])
    hub.publish(view)
    screen = TouchScreen()
    screen.render(ScreenSnapshot(view=view, frame=frame))

    undo = screen.buttons["undo"].rect
    assert _tap(screen, hub, undo.center) == "undo"
    assert hub.take_actions() == [{"action": "undo", "origin": "touchscreen"}]
    assert hub.snapshot().view is view  # the view only posts; the state is untouched

    assert _tap(screen, hub, screen.buttons["read_now"].rect.center) == "read_now"
    assert [a["action"] for a in hub.take_actions()] == ["read_now"]

    # A tap outside any button, or a press on one button released on another, posts nothing.
    assert _tap(screen, hub, screen.frame_rect.center) is None
    screen.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=undo.center, button=1), hub)
    released = screen.buttons["read_now"].rect.center
    assert screen.handle_event(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=released, button=1), hub) is None
    assert hub.take_actions() == []


def test_undo_is_disabled_with_nothing_to_undo(make_view, hub):
    view = make_view([2])
    view["session"]["events"] = 0
    screen = TouchScreen()
    screen.render(view)
    assert not screen.buttons["undo"].enabled
    assert _tap(screen, hub, screen.buttons["undo"].rect.center) is None
    assert hub.take_actions() == []


def test_quit_button_only_in_debug_mode(make_view, hub):
    view = make_view([1, 2, 3])
    normal = TouchScreen()
    normal.render(view)
    assert "quit" not in normal.buttons

    debug = TouchScreen(debug=True)
    debug.render(view)
    quit_rect = debug.buttons["quit"].rect
    assert min(quit_rect.size) >= BUTTON_MIN_PX
    assert _tap(debug, hub, quit_rect.center) == "quit"
    assert hub.take_actions() == [{"action": "quit", "origin": "touchscreen"}]


def test_camera_lost_shows_error_screen(output_dir, make_view, frame, hub):
    screen = TouchScreen()
    screen.render(ScreenSnapshot(view=make_view([4, 4]), frame=frame))
    assert screen.state is Screen.WATCHING

    lost = make_view([4, 4])
    lost["status"] = {"camera": "lost", "reader": "watching", "message": "Camera opencv:0 stopped sending frames."}
    surface = screen.render(ScreenSnapshot(view=lost, frame=frame))
    screen.save_png(output_dir / "screen_camera_lost.png")

    assert screen.state is Screen.CAMERA_LOST
    assert screen.frame_rect is None  # no stale picture on the error screen
    assert "read_now" not in screen.buttons
    assert min(screen.buttons["undo"].rect.size) >= BUTTON_MIN_PX
    # The error screen has its own dark-red background.
    assert tuple(surface.get_at((400, 300)))[:3] == (44, 18, 20)
    assert _tap(screen, hub, screen.buttons["undo"].rect.center) == "undo"

    # Back to watching when the camera returns.
    screen.render(ScreenSnapshot(view=make_view([4, 4]), frame=frame))
    assert screen.state is Screen.WATCHING


def test_waiting_screen_before_first_publish(output_dir, hub):
    screen = TouchScreen(phone_url="http://192.168.1.20:8080/")
    screen.render(hub.snapshot())  # version 0, empty view
    screen.save_png(output_dir / "screen_waiting.png")
    assert screen.state is Screen.WAITING
    assert screen.buttons == {}


def test_waiting_screen_says_scan_the_code_and_the_address_on_lines_of_their_own(output_dir, hub, monkeypatch):
    """A long address (a name on the network, a port) no longer shrinks the words with it: "Phones: scan the code"
    is one line at its own size under the code, the address the next line, both on the 800 x 480 screen."""
    url = "http://companion-table-by-the-window.local:8080/"
    screen = TouchScreen(phone_url=url)
    drawn: dict[str, pygame.Rect] = {}
    text_fit = TouchScreen.text_fit

    def noted(self, text, *args, **kwargs):
        drawn[text] = rect = text_fit(self, text, *args, **kwargs)
        return rect

    from companion.screen.dice import Waiting

    monkeypatch.setattr(TouchScreen, "text_fit", noted)
    screen.render(hub.snapshot())
    screen.save_png(output_dir / "screen_waiting_long_address.png")
    assert screen.state is Screen.WAITING
    words, address = drawn["Phones: scan the code"], drawn[url]
    assert Waiting().qr_rect(screen).bottom <= words.top and words.bottom <= address.top and address.bottom <= 480
    assert words.height > address.height  # the words at their own size, not the size a long line allows


def test_frame_to_surface_rejects_wrong_shapes():
    with pytest.raises(ValueError, match=r"uint8\[H, W, 3\]"):
        frame_to_surface(np.zeros((10, 10, 2), np.uint8), (100, 100))
    with pytest.raises(ValueError, match="uint8"):
        frame_to_surface(np.zeros((10, 10, 3), np.float32), (100, 100))
    assert frame_to_surface(np.zeros((100, 50, 3), np.uint8), (200, 200)).get_size() == (100, 200)


def test_surface_of_wrong_size_is_refused():
    with pytest.raises(ValueError, match="surface"):
        TouchScreen(size=(800, 480), surface=pygame.Surface((640, 480)))


def test_qr_code_scans_back_and_keeps_whole_pixel_modules():
    url = "http://192.168.1.20:8080/"
    matrix = qr_matrix(url)
    assert len(matrix) == len(matrix[0]) and (len(matrix) - 21) % 4 == 0
    surface = qr_surface(url, 120)
    assert surface.get_size() == (120, 120)
    rgb = np.ascontiguousarray(pygame.surfarray.array3d(surface).swapaxes(0, 1))
    assert set(np.unique(rgb)) <= {0, 255}  # crisp modules, no blur from scaling
    decoded, _, _ = cv2.QRCodeDetector().detectAndDecode(cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR))
    assert decoded == url
    with pytest.raises(ValueError, match="too small"):
        qr_surface(url, 20)
    with pytest.raises(ValueError, match="empty"):
        qr_matrix("")


# -- the join code and the phones panel -----------------------------------------------------------
class _Posted:
    """Anything with post_action (what the screen needs of the hub): records what was posted."""

    def __init__(self):
        self.posted: list[tuple[str, str, dict]] = []

    def post_action(self, name, origin, **payload):
        self.posted.append((name, origin, payload))


def _decoded_qr(screen: TouchScreen, rect: pygame.Rect) -> str:
    rgb = np.ascontiguousarray(pygame.surfarray.array3d(screen.surface.subsurface(rect)).swapaxes(0, 1))
    decoded, _, _ = cv2.QRCodeDetector().detectAndDecode(cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR))
    return decoded


def _table_view(claimed=("Ann",)):
    players = [{"name": n, "colour": c, "claimed": n in claimed, "vp": 0} for n, c in (("Ann", "red"), ("Bob", "blue"))]
    return {"game": {"flow": "roll", "title": "Roll for the Galaxy", "players": players, "next": {"label": "Settle"}},
            "status": {"message": "ok"}, "session": {"events": 3}, "phone_url": "http://192.168.1.20:8080/"}


def test_the_qr_code_carries_the_join_link_and_follows_a_new_secret(make_view, frame):
    from companion.hub import Pairing

    pairing = [Pairing("g1", "Zq3uV7-first-secret", {})]
    screen = TouchScreen(pairing=lambda: pairing[0])
    screen.render(ScreenSnapshot(view=make_view([2, 3]), frame=frame))
    qr = screen._handlers[Screen.WATCHING].qr_rect(screen)
    assert _decoded_qr(screen, qr) == "http://192.168.1.20:8080/join/Zq3uV7-first-secret"
    pairing[0] = Pairing("g1", "after-revoke-secret", {})  # the touchscreen made a new code
    screen.render(ScreenSnapshot(view=make_view([2, 3]), frame=frame))
    assert _decoded_qr(screen, qr) == "http://192.168.1.20:8080/join/after-revoke-secret"
    assert TouchScreen().qr_url(make_view([1])) == "http://192.168.1.20:8080/"  # no pairing: the watching link


def test_the_phones_panel_frees_a_seat_and_makes_a_new_code_after_a_second_tap(output_dir):
    from companion.hub import Pairing

    hub = _Posted()
    screen = TouchScreen(pairing=lambda: Pairing("g1", "panel-secret-0001", {"Ann": "phone-a"}))
    screen.render(_table_view())
    assert screen.state is Screen.TABLE
    assert _tap(screen, hub, screen.qr_target.rect.center) is None  # the screen's own business
    screen.render(_table_view())
    assert screen.state is Screen.PHONES
    screen.save_png(output_dir / "screen_phones.png")
    assert _decoded_qr(screen, screen._handlers[Screen.PHONES].qr_rect(screen)) == \
        "http://192.168.1.20:8080/join/panel-secret-0001"
    buttons = screen.buttons
    assert buttons["release_seat:Ann"].enabled and not buttons["release_seat:Bob"].enabled  # Bob has no phone
    assert _tap(screen, hub, buttons["release_seat:Ann"].rect.center) == "release_seat"
    assert hub.posted == [("release_seat", "touchscreen", {"player": "Ann"})]

    assert _tap(screen, hub, screen.buttons["revoke_arm"].rect.center) is None  # first tap only arms it
    screen.render(_table_view(claimed=()))
    screen.save_png(output_dir / "screen_phones_armed.png")
    assert screen.buttons["revoke_phones"].label == "Tap again: unjoin every phone"
    assert _tap(screen, hub, screen.buttons["revoke_phones"].rect.center) == "revoke_phones"
    assert hub.posted[-1] == ("revoke_phones", "touchscreen", {})
    screen.render(_table_view(claimed=()))
    assert "revoke_arm" in screen.buttons  # disarmed again

    assert _tap(screen, hub, screen.buttons["phones_close"].rect.center) is None
    screen.render(_table_view())
    assert screen.state is Screen.TABLE and len(hub.posted) == 2


def test_the_phones_panel_in_dice_mode_and_the_p_key(make_view, frame):
    hub = _Posted()
    screen = TouchScreen()
    screen.render(ScreenSnapshot(view=make_view([1]), frame=frame))
    screen.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_p), hub)
    screen.render(ScreenSnapshot(view=make_view([1]), frame=frame))
    assert screen.state is Screen.PHONES
    assert [b for b in screen.buttons if b.startswith("release_seat")] == []  # dice mode: no seats
    screen.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_p), hub)
    screen.render(ScreenSnapshot(view=make_view([1]), frame=frame))
    assert screen.state is Screen.WATCHING and hub.posted == []


@pytest.mark.parametrize("asked, driver, shown, said", [
    (None, "offscreen", False, True),     # a machine without a desktop: SDL falls back by itself; the box says so
    ("offscreen", "offscreen", False, False),  # asked for: nothing to say
    ("dummy", "dummy", False, False),     # the tests' driver
    (None, "x11", True, False),           # a desktop: drawn on it
])
def test_a_screen_that_sdl_draws_unseen_is_no_display(monkeypatch, asked, driver, shown, said):
    # README: "a window shows the touchscreen"; on a machine without a display SDL takes its offscreen driver
    # without an error: the box must not take that for a screen (the guided enrollment would wait for taps no
    # one can see instead of asking on the terminal)
    from companion.screen import window

    if asked is None:
        monkeypatch.delenv("SDL_VIDEODRIVER", raising=False)
    else:
        monkeypatch.setenv("SDL_VIDEODRIVER", asked)
    monkeypatch.setattr(window.TouchScreen, "for_display", classmethod(lambda cls, fullscreen, **kw: cls(**kw)))
    monkeypatch.setattr(window.pygame.display, "get_driver", lambda: driver)
    _screen, _pump, drawn, problem = window.open_touchscreen(StateHub(), fullscreen=False)
    assert drawn is shown
    assert (problem is not None) is said
    if said:
        assert "offscreen" in str(problem)


def test_the_private_runtime_folder_is_removed_when_the_box_ends():
    """Without XDG_RUNTIME_DIR the display gets a private folder in /tmp; a box that ends leaves none behind."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    code = ("import os\nfrom companion.screen import TouchScreen\n"
            "TouchScreen.for_display(fullscreen=False)\nprint(os.environ['XDG_RUNTIME_DIR'])\n")
    env = {k: v for k, v in os.environ.items() if k != "XDG_RUNTIME_DIR"}
    env.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    runtime = Path(done.stdout.strip().splitlines()[-1])
    assert runtime.name.startswith("companion-runtime-")
    assert not runtime.exists()
