"""Exceptions of the companion room.

Every error raised by :mod:`companion` derives from :class:`CompanionError`; each
subclass also inherits the matching builtin (``BadEntry`` is a ``ValueError``,
``SessionError`` a ``RuntimeError``) so generic handlers keep working.
Errors from the rules (``rules.BadEvent``, ``rules.UnknownEvent``, ``rules.UnknownGame``)
pass through :mod:`companion.session` unchanged.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["BadEntry", "CompanionError", "CorruptSession", "MovedOn", "SessionError", "StorageError", "UnknownSession",
           "shown"]


class CompanionError(Exception):
    """Base of every error raised by the companion room."""


class SessionError(CompanionError, RuntimeError):
    """The session log cannot do what was asked (store closed, session ended, database locked, ...).

    The message names the database file or the session and what to try next.
    """


class StorageError(SessionError):
    """The storage under the session database refused a write or a read: full, read-only, an I/O error,
    or locked by another program. Nothing of the failed write is kept; everything written before stays.

    Attributes:
        kind: ``"full"``, ``"read-only"``, ``"busy"`` or ``"failing"`` (an I/O error, anything else).
        reason: what SQLite or the OS said.
    """

    def __init__(self, message: str, kind: str = "failing", reason: str = "") -> None:
        super().__init__(message)
        self.kind = kind
        self.reason = reason or message

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""

    def __reduce__(self):  # keep pickling (multiprocessing, logging handlers) working
        return (type(self), (str(self), self.kind, self.reason))


class UnknownSession(SessionError, LookupError):
    """No session with the given id in the store; the message names the id and the file."""


def one_line(reason: str, most: int = 3) -> str:
    """What SQLite said about a file, on one line: its first ``most`` lines joined by "; " (and "…" when it said
    more). SQLite's ``quick_check`` lists every broken cell of a damaged page on a line of its own, under a
    ``*** in database main ***`` heading; a command says a damaged file in one line. A reason of one line is
    returned as it is (a :class:`~companion.i18n.Text` stays one, said in the players' language)."""
    if "\n" not in reason and "\r" not in reason:
        return reason
    lines = [line.strip() for line in reason.splitlines()]
    lines = [line for line in lines if line and not (line.startswith("***") and line.endswith("***"))]
    return "; ".join(lines[:most]) + ("; …" if len(lines) > most else "")


class CorruptSession(SessionError):
    """The session database file is not a SQLite database, is damaged, or belongs to something else.

    The file is never changed by the error. ``SessionStore.open_or_recover`` keeps it,
    renamed to ``<name>.corrupt-<UTC time>``, and starts a new database in its place.

    Attributes:
        path: the damaged file.
        reason: what SQLite (or the schema check) said about it, on one line (:func:`one_line`).
    """

    def __init__(self, path: Path | str, reason: str) -> None:
        self.path = Path(path)
        self.reason = reason = one_line(reason)
        from companion.i18n import Text

        super().__init__(Text(
            "session database {path} is damaged or not a session log ({reason}). The file was left as it is; "
            "`companion run` and `companion demo` keep it as '{name}.corrupt-<time>' beside it and start a new, "
            "empty log.", path=str(self.path), reason=reason, name=self.path.name))

    def __reduce__(self):  # keep pickling (multiprocessing, logging handlers) working
        return (type(self), (self.path, self.reason))


class NotASessionDatabase(CorruptSession):
    """The file is not a session database at all: not SQLite (its header is not ``SQLite format 3\\0``),
    or a SQLite database of another program. It is never renamed or changed, also not by
    ``SessionStore.open_or_recover``: it may be a file of the owner's that ``--db`` named by mistake.

    Its message is said for a file named with ``--db``; :meth:`said_for` words it for the demo's or the box's own
    game record (no ``--db``), where pointing ``--db`` elsewhere is not what to do.
    """

    def __init__(self, path: Path | str, reason: str) -> None:
        self.path = Path(path)
        self.reason = reason
        SessionError.__init__(self, self.said_for(None))

    def said_for(self, whose: str | None) -> str:
        """The refusal in the players' words (a :class:`companion.i18n.Text`), naming the path and what to do.

        Args:
            whose: None: the file was named with ``--db`` (check that it names the file meant; a new name starts a
                new record); ``"demo"`` or ``"box"``: the demo's or the box's own game record, which nobody named:
                move it away (the command to do so, quoted for the shell), and a new record is started there.
        """
        import shlex

        from companion.i18n import Text

        if whose is None:
            return Text("{path} is not a game record ({reason}); it was left untouched: check that --db names the "
                        "file you meant (a name that does not exist yet starts a new record)", path=str(self.path),
                        reason=self.reason)
        move = f"mv {shlex.quote(str(self.path))} {shlex.quote(str(self.path) + '.bad')}"
        if whose == "demo":
            return Text("{path} is where the demo keeps its games, but it is not a game record ({reason}); it was "
                        "left untouched: move it away ({move}) and the demo starts a new record there",
                        path=str(self.path), reason=self.reason, move=move)
        return Text("{path} is where the box keeps its games, but it is not a game record ({reason}); it was left "
                    "untouched: move it away ({move}) and the box starts a new record there", path=str(self.path),
                    reason=self.reason, move=move)


class BadEntry(CompanionError, ValueError):
    """An impossible entry from a player (touchscreen, phone, CLI), e.g. a d6 value of 7.

    Raised before anything is recorded; the message says what was wrong and what is allowed.
    """


class MovedOn(BadEntry):
    """A well-formed entry the table has moved past (a phone answers 409, not 400): a report on a form closed now (the
    phase it belongs to is over, the game is scored), or a report withdrawn once its form closed (a selection after
    Reveal). Raised before anything is recorded; the message says why, as a :class:`BadEntry`'s does."""


def shown(value: object, limit: int = 40) -> str:
    """``value`` as an error message quotes it: its ``repr`` cut to ``limit`` characters (``...`` marks the
    cut), safe for anything a phone may send (a 5,000-digit number, a lone surrogate, a huge list). ``true``,
    ``false`` and ``null`` are spelt as the JSON (or TOML) the player wrote them, not as Python's ``True``."""
    if value is None or isinstance(value, bool):
        return "null" if value is None else str(value).lower()
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10 ** 18:
        from companion.i18n import Text

        return Text("a number of more than 18 digits")  # said in the player's language, as the message around it
    if isinstance(value, str):
        text = repr(value[: limit + 1])
    elif isinstance(value, (list, tuple, dict, set)) and len(value) > limit:
        text = f"a {type(value).__name__} of {len(value)} items"
    else:
        try:
            text = repr(value)
        except (ValueError, RecursionError):  # a nested huge number, a deeply nested list
            text = f"a {type(value).__name__}"
    return text if len(text) <= limit else text[: limit - 3] + "..."
