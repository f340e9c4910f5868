"""A refused ``Host`` is named back as the phone wrote it: Greek letters as Greek letters (they were shown as the
Latin-1 reading of their UTF-8 bytes, ``'Î\\x91Î\\x92Î\\x93.local'``), bytes that are no UTF-8 as escapes."""

from __future__ import annotations

import json
import socket

import pytest

from companion.web import create_app, serve
from tests.test_webserver import _read_answer


def _as_wsgi(raw: bytes) -> str:
    """A header's bytes as a WSGI server hands them to the app (PEP 3333: Latin-1 characters)."""
    return raw.decode("latin-1")


@pytest.mark.parametrize(("raw", "shown"), [("ΑΒΓ.local".encode(), "'ΑΒΓ.local'"),
                                            ("łódź.local:8080".encode(), "'łódź.local:8080'"),
                                            (b"\xce.local", "'\\udcce.local'"),
                                            ("a\u202eb.local".encode(), "'a\\u202eb.local'")])
def test_a_refused_host_is_named_as_the_phone_wrote_it(hub, raw, shown):
    answer = create_app(hub).test_client().get("/api/state", environ_overrides={"HTTP_HOST": _as_wsgi(raw)},
                                               headers={"Accept-Language": "pl"})
    assert answer.status_code == 403
    error = answer.get_json()["error"]
    assert f"nazwę {shown}:" in error, error
    assert "Î" not in error and "\u202e" not in error


def test_a_greek_host_through_the_server_is_said_back_in_greek_letters(hub):
    server = serve(create_app(hub), host="127.0.0.1", port=0)
    try:
        with socket.create_connection(("127.0.0.1", server.port), timeout=5) as s:
            s.sendall("GET /api/state HTTP/1.1\r\nHost: ΑΒΓ.local\r\nConnection: close\r\n\r\n".encode())
            head, _, body = _read_answer(s)
    finally:
        server.shutdown()
    assert head.split()[1] == b"403"
    assert "'ΑΒΓ.local'" in json.loads(body)["error"]
