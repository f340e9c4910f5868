"""README.md says what the box does today, how tests find the shared data, and holds exactly two set-up commands."""

from __future__ import annotations

from pathlib import Path


def test_readme_says_what_the_box_does_now_and_how_tests_find_shared_data():
    text = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    today = text[text.index("What it does today"):text.index("## Set up")]
    assert "coming next" not in today
    for words in ("Roll for the Galaxy", "Race for the Galaxy", "Among the Stars", "phone", "misplay",
                  "scoring", "export", "`companion read", "Eclipse with Rise of the Ancients", "--game eclipse"):
        assert words in today, words
    assert "`$TABLETOP_SHARED`" in text and "`../shared`" in text and "skipped, each with the reason" in text
    setup = text[text.index("## Set up"):text.index("## Hardware")]
    assert setup.count("```sh") == 2
    assert "```sh\n./setup.sh run\n```" in setup and "```sh\n./setup.sh test\n```" in setup
    assert "companion sessions" in text and "--demo" in text
