"""box.language sent from a phone (the owner page) is taken by the configuration file's own rule, and its refusals
name the setting and then the value given, as a native speaker would say them; a language tag is read as BCP 47
writes it (a variant is 5-8 characters; "en-GB-oed" is a grandfathered tag for English)."""

import pytest

from companion.box_settings import BoxSettings
from companion.config import setting
from companion.config_language import language_code
from companion.errors import BadEntry
from companion.i18n import say


@pytest.mark.parametrize(("sent", "code"), [("el-GR", "el"), ("Greek", "el"), ("Ελληνικά", "el"), ("hu_HU", "hu"),
                                            ("pl", "pl"), ("en-GB-oed", "en")])
def test_a_phone_sets_what_the_config_file_takes(sent, code):
    settings = BoxSettings(None)
    settings.change("box.language", sent)
    assert settings.language == code
    assert setting("box.language").value_of(sent) == code  # one rule for both


@pytest.mark.parametrize(("sent", "lang", "said"), [
    (None, "en", "the language (box.language) is one of en, el, pl, hu; the value given: null"),
    (None, "hu", "a nyelv (box.language) ezek egyike lehet: en, el, pl, hu; a megadott érték: null"),
    (10 ** 20, "pl", "język (box.language) musi być jednym z: en, el, pl, hu; podano: liczbę o ponad 18 cyfrach"),
    (10 ** 20, "hu", "a nyelv (box.language) ezek egyike lehet: en, el, pl, hu; a megadott érték: egy 18 jegynél "
                     "hosszabb szám"),
    (10 ** 20, "el", "η γλώσσα (box.language) είναι μία από τις en, el, pl, hu· η τιμή που δόθηκε: ένας αριθμός με "
                     "περισσότερα από 18 ψηφία"),
    (True, "en", "the language (box.language) is one of en, el, pl, hu; the value given: true"),
    ("gr", "en", 'the language (box.language): "gr" is not one of en, el, pl, hu (did you mean "el"?)'),
])
def test_a_refusal_names_the_setting_then_the_value(sent, lang, said):
    settings = BoxSettings(None, language="pl")
    with pytest.raises(BadEntry) as refused:
        settings.change("box.language", sent)
    assert say(refused.value, lang) == said
    assert settings.language == "pl", "nothing changed"


@pytest.mark.parametrize("tag", ["el-abcdefghi", "pl-PL-abcdefghij", "hu-abcdefghi-u-ca-gregory"])
def test_a_variant_longer_than_8_characters_is_no_tag(tag):
    """BCP 47 (RFC 5646 2.2.5): a variant is 5-8 letters or digits, or a digit and 3 more."""
    assert language_code(tag) is None
    with pytest.raises(ValueError, match="not a language tag"):
        setting("box.language").value_of(tag)
    with pytest.raises(BadEntry):
        BoxSettings(None).change("box.language", tag)


def test_the_refusal_says_the_part_is_too_long():
    with pytest.raises(BadEntry) as refused:
        BoxSettings(None).change("box.language", "el-abcdefghi")
    assert say(refused.value, "en") == ('the language (box.language): "el-abcdefghi" is not one of en, el, pl, hu: not '
                                        'a language tag (a part after "-" is longer than 8 letters or digits); write '
                                        '"el", or "el-" and a region such as "el-GR"')
    assert say(refused.value, "pl") == ('język (box.language): "el-abcdefghi" nie jest jednym z: en, el, pl, hu; to '
                                        'nie jest znacznik języka (część po "-" ma więcej niż 8 liter lub cyfr); wpisz '
                                        '"el" albo "el-" z regionem, np. "el-GR"')


@pytest.mark.parametrize(("tag", "code"), [("el-abcdefgh", "el"), ("el-1606", "el"), ("pl-PL-1606nict", "pl"),
                                           ("EN-gb-OED", "en"), ("hu-HU-1901", "hu")])
def test_variants_of_5_to_8_and_the_grandfathered_english_tag_are_taken(tag, code):
    assert language_code(tag) == code
