"""The box's push button ("read now / next"), status LED and optional buzzer, through gpiozero.

The pin factory is always passed in (``gpiozero.pins.mock.MockFactory()`` in tests); this
module never sets gpiozero's global ``Device.pin_factory``. When none is given,
:func:`find_pin_factory` builds one the way gpiozero would, without storing it globally.

The button callback only calls the ``on_press`` function it was given, which should post an
action (``hub.post_action("read_now", "button")``) and return: it runs on gpiozero's thread,
so it must not touch game state.
"""

from __future__ import annotations

import enum
import logging
import os
from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from device.errors import N_, GPIOUnavailable, reason_of

__all__ = ["Controls", "LedState", "LedTimings", "find_pin_factory", "is_raspberry_pi", "FACTORY_ORDER", "NO_GPIO",
           "WITHOUT_CONTROLS"]

log = logging.getLogger(__name__)

FACTORY_ORDER = ("lgpio", "rpigpio", "pigpio", "native")
"""Pin factories tried when none is given, in gpiozero's own order (lgpio is the Pi 5's)."""

MODEL_FILE = Path("/proc/device-tree/model")
"""The board's name from the device tree ("Raspberry Pi 5 Model B Rev 1.0"); absent on a PC."""

NO_GPIO = N_("no GPIO: buttons off")
"""The one line said at start on a machine without a GPIO header (a PC, a laptop, CI)."""

WITHOUT_CONTROLS = N_("running without button and LED: {problem}")
"""The warning of :meth:`Controls.create_optional` on a Raspberry Pi whose pins cannot be used (``problem``: the
reason, an error made with ``said()`` or gpiozero's own words)."""

Say = Callable[..., str]
"""How :meth:`Controls.create_optional` says its one line: ``say(template, **params) -> str`` (``companion`` passes
one that says the :func:`N_` template in the box's language; a parameter may be an error made with ``said()``)."""


def _english(template: str, /, **params: object) -> str:
    """:data:`Say` in the templates' own English."""
    return template.format(**params)


def is_raspberry_pi(model_file: Path | None = None) -> bool:
    """Whether this machine is a Raspberry Pi (its device tree's model, default :data:`MODEL_FILE`, names one),
    i.e. has the 40-pin header."""
    try:
        return "raspberry pi" in (model_file or MODEL_FILE).read_bytes().decode("ascii", "replace").lower()
    except OSError:
        return False


def find_pin_factory(name: str | None = None) -> Any:
    """Build a gpiozero pin factory without installing it as gpiozero's global default.

    Args:
        name: a factory name (``"lgpio"``, ``"rpigpio"``, ``"pigpio"``, ``"native"``, ``"mock"``);
            default ``$GPIOZERO_PIN_FACTORY``, else the first of :data:`FACTORY_ORDER` that works.

    Raises:
        GPIOUnavailable: gpiozero is missing, the name is unknown, or no factory works here
            (the message gives each factory's reason).
    """
    try:
        import gpiozero  # noqa: F401  # a pip dependency, but the app must run without it
    except ImportError as exc:
        raise GPIOUnavailable.said(N_("gpiozero is not installed ({problem}): the box runs without button and LED"),
                                   problem=str(exc)) from exc
    factories = {ep.name: ep for ep in entry_points(group="gpiozero_pin_factories")}
    name = name or os.environ.get("GPIOZERO_PIN_FACTORY") or None
    names = [name.lower()] if name else [n for n in FACTORY_ORDER if n in factories]
    if name and name.lower() not in factories:
        raise GPIOUnavailable.said(N_("{name}: unknown pin factory (known: {known}): the box runs without button and "
                                      "LED"), name=name, known=", ".join(sorted(factories)))
    reasons: GPIOUnavailable | None = None  # each factory's, said in turn (an OS refusal in the box's words)
    for candidate in names:
        entry = factories[candidate]
        try:
            return entry.load()()
        except Exception as exc:  # ImportError (no lgpio module), PinUnknownPi (not a Pi), ...
            one = GPIOUnavailable.said(N_("{factory}: {problem}"), factory=candidate, problem=reason_of(exc))
            reasons = one if reasons is None else GPIOUnavailable.said(N_("{first}; {then}"), first=reasons, then=one)
    raise GPIOUnavailable.said(N_("no GPIO pin factory works here ({reasons}): on a Raspberry Pi run `sudo apt install "
                                  "python3-lgpio` and create the venv with --system-site-packages; the box runs "
                                  "without button and LED"), reasons=reasons if reasons is not None else "")


class LedState(enum.Enum):
    """What the status LED is showing."""

    OFF = "off"
    """idle(): nothing happening."""
    WATCHING = "watching"
    """watching(): slow blink, the camera is watching the table."""
    READ_OK = "read_ok"
    """read_ok(): one short flash, a roll was read (then the LED stays off)."""
    ERROR = "error"
    """error(): fast blink, something needs attention (camera lost, ...)."""


@dataclass(frozen=True)
class LedTimings:
    """LED blink timings in seconds (tests pass short ones)."""

    slow: float = 1.0
    """watching(): on and off time of each half period."""
    fast: float = 0.1
    """error(): on and off time of each half period."""
    flash: float = 0.25
    """read_ok(): how long the single flash stays on."""
    beep: float = 0.15
    """beep(): how long each beep sounds, and the pause between beeps."""


class Controls:
    """A push button, a status LED and an optional buzzer on the Pi's GPIO header (gpiozero
    ``Button``, ``LED`` and ``Buzzer``).

    Args:
        button_pin: BCM number of the button (to ground; the internal pull-up is used). Default 17.
        led_pin: BCM number of the LED (through a resistor to ground). Default 27.
        buzzer_pin: BCM number of an active buzzer (on = sound), or None (default) for none.
        undo_pin: BCM number of a second button, Undo (to ground), or None (default) for none.
        pin_factory: the gpiozero pin factory; None builds one with :func:`find_pin_factory`
            (and closes it in :meth:`close`). A factory passed in is left open for its owner.
        on_press: called with no arguments, on gpiozero's thread, each time the button is pressed;
            it should only post an action to a queue.
        on_undo: the same for the Undo button.
        bounce_time: seconds of contact bounce to ignore (None: no debouncing).
        timings: LED blink timings.

    Raises:
        GPIOUnavailable: ``pin_factory`` is None and no factory works here.
        gpiozero.GPIOZeroError: the pins are invalid or already in use.
    """

    def __init__(
        self,
        button_pin: int = 17,
        led_pin: int = 27,
        *,
        buzzer_pin: int | None = None,
        undo_pin: int | None = None,
        pin_factory: Any = None,
        on_press: Callable[[], None] | None = None,
        on_undo: Callable[[], None] | None = None,
        bounce_time: float | None = 0.05,
        timings: LedTimings = LedTimings(),
    ) -> None:
        from gpiozero import LED, Button, Buzzer

        self._owns_factory = pin_factory is None
        self.pin_factory = pin_factory if pin_factory is not None else find_pin_factory()
        self.timings = timings
        self._on_press = on_press
        self._on_undo = on_undo
        self.state = LedState.OFF
        """The last LED state asked for (:class:`LedState`)."""
        self.button: Any = None
        self.led: Any = None
        self.buzzer: Any = None
        self.undo_button: Any = None
        self.beeps = 0
        """How many beeps were asked for since creation (also counted without a buzzer)."""
        try:
            self.button = Button(button_pin, pull_up=True, bounce_time=bounce_time, pin_factory=self.pin_factory)
            self.led = LED(led_pin, initial_value=False, pin_factory=self.pin_factory)
            if buzzer_pin is not None:
                self.buzzer = Buzzer(buzzer_pin, initial_value=False, pin_factory=self.pin_factory)
            if undo_pin is not None:
                self.undo_button = Button(undo_pin, pull_up=True, bounce_time=bounce_time, pin_factory=self.pin_factory)
        except Exception:
            self.close()
            raise
        self.button.when_pressed = self._pressed
        if self.undo_button is not None:
            self.undo_button.when_pressed = self._undo_pressed

    @classmethod
    def create_optional(cls, *args: Any, say: Say = _english, **kwargs: Any) -> Controls | None:
        """Like ``Controls(...)``, but return None (and log the reason) when GPIO is not usable here.

        Lets the app run on a dev PC or a Pi without the button wired to a working pin library. On a
        machine that is not a Raspberry Pi the reason is the one line :data:`NO_GPIO` (each pin
        library's complaint only at DEBUG); on a Pi it is a warning (:data:`WITHOUT_CONTROLS`) with every
        library's reason and what to install. ``say`` (:data:`Say`) says those lines (default: English).
        """
        try:
            return cls(*args, **kwargs)
        except GPIOUnavailable as exc:
            if is_raspberry_pi():
                log.warning("%s", say(WITHOUT_CONTROLS, problem=exc))
            else:
                log.info("%s", say(NO_GPIO))
                log.debug("no GPIO pin factory: %s", exc)
        except Exception as exc:  # gpiozero errors: pin in use, invalid pin, no access to /dev/gpiochip*: its words
            log.debug("GPIO refused: %s", type(exc).__name__)
            log.warning("%s", say(WITHOUT_CONTROLS, problem=reason_of(exc)))
        return None

    def _pressed(self) -> None:
        """gpiozero's when_pressed handler: only hands over to ``on_press``."""
        self._hand_over(self._on_press)

    def _undo_pressed(self) -> None:
        """The Undo button's when_pressed handler: only hands over to ``on_undo``."""
        self._hand_over(self._on_undo)

    @staticmethod
    def _hand_over(callback: Callable[[], None] | None) -> None:
        if callback is None:
            return
        try:
            callback()
        except Exception:  # never kill gpiozero's event thread
            log.exception("button callback failed")

    # -- LED ------------------------------------------------------------------------------------

    def idle(self) -> None:
        """LED off."""
        self.state = LedState.OFF
        if self.led is not None:  # closed: the state is still recorded
            self.led.off()

    def watching(self) -> None:
        """LED blinks slowly (``timings.slow`` seconds on, the same off), in the background."""
        self.state = LedState.WATCHING
        if self.led is not None:  # closed: the state is still recorded
            self.led.blink(on_time=self.timings.slow, off_time=self.timings.slow, background=True)

    def read_ok(self) -> None:
        """LED flashes once for ``timings.flash`` seconds, then stays off."""
        self.state = LedState.READ_OK
        if self.led is not None:  # closed: the state is still recorded
            self.led.blink(on_time=self.timings.flash, off_time=0, n=1, background=True)

    def error(self) -> None:
        """LED blinks fast (``timings.fast`` seconds on, the same off), in the background."""
        self.state = LedState.ERROR
        if self.led is not None:  # closed: the state is still recorded
            self.led.blink(on_time=self.timings.fast, off_time=self.timings.fast, background=True)

    # -- buzzer ---------------------------------------------------------------------------------

    def beep(self, times: int = 1) -> None:
        """Sound the buzzer ``times`` times (``timings.beep`` s on, the same off), in the background.

        Without a buzzer only :attr:`beeps` counts; the announcement is on the screens anyway.
        """
        self.beeps += times
        if self.buzzer is not None and times > 0:
            self.buzzer.beep(on_time=self.timings.beep, off_time=self.timings.beep, n=times, background=True)

    def close(self) -> None:
        """Turn the LED off and release the pins (and the pin factory if this object built it). Safe twice."""
        for device in (self.buzzer, self.led, self.button, self.undo_button):
            if device is not None:
                try:
                    device.close()
                except Exception:
                    log.warning("closing %r failed", device, exc_info=True)
        self.led = self.button = self.buzzer = self.undo_button = None
        if self._owns_factory and self.pin_factory is not None:
            try:
                self.pin_factory.close()
            except Exception:
                log.warning("closing the pin factory failed", exc_info=True)
            self.pin_factory = None

    def __enter__(self) -> Controls:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
