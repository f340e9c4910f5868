"""`companion config init FILE` makes the owner's configuration with the bits a plain write gives it, as the box's
other files the owner keeps (decks, dice profiles, exports): before, it was made 0644 whatever the umask said, so an
owner with umask 077 found their file readable by every user of the machine. Bits worked by hand: 0o666 less the
umask (077 -> 0600, 027 -> 0640, 022 -> 0644, 002 -> 0664); the file's text is written whole either way."""

from __future__ import annotations

import os
import stat

import pytest

from companion.config import default_file_text
from companion.owner_commands import cmd_config_init


@pytest.fixture
def umask():
    """Set the process's umask for the test; the old one comes back after it."""
    before = os.umask(0o022)
    yield os.umask
    os.umask(before)


@pytest.mark.parametrize(("mask", "bits"), [(0o077, 0o600), (0o027, 0o640), (0o022, 0o644), (0o002, 0o664)])
def test_config_init_takes_its_bits_from_the_umask(tmp_path, umask, capsys, mask, bits):
    umask(mask)
    target = tmp_path / "box" / "config.toml"
    assert cmd_config_init(target) == 0
    assert stat.S_IMODE(target.stat().st_mode) == bits
    assert target.read_text(encoding="utf-8") == default_file_text()
    assert [p.name for p in target.parent.iterdir()] == ["config.toml"]  # no hidden spare left beside it


def test_config_init_without_hard_links_takes_its_bits_from_the_umask_too(tmp_path, umask, capsys, monkeypatch):
    # a FAT stick has no hard links: the file is made exclusively instead, with the same bits
    umask(0o027)

    def no_links(src, dst):
        raise OSError(1, "Operation not permitted")

    monkeypatch.setattr(os, "link", no_links)
    target = tmp_path / "config.toml"
    assert cmd_config_init(target) == 0
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert target.read_text(encoding="utf-8") == default_file_text()
    assert [p.name for p in tmp_path.iterdir()] == ["config.toml"]
