"""The phone view's link for an owner at a terminal: the link and its QR code drawn in text.

``systemd/install.sh`` ends with it. It gives the journal of the service's start on standard input
(``--log -``); the last ``phone view at http://ADDRESS:PORT/join/SECRET`` line in it (the line
``companion run`` prints at start: the link of the touchscreen's QR code) is printed again, the same
shape, with the code drawn under it, so a phone scans it from the terminal. Without such a line (the
service not started, ``--no-start``, ``--root``) the address phones will open is worked out from the
configuration (``web.host``, ``web.port``) and the box's LAN address; that link only lets a phone
watch, the join code is on the touchscreen.

Usage::

    python -m companion.phone_link [--log FILE|-] [--config FILE]

Exit code 0, or 1 when the box has no network address yet (nothing to scan).
"""

from __future__ import annotations

import argparse
import io
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

import segno

__all__ = ["link_in_log", "configured_link", "terminal_code", "main"]

_LINE = re.compile(r"^phone view at (https?://\S+)\s*$", re.MULTILINE)
_EVERY_ADDRESS = ("0.0.0.0", "::", "")


def link_in_log(text: str) -> str | None:
    """The link of the last ``phone view at URL`` line in ``text`` (a journal, one message a line), or None."""
    found = _LINE.findall(text)
    return found[-1] if found else None


def configured_link(config_file: Path | None, address: str | None = None) -> str | None:
    """``http://ADDRESS:PORT/`` from the configuration file's ``web.host`` and ``web.port``.

    Args:
        config_file: the TOML file (missing: the defaults; a bad setting takes its default, as the box
            does); None: the file the box would find (:func:`companion.config.find_config`).
        address: the box's LAN address; default :func:`companion.netinfo.lan_address`.

    Returns:
        The link, or None when the phone view listens on every address and the box has none yet
        (no network).
    """
    from companion.config import load
    from companion.netinfo import LOOPBACK, lan_address, phone_url

    config = load(config_file, env={})
    host = str(config["web.host"])
    if host not in _EVERY_ADDRESS:
        return phone_url(config["web.port"], host)
    address = address if address is not None else lan_address()
    if address == LOOPBACK:
        return None
    return phone_url(config["web.port"], address)


def terminal_code(text: str, out: TextIO | None = None) -> str:
    """The QR code of ``text`` drawn with text for a terminal, quiet zone included.

    Half-block characters (two rows of modules a line) where ``out`` takes them (UTF-8), else ANSI
    colours. The code is made as the touchscreen's is (:func:`companion.qr.qr_matrix`: level L raised
    as far as the version allows).

    Raises:
        ValueError: ``text`` is empty or too long for a QR code.
    """
    if not text:
        raise ValueError("cannot make a QR code of empty text")
    code = segno.make(text, error="l", micro=False, boost_error=True)
    encoding = (getattr(out if out is not None else sys.stdout, "encoding", None) or "").lower().replace("-", "")
    buffer = io.StringIO()
    code.terminal(out=buffer, compact=encoding in ("utf8", "utf8sig"))
    return buffer.getvalue()


def main(argv: Sequence[str] | None = None) -> int:
    """Print the phone view's link and its QR code (see the module's help)."""
    parser = argparse.ArgumentParser(prog="python -m companion.phone_link",
                                     description="Print the phone view's link and its QR code on the terminal.")
    parser.add_argument("--log", metavar="FILE", help="text holding the box's `phone view at URL` line (- for stdin)")
    parser.add_argument("--config", metavar="FILE", type=Path, help="the box's configuration file")
    args = parser.parse_args(argv)
    text = ""
    if args.log == "-":
        text = sys.stdin.read()
    elif args.log:
        try:
            text = Path(args.log).read_text(encoding="utf-8", errors="replace")
        except OSError as exc:
            print(f"phone_link: cannot read {args.log}: {exc.strerror or exc}", file=sys.stderr)
    link = link_in_log(text)
    joined = link is not None
    if link is None:
        link = configured_link(args.config)
    if link is None:
        print("no network address yet: join the Wi-Fi (sudo nmtui) or plug in a cable; the touchscreen shows "
              "the QR code as soon as the box has an address")
        return 1
    print(f"phone view at {link}")
    print(terminal_code(link), end="")
    if joined:
        print("Scan it with each player's phone (the touchscreen shows the same code).")
    else:
        print("This address lets a phone watch; to play, scan the QR code on the touchscreen (it carries the "
              "table's join code).")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
