"""The box found on the network by name: mDNS/DNS-SD with python-zeroconf.

:class:`Announcer` announces, on the box's LAN address, the host ``NAME.local`` (from the box name,
``box.name`` in the configuration: ``"companion"`` -> ``companion.local``) and an ``_http._tcp``
service named after the box (``"companion._http._tcp.local."``, TXT ``path=/``) pointing at the phone
view's port, so phones and laptops that browse for web services (and any that resolve ``.local``)
find it. The QR code keeps the LAN address: many Android phones cannot resolve ``.local``.

A thread of its own looks at the address every :attr:`Announcer.poll_s` seconds: when it changes (Wi-Fi
joined, a new DHCP lease) the announcement is made again on the new address (a new
:class:`zeroconf.Zeroconf`, so a network that came up after the start is joined too); with no
address the announcement is withdrawn. :meth:`Announcer.stop` withdraws it (goodbye packets).
Nothing here stops the box: a network or multicast that does not work is one log line per distinct
problem, and the announcer tries again at the next address change.
"""

from __future__ import annotations

import logging
import re
import socket
import threading
import unicodedata
from collections.abc import Callable, Sequence

from anyascii import anyascii

__all__ = ["SERVICE_TYPE", "Announcer", "announced_name", "host_label", "service_name"]

log = logging.getLogger(__name__)

SERVICE_TYPE = "_http._tcp.local."
"""DNS-SD service type of the phone view (RFC 6763 §7; web pages)."""

DEFAULT_LABEL = "companion"


def host_label(box_name: str) -> str:
    """The box's ``.local`` host label from its name, transliterated to ASCII (``anyascii``): letters a-z and
    digits, other runs as ``-``, at most 63 characters; ``"Kitchen table"`` -> ``"kitchen-table"``,
    ``"Τραπέζι"`` -> ``"trapezi"``, ``"Łódź club #2"`` -> ``"lodz-club-2"``. The box keeps its name as written
    (the DNS-SD service, :func:`service_name`); a name with nothing that spells a letter or digit gives
    ``"companion"``."""
    ascii_text = anyascii(unicodedata.normalize("NFKC", box_name))
    label = re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")[:63].strip("-")
    return label or DEFAULT_LABEL


def service_name(box_name: str) -> str:
    """The full DNS-SD instance name: ``"<box name>._http._tcp.local."``."""
    return f"{box_name}.{SERVICE_TYPE}"


class Announcer:
    """Announces the phone view by mDNS/DNS-SD while the box runs.

    Args:
        box_name: the service instance name (``box.name``; at most 63 bytes, no dots).
        port: the phone view's TCP port.
        address: returns the IPv4 address to announce (dotted text), or None when there is none
            (no network: nothing is announced). Called on the announcer's thread.
        interfaces: the interfaces zeroconf uses, as addresses; None: the announced address only.
        poll_s: seconds between looks at the address (s).

    Use :meth:`start` and :meth:`stop` (or ``with``). :attr:`announced` is the address announced now,
    or None.
    """

    def __init__(self, box_name: str, port: int, address: Callable[[], str | None], *,
                 interfaces: Sequence[str] | None = None, poll_s: float = 10.0) -> None:
        self.box_name = box_name
        self.port = port
        self.address = address
        self.interfaces = interfaces
        self.poll_s = poll_s
        self.announced: str | None = None
        self.host = f"{host_label(box_name)}.local."
        self._zeroconf = None
        self._info = None
        self._stop = threading.Event()
        self._changed = threading.Event()
        self._thread: threading.Thread | None = None
        self._logged: set[str] = set()

    def start(self) -> Announcer:
        """Start the announcer's thread (returns at once; the first announcement follows within ~1 s)."""
        self._thread = threading.Thread(target=self._run, name="mdns", daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        """Withdraw the announcement and end the thread (waits at most ``timeout`` s). Safe twice."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    def __enter__(self) -> Announcer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def wait_announced(self, timeout: float) -> bool:
        """Wait until an address is announced (tests); True when one is."""
        self._changed.wait(timeout)
        return self.announced is not None

    def _run(self) -> None:
        try:
            while not self._stop.is_set():
                try:
                    wanted = self.address()
                except Exception as exc:  # an address lookup that fails is "no network" for now
                    self._log_once(f"cannot read the box's address ({exc})")
                    wanted = None
                if wanted != self.announced:
                    self._withdraw()
                    if wanted is not None:
                        self._announce(wanted)
                    self._changed.set()
                self._stop.wait(self.poll_s)
        finally:
            self._withdraw()

    def _announce(self, address: str) -> None:
        from zeroconf import IPVersion, ServiceInfo, Zeroconf

        try:
            info = ServiceInfo(SERVICE_TYPE, service_name(self.box_name), port=self.port,
                               addresses=[socket.inet_aton(address)], properties={"path": "/"}, server=self.host)
            zc = Zeroconf(interfaces=list(self.interfaces or [address]), ip_version=IPVersion.V4Only)
        except Exception as exc:  # no multicast on this network, an interface gone, a bad name
            self._log_once(f"not announced on the network (mDNS: {type(exc).__name__}: {exc}); phones use the "
                           "QR code's address")
            return
        try:
            zc.register_service(info, allow_name_change=True)
        except Exception as exc:
            self._log_once(f"not announced on the network (mDNS: {type(exc).__name__}: {exc}); phones use the "
                           "QR code's address")
            zc.close()
            return
        self._zeroconf, self._info, self.announced = zc, info, address
        log.info("announced on the network as %s (http://%s:%d/, service %r)", self.host.rstrip("."),
                 self.host.rstrip("."), self.port, info.name)

    def _withdraw(self) -> None:
        zc, info = self._zeroconf, self._info
        self._zeroconf = self._info = None
        self.announced = None
        if zc is None:
            return
        try:
            if info is not None:
                zc.unregister_service(info)
        except Exception as exc:
            log.debug("mDNS goodbye failed: %s", exc)
        finally:
            zc.close()

    def _log_once(self, message: str) -> None:
        if message not in self._logged:
            self._logged.add(message)
            log.warning("%s", message)


def _loopback_only(host: str) -> bool:
    """Whether ``host`` (``--host``) is a loopback address or a name of one: a phone view no phone can reach.

    ``localhost`` and names under it (RFC 6761 section 6.3) are loopback without a look-up; another name is when
    every address it resolves to is (Debian gives the machine's own name ``127.0.1.1`` in ``/etc/hosts``); a name that
    does not resolve is not (the view cannot listen on it either: :func:`companion.web.serve` says so).
    """
    import ipaddress

    name = host.strip().rstrip(".").lower()
    if name.startswith("[") and name.endswith("]"):
        name = name[1:-1]
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        pass
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        found = {info[4][0] for info in socket.getaddrinfo(name, None, proto=socket.IPPROTO_TCP)}
        return bool(found) and all(ipaddress.ip_address(str(address).split("%")[0]).is_loopback for address in found)
    except (OSError, UnicodeError, ValueError):
        return False


def announced_name(box_name: str, host: str, announce: bool = True) -> str | None:
    """The name the box announces itself by (``"companion.local"``: :func:`host_label` and ``.local``) for a phone
    view listening on ``host`` (``--host``) when ``announce`` (``web.announce``) is on; None when nothing is announced
    (announcing off, or a view on loopback only, as :func:`for_phone_view` decides). The phone view answers to it."""
    if not announce or _loopback_only(host):
        return None
    return f"{host_label(box_name)}.local"


def for_phone_view(box_name: str, host: str, port: int) -> Announcer | None:
    """The announcer of a phone view listening on ``host:port`` (``--host``), started; None when the view
    listens on loopback only (phones could not reach it, so nothing is announced).

    ``host`` ``0.0.0.0``/``::`` (every network) announces the LAN address as it changes
    (:func:`companion.netinfo.lan_address`; none while there is no network); an IPv4 address announces
    that address; a name announces the LAN address, unless every address it resolves to is loopback (``localhost``:
    nothing is announced, :func:`_loopback_only`).
    """
    import ipaddress

    from companion.netinfo import LOOPBACK, lan_address

    if _loopback_only(host):
        log.info("phone view on %s only: not announced on the network", host)
        return None
    try:
        literal = ipaddress.ip_address(host)
    except ValueError:
        literal = None
    if literal is not None and literal.version == 4 and not literal.is_unspecified:
        return Announcer(box_name, port, lambda: host).start()

    def address() -> str | None:
        found = lan_address()
        return None if found == LOOPBACK else found

    return Announcer(box_name, port, address).start()
