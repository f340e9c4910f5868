"""The enrollment mode: the guided dice enrollment (:mod:`companion.enroll_guided`) on the box's one loop and hub.

The walk's OK, Another, Retake, Back, Skip and Quit come from the touchscreen, the GPIO button and the
terminal through the hub (:class:`companion.enroll_guided.EnrollInbox`); every good frame is offered to the walk
(captured once the table is still after OK); the view is the walk's. A camera that is lost or a replay that ends
ends the walk (the photos stay), and so does Quit: then the loop stops.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from companion.actions import ENROLL_ACTIONS, Posted
from companion.flow_actions import Outcome
from companion.i18n import Text
from companion.modes.base import Mode, ModeName
from device import Frame
from device.health import CameraStatus
from vision.motion import MotionState

if TYPE_CHECKING:
    from companion.app import MainLoop
    from companion.enroll_guided import GuidedEnrollment

__all__ = ["EnrollMode"]


class EnrollMode(Mode):
    """Walk through every colour/face pair of the dice (:class:`companion.enroll_guided.GuidedEnrollment`).

    Args:
        loop: the loop.
        enrollment: the walk.
    """

    name = ModeName.ENROLL

    def __init__(self, loop: MainLoop, enrollment: GuidedEnrollment) -> None:
        super().__init__(loop)
        self.enrollment = enrollment

    @property
    def game_id(self) -> str:
        return "enrollment"

    def version(self) -> int:
        return self.enrollment.revision

    def handle(self, act: Posted) -> Outcome | None:
        """OK, Another, Retake, Back, Skip, Quit (the walk's table in :mod:`companion.enroll_guided`)."""
        if act.action not in ENROLL_ACTIONS:
            return None
        self.enrollment.handle(act.action, getattr(act.payload, "why", None))
        return Outcome([], self.enrollment.message)

    def on_frame(self, frame: Frame, asked: bool) -> bool:
        """Offer the frame to the walk (captured after OK once the table is still); True (published) when the
        walk moved on."""
        before = self.enrollment.revision
        self.enrollment.offer(frame, still=self.loop.stillness.state is MotionState.STILL)
        if self.enrollment.revision == before:
            return False
        self.loop.display = self.picture(frame)
        self.loop.publish()
        return True

    def picture(self, frame: Frame) -> np.ndarray:
        """The checked photo with its dice boxes while it is checked, else the live frame."""
        from companion.enroll_guided import Step

        e = self.enrollment
        return e.shown if (e.step is Step.CHECK and e.shown is not None) else frame.image

    def on_camera(self, status: str, message: str) -> None:
        """A camera lost, or a replay that ended, ends the walk (the photos so far stay)."""
        if status == CameraStatus.LOST.value:
            self.enrollment.camera_lost(Text("camera lost: {message}", message=message))
        elif status == CameraStatus.ENDED.value:
            self.enrollment.camera_lost(Text("the picture stopped: {message}", message=message))

    @property
    def done(self) -> bool:
        return self.enrollment.ended

    def view(self) -> dict[str, Any]:
        """The walk's view (``{"enroll", "frame", "status"}``)."""
        return self.enrollment.view(self.loop.last_frame)

    def change_key(self, view: dict[str, Any]) -> Any:
        return self.enrollment.revision
