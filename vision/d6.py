"""The standard d6 reader: finds every six-sided pip die in a BGR frame and reads its top face.

Pipeline (each stage a named function of its inputs and the :class:`D6Config`):

1. ``validate_frame``       -- reject anything that is not ``uint8[H, W, 3]`` (:class:`BadFrame`).
2. ``prepare_detector_input`` -- resize so the longer side is ``input_long_side``, pad to a multiple
   of ``input_multiple``, scale to float ``[0, 1]`` NCHW blob.
3. ``run_net`` (detector)   -- a small CenterNet-style CNN: per stride-4 cell a die-centre heatmap
   (sigmoid), log box width/height in input pixels and the sub-cell centre offset.
4. ``decode_detections``    -- heatmap peaks (3x3 max) above ``detection_threshold``, boxes back in
   frame pixels, NMS.
5. ``extract_patches``      -- square patches around each box (``patch_context`` x the box side)
   resampled to ``patch_size``, one per angle of ``patch_angles``; ``extract_patch`` also cuts the
   training patches.
6. ``classify_patches``     -- a small CNN (``run_net``) giving softmax probabilities over
   ``[one, two, three, four, five, six, no die]``, averaged over the patch views and their quarter
   turns.
7. ``assemble_observations`` -- drop "no die" candidates, pips seen as small dice (nested boxes,
   size consistency), report the value or ``None`` (unreadable) with a confidence.
8. ``merge_coarse``         -- where two or more dice are unreadable, stages 2-7 again at a coarser
   scale; a die read there with a value replaces the unreadable ones it holds (pips of a die too
   large for the detector).

Models are ONNX files run by :mod:`vision.inference` (ONNX Runtime where installed, else ``cv2.dnn``;
``D6Config.inference`` chooses).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace

import cv2
import numpy as np

from .config import D6Config
from .frames import validate_frame
from .incremental import clip_box
from .inference import InferenceConfig, Model, load_model
from .observations import DiceRead, DieObservation
from .timing import timed_stage

#: Output stride of the detector heatmap (input pixels per heatmap cell).
DETECTOR_STRIDE = 4
#: Classifier outputs, in order: the six values then "no die".
CLASS_VALUES: tuple[int | None, ...] = (1, 2, 3, 4, 5, 6, None)
NO_DIE = 6


@dataclass(frozen=True)
class Candidates:
    """Die candidates after NMS.

    Attributes:
        boxes: float32[N, 4] of ``x, y, w, h`` in frame pixels.
        scores: float32[N] detector heatmap peak scores, 0..1, descending.
    """

    boxes: np.ndarray
    scores: np.ndarray


def to_blob(images: np.ndarray) -> np.ndarray:
    """Convert ``uint8[N, H, W, 3]`` BGR images to the networks' ``float32[N, 3, H, W]`` input in ``[0, 1]``."""
    return np.ascontiguousarray(
        images.transpose(0, 3, 1, 2), dtype=np.float32
    ) * np.float32(1.0 / 255.0)


def detector_scale(height: int, width: int, config: D6Config) -> float:
    """Factor from frame pixels to detector-input pixels (longer side becomes ``input_long_side``)."""
    return config.input_long_side / float(max(height, width))


def resize_for_detector(
    frame: np.ndarray, config: D6Config, scale: float | None = None
) -> tuple[np.ndarray, float]:
    """Resize a ``uint8[H, W, 3]`` frame for the detector and pad it (edge replicate) to ``input_multiple``.

    ``scale``: the factor to resize by (default :func:`detector_scale` of this frame; a window of a larger
    frame passes that frame's, so its dice have the size they have in a full read).

    Returns:
        ``(image, scale)``: ``uint8[H', W', 3]`` with H', W' multiples of ``input_multiple``, and the
        factor from frame pixels to ``image`` pixels.
    """
    h, w = frame.shape[:2]
    scale = detector_scale(h, w, config) if scale is None else float(scale)
    nh, nw = max(1, round(h * scale)), max(1, round(w * scale))
    interp = cv2.INTER_AREA if scale < 1.0 else cv2.INTER_LINEAR
    resized = cv2.resize(frame, (nw, nh), interpolation=interp)
    m = config.input_multiple
    ph, pw = (-nh) % m, (-nw) % m
    if ph or pw:
        resized = cv2.copyMakeBorder(resized, 0, ph, 0, pw, cv2.BORDER_REPLICATE)
    return resized, scale


def prepare_detector_input(
    frame: np.ndarray, config: D6Config, scale: float | None = None
) -> tuple[np.ndarray, float]:
    """Frame ``uint8[H, W, 3]`` -> (detector blob ``float32[1, 3, H', W']``, frame-to-input scale);
    ``scale`` as in :func:`resize_for_detector`."""
    image, scale = resize_for_detector(frame, config, scale)
    return to_blob(image[None]), scale


def run_net(net: Model, blob: np.ndarray) -> np.ndarray:
    """Run a model (:func:`load_net`) on ``blob`` and return its (single) output as a numpy array."""
    return net.run(blob)


def decode_detections(
    output: np.ndarray, scale: float, frame_shape: tuple[int, ...], config: D6Config
) -> Candidates:
    """Turn the detector output into die boxes in frame pixels.

    Args:
        output: ``float32[1, 5, H/4, W/4]``: heatmap (0..1), log w, log h (input pixels), offset x, y (cells).
        scale: frame-to-input factor from :func:`prepare_detector_input`.
        frame_shape: shape of the frame, to clip boxes.
        config: thresholds (``detection_threshold``, ``nms_iou``, ``max_dice``).
    """
    heat = np.ascontiguousarray(output[0, 0], dtype=np.float32)
    peaks = (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (
        heat >= config.detection_threshold
    )
    ys, xs = np.nonzero(peaks)
    if len(ys) == 0:
        return Candidates(np.zeros((0, 4), np.float32), np.zeros((0,), np.float32))
    scores = heat[ys, xs]
    order = np.argsort(-scores)[: config.max_dice * 4]
    ys, xs, scores = ys[order], xs[order], scores[order]
    cx = (xs + output[0, 3, ys, xs]) * DETECTOR_STRIDE / scale
    cy = (ys + output[0, 4, ys, xs]) * DETECTOR_STRIDE / scale
    bw = np.exp(np.clip(output[0, 1, ys, xs], -2.0, 7.0)) / scale
    bh = np.exp(np.clip(output[0, 2, ys, xs], -2.0, 7.0)) / scale
    fh, fw = frame_shape[:2]
    inside = (
        (cx >= 0) & (cx < fw) & (cy >= 0) & (cy < fh)
    )  # peaks on the padding are no dice
    cx, cy, bw, bh, scores = (
        cx[inside],
        cy[inside],
        bw[inside],
        bh[inside],
        scores[inside],
    )
    if len(cx) == 0:
        return Candidates(np.zeros((0, 4), np.float32), np.zeros((0,), np.float32))
    x0 = np.clip(cx - bw / 2, 0, fw)
    y0 = np.clip(cy - bh / 2, 0, fh)
    x1 = np.clip(cx + bw / 2, 0, fw)
    y1 = np.clip(cy + bh / 2, 0, fh)
    boxes = np.stack([x0, y0, x1 - x0, y1 - y0], axis=1).astype(np.float32)
    keep = cv2.dnn.NMSBoxes(
        boxes.tolist(),
        scores.astype(float).tolist(),
        config.detection_threshold,
        config.nms_iou,
    )
    keep = np.asarray(keep, dtype=np.int64).reshape(-1)[: config.max_dice]
    return Candidates(boxes[keep], scores[keep].astype(np.float32))


def detect_dice(net: Model, frame: np.ndarray, config: D6Config) -> Candidates:
    """Die candidates of the d6 CNN detector alone (stages 2-4, no classifier): a shared entry point
    for other readers that want the detector's boxes as a candidate source.

    Args:
        net: the detector loaded with :func:`load_net` (``config.detector_path``).
        frame: ``uint8[H, W, 3]`` BGR, already validated.
        config: detector input size and thresholds (``input_long_side``, ``detection_threshold``,
            ``nms_iou``, ``max_dice``).

    Returns:
        :class:`Candidates`: boxes ``float32[N, 4]`` (x, y, w, h, frame pixels) and heatmap peak
        scores ``float32[N]`` (0..1), descending.
    """
    blob, scale = prepare_detector_input(frame, config)
    return decode_detections(run_net(net, blob), scale, frame.shape, config)


def extract_patch(
    frame: np.ndarray, cx: float, cy: float, side: float, size: int, angle: float = 0.0
) -> np.ndarray:
    """Cut a square ``uint8[size, size, 3]`` patch of ``side`` frame pixels centred on ``(cx, cy)``.

    ``angle`` (degrees, counter-clockwise) rotates the patch content; the reader uses 0, training
    uses random angles. Pixels outside the frame repeat the border. A strong reduction (``side`` over
    twice ``size``) is anti-aliased by a Gaussian blur of the window around the patch only (what a blur
    of the whole frame would give there).
    """
    s = size / max(float(side), 1.0)
    m = cv2.getRotationMatrix2D((float(cx), float(cy)), float(angle), s)
    m[0, 2] += size / 2.0 - cx
    m[1, 2] += size / 2.0 - cy
    if s < 0.5:  # anti-alias a strong reduction
        k = int(1.0 / s) | 1
        h, w = frame.shape[:2]
        r = int(np.ceil(0.5 * np.sqrt(2.0) * side)) + 2 + k // 2   # the patch's footprint and the blur's reach
        x0, y0 = max(0, int(cx) - r), max(0, int(cy) - r)
        x1, y1 = min(w, int(cx) + r + 1), min(h, int(cy) + r + 1)
        if x1 > x0 and y1 > y0:
            frame = cv2.GaussianBlur(frame[y0:y1, x0:x1], (k, k), 0)
            m[:, 2] += m[:, :2] @ np.array([x0, y0], np.float64)   # window pixels -> patch pixels
    return cv2.warpAffine(
        frame, m, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )


def patch_side(w: float, h: float, config: D6Config) -> float:
    """Side in frame pixels of the classifier patch for a die box of ``w`` x ``h``."""
    return max(w, h) * config.patch_context


def extract_patches(
    frame: np.ndarray, boxes: np.ndarray, config: D6Config
) -> np.ndarray:
    """Patches ``uint8[A, N, patch_size, patch_size, 3]`` around ``boxes`` (``float[N, 4]`` x, y, w, h).

    One set of N patches per in-plane angle of ``config.patch_angles`` (degrees, counter-clockwise),
    in that order.
    """
    p = config.patch_size
    angles = tuple(config.patch_angles) or (0.0,)
    out = np.zeros((len(angles), len(boxes), p, p, 3), np.uint8)
    for a, angle in enumerate(angles):
        for i, (x, y, w, h) in enumerate(boxes):
            out[a, i] = extract_patch(
                frame, x + w / 2, y + h / 2, patch_side(w, h, config), p, angle
            )
    return out


def classify_patches(
    net: Model, patches: np.ndarray, config: D6Config
) -> np.ndarray:
    """Classifier probabilities ``float32[N, 7]`` (values 1..6, no die) for ``uint8[A, N, P, P, 3]``
    patches (A views of the same N dice, from :func:`extract_patches`; ``uint8[N, P, P, 3]`` is one view).

    Test-time augmentation: each view is also turned by ``config.patch_rotations`` = k of the four
    quarter turns (0, 90, 180, 270 degrees), and the probabilities are averaged over all A x k views.
    A die's top face reads the same value at any in-plane angle, and the classifier was trained on
    patches at random angles, so the views agree on clear faces and average out on tilted dice whose
    side faces show pips too.

    Most faces are clear: the first ``config.quick_views`` views (in the order angle by angle, each in
    its quarter turns) are classified for every die first, and a die whose averaged probability of one
    value, or of "no die", reaches ``config.quick_confidence`` keeps that answer; only the others are
    classified in all their views (on the byler and penlington photos the reads are the same as with all
    views for every die, at a quarter to a half of the classifier's work).
    """
    if patches.ndim == 4:
        patches = patches[None]
    n = patches.shape[1]
    if n == 0:
        return np.zeros((0, len(CLASS_VALUES)), np.float32)
    turns = max(1, min(4, int(config.patch_rotations)))
    views = [np.rot90(view, t, axes=(1, 2)) for view in patches for t in range(turns)]
    quick = int(config.quick_views)
    quick = len(views) if quick <= 0 else min(quick, len(views))

    def run(vs: list[np.ndarray]) -> np.ndarray:   # [V, M, 7]
        m = vs[0].shape[0]
        return run_net(net, to_blob(np.concatenate(vs))).reshape(len(vs), m, len(CLASS_VALUES))

    first = run(views[:quick])
    probs = first.mean(axis=0)
    if quick < len(views):
        unsure = np.nonzero((probs[:, :NO_DIE].max(axis=1) < config.quick_confidence)
                            & (probs[:, NO_DIE] < config.quick_confidence))[0]
        if unsure.size:
            rest = run([v[unsure] for v in views[quick:]])
            probs[unsure] = (first[:, unsure].sum(axis=0) + rest.sum(axis=0)) / len(views)
    return probs.astype(np.float32)


def assemble_observations(
    candidates: Candidates, probs: np.ndarray, config: D6Config
) -> tuple[DieObservation, ...]:
    """Combine detector scores and classifier probabilities into observations, highest confidence first.

    1. A candidate is dropped when its "no die" probability exceeds ``no_die_threshold``; its value is
       ``None`` when the best value's probability is below ``value_threshold``.
    2. Nested boxes: a candidate centred inside a larger accepted one and smaller than
       ``nested_area_ratio`` of its area is dropped (seen from above a die cannot lie on another die's
       face; such boxes are pips or pip groups), whatever their scores.
    3. Size consistency: with at least two read dice, an unreadable candidate whose side is below
       ``min_relative_side`` x the median side of the read dice is dropped (a pip, not a die).
    4. Candidates with confidence below ``min_confidence`` are dropped.
    """
    kept = []
    for box, score, p in zip(candidates.boxes, candidates.scores, probs, strict=True):
        if p[NO_DIE] > config.no_die_threshold:
            continue
        best = int(np.argmax(p[:NO_DIE]))
        if p[best] >= config.value_threshold:
            value, conf = CLASS_VALUES[best], float(score) * float(p[best])
        else:
            value, conf = None, float(score) * float(1.0 - p[NO_DIE])
        kept.append((box, value, conf))
    kept.sort(key=lambda k: -float(k[0][2] * k[0][3]))  # largest box first
    outer: list = []
    for box, value, conf in kept:
        x, y, w, h = box
        cx, cy = x + w / 2, y + h / 2
        if not any(
            bx <= cx <= bx + bw
            and by <= cy <= by + bh
            and w * h < config.nested_area_ratio * bw * bh
            for (bx, by, bw, bh), _, _ in outer
        ):
            outer.append((box, value, conf))
    read_sides = [max(b[2], b[3]) for b, v, _ in outer if v is not None]
    min_side = (
        config.min_relative_side * float(np.median(read_sides))
        if len(read_sides) >= 2
        else 0.0
    )
    dice = []
    for box, value, conf in outer:
        if conf < config.min_confidence or (
            value is None and max(box[2], box[3]) < min_side
        ):
            continue
        x, y, w, h = (round(float(v)) for v in box)
        dice.append(
            DieObservation(
                "d6", value, (x, y, max(w, 1), max(h, 1)), min(max(conf, 0.0), 1.0)
            )
        )
    dice.sort(key=lambda d: -d.confidence)
    return tuple(dice)


def merge_coarse(
    fine: tuple[DieObservation, ...], coarse: tuple[DieObservation, ...]
) -> tuple[DieObservation, ...]:
    """Replace pips read as small unreadable dice by the die a coarser look read around them.

    Args:
        fine: the observations of the read at the detector's own scale (boxes in frame pixels).
        coarse: the observations of the same frame read at a coarser scale (boxes in frame pixels).

    Returns:
        ``fine`` where a coarse die with a value holds (by their centres) at least two unreadable
        fine dice and no fine die with a value: those unreadable dice are dropped and the coarse die
        taken; highest confidence first. Fine dice with a value are never dropped.
    """
    def centre_in(d: DieObservation, box) -> bool:
        x, y, w, h = box
        cx, cy = d.box[0] + d.box[2] / 2, d.box[1] + d.box[3] / 2
        return x <= cx <= x + w and y <= cy <= y + h

    dropped: set[int] = set()
    taken = []
    for big in coarse:
        if big.value is None:
            continue
        held = [i for i, d in enumerate(fine) if i not in dropped and centre_in(d, big.box)]
        if any(fine[i].value is not None for i in held) or len(held) < 2:
            continue
        dropped.update(held)
        taken.append(big)
    if not taken:
        return fine
    dice = [d for i, d in enumerate(fine) if i not in dropped] + taken
    dice.sort(key=lambda d: -d.confidence)
    return tuple(dice)


def load_net(path, inference: InferenceConfig | None = None) -> Model:
    """Load a d6 ONNX model with the runtime ``inference`` chooses (:func:`vision.inference.load_model`).

    Raises:
        VisionError: the file is missing, the runtime cannot read it or is not installed (the message
            names the file or the runtime).
    """
    return load_model(path, inference)


class D6Reader:
    """Finds d6 dice in BGR frames and reads their top face.

    The two models are loaded once in the constructor, with the runtime ``config.inference`` chooses
    (:attr:`runtime` says which). An instance running on OpenCV's DNN module is not thread-safe (its nets
    keep state); use one reader per thread.

    Args:
        config: thresholds and model location; ``D6Config()`` when None.

    Raises:
        VisionError: a model file is missing or unreadable (the message names it).
    """

    def __init__(self, config: D6Config | None = None):
        self.config = config if config is not None else D6Config()
        self._detector = load_net(self.config.detector_path, self.config.inference)
        self._classifier = load_net(self.config.classifier_path, self.config.inference)

    @property
    def runtime(self) -> str:
        """The inference runtime running the models: ``"onnxruntime"`` or ``"opencv"``."""
        return self._detector.runtime

    def read(self, frame: np.ndarray) -> DiceRead:
        """Read every d6 in ``frame``.

        Args:
            frame: ``uint8[H, W, 3]`` BGR image of any size.

        Returns:
            :class:`DiceRead` with boxes in frame pixels and per-stage timings
            (validate, prepare, detect, decode, crop, classify, assemble, and coarse when the
            second look ran: see ``D6Config.coarse_scale``) in milliseconds.

        Raises:
            BadFrame: ``frame`` is not a non-empty ``uint8[H, W, 3]`` array.
        """
        timings: dict[str, float] = {}
        frame = timed_stage(timings, "validate", validate_frame, frame)
        return self._read(frame, None, timings)

    def read_window(self, frame: np.ndarray, box: tuple[int, int, int, int]) -> DiceRead:
        """Read the dice of one window of ``frame`` as a read of the whole frame would (the detector sees
        the window at the whole frame's scale); for re-reading the part of a table that changed.

        Args:
            frame: ``uint8[H, W, 3]`` BGR image.
            box: ``(x, y, w, h)`` of the window in frame pixels (clipped to the frame).

        Returns:
            :class:`DiceRead` of the frame's size with the dice found in the window, boxes in frame pixels.

        Raises:
            BadFrame: ``frame`` is not a non-empty ``uint8[H, W, 3]`` array.
        """
        timings: dict[str, float] = {}
        frame = timed_stage(timings, "validate", validate_frame, frame)
        h, w = frame.shape[:2]
        clipped = clip_box(box, frame.shape)
        if clipped is None:
            return DiceRead(w, h, (), timings)
        x0, y0, x1, y1 = clipped
        window = frame[y0:y1, x0:x1]
        r = self._read(window, detector_scale(h, w, self.config), timings)
        dice = tuple(replace(d, box=(d.box[0] + x0, d.box[1] + y0, d.box[2], d.box[3])) for d in r.dice)
        return DiceRead(w, h, dice, r.timings_ms)

    def _read(self, frame: np.ndarray, scale: float | None, timings: dict[str, float],
              look_again: bool = True) -> DiceRead:
        cfg = self.config
        stage = functools.partial(timed_stage, timings)
        blob, scale = stage("prepare", prepare_detector_input, frame, cfg, scale)
        output = stage("detect", run_net, self._detector, blob)
        candidates = stage("decode", decode_detections, output, scale, frame.shape, cfg)
        patches = stage("crop", extract_patches, frame, candidates.boxes, cfg)
        probs = stage("classify", classify_patches, self._classifier, patches, cfg)
        dice = stage("assemble", assemble_observations, candidates, probs, cfg)
        if (look_again and cfg.coarse_scale > 0
                and sum(d.value is None for d in dice) >= cfg.coarse_min_unreadable):
            coarse = stage("coarse", self._read, frame, scale * cfg.coarse_scale, {}, False)
            dice = merge_coarse(dice, coarse.dice)
        return DiceRead(
            width=frame.shape[1], height=frame.shape[0], dice=dice, timings_ms=timings
        )
