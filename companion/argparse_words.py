"""argparse's own words (``usage:``, ``options``, its error lines) in the box's language.

argparse says them through its module's ``_`` and ``ngettext`` (the standard library's gettext, English here):
:func:`speak` points those at :mod:`companion.i18n`, and the messages below put them in our catalogs (their
``%(name)s`` fields as Python writes them; translations keep every field)."""

from __future__ import annotations

import argparse
import re
import sys
from typing import Any, NoReturn

from companion import i18n
from companion.i18n import N_, ngettext

__all__ = ["WORDS", "Parser", "speak"]

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
    N_("[options]"),
)
"""The messages argparse shows a person (its programming errors are left out)."""

PLURAL_WORDS = (ngettext("expected %s argument", "expected %s arguments", 2),)
"""argparse's plural message (the count of a ``nargs``), named here for ``pybabel extract``."""


def speak() -> None:
    """argparse speaks the current language (:func:`companion.i18n._`) from now on."""
    argparse._ = i18n._  # type: ignore[attr-defined]
    argparse.ngettext = i18n.ngettext  # type: ignore[attr-defined]


class _MissingArgument(Exception):
    """argparse found a required argument missing on a command line that also holds an unknown option."""


class SpacesOnly(argparse.HelpFormatter):
    """argparse's help layout with lines broken at spaces only: argparse's own also broke at hyphens, so a path
    (``.../tabletop-`` / ``companion/config.toml``), ``DIR/<card-id>/`` or ``--dice-profile`` came out cut in two."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        import textwrap

        return textwrap.wrap(self._whitespace_matcher.sub(" ", text).strip(), width, break_on_hyphens=False)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        import textwrap

        return textwrap.fill(self._whitespace_matcher.sub(" ", text).strip(), width, initial_indent=indent,
                             subsequent_indent=indent, break_on_hyphens=False)


class Parser(argparse.ArgumentParser):
    """An :class:`argparse.ArgumentParser` whose bad command line is two lines on stderr: the usage, and
    ``PROG: error: what`` (exit 2). A usage longer than one line (``companion run`` and ``demo`` have some forty
    options) is said short, ``usage: companion demo [options] [folder]``: the error is not lost under the options,
    which ``--help`` lists. Its subcommands' parsers are of this class too (argparse makes them of the parent's).

    A word that starts with ``-`` and a digit (``-5x3``, ``-1.5``) is a value, never an option (no option of the box
    starts so): ``--corners -5x3`` reaches the option's own check, which says what is wrong with it, instead of
    argparse's "expected one argument"."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", SpacesOnly)
        super().__init__(*args, **kwargs)
        self._negative_number_matcher = re.compile(r"^-\.?\d")  # argparse's own test for "a value, not an option"

    def short_usage(self) -> str:
        """The usage as one line: argparse's own when it fits on one, else ``usage: PROG [options] POSITIONALS``
        (``\n``-ended, in the current language)."""
        usage = self.format_usage()
        if usage.count("\n") <= 1:
            return usage
        formatter = self._get_formatter()
        positionals = formatter._format_actions_usage(self._get_positional_actions(), [])  # argparse's own forms
        words = [argparse._("usage: ") + self.prog, argparse._("[options]"), positionals]  # type: ignore[attr-defined]
        return " ".join(w for w in words if w) + "\n"

    def parse_args(self, args: Any = None, namespace: Any = None) -> argparse.Namespace:  # type: ignore[override]
        """argparse's, except that options the command does not take are refused by the command's own parser
        (``usage: companion run [options]``, ``companion run: error: unrecognized arguments: --once``), not by the
        top-level one, whose usage does not say which command refused them."""
        parsed, extra = self.parse_known_args(args, namespace)
        if extra:
            self.command_parser(parsed).error(
                argparse._("unrecognized arguments: %s") % " ".join(extra)  # type: ignore[attr-defined]
            )
        return parsed

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> tuple[argparse.Namespace, list[str]]:
        """argparse's, except that a missing (sub)command or argument is refused only when nothing else is wrong: an
        option nobody takes (``companion --versoin``, ``companion read --bogus``) is named ("unrecognized arguments:
        --bogus"), as every command does, instead of hiding behind "the following arguments are required: IMAGE"."""
        required = [a for a in self._actions if isinstance(a, argparse._SubParsersAction) and a.required]
        for action in required:
            action.required = False
        given = list(sys.argv[1:] if args is None else args)
        unknown = self._unknown_options(given)
        try:
            self._missing_first = bool(unknown)
            parsed, extra = super().parse_known_args(args, namespace)
        except _MissingArgument:  # an unknown option is the likelier mistake: it is named, not what is missing
            self.error(argparse._("unrecognized arguments: %s") % " ".join(unknown))  # type: ignore[attr-defined]
        finally:
            self._missing_first = False
            for action in required:
                action.required = True
        missing = [a for a in required if getattr(parsed, a.dest, None) is None]
        if missing and not extra:
            self.error(argparse._("the following arguments are required: %s")  # type: ignore[attr-defined]
                       % ", ".join(argparse._get_action_name(a) or "" for a in missing))
        return parsed, extra

    _missing_first = False  # while parsing a command line with an unknown option: "required" is raised, not said

    def _unknown_options(self, given: list[str]) -> list[str]:
        """The words of ``given`` that look like an option (``-x``, ``--name``, ``--name=value``) this parser does not
        take, even abbreviated; none after ``--``; a negative number is a value."""
        unknown = []
        for word in given:
            if word == "--":
                break
            if not isinstance(word, str) or len(word) < 2 or not word.startswith("-"):
                continue
            if self._negative_number_matcher.match(word) and not self._has_negative_number_optionals:
                continue
            name = word.split("=", 1)[0]
            if not any(option.startswith(name) for option in self._option_string_actions):
                unknown.append(word)
        return unknown

    def command_parser(self, parsed: argparse.Namespace) -> argparse.ArgumentParser:
        """The parser of the (sub)command ``parsed`` names (``companion enroll roll-dice``'s own), else this one."""
        for action in self._actions:
            if isinstance(action, argparse._SubParsersAction):
                chosen = action.choices.get(getattr(parsed, action.dest, None))
                if chosen is not None:
                    return chosen.command_parser(parsed) if isinstance(chosen, Parser) else chosen
        return self

    def error(self, message: str) -> NoReturn:
        """Print the short usage and ``PROG: error: MESSAGE`` to stderr, exit 2 (as argparse, in fewer lines)."""
        required = argparse._("the following arguments are required: %s").split("%s")[0]  # type: ignore[attr-defined]
        if self._missing_first and message.startswith(required):
            raise _MissingArgument(message)
        self._print_message(self.short_usage(), sys.stderr)
        self.exit(2, argparse._("%(prog)s: error: %(message)s\n") % {  # type: ignore[attr-defined]
            "prog": self.prog, "message": message})
