"""The phone view's HTTP API (Flask test client), its SSE generator, and the server helper; a phone's rename,
undo and Next through the real main loop."""

from __future__ import annotations

import json
import logging
import re
import threading
import urllib.request

import cv2
import numpy as np
import pytest

from companion import i18n, netinfo
from companion.app import MainLoop
from companion.flow import GameFlow
from companion.flows import FLOWS
from companion.hub import Pairing, StateHub
from companion.player_names import parse_players
from companion.setup_flow import TableSetup
from companion.web import create_app, serve, sse_stream
from device import FakeCamera
from tests.phones import joined_phone, post_through_loop
from vision.motion import StillnessDetector

SECRET = "join-secret-0123456789"


@pytest.fixture
def client(hub):
    """A phone that has not joined (no cookie): it may watch only."""
    app = create_app(hub)
    app.testing = True
    return app.test_client()


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


# -- a phone's rename, undo and Next through the main loop ---------------------------------------------
W, H = 320, 240


def _loop(hub: StateHub, **kw) -> MainLoop:
    frame = np.full((H, W, 3), (60, 90, 40), np.uint8)
    return MainLoop(source=FakeCamera([frame] * 5), reader=None, hub=hub, stillness=StillnessDetector(),
                    stop_at_end=True, sleep=lambda s: None, **kw)




def _race(store, players="Ann,Bob"):
    session = store.start("race", FLOWS["race"].settings(parse_players(players), {}))
    return GameFlow(session, FLOWS["race"])


def test_phone_rename_renames_player_1(store):
    hub = StateHub()
    setup = TableSetup(store, FLOWS["race"])
    loop = _loop(hub, session=None, setup=setup)
    setup.add_player("Player 1")  # what the touchscreen's "Add player" adds
    loop.publish()
    client = joined_phone(hub, reply_s=30)
    rename = {"action": "rename", "name": "Player 1", "new_name": "Ann"}
    response = post_through_loop(client, loop, "/api/setup", rename)
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["message"] == "Player 1 is now Ann"
    assert setup.names == ["Ann"]
    loop.publish()
    assert [p["name"] for p in hub.snapshot().view["game"]["players"]] == ["Ann"]


def test_hub_payload_may_carry_a_name_key():
    hub = StateHub()
    hub.post_action("setup_rename", origin="phone", player="Player 1", name="Ann")
    [action] = hub.take_actions()
    assert (action["action"], action["player"], action["name"]) == ("setup_rename", "Player 1", "Ann")


def test_phone_page_rename_button_posts_name_and_new_name():
    from importlib import resources

    js = (resources.files("companion") / "static" / "flowsetup.js").read_text(encoding="utf-8")
    assert 'action: "rename", name: p.name, new_name: name }' in js  # askName's answer is trimmed and fits MAX_NAME


def test_phone_global_undo_is_refused_in_a_game_and_undo_report_withdraws_only_mine(store, caplog):
    flow = _race(store)
    hub = StateHub()
    loop = _loop(hub, session=flow.session, flow=flow)
    client = joined_phone(hub, reply_s=30)
    e_bob = flow.report("Bob", "hand", {"cards": 4})
    e_ann = flow.report("Ann", "hand", {"cards": 5})
    loop.publish()
    with caplog.at_level(logging.INFO, logger="companion"):
        response = client.post("/api/action", json={"action": "undo"})
        assert response.status_code == 403
        # the refusal names the button players tap, never the API's path or a JSON body
        assert response.get_json()["error"] == ("in a game a phone withdraws only its own report: pick your seat and "
                                                "tap “Undo my last report”; the Undo of the whole table is on the "
                                                "touchscreen")
        assert hub.take_actions() == []  # nothing queued
        for lang, button in (("el", "«Αναιρώ την αναφορά μου»"), ("pl", "„Cofnij moje ostatnie zgłoszenie”"),
                             ("hu", "„Utolsó bejelentésem visszavonása”")):
            said = client.post("/api/action", json={"action": "undo"}, headers={"Accept-Language": lang})
            assert said.status_code == 403 and button in said.get_json()["error"]
            assert "/api/" not in said.get_json()["error"] and "{" not in said.get_json()["error"]
        # an old phone page that still queues a plain undo: the loop refuses it, and says so in the log
        hub.post_action("undo", origin="phone")
        loop.take_actions()
    assert {e_bob.seq, e_ann.seq} <= set(flow.session.replay().applied)
    assert any("undo (phone) refused" in r.getMessage() for r in caplog.records)
    # Ann's phone withdraws Ann's report only (logged with its origin)
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="companion"):
        response = post_through_loop(client, loop, "/api/report/undo", {"player": "Ann"})
    assert response.status_code == 200, response.get_json()
    applied = set(flow.session.replay().applied)
    assert e_ann.seq not in applied and e_bob.seq in applied
    assert any(f"undo_report (phone): Ann: report #{e_ann.seq} undone" in r.getMessage() for r in caplog.records)


def test_touchscreen_undo_still_withdraws_the_newest_event_and_is_logged(store, caplog):
    flow = _race(store)
    hub = StateHub()
    loop = _loop(hub, session=flow.session, flow=flow)
    flow.report("Bob", "hand", {"cards": 4})
    e_ann = flow.report("Ann", "hand", {"cards": 5})
    with caplog.at_level(logging.INFO, logger="companion"):
        hub.post_action("undo", origin="touchscreen")
        loop.take_actions()
    assert e_ann.seq not in set(flow.session.replay().applied)
    assert any(r.getMessage() == f"undo (touchscreen): event {e_ann.seq + 1} withdraws event {e_ann.seq}"
               for r in caplog.records)


def test_d6_phone_undo_still_accepted_and_logged(store, caplog):
    # a phone's d6 undo is answered once written (200), no longer queued (202)
    from rules.d6 import D6_GAME

    session = store.start(D6_GAME.name, {"source": "fake"})
    read = session.append("dice_read", {"values": [3, 4], "image": None}, origin="camera")
    hub = StateHub()
    loop = MainLoop(source=FakeCamera([np.zeros((H, W, 3), np.uint8)]), reader=object(), session=session, hub=hub,
                    stillness=StillnessDetector(), sleep=lambda s: None)
    loop.publish()
    client = joined_phone(hub, reply_s=30)
    with caplog.at_level(logging.INFO, logger="companion"):
        assert post_through_loop(client, loop, "/api/action", {"action": "undo"}).status_code == 200
    assert read.seq not in set(session.replay().applied)
    assert any(r.getMessage() == f"undo (phone): event {read.seq + 1} withdraws event {read.seq}"
               for r in caplog.records)


def test_phone_next_moves_the_round_with_origin_phone(store, caplog):
    flow = _race(store)
    hub = StateHub()
    loop = _loop(hub, session=flow.session, flow=flow)
    client = joined_phone(hub, reply_s=30)
    flow.report("Ann", "select", {"action": "Explore +5"})
    flow.report("Bob", "select", {"action": "Settle"})
    loop.publish()
    assert hub.snapshot().view["game"]["next"]["label"] == "I Explore done"
    # a stale label (another phone already pressed Next): nothing moves
    stale = client.post("/api/action", json={"action": "next_phase", "label": "Reveal"})
    assert stale.status_code == 409 and "I Explore done" in stale.get_json()["error"]
    assert hub.take_actions() == []
    with caplog.at_level(logging.INFO, logger="companion"):
        response = post_through_loop(client, loop, "/api/action", {"action": "next_phase", "label": "I Explore done"})
    assert response.status_code == 200, response.get_json()
    last = flow.session.events()[-1]
    assert (last.kind, last.origin) == ("phase_done", "phone")
    assert any(r.getMessage().startswith("next_phase (phone):") for r in caplog.records)
    loop.publish()
    assert hub.snapshot().view["game"]["next"]["label"] == "III Settle done"


def test_a_phones_next_answers_what_the_last_next_asked_only_with_confirm(store):
    """Among the Stars, Bob has not reported: a phone's Next is refused naming him (rulebook 4: every player does one
    action a round); a second Next without ``"confirm": true`` (a phone whose page had not shown that yet) is refused
    again, one with it ends the round; ``confirm`` that is not true or false is a 400 naming it, nothing queued."""
    session = store.start("among", FLOWS["among"].settings(parse_players("Ann,Bob"), {}))
    flow = GameFlow(session, FLOWS["among"])
    hub = StateHub()
    loop = _loop(hub, session=session, flow=flow)
    client = joined_phone(hub, reply_s=30)
    flow.report("Ann", "discard", {})
    loop.publish()
    label = hub.snapshot().view["game"]["next"]["label"]
    for body in ({"action": "next_phase", "label": label}, {"action": "next_phase", "label": label, "confirm": False}):
        refused = post_through_loop(client, loop, "/api/action", body)
        assert refused.status_code == 400 and refused.get_json()["error"].startswith("Bob: no action reported")
    bad = client.post("/api/action", json={"action": "next_phase", "label": label, "confirm": "yes"})
    assert bad.status_code == 400 and bad.get_json()["field"] == "confirm", bad.get_json()
    assert hub.take_actions() == []
    ended = post_through_loop(client, loop, "/api/action", {"action": "next_phase", "label": label, "confirm": True})
    assert ended.status_code == 200, ended.get_json()
    assert [e.kind for e in session.events()] == ["card_discarded", "round_ended"]


def test_phone_next_is_for_game_flows_only(hub, make_view):
    hub.publish(make_view([1, 2]))
    response = joined_phone(hub).post("/api/action", json={"action": "next_phase"})
    assert response.status_code == 400 and "game flow" in response.get_json()["error"]
    assert hub.take_actions() == []


def test_phone_page_has_a_labelled_next_button():
    from importlib import resources

    html = (resources.files("companion") / "templates" / "flow.html").read_text(encoding="utf-8")
    js = (resources.files("companion") / "static" / "flow.js").read_text(encoding="utf-8")
    assert 'id="phone-next"' in html
    assert 'format(_("Next: {action}"), { action: next.label })' in js
    assert 'action: "next_phase", label: label' in js


def test_setup_after_the_game_started_is_refused_at_once(store):
    hub, flow = StateHub(), _race(store)
    loop = _loop(hub, session=flow.session, flow=flow)
    loop.publish()
    response = joined_phone(hub).post("/api/setup", json={"action": "start"})
    assert response.status_code == 409 and "no game is being set up" in response.get_json()["error"]
    assert hub.take_actions() == []


def test_too_large_body_is_a_json_413(hub):
    client = joined_phone(hub)
    response = client.post("/api/action", data='{"action": "undo", "pad": "' + "x" * 20000 + '"}',
                           content_type="application/json")
    assert response.status_code == 413
    assert response.is_json and "larger than 16 KiB" in response.get_json()["error"]
    assert hub.take_actions() == []


# -- the history's downloads ------------------------------------------------------------------


def test_a_finished_race_game_downloads_as_its_record_and_its_bgstats_play(store):
    """The history's two links (``/export/<session>.json`` and ``/export/<session>.bgstats.json``, docs/contracts.md)
    on a joined phone: a 2-player Race game, Ann takes all 24 VP chips in Consume x2 (the pool is 12 per player,
    Race for the Galaxy, Setup), so the game ends at the end of that round with Ann the winner."""
    from companion.library import export_documents
    from tests.race_games import finished_race

    sid = finished_race(store).session.id
    phone = joined_phone(StateHub(), exports=lambda s: export_documents(store, s))
    record = phone.get(f"/export/{sid}.json")
    assert record.status_code == 200 and record.mimetype == "application/json"
    assert f'filename="{sid}.json"' in record.headers["Content-Disposition"]
    game = json.loads(record.get_data(as_text=True))
    assert game["game"] == "race" and game["finished"] is True and game["winners"] == ["Ann"]
    play = phone.get(f"/export/{sid}.bgstats.json")
    assert play.status_code == 200, play.get_data(as_text=True)
    assert play.mimetype == "application/json"
    assert f'filename="{sid}.bgstats.json"' in play.headers["Content-Disposition"]
    bgstats = json.loads(play.get_data(as_text=True))
    assert bgstats["sourceName"] == "tabletop-companion"
    assert [(p["name"], p["winner"]) for p in bgstats["players"]] == [("Ann", True), ("Bob", False)]
    assert "Retry-After" not in record.headers and "Retry-After" not in play.headers  # nothing to wait for
    for wrong in (f"/export/{sid}.csv", f"/export/{sid}.bgstats", "/export/.json", "/export/nosuchgame.bgstats.json",
                  "/export/.bgstats.json", f"/export/{sid}.bgstats.bgstats.json", f"/export/{sid}..json"):
        answer = phone.get(wrong)
        assert answer.status_code == 404 and "Retry-After" not in answer.headers, wrong
        said = answer.get_json()["error"]
        # no game is named ".bgstats" or "<sid>.bgstats": a name that is no download is told what the downloads are
        assert said.startswith("no such export") or wrong.endswith("/nosuchgame.bgstats.json"), (wrong, said)


def test_a_game_not_over_does_not_download_its_hidden_choices(store):
    """Race for the Galaxy: each player chooses an action card in secret and they are revealed together (Race for the
    Galaxy rulebook, Action selection). A joined phone could download the game being played and read, in its record,
    the card Ann chose before Bob had chosen his: a game not over is refused, both documents, naming why; once the game
    is over it downloads (the test above)."""
    from companion.library import export_documents

    flow = _race(store)
    flow.report("Ann", "start", {"card": "Old Earth"})
    flow.report("Bob", "start", {"card": "Epsilon Eridani"})
    flow.report("Ann", "select", {"action": "Develop"})  # Bob has not chosen: Ann's card is still face down
    assert not flow.over()
    phone = joined_phone(StateHub(), exports=lambda s: export_documents(store, s))
    for name in (f"{flow.session.id}.json", f"{flow.session.id}.bgstats.json"):
        answer = phone.get(f"/export/{name}")
        assert answer.status_code == 403, name
        text = answer.get_data(as_text=True)
        assert "develop" not in text.lower() and "Content-Disposition" not in answer.headers
        assert "not over" in answer.get_json()["error"]
    greek = phone.get(f"/export/{flow.session.id}.json", headers={"Accept-Language": "el"})
    assert greek.status_code == 403 and "not over" not in greek.get_json()["error"]  # said in the phone's language


def test_the_name_field_and_the_box_take_names_of_one_length(store):
    """The setup's name field took 40 characters while the box's check of a typed text allowed 60 (a name of 61
    read "Name is longer than 60 characters", one of 41-60 "at most 40"): the page's field takes the box's own
    limit, passed into the page, and every too-long name is refused naming that limit."""
    import re

    from companion import web
    from companion.webinput import MAX_TEXT

    hub = StateHub()
    setup = TableSetup(store, FLOWS["race"])
    loop = _loop(hub, session=None, setup=setup)
    loop.publish()
    client = joined_phone(hub, reply_s=30)
    page = client.get("/").get_data(as_text=True)
    most = int(re.search(r'id="setup-name" maxlength="(\d+)"', page).group(1))
    for length in (most + 1, most + 21, MAX_TEXT + 1):
        response = post_through_loop(client, loop, "/api/setup", {"action": "player", "name": "A" * length})
        assert response.status_code == 400 and f" {most} characters" in response.get_json()["error"], length
    response = post_through_loop(client, loop, "/api/setup", {"action": "player", "name": "B" * most})
    assert response.status_code == 200, response.get_json()
    assert setup.names == ["B" * most]
    web.MAX_NAME, kept = 12, web.MAX_NAME  # one place: the page reads the box's constant
    try:
        assert 'id="setup-name" maxlength="12"' in client.get("/").get_data(as_text=True)
    finally:
        web.MAX_NAME = kept


def _post_in(lang: str, client, loop, url: str, body: dict):
    """POST ``body`` from a phone whose language is ``lang`` while this thread plays the main loop."""
    answer: list = []
    headers = {"Accept-Language": lang}
    phone = threading.Thread(target=lambda: answer.append(client.post(url, json=body, headers=headers)))
    phone.start()
    while phone.is_alive():
        loop.take_actions()
        phone.join(0.005)
    return answer[0]


def test_a_report_the_table_has_moved_past_is_409_with_its_reason_in_the_phones_language(store):
    """A well-formed report on a form the table has closed (Roll for the Galaxy p.2: a player's setup is done once they
    select a phase) and a phase selection withdrawn after Reveal (p.4: the selections are public and run this round)
    are refused 409, as a stale tap: the state moved on. The phone page draws the state the answer carries and shows
    the reason (box.js ``problem``), here in Polish. A malformed report (a form the game has not) stays 400."""
    from tests.test_flow import faction_label

    session = store.start("roll", FLOWS["roll"].settings(parse_players("Ann,Bob"), {}))
    flow = GameFlow(session, FLOWS["roll"])
    ann_setup = {"faction": faction_label(1), "home_world": "Old Earth", "development": "Advanced Logistics",
                 "world": "Spice World"}
    flow.report("Ann", "setup", ann_setup)
    flow.report("Bob", "setup", {"faction": faction_label(2), "home_world": "Alpha Centauri",
                                 "development": "Alien Research Team", "world": "Information Hub"})
    flow.report("Ann", "select", {"phase": "develop", "extra_white": "ship"})
    hub = StateHub()
    loop = _loop(hub, session=flow.session, flow=flow)
    loop.publish()
    client = joined_phone(hub, reply_s=30)
    last = flow.session.last_seq

    closed = _post_in("pl", client, loop, "/api/report", {"player": "Ann", "form": "setup", "values": ann_setup})
    assert closed.status_code == 409, closed.get_json()
    said = closed.get_json()
    assert flow.session.last_seq == last
    why = i18n.Text("{player} has selected a phase, so their setup is done: withdraw the phase selection (Undo my last "
                    "report) to change it", player="Ann")
    assert said["error"] == i18n.localize(why, "pl") and "setup" not in said["error"]
    assert said["state"]["game"]  # the page draws the state the table moved to

    flow.report("Bob", "select", {"phase": "settle"})
    flow.next_phase()  # Reveal
    loop.publish()
    last = flow.session.last_seq
    withdrawn = _post_in("pl", client, loop, "/api/report/undo", {"player": "Ann"})
    assert withdrawn.status_code == 409, withdrawn.get_json()
    assert withdrawn.get_json()["error"].endswith("„Cofnij ostatni wpis stołu” w telefonie)")

    unknown = _post_in("pl", client, loop, "/api/report", {"player": "Ann", "form": "setupp", "values": {}})
    assert unknown.status_code == 400, unknown.get_json()
    assert flow.session.last_seq == last  # nothing recorded by a refusal
