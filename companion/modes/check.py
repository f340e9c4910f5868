"""The table check: between the players' setup and the first round, is the table ready for the camera?

Once Start has recorded a game the box reads with its camera (a deck, a dice profile), the loop shows the
table check before the first round: the live picture with each player's zone drawn over it, the camera's
state, the light on the table, and the calibration (present, how old, its sheet's markers still where they
were). One tap ("Looks right: play", ``table_ok``, or Next / the GPIO button) plays the game. A game the box
does not read with the camera goes straight on to play: there is nothing to check.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from companion.actions import Action, Posted
from companion.doctor import UNCALIBRATED
from companion.flow import GameFlow
from companion.flow_actions import Outcome
from companion.i18n import Text
from companion.modes.base import Mode, ModeName
from companion.modes.play import PlayMode
from device import Frame
from device.health import CameraStatus

if TYPE_CHECKING:
    from companion.app import MainLoop

__all__ = ["CheckMode", "table_check"]

log = logging.getLogger(__name__)

CHECK_EVERY_S = 2.0
"""Seconds between two looks at the table (the markers' search takes a moment on a Pi)."""

DIM_LEVEL, BRIGHT_LEVEL = 60, 215
"""Median grey level (0-255) below which the table is too dim to read, above which white pieces lose their edges
(:class:`companion.doctor.LightCheck`'s levels)."""


def _line(level: str, message: str) -> dict[str, str]:
    return {"level": level, "message": message}


def table_check(image: np.ndarray | None, camera_status: str, camera_message: str, calibration: Any,
                zones: Any) -> dict[str, Any]:
    """What the table check shows for one frame.

    Args:
        image: the live frame, ``uint8[H, W, 3]`` BGR, or None (none yet).
        camera_status: the loop's ``status.camera`` (``"ok"``, ``"lost"`` ...) and ``camera_message`` what the camera's
            watch said of it (:attr:`MainLoop.camera_message`, never another action's answer).
        calibration: the :class:`vision.table.TableCalibration`, or None (positions in pixels).
        zones: the players' :class:`vision.table.Zones` (table mm or frame px), or None (split evenly at the first
        read).

    Returns:
        ``{"ok": bool, "lines": [{"level": "OK" | "WARN" | "FAIL", "message"}], "zones": {player: [[x, y] frame px]}}``:
        ok unless a line FAILs.
    """
    lines = []
    if camera_status != "ok":
        lines.append(_line("FAIL", camera_message or Text("the camera sends no picture")))
    else:
        lines.append(_line("OK", Text("the camera sees the table")))
    if image is not None:
        grey = image[::4, ::4].mean(axis=2)
        level = float(np.median(grey))
        if level < DIM_LEVEL:
            lines.append(_line("WARN", Text("the table is dim: add light over it")))
        elif level > BRIGHT_LEVEL:
            lines.append(_line("WARN", Text("the table is very bright: soften the light")))
        else:
            lines.append(_line("OK", Text("the light is good")))
    if calibration is None:
        lines.append(_line("WARN", UNCALIBRATED))
    elif image is not None:
        size = (image.shape[1], image.shape[0])
        if tuple(calibration.frame_size) != size:
            lines.append(_line("FAIL", Text("the calibration was made for another picture size: the box's owner "
                                            "can calibrate it again")))
        else:
            from vision.table import check_markers

            check = check_markers(image, calibration)
            if check.moved:
                lines.append(_line("FAIL", Text("the calibration sheet moved: put it back, or the box's owner can "
                                                "calibrate it again")))
            elif len(check.missing) == len(calibration.markers_px):
                lines.append(_line("WARN", Text("the calibration sheet is not in view: it cannot be compared")))
            else:
                lines.append(_line("OK", Text("the calibration sheet is where it was")))
    return {"ok": all(line["level"] != "FAIL" for line in lines), "lines": lines,
            "zones": zones_px(zones, calibration)}


def zones_px(zones: Any, calibration: Any) -> dict[str, list[list[float]]]:
    """The players' zones as frame-pixel polygons (``{player: [[x, y], ...]}``) to draw over the picture."""
    if zones is None:
        return {}
    out = {}
    for name, polygon in zones.polygons.items():
        points = np.asarray(polygon, dtype=float)
        if zones.units == "mm":
            if calibration is None:
                continue
            points = calibration.to_px(points)
        out[name] = [[round(float(x), 1), round(float(y), 1)] for x, y in points]
    return out


class CheckMode(PlayMode):
    """The table check of a game that just started (see the module doc); the game's reports are taken as in play.

    Args:
        loop: the loop.
        flow: the game's flow (its session just recorded).
        camera: its camera part, or None (made by ``make_camera`` on :meth:`enter`).
        make_camera: makes the camera part.
    """

    name = ModeName.CALIBRATION

    def __init__(self, loop: MainLoop, flow: GameFlow, camera: Any = None,
                 make_camera: Callable[[GameFlow], Any] | None = None) -> None:
        super().__init__(loop, flow, camera, make_camera)
        self.checked = False
        self.check: dict[str, Any] = {"ok": True, "lines": [], "zones": {}}
        self._looked_at = float("-inf")

    def enter(self) -> None:
        super().enter()
        if self.camera is not None:
            self._look(self.loop.last_frame, force=True)

    def handle(self, act: Posted) -> Outcome | None:
        """``table_ok`` or Next: play; "read now": look again; the game's reports as in play."""
        if act.action in (Action.TABLE_OK, Action.NEXT_PHASE):
            self.checked = True
            return Outcome([], Text("the table is ready: play!"))
        if act.action is Action.READ_NOW:
            self._looked_at = float("-inf")
            return Outcome([], Text("looking at the table again"))
        return super().handle(act)

    def next(self) -> Mode | None:
        """The game once the table looked right (at once when the box does not read this game's table)."""
        if self.camera is None or self.checked:
            return PlayMode(self.loop, self.flow, self.camera)
        return None

    def on_camera(self, status: str, message: str) -> None:
        """The camera was lost, came back or ended: the check says so now (no frame comes while it is lost), and
        says nothing of the light or the calibration sheet from a picture that is no longer live."""
        self._look(self.loop.last_frame, force=True)

    def on_frame(self, frame: Frame, asked: bool) -> bool:
        """Look at the table every :data:`CHECK_EVERY_S` (nothing is read or recorded before the game plays)."""
        self._look(frame, force=asked)
        return False

    def _look(self, frame: Frame | None, force: bool = False) -> None:
        now = self.loop.clock()
        if not force and now - self._looked_at < CHECK_EVERY_S:
            return
        self._looked_at = now
        started = time.perf_counter()
        calibration = getattr(self.camera, "calibration", None)
        zones = getattr(self.camera, "zones", None)
        stations = bool(getattr(self.camera, "finds_stations", False))
        if zones is None and frame is not None and not stations:  # split evenly at the first read: show it now
            from vision.table import even_zones

            zones = even_zones(self.flow.names, (frame.width, frame.height), calibration)
        live = frame is not None and self.loop.camera == CameraStatus.OK.value  # a lost camera's last picture is old
        self.check = table_check(frame.image if live else None, self.loop.camera, self.loop.camera_message,
                                 calibration, zones)
        self.check["stations"] = stations
        log.debug("table check in %.0f ms: %s", (time.perf_counter() - started) * 1000, self.check["lines"])

    def view(self) -> dict[str, Any]:
        """The game's view with ``"check"``: ``{"ok", "lines", "zones", "stations"}`` (:func:`table_check`;
        ``stations``: no zones, each player's station is found from the cards, Among the Stars)."""
        view = super().view()
        view["check"] = self.check
        return view

    def change_key(self, view: dict[str, Any]) -> Any:
        return [*super().change_key(view), view.get("check")]
