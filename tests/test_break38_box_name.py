"""``box.name`` (config.toml, or the owner page's setting) refused only characters below U+0020, a dot and a
backslash: a name holding U+202E (right-to-left override), U+2028 (line separator), DEL or a zero-width space was
taken, and announced on the network and drawn reversed or broken on the touchscreen and phones. Such characters are
now refused as the control characters they are; letters of every alphabet and emoji joined by U+200D stay."""

from __future__ import annotations

import pytest

from companion.config_values import box_name_setting


@pytest.mark.parametrize("name", ["\u202einapmoc", "box\u2028two", "box\x7f", "box\u200bname", "\u200fbox",
                                  "box\u2029two", "box\ufeff"])
def test_a_box_name_with_an_invisible_or_control_character_is_refused(name):
    with pytest.raises(ValueError) as refused:
        box_name_setting(name)
    assert str(refused.value) == "a box name has no dots, backslashes or control characters"


@pytest.mark.parametrize("name", ["companion", "Τραπέζι", "Stół Ani", "Asztal", "\U0001f469\u200d\U0001f680 box",
                                  "e\u0301te"])
def test_names_of_every_alphabet_and_joined_emoji_are_taken(name):
    assert box_name_setting(name) == name
