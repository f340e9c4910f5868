"""companion.phone_link: the installer's last lines, the phone view's link and its QR code on the terminal."""

from __future__ import annotations

import io

import pytest
import segno

from companion import phone_link

JOURNAL = """\
2026-12-02 03:33:35,716 INFO companion: started session 20261202-033335-454089
phone view at http://192.168.1.20:8080/join/oldSecret
2026-12-02 03:40:00,000 INFO companion: stopped
phone view at http://192.168.1.20:8080/join/vVwPyPEnvqgoJNG1jgkSzA
2026-12-02 03:40:01,000 INFO companion.mdns: announced on the network as companion.local
"""


def test_the_link_is_the_last_one_the_box_printed():
    assert phone_link.link_in_log(JOURNAL) == "http://192.168.1.20:8080/join/vVwPyPEnvqgoJNG1jgkSzA"
    assert phone_link.link_in_log("INFO the phone view at http://x/ is mentioned, not printed\n") is None
    assert phone_link.link_in_log("") is None


def test_without_a_printed_link_the_address_comes_from_the_configuration(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text("version = 1\n[web]\nport = 9000\n")
    assert phone_link.configured_link(config, address="10.0.0.7") == "http://10.0.0.7:9000/"
    config.write_text('version = 1\n[web]\nhost = "192.168.4.1"\n')  # one address named: that one
    assert phone_link.configured_link(config, address="10.0.0.7") == "http://192.168.4.1:8080/"
    assert phone_link.configured_link(tmp_path / "missing.toml", address="10.0.0.7") == "http://10.0.0.7:8080/"
    assert phone_link.configured_link(config.with_name("missing.toml"), address="127.0.0.1") is None  # no network


def test_the_code_drawn_on_the_terminal_is_the_links_code():
    link = "http://192.168.1.20:8080/join/vVwPyPEnvqgoJNG1jgkSzA"
    utf8 = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    drawn = phone_link.terminal_code(link, out=utf8)
    rows = drawn.splitlines()
    # half blocks: two module rows a line, the light quiet zone of 4 modules drawn as full blocks
    size = segno.make(link, error="l", micro=False, boost_error=True).symbol_size(border=4)[0]
    assert len(rows) == (size + 1) // 2 and all(len(r) == size for r in rows)
    assert set(drawn) <= set("█▀▄ \n")
    ascii_terminal = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
    assert "\x1b[" in phone_link.terminal_code(link, out=ascii_terminal)  # no block characters: colours
    with pytest.raises(ValueError):
        phone_link.terminal_code("")


def test_main_prints_the_same_line_the_box_prints_then_the_code(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO(JOURNAL))
    assert phone_link.main(["--log", "-", "--config", str(tmp_path / "none.toml")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "phone view at http://192.168.1.20:8080/join/vVwPyPEnvqgoJNG1jgkSzA"
    assert "each player's phone" in out[-1]
    monkeypatch.setattr("companion.netinfo.lan_address", lambda: "127.0.0.1")
    assert phone_link.main(["--config", str(tmp_path / "none.toml")]) == 1  # no network: nothing to scan
    assert capsys.readouterr().out.startswith("no network address yet")
