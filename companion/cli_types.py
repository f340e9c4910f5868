"""The ``companion`` command line's argument types: each turns one option's text into its value, or raises
:class:`argparse.ArgumentTypeError` with what is wrong in the command's language (argparse then says it as a bad
command line, exit 2)."""

from __future__ import annotations

import argparse
import math
import re

from companion.i18n import _, say

__all__ = ["MAX_HOLD_S", "MIN_HOLD_S", "corners_arg", "frames_arg", "hold_arg", "host_arg", "language_arg", "port_arg",
           "seconds_arg", "session_id_arg"]


def language_arg(text: str) -> str:
    """``--language``: one of the box's languages (:data:`companion.i18n.LANGUAGES`), written as ``box.language``
    takes it ("EL", "hu_HU", "greek", "Ελληνικά": :func:`companion.config_language.language_code`).

    Raises:
        argparse.ArgumentTypeError: it means none of them; the message quotes it (escaped, cut at 60 characters) and
            names the code it most likely meant ("gr": did you mean "el"?), or why a language tag is none of them
            ("el-", "uk": :func:`companion.config_language.language_refusal`), as ``box.language``'s refusal does.
    """
    from companion.config_language import language_code, language_refusal, likely_language
    from companion.config_values import toml_value
    from companion.i18n import LANGUAGES, say

    code = text if text in LANGUAGES else language_code(text)
    if code is not None:
        return code
    refused = language_refusal(text, LANGUAGES)  # "el-": no language tag; "uk": Ukrainian, no guess
    if refused is not None:
        raise argparse.ArgumentTypeError(say(refused))
    shown = toml_value(text if len(text) <= 60 else text[:60] + "…")
    close = likely_language(text)
    if close is not None:
        raise argparse.ArgumentTypeError(_('{value} is not one of {allowed} (did you mean "{close}"?)').format(
            value=shown, allowed=", ".join(LANGUAGES), close=close))
    raise argparse.ArgumentTypeError(_("{value} is not one of {allowed}").format(value=shown,
                                                                               allowed=", ".join(LANGUAGES)))


def session_id_arg(text: str) -> str:
    """argparse type: ``--session``'s game id, not empty (an empty one would silently mean the newest game)."""
    if not text.strip():
        raise argparse.ArgumentTypeError(_("an empty game id: give one that `companion sessions` lists, or leave "
                                           "--session out for the newest game"))
    return text.strip()


def port_arg(text: str) -> int:
    """argparse type: a TCP port 1-65535 (0 = pick a free one)."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_("{text!r} is not a port number").format(text=text)) from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(_("port {port} is outside 0-65535").format(port=port))
    return port


def host_arg(text: str) -> str:
    """argparse type: the phone view's address, checked as ``web.host`` is (an IP address or a host name), so a
    bad one is a bad command line (exit 2) before the camera opens."""
    from companion.config import host_setting

    try:
        return host_setting(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(say(exc)) from None


def seconds_arg(text: str) -> float:
    """argparse type: a positive number of seconds."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_("{text!r} is not a number of seconds").format(text=text)) from None
    if not value > 0 or value == float("inf"):  # also NaN
        raise argparse.ArgumentTypeError(_("{text} s: give a positive number of seconds").format(text=text))
    return value


MAX_HOLD_S = 3600.0
"""Longest ``--hold``: an hour per photo is already far more than any demo needs."""


MIN_HOLD_S = 1.0
"""Shortest ``--hold``: a replayed photo must stay longer than the stillness wait (``MotionConfig.still_seconds``,
0.6 s) plus the motion of the change, or it is never read."""


def hold_arg(text: str) -> float:
    """argparse type: ``--hold`` seconds, finite, at least :data:`MIN_HOLD_S` and at most :data:`MAX_HOLD_S`."""
    value = seconds_arg(text)
    if value > MAX_HOLD_S:
        raise argparse.ArgumentTypeError(
            _("{text} s: give at most {most:.0f} seconds").format(text=text, most=MAX_HOLD_S)
        )
    if value < MIN_HOLD_S:
        raise argparse.ArgumentTypeError(
            _(
                "{text} s: give at least {least:g} s (the box reads once the table has been still for a moment; a "
                "shorter photo is never read)"
            ).format(text=text, least=MIN_HOLD_S)
        )
    return value


def frames_arg(text: str) -> int:
    """argparse type: a frame count >= 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_("{text!r} is not a whole number of frames").format(text=text)) from None
    if value < 1:
        raise argparse.ArgumentTypeError(_("{value}: give at least 1 frame").format(value=value))
    return value


_MM = re.compile(r"\s*[+-]?(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:e[+-]?[0-9]+)?|inf|infinity|nan)\s*", re.ASCII)
"""A number of mm as a player types it (lower-cased): the digits 0-9 with a point and an exponent, or inf/nan (named
by their own checks); not the underscores and other scripts' digits :func:`float` also takes."""


def corners_arg(text: str) -> tuple[float, float, float]:
    """argparse type: ``"WxH"`` or ``"WxH:M"`` in mm -> (width, height, marker side), each finite and above 0, the
    marker side (default 50 mm, when ``:M`` is left out) less than half the shorter side.

    Raises:
        argparse.ArgumentTypeError: (exit 2) naming what is wrong: not ``WxH[:M]``; a ``:`` with no side after it
            (``643x362:``: the side is missing, not taken as 50 mm); a value too large to be a number of mm (``1e999``,
            ``inf``: named as typed); a width or height not above 0 (or NaN); a side not above 0 or not less than
            half the shorter side.
    """
    size, sep, marker = text.lower().partition(":")
    try:
        parts = size.split("x")
        if not all(_MM.fullmatch(v) for v in (*parts, *([marker] if marker.strip() else []))):
            raise ValueError(text)  # float() reads 643_0 as 6430 and full-width digits: a player types neither
        w, h = (float(v) for v in parts)
        if sep and not marker.strip():
            raise argparse.ArgumentTypeError(
                _("{text!r}: the markers' side is missing after ':': give it in mm, e.g. {example}, or leave out ':' "
                  "for markers of 50 mm").format(text=text, example=f"{size}:40"))
        m = float(marker) if sep else 50.0
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("{text!r}: give the play area as WIDTHxHEIGHT in mm, e.g. 900x600 or 900x600:40").format(text=text)
        ) from None
    for typed, value in zip((*parts, marker), (w, h, m), strict=False):
        if value == math.inf:
            raise argparse.ArgumentTypeError(
                _("{text!r}: {value} is too large to be a number of mm (it reads as infinite): give the play area as "
                  "WIDTHxHEIGHT in mm, e.g. 900x600 or 900x600:40").format(text=text, value=typed.strip()))
    if not (0 < w < math.inf and 0 < h < math.inf):  # also NaN
        raise argparse.ArgumentTypeError(
            _("{text!r}: the play area's width and height must be numbers of mm above 0, e.g. 900x600").format(
                text=text)
        )
    if not 0 < m < min(w, h) / 2:
        raise argparse.ArgumentTypeError(
            _("{text!r}: the markers' side ({marker:g} mm) must be above 0 and less than half the play area's shorter "
              "side ({half:g} mm), e.g. 900x600:40").format(text=text, marker=m, half=min(w, h) / 2)
        )
    return w, h, m
