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
# /etc/systemd/system/companion.service exactly as in this checkout, a drop-in beside it
# (companion.service.d/10-install.conf) with this machine's choices (the user, the prefix, the
# device groups that exist here), then `systemctl enable --now`.
#
# The service user never is root (or any account with uid 0 or gid 0): the unit's sandbox assumes
# an unprivileged user. The prefix and the user name reach the drop-in, so they are refused unless
# made of characters a unit file takes literally (no spaces, quotes, %, $, backslashes, newlines).
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
SOURCE_DIR="$(dirname "$SCRIPT_DIR")"
PREFIX=/opt/tabletop-companion
DEFAULT_PREFIX=/opt/tabletop-companion
SERVICE_USER=companion
DEFAULT_USER=companion
SERVICE_GROUPS=(video gpio render input)
APT_PACKAGES=(python3-picamera2 python3-venv python3-lgpio)
UNIT_NAME=companion.service
UNIT_SOURCE="$SCRIPT_DIR/$UNIT_NAME"
UNIT_DIR=/etc/systemd/system
DROPIN_NAME=10-install.conf
SYSTEM_PYTHON=/usr/bin/python3
DRY_RUN=0
START=1

usage() {
    cat <<USAGE
Usage: ${0##*/} [--dry-run] [--prefix DIR] [--source DIR] [--user NAME] [--no-start]

  --dry-run      print every command instead of running it; changes nothing
  --prefix DIR   install the venv under DIR/venv (default $DEFAULT_PREFIX; an absolute path of
                 letters, digits and . _ - + /, outside /home, /root, /run/user and /tmp, which
                 the service's sandbox hides)
  --source DIR   the project to pip install (default: this checkout, $SOURCE_DIR)
  --user NAME    the service user to create or use (default $SERVICE_USER; never root or
                 another uid-0 account; lower-case letters, digits, _ and -)
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

die() { printf 'install.sh: %s\n' "$*" >&2; exit 2; }
# Whether $1 matches the extended regex $2 in the C locale (so [a-z] is ASCII only, whatever the
# owner's locale would collate into that range).
matches() { local LC_ALL=C; [[ "$1" =~ $2 ]]; }
NAME_RE='^[a-z_][a-z0-9_-]{0,31}$'

# The prefix: absolute, one trailing slash dropped, only characters a unit file takes literally,
# and visible to the service (ProtectHome= hides /home, /root and /run/user; PrivateTmp= /tmp).
[[ "$PREFIX" == /* ]] || die "--prefix must be an absolute path, got $(printf '%q' "$PREFIX")"
[[ "$PREFIX" != / ]] || die "--prefix /: choose a directory of its own, e.g. $DEFAULT_PREFIX"
PREFIX="${PREFIX%/}"
if ! matches "$PREFIX" '^/[A-Za-z0-9._+/-]+$'; then
    die "--prefix $(printf '%q' "$PREFIX"): use only letters, digits and . _ - + / (it goes into the unit file)"
fi
case "$PREFIX/" in
    /home/*|/root/*|/run/user/*|/tmp/*|/var/tmp/*)
        die "--prefix $PREFIX: the service's sandbox hides /home, /root, /run/user and /tmp; choose e.g. /opt/tabletop-companion" ;;
esac
VENV="$PREFIX/venv"

# The service user: a plain name (as useradd takes it), never root nor any account whose uid or
# primary gid is 0 (e.g. a second uid-0 login such as toor).
if ! matches "$SERVICE_USER" "$NAME_RE"; then
    die "--user $(printf '%q' "$SERVICE_USER"): use a user name of lower-case letters, digits, _ and - (at most 32)"
fi
[[ "$SERVICE_USER" != root ]] || die "--user root: the service must not run as root; use the default ($DEFAULT_USER) or another unprivileged user"
SERVICE_GROUP="$SERVICE_USER"  # useradd --user-group makes it
if passwd_entry="$(getent passwd "$SERVICE_USER")"; then
    IFS=: read -r _ _ user_uid user_gid _ <<<"$passwd_entry"
    if [[ "$user_uid" == 0 ]]; then
        die "--user $SERVICE_USER has uid 0 (it is root under another name); use an unprivileged user"
    fi
    if [[ "$user_gid" == 0 ]]; then
        die "--user $SERVICE_USER has the root group (gid 0) as its primary group; use an unprivileged user"
    fi
    SERVICE_GROUP="$(getent group "$user_gid" | cut -d: -f1)"
    if ! matches "$SERVICE_GROUP" "$NAME_RE"; then
        die "--user $SERVICE_USER: its primary group $(printf '%q' "$SERVICE_GROUP") is not a plain group name"
    fi
fi

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

# 5. the unit, exactly as in this checkout, and a drop-in with this machine's choices (written with
# printf from the checked values above: nothing is substituted into the unit's text). Each file is
# only rewritten when it changed.
UNIT_TARGET="$UNIT_DIR/$UNIT_NAME"
DROPIN_DIR="$UNIT_DIR/$UNIT_NAME.d"
DROPIN_TARGET="$DROPIN_DIR/$DROPIN_NAME"
dropin="$(mktemp)"
tmpfiles+=("$dropin")
{
    printf '# Written by systemd/install.sh for this machine (user, prefix, device groups); run it again to change them.\n'
    printf '[Service]\n'
    printf 'User=%s\n' "$SERVICE_USER"
    printf 'Group=%s\n' "$SERVICE_GROUP"
    printf '# only the groups that exist here (a group missing on this machine would stop the start)\n'
    printf 'SupplementaryGroups=\n'
    if [[ ${#groups_present[@]} -gt 0 ]]; then
        printf 'SupplementaryGroups=%s\n' "${groups_present[*]}"
    fi
    printf 'ExecStart=\n'
    printf 'ExecStart=%s/bin/companion run\n' "$VENV"
} >"$dropin"
install_if_changed() {  # SOURCE TARGET
    if [[ -f "$2" ]] && cmp -s "$1" "$2"; then
        say "$2 is up to date"
    else
        say "installing $2"
        run install -m 0644 "$1" "$2"
    fi
}
install_if_changed "$UNIT_SOURCE" "$UNIT_TARGET"
run mkdir -p "$DROPIN_DIR"
install_if_changed "$dropin" "$DROPIN_TARGET"
if [[ $DRY_RUN -eq 1 ]]; then
    say "the drop-in $DROPIN_TARGET would hold:"
    sed 's/^/    /' "$dropin"
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
