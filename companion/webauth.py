"""Who may change the game from a phone: the join cookie, the box's own names, per-client rate limits.

- **Joining.** The touchscreen's QR code carries ``http://ADDRESS:PORT/join/SECRET`` (the loop's
  :class:`companion.hub.Pairing`). Opening it stores Flask's signed session cookie (itsdangerous, the
  box's own key, HttpOnly, SameSite=Strict) with the game, a hash of the secret (never the secret)
  and a random client id. A phone whose cookie's hash matches the current secret is *joined*; any
  other phone is read-only. A new secret (the touchscreen's "new QR code") unjoins every phone.
- **The box's own names.** A request's ``Host`` must be one of the box's addresses or names, so a web
  page on a player's phone cannot reach the box through a name it controls (DNS rebinding); a request
  from another site's page (a foreign ``Origin``) is refused.
- **Rate limits** per client (the joined phone's client id, else its IP address) with Flask-Limiter,
  in memory.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import secrets
import socket
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from companion.hub import Pairing
from companion.i18n import Text

__all__ = ["JOIN_TO_ACT", "Phone", "HostGuard", "RateLimits", "phone_of", "join_cookie", "secret_hash", "split_host"]

JOIN_TO_ACT = Text("scan the QR code on the box to join")
"""What a phone that has not joined is told when it tries to act or to see the camera picture."""

CLIENT_KEY, GAME_KEY, SECRET_KEY = "client", "game", "joined"
"""The session cookie's keys: the phone's client id, the game it joined, the hash of the join secret."""


def secret_hash(secret: str) -> str:
    """What the cookie keeps of a join secret: the first 32 hex digits of its SHA-256 (not the secret)."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()[:32]


@dataclass(frozen=True)
class Phone:
    """The phone making a request, as its session cookie says.

    Attributes:
        joined: its cookie was made from the current join secret: it may act.
        client: its client id (from the cookie, even a stale one), or None without a cookie.
    """

    joined: bool
    client: str | None

    def seats(self, pairing: Pairing | None) -> list[str]:
        """The players whose seats this phone has claimed (empty when not joined)."""
        if not self.joined or pairing is None or self.client is None:
            return []
        return [player for player, client in pairing.claims.items()
                if isinstance(client, str) and hmac.compare_digest(client, self.client)]


def phone_of(cookie: Mapping[str, Any], pairing: Pairing | None) -> Phone:
    """The :class:`Phone` a session cookie's contents describe, against the current ``pairing``."""
    client = cookie.get(CLIENT_KEY)
    client = client if isinstance(client, str) and client else None
    joined_hash = cookie.get(SECRET_KEY)
    joined = (pairing is not None and client is not None and isinstance(joined_hash, str)
              and hmac.compare_digest(joined_hash, secret_hash(pairing.secret)))
    return Phone(joined=joined, client=client)


def join_cookie(cookie: Mapping[str, Any], pairing: Pairing) -> dict[str, str]:
    """The cookie contents of a phone that opened the join link of ``pairing``.

    A phone that had joined before keeps its client id (so its seat stays its own after a second scan);
    a new phone gets a random one (:func:`secrets.token_urlsafe`, 16 bytes).
    """
    client = cookie.get(CLIENT_KEY)
    if not (isinstance(client, str) and 16 <= len(client) <= 64):
        client = secrets.token_urlsafe(16)
    return {CLIENT_KEY: client, GAME_KEY: pairing.game, SECRET_KEY: secret_hash(pairing.secret)}


def split_host(value: str) -> tuple[str, int | None] | None:
    """``"Name:8080"`` / ``"[::1]:8080"`` / ``"10.0.0.2"`` -> (lower-case name without a final dot, port or None);
    None when it is not a host (empty, a bad port, characters no host name has)."""
    value = value.strip()
    if value.startswith("["):
        name, sep, rest = value[1:].partition("]")
        if not sep or (rest and not rest.startswith(":")):
            return None
        port_text = rest[1:] if rest else ""
    elif value.count(":") == 1:
        name, port_text = value.split(":")
    elif ":" in value:
        return None
    else:
        name, port_text = value, ""
    name = name.lower().rstrip(".")
    if not name or len(name) > 253 or any(c.isspace() or c in "/\\@?#" for c in name):
        return None
    if port_text:
        if not port_text.isascii() or not port_text.isdigit() or not 0 < int(port_text) < 65536:
            return None
        return name, int(port_text)
    return name, None


class HostGuard:
    """Decides whether a ``Host`` (and ``Origin``) names this box.

    Allowed: ``localhost``, the machine's host name and ``<hostname>.local`` (mDNS), the extra ``names``
    (``--host`` when it is a name or an address, the name the box announces), and any IP address of this machine
    (checked by asking the kernel to bind it, so a new DHCP address works at once; answers are kept ``ttl_s`` seconds).

    Args:
        names: more names or addresses the box answers to (case-insensitive).
        ttl_s: seconds an IP address's answer (local or not) is kept.
    """

    def __init__(self, names: Iterable[str] = (), ttl_s: float = 60.0) -> None:
        hostname = socket.gethostname().lower().rstrip(".")
        self.names = {"localhost", hostname, f"{hostname}.local"}
        for name in names:
            parsed = split_host(name) if name else None
            if parsed and parsed[0] not in ("0.0.0.0", "::"):
                self.names.add(parsed[0])
        self._ttl_s = ttl_s
        self._local: dict[str, tuple[bool, float]] = {}

    def _is_local_address(self, text: str) -> bool | None:
        """True/False for an IP address of / not of this machine; None when ``text`` is not an IP address."""
        try:
            address = ipaddress.ip_address(text)
        except ValueError:
            return None
        if address.is_loopback:
            return True
        now = time.monotonic()
        known = self._local.get(text)
        if known is not None and now - known[1] < self._ttl_s:
            return known[0]
        family = socket.AF_INET6 if address.version == 6 else socket.AF_INET
        try:
            with socket.socket(family, socket.SOCK_DGRAM) as probe:
                probe.bind((text, 0))  # only an address of one of this machine's interfaces binds
            local = True
        except OSError:
            local = False
        if len(self._local) >= 256:
            self._local.clear()
        self._local[text] = (local, now)
        return local

    def host_allowed(self, host: str | None) -> bool:
        """Whether a ``Host`` header value (``name[:port]``) names this box."""
        parsed = split_host(host) if host else None
        if parsed is None:
            return False
        name = parsed[0]
        if name in self.names:
            return True
        return bool(self._is_local_address(name))

    @staticmethod
    def origin_allowed(origin: str | None, host: str | None, scheme: str = "http") -> bool:
        """Whether an ``Origin`` header is this page's own origin: the request's ``scheme`` and the same
        host and port as ``Host``. No ``Origin`` at all is allowed (same-origin GETs and scripts send
        none); ``null`` is not."""
        if origin is None:
            return True
        parsed_host = split_host(host) if host else None
        try:
            parts = urlsplit(origin.strip())
            port = parts.port
        except ValueError:
            return False
        if parsed_host is None or parts.scheme != scheme or not parts.hostname:
            return False
        default = 443 if scheme == "https" else 80
        return (parts.hostname.lower().rstrip(".") == parsed_host[0]
                and (port or default) == (parsed_host[1] or default))


@dataclass(frozen=True)
class RateLimits:
    """Per-client rate limits (Flask-Limiter notation, e.g. ``"10 per second;120 per minute"``).

    A client is a joined phone (its client id) or else an IP address. Above a limit the answer is 429
    with ``Retry-After``.

    Attributes:
        act: every POST (a tap that asks the main loop to do something).
        read: ``/api/state``, ``/api/me`` and ``/frame.jpg``.
        events: opening ``/api/events`` (a page reconnects every few seconds at most).
        join: opening a join link.
    """

    act: str = "10 per second;120 per minute"
    read: str = "30 per second"
    events: str = "30 per minute"
    join: str = "20 per minute"
