"""The touchscreen's "Add player" names the player "Player N" (it has no keyboard). Names are one player's when they
differ only in case, accents or compatibility forms (:func:`companion.player_names.check_player_name`), so the name
it picks must be free in that sense: found at a table where a phone had added "player 1" and every tap of "Add
player" was refused as already playing."""

from __future__ import annotations

import numpy as np
import pygame

from companion.app import MainLoop
from companion.flows import FLOWS
from companion.hub import StateHub
from companion.player_names import taken_name
from companion.screen import TouchScreen
from companion.setup_flow import TableSetup
from device import FakeCamera
from vision.motion import StillnessDetector


def _setup_loop(store, game="race"):
    hub = StateHub()
    loop = MainLoop(source=FakeCamera([np.full((240, 320, 3), (60, 90, 40), np.uint8)] * 30), reader=None,
                    session=None, hub=hub, stillness=StillnessDetector(), setup=TableSetup(store, FLOWS[game]),
                    make_camera=lambda flow: None, stop_at_end=True, sleep=lambda s: None)
    screen = TouchScreen(phone_url="http://192.168.1.20:8080/")
    loop.screen = screen
    loop.step()
    return loop, hub, screen


def _tap_add_player(loop, hub, screen):
    screen.render(hub.snapshot())
    button = screen.buttons["setup_player"]
    assert button.enabled
    pos = button.rect.center
    for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        screen.handle_event(pygame.event.Event(kind, button=1, pos=pos), hub)
    loop.step()


def _names(hub):
    return [p["name"] for p in hub.snapshot().view["game"]["players"]]


def test_add_player_on_the_touchscreen_skips_a_name_a_phone_took_in_another_case(store, output_dir):
    loop, hub, screen = _setup_loop(store)
    hub.post_action("setup_player", origin="phone", player="player 1")
    hub.post_action("setup_player", origin="phone", player="ＰＬＡＹＥＲ ２")  # a full-width keyboard: "PLAYER 2"
    loop.step()
    assert _names(hub) == ["player 1", "ＰＬＡＹＥＲ ２"]
    _tap_add_player(loop, hub, screen)
    _tap_add_player(loop, hub, screen)
    assert _names(hub) == ["player 1", "ＰＬＡＹＥＲ ２", "Player 3", "Player 4"]
    screen.render(hub.snapshot())
    assert {f"setup_pick:{name}" for name in _names(hub)} <= set(screen.buttons)
    screen.save_png(output_dir / "setup_add_player_after_a_phone.png")


def test_a_name_is_taken_as_the_box_compares_names():
    assert taken_name("Player 1", ["player 1"]) == "player 1"
    assert taken_name("Ελένη", ["Anna", "ΕΛΕΝΗ"]) == "ΕΛΕΝΗ"  # Greek capitals drop the accent
    assert taken_name("Ann", ["ＡＮＮ"]) == "ＡＮＮ"
    assert taken_name("Łukasz", ["Lukasz"]) is None  # a letter of its own, not an accent
    assert taken_name("Player 2", []) is None
