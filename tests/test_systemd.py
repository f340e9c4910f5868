"""The systemd unit and its installer (run with --dry-run only: no changes to this machine; the installer for real,
in a throwaway root, is tests/test_install_root.py)."""

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


def exposure(*target: str) -> tuple[float, str, int]:
    """systemd-analyze's overall exposure of ``target`` (a unit file, or ``--root=DIR companion.service``)
    from 0.0 (safest) to 10.0, its word, and the exit code of the same run with --threshold=40
    (non-zero when over 4.0)."""
    result = subprocess.run([analyze(), "security", "--offline=yes", "--threshold=40", *target],
                            capture_output=True, text=True, timeout=120)
    match = re.search(r"Overall exposure level for \S+: (\d+\.\d) (\w+)", result.stdout)
    assert match, result.stdout + result.stderr
    return float(match.group(1)), match.group(2), result.returncode


def test_unit_is_rated_ok_by_systemd_analyze_security() -> None:
    score, word, code = exposure(str(UNIT))
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


def run_installer(*args: str, path_first: Path | None = None) -> subprocess.CompletedProcess[str]:
    """The installer (always with --dry-run in these tests); ``path_first``: a folder of stand-in
    commands put first on PATH."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GPIOZERO")}
    if path_first is not None:
        env["PATH"] = f"{path_first}{os.pathsep}{env.get('PATH', '')}"
    return subprocess.run(["bash", str(INSTALLER), *args], capture_output=True, text=True, timeout=120, env=env)


def dropin_of(out: str) -> str:
    """The drop-in a dry run prints (the indented lines after "... would hold:")."""
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.endswith("would hold:")) + 1
    body = []
    for line in lines[start:]:
        if not line.startswith("    "):
            break
        body.append(line[4:])
    return "\n".join(body) + "\n"


def fake_getent(folder: Path, passwd_line: str) -> Path:
    """A ``getent`` that answers ``passwd NAME`` with ``passwd_line`` (and group lookups as the real one)."""
    folder.mkdir(exist_ok=True)
    name = passwd_line.split(":")[0]
    script = folder / "getent"
    script.write_text(f'#!/bin/sh\nif [ "$1" = passwd ] && [ "$2" = {name} ]; then echo \'{passwd_line}\'; exit 0; fi\n'
                      f'exec /usr/bin/getent "$@"\n')
    script.chmod(0o755)
    return folder


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


@pytest.mark.parametrize("option", ["--prefix", "--source", "--user", "--python", "--root"])
def test_installer_says_which_option_lacks_its_value(option: str) -> None:
    """An option given without its value (last, or followed by another option) is named, with what it needs,
    never bash's "line 99: 2: ..." nor taken as the next option's name."""
    for args in ([option], [option, "--no-start"]):
        result = run_installer("--dry-run", *args)
        assert result.returncode == 2, result.stderr
        assert result.stderr.startswith(f"install.sh: {option} needs "), result.stderr
        assert "line " not in result.stderr and "would run" not in result.stdout


def test_installer_refuses_a_python_that_is_not_there_before_doing_anything(tmp_path: Path) -> None:
    """A --python that does not exist (or is a folder) is said first, not after apt, the user and the venv's
    folder were made; an uninstall does not need it."""
    for missing in (tmp_path / "no-python3", tmp_path):
        result = run_installer("--dry-run", "--python", str(missing))
        assert result.returncode == 2 and f"--python {missing}: no such program" in result.stderr, result.stderr
        assert "would run" not in result.stdout
    assert run_installer("--dry-run", "--uninstall", "--python", str(tmp_path / "no-python3")).returncode == 0


def test_installer_writes_the_unit_verbatim_and_the_choices_in_a_drop_in(tmp_path: Path) -> None:
    import grp

    prefix = "/srv/tc-1.2+x"  # regex metacharacters the old sed would have misread
    result = run_installer("--dry-run", "--prefix", prefix, "--user", "tabletop_test")
    assert result.returncode == 0, result.stderr
    # the unit goes in exactly as it is in the checkout: nothing is substituted into its text
    assert f"would run: install -m 0644 {UNIT} /etc/systemd/system/companion.service" in result.stdout
    dropin = dropin_of(result.stdout)
    service = parse_unit(dropin)["Service"]
    assert service["User"] == service["Group"] == "tabletop_test"  # a new user gets its own group
    assert unit_values(dropin, "ExecStart") == ["", f"{prefix}/venv/bin/companion run"]  # reset, then ours
    present = []
    for group in ("video", "gpio", "render", "input"):
        try:
            grp.getgrnam(group)
            present.append(group)
        except KeyError:
            pass
    assert unit_values(dropin, "SupplementaryGroups") == ["", " ".join(present)] if present else [""]
    # systemd reads the pair as one unit: verify it (ExecStart pointed at a stub) and rate it
    stub = tmp_path / "companion"
    stub.write_text("#!/bin/sh\nexit 0\n")
    stub.chmod(0o755)
    units = tmp_path / "etc" / "systemd" / "system"
    (units / "companion.service.d").mkdir(parents=True)
    shutil.copy(UNIT, units / "companion.service")
    (units / "companion.service.d" / "10-install.conf").write_text(
        dropin.replace(f"{prefix}/venv/bin/companion", str(stub)))
    verified = subprocess.run([analyze(), "verify", str(units / "companion.service")], capture_output=True, text=True,
                              timeout=120)
    assert verified.returncode == 0 and "companion.service" not in verified.stderr, verified.stderr
    score, word, code = exposure(f"--root={tmp_path}", "companion.service")  # the unit with its drop-in
    assert score <= 4.0 and word in ("SAFE", "OK") and code == 0, (score, word)


def test_installer_refuses_root_as_the_service_user(tmp_path: Path) -> None:
    by_name = run_installer("--dry-run", "--user", "root")
    assert by_name.returncode == 2 and "must not run as root" in by_name.stderr
    alias = run_installer("--dry-run", "--user", "toor",
                          path_first=fake_getent(tmp_path / "a", "toor:x:0:0::/root:/bin/sh"))
    assert alias.returncode == 2 and "uid 0" in alias.stderr
    root_group = run_installer("--dry-run", "--user", "ops",
                               path_first=fake_getent(tmp_path / "b", "ops:x:1500:0::/home/ops:/bin/sh"))
    assert root_group.returncode == 2 and "gid 0" in root_group.stderr
    for refused in (by_name, alias, root_group):
        assert "would run" not in refused.stdout  # refused before anything is planned
    ordinary = run_installer("--dry-run", "--user", "ops", path_first=fake_getent(tmp_path / "c",
                                                                                   "ops:x:1500:100::/home/ops:/bin/sh"))
    assert ordinary.returncode == 0, ordinary.stderr
    assert parse_unit(dropin_of(ordinary.stdout))["Service"]["Group"] == "users"  # gid 100 is "users" on Debian


@pytest.mark.parametrize("name", ["bob smith", "bob;reboot", "Bob", "$(id)", "bob\nUser=root", "x" * 33, "-bob", "b%h"])
def test_installer_refuses_a_user_name_that_would_break_the_unit(name: str) -> None:
    result = run_installer("--dry-run", "--user", name)
    assert result.returncode == 2 and "user name of lower-case letters" in result.stderr, result.stderr
    assert "would run" not in result.stdout


@pytest.mark.parametrize("prefix", ["/opt/my companion", "/opt/t#c", "/opt/%h", "/opt/$HOME", "/opt/a'b", '/opt/a"b',
                                    "/opt/a\\b", "/opt/x\nExecStartPre=/bin/sh -c reboot", "/opt/a;b", "/opt/ä"])
def test_installer_refuses_a_prefix_that_would_break_the_unit(prefix: str) -> None:
    result = run_installer("--dry-run", "--prefix", prefix)
    assert result.returncode == 2 and "use only letters, digits" in result.stderr, result.stderr
    assert "would run" not in result.stdout


@pytest.mark.parametrize("prefix",
                         ["/home/pi/companion", "/root/tc", "/tmp/tc", "/var/tmp/tc", "/run/user/1000/tc", "/"])
def test_installer_refuses_a_prefix_the_sandbox_hides(prefix: str) -> None:
    result = run_installer("--dry-run", "--prefix", prefix)
    assert result.returncode == 2 and "/opt/tabletop-companion" in result.stderr, result.stderr


SETUP = SYSTEMD_DIR.parent / "setup.sh"


@pytest.mark.parametrize("script", [INSTALLER, SETUP], ids=["install.sh", "setup.sh"])
def test_installer_passes_shellcheck(script: Path) -> None:
    shellcheck = shutil.which("shellcheck")
    if shellcheck is None:
        pytest.skip("shellcheck is not installed here (apt install shellcheck)")
    result = subprocess.run([shellcheck, "--severity=style", str(script)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout


def test_setup_install_is_the_installer() -> None:
    """`./setup.sh install [options]` runs systemd/install.sh with them (with sudo unless root or a dry run)."""
    helped = subprocess.run(["bash", str(SETUP), "install", "--help"], capture_output=True, text=True, timeout=60)
    assert helped.returncode == 0 and "--uninstall" in helped.stdout and "--purge" in helped.stdout
    dry = subprocess.run(["bash", str(SETUP), "install", "--dry-run", "--prefix", "/srv/tabletop-setup"],
                         capture_output=True, text=True, timeout=120)
    assert dry.returncode == 0, dry.stderr
    assert "dry run: nothing will be changed" in dry.stdout
    assert "ExecStart=/srv/tabletop-setup/venv/bin/companion run" in dry.stdout
    assert not Path("/srv/tabletop-setup").exists()


def test_installer_dry_run_plans_the_packages_the_config_and_the_backlight_rule() -> None:
    result = run_installer("--dry-run")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    planned = re.search(r"^==> (?:installing apt packages|apt packages already installed): (.*)$", out, re.M)
    assert planned, out
    for package in ("python3-picamera2", "python3-venv", "python3-lgpio", "fonts-dejavu-core", "fonts-wqy-microhei",
                    "fonts-symbola"):
        # each is planned, or already installed here
        installed = subprocess.run(["dpkg-query", "-W", "-f=${Status}", package], capture_output=True, text=True)
        assert package in planned.group(1).split() or "install ok installed" in installed.stdout, package
    assert "pybabel -q compile" in out  # the compiled language catalogs
    config = Path("/etc/tabletop-companion/config.toml")
    if config.exists():
        assert "keeping the configuration /etc/tabletop-companion/config.toml" in out
    else:
        assert f"would run: install -m 0644 {SYSTEMD_DIR.parent}/companion/data/config.toml {config}" in out
    assert (f"{SYSTEMD_DIR}/90-tabletop-companion-backlight.rules "
            "/etc/udev/rules.d/90-tabletop-companion-backlight.rules") in out
    assert "would print the phone view's link and its QR code" in out
    uninstall = run_installer("--dry-run", "--uninstall")
    assert uninstall.returncode == 0, uninstall.stderr
    assert "the games in /var/lib/tabletop-companion, the configuration /etc/tabletop-companion" in uninstall.stdout
