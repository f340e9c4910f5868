"""A phone's body naming a field twice (``{"player": "Ann", "player": "Bob"}``) is refused naming the field: JSON
itself takes the last one silently (RFC 8259 section 4 says names SHOULD be unique), so a hand-made or damaged body
claimed Bob's seat. A ``version`` that is no whole number (``1.5``, ``12.0``) is refused on every route that takes
one, Read now too (it took any). Said in el, pl and hu; nothing refused reaches the loop."""

from __future__ import annotations

import json

import pytest

from companion import i18n
from tests.test_web import Answering, written
from tests.test_web_answers import REQUESTS, _tapped, phone  # noqa: F401 -- the fixture

JSON = {"Content-Type": "application/json"}


@pytest.mark.parametrize(("raw", "field"), [
    (b'{"player": "Ann", "player": "Bob", "version": 12, "key": "k1"}', "player"),
    (b'{"player": "Ann", "version": 12, "version": 13, "key": "k1"}', "version"),
    (b'{"player": "Ann", "version": 12, "key": "k1", "key": "k1"}', "key"),  # the same value twice too
])
def test_a_field_given_twice_is_400_naming_it_and_nothing_is_recorded(phone, hub, raw, field):  # noqa: F811
    with Answering(hub, written) as loop:
        response = phone.post("/api/seat", data=raw, headers=JSON)
    assert response.status_code == 400
    answer = response.get_json()
    assert answer["field"] == field
    assert answer["error"].startswith(f"'{field}' is given twice in the body: send each field once, e.g. ")
    assert loop.taken == []


def test_a_field_given_twice_inside_a_report_s_values_is_refused_too(phone, hub):  # noqa: F811
    raw = (b'{"player": "Ann", "form": "credits", "values": {"credits": 3, "credits": 9}, "version": 12, '
           b'"key": "k1"}')
    with Answering(hub, written) as loop:
        response = phone.post("/api/report", data=raw, headers=JSON)
    assert response.status_code == 400 and response.get_json()["field"] == "credits"
    assert loop.taken == []


def test_a_name_given_twice_in_other_letters_is_two_fields(phone, hub):  # noqa: F811
    # "player" and "Player" are two names to JSON: the second is a field the route does not take, said so
    raw = b'{"player": "Ann", "Player": "Bob", "version": 12, "key": "k1"}'
    response = phone.post("/api/seat", data=raw, headers=JSON)
    assert response.status_code == 400 and response.get_json()["field"] == "Player"


ROUTES = [(url, body) for url, body, *_ in REQUESTS] + [("/api/action", {"action": "read_now"}),
                                                          ("/api/owner/ask", {})]


@pytest.mark.parametrize("version", ["1.5", "12.0", "1e1", "12.5", "-0.5"])
@pytest.mark.parametrize(("url", "body"), ROUTES, ids=[f"{url}-{sorted(body.items())}" for url, body in ROUTES])
def test_a_version_that_is_no_whole_number_is_400_on_every_route(phone, hub, url, body, version):  # noqa: F811
    data = json.dumps(_tapped(body, version=0)).replace('"version": 0', f'"version": {version}').encode()
    with Answering(hub, written) as loop:
        response = phone.post(url, data=data, headers=JSON)
    assert response.status_code == 400, response.get_json()
    answer = response.get_json()
    assert answer["field"] == "version"
    assert answer["error"].startswith("'version' must be the state version the phone showed")
    assert loop.taken == [] and hub.take_actions() == []


@pytest.mark.parametrize("lang", ["el", "pl", "hu"])
def test_a_field_given_twice_is_said_in_the_phones_language(phone, hub, lang):  # noqa: F811
    raw = b'{"player": "Ann", "player": "Bob", "version": 12, "key": "k1"}'
    response = phone.post("/api/seat", data=raw, headers={**JSON, "Accept-Language": lang})
    english = i18n.Text("{field} is given twice in the body: send each field once, e.g. {example}",
                        field="'player'", example="")
    said = response.get_json()["error"]
    assert response.status_code == 400
    assert said.startswith(i18n.say(english, lang).rstrip()) and "'player'" in said
    assert said != i18n.say(english, "en")
