"""The ``companion`` command line: the read JSON contract, bad input, and the demo end to end."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main
from companion.commands.box import demo_photos
from companion.session import SessionStore

PHOTOS = sorted(demo_photos().glob("*.jpg"))


def run_cli(*args: str, env_extra: dict | None = None, timeout: float = 240) -> subprocess.CompletedProcess:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", **(env_extra or {})}
    return subprocess.run([sys.executable, "-m", "companion.cli", *args], capture_output=True, text=True,
                          timeout=timeout, env=env)


def test_demo_photos_are_bundled_with_their_licence():
    assert len(PHOTOS) >= 5
    licence = (demo_photos() / "LICENSE").read_text()
    assert licence.startswith("BSD 3-Clause") or "Redistribution" in licence


def test_read_json_shape_per_image(capsys):
    code = main(["read", str(PHOTOS[0]), str(PHOTOS[1]), "--dice", "d6", "--json"])
    assert code == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 2
    for line, photo in zip(lines, PHOTOS[:2], strict=True):
        record = json.loads(line)
        assert set(record) == {"image", "width", "height", "dice"}
        assert record["image"] == str(photo) and (record["width"], record["height"]) == (640, 640)
        assert record["dice"], "the demo photos all show dice"
        for die in record["dice"]:
            assert set(die) == {"kind", "value", "box", "confidence"}
            assert die["kind"] == "d6"
            assert die["value"] is None or die["value"] in range(1, 7)
            x, y, w, h = die["box"]
            assert all(isinstance(v, int) for v in die["box"]) and w > 0 and h > 0
            assert 0 <= x and x + w <= 640 and 0 <= y and y + h <= 640
            assert 0.0 <= die["confidence"] <= 1.0


def test_bad_images_are_named_and_the_rest_still_read(tmp_path, capsys):
    truncated = tmp_path / "truncated.jpg"
    truncated.write_bytes(PHOTOS[0].read_bytes()[:5000])
    garbage = tmp_path / "garbage.jpg"
    garbage.write_bytes(b"this is not a jpeg at all")
    missing = tmp_path / "missing.jpg"
    code = main(["read", str(truncated), str(PHOTOS[2]), str(garbage), str(missing), "--json"])
    out, err = capsys.readouterr()
    assert code == 1
    assert [json.loads(line)["image"] for line in out.strip().splitlines()] == [str(PHOTOS[2])]
    for bad in (truncated, garbage, missing):
        assert str(bad) in err
    assert "truncated" in err


def test_unknown_option_and_dice_kind_are_usage_errors():
    result = run_cli("read", str(PHOTOS[0]), "--frobnicate")
    assert result.returncode == 2 and "unrecognized arguments: --frobnicate" in result.stderr
    result = run_cli("read", str(PHOTOS[0]), "--dice", "d20")
    assert result.returncode == 2 and "invalid choice: 'd20'" in result.stderr


def test_an_option_the_command_does_not_take_is_refused_with_that_commands_usage(capsys):
    """`companion run --once` (--once is the demo's) said the top-level usage, which does not name `run`."""
    with pytest.raises(SystemExit) as stopped:
        main(["run", "--once", "--no-screen"])
    err = capsys.readouterr().err.splitlines()
    assert stopped.value.code == 2
    assert err == ["usage: companion run [options]", "companion run: error: unrecognized arguments: --once"]
    with pytest.raises(SystemExit):
        main(["enroll", "roll-dice", "--frobnicate"])
    assert "companion enroll roll-dice: error: unrecognized arguments: --frobnicate" in capsys.readouterr().err


def test_an_unknown_option_without_a_command_is_named_not_hidden_behind_the_missing_command(capsys):
    """`companion --versoin` said only "the following arguments are required: COMMAND": the mistyped option was
    not named. The unknown option is named first; a line with no command at all still asks for one."""
    with pytest.raises(SystemExit) as stopped:
        main(["--versoin"])
    err = capsys.readouterr().err.splitlines()
    assert stopped.value.code == 2
    assert err[-1] == "companion: error: unrecognized arguments: --versoin"
    with pytest.raises(SystemExit):
        main(["enroll", "--frobnicate"])
    assert capsys.readouterr().err.splitlines()[-1] == "companion enroll: error: unrecognized arguments: --frobnicate"
    with pytest.raises(SystemExit):
        main(["--language", "pl", "--versoin"])
    assert "--versoin" in capsys.readouterr().err.splitlines()[-1]
    with pytest.raises(SystemExit) as stopped:
        main([])
    assert stopped.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == "companion: error: the following arguments are required: COMMAND"
    with pytest.raises(SystemExit):
        main(["enroll"])
    err = capsys.readouterr().err.splitlines()
    assert err[-1] == "companion enroll: error: the following arguments are required: WHAT"


def test_demo_reads_every_photo_and_records_it(tmp_path):
    db = tmp_path / "sessions.sqlite3"
    shot = tmp_path / "screen.png"
    result = run_cli("demo", "--once", "--fast", "--db", str(db), "--no-gpio", "--host", "127.0.0.1", "--port", "0",
                     "--screenshot", str(shot), "--hold", "1.5")
    assert result.returncode == 0, result.stderr
    assert shot.stat().st_size > 5000
    with SessionStore(db) as store:
        (info,) = store.list_sessions()
        session = store.get(info.id)
        reads = [e for e in session.events() if e.kind == "dice_read"]
    assert len(reads) == len(PHOTOS)
    assert [Path(e.payload["image"]).name for e in reads] == [p.name for p in PHOTOS]
    assert all(len(e.payload["values"]) >= 1 for e in reads)

    # Running again resumes the same session: the photos it recorded are not recorded again (issue 16, issue 17).
    result = run_cli("demo", "--once", "--fast", "--db", str(db), "--no-gpio", "--no-web", "--hold", "1.5",
                     str(PHOTOS[0].parent))
    assert result.returncode == 0, result.stderr
    assert "already recorded in this session" in result.stderr
    with SessionStore(db) as store:
        assert len(store.list_sessions()) == 1
        assert len([e for e in store.get(info.id).events() if e.kind == "dice_read"]) == len(PHOTOS)


def read_images(db: Path) -> list[str]:
    with SessionStore(db) as store:
        (info,) = store.list_sessions()
        return [Path(e.payload["image"]).name for e in store.get(info.id).events() if e.kind == "dice_read"]


def test_a_looping_demo_records_each_photo_once_and_a_replaced_photo_again(tmp_path):
    """The demo loops (no --once): every later pass, and a restart on the same session, shows the read but records
    nothing; a photo replaced under the same name (a newer file) is a new roll."""
    folder = tmp_path / "photos"
    folder.mkdir()
    for photo in PHOTOS[:2]:
        (folder / photo.name).write_bytes(photo.read_bytes())
    db = tmp_path / "demo.sqlite3"
    args = ("demo", "--fast", "--hold", "1.5", "--max-frames", "150", "--db", str(db), "--no-gpio", "--no-web",
            "--no-screen", str(folder))
    result = run_cli(*args)  # 150 frames at 1.5 s a photo: two passes and more over the two photos
    assert result.returncode == 0, result.stderr
    assert result.stderr.count("already recorded in this session") >= 2
    assert read_images(db) == [p.name for p in PHOTOS[:2]]
    again = run_cli(*args)  # a restart: every pass shows each photo read again, and the log says so once per photo
    assert again.returncode == 0
    assert read_images(db) == [p.name for p in PHOTOS[:2]]
    assert [again.stderr.count(f"not recorded: {p.name}: already recorded in this session") for p in PHOTOS[:2]] == [
        1, 1], again.stderr  # it said so every 4 s in a looping demo: once per distinct read
    # the second photo replaced by another roll (a newer file: here a third photo's dice) after it was recorded
    (folder / PHOTOS[1].name).write_bytes(PHOTOS[2].read_bytes())
    assert run_cli(*args).returncode == 0
    assert read_images(db) == [p.name for p in (PHOTOS[0], PHOTOS[1], PHOTOS[1])]


def test_demo_on_an_empty_folder_says_so(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    result = run_cli("demo", str(empty), "--once", "--fast", "--db", str(tmp_path / "s.sqlite3"),
                     "--no-web", "--no-gpio")
    assert result.returncode != 0
    assert str(empty) in result.stderr and "Traceback" not in result.stderr


def test_demo_on_a_folder_of_only_corrupt_photos_stops_with_the_reason(tmp_path):
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "a.jpg").write_text("not a photo")
    (bad / "b.jpg").write_bytes(PHOTOS[0].read_bytes()[:3000])
    result = run_cli("demo", str(bad), "--once", "--fast", "--db", str(tmp_path / "s.sqlite3"), "--no-web", "--no-gpio",
                     timeout=60)
    assert result.returncode == 3
    assert "none of the 2 images" in result.stderr and "Traceback" not in result.stderr


def test_run_on_a_folder_reads_each_photo_then_stops(tmp_path):
    db = tmp_path / "run.sqlite3"
    folder = tmp_path / "photos"
    folder.mkdir()
    for photo in PHOTOS[:3]:
        (folder / photo.name).write_bytes(photo.read_bytes())
    result = run_cli("run", "--source", str(folder), "--hold", "1.0", "--db", str(db), "--no-web", "--no-gpio",
                     "--no-screen", timeout=120)
    assert result.returncode == 0, result.stderr
    with SessionStore(db) as store:
        (info,) = store.list_sessions()
        assert len([e for e in store.get(info.id).events() if e.kind == "dice_read"]) == 3


@pytest.mark.parametrize("args, problem", [
    (["demo", "--port", "70000"], "port 70000 is outside 0-65535"),
    (["demo", "--hold", "0"], "positive number of seconds"),
    (["print-mat", "mat.txt"], "name a .png or .pdf file"),
])
def test_bad_options_are_usage_errors(args, problem):
    result = run_cli(*args, timeout=60)
    assert result.returncode == 2 and problem in result.stderr


def test_demo_uses_its_own_database_by_default(tmp_path):
    data = tmp_path / "data"
    result = run_cli("demo", "--once", "--fast", "--hold", "1.0", "--no-web", "--no-gpio", "--no-screen",
                     str(PHOTOS[0].parent), env_extra={"TABLETOP_DATA_DIR": str(data)})
    assert result.returncode == 0, result.stderr
    assert (data / "demo.sqlite3").exists() and not (data / "sessions.sqlite3").exists()


def test_a_database_path_that_cannot_be_opened_is_one_line(tmp_path):
    result = run_cli("demo", "--db", str(tmp_path), "--once", "--fast", "--no-web", "--no-gpio", timeout=60)
    assert result.returncode == 3 and str(tmp_path) in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize("extra, named", [
    (["--profile", "roll"], "--profile"),
    (["--mirror", "auto"], "--mirror"),
    (["--cards", "deck", "--dice", "roll"], "--dice"),
])
def test_options_that_do_not_apply_are_refused(extra, named, capsys):
    assert main(["read", str(PHOTOS[0]), *extra]) == 2
    assert named in capsys.readouterr().err


def test_on_a_machine_without_gpio_the_start_says_so_in_one_line(tmp_path):
    from device.gpio import NO_GPIO, is_raspberry_pi

    if is_raspberry_pi():
        pytest.skip("this machine is a Raspberry Pi: its GPIO is real")
    env = {k: v for k, v in os.environ.items() if k != "GPIOZERO_PIN_FACTORY"}  # no mock: the machine's own pins
    env.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", TABLETOP_DATA_DIR=str(tmp_path))
    result = subprocess.run([sys.executable, "-m", "companion.cli", "demo", "--once", "--fast", "--hold", "1.0",
                             "--no-web", "--no-screen", str(PHOTOS[0].parent)],
                            capture_output=True, text=True, timeout=240, env=env)
    assert result.returncode == 0, result.stderr
    gpio_lines = [line for line in result.stderr.splitlines() if "GPIO" in line or "device.gpio" in line]
    assert len(gpio_lines) == 1 and gpio_lines[0].endswith(NO_GPIO), result.stderr
    for noise in ("PinUnknownPi", "lgpio", "pin factory", "Traceback"):
        assert noise not in result.stderr


def test_the_help_says_what_the_box_runs_and_what_each_flag_does():
    """``companion --help`` names the four games (not "reads the dice"); ``--no-last-round-upkeep`` says it turns
    the option off; ``read --cards`` names the hexes a hex deck reads; README lists every schema in schemas/."""
    from companion.cli import _parser
    from companion.flows import FLOWS

    parser = _parser()
    top = " ".join(parser.format_help().split())
    assert all(spec.title in top for spec in FLOWS.values()) and "reads the dice on the table" not in top
    subs = next(a for a in parser._actions if a.dest == "command").choices
    run = " ".join(subs["run"].format_help().split())
    assert "--no-last-round-upkeep with --game eclipse: turn off round 9's Upkeep and Cleanup (on by default:" in run
    assert "hexes" in " ".join(subs["read"].format_help().split())
    assert "Eclipse" in " ".join(subs["export"].format_help().split())
    root = Path(__file__).resolve().parent.parent
    readme = (root / "README.md").read_text()
    for schema in sorted((root / "schemas").glob("*.schema.json")):
        assert f"`{schema.name.removesuffix('.schema.json')}`" in readme, schema.name
    assert "Among the Stars, Eclipse" in readme and "--config FILE" in readme and '"key"' in readme


def test_a_fresh_clone_of_the_demo_photos_resumes_without_recording_them_again(tmp_path):
    """A photo's identity is its bytes: the same photos in another folder with newer modification times (a fresh
    clone, another checkout) are already recorded; before, each came back as a new roll (path + mtime)."""
    db = tmp_path / "demo.sqlite3"
    folders = [tmp_path / "clone-1" / "photos", tmp_path / "clone-2" / "photos"]
    for folder in folders:
        folder.mkdir(parents=True)
        for photo in PHOTOS[:2]:
            (folder / photo.name).write_bytes(photo.read_bytes())
    later = PHOTOS[0].stat().st_mtime + 3600 * 24 * 400
    for photo in folders[1].iterdir():
        os.utime(photo, (later, later))  # cloned after the first run: newer than every recorded roll
    for folder in folders:
        result = run_cli("demo", "--once", "--fast", "--hold", "1.5", "--db", str(db), "--no-gpio", "--no-web",
                         "--no-screen", str(folder))
        assert result.returncode == 0, result.stderr
    assert "already recorded in this session" in result.stderr
    assert read_images(db) == [p.name for p in PHOTOS[:2]]


def test_every_argument_of_every_command_says_what_it_is():
    """`companion read --help` listed IMAGE and `companion enroll cards --help` DIR with no word on them: every
    argument of every command (and of every subcommand) has its help line."""
    import argparse

    from companion.cli import _parser

    def parsers(parser, path=()):
        yield path, parser
        for action in parser._actions:  # noqa: SLF001 - argparse keeps its subcommands here
            if isinstance(action, argparse._SubParsersAction):  # noqa: SLF001
                for name, sub in action.choices.items():
                    yield from parsers(sub, (*path, name))

    bare = [(" ".join(path), action.metavar or action.dest) for path, parser in parsers(_parser())
            for action in parser._actions  # noqa: SLF001
            if not isinstance(action, argparse._SubParsersAction) and not action.help]  # noqa: SLF001
    assert bare == [], bare
