"""Every threshold of the d6 reader, declared once with its default and meaning."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .inference import InferenceConfig

#: Folder holding the shipped models (package data).
MODELS_DIR = Path(__file__).resolve().parent / "models"


@dataclass(frozen=True)
class D6Config:
    """Settings of :class:`vision.D6Reader`.

    Geometry is in pixels of the detector input unless said otherwise.

    Attributes:
        models_dir: folder holding the two ONNX files below (default: ``vision/models``).
        detector_model: file name of the die detector (CenterNet-style heatmap, stride 4).
        classifier_model: file name of the top-face classifier (values 1..6 + "no die").
        input_long_side: the frame is resized so its longer side is this many pixels before
            detection (keeps dice of a top-down tray photo at ~15-90 px, the trained range).
        input_multiple: detector input height and width are padded up to a multiple of this.
        detection_threshold: minimum heatmap peak score (0..1) for a die candidate.
        nms_iou: candidates overlapping a stronger one by more than this IoU are dropped (NMS).
        nested_area_ratio: a candidate centred inside a larger accepted one's box and smaller than
            this fraction of its area is dropped (a pip or pip group, not a die).
        min_relative_side: with two or more read dice in the frame, an unreadable candidate smaller
            than this times their median side is dropped (dice of a roll have about one size).
        max_dice: at most this many candidates are kept per frame (strongest first).
        coarse_scale: dice too large for the detector (a webcam close over the table) are missed and
            their pips found as small unreadable dice instead; where a read leaves at least
            ``coarse_min_unreadable`` unreadable dice, the frame is looked at again at this times the
            detector scale, and a die read there with a value replaces the unreadable dice whose centres
            it holds, provided it holds no die read with a value (:func:`vision.d6.merge_coarse`).
            0 = no second look.
        coarse_min_unreadable: unreadable dice in a read that call for the second, coarser look.
        patch_size: side in pixels of the square patch the classifier reads.
        patch_context: patch side = this times the longer side of the die box. The classifier was
            trained on patches of 1.35 x the labelled box side, jittered by a factor of 0.86-1.22
            (``tools/train_d6.py --patch-context``); the reader cuts tighter, inside that range, because
            the detector's boxes run a median 4 % larger than the labels and a wider patch takes in more
            of a tilted die's side faces and of its neighbours: on the four held-out byler folds (20-epoch
            classifiers) values right 1314 -> 1344 of about 1480 found, wrong 82 -> 70, photos fully right
            107 -> 120 of 200, every fold better (1.1 to 1.25 read within 4 dice of each other).
        patch_angles: in-plane angles (degrees) at which each die's patch is cut; the classifier's
            probabilities are averaged over all of them (test-time augmentation; 0 and 45 degrees
            read 0.9 points more dice right than 0 alone on held-out byler photos).
        patch_rotations: classifier test-time augmentation: probabilities averaged over this many
            quarter turns of each patch (1 = off, up to 4).
        quick_views: the first this many views of each die (angle by angle, each in its quarter turns)
            are classified first; 0 = every view for every die.
        quick_confidence: a die whose quick views give one value, or "no die", at least this averaged
            probability keeps that answer; the others are classified in all their views (on the byler
            and penlington photos 0.8-0.98 read the same values as all views for every die; 1 view at
            0.9 does a quarter of the classifier's work on byler photos).
        no_die_threshold: a candidate whose classifier "no die" probability is above this is dropped.
        value_threshold: the value is reported only when the classifier gives it at least this
            probability; otherwise the die is reported unreadable (``value=None``).
        min_confidence: dice whose final confidence is below this are not reported.
        inference: which runtime runs the two models, with how many threads (:mod:`vision.inference`;
            ONNX Runtime where installed, else OpenCV's DNN module).
    """

    models_dir: Path = MODELS_DIR
    detector_model: str = "d6_detector.onnx"
    classifier_model: str = "d6_classifier.onnx"
    input_long_side: int = 512
    input_multiple: int = 32
    detection_threshold: float = 0.30
    nms_iou: float = 0.35
    nested_area_ratio: float = 0.5
    min_relative_side: float = 0.6
    max_dice: int = 64
    coarse_scale: float = 0.6
    coarse_min_unreadable: int = 2
    patch_size: int = 48
    patch_context: float = 1.2
    patch_angles: tuple[float, ...] = (0.0, 45.0)
    patch_rotations: int = 4
    quick_views: int = 1
    quick_confidence: float = 0.9
    no_die_threshold: float = 0.5
    value_threshold: float = 0.35
    min_confidence: float = 0.15
    inference: InferenceConfig = InferenceConfig()

    @property
    def detector_path(self) -> Path:
        """Full path of the detector ONNX file."""
        return Path(self.models_dir) / self.detector_model

    @property
    def classifier_path(self) -> Path:
        """Full path of the classifier ONNX file."""
        return Path(self.models_dir) / self.classifier_model
