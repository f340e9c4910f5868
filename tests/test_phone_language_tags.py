"""A phone's language read as ``box.language`` and ``--language`` read one (:func:`companion.config_language.
language_code` through :func:`companion.i18n.pick_language`): its language cookie, then its browser's
``Accept-Language`` (RFC 9110 12.5.4), then the box's language. "el-GR" is Greek; "el-", "el-1" or "uk-" is no
language tag and is passed over (before, a phone's "el-" was taken as Greek while the box's settings refused it);
a header holding nothing the box speaks gives the box's language and never stops the page; a cookie naming no
language is ignored and cleared."""

from __future__ import annotations

import pytest

from companion import i18n
from companion.config_language import language_refusal
from companion.web import create_app, serve
from companion.webserver import LANG_COOKIE
from tests.test_phone_browser import browser, join_url, phone_context  # noqa: F401 (the browser fixture)


@pytest.mark.parametrize("cookie, header, box, lang", [
    ("el", None, "hu", "el"),
    ("EL-gr", "pl", "hu", "el"),                       # a tag, case aside: its language
    ("el-", "pl", "hu", "pl"),                         # no tag: the header decides
    ("el--GR", None, "hu", "hu"),
    ("uk-", None, "pl", "pl"),
    ("de", "hu-HU", "en", "hu"),                       # a language the box does not speak: the header decides
    (None, "el-", "hu", "hu"),
    (None, "el-, pl;q=0.5", "hu", "pl"),               # the malformed entry passed over, the next one taken
    (None, "uk-, el-1;q=0.9, hu;q=0.1", "en", "hu"),
    (None, "el-GR-x-poly, pl;q=0.9", "hu", "el"),      # private use says nothing against the language
    (None, "pl;q=abc, el;q=0.2", "hu", "el"),          # a weight that is no number: that entry passed over
    (None, "pl;q=1.5, hu;q=0.4", "en", "hu"),          # a weight above 1 likewise
    (None, "pl;q=0, el;q=0.001", "hu", "el"),          # q=0: "not this language"
    (None, "*, de;q=0.9", "pl", "pl"),
    (None, ";;;,,,==q=", "el", "el"),
    (None, "ελ, ｅｌ", "pl", "pl"),                       # no tag either
    (None, "x" * 9000, "hu", "hu"),
    (None, ", ".join(["de"] * 40 + ["el"]), "hu", "hu"),  # entries beyond the 32 a browser might send are not read
])
def test_a_phones_language_is_read_as_the_boxs_language_is(cookie, header, box, lang):
    assert i18n.pick_language(cookie, header, box) == lang


def test_uk_with_a_dash_is_refused_as_no_tag_rather_than_as_ukrainian():
    said = str(language_refusal("uk-", ("en", "el", "pl", "hu")))
    assert "not a language tag" in said and "Ukrainian" not in said, said
    assert "Ukrainian" in str(language_refusal("uk", ("en", "el", "pl", "hu")))   # "uk" itself stays Ukrainian
    for lang, words in (("el", "δεν είναι ετικέτα γλώσσας"), ("pl", "to nie jest znacznik języka"),
                        ("hu", "ez nem nyelvi címke")):
        assert words in i18n.say(language_refusal("uk-", ("en", "el", "pl", "hu")), lang)


def test_a_cookie_naming_no_language_is_ignored_and_cleared_and_a_good_one_is_kept(hub):
    client = create_app(hub).test_client()
    client.set_cookie(LANG_COOKIE, "el-")
    page = client.get("/", headers={"Accept-Language": "pl-PL,pl;q=0.9"})
    assert page.status_code == 200 and '<html lang="pl"' in page.get_data(as_text=True)
    cleared = [c for c in page.headers.getlist("Set-Cookie") if c.startswith(f"{LANG_COOKIE}=")]
    assert cleared and ("Max-Age=0" in cleared[0] or "Expires=Thu, 01 Jan 1970" in cleared[0]), cleared
    client.set_cookie(LANG_COOKIE, "hu")
    kept = client.get("/", headers={"Accept-Language": "el-"})
    assert '<html lang="hu"' in kept.get_data(as_text=True)
    assert not [c for c in kept.headers.getlist("Set-Cookie") if c.startswith(f"{LANG_COOKIE}=")]


def test_a_malformed_header_never_stops_the_page(hub):
    client = create_app(hub).test_client()
    for header in ("el-", "uk-", "q=;;,", "\x7f", "el;q=" + "9" * 400, "el-" * 2000):
        page = client.get("/", headers={"Accept-Language": header})
        assert page.status_code == 200, header
        assert f'<html lang="{i18n.box_language()}"' in page.get_data(as_text=True), header


@pytest.mark.browser
def test_a_phone_with_a_broken_cookie_and_header_gets_the_next_language_and_loses_the_cookie(browser, hub):  # noqa: F811
    server = serve(create_app(hub), host="127.0.0.1", port=0)
    try:
        with phone_context(browser, extra_http_headers={"Accept-Language": "el-, pl;q=0.8"},
                           is_mobile=True, has_touch=True) as (page, errors):
            page.context.add_cookies([{"name": LANG_COOKIE, "value": "uk-", "url": server.url}])
            page.goto(join_url(server, hub))
            assert page.locator("html").get_attribute("lang") == "pl"     # "el-" passed over, Polish next
            assert page.locator("#connection").inner_text() != ""
            assert [c for c in page.context.cookies() if c["name"] == LANG_COOKIE] == []
            page.locator("#lang-pick").select_option("hu")                     # the picker's cookie is a language
            page.wait_for_function("document.documentElement.lang === 'hu'")
            assert [c["value"] for c in page.context.cookies() if c["name"] == LANG_COOKIE] == ["hu"]
        assert errors == []
    finally:
        server.shutdown()
