"""systemd/install.sh for real, in a throwaway root (``--root DIR``): apt, the user tools and systemctl are
recording stubs (tests/install_stubs.py) that act only on that root; the venv and the project's pip install
are real. Installed twice, the second run changes nothing; --uninstall keeps the games and the
configuration, --purge deletes them."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

from companion.config import SERVICE_CONFIG
from tests import install_stubs
from tests.test_systemd import INSTALLER, UNIT, exposure, parse_unit, unit_values

PROJECT = INSTALLER.parent.parent
PREFIX = "/opt/tabletop-companion"
STATE_DIR = "/var/lib/tabletop-companion"
BACKLIGHT = "/sys/devices/platform/soc/fe205000.i2c/i2c-22/i2c-10/10-0045/backlight/10-0045"
GROUPS = ("video", "gpio", "render", "input")
APT_PACKAGES = {"python3-picamera2", "python3-venv", "python3-lgpio", "fonts-dejavu-core", "fonts-wqy-microhei",
                "fonts-symbola"}


def make_root(root: Path) -> Path:
    """A bare Raspberry Pi OS-like root: the user and group files (with a `pi` login), the device groups, the
    official touchscreen's backlight in /sys, and a game already in the state directory."""
    (root / "etc").mkdir(parents=True)
    (root / "etc/passwd").write_text("root:x:0:0:root:/root:/bin/bash\n"
                                     "daemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n"
                                     "pi:x:1000:1000:,,,:/home/pi:/bin/bash\n")
    (root / "etc/group").write_text("root:x:0:\nvideo:x:44:pi\ninput:x:105:pi\nrender:x:106:pi\n"
                                    "gpio:x:997:pi\npi:x:1000:\n")
    device = root / BACKLIGHT.lstrip("/")
    device.mkdir(parents=True)
    (device / "brightness").write_text("255\n")
    (device / "max_brightness").write_text("255\n")
    (root / "sys/class/backlight").mkdir(parents=True)
    (root / "sys/class/backlight/10-0045").symlink_to(os.path.relpath(device, root / "sys/class/backlight"))
    games = root / STATE_DIR.lstrip("/") / "tabletop-companion"
    games.mkdir(parents=True)
    (games / "sessions.sqlite3").write_bytes(b"SQLite format 3\x00 a table's evening")
    return root


class Installer:
    """Runs install.sh on one throwaway root with the stubs first on PATH; keeps what each call recorded."""

    def __init__(self, root: Path, work: Path) -> None:
        self.root = root
        self.stubs = install_stubs.install(work / "stubs")
        self.state = work / "state"
        self.state.mkdir(exist_ok=True)
        self.log = work / "calls.jsonl"

    def __call__(self, *args: str) -> subprocess.CompletedProcess[str]:
        self.log.write_text("")
        env = {k: v for k, v in os.environ.items() if not k.startswith(("GPIOZERO", "TABLETOP"))}
        env.update(PATH=f"{self.stubs}{os.pathsep}{env.get('PATH', '')}", STUB_ROOT=str(self.root),
                   STUB_LOG=str(self.log), STUB_STATE=str(self.state))
        result = subprocess.run(["bash", str(INSTALLER), "--root", str(self.root), *args], capture_output=True,
                                text=True, timeout=900, env=env)
        assert not [c for c in self.calls() if c.get("live")], (self.calls(), result.stderr)
        return result

    def calls(self, tool: str | None = None) -> list[dict]:
        lines = self.log.read_text().splitlines() if self.log.exists() else []
        calls = [json.loads(line) for line in lines]
        return [c for c in calls if tool is None or c["tool"] == tool]


def snapshot(root: Path) -> dict[str, tuple]:
    """Every path under ``root``: its kind, mode, owner, modification time, and its content's digest (files) or
    target (links). Two equal snapshots: nothing was written, not even the same bytes again."""
    tree: dict[str, tuple] = {}
    for folder, dirs, files in os.walk(root):
        for name in dirs + files:
            path = Path(folder) / name
            info = path.lstat()
            if stat.S_ISLNK(info.st_mode):
                what: object = os.readlink(path)
            elif stat.S_ISREG(info.st_mode):
                what = hashlib.sha256(path.read_bytes()).hexdigest()
            else:
                what = None
            tree[str(path.relative_to(root))] = (stat.filemode(info.st_mode), info.st_uid, info.st_gid,
                                                 info.st_mtime_ns, what)
    return tree


def passwd(root: Path) -> dict[str, list[str]]:
    return {row[0]: row for row in install_stubs.read_table(root / "etc/passwd")}


def members(root: Path) -> dict[str, list[str]]:
    return {row[0]: [m for m in row[3].split(",") if m] for row in install_stubs.read_table(root / "etc/group")}


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """One root installed twice: (root, first run, second run, the tree after each, the second run's calls)."""
    work = tmp_path_factory.mktemp("install")
    root = make_root(work / "root")
    install = Installer(root, work)
    first = install()
    assert first.returncode == 0, first.stdout + first.stderr
    after_first = snapshot(root)
    first_calls = install.calls()
    second = install()
    assert second.returncode == 0, second.stdout + second.stderr
    return {"root": root, "work": work, "first": first, "second": second, "first_calls": first_calls,
            "second_calls": install.calls(), "trees": (after_first, snapshot(root))}


def copy_root(installed, name: str) -> tuple[Path, Installer]:
    """A copy of the installed root (links kept as links) to change, with its own stubs."""
    work = installed["work"] / name
    root = work / "root"
    shutil.copytree(installed["root"], root, symlinks=True)
    install = Installer(root, work)
    shutil.copy(installed["work"] / "state" / "dpkg", install.state / "dpkg")
    return root, install


def test_installing_twice_changes_nothing_the_second_time(installed):
    before, after = installed["trees"]
    assert len(before) > 1000  # the venv with the project is in the tree
    changed = sorted(p for p in before.keys() | after.keys() if before.get(p) != after.get(p))
    assert changed == []
    out = installed["second"].stdout
    assert "apt packages already installed" in out and "user companion exists" in out
    assert "is up to date with" in out and "keeping the configuration /etc/tabletop-companion/config.toml" in out
    assert "companion.service is enabled in" in out
    # the second run asked, and changed nothing: no apt-get, no user tool, no enable
    tools = {c["tool"] for c in installed["second_calls"]}
    assert not tools & {"apt-get", "useradd", "usermod", "userdel"}, installed["second_calls"]
    assert [c["args"] for c in installed["second_calls"] if c["tool"] == "systemctl"] == [
        [f"--root={installed['root']}", "is-enabled", "--quiet", "companion.service"]]


def test_the_first_run_installs_the_packages_the_user_the_venv_and_the_service(installed):
    root, calls = installed["root"], installed["first_calls"]
    [install_call] = [c for c in calls if c["tool"] == "apt-get" and "install" in c["args"]]
    assert install_call["chroot"] == str(root)  # apt runs in the target system
    assert {a for a in install_call["args"] if not a.startswith("-")} - {"install"} == APT_PACKAGES
    # the service user: a system account without a login, at home in the state directory, in the device groups
    user = passwd(root)["companion"]
    assert int(user[2]) < 1000 and user[5] == STATE_DIR and user[6] == "/usr/sbin/nologin"
    groups = members(root)
    assert all("companion" in groups[g] for g in GROUPS) and groups["companion"] == []
    assert passwd(root)["pi"][2] == "1000" and groups["video"][0] == "pi"  # the owner's login untouched
    # the venv sees the system's packages (apt's picamera2 and lgpio), holds the project and its catalogs
    venv = root / PREFIX.lstrip("/") / "venv"
    assert "include-system-site-packages = true" in (venv / "pyvenv.cfg").read_text()
    assert (venv / "bin/companion").is_file()
    [site] = list((venv / "lib").glob("python3*/site-packages"))
    catalogs = {p.parent.parent.name for p in (site / "companion/locale").glob("*/LC_MESSAGES/companion.mo")}
    assert catalogs >= {"el", "pl", "hu"}
    assert not (PROJECT / "build").exists()  # the build ran on a copy, never in the owner's checkout
    # the configuration: the commented default, readable by the service, valid for the installed box
    config = root / str(SERVICE_CONFIG).lstrip("/")
    assert config.read_text() == (PROJECT / "companion/data/config.toml").read_text()
    assert stat.S_IMODE(config.stat().st_mode) == 0o644
    checked = subprocess.run([str(venv / "bin/companion"), "config", "check", str(config)], capture_output=True,
                             text=True, timeout=300)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    # the unit verbatim, enabled at boot; the udev rule for the backlight
    units = root / "etc/systemd/system"
    assert (units / "companion.service").read_bytes() == UNIT.read_bytes()
    wants = units / "multi-user.target.wants/companion.service"
    assert wants.is_symlink() and os.readlink(wants) == "/etc/systemd/system/companion.service"
    rule = root / "etc/udev/rules.d/90-tabletop-companion-backlight.rules"
    assert rule.read_bytes() == (PROJECT / "systemd/90-tabletop-companion-backlight.rules").read_bytes()
    # nothing was started (no service manager runs on the root), and the phone address is printed with a code
    assert not [c for c in calls if c["tool"] in ("journalctl", "udevadm")]
    out = installed["first"].stdout
    assert re.search(r"^phone view at http://\S+:8080/$", out, re.M) or "no network address yet" in out
    if "phone view at" in out:
        assert "▀" in out or "█" in out  # the QR code, drawn with half blocks


def test_the_drop_in_names_this_machines_user_groups_backlight_and_venv(installed, tmp_path):
    root = installed["root"]
    dropin = (root / "etc/systemd/system/companion.service.d/10-install.conf").read_text()
    service = parse_unit(dropin)["Service"]
    assert service["User"] == service["Group"] == "companion"
    assert unit_values(dropin, "SupplementaryGroups") == ["", " ".join(GROUPS)]
    # /sys is read-only in the sandbox (ProtectKernelTunables=): the backlight's own folder is opened, no more
    assert unit_values(dropin, "ReadWritePaths") == [f"-{BACKLIGHT}"]
    assert unit_values(dropin, "ExecStart") == ["", f"{PREFIX}/venv/bin/companion run"]
    # the unit with its drop-in still rates OK with systemd-analyze (as the service will run)
    score, word, code = exposure(f"--root={root}", "companion.service")
    assert score <= 4.0 and word in ("SAFE", "OK") and code == 0, (score, word)


def test_the_service_reads_the_configuration_the_installer_writes():
    env = dict(value.split("=", 1) for value in unit_values(UNIT.read_text(), "Environment"))
    assert env["TABLETOP_CONFIG"] == str(SERVICE_CONFIG) == "/etc/tabletop-companion/config.toml"
    # what the box then reads: that file, whatever other config.toml the service's HOME holds
    from companion.config import find_config

    assert find_config({"TABLETOP_CONFIG": env["TABLETOP_CONFIG"]}) == SERVICE_CONFIG


def test_an_owners_configuration_is_never_overwritten(installed):
    root, install = copy_root(installed, "owner")
    config = root / str(SERVICE_CONFIG).lstrip("/")
    config.write_text('version = 1\n[web]\nport = 9000\nbogus = 1\n')
    result = install()
    assert result.returncode == 0, result.stderr
    assert config.read_text() == 'version = 1\n[web]\nport = 9000\nbogus = 1\n'
    assert "keeping the configuration" in result.stdout
    assert "web.bogus" in result.stdout + result.stderr  # checked, and its problem named
    assert re.search(r"^phone view at http://\S+:9000/$", result.stdout, re.M) or "no network" in result.stdout


def test_uninstall_keeps_the_games_and_the_configuration_and_purge_deletes_them(installed):
    root, install = copy_root(installed, "uninstall")
    config = root / str(SERVICE_CONFIG).lstrip("/")
    game = root / STATE_DIR.lstrip("/") / "tabletop-companion/sessions.sqlite3"
    (root / "var/cache/tabletop-companion").mkdir(parents=True)
    (root / "opt/something-else").mkdir(parents=True)
    before = snapshot(root)
    dry = install("--uninstall", "--dry-run")
    assert dry.returncode == 0 and snapshot(root) == before, dry.stderr
    assert "would run: rm -rf -- " in dry.stdout

    result = install("--uninstall")
    assert result.returncode == 0, result.stdout + result.stderr
    units = root / "etc/systemd/system"
    assert not (units / "companion.service").exists() and not (units / "companion.service.d").exists()
    assert not (units / "multi-user.target.wants/companion.service").is_symlink()
    assert not (root / "etc/udev/rules.d/90-tabletop-companion-backlight.rules").exists()
    assert not (root / PREFIX.lstrip("/")).exists()  # the venv, and its prefix once empty
    assert (root / "opt/something-else").is_dir()
    assert not (root / "var/cache/tabletop-companion").exists()
    assert game.read_bytes() == b"SQLite format 3\x00 a table's evening"  # the games are kept
    assert config.read_text() == (PROJECT / "companion/data/config.toml").read_text()  # and the settings
    assert "companion" in passwd(root)
    disabled = [c["args"][1:] for c in install.calls("systemctl") if "disable" in c["args"]]
    assert disabled == [["disable", "companion.service"]]

    again = install("--uninstall")  # nothing left to remove: still fine
    assert again.returncode == 0, again.stderr

    purged = install("--uninstall", "--purge")
    assert purged.returncode == 0, purged.stdout + purged.stderr
    assert not (root / STATE_DIR.lstrip("/")).exists() and not config.parent.exists()
    assert "companion" not in passwd(root) and "companion" not in members(root)
    assert all("companion" not in m for m in members(root).values())
    assert passwd(root)["pi"] and members(root)["video"] == ["pi"]  # the owner's login untouched


def test_purge_never_deletes_a_login_the_installer_did_not_make(installed):
    root, install = copy_root(installed, "purge-pi")
    result = install("--uninstall", "--purge", "--user", "pi")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "keeping the user pi" in result.stdout
    assert "pi" in passwd(root) and not install.calls("userdel")


def test_purge_goes_with_uninstall_only():
    result = subprocess.run(["bash", str(INSTALLER), "--purge", "--dry-run"], capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 2 and "give it with --uninstall" in result.stderr
