"""A bounded, seeded fuzz of ``companion score`` / ``companion check`` over every game's input: documents
built from schemas/, any JSON, any bytes. Every run ends with exit 0 or the game's input-error exit (1; Eclipse
2), never a traceback, and every refusal is one line on stderr naming the file."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.scoring import checking_games, scoring_games
from rules import GAMES
from tests.fuzzing import FUZZ, FUZZ_STRUCTURED, any_json, documents, game_schema, mutated, renamed, run_cli
from tests.test_among_scoring import rulebook_example
from tests.test_eclipse_cases import case as eclipse_case
from tests.test_race_cli import game_record
from tests.test_roll_cli import EXAMPLE

SCORING = sorted(scoring_games())
CHECKING = sorted(checking_games())

SEEDS = {"roll": [EXAMPLE], "race": [game_record()], "among": [rulebook_example()],
         "eclipse": [eclipse_case("score-nine-players-two-alliances")]}
"""Hand-worked positions of each game (they score): mutated one thing at a time, they reach the scoring and
the printing, where a document drawn from the schema alone is mostly refused by the game's own checks."""

CHECK_SEEDS = {"eclipse": [eclipse_case("placement-half-wormhole-without-generator"),
                           eclipse_case("placement-influence-through-a-portal-token")]}
"""Hand-worked files of a game whose check reads another file than its score (``info.check_format.schema``);
the other games' checks are seeded with their score positions."""


def inputs(game: str, command: str = "score") -> st.SearchStrategy:
    schema = game_schema(game, GAMES[game].info.check_format.schema if command == "check" else "score-input")
    seeds = st.sampled_from((CHECK_SEEDS.get(game, SEEDS[game]) if command == "check" else SEEDS[game])
                            + schema.get("examples", []))
    return st.one_of(documents(schema), seeds, mutated(seeds), renamed(seeds))


def test_every_scoring_game_has_a_schema_and_a_seed_to_fuzz(tmp_path):
    assert SCORING and set(CHECKING) <= set(SCORING) and set(SEEDS) == set(SCORING)
    for game in SCORING:
        game_schema(game)  # a game without one would not be fuzzed
        for seed in SEEDS[game] + game_schema(game).get("examples", []):
            path = tmp_path / "seed.json"
            path.write_text(json.dumps(seed), encoding="utf-8")
            assert run_cli(["score", game, str(path), "--json"])[0] == 0, game  # a seed reaches the printing
    for game in CHECKING:
        schema = game_schema(game, GAMES[game].info.check_format.schema)
        for seed in CHECK_SEEDS.get(game, SEEDS[game]) + schema.get("examples", []):
            path = tmp_path / "seed.json"
            path.write_text(json.dumps(seed), encoding="utf-8")
            assert run_cli(["check", game, str(path), "--json"])[0] == 0, game  # a seed reaches the printing


def run_on(command: str, game: str, data: bytes, as_json: bool, folder: Path) -> None:
    path = folder / "input.json"
    path.write_bytes(data)
    argv = [command, game, str(path)] + (["--json"] if as_json else [])
    code, out, err = run_cli(argv)
    refused = GAMES[game].info.input_error_exit
    assert code in (0, refused), (code, err)
    assert "Traceback" not in err
    lines = err.splitlines()
    prefix = f"companion {command}: "
    assert all(line.startswith(prefix) for line in lines), err
    if code == refused:
        assert lines, "a refusal says why"
        for line in lines:
            assert str(path) in line or "line " in line, line
        jsonl = command == "score" and out  # JSON Lines: one stderr line per bad line, the others still scored
        assert jsonl or len(lines) == 1, err
    elif command == "score":
        assert err == ""
    if as_json and out:
        for line in out.splitlines():
            json.loads(line)  # whatever was printed is JSON, one document a line


def encodings(document) -> st.SearchStrategy[bytes]:
    """The document as a file may hold it: escaped JSON, raw UTF-8 (surrogates as CESU bytes), with a BOM."""
    escaped = json.dumps(document, ensure_ascii=True).encode()
    raw = json.dumps(document, ensure_ascii=False).encode("utf-8", "surrogatepass")
    return st.sampled_from([escaped, raw, b"\xef\xbb\xbf" + escaped, escaped + b"\n" + escaped])


COMMANDS = [("score", g) for g in SCORING] + [("check", g) for g in CHECKING]


@pytest.mark.parametrize(("command", "game"), COMMANDS)
def test_documents_shaped_by_the_schema_are_scored_or_refused_in_one_line(command, game):
    with tempfile.TemporaryDirectory() as folder:
        @FUZZ_STRUCTURED
        @given(data=inputs(game, command).flatmap(encodings), as_json=st.booleans())
        def fuzz(data, as_json):
            run_on(command, game, data, as_json, Path(folder))

        fuzz()


@pytest.mark.parametrize(("command", "game"), COMMANDS)
def test_any_json_or_bytes_is_one_line_at_worst(command, game):
    with tempfile.TemporaryDirectory() as folder:
        @FUZZ
        @given(data=st.one_of(any_json.flatmap(encodings), st.binary(max_size=300)), as_json=st.booleans())
        def fuzz(data, as_json):
            run_on(command, game, data, as_json, Path(folder))

        fuzz()
