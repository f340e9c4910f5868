"""The systemd unit and its installer (run with --dry-run only: no changes to this machine)."""

from __future__ import annotations

import configparser
import fnmatch
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

SYSTEMD_DIR = Path(__file__).resolve().parent.parent / "systemd"
UNIT = SYSTEMD_DIR / "companion.service"
INSTALLER = SYSTEMD_DIR / "install.sh"
DEFAULT_PREFIX = "/opt/tabletop-companion"


def parse_unit(text: str) -> configparser.ConfigParser:
    # systemd allows repeated keys (Environment=); strict=False keeps the last, so read those by hand.
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # keys are case-sensitive
    parser.read_string(text)
    return parser


def unit_values(text: str, key: str) -> list[str]:
    return [line.split("=", 1)[1].strip() for line in text.splitlines() if line.startswith(f"{key}=")]


def test_unit_runs_companion_as_unprivileged_user() -> None:
    text = UNIT.read_text()
    unit = parse_unit(text)
    assert set(unit.sections()) == {"Unit", "Service", "Install"}
    service = unit["Service"]
    assert service["User"] == "companion" and service["User"] != "root"
    assert set(service["SupplementaryGroups"].split()) >= {"video", "gpio", "render", "input"}
    assert service["ExecStart"].split()[0] == f"{DEFAULT_PREFIX}/venv/bin/companion"
    assert service["ExecStart"].split()[1:] == ["run"]
    assert service["StandardOutput"] == "journal"
    assert service["StateDirectory"] == "tabletop-companion"
    assert service["WorkingDirectory"] == "%S/tabletop-companion"
    assert "SDL_VIDEODRIVER=kmsdrm" in unit_values(text, "Environment")
    assert unit["Install"]["WantedBy"] == "multi-user.target"


def test_unit_never_leaves_the_box_stopped() -> None:
    """A fault that repeats (the same bad request, a missing camera) restarts the box every time, slowly
    enough not to flicker the screen: no start limit, every kind of exit restarted."""
    unit = parse_unit(UNIT.read_text())
    assert unit["Service"]["Restart"] == "always"
    assert unit["Unit"]["StartLimitIntervalSec"] == "0"  # 0: no rate limit, never "start-limit-hit"
    assert "StartLimitBurst" not in unit["Unit"] and "RestartPreventExitStatus" not in unit["Service"]
    assert 5 <= int(unit["Service"]["RestartSec"]) <= 30


def test_unit_is_notify_with_a_watchdog_fed_by_companion() -> None:
    """companion/notify.py says READY=1 and pings WATCHDOG=1 from the main process: the unit must expect both."""
    service = parse_unit(UNIT.read_text())["Service"]
    assert service["Type"] == "notify"
    assert service["NotifyAccess"] == "main"  # the loop runs in companion's main process
    watchdog_s = int(service["WatchdogSec"])
    assert 10 <= watchdog_s <= 120  # longer than an honest slow turn, short enough to bring a frozen box back
    assert int(service["TimeoutStartSec"]) > watchdog_s  # start-up on a Pi is slower than one turn
    # the clean stop goes through cli's SIGTERM handler (the loop ends after its turn)
    assert service.get("KillSignal", "SIGTERM") == "SIGTERM"


def test_unit_sandbox_keeps_camera_gpio_display_and_touch_reachable() -> None:
    text = UNIT.read_text()
    service = parse_unit(text)["Service"]
    assert service["DevicePolicy"] == "closed"
    assert service.get("PrivateDevices", "no") == "no"  # it would hide the device nodes themselves
    allowed = {value.split()[0]: value.split()[1] for value in unit_values(text, "DeviceAllow")}
    # /proc/devices group names as the kernel registers them (the camera stack: V4L2 nodes, the media
    # controller, the dma heaps libcamera allocates frames from; GPIO; DRM; input)
    needed = ["video4linux", "media", "dma_heap", "gpiochip", "bcm2835-gpiomem", "rpi-gpiomem", "drm", "input"]
    for group in needed:
        matching = [pattern for pattern in allowed if fnmatch.fnmatchcase(f"char-{group}", pattern)]
        assert matching, f"nothing in DeviceAllow= lets the box open char-{group} devices"
        assert all("r" in allowed[p] for p in matching)
    for group in ("video4linux", "media", "dma_heap", "gpiochip", "drm"):  # written to, not only read
        assert any("w" in allowed[p] for p in allowed if fnmatch.fnmatchcase(f"char-{group}", p))
    assert not any(p.startswith("block-") or p in ("char-*", "char-mem", "char-misc") for p in allowed)
    assert set(service["RestrictAddressFamilies"].split()) == {"AF_INET", "AF_INET6", "AF_UNIX", "AF_NETLINK"}
    # MemoryDenyWriteExecute breaks Mesa's llvmpipe, which the touchscreen can be drawn through
    assert service.get("MemoryDenyWriteExecute", "no") == "no"


def test_unit_writes_only_where_systemd_made_it_writable() -> None:
    """ProtectSystem=strict: every directory companion writes to (its data, cache, home, working
    directory, lgpio's pipes) must lie in the state, cache or runtime directory systemd creates."""
    text = UNIT.read_text()
    service = parse_unit(text)["Service"]
    assert service["ProtectSystem"] == "strict" and service["ProtectHome"] == "yes"
    assert service["CapabilityBoundingSet"] == "" and service["NoNewPrivileges"] == "yes"
    writable = [f"%S/{service['StateDirectory']}", f"%C/{service['CacheDirectory']}",
                f"%t/{service['RuntimeDirectory']}", "/tmp"]  # /tmp: PrivateTmp=yes
    assert service["PrivateTmp"] == "yes"
    env = dict(value.split("=", 1) for value in unit_values(text, "Environment"))
    written = [service["WorkingDirectory"]] + [env[k] for k in ("HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "LG_WD")]
    for path in written:
        assert any(path == root or path.startswith(root + "/") for root in writable), path
    for key in ("ReadWritePaths", "ReadOnlyPaths", "InaccessiblePaths", "BindPaths"):
        assert key not in service  # nothing else is opened up (or hidden) by hand


def analyze() -> str:
    found = shutil.which("systemd-analyze")
    if found is None:
        pytest.skip("systemd-analyze is not installed here (apt install systemd)")
    return found


def exposure(unit: Path) -> tuple[float, str, int]:
    """systemd-analyze's overall exposure of ``unit`` (0.0 safest .. 10.0), its word, and the exit code
    of the same run with --threshold=40 (non-zero when over 4.0)."""
    result = subprocess.run([analyze(), "security", "--offline=yes", "--threshold=40", str(unit)],
                            capture_output=True, text=True, timeout=120)
    match = re.search(r"Overall exposure level for \S+: (\d+\.\d) (\w+)", result.stdout)
    assert match, result.stdout + result.stderr
    return float(match.group(1)), match.group(2), result.returncode


def test_unit_is_rated_ok_by_systemd_analyze_security() -> None:
    score, word, code = exposure(UNIT)
    assert score <= 4.0 and word in ("SAFE", "OK"), (score, word)
    assert code == 0


def test_unit_passes_systemd_analyze_verify(tmp_path: Path) -> None:
    tool = analyze()
    # verify insists that ExecStart exists; point it at a stub instead of the installed venv.
    stub = tmp_path / "companion"
    stub.write_text("#!/bin/sh\nexit 0\n")
    stub.chmod(0o755)
    unit = tmp_path / "companion.service"
    unit.write_text(UNIT.read_text().replace(f"{DEFAULT_PREFIX}/venv/bin/companion", str(stub)))
    result = subprocess.run([tool, "verify", str(unit)], capture_output=True, text=True, timeout=120)
    # verify exits 0 even for ignored lines ("Failed to parse ..., ignoring"), so read its complaints.
    complaints = [line for line in result.stderr.splitlines() if "companion.service" in line]
    assert result.returncode == 0, result.stderr
    assert complaints == [], result.stderr


def run_installer(*args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GPIOZERO")}
    return subprocess.run(["bash", str(INSTALLER), *args], capture_output=True, text=True, timeout=120, env=env)


def test_installer_is_valid_bash() -> None:
    subprocess.run(["bash", "-n", str(INSTALLER)], check=True, timeout=60)


def test_installer_dry_run_changes_nothing_and_mentions_the_unit() -> None:
    target = Path("/etc/systemd/system/companion.service")
    before = target.exists()
    result = run_installer("--dry-run", "--prefix", "/srv/tabletop-test/")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "companion.service" in out
    assert "ExecStart=/srv/tabletop-test/venv/bin/companion run" in out  # the prefix reaches the unit
    assert "-m venv --system-site-packages /srv/tabletop-test/venv" in out
    assert "/srv/tabletop-test/venv/bin/pip install" in out
    assert "systemctl enable --now companion.service" in out or "systemctl restart companion.service" in out
    assert target.exists() == before
    assert not Path("/srv/tabletop-test").exists()


def test_installer_keeps_numpy_1_when_the_system_has_it(tmp_path: Path) -> None:
    fake_python = tmp_path / "python3"
    fake_python.write_text('#!/bin/sh\necho 1.24.2\n')  # answers the installer's numpy version probe
    fake_python.chmod(0o755)
    result = run_installer("--dry-run", "--python", str(fake_python))
    assert result.returncode == 0, result.stderr
    assert "keeping numpy<2" in result.stdout and "--constraint" in result.stdout
    assert f"{fake_python} -m venv --system-site-packages" in result.stdout


def test_installer_rejects_unknown_options_and_relative_prefix() -> None:
    bad = run_installer("--dry-run", "--frobnicate")
    assert bad.returncode == 2 and "unknown option --frobnicate" in bad.stderr
    relative = run_installer("--dry-run", "--prefix", "opt/x")
    assert relative.returncode == 2 and "absolute" in relative.stderr
    helped = run_installer("--help")
    assert helped.returncode == 0 and "--dry-run" in helped.stdout
