"""What the box says at its edges, in the player's language: a file that is no deck, the GPIO's one line at start,
the phone view's listening address and port, and a configuration file tomllib cannot read or whose web.host is no
address. Each was English (or Python's words: a class name, a tuple of key parts) on a Greek, Polish or Hungarian
box. The words expected come from the catalogs (a message said in the language differs from its English)."""

from __future__ import annotations

import logging
import socket

import cv2
import numpy as np
import pytest

from companion import i18n
from companion.cli import main


def _in(lang: str, english: str) -> str:
    """``english`` (a message without parameters) as the catalog of ``lang`` says it; never the English itself."""
    said = i18n.say(i18n.Text(english), lang)
    assert said != english, f"{english!r} has no {lang} translation"
    return said


# -- a file that is no deck ----------------------------------------------------------------------------------------

def test_a_file_that_is_no_deck_is_said_without_pythons_class_names(tmp_path, capsys):
    """A picture renamed .npz said "(ValueError)", an archive of another program "(KeyError)" and a header that is
    not JSON "(JSONDecodeError)": the player reads what is wrong, in Polish."""
    img = tmp_path / "blank.png"
    cv2.imwrite(str(img), np.full((60, 80, 3), 120, np.uint8))
    picture = tmp_path / "picture.npz"
    picture.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(200))
    other = tmp_path / "other.npz"
    np.savez(other, weights=np.zeros(3))
    broken = tmp_path / "broken.npz"
    np.savez(broken, meta=np.frombuffer(b'{"name": ', np.uint8), struct=np.zeros(2), colour=np.zeros(2))
    for deck in (picture, other, broken):
        assert main(["--language", "pl", "read", str(img), "--cards", str(deck)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Error" not in err and "Traceback" not in err
        assert "nie jest profil talii zapisany przez `companion enroll cards`" in err, err
        assert "another program" not in err and "header" not in err and "missing" not in err
    assert main(["read", str(img), "--cards", str(other)]) == 2
    assert "a part of a deck is missing" in capsys.readouterr().err


# -- the GPIO's one line at start ----------------------------------------------------------------------------------

def _no_factory(name=None):
    from device.errors import GPIOUnavailable

    raise GPIOUnavailable.said(N_NO_FACTORY, reasons="lgpio: ModuleNotFoundError: No module named 'lgpio'")


N_NO_FACTORY = ("no GPIO pin factory works here ({reasons}): on a Raspberry Pi run `sudo apt install python3-lgpio` "
                "and create the venv with --system-site-packages; the box runs without button and LED")


@pytest.mark.parametrize("lang", ["el", "pl", "hu"])
def test_the_gpio_line_at_start_is_said_in_the_boxs_language(lang, monkeypatch, tmp_path, caplog):
    """A PC: "no GPIO: buttons off" in the box's language; a Raspberry Pi without a pin library: the warning with
    what to install, also in it (the commands and the libraries' own complaints as they are)."""
    from device import Controls

    monkeypatch.setattr("device.gpio.find_pin_factory", _no_factory)
    model = tmp_path / "model"
    monkeypatch.setattr("device.gpio.MODEL_FILE", model)
    with i18n.use_language(lang), caplog.at_level(logging.INFO, logger="device.gpio"):
        assert Controls.create_optional(on_press=lambda: None, say=i18n.say_template) is None
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.INFO] == [_in(lang, "no GPIO: buttons off")]
    model.write_bytes(b"Raspberry Pi 4 Model B Rev 1.4\x00")
    caplog.clear()
    with i18n.use_language(lang), caplog.at_level(logging.WARNING, logger="device.gpio"):
        assert Controls.create_optional(on_press=lambda: None, say=i18n.say_template) is None
    [record] = caplog.records
    said = record.getMessage()
    assert "sudo apt install python3-lgpio" in said and "No module named 'lgpio'" in said
    assert "running without" not in said and "works here" not in said and "the box runs" not in said


def test_a_pin_in_use_is_said_without_its_class_name(caplog):
    from gpiozero.pins.mock import MockFactory

    from device import Controls

    pins = MockFactory()
    first = Controls(pin_factory=pins)
    try:
        with i18n.use_language("hu"), caplog.at_level(logging.WARNING, logger="device.gpio"):
            assert Controls.create_optional(pin_factory=pins, say=i18n.say_template) is None
    finally:
        first.close()
        pins.close()
    [record] = caplog.records
    assert "GPIOPinInUse" not in record.getMessage() and "running without" not in record.getMessage()


# -- the phone view's address and port -----------------------------------------------------------------------------

def test_a_host_that_is_no_address_is_said_in_the_commands_language():
    from companion.hub import StateHub
    from companion.web import create_app, serve

    with pytest.raises(OSError) as caught:
        serve(create_app(StateHub()), host="not an address", port=0)
    said = i18n.say(caught.value, "pl")
    assert said.startswith("--host not an address ") and _in("pl", "no such name or address") in said
    assert "Name or service" not in said and "is not a network address" not in said
    assert str(caught.value).startswith("--host not an address is not a network address")  # English: the same words


def test_a_port_another_program_listens_on_is_said_in_the_commands_language():
    from companion.hub import StateHub
    from companion.web import create_app, serve

    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    try:
        port = taken.getsockname()[1]
        with pytest.raises(OSError) as caught:
            serve(create_app(StateHub()), host="127.0.0.1", port=port)
    finally:
        taken.close()
    said = i18n.say(caught.value, "el")
    assert "127.0.0.1" in said and str(port) in said
    assert _in("el", "another program already listens on this port") in said
    assert "cannot listen" not in said and "Address already in use" not in said


# -- the configuration file ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, key", [
    ('[web]\nport = 8080\n[web]\nhost = "0.0.0.0"\n', "[web]"),  # Cannot declare ('web',) twice
    ("[gpio]\nnext_pin = {a = 1}\nnext_pin.b = 2\n", "gpio.next_pin"),  # an inline table given more
    ("[box.x]\n[box]\nx.y = 1\n", "box.x"),  # a dotted key into a [section]
])
def test_tomls_reasons_that_name_a_key_name_it_as_the_file_writes_it(text, key, tmp_path, capsys):
    path = tmp_path / "config.toml"
    path.write_text(text)
    assert main(["--language", "hu", "config", "check", str(path)]) == 1
    out = capsys.readouterr().out
    assert key in out and "('" not in out and "Cannot" not in out, out
    assert main(["config", "check", str(path)]) == 1
    assert "('" not in capsys.readouterr().out


@pytest.mark.parametrize("lang", ["el", "pl", "hu"])
def test_config_check_names_a_web_host_that_is_no_address(lang, tmp_path, capsys):
    path = tmp_path / "config.toml"
    for host in ("not an address", "256.1.2.3", "box..local", ""):
        path.write_text(f'[web]\nhost = "{host}"\n')
        assert main(["--language", lang, "config", "check", str(path)]) == 1
        out = capsys.readouterr().out
        assert out.startswith(f"{path}:2: web.host: ") and repr(host) in out and "0.0.0.0" in out
        assert "is not a network address" not in out
    for host in ("0.0.0.0", "::", "192.168.1.20", "fe80::1", "companion.local", "my-box"):
        path.write_text(f'[web]\nhost = "{host}"\n')
        assert main(["config", "check", str(path)]) == 0, host
        capsys.readouterr()


def test_run_with_a_config_file_that_is_not_toml_stops_with_exit_2(tmp_path, capsys, monkeypatch):
    """`companion demo --config FILE` with a FILE tomllib cannot read ran with the defaults and exited 0: the file
    asked for on the command line is named with its line and what is wrong, and nothing starts."""
    from tests.test_cli import PHOTOS

    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path / "data"))
    broken = tmp_path / "config.toml"
    broken.write_text('[web]\nport = 8080\n[web]\nhost = "0.0.0.0"\n')
    argv = ["demo", "--once", "--fast", "--no-web", "--no-screen", "--no-gpio", "--config", str(broken),
            str(PHOTOS[0].parent)]
    assert main(["--language", "pl", *argv]) == 2
    captured = capsys.readouterr()
    [line] = captured.err.strip().splitlines()
    assert line.startswith(f"companion demo: --config {broken}:3: ") and "[web]" in line and "Cannot" not in line
    assert captured.out == "" and not (tmp_path / "data" / "demo.sqlite3").exists()
    assert main([*argv[:-3], "--config", str(tmp_path / "missing.toml"), argv[-1]]) == 2
    err = capsys.readouterr().err
    assert "missing.toml" in err and "TABLETOP_CONFIG" not in err  # --config named it, not the variable


def test_a_missing_file_named_by_the_variable_says_to_unset_it(tmp_path):
    from companion.config import load

    missing = tmp_path / "missing.toml"
    [problem] = load(env={"TABLETOP_CONFIG": str(missing)}).problems
    assert "unset $TABLETOP_CONFIG" in str(problem)
    [problem] = load(missing, env={}).problems
    assert str(missing) in str(problem) and "TABLETOP_CONFIG" not in str(problem)


def test_config_show_refuses_a_named_file_that_is_not_toml_as_run_does(tmp_path, capsys):
    broken = tmp_path / "config.toml"
    broken.write_text("[web]\nport = 80 80\n")
    assert main(["--language", "el", "config", "show", "--config", str(broken)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith(f"companion config show: --config {broken}:2: ")
    bad_setting = tmp_path / "host.toml"  # a file that is TOML with one bad setting: shown, that setting's default
    bad_setting.write_text('[web]\nhost = "not an address"\n')
    assert main(["config", "show", "--config", str(bad_setting)]) == 0
    captured = capsys.readouterr()
    assert 'web.host = "0.0.0.0"' in captured.out and "web.host" in captured.err


def test_config_check_of_a_missing_file_the_variable_names_says_to_unset_it(tmp_path, monkeypatch, capsys):
    missing = tmp_path / "missing.toml"
    monkeypatch.setenv("TABLETOP_CONFIG", str(missing))
    monkeypatch.setenv("TABLETOP_LANGUAGE", "hu")  # the environment's settings are not the file's: not checked
    assert main(["config", "check"]) == 1
    out = capsys.readouterr().out
    assert str(missing) in out and "$TABLETOP_CONFIG" in out and "TABLETOP_LANGUAGE" not in out
    assert main(["config", "check", str(missing)]) == 1
    assert "TABLETOP_CONFIG" not in capsys.readouterr().out


# -- a game's settings on the command line ---------------------------------------------------------------------

@pytest.mark.parametrize("lang, said", [("pl", "potrzeba po jednym wpisie dla każdego z 2 graczy, w kolejności miejsc; "
                                               "podano 1"),
                                        ("hu", "2 játékosnak egy-egy kell, ülésrendben; kapott: 1"),
                                        ("el", "2 παίκτες χρειάζονται από ένα, με τη σειρά των θέσεων· δόθηκαν: 1")])
def test_too_few_species_are_said_in_the_commands_language(lang, said, tmp_path, capsys, monkeypatch):
    """`--species` naming one species for two players was refused in English (an f-string of the rules): it is
    refused in the command's language, with exit 2, and nothing starts."""
    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path / "data"))
    argv = ["--language", lang, "demo", "--game", "eclipse", "--players", "Ann,Bob", "--species", "Planta",
            "--no-screen", "--no-web", "--no-gpio", "--once"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert said in err and "settings:" not in err and "gives" not in err


def test_a_settings_refusal_keeps_its_words_for_each_player():
    """The rules say a settings refusal as a Text the box says in each player's language (a phone's, the box's)."""
    from rules import BadSettings, check_settings
    from rules.race import RACE_GAME

    with pytest.raises(BadSettings) as refused:
        check_settings(RACE_GAME.info, {"players": ["Ann", "Ann"]})
    said = i18n.say(i18n.message_of(refused.value), "pl")
    assert "imiona graczy muszą się różnić" in said and "'Ann'" in said


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_config_check_names_a_data_folder_that_is_a_file(lang, tmp_path, capsys):
    """`config check` said ok to a box.data_dir naming a file, which the box then refused at start."""
    a_file = tmp_path / "notes.txt"
    a_file.write_text("x")
    path = tmp_path / "config.toml"
    path.write_text(f'[box]\ndata_dir = "{a_file}"\n')
    assert main(["--language", lang, "config", "check", str(path)]) == 1
    out = capsys.readouterr().out
    assert out.startswith(f"{path}:2: box.data_dir: ") and str(a_file) in out
    assert ("is a file" in out) == (lang == "en")
    path.write_text(f'[box]\ndata_dir = "{tmp_path}"\n')  # a folder is fine, as is one not made yet
    assert main(["config", "check", str(path)]) == 0
    path.write_text(f'[box]\ndata_dir = "{tmp_path / "new"}"\n')
    assert main(["config", "check", str(path)]) == 0
