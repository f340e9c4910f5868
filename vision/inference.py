"""The inference runtime behind one small interface: an ONNX model file in, ``run(blob) -> array`` out.

Two runtimes run the same ONNX files with outputs equal to about 1e-6:

* ``"onnxruntime"``: ONNX Runtime (``onnxruntime`` on PyPI, wheels for 64-bit Raspberry Pi OS), 2-3x faster
  than OpenCV's DNN module on the d6 models; used by default where it is installed;
* ``"opencv"``: ``cv2.dnn`` (always there with OpenCV), the fallback.

The choice is a setting, :class:`InferenceConfig` (``runtime`` ``"auto"`` = ONNX Runtime where installed, else
OpenCV), carried by the readers' configs (:attr:`vision.D6Config.inference`,
:attr:`vision.roll_dice.RollDiceConfig.inference`). Threads are set on purpose, never left to a library's
default: each ONNX Runtime session uses ``threads`` intra-op threads that sleep when idle (a spinning pool
would take the cores the camera, the card reader and the screen need), and :func:`set_opencv_threads` sets
OpenCV's pool (process-wide: the app calls it once at start).
"""

from __future__ import annotations

import importlib.util
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, runtime_checkable

import cv2
import numpy as np

from .errors import VisionError

__all__ = ["RUNTIMES", "InferenceConfig", "Model", "available_runtimes", "default_threads", "load_model",
           "resolve_runtime", "set_opencv_threads"]

#: Runtime names an :class:`InferenceConfig` accepts.
RUNTIMES: tuple[str, ...] = ("auto", "onnxruntime", "opencv")


def default_threads() -> int:
    """Intra-op threads of a model when the config says 0: the machine's cores, at most 4 (a Raspberry Pi 4
    has 4; more threads on these small models only wait on each other)."""
    return max(1, min(4, os.cpu_count() or 1))


@dataclass(frozen=True)
class InferenceConfig:
    """Which runtime runs the readers' CNNs, with how many threads.

    Attributes:
        runtime: ``"auto"`` (ONNX Runtime where installed, else OpenCV), ``"onnxruntime"`` or ``"opencv"``.
        threads: intra-op threads of each ONNX Runtime session (0: :func:`default_threads`); OpenCV's DNN
            uses OpenCV's process-wide pool (:func:`set_opencv_threads`).

    Raises:
        ValueError: an unknown runtime or a negative thread count.
    """

    runtime: str = "auto"
    threads: int = 0

    def __post_init__(self) -> None:
        if self.runtime not in RUNTIMES:
            raise ValueError(f"unknown inference runtime {self.runtime!r}; expected one of {', '.join(RUNTIMES)}")
        if int(self.threads) < 0:
            raise ValueError(f"threads must be 0 (the machine's cores, at most 4) or more, got {self.threads}")


def available_runtimes() -> tuple[str, ...]:
    """The runtimes installed here, fastest first (``"opencv"`` always)."""
    have = importlib.util.find_spec("onnxruntime") is not None
    return ("onnxruntime", "opencv") if have else ("opencv",)


def resolve_runtime(runtime: str) -> str:
    """The runtime ``runtime`` stands for here (``"auto"`` -> the fastest installed).

    Raises:
        ValueError: an unknown runtime name.
        VisionError: ``"onnxruntime"`` is asked for but not installed.
    """
    if runtime not in RUNTIMES:
        raise ValueError(f"unknown inference runtime {runtime!r}; expected one of {', '.join(RUNTIMES)}")
    have = available_runtimes()
    if runtime == "auto":
        return have[0]
    if runtime not in have:
        raise VisionError(f"inference runtime {runtime!r} is not installed (pip install onnxruntime), "
                          f"or choose runtime 'auto' or 'opencv'")
    return runtime


def set_opencv_threads(threads: int) -> None:
    """Set OpenCV's process-wide thread pool (``cv2.setNumThreads``; 0: :func:`default_threads`)."""
    cv2.setNumThreads(int(threads) or default_threads())


@runtime_checkable
class Model(Protocol):
    """A loaded model: ``runtime`` (the runtime's name) and ``run(blob) -> output``."""

    runtime: str

    def run(self, blob: np.ndarray) -> np.ndarray:
        """The model's single output for ``blob`` (``float32[N, C, H, W]``) as a numpy array."""
        ...


class OnnxRuntimeModel:
    """An ONNX Runtime session (CPU) with ``threads`` intra-op threads that sleep when idle.

    ``run`` is thread-safe (one session may serve several threads).
    """

    runtime = "onnxruntime"

    def __init__(self, path: Path, threads: int) -> None:
        import onnxruntime as ort

        opts = ort.SessionOptions()
        opts.intra_op_num_threads = int(threads) or default_threads()
        opts.inter_op_num_threads = 1
        opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
        opts.log_severity_level = 3
        self._session = ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
        self._input = self._session.get_inputs()[0].name
        self.threads = opts.intra_op_num_threads

    def run(self, blob: np.ndarray) -> np.ndarray:
        return self._session.run(None, {self._input: np.ascontiguousarray(blob, np.float32)})[0]


class OpenCVModel:
    """A ``cv2.dnn`` network. Not thread-safe (the net keeps its input): one per thread."""

    runtime = "opencv"

    def __init__(self, path: Path) -> None:
        self._net = cv2.dnn.readNetFromONNX(str(path))

    def run(self, blob: np.ndarray) -> np.ndarray:
        self._net.setInput(np.ascontiguousarray(blob, np.float32))
        return np.asarray(self._net.forward())


def load_model(path: str | Path, config: InferenceConfig | None = None) -> Model:
    """Load the ONNX model at ``path`` with the runtime ``config`` chooses.

    Raises:
        VisionError: the file is missing, the runtime cannot read it, or the runtime asked for is not
            installed (the message names the file or the runtime).
    """
    cfg = config or InferenceConfig()
    path = Path(path)
    if not path.is_file():
        raise VisionError(f"model file missing: {path}")
    runtime = resolve_runtime(cfg.runtime)
    try:
        return OnnxRuntimeModel(path, cfg.threads) if runtime == "onnxruntime" else OpenCVModel(path)
    except cv2.error as exc:
        raise VisionError(f"cannot load model {path} with OpenCV: {exc}") from exc
    except Exception as exc:  # noqa: BLE001 - onnxruntime raises its own (non-public) exception types
        if type(exc).__module__.startswith("onnxruntime"):
            raise VisionError(f"cannot load model {path} with ONNX Runtime: {exc}") from exc
        raise
