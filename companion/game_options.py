"""The game options on the command line (``companion run|demo --game G --races ...``), made from the declarations.

Every option a game offers (``game.info.options`` with ``offered``: :class:`rules.Option`) is a flag of
``companion run`` and ``companion demo``; nothing here names a game or an option:

- ``bool``: ``--name`` (``_`` becomes ``-``) sets it; an option that is on by default is ``--no-name``;
- ``int``: ``--name N``; ``choice``: ``--name NAME``;
- ``choices``: ``--name "A,B"`` (names separated by commas; a per-player option in seat order, an empty
  entry for a player without one: ``--races "Sheptas,"``).

Its help is the option's own (``Option.help``) after the games that take it (``with --game among: ...``);
its value is checked by the game (:func:`rules.settings.check_settings`, through the flow's ``settings``).
A flag given with a game that does not declare it is refused by :func:`misplaced` (exit 2).
Two games may declare an option of the same name (one flag, both helps) only with the same kind.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.i18n import AND, OR, Listing, Text, _, say
from rules import GameInfo, Option

__all__ = [
    "GameFlag",
    "add_game_flags",
    "and_list",
    "flows_infos",
    "game_flags",
    "given_flags",
    "given_options",
    "misplaced",
    "or_list",
]


def or_list(words: Sequence[str]) -> str:
    """``"roll, race or among"``, said now in the current language (``"roll, race ή among"`` in Greek)."""
    return _said_list(words, OR)


def and_list(words: Sequence[str]) -> str:
    """``"--races, --objectives and --aggressive"``, said now in the current language."""
    return _said_list(words, AND)


def _said_list(words: Sequence[str], last: Text) -> str:
    """``words`` joined by ``", "``, the last two by ``last`` (:data:`~companion.i18n.OR` or ``AND``) said now."""
    words = [str(w) for w in words]
    joined = ", ".join(words[:-1])
    return say(Listing([joined, words[-1]], last)) if len(words) > 1 else "".join(words)


@dataclass(frozen=True)
class GameFlag:
    """One command-line flag for the options of one name, declared by one or more games.

    Attributes:
        option: the first game's declaration (every game's has the same kind).
        helps: ``(game name, Option)`` for each game that offers it, in the games' order.
    """

    option: Option
    helps: tuple[tuple[str, Option], ...]

    @property
    def games(self) -> tuple[str, ...]:
        """The games that take it."""
        return tuple(game for game, _ in self.helps)

    @property
    def negated(self) -> bool:
        """A bool option on by default: the flag turns it off (``--no-name``)."""
        return self.option.kind == "bool" and bool(self.option.default)

    @property
    def flag(self) -> str:
        """``--name``, or ``--no-name`` for an option on by default."""
        return "--no-" + self.option.flag[2:] if self.negated else self.option.flag

    @property
    def dest(self) -> str:
        """The argparse attribute that holds it (``option_races``)."""
        return "option_" + self.option.name

    def help(self) -> str:
        """``with --game among: <Option.help>`` (each game's own help when they differ), plus how to write it."""
        parts: list[str] = []
        o = self.option
        for help_text, games in _grouped(self.helps):
            if self.negated:  # the flag turns it off: say so first, and what the default does after
                # the option's label in the help's language, as its help is (a Text formatted into a str is English)
                help_text = _("turn off {option} (on by default: {help})").format(
                    option=say(o.label) if o.label else o.name, help=help_text)
            parts.append(_("with --game {games}: {help}").format(games="|".join(games), help=help_text))
        text = "; ".join(parts)
        if o.kind == "choices":
            example = ",".join(o.choices[:2])
            text += " " + (
                _('(separated by commas, e.g. "{example}"; an empty entry: none; the names: {choices})')
                if o.per_player
                else _('(separated by commas, e.g. "{example}"; the names: {choices})')
            ).format(example=example, choices=", ".join(o.choices))
        elif o.kind == "choice" and o.choices:
            text += " " + _("(one of {choices})").format(choices=", ".join(o.choices))
        elif o.kind == "int" and o.minimum is not None and o.maximum is not None:
            text += f" ({o.minimum}-{o.maximum})"
        return text.replace("%", "%%")  # argparse formats help with %

    def value(self, given: Any) -> Any:
        """The option's value from what argparse holds (None: not given)."""
        o = self.option
        if given is None:
            return None
        if o.kind == "bool":
            return not o.default
        if o.kind == "choices":
            entries = [entry.strip() for entry in str(given).split(",")]
            return entries if o.per_player else [e for e in entries if e]
        return given


def _grouped(helps: Sequence[tuple[str, Option]]) -> list[tuple[str, list[str]]]:
    """The helps in order, each once, with the games that share it."""
    out: list[tuple[str, list[str]]] = []
    for game, option in helps:
        said = say(option.help)
        if option.players is not None:
            low, high = option.players
            said = _("{help} (for {count} players)").format(help=said, count=low if low == high else f"{low}-{high}")
        for text, games in out:
            if text == said:
                games.append(game)
                break
        else:
            out.append((said, [game]))
    return out


def game_flags(infos: Iterable[GameInfo]) -> list[GameFlag]:
    """One :class:`GameFlag` per option name offered by any of the games, in the order first declared.

    Raises:
        ValueError: two games declare an option of one name with different kinds (one flag cannot be both).
    """
    flags: dict[str, GameFlag] = {}
    for info in infos:
        for option in info.options:
            if not option.offered:
                continue
            known = flags.get(option.name)
            if known is None:
                flags[option.name] = GameFlag(option, ((info.name, option),))
                continue
            first = known.option
            if (first.kind, first.per_player, bool(first.default) if first.kind == "bool" else None) != (
                    option.kind, option.per_player, bool(option.default) if option.kind == "bool" else None):
                raise ValueError(f"option {option.name!r}: {known.games[0]} declares a {first.kind} option, "
                                 f"{info.name} another kind; one flag cannot take both (rename one)")
            flags[option.name] = GameFlag(first, (*known.helps, (info.name, option)))
    return list(flags.values())


def add_game_flags(parser: argparse.ArgumentParser, infos: Iterable[GameInfo]) -> None:
    """Add a flag for every option the games offer (see the module doc)."""
    for f in game_flags(infos):
        o = f.option
        if o.kind == "bool":
            parser.add_argument(f.flag, dest=f.dest, action="store_const", const=True, default=None, help=f.help())
        else:
            metavar = {"int": "N", "choice": "NAME", "choices": "NAME,NAME"}[o.kind]
            parser.add_argument(f.flag, dest=f.dest, type=int if o.kind == "int" else str, default=None,
                                metavar=metavar, help=f.help())


def given_flags(args: argparse.Namespace, infos: Iterable[GameInfo]) -> list[str]:
    """The option flags given on this command line, in declaration order (``["--races", "--aggressive"]``)."""
    return [f.flag for f in game_flags(infos) if getattr(args, f.dest, None) is not None]


def misplaced(args: argparse.Namespace, infos: Iterable[GameInfo], game: str | None) -> list[str]:
    """The option flags given that ``game`` does not take (all of them when ``game`` is None: no game flow)."""
    return [f.flag for f in game_flags(infos) if getattr(args, f.dest, None) is not None and game not in f.games]


def given_options(args: argparse.Namespace, info: GameInfo) -> dict[str, Any]:
    """The options of ``info`` given on this command line, as a flow's ``settings(seats, options)`` takes them:
    ``{option name: value}``, only those given (``{"aggressive": True, "races": ["Sheptas", ""]}``)."""
    out: dict[str, Any] = {}
    for f in game_flags([info]):
        value = f.value(getattr(args, f.dest, None))
        if value is not None:
            out[f.option.name] = value
    return out


def flows_infos(flows: Mapping[str, Any]) -> list[GameInfo]:
    """The declarations of the games with a flow (``companion.flows.FLOWS``), in its order."""
    return [spec.info for spec in flows.values()]
