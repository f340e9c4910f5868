#!/usr/bin/env bash
# One entry point for a fresh Debian / Raspberry Pi OS machine.
#   ./setup.sh run  [companion options]   install, then run the main job:
#                                         the camera on a Raspberry Pi, the demo replay elsewhere
#                                         (and with the demo's --once or --fast)
#   ./setup.sh test [pytest options]      install with test extras, then run the test suite
#   ./setup.sh install [installer options] install the box as a service on this Raspberry Pi
#                                         (systemd/install.sh, with sudo; --help lists its options)
# Installs system packages with apt (when root or sudo is available), makes a virtual
# environment in .venv (with system site packages, so Raspberry Pi OS's python3-picamera2 is
# visible) and installs the project into it from pyproject.toml.
set -euo pipefail
cd "$(dirname "$0")"

mode="${1:-}"
case "$mode" in
  run|test) shift ;;
  install)  # the service: systemd/install.sh does its own apt, user, venv and unit (as root)
    shift
    as_root=()
    if [ "$(id -u)" -ne 0 ]; then
      as_root=(sudo)
      for arg in "$@"; do
        case "$arg" in --dry-run|--help|-h) as_root=() ;; esac  # these change nothing
      done
    fi
    exec "${as_root[@]}" systemd/install.sh "$@" ;;
  *) echo "usage: ./setup.sh run [companion options] | ./setup.sh test [pytest options] | ./setup.sh install [options]" >&2
     exit 2 ;;
esac

apt_packages=(python3-venv python3-pip fonts-dejavu-core fonts-wqy-microhei fonts-symbola)  # the touchscreen's letters: DejaVu's
# Greek, Polish and Hungarian; WenQuanYi Micro Hei's Chinese, Japanese and Korean, for names typed in them; Symbola's
# emoji (outline glyphs pygame draws at every size), so "👩‍🚀 Άννα" and "👨‍🚀 Άννα" are told apart
[ "$mode" = test ] && apt_packages+=(chromium shellcheck systemd)  # the programs shellcheck and systemd-analyze: tests/test_systemd.py
if [ -r /proc/device-tree/model ] && grep -qi "raspberry pi" /proc/device-tree/model 2>/dev/null; then
  apt_packages+=(python3-picamera2)
fi

missing=()
if command -v dpkg-query >/dev/null 2>&1; then
  for p in "${apt_packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
fi
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1 && sudo="sudo"
  if [ "$(id -u)" -eq 0 ] || [ -n "$sudo" ]; then
    echo "setup: installing system packages: ${missing[*]}"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
  else
    echo "setup: please install these system packages first: ${missing[*]}" >&2
  fi
fi

python="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  "$python" -m venv --system-site-packages .venv
fi
# pip quietly: its output (and the build backend's banners, e.g. setuptools' "Editable installation"
# warning) is shown only when it fails. A Ctrl-C reaches pip too, which then exits as if it had failed: that is
# said as an interruption, and the script stops.
pip_quiet() {
  local log status=0
  log="$(mktemp)"
  interrupted=0
  trap 'interrupted=1' INT
  .venv/bin/python -m pip install -q "$@" >"$log" 2>&1 || status=$?
  trap - INT
  if [ "$interrupted" -eq 1 ]; then
    rm -f "$log"
    echo "setup: pip install $* was interrupted (Ctrl-C); the next ./setup.sh $mode installs it again" >&2
    exit 130
  fi
  if [ "$status" -ne 0 ]; then
    cat "$log" >&2
    rm -f "$log"
    echo "setup: pip install $* failed (above)" >&2
    return 1
  fi
  rm -f "$log"
}
# What an install of the project is made from: the install asked for (". " or ".[test]"), pyproject.toml (the
# dependencies, the entry points, the packages' list), the venv's Python and the top-level packages. The sources
# themselves are not in it: the install is editable, so .venv reads them where they are.
install_inputs() {
  printf '%s\n' "$1"
  cat pyproject.toml
  .venv/bin/python -V 2>&1
  printf '%s\n' ./*/__init__.py
}
# pip only when something it installs from changed since the last install into this .venv (a stamp there keeps
# their hash; a fresh .venv has none): a start does not spend ~13 s reinstalling what is already there.
# rm .venv/.setup-installed-* installs again.
install_project() {  # $1: what to install (". " or ".[test]"); $2: the stamp's name
  local stamp=".venv/.setup-installed-$2" want
  want="$(install_inputs "$1" | sha256sum | cut -d' ' -f1)"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -x .venv/bin/companion ]; then
    return 0
  fi
  rm -f "$stamp"  # an install interrupted or failed half way is done again next time
  # pip is quiet: say what the wait is for (the first install fetches OpenCV, numpy, pygame...: minutes on a Pi)
  echo "setup: installing the project into .venv with pip (the first time takes a few minutes; pip's own output is shown only if it fails)" >&2
  pip_quiet --upgrade pip
  pip_quiet -e "$1"
  printf '%s\n' "$want" >"$stamp"
}
compile_catalogs() {  # the players' languages: companion/locale/*/LC_MESSAGES/companion.po -> .mo (never committed)
  .venv/bin/pybabel -q compile -d companion/locale -D companion
}
if [ "$mode" = test ]; then
  install_project ".[test]" test
  compile_catalogs
  export SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy GPIOZERO_PIN_FACTORY=mock
  exec .venv/bin/python -m pytest "$@"
fi

install_project . run
compile_catalogs
# The main job: `run` with the camera on a Raspberry Pi, else `demo`. Options without a command are the main
# job's (./setup.sh run --once --no-screen); companion's own -v/--language stay in front of the command.
# --once and --fast are the demo's own options (a replay has passes and a pace; the camera has neither):
# with them the main job is the demo on a Raspberry Pi too.
main_job=demo
if .venv/bin/python -c "import picamera2" >/dev/null 2>&1; then
  main_job=run
fi
global=()
while [ $# -gt 0 ]; do
  case "$1" in
    -v|--verbose|--language=*) global+=("$1"); shift ;;
    --language) global+=("$1"); shift; [ $# -gt 0 ] && { global+=("$1"); shift; } ;;
    *) break ;;
  esac
done
if [ "$main_job" = run ] && [ $# -gt 0 ] && [ "${1#-}" != "$1" ]; then
  for arg in "$@"; do
    case "$arg" in
      --once|--fast) main_job=demo
                     echo "setup: $arg is an option of the demo replay: running companion demo, not the camera" >&2
                     break ;;
    esac
  done
fi
if [ $# -eq 0 ] || [ "${1#-}" != "$1" ]; then
  set -- "$main_job" "$@"
fi
exec .venv/bin/companion ${global[@]+"${global[@]}"} "$@"
