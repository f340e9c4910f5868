"""companion.config: the one TOML file, its declared settings, errors naming key and line, migrations,
precedence (flag > environment > file > default), and `companion config show|check`."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from companion import config as cfg
from companion.cli import main
from companion.config import SETTINGS, ConfigError, Migration, key_lines, load
from companion.owner_commands import apply_box_config

DEFAULT_FILE = Path(cfg.__file__).parent / "data" / "config.toml"


def write(tmp_path: Path, text: str, name: str = "config.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_the_shipped_default_file_is_every_setting_at_its_default():
    assert DEFAULT_FILE.read_text(encoding="utf-8") == cfg.default_file_text(), \
        "regenerate: python -m companion.config > companion/data/config.toml"
    config = load(DEFAULT_FILE, env={}, strict=True)
    assert config.version == cfg.CONFIG_VERSION
    for s in SETTINGS:
        assert config.values[s.key].raw == s.default
        # a setting whose default does what no value written does (box.default_game: back to the game the table
        # was on) is left unset, its line a comment to write it from
        assert config.origin(s.key) == "default" if s.unset else config.origin(s.key).startswith(f"{DEFAULT_FILE}:")
    # each setting is documented in the file: its help is on the comment lines above it
    text = DEFAULT_FILE.read_text(encoding="utf-8")
    for s in SETTINGS:
        assert f"\n{'# ' if s.unset else ''}{s.name} = " in text
        assert s.help.split()[0] in text
    assert [s.key for s in SETTINGS if s.unset] == ["box.default_game"]


def test_no_file_gives_the_defaults(tmp_path):
    config = load(None, env={"HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path)})
    assert config["web.port"] == 8080 and config["web.host"] == "0.0.0.0"
    assert config["gpio.next_pin"] == 17 and config["gpio.led_pin"] == 27
    assert config["gpio.buzzer_pin"] is None and config["gpio.undo_pin"] is None
    assert config["camera.size"] is None and config["box.default_game"] == "choose"  # the chooser (issue 17)
    assert all(v.origin == "default" for k, v in config.values.items())


def test_a_good_file_sets_values_and_says_on_which_line(tmp_path):
    path = write(tmp_path, 'version = 1\n\n[camera]\nsource = "opencv:1"\nsize = "1280x720"\n'
                           '[gpio]\nundo_pin = 22\nbuzzer_pin = 18\n[box]\nname = "Kitchen table"\nlanguage = "el"\n')
    config = load(path, env={}, strict=True)
    assert config["camera.source"] == "opencv:1"
    assert config["camera.size"] == (1280, 720)
    assert config["gpio.undo_pin"] == 22 and config["gpio.buzzer_pin"] == 18
    assert config["box.name"] == "Kitchen table" and config["box.language"] == "el"
    assert config.origin("camera.source") == f"{path}:4"
    assert config.origin("box.language") == f"{path}:11"
    assert config.origin("web.port") == "default"


def test_a_bad_file_names_each_key_and_its_line(tmp_path):
    path = write(tmp_path, "\n".join([
        "version = 1",            # 1
        "[web]",                  # 2
        'port = "8080"',          # 3  text, not a number
        "[camera]",               # 4
        'sorce = "auto"',         # 5  misspelt key
        'size = "big"',           # 6
        "[box]",                  # 7
        'language = "de"',        # 8  not a box language
        "[gpio]",                 # 9
        "next_pin = 27",          # 10 the LED's default pin
        "led_pin = 40",           # 11 not on the header
    ]) + "\n")
    with pytest.raises(ConfigError) as caught:
        load(path, env={}, strict=True)
    problems = {(p.key, p.line) for p in caught.value.problems}
    assert problems == {("web.port", 3), ("camera.sorce", 5), ("camera.size", 6), ("box.language", 8),
                        ("gpio.next_pin", 10), ("gpio.led_pin", 11)}
    text = {p.key: str(p) for p in caught.value.problems}
    assert text["camera.sorce"] == f"{path}:5: camera.sorce: unknown setting: did you mean camera.source?"
    assert "1-65535" in text["web.port"]
    assert "en, el, pl, hu" in text["box.language"]
    assert "gpio.led_pin" in text["gpio.next_pin"]
    # not strict (the box's start): each bad setting takes its default, the good ones stay
    lenient = load(path, env={})
    assert lenient["web.port"] == 8080 and lenient["gpio.next_pin"] == 17 and lenient["box.language"] == "en"
    assert len(lenient.problems) == 6

@pytest.mark.parametrize(("written", "said"), [("12", "12"), ("true", "true"), ('["el"]', '["el"]')])
def test_a_setting_with_choices_given_no_text_is_told_its_choices(tmp_path, written, said):
    """`language = 12` was answered 'give text in quotes, e.g. "12"', an example that is no language either: a
    setting with choices given a number, a flag or a list is told what it holds and the choices to write."""
    path = write(tmp_path, f"[box]\nlanguage = {written}\n")
    with pytest.raises(ConfigError) as caught:
        load(path, env={}, strict=True)
    [problem] = caught.value.problems
    assert str(problem) == f'{path}:2: box.language: {said} is not one of en, el, pl, hu; the default "en" is used'
    assert load(path, env={})["box.language"] == "en"  # the box's start: the default, as for any bad setting


@pytest.mark.parametrize(("lines", "reported", "sent_back", "pins"), [
    # the part written later goes back to its default (27 for the LED), named with the pin it was given
    (["next_pin = 17", "led_pin = 17"], "gpio.led_pin", "the default 27 is used", (17, 27, None)),
    # written the other way round: the Next button's default is the pin they share, so the LED goes back
    (["led_pin = 17", "next_pin = 17"], "gpio.led_pin", "the default 27 is used", (17, 27, None)),
    # the LED's default is the pin they share: the Next button goes back to 17
    (["next_pin = 27", "led_pin = 27"], "gpio.next_pin", "the default 17 is used", (17, 27, None)),
    # a part written in the file on a pin no one wrote: the file's part goes back ("off" for the buzzer)
    (["buzzer_pin = 27"], "gpio.buzzer_pin", 'the default "off" is used', (17, 27, None)),
])
def test_two_parts_on_one_pin_end_each_on_its_own_pin_and_the_message_says_which(tmp_path, lines, reported,
                                                                                 sent_back, pins):
    """Worked by hand from the defaults (Next 17, LED 27, buzzer off): a pin refused is never 'the default' the
    message then gives, and after the check no two parts share a pin."""
    path = write(tmp_path, "[gpio]\n" + "\n".join(lines) + "\n")
    config = load(path, env={})
    assert [p.key for p in config.problems] == [reported]
    message = config.problems[0].message
    assert message.endswith(sent_back)
    refused = message.split()[1]  # "BCM 17 is already ..."
    assert f"the default {refused} " not in message + " "
    assert (config["gpio.next_pin"], config["gpio.led_pin"], config["gpio.buzzer_pin"]) == pins


def test_a_part_sent_back_onto_a_third_part_s_pin_moves_that_part_too(tmp_path):
    # undo 17 (line 2), Next 27 (line 3), LED 27 (line 4): the LED's default is 27, so the Next button goes back to
    # 17, where the Undo button is: the Undo button goes back to "off"
    path = write(tmp_path, "[gpio]\nundo_pin = 17\nnext_pin = 27\nled_pin = 27\n")
    config = load(path, env={})
    assert [(p.key, p.line) for p in config.problems] == [("gpio.undo_pin", 2), ("gpio.next_pin", 3)]
    assert (config["gpio.next_pin"], config["gpio.led_pin"], config["gpio.undo_pin"]) == (17, 27, None)
    on = [config[s.key] for s in SETTINGS if s.section == "gpio" and config[s.key] is not None]
    assert len(on) == len(set(on))
    # lines past 9 are ordered as numbers, not as text ("config.toml:10" sorts before "config.toml:9")
    path = write(tmp_path, "[gpio]\n" + "#\n" * 7 + "next_pin = 22\nled_pin = 22\n")  # lines 9 and 10
    assert [(p.key, p.line) for p in load(path, env={}).problems] == [("gpio.led_pin", 10)]



def test_a_file_that_is_not_toml_names_the_line(tmp_path):
    path = write(tmp_path, 'version = 1\n[web]\nport = 80 80\n')
    config = load(path, env={})
    assert [(p.key, p.line) for p in config.problems] == [(None, 3)]
    assert "not valid TOML" in str(config.problems[0])
    assert config["web.port"] == 8080


@pytest.mark.parametrize(("lang", "text", "words"), [
    ("el", "version = 1\n[web\nport = 1\n", "c.toml:2: μη έγκυρο TOML: αναμενόταν ']' στο τέλος της [ενότητας]"),
    ("pl", "version = 1\n[web]\nport = abc\n",
     "c.toml:3: niepoprawny TOML: wartość, której TOML nie zna (tekst pisze się w cudzysłowie: \"auto\")"),
    ("hu", "version = 1\n[box]\nname = \"box\n",
     "c.toml:3: érvénytelen TOML: egy idézőjeles szöveg nincs lezárva a sorában"),
])
def test_why_a_file_is_not_toml_is_said_in_the_language(tmp_path, capsys, lang, text, words):
    # tomllib's reason is English ("Expected ']' at the end of a table declaration"): an owner reads their own words
    path = tmp_path / "c.toml"
    path.write_text(text)
    assert main(["--language", lang, "config", "check", str(path)]) == 1
    err = capsys.readouterr()
    said = (err.out + err.err).strip().splitlines()
    assert len(said) == 1 and said[0].split("/")[-1].startswith(words), said


def test_a_missing_file_a_folder_and_bad_utf8_are_one_problem_each(tmp_path):
    assert "no such file" in str(load(tmp_path / "nope.toml", env={}).problems[0])
    assert "is a folder" in str(load(tmp_path, env={}).problems[0])
    bad = tmp_path / "latin1.toml"
    bad.write_bytes(b'[box]\nname = "K\xfcche"\n')
    problem = load(bad, env={}).problems[0]
    assert problem.line == 2 and "UTF-8" in problem.message


def test_a_newer_version_is_refused_with_its_line(tmp_path):
    path = write(tmp_path, "# made by a newer box\nversion = 7\n")
    problem = load(path, env={}).problems[0]
    assert (problem.key, problem.line) == ("version", 2) and "newer" in problem.message


def test_an_older_file_is_read_through_its_migration(tmp_path):
    """A key renamed in version 2 (web.listen -> web.host) and one that changed shape (camera.width and
    .height -> camera.size in version 3): the old file keeps working, and its lines are still named."""
    migrations = (
        Migration(2, renamed={"web.listen": "web.host"}, note="web.listen is now web.host"),
        Migration(3, renamed={"camera.width": "camera.size"}, convert={"camera.size": lambda w: f"{w}x{w * 9 // 16}"},
                  note="camera.width is now camera.size"),
    )
    path = write(tmp_path, 'version = 1\n[web]\nlisten = "127.0.0.1"\n[camera]\nwidth = 1280\n')
    config = load(path, env={}, migrations=migrations, version=3)
    assert config["web.host"] == "127.0.0.1" and config["camera.size"] == (1280, 720)
    assert config.origin("web.host") == f"{path}:3 (written as web.listen)"
    assert config.notes == ["version 1 -> 2: web.listen is now web.host",
                            "version 2 -> 3: camera.width is now camera.size"]
    assert any("update it to version = 3" in p.message for p in config.problems)
    # a file already at version 2 only goes through the second migration
    newer = write(tmp_path, 'version = 2\n[camera]\nwidth = 1920\n', "v2.toml")
    assert load(newer, env={}, migrations=migrations,
                version=3).notes == ["version 2 -> 3: camera.width is now camera.size"]


def test_key_lines_finds_tables_dotted_keys_and_quoted_keys():
    text = '# c\nversion = 1\n[ web ]\n"port" = 1\n\n[box]\nname = "x = y"\ncamera.source = "a"\n'
    assert key_lines(text) == {"version": 2, "web": 3, "web.port": 4, "box": 6, "box.name": 7, "box.camera.source": 8}


def box_args(argv: list[str]) -> argparse.Namespace:
    from companion.cli import _parser

    return _parser().parse_args(argv)


def test_flags_override_the_environment_which_overrides_the_file(tmp_path, monkeypatch):
    path = write(tmp_path, '[web]\nport = 9001\nhost = "127.0.0.1"\n[box]\ndefault_game = "race"\n'
                           f'data_dir = "{tmp_path / "from-file"}"\n[gpio]\nbuzzer_pin = 18\n')
    monkeypatch.setenv("TABLETOP_CONFIG", str(path))
    monkeypatch.setenv("TABLETOP_DATA_DIR", "")  # remembered, so the value apply_box_config sets is undone after
    monkeypatch.delenv("TABLETOP_DATA_DIR")
    args = box_args(["run", "--port", "9002"])
    config = apply_box_config(args)
    assert (args.port, args.host, args.game, args.source, args.buzzer_pin) == (9002, "127.0.0.1", "race", "auto", 18)
    assert config.origin("web.port") == "flag --port"
    assert config.origin("web.host") == f"{path}:3"
    assert config.origin("camera.source") == "default"
    import os

    assert os.environ["TABLETOP_DATA_DIR"] == str(tmp_path / "from-file")  # the file's data folder for every part
    # the environment beats the file; a flag beats both
    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path / "from-env"))
    config = apply_box_config(box_args(["demo", "--game", "d6", "--buzzer-pin", "5"]))
    assert config.origin("box.data_dir") == "environment TABLETOP_DATA_DIR"
    assert config["box.data_dir"] == str(tmp_path / "from-env")
    assert (config["box.default_game"], config.origin("box.default_game")) == ("d6", "flag --game")
    assert config["gpio.buzzer_pin"] == 5
    # --config FILE picks the file; the flags keep their meaning (--port 0: any free port)
    other = write(tmp_path, "[web]\nport = 7000\n", "other.toml")
    args = box_args(["demo", "--config", str(other)])
    assert apply_box_config(args)["web.port"] == 7000 and args.port == 7000
    args = box_args(["demo", "--config", str(other), "--port", "0"])
    apply_box_config(args)
    assert args.port == 0


def test_config_show_prints_every_setting_and_where_it_came_from(tmp_path, monkeypatch, capsys):
    path = write(tmp_path, 'version = 1\n[web]\nhost = "127.0.0.1"\n')
    monkeypatch.setenv("TABLETOP_CONFIG", str(path))
    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path))
    assert main(["config", "show", "--port", "9000"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"# configuration file {path} (version 1)"
    lines = {line.split(" = ")[0]: line for line in out[1:]}
    assert list(lines) == [s.key for s in SETTINGS]
    assert lines["web.host"].endswith(f'# {path}:3') and '"127.0.0.1"' in lines["web.host"]
    assert lines["web.port"].startswith("web.port = 9000") and lines["web.port"].endswith("# flag --port")
    assert lines["box.data_dir"].endswith("# environment TABLETOP_DATA_DIR")
    assert lines["gpio.led_pin"].endswith("# default")
    assert main(["config", "show", "--port", "http"]) == 2


def test_config_show_says_a_missing_file_named_by_the_environment_was_not_read_and_the_defaults_are_shown(
        tmp_path, monkeypatch, capsys):
    """``$TABLETOP_CONFIG`` naming a missing file: `config show` headed its list "# configuration file PATH", as if it
    had been read. The box starts on the defaults then (it logs the problem), so the header says the file was not
    read and why, the list below is the defaults, and the exit is 0 as for the file's other problems; a file that is
    not TOML is said with its line."""
    missing = tmp_path / "nope.toml"
    monkeypatch.setenv("TABLETOP_CONFIG", str(missing))
    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path))
    assert main(["config", "show"]) == 0
    said = capsys.readouterr()
    header, *lines = said.out.splitlines()
    assert header.startswith(f"# configuration file {missing} not read (no such file: ")
    assert header.endswith("): the box starts on the defaults below")
    assert all(line.endswith("# default") for line in lines if not line.startswith("box.data_dir"))
    assert "no such file" in said.err
    assert main(["--language", "hu", "config", "show"]) == 0
    header = capsys.readouterr().out.splitlines()[0]
    assert header.startswith(f"# a(z) {missing} konfigurációs fájl nincs beolvasva (nincs ilyen fájl: ")
    assert header.endswith("): a doboz az alábbi alapértelmezésekkel indul")
    broken = write(tmp_path, "version = 1\n[web\n", "broken.toml")
    monkeypatch.setenv("TABLETOP_CONFIG", str(broken))
    assert main(["config", "show"]) == 0
    header = capsys.readouterr().out.splitlines()[0]
    assert header.startswith(f"# configuration file {broken}:2 not read (not valid TOML")


# hand-written: where a setting came from, in each language (default, a flag, the environment)
ORIGINS = {"el": ("προεπιλογή", "επιλογή --port", "περιβάλλον TABLETOP_DATA_DIR"),
           "pl": ("domyślne", "opcja --port", "zmienna środowiskowa TABLETOP_DATA_DIR"),
           "hu": ("alapértelmezett", "kapcsoló: --port", "környezeti változó: TABLETOP_DATA_DIR")}


@pytest.mark.parametrize("lang", ["el", "pl", "hu"])
def test_config_show_says_where_each_setting_came_from_in_the_commands_language(tmp_path, monkeypatch, capsys, lang):
    # the header and the problems were translated, each setting's origin was English ("# default")
    path = write(tmp_path, 'version = 1\n[web]\nhost = "127.0.0.1"\n')
    monkeypatch.setenv("TABLETOP_CONFIG", str(path))
    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path))
    assert main(["--language", lang, "config", "show", "--port", "9000"]) == 0
    lines = {line.split(" = ")[0]: line for line in capsys.readouterr().out.splitlines()[1:]}
    default, flag, environment = ORIGINS[lang]
    assert lines["gpio.led_pin"].endswith(f"# {default}")
    assert lines["web.port"].endswith(f"# {flag}")
    assert lines["box.data_dir"].endswith(f"# {environment}")
    assert lines["web.host"].endswith(f"# {path}:3")  # a file and its line as they are
    assert not [line for line in lines.values() if line.endswith(("# default", "# flag --port"))]


def test_config_check_exit_codes_and_lines(tmp_path, capsys):
    good = write(tmp_path, "version = 1\n[web]\nport = 8081\n", "good.toml")
    assert main(["config", "check", str(good)]) == 0
    assert capsys.readouterr().out.startswith(f"{good}: ok (version 1, 1 of {len(SETTINGS)} settings set")
    bad = write(tmp_path, '[web]\nport = 0\n[box]\nnmae = "x"\n', "bad.toml")
    assert main(["config", "check", str(bad)]) == 1
    assert capsys.readouterr().out.splitlines() == [
        f"{bad}:2: web.port: 0 is not a TCP port: give 1-65535; the default 8080 is used",
        f"{bad}:4: box.nmae: unknown setting: did you mean box.name?",
    ]
    assert main(["config", "check", str(tmp_path / "missing.toml")]) == 1
    assert main(["config", "check", str(DEFAULT_FILE)]) == 0


@pytest.mark.parametrize("source, why", [("bogus:1", "it is not a known form"), ("opencv:", "opencv: needs a device"),
                                         ("picamera2:x", "the camera number after picamera2: must be a number")])
def test_config_check_names_a_camera_source_the_box_cannot_open(tmp_path, capsys, source, why):
    """`camera.source = "bogus:1"` passed `config check` ("ok") and stopped the box at its start ('companion run:
    unknown camera source'); it is now one line with the file's line, as any other bad setting."""
    bad = write(tmp_path, f'[camera]\nsource = "{source}"\n', "bad.toml")
    assert main(["config", "check", str(bad)]) == 1
    [line] = capsys.readouterr().out.splitlines()
    assert line.startswith(f"{bad}:2: camera.source: unknown camera source '{source}' ({why}")
    assert line.endswith('the default "auto" is used')


def _table_files(folder: Path) -> None:
    """A folder of one photo (``photos/``) and a video (``table.mp4``, three frames) in ``folder``."""
    import cv2
    import numpy as np

    (folder / "photos").mkdir()
    assert cv2.imwrite(str(folder / "photos" / "t1.png"), np.full((48, 64, 3), 90, np.uint8))
    video = cv2.VideoWriter(str(folder / "table.mp4"), cv2.VideoWriter_fourcc(*"mp4v"), 5, (64, 48))
    for grey in (0, 60, 120):
        video.write(np.full((48, 64, 3), grey, np.uint8))
    video.release()


@pytest.mark.parametrize("source", ["auto", "picamera2:1", "opencv:0", "opencv:{here}/table.mp4",
                                    "replay:{here}/photos", "{here}/photos", "table.mp4"])
def test_config_check_takes_every_form_of_camera_source(tmp_path, capsys, monkeypatch, source):
    """Every form of SPEC_FORMS passes: a camera without being opened (the box's service may hold it), a folder of
    photos or a video that is there."""
    _table_files(tmp_path)
    monkeypatch.chdir(tmp_path)  # "table.mp4": a video of the folder the box starts in, as `run` reads it
    good = write(tmp_path, f'[camera]\nsource = "{source.format(here=tmp_path)}"\n', "good.toml")
    assert main(["config", "check", str(good)]) == 0, capsys.readouterr().out


@pytest.mark.parametrize("source, why", [
    ("replay:{here}/nonexistent", "{here}/nonexistent does not exist: give a folder of photos (.jpg"),
    ("{here}/empty", "no images in the folder {here}/empty"),
    ("opencv:{here}/gone.mp4", "no video file at {here}/gone.mp4"),
])
def test_config_check_names_a_replay_the_box_cannot_open(tmp_path, capsys, source, why):
    """`camera.source = "replay:/nonexistent"` passed `config check` ("ok") while `run` stopped on it and `doctor`
    failed its camera ('/nonexistent does not exist'); check now names it at its line, in the same words."""
    (tmp_path / "empty").mkdir()
    bad = write(tmp_path, f'version = 1\n[camera]\nsource = "{source.format(here=tmp_path)}"\n', "bad.toml")
    assert main(["config", "check", str(bad)]) == 1
    [line] = capsys.readouterr().out.splitlines()
    assert line.startswith(f"{bad}:3: camera.source: {why.format(here=tmp_path)}"), line


def test_a_bad_file_does_not_stop_the_box(tmp_path, monkeypatch, caplog):
    path = write(tmp_path, '[web]\nport = "x"\n')
    monkeypatch.setenv("TABLETOP_CONFIG", str(path))
    args = box_args(["demo"])
    with caplog.at_level("WARNING"):
        config = apply_box_config(args)
    assert args.port == 8080 and config["web.port"] == 8080
    assert f"{path}:2: web.port" in caplog.text


@pytest.mark.parametrize("lang", ["el", "pl", "hu"])
def test_the_problems_logged_at_the_start_are_in_the_commands_language(tmp_path, monkeypatch, caplog, lang):
    """`companion --language el demo` with an unknown key and a bad value that falls back logged both, and the
    closing 'the box goes on with the defaults', in English; each is now in the command's language, the file, line
    and key as written."""
    from companion.i18n import use_language

    path = write(tmp_path, '[web]\nport = "x"\nbogus = 3\n')
    monkeypatch.setenv("TABLETOP_CONFIG", str(path))
    with caplog.at_level("WARNING", logger="companion"):
        apply_box_config(box_args(["demo"]))
    english = [r.getMessage() for r in caplog.records]
    caplog.clear()
    with use_language(lang), caplog.at_level("WARNING", logger="companion"):
        args = box_args(["demo"])
        apply_box_config(args)
    said = [r.getMessage() for r in caplog.records]
    assert args.port == 8080  # the default stands in for the bad value
    assert len(said) == len(english) == 3
    assert f"{path}:2: web.port: " in said[0] and f"{path}:3: web.bogus: " in said[1]
    for theirs, ours in zip(english[:2], said[:2], strict=True):
        assert ours.split(": ")[0] != "configuration", ours
        assert ours.split(": ", 3)[3] != theirs.split(": ", 3)[3], ours  # what is wrong: not the English
    assert "config check" in said[2] and said[2] != english[2]  # the command to run, as typed
    assert '"x"' in said[0] and "8080" in said[0]  # the value written and the default as they are


@pytest.mark.parametrize("name, ok", [("companion", True), ("Kitchen table", True), ("Στο τραπέζι 2", True),
                                      ("Τραπέζι", True), ("Стол", True), ("", False), ("a.b", False),
                                      ("x" * 64, False), ("---", False)])
def test_box_names(name, ok, tmp_path):
    """A name in any alphabet names the box (its network name is spelt in a-z: tests/test_mdns.py); one with no
    letter or digit at all, a dot or more than 63 bytes does not."""
    path = write(tmp_path, f'[box]\nname = "{name}"\n')
    assert (not load(path, env={}).problems) is ok
    if ok:
        assert load(path, env={})["box.name"] == name  # kept as written, for the service phones see


@pytest.mark.parametrize("lang", ["el", "pl", "hu"])
def test_config_check_says_each_problem_in_the_language_asked_for(tmp_path, capsys, lang):
    """`companion --language L config check` keeps each line's FILE:LINE: KEY as written and says what is wrong in L
    (it was English in every language): one file with a problem of each kind of setting."""
    path = write(tmp_path, "\n".join([
        'version = "x"',               # 1 not a number
        "[web]",                       # 2
        'port = "80"',                 # 3 text, not a number
        "host = 5",                    # 4 not text
        "announce = 1",                # 5 not true/false
        "[gpio]",                      # 6
        "next_pin = 17",               # 7
        "led_pin = 17",                # 8 the Next button's pin
        "undo_pin = 40",               # 9 not on the header
        "[box]",                       # 10
        'language = "de"',             # 11 not a box language
        'languag = "el"',              # 12 misspelt
        'name = "a.b"',                # 13 a dot
        'data_dir = "relative"',       # 14 not absolute
        "[camera]",                    # 15
        'size = "big"',                # 16
    ]) + "\n")
    assert main(["config", "check", str(path)]) == 1
    english = capsys.readouterr().out.splitlines()
    assert main(["--language", lang, "config", "check", str(path)]) == 1
    said = capsys.readouterr().out.splitlines()
    assert len(said) == len(english) == 11
    for theirs, ours in zip(english, said, strict=True):
        prefix = ": ".join(theirs.split(": ")[:2]) + ": "  # "FILE:LINE: KEY: "
        assert ours.startswith(prefix), (ours, prefix)  # the file, line and key as written
        assert ours[len(prefix):] != theirs[len(prefix):], ours  # what is wrong: in the language asked for
    # the values the owner wrote and the defaults stay as written
    assert '"80"' in said[1] and "8080" in said[1] and "gpio.next_pin" in said[4] and "27" in said[4]


def test_a_device_a_pipe_or_a_huge_file_as_the_configuration_is_one_problem_and_the_defaults(tmp_path, capsys):
    """$TABLETOP_CONFIG or --config naming /dev/zero read it for ever (the box's memory filled at start), a named pipe
    blocked the start; a file over 1 MiB is no configuration. Each is one problem (the box goes on with the
    defaults); /dev/null is 'no file' said on purpose: every default, no problem."""
    import os

    pipe = tmp_path / "config.toml"
    os.mkfifo(pipe)
    huge = write(tmp_path, "#" * (cfg.CONFIG_AT_MOST + 1) + "\n", name="huge.toml")
    for path, words in ((Path("/dev/zero"), "a device or a pipe"), (pipe, "a device or a pipe"),
                        (huge, "larger than 1024 KiB")):
        config = load(path, env={})
        assert [(p.key, p.line) for p in config.problems] == [(None, None)], path
        assert words in config.problems[0].message
        assert config["web.port"] == 8080 and config["gpio.next_pin"] == 17
    assert main(["--language", "pl", "config", "check", str(pipe)]) == 1
    said = capsys.readouterr().out.strip()
    assert said.startswith(f"{pipe}: ") and "device or a pipe" not in said  # in Polish
    quiet = load(Path(os.devnull), env={})
    assert quiet.problems == [] and quiet["web.port"] == 8080


def test_bad_values_are_quoted_as_written_in_the_toml_file(tmp_path):
    """'config check' said "nie True" and 'np. "['x']"': Python's spellings of what the owner wrote in TOML."""
    from companion.i18n import say

    path = tmp_path / "config.toml"
    path.write_text('[web]\nannounce = "yes"\nhost = true\n[box]\ndata_dir = ["x"]\n', encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load(path, env={}, strict=True)
    text = {p.key: say(p.message, "pl") for p in caught.value.problems}
    assert 'nie "yes"' in text["web.announce"] and "'yes'" not in text["web.announce"]
    assert "np. \"x\"" in text["box.data_dir"] and "['x']" not in text["box.data_dir"]
    assert "True" not in text["web.host"] and "true" in text["web.host"]


@pytest.mark.parametrize("escaped", ["\\u0000", "\\n", "\\u001b", "\\u007f"])
def test_a_data_folder_holding_a_control_character_is_a_problem_and_the_box_starts_on_the_default(
        tmp_path, monkeypatch, escaped):
    """`data_dir = "/srv/ga\\u0000mes"` (a TOML escape: the file holds no such byte) passed `config check` as ok and
    stopped `companion run` and `demo` at start with a traceback (a NUL cannot be in a path or the environment). No
    folder name holds a control character: it is named as a problem, in the owner's language, and the default
    folder is used."""
    from companion.i18n import say

    path = write(tmp_path, f'[box]\ndata_dir = "{tmp_path}/ga{escaped}mes"\n')
    config = load(path, env={})
    [problem] = config.problems
    assert (problem.key, problem.line) == ("box.data_dir", 2)
    assert config["box.data_dir"] == ""
    assert f'"{tmp_path}/ga{escaped}mes"' in str(problem.message)  # as written in the file
    english = str(problem.message)
    assert english.endswith('holds a control character, which no folder name has: give the folder\'s path, or "" '
                            'for the default; the default "" is used')
    for lang, words in (("el", "περιέχει χαρακτήρα ελέγχου"), ("pl", "zawiera znak sterujący"),
                        ("hu", "vezérlőkaraktert tartalmaz")):
        assert words in say(problem.message, lang), say(problem.message, lang)
    monkeypatch.setenv("TABLETOP_CONFIG", str(path))
    monkeypatch.setenv("TABLETOP_DATA_DIR", "")  # remembered, so the value apply_box_config sets is undone after
    monkeypatch.delenv("TABLETOP_DATA_DIR")
    applied = apply_box_config(box_args(["demo"]))  # raised ValueError (embedded null byte) before
    assert applied["box.data_dir"] == "" and applied.origin("box.data_dir") == "default"
