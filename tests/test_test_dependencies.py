"""The packages the tests need are listed in pyproject.toml's ``test`` extras, so a fresh machine installs them
(``pip install -e .[test]``) and a missing one fails loudly instead of skipping its checks unseen."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _test_extras() -> set[str]:
    """The distribution names of the ``test`` extras, lower case."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return {re.split(r"[\s<>=!~;\[]", spec, maxsplit=1)[0].lower()
            for spec in project["optional-dependencies"]["test"]}


def test_jsonschema_is_a_test_dependency_and_imported_plainly():
    assert "jsonschema" in _test_extras()
    users = [path for path in (ROOT / "tests").glob("test_*.py")
             if path.name != Path(__file__).name and "jsonschema." in path.read_text(encoding="utf-8")]
    assert len(users) >= 4  # the roll, Race, Among the Stars and scoring-input schema checks
    for path in users:
        text = path.read_text(encoding="utf-8")
        assert 'importorskip("jsonschema")' not in text, path.name
        assert re.search(r"^import jsonschema$", text, re.MULTILINE), path.name
