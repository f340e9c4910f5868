#!/usr/bin/env bash
# Install Tabletop Companion as a service on Raspberry Pi OS (Bookworm or later), in one command:
#
#   sudo systemd/install.sh                 # install from this checkout into /opt/tabletop-companion
#   ./setup.sh install                      # the same (asks sudo for it)
#   systemd/install.sh --dry-run            # print what it would do, change nothing (no root needed)
#   sudo systemd/install.sh --prefix /srv/companion
#   sudo systemd/install.sh --uninstall     # remove the service, the venv and the unit; keep the games
#                                           # and the configuration (--purge: delete those too)
#
# Steps: the apt packages the box needs at run time (python3-picamera2, python3-venv, python3-lgpio,
# fonts-dejavu-core, fonts-wqy-microhei, fonts-symbola); a system user `companion` in the groups video (camera, display backlight),
# gpio, render and input; a venv with --system-site-packages (so the apt-only picamera2 and lgpio are
# visible) under PREFIX/venv; `pip install` of the project and its compiled language catalogs
# (`pybabel compile`); the default configuration /etc/tabletop-companion/config.toml, written only
# when there is none (an owner's file is never overwritten; the unit names it in TABLETOP_CONFIG); a
# udev rule that lets the video group set the display's brightness; the unit
# /etc/systemd/system/companion.service exactly as in this checkout and a drop-in beside it
# (companion.service.d/10-install.conf) with this machine's choices (the user, the prefix, the device
# groups and the backlight that exist here); then `systemctl enable --now`, and the phone view's link
# with its QR code on the terminal.
#
# Running it again changes nothing that is up to date: the project is re-installed only when the
# checkout changed (a fingerprint of its files is kept in the venv), each file is rewritten only when
# it differs, and the service is restarted only when something it reads changed.
#
# --root DIR installs into DIR as if it were / (for tests and for preparing an image): files go
# under DIR, users are made with `useradd --prefix DIR`, apt-get runs through `chroot DIR`, the unit is
# enabled with `systemctl --root=DIR`; nothing is started and the running system is not touched.
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
# camera (video: /dev/video*, /dev/media*, /dev/dma_heap; and the backlight through the udev rule
# below), button, LED and buzzer (gpio), touchscreen (render, input)
SERVICE_GROUPS=(video gpio render input)
# What the box needs at run time that pip cannot give: the camera library (apt only, with its
# libcamera), the venv module, the GPIO library gpiozero drives on Bookworm, the touchscreen's fonts
# (Greek, Polish and Hungarian letters; Chinese, Japanese and Korean ones and emoji for players' names).
APT_PACKAGES=(python3-picamera2 python3-venv python3-lgpio fonts-dejavu-core fonts-wqy-microhei fonts-symbola)
UNIT_NAME=companion.service
UNIT_SOURCE="$SCRIPT_DIR/$UNIT_NAME"
UNIT_DIR=/etc/systemd/system
DROPIN_NAME=10-install.conf
UDEV_RULE_NAME=90-tabletop-companion-backlight.rules
UDEV_RULE_SOURCE="$SCRIPT_DIR/$UDEV_RULE_NAME"
UDEV_DIR=/etc/udev/rules.d
CONFIG_DIR=/etc/tabletop-companion
CONFIG_FILE="$CONFIG_DIR/config.toml"   # the unit's Environment=TABLETOP_CONFIG=
STATE_DIR=/var/lib/tabletop-companion   # the unit's StateDirectory=: the games
CACHE_DIR=/var/cache/tabletop-companion # the unit's CacheDirectory=
FINGERPRINT_NAME=tabletop-companion.source  # in the venv: what was installed from
SYSTEM_PYTHON=/usr/bin/python3
ROOT=""          # "": this machine; else --root DIR
DRY_RUN=0
START=1
UNINSTALL=0
PURGE=0
PREFIX_GIVEN=0
USER_GIVEN=0

usage() {
    cat <<USAGE
Usage: ${0##*/} [--dry-run] [--prefix DIR] [--source DIR] [--user NAME] [--python PATH] [--no-start] [--root DIR]
       ${0##*/} --uninstall [--purge] [--dry-run] [--prefix DIR] [--user NAME] [--root DIR]

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
  --root DIR     install into DIR as if it were / (tests, images): nothing is started and this
                 machine is not changed outside DIR
  --uninstall    stop and remove the service, its unit, the udev rule, the venv and the cache;
                 keep the games ($STATE_DIR), the configuration ($CONFIG_DIR) and the user
                 (the prefix and user are read from the installed unit unless given)
  --purge        with --uninstall: delete the games, the configuration and the service user too
USAGE
}

die() { printf 'install.sh: %s\n' "$*" >&2; exit 2; }
# The value of an option that takes one ("--prefix DIR"): refused when it is missing or is the next option.
value_of() {  # $1: the option, $2: what it needs ("a directory"), $3: the next argument (absent at the end)
    [[ $# -ge 3 && -n "$3" && "$3" != --* ]] || die "$1 needs $2 after it"
}

while [[ $# -gt 0 ]]; do
    case "$1" in
        --dry-run) DRY_RUN=1 ;;
        --prefix) value_of "$1" "a directory" "${@:2:1}"; PREFIX="$2"; PREFIX_GIVEN=1; shift ;;
        --prefix=*) PREFIX="${1#--prefix=}"; PREFIX_GIVEN=1 ;;
        --source) value_of "$1" "a directory" "${@:2:1}"; SOURCE_DIR="$2"; shift ;;
        --source=*) SOURCE_DIR="${1#--source=}" ;;
        --user) value_of "$1" "a name" "${@:2:1}"; SERVICE_USER="$2"; USER_GIVEN=1; shift ;;
        --user=*) SERVICE_USER="${1#--user=}"; USER_GIVEN=1 ;;
        --python) value_of "$1" "a path" "${@:2:1}"; SYSTEM_PYTHON="$2"; shift ;;
        --python=*) SYSTEM_PYTHON="${1#--python=}" ;;
        --root) value_of "$1" "a directory" "${@:2:1}"; ROOT="$2"; shift ;;
        --root=*) ROOT="${1#--root=}" ;;
        --no-start) START=0 ;;
        --uninstall) UNINSTALL=1 ;;
        --purge) PURGE=1 ;;
        -h|--help) usage; exit 0 ;;
        *) echo "install.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
    esac
    shift
done

[[ $PURGE -eq 0 || $UNINSTALL -eq 1 ]] || die "--purge deletes the games and the configuration: give it with --uninstall"
if [[ $UNINSTALL -eq 0 && ! ( -f "$SYSTEM_PYTHON" && -x "$SYSTEM_PYTHON" ) ]]; then  # said now, not after the packages and the user are made
    die "--python $(printf '%q' "$SYSTEM_PYTHON"): no such program: give the system's Python 3 (e.g. /usr/bin/python3)"
fi

# The target system: this machine, or --root DIR (absolute, an existing folder; / is this machine).
if [[ -n "$ROOT" ]]; then
    [[ "$ROOT" == /* ]] || die "--root must be an absolute path, got $(printf '%q' "$ROOT")"
    [[ -d "$ROOT" ]] || die "--root $(printf '%q' "$ROOT"): no such folder"
    ROOT="$(cd -P -- "$ROOT" && pwd)"
    [[ "$ROOT" != / ]] || ROOT=""
fi
if [[ -n "$ROOT" && ! -f "$ROOT/etc/passwd" ]]; then
    die "--root $ROOT has no etc/passwd: give the root folder of a system (e.g. made by debootstrap)"
fi
UNIT_TARGET="$ROOT$UNIT_DIR/$UNIT_NAME"
DROPIN_DIR="$ROOT$UNIT_DIR/$UNIT_NAME.d"
DROPIN_TARGET="$DROPIN_DIR/$DROPIN_NAME"

# --uninstall without --prefix/--user: what the installed drop-in says (the last ExecStart= and User=).
if [[ $UNINSTALL -eq 1 && -f "$DROPIN_TARGET" ]]; then
    installed_exec="$(sed -n 's/^ExecStart=\(.\{1,\}\)$/\1/p' "$DROPIN_TARGET" | tail -n 1)"
    installed_user="$(sed -n 's/^User=\(.\{1,\}\)$/\1/p' "$DROPIN_TARGET" | tail -n 1)"
    if [[ $PREFIX_GIVEN -eq 0 && "$installed_exec" == */venv/bin/companion\ run ]]; then
        PREFIX="${installed_exec%/venv/bin/companion run}"
    fi
    if [[ $USER_GIVEN -eq 0 && -n "$installed_user" ]]; then
        SERVICE_USER="$installed_user"
    fi
fi

# Whether $1 matches the extended regex $2 in the C locale (so [a-z] is ASCII only, whatever the
# owner's locale would collate into that range).
matches() { local LC_ALL=C; [[ "$1" =~ $2 ]]; }
NAME_RE='^[a-z_][a-z0-9_-]{0,31}$'

# The user and group databases of the target system (getent here; the files under --root).
passwd_entry() {  # NAME -> its passwd line; fails when there is none
    if [[ -n "$ROOT" ]]; then
        awk -F: -v name="$1" '$1 == name && !seen { print; seen = 1 } END { exit !seen }' "$ROOT/etc/passwd"
    else
        getent passwd "$1"
    fi
}
group_entries() {  # every group line
    if [[ -n "$ROOT" ]]; then
        cat "$ROOT/etc/group" 2>/dev/null || true
    else
        getent group || true
    fi
}
group_of_gid() { group_entries | awk -F: -v gid="$1" '$3 == gid && !seen { print $1; seen = 1 }'; }
group_exists() { group_entries | awk -F: -v g="$1" '$1 == g { seen = 1 } END { exit !seen }'; }
user_in_group() {  # USER GROUP: whether USER is a listed member of GROUP
    group_entries | awk -F: -v u="$1" -v g="$2" \
        '$1 == g { n = split($4, m, ","); for (i = 1; i <= n; i++) if (m[i] == u) seen = 1 } END { exit !seen }'
}

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
user_home="" user_shell=""
if passwd_line="$(passwd_entry "$SERVICE_USER")"; then
    IFS=: read -r _ _ user_uid user_gid _ user_home user_shell <<<"$passwd_line"
    if [[ "$user_uid" == 0 ]]; then
        die "--user $SERVICE_USER has uid 0 (it is root under another name); use an unprivileged user"
    fi
    if [[ "$user_gid" == 0 ]]; then
        die "--user $SERVICE_USER has the root group (gid 0) as its primary group; use an unprivileged user"
    fi
    SERVICE_GROUP="$(group_of_gid "$user_gid")"
    if ! matches "$SERVICE_GROUP" "$NAME_RE"; then
        die "--user $SERVICE_USER: its primary group $(printf '%q' "$SERVICE_GROUP") is not a plain group name"
    fi
    user_exists=1
else
    user_exists=0
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

# How each tool reaches the target system: apt-get through chroot, dpkg-query with --root, the user
# tools with --prefix, systemctl with --root (offline: enable/disable only, nothing is started).
in_target=() dpkg_opts=() user_opts=() systemctl_opts=()
if [[ -n "$ROOT" ]]; then
    in_target=(chroot "$ROOT")
    dpkg_opts=(--root="$ROOT")
    user_opts=(--prefix "$ROOT")
    systemctl_opts=(--root="$ROOT")
fi
live() { [[ -z "$ROOT" ]]; }  # a running system (not --root): reload, start, stop, read the journal

if [[ $DRY_RUN -eq 0 && -z "$ROOT" && $EUID -ne 0 ]]; then
    echo "install.sh: run as root (sudo $0), or try --dry-run to see what it would do" >&2
    exit 1
fi
if [[ $UNINSTALL -eq 0 ]]; then
    for needed in "$UNIT_SOURCE" "$UDEV_RULE_SOURCE"; do
        if [[ ! -f "$needed" ]]; then
            echo "install.sh: missing $needed" >&2
            exit 1
        fi
    done
    if [[ ! -f "$SOURCE_DIR/pyproject.toml" ]]; then
        echo "install.sh: $SOURCE_DIR has no pyproject.toml; pass --source with the project checkout" >&2
        exit 1
    fi
fi
[[ $DRY_RUN -eq 1 ]] && say "dry run: nothing will be changed"
[[ -n "$ROOT" ]] && say "installing into $ROOT as if it were / (--root): nothing is started"

tmp_paths=()
cleanup() { [[ ${#tmp_paths[@]} -eq 0 ]] || rm -rf -- "${tmp_paths[@]}"; }
trap cleanup EXIT

# Remove a file when it is there.
remove_file() {
    if [[ -e "$1" || -L "$1" ]]; then
        say "removing $1"
        run rm -f -- "$1"
    fi
}

# ------------------------------------------------------------------------------------------------
if [[ $UNINSTALL -eq 1 ]]; then
    if [[ $PURGE -eq 1 ]]; then
        say "uninstalling and purging: the games in $STATE_DIR and the configuration $CONFIG_DIR are deleted too"
    else
        say "uninstalling: the games in $STATE_DIR, the configuration $CONFIG_DIR and the user $SERVICE_USER are kept (--purge deletes them)"
    fi
    # 1. stop and disable the service.
    if [[ -f "$UNIT_TARGET" ]]; then
        if live; then
            run systemctl disable --now "$UNIT_NAME" || say "could not stop $UNIT_NAME (is systemd running?); removing it anyway"
        elif systemctl "${systemctl_opts[@]}" is-enabled --quiet "$UNIT_NAME" 2>/dev/null; then
            run systemctl "${systemctl_opts[@]}" disable "$UNIT_NAME"
        fi
    fi
    # 2. the unit, its drop-in and the udev rule.
    remove_file "$UNIT_TARGET"
    remove_file "$DROPIN_TARGET"
    if [[ -d "$DROPIN_DIR" ]] && [[ -z "$(ls -A -- "$DROPIN_DIR")" ]]; then
        run rmdir -- "$DROPIN_DIR"
    fi
    udev_target="$ROOT$UDEV_DIR/$UDEV_RULE_NAME"
    had_rule=0
    [[ -e "$udev_target" ]] && had_rule=1
    remove_file "$udev_target"
    if live; then
        run systemctl daemon-reload || true
        run systemctl reset-failed "$UNIT_NAME" 2>/dev/null || true
        [[ $had_rule -eq 1 ]] && { run udevadm control --reload-rules || true; }
    fi
    # 3. the venv (only a folder that is one), the prefix when nothing else is in it, the cache.
    if [[ -f "$ROOT$VENV/pyvenv.cfg" ]]; then
        say "removing the venv $VENV"
        run rm -rf -- "$ROOT$VENV"
        if [[ -d "$ROOT$PREFIX" ]] && [[ $DRY_RUN -eq 1 || -z "$(ls -A -- "$ROOT$PREFIX")" ]]; then
            run rmdir -- "$ROOT$PREFIX"
        fi
    elif [[ -e "$ROOT$VENV" ]]; then
        say "$VENV is not a venv; leaving it"
    fi
    if [[ -d "$ROOT$CACHE_DIR" ]]; then
        say "removing the cache $CACHE_DIR"
        run rm -rf -- "$ROOT$CACHE_DIR"
    fi
    # 4. --purge: the games, the configuration and the user the installer made.
    if [[ $PURGE -eq 1 ]]; then
        for folder in "$STATE_DIR" "$CONFIG_DIR"; do
            if [[ -d "$ROOT$folder" ]]; then
                say "deleting $folder"
                run rm -rf -- "$ROOT$folder"
            fi
        done
        if [[ $user_exists -eq 1 && "$user_home" == "$STATE_DIR" && "$user_shell" == */nologin ]]; then
            say "deleting the service user $SERVICE_USER"
            run userdel "${user_opts[@]}" "$SERVICE_USER"
        elif [[ $user_exists -eq 1 ]]; then
            say "keeping the user $SERVICE_USER: its home is $user_home, so the installer did not make it"
        fi
    else
        [[ -d "$ROOT$STATE_DIR" ]] && say "kept the games in $STATE_DIR"
        [[ -e "$ROOT$CONFIG_FILE" ]] && say "kept the configuration $CONFIG_FILE"
    fi
    say "done: Tabletop Companion is uninstalled"
    exit 0
fi

# ------------------------------------------------------------------------------------------------
changed=0  # whether anything the running service reads changed (then it is restarted)

# 1. apt packages (only the missing ones; picamera2 without its GUI recommends, as on Pi OS Lite).
missing=()
for pkg in "${APT_PACKAGES[@]}"; do
    if ! dpkg-query "${dpkg_opts[@]}" -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$pkg")
    fi
done
if [[ ${#missing[@]} -gt 0 ]]; then
    say "installing apt packages: ${missing[*]}"
    run "${in_target[@]}" apt-get update
    run "${in_target[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
else
    say "apt packages already installed: ${APT_PACKAGES[*]}"
fi

# 2. the service user (a system user without a login shell; its home is the state directory) and
# its device groups (only those that exist here, and only those it is not in yet).
if [[ $user_exists -eq 1 ]]; then
    say "user $SERVICE_USER exists"
else
    say "creating system user $SERVICE_USER"
    run useradd "${user_opts[@]}" --system --user-group --home-dir "$STATE_DIR" --no-create-home \
        --shell /usr/sbin/nologin "$SERVICE_USER"
fi
groups_present=()
groups_to_join=()
for group in "${SERVICE_GROUPS[@]}"; do
    if group_exists "$group"; then
        groups_present+=("$group")
        user_in_group "$SERVICE_USER" "$group" || groups_to_join+=("$group")
    else
        say "group $group does not exist here; skipping it"
    fi
done
if [[ ${#groups_to_join[@]} -gt 0 ]]; then
    say "adding $SERVICE_USER to the groups ${groups_to_join[*]}"
    run usermod "${user_opts[@]}" -a -G "$(IFS=,; echo "${groups_to_join[*]}")" "$SERVICE_USER"
    changed=1
fi

# 3. the venv, seeing apt's picamera2 and lgpio.
if [[ -x "$ROOT$VENV/bin/python" ]]; then
    say "venv $VENV exists"
else
    say "creating venv $VENV"
    run mkdir -p "$ROOT$PREFIX"
    run "$SYSTEM_PYTHON" -m venv --system-site-packages "$ROOT$VENV"
fi

# 4. the project, from a copy of the checkout (the build writes build/ and *.egg-info beside the
# sources: never as root into the owner's checkout), only when the copy differs from what was
# installed last (its fingerprint is kept in the venv), then its compiled language catalogs.
# apt's picamera2 and its simplejpeg are built against Debian's numpy; numpy 2 from pip in the venv
# would shadow it and break `import picamera2` ("numpy.dtype size changed", picamera2 issues #1088
# and #1211), so keep the system's numpy major version (pip then picks an opencv-python-headless
# that accepts it).
pip_constraints=()
constraint_text=""
system_numpy="$("$SYSTEM_PYTHON" -c 'import numpy; print(numpy.__version__)' 2>/dev/null || true)"
if [[ "$system_numpy" == 1.* ]]; then
    constraint_text="numpy<2"
    constraints="$(mktemp)"
    tmp_paths+=("$constraints")
    echo "$constraint_text" >"$constraints"
    pip_constraints=(--constraint "$constraints")
    say "keeping numpy<2 in the venv (the system's numpy is $system_numpy, which apt's picamera2 needs)"
fi
stage="$(mktemp -d)"
tmp_paths+=("$stage")
tar -C "$SOURCE_DIR" --exclude=./.git --exclude=./.venv --exclude=./build --exclude=./dist \
    --exclude='*.egg-info' --exclude=__pycache__ --exclude='*.pyc' --exclude='*.mo' \
    --exclude=.pytest_cache --exclude=.hypothesis --exclude=.benchmarks --exclude=node_modules \
    --exclude=./tests/_output -cf - . | tar -C "$stage" --no-same-owner -xf -
fingerprint="$({ printf 'constraints: %s\n' "$constraint_text"
                 cd "$stage" && find . -type f -exec sha256sum {} + | LC_ALL=C sort -k 2; } | sha256sum | cut -d ' ' -f 1)"
fingerprint_file="$ROOT$VENV/$FINGERPRINT_NAME"
if [[ -x "$ROOT$VENV/bin/companion" && -f "$fingerprint_file" && "$(cat "$fingerprint_file")" == "$fingerprint" ]]; then
    say "the project in $VENV is up to date with $SOURCE_DIR"
else
    say "installing the project from $SOURCE_DIR into $VENV (a first install downloads for a few minutes)"
    run "$ROOT$VENV/bin/pip" install --quiet --upgrade --upgrade-strategy only-if-needed "${pip_constraints[@]}" "$stage"
    # the players' languages: companion/locale/*/LC_MESSAGES/companion.po -> .mo, in the installed package
    if [[ $DRY_RUN -eq 1 ]]; then
        locale_dir="$ROOT$VENV/lib/python3/site-packages/companion/locale"
    else
        locale_dir="$("$ROOT$VENV/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')/companion/locale"
    fi
    say "compiling the language catalogs"
    run "$ROOT$VENV/bin/pybabel" -q compile -d "$locale_dir" -D companion
    if [[ $DRY_RUN -eq 1 ]]; then
        say "would record the installed fingerprint in $fingerprint_file"
    else
        printf '%s\n' "$fingerprint" >"$fingerprint_file"
    fi
    changed=1
fi

# 5. the configuration: the commented default (companion/data/config.toml, every setting at its
# default) only when there is no file; an owner's file is kept as it is and checked.
config_target="$ROOT$CONFIG_FILE"
if [[ -e "$config_target" || -L "$config_target" ]]; then
    say "keeping the configuration $CONFIG_FILE (never overwritten)"
    if [[ $DRY_RUN -eq 0 && -x "$ROOT$VENV/bin/companion" ]]; then
        if ! "$ROOT$VENV/bin/companion" config check "$config_target"; then
            say "the box uses the default of each setting named above; edit $CONFIG_FILE to fix them"
        fi
    fi
else
    say "writing the default configuration $CONFIG_FILE (edit it, then: sudo systemctl restart ${UNIT_NAME%.service})"
    run install -d -m 0755 "$ROOT$CONFIG_DIR"
    run install -m 0644 "$SOURCE_DIR/companion/data/config.toml" "$config_target"
    changed=1
fi

# 6. the udev rule (the video group may set the display's brightness), the unit exactly as in this
# checkout, and a drop-in with this machine's choices (written with printf from the checked values
# above: nothing is substituted into the unit's text). Each file is only rewritten when it changed.
install_if_changed() {  # SOURCE TARGET; returns 0 when it (would have) installed, 1 when up to date
    if [[ -f "$2" ]] && cmp -s "$1" "$2"; then
        say "$2 is up to date"
        return 1
    fi
    say "installing $2"
    run install -m 0644 "$1" "$2"
}
units_changed=0
run mkdir -p "$ROOT$UDEV_DIR"
if install_if_changed "$UDEV_RULE_SOURCE" "$ROOT$UDEV_DIR/$UDEV_RULE_NAME" && live; then
    run udevadm control --reload-rules || true
    run udevadm trigger --action=add --subsystem-match=backlight || true
fi

# The display's backlight: ProtectKernelTunables= keeps /sys read-only in the service, so the
# device folder of each backlight found here (/sys/class/backlight/* are links to it) is opened for
# writing. A display connected later needs this installer run again.
backlights=()
for link in "$ROOT"/sys/class/backlight/*; do
    [[ -e "$link" ]] || continue
    real="$(readlink -f -- "$link")"
    real="${real#"$ROOT"}"
    if [[ -f "$ROOT$real/brightness" ]] && matches "$real" '^/sys/[A-Za-z0-9._:@+,/-]+$'; then
        backlights+=("$real")
    else
        say "backlight $link: its folder $(printf '%q' "$real") is not one a unit file can name; brightness stays as it is"
    fi
done

dropin="$(mktemp)"
tmp_paths+=("$dropin")
{
    printf '# Written by systemd/install.sh for this machine (user, prefix, device groups, backlight); run it again to change them.\n'
    printf '[Service]\n'
    printf 'User=%s\n' "$SERVICE_USER"
    printf 'Group=%s\n' "$SERVICE_GROUP"
    printf '# only the groups that exist here (a group missing on this machine would stop the start)\n'
    printf 'SupplementaryGroups=\n'
    if [[ ${#groups_present[@]} -gt 0 ]]; then
        printf 'SupplementaryGroups=%s\n' "${groups_present[*]}"
    fi
    if [[ ${#backlights[@]} -gt 0 ]]; then
        printf '# the display backlight (brightness on the settings screen): writable through /sys, which\n'
        printf '# ProtectKernelTunables= keeps read-only; %s gives its file to the video group\n' "$UDEV_RULE_NAME"
        printf 'ReadWritePaths=-%s\n' "${backlights[@]}"
    fi
    printf 'ExecStart=\n'
    printf 'ExecStart=%s/bin/companion run\n' "$VENV"
} >"$dropin"
run mkdir -p "$ROOT$UNIT_DIR"
install_if_changed "$UNIT_SOURCE" "$UNIT_TARGET" && units_changed=1
run mkdir -p "$DROPIN_DIR"
install_if_changed "$dropin" "$DROPIN_TARGET" && units_changed=1
if [[ $DRY_RUN -eq 1 ]]; then
    say "the drop-in $DROPIN_TARGET would hold:"
    sed 's/^/    /' "$dropin"
fi
if [[ $units_changed -eq 1 ]]; then
    changed=1
    live && run systemctl daemon-reload
fi

# 7. enable, and start (or restart when something it reads changed).
started=0
if ! live; then
    if systemctl "${systemctl_opts[@]}" is-enabled --quiet "$UNIT_NAME" 2>/dev/null; then
        say "$UNIT_NAME is enabled in $ROOT"
    else
        run systemctl "${systemctl_opts[@]}" enable "$UNIT_NAME"
    fi
    say "not started (--root): the service starts when that system boots"
elif [[ $START -eq 0 ]]; then
    run systemctl enable "$UNIT_NAME"
    say "enabled $UNIT_NAME; not started (--no-start)"
elif systemctl is-active --quiet "$UNIT_NAME" 2>/dev/null; then
    run systemctl enable "$UNIT_NAME"
    if [[ $changed -eq 1 ]]; then
        if run systemctl restart "$UNIT_NAME"; then
            say "$UNIT_NAME enabled and restarted"
            started=1
        fi
    else
        say "$UNIT_NAME is running and nothing it reads changed; not restarted"
        started=1
    fi
elif run systemctl enable --now "$UNIT_NAME"; then
    say "$UNIT_NAME enabled and started at boot"
    started=1
fi
if live && [[ $DRY_RUN -eq 0 && $START -eq 1 && $started -eq 0 ]]; then
    say "$UNIT_NAME did not come up (no camera yet?); it retries every 10 s: see journalctl -u ${UNIT_NAME%.service} -e"
fi

# 8. the phone view: the link the running box printed (`phone view at http://ADDRESS:PORT/join/SECRET`,
# in this start's journal) with its QR code; without a running box, the address phones will open.
if [[ $DRY_RUN -eq 1 ]]; then
    say "would print the phone view's link and its QR code"
else
    log=""
    if [[ $started -eq 1 ]]; then
        invocation="$(systemctl show --property=InvocationID --value "$UNIT_NAME" 2>/dev/null || true)"
        for _ in $(seq 1 30); do  # READY=1 comes after the line; this only waits for the journal
            if [[ -n "$invocation" ]]; then
                log="$(journalctl "_SYSTEMD_INVOCATION_ID=$invocation" --output=cat --no-pager 2>/dev/null || true)"
            fi
            [[ "$log" == *"phone view at "* ]] && break
            sleep 1
        done
    fi
    printf '%s\n' "$log" | "$ROOT$VENV/bin/python" -m companion.phone_link --log - --config "$config_target" || true
fi
say "done: follow the logs with journalctl -u ${UNIT_NAME%.service} -f; settings in $CONFIG_FILE"
