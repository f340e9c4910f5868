"""Hungarian's definite article, chosen for the word that follows it.

Hungarian says "a" before a consonant sound and "az" before a vowel sound ("a Név", "az Eclipse", "az 5.", "a
233."). A catalog entry cannot know which word a placeholder will hold, so its translation writes "a(z) {name}";
:func:`hungarian_articles` turns each "a(z)" of a message said in Hungarian into the article its next word takes
once the placeholders are filled. Where the next word's first sound is not plain from its spelling (a path, a
symbol, nothing) the "a(z)" is left as it is: the form Hungarian software writes when it cannot tell.
"""

from __future__ import annotations

import re

__all__ = ["hungarian_article", "hungarian_articles"]

_VOWELS = frozenset("aáeéiíoóöőuúüű")
_VOWEL_LETTER_NAMES = frozenset("FLMNRSXY")  # ef, el, em, en, er, es, iksz, ipszilon: a letter alone, either case
_OPENERS = "'\"„“”«»‘’([{"  # quotes and brackets the word sits in: the article goes by the word inside
_MARK = re.compile(r"\b([aA])\(z\) ")


def _number_article(digits: str) -> str:
    """The article of a whole number as Hungarian reads it (its first spoken word): "egy" (1), "ezer" (1000),
    "egymillió", "öt" (5), "ötven" (50), "ötszáz" (500) take "az"; every other number "a" ("a 10", "a 233")."""
    digits = digits.lstrip("0") or "0"
    lead = int(digits[: len(digits) % 3 or 3])  # the leading group of three: 233 in 233, 5 in 5000, 1 in 1000
    if lead == 1:  # egy, ezer, egymillió
        return "az"
    if lead >= 100:
        return "az" if lead // 100 == 5 else "a"  # ötszáz; száz, kétszáz ...
    if lead >= 10:
        return "az" if lead // 10 == 5 else "a"  # ötven; tíz, tizenöt, húsz ...
    return "az" if lead == 5 else "a"  # öt; nulla, kettő ...


def hungarian_article(following: str) -> str | None:
    """``"a"`` or ``"az"`` for the text that follows the article, or None when its first sound is not plain from its
    spelling (a path, a symbol, nothing). Quotes and brackets before the word are skipped ("az 'Eclipse'")."""
    word = following.lstrip(_OPENERS)
    if not word:
        return None
    match = re.match(r"\d+", word)
    if match:
        return _number_article(match.group())
    first = word[0]
    if not first.isalpha():
        return None
    if first.upper() in _VOWEL_LETTER_NAMES and (len(word) == 1 or not word[1].isalpha()):  # "az S oszlop", "az x"
        return "az"
    return "az" if first.lower() in _VOWELS else "a"


def hungarian_articles(text: str) -> str:
    """``text`` with each "a(z)"/"A(z)" before a word replaced by the article that word takes ("a(z) Név" ->
    "a Név", "A(z) Eclipse" -> "Az Eclipse", "a(z) 5." -> "az 5."); an "a(z)" before a word whose first sound is not
    plain (a path, a symbol) stays."""
    if "(z) " not in text:
        return text

    def fix(match: re.Match) -> str:
        article = hungarian_article(text[match.end():])
        if article is None:
            return match.group()
        return (article.capitalize() if match.group(1) == "A" else article) + " "

    return _MARK.sub(fix, text)
