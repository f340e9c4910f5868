"""Recording stand-ins for the system tools systemd/install.sh calls, for running it in a throwaway root.

Each stub is this file under the tool's name (a symlink in a folder put first on PATH). Every call is
appended to ``$STUB_LOG`` as one JSON line ``{"tool": ..., "args": [...], "chroot": ...}``. A stub
only acts on the throwaway root ``$STUB_ROOT``: a call that would reach this machine (apt-get outside
``chroot ROOT``, dpkg-query without ``--root=ROOT``, useradd without ``--prefix ROOT``, systemctl
without ``--root=ROOT``, udevadm, journalctl, getent) is recorded as ``"live": true`` and fails.

- ``chroot ROOT CMD...`` runs CMD (a stub) without changing root, telling it it is "inside" ROOT.
- ``apt-get install PKG...`` (inside the root) marks the packages installed in ``$STUB_STATE/dpkg``;
  ``dpkg-query --root=ROOT -W -f=${Status} PKG`` answers from that list.
- ``useradd``/``usermod``/``userdel --prefix ROOT`` edit ROOT/etc/passwd and ROOT/etc/group as the real
  tools would (a system user with its own group; ``-a -G`` adds memberships).
- ``systemctl --root=ROOT`` runs the real systemctl when there is one (offline: enable, disable,
  is-enabled), else does the same with the [Install] section's WantedBy= links.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
from pathlib import Path

TOOLS = ("chroot", "apt-get", "dpkg-query", "useradd", "usermod", "userdel", "systemctl", "udevadm", "journalctl",
         "getent")


def record(tool: str, args: list[str], **extra: object) -> None:
    entry = {"tool": tool, "args": args, "chroot": os.environ.get("STUB_CHROOT"), **extra}
    with open(os.environ["STUB_LOG"], "a", encoding="utf-8") as log:
        log.write(json.dumps(entry) + "\n")


def live(tool: str, args: list[str]) -> int:
    record(tool, args, live=True)
    print(f"{tool} stub: refusing a call that would reach this machine: {args}", file=sys.stderr)
    return 99


def root() -> Path:
    return Path(os.environ["STUB_ROOT"])


def installed_file() -> Path:
    return Path(os.environ["STUB_STATE"]) / "dpkg"


def read_table(path: Path) -> list[list[str]]:
    return [line.split(":") for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def write_table(path: Path, rows: list[list[str]]) -> None:
    path.write_text("".join(":".join(row) + "\n" for row in rows), encoding="utf-8")


def prefix_of(args: list[str]) -> tuple[Path | None, list[str]]:
    if len(args) >= 2 and args[0] == "--prefix":
        return Path(args[1]), args[2:]
    return None, args


def useradd(args: list[str]) -> int:
    prefix, rest = prefix_of(args)
    if prefix != root():
        return live("useradd", args)
    record("useradd", args)
    name = rest[-1]
    home = rest[rest.index("--home-dir") + 1]
    shell = rest[rest.index("--shell") + 1]
    passwd, group = read_table(prefix / "etc/passwd"), read_table(prefix / "etc/group")
    if any(row[0] == name for row in passwd):
        print(f"useradd: user '{name}' already exists", file=sys.stderr)
        return 9
    used = {int(row[2]) for row in passwd} | {int(row[2]) for row in group}
    number = next(n for n in range(999, 99, -1) if n not in used)  # system ids count down from 999
    passwd.append([name, "x", str(number), str(number), "", home, shell])
    group.append([name, "x", str(number), ""])
    write_table(prefix / "etc/passwd", passwd)
    write_table(prefix / "etc/group", group)
    return 0


def usermod(args: list[str]) -> int:
    prefix, rest = prefix_of(args)
    if prefix != root():
        return live("usermod", args)
    record("usermod", args)
    assert rest[:2] == ["-a", "-G"], rest
    wanted, name = rest[2].split(","), rest[3]
    group = read_table(prefix / "etc/group")
    for row in group:
        members = [m for m in row[3].split(",") if m]
        if row[0] in wanted and name not in members:
            row[3] = ",".join(members + [name])
    write_table(prefix / "etc/group", group)
    return 0


def userdel(args: list[str]) -> int:
    prefix, rest = prefix_of(args)
    if prefix != root():
        return live("userdel", args)
    record("userdel", args)
    name = rest[-1]
    passwd = read_table(prefix / "etc/passwd")
    gid = next(row[3] for row in passwd if row[0] == name)
    write_table(prefix / "etc/passwd", [row for row in passwd if row[0] != name])
    group = []
    for row in read_table(prefix / "etc/group"):
        if row[0] == name and row[2] == gid:
            continue  # its own group goes with it
        row[3] = ",".join(m for m in row[3].split(",") if m and m != name)
        group.append(row)
    write_table(prefix / "etc/group", group)
    return 0


def apt_get(args: list[str]) -> int:
    if os.environ.get("STUB_CHROOT") != str(root()):
        return live("apt-get", args)
    record("apt-get", args)
    if "install" in args:
        packages = [a for a in args[args.index("install") + 1:] if not a.startswith("-")]
        with installed_file().open("a", encoding="utf-8") as state:
            state.write("".join(p + "\n" for p in packages))
    return 0


def dpkg_query(args: list[str]) -> int:
    if f"--root={root()}" not in args:
        return live("dpkg-query", args)
    record("dpkg-query", args)
    package = args[-1]
    known = installed_file().read_text(encoding="utf-8").split() if installed_file().exists() else []
    if package in known:
        print("install ok installed", end="")
        return 0
    print(f"dpkg-query: no packages found matching {package}", file=sys.stderr)
    return 1


def chroot(args: list[str]) -> int:
    if Path(args[0]) != root():
        return live("chroot", args)
    record("chroot", args)
    env = dict(os.environ, STUB_CHROOT=str(root()))
    command = args[1:]
    if command[0] == "env":  # env VAR=value... CMD: as env(1) does
        command = command[1:]
        while "=" in command[0]:
            key, value = command.pop(0).split("=", 1)
            env[key] = value
    os.execvpe(command[0], command, env)
    return 127


def systemctl(args: list[str]) -> int:
    if f"--root={root()}" not in args:
        return live("systemctl", args)
    record("systemctl", args)
    stubs = Path(__file__).resolve().parent
    real = shutil.which("systemctl", path=os.pathsep.join(p for p in os.environ["PATH"].split(os.pathsep)
                                                              if Path(p).resolve() != stubs))
    if real:
        os.execv(real, [real, *args])
    verbs = [a for a in args if not a.startswith("-")]
    verb, unit = verbs[0], verbs[1]
    units = root() / "etc/systemd/system"
    wanted_by = re.findall(r"^WantedBy=(.+)$", (units / unit).read_text(encoding="utf-8"), re.M) \
        if (units / unit).exists() else []
    links = [units / f"{target}.wants" / unit for target in " ".join(wanted_by).split()]
    if verb == "is-enabled":
        return 0 if links and all(link.is_symlink() for link in links) else 1
    for link in links:
        if verb == "enable" and not link.is_symlink():
            link.parent.mkdir(parents=True, exist_ok=True)
            link.symlink_to(f"/etc/systemd/system/{unit}")
        elif verb == "disable" and link.is_symlink():
            link.unlink()
            if not any(link.parent.iterdir()):
                link.parent.rmdir()
    return 0


def main() -> int:
    tool, args = Path(sys.argv[0]).name, sys.argv[1:]
    actions = {"chroot": chroot, "apt-get": apt_get, "dpkg-query": dpkg_query, "useradd": useradd,
               "usermod": usermod, "userdel": userdel, "systemctl": systemctl}
    if tool in actions:
        return actions[tool](args)
    return live(tool, args)  # udevadm, journalctl, getent: this machine's, never the root's


def install(folder: Path) -> Path:
    """Make ``folder`` a PATH folder of the stubs (each a symlink to this file, run with this Python)."""
    folder.mkdir(parents=True, exist_ok=True)
    script = folder / "_stub.py"
    script.write_text(f"#!{sys.executable}\n" + Path(__file__).read_text(encoding="utf-8"), encoding="utf-8")
    script.chmod(0o755)
    for tool in TOOLS:
        (folder / tool).symlink_to(script.name)
    return folder


if __name__ == "__main__":
    sys.exit(main())
