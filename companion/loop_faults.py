"""What the main loop does with an exception from one of its passes (:class:`companion.app.MainLoop`).

Nothing a view, a frame or the disk does stops the loop: an unexpected exception is logged with its traceback,
shown as the status message, and the loop goes on (:class:`FaultContainment`). Two kinds pass through and end
the loop: the camera source's own "cannot go on" (a ``device.DeviceError``) and a Ctrl-C, however it surfaces
(:func:`let_through`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from companion.i18n import Text

__all__ = ["FaultContainment", "camera_gave_up", "interrupted", "let_through"]

log = logging.getLogger("companion.app")  # the loop's own log: its faults are said where its other lines are


def interrupted(exc: BaseException | None) -> bool:
    """Whether ``exc`` came of a Ctrl-C: a ``KeyboardInterrupt`` raised while a lock was being taken back (in
    ``concurrent.futures.wait`` or a queue) may surface as another exception (``RuntimeError: release unlocked
    lock``) with the interrupt as its context (or cause)."""
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, KeyboardInterrupt):
            return True
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return False


def camera_gave_up(exc: BaseException) -> bool:
    """Whether ``exc`` is the camera source's own "cannot go on" (a ``device.DeviceError``, e.g. a replay with
    no picture that can be decoded)."""
    from device import DeviceError

    return isinstance(exc, DeviceError)


def let_through(exc: Exception) -> None:
    """Raise what ends the loop instead of being contained: ``KeyboardInterrupt`` (from ``exc``) when ``exc`` came
    of a Ctrl-C (:func:`interrupted`), ``exc`` itself when the camera gave up (:func:`camera_gave_up`); else
    return (the caller contains ``exc``).

    Raises:
        KeyboardInterrupt: ``exc`` came of a Ctrl-C.
        device.DeviceError: ``exc``, the camera source's own end.
    """
    if interrupted(exc):
        raise KeyboardInterrupt from exc
    if camera_gave_up(exc):
        raise exc


class FaultContainment:
    """The loop's containment of an unexpected exception, mixed into :class:`companion.app.MainLoop`: it uses the
    loop's ``hub`` (:class:`companion.hub.StateHub`), ``view()``, ``sleep(seconds)``, ``message`` (the status
    message shown) and ``_faults`` (unexpected exceptions in a row; the loop sets it to 0 after a good pass)."""

    hub: Any
    message: Any
    sleep: Callable[[float], Any]
    _faults: int
    view: Callable[[], dict[str, Any]]

    def _safely(self, doing: str, work: Callable[..., Any], *args: Any) -> Any:
        """``work(*args)``; an unexpected exception is logged with its traceback and shown (:meth:`_fault`),
        and None is returned. What ends the loop passes (:func:`let_through`)."""
        try:
            return work(*args)
        except Exception as exc:
            let_through(exc)
            self._fault(doing, exc)
            return None

    def _fault(self, doing: str, exc: BaseException) -> None:
        """An unexpected exception: logged with its traceback, shown as the status message, nothing recorded
        from it; the loop goes on (a pass that keeps failing is slowed down, not stopped)."""
        self._faults += 1
        log.error("%s failed", doing, exc_info=exc)
        self.message = Text(
            "{doing} failed ({error}): nothing was recorded from it; the box goes on",
            doing=Text(doing),
            error=type(exc).__name__,
        )
        try:
            self.hub.publish(self.view())
        except Exception:
            log.exception("publishing the fault failed too")
        if self._faults > 3:
            self.sleep(min(1.0, 0.05 * self._faults))
