"""What every engine shares besides the core's data types: the event helper and the dispatch.

- :class:`EventContext`: one event being applied. It reads the payload (a missing key or a
  value of the wrong type is a :class:`rules.core.BadEvent` naming the event and, in the players'
  words, the field as the game's form labels it and what was expected: :mod:`rules.refusals`),
  checks the event's player against the table, and gathers the findings, each
  citing its rule in the one format ``"<game title>, <rulebook section>"``.
- :class:`GameBase`: ``name`` and ``title`` from the declaration (``info``), ``event_kinds``
  from the handler table, and ``apply`` that dispatches through that explicit
  ``{kind: handler}`` table (never a method name built from the kind).

A handler is ``handler(game, state, ctx) -> state``: a module function, or a method of the
engine listed in the table (``handlers = {ROLL: _on_roll, ...}`` at the end of the class body).
It returns the new state (frozen states: never mutated) and adds its findings to ``ctx``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, ClassVar

from rules import refusals
from rules.core import BadEvent, Event, Finding, GameInfo, Severity, UnknownEvent
from rules.text import Text

__all__ = ["EventContext", "GameBase", "Handler"]

_MISSING = object()


def _is(value: Any, of: type | tuple[type, ...]) -> bool:
    """``isinstance`` where a bool is not a whole number (JSON ``true`` is not ``1``)."""
    kinds = of if isinstance(of, tuple) else (of,)
    if isinstance(value, bool) and bool not in kinds:
        return False
    return isinstance(value, kinds)


class EventContext:
    """One event being applied by a game: payload reads that raise :class:`BadEvent`, the player, findings.

    Args:
        info: the game's declaration (its title starts every citation).
        event: the event being applied.
        players: the names of the players at the table, in seat order (what :meth:`player` accepts).
        words: the payload's fields in the players' words (:attr:`GameBase.field_words`), what a refusal names.

    Attributes:
        event, payload: the event and its payload.
        findings: the findings raised so far, in order (``apply`` returns them).
    """

    def __init__(self, info: GameInfo, event: Event, players: Iterable[str] = (),
                 words: Mapping[str, str] | None = None) -> None:
        self.info = info
        self.words: Mapping[str, str] = words or {}
        self.event = event
        self.payload: Mapping[str, Any] = event.payload
        self.players = tuple(players)
        self.findings: list[Finding] = []

    # -- payload -------------------------------------------------------------------------------
    def word(self, key: str) -> str:
        """The payload field ``key`` as the phone's form for this event labels it (:attr:`GameBase.field_words`:
        ``"<kind>.<key>"`` first, then ``key``); a field no form shows is named by its key, quoted."""
        return self.words.get(f"{self.event.kind}.{key}") or self.words.get(key) or repr(key)

    def bad(self, problem: str) -> BadEvent:
        """The error for a payload that cannot be applied: ``"event 7 (tile_built): <problem>"`` (raise it); its
        ``problem`` is ``<problem>`` alone, what a player is shown."""
        return BadEvent(f"event {self.event.seq} ({self.event.kind}): {problem}", problem=problem)

    def require(self, key: str, of: type | tuple[type, ...] | None = None) -> Any:
        """``payload[key]``, of type ``of`` when given (a bool is never a whole number).

        Raises:
            BadEvent: the key is missing, or its value is not of that type.
        """
        if key not in self.payload:
            raise refusals.missing(self, self.word(key))
        return self._typed(key, self.payload[key], of)

    def get(self, key: str, default: Any = None, of: type | tuple[type, ...] | None = None) -> Any:
        """``payload[key]`` when present and not null (of type ``of`` when given), else ``default``.

        Raises:
            BadEvent: present, not null, and not of that type.
        """
        value = self.payload.get(key)
        return default if value is None else self._typed(key, value, of)

    def count(self, key: str, value: Any = _MISSING, *, minimum: int = 0) -> int:
        """A whole number ``>= minimum``: ``payload[key]``, or ``value`` (then ``key`` only names it).

        Raises:
            BadEvent: missing, not a whole number, or below ``minimum``.
        """
        value = self.require(key) if value is _MISSING else value
        return refusals.whole(self, value, self.word(key), minimum)

    def _typed(self, key: str, value: Any, of: type | tuple[type, ...] | None) -> Any:
        if of is None or _is(value, of):
            return value
        raise refusals.wrong_kind(self, value, self.word(key), of)

    # -- the player ------------------------------------------------------------------------------
    def player(self, key: str = "player") -> str:
        """The player the event concerns: ``event.player``, else ``payload[key]``, checked against the table.

        Raises:
            BadEvent: no player named, or a name that is not at the table (the players listed).
        """
        name = self.event.player or self.payload.get(key)
        if name not in self.players:
            raise self.bad(Text("no player {player}; players: {players}", player=repr(name),
                                players=", ".join(self.players)))
        return name

    # -- findings --------------------------------------------------------------------------------
    def finding(
        self,
        what: str,
        where: str,
        severity: Severity,
        section: str,
        *,
        player: str | None = None,
        card: str | None = None,
        cell: tuple[int, ...] | None = None,
        fix: str | None = None,
        rule_kind: str = "",
    ) -> Finding:
        """Add (and return) a finding of this event; ``section`` is the rulebook section, cited as
        ``"<game title>, <section>"`` (:meth:`GameInfo.cite`)."""
        found = Finding(what, where, severity, self.info.cite(section), self.event.seq, player=player, card=card,
                        cell=None if cell is None else tuple(cell), fix=fix, rule_kind=rule_kind)
        self.findings.append(found)
        return found

    def add(self, *findings: Finding) -> None:
        """Add findings built elsewhere (a placement check's), already cited."""
        self.findings.extend(findings)


Handler = Callable[[Any, Any, EventContext], Any]
"""``handler(game, state, ctx) -> state``."""


class GameBase:
    """Base of an engine: ``name``/``title`` from :attr:`info`, ``event_kinds`` and ``apply`` from :attr:`handlers`.

    Subclasses declare ``info`` (:class:`rules.core.GameInfo`) and ``handlers`` (``{kind: handler}``,
    see :data:`Handler`), and may override :meth:`players` (the names at the table), :meth:`before`
    (a check before any handler, e.g. the game is over) and :meth:`after` (a check after every
    event, e.g. an end condition).
    """

    info: ClassVar[GameInfo]
    handlers: ClassVar[Mapping[str, Handler]] = {}
    field_words: ClassVar[Mapping[str, str]] = {}
    """The payload's fields as the phone's forms label them (``{key: Text}``, ``{"<kind>.<key>": Text}`` where one
    event's form labels a field its own way), so that a refusal names the field in the players' words."""

    @property
    def name(self) -> str:
        """``info.name`` (the session log stores it)."""
        return self.info.name

    @property
    def title(self) -> str:
        """``info.title``."""
        return self.info.title

    @property
    def event_kinds(self) -> frozenset[str]:
        """Every event kind :meth:`apply` handles: the keys of :attr:`handlers`."""
        return frozenset(self.handlers)

    def players(self, state: Any) -> Iterable[str]:
        """The names of the players at the table (default: ``state.players[i].name``)."""
        return tuple(p.name for p in getattr(state, "players", ()))

    def before(self, state: Any, ctx: EventContext) -> bool:
        """Called before the event's handler; False skips the handler (the state stays). Default: True."""
        return True

    def after(self, state: Any, ctx: EventContext) -> Any:
        """Called with the state after every handled event; returns the state. Default: unchanged."""
        return state

    def public(self, state: Any) -> Any:
        """``state`` as every player may see it now: what a player keeps hidden until the rules reveal it (Eclipse's
        final positions, Among the Stars' Qualeen secret objective, entered until the game is scored) left out, so
        that a standing computed from it (:meth:`rules.core.Game.scores` of the result) shows nothing hidden. Default:
        the state itself (a game whose hidden choices do not score: Race's action cards, Roll's phase selections)."""
        return state

    def apply(self, state: Any, event: Event) -> tuple[Any, list[Finding]]:
        """The state after ``event`` and the findings it raised (``state`` is not changed).

        Raises:
            UnknownEvent: no handler for ``event.kind`` (the kind and the game named).
            BadEvent: from the handler: a payload that cannot be applied.
        """
        handler = self.handlers.get(event.kind)
        if handler is None:
            raise UnknownEvent(f"event {event.seq}: game {self.name!r} has no event kind {event.kind!r}")
        ctx = EventContext(self.info, event, self.players(state), self.field_words)
        if self.before(state, ctx):
            state = self.after(handler(self, state, ctx), ctx)
        return state, ctx.findings
