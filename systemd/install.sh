#!/usr/bin/env bash
# Install Tabletop Companion as a service on Raspberry Pi OS (Bookworm or later). Idempotent:
# running it again upgrades the package, refreshes the unit and restarts the service.
#
#   sudo systemd/install.sh                 # install from this checkout into /opt/tabletop-companion
#   systemd/install.sh --dry-run            # print what it would do, change nothing (no root needed)
#   sudo systemd/install.sh --prefix /srv/companion
#
# Steps: apt packages (python3-picamera2 python3-venv python3-lgpio), a system user `companion`
# in the groups video,gpio,render,input, a venv with --system-site-packages (so the apt-only
# picamera2 and lgpio are visible) under PREFIX/venv, `pip install` of the project, the unit
# /etc/systemd/system/companion.service, then `systemctl enable --now`.
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
SOURCE_DIR="$(dirname "$SCRIPT_DIR")"
PREFIX=/opt/tabletop-companion
DEFAULT_PREFIX=/opt/tabletop-companion
SERVICE_USER=companion
SERVICE_GROUPS=(video gpio render input)
APT_PACKAGES=(python3-picamera2 python3-venv python3-lgpio)
UNIT_NAME=companion.service
UNIT_SOURCE="$SCRIPT_DIR/$UNIT_NAME"
UNIT_DIR=/etc/systemd/system
SYSTEM_PYTHON=/usr/bin/python3
DRY_RUN=0
START=1

usage() {
    cat <<USAGE
Usage: $0 [--dry-run] [--prefix DIR] [--source DIR] [--user NAME] [--no-start]

  --dry-run      print every command instead of running it; changes nothing
  --prefix DIR   install the venv under DIR/venv (default $DEFAULT_PREFIX)
  --source DIR   the project to pip install (default: this checkout, $SOURCE_DIR)
  --user NAME    the service user to create (default $SERVICE_USER)
  --python PATH  the system Python the venv is made from (default $SYSTEM_PYTHON; apt's
                 picamera2 and lgpio live in its site-packages)
  --no-start     install and enable, but do not start or restart the service
USAGE
}

while [[ $# -gt 0 ]]; do
    case "$1" in
        --dry-run) DRY_RUN=1 ;;
        --prefix) PREFIX="${2:?--prefix needs a directory}"; shift ;;
        --prefix=*) PREFIX="${1#--prefix=}" ;;
        --source) SOURCE_DIR="${2:?--source needs a directory}"; shift ;;
        --source=*) SOURCE_DIR="${1#--source=}" ;;
        --user) SERVICE_USER="${2:?--user needs a name}"; shift ;;
        --user=*) SERVICE_USER="${1#--user=}" ;;
        --python) SYSTEM_PYTHON="${2:?--python needs a path}"; shift ;;
        --python=*) SYSTEM_PYTHON="${1#--python=}" ;;
        --no-start) START=0 ;;
        -h|--help) usage; exit 0 ;;
        *) echo "install.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
    esac
    shift
done

case "$PREFIX" in
    /*) PREFIX="${PREFIX%/}" ;;
    *) echo "install.sh: --prefix must be an absolute path, got $PREFIX" >&2; exit 2 ;;
esac
VENV="$PREFIX/venv"

say() { printf '==> %s\n' "$*"; }

# Run a command, or with --dry-run print it (shell-quoted) instead.
run() {
    if [[ $DRY_RUN -eq 1 ]]; then
        printf 'would run:'
        printf ' %q' "$@"
        printf '\n'
    else
        "$@"
    fi
}

if [[ $DRY_RUN -eq 0 && $EUID -ne 0 ]]; then
    echo "install.sh: run as root (sudo $0), or try --dry-run to see what it would do" >&2
    exit 1
fi
if [[ ! -f "$UNIT_SOURCE" ]]; then
    echo "install.sh: missing $UNIT_SOURCE" >&2
    exit 1
fi
if [[ ! -f "$SOURCE_DIR/pyproject.toml" ]]; then
    echo "install.sh: $SOURCE_DIR has no pyproject.toml; pass --source with the project checkout" >&2
    exit 1
fi
[[ $DRY_RUN -eq 1 ]] && say "dry run: nothing will be changed"

# 1. apt packages (only the missing ones; picamera2 without its GUI recommends, as on Pi OS Lite).
missing=()
for pkg in "${APT_PACKAGES[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$pkg")
    fi
done
if [[ ${#missing[@]} -gt 0 ]]; then
    say "installing apt packages: ${missing[*]}"
    run apt-get update
    run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
else
    say "apt packages already installed: ${APT_PACKAGES[*]}"
fi

# 2. the service user (a system user without a login shell; its home is the state directory).
if id -u "$SERVICE_USER" >/dev/null 2>&1; then
    say "user $SERVICE_USER exists"
else
    say "creating system user $SERVICE_USER"
    run useradd --system --user-group --home-dir /var/lib/tabletop-companion --no-create-home \
        --shell /usr/sbin/nologin "$SERVICE_USER"
fi
groups_present=()
for group in "${SERVICE_GROUPS[@]}"; do
    if getent group "$group" >/dev/null 2>&1; then
        groups_present+=("$group")
    else
        say "group $group does not exist here; skipping it"
    fi
done
if [[ ${#groups_present[@]} -gt 0 ]]; then
    run usermod -a -G "$(IFS=,; echo "${groups_present[*]}")" "$SERVICE_USER"
fi

# 3. the venv, seeing apt's picamera2 and lgpio.
if [[ -x "$VENV/bin/python" ]]; then
    say "venv $VENV exists"
else
    say "creating venv $VENV"
    run mkdir -p "$PREFIX"
    run "$SYSTEM_PYTHON" -m venv --system-site-packages "$VENV"
fi

# 4. the project (re-installed every time: that is the upgrade path). apt's picamera2 and its
# simplejpeg are built against Debian's numpy; numpy 2 from pip in the venv would shadow it and break
# `import picamera2` ("numpy.dtype size changed", picamera2 issues #1088 and #1211), so keep the
# system's numpy major version (pip then picks an opencv-python-headless that accepts it).
tmpfiles=()
trap 'rm -f "${tmpfiles[@]}"' EXIT
pip_constraints=()
system_numpy="$("$SYSTEM_PYTHON" -c 'import numpy; print(numpy.__version__)' 2>/dev/null || true)"
if [[ "$system_numpy" == 1.* ]]; then
    constraints="$(mktemp)"
    tmpfiles+=("$constraints")
    echo "numpy<2" >"$constraints"
    pip_constraints=(--constraint "$constraints")
    say "keeping numpy<2 in the venv (the system's numpy is $system_numpy, which apt's picamera2 needs)"
fi
say "installing the project from $SOURCE_DIR into $VENV"
run "$VENV/bin/pip" install --upgrade --upgrade-strategy only-if-needed "${pip_constraints[@]}" "$SOURCE_DIR"

# 5. the unit, with the prefix substituted; only rewritten when it changed.
UNIT_TARGET="$UNIT_DIR/$UNIT_NAME"
rendered="$(mktemp)"
tmpfiles+=("$rendered")
sed "s#$DEFAULT_PREFIX#$PREFIX#g; s#^User=companion\$#User=$SERVICE_USER#; s#^Group=companion\$#Group=$SERVICE_USER#" \
    "$UNIT_SOURCE" >"$rendered"
if [[ -f "$UNIT_TARGET" ]] && cmp -s "$rendered" "$UNIT_TARGET"; then
    say "unit $UNIT_TARGET is up to date"
else
    say "installing unit $UNIT_NAME -> $UNIT_TARGET"
    run install -m 0644 "$rendered" "$UNIT_TARGET"
fi
if [[ $DRY_RUN -eq 1 ]]; then
    sed -n 's/^\(ExecStart=.*\)/    \1/p; s/^\(User=.*\)/    \1/p' "$rendered"
fi
run systemctl daemon-reload

# 6. enable and (re)start.
if [[ $START -eq 0 ]]; then
    run systemctl enable "$UNIT_NAME"
    say "enabled $UNIT_NAME; not started (--no-start)"
elif systemctl is-active --quiet "$UNIT_NAME" 2>/dev/null; then
    run systemctl enable "$UNIT_NAME"
    run systemctl restart "$UNIT_NAME"
    say "$UNIT_NAME enabled and restarted"
else
    run systemctl enable --now "$UNIT_NAME"
    say "$UNIT_NAME enabled and started at boot"
fi
say "done: follow the logs with journalctl -u ${UNIT_NAME%.service} -f"
