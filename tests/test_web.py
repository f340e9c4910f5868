"""The phone view's HTTP API (Flask test client): its pages, state, frame and action routes and the bodies
they refuse; its SSE generator, and the server helper."""

from __future__ import annotations

import json
import re
import threading
import urllib.request

import cv2
import numpy as np
import pytest

from companion import netinfo
from companion.hub import Pairing
from companion.web import create_app, serve, sse_stream
from tests.phones import joined_phone

SECRET = "join-secret-0123456789"


@pytest.fixture
def joined(hub, client):
    """A phone that opened the QR code's link of game g1."""
    hub.set_pairing(Pairing("g1", SECRET, {}))
    assert client.get(f"/join/{SECRET}").status_code == 303
    return client


class Answering:
    """Stands in for the main loop: takes each action from the hub and answers it with ``answer(action)``
    (a dict with hub.ANSWER_KEYS); records what it took in ``taken`` (without the reply future)."""

    def __init__(self, hub, answer):
        self.hub, self.answer = hub, answer
        self.taken: list[dict] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self):
        while not self.stop.is_set():
            for action in self.hub.take_actions():
                reply = action.pop("reply", None)
                self.taken.append(action)
                if reply is not None and self.hub.begin({"reply": reply}):
                    reply.set_result(self.answer(action))
            self.stop.wait(0.005)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join(5)


def written(action, seq=7):
    return {"recorded": [seq], "message": f"{action['action']} recorded", "error": None, "status": 200, "version": seq}


def _jpeg() -> bytes:
    image = np.zeros((48, 64, 3), np.uint8)
    image[:, :32] = (0, 0, 255)
    ok, data = cv2.imencode(".jpg", image)
    assert ok
    return data.tobytes()


def _parse_sse(message: str) -> dict[str, str]:
    fields: dict[str, str] = {}
    for line in message.strip("\n").split("\n"):
        key, _, value = line.partition(": ")
        fields[key] = value
    return fields


def test_phone_page_is_self_contained(client):
    response = client.get("/")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert 'name="viewport"' in html and "width=device-width" in html
    assert "/static/phone.js" in html and "/static/phone.css" in html
    assert "http://" not in html and "https://" not in html  # no CDN, nothing off the box
    for face in range(1, 7):
        assert f'id="count-{face}"' in html
    js = client.get("/static/phone.js")
    assert js.status_code == 200 and b"/api/action" in js.data
    assert "/static/box.js" in html  # the live stream and the exactly-once sending, shared with the flow page
    assert b"EventSource" in client.get("/static/box.js").data
    assert client.get("/static/phone.css").status_code == 200


def test_both_pages_are_an_installable_web_app(client, hub):
    import cv2
    import numpy as np

    pages = [client.get("/").get_data(as_text=True)]
    hub.publish({"game": {"flow": True}})  # a game flow: the flow page
    pages.append(client.get("/").get_data(as_text=True))
    assert "flow.js" in pages[1]
    # the flow page's scripts, in the order each needs the one before (pictures, setup, report form, the page)
    scripts = re.findall(r'<script src="(/static/[^"]+)"', pages[1])
    flow_scripts = [s for s in scripts if s.rsplit("/", 1)[1].startswith("flow")]
    assert flow_scripts == ["/static/flowdraw.js", "/static/flowsetup.js", "/static/flowforms.js", "/static/flow.js"]
    for src in scripts:
        assert client.get(src).status_code == 200, src
    for html in pages:
        assert '<link rel="manifest" href="/static/manifest.webmanifest">' in html
        assert 'rel="apple-touch-icon" href="/static/icons/apple-touch-icon.png"' in html
    response = client.get("/static/manifest.webmanifest")
    assert response.status_code == 200 and response.mimetype == "application/manifest+json"
    manifest = json.loads(response.data)
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    assert manifest["name"] and manifest["short_name"] and manifest["theme_color"].startswith("#")
    purposes = set()
    for icon in manifest["icons"] + [{"src": "/static/icons/apple-touch-icon.png", "sizes": "180x180"}]:
        image = client.get(icon["src"])
        assert image.status_code == 200 and image.mimetype == "image/png", icon
        pixels = cv2.imdecode(np.frombuffer(image.data, np.uint8), cv2.IMREAD_COLOR)
        width, height = (int(v) for v in icon["sizes"].split("x"))
        assert pixels.shape[:2] == (height, width), icon
        purposes.add(icon.get("purpose"))
    assert {"any", "maskable"} <= purposes
    assert {"192x192", "512x512"} <= {icon["sizes"] for icon in manifest["icons"]}  # what Android asks for


def test_api_state_is_latest_view_with_version(client, hub, make_view):
    empty = client.get("/api/state")
    assert empty.status_code == 200 and empty.get_json() == {"version": 0}

    view = make_view([6, 6, 1])
    hub.publish(make_view([2]))
    hub.publish(view)
    body = client.get("/api/state").get_json()
    assert body["version"] == 2
    assert body["game"]["latest"]["total"] == 13
    assert body["game"]["latest"]["counts"]["6"] == 2
    assert body["phone_url"] == view["phone_url"]
    assert "version" not in view  # the published dict is not modified


def test_frame_jpg_404_before_first_frame_then_jpeg(joined, hub, make_view):
    client = joined
    missing = client.get("/frame.jpg")
    assert missing.status_code == 404
    assert missing.is_json and "no frame yet" in missing.get_json()["error"]
    assert missing.headers["Cache-Control"] == "no-store"

    hub.publish(make_view([3]), _jpeg())
    found = client.get("/frame.jpg?v=1")
    assert found.status_code == 200
    assert found.mimetype == "image/jpeg"
    assert found.data[:3] == b"\xff\xd8\xff"
    assert found.headers["Cache-Control"] == "no-store"

    hub.publish(make_view([4]))  # no new JPEG: the last one stays
    assert client.get("/frame.jpg").data == found.data


def test_post_action_read_now_is_accepted_and_undo_is_answered_by_the_loop(joined, hub):
    # read_now only asks for a read (202); undo changes the game: answered once written (200), never "queued"
    response = joined.post("/api/action", json={"action": "read_now"})
    assert response.status_code == 202 and response.get_json() == {"accepted": "read_now"}
    (taken,) = hub.take_actions()
    assert taken["action"] == "read_now" and taken["origin"] == "phone" and taken["client"]
    with Answering(hub, written) as loop:
        response = joined.post("/api/action", json={"action": "undo", "version": 3, "key": "tap-1"})
    assert response.status_code == 200
    assert response.get_json() == {"recorded": [7], "message": "undo recorded", "error": None, "status": 200,
                                   "version": 7}
    assert [(a["action"], a["origin"], a["version"], a["key"], a["client"]) for a in loop.taken] == [
        ("undo", "phone", 3, "tap-1", taken["client"])]


@pytest.mark.parametrize(
    ("kwargs", "problem"),
    [
        ({"data": "{not json", "content_type": "application/json"}, "not valid JSON"),
        ({"data": '{"action": "undo"}', "content_type": "text/plain"}, "Content-Type: application/json"),
        ({"json": ["undo"]}, '"action" key'),
        ({"json": {"what": "undo"}}, "unknown field 'what': this request takes version, key, action, label"),
        ({"json": {"action": "quit"}}, "unknown action 'quit'"),
        ({"json": {"action": "explode"}}, "unknown action 'explode'"),
        ({"json": {"action": None}}, "unknown action null;"),  # as the phone wrote it, not Python's None
    ],
)
def test_post_action_rejects_bad_requests(joined, hub, kwargs, problem):
    response = joined.post("/api/action", **kwargs)
    assert response.status_code == 400
    assert problem in response.get_json()["error"]
    assert hub.take_actions() == []


def test_sse_stream_sends_current_snapshot_first_then_changes(hub, make_view):
    hub.publish(make_view([1, 2]))
    stream = sse_stream(hub, heartbeat_s=0.05)
    assert next(stream).startswith("retry:")
    first = _parse_sse(next(stream))
    assert first["event"] == "state" and first["id"] == "1"
    assert json.loads(first["data"])["game"]["latest"]["total"] == 3

    beat = _parse_sse(next(stream))  # nothing new within heartbeat_s: a heartbeat the page sees, with its period
    assert beat["event"] == "heartbeat" and json.loads(beat["data"]) == {"every_s": 0.05}

    hub.publish(make_view([6, 6, 6]))
    update = _parse_sse(next(stream))
    assert update["id"] == "2"
    data = json.loads(update["data"])
    assert data["version"] == 2 and data["game"]["latest"]["counts"]["6"] == 3
    stream.close()


def test_sse_stream_ends_when_stopped(hub):
    stop = threading.Event()
    stream = sse_stream(hub, heartbeat_s=0.01, stop=stop)
    next(stream), next(stream)
    stop.set()
    assert [_parse_sse(m)["event"] for m in stream] in ([], ["heartbeat"])


def test_events_route_streams_state(client, hub, make_view):
    hub.publish(make_view([5]))
    response = client.get("/api/events", buffered=False)
    assert response.status_code == 200
    assert response.mimetype == "text/event-stream"
    chunks = response.response  # the generator; read just the first two messages
    assert next(chunks).decode().startswith("retry:")
    assert '"total":5' in next(chunks).decode()
    response.close()


def test_serve_runs_on_loopback_and_shuts_down(hub, make_view):
    hub.publish(make_view([2, 2]))
    server = serve(create_app(hub), host="127.0.0.1", port=0)
    try:
        assert server.port > 0 and server.url == f"http://127.0.0.1:{server.port}/"
        with urllib.request.urlopen(server.url + "api/state", timeout=5) as response:
            assert json.load(response)["game"]["latest"]["total"] == 4
    finally:
        server.shutdown()
    with pytest.raises(OSError):
        urllib.request.urlopen(server.url + "api/state", timeout=2)


def test_phone_url_brackets_an_ipv6_address():
    """``--host ::1`` (or ``web.host = "fd00::20"``) printed ``http://::1:8080/``, a link no phone opens: an IPv6
    address goes in brackets (RFC 3986 3.2.2), a zone's ``%`` as ``%25`` (RFC 6874)."""
    assert netinfo.phone_url(8080, host="::1") == "http://[::1]:8080/"
    assert netinfo.phone_url(8093, host="fd00::20") == "http://[fd00::20]:8093/"
    assert netinfo.phone_url(8080, host="fe80::1%wlan0") == "http://[fe80::1%25wlan0]:8080/"
    assert netinfo.join_url(netinfo.phone_url(8080, host="::1"), "s3cret") == "http://[::1]:8080/join/s3cret"
    assert netinfo.phone_url(8080, host="companion.local") == "http://companion.local:8080/"


def test_phone_url_uses_given_host_and_checks_port():
    assert netinfo.phone_url(8080, host="192.168.1.20") == "http://192.168.1.20:8080/"
    with pytest.raises(ValueError, match="port"):
        netinfo.phone_url(0, host="192.168.1.20")
    address = netinfo.lan_address()
    assert address.count(".") == 3 and all(0 <= int(part) <= 255 for part in address.split("."))


class _FakeSocket:
    """Stands in for a UDP socket: records connect(); has no send methods, so sending would fail."""

    def __init__(self, address: str | None):
        self.address = address
        self.connected_to = None
        self.closed = False

    def connect(self, target):
        self.connected_to = target
        if self.address is None:
            raise OSError(101, "Network is unreachable")

    def getsockname(self):
        return (self.address, 50000)

    def close(self):
        self.closed = True


@pytest.mark.parametrize(("address", "expected"),
                         [("192.168.1.20", "192.168.1.20"), (None, "127.0.0.1"), ("0.0.0.0", "127.0.0.1")])
def test_lan_address_only_connects_a_udp_socket(monkeypatch, address, expected):
    made = []

    def fake_socket(family, kind):
        assert (family, kind) == (netinfo.socket.AF_INET, netinfo.socket.SOCK_DGRAM)
        made.append(_FakeSocket(address))
        return made[-1]

    monkeypatch.setattr(netinfo.socket, "socket", fake_socket)
    assert netinfo.lan_address() == expected
    assert len(made) == 1 and made[0].closed
    host = made[0].connected_to[0]
    assert host.startswith("10.")  # a private address: only its route is looked up
    assert netinfo.phone_url(8080) == f"http://{expected}:8080/"


def test_post_action_survives_hostile_bodies(joined, hub):
    client = joined
    nested = "[" * 100_000 + "]" * 100_000
    r = client.post("/api/action", data=nested[:15_000], content_type="application/json")
    assert r.status_code == 400
    r = client.post("/api/action", data=json.dumps({"action": "x" * 20_000}), content_type="application/json")
    assert r.status_code == 413  # bodies over 16 KiB are refused, not echoed back
    r = client.post("/api/action", json={"action": "y" * 1_000})
    assert r.status_code == 400 and len(r.get_data()) < 1_000
    assert hub.take_actions() == []


def test_a_body_nested_too_deeply_is_said_to_be_too_deep_not_bad_json(joined, hub):
    """A phone (or a script) sending lists inside lists 7,000 deep sent JSON: the answer says it is too deep."""
    nested = "[" * 7_000 + "]" * 7_000
    r = joined.post("/api/action", data=nested, content_type="application/json")
    assert r.status_code == 400
    error = r.get_json()["error"]
    assert error.startswith("the body is nested too deeply") and "not valid JSON" not in error
    assert hub.take_actions() == []


def test_a_body_with_a_number_too_long_is_said_so_not_bad_json(joined, hub):
    """A 5000-digit number is JSON Python refuses to read (more than 4300 digits): the phone was told "not valid
    JSON"; as a score file or a dice profile says it, the number is too long, in the phone's language."""
    body = '{"action": "undo", "version": ' + "9" * 5000 + "}"
    r = joined.post("/api/action", data=body, content_type="application/json")
    assert r.status_code == 400
    error = r.get_json()["error"]
    assert error.startswith("the body holds a number too long to be read") and "not valid JSON" not in error
    r = joined.post("/api/action", data=body, content_type="application/json", headers={"Accept-Language": "pl"})
    error = r.get_json()["error"]
    assert error.startswith("treść żądania zawiera liczbę zbyt długą") and "Exceeds" not in error
    r = joined.post("/api/action", data=b'{"action": "\xff"}', content_type="application/json")
    assert "not valid JSON" in r.get_json()["error"]  # bytes that are no UTF-8 text: not JSON, as before
    assert hub.take_actions() == []


@pytest.mark.parametrize("route, body, field", [
    ("/api/report", {"player": "Ann", "form": "vp", "values": {"vp": 2}, "playr": "Bob"}, "playr"),
    ("/api/action", {"action": "undo", "lable": "Settle"}, "lable"),
    ("/api/seat", {"player": "Ann", "seat": 2}, "seat"),
    ("/api/camera", {"id": 3, "answer": "confirm", "choise": "Explore"}, "choise"),
])
def test_a_field_no_route_reads_is_refused_by_name_and_nothing_is_done(joined, hub, route, body, field):
    """A misspelt field was ignored: a report whose player or label was lost in a typo went through as if
    it were not there. The answer names the field and what the request takes."""
    r = joined.post(route, json={**body, "version": 0, "key": "k1"})
    assert r.status_code == 400
    answer = r.get_json()
    assert answer["error"].startswith(f"unknown field {field!r}: this request takes version, key, ")
    assert answer.get("field") == field
    assert hub.take_actions() == []


def test_a_json_null_body_is_said_to_be_no_object_and_bad_json_is_still_named(joined, hub):
    """`null` is JSON: the answer said 'not valid JSON', which sent a script's author looking for a syntax error."""
    r = joined.post("/api/report", data="null", content_type="application/json")
    assert r.status_code == 400 and r.get_json()["error"].startswith("the body must be a JSON object, e.g. ")
    r = joined.post("/api/report", data="{nope", content_type="application/json")
    assert r.status_code == 400 and r.get_json()["error"].startswith("the body is not valid JSON; send e.g. ")
    assert hub.take_actions() == []


@pytest.mark.parametrize("route, body", [("/api/owner/ask", {"key": "k1"}),
                                         ("/api/owner/settings", {"setting": "box.language", "value": "el",
                                                                  "key": "k1"})])
def test_the_owner_routes_example_shows_the_version_they_ask_for(joined, hub, route, body):
    """The answer to a body without "version" said it was missing and gave an example without it."""
    r = joined.post(route, json=body)
    assert r.status_code == 400
    error = r.get_json()["error"]
    assert error.startswith("'version' is missing") and '"version": 12' in error.partition("e.g.")[2]
    assert hub.take_actions() == []


def test_run_prints_the_join_link_on_one_line(tmp_path, monkeypatch, capsys):
    import re
    import stat

    from companion.cli import main

    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path / "data"))
    box = ["--no-screen", "--no-gpio", "--once", "--fast", "--max-frames", "2", "--host", "127.0.0.1", "--port", "0",
           "--db", str(tmp_path / "d.sqlite3")]
    assert main(["demo", *box]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if line.startswith("phone view at ")]
    assert len(lines) == 1
    assert re.fullmatch(r"phone view at http://127\.0\.0\.1:\d+/join/[A-Za-z0-9_-]{16,}", lines[0]), lines
    key = tmp_path / "data" / "phone-view.key"
    assert stat.S_IMODE(key.stat().st_mode) == 0o600  # the cookie key, private to the box's user
    assert main(["demo", *box]) == 0  # the same game again: the same secret (phones stay joined)
    again = [line for line in capsys.readouterr().out.splitlines() if line.startswith("phone view at ")]
    assert again[0].rsplit("/", 1)[1] == lines[0].rsplit("/", 1)[1]


def test_too_large_body_is_a_json_413(hub):
    client = joined_phone(hub)
    response = client.post("/api/action", data='{"action": "undo", "pad": "' + "x" * 20000 + '"}',
                           content_type="application/json")
    assert response.status_code == 413
    assert response.is_json and "larger than 16 KiB" in response.get_json()["error"]
    assert hub.take_actions() == []
