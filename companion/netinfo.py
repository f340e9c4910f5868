"""The box's address on the local network, for the phone view's URL and QR code.

Nothing here sends a packet: :func:`lan_address` only asks the kernel which local
address it *would* use to reach a private address (``connect`` on a UDP socket picks a
route and a source address without sending anything).
"""

from __future__ import annotations

import ipaddress
import socket

__all__ = ["lan_address", "phone_url", "join_url", "LOOPBACK"]

LOOPBACK = "127.0.0.1"

# A private (RFC 1918) address used only to ask for a route; no packet goes there.
_PROBE = ("10.255.255.255", 9)


def lan_address(probe: tuple[str, int] = _PROBE) -> str:
    """The box's LAN IPv4 address as dotted text, e.g. ``"192.168.1.20"``.

    Asks the kernel for the source address of the route to ``probe`` by ``connect``-ing a
    UDP socket (which sends nothing) and reading ``getsockname()``.

    Args:
        probe: ``(host, port)`` of a private IPv4 address to route towards; only its route
            is looked up.

    Returns:
        The address, or ``"127.0.0.1"`` when there is no network (no route, no interface
        up, or only a link-less address). Never raises for network trouble.
    """
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        sock.connect(probe)
        address = sock.getsockname()[0]
    except OSError:
        return LOOPBACK
    finally:
        sock.close()
    try:
        parsed = ipaddress.IPv4Address(address)
    except ValueError:
        return LOOPBACK
    if parsed.is_unspecified:
        return LOOPBACK
    return str(parsed)


def phone_url(port: int, host: str | None = None) -> str:
    """The URL players open on their phones, e.g. ``"http://192.168.1.20:8080/"``, ``"http://[fd00::20]:8080/"``.

    Args:
        port: the TCP port the phone view listens on (1-65535).
        host: the address to put in the URL; defaults to :func:`lan_address`.

    Raises:
        ValueError: ``port`` is not in 1-65535.
    """
    if not isinstance(port, int) or not 1 <= port <= 65535:
        raise ValueError(f"port must be an integer in 1-65535, got {port!r}")
    host = host or lan_address()
    if ":" in host and not host.startswith("["):  # an IPv6 address is bracketed in a URL (RFC 3986 3.2.2)
        host = "[" + host.replace("%", "%25") + "]"  # and its zone's "%" written %25 (RFC 6874)
    return f"http://{host}:{port}/"


def join_url(phone_view: str, secret: str | None) -> str:
    """The link of the touchscreen's QR code: ``phone_view`` + ``join/<secret>``, e.g.
    ``"http://192.168.1.20:8080/join/Zq3u..."`` (opening it lets a phone act); ``phone_view`` alone
    when there is no secret yet (that link only lets a phone watch).

    Args:
        phone_view: from :func:`phone_url` (ends with ``/``).
        secret: the current join secret (:class:`companion.hub.Pairing`), or None.
    """
    if not secret:
        return phone_view
    return f"{phone_view if phone_view.endswith('/') else phone_view + '/'}join/{secret}"
