"""A joined phone for tests that drive the phone view's HTTP API (Flask test client), and the main loop's
action handling on a thread of its own, as the box runs it.

It does what the phone page (``static/box.js``) does: opens the QR code's join link first, and sends each
state-changing tap with the version its screen shows (``session.events`` of the latest state) and a fresh
idempotency key, unless the test gives them itself.
"""

from __future__ import annotations

import secrets
import threading
from typing import Any

from companion.hub import Pairing, StateHub
from companion.web import create_app

TAPS = ("/api/seat", "/api/seat/free", "/api/report", "/api/report/undo", "/api/setup", "/api/camera", "/api/action")
TEST_SECRET = "tests-join-secret-0000"


class PhoneClient:
    """A Flask test client that has joined; ``post`` fills in ``version`` and ``key`` (see module doc)."""

    def __init__(self, client: Any, hub: StateHub) -> None:
        self.client, self.hub = client, hub

    def post(self, url: str, *args: Any, json: Any = None, **kwargs: Any) -> Any:
        if isinstance(json, dict) and url in TAPS:
            session = self.hub.snapshot().view.get("session") or {}
            json = {"version": session.get("events") or 0, "key": secrets.token_hex(8), **json}
        if json is not None:
            kwargs["json"] = json
        return self.client.post(url, *args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.client, name)


def joined_phone(hub: StateHub, **create: Any) -> PhoneClient:
    """A phone that opened the join link of ``hub``'s pairing (one is set when the hub has none yet).

    Args:
        hub: the box's hub (a main loop sets its pairing when it starts).
        create: keyword arguments of :func:`companion.web.create_app` (e.g. ``reply_s``).
    """
    if hub.pairing() is None:
        hub.set_pairing(Pairing("tests", TEST_SECRET, {}))
    app = create_app(hub, **create)
    app.testing = True
    client = app.test_client()
    answer = client.get(f"/join/{hub.pairing().secret}")
    assert answer.status_code == 303, answer.get_data(as_text=True)
    return PhoneClient(client, hub)


class LoopThread:
    """Runs the main loop's action handling in a thread, as the box does (publishing after each); ``pace_s``:
    seconds between its turns."""

    def __init__(self, loop: Any, pace_s: float = 0.02) -> None:
        self.loop, self.pace_s = loop, pace_s
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self.stop.is_set():
            if self.loop.take_actions():
                self.loop.publish()
            self.stop.wait(self.pace_s)  # returns at once when the test stops it

    def __enter__(self) -> LoopThread:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join(5)


def post_through_loop(client: Any, loop: Any, url: str, body: dict[str, Any]) -> Any:
    """POST ``body`` to ``url`` from a phone's test client (in a thread) while this thread plays the main loop
    (``loop.take_actions``), which answers the request; returns the response."""
    answer: list[Any] = []
    phone = threading.Thread(target=lambda: answer.append(client.post(url, json=body)))
    phone.start()
    while phone.is_alive():
        loop.take_actions()
        phone.join(0.005)
    return answer[0]
