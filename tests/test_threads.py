"""The thread pools the box sets before it reads (companion.threads)."""

from __future__ import annotations

import cv2
import pytest
from threadpoolctl import threadpool_info, threadpool_limits

from companion.threads import BLAS_THREADS, set_threads
from vision.inference import default_threads


@pytest.fixture
def pools_restored():
    opencv = cv2.getNumThreads()
    blas = [p["num_threads"] for p in threadpool_info() if p["user_api"] == "blas"]
    yield
    cv2.setNumThreads(opencv)
    if blas:
        threadpool_limits(limits=max(blas), user_api="blas")


def test_set_threads_sets_opencv_to_the_cores_and_blas_to_one_thread(pools_restored):
    threadpool_limits(limits=2, user_api="blas")  # as numpy starts on a 2-core machine
    cv2.setNumThreads(1)
    set_threads()
    assert cv2.getNumThreads() == default_threads()
    blas = [p["num_threads"] for p in threadpool_info() if p["user_api"] == "blas"]
    if not blas:
        pytest.skip("numpy here links no BLAS that threadpoolctl can see")
    assert blas == [BLAS_THREADS] * len(blas)


def test_the_reading_commands_set_the_pools_and_the_others_do_not(monkeypatch, tmp_path):
    from companion import cli

    calls: list[str] = []
    monkeypatch.setattr(cli, "set_threads", lambda: calls.append("set"))
    missing = tmp_path / "no-such-photo.jpg"
    cli.main(["read", str(missing)])  # fails on the missing photo, after the pools are set
    assert calls == ["set"]
    calls.clear()
    cli.main(["score", "roll", str(tmp_path / "no-such-file.json")])
    assert calls == []
