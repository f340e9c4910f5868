"""The one settings check every game uses: a session's settings against the game's declaration.

A game declares its player range and its options once (:class:`rules.core.GameInfo`,
:class:`rules.core.Option`); :func:`check_settings` reads a session's settings (what
``companion run|demo`` and the setup step record, what ``SessionStore.start`` passes to
``initial_state``) and returns them checked and normalised, or raises
:class:`rules.core.BadSettings` naming the problem. Keys a game does not declare (the
companion's ``seats``, ``zones``, ``seat_points``, d6's ``source``) are left alone.

Settings shape::

    {"players": ["Ann", "Bob"] | [{"name": "Ann", "race": "Sheptas"}, ...],
     "<option name>": value, ...}

A per-player option may be given inside each player's entry (under ``Option.player_key``), as a
list in seat order, or as ``{player: value}``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from types import MappingProxyType
from typing import Any

from rules.core import BadSettings, GameInfo, Option
from rules.scoring import closest_names
from rules.text import AND, Listing, Text, plural

__all__ = ["Settings", "check_entries", "check_settings", "components_conflict", "match_choice"]


@dataclass(frozen=True)
class Settings:
    """Settings after :func:`check_settings`: the player names in seat order and every declared option.

    ``options`` holds each declared option's value (its default when not given): ``bool``, ``int``,
    a choice as spelt in ``Option.choices`` (or None), or a tuple of choices (per-player options: one
    entry per seat, ``""`` for none).
    """

    players: tuple[str, ...]
    options: Mapping[str, Any] = field(default_factory=dict)

    def __getitem__(self, name: str) -> Any:
        """The value of the option called ``name`` (KeyError when the game declares none)."""
        return self.options[name]

    def for_player(self, name: str, player: str) -> str:
        """A per-player option's entry for ``player`` (``""``: none)."""
        return dict(zip(self.players, self.options[name], strict=False)).get(player, "")


def _norm(text: str) -> str:
    """Case, spaces and punctuation folded: ``"Garrn Athak Nok"`` and ``"garrn_athak_nok"`` match."""
    return " ".join("".join(ch if ch.isalnum() else " " for ch in text.casefold()).split())


def match_choice(option: Option, value: Any, title: str) -> str:
    """``value`` as one of ``option.choices`` (spelt as declared).

    Raises:
        BadSettings: not a string, or no choice matches (with the closest choices).
    """
    if isinstance(value, str):
        folded = _norm(value)
        for choice in option.choices:
            if _norm(choice) == folded:
                return choice
    hint = closest_names(str(value), option.choices) if isinstance(value, str) else []
    if hint:
        raise BadSettings(Text("{title} settings: {option} must be one of {choices}, got {value!r}; did you mean "
                               "{hint}?",
                               title=title, option=option.what, choices=Listing(option.choices), value=value,
                               hint=Listing((repr(h) for h in hint), " / ")))
    raise BadSettings(Text("{title} settings: {option} must be one of {choices}, got {value!r}", title=title,
                           option=option.what, choices=Listing(option.choices), value=value))


def components_conflict(values: Sequence[str], components: Sequence[Sequence[str]]) -> tuple[tuple[str, ...],
                                                                                             int] | None:
    """Whether the players' entries fit on components of their own (:attr:`rules.core.Option.components`).

    Each entry (``""``: none) needs a component carrying it, and one component serves one player: a
    bipartite matching of entries to components. An entry on no listed component is a component of its own.

    Returns:
        None when they fit; else the fewest entries that cannot (in the order given) and how many components
        carry them (fewer than the entries), e.g. ``(("Terran Directorate", "Eridani Empire"), 1)``.
    """
    chosen = [v for v in values if v]
    own: dict[str, int] = {}  # an entry on no listed component: a component of its own
    carriers = [[k for k, sides in enumerate(components) if v in sides] or [own.setdefault(v,
                                                                                           len(components) + len(own))]
                for v in chosen]
    match: dict[int, int] = {}

    def seat(i: int, seen: set[int]) -> bool:
        for board in carriers[i]:
            if board not in seen:
                seen.add(board)
                if board not in match or seat(match[board], seen):
                    match[board] = i
                    return True
        return False

    if all(seat(i, set()) for i in range(len(chosen))):
        return None
    for size in range(2, len(chosen) + 1):  # Hall's condition: the smallest set of entries on too few components
        for group in combinations(range(len(chosen)), size):
            covered = {b for i in group for b in carriers[i]}
            if len(covered) < size:
                return tuple(chosen[i] for i in group), len(covered)
    return tuple(chosen), len({b for c in carriers for b in c})  # pragma: no cover - a failed matching breaks Hall


def _names(info: GameInfo, raw: Any) -> tuple[tuple[str, ...], list[Mapping[str, Any]]]:
    """Player names and entries (``{"name", ...}``) from ``settings["players"]``."""
    high = info.players[1]
    if raw is None and high == 0:
        return (), []
    if not isinstance(raw, (list, tuple)):
        raise BadSettings(Text("{title} settings need 'players': a list of {range} names, got {value!r}",
                               title=info.title, range=info.player_range, value=raw))
    names: list[str] = []
    entries: list[Mapping[str, Any]] = []
    for entry in raw:
        if isinstance(entry, Mapping):
            name = entry.get("name")
        else:
            name, entry = entry, {"name": entry}
        if not isinstance(name, str) or not name.strip():
            raise BadSettings(Text("{title} settings: each player is a name (or {{\"name\": ...}}), got {value!r}",
                                   title=info.title, value=name))
        names.append(name)
        entries.append(entry)
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise BadSettings(Text("{title} settings: player names must differ, got {names} twice", title=info.title,
                               names=Listing(repr(n) for n in twice)))
    if high == 0:  # a game that keeps no players (d6): the names are kept for the session, not counted
        return tuple(names), entries
    info.check_player_count(len(names))
    return tuple(names), entries


def _per_player(info: GameInfo, option: Option, settings: Mapping[str, Any], names: Sequence[str],
                entries: Sequence[Mapping[str, Any]]) -> tuple[str, ...] | None:
    """A per-player option's raw entries in seat order (None: not given)."""
    inside = option.player_key is not None and any(option.player_key in e for e in entries)
    given = settings.get(option.name)
    if inside and given is not None:
        raise BadSettings(Text("{title} settings: give {option} either in the players' entries ('{key}') or as "
                               "'{name}', not both", title=info.title, option=option.what, key=option.player_key,
                               name=option.name))
    if inside:
        return tuple(e.get(option.player_key) for e in entries)
    if given is None:
        return None
    if isinstance(given, Mapping):
        unknown = [str(k) for k in given if k not in names]
        if unknown:
            raise BadSettings(Text("{title} settings: {option} names no player {player!r}; players: {players}",
                                   title=info.title, option=option.what, player=unknown[0], players=Listing(names)))
        return tuple(given.get(n) for n in names)
    if not isinstance(given, (list, tuple)):
        raise BadSettings(Text("{title} settings: {option} must be a list (one per player, in seat order), got "
                               "{value!r}",
                               title=info.title, option=option.what, value=given))
    if len(given) != len(names):
        raise BadSettings(_entries_not_one_each(info, option, len(given), len(names)))
    return tuple(given)


def _entries_not_one_each(info: GameInfo, option: Option, given: int, players: int) -> Text:
    """The refusal of a per-player option given as a list of ``given`` entries for ``players`` players: one entry per
    player, in seat order, and the rule the option's help cites (Among the Stars rulebook, 3 Setup: each player takes
    a race tile; Eclipse setup: each player chooses a species)."""
    if option.help:
        return plural("{title} settings: {option}: {n} player needs one, in seat order; got {given}. The rule: {rule}",
                      "{title} settings: {option}: {n} players need one each, in seat order; got {given}. The rule: "
                      "{rule}", players, title=info.title, option=option.what, given=given, rule=option.help)
    return plural("{title} settings: {option}: {n} player needs one, in seat order; got {given}",
                  "{title} settings: {option}: {n} players need one each, in seat order; got {given}",
                  players, title=info.title, option=option.what, given=given)


def _value(info: GameInfo, option: Option, raw: Any, players: int) -> Any:
    """One option's value, checked and normalised."""
    if option.kind == "bool":
        if not isinstance(raw, bool):
            raise BadSettings(Text("{title} settings: {option} must be true or false, got {value!r}", title=info.title,
                                   option=option.what, value=raw))
        return raw
    if option.kind == "int":
        if not isinstance(raw, int) or isinstance(raw, bool):
            raise BadSettings(Text("{title} settings: {option} must be a whole number, got {value!r}", title=info.title,
                                   option=option.what, value=raw))
        if ((option.minimum is not None and raw < option.minimum)
                or (option.maximum is not None and raw > option.maximum)):
            raise BadSettings(Text("{title} settings: {option} must be {low}-{high}, got {value}", title=info.title,
                                   option=option.what, low=option.minimum, high=option.maximum, value=raw))
        return raw
    if option.kind == "choice":
        return None if raw is None else match_choice(option, raw, info.title)
    if isinstance(raw, str) or not isinstance(raw, (list, tuple)):
        raise BadSettings(Text("{title} settings: {option} must be a list of names, got {value!r}", title=info.title,
                               option=option.what, value=raw))
    values = tuple("" if (option.per_player and v in (None, "")) else match_choice(option, v, info.title) for v in raw)
    chosen = [v for v in values if v]
    if not option.per_player and len(set(chosen)) != len(chosen):
        twice = next(v for v in chosen if chosen.count(v) > 1)
        raise BadSettings(Text("{title} settings: {value!r} is listed twice in {option}", title=info.title, value=twice,
                               option=option.what))
    count = len(chosen)
    if ((option.minimum is not None and count < option.minimum)
            or (option.maximum is not None and count > option.maximum)):
        low = option.minimum if option.minimum is not None else 0
        high = option.maximum if option.maximum is not None else "any"
        raise BadSettings(Text("{title} settings: {option} takes {low}-{high} entries, got {count}", title=info.title,
                               option=option.what, low=low, high=high, count=count))
    return values


def check_entries(info: GameInfo, option: Option, raw: Sequence[Any]) -> tuple[str, ...]:
    """A per-player option's entries in seat order (None or "" for none), checked alone: each one of the choices,
    and together they fit the components they are printed on (Eclipse's double-sided boards) or are distinct.
    The setup step checks a player's pick with it before the other players have chosen.

    Raises:
        BadSettings: an unknown entry (the closest names), or entries that cannot go together
            (``option.distinct``'s sentence).
    """
    value = _value(info, option, raw, len(raw))
    if option.components:
        conflict = components_conflict(value, option.components)
        if conflict is not None:
            if option.components_refusal is not None:
                unfit = set(conflict[0])  # every player on those entries, not only the fewest that cannot fit
                raise BadSettings(option.components_refusal(tuple(v for v in value if v in unfit), conflict[1]))
            raise BadSettings(Text(option.distinct, value=Listing(conflict[0], AND),
                                   components=conflict[1]))
    elif option.distinct:
        chosen = [v for v in value if v]
        twice = next((v for v in chosen if chosen.count(v) > 1), None)
        if twice is not None:
            raise BadSettings(Text(option.distinct, value=twice))
    return value


def check_settings(info: GameInfo, settings: Mapping[str, Any]) -> Settings:
    """``settings`` checked against ``info``: player count, names, every declared option's value.

    Checked: ``players`` is a list of distinct non-empty names (or ``{"name", ...}`` entries), as many as
    ``info.players`` allows (a game for no players, d6, takes none); each option has its kind and an
    allowed value (choices matched ignoring case and punctuation, with the closest names when none
    matches); a per-player option has one entry per player; an option restricted to some player
    counts is not set with another; a ``distinct`` option gives no two players the same entry.

    Raises:
        BadSettings: naming the setting and what is allowed, e.g. ``"Roll for the Galaxy is for 2-5
            players, got 6"``, ``"Roll for the Galaxy settings: 'tracking' must be one of full, tableau,
            got 'dice'"``, ``"the advanced game is for 2 players, not 3"``.
    """
    if not isinstance(settings, Mapping):
        raise BadSettings(Text("{title} settings must be a JSON object, got {kind}", title=info.title,
                               kind=type(settings).__name__))
    names, entries = _names(info, settings.get("players"))
    options: dict[str, Any] = {}
    for option in info.options:
        if option.per_player:
            raw = _per_player(info, option, settings, names, entries)
            value = ("",) * len(names) if raw is None else check_entries(info, option, raw)
        else:
            raw = settings.get(option.name)
            value = option.default if raw is None else _value(info, option, raw, len(names))
        if option.players is not None and value != option.default and value != ("",) * len(names):
            low, high = option.players
            if not low <= len(names) <= high:
                counts = str(low) if low == high else f"{low}-{high}"
                raise BadSettings(Text("{option} is for {counts} players, not {count}",
                                       option=option.what, counts=counts,
                                       count=len(names)))
        options[option.name] = value
    return Settings(players=names, options=MappingProxyType(options))
