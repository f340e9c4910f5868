"""Files the box reads that were damaged or written by hand: the configuration (TOML) and a dice faces file
(``dice.json``). A whole number of 5001 digits (Python refuses to read one past 4300) or lists nested thousands
deep gave a ValueError or RecursionError traceback, stopping ``companion run`` at its start; now the file's own
error, naming it and the reason, and at the box's start every setting at its default."""

from __future__ import annotations

import pytest

from companion.config import ConfigError, load
from vision.profiles import ProfileError, load_dice_faces

DAMAGE = {
    "a number of 5001 digits": ("[web]\nport = " + "1" * 5001 + "\n", "a number of more than 4300 digits"),
    "lists nested 5000 deep": ("[web]\nport = " + "[" * 5000 + "]" * 5000 + "\n", "nested too deeply"),
}


@pytest.mark.parametrize("name", list(DAMAGE))
def test_a_config_file_too_long_or_too_deep_is_refused_naming_it_and_the_box_starts(name, tmp_path):
    """``companion config check`` (strict) names the file and the reason; the box's start (lenient) takes every
    setting at its default, with the problem kept to show."""
    text, reason = DAMAGE[name]
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load(path, env={}, strict=True)
    said = str(caught.value)
    assert str(path) in said and "not valid TOML" in said and reason in said, said
    lenient = load(path, env={})
    assert lenient["web.port"] == 8080 and len(lenient.problems) == 1


@pytest.mark.parametrize(("name", "content"), [
    ("a number of 5001 digits", b'{"dice": [{"colour": "red", "faces": [' + b"1" * 5001 + b"]}]}"),
    ("lists nested 100000 deep", b'{"dice": ' + b"[" * 100000 + b"]" * 100000 + b"}"),
    ("not UTF-8", b"\xff\xfe{}"),
    ("not JSON", b"{dice"),
])
def test_a_dice_faces_file_that_cannot_be_read_is_a_profile_error_naming_it(name, content, tmp_path):
    """Before: RecursionError, ValueError or UnicodeDecodeError; now ProfileError naming the file and the reason."""
    path = tmp_path / "dice.json"
    path.write_bytes(content)
    with pytest.raises(ProfileError, match="cannot read dice faces from .*dice.json: (ValueError|RecursionError|Unicode"
                                           "DecodeError|JSONDecodeError)"):
        load_dice_faces(path)
    path.write_text('{"dice": [{"colour": "red", "faces": ["explore", "wild"]}]}', encoding="utf-8")
    assert load_dice_faces(path) == {"red": ("explore", "wild")}
