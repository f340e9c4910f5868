"""The box's gettext catalogs as the tests read them: one reader for every test that looks at the words.

``companion/locale/LANG/LC_MESSAGES/companion.po`` (Greek, Polish, Hungarian) and the template
``companion/locale/companion.pot`` are parsed with Babel's ``read_po``, once per process (the parsed catalogs
are shared: a test must not change them). A malformed entry (a ``msgid`` without its ``msgstr``, as a hand edit
can leave one) fails every test that reads the catalogs, instead of Babel warning and skipping it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po

from companion import i18n

TRANSLATED = ("el", "pl", "hu")
"""The languages with a catalog of their own (English is the messages themselves)."""


def po_path(lang: str) -> Path:
    """The ``.po`` file of ``lang`` (``"el"``, ``"pl"``, ``"hu"``), whether or not it exists."""
    return i18n.LOCALE_DIR / lang / "LC_MESSAGES" / f"{i18n.DOMAIN}.po"


@functools.cache
def catalog(lang: str) -> Catalog:
    """The parsed catalog of ``lang``, with that language's plural forms.

    Raises FileNotFoundError when the language has no catalog (English has none)."""
    with po_path(lang).open("rb") as fp:
        return read_po(fp, locale=lang, abort_invalid=True)


@functools.cache
def template() -> Catalog:
    """The parsed template ``companion.pot``: every message of the code, untranslated."""
    with (i18n.LOCALE_DIR / f"{i18n.DOMAIN}.pot").open("rb") as fp:
        return read_po(fp, abort_invalid=True)


def messages(lang: str) -> Iterator[Message]:
    """Every message of ``lang``'s catalog except the header (whose id is empty)."""
    return (message for message in catalog(lang) if message.id)


def forms(text: str | tuple[str, ...] | list[str] | None) -> tuple[str, ...]:
    """A message's id or string as its forms: one for a plain message, one per plural form; ``()`` for None."""
    if text is None:
        return ()
    return tuple(text) if isinstance(text, (tuple, list)) else (text,)


def pairs(lang: str) -> list[tuple[str, str]]:
    """Every ``(English, translation)`` pair of ``lang``'s catalog, each plural form its own pair (the last
    English form for a language with more plural forms than English); an untranslated form is left out."""
    out = []
    for message in messages(lang):
        english = forms(message.id)
        out += [(english[min(k, len(english) - 1)], said) for k, said in enumerate(forms(message.string)) if said]
    return out


ROOT = Path(__file__).resolve().parents[1]
"""The project's root: the rules and flows whose English a check walks are read from it."""


def said_in(*paths: Path, problems: str | None = None) -> set[str]:
    """The English the code in ``paths`` says (the first literal of each ``N_``, ``Text``, ``plural`` or ``_``
    call), and, with ``problems`` (``"race"``, ``"roll"``), the score file's problems of that game in
    ``rules/problems.py`` (``"race.no_goods": N_("…")``, its literals joined)."""
    sources = "\n".join(path.read_text(encoding="utf-8") for path in paths)
    said = {m.group(1) for m in re.finditer(r'\b(?:N_|Text|plural|_)\(\s*"((?:[^"\\]|\\.)+)"', sources)}
    if problems:
        text = (ROOT / "rules" / "problems.py").read_text(encoding="utf-8")
        said |= {"".join(re.findall(r'"((?:[^"\\]|\\.)*)"', m.group(1)))
                 for m in re.finditer(r'"' + problems + r'\.\w+": N_\(((?:\s*"(?:[^"\\]|\\.)*")+)\)', text)}
    return said


def messages_saying(lang: str, said: set[str]) -> list[Message]:
    """The messages of ``lang``'s catalog whose English (its first form) is one of ``said``, or starts with one
    of 12 characters or more (an English cut by an implicit join of literals)."""
    return [message for message in messages(lang)
            if any(first == start or (len(start) >= 12 and first.startswith(start)) for start in said
                   for first in (forms(message.id)[0],))]
