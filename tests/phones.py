"""A joined phone for tests that drive the phone view's HTTP API (Flask test client).

It does what the phone page (``static/box.js``) does: opens the QR code's join link first, and sends each
state-changing tap with the version its screen shows (``session.events`` of the latest state) and a fresh
idempotency key, unless the test gives them itself.
"""

from __future__ import annotations

import secrets
from typing import Any

from companion.hub import Pairing, StateHub
from companion.web import create_app

TAPS = ("/api/seat", "/api/report", "/api/report/undo", "/api/setup", "/api/camera", "/api/action")
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


class SeatClaims:
    """CONTRACT-12's seat claims as the loop keeps them, for tests whose stand-in loop is not
    ``MainLoop`` (e.g. ``flow.handle_action`` in a thread): ``claim_seat`` takes a free seat for the
    phone's client id and refuses another phone's; ``report``/``undo_report`` for a seat claimed by
    another phone are refused 403. ``answer(action)`` returns the loop's answer, or None when the
    action is not about seats (the caller handles it), and republishes the pairing on a change."""

    def __init__(self, hub: StateHub, game: str = "tests", secret: str = TEST_SECRET) -> None:
        self.hub = hub
        self.claims: dict[str, str] = {}
        hub.set_pairing(Pairing(game, secret, {}))

    def view(self, game_view: dict[str, Any]) -> dict[str, Any]:
        """``game_view`` with ``"claimed"`` on each player (as the loop publishes it)."""
        players = [{**p, "claimed": p.get("name") in self.claims} for p in game_view.get("players") or []]
        return {**game_view, "players": players}

    def answer(self, action: dict[str, Any]) -> dict[str, Any] | None:
        name, player, client = action["action"], action.get("player"), action.get("client")
        holder = self.claims.get(player)
        if name == "claim_seat":
            if holder is not None and holder != client:
                return {"recorded": [], "message": "", "status": 403, "version": action.get("version"),
                        "error": f"{player}'s seat is claimed by another phone; the touchscreen can reassign it"}
            self.claims[player] = client
            pairing = self.hub.pairing()
            self.hub.set_pairing(Pairing(pairing.game, pairing.secret, dict(self.claims)))
            return {"recorded": [], "message": f"{player}'s seat is this phone's", "error": None, "status": 200,
                    "version": action.get("version")}
        if name in ("report", "undo_report") and action.get("origin") == "phone" and holder != client:
            return {"recorded": [], "message": "", "status": 403, "version": action.get("version"),
                    "error": f"{player}'s seat is claimed by another phone; the touchscreen can reassign it"
                    if holder else f"claim {player}'s seat first (tap your name)"}
        return None


def know_pairing_actions(monkeypatch: Any) -> None:
    """Let the hub take CONTRACT-12's pairing actions (``claim_seat``, ``release_seat``, ``revoke_phones``)
    even before the loop side declares them in ``hub.ACTIONS`` (a no-op once it does)."""
    import companion.hub

    monkeypatch.setattr(companion.hub, "ACTIONS", companion.hub.ACTIONS | {"claim_seat", "release_seat", "revoke_phones"})
