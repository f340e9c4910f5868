"""Controls: button and status LED on gpiozero's MockFactory, passed in (never gpiozero's global)."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator

import pytest

gpiozero = pytest.importorskip("gpiozero")
from gpiozero import Device  # noqa: E402
from gpiozero.pins.mock import MockFactory, MockPin  # noqa: E402

from device import Controls, GPIOUnavailable, LedState, LedTimings, find_pin_factory  # noqa: E402

FAST = LedTimings(slow=0.05, fast=0.01, flash=0.02)


CHANGED = threading.Condition()  # notified whenever a mock pin changes or a test callback runs


def changed() -> None:
    """Wake :func:`wait_for` (called from gpiozero's threads)."""
    with CHANGED:
        CHANGED.notify_all()


class NotifyingPin(MockPin):
    """A mock pin that notifies :data:`CHANGED` after each state change, so tests wait on the change itself."""

    def _change_state(self, value):
        did = super()._change_state(value)
        if did:
            changed()
        return did


def wait_for(condition: Callable[[], bool], timeout: float = 5.0, what: str = "condition") -> None:
    """Wait on :data:`CHANGED` until ``condition`` holds; fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    with CHANGED:
        while not condition():
            left = deadline - time.monotonic()
            if left <= 0:
                pytest.fail(f"timed out after {timeout}s waiting for {what}")
            CHANGED.wait(left)


def noting(fn: Callable[[], None]) -> Callable[[], None]:
    """``fn`` then :func:`changed`: a button callback the test can wait on."""
    def call() -> None:
        fn()
        changed()
    return call


class NotifyingHandler(logging.Handler):
    """Keeps the log records it sees and wakes :func:`wait_for`."""

    def __init__(self) -> None:
        super().__init__()
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)
        changed()


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    global_before = Device.__dict__.get("pin_factory")
    pins = MockFactory(pin_class=NotifyingPin)
    try:
        yield pins
    finally:
        pins.reset()
        pins.close()
        assert Device.__dict__.get("pin_factory") is global_before, "a test set gpiozero's global pin factory"


@pytest.fixture
def controls(factory: MockFactory) -> Iterator[tuple[Controls, list[str]]]:
    pressed: list[str] = []
    ctl = Controls(button_pin=17, led_pin=27, pin_factory=factory, on_press=noting(lambda: pressed.append("read_now")),
                   bounce_time=None, timings=FAST)
    try:
        yield ctl, pressed
    finally:
        ctl.close()


def led_states(factory: MockFactory) -> list[bool]:
    return [bool(s.state) for s in factory.pin(27).states]


def test_button_press_calls_the_callback(controls, factory: MockFactory) -> None:
    ctl, pressed = controls
    button = factory.pin(17)
    assert button.state  # pulled up: released
    button.drive_low()
    wait_for(lambda: pressed == ["read_now"], what="the first press")
    button.drive_high()
    button.drive_low()
    wait_for(lambda: len(pressed) == 2, what="the second press")
    button.drive_high()
    assert pressed == ["read_now", "read_now"]


def test_button_callback_that_posts_to_a_queue_from_another_thread(factory: MockFactory) -> None:
    got = threading.Event()
    actions: list[tuple[str, str]] = []

    def post() -> None:
        actions.append(("read_now", "button"))
        got.set()

    with Controls(pin_factory=factory, on_press=post, bounce_time=None, timings=FAST):
        presser = threading.Thread(target=factory.pin(17).drive_low)
        presser.start()
        assert got.wait(5.0)
        presser.join(5.0)
        factory.pin(17).drive_high()
    assert actions == [("read_now", "button")]


def test_failing_callback_is_logged_not_raised(factory: MockFactory) -> None:
    def boom() -> None:
        raise RuntimeError("queue full")

    seen = NotifyingHandler()
    log = logging.getLogger("device.gpio")
    log.addHandler(seen)
    try:
        with Controls(pin_factory=factory, on_press=boom, bounce_time=None, timings=FAST):
            factory.pin(17).drive_low()
            wait_for(lambda: any("button callback failed" in r.getMessage() for r in seen.records))
    finally:
        log.removeHandler(seen)


def test_led_idle_and_read_ok_flash(controls, factory: MockFactory) -> None:
    ctl, _ = controls
    led = factory.pin(27)
    assert led_states(factory) == [False] and ctl.state is LedState.OFF
    led.clear_states()
    ctl.read_ok()
    assert ctl.state is LedState.READ_OK
    wait_for(lambda: led_states(factory) == [False, True, False], what="one flash")
    flash = led.states[2].timestamp  # seconds the LED was on
    assert flash >= FAST.flash * 0.5
    ctl.idle()
    assert not led.state and ctl.state is LedState.OFF


def test_led_watching_blinks_slowly_and_error_fast(factory: MockFactory) -> None:
    timings = LedTimings(slow=0.15, fast=0.01, flash=0.02)  # far apart, so scheduler jitter cannot blur them
    with Controls(pin_factory=factory, bounce_time=None, timings=timings) as ctl:
        led = factory.pin(27)
        ctl.watching()
        assert ctl.state is LedState.WATCHING
        wait_for(lambda: len(led.states) >= 4, what="a slow blink")
        slow = [s.timestamp for s in led.states[2:4]]  # [0] initial, [1] first switch-on
        assert [s.state for s in led.states[:4]] == [False, True, False, True]
        ctl.error()
        assert ctl.state is LedState.ERROR
        led.clear_states()
        wait_for(lambda: len(led.states) >= 6, what="fast blinks")
        fast = [s.timestamp for s in led.states[2:6]]
        assert min(slow) >= timings.slow * 0.9
        assert max(fast) < timings.slow * 0.9  # fast half-periods are much shorter than slow ones
        ctl.idle()
        wait_for(lambda: not led.state, what="LED off")


def test_close_releases_pins_and_leaves_a_passed_factory_open(factory: MockFactory) -> None:
    ctl = Controls(pin_factory=factory, timings=FAST)
    ctl.watching()
    ctl.close()
    ctl.close()  # twice is fine
    ctl.error()  # after close: recorded, no hardware touched
    assert ctl.state is LedState.ERROR and ctl.pin_factory is factory
    again = Controls(pin_factory=factory, timings=FAST)  # the pins are free again
    again.close()


def test_custom_pins(factory: MockFactory) -> None:
    pressed = []
    with Controls(button_pin=5, led_pin=6, pin_factory=factory, on_press=noting(lambda: pressed.append(1)),
                  bounce_time=None) as ctl:
        ctl.idle()
        factory.pin(5).drive_low()
        wait_for(lambda: pressed == [1])


def test_the_undo_button_calls_its_own_callback(factory: MockFactory) -> None:
    pressed = []
    with Controls(pin_factory=factory, undo_pin=22, on_press=noting(lambda: pressed.append("next")),
                  on_undo=noting(lambda: pressed.append("undo")), bounce_time=None) as ctl:
        factory.pin(22).drive_low()
        wait_for(lambda: pressed == ["undo"], what="the undo press")
        factory.pin(17).drive_low()
        wait_for(lambda: pressed == ["undo", "next"], what="the next press")
        assert ctl.undo_button is not None
    assert ctl.undo_button is None  # released on close


def test_find_pin_factory_by_name_and_failure(monkeypatch: pytest.MonkeyPatch) -> None:
    pins = find_pin_factory("mock")
    try:
        assert isinstance(pins, MockFactory)
    finally:
        pins.close()
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    pins = find_pin_factory()
    pins.close()
    with pytest.raises(GPIOUnavailable, match="unknown pin factory"):
        find_pin_factory("nonsense")


def no_factory(name=None):
    raise GPIOUnavailable("no GPIO pin factory works here (lgpio: ModuleNotFoundError: No module named 'lgpio'; "
                          "native: PinUnknownPi: unable to locate Pi revision): on a Raspberry Pi run "
                          "`sudo apt install python3-lgpio` ...")


def test_a_machine_without_gpio_says_so_in_one_line(monkeypatch: pytest.MonkeyPatch, tmp_path,
                                                    caplog: pytest.LogCaptureFixture) -> None:
    """A PC (no Raspberry Pi in the device tree): "no GPIO: buttons off", not every pin library's complaint."""
    model = tmp_path / "model"  # a PC has no /proc/device-tree/model at all
    monkeypatch.setattr("device.gpio.MODEL_FILE", model)
    monkeypatch.setattr("device.gpio.find_pin_factory", no_factory)
    with caplog.at_level(logging.INFO, logger="device.gpio"):
        assert Controls.create_optional(on_press=lambda: None) is None
    said = [r for r in caplog.records if r.levelno >= logging.INFO]
    assert [r.getMessage() for r in said] == ["no GPIO: buttons off"]
    assert said[0].levelno == logging.INFO
    model.write_bytes(b"Generic x86 board\x00")  # a board with a device tree that is not a Pi: the same
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="device.gpio"):
        assert Controls.create_optional(on_press=lambda: None) is None
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.INFO] == ["no GPIO: buttons off"]


def test_a_raspberry_pi_without_a_pin_library_gets_the_reasons_and_the_fix(monkeypatch: pytest.MonkeyPatch, tmp_path,
                                                                           caplog: pytest.LogCaptureFixture) -> None:
    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\x00")  # as the device tree has it, NUL-terminated
    monkeypatch.setattr("device.gpio.MODEL_FILE", model)
    monkeypatch.setattr("device.gpio.find_pin_factory", no_factory)
    with caplog.at_level(logging.WARNING, logger="device.gpio"):
        assert Controls.create_optional(on_press=lambda: None) is None
    [record] = caplog.records
    assert "without button and LED" in record.getMessage() and "python3-lgpio" in record.getMessage()


def test_create_optional_with_a_factory_and_a_pin_conflict(factory: MockFactory) -> None:
    ctl = Controls.create_optional(pin_factory=factory, timings=FAST)
    assert isinstance(ctl, Controls)
    try:
        assert Controls.create_optional(pin_factory=factory) is None  # pins 17/27 already in use
    finally:
        ctl.close()


def test_create_optional_on_a_machine_without_pin_library(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    try:
        pins = find_pin_factory()
    except GPIOUnavailable as exc:
        assert "python3-lgpio" in str(exc)
    else:
        pins.close()
        pytest.skip("a real pin library works here; not claiming real pins in a test")
    assert Controls.create_optional() is None


class _Entry:
    """A gpiozero pin factory's entry point whose factory fails with ``error``."""

    def __init__(self, name: str, error: Exception) -> None:
        self.name, self.error = name, error

    def load(self) -> Callable[[], None]:
        def make() -> None:
            raise self.error
        return make


def test_a_pin_library_refused_by_the_system_is_said_in_the_players_words(monkeypatch: pytest.MonkeyPatch) -> None:
    """The system's English reason ("Permission denied") and the device's path reached the players as they were;
    they are said in the box's words for it, as every other refusal of the system."""
    import errno
    import os

    from companion import i18n

    denied = PermissionError(errno.EACCES, os.strerror(errno.EACCES), "/dev/gpiochip0")
    busy = RuntimeError("lgpio: cannot claim the pin")
    busy.__cause__ = OSError(errno.EBUSY, os.strerror(errno.EBUSY))
    monkeypatch.setattr("device.gpio.entry_points", lambda group: [_Entry("lgpio", denied), _Entry("native", busy)])
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    with pytest.raises(GPIOUnavailable) as refused:
        find_pin_factory()
    said = i18n.say(refused.value, "pl")
    assert "lgpio: brak uprawnień do zapisu lub odczytu w tym miejscu; native: urządzenie jest zajęte" in said, said
    assert "Permission denied" not in said and "busy" not in said and "/dev/gpiochip0" not in said
    assert "Permission denied" in str(refused.value)  # the English, for the log


def test_a_pin_the_system_refuses_at_start_is_said_in_the_players_words(monkeypatch: pytest.MonkeyPatch,
                                                                        caplog: pytest.LogCaptureFixture) -> None:
    import errno
    import os

    from companion import i18n

    def refused(self, *args, **kwargs) -> None:
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), "/dev/gpiochip0")

    monkeypatch.setattr(Controls, "__init__", refused)
    with caplog.at_level(logging.WARNING, logger="device.gpio"):
        assert Controls.create_optional(say=lambda t, **p: i18n.say(i18n.text_of(t, p), "hu")) is None
    [record] = caplog.records
    assert "Permission denied" not in record.getMessage() and "/dev/gpiochip0" not in record.getMessage()
    assert i18n.say(i18n.Text("no permission to write or read there"), "hu") in record.getMessage()
