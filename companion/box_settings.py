"""What the table changes on the box itself: language, brightness, sound (the settings screen, an owner's phone).

These few settings are changed at the table, on the touchscreen's settings screen or on the owner page of a phone
the touchscreen allowed; the box keeps them in ``box-settings.json`` in its data folder (written whole and
atomically) and reads them at its next start. The language overrides ``box.language`` of the configuration file
(``companion config show`` says so: ``# the settings screen (PATH)``); brightness and sound exist only where the
hardware allows (a backlight the box may write, a buzzer wired).

A damaged or foreign file never stops the box: it is named in one log line and the defaults are used.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.errors import BadEntry, shown
from companion.i18n import LANGUAGE_NAMES, LANGUAGES, Listing, Text, _, os_reason, say, set_setting_language
from companion.paths import write_whole

__all__ = ["FILE_NAME", "LANGUAGE", "BRIGHTNESS", "SOUND", "BoxSettings", "language_taken", "overlay_config"]

log = logging.getLogger(__name__)

FILE_NAME = "box-settings.json"
"""The file in the data folder (:func:`companion.paths.data_dir`)."""

LANGUAGE, BRIGHTNESS, SOUND = "box.language", "screen.brightness", "sound.on"
"""The keys a ``change_setting`` action names."""

BRIGHTNESS_STEP = 10
"""Percent per tap of the settings screen's brightness buttons."""


def default_path(demo: bool = False) -> Path:
    """``box-settings.json`` in the box's data folder; with ``demo``, the demo's own file
    (:func:`companion.paths.demo_settings_path`), as the demo keeps its own database.

    Raises:
        companion.paths.DataFolderError: the data folder cannot be made.
    """
    from companion.paths import data_dir, demo_settings_path

    return demo_settings_path() if demo else data_dir() / FILE_NAME


def _read(path: Path, quiet: bool = False) -> dict[str, Any]:
    """The file's settings, {} when missing; a damaged one is logged (at debug level when ``quiet``) and ignored."""
    level = logging.DEBUG if quiet else logging.WARNING
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError, RecursionError) as exc:  # RecursionError: lists nested deeper than the parser goes
        log.log(level, "box settings %s cannot be read (%s); the defaults are used", path, exc)
        return {}
    if not isinstance(data, dict):
        log.log(level, "box settings %s is not a JSON object; the defaults are used", path)
        return {}
    return data


def overlay_config(config: Any, path: Path | None = None, demo: bool = False) -> Any:
    """``config`` (:class:`companion.config.Config`) with the settings screen's language over the file's
    (the language picked at the table wins until it is changed again); returns ``config``. ``path`` None: the
    box's file, or the demo's with ``demo`` (:func:`default_path`)."""
    from companion.config import Value

    path = default_path(demo) if path is None else path
    # quiet: read before the log is set up (a bare line), and again by the box's BoxSettings, which says it once
    language = _read(path, quiet=True).get(LANGUAGE)
    if language in LANGUAGES and not config.origin(LANGUAGE).startswith(("flag", "environment")):
        config.values[LANGUAGE] = Value(language, language, f"the settings screen ({path})")
    return config


def language_taken(value: Any) -> str:
    """The code of the box's language (:data:`companion.i18n.LANGUAGES`) that ``value``, sent for ``box.language``
    from a phone or the settings screen, means: by the configuration file's own rule
    (:meth:`companion.config.Setting.value_of`), so ``"el-GR"``, ``"Greek"``, ``"Ελληνικά"`` and ``"hu_HU"`` are
    taken from a phone as they are from the file.

    Raises:
        BadEntry: not a text (null, a number, true/false) or a text that means none of the box's languages; the
            refusal names the setting and then the value given, in the reader's language (``"el-"``: no language
            tag; ``"gr"``: did you mean ``"el"``?).
    """
    from companion.config import setting

    if not isinstance(value, str):  # null, 12, true, a 5,000-digit number: the choices, and what was sent
        raise BadEntry(Text("the language ({key}) is one of {choices}; the value given: {value}", key=LANGUAGE,
                            choices=Listing(LANGUAGES), value=shown(value)))
    try:
        return setting(LANGUAGE).value_of(value)
    except ValueError as exc:  # the file's own refusal: "el-" no language tag, "gr" did you mean "el"?
        reason = exc.args[0] if exc.args else str(exc)
        raise BadEntry(Text("the language ({key}): {reason}", key=LANGUAGE, reason=reason)) from None


@dataclass
class BoxSettings:
    """The settings screen's values, applied and kept.

    Args:
        path: the JSON file (None: kept in memory only, e.g. a test).
        language: the language at start (``box.language`` of the configuration, the file's when it has one).
        backlight: the display's :class:`device.Backlight`, or None (brightness not adjustable here).
        buzzer: whether a buzzer is wired (sound can be switched off).
        on_language: called with the new language once it is set (the box redraws in it).
    """

    path: Path | None
    language: str = "en"
    backlight: Any = None
    buzzer: bool = False
    on_language: Callable[[str], None] | None = None

    def __post_init__(self) -> None:
        stored = _read(self.path) if self.path is not None else {}
        self.language = stored.get(LANGUAGE) if stored.get(LANGUAGE) in LANGUAGES else self.language
        self.sound = stored.get(SOUND) if isinstance(stored.get(SOUND), bool) else True
        brightness = stored.get(BRIGHTNESS)
        self.brightness: int | None = None
        if self.backlight is not None:
            try:
                self.brightness = self.backlight.percent
                if isinstance(brightness, int) and not isinstance(brightness, bool):
                    self.brightness = self.backlight.set_percent(brightness)
            except OSError as exc:
                log.warning("%s", _("the display's brightness cannot be set ({problem}); it stays as it is").format(
                    problem=say(os_reason(exc))))
        set_setting_language(self.language)

    def view(self) -> dict[str, Any]:
        """The settings screen's view: ``{"language": {"value", "choices": [{"code", "name"}]}, "brightness": null |
        {"value", "step"}, "sound": null | {"value"}}`` (null: the hardware does not allow it)."""
        return {
            "language": {
                "value": self.language,
                "choices": [{"code": c, "name": LANGUAGE_NAMES[c]} for c in LANGUAGES],
            },
            "brightness": None if self.brightness is None else {"value": self.brightness, "step": BRIGHTNESS_STEP},
            "sound": {"value": self.sound} if self.buzzer else None,
        }

    def change(self, key: Any, value: Any) -> str:
        """Apply and keep one setting; returns what the views say.

        Raises:
            BadEntry: an unknown key, a value the setting does not take, or hardware that refused it (nothing kept).
        """
        if key == LANGUAGE:
            self.language = set_setting_language(language_taken(value))
            if self.on_language is not None:
                self.on_language(self.language)
            said = Text("language: {name}", name=LANGUAGE_NAMES[self.language])
        elif key == BRIGHTNESS:
            if self.backlight is None or self.brightness is None:
                raise BadEntry(Text("this display's brightness cannot be set from the box"))
            if isinstance(value, bool) or not isinstance(value, int):
                raise BadEntry(Text("brightness is a whole number of percent, got {value}", value=shown(value)))
            try:
                self.brightness = self.backlight.set_percent(value)
            except OSError as exc:
                raise BadEntry(Text("the display refused the brightness ({why}): the box's user needs the video "
                                 "group", why=os_reason(exc))) from None
            said = Text("brightness: {percent} %", percent=self.brightness)
        elif key == SOUND:
            if not self.buzzer:
                raise BadEntry(Text("no buzzer is wired: there is no sound to switch"))
            if not isinstance(value, bool):
                raise BadEntry(Text("sound is on (true) or off (false), got {value}", value=shown(value)))
            self.sound = value
            said = Text("sound on") if value else Text("sound off")
        else:
            raise BadEntry(
                Text(
                    "unknown setting {key}; the settings are {keys}",
                    key=shown(key),
                    keys=Listing((LANGUAGE, BRIGHTNESS, SOUND)),
                )
            )
        self._save()
        return said

    def _save(self) -> None:
        """Write the file whole (a temporary file renamed over it); a refusal is logged, the setting still holds."""
        if self.path is None:
            return
        data = {LANGUAGE: self.language, SOUND: self.sound}
        if self.brightness is not None:
            data[BRIGHTNESS] = self.brightness
        try:
            write_whole(self.path, json.dumps(data, ensure_ascii=False, indent=1))
        except OSError as exc:
            log.warning("%s", _("box settings not kept in {path} ({problem}): they hold until the box stops").format(
                path=self.path, problem=say(os_reason(exc))))
