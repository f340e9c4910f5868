"""How each kind of value of the box's configuration file is read: each takes the TOML value and returns the
setting's value, or raises ValueError saying what to write instead (a :class:`companion.i18n.Text`, said in the
owner's language by ``config check``). The settings themselves are declared in :mod:`companion.config`.
"""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path
from typing import Any

from companion.i18n import Text, message_of

__all__ = [
    "BCM_PINS", "OFF", "box_name_setting", "flag_setting", "folder_setting", "host_setting", "pin_setting",
    "port_setting", "size_setting", "source_setting", "text_setting", "toml_value",
]

BCM_PINS = range(0, 28)
"""The BCM GPIO numbers of the Raspberry Pi's 40-pin header (0-27)."""

OFF = "off"
"""The value of an optional pin (undo button, buzzer) that is not wired."""


def toml_value(value: Any) -> str:
    """``value`` as it is written in the TOML file (``true``, ``"x"``, ``["x", 2]``, ``{a = 1}``), not as Python spells
    it: the settings' refusals quote what the file holds this way, and the default file and ``config set`` write
    it. A text is a TOML basic string (its quotes, backslashes and control characters escaped)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {toml_value(v)}" for k, v in value.items()) + "}"
    text = json.dumps(value, ensure_ascii=False, default=str).replace("\x7f", "\\u007f")  # DEL: TOML escapes it
    return "".join(f"\\u{ord(c):04x}" if _unseen(c) else c for c in text)


def _unseen(c: str) -> bool:
    """Whether ``c`` prints as nothing or as a plain space (U+200B zero width space, U+00A0 no-break space, U+2028
    line separator, a bidirectional mark): :func:`toml_value` writes it as ``\\uXXXX`` (TOML reads that back the
    same), so a refusal of ``"\\u200bel"`` does not read as a refusal of ``"el"``. U+200D, the joiner inside emoji
    (👩‍🚀), stays as it is."""
    if c == " " or c == "\u200d":
        return False
    return unicodedata.category(c) in ("Cf", "Zs", "Zl", "Zp")


def text_setting(value: Any) -> str:
    """A text setting: ``value`` as it is, when it is a TOML string.

    Raises:
        ValueError: not a text (the message shows it in quotes, as it should be written).
    """
    if not isinstance(value, str):
        listed = isinstance(value, (list, tuple))
        example = ", ".join(toml_value(v).strip('"') for v in value) if listed else toml_value(value)
        raise ValueError(Text("give text in quotes, e.g. \"{value}\"", value=example))
    return value


def port_setting(value: Any) -> int:
    """``web.port``: a TCP port, a whole number 1-65535.

    Raises:
        ValueError: not a whole number (text, true/false, a fraction) or outside 1-65535.
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(Text("give a whole number 1-65535 without quotes, not {value}", value=toml_value(value)))
    if not 1 <= value <= 65535:
        raise ValueError(Text("{value} is not a TCP port: give 1-65535", value=value))
    return value


def flag_setting(value: Any) -> bool:
    """A yes/no setting (``web.announce``): TOML ``true`` or ``false``.

    Raises:
        ValueError: anything else (``"yes"``, ``1``).
    """
    if not isinstance(value, bool):
        raise ValueError(Text("give true or false (no quotes), not {value}", value=toml_value(value)))
    return value


def pin_setting(value: Any, optional: bool) -> int | None:
    """A GPIO pin: a BCM number of the 40-pin header (:data:`BCM_PINS`, 0-27); with ``optional``, ``"off"`` (not
    wired) gives None.

    Raises:
        ValueError: not a BCM number 0-27 (nor ``"off"`` where it is allowed).
    """
    if optional and value == OFF:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value not in BCM_PINS:
        if optional:
            raise ValueError(Text('give a BCM number 0-27 or "off", not {value}', value=toml_value(value)))
        raise ValueError(Text("give a BCM number 0-27, not {value}", value=toml_value(value)))
    return value


def size_setting(value: Any) -> tuple[int, int] | None:
    """``camera.size``: ``"auto"`` (None: the camera's own size) or ``"WIDTHxHEIGHT"`` in px, each side 64-8192 px.

    Raises:
        ValueError: neither form, or a side outside 64-8192 px.
    """
    text = text_setting(value).strip().lower()
    if text == "auto":
        return None
    match = re.fullmatch(r"(\d{2,5})\s*x\s*(\d{2,5})", text)
    if not match:
        raise ValueError(Text('give "auto" or WIDTHxHEIGHT in pixels, e.g. "2304x1296", not {value}',
                              value=toml_value(value)))
    width, height = int(match.group(1)), int(match.group(2))
    if not (64 <= width <= 8192 and 64 <= height <= 8192):
        raise ValueError(Text("{width}x{height}: each side must be 64-8192 px", width=width, height=height))
    return width, height


def source_setting(value: Any) -> str:
    """``camera.source``: one of the forms the box opens (``device.parse_source``: checked, nothing opened), so
    ``config check`` names a source such as ``"bogus:1"`` or ``"opencv:"`` instead of the box failing at start.

    Raises:
        ValueError: not a text, or no source the box opens (the device's words).
    """
    from device import UnknownSourceSpec, parse_source

    text = text_setting(value).strip()
    try:
        parse_source(text)
    except UnknownSourceSpec as exc:
        raise ValueError(message_of(exc)) from None  # the device's words, said in the owner's language
    return text


def box_name_setting(value: Any) -> str:
    """``box.name``: the name the box is announced under on the network, at most 63 bytes in UTF-8 (a DNS-SD
    service instance name, RFC 6763 §4.1.1), with at least one letter or digit in any alphabet.

    Raises:
        ValueError: empty, longer than 63 bytes, holding a dot, a backslash or a control character, or no letter
            or digit.
    """
    text = text_setting(value).strip()
    if not text:
        raise ValueError(Text('give the box a name, e.g. "companion"'))
    if len(text.encode("utf-8")) > 63:  # a DNS-SD service instance name is at most 63 bytes (RFC 6763 §4.1.1)
        raise ValueError(Text("{size} bytes: a box name is at most 63 bytes (it names the box on the network)",
                              size=len(text.encode("utf-8"))))
    # control and invisible format characters too (U+202E turns the name around where it is drawn, U+2028 breaks
    # its line, U+200B hides in it); U+200D stays, as it joins an emoji such as 👩‍🚀
    if any(c in ".\\" or (unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn") and c != "\u200d")
           for c in text):
        raise ValueError(Text("a box name has no dots, backslashes or control characters"))
    if not any(ch.isalnum() for ch in text):  # "Τραπέζι" is a name: its network name is spelt in a-z (host_label)
        raise ValueError(
            Text("a box name needs at least one letter or digit, in any alphabet (its network name, such as "
                 "companion.local, is spelt from them)")
        )
    return text


_HOST_LABEL = re.compile(r"[A-Za-z0-9]([A-Za-z0-9\-]{0,61}[A-Za-z0-9])?")


def host_setting(value: Any) -> str:
    """``web.host``: an IPv4 or IPv6 address (``0.0.0.0``, ``::``, ``192.168.1.20``) or a host name
    (``companion.local``: letters, digits and hyphens between dots, RFC 1123), so ``config check`` names a host the
    phone view could never listen on instead of the box failing at start. Nothing is looked up.

    Raises:
        ValueError: not a text, or neither an address nor a host name.
    """
    import ipaddress

    text = text_setting(value).strip()
    try:
        ipaddress.ip_address(text)
        return text
    except ValueError:
        pass
    labels = text.removesuffix(".").split(".")
    numeric = all(label.isdigit() for label in labels)  # 256.1.1.1: an IPv4 address out of range, not a name
    if text and len(text) <= 253 and not numeric and all(_HOST_LABEL.fullmatch(label) for label in labels):
        return text
    raise ValueError(Text('{value} is not a network address: give an address such as "0.0.0.0" (every network of '
                          'the box), "127.0.0.1" or "192.168.1.20", or a host name such as "companion.local"',
                          value=repr(value)))  # a text: the command line shares it


def folder_setting(value: Any) -> str:
    """``box.data_dir``: an absolute folder (``~`` allowed), or ``""`` for the default data directory.

    Raises:
        ValueError: a control character, a relative path, or the path of a file.
    """
    text = text_setting(value).strip()
    if any(ord(c) < 32 or ord(c) == 127 for c in text):  # "\u0000" in TOML: no path holds it (os refuses a NUL)
        raise ValueError(Text('{value} holds a control character, which no folder name has: give the folder\'s path, '
                              'or "" for the default', value=toml_value(value)))
    if text and not Path(text).expanduser().is_absolute():
        raise ValueError(Text('give an absolute folder ("/var/lib/tabletop-companion") or "" for the default, '
                              "not {value}", value=toml_value(value)))
    if text and Path(text).expanduser().exists() and not Path(text).expanduser().is_dir():
        raise ValueError(Text('{value} is a file: give a folder, or "" for the default', value=toml_value(value)))
    return text
