"""Exceptions of the vision room.

Every error raised by :mod:`vision` derives from :class:`VisionError`; errors about
the caller's input also derive from the matching builtin (``BadFrame`` is a
``ValueError``) so generic handlers keep working. An error made with :meth:`VisionError.said` keeps its
English template (marked with :func:`N_` for ``pybabel extract``) and parameters, so ``companion`` says it in
the player's language (``companion.i18n.message_of``).
"""

from __future__ import annotations


def N_(message: str) -> str:
    """``message`` unchanged: marks a message template for ``pybabel extract`` (``companion`` translates it)."""
    return message


class VisionError(Exception):
    """Base of every error raised by the vision room (missing model, bad frame, ...).

    Attributes:
        template: the English message template (a :func:`N_` string) when made with :meth:`said`, else None.
        params: its parameters (``str`` and numbers), ``{}`` without a template.
    """

    template: str | None = None
    params: dict[str, object] = {}  # noqa: RUF012 - never mutated: said() gives each error its own

    @classmethod
    def said(cls, template: str, /, **params: object) -> VisionError:
        """The error whose message is ``template.format(**params)``, keeping both to be said in another
        language (for a subclass whose constructor takes the message alone)."""
        error = cls(template.format(**params))
        error.template, error.params = template, dict(params)
        return error


class BadFrame(VisionError, ValueError):
    """The frame is not a non-empty ``uint8[H, W, 3]`` BGR image; the message names the problem."""
