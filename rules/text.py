"""What players read, written once in English and said by the box in each player's language.

``rules`` is pure (no I/O, no catalogs, never ``companion``): a finding, a score breakdown's category, a round
label or a settings refusal is a :class:`Text`, a ``str`` holding the English text (what ``--json`` prints,
what tests and other tools read) that also keeps its message template and parameters. ``companion.i18n``
says it in a player's language: the template through the gettext catalog, each parameter in turn (a
:class:`Text` parameter is said the same way, a :class:`rules.names.Term` in the language's edition's words).

Templates are marked for ``pybabel extract`` (``babel.cfg``): ``Text("...")`` and ``plural("...", "...", n)``
are extraction keywords, and so is ``in_game("Race for the Galaxy", "...")`` (a word two games share in English
but not in every language: the game is the catalog's ``msgctxt``); :func:`N_` marks a template kept in a constant
(``N_("p.3 Assign")``, said later as ``Text(section)``). Fields are Python's brace fields
(``"{player} built {tile}"``); give them names a translator understands.

Any change to the English text (an f-string, ``+``, ``", ".join``) gives a plain ``str`` that the box can only
show in English: build the whole sentence as one :class:`Text`, and a list as a :class:`Listing`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["AND", "Listing", "N_", "OR", "Text", "in_game", "plural"]


def N_(message: str) -> str:
    """``message`` unchanged: marks a template for ``pybabel extract`` where it is kept for later
    (a rulebook section, a constant said with :class:`Text`)."""
    return message


class Text(str):
    """English text that keeps its template and parameters, so the box can say it in a player's language.

    ``Text("{player} selected {phase}", player="Ann", phase=term("roll.phase", "settle"))`` is the ``str``
    ``"Ann selected Settle"``; ``companion.i18n.localize`` makes it ``"Ο/Η Ann επέλεξε Αποίκιση"`` in Greek.
    A template without parameters is not formatted (its braces are kept as written).

    Attributes:
        template: the English message (the catalog's msgid); the singular of a plural message.
        plural_template: the English plural form (the catalog's msgid_plural), or None.
        n: the count that picks the plural form, or None.
        params: the parameters, ``{field name: value}`` (values: ``str``, numbers, :class:`Text`, terms, lists).
        context: the catalog's ``msgctxt`` (:func:`in_game`), or None for the plain message.

    Raises:
        KeyError, IndexError, ValueError: the template names a field that is not given (a programming error).
    """

    template: str
    plural_template: str | None
    n: int | None
    params: Mapping[str, Any]
    context: str | None = None

    def __new__(cls, template: str, /, **params: Any) -> Text:
        return cls._make(template, None, None, params)

    @classmethod
    def _make(cls, template: str, plural_template: str | None, n: int | None, params: Mapping[str, Any]) -> Text:
        chosen = template if plural_template is None or n == 1 else plural_template
        english = chosen.format(**params) if params or plural_template is not None else chosen
        self = str.__new__(cls, english)
        self.template = str(template)
        self.plural_template = plural_template
        self.n = n
        self.params = dict(params)
        return self

    def __reduce__(self) -> tuple[Any, ...]:  # copies and pickles keep the template and parameters
        return (_rebuild, (type(self), str(self), self.template, self.plural_template, self.n, dict(self.params),
                           self.context))

    def __deepcopy__(self, memo: dict[int, Any]) -> Text:
        return self  # immutable, as a str is

    def __copy__(self) -> Text:
        return self


def in_game(game: str, template: str, /, **params: Any) -> Text:
    """A :class:`Text` whose words are the named game's own in each language: ``game`` (its English title, as
    ``"Roll for the Galaxy"``) is the catalog's ``msgctxt``. For a word two games share in English but their
    rulebooks do not in another language (Roll's and Race's "Tableau" and "developments": the Greek Roll rulebook
    says "τεχνολογίες", the Polish Race rulebook "układ kart" for a tableau of cards, not Roll's tiles). The English
    ``str`` is the template's, as :class:`Text`'s."""
    self = Text._make(template, None, None, params)
    self.context = str(game)
    return self


def plural(singular: str, plural_template: str, n: int, /, **params: Any) -> Text:
    """A :class:`Text` whose form follows the count ``n`` (``n`` is also a parameter unless given):
    ``plural("{n} good", "{n} goods", 3)`` is ``"3 goods"``; each language picks its own form (Polish has three)."""
    params.setdefault("n", n)
    return Text._make(singular, plural_template, int(n), params)


class Listing(str):
    """Items shown in a row, each said in the player's language: ``Listing(["Ann", term(...)], ", ")``.

    Attributes:
        items: the items (``str``, :class:`Text`, terms), in order.
        sep: what goes between two items (``", "``, ``"; "``, ``" + "``: the same in every language). A
            :class:`Text`, :data:`AND` or :data:`OR`, is a conjunction said in the player's language, and it goes
            between the last two items only, the others taking ``", "``: "Ann, Bob and Cy" ("Ann and Bob and Cy"
            read as three lists).
    """

    items: tuple[Any, ...]
    sep: str

    def __new__(cls, items: Iterable[Any], sep: str = ", ") -> Listing:
        items = tuple(items)
        self = str.__new__(cls, _joined(items, sep, str))
        self.items = items
        self.sep = sep
        return self

    def spoken(self, say: Any) -> str:
        """The items and separators joined, each said by ``say`` (a function of one item or separator to ``str``:
        ``str`` for the English, a catalog's for another language)."""
        return _joined(self.items, self.sep, say)

    def __reduce__(self) -> tuple[Any, ...]:
        return (Listing, (self.items, self.sep))

    def __deepcopy__(self, memo: dict[int, Any]) -> Listing:
        return self

    def __copy__(self) -> Listing:
        return self


def _joined(items: tuple[Any, ...], sep: Any, say: Any) -> str:
    """:meth:`Listing.spoken` of ``items`` and ``sep``."""
    words = [say(i) for i in items]
    between = say(sep)
    if isinstance(sep, Text) and len(words) > 2:  # a conjunction: "A, B and C"
        return between.join([", ".join(words[:-1]), words[-1]])
    return between.join(words)


AND = Text(" and ")
"""What goes between the last two items of a list read as 'all of them' (``Listing(names, AND)``: "Ann and Bob"), said
in the player's language. A constant, not ``Text(" and ")`` inside another message's call: ``pybabel extract`` does not
see a message nested in another message's parameters, so it would never reach the catalogs."""

OR = Text(" or ")
"""What goes between items of a list read as 'one of them' (``Listing(names, OR)``: "Ann or Bob"), said in the player's
language (a constant for the same reason as :data:`AND`)."""


def _rebuild(cls: type, english: str, template: str, plural_template: str | None, n: int | None,
             params: dict[str, Any], context: str | None = None) -> Text:
    self = str.__new__(cls, english)
    self.template, self.plural_template, self.n, self.params = template, plural_template, n, params
    if context is not None:
        self.context = context
    return self
