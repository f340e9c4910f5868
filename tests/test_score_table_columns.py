"""``companion score``'s table as a terminal draws it (``companion.scoring.format_table``), and the names it scores
composed as the box composes a name typed at the table (``companion.scoring.named_by_the_box``).

Race for the Galaxy values from the Race digest §7 (start worlds' VP printed on the card: Old Earth 2, Epsilon
Eridani 1, Alpha Centauri 0) and the VP chips each player holds."""

from __future__ import annotations

import argparse
import io
import json

import wcwidth

from companion import scoring

FAMILY = "\U0001F468\u200d\U0001F469\u200d\U0001F467"
"""A joined emoji family: three people and two zero-width joiners, drawn as one picture two columns wide."""


def _race(*names: str) -> dict:
    # chips 5 + Old Earth 2 = 7; chips 4 + Epsilon Eridani 1 = 5; chips 1 + Alpha Centauri 0 = 1
    worlds = ["Old Earth", "Epsilon Eridani", "Alpha Centauri"]
    return {"players": [{"name": name, "chips": chips, "hand": 0, "tableau": [world]}
                        for name, chips, world in zip(names, (5, 4, 1), worlds, strict=False)]}


def _score(tmp_path, document: dict, as_json: bool) -> tuple[int, str, str]:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(document, ensure_ascii=True), encoding="utf-8")  # the marks as \u escapes too
    out, err = io.StringIO(), io.StringIO()
    rc = scoring.cmd_score(argparse.Namespace(game="race", file=path, json=as_json), out, err)
    return rc, out.getvalue(), err.getvalue()


def _column_ends(line: str) -> list[int]:
    """The terminal column where each cell of a table line ends (cells are parted by two spaces or more)."""
    ends, at, k = [], 0, 0
    cells = [c for c in line.split("  ") if c.strip()]
    for cell in cells:
        k = line.index(cell, k) + len(cell)
        at = wcwidth.width(line[:k])
        ends.append(at)
    return ends


def test_the_columns_line_up_in_terminal_columns_for_marks_and_joined_emoji(tmp_path):
    """"Zoe" with a combining diaeresis is three columns, a joined family two: every row's numbers end in the
    column under the end of their player's name, and each rule is as wide as its column (before: counted in code
    points, the family's column was five wide and its numbers three columns right of the picture)."""
    rc, out, err = _score(tmp_path, _race("Zoe\u0308", FAMILY, "Bob"), as_json=False)
    assert (rc, err) == (0, "")
    lines = out.splitlines()
    header, rule = lines[0], lines[1]
    names_end = _column_ends(header)
    assert len(names_end) == 3
    widths = [len(dashes) for dashes in rule.split("  ")]
    assert widths[1:] == [3, 2, 3]  # "Zoë", the family, "Bob": their widths on a terminal
    rows = {line.split("  ")[0].strip(): line for line in lines[2:] if line and not line.startswith("-")}
    for label in ("VP chips", "worlds", "total"):
        assert _column_ends(rows[label])[1:] == names_end, (label, rows[label], header)
    assert rows["total"].split()[-3:] == ["7", "5", "1"]
    assert out.splitlines()[-1].endswith("Zo\u00eb")  # the winner, composed


def test_a_name_is_composed_as_the_table_composes_it(tmp_path):
    """A file's "Zoe" + combining diaeresis is scored as "Zoë" (one code point less), as the box's setup keeps it;
    a name referred to elsewhere in the file is composed alike, so it still names the same player."""
    rc, out, err = _score(tmp_path, _race("Zoe\u0308", "Bob"), as_json=True)
    assert (rc, err) == (0, "")
    result = json.loads(out)
    assert [(p["name"], p["total"]) for p in result["players"]] == [("Zo\u00eb", 7), ("Bob", 5)]
    assert result["winners"] == ["Zo\u00eb"]


def test_composing_takes_any_depth_the_json_reader_takes_and_keeps_the_later_of_two_keys():
    deep = json.loads("[" * 900 + '"e\\u0301"' + "]" * 900)
    inner = scoring.composed(deep)
    for _ in range(900):
        inner = inner[0]
    assert inner == "\u00e9"
    assert scoring.composed({"a\u0308": 1, "\u00e4": 2}) == {"\u00e4": 2}
    assert scoring.composed({"n": 2.5, "b": None, "t": True, "l": ["O\u0308"]}) == {"n": 2.5, "b": None, "t": True,
                                                                                    "l": ["\u00d6"]}
