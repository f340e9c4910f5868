"""The box's health at a glance: tiny uniform checks, each a key and a ``perform_check()``.

Every check (:data:`CHECKS`) looks at one thing and returns a :class:`CheckResult`: OK, WARN (the box
works, something is worth fixing) or FAIL (something players will miss), with a message that says
what to do. ``companion doctor`` prints one line per check and exits 1 when any FAILs;
:func:`health` gives the same results as JSON-ready dicts for the touchscreen's status line and an
owner page.

The checks share one :class:`DoctorContext`: the configuration, and the few pictures the camera check
took (the light and calibration checks judge those, the camera is opened once). Everything the checks
touch (the camera, the clock, ``systemctl``) is passed in through the context, so tests give fakes.
Nothing here changes a file: the database is opened read-only.
"""

from __future__ import annotations

import enum
import json
import shutil
import sqlite3
import subprocess
import threading
import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from companion.config import Config
from companion.i18n import N_, Text, message_of, os_reason, say

__all__ = ["BOX_CHECKS", "CHECKS", "Check", "CheckResult", "DoctorContext", "HealthWatch", "Level", "RunningCheck",
           "health", "run_checks", "format_line"]

SERVICE_NAME = "companion"
"""The systemd unit name (systemd/companion.service)."""

PI_CAMERA_SIZE = (2304, 1296)
"""The size a Pi camera delivers when ``camera.size`` is auto (device.picam.DEFAULT_SIZE)."""

CLOCK_FLOOR = 1767225600.0
"""2026-01-01 00:00 UTC: a clock earlier than this (or than this program's files) was never set."""


class Level(str, enum.Enum):
    """How a check came out."""

    OK = "OK"
    WARN = "WARN"
    """The box works; something is worth fixing."""
    FAIL = "FAIL"
    """Something players will miss (no camera, a damaged database): ``companion doctor`` exits 1."""


@dataclass(frozen=True)
class CheckResult:
    """One check's outcome.

    Attributes:
        key: the check's key (``"camera"``).
        level: :class:`Level`.
        message: what was found and, unless OK, what to do: for the box's owner (the owner page, ``companion
            doctor``), so it may name a command.
        said: what players read of it on the status line (the touchscreen, every phone's ``/api/state``), in their
            words and without commands; None: the same as ``message``.
    """

    key: str
    level: Level
    message: str
    said: str | None = None

    def as_dict(self) -> dict[str, str]:
        """``{"key", "level" ("OK"|"WARN"|"FAIL"), "message"}``."""
        return {"key": self.key, "level": self.level.value, "message": self.message}


def _run(command: Sequence[str]) -> tuple[int, str]:
    """Run ``command`` for at most 5 s: (exit code, stdout stripped); (127, why) when it cannot run."""
    try:
        done = subprocess.run(list(command), capture_output=True, text=True, timeout=5, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return 127, str(exc)
    return done.returncode, (done.stdout.strip() or done.stderr.strip())


@dataclass
class DoctorContext:
    """What the checks look at; every part can be replaced (tests pass fakes).

    Attributes:
        config: the effective configuration (:func:`companion.config.load`).
        open_camera: returns a :class:`device.camera.CameraSource`, not yet opened (default: the
            configured ``camera.source`` at ``camera.size``).
        data_dir: the box's data folder (default :func:`companion.paths.data_dir`).
        db_path: the session database (default ``data_dir / "sessions.sqlite3"``).
        calibration_path: the saved table calibration (default ``data_dir / "calibration.json"``).
        now: Unix seconds.
        run: runs a command (``systemctl``, ``timedatectl``): (exit code, output).
        address: the box's LAN address (``"127.0.0.1"`` without a network).
        camera_timeout_s: seconds the camera has to deliver its pictures (s).
        warmup_frames: pictures taken from a live camera; the last is judged (its exposure settled).
        look: in the running box, returns ``(picture or None, why there is none, the camera's name)`` from the
            box's own camera (which the doctor cannot open while the box holds it); None: open the camera.
    """

    config: Config
    open_camera: Callable[[], Any] | None = None
    data_dir: Path | None = None
    db_path: Path | None = None
    calibration_path: Path | None = None
    now: Callable[[], float] = time.time
    run: Callable[[Sequence[str]], tuple[int, str]] = _run
    address: Callable[[], str] | None = None
    camera_timeout_s: float = 10.0
    warmup_frames: int = 5
    look: Callable[[], tuple[Any, str | None, str]] | None = None
    _picture: Any = field(default=None, repr=False)
    _camera_problem: str | None = field(default=None, repr=False)
    _camera_name: str = field(default="", repr=False)
    _looked: bool = field(default=False, repr=False)

    def folder(self) -> Path:
        if self.data_dir is None:
            from companion.paths import data_dir

            self.data_dir = data_dir()
        return self.data_dir

    def picture(self) -> tuple[np.ndarray | None, str | None, str]:
        """(the camera's last picture ``uint8[H, W, 3]`` BGR or None, why there is none, the source's
        name); the camera is opened once, on the first call, on its own thread for at most
        :attr:`camera_timeout_s`."""
        if not self._looked:
            self._looked = True
            self._picture, self._camera_problem, self._camera_name = (
                self.look() if self.look is not None else self._take_picture())
        return self._picture, self._camera_problem, self._camera_name

    def _take_picture(self) -> tuple[np.ndarray | None, str | None, str]:
        from device import DeviceError, EndOfStream, open_source

        spec = str(self.config["camera.source"])
        result: dict[str, Any] = {"name": spec}

        def take() -> None:
            try:
                if self.open_camera is not None:
                    source = self.open_camera()
                else:
                    size = self.config["camera.size"]
                    source = open_source(spec, loop=False, hold_frames=1, realtime=False,
                                         **({"size": size} if size else {}))
                result["name"] = str(source.name)
                with source:
                    image = None
                    for _ in range(max(1, self.warmup_frames)):
                        try:
                            image = source.read().image
                        except EndOfStream:
                            break
                    result["image"] = image
            except (DeviceError, ValueError) as exc:
                result["problem"] = message_of(exc)  # the camera's own words, said in the owner's language
            except Exception as exc:  # a driver's own error: the doctor reports it, never dies of it
                result["problem"] = f"{type(exc).__name__}: {exc}"

        worker = threading.Thread(target=take, name="doctor-camera", daemon=True)
        worker.start()
        worker.join(self.camera_timeout_s)
        if worker.is_alive():
            return None, Text("no picture within {seconds:g} s (the camera hangs)", seconds=self.camera_timeout_s), \
                result["name"]
        image = result.get("image")
        if image is None and "problem" not in result:
            result["problem"] = Text("the source delivered no picture")
        return image, result.get("problem"), result["name"]

    def service_state(self) -> str | None:
        """``systemctl is-active companion``'s answer (``"active"``, ``"inactive"``, ``"failed"``...), or
        None when systemd cannot be asked here."""
        if shutil.which("systemctl") is None:
            return None
        code, out = self.run(["systemctl", "is-active", SERVICE_NAME])
        word = out.split()[0] if out.split() else ""
        if word in ("active", "inactive", "failed", "activating", "deactivating", "reloading", "unknown"):
            return word
        return None


class Check(Protocol):
    """A health check: a key and :meth:`perform_check`."""

    key: str

    def perform_check(self, ctx: DoctorContext) -> CheckResult:
        """Look and judge; never raises (a fault is a FAIL result)."""


def _ok(key: str, message: str) -> CheckResult:
    return CheckResult(key, Level.OK, message)


def _warn(key: str, message: str, said: str | None = None) -> CheckResult:
    return CheckResult(key, Level.WARN, message, said)


def _fail(key: str, message: str, said: str | None = None) -> CheckResult:
    return CheckResult(key, Level.FAIL, message, said)


UNCALIBRATED = Text("the camera has not been calibrated for this table, so card positions are rough: the box's owner "
                    "can calibrate it")
"""What players read when the box has no table calibration (calibrating is the owner's command, not a button)."""
RECALIBRATE = Text("the camera's calibration no longer fits this table: the box's owner can calibrate it again")
"""What players read when the table calibration cannot be used (another picture size, the sheet moved)."""
STALE_CALIBRATION = Text("the camera's calibration is old: if card positions look off, the box's owner can "
                         "calibrate it again")
"""What players read when the table calibration is older than :attr:`CalibrationCheck.stale_days`."""


class ConfigCheck:
    """The configuration file reads without problems."""

    key = "config"

    def perform_check(self, ctx: DoctorContext) -> CheckResult:
        cfg = ctx.config
        if cfg.problems:
            first = cfg.problems[0]
            if len(cfg.problems) > 1:
                return _fail(
                    self.key,
                    Text(
                        "{problem} (and {count} more): fix the file; `companion config check` lists every problem",
                        problem=first.text(),
                        count=len(cfg.problems) - 1,
                    ),
                )
            return _fail(
                self.key, Text("{problem}: fix the file; `companion config check` lists every problem",
                               problem=first.text())
            )
        if cfg.path is None:
            return _ok(self.key, Text("no configuration file: every setting at its default (`companion config show`)"))
        return _ok(self.key, Text("{path} (version {version})", path=cfg.path, version=cfg.version))


class CameraCheck:
    """A camera is there and delivers pictures at the expected size."""

    key = "camera"

    def perform_check(self, ctx: DoctorContext) -> CheckResult:
        image, problem, name = ctx.picture()
        if image is None:
            if ctx.service_state() == "active":
                return _warn(
                    self.key,
                    Text(
                        "cannot open {name} while the box's service runs (it holds the camera): the touchscreen's "
                        "status line shows the camera",
                        name=name,
                    ),
                )
            said = problem if name in str(problem) else Text("{name}: {problem}", name=name, problem=problem)
            if "companion demo" in str(problem):
                return _fail(
                    self.key,
                    Text(
                        "{problem}; the camera is camera.source in the configuration (`companion config show`)",
                        problem=said,
                    ),
                )
            return _fail(
                self.key,
                Text(
                    "{problem}. Connect the camera (ribbon cable or USB), or run `companion demo` to "
                    "replay photos; the camera is camera.source in the configuration (`companion "
                    "config show`)",
                    problem=said,
                ),
            )
        from device.picam import PI_CAMERA

        height, width = image.shape[:2]
        wanted = ctx.config["camera.size"]
        if wanted is None and (str(name).startswith("picamera2") or name == PI_CAMERA):  # by its name or its kind
            wanted = PI_CAMERA_SIZE
        if wanted is not None and (width, height) != tuple(wanted):
            return _warn(
                self.key,
                Text(
                    "{name} delivers {width}x{height} frames, not the {wanted}x{wanted_height} of camera.size: this "
                    "camera does not have that mode; set camera.size to one it has",
                    name=name,
                    width=width,
                    height=height,
                    wanted=wanted[0],
                    wanted_height=wanted[1],
                ),
            )
        return _ok(self.key, Text("{name} delivers {width}x{height} frames", name=name, width=width, height=height))


class LightCheck:
    """The table is lit: not black, not washed out, not too dim for the readers."""

    key = "light"
    dim_level = 60
    """Median brightness (0-255, grey) below which the readers start to miss dice and card edges."""
    bright_level = 215
    """Median brightness above which white dice and cards lose their edges."""

    def perform_check(self, ctx: DoctorContext) -> CheckResult:
        from device.health import CameraStatus, picture_fault

        image, _, _ = ctx.picture()
        if image is None:
            return _warn(self.key, Text("no picture to judge (see camera)"))
        fault = picture_fault(image)
        if fault is CameraStatus.BLACK:
            return _fail(self.key, Text("the picture is black: uncover the lens or switch the light on"))
        if fault is CameraStatus.SATURATED:
            return _fail(self.key, Text("the picture is white: turn the lamp away from the lens or dim it"))
        grey = image[::4, ::4].mean(axis=2)
        level = float(np.median(grey))
        if level < self.dim_level:
            return _warn(
                self.key, Text("dim table (brightness {level:.0f} of 255): add light over the table", level=level)
            )
        if level > self.bright_level:
            return _warn(
                self.key, Text("very bright table (brightness {level:.0f} of 255): soften the light", level=level)
            )
        return _ok(self.key, Text("brightness {level:.0f} of 255", level=level))


NO_DATA_FOLDER = Text("no data folder (see disk)")
"""The calibration's and the database's line when the data folder cannot be made (the disk check names why)."""


class CalibrationCheck:
    """The table calibration exists, fits this camera's frames, and its sheet is still where it was."""

    key = "calibration"
    stale_days = 90.0
    """Older than this, a calibration is worth redoing (a camera arm drifts, a table moves)."""

    def perform_check(self, ctx: DoctorContext) -> CheckResult:
        from companion.calibration import BadCalibrationFile, load_calibration

        try:
            path = ctx.calibration_path or ctx.folder() / "calibration.json"
        except OSError:  # no data folder: the disk check says why; no calibration can be kept there
            return _warn(self.key, NO_DATA_FOLDER)
        if not path.is_file():
            return _warn(self.key, Text("no table calibration: positions are in pixels; put the printed sheet on the "
                                   "table and run `companion calibrate`"), UNCALIBRATED)
        try:
            calibration = load_calibration(path)
        except BadCalibrationFile as exc:
            return _fail(self.key, message_of(exc), RECALIBRATE)
        age_days = max(0.0, (ctx.now() - path.stat().st_mtime) / 86400)
        image, _, _ = ctx.picture()
        if image is None:
            return _warn(
                self.key,
                Text(
                    "{path} ({days:.0f} days old); not compared with the table (no picture)", path=path, days=age_days
                ),
            )
        size = (image.shape[1], image.shape[0])
        if tuple(calibration.frame_size) != size:
            return _fail(
                self.key,
                Text(
                    "made for {width}x{height} frames, the camera now gives {now_width}x{now_height}: run `companion "
                    "calibrate` again",
                    width=calibration.frame_size[0],
                    height=calibration.frame_size[1],
                    now_width=size[0],
                    now_height=size[1],
                ),
                RECALIBRATE,
            )
        from vision.table import check_markers

        check = check_markers(image, calibration)
        if check.moved:
            return _fail(
                self.key,
                Text(
                    "the sheet's markers moved since calibration ({moved} of {markers}): run `companion calibrate` "
                    "again",
                    moved=len(check.moved),
                    markers=len(calibration.markers_px),
                ),
                RECALIBRATE,
            )
        if len(check.missing) == len(calibration.markers_px):
            return _warn(
                self.key,
                Text(
                    "calibrated {days:.0f} days ago; the calibration sheet is not in view, so it cannot be compared: "
                    "put it back where it was to check",
                    days=age_days,
                ),
            )
        if age_days > self.stale_days:
            return _warn(
                self.key,
                Text(
                    "calibrated {days:.0f} days ago: run `companion calibrate` again if positions look off",
                    days=age_days,
                ),
                STALE_CALIBRATION,
            )
        return _ok(
            self.key,
            Text(
                "sheet in view, markers where they were ({seen} seen), calibrated {days:.0f} days ago",
                seen=len(check.shift_px),
                days=age_days,
            ),
        )


class DiskCheck:
    """Room on the data folder's disk for the session database and pictures."""

    key = "disk"
    fail_mb = 100
    """Below this the database may fail to write (MB)."""
    warn_mb = 1024
    """Below this, time to clean up (MB)."""

    def perform_check(self, ctx: DoctorContext) -> CheckResult:
        try:
            folder = ctx.folder()
            usage = shutil.disk_usage(folder)
        except OSError as exc:
            return _fail(
                self.key,
                Text("cannot reach the data folder ({problem}): check box.data_dir", problem=os_reason(exc)),
            )
        free_mb = usage.free / 2**20
        if free_mb < self.fail_mb:
            return _fail(
                self.key,
                Text(
                    "{free:.0f} MB free on {folder}: the game record may stop being written; delete old pictures "
                    "(reads/) or use a larger SD card",
                    free=free_mb,
                    folder=folder,
                ),
            )
        if free_mb < self.warn_mb:
            return _warn(
                self.key,
                Text("{free:.0f} MB free on {folder}: delete old pictures (reads/) soon", free=free_mb, folder=folder),
            )
        return _ok(self.key, Text("{free:.1f} GB free on {folder}", free=free_mb / 1024, folder=folder))


SET_ASIDE = Text("the box sets it aside (as <name>.corrupt-<time>) at its next start and begins a new one; copy it "
             "somewhere safe first")


class DatabaseCheck:
    """The session database passes SQLite's ``PRAGMA integrity_check`` (opened read-only)."""

    key = "database"

    def perform_check(self, ctx: DoctorContext) -> CheckResult:
        try:
            path = ctx.db_path or ctx.folder() / "sessions.sqlite3"
        except OSError:  # no data folder: the disk check says why; the box cannot start without its database
            return _fail(self.key, NO_DATA_FOLDER)
        if not path.exists():
            return _ok(
                self.key, Text("no session database yet at {path} (the box makes it on its first start)", path=path)
            )
        try:
            with sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5) as db:
                rows = [r[0] for r in db.execute("PRAGMA integrity_check").fetchmany(3)]
            db.close()
        except sqlite3.DatabaseError as exc:
            return _fail(
                self.key, Text("{path} cannot be read ({problem}): {then}", path=path, problem=exc, then=SET_ASIDE)
            )
        if rows == ["ok"]:
            return _ok(self.key, Text("{path}: integrity ok", path=path))
        return _fail(
            self.key,
            Text(
                "{path} is damaged ({problems}): {then}", path=path, problems='; '.join(map(str, rows)), then=SET_ASIDE
            ),
        )


class ClockCheck:
    """The clock is set (games and exports carry dates), and synchronised where systemd can say."""

    key = "clock"

    def perform_check(self, ctx: DoctorContext) -> CheckResult:
        now = ctx.now()
        floor = max(CLOCK_FLOOR, Path(__file__).stat().st_mtime)
        shown = time.strftime("%Y-%m-%d %H:%M", time.localtime(now))
        if now < floor:
            return _fail(
                self.key,
                Text(
                    "the clock says {shown}, before this software was installed: connect the box to a network with "
                    "internet so it can set the time (NTP), or set it by hand",
                    shown=shown,
                ),
            )
        if shutil.which("timedatectl") is not None:
            code, out = ctx.run(["timedatectl", "show", "--property=NTPSynchronized", "--value"])
            if code == 0 and out.strip() == "no":
                return _warn(
                    self.key,
                    Text(
                        "{shown}, not synchronised (NTP) yet: dates may be off until the box reaches the internet",
                        shown=shown,
                    ),
                )
        return _ok(self.key, shown)


class NetworkCheck:
    """The box has a LAN address, so phones can reach the phone view."""

    key = "network"

    def perform_check(self, ctx: DoctorContext) -> CheckResult:
        from companion.netinfo import LOOPBACK, lan_address

        address = (ctx.address or lan_address)()
        port = ctx.config["web.port"]
        if address == LOOPBACK:
            return _warn(self.key, Text("no network address: phones cannot reach the box; join the Wi-Fi "
                                   "(sudo nmtui) or plug in a cable"))
        return _ok(self.key, Text("phone view at http://{address}:{port}/", address=address, port=port))


class ServiceCheck:
    """The box's systemd service is running (where systemd is)."""

    key = "service"

    def perform_check(self, ctx: DoctorContext) -> CheckResult:
        state = ctx.service_state()
        if state is None:
            return _warn(self.key, Text("systemd is not available here: the box runs only when started by hand"))
        if state == "active":
            return _ok(self.key, Text("{service} is running", service=SERVICE_NAME))
        if state == "failed":
            return _fail(
                self.key,
                Text(
                    "{service} has failed: see `journalctl -u {service} -e`, then `sudo systemctl restart {service}`",
                    service=SERVICE_NAME,
                ),
            )
        if state == "unknown":
            return _warn(
                self.key,
                Text("{service} is not installed as a service: `sudo systemd/install.sh`", service=SERVICE_NAME),
            )
        return _warn(
            self.key, Text("{service} is {state}: `sudo systemctl start {service}`", service=SERVICE_NAME, state=state)
        )


CHECKS: tuple[Check, ...] = (ConfigCheck(), CameraCheck(), LightCheck(), CalibrationCheck(), DiskCheck(),
                             DatabaseCheck(), ClockCheck(), NetworkCheck(), ServiceCheck())
"""Every check, in the order ``companion doctor`` prints them."""


class RunningCheck:
    """In the running box: it runs (as the systemd service, or started by hand)."""

    key = "service"

    def perform_check(self, ctx: DoctorContext) -> CheckResult:
        import os

        if os.environ.get("INVOCATION_ID"):
            return _ok(self.key, Text("running as the {service} service", service=SERVICE_NAME))
        return _ok(self.key, Text("running, started by hand (not as a service)"))


BOX_CHECKS: tuple[Check, ...] = (*(c for c in CHECKS if not isinstance(c, ServiceCheck)), RunningCheck())
"""The checks the running box makes (:class:`HealthWatch`): those of ``companion doctor``, the service's own
state told by the box itself."""


def run_checks(ctx: DoctorContext, checks: Sequence[Check] = CHECKS) -> list[CheckResult]:
    """Each check's result, in order; a check that raises is a FAIL naming the fault (the others run)."""
    results = []
    for check in checks:
        try:
            results.append(check.perform_check(ctx))
        except Exception as exc:  # a check's own bug must not hide the other checks
            results.append(
                _fail(
                    check.key,
                    Text("the check itself failed ({error}: {problem})", error=type(exc).__name__, problem=exc),
                )
            )
    return results


def health(ctx: DoctorContext | None = None, checks: Sequence[Check] = CHECKS) -> list[dict[str, str]]:
    """The checks' results as JSON-ready dicts ``{"key", "level", "message"}`` (the owner page, the
    touchscreen's status line); ``ctx`` defaults to one on the configuration found
    (:func:`companion.config.load`)."""
    if ctx is None:
        from companion.config import load

        ctx = DoctorContext(load())
    return [r.as_dict() for r in run_checks(ctx, checks)]


CHECK_WORDS = {"config": N_("config"), "camera": N_("camera"), "light": N_("light"), "calibration": N_("calibration"),
               "disk": N_("disk"), "database": N_("database"), "clock": N_("clock"), "network": N_("network"),
               "service": N_("service")}
"""Each check's key as the owner page names it (its scripts say it in the phone's language); the command line
prints the keys as they are."""


def format_line(result: CheckResult) -> str:
    """``"OK    camera       message"``: the level, the key and the message (in the box's language), two spaces apart
    at least."""
    return f"{result.level.value:<4}  {result.key:<11}  {say(result.message)}"


def as_json(results: Sequence[CheckResult]) -> str:
    """The results as one JSON array of ``{"key", "level", "message"}``."""
    return json.dumps([r.as_dict() for r in results], ensure_ascii=False)


_RANK = {Level.OK: 0, Level.WARN: 1, Level.FAIL: 2}


class HealthWatch:
    """The doctor's checks in the running box, again every ``every_s`` on a thread of their own (the camera,
    light and calibration judged on the box's own pictures through ``look``), for the touchscreen's status line
    (:meth:`summary`: the worst level) and the owner page (:meth:`checks`).

    Args:
        context: makes a fresh :class:`DoctorContext` for each round of checks (its ``look`` reads the box's
            camera; its ``db_path`` the box's database).
        every_s: seconds between rounds (s); the first round runs ``first_after_s`` after :meth:`start`.
        checks: the checks (default :data:`BOX_CHECKS`).

    Attributes:
        version: increases each time the results change (the loop publishes then).
    """

    def __init__(self, context: Callable[[], DoctorContext], every_s: float = 300.0, first_after_s: float = 3.0,
                 checks: Sequence[Check] = BOX_CHECKS) -> None:
        self.context = context
        self.every_s = every_s
        self.first_after_s = first_after_s
        self.check_list = tuple(checks)
        self.version = 0
        self._results: list[CheckResult] | None = None
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def run_once(self) -> list[CheckResult]:
        """One round of checks now (on the caller's thread); the results are kept."""
        results = run_checks(self.context(), self.check_list)
        with self._lock:
            if results != self._results:
                self._results = results
                self.version += 1
        return results

    def start(self) -> None:
        """Run the rounds on a daemon thread (``health-checks``) until :meth:`stop`."""
        def rounds() -> None:
            delay = self.first_after_s
            while not self._stop.wait(delay):
                try:
                    self.run_once()
                except Exception:  # a round that fails must not end the watch
                    import logging

                    logging.getLogger(__name__).exception("the health checks failed")
                delay = self.every_s

        self._thread = threading.Thread(target=rounds, name="health-checks", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """End the rounds (waits a moment for a round in progress)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2.0)

    def checks(self) -> list[dict[str, str]] | None:
        """The last round's results (``{"key", "level", "message"}``), or None before the first."""
        with self._lock:
            return None if self._results is None else [r.as_dict() for r in self._results]

    def summary(self, skip: Collection[str] = ()) -> dict[str, Any] | None:
        """The status line's: ``{"level": the worst, "message": the worst check's in players' words (its ``said``),
        "problems": checks not OK}``, or
        None before the first round. ``skip``: the keys of checks the box's mode does not need (the d6 dice need no
        table calibration), left out."""
        with self._lock:
            results = self._results
        if results is None:
            return None
        results = [r for r in results if r.key not in skip]
        if not results:
            return {"level": Level.OK.value, "key": "", "message": Text("all checks OK"), "problems": 0}
        worst = max(results, key=lambda r: _RANK[r.level])
        problems = sum(1 for r in results if r.level is not Level.OK)
        message = (worst.said or worst.message) if worst.level is not Level.OK else Text("all checks OK")
        return {"level": worst.level.value, "key": worst.key, "message": message, "problems": problems}
