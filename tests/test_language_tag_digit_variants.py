"""A language tag whose variant starts with a digit and has 5-8 letters or digits ("el-12345", "pl-PL-1606nict") is
well formed (BCP 47, RFC 5646 2.2.5: a variant is 5-8 letters or digits, or a digit and 3 more) and names its
language: a phone whose browser sent one was answered in English (Babel reads such a variant as no tag at all), and
``box.language`` refused it as "not a language tag". Tags that are no tag stay refused: a variant of one or two
digits ("el-1", "el-12"), one of 9 characters."""

from __future__ import annotations

import pytest

from companion import i18n
from companion.config_language import language_code
from companion.web import create_app


@pytest.mark.parametrize("tag, lang", [
    ("el-12345", "el"),                      # a 5-digit variant
    ("pl-PL-1606nict", "pl"),                # 8 characters starting with a digit, after a region
    ("hu-HU-12345-x-a", "hu"),               # then private use
    ("el-Grek-GR-12345-u-nu-latn", "el"),    # script, region, variant, extension
    ("el-gr-12345678", "el"),                # 8 digits: the longest variant
    ("el-1234", "el"),                       # a digit and 3 more (Babel read it already)
])
def test_a_variant_starting_with_a_digit_names_the_tag_s_language(tag, lang):
    assert language_code(tag) == lang
    assert i18n.pick_language(None, tag, "en") == lang


@pytest.mark.parametrize("tag", ["el-1", "el-12", "el-123456789", "el-12345-", "el--12345"])
def test_a_variant_of_the_wrong_length_is_still_no_tag(tag):
    assert language_code(tag) is None
    assert i18n.pick_language(None, f"{tag}, hu;q=0.5", "en") == "hu"   # passed over: the next entry decides


@pytest.mark.parametrize("header, lang, words", [
    ("el-12345", "el", "σαρώστε τον κωδικό QR στο κουτί για να συνδεθείτε"),
    ("pl-PL-1606nict,pl;q=0.9", "pl", "zeskanuj kod QR na pudełku, by dołączyć"),
    ("hu-HU-12345", "hu", "csatlakozáshoz olvasd be a doboz QR-kódját"),
])
def test_a_phone_sending_such_a_tag_is_answered_in_its_language(hub, header, lang, words):
    client = create_app(hub).test_client()
    page = client.get("/", headers={"Accept-Language": header})
    assert page.status_code == 200 and f'<html lang="{lang}"' in page.get_data(as_text=True)
    refused = client.post("/api/seat", json={"player": "Ann", "version": 0, "key": "k1"},
                          headers={"Accept-Language": header})
    assert refused.status_code == 403 and refused.get_json()["error"] == words
