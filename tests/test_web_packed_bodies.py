"""A phone's JSON body sent packed (``Content-Encoding: gzip`` or ``deflate``) is unpacked and read, at most 16 KiB
once unpacked (a small "zip bomb" is a 413, never the box's memory); a coding the box does not read (``br``,
``zstd``) is a 415 naming it, with the ``Accept-Encoding`` the box reads (RFC 9110 sections 8.4 and 12.5.3). Before,
the coding was ignored and the packed bytes called "not valid JSON". Said in el, pl and hu; nothing refused is
recorded. The last tests post through the box's own server on 127.0.0.1."""

from __future__ import annotations

import gzip
import http.client
import json
import zlib

import pytest

from companion import i18n
from companion.hub import Pairing
from companion.web import create_app, serve
from companion.webserver import BODY_LIMIT_BYTES
from tests.test_web import Answering, written
from tests.test_web_answers import FLOW_VIEW, SECRET, _tapped, phone  # noqa: F401 -- the fixture


def _raw_deflate(data: bytes) -> bytes:
    packer = zlib.compressobj(wbits=-zlib.MAX_WBITS)
    return packer.compress(data) + packer.flush()


def _post(phone, data, coding, **headers):  # noqa: F811
    return phone.post("/api/seat", data=data,
                      headers={"Content-Type": "application/json", "Content-Encoding": coding, **headers})


def _padded(size: int) -> bytes:
    """A seat claim of exactly ``size`` bytes: its JSON followed by spaces (JSON allows white space after it)."""
    body = json.dumps(_tapped({"player": "Ann"})).encode()
    return body + b" " * (size - len(body))


@pytest.mark.parametrize(("coding", "pack"), [
    ("gzip", gzip.compress), ("x-gzip", gzip.compress), ("GZIP", gzip.compress), ("deflate", zlib.compress),
    ("deflate", _raw_deflate), ("identity", lambda data: data), ("gzip, identity", gzip.compress),
    ("deflate, gzip", lambda data: gzip.compress(zlib.compress(data))),
])
def test_a_packed_body_is_unpacked_and_read(phone, hub, coding, pack):  # noqa: F811
    sent = _tapped({"player": "Zsófia"})
    with Answering(hub, written) as loop:
        response = _post(phone, pack(json.dumps(sent, ensure_ascii=False).encode()), coding)
    assert response.status_code == 200, response.get_json()
    assert [taken["player"] for taken in loop.taken] == ["Zsófia"]


def test_a_gzip_body_of_two_members_is_both_of_them_and_zero_padding_is_none(phone, hub):  # noqa: F811
    text = json.dumps(_tapped({"player": "Łucja"}), ensure_ascii=False).encode()
    with Answering(hub, written) as loop:
        response = _post(phone, gzip.compress(text[:10]) + gzip.compress(text[10:]) + b"\0" * 8, "gzip")
    assert response.status_code == 200 and loop.taken[0]["player"] == "Łucja"


def test_a_packed_body_in_a_charset_it_names_is_read_in_it(phone, hub):  # noqa: F811
    text = json.dumps(_tapped({"player": "Νίκος"}), ensure_ascii=False).encode("utf-16")
    with Answering(hub, written) as loop:
        response = phone.post("/api/seat", data=gzip.compress(text), headers={
            "Content-Type": "application/json; charset=utf-16", "Content-Encoding": "gzip"})
    assert response.status_code == 200 and loop.taken[0]["player"] == "Νίκος"


def test_16_kib_once_unpacked_is_read_and_one_byte_more_is_413(phone, hub):  # noqa: F811
    assert BODY_LIMIT_BYTES == 16 * 1024
    with Answering(hub, written) as loop:
        whole = _post(phone, gzip.compress(_padded(16 * 1024)), "gzip")
        over = _post(phone, gzip.compress(_padded(16 * 1024 + 1)), "gzip")
    assert whole.status_code == 200, whole.get_json()
    assert over.status_code == 413
    assert over.get_json()["error"] == ('the body is larger than 16 KiB once unpacked ("gzip"); actions and reports '
                                        "are small JSON objects")
    assert len(loop.taken) == 1


@pytest.mark.parametrize(("coding", "pack"), [("gzip", gzip.compress), ("deflate", zlib.compress)])
def test_a_zip_bomb_small_as_sent_is_413_once_unpacked(phone, hub, coding, pack):  # noqa: F811
    bomb = pack(b" " * (4 * 1024 * 1024))  # 4 MiB in about 4 KiB: a body under the limit as sent
    assert len(bomb) < BODY_LIMIT_BYTES
    response = _post(phone, bomb, coding)
    assert response.status_code == 413 and "once unpacked" in response.get_json()["error"]
    assert hub.take_actions() == []


@pytest.mark.parametrize("coding", ["br", "zstd", "compress", "gzip, br", "x-nonsense"])
def test_a_coding_the_box_does_not_read_is_415_naming_it(phone, hub, coding):  # noqa: F811
    response = _post(phone, json.dumps(_tapped({"player": "Ann"})).encode(), coding)
    assert response.status_code == 415
    named = json.dumps(coding.split(", ")[-1])
    assert response.get_json()["error"].startswith(f"the box does not read a body sent with Content-Encoding {named}: "
                                                   "send the JSON as it is, or packed with gzip or deflate")
    assert response.headers["Accept-Encoding"] == "gzip, deflate"
    assert hub.take_actions() == []


@pytest.mark.parametrize(("coding", "data"), [("gzip", b'{"player": "Ann"}'), ("gzip", gzip.compress(b"{}")[:-6]),
                                              ("deflate", b"\x00\x01\x02"), ("gzip", gzip.compress(b"{}") + b"junk")])
def test_bytes_not_packed_as_said_are_400_naming_the_coding(phone, hub, coding, data):  # noqa: F811
    response = _post(phone, data, coding)
    assert response.status_code == 400
    assert response.get_json()["error"].startswith(f'the body is not packed with "{coding}", as its Content-Encoding '
                                                   "says")
    assert hub.take_actions() == []


@pytest.mark.parametrize("lang", ["el", "pl", "hu"])
def test_the_packing_refusals_are_said_in_the_phones_language(phone, hub, lang):  # noqa: F811
    said = {}
    for name, data, coding in (("415", b"{}", "br"), ("413", gzip.compress(b" " * 20000), "gzip"),
                               ("400", b"{}", "deflate")):
        response = _post(phone, data, coding, **{"Accept-Language": lang})
        assert str(response.status_code) == name
        said[name] = response.get_json()["error"]
    english = {
        "415": i18n.Text("the box does not read a body sent with Content-Encoding {coding}: send the JSON as it is, or "
                         "packed with gzip or deflate, e.g. {example}", coding='"br"', example="{}"),
        "413": i18n.Text("the body is larger than {size} KiB once unpacked ({coding}); actions and reports are small "
                         "JSON objects", size=16, coding='"gzip"'),
        "400": i18n.Text("the body is not packed with {coding}, as its Content-Encoding says: send e.g. {example}",
                         coding='"deflate"', example="{}"),
    }
    for name, text in english.items():
        translated = i18n.say(text, lang)
        assert translated != i18n.say(text, "en")
        assert said[name].split("{")[0] == translated.split("{")[0]  # the same words before the example
    assert hub.take_actions() == []


def _joined_cookie(connection: http.client.HTTPConnection) -> str:
    connection.request("GET", f"/join/{SECRET}")
    answer = connection.getresponse()
    answer.read()
    assert answer.status == 303
    return answer.getheader("Set-Cookie").split(";")[0]


@pytest.fixture
def box(hub):
    """The box's own server on 127.0.0.1 (a free port) with a joined phone's cookie; stopped after the test."""
    hub.publish(FLOW_VIEW)
    hub.set_pairing(Pairing("g1", SECRET, {}))
    server = serve(create_app(hub, reply_s=2.0), host="127.0.0.1", port=0)
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        yield connection, _joined_cookie(connection)
    finally:
        connection.close()
        server.shutdown()


def _sent(box, data: bytes, coding: str) -> tuple[int, dict]:
    connection, cookie = box
    connection.request("POST", "/api/seat", body=data, headers={
        "Content-Type": "application/json", "Content-Encoding": coding, "Cookie": cookie,
        "Host": f"127.0.0.1:{connection.port}"})
    answer = connection.getresponse()
    return answer.status, json.loads(answer.read())


def test_on_the_box_s_server_a_gzip_body_is_read_and_a_bomb_is_413(box, hub):
    with Answering(hub, written) as loop:
        read = _sent(box, gzip.compress(json.dumps(_tapped({"player": "Győző"}), ensure_ascii=False).encode()), "gzip")
        bomb = _sent(box, gzip.compress(b" " * (8 * 1024 * 1024)), "gzip")  # 8 MiB in about 8 KiB
        brotli = _sent(box, b"\x0b\x02\x80{}\x03", "br")
    assert read[0] == 200, read
    assert bomb[0] == 413 and "once unpacked" in bomb[1]["error"]
    assert brotli[0] == 415 and '"br"' in brotli[1]["error"]
    assert [taken["player"] for taken in loop.taken] == ["Győző"]
