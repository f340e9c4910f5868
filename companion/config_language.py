"""The box's language as an owner writes it: ``box.language = "EL"``, ``"Pl"``, ``"hu_HU"``, ``"el-GR.UTF-8"``,
``"greek"``, ``"Ελληνικά"``, ``"magyar"`` each mean one of the box's languages (:data:`companion.i18n.LANGUAGES`)
without doubt, so each is taken as that language's code; a word close to one of them (``"grek"``, ``"hungarain"``)
or a country's code taken for a language's (``"gr"``, ``"gb"``) is refused with the code it most likely meant, by
:meth:`companion.config.Setting.value_of` ("did you mean "el"?").

A language tag is read as BCP 47 says, through Babel's ``Locale.parse``: ``"el-GR"`` is Greek, but ``"el-"`` (an
empty subtag), ``"el-1"`` or ``"uk-"`` is no tag at all, refused saying so (:func:`language_refusal`); a code that is
another language's (``"uk"``: Ukrainian, not the United Kingdom; ``"cy"``: Welsh) is refused naming that language and
the box's own, with no guess among them. The phones' language cookie and ``Accept-Language`` are read by the same
:func:`language_code` (:func:`companion.i18n.pick_language`)."""

from __future__ import annotations

import difflib
import re
import unicodedata

from babel import Locale, UnknownLocaleError

from companion.i18n import LANGUAGE_NAMES, LANGUAGES, LanguageName, Text

__all__ = ["language_code", "language_refusal", "likely_language"]

_ALIASES: dict[str, str] = {
    **{code: code for code in LANGUAGES},
    **{name.casefold(): code for code, name in LANGUAGE_NAMES.items()},  # in its own words: "Ελληνικά", "Magyar"
    "english": "en", "greek": "el", "polish": "pl", "hungarian": "hu",
    "eng": "en", "ell": "el", "gre": "el", "pol": "pl", "hun": "hu",  # ISO 639-2 codes
    "ellinika": "el", "elliniká": "el", "język polski": "pl", "jezyk polski": "pl", "magyar nyelv": "hu",
    "angielski": "en", "grecki": "el", "polski": "pl", "węgierski": "hu", "wegierski": "hu",  # the names in Polish
    "angol": "en", "görög": "el", "lengyel": "pl",  # in Hungarian
    "αγγλικά": "en", "ελληνικά": "el", "πολωνικά": "pl", "ουγγρικά": "hu",  # in Greek
    "en-gb-oed": "en",  # a grandfathered tag (BCP 47, RFC 5646 2.2.8): English, Oxford spelling
}
"""Every way of writing a language that means it alone, lower case (:func:`_plain`) -> its code."""

_COUNTRIES = {"gr": "el", "gb": "en", "us": "en"}
"""Countries' codes written for their language's (Greece's GR is not Greek's code, el): suggested, never taken. Not
here: a country code that is also a language's (UK is Ukrainian's uk, CY Welsh's cy, IE Interlingue's ie)."""


def _plain(written: str) -> str:
    """``written`` as compared: NFC, lower case (``casefold``), spaces trimmed and single, a locale's encoding and
    modifier left out (``"hu_HU.UTF-8@euro"`` -> ``"hu_hu"``), ``_`` as ``-``."""
    text = unicodedata.normalize("NFC", written).strip().casefold()
    text = re.split(r"[.@]", text, maxsplit=1)[0]
    return re.sub(r"\s+", " ", text.replace("_", "-"))


def language_code(written: str) -> str | None:
    """The code of the box's language that ``written`` means without doubt, or None.

    Case does not matter (``"EL"``, ``"Pl"``); a language tag or locale gives its language (``"hu_HU"``,
    ``"el-GR"``, ``"pl_PL.UTF-8"``); a language's name in English, in its own words or in the other languages of the
    box (``"greek"``, ``"Ελληνικά"``, ``"magyar"``, ``"węgierski"``) and its ISO 639-2 code (``"ell"``, ``"hun"``)
    are taken too. A country's code (``"gr"``) is not: see :func:`likely_language`.

    Args:
        written: the value as the owner wrote it (a file's, a flag's, a variable's or a phone's).
    """
    text = _plain(written)
    if text in _ALIASES:
        return _ALIASES[text]
    primary = text.split("-", 1)[0]
    if "-" in text and primary in LANGUAGES and _well_formed(text):  # a tag: "el-gr", "pl-pl", "hu-hu", "en-gb"
        return primary
    return None


_EXTENSIONS = re.compile(r"(?:-[0-9a-wy-z](?:-[0-9a-z]{2,8})+)*(?:-x(?:-[0-9a-z]{1,8})+)?")
"""A language tag's extensions and private use, after its language, script, region and variants (BCP 47, RFC 5646
2.1: a singleton such as ``u`` and subtags of 2-8 letters or digits, ``x`` and subtags of 1-8): ``"-u-ca-gregory"``,
``"-x-phonebk"``. Babel does not read them; they say nothing about the language."""


_CORE = re.compile(r"(?:[a-z]{2,3}(?:-[a-z]{3}){0,3}|[a-z]{4,8})(?:-[a-z]{4})?(?:-(?:[a-z]{2}|[0-9]{3}))?"
                   r"(?:-(?:[0-9a-z]{5,8}|[0-9][0-9a-z]{3}))*")
"""A language tag's language, script, region and variants as BCP 47 writes them (RFC 5646 2.1): a language of 2-3
letters (and up to three extended ones of 3) or 4-8, a script of 4 letters, a region of 2 letters or 3 digits, and
variants of 5-8 letters or digits or a digit and 3 more. Babel reads a longer variant (``"el-abcdefghi"``, 9
letters) as one; BCP 47 does not, and neither does the box."""


_DIGIT_VARIANT = re.compile(r"[0-9][0-9a-z]{4,7}")
"""A variant subtag Babel does not read: 5-8 letters or digits starting with a digit (``"12345"``, ``"1606nict"``),
well formed as BCP 47 writes variants (RFC 5646 2.2.5: 5-8 letters or digits, or a digit and 3 more); Babel reads
the others (``"1901"``, ``"polyton"``)."""


def _well_formed(tag: str) -> bool:
    """Whether ``tag`` (as :func:`_plain` writes it, ``-`` between subtags) is a language tag (BCP 47, RFC 5646 2.1):
    its language, script, region and variants as Babel reads them, then any extensions and private use
    (:data:`_EXTENSIONS`): ``"el-gr"``, ``"el-grek-gr"``, ``"en-001"``, ``"en-us-u-ca-gregory"``, ``"el-gr-x-poly"``, a
    region CLDR does not know (``"el-xx"``) and a variant that starts with a digit (``"el-12345"``,
    :data:`_DIGIT_VARIANT`) too; not ``"el-"``, ``"el--gr"``, ``"el-1"``, ``"hu-hu-u-"``, ``"pl-pl-x"``, nor a
    subtag longer than BCP 47 writes it (``"el-abcdefghi"``: :data:`_CORE`)."""
    subtags = tag.split("-")
    cut = next((k for k, subtag in enumerate(subtags) if k and len(subtag) == 1), len(subtags))
    if cut < len(subtags) and not _EXTENSIONS.fullmatch("-" + "-".join(subtags[cut:])):
        return False
    core = subtags[:cut]
    if not _CORE.fullmatch("-".join(core)):
        return False  # "el-abcdefghi": a variant of 9 letters, no subtag BCP 47 writes
    while len(core) > 1 and _DIGIT_VARIANT.fullmatch(core[-1]):
        core = core[:-1]  # a variant Babel does not read ("el-12345"): the tag before it decides
    try:
        Locale.parse("-".join(core), sep="-")
    except UnknownLocaleError:
        return True  # well formed: CLDR has no data for it
    except ValueError:
        return False
    return True


def _other_language(primary: str) -> str | None:
    """The code of the language ``primary`` (a tag's first subtag) names when CLDR knows it as a language and it is
    not one of the box's (``"uk"`` -> ``"uk"``, ``"deu"`` -> ``"de"``), else None (``"gr"``, ``"klingon"``)."""
    if not re.fullmatch(r"[a-z]{2,3}", primary):
        return None
    try:
        code = Locale.parse(primary).language
    except (ValueError, UnknownLocaleError):
        return None
    return None if code in LANGUAGES else code


def language_refusal(written: str, allowed: tuple[str, ...]) -> Text | None:
    """Why ``written``, which means none of the box's languages (:func:`language_code` None), is refused, when a
    language tag's own rules say it: ``"el-"`` is no tag (an empty or malformed subtag: write ``"el"`` or
    ``"el-GR"``), nor is ``"el-abcdefghi"`` (a subtag longer than 8: BCP 47, RFC 5646 2.1), ``"uk"`` is Ukrainian,
    a language the box does not speak (its name said in the reader's language; no guess among ``allowed``). None
    when neither: :func:`likely_language` or the closest spelling then.

    Args:
        written: the value as the owner wrote it.
        allowed: the box's languages, as the refusal lists them.
    """
    text = _plain(written)
    primary = text.split("-", 1)[0]
    listed = ", ".join(allowed)
    if "-" in text and primary not in LANGUAGES and re.fullmatch(r"[a-z]{2,3}|[a-z]{5,8}", primary) and \
            not _well_formed(text):  # "uk-": no tag at all, whatever language "uk" is
        return Text('{value} is not one of {allowed}: not a language tag (a part after "-" is empty or not a region)',
                    value=_shown(written), allowed=listed)
    if "-" in text and primary in LANGUAGES and any(len(part) > 8 for part in text.split("-")):
        return Text('{value} is not one of {allowed}: not a language tag (a part after "-" is longer than 8 letters '
                    'or digits); write "{language}", or "{language}-" and a region such as "{example}"',
                    value=_shown(written), allowed=listed, language=primary, example=f"{primary}-{_REGIONS[primary]}")
    if "-" in text and primary in LANGUAGES and not _well_formed(text):
        return Text('{value} is not one of {allowed}: not a language tag (a part after "-" is empty or not a region); '
                    'write "{language}", or "{language}-" and a region such as "{example}"', value=_shown(written),
                    allowed=listed, language=primary, example=f"{primary}-{_REGIONS[primary]}")
    other = _other_language(primary)
    if other is not None:
        return Text("{value} is not one of {allowed}: {value} is {language}, which the box does not speak",
                    value=_shown(written), allowed=listed, language=LanguageName(other))
    return None


_REGIONS = {"en": "GB", "el": "GR", "pl": "PL", "hu": "HU"}
"""A region each of the box's languages is written with, for a refusal's example (``"el-GR"``)."""


def _shown(written: str) -> str:
    """``written`` as a refusal quotes it: as TOML writes it (escaped), cut at 60 characters."""
    from companion.config_values import toml_value

    return toml_value(written if len(written) <= 60 else written[:60] + "…")


_GREEK_LAYOUT = str.maketrans("ςερτυθιοπασδφγηξκλζχψωβνμ", "wertyuiopasdfghjklzxcvbnm")
"""The Greek keyboard's letters -> the Latin letters on the same keys: a code typed with the Greek layout on ("ελ")."""


def _on_a_latin_keyboard(text: str) -> str:
    """``text`` (as :func:`_plain` writes it) as typed on the same keys with a Latin layout: full-width and other
    compatibility letters as plain ones (NFKC), Greek letters as the Latin letters of their keys, accents left out
    (``"ελ"``, ``"έλ"``, ``"ｅｌ"`` -> ``"el"``)."""
    bare = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    return bare.translate(_GREEK_LAYOUT)


def likely_language(written: str) -> str | None:
    """The code ``written`` most likely meant when it means none for certain (:func:`language_code` None): a country's
    code (``"gr"`` -> ``"el"``), a code typed with the Greek keyboard layout on or in full-width letters (``"ελ"``,
    ``"ｅｌ"`` -> ``"el"``), or a name or code a letter or two away (``"grek"`` -> ``"el"``); None when nothing is
    close."""
    text = _plain(written)
    primary = text.split("-", 1)[0]
    if primary in _COUNTRIES:
        return _COUNTRIES[primary]
    typed = _on_a_latin_keyboard(text)   # "ελ" typed with the Greek layout on, "ｅｌ" in full-width letters
    if typed != text and (language_code(typed) or typed.split("-", 1)[0] in _COUNTRIES):
        return language_code(typed) or _COUNTRIES[typed.split("-", 1)[0]]
    close = difflib.get_close_matches(text, list(_ALIASES), n=1, cutoff=0.7)
    return _ALIASES[close[0]] if close else None
