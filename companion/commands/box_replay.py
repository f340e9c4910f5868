"""A replay of photos or a video on ``companion demo`` and ``companion run --source FOLDER|VIDEO``
(:mod:`companion.commands.box`): the bundled demo photos, how a replay plays (frame rate, how long a photo is held,
sensor noise) and what is said of a photo that cannot be decoded."""

from __future__ import annotations

import logging
from importlib import resources
from pathlib import Path
from typing import Any

from companion.i18n import _, say

log = logging.getLogger("companion")  # one logger for every command: the lines read as they always have


def demo_photos() -> Path:
    """The folder of real dice photos bundled with the package (BSD-3, see its README)."""
    return Path(str(resources.files("companion") / "demo" / "photos"))


PHOTO_FPS = 10.0
"""Frames per second of a replay of photos (each photo is held ``--hold`` seconds as a still table)."""


def replay_options(spec: str, hold: float, loop: bool = False, realtime: bool = True) -> dict[str, Any]:
    """How ``run``/``demo`` replay ``spec`` (options a camera does not take are ignored by ``device.open_source``): a
    video plays at its own frame rate, each frame once (125 frames stay 125, ``--hold`` is for photos); a folder of
    photos (or one photo) holds each for ``hold`` seconds at :data:`PHOTO_FPS` with a little sensor noise, as a
    camera over a still table would give them."""
    from device.replay import VIDEO_EXTENSIONS

    target = str(spec).strip()
    if target.lower().startswith(("replay:", "opencv:")):
        target = target.partition(":")[2]
    if Path(target).suffix.lower() in VIDEO_EXTENSIONS:
        return {"fps": None, "hold_frames": 1, "skip_bad": True, "noise": 0.0, "loop": loop, "realtime": realtime,
                "on_skip": say_skipped}
    return {"fps": PHOTO_FPS, "hold_frames": max(1, round(hold * PHOTO_FPS)), "skip_bad": True, "noise": 1.5,
            "loop": loop, "realtime": realtime, "on_skip": say_skipped}


def say_skipped(problem: Exception) -> None:
    """A replayed photo that cannot be decoded, skipped: one warning in the command's language (what is wrong with
    it and what to do: copy it again or delete it)."""
    log.warning("%s", _("skipping a photo of the replay: {problem}").format(problem=say(problem)))
