"""Exceptions of the device room (camera sources, GPIO).

Every error raised by :mod:`device` derives from :class:`DeviceError`; each subclass
also derives from the matching builtin, so generic handlers keep working
(``except FileNotFoundError`` catches :class:`CameraNotFound`, ``except EOFError``
catches :class:`EndOfStream`).

Messages are meant for the person at the table: each names the source
(``"opencv:0"``, ``"replay:/home/pi/photos"``) and what to try next. An error made with
:meth:`DeviceError.said` keeps its English template (marked with :func:`N_` for ``pybabel extract``; the
template is the error's stable code) and parameters, so ``companion`` says it in the player's language
(``companion.i18n.message_of``); ``device`` never imports ``companion``. A parameter may be another
:class:`DeviceError` made with :meth:`~DeviceError.said` (the Pi camera's and the webcam's reasons in "no
camera found (auto)"): it is said in the same language. ``demo_hint=True`` ends the message with
:data:`DEMO_HINT` (its own template, :data:`WITH_DEMO_HINT`), which :meth:`~DeviceError.without_demo_hint`
leaves out where another message says it once for all.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

__all__ = [
    "N_",
    "Words",
    "DeviceError",
    "CameraNotFound",
    "CameraBusy",
    "CameraDisconnected",
    "EndOfStream",
    "BadImage",
    "UnknownSourceSpec",
    "GPIOUnavailable",
    "one_demo_hint",
    "told_players",
    "english",
    "reason_of",
]

def N_(message: str) -> str:
    """``message`` unchanged: marks a message template for ``pybabel extract`` (``companion`` translates it)."""
    return message


class Words(str):
    """A short phrase marked with :func:`N_` (a camera's kind: ``"demo replay"``, ``"Pi camera"``) given as a
    message's parameter: its value is the English, and ``companion`` says it in the player's language (a plain
    ``str`` parameter is said as it is). A camera names itself to players with one (:attr:`CameraSource.label`),
    never by its folder or device path."""

    __slots__ = ()


DEMO_HINT = "or run `companion demo` to replay photos"
"""The fallback every camera message ends with: the demo needs no camera."""

WITH_DEMO_HINT = N_("{problem}, or run `companion demo` to replay photos")
"""A camera message (``problem``) followed by :data:`DEMO_HINT` (``DeviceError.said(..., demo_hint=True)``)."""


def one_demo_hint(message: str) -> str:
    """``message`` with "run `companion demo` to replay photos" said once: a message made of several sources'
    errors (``auto`` tries the Pi camera, then the webcam) has each one's :data:`DEMO_HINT`; only the last is kept."""
    import re

    text = DEMO_HINT.removeprefix("or ")
    count = message.count(text)
    if count <= 1:
        return message
    return re.sub(r",?\s*(or )?" + re.escape(text), "", message, count=count - 1)


def english(template: str, params: Mapping[str, object], hint: str | None = None) -> str:
    """The English of a message made with :meth:`DeviceError.said`: ``template`` with ``params`` (an operating
    system's refusal by its reason, ``"No such file or directory"``: kept whole in ``params``, so a player's language
    says it in its own words, ``companion.i18n.text_of``), inside ``hint`` (``{problem}``) when given.

    Raises:
        KeyError, IndexError, ValueError: ``template`` does not fit ``params`` (``str.format``'s own).
    """
    said = template.format(**{k: (v.strerror or str(v)) if isinstance(v, OSError) and v.strerror else v
                              for k, v in params.items()})
    return hint.format(problem=said) if hint is not None else said


class DeviceError(Exception):
    """Base of every error raised by the device room.

    Attributes:
        template: the English message template (a :func:`N_` string) when made with :meth:`said`, else None.
        params: its parameters (``str``, numbers, a :class:`DeviceError` made with :meth:`said`, or the
            :class:`OSError` the system raised), ``{}`` without a template.
        hint: :data:`WITH_DEMO_HINT` when the message ends with :data:`DEMO_HINT`, else None.
    """

    template: str | None = None
    params: dict[str, object] = {}  # noqa: RUF012 - never mutated: said() gives each error its own
    hint: str | None = None

    @classmethod
    def said(cls, template: str, /, *, demo_hint: bool = False, **params: object) -> DeviceError:
        """The error whose message is ``template.format(**params)`` (with ``demo_hint``: followed by ", " and
        :data:`DEMO_HINT`), keeping the template and parameters to be said in another language."""
        message = english(template, params, WITH_DEMO_HINT if demo_hint else None)
        error = cls(message, **cls._made_with(params))
        error.template, error.params = template, dict(params)
        error.hint = WITH_DEMO_HINT if demo_hint else None
        return error

    @classmethod
    def _made_with(cls, params: dict[str, object]) -> dict[str, object]:
        """The constructor's arguments besides the message, from :meth:`said`'s parameters."""
        return {}

    def without_demo_hint(self) -> DeviceError:
        """The same error without :data:`DEMO_HINT` at its end (itself when it has none or no template): for a
        message that quotes it and says the hint once."""
        if self.template is None or self.hint is None:
            return self
        return type(self).said(self.template, **self.params)


def reason_of(exc: BaseException) -> object:
    """Why ``exc`` happened, as a :meth:`DeviceError.said` parameter: the operating system's refusal in its chain (an
    :class:`OSError` with an ``errno``, e.g. libcamera's "Device or resource busy" under its own error), kept whole
    so ``companion`` says its reason in the player's words (``companion.i18n.os_reason``), never the system's English
    ``strerror``; else the error's own words (``str(exc)``, or its type's name)."""
    seen: set[int] = set()
    link: BaseException | None = exc
    while link is not None and id(link) not in seen:
        seen.add(id(link))
        if isinstance(link, OSError) and isinstance(link.errno, int) and getattr(link, "template", None) is None:
            return link
        link = link.__cause__ or link.__context__
    return str(exc) or type(exc).__name__


_NAMING = frozenset({"name", "path", "folder", "device"})
"""The parameters of the sources' messages that name a source by its name, folder or device path."""


def told_players(error: DeviceError, label: Words) -> DeviceError:
    """``error`` (made with :meth:`DeviceError.said`) as players are told it: the source named by its kind
    (``label``, e.g. ``"photo replay"``) where the message names it by its name, folder or device path, an image
    file by its file name alone (never its folder), the same for an error quoted in it. ``error`` itself when it
    has no template."""
    if error.template is None:
        return error
    params: dict[str, object] = {}
    for key, value in error.params.items():
        if isinstance(value, DeviceError):
            value = told_players(value, label)
        elif key == "path" and isinstance(error, BadImage) and error.path is not None and "name" not in error.params:
            value = Path(str(value)).name  # one photo of a replay: its file name says which
        elif key in _NAMING:
            value = label
        params[key] = value
    return type(error).said(error.template, demo_hint=error.hint is not None, **params)


class CameraNotFound(DeviceError, FileNotFoundError):
    """No camera (or replay folder / video file) where the source looked.

    Raised by :meth:`device.camera.CameraSource.open`.
    """


class CameraBusy(DeviceError, RuntimeError):
    """The camera exists but another program holds it (or it refused to start streaming).

    Raised by :meth:`device.camera.CameraSource.open`.
    """


class CameraDisconnected(DeviceError, ConnectionError):
    """The camera stopped delivering frames mid-game (cable pulled, power dip, driver crash).

    Raised by :meth:`device.camera.CameraSource.read`; close and reopen the source to retry.
    """


class EndOfStream(DeviceError, EOFError):
    """A replay (folder of photos or video file) has delivered its last frame.

    Raised by :meth:`device.camera.CameraSource.read`; iteration over a source stops on it.
    """


class BadImage(DeviceError, ValueError):
    """An image or video file could not be decoded; the message and :attr:`path` name the file."""

    def __init__(self, message: str, path: str | None = None) -> None:
        super().__init__(message)
        self.path = path
        """The unreadable file (str), or None when the error is about a whole folder."""

    @classmethod
    def _made_with(cls, params: dict[str, object]) -> dict[str, object]:
        """:meth:`DeviceError.said` for a file: ``params["path"]`` is also :attr:`path`."""
        return {"path": str(params["path"]) if "path" in params else None}


class UnknownSourceSpec(DeviceError, ValueError):
    """:func:`device.open_source` was given a spec it does not understand; the message lists the accepted forms."""


class GPIOUnavailable(DeviceError, RuntimeError):
    """No gpiozero pin factory works on this machine (a dev PC, or the Pi without ``python3-lgpio``)."""
