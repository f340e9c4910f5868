"""A phone's JSON body is read in the charset its ``Content-Type`` names: before, ``application/json;
charset=utf-16`` (or ``iso-8859-2``) was read as UTF-8 whatever it said, so UTF-8 bytes declared UTF-16 were taken
and a Polish name in ISO-8859-2 was "not valid JSON". Now a body in the charset it names is read in it, a body that is
no text in it is a 400 naming the charset, and a charset the box has no reader for is a 415 naming it, in the phone's
language; no charset ever gives 500 and nothing refused is recorded."""

from __future__ import annotations

import json

import pytest

from companion import i18n
from tests.test_web import Answering, written
from tests.test_web_answers import REQUESTS, SETUP_REQUESTS, SETUP_VIEW, _tapped, phone  # noqa: F401 -- the fixture


def _post(phone, url, body, charset, encoded=None):  # noqa: F811
    data = encoded if encoded is not None else json.dumps(body, ensure_ascii=False).encode(charset)
    return phone.post(url, data=data, headers={"Content-Type": f"application/json; charset={charset}"})


@pytest.mark.parametrize(("charset", "name"), [("utf-16", "Άννα"), ("utf-16le", "Zsófia"), ("utf-16be", "Ann"),
                                               ("iso-8859-2", "Łucja"), ("iso-8859-7", "Νίκος"),
                                               ("windows-1250", "Győző"), ("utf-32", "Ann"), ('"UTF-8"', "Éva")])
def test_a_body_in_the_charset_it_names_is_read_in_it(phone, hub, charset, name):  # noqa: F811
    sent = _tapped({"player": name})
    encoded = json.dumps(sent, ensure_ascii=False).encode(charset.strip('"'))
    with Answering(hub, written) as loop:
        response = _post(phone, "/api/seat", sent, charset, encoded)
    assert response.status_code == 200, response.get_json()
    assert [taken["player"] for taken in loop.taken] == [name]


def test_a_byte_order_mark_before_the_json_is_no_part_of_it(phone, hub):  # noqa: F811
    sent = _tapped({"player": "Ann"})
    encoded = "\ufeff".encode("utf-16le") + json.dumps(sent).encode("utf-16le")
    with Answering(hub, written) as loop:
        response = _post(phone, "/api/seat", sent, "utf-16le", encoded)
    assert response.status_code == 200 and loop.taken[0]["player"] == "Ann"


def test_utf8_bytes_declared_utf16_are_refused_naming_the_charset_and_nothing_is_recorded(phone, hub):  # noqa: F811
    sent = _tapped({"player": "Ann"})
    encoded = json.dumps(sent).encode("utf-8")
    assert len(encoded) % 2 == 1  # no UTF-16 text: an odd number of bytes
    with Answering(hub, written) as loop:
        response = _post(phone, "/api/seat", sent, "utf-16", encoded)
    assert response.status_code == 400
    error = response.get_json()["error"]
    assert error.startswith('the body is not text in "utf-16", the charset its Content-Type names: send the JSON in '
                            "UTF-8")
    assert loop.taken == []


@pytest.mark.parametrize("charset", ["x-nonsense", "base64", "rot13", "zlib", '"a b"', "utf-8x"])
def test_a_charset_the_box_has_no_reader_for_is_a_415_naming_it(phone, hub, charset):  # noqa: F811
    sent = _tapped({"player": "Ann"})
    response = phone.post("/api/seat", data=json.dumps(sent).encode(),
                          headers={"Content-Type": f"application/json; charset={charset}"})
    assert response.status_code == 415, response.get_json()
    named = json.dumps(charset.strip('"'))
    assert response.get_json()["error"].startswith(f"the box does not read the charset {named}: send the JSON in UTF-8")
    assert hub.take_actions() == []


def test_an_empty_charset_names_none_and_the_body_is_read_as_utf8(phone, hub):  # noqa: F811
    sent = _tapped({"player": "Éva"})
    with Answering(hub, written) as loop:
        response = phone.post("/api/seat", data=json.dumps(sent, ensure_ascii=False).encode(),
                              headers={"Content-Type": "application/json; charset="})
    assert response.status_code == 200 and loop.taken[0]["player"] == "Éva"


@pytest.mark.parametrize("lang", ["el", "pl", "hu"])
def test_the_charset_refusals_are_said_in_the_phones_language(phone, hub, lang):  # noqa: F811
    sent = _tapped({"player": "Ann"})
    refused = phone.post("/api/seat", data=json.dumps(sent).encode(),
                         headers={"Content-Type": "application/json; charset=x-nonsense", "Accept-Language": lang})
    undecoded = _post(phone, "/api/seat", sent, "utf-16", json.dumps(sent).encode())
    assert refused.status_code == 415
    english = i18n.Text("the box does not read the charset {charset}: send the JSON in UTF-8, e.g. {example}",
                        charset='"x-nonsense"', example="")
    said = refused.get_json()["error"]
    assert said.startswith(i18n.say(english, lang).rstrip()) and '"x-nonsense"' in said
    assert said != i18n.say(english, "en") and "UTF-8" in said
    assert undecoded.status_code == 400 and '"utf-16"' in undecoded.get_json()["error"]
    assert hub.take_actions() == []


@pytest.mark.parametrize("url", sorted({url for url, *_ in REQUESTS} | {"/api/setup", "/api/box"}))
@pytest.mark.parametrize("charset", ["utf-16", "utf-32-be", "x-nonsense", "undefined", "unicode_escape", "idna"])
def test_no_charset_on_any_phone_route_gives_500(phone, hub, url, charset):  # noqa: F811
    if url == "/api/setup":
        hub.publish(SETUP_VIEW)
    for data in (b'{"action": "next_phase", "version": 12, "key": "k1"}', b"\xff\xfe\x00", b"", "ą".encode()):
        with Answering(hub, lambda action: {"error": "refused", "status": 409, "recorded": []}):
            response = phone.post(url, data=data, headers={"Content-Type": f"application/json; charset={charset}"})
        assert response.status_code < 500, (url, charset, data, response.get_json())
        assert "error" in response.get_json()
