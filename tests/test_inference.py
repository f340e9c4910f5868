"""vision.inference: the CNN runtime behind one interface; ONNX Runtime and OpenCV's DNN give the same reads
(d6 reader, Roll dice CNN candidates), the choice is a setting, bad choices and files are clear errors."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import D6Config, D6Reader, VisionError, synth
from vision.inference import InferenceConfig, Model, available_runtimes, load_model, resolve_runtime
from vision.roll_dice import RollDiceConfig, detect_tops, load_cnn

pytest.importorskip("onnxruntime")

SHARED = Path(os.environ.get("TABLETOP_SHARED", Path(__file__).resolve().parents[2] / "shared"))
BYLER = SHARED / "datasets" / "byler_d6_dice" / "train" / "images"
ORT = InferenceConfig("onnxruntime", threads=1)
CV = InferenceConfig("opencv")


def test_auto_prefers_onnxruntime_where_installed():
    assert available_runtimes() == ("onnxruntime", "opencv")
    assert resolve_runtime("auto") == "onnxruntime"
    assert D6Reader().runtime == "onnxruntime"
    assert D6Reader(D6Config(inference=CV)).runtime == "opencv"


def test_bad_settings_and_files_are_clear_errors(tmp_path: Path):
    with pytest.raises(ValueError, match="unknown inference runtime 'tensorflow'"):
        InferenceConfig("tensorflow")
    with pytest.raises(ValueError, match="threads"):
        InferenceConfig(threads=-1)
    with pytest.raises(VisionError, match="missing"):
        load_model(tmp_path / "nope.onnx")
    bad = tmp_path / "bad.onnx"
    bad.write_bytes(b"not a model")
    for cfg in (ORT, CV):
        with pytest.raises(VisionError, match="bad.onnx"):
            load_model(bad, cfg)


@pytest.mark.parametrize("model, shape", [("detector", (1, 3, 96, 128)), ("classifier", (10, 3, 48, 48))])
def test_both_runtimes_give_the_same_outputs(model: str, shape: tuple[int, ...]):
    cfg = D6Config()
    path = cfg.detector_path if model == "detector" else cfg.classifier_path
    x = np.random.default_rng(0).random(shape, dtype=np.float32)
    a, b = load_model(path, ORT), load_model(path, CV)
    assert isinstance(a, Model) and (a.runtime, b.runtime) == ("onnxruntime", "opencv")
    np.testing.assert_allclose(a.run(x), b.run(x), atol=1e-4)


@pytest.mark.shared
@pytest.mark.skipif(not BYLER.is_dir(), reason="byler photos absent (set TABLETOP_SHARED)")
def test_d6_reads_are_the_same_with_either_runtime():
    ort_reader, cv_reader = D6Reader(D6Config(inference=ORT)), D6Reader(D6Config(inference=CV))
    dice = 0
    for path in sorted(BYLER.iterdir())[::25]:
        frame = cv2.imread(str(path))
        a, b = ort_reader.read(frame), cv_reader.read(frame)
        assert [(d.value, d.box) for d in a.dice] == [(d.value, d.box) for d in b.dice], path.name
        assert [d.confidence for d in a.dice] == pytest.approx([d.confidence for d in b.dice], abs=1e-3)
        dice += len(a.dice)
    assert dice > 20


def test_roll_cnn_candidates_are_the_same_with_either_runtime():
    cfg = RollDiceConfig()
    nets = {name: load_cnn(replace(cfg, inference=inf)) for name, inf in (("ort", ORT), ("cv", CV))}
    assert nets["ort"].runtime == "onnxruntime" and nets["cv"].runtime == "opencv"
    scene_cfg = synth.SceneConfig(width=640, height=360, die_side=(38.0, 44.0), n_dice=(8, 12))
    for seed in (11, 12, 13):
        frame = synth.render_scene(seed, scene_cfg).image
        a, b = (detect_tops(frame, cfg, None, nets[k]) for k in ("ort", "cv"))
        assert len(a.rects) >= 6
        np.testing.assert_allclose(a.rects, b.rects, atol=1e-3)
        np.testing.assert_allclose(a.scores, b.scores, atol=1e-4)
