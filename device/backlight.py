"""The display's backlight: the official 7" touchscreen's brightness, through the kernel's sysfs interface.

On Raspberry Pi OS the panel's backlight is ``/sys/class/backlight/<name>/`` (``10-0045`` for the DSI display,
``rpi_backlight`` on older kernels) with ``brightness`` (written) and ``max_brightness`` (read). An HDMI monitor
has none: :meth:`Backlight.find` then returns None and the settings screen says brightness is not adjustable.
Writing needs the ``video`` group (or a udev rule); a refusal is an :class:`OSError` naming the file.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["BACKLIGHT_ROOT", "MIN_PERCENT", "Backlight"]

BACKLIGHT_ROOT = Path("/sys/class/backlight")
"""Where the kernel lists the backlights."""

MIN_PERCENT = 10
"""The dimmest the box sets (a black screen cannot be set brighter by touch)."""


class Backlight:
    """One backlight's brightness in percent (0-100) of its ``max_brightness``.

    Args:
        folder: the backlight's sysfs folder (``/sys/class/backlight/10-0045``), or a test's fake folder with the
            same two files.
    """

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        self.name = self.folder.name

    @classmethod
    def find(cls, root: Path = BACKLIGHT_ROOT) -> Backlight | None:
        """The first backlight under ``root`` with ``brightness`` and ``max_brightness``, or None (no such display)."""
        try:
            folders = sorted(p for p in Path(root).iterdir() if (p / "brightness").exists()
                             and (p / "max_brightness").exists())
        except OSError:
            return None
        return cls(folders[0]) if folders else None

    def _read(self, name: str) -> int:
        return int((self.folder / name).read_text(encoding="ascii").split()[0])

    @property
    def percent(self) -> int:
        """The brightness now, 0-100 % (rounded).

        Raises:
            OSError: the files cannot be read.
        """
        top = max(1, self._read("max_brightness"))
        return round(100 * self._read("brightness") / top)

    def set_percent(self, percent: int) -> int:
        """Set the brightness to ``percent`` (kept within :data:`MIN_PERCENT`-100); returns the percent set.

        Raises:
            OSError: the brightness file cannot be written (permissions: the box's user needs the ``video`` group).
        """
        percent = max(MIN_PERCENT, min(100, int(percent)))
        top = max(1, self._read("max_brightness"))
        (self.folder / "brightness").write_text(str(max(1, round(top * percent / 100))), encoding="ascii")
        return percent
