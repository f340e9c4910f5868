"""A touchscreen button's word too long for its button at 480 x 320 breaks with a hyphen between syllables, by
simple rules the box's languages share (vowel | consonant vowel; in Greek before a consonant pair that can begin a
word; between doubled consonants; in Latin letters between two consonants that write two sounds): Greek "Αποίκιση"
(Roll for the Galaxy's Settle) was broken "Απο-ίκιση", splitting the diphthong "οί"; Polish "Kolonizacja" was
"Kolon-izacja". A break never falls between two vowels nor inside a letter pair that writes one sound (Polish "cz",
"rz", Hungarian "sz")."""

from __future__ import annotations

import pytest

from companion import i18n
from companion.screen import TouchScreen
from companion.screen.canvas import syllable_break, vowel
from tests.test_camera_browser import bob_asked_about_his_phase


@pytest.mark.parametrize(("head", "tail", "allowed"), [
    ("Απο", "ίκιση", False),      # inside the diphthong οί
    ("Αποί", "κιση", True),       # Α-ποί-κι-ση
    ("Ανά", "πτυξη", True),       # πτ begins a word (πτώση): it begins the syllable
    ("Απο", "στολή", True),
    ("Απόρ", "ριψη", True),       # a doubled consonant
    ("Ανάμ", "ειξη", False),      # μ, ει: a consonant goes with the vowel after it
    ("Ανάπτυ", "ξη", False),      # 2 letters left
    ("Kolon", "izacja", False),   # Ko-lo-ni-za-cja
    ("Kolo", "nizacja", True),
    ("Produ", "kcja", False),     # k, c: a run of consonants
    ("Eksplo", "racja", True),
    ("Kö", "szönöm", False),      # 2 letters before
    ("Kösz", "önöm", False),
    ("Lete", "lepedés", True),    # Hungarian Settle
    ("Fel", "fedezés", True),     # l, f: two consonants that are two sounds (Latin letters)
    ("Pot", "wierdź", True),      # Polish Confirm
    ("Mar", "zec", False),        # rz writes one sound
    ("Kas", "zab", False),        # nor sz (Hungarian)
    ("Ανάπ", "τυξη", False),      # Greek keeps πτ together
    ("Ανάπτ", "υξη", False),
    ("Ann", " Bob", False),       # not inside a word
])
def test_a_word_breaks_only_before_a_consonant_between_vowels(head, tail, allowed):
    assert syllable_break(head, tail) is allowed


def test_accented_letters_are_vowels_by_their_base_letter():
    assert all(vowel(c) for c in "ίϊΰάóąęőűüöy")
    assert not any(vowel(c) for c in "κλłśżςπ")


@pytest.mark.parametrize("lang", ["el", "pl", "hu"])
def test_a_buttons_word_broken_at_480x320_breaks_between_syllables(store, hub, output_dir, lang):
    bob_asked_about_his_phase(store, hub)
    i18n.set_box_language(lang)
    try:
        screen = TouchScreen(size=(480, 320), phone_url="http://192.168.1.20:8080/")
        screen.render(hub.snapshot())
        screen.save_png(output_dir / f"screen_hyphen_{lang}_480x320.png")
    finally:
        i18n.set_box_language("en")
    texts = [str(text) for text, _rect, _room in screen.drawn]
    broken = [(head[:-1], tail) for head, tail in zip(texts, texts[1:], strict=False)
              if head.endswith("-") and len(head) > 3 and head[-2].isalpha()]
    assert broken, texts   # some button word is too long for its button at this size
    for head, tail in broken:
        word = head.split()[-1]
        assert syllable_break(word, tail.split()[0]), (head, tail)
    if lang == "el":
        assert ("Απο", "ίκιση") not in broken and ("Αποί", "κιση") in broken, broken
