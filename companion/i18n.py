"""The players' languages: gettext message catalogs managed with Babel.

Every string a player or an owner reads goes through this module: :func:`_` (``gettext``) and :func:`ngettext`
(plural forms by the language's own rule) say a message now, in the current language (the touchscreen's
drawing, the phone page's templates, the command line); :class:`Text`, :func:`plural` and :func:`lazy` keep a
message to be said later (the view the main loop publishes, findings, score breakdowns, the loop's answers):
:func:`localize` says such a value, or a whole view, in one language (the touchscreen in the box's, each phone
in its own). ``rules`` builds its findings and breakdowns as :class:`rules.text.Text` for the same reason. The catalogs
are ``companion/locale/<lang>/LC_MESSAGES/companion.po``, extracted with ``pybabel extract -F babel.cfg`` into
``companion/locale/companion.pot`` and compiled to ``.mo`` files by the install (``./setup.sh``, ``pybabel compile``);
compiled files are not committed. A catalog whose ``.mo`` is missing is compiled in memory from its ``.po`` (a source
checkout that was never installed still speaks); a language without either falls back to the English of the source.

Which language: the box's (the touchscreen, the loop's messages) is ``box.language`` of the configuration,
changed on the touchscreen's settings screen or an owner's phone (:func:`set_setting_language`); what a command
prints and logs keeps the language it was started in (:func:`set_box_language`); a phone's is the browser's
``Accept-Language``, overridden by the language picked on its page (:func:`pick_language`), set per
request with :func:`use_language`. Numbers and dates are formatted for the language by Babel
(:func:`format_number`, :func:`format_datetime`).
"""

from __future__ import annotations

import contextlib
import contextvars
import errno
import functools
import gettext
import io
import logging
import os
import re
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from babel import Locale
from babel.dates import format_datetime as _babel_datetime
from babel.numbers import format_decimal
from babel.support import LazyProxy, Translations

from device.errors import Words, english
from rules.names import WORD_KINDS, Term, translated
from rules.text import AND, N_, OR, Listing, Text, in_game, plural

__all__ = ["AND", "DOMAIN", "LANGUAGES", "OR", "LANGUAGE_NAMES", "LOCALE_DIR", "Listing", "NC_", "N_", "Text", "_",
           "as_written", "ask_language",
           "asked_language", "fit_at_output", "kept_as_written", "reset_fit_at_output", "box_language", "fit_articles",
           "current_language", "enter_language", "leave_language", "format_datetime", "Moment", "LanguageName",
           "format_number", "lazy",
           "localize", "message_of", "messages", "ngettext", "os_reason",
           "pgettext", "pick_language", "chosen_language", "plural", "plurals", "say", "say_template",
           "set_box_language", "set_setting_language", "text_of", "translations", "use_language", "in_game"]

log = logging.getLogger(__name__)

DOMAIN = "companion"
"""The gettext domain: ``companion.po`` / ``companion.mo``."""

LOCALE_DIR = Path(__file__).parent / "locale"
"""Where the catalogs are: ``<lang>/LC_MESSAGES/companion.po`` (and the compiled ``.mo``)."""

LANGUAGES = ("en", "el", "pl", "hu")
"""The box's languages (ISO 639-1): English, Greek, Polish, Hungarian (``companion.config.LANGUAGES``)."""

LANGUAGE_NAMES = {"en": "English", "el": "Ελληνικά", "pl": "Polski", "hu": "Magyar"}
"""Each language in its own words (a language picker shows these, never translated)."""

DEFAULT = "en"

_box = DEFAULT  # the language the command was started in: what it prints and logs (set_box_language)
_setting: str | None = None  # box.language as a settings screen or an owner's phone set it since (None: _box)
_asked: str | None = None
_lock = threading.Lock()
_request: contextvars.ContextVar[str | None] = contextvars.ContextVar("companion_language", default=None)


def _known(lang: Any) -> str:
    """``lang`` when it is one of :data:`LANGUAGES` (``"el-GR"`` -> ``"el"``), else English."""
    code = str(lang or "").replace("_", "-").split("-")[0].strip().lower()
    return code if code in LANGUAGES else DEFAULT


@functools.cache
def translations(lang: str) -> gettext.NullTranslations:
    """The catalog of ``lang`` (cached): the compiled ``.mo``; without it the ``.po`` compiled in memory; without
    either (or for English) the source's own English (:class:`gettext.NullTranslations`). Never raises: a
    damaged catalog is one log line and English."""
    code = _known(lang)
    folder = LOCALE_DIR / code / "LC_MESSAGES"
    mo, po = folder / f"{DOMAIN}.mo", folder / f"{DOMAIN}.po"
    try:
        if mo.is_file():
            with mo.open("rb") as fp:
                return Translations(fp, domain=DOMAIN)
        if po.is_file():
            from babel.messages.mofile import write_mo
            from babel.messages.pofile import read_po

            with po.open("rb") as fp:
                catalog = read_po(fp, locale=code, domain=DOMAIN)
            buffer = io.BytesIO()
            write_mo(buffer, catalog)
            buffer.seek(0)
            return Translations(buffer, domain=DOMAIN)
    except Exception as exc:  # a damaged catalog must not stop the box: English instead
        log.warning("language %s: the catalog %s cannot be read (%s); English is shown", code, folder, exc)
    return gettext.NullTranslations()


def set_box_language(lang: str) -> str:
    """Make ``lang`` the language a command starts in: what it prints and logs (:func:`current_language` outside a
    phone's request and the touchscreen's drawing) and, until a setting changes it (:func:`set_setting_language`),
    the box's (:func:`box_language`). Returns the language used (an unknown one is English)."""
    global _box, _setting
    with _lock:
        _box = _known(lang)
        _setting = None
    return _box


def set_setting_language(lang: str) -> str:
    """Make ``lang`` the box's language as its ``box.language`` setting says while it runs (the touchscreen's
    settings screen, an owner's phone, the settings kept from an earlier evening): the touchscreen speaks it and a
    phone that names no language of its own is answered in it (:func:`box_language`). What the command prints and
    its log lines keep the language it was started in (:func:`set_box_language`), so a log is in one language.
    Returns the language used (an unknown one is English)."""
    global _setting
    with _lock:
        _setting = _known(lang)
    return _setting


def ask_language(lang: str | None) -> None:
    """The language a command line asked for explicitly (``--language``), or None: its ``--json`` outputs are said
    in it; without one they keep the English every tool reads (:func:`asked_language`)."""
    global _asked
    _asked = _known(lang) if lang else None


def asked_language() -> str | None:
    """The language asked for with ``--language`` (:func:`ask_language`), else None."""
    return _asked


def box_language() -> str:
    """The box's language: ``box.language`` as a setting made it while the box runs (:func:`set_setting_language`),
    else as the command started (:func:`set_box_language`). The touchscreen speaks it, and phones by default."""
    return _setting or _box


def current_language() -> str:
    """The language of the current context: the phone's while a phone request is answered, the box's while the
    touchscreen draws (:func:`use_language`), else the one the command was started in (what it prints and logs)."""
    return _request.get() or _box


@contextlib.contextmanager
def use_language(lang: str | None) -> Iterator[str]:
    """Within the block, :func:`_` speaks ``lang`` (a phone's request); None: the box's. Yields the language."""
    token = _request.set(_known(lang) if lang else None)
    try:
        yield current_language()
    finally:
        _request.reset(token)


def enter_language(lang: str | None) -> contextvars.Token:
    """Speak ``lang`` in this context until :func:`leave_language` (a web request's hooks: before and teardown)."""
    return _request.set(_known(lang) if lang else None)


def leave_language(token: contextvars.Token) -> None:
    """Back to the language before :func:`enter_language`."""
    _request.reset(token)


def _(message: str) -> str:
    """``message`` in the current language (:func:`current_language`)."""
    return translations(current_language()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for ``n`` by the current language's plural rule (Polish has three forms)."""
    return translations(current_language()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` said in ``context`` (the same English word said differently in one place: a seat colour's
    letter in its dot), in the current language; ``message`` itself when the catalog has none."""
    return translations(current_language()).pgettext(context, message)


def NC_(context: str, message: str) -> tuple[str, str]:
    """Marks ``message`` in ``context`` for extraction (``pgettext`` when said): ``(context, message)``."""
    return context, message


TERM_CONTEXT = "a game term (a phase, a step of the round, a die, an action card) as the players' language says it"
"""The catalog context of a game term said from the catalog (:data:`rules.names.WORD_KINDS`): a phase "Ship" is
not a spaceship."""

TERM_WORDS = (
    NC_("a game term (a phase, a step of the round, a die, an action card) as the players' language says it",
        "Explore"),
    NC_("a game term (a phase, a step of the round, a die, an action card) as the players' language says it",
        "Develop"),
    NC_("a game term (a phase, a step of the round, a die, an action card) as the players' language says it",
        "Settle"),
    NC_("a game term (a phase, a step of the round, a die, an action card) as the players' language says it",
        "Produce"),
    NC_("a game term (a phase, a step of the round, a die, an action card) as the players' language says it",
        "Ship"),
    NC_("a game term (a phase, a step of the round, a die, an action card) as the players' language says it",
        "Consume"),
    NC_("a game term (a phase, a step of the round, a die, an action card) as the players' language says it",
        "Wild"),
    NC_("a game term (a phase, a step of the round, a die, an action card) as the players' language says it",
        "Roll"),
    NC_("a game term (a phase, a step of the round, a die, an action card) as the players' language says it",
        "Assign"),
    NC_("a game term (a phase, a step of the round, a die, an action card) as the players' language says it",
        "Reveal"),
    NC_("a game term (a phase, a step of the round, a die, an action card) as the players' language says it",
        "Phases"),
    NC_("a game term (a phase, a step of the round, a die, an action card) as the players' language says it",
        "Manage Empire"),
    NC_("a game term (a phase, a step of the round, a die, an action card) as the players' language says it",
        "Home die"),
    NC_("a game term (a phase, a step of the round, a die, an action card) as the players' language says it",
        "Military die"),
    NC_("a game term (a phase, a step of the round, a die, an action card) as the players' language says it",
        "Consumption die"),
    NC_("a game term (a phase, a step of the round, a die, an action card) as the players' language says it",
        "Novelty die"),
    NC_("a game term (a phase, a step of the round, a die, an action card) as the players' language says it",
        "Rare Elements die"),
    NC_("a game term (a phase, a step of the round, a die, an action card) as the players' language says it",
        "Genes die"),
    NC_("a game term (a phase, a step of the round, a die, an action card) as the players' language says it",
        "Alien Technology die"),
    NC_("a game term (a phase, a step of the round, a die, an action card) as the players' language says it",
        "Explore +5"),
    NC_("a game term (a phase, a step of the round, a die, an action card) as the players' language says it",
        "Explore +1,+1"),
    NC_("a game term (a phase, a step of the round, a die, an action card) as the players' language says it",
        "Develop (second card)"),
    NC_("a game term (a phase, a step of the round, a die, an action card) as the players' language says it",
        "Settle (second card)"),
    NC_("a game term (a phase, a step of the round, a die, an action card) as the players' language says it",
        "Consume: Trade ($)"),
    NC_("a game term (a phase, a step of the round, a die, an action card) as the players' language says it",
        "Consume: x2 VP"),
    NC_("a game term (a phase, a step of the round, a die, an action card) as the players' language says it",
        "World"),
    NC_("a game term (a phase, a step of the round, a die, an action card) as the players' language says it",
        "Development"),
)
"""The English of every :data:`rules.names.WORD_KINDS` term but the colours (said as plain words), for the
catalogs: said where the players' edition prints no name of its own (Roll in Polish, Race in Hungarian)."""


def lazy(message: str) -> Text:
    """``message`` kept to be said later (a label or constant defined at import time, a string put in a view):
    a :class:`Text` without parameters, English as a ``str``, said in a language by :func:`localize`."""
    return Text(message)


def localize(value: Any, lang: str | None = None, names: Callable[[str], str] | None = None) -> Any:
    """``value`` said in ``lang`` (None: the current language): a :class:`Text` through the catalog (its
    parameters said in turn), a :class:`rules.names.Term` as the language's edition prints it, a
    :class:`Listing` item by item; dicts (keys too), lists and tuples are walked and copied; anything else
    (numbers, names, codes, plain strings) is returned as it is. Never raises: a translation whose fields do
    not fit its parameters is one log line and the English.

    ``names``: how a plain ``str`` put into a message (a :class:`Text`'s parameter or a :class:`Listing`'s item: a
    player's name) is to read there, as a function of it (the touchscreen's names a player typed as emoji alone
    by their symbols' names); None: as it is. A plain ``str`` standing alone in ``value`` (an id, a name a button
    posts back) is never passed to it."""
    return _localize(value, _known(lang) if lang else current_language(), names, 0)


_DEEPEST = 200
"""How deep :func:`localize` walks dicts and lists: a part deeper is returned as it is (a value nested that deep is
damage, and its encoder cuts it: :data:`companion.webstream.MAX_DEPTH`)."""


def _localize(value: Any, lang: str, names: Callable[[str], str] | None, depth: int) -> Any:
    if isinstance(value, str):
        if type(value) is str:
            return value
        return _say(value, lang, names)
    if depth >= _DEEPEST:
        return value
    if isinstance(value, Mapping):  # a key that is no text (a tuple: a list once said) is kept as it is
        return {_localize(k, lang, names, depth) if isinstance(k, str) else k: _localize(v, lang, names, depth + 1)
                for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_localize(v, lang, names, depth + 1) for v in value]
    if isinstance(value, LazyProxy):
        return str(value)
    return value


def fit_articles(said: str, lang: str) -> str:
    """A message said in ``lang`` with its articles fitted to the words its placeholders brought (Hungarian's
    "a(z) {name}": :func:`companion.articles.hungarian_articles`); other languages as they are."""
    if lang != "hu":
        return said
    from companion.articles import hungarian_articles

    return hungarian_articles(said)


_MARK_TEXT, _SHIELDED = "(z) ", "(z§§) "  # printable: a !r placeholder keeps it as it is
_KEPT = "(z\u2060) "  # a value's own "a(z) " in a message said for a stream that fits (a word joiner: never in a name)
_fits_at_output: contextvars.ContextVar[bool] = contextvars.ContextVar("companion_fits_at_output", default=False)


def fit_at_output(on: bool) -> contextvars.Token:
    """Whether what :func:`say` returns in this context is printed through a stream that fits it again (the
    command line's output, which fits every message as it is written): then a placeholder's own "a(z) " (a player
    named "a(z) Éva") stays hidden in the said text until :func:`as_written` at the stream. Undo with
    ``reset_fit_at_output(token)``. Threads started later (the phone view's) say plain text."""
    return _fits_at_output.set(on)


def reset_fit_at_output(token: contextvars.Token) -> None:
    """Back to what :func:`fit_at_output` found."""
    _fits_at_output.reset(token)


def kept_as_written(value: Any) -> Any:
    """``value`` (a player's name, a message :func:`say` returned) put into a message that a stream fits later: its
    own "a(z) " hidden from :func:`fit_articles` until :func:`as_written` (the stream) shows it again."""
    return value.replace(_MARK_TEXT, _KEPT) if isinstance(value, str) else value


def as_written(text: str) -> str:
    """``text`` with each "a(z) " hidden by :func:`kept_as_written` (or said under :func:`fit_at_output`) shown
    again as written; also in JSON that escaped it."""
    return text.replace(_KEPT, _MARK_TEXT).replace(_KEPT.encode("ascii", "backslashreplace").decode(), _MARK_TEXT)


def _shielded(value: Any) -> Any:
    """A placeholder's value with any "a(z) " of its own (a player named "a(z) Éva") hidden from
    :func:`fit_articles` until the message is filled and fitted: only the catalog's own "a(z)" are fitted."""
    return value.replace(_MARK_TEXT, _SHIELDED) if isinstance(value, str) else value


def _inside(value: Any, lang: str, names: Callable[[str], str] | None) -> Any:
    """``value`` said in ``lang`` where it is put into a message: a plain ``str`` through ``names`` when given."""
    if names is not None and type(value) is str:
        return names(value)
    return localize(value, lang, names)


def _say(value: str, lang: str, names: Callable[[str], str] | None = None) -> str:
    if isinstance(value, Text):
        catalog = translations(lang)
        if value.plural_template is None:
            context = value.context
            template = catalog.pgettext(context, value.template) if context else catalog.gettext(value.template)
        else:
            template = catalog.ngettext(value.template, value.plural_template, value.n or 0)
        if not value.params and value.plural_template is None:
            return fit_articles(template, lang)
        params = {k: _shielded(_inside(v, lang, names)) for k, v in value.params.items()}
        try:
            kept = _KEPT if _fits_at_output.get() else _MARK_TEXT  # fitted again at the output: hidden till then
            return fit_articles(template.format(**params), lang).replace(_SHIELDED, kept)
        except (KeyError, IndexError, ValueError) as exc:  # a catalog entry that names other fields: the English
            log.warning("language %s: %r does not fit its parameters (%s); English is shown", lang, template, exc)
            return str(value)
    if isinstance(value, Term):
        if value.kind in WORD_KINDS and value.id not in translated(value.kind, lang):
            catalog = translations(lang)  # an ordinary word the edition does not name
            if value.kind == "roll.colour":
                return catalog.gettext(str(value))
            return catalog.pgettext(TERM_CONTEXT, str(value))
        return value.said(lang)
    if isinstance(value, Listing):
        return value.spoken(lambda part: str(localize(part, lang, names) if part is value.sep  # not a name
                                             else _inside(part, lang, names)))
    if isinstance(value, (Moment, LanguageName)):
        return value.said(lang)
    return str(value)


def say(value: Any, lang: str | None = None) -> str:
    """What a message or an error says, as a ``str`` in ``lang`` (None: the current language): an exception's
    :func:`message_of`, anything else through :func:`localize`."""
    if isinstance(value, BaseException):
        value = message_of(value)
    return str(localize(value, lang))


def message_of(exc: BaseException) -> Any:
    """What an error says, kept to be said in a player's language: its first argument when that is a
    :class:`Text` (``str(exc)`` is only the English), a :class:`Text` of its ``template`` and ``params`` when it
    was made with ``device.DeviceError.said`` or ``vision.VisionError.said`` (``vision`` and ``device`` say no
    :class:`Text`: they keep its parts; its English must be the error's own, else ``str(exc)``), else
    ``str(exc)``."""
    first = exc.args[0] if len(exc.args) == 1 else None
    if isinstance(first, (Text, Listing, Term)):
        return first
    said = _said_error(exc)
    return said if said is not None and first in (str(said), _as_raised(exc)) else str(exc)


def _as_raised(exc: BaseException) -> str | None:
    """The English an error made with ``said()`` carries when a parameter is an :class:`OSError`: the system's own
    reason (``"No such file or directory"``) where :func:`os_reason` says it in the box's words."""
    template, params, hint = getattr(exc, "template", None), getattr(exc, "params", None), getattr(exc, "hint", None)
    if not (isinstance(template, str) and isinstance(params, dict)):
        return None
    try:
        return english(template, params, hint if isinstance(hint, str) else None)  # as said() made it
    except (KeyError, IndexError, ValueError):
        return None


_OS_REASONS: dict[int, str] = {
    errno.EACCES: N_("no permission to write or read there"),
    errno.EPERM: N_("no permission to write or read there"),
    errno.EROFS: N_("the file system is read-only"),
    errno.ENOSPC: N_("the disk is full"),
    errno.EDQUOT: N_("the disk is full"),
    errno.EEXIST: N_("a file is where a folder should be"),
    errno.ENOTDIR: N_("a file is where a folder should be"),
    errno.ENOENT: N_("no such file or folder"),
    errno.EISDIR: N_("it is a folder, not a file"),
    errno.ENAMETOOLONG: N_("the name is too long"),
    errno.EIO: N_("an input/output error (a failing SD card, disk or USB stick?)"),
    errno.EBUSY: N_("the device is busy: another program is using it"),
    errno.ENODEV: N_("no such device (unplugged?)"),
    errno.ENXIO: N_("no such device (unplugged?)"),
    errno.ETIMEDOUT: N_("the device did not answer in time"),
    errno.ELOOP: N_("links that lead back to themselves"),
}


def os_reason(exc: OSError) -> str | Text:
    """Why the operating system refused a file or folder, to be said in a player's language: a :class:`Text` for
    the common ``errno`` (no permission, read-only, disk full, a file in the way, ...), else the system's own
    ``strerror`` (English) or the error's text (:func:`message_of`: an ``OSError(Text(...))`` said in turn); a
    ``strerror`` that is not the system's (``companion.paths.DataFolderError`` says what to set) is kept."""
    words = _OS_REASONS.get(exc.errno) if isinstance(exc.errno, int) else None
    if words and exc.strerror and exc.strerror != os.strerror(exc.errno):  # the program's own words (the data folder's
        return exc.strerror                                                   # line names the setting): kept
    return Text(words) if words else (exc.strerror or message_of(exc))


def text_of(template: str, params: Mapping[str, Any]) -> Text:
    """A message ``device`` or ``vision`` keeps as its parts (an N_ template and its parameters, e.g.
    ``device.health.CameraWatch.said``) as a :class:`Text`; a parameter that is an error is said with
    :func:`message_of` (an operating system's refusal, an :class:`OSError` not made with ``said()``, with
    :func:`os_reason`); a ``device.errors.Words`` (a camera's kind) is said in the language too."""
    return Text(template, **{k: _error_said(v) if isinstance(v, BaseException) else Text(v) if isinstance(v, Words)
                             else v for k, v in params.items()})


def say_template(template: str, /, **params: Any) -> str:
    """A message ``device`` or ``vision`` gives as its parts (an N_ template and its parameters: the GPIO's one line
    at start, ``device.gpio.Controls.create_optional``'s ``say``) said now, in the current language."""
    return say(text_of(template, params))


def _error_said(exc: BaseException) -> Any:
    """An error given as a message's parameter, kept to be said: the system's reason for an :class:`OSError`
    (:func:`os_reason`), else :func:`message_of`."""
    if isinstance(exc, OSError) and getattr(exc, "template", None) is None:
        return os_reason(exc)
    return message_of(exc)


def _said_error(exc: BaseException) -> Text | None:
    """A :class:`Text` of an error made with ``said()`` (its ``template`` and ``params``; a parameter that is such
    an error in turn, a ``device`` camera reason quoted in another, is said the same way; ``hint``: a template
    around the whole with ``{problem}``), or None for another error."""
    template, params = getattr(exc, "template", None), getattr(exc, "params", None)
    if not (isinstance(template, str) and isinstance(params, dict)):
        return None
    said = text_of(template, params)
    hint = getattr(exc, "hint", None)
    return Text(hint, problem=said) if isinstance(hint, str) else said


MAX_OFFERED = 32
"""The most ``Accept-Language`` entries read (a browser sends a handful; the rest of a longer header is left)."""


def chosen_language(chosen: Any) -> str | None:
    """The box's language a phone's language cookie names, read as ``box.language`` and ``--language`` read a
    language (:func:`companion.config_language.language_code`: ``"el"``, ``"el-GR"``), or None: no cookie, one of
    another language, or no language tag (``"el-"``, ``"uk-"``, ``"el-1"``), which the phone's page then ignores and
    clears."""
    from companion.config_language import language_code  # it reads the language names of this module

    if not isinstance(chosen, str) or not chosen.strip() or len(chosen) > 100:
        return None
    return language_code(chosen)


def pick_language(chosen: str | None, accept_language: Iterable[tuple[str, float]] | str | None = None,
                  default: str | None = None) -> str:
    """A phone's language: the one it ``chosen`` on the page (a cookie, :func:`chosen_language`), else the best of
    the browser's ``Accept-Language`` (``[(code, quality)]`` as werkzeug parses it, or the header text, RFC 9110
    12.5.4) among the box's languages, else ``default`` (the box's). Each tag is read as ``box.language`` reads one:
    ``"el-GR"`` is Greek, ``"el-"`` or ``"uk-"`` is no tag and is passed over, as is an entry whose quality is not a
    number from 0 to 1; a header holding nothing the box speaks gives ``default``. Never raises on what a phone
    sends."""
    code = chosen_language(chosen)
    if code is not None:
        return code
    offered: list[tuple[str, float]] = []
    if isinstance(accept_language, str):
        for part in accept_language.split(",")[:MAX_OFFERED]:
            tag, _sep, params = part.strip().partition(";")
            quality = _quality(params)
            if tag.strip() and quality is not None:
                offered.append((tag.strip(), quality))
    elif accept_language is not None:
        offered = [(str(tag), float(q)) for tag, q in list(accept_language)[:MAX_OFFERED]]
    for tag, quality in sorted(offered, key=lambda tq: -tq[1]):  # stable: equal qualities keep the header's order
        code = chosen_language(tag) if quality > 0 else None
        if code is not None:
            return code
    return _known(default or _box)


def _quality(params: str) -> float | None:
    """An ``Accept-Language`` entry's weight (``"q=0.8"`` -> 0.8; none: 1.0), None when it is no weight from 0 to 1
    (RFC 9110 12.4.2: at most three decimals)."""
    for param in params.split(";"):
        name, _sep, value = param.strip().partition("=")
        if name.strip().lower() == "q":
            value = value.strip()
            if not re.fullmatch(r"0(?:\.\d{0,3})?|1(?:\.0{0,3})?", value):
                return None
            return float(value)
    return 1.0


def messages(lang: str) -> dict[str, str]:
    """Every translated singular message of ``lang`` as ``{msgid: msgstr}`` (the phone page's scripts translate
    with it; their plural messages are in :func:`plurals`)."""
    table = getattr(translations(lang), "_catalog", None) or {}
    return {str(key): value for key, value in table.items() if isinstance(key, str) and key}


def plurals(lang: str) -> dict[str, dict[str, str]]:
    """Every translated plural message of ``lang`` as ``{singular msgid: {CLDR category: form}}`` (``one``,
    ``few``, ``many``, ``other``): the phone page's scripts pick a form with the browser's ``Intl.PluralRules``,
    which names the same categories as Babel's plural rules; the catalog's own rule says which form each
    category is."""
    catalog = translations(lang)
    table = getattr(catalog, "_catalog", None) or {}
    rule = getattr(catalog, "plural", None)
    if rule is None:
        return {}
    cldr = Locale.parse(_known(lang)).plural_form
    index: dict[str, int] = {}
    for n in range(0, 200):
        index.setdefault(cldr(n), rule(n))
    out: dict[str, dict[str, str]] = {}
    for key, value in table.items():
        if isinstance(key, tuple) and key[0]:
            forms = out.setdefault(str(key[0]), {})
            for category, k in index.items():
                if k == key[1]:
                    forms[category] = value
    return out


def _locale() -> Locale:
    return Locale.parse(current_language())


def format_number(value: float | int, digits: int | None = None) -> str:
    """``value`` as the current language writes numbers (``1 234,5`` in Polish); ``digits`` after the point."""
    fmt = None if digits is None else "#,##0." + "0" * digits if digits else "#,##0"
    return format_decimal(value, format=fmt, locale=_locale())


def format_datetime(timestamp: float, style: str = "medium", lang: str | None = None) -> str:
    """Unix seconds as ``lang`` (None: the current language) writes a date and time (local time); ``style`` is
    Babel's ``"short"``, ``"medium"``, ``"long"`` or ``"full"``. A value that is no time
    (:func:`companion.timestamps.usable`: Infinity, NaN, past the year 9999, a text, from a database changed by
    hand) is said as such, quoting it ("no valid time (inf)"): never raises."""
    from datetime import datetime

    from companion.timestamps import shown, usable

    lang = _known(lang) if lang else current_language()
    seconds = usable(timestamp)
    if seconds is None:
        return localize(Text("no valid time ({value})", value=shown(timestamp)), lang)
    return _babel_datetime(datetime.fromtimestamp(seconds), format=style, locale=Locale.parse(lang))


class Moment(str):
    """A date and time kept to be written as the hearer's language writes it (a message's parameter: the history's
    "{title} of {when}" answered to a Hungarian phone says "2026. 12. 06. 9:53", to the box in English
    "12/6/26, 9:53 AM"); :func:`localize` writes it with :func:`format_datetime`. As a plain ``str`` it is the
    English.

    Attributes:
        timestamp: Unix seconds (local time is shown).
        style: Babel's date-time style (``"short"``, ``"medium"``, ...).
    """

    timestamp: float
    style: str

    def __new__(cls, timestamp: float, style: str = "medium") -> Moment:
        self = str.__new__(cls, format_datetime(timestamp, style, "en"))
        self.timestamp = timestamp  # as given: one that is no time is said as such (format_datetime)
        self.style = style
        return self

    def said(self, lang: str) -> str:
        """The moment as ``lang`` writes it."""
        return format_datetime(self.timestamp, self.style, lang)

    def __reduce__(self) -> tuple[Any, ...]:
        return (Moment, (self.timestamp, self.style))

    def __deepcopy__(self, memo: dict[int, Any]) -> Moment:
        return self

    def __copy__(self) -> Moment:
        return self


class LanguageName(str):
    """A language's name kept to be said in the hearer's language (a message's parameter: "uk" is Ukrainian, said
    "Ουκρανικά" to a Greek box, "ukraiński" to a Polish one), from Babel's locale data (CLDR); as a plain ``str`` the
    English name. A code Babel does not name is said as the code.

    Attributes:
        code: the language's code (``"uk"``).
    """

    code: str

    def __new__(cls, code: str) -> LanguageName:
        self = str.__new__(cls, _language_name(code, "en"))
        self.code = code
        return self

    def said(self, lang: str) -> str:
        """The name as ``lang`` writes it."""
        return _language_name(self.code, lang)

    def __reduce__(self) -> tuple[Any, ...]:
        return (LanguageName, (self.code,))


def _language_name(code: str, lang: str) -> str:
    """``code``'s language named in ``lang`` (CLDR's words), or ``code`` when CLDR has no name for it."""
    return str(Locale.parse(_known(lang)).languages.get(code, code))
