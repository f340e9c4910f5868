"""The phone view answers to the name the box announces itself by on the network (``companion.local``), in any
case and with or without the port, and to nothing new when it announces nothing."""

from __future__ import annotations

import pytest

from companion.commands.box import phone_view_names
from companion.mdns import announced_name
from companion.web import create_app


@pytest.mark.parametrize("host", ["companion.local:8080", "companion.local", "COMPANION.LOCAL:8080",
                                  "Companion.Local."])
def test_the_announced_name_is_answered(hub, host):
    app = create_app(hub, hosts=phone_view_names("0.0.0.0", "companion", True))
    answer = app.test_client().get("/api/state", headers={"Host": host})
    assert answer.status_code == 200, answer.get_json()


def test_a_box_name_with_letters_and_spaces_is_answered_by_its_label(hub):
    names = phone_view_names("0.0.0.0", "Τραπέζι 2", True)
    assert names == ["trapezi-2.local"]
    answer = create_app(hub, hosts=names).test_client().get("/", headers={"Host": "trapezi-2.local:8080"})
    assert answer.status_code == 200


def test_a_name_given_by_host_is_kept_beside_the_announced_one():
    assert phone_view_names("10.0.0.7", "companion", True) == ["10.0.0.7", "companion.local"]


@pytest.mark.parametrize("host, announce", [("0.0.0.0", False), ("127.0.0.1", True), ("::1", True)])
def test_nothing_announced_adds_no_name(hub, host, announce):
    assert announced_name("Kitchen table", host, announce) is None
    names = phone_view_names(host, "Kitchen table", announce)
    assert all(not name.endswith(".local") for name in names)
    answer = create_app(hub, hosts=names).test_client().get("/api/state", headers={"Host": "kitchen-table.local:8080"})
    assert answer.status_code == 403
    assert "kitchen-table.local:8080" in answer.get_json()["error"]
