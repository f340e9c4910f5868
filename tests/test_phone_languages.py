"""What a phone reads when its request is refused is in the phone's language (its ``lang`` cookie, else its browser's
``Accept-Language``), as the rest of the phone view is: the 400s for a body of the wrong shape, the 413 for a body too
large (Flask's ``MAX_CONTENT_LENGTH`` and waitress's own limit, before the body is read), the 429 of the rate limits.
The JSON shapes and statuses are those of the English answers."""

from __future__ import annotations

import contextlib
import json
import socket

import pytest

from companion.hub import Pairing
from companion.web import create_app, serve
from companion.webauth import RateLimits

SECRET = "join-secret-0123456789"


def _phone(hub, lang: str | None = None, cookie: str | None = None, **kw):
    """A joined phone whose browser asks for ``lang`` (Accept-Language), or that picked ``cookie`` on its page."""
    hub.set_pairing(Pairing("g1", SECRET, {}))
    app = create_app(hub, **kw)
    app.testing = True
    client = app.test_client()
    if lang:
        client.environ_base["HTTP_ACCEPT_LANGUAGE"] = lang
    if cookie:
        client.set_cookie("lang", cookie)
    assert client.get(f"/join/{SECRET}").status_code == 303
    return client


# hand-written: what a Greek, Polish and Hungarian reader should see (not copied from the catalogs' code paths)
NOT_JSON = {"el": "δεν είναι έγκυρο JSON", "pl": "nie jest poprawnym JSON-em", "hu": "nem érvényes JSON"}
MISSING_PLAYER = {"el": "λείπει το πεδίο 'player': στείλτε το όνομα ενός παίκτη",
                  "pl": "brakuje 'player': wyślij imię gracza",
                  "hu": "hiányzik a 'player': küldd el egy játékos nevét"}
UNKNOWN_FIELD = {"el": "άγνωστο πεδίο 'playr'", "pl": "nieznane pole 'playr'", "hu": "ismeretlen mező: 'playr'"}
TOO_LARGE = {"el": "μεγαλύτερο από 16 KiB", "pl": "większa niż 16 KiB", "hu": "16 KiB"}
TOO_MANY = {"el": "το πολύ 2 αιτήματα σε 60 s", "pl": "najwyżej 2 żądania w ciągu 60 s",
            "hu": "legfeljebb 2 kérés 60 s alatt"}


@pytest.mark.parametrize("lang", ["el-GR,el;q=0.9", "pl-PL", "hu"])
def test_the_400s_for_a_wrong_shape_speak_the_browsers_language(hub, make_view, lang):
    hub.publish(make_view([3, 4]))
    code = lang[:2]
    phone = _phone(hub, lang)
    r = phone.post("/api/seat", data="{not json", content_type="application/json")
    assert r.status_code == 400 and set(r.get_json()) == {"error"}
    assert NOT_JSON[code] in r.get_json()["error"]
    r = phone.post("/api/seat", json={"version": 1, "key": "k1"})
    assert r.status_code == 400 and r.get_json() == {"error": r.get_json()["error"], "field": "player"}
    assert MISSING_PLAYER[code] in r.get_json()["error"]
    assert '{"player": "Ann", "version": 12, "key": "k1"}' in r.get_json()["error"]  # the example is kept as sent
    r = phone.post("/api/seat", json={"playr": "Ann", "version": 1, "key": "k1"})
    assert r.status_code == 400 and r.get_json()["field"] == "playr"
    assert UNKNOWN_FIELD[code] in r.get_json()["error"]
    assert hub.take_actions() == []


def test_the_page_pickers_language_wins_over_the_browsers(hub, make_view):
    hub.publish(make_view([3, 4]))
    phone = _phone(hub, "en-GB", cookie="pl")
    r = phone.post("/api/action", json={"action": "explode"})
    assert r.status_code == 400 and r.get_json()["field"] == "action" and "allowed" in r.get_json()
    assert r.get_json()["error"].startswith("nieznana akcja 'explode'; telefon może wysłać: ")
    r = phone.post("/api/camera", json={"id": 1, "answer": "maybe", "version": 1, "key": "k1"})
    assert r.status_code == 400 and r.get_json()["error"].endswith("Potwierdź, Odrzuć") \
        and "\"maybe\"" in r.get_json()["error"] and r.get_json()["allowed"] == ["confirm", "dismiss"]


def test_english_stays_the_english_of_the_source(hub, make_view):
    hub.publish(make_view([3, 4]))
    r = _phone(hub, "en").post("/api/seat", json={"version": 1, "key": "k1"})
    assert r.get_json()["error"] == ("'player' is missing: send a player's name, "
                                     'e.g. {"player": "Ann", "version": 12, "key": "k1"}')


@pytest.mark.parametrize("lang", ["el", "pl", "hu"])
def test_a_body_too_large_for_flask_is_a_413_in_the_phones_language(hub, make_view, lang):
    hub.publish(make_view([3, 4]))
    r = _phone(hub, lang).post("/api/action", data='{"action": "undo", "pad": "' + "x" * 20000 + '"}',
                                content_type="application/json")
    assert r.status_code == 413 and set(r.get_json()) == {"error"}
    assert TOO_LARGE[lang] in r.get_json()["error"] and "larger than" not in r.get_json()["error"]


@pytest.mark.parametrize("lang", ["el", "pl", "hu"])
def test_too_many_requests_is_a_429_in_the_phones_language(hub, make_view, lang):
    hub.publish(make_view([3, 4]))
    phone = _phone(hub, lang, rate_limits=RateLimits(act="2 per minute"))
    answers = [phone.post("/api/action", json={"action": "read_now"}) for _ in range(3)]
    assert [a.status_code for a in answers] == [202, 202, 429]
    said = answers[2].get_json()
    assert set(said) == {"error"} and TOO_MANY[lang] in said["error"]
    assert "too many" not in said["error"] and "per" not in said["error"]
    assert int(answers[2].headers["Retry-After"]) > 0


def _answer(port: int, request: bytes) -> tuple[bytes, dict]:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(request)
        data = b""
        with contextlib.suppress(ConnectionResetError):
            while chunk := s.recv(65536):
                data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return head, json.loads(body)


@pytest.mark.parametrize(("header", "expected"), [
    (b"Accept-Language: pl-PL,pl;q=0.9\r\n", "treść jest większa niż 16 KiB"),
    (b"Accept-Language: en\r\nCookie: companion=x; lang=hu\r\n", "a törzs nagyobb, mint 16 KiB"),
    (b"Accept-Language: el\r\n", "το σώμα είναι μεγαλύτερο από 16 KiB"),
])
def test_waitress_refuses_a_body_announced_too_large_in_the_phones_language(hub, header, expected):
    server = serve(create_app(hub), host="127.0.0.1", port=0)
    try:
        head, body = _answer(server.port, b"POST /api/action HTTP/1.1\r\nHost: 127.0.0.1\r\n" + header +
                             b"Content-Type: application/json\r\nContent-Length: 1000000000\r\n\r\n{")
    finally:
        server.shutdown()
    assert head.split()[1] == b"413" and b"application/json" in head
    assert set(body) == {"error"} and expected in body["error"]


# hand-written: "Games" (the chooser's button) as a Greek, Polish and Hungarian player reads it
GAMES = {"el": "Παιχνίδια", "pl": "Gry", "hu": "Játékok"}


@pytest.mark.parametrize("lang", ["el", "pl", "hu"])
def test_a_page_loads_its_words_as_a_file_the_phone_keeps(lang):
    """Every page carried its language's whole catalog inline (~280 KB on each load over the box's Wi-Fi): the page is
    a few KB, the words a script of their own, gzipped, that the phone keeps under a URL that changes with them."""
    import gzip
    import re

    from companion.hub import StateHub

    phone = _phone(StateHub(), lang)
    page = phone.get("/")
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and len(page.get_data()) < 20_000 and GAMES[lang] not in html.split("<body")[0]
    [url] = re.findall(r'<script src="(/words/[^"]+)"', html)
    assert url.startswith(f"/words/{lang}.js?v=")
    words = phone.get(url, headers={"Accept-Encoding": "gzip"})
    assert words.status_code == 200 and words.headers["Content-Encoding"] == "gzip"
    assert "immutable" in words.headers["Cache-Control"] and "Retry-After" not in words.headers
    script = gzip.decompress(words.get_data()).decode("utf-8")
    assert script.startswith("window.BOX_WORDS = ") and len(words.get_data()) < len(script.encode()) / 3
    catalog = json.loads(script[len("window.BOX_WORDS = "):].rstrip().rstrip(";"))
    assert catalog["lang"] == lang and catalog["messages"]["Games"] == GAMES[lang]
    again = phone.get(url, headers={"Accept-Encoding": "gzip", "If-None-Match": words.headers["ETag"]})
    assert again.status_code == 304
    assert phone.get("/words/xx.js").status_code == 404
