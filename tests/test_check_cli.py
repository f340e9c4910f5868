"""``companion check GAME FILE --json``: the exact findings shape other tools read."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.test_among_scoring import MR, player, row, rulebook_example


def check(tmp_path, data, *extra):
    path = tmp_path / "position.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return subprocess.run([sys.executable, "-m", "companion.cli", "check", "among", str(path), *extra],
                          capture_output=True, text=True, timeout=120)


def test_legal_stations_give_no_findings(tmp_path):
    result = check(tmp_path, rulebook_example(), "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {"findings": []}


def test_a_location_not_touching_the_station_is_a_finding_with_the_exact_shape(tmp_path):
    # Among the Stars, building a location: it must share an edge with the station. (3, 3) touches nothing.
    data = {"objectives": [],
            "players": [player("Ann", 10, 2, [MR, row("Pilot Training Area", (1, 0)), row("Crew Quarters", (3, 3))]),
                        player("Béla", 10, 2, [MR])]}
    result = check(tmp_path, data, "--json")
    assert result.returncode == 0, result.stderr
    findings = json.loads(result.stdout)["findings"]
    assert findings, "the lone Crew Quarters is misplaced"
    assert all(list(f) == ["player", "card", "cell", "rule", "message"] for f in findings)
    lone = [f for f in findings if f["cell"] == [3, 3]]
    assert lone and lone[0]["player"] == "Ann" and lone[0]["card"] == "Crew Quarters"
    human = check(tmp_path, data)
    # (3, 3) is 3 rows below and 3 columns right of the Main Reactor (rulebook 5.1 'Grid and adjacency'), said once
    line = next(x for x in human.stdout.splitlines() if x.startswith("misplay: Ann: Crew Quarters"))
    assert line.startswith("misplay: Ann: Crew Quarters (3 below and 3 right of the Main Reactor) was not edge-")
    assert line.count("3 below and 3 right of the Main Reactor") == 1 and "(3, 3)" not in human.stdout


def test_bad_file_names_the_field(tmp_path):
    data = {"objectives": [], "players": [player("Ann", 10, 2, [MR, row("Crew Quarter", (1, 0))])]}
    result = check(tmp_path, data, "--json")
    assert result.returncode == 1
    assert "Crew Quarters" in result.stderr and "station" in result.stderr
