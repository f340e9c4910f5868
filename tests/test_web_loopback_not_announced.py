"""A box whose phone view listens on loopback only, given by name (``--host localhost``) as by address, announces
nothing on the network and does not answer to ``companion.local``: it announced the LAN address, where nothing
listened, and answered to the announced name. A name is loopback when every address it resolves to is (RFC 6761
section 6.3 for ``localhost``; Debian gives the machine's own name 127.0.1.1)."""

from __future__ import annotations

import socket

import pytest

from companion import mdns
from companion.commands.box import phone_view_names
from companion.mdns import announced_name, for_phone_view
from companion.web import create_app


@pytest.mark.parametrize("host", ["localhost", "LOCALHOST", "localhost.", "box.localhost", "127.0.1.1", "[::1]",
                                  "::1"])
def test_a_view_on_loopback_by_name_or_address_announces_nothing(hub, host):
    assert announced_name("companion", host, True) is None
    assert for_phone_view("companion", host, 8080) is None  # no announcer made, no thread started
    names = phone_view_names(host, "companion", True)
    assert not any(name.endswith(".local") for name in names)
    answer = create_app(hub, hosts=names).test_client().get("/api/state", headers={"Host": "companion.local:8080"})
    assert answer.status_code == 403


def _resolving(table):
    def getaddrinfo(name, port, *args, **kwargs):
        if name not in table:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return [(socket.AF_INET6 if ":" in a else socket.AF_INET, socket.SOCK_STREAM, 6, "", (a, 0))
                for a in table[name]]
    return getaddrinfo


@pytest.mark.parametrize(("addresses", "announced"), [
    (["127.0.1.1"], None),  # the machine's own name on Debian
    (["127.0.0.1", "::1"], None),
    (["127.0.0.1", "192.168.1.20"], "companion.local"),  # also reachable on the LAN
    (["fe80::1%wlan0"], "companion.local"),
])
def test_a_name_is_loopback_when_every_address_it_resolves_to_is(monkeypatch, addresses, announced):
    monkeypatch.setattr(mdns.socket, "getaddrinfo", _resolving({"tablebox": addresses}))
    assert announced_name("companion", "tablebox", True) == announced


def test_a_name_that_does_not_resolve_is_not_taken_for_loopback(monkeypatch):
    monkeypatch.setattr(mdns.socket, "getaddrinfo", _resolving({}))
    assert announced_name("companion", "nowhere.example", True) == "companion.local"


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.168.1.20"])
def test_a_view_on_the_network_still_announces_its_name(host):
    assert announced_name("companion", host, True) == "companion.local"
    assert announced_name("companion", host, False) is None
