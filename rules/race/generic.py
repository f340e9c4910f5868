"""Game-independent helpers Race needs that the shared ``rules.scoring`` does not provide (yet).

Nothing here knows Race for the Galaxy; each helper is written to move unchanged to the
shared module (listed as "move to shared" in the Race report). Pure: callers read files.

A score file that holds *one game per JSON document* (Race: one line of the oracle file
per game) is scored with :func:`score_each`; ``companion score`` then prints one
``scores_json`` result per game, one per line with ``--json``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from rules.core import ScoreBreakdown
from rules.scoring import ScoreInputError

__all__ = ["json_documents", "score_each"]


def json_documents(text: str) -> list[tuple[int | None, Any]]:
    """The JSON documents in ``text`` with their line numbers: one JSON value, or JSON Lines.

    A text that parses as one JSON value gives ``[(None, value)]`` (a top-level array is one
    document). Otherwise every non-blank line must be a JSON value: ``[(line, value), ...]``,
    lines counted from 1, blank lines skipped.

    Raises:
        ScoreInputError: naming the line that is not JSON (field ``"line N"``).
    """
    try:
        return [(None, json.loads(text))]
    except json.JSONDecodeError as whole:
        lines = [(n, line) for n, line in enumerate(text.splitlines(), start=1) if line.strip()]
        if len(lines) <= 1:
            raise ScoreInputError("", f"not JSON ({whole.msg} at line {whole.lineno}, column {whole.colno})") from None
        documents: list[tuple[int | None, Any]] = []
        for number, line in lines:
            try:
                documents.append((number, json.loads(line)))
            except json.JSONDecodeError as error:
                raise ScoreInputError(f"line {number}", f"not JSON ({error.msg} at column {error.colno})") from None
        return documents


def score_each(final_scores: Callable[[Any], list[ScoreBreakdown]], text: str) -> list[list[ScoreBreakdown]]:
    """Score every game in ``text`` (one JSON document, or JSON Lines with one game per line).

    Raises:
        ScoreInputError: the first game that cannot be scored; for JSON Lines its field
            starts with the line (``line 3: players[0].tableau[2]``).
    """
    results = []
    for line, document in json_documents(text):
        try:
            results.append(final_scores(document))
        except ScoreInputError as error:
            if line is None:
                raise
            field = f"line {line}: {error.field}" if error.field else f"line {line}"
            raise ScoreInputError(field, error.problem, error.suggestions) from None
    return results
