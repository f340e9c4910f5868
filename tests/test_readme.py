"""The README as a newcomer reads it: the two set-up commands, a command reference that is the CLI's own,
commands that run as printed, a wiring table that is the box's defaults, and camera arithmetic that adds up."""

from __future__ import annotations

import argparse
import math
import os
import re
import shlex
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from companion.cli import _parser

README = Path(__file__).resolve().parents[1] / "README.md"
TEXT = README.read_text(encoding="utf-8")
SETUP_COMMANDS = ("./setup.sh run", "./setup.sh test")


def section(title: str) -> str:
    """The text of the section headed ``title`` (any level), up to the next heading of the same or a higher level."""
    match = re.search(rf"^(#+) {re.escape(title)}\n", TEXT, re.M)
    assert match, f"no section {title!r} in README.md"
    level = len(match.group(1))
    end = re.compile(rf"^#{{1,{level}}} ", re.M).search(TEXT, match.end())
    return TEXT[match.end():end.start() if end else len(TEXT)]


def code_blocks(text: str) -> list[tuple[str, str]]:
    """(language, body) of every fenced block in ``text``, also those indented in a list item (body dedented)."""
    blocks = re.findall(r"^[ \t]*```(\w*)\n(.*?)^[ \t]*```", text, re.M | re.S)
    return [(lang, textwrap.dedent(body)) for lang, body in blocks]


def table(text: str) -> list[list[str]]:
    """The rows (cells stripped) of the first Markdown table in ``text``, header and rule left out."""
    rows = [line for line in text.splitlines() if line.startswith("|")]
    return [[c.strip() for c in row.strip("|").split("|")] for row in rows[2:]]


def subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    actions = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(actions[0].choices) if actions else {}


def test_the_set_up_section_holds_exactly_the_two_set_up_commands():
    assert TEXT.index("## Set up") < TEXT.index("## Your first evening") < TEXT.index("## Hardware") \
        < TEXT.index("## Command reference")
    blocks = code_blocks(section("Set up"))
    assert [(lang, body.strip()) for lang, body in blocks] == [("sh", c) for c in SETUP_COMMANDS]
    # nowhere else does a code block tell a newcomer to run setup.sh
    lines = [line.strip() for _, body in code_blocks(TEXT) for line in body.splitlines()]
    assert [line for line in lines if "setup.sh" in line] == list(SETUP_COMMANDS)


def test_the_command_reference_is_companion_help_itself():
    env = {**os.environ, "COLUMNS": "80"}
    printed = subprocess.run([sys.executable, "-m", "companion.cli", "--help"], capture_output=True, text=True,
                             env=env, timeout=120, check=True).stdout
    blocks = [body for _, body in code_blocks(section("Command reference"))]
    assert printed in blocks, "README's `companion --help` differs from the command's; paste it again (COLUMNS=80)"


def test_every_usage_line_names_real_commands_and_options():
    parser = _parser()
    commands = subparsers(parser)
    usage = [body for _, body in code_blocks(section("Command reference")) if body.startswith("companion run")]
    assert len(usage) == 1
    seen = set()
    for line in usage[0].splitlines():
        words = line.split("#")[0].split()
        assert words[0] == "companion" and words[1] in commands, line
        seen.add(words[1])
        command = commands[words[1]]
        nested = subparsers(command)
        if nested:  # enroll WHAT, config WHAT
            assert words[2] in nested, line
            command = nested[words[2]]
        known = {opt for action in command._actions for opt in action.option_strings}
        for flag in re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", " ".join(words)):
            assert flag in known, f"{line}: {flag} is not an option of this command"
    assert seen == set(commands), f"commands without a usage line: {set(commands) - seen}"


def test_the_walkthrough_commands_run_as_printed():
    parser = _parser()
    lines = [line.split("  #")[0].strip() for _, body in code_blocks(section("Your first evening, step by step"))
             for line in body.splitlines() if line.startswith(".venv/bin/companion ")]
    assert len(lines) >= 7
    games = set()
    for line in lines:
        args = parser.parse_args(shlex.split(line)[1:])  # argparse exits (SystemExit) on a bad line
        games.add(getattr(args, "game", None))
    assert {"roll", "race", "among", "eclipse"} <= games


def test_the_wiring_table_is_the_boxs_defaults_on_the_right_header_pins():
    import inspect

    from gpiozero.pins.mock import MockFactory

    from companion.config import setting
    from device.gpio import Controls

    header = MockFactory().board_info.headers["J8"]
    names = {pin.number: pin.name for pin in header.pins.values()}
    defaults = inspect.signature(Controls).parameters
    rows = {row[1].strip("`"): row for row in table(section("Wiring the buttons, LED and buzzer"))}
    assert set(rows) == {"gpio.next_pin", "gpio.undo_pin", "gpio.led_pin", "gpio.buzzer_pin"}
    for key, (part, _, default, pin, ground, _how) in rows.items():
        assert default == str(setting(key).default), key
        bcm = int(default) if default.isdigit() else int(re.search(r"BCM (\d+)", pin).group(1))
        assert names[int(pin.split()[0])] == f"GPIO{bcm}", f"{part}: header pin {pin} is not BCM {bcm}"
        assert names[int(ground)] == "GND", f"{part}: pin {ground} is not a ground pin"
    assert rows["gpio.next_pin"][2] == str(defaults["button_pin"].default)
    assert rows["gpio.led_pin"][2] == str(defaults["led_pin"].default)
    assert defaults["undo_pin"].default is None and defaults["buzzer_pin"].default is None


@pytest.mark.parametrize("lens, fov_h, fov_v", [("Standard", 66, 41), ("Wide", 102, 67)])
def test_the_camera_height_table_follows_from_the_field_of_view(lens, fov_h, fov_v):
    """W = 2 h tan(FOVh / 2), V = 2 h tan(FOVv / 2); a 16 mm die is 2304 * 16 / W px, W/2304 of the width."""
    camera = section("Camera height and angle")
    assert f"{fov_h}° × {fov_v}°" in camera
    rows = [row for row in table(camera[camera.index("| Lens |"):]) if row[0] == lens]
    assert rows
    for _, height, view, die, verdict in rows:
        h = float(height.split()[0]) * 10  # cm -> mm
        w, v = (2 * h * math.tan(math.radians(a / 2)) for a in (fov_h, fov_v))
        assert view == f"{w / 10:.0f} × {v / 10:.0f} cm", (lens, height)
        px, share = 2304 * 16 / w, 16 / w
        assert die == f"{px:.0f} px ({share:.1%})".replace("%", " %"), (lens, height)
        # the verdict follows the measured limit: at least 3 % of the width is read
        assert (verdict == "yes") == (share >= 0.0295), (lens, height, verdict)


def test_the_measuring_section_keeps_its_bench_commands():
    measuring = section("Measuring")
    for command in ("bench/d6_byler.py", "bench/d6_penlington.py", "bench/roll_dice.py --n 60", "bench/table_reader.py",
                    "bench/hex_reader.py --maps 20 --seed 1000 --timing 5", "bench/die_size.py",
                    "tests/test_fuzz_score_inputs.py tests/test_fuzz_images.py", "tests/test_camera_faults.py",
                    "bench/kill_trials.py", "bench/phone_load.py", "tests/test_fuzz_http.py"):
        assert command in measuring, command
        path = command.split()[0]
        assert (README.parent / path).exists(), path


def test_readme_says_what_the_box_does_now_and_how_tests_find_shared_data():
    today = TEXT[TEXT.index("What it does today"):TEXT.index("## Set up")]
    assert "coming next" not in today
    for words in ("Roll for the Galaxy", "Race for the Galaxy", "Among the Stars", "phone", "misplay",
                  "scoring", "export", "`companion read", "Eclipse with Rise of the Ancients", "--game eclipse"):
        assert words in today, words
    assert "`$TABLETOP_SHARED`" in TEXT and "`../shared`" in TEXT and "skipped, each with the reason" in TEXT
    start = TEXT.index("## Set up")
    setup = TEXT[start:TEXT.index("\n## ", start)]  # the Set up section alone
    assert setup.count("```sh") == 2
    assert "```sh\n./setup.sh run\n```" in setup and "```sh\n./setup.sh test\n```" in setup
    assert "companion sessions" in TEXT and "--demo" in TEXT


def test_the_demo_log_line_and_its_question_mark_are_as_the_readme_says(tmp_path, monkeypatch, caplog):
    """Step 1 quotes a roll's log line with a `?` and says what it is: a die seen but not read surely, left out of the
    count per value and the sum. The demo's own lines have that shape, and each roll it records is what its line says
    (a `?` for a die without a value, the sum of the others)."""
    import logging

    from companion.cli import main
    from companion.session import SessionStore
    from rules.d6 import Roll

    step = section("Your first evening, step by step")
    shape = r"event (\d+): read (\d+) dic?e: ([1-6?](?: [1-6?])*)"
    quoted = re.search(rf"`({shape})`, where `\?`\s+is a die seen but not read surely: it is left out of the count "
                       r"per value and the sum", step)
    assert quoted, "step 1 explains the `?` of the demo's log line"
    values = tuple(None if v == "?" else int(v) for v in quoted.group(4).split())
    assert None in values and int(quoted.group(3)) == len(values)
    roll = Roll(seq=int(quoted.group(2)), values=values, at=0.0, origin="camera")  # 5 ? 3 3 5: by hand 16, 4 counted
    assert roll.total == 5 + 3 + 3 + 5 and sum(roll.counts.values()) == 4 and roll.unreadable == 1

    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path))
    caplog.set_level(logging.INFO)
    db = tmp_path / "demo.sqlite3"
    assert main(["demo", "--once", "--fast", "--no-web", "--no-screen", "--no-gpio", "--db", str(db)]) == 0
    logged = {int(m.group(1)): m.group(3) for m in (re.fullmatch(shape, r.getMessage()) for r in caplog.records) if m}
    assert logged, "the demo logs a line per roll"
    with SessionStore(db) as store:
        session = store.resume_latest("d6")
        rolls = {e.seq: e.payload["values"] for e in session.events() if e.kind == "dice_read"}
    assert set(rolls) == set(logged)
    for seq, said in logged.items():
        assert said == " ".join("?" if v is None else str(v) for v in rolls[seq]), seq
        assert Roll(seq, tuple(rolls[seq]), 0.0, "camera").total == sum(int(v) for v in said.split() if v != "?")
