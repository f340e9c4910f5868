"""Who may act from a phone (companion.webauth through the Flask app): joining by the QR code's link,
read-only phones, the box's own names and origins, rate limits, and the key that signs the cookies."""

from __future__ import annotations

import base64
import json
import socket
import stat
import zlib

import pytest

from companion.hub import Pairing
from companion.paths import web_secret_key
from companion.web import create_app
from companion.webauth import JOIN_TO_ACT, HostGuard, RateLimits, secret_hash, split_host

SECRET = "Zq3uV7-join-secret_xx"
POSTS = [
    ("/api/action", {"action": "read_now"}),
    ("/api/action", {"action": "undo", "version": 1, "key": "k1"}),
    ("/api/seat", {"player": "Ann", "version": 1, "key": "k1"}),
    ("/api/report", {"player": "Ann", "form": "vp", "values": {"vp": 1}, "version": 1, "key": "k1"}),
    ("/api/report/undo", {"player": "Ann", "version": 1, "key": "k1"}),
    ("/api/setup", {"action": "even", "version": 0, "key": "k1"}),
    ("/api/camera", {"id": 1, "answer": "dismiss", "version": 1, "key": "k1"}),
]


def _app(hub, **kw):
    app = create_app(hub, **kw)
    app.testing = True
    return app


@pytest.fixture
def paired(hub, make_view):
    hub.publish(make_view([3, 4]), b"\xff\xd8\xff fake jpeg")
    hub.set_pairing(Pairing("g1", SECRET, {}))
    return hub


def _cookie(client):
    cookie = client.get_cookie("companion")
    assert cookie is not None
    return cookie


def _decoded(value: str) -> dict:
    """The JSON inside Flask's signed cookie (``payload.timestamp.signature``, payload maybe zlib'd)."""
    payload = value.split(".")[1] if value.startswith(".") else value.split(".")[0]
    data = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))
    return json.loads(zlib.decompress(data) if value.startswith(".") else data)


def test_the_join_link_sets_a_strict_httponly_cookie_and_goes_to_the_page(paired):
    client = _app(paired).test_client()
    response = client.get(f"/join/{SECRET}")
    assert response.status_code == 303 and response.headers["Location"] == "/"
    assert response.headers["Referrer-Policy"] == "no-referrer"
    set_cookie = response.headers["Set-Cookie"]
    assert "HttpOnly" in set_cookie and "SameSite=Strict" in set_cookie and "Expires=" in set_cookie
    cookie = _cookie(client)
    contents = _decoded(cookie.value)
    assert SECRET not in cookie.value and SECRET not in json.dumps(contents)  # a hash of it, never the secret
    assert contents["joined"] == secret_hash(SECRET) and contents["game"] == "g1" and len(contents["client"]) >= 16
    assert client.get("/api/me").get_json() == {"joined": True, "seats": [], "message": None}


def test_a_wrong_or_old_secret_is_refused_with_a_page_saying_what_to_do(paired):
    client = _app(paired).test_client()
    response = client.get("/join/not-the-secret")
    assert response.status_code == 403
    page = response.get_data(as_text=True)
    assert "Scan the QR code on the box" in page and 'href="/"' in page
    assert client.get_cookie("companion") is None
    assert client.get("/join/" + "\u00e9" * 40).status_code == 403  # not ASCII: refused, not a crash


def test_a_phone_that_has_not_joined_watches_but_cannot_act_or_see_the_picture(paired):
    client = _app(paired).test_client()
    assert client.get("/").status_code == 200
    assert client.get("/api/state").get_json()["game"]["latest"]["total"] == 7
    events = client.get("/api/events", buffered=False)
    assert events.status_code == 200
    events.close()
    assert client.get("/api/me").get_json() == {"joined": False, "seats": [], "message": JOIN_TO_ACT}
    frame = client.get("/frame.jpg")
    assert frame.status_code == 403 and frame.get_json() == {"error": JOIN_TO_ACT}
    for url, body in POSTS:
        response = client.post(url, json=body)
        assert (url, response.status_code, response.get_json()) == (url, 403, {"error": JOIN_TO_ACT})
    assert paired.take_actions() == []


def test_a_new_secret_unjoins_every_phone_and_a_rescan_keeps_the_phone_s_id(paired):
    client = _app(paired).test_client()
    client.get(f"/join/{SECRET}")
    first_id = _decoded(_cookie(client).value)["client"]
    paired.set_pairing(Pairing("g1", SECRET, {"Ann": first_id, "Bob": "another-phone-id-000"}))
    assert client.get("/api/me").get_json()["seats"] == ["Ann"]  # only its own claims, never another's id
    assert client.get("/frame.jpg").status_code == 200

    paired.set_pairing(Pairing("g1", "a-new-secret-after-revoke", {}))  # the touchscreen: new QR code
    assert client.get("/api/me").get_json() == {"joined": False, "seats": [], "message": JOIN_TO_ACT}
    assert client.get("/frame.jpg").status_code == 403
    assert client.get(f"/join/{SECRET}").status_code == 403  # the old link is dead

    assert client.get("/join/a-new-secret-after-revoke").status_code == 303
    assert _decoded(_cookie(client).value)["client"] == first_id
    assert client.get("/api/me").get_json()["joined"] is True


def test_a_game_started_from_the_setup_keeps_its_phones(paired):
    client = _app(paired).test_client()
    client.get(f"/join/{SECRET}")
    paired.set_pairing(Pairing("session-42", SECRET, {}))  # Start: a new session id, the setup's secret
    assert client.get("/api/me").get_json()["joined"] is True


def test_a_cookie_signed_by_another_box_or_edited_is_not_joined(paired, hub):
    other = _app(paired, secret_key=b"k" * 32).test_client()
    other.get(f"/join/{SECRET}")
    forged = _cookie(other).value
    client = _app(paired, secret_key=b"q" * 32).test_client()
    client.set_cookie("companion", forged)
    assert client.get("/api/me").get_json()["joined"] is False
    client.set_cookie("companion", "garbage.value.sig")
    assert client.get("/api/me").get_json()["joined"] is False


def test_no_pairing_yet_means_nobody_can_join_or_act(hub, make_view):
    hub.publish(make_view([1]))
    client = _app(hub).test_client()
    response = client.get("/join/anything")
    assert response.status_code == 503 and "still starting" in response.get_data(as_text=True)
    assert client.post("/api/action", json={"action": "read_now"}).status_code == 403


@pytest.mark.parametrize("host", ["localhost", "localhost:8080", "127.0.0.1:8080", "[::1]:8080", "127.0.1.1",
                                  socket.gethostname(), socket.gethostname().upper() + ".local:8080", "box.example:80",
                                  "192.0.2.7"])
def test_the_box_answers_to_its_own_names_and_addresses(paired, host):
    client = _app(paired, hosts=["box.example", "192.0.2.7"]).test_client()
    assert client.get("/api/state", headers={"Host": host}).status_code == 200


@pytest.mark.parametrize("host", ["evil.test", "evil.test:8080", "203.0.113.9", "[2001:db8::1]:8080", "",
                                  "local host", "127.0.0.1:80:80", "a@localhost"])
def test_a_foreign_host_is_refused_dns_rebinding(paired, host):
    client = _app(paired).test_client()
    client.get(f"/join/{SECRET}")
    for response in (client.get("/api/state", headers={"Host": host}),
                     client.post("/api/action", json={"action": "read_now"}, headers={"Host": host})):
        assert response.status_code == 403
        assert "does not answer to the name" in response.get_json()["error"]
    assert paired.take_actions() == []


def test_the_machine_s_lan_address_is_its_own():
    from companion.netinfo import lan_address

    address = lan_address()
    assert HostGuard().host_allowed(f"{address}:8080")  # bindable here, so one of ours (or loopback)


@pytest.mark.parametrize("origin", ["http://evil.test", "http://localhost:9999", "https://localhost", "null",
                                    "http://localhost.evil.test", "file://", "not a url"])
def test_another_site_s_page_is_refused(paired, origin):
    client = _app(paired).test_client()
    client.get(f"/join/{SECRET}")
    headers = {"Host": "localhost", "Origin": origin}
    response = client.post("/api/action", json={"action": "read_now"}, headers=headers)
    assert response.status_code == 403 and "another site's page" in response.get_json()["error"]
    assert client.get("/api/state", headers=headers).status_code == 403
    assert paired.take_actions() == []


def test_the_page_s_own_origin_is_accepted(paired):
    client = _app(paired).test_client()
    client.get(f"/join/{SECRET}")
    for host, origin in (("localhost", "http://localhost"), ("localhost:8080", "http://LOCALHOST:8080"),
                         ("localhost:80", "http://localhost")):
        response = client.post("/api/action", json={"action": "read_now"}, headers={"Host": host, "Origin": origin})
        assert response.status_code == 202, (host, origin)


def test_split_host():
    assert split_host("Box.Local.:8080") == ("box.local", 8080)
    assert split_host("[::1]") == ("::1", None)
    assert split_host("[::1]:80") == ("::1", 80)
    for bad in ("", ":80", "a:b", "a:0", "[::1", "[::1]x", "::1", "a b", "x" * 300):
        assert split_host(bad) is None, bad


def test_rate_limits_are_per_phone_and_answer_429_json(paired):
    app = _app(paired, rate_limits=RateLimits(act="2 per minute"))
    ann, bob = app.test_client(), app.test_client()
    ann.get(f"/join/{SECRET}")
    bob.get(f"/join/{SECRET}")
    answers = [ann.post("/api/action", json={"action": "read_now"}) for _ in range(3)]
    assert [a.status_code for a in answers] == [202, 202, 429]
    assert "too many requests from this phone" in answers[2].get_json()["error"]
    assert int(answers[2].headers["Retry-After"]) > 0
    assert bob.post("/api/action", json={"action": "read_now"}).status_code == 202  # another phone: its own limit


def test_joining_is_rate_limited_per_address(paired):
    client = _app(paired, rate_limits=RateLimits(join="3 per minute")).test_client()
    codes = [client.get(f"/join/guess-{k}").status_code for k in range(4)]
    assert codes == [403, 403, 403, 429]


def test_event_streams_are_capped_so_taps_always_find_a_thread(paired):
    client = _app(paired, max_streams=2, streams_per_client=1).test_client()
    other = _app(paired).test_client()  # noqa: F841  (a separate app: its own slots)
    first = client.get("/api/events", buffered=False)
    assert first.status_code == 200
    second = client.get("/api/events", buffered=False)
    assert second.status_code == 503 and int(second.headers["Retry-After"]) >= 10
    assert "live views open" in second.get_json()["error"]
    first.close()  # the stream ends: its slot is free again
    again = client.get("/api/events", buffered=False)
    assert again.status_code == 200
    again.close()


def test_the_event_stream_says_when_this_phone_may_act(paired):
    client = _app(paired, heartbeat_s=0.05).test_client()
    client.get(f"/join/{SECRET}")
    response = client.get("/api/events", buffered=False)
    chunks = response.response
    assert next(chunks).decode().startswith("retry:")
    assert next(chunks).decode().startswith("id: ")
    assert json.loads(next(chunks).decode().split("data: ", 1)[1]) == {"joined": True, "seats": [], "message": None}
    paired.set_pairing(Pairing("g1", "revoked-now", {}))
    seen = ""
    for _ in range(40):  # a bounded read: the change shows within a few short waits
        seen = next(chunks).decode()
        if seen.startswith("event: me"):
            break
    assert json.loads(seen.split("data: ", 1)[1]) == {"joined": False, "seats": [], "message": JOIN_TO_ACT}
    response.close()


def test_the_signing_key_is_made_once_private_and_mended(tmp_path):
    path = tmp_path / "phone-view.key"
    key = web_secret_key(path)
    assert len(key) == 32 and stat.S_IMODE(path.stat().st_mode) == 0o600
    assert web_secret_key(path) == key  # kept: phones stay joined across restarts
    path.chmod(0o644)
    assert web_secret_key(path) == key and stat.S_IMODE(path.stat().st_mode) == 0o600
    path.write_text("not hex")
    mended = web_secret_key(path)
    assert len(mended) == 32 and mended != key and stat.S_IMODE(path.stat().st_mode) == 0o600
    assert not (tmp_path / "phone-view.key.new").exists()


def test_a_signing_key_that_cannot_be_written_is_an_os_error(tmp_path):
    blocker = tmp_path / "data"
    blocker.write_text("a file where the data folder should be")
    with pytest.raises(OSError):
        web_secret_key(blocker / "phone-view.key")
