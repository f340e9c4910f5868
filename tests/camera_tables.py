"""Shared pieces of the camera-in-the-flow tests: frames of a synthetic table, reading a still table twice
(as the box does before it asks), and the touchscreen run and tapped."""

from __future__ import annotations

import numpy as np

from companion.app import MainLoop
from companion.camera import CameraFlow
from companion.hub import StateHub
from device import FakeCamera, Frame
from vision.motion import MotionConfig, StillnessDetector
from vision.table import Zones


def frame_of(image: np.ndarray, index: int = 0) -> Frame:
    return Frame(image=image, timestamp=index / 10.0, index=index, source="synthetic")


def whole_frame_for(name: str, image: np.ndarray, other: str) -> Zones:
    """``name`` owns the whole frame (px); ``other``'s zone lies outside it."""
    h, w = image.shape[:2]
    return Zones({name: np.array([[0, 0], [w, 0], [w, h], [0, h]], float),
                  other: np.array([[-10, -10], [-5, -10], [-5, -5], [-10, -5]], float)}, units="px")


def read_twice(cam: CameraFlow, image: np.ndarray) -> list:
    cam.schedule(0.0)
    recorded = []
    for k in range(cam.confirm_reads):
        assert cam.due(float(k))
        recorded += cam.read(frame_of(image, k), float(k))
    assert not cam.due(99.0)
    return recorded


def run_loop(flow, image, cam, hub, screen=None):
    ticks = iter(range(10_000))
    loop = MainLoop(source=FakeCamera([image] * 12), reader=None, session=flow.session, hub=hub,
                    stillness=StillnessDetector(MotionConfig(still_seconds=0.2)), flow=flow, camera_flow=cam,
                    stop_at_end=True, sleep=lambda s: None, clock=lambda: float(next(ticks)), screen=screen)
    loop.run()
    return loop


def run_on_touchscreen(flow, image, cam):
    """(loop, hub, screen): the main loop run over a still ``image`` with ``cam``, drawn on a TouchScreen."""
    from companion.screen import TouchScreen

    hub = StateHub()
    screen = TouchScreen(phone_url="http://192.168.1.20:8080/")
    return run_loop(flow, image, cam, hub, screen), hub, screen


def tap(screen, hub, button: str):
    """Press and release ``button`` on the touchscreen; returns what the release did."""
    import pygame

    pos = screen.buttons[button].rect.center
    screen.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=pos), hub)
    return screen.handle_event(pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=pos), hub)
