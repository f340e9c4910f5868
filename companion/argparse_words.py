"""argparse's own words (``usage:``, ``options``, its error lines) in the box's language.

argparse says them through its module's ``_`` and ``ngettext`` (the standard library's gettext, English here):
:func:`speak` points those at :mod:`companion.i18n`, and the messages below put them in our catalogs (their
``%(name)s`` fields as Python writes them; translations keep every field)."""

from __future__ import annotations

import argparse

from companion import i18n
from companion.i18n import N_, ngettext

__all__ = ["WORDS", "speak"]

WORDS = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("%(prog)s: error: %(message)s\n"),
    N_("unrecognized arguments: %s"),
    N_("not allowed with argument %s"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("invalid %(type)s value: %(value)r"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("can't open '%(filename)s': %(error)s"),
    N_("ignored explicit argument %r"),
    N_("unknown parser %(parser_name)r (choices: %(choices)s)"),
)
"""The messages argparse shows a person (its programming errors are left out)."""

PLURAL_WORDS = (ngettext("expected %s argument", "expected %s arguments", 2),)
"""argparse's plural message (the count of a ``nargs``), named here for ``pybabel extract``."""


def speak() -> None:
    """argparse speaks the current language (:func:`companion.i18n._`) from now on."""
    argparse._ = i18n._  # type: ignore[attr-defined]
    argparse.ngettext = i18n.ngettext  # type: ignore[attr-defined]
