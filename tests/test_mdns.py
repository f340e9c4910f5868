"""companion.mdns: the box announced by mDNS/DNS-SD, browsed on loopback with zeroconf's own browser
(bounded waits), updated when its address changes, withdrawn on stop, and harmless without a network."""

from __future__ import annotations

import threading
import time

import pytest

from companion.mdns import SERVICE_TYPE, Announcer, for_phone_view, host_label, service_name

zeroconf = pytest.importorskip("zeroconf")

LOOPBACK = "127.0.0.1"
WAIT_S = 10.0


class Address:
    """The box's address as the announcer looks it up (``value``: None is no network), counting the looks."""

    def __init__(self, value: str | None) -> None:
        self.value, self.looks = value, 0
        self._looked = threading.Condition()

    def __call__(self) -> str | None:
        with self._looked:
            self.looks += 1
            self._looked.notify_all()
        return self.value

    def wait_looks(self, more: int) -> None:
        """Wait until the announcer has looked ``more`` times again (each look after acting on the one before)."""
        with self._looked:
            target = self.looks + more
            assert self._looked.wait_for(lambda: self.looks >= target, WAIT_S), f"fewer than {more} looks"


class Browser(zeroconf.ServiceListener):
    """zeroconf's ServiceBrowser on loopback, keeping what it resolved: name -> ServiceInfo (None once removed)."""

    def __init__(self) -> None:
        self.zc = zeroconf.Zeroconf(interfaces=[LOOPBACK], ip_version=zeroconf.IPVersion.V4Only)
        self.seen: dict[str, object] = {}
        self.changed = threading.Condition()
        self.browser = zeroconf.ServiceBrowser(self.zc, SERVICE_TYPE, self)

    def _resolve(self, zc, type_, name) -> None:
        info = zc.get_service_info(type_, name, timeout=3000)
        with self.changed:
            self.seen[name] = info
            self.changed.notify_all()

    add_service = update_service = _resolve

    def remove_service(self, zc, type_, name) -> None:
        with self.changed:
            self.seen[name] = None
            self.changed.notify_all()

    def wait(self, test, what: str):
        deadline = time.monotonic() + WAIT_S
        with self.changed:
            while not test(self.seen):
                left = deadline - time.monotonic()
                assert left > 0, f"{what} not seen within {WAIT_S} s: {self.seen}"
                self.changed.wait(min(left, 0.5))
        return self.seen

    def close(self) -> None:
        self.browser.cancel()
        self.zc.close()


@pytest.fixture
def browser():
    b = Browser()
    try:
        yield b
    finally:
        b.close()


def test_host_labels_and_service_names():
    assert host_label("companion") == "companion"
    assert host_label("Kitchen table") == "kitchen-table"
    assert host_label("Łódź club #2") == "lodz-club-2"  # Ł spelt L, though it has no ASCII decomposition
    assert host_label("Τραπέζι") == "trapezi"            # a Greek name spelt in a-z (ELOT 743: τ-ρ-α-π-έ-ζ-ι)
    assert host_label("Στο τραπέζι 2") == "sto-trapezi-2"
    assert host_label("Asztal ＃1") == "asztal-1"        # a full-width sign is the sign
    assert host_label("!!!") == "companion"              # nothing that spells a letter or digit: the default
    assert service_name("Kitchen table") == "Kitchen table._http._tcp.local."


@pytest.mark.parametrize("box, host", [("Test box", "test-box.local."), ("Τραπέζι 2", "trapezi-2.local.")])
def test_the_announced_service_is_browsed_on_loopback_and_withdrawn_on_stop(browser, box, host):
    """A box named in Greek is browsed under its Greek name, its host spelt in a-z."""
    name = service_name(box)
    with Announcer(box, 8123, lambda: LOOPBACK, interfaces=[LOOPBACK], poll_s=0.2) as announcer:
        assert announcer.wait_announced(WAIT_S)
        seen = browser.wait(lambda s: s.get(name) is not None, "the announced service")
        info = seen[name]
        assert info.port == 8123
        assert info.server == host
        assert info.parsed_addresses() == [LOOPBACK]
        assert info.properties == {b"path": b"/"}
    browser.wait(lambda s: name in s and s[name] is None, "the goodbye")


def test_an_address_change_is_announced_and_no_address_withdraws_it(browser):
    address = Address(None)
    name = service_name("Moving box")
    announcer = Announcer("Moving box", 8124, address, interfaces=[LOOPBACK], poll_s=0.1).start()
    try:
        address.wait_looks(3)
        assert announcer.announced is None  # no network yet: nothing announced, nothing fails
        address.value = LOOPBACK
        browser.wait(lambda s: s.get(name) is not None, "the service once the address appeared")
        address.wait_looks(2)  # registering returns after its announcements, which the browser may see first
        assert announcer.announced == LOOPBACK
        address.value = None
        browser.wait(lambda s: name in s and s[name] is None, "the withdrawal when the address went")
    finally:
        announcer.stop()


def test_a_network_without_multicast_is_one_log_line_and_no_stop(caplog):
    # 192.0.2.1 (TEST-NET-1) is no address of this machine: zeroconf cannot bind it
    address = Address("192.0.2.1")
    announcer = Announcer("Lonely box", 8125, address, poll_s=0.05)
    with caplog.at_level("WARNING", logger="companion.mdns"):
        announcer.start()
        address.wait_looks(8)  # several looks at the address: still one line
        announcer.stop()
    lines = [r for r in caplog.records if "not announced on the network" in r.getMessage()]
    assert len(lines) == 1 and announcer.announced is None


def test_a_phone_view_on_loopback_only_is_not_announced():
    assert for_phone_view("companion", LOOPBACK, 8080) is None
