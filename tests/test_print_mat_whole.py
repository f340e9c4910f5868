"""``companion print-mat PATH --force`` replaces the file at PATH whole or not at all: before, the sheet was written
in place, so a full card or a power cut while it was written left a sheet (or the owner's photo given by mistake) cut
short. Now a full card keeps the file that was there and says so, a kill mid-write keeps it too, and a sheet that is
written replaces it whole. The full disk is the mocked write of tests/test_break38_full_disk.py."""

from __future__ import annotations

import os
import stat

import cv2
import numpy as np
import pytest

import vision.whole_file as whole_file
from companion.cli import main
from tests.test_break38_full_disk import _fill_up


class PowerCut(BaseException):
    """The power going off mid-write: nothing after it runs."""


@pytest.fixture
def sheet(tmp_path):
    folder = tmp_path / "sheets"
    folder.mkdir()
    return folder


@pytest.mark.parametrize("name", ["sheet.png", "sheet.pdf"])
def test_a_sheet_forced_over_a_file_on_a_full_disk_keeps_the_file_and_says_so(sheet, monkeypatch, capsys, name):
    out = sheet / name
    out.write_bytes(b"the owner's file, kept")
    _fill_up(monkeypatch, sheet)
    assert main(["print-mat", str(out), "--force"]) == 1
    monkeypatch.undo()
    assert capsys.readouterr().err.strip() == f"companion print-mat: cannot write {out}: the disk is full"
    assert out.read_bytes() == b"the owner's file, kept"
    assert [p.name for p in sheet.iterdir()] == [name]  # no spare file left


def test_a_sheet_forced_over_a_file_and_cut_off_mid_write_keeps_the_file(sheet, monkeypatch):
    out = sheet / "sheet.png"
    out.write_bytes(b"last year's sheet")

    def cut(fd):
        raise PowerCut

    monkeypatch.setattr(whole_file.os, "fsync", cut)  # the data is being put on the card when the power goes
    with pytest.raises(PowerCut):
        main(["print-mat", str(out), "--force"])
    monkeypatch.undo()
    assert out.read_bytes() == b"last year's sheet"


def test_a_sheet_forced_over_a_file_replaces_it_whole_and_a_new_one_follows_the_umask(sheet, capsys):
    out = sheet / "sheet.png"
    out.write_bytes(b"last year's sheet")
    assert main(["print-mat", str(out), "--force"]) == 0
    image = cv2.imread(str(out), cv2.IMREAD_GRAYSCALE)
    assert image is not None and image.shape[0] > image.shape[1] > 2000  # A4 upright at 300 dpi
    assert np.unique(image).size > 1
    capsys.readouterr()
    before = os.umask(0o077)
    try:
        assert main(["print-mat", str(sheet / "private.pdf")]) == 0
    finally:
        os.umask(before)
    assert stat.S_IMODE((sheet / "private.pdf").stat().st_mode) == 0o600
    assert (sheet / "private.pdf").read_bytes().startswith(b"%PDF-1.4")
