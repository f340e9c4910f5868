"""What stands around the box's main loop on ``companion run`` and ``companion demo``
(:mod:`companion.commands.box`): the touchscreen, the GPIO button, LED, Undo button and buzzer, where the settings
screen's choices are kept and the box's health checks."""

from __future__ import annotations

import argparse
import logging
from pathlib import Path
from typing import Any

from companion.actions import Action
from companion.i18n import Text, _, os_reason, say, say_template

log = logging.getLogger("companion")  # one logger for every command: the lines read as they always have


def _settings_file(demo: bool) -> Path | None:
    """Where the settings screen's choices are kept (``box-settings.json`` in the data folder; the demo's own file for
    a demo, which leaves the real box as it was), or None when the data folder cannot be made (they then hold until
    the box stops)."""
    from companion.box_settings import default_path

    try:
        return default_path(demo)
    except OSError as exc:
        log.warning("%s", _("the settings screen's choices are not kept ({problem})").format(
            problem=say(os_reason(exc))))
        return None


def _health_watch(config: Any, db: Path, source: Any) -> tuple[Any, dict[str, Any]]:
    """The box's health checks (:class:`companion.doctor.HealthWatch`) on its own database and camera pictures, and
    the dict its camera look reads the loop from (``{"loop": MainLoop}``, set once the loop exists)."""
    from companion.doctor import DoctorContext, HealthWatch

    watched: dict[str, Any] = {}

    def look() -> tuple[Any, str | None, str]:
        loop = watched.get("loop")
        frame = None if loop is None else loop.last_frame
        if loop is None or loop.camera != "ok" or frame is None:
            return None, (loop.message if loop is not None else None) or "no picture yet", Text(source.label)
        return frame.image, None, Text(source.label)  # the health line is on every view: the camera's kind

    return HealthWatch(lambda: DoctorContext(config, db_path=Path(db), look=look)), watched


def _open_screen(args: argparse.Namespace, hub: Any, phone_url: str):
    """The touchscreen, a function that pumps its input into the hub, and whether no one can see or tap it.

    Returns:
        ``(screen, pump, unseen)``: ``(None, None, True)`` with ``--no-screen``; ``unseen`` is True too when the
        machine has no display (SDL found no screen, or the display failed to open): the screen is still drawn
        off-screen for ``--screenshot``, but the box runs as one without a touchscreen, so what the touchscreen
        would ask the table (leaving a game being played, giving a held seat to another phone, the table's Undo)
        a joined phone does instead, as with ``--no-screen`` (:mod:`companion.phone_policy`): nobody would see the
        question. ``unseen`` is False for a drawn screen and for a driver asked for by name (``SDL_VIDEODRIVER``).
    """
    if args.no_screen:
        return None, None, True
    from companion.screen.window import open_touchscreen

    screen, pump, _window, problem = open_touchscreen(hub, fullscreen=not args.windowed and args.command == "run",
                                                phone_url=phone_url, pairing=hub.pairing)
    if problem is not None:
        log.info("no display for the touchscreen (%s); drawing off-screen (use --screenshot to see it); the phones "
                 "do what the touchscreen would, as with --no-screen", problem)
    return screen, pump, problem is not None


def _open_controls(hub, action: Action = Action.READ_NOW, buzzer_pin: int | None = None, pins: Any = None):
    """The GPIO button (posts ``action``: read now, or the next phase of a game flow), the status
    LED, the optional Undo button and buzzer, or None where no GPIO is available; ``pins`` (the
    :class:`companion.config.Config`) gives their BCM numbers (default 17, 27, none)."""
    from device import Controls

    wired = {} if pins is None else {"button_pin": pins["gpio.next_pin"], "led_pin": pins["gpio.led_pin"],
                                     "undo_pin": pins["gpio.undo_pin"]}
    return Controls.create_optional(on_press=lambda: hub.post_action(action, origin="button"), buzzer_pin=buzzer_pin,
                                    on_undo=lambda: hub.post_action(Action.UNDO, origin="button"), say=say_template,
                                    **wired)
