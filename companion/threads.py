"""Thread pools set once, on purpose, before any read: OpenCV's, the inference runtime's and BLAS's.

A library left to its default takes every core with a pool of its own; on the box those pools compete with
each other, the camera, the screen and the phone view. OpenBLAS's pool spins while it waits for work: the
deck's matrix products are small, and with two BLAS threads one frame of 40 cards took about three times the
wall time and CPU time of one thread on a busy 2-core machine.
"""

from __future__ import annotations

import logging

log = logging.getLogger(__name__)

#: Threads of numpy's BLAS (matrix products of the card and dice readers): one, as the products are small.
BLAS_THREADS = 1


def set_threads() -> None:
    """Set the pools for this process: OpenCV's to the machine's cores, at most 4 (a Raspberry Pi 4 has 4;
    :func:`vision.inference.default_threads`); each ONNX Runtime session takes as many intra-op threads
    (``InferenceConfig.threads`` 0); numpy's BLAS to :data:`BLAS_THREADS` (``threadpoolctl``). The reads come
    in bursts when the table settles, so a read may use every core; the camera, the screen and the phones
    wait for a few ms at most. Safe to call more than once."""
    from threadpoolctl import threadpool_limits

    from vision.inference import default_threads, set_opencv_threads

    set_opencv_threads(0)
    threadpool_limits(limits=BLAS_THREADS, user_api="blas")
    log.debug("threads: OpenCV %d, inference %d per model, BLAS %d", default_threads(), default_threads(),
              BLAS_THREADS)
