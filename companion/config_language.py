"""The box's language as an owner writes it: ``box.language = "EL"``, ``"Pl"``, ``"hu_HU"``, ``"el-GR.UTF-8"``,
``"greek"``, ``"Ελληνικά"``, ``"magyar"`` each mean one of the box's languages (:data:`companion.i18n.LANGUAGES`)
without doubt, so each is taken as that language's code; a word close to one of them (``"grek"``, ``"hungarain"``)
or a country's code taken for a language's (``"gr"``, ``"uk"``) is refused with the code it most likely meant, by
:meth:`companion.config.Setting.value_of` ("did you mean "el"?")."""

from __future__ import annotations

import difflib
import re
import unicodedata

from companion.i18n import LANGUAGE_NAMES, LANGUAGES

__all__ = ["language_code", "likely_language"]

_ALIASES: dict[str, str] = {
    **{code: code for code in LANGUAGES},
    **{name.casefold(): code for code, name in LANGUAGE_NAMES.items()},  # in its own words: "Ελληνικά", "Magyar"
    "english": "en", "greek": "el", "polish": "pl", "hungarian": "hu",
    "eng": "en", "ell": "el", "gre": "el", "pol": "pl", "hun": "hu",  # ISO 639-2 codes
    "ellinika": "el", "elliniká": "el", "język polski": "pl", "jezyk polski": "pl", "magyar nyelv": "hu",
    "angielski": "en", "grecki": "el", "polski": "pl", "węgierski": "hu", "wegierski": "hu",  # the names in Polish
    "angol": "en", "görög": "el", "lengyel": "pl",  # in Hungarian
    "αγγλικά": "en", "ελληνικά": "el", "πολωνικά": "pl", "ουγγρικά": "hu",  # in Greek
}
"""Every way of writing a language that means it alone, lower case (:func:`_plain`) -> its code."""

_COUNTRIES = {"gr": "el", "cy": "el", "uk": "en", "gb": "en", "us": "en", "ie": "en"}
"""Countries' codes written for their language's (Greece's GR is not Greek's code, el): suggested, never taken."""


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
    if "-" in text and primary in LANGUAGES:  # a tag: "el-gr", "pl-pl", "hu-hu", "en-gb"
        return primary
    return None


def likely_language(written: str) -> str | None:
    """The code ``written`` most likely meant when it means none for certain (:func:`language_code` None): a country's
    code (``"gr"`` -> ``"el"``), or a name or code a letter or two away (``"grek"`` -> ``"el"``); None when nothing is
    close."""
    text = _plain(written)
    primary = text.split("-", 1)[0]
    if primary in _COUNTRIES:
        return _COUNTRIES[primary]
    close = difflib.get_close_matches(text, list(_ALIASES), n=1, cutoff=0.7)
    return _ALIASES[close[0]] if close else None
