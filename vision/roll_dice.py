"""Roll for the Galaxy dice reader: colour and face of every die in a BGR frame.

No symbol and no colour threshold is written into this code: colours and faces are learned from
the owner's own dice (an enrollment profile, :mod:`vision.profiles`), and the colour of each die
is calibrated against the other dice of the same frame.

Pipeline (each stage a named function of its inputs and the :class:`RollDiceConfig`):

1. ``validate_frame``     -- reject anything that is not ``uint8[H, W, 3]`` (:class:`BadFrame`).
2. ``foreground``         -- a blurred work-size copy, a table model (large median of a tiny copy)
   and a per-pixel "not table" mask: chroma change, brightening, or darkening beyond a soft
   shadow, all measured in log-RGB so they do not depend on the light level.
3. ``find_candidates``    -- (classical) the mask cleaned (small holes = symbols filled, thin lines opened
   away), cut at colour edges (Canny on a log-scaled copy) into flat "face cores", so touching
   dice come apart at their shared edge; fragments of one face (cut by its own symbol) merged
   back; a core of k dice areas split by k-means; a typical die size measured per frame.
3b. ``add_cnn_candidates`` -- a second candidate source: the d6 CNN detector
   (``vision/models/d6_detector.onnx`` through :func:`vision.d6.detect_dice`, trained on real
   photos); a CNN box whose centre is not near a classical candidate is added (a die the
   classical stage missed: low contrast to the table, touching a die of its own colour).
4. ``extract_tops``       -- per candidate, the top face: the pixels near its body colour inside
   the candidate (without the darker side band and the shadow), its rotated rectangle; odd sizes
   take the frame's typical side; a canonical upright patch (the same function cuts the
   enrollment templates) turned into an "ink" map (signed brightness and chroma distance to the
   body colour) and the die's body colour (mode, log-RGB).
5. ``drop_duplicates``    -- one face per place; a darker, non-square neighbour of the same chroma
   is a die's visible side face.
6. ``calibrate_colours``  -- the light's colour and level: the log-RGB offset that best maps the
   frame's dice onto the enrolled colour prototypes (a robust registration with a prior, so a
   warm or cool lamp moves every die together), then each die's colour posterior, with a "none
   of these" option.
7. ``match_faces``        -- normalised cross-correlation of each ink map with each enrolled
   (colour, face) template, over the four quarter turns and small shifts; the brightness of the
   wrong sign for the die's colour taken out first (``keep_ink_polarity``: a glare spot on a die
   with dark symbols is not ink); a die matching poorly looked at again over wider shifts and a
   few scales (``relocate_faces``: a top face found a little off its die).
8. ``assemble``           -- joint colour x face decision with an "unreadable" option; a pair the
   profile does not allow is never reported as certain (face ``None``, confidence capped); one
   die per place (the more confident of two overlapping reads).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

from . import d6 as _d6
from .config import D6Config
from .errors import BadFrame, VisionError
from .frames import validate_frame
from .timing import timed_stage

if TYPE_CHECKING:  # pragma: no cover
    from .profiles import DiceProfile

__all__ = [
    "Candidates",
    "RollDiceConfig",
    "RollDiceRead",
    "RollDiceReader",
    "RollDieObservation",
    "TopFaces",
    "enroll_roll_dice",
    "read_roll_dice",
]


@dataclass(frozen=True)
class RollDiceConfig:
    """Every threshold of the roll-dice reader, declared once.

    Attributes:
        work_long_side: the frame is resized so its longer side is this for detection.
        table_long_side: longer side of the tiny copy the table model is computed on.
        table_median: median kernel (tiny pixels) of the table model; must exceed ~2 dice.
        log_offset: added to 0..255 values before the log (tames dark-pixel noise and JPEG blocks).
        chroma_weight, bright_weight, dark_weight: scale of the three "not table" cues.
        shadow_log: darkening (log units) a shadow may cause before it counts as "not table".
        fg_threshold: a pixel is foreground when its cue score exceeds this.
        work_blur: Gaussian sigma (work pixels) against sensor noise and JPEG blocks before the cues.
        open_frac, close_frac: morphology kernels as a fraction of the expected die side.
        default_side_frac: expected die side as a fraction of the work image width when a frame
            has too few clean blobs to measure it.
        min_area_frac, max_area_frac: a die's blob area relative to the typical die area.
        min_fill: blob area / its rotated-rectangle area for a single die.
        max_aspect: rotated rectangle long / short side for a single die.
        max_hole_frac: holes (symbols) smaller than this x die area are filled; larger ones are
            table seen through an outline (a printed box on a mat), kept open.
        pair_max_area, pair_min_aspect: a blob of about two dice areas (below ``pair_max_area``)
            is split in two only when it is elongated (long side >= ``pair_min_aspect`` x short).
        fragment_min_frac, merge_fit, merge_max_frac: face-core fragments above
            ``fragment_min_frac`` x die area, of a core smaller than ``merge_max_frac`` x die area,
            are merged while the union fits in ``merge_fit`` x the die side.
        max_split: a blob of more dice than this is not a pile of dice (e.g. a printed area): dropped.
        duplicate_dist: two top faces closer than this x their side are one die.
        side_darker, side_chroma: a candidate next to a die, darker by this (log units) with chroma
            within ``side_chroma`` and not square, is that die's visible side face: dropped.
        edge_thresholds: Canny hysteresis thresholds (per colour channel, 0..255 units).
        core_open_frac: opening of the face cores (cuts thin bridges), fraction of the die side.
        core_shrink: a face core's side / the die top face side (edges eat its rim).
        split_area: a blob of at least this many typical dice areas is split.
        top_colour_dist: a pixel belongs to the top face when its log-RGB distance to the body
            colour is below this.
        refine_by_colour: re-find each top face as the pixels near its body colour (off: the face
            core found between edges is already the top face).
        refine_grow: the re-found face stays inside the candidate rect grown by this factor.
        max_aspect_top: a re-found face longer than this x its width is rejected (candidate kept).
        side_tolerance: a face whose side differs from the frame's median by more than this
            fraction (or is not square) is given the median side.
        patch: side in pixels of the canonical top-face patch (the face spans ``patch`` px).
        patch_margin: extra pixels each side of the canonical patch (for the shift search).
        chroma_ink_weight: weight of the chroma ink channel against the brightness one in the NCC.
        templates_per_pair: templates kept per enrolled pair: the aligned mean, plus the enrolled
            dice least like it (enrollment setting).
        template_centering: fraction of the mean template taken off every template at read time.
        shift_step: step in patch pixels of the shift search of the face match (2 = 4x faster).
        glare_log: on a die with dark symbols, brightness above the body is glare, not ink: it is
            zeroed and its chroma faded out by this many log units (the same for darkness on a die
            with light symbols); 0 = off.
        relocate_below, relocate_margin, relocate_step, relocate_scales, relocate_gain: a die
            whose best template NCC is below ``relocate_below`` is matched again over shifts of up
            to ``relocate_margin`` x its side (step ``relocate_step`` patch px) and at these side
            scales; the new place is kept when it beats the first NCC by ``relocate_gain``.
        ink_blur: Gaussian sigma (patch pixels) on the ink map (tolerance to small misalignment).
        template: side of the central template region compared with the enrolled templates.
        brightness_sigma, chroma_sigma: colour metric (log units) for the colour posterior.
        light_prior_sigma: prior spread of the light's log-RGB offset (warm/cool/exposure).
        light_grid: chroma offsets tried (+-) in the registration, per axis.
        face_temperature: softmax temperature on NCC scores.
        face_none_ncc: NCC of the "unreadable" option: a face matching no template better than
            this is reported as ``None``.
        colour_outlier_d2: squared colour distance of the "none of the enrolled colours" option.
        impossible_penalty: NCC lowered for a face seen on a colour that does not have it.
        confident_cap: confidence cap of a read whose best pair is not allowed.
        min_die_score: candidates below this die-ness score are dropped.
        min_confidence: candidates less likely than this to be a die of an enrolled colour are dropped.
        face_threshold: the face is reported only when its (colour, face) pair has at least this
            probability; otherwise the die is reported with ``face=None``.
        overlap_dist: of two dice whose centres are closer than this x their side, only the more
            confident is reported.
        cnn_candidates: also take candidates from the d6 CNN detector (``vision/models``).
        cnn_threshold: minimum CNN heatmap peak (0..1) of such a candidate.
        cnn_input_long_side: the frame's longer side at the CNN's input (pixels).
        cnn_full_score: a CNN-only candidate's die-ness score is ``min(1, peak / cnn_full_score)``.
        cnn_merge_dist: a CNN box whose centre is closer than this x its side to a classical
            candidate is that candidate (not added).
        cnn_replace_aspect: a classical candidate longer than this x its width that holds CNN box
            centres is replaced by those boxes.
        cnn_side_range: a CNN box is a die candidate only when its side is within these factors
            of the frame's typical die side.
    """

    work_long_side: int = 640
    table_long_side: int = 160
    table_median: int = 15
    log_offset: float = 16.0
    chroma_weight: float = 3.0
    bright_weight: float = 2.0
    dark_weight: float = 3.0
    shadow_log: float = 0.40
    fg_threshold: float = 0.30
    work_blur: float = 1.0
    open_frac: float = 0.18
    close_frac: float = 0.10
    default_side_frac: float = 0.042
    min_area_frac: float = 0.35
    max_area_frac: float = 1.6
    min_fill: float = 0.50
    max_aspect: float = 2.0
    split_area: float = 1.6
    max_hole_frac: float = 0.5
    max_split: int = 6
    fragment_min_frac: float = 0.03
    merge_fit: float = 1.15
    merge_max_frac: float = 0.8
    pair_max_area: float = 1.85
    pair_min_aspect: float = 1.6
    duplicate_dist: float = 0.6
    side_darker: float = 0.15
    side_chroma: float = 0.15
    edge_thresholds: tuple[int, int] = (20, 45)
    core_open_frac: float = 0.08
    core_shrink: float = 0.95
    top_colour_dist: float = 0.28
    refine_by_colour: bool = True
    refine_grow: float = 1.3
    max_aspect_top: float = 1.25
    side_tolerance: float = 0.15
    patch: int = 28
    patch_margin: int = 3
    template: int = 22
    ink_blur: float = 0.0
    glare_log: float = 0.3
    relocate_below: float = 0.6
    relocate_margin: float = 0.3
    relocate_step: int = 2
    relocate_scales: tuple[float, ...] = (1.0, 0.85, 1.15)
    relocate_gain: float = 0.05
    shift_step: int = 1
    template_centering: float = 0.0
    templates_per_pair: int = 1
    chroma_ink_weight: float = 0.5
    brightness_sigma: float = 0.35
    chroma_sigma: float = 0.06
    light_prior_sigma: float = 0.30
    light_grid: int = 9
    face_temperature: float = 0.04
    face_none_ncc: float = 0.35
    colour_outlier_d2: float = 50.0
    impossible_penalty: float = 0.05
    confident_cap: float = 0.5
    min_die_score: float = 0.3
    min_confidence: float = 0.15
    face_threshold: float = 0.4
    overlap_dist: float = 0.7
    cnn_candidates: bool = True
    cnn_threshold: float = 0.30
    cnn_input_long_side: int = 512
    cnn_full_score: float = 0.5
    cnn_merge_dist: float = 0.6
    cnn_replace_aspect: float = 1.3
    cnn_side_range: tuple[float, float] = (0.5, 3.0)

    def cnn_config(self) -> D6Config:
        """The :class:`D6Config` the CNN candidate source runs with (shipped model, these thresholds)."""
        return D6Config(detection_threshold=self.cnn_threshold, input_long_side=self.cnn_input_long_side)


@dataclass(frozen=True)
class RollDieObservation:
    """One Roll for the Galaxy die found in a frame.

    Attributes:
        colour: die colour name (as enrolled), e.g. ``"white"``.
        face: face name (as enrolled), e.g. ``"explore"``, or ``None`` when unreadable or when the
            best reading is a colour/face pair the profile does not allow.
        box: ``(x, y, w, h)`` of the top face in frame pixels.
        confidence: 0..1, probability the (colour, face) reported is right.
        kind: always ``"roll"``.
    """

    colour: str
    face: str | None
    box: tuple[int, int, int, int]
    confidence: float
    kind: str = "roll"

    @property
    def value(self) -> None:
        """Roll dice have no numeric value (kept for the d6 JSON shape)."""
        return None

    def to_json(self) -> dict:
        """``{"kind": "roll", "colour", "face", "value": None, "box": [x, y, w, h], "confidence"}``."""
        return {
            "kind": self.kind,
            "colour": self.colour,
            "face": self.face,
            "value": None,
            "box": [int(v) for v in self.box],
            "confidence": round(float(self.confidence), 3),
        }


@dataclass(frozen=True)
class RollDiceRead:
    """Everything read from one frame (same JSON shape as :class:`vision.DiceRead`)."""

    width: int
    height: int
    dice: tuple[RollDieObservation, ...]
    timings_ms: dict

    def to_json(self) -> dict:
        return {"width": int(self.width), "height": int(self.height), "dice": [d.to_json() for d in self.dice]}


@dataclass(frozen=True)
class Candidates:
    """Die candidates in frame pixels: rotated rects ``float[N, 5]`` (cx, cy, w, h, angle deg) and die-ness scores."""

    rects: np.ndarray
    scores: np.ndarray
    work_scale: float


@dataclass(frozen=True)
class TopFaces:
    """Top faces: rects ``float[N, 5]`` (frame px), ink patches ``float32[N, 2, P+2m, P+2m]``, body log-RGB ``float[N, 3]``."""

    rects: np.ndarray
    scores: np.ndarray
    ink: np.ndarray
    body: np.ndarray


# --------------------------------------------------------------------------------------------
# Stage 2: foreground
# --------------------------------------------------------------------------------------------

def to_log(img: np.ndarray, config: RollDiceConfig) -> np.ndarray:
    """``uint8[..., 3]`` BGR -> float32 log(BGR + ``log_offset``)."""
    return np.log(img.astype(np.float32) + np.float32(config.log_offset))


def work_image(frame: np.ndarray, config: RollDiceConfig) -> tuple[np.ndarray, float]:
    """Frame resized so its longer side is ``work_long_side``; returns (image, frame-to-work scale)."""
    h, w = frame.shape[:2]
    s = min(1.0, config.work_long_side / float(max(h, w)))
    if s == 1.0:
        return frame, 1.0
    return cv2.resize(frame, (max(1, round(w * s)), max(1, round(h * s))), interpolation=cv2.INTER_AREA), s


def table_model(work: np.ndarray, config: RollDiceConfig) -> np.ndarray:
    """Estimate of the bare table under the dice, ``uint8`` like ``work``: a large median of a tiny copy."""
    h, w = work.shape[:2]
    s = config.table_long_side / float(max(h, w))
    tiny = cv2.resize(work, (max(1, round(w * s)), max(1, round(h * s))), interpolation=cv2.INTER_AREA)
    k = config.table_median | 1
    k = max(3, min(k, (min(tiny.shape[:2]) - 1) | 1))
    bg = cv2.medianBlur(tiny, k)
    return cv2.resize(bg, (w, h), interpolation=cv2.INTER_LINEAR)


def foreground_score(work: np.ndarray, table: np.ndarray, config: RollDiceConfig) -> np.ndarray:
    """Per-pixel "not table" score ``float32[h, w]``: the strongest of chroma change, brightening,
    and darkening beyond what a soft shadow does (log-RGB, so independent of light level)."""
    d = to_log(work, config) - to_log(table, config)
    k = d.mean(axis=2)
    c = np.sqrt(((d - k[:, :, None]) ** 2).sum(axis=2))
    score = np.maximum(c * config.chroma_weight, k * config.bright_weight)
    return np.maximum(score, (-k - config.shadow_log) * config.dark_weight)


def foreground(frame: np.ndarray, config: RollDiceConfig) -> tuple[np.ndarray, np.ndarray, float]:
    """(work image, foreground mask ``uint8`` 0/255, frame-to-work scale)."""
    work, scale = work_image(frame, config)
    if config.work_blur > 0:
        work = cv2.GaussianBlur(work, (0, 0), config.work_blur)
    table = table_model(work, config)
    score = foreground_score(work, table, config)
    mask = (score > config.fg_threshold).astype(np.uint8) * 255
    return work, mask, scale


# --------------------------------------------------------------------------------------------
# Stage 3: candidates
# --------------------------------------------------------------------------------------------

def _kernel(size: float) -> np.ndarray:
    k = max(1, int(round(size)))
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))


def fill_symbol_holes(mask: np.ndarray, side: float, config: RollDiceConfig) -> None:
    """Fill, in place, the holes of the ``uint8`` 0/255 ``mask`` smaller than ``max_hole_frac`` x a die's
    area (``side`` work px): the symbols on a die. Larger holes (table seen through a printed outline)
    stay open. The small holes are drawn together, so an island inside a filled hole keeps its own hole."""
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is not None:
        small = [c for c, h in zip(contours, hierarchy[0]) if h[3] >= 0
                 and cv2.contourArea(c) < config.max_hole_frac * side * side]
        cv2.drawContours(mask, small, -1, 255, -1)


def clean_mask(mask: np.ndarray, side: float, config: RollDiceConfig) -> np.ndarray:
    """Close small gaps, fill holes (symbols), open away thin things (lines, grain, shadow rims)."""
    m = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, _kernel(side * config.close_frac))
    fill_symbol_holes(m, side, config)
    return cv2.morphologyEx(m, cv2.MORPH_OPEN, _kernel(side * config.open_frac))


def typical_side(mask: np.ndarray, config: RollDiceConfig, default: float | None = None) -> float:
    """Typical die side (work pixels): median side of the square-ish, well-filled blobs."""
    default = config.default_side_frac * max(mask.shape[:2]) if default is None else default
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    sides = []
    for c in contours:
        area = cv2.contourArea(c)
        if area < (default * 0.4) ** 2:
            continue
        (_, _), (w, h), _ = cv2.minAreaRect(c)
        if min(w, h) <= 0:
            continue
        if max(w, h) / min(w, h) < 1.3 and area / (w * h) > 0.75:
            sides.append(np.sqrt(area))
    if len(sides) >= 2:
        return float(np.median(sides))
    return float(default)


def split_blob(points: np.ndarray, k: int, seed: int = 0) -> list[np.ndarray]:
    """Split ``float32[N, 2]`` blob pixels into ``k`` dice by k-means (deterministic)."""
    if k <= 1 or len(points) < k * 4:
        return [points]
    cv2.setRNGSeed(seed)
    crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 0.1)
    _, labels, _ = cv2.kmeans(points, k, None, crit, 3, cv2.KMEANS_PP_CENTERS)
    labels = labels.reshape(-1)
    return [points[labels == i] for i in range(k)]


def edge_map(work: np.ndarray, config: RollDiceConfig) -> np.ndarray:
    """``uint8`` 0/255 map of one-pixel colour edges (Canny on each colour channel): die outlines,
    bevels and the gaps between touching dice (and symbol strokes, filled later as holes)."""
    lo, hi = config.edge_thresholds
    out = np.zeros(work.shape[:2], np.uint8)
    for ch in cv2.split(cv2.LUT(work, log_lut(config))):
        out |= cv2.Canny(ch, lo, hi, L2gradient=True)
    return out


@functools.lru_cache(maxsize=8)
def _log_lut(offset: float) -> np.ndarray:
    v = np.log(np.arange(256, dtype=np.float64) + offset)
    return np.round((v - v[0]) / (v[-1] - v[0]) * 255).astype(np.uint8)


def log_lut(config: RollDiceConfig) -> np.ndarray:
    """0..255 -> 0..255 lookup table of log(v + ``log_offset``), so edges of dark dice count as much as bright ones."""
    return _log_lut(float(config.log_offset))


def face_cores(blobs: np.ndarray, edges: np.ndarray, side: float, config: RollDiceConfig) -> np.ndarray:
    """Flat, edge-free parts of the foreground (one per top face, touching dice cut apart at their
    shared edge); symbol holes filled."""
    core = cv2.bitwise_and(blobs, cv2.bitwise_not(edges))
    fill_symbol_holes(core, side, config)
    return cv2.morphologyEx(core, cv2.MORPH_OPEN, _kernel(max(2.0, side * config.core_open_frac)))


def merge_fragments(labels: np.ndarray, stats: np.ndarray, side: float, config: RollDiceConfig) -> list[np.ndarray]:
    """Pixel sets ``float32[M, 2]`` of face cores, fragments of one face (cut apart by its own
    symbol's strokes) merged back: fragments are grouped while the group still fits in a square
    of ``merge_fit`` x the die side (two dice never do)."""
    n = len(stats)
    pts = []
    for i in range(1, n):
        x, y, w, h = stats[i, :4]
        if stats[i, cv2.CC_STAT_AREA] < config.fragment_min_frac * side * side:
            continue
        ys, xs = np.nonzero(labels[y:y + h, x:x + w] == i)
        pts.append(np.stack([xs + x, ys + y], axis=1).astype(np.float32))
    order = sorted(range(len(pts)), key=lambda i: -len(pts[i]))
    centres = [p.mean(0) for p in pts]
    used = [False] * len(pts)
    groups = []
    limit = config.merge_fit * side
    for i in order:
        if used[i]:
            continue
        used[i] = True
        group = pts[i]
        if len(group) >= config.merge_max_frac * side * side:
            groups.append(group)
            continue
        for j in order:
            if used[j] or np.hypot(*(centres[j] - group.mean(0))) > side:
                continue
            union = np.vstack([group, pts[j]])
            (_, _), (rw, rh), _ = cv2.minAreaRect(union)
            if max(rw, rh) <= limit:
                group = union
                used[j] = True
        groups.append(group)
    return groups


def find_candidates(work: np.ndarray, mask: np.ndarray, scale: float, config: RollDiceConfig) -> Candidates:
    """Die candidates (rotated rects in frame pixels) from the raw foreground mask.

    Blobs (cleaned foreground) are cut at colour edges into face cores; each core is a die top face
    (a core of k dice areas, when an edge was too faint, is split by k-means).
    """
    side = config.default_side_frac * max(mask.shape[:2])
    blobs = clean_mask(mask, side, config)
    side = typical_side(blobs, config)
    blobs = clean_mask(mask, side, config)
    cores = face_cores(blobs, edge_map(work, config), side, config)
    side = typical_side(cores, config, default=side * config.core_shrink)
    area0 = side * side
    pad = side * (1.0 / config.core_shrink - 1.0)
    _, labels, stats, _ = cv2.connectedComponentsWithStats(cores, connectivity=4)
    rects, scores = [], []
    for i, pts in enumerate(merge_fragments(labels, stats, side, config)):
        area = len(pts)
        if area < area0 * config.min_area_frac:
            continue
        k = int(round(area / area0)) if area >= area0 * config.split_area else 1
        if k > config.max_split:
            continue
        if k == 2 and area < area0 * config.pair_max_area:
            (_, _), (bw, bh), _ = cv2.minAreaRect(pts)
            if max(bw, bh) < config.pair_min_aspect * max(min(bw, bh), 1.0):
                k = 1  # squat: one die with its side face showing, not two dice
        for part in split_blob(pts, k, seed=i):
            if len(part) < area0 * config.min_area_frac:
                continue
            (cx, cy), (rw, rh), ang = cv2.minAreaRect(part)
            rw, rh = max(rw, 1.0), max(rh, 1.0)
            fill = len(part) / (rw * rh)
            aspect = max(rw, rh) / min(rw, rh)
            rel = len(part) / area0
            if fill < config.min_fill or aspect > config.max_aspect or rel < config.min_area_frac:
                continue
            score = 1.0
            score *= float(np.clip((fill - config.min_fill) / 0.2 + 0.5, 0, 1))
            score *= float(np.clip((config.max_aspect - aspect) / 0.3 + 0.5, 0, 1))
            score *= float(np.clip((rel - config.min_area_frac) / 0.2, 0, 1))
            score *= float(np.clip((config.max_area_frac * 1.5 - rel) / 0.5, 0, 1)) if k == 1 else 1.0
            if score < config.min_die_score:
                continue
            rects.append([cx / scale, cy / scale, (rw + pad) / scale, (rh + pad) / scale, ang])
            scores.append(score)
    r = np.asarray(rects, np.float64).reshape(-1, 5)
    return Candidates(r, np.asarray(scores, np.float64), scale)


def add_cnn_candidates(frame: np.ndarray, cands: Candidates, net: cv2.dnn.Net | None,
                       config: RollDiceConfig) -> Candidates:
    """Candidates plus the CNN detector's boxes that are not near a classical candidate.

    A CNN box near a square classical candidate is that die (skipped). A classical candidate that
    is not square (long side > ``cnn_replace_aspect`` x short: often two touching dice of one
    colour, or a die and a piece of its neighbour) and holds CNN box centres is replaced by them.
    A CNN box whose side is off the frame's die side (the median classical candidate's, or
    ``default_side_frac`` of the frame's longer side when there are fewer than two) by more than
    the factors ``cnn_side_range`` is not a die (a printed box on a mat, a pip).

    Args:
        frame: ``uint8[H, W, 3]`` BGR (validated).
        cands: the classical candidates (frame pixels).
        net: the d6 detector (:func:`vision.d6.load_net`), or None to return ``cands`` unchanged.
        config: ``cnn_threshold``, ``cnn_input_long_side``, ``cnn_merge_dist``, ``cnn_full_score``.

    Returns:
        :class:`Candidates` with the added boxes as axis-aligned rects (angle 0; the top-face stage
        finds the turn) and die-ness ``min(1, peak / cnn_full_score)``.
    """
    if net is None:
        return cands
    found = _d6.detect_dice(net, frame, config.cnn_config())
    have = cands.rects
    aspect = np.maximum(have[:, 2], have[:, 3]) / np.maximum(np.minimum(have[:, 2], have[:, 3]), 1e-6)
    square = aspect <= config.cnn_replace_aspect
    sides = np.sqrt(have[:, 2] * have[:, 3])
    typical = float(np.median(sides)) if len(sides) >= 2 else config.default_side_frac * max(frame.shape[:2])
    lo, hi = config.cnn_side_range
    replaced = np.zeros(len(have), bool)
    added, added_scores = [], []
    for (x, y, w, h), peak in zip(found.boxes.astype(np.float64), found.scores.astype(np.float64)):
        c = np.array([x + w / 2, y + h / 2])
        side = float(np.sqrt(max(w * h, 1.0)))
        if not lo * typical <= side <= hi * typical:
            continue
        near = config.cnn_merge_dist * side
        dist = np.hypot(have[:, 0] - c[0], have[:, 1] - c[1])
        if (square & (dist < near)).any() or any(np.hypot(*(a[:2] - c)) < near for a in added):
            continue
        for i in np.nonzero(~square)[0]:
            box = ((float(have[i, 0]), float(have[i, 1])), (float(have[i, 2]), float(have[i, 3])), float(have[i, 4]))
            if cv2.pointPolygonTest(cv2.boxPoints(box), (float(c[0]), float(c[1])), False) >= 0:
                replaced[i] = True
        added.append(np.array([c[0], c[1], w, h, 0.0]))
        added_scores.append(min(1.0, peak / config.cnn_full_score))
    if not added:
        return cands
    keep = ~replaced
    rects = np.concatenate([have[keep], np.stack(added)])
    return Candidates(rects, np.concatenate([cands.scores[keep], added_scores]), cands.work_scale)


# --------------------------------------------------------------------------------------------
# Stages 4-5: top faces and canonical patches
# --------------------------------------------------------------------------------------------

def upright_patch(frame: np.ndarray, cx: float, cy: float, side: float, angle: float, size: int,
                  margin: int) -> np.ndarray:
    """A ``uint8[size+2m, size+2m, 3]`` patch where a square of ``side`` frame px centred on (cx, cy),
    turned by ``angle`` degrees, spans the central ``size`` px (upright). Used for enrollment and reading."""
    s = size / max(float(side), 1.0)
    out = size + 2 * margin
    m = cv2.getRotationMatrix2D((float(cx), float(cy)), float(angle), s)
    m[0, 2] += out / 2.0 - cx
    m[1, 2] += out / 2.0 - cy
    src = frame
    if s < 0.5:
        k = int(1.0 / s) | 1
        x0, y0 = int(max(cx - side * 1.5, 0)), int(max(cy - side * 1.5, 0))
        x1, y1 = int(min(cx + side * 1.5, frame.shape[1])), int(min(cy + side * 1.5, frame.shape[0]))
        src = frame[y0:y1, x0:x1]
        src = cv2.GaussianBlur(src, (k, k), 0)
        m[0, 2] += m[0, 0] * x0 + m[0, 1] * y0
        m[1, 2] += m[1, 0] * x0 + m[1, 1] * y0
    return cv2.warpAffine(src, m, (out, out), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def body_colour(logp: np.ndarray, bin_size: float = 0.08) -> np.ndarray:
    """Robust body colour (log-RGB) of a die patch ``float32[h, w, 3]``: the densest colour (mode of a
    coarse 3-D histogram, the body being the largest flat area), then the mean of the pixels near it."""
    px = logp.reshape(-1, 3)
    q = np.floor(px / bin_size).astype(np.int64)
    q -= q.min(0)
    dims = q.max(0) + 1
    key = (q[:, 0] * dims[1] + q[:, 1]) * dims[2] + q[:, 2]
    counts = np.bincount(key)
    # smooth: count each bin with its 26 neighbours would be costly; take the top bin and its pixels' mean
    top = int(counts.argmax())
    centre = px[key == top].mean(0)
    d = np.sqrt(((px - centre) ** 2).sum(1))
    return px[d < 2.0 * bin_size].mean(0)


def refine_top(frame: np.ndarray, rect: np.ndarray, config: RollDiceConfig) -> tuple[np.ndarray, np.ndarray]:
    """Top face of one candidate: (rect float[5] in frame px, body log-RGB float[3]).

    The candidate is cut upright at 2x context, the body colour found, pixels within
    ``top_colour_dist`` of it (holes filled) taken as the top face, and its rotated rect returned.
    """
    cx, cy, w, h, ang = rect
    side = max(w, h)
    size = 48
    patch = upright_patch(frame, cx, cy, side * 1.3, ang, size, 0)
    logp = to_log(patch, config)
    c0 = size // 2
    r = int(size * 0.35)
    body = body_colour(logp[c0 - r:c0 + r, c0 - r:c0 + r])
    dist = np.sqrt(((logp - body) ** 2).sum(2))
    m = (dist < config.top_colour_dist).astype(np.uint8) * 255
    m = cv2.morphologyEx(m, cv2.MORPH_CLOSE, _kernel(3))
    # stay within the candidate (grown a little): a touching die of the same colour is not this face
    f0 = size / (side * 1.3)
    own = cv2.boxPoints(((c0, c0), (w * f0 * config.refine_grow, h * f0 * config.refine_grow), 0.0))
    region = np.zeros_like(m)
    cv2.fillConvexPoly(region, np.round(own).astype(np.int32), 255)
    m &= region
    contours, _ = cv2.findContours(m, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return np.asarray(rect, np.float64), body
    # the component nearest the centre with a good area
    best, best_key = None, None
    for c in contours:
        a = cv2.contourArea(c)
        if a < (size / 1.3) ** 2 * 0.15:
            continue
        mo = cv2.moments(c)
        if mo["m00"] <= 0:
            continue
        d = np.hypot(mo["m10"] / mo["m00"] - c0, mo["m01"] / mo["m00"] - c0)
        key = d - 0.02 * a
        if best_key is None or key < best_key:
            best, best_key = c, key
    if best is None:
        return np.asarray(rect, np.float64), body
    hull = cv2.convexHull(best)
    (px, py), (pw, ph), pang = cv2.minAreaRect(hull)
    f = side * 1.3 / size  # patch px -> frame px
    # patch coordinates -> frame coordinates (undo the rotation by ``ang`` about the centre)
    t = np.deg2rad(ang)
    dx, dy = (px - c0) * f, (py - c0) * f
    fx = cx + dx * np.cos(t) - dy * np.sin(t)
    fy = cy + dx * np.sin(t) + dy * np.cos(t)
    pw, ph = pw * f, ph * f
    if min(pw, ph) < 0.5 * side or max(pw, ph) > 1.3 * side or max(pw, ph) > config.max_aspect_top * min(pw, ph):
        return np.asarray(rect, np.float64), body
    return np.array([fx, fy, pw, ph, ang + pang], np.float64), body


def ink_map(patch: np.ndarray, config: RollDiceConfig, margin: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(ink ``float32[2, h, w]``, body log-RGB) of an upright top-face patch whose face spans the
    central ``config.patch`` px (``margin`` px each side, default ``config.patch_margin``).

    Channel 0: signed brightness difference to the face's body colour (a dark symbol is negative,
    a light one or a glare spot positive, so glare does not look like a dark symbol); channel 1:
    chroma distance to the body colour. Both in log-RGB, so the same under any light level."""
    logp = to_log(patch, config)
    m = config.patch_margin if margin is None else int(margin)
    p = config.patch
    body = body_colour(logp[m:m + p, m:m + p])
    diff = logp - body
    bright = (diff @ _BASIS[2]).astype(np.float32)
    chroma = np.sqrt(((diff @ _BASIS[:2].T) ** 2).sum(2)).astype(np.float32)
    ink = np.stack([bright, chroma])
    if config.ink_blur > 0:
        ink = np.stack([cv2.GaussianBlur(c, (0, 0), config.ink_blur) for c in ink])
    return ink, body


def extract_tops(frame: np.ndarray, candidates: Candidates, config: RollDiceConfig) -> TopFaces:
    """Refine each candidate to its top face and cut its canonical ink patch."""
    n = len(candidates.rects)
    q = config.patch + 2 * config.patch_margin
    rects = np.zeros((n, 5), np.float64)
    inks = np.zeros((n, INK_CHANNELS, q, q), np.float32)
    bodies = np.zeros((n, 3), np.float64)
    for i, r in enumerate(candidates.rects):
        rects[i] = refine_top(frame, r, config)[0] if config.refine_by_colour else np.asarray(r, np.float64)
    if n:
        # every top face in a frame has about the same size: an odd one (a face eaten by glare, a
        # split blob) takes the frame's typical side, square
        sides = np.sqrt(rects[:, 2] * rects[:, 3])
        typical = float(np.median(sides))
        odd = (np.abs(sides / typical - 1.0) > config.side_tolerance) | (
            np.maximum(rects[:, 2], rects[:, 3]) > config.max_aspect_top * np.minimum(rects[:, 2], rects[:, 3]))
        rects[odd, 2] = rects[odd, 3] = typical
    for i, top in enumerate(rects):
        side = float(np.sqrt(top[2] * top[3]))
        patch = upright_patch(frame, top[0], top[1], side, top[4], config.patch, config.patch_margin)
        inks[i], bodies[i] = ink_map(patch, config)
    return TopFaces(rects, candidates.scores.copy(), inks, bodies)


def drop_duplicates(tops: TopFaces, config: RollDiceConfig) -> TopFaces:
    """Keep one of any two top faces whose centres are closer than ``duplicate_dist`` x their side
    (two fragments of one die refined to the same face), the higher-scored (then larger) one."""
    n = len(tops.rects)
    if n < 2:
        return tops
    side = np.sqrt(tops.rects[:, 2] * tops.rects[:, 3])
    order = np.lexsort((-side, -tops.scores))
    keep: list[int] = []
    for i in order:
        if all(np.hypot(*(tops.rects[i, :2] - tops.rects[j, :2])) > config.duplicate_dist * min(side[i], side[j])
               for j in keep):
            keep.append(int(i))
    # a side face: next to a die of the same chroma, clearly darker, and not square
    bright = tops.body @ _BASIS[2]
    chroma = tops.body @ _BASIS[:2].T
    sides = set()
    for i in keep:
        sq = max(tops.rects[i, 2], tops.rects[i, 3]) / max(min(tops.rects[i, 2], tops.rects[i, 3]), 1e-6)
        for j in keep:
            if i == j:
                continue
            near = np.hypot(*(tops.rects[i, :2] - tops.rects[j, :2])) < 1.0 * max(side[i], side[j])
            if (near and bright[j] - bright[i] > config.side_darker and side[i] < side[j] * 1.05
                    and np.hypot(*(chroma[i] - chroma[j])) < config.side_chroma and (sq > 1.25 or side[i] < 0.8 * side[j])):
                sides.add(i)
                break
    keep = [i for i in keep if i not in sides]
    keep.sort()
    k = np.asarray(keep, np.int64)
    return TopFaces(tops.rects[k], tops.scores[k], tops.ink[k], tops.body[k])


def rect_box(rect: np.ndarray) -> tuple[int, int, int, int]:
    """Axis-aligned ``(x, y, w, h)`` of a rotated rect (cx, cy, w, h, angle)."""
    pts = cv2.boxPoints(((float(rect[0]), float(rect[1])), (float(rect[2]), float(rect[3])), float(rect[4])))
    x0, y0 = pts.min(0)
    x1, y1 = pts.max(0)
    return int(round(x0)), int(round(y0)), max(1, int(round(x1 - x0))), max(1, int(round(y1 - y0)))


# --------------------------------------------------------------------------------------------
# Stage 6: colour calibration
# --------------------------------------------------------------------------------------------

#: Channels of an ink map (signed brightness, chroma distance).
INK_CHANNELS = 2
#: Orthonormal basis of log-RGB: two chroma axes and the brightness axis.
_BASIS = np.array([[1, -1, 0] / np.sqrt(2), [1, 1, -2] / np.sqrt(6), [1, 1, 1] / np.sqrt(3)])


def colour_distances(body: np.ndarray, protos: np.ndarray, offset: np.ndarray, config: RollDiceConfig) -> np.ndarray:
    """Squared colour distances ``[N, C]`` of body colours (after removing the light ``offset``) to prototypes."""
    diff = (body[:, None, :] - offset[None, None, :] - protos[None, :, :]) @ _BASIS.T
    w = np.array([1 / config.chroma_sigma ** 2, 1 / config.chroma_sigma ** 2, 1 / config.brightness_sigma ** 2])
    return (diff ** 2 * w).sum(-1)


def calibrate_colours(body: np.ndarray, protos: np.ndarray, config: RollDiceConfig) -> tuple[np.ndarray, np.ndarray]:
    """Light offset (log-RGB, float[3]) and colour posteriors ``[N, C]``.

    The offset is the one that best maps this frame's dice onto the enrolled prototypes: a grid
    over the two chroma axes (brightness solved by the median), refined by re-assignment, with a
    Gaussian prior so a frame of few dice stays near the enrollment light.
    """
    n = len(body)
    if n == 0:
        return np.zeros(3), np.zeros((0, len(protos)))
    cap = 25.0  # robust: a die far from every prototype costs at most this

    g = np.linspace(-2 * config.light_prior_sigma, 2 * config.light_prior_sigma, config.light_grid)
    uu, vv = np.meshgrid(g, g)
    offs = uu.reshape(-1, 1) * _BASIS[0] + vv.reshape(-1, 1) * _BASIS[1]  # [G, 3]
    # brightness of each grid offset: median over dice of the brightness gap to their nearest prototype
    w = np.array([1 / config.chroma_sigma ** 2, 1 / config.chroma_sigma ** 2, 0.0])
    diff = body[:, None, None, :] - offs[None, :, None, :] - protos[None, None, :, :]  # [N, G, C, 3]
    proj = diff @ _BASIS.T
    dc = (proj ** 2 * w).sum(-1)  # chroma only [N, G, C]
    a = dc.argmin(-1)  # [N, G]
    bgap = np.take_along_axis(proj[..., 2], a[..., None], -1)[..., 0]  # [N, G]
    offs = offs + np.median(bgap, axis=0)[:, None] * _BASIS[2]
    proj = (body[:, None, None, :] - offs[None, :, None, :] - protos[None, None, :, :]) @ _BASIS.T
    d = (proj ** 2 * np.array([w[0], w[1], 1 / config.brightness_sigma ** 2])).sum(-1)
    prior = ((offs @ _BASIS[:2].T) ** 2).sum(-1) / config.light_prior_sigma ** 2
    costs = np.minimum(d.min(-1), cap).sum(0) + prior
    best = offs[int(costs.argmin())]
    off = best
    for _ in range(3):  # refine: re-assign, then mean residual of inliers
        d = colour_distances(body, protos, off, config)
        a = d.argmin(1)
        inl = d[np.arange(n), a] < cap
        if not inl.any():
            break
        resid = body[inl] - protos[a[inl]]
        k = inl.sum()
        prior_w = 1.0 / config.light_prior_sigma ** 2 * config.chroma_sigma ** 2
        new = resid.mean(0)
        chroma = (new @ _BASIS[:2].T) * k / (k + prior_w)
        off = chroma @ _BASIS[:2] + (new @ _BASIS[2]) * _BASIS[2]
    d = colour_distances(body, protos, off, config)
    # an extra "none of these" class of fixed distance: a die far from every prototype (glare,
    # an unknown colour) gets low probabilities everywhere instead of a confident nearest colour
    logits = -0.5 * np.concatenate([d, np.full((n, 1), config.colour_outlier_d2)], axis=1)
    logits -= logits.max(1, keepdims=True)
    p = np.exp(logits)
    p /= p.sum(1, keepdims=True)
    return off, p[:, :-1]


# --------------------------------------------------------------------------------------------
# Stage 7: faces
# --------------------------------------------------------------------------------------------

def _normalise_rows(x: np.ndarray, channels: int = INK_CHANNELS) -> np.ndarray:
    """Zero-mean, unit-norm each of the ``channels`` equal parts of the last axis, then scale by
    1/sqrt(channels): the dot product of two such vectors is the mean of the per-channel NCCs."""
    shape = x.shape
    x = x.reshape(*shape[:-1], channels, shape[-1] // channels)
    x = x - x.mean(axis=-1, keepdims=True)
    x = x / (np.linalg.norm(x, axis=-1, keepdims=True) + 1e-6)
    return (x / np.sqrt(channels)).reshape(shape).astype(np.float32)


def template_of(ink: np.ndarray, config: RollDiceConfig) -> np.ndarray:
    """The central ``template`` x ``template`` region of an ink patch ``[C, q, q]``, as a normalised vector."""
    q = ink.shape[-1]
    t = config.template
    o = (q - t) // 2
    return _normalise_rows(ink[:, o:o + t, o:o + t].reshape(-1).astype(np.float32))


def windows_of(inks: np.ndarray, config: RollDiceConfig) -> np.ndarray:
    """All ``template``-sized windows of each ink patch ``[N, C, q, q]``, at 4 quarter turns:
    ``float32[N, 4*S, C*T*T]`` normalised."""
    n, c, q = inks.shape[:3]
    t = config.template
    rots = np.stack([np.rot90(inks, k, axes=(2, 3)) for k in range(4)], axis=1)  # [N, 4, C, q, q]
    shifts = [(dy, dx) for dy in range(q - t + 1) for dx in range(q - t + 1)]
    out = np.empty((n, 4, len(shifts), c * t * t), np.float32)
    for k, (dy, dx) in enumerate(shifts):
        out[:, :, k] = rots[:, :, :, dy:dy + t, dx:dx + t].reshape(n, 4, c * t * t)
    return _normalise_rows(out.reshape(n, 4 * len(shifts), c * t * t), c)


def distinctive_templates(templates: np.ndarray, config: RollDiceConfig) -> np.ndarray:
    """Templates minus ``template_centering`` x their mean (over the four turns of every template),
    renormalised: what all faces share (the face rim, a central blob) no longer scores."""
    if config.template_centering <= 0 or len(templates) < 2:
        return templates
    rot = rotated_templates(templates, config)
    return _normalise_rows(templates - config.template_centering * rot.mean(0, keepdims=True))


def rotated_templates(templates: np.ndarray, config: RollDiceConfig) -> np.ndarray:
    """``[K, C*T*T]`` templates -> ``[4K, C*T*T]``: each at its four quarter turns (row 4k + r = turn r)."""
    k = len(templates)
    t = config.template
    tpl = templates.reshape(k, INK_CHANNELS, t, t)
    rots = np.stack([np.rot90(tpl, r, axes=(2, 3)) for r in range(4)], axis=1)  # [K, 4, C, T, T]
    return np.ascontiguousarray(rots.reshape(4 * k, INK_CHANNELS * t * t), dtype=np.float32)


def match_faces(inks: np.ndarray, rot_templates: np.ndarray, config: RollDiceConfig) -> np.ndarray:
    """Best NCC ``[N, K]`` of each ink patch ``[N, C, q, q]`` against each template, over the four
    quarter turns (``rot_templates`` from :func:`rotated_templates`) and every shift of the
    template inside the patch (step ``shift_step``). NCC per channel, averaged over channels."""
    n, k4 = len(inks), len(rot_templates)
    if n == 0 or k4 == 0:
        return np.zeros((n, k4 // 4), np.float32)
    score, _ = window_scores(inks, rot_templates, config, config.shift_step)
    return score.reshape(n, score.shape[1], k4 // 4, 4).max(axis=(1, 3))


def window_scores(inks: np.ndarray, rot_templates: np.ndarray, config: RollDiceConfig,
                  step: int = 1) -> tuple[np.ndarray, list[tuple[int, int]]]:
    """NCC ``float32[N, S, 4K]`` of every ``template``-sized window (top-left corners ``(dy, dx)``,
    every ``step`` px, returned as the second item) of each ink patch ``[N, C, q, q]`` with every
    turned template ``[4K, C*T*T]``.

    The templates are zero-mean and unit-norm per channel, so each window only needs its own norm
    (from sums over the window), not a normalised copy."""
    n = len(inks)
    k4 = len(rot_templates)
    c, q = inks.shape[1], inks.shape[2]
    t = config.template
    st = max(1, int(step))
    offs = list(range(0, q - t + 1, st))
    shifts = [(dy, dx) for dy in offs for dx in offs]
    d = t * t
    win = np.empty((n, len(shifts), c, d), np.float32)
    for j, (dy, dx) in enumerate(shifts):
        win[:, j] = inks[:, :, dy:dy + t, dx:dx + t].reshape(n, c, d)
    s1 = win.sum(-1)
    s2 = np.einsum("nscd,nscd->nsc", win, win)
    den = np.sqrt(np.maximum(s2 - s1 * s1 / d, 1e-12))  # [N, S, C]
    tpl = rot_templates.reshape(k4, c, d)
    score = np.zeros((n * len(shifts), k4), np.float32)
    weights = (1.0, config.chroma_ink_weight)
    for ch in range(c):
        if weights[ch] == 0:
            continue
        num = win[:, :, ch].reshape(-1, d) @ tpl[:, ch].T  # [N*S, 4K]
        score += num * np.float32(weights[ch]) / den[:, :, ch].reshape(-1, 1)
    score = score.reshape(n, len(shifts), k4) * np.float32(np.sqrt(c) / sum(weights))
    return score.astype(np.float32), shifts


def relocate_faces(frame: np.ndarray, tops: TopFaces, ncc: np.ndarray, polarity: np.ndarray,
                   rot_templates: np.ndarray, config: RollDiceConfig,
                   todo: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Second look at the dice whose best NCC is below ``relocate_below`` (a top face found a little
    off: cut with a strip of a neighbour, or too large): a wider shift search (``relocate_margin``
    x the face side each way, step ``relocate_step``) at the side scales ``relocate_scales``, in
    order, stopping at the first scale whose best NCC reaches ``relocate_below``.

    Args:
        frame: ``uint8[H, W, 3]`` BGR.
        tops: the top faces; ``ncc``: their ``[N, K]`` scores; ``polarity``: ``[N]`` ink polarity.
        rot_templates: ``[4K, C*T*T]`` from :func:`rotated_templates`.
        config: ``relocate_*``, ``patch``, ``template``, ``glare_log``.
        todo: optional ``bool[N]``: only these dice may be looked at again (e.g. the ones that
            will be reported).

    Returns:
        (ncc ``[N, K]``, rects ``float[N, 5]``): a die's row and rect are replaced when the wider
        search beats its best NCC by ``relocate_gain``; the rect then moves to where the best
        template matched, with the side of the best scale.
    """
    ncc, rects = ncc.copy(), tops.rects.copy()
    if len(ncc) == 0 or config.relocate_below <= 0:
        return ncc, rects
    p, t = config.patch, config.template
    m = round(config.relocate_margin * p)
    k4 = len(rot_templates)
    low = ncc.max(1) < config.relocate_below
    if todo is not None:
        low &= todo
    for i in np.nonzero(low)[0]:
        cx, cy, w, h, ang = tops.rects[i]
        side0 = float(np.sqrt(w * h))
        best, row, rect = float(ncc[i].max()) + config.relocate_gain, None, None
        for sc in config.relocate_scales:
            side = side0 * sc
            patch = upright_patch(frame, cx, cy, side, ang, p, m)
            ink, _ = ink_map(patch, config, m)
            ink = keep_ink_polarity(ink[None], polarity[i:i + 1], config)
            score, shifts = window_scores(ink, rot_templates, config, config.relocate_step)
            score = score[0]  # [S, 4K]
            top = float(score.max())
            if top <= best:
                continue
            j = int(score.max(1).argmax())
            best, row = top, score.reshape(len(shifts), k4 // 4, 4).max(axis=(0, 2))
            dy, dx = shifts[j]
            # window offset from the centred window, patch px -> frame px, turned back by the angle
            f = side / p
            ox, oy = (dx - (p + 2 * m - t) / 2.0) * f, (dy - (p + 2 * m - t) / 2.0) * f
            a = np.deg2rad(ang)
            rect = np.array([cx + ox * np.cos(a) - oy * np.sin(a), cy + ox * np.sin(a) + oy * np.cos(a),
                             side, side, ang])
            if best >= config.relocate_below:
                break
        if row is not None:
            ncc[i], rects[i] = row, rect
    return ncc, rects


def template_polarity(templates: np.ndarray, config: RollDiceConfig) -> np.ndarray:
    """Ink polarity ``float[K]`` of ``[K, C*T*T]`` templates: -1 when the symbol is darker than the
    body (the brightness channel has a long negative tail: negative skew), +1 when lighter."""
    t = config.template
    b = np.asarray(templates, np.float64).reshape(len(templates), INK_CHANNELS, t * t)[:, 0]
    b = b - b.mean(1, keepdims=True)
    skew = (b ** 3).mean(1) / np.maximum((b ** 2).mean(1), 1e-12) ** 1.5
    return np.where(skew < 0, -1.0, 1.0)


def keep_ink_polarity(inks: np.ndarray, polarity: np.ndarray, config: RollDiceConfig) -> np.ndarray:
    """Ink maps ``[N, C, q, q]`` with the brightness of the wrong sign taken out.

    On a die whose symbols are darker than its body (``polarity`` -1), anything brighter than the
    body is a glare spot, not ink: its brightness is set to 0 and its chroma faded (fully at
    ``glare_log`` log units brighter); on a die with light symbols (+1), anything darker is a
    shadow or a strip of a neighbouring die's side, treated the same way."""
    if config.glare_log <= 0 or len(inks) == 0:
        return inks
    out = inks.copy()
    pol = np.asarray(polarity, np.float32).reshape(-1, 1, 1)
    wrong = np.maximum(-pol * out[:, 0], 0.0)  # brightness of the wrong sign, >= 0
    out[:, 0] += pol * wrong
    out[:, 1] *= 1.0 - np.minimum(wrong / np.float32(config.glare_log), 1.0)
    return out


# --------------------------------------------------------------------------------------------
# Stage 8: decision
# --------------------------------------------------------------------------------------------

def joint_scores(colour_p: np.ndarray, ncc: np.ndarray, template_pairs: Sequence[tuple[str, str]],
                 colours: Sequence[str], faces: Sequence[str], config: RollDiceConfig) -> np.ndarray:
    """Log-scores ``[N, C, F]`` over every colour x face (allowed or not).

    A pair with enrolled templates uses its best NCC; a pair without (e.g. white wild) uses the
    best NCC of that face on any colour, lowered by ``impossible_penalty``.
    """
    n = len(colour_p)
    ci = {c: i for i, c in enumerate(colours)}
    fi = {f: i for i, f in enumerate(faces)}
    m = np.full((n, len(colours), len(faces)), -1.0, np.float64)
    for k, (c, f) in enumerate(template_pairs):
        m[:, ci[c], fi[f]] = np.maximum(m[:, ci[c], fi[f]], ncc[:, k])
    enrolled = np.zeros((len(colours), len(faces)), bool)
    for c, f in template_pairs:
        enrolled[ci[c], fi[f]] = True
    any_colour = m.max(axis=1)  # [N, F]
    for a in range(len(colours)):
        for b in range(len(faces)):
            if not enrolled[a, b]:
                m[:, a, b] = any_colour[:, b] - config.impossible_penalty
    return np.log(np.clip(colour_p, 1e-12, 1.0))[:, :, None] + m / config.face_temperature


def assemble(tops: TopFaces, colour_p: np.ndarray, ncc: np.ndarray, profile: DiceProfile,
             config: RollDiceConfig) -> tuple[RollDieObservation, ...]:
    """Joint colour x face decision per die; pairs not in ``profile.allowed`` never reach 0.9."""
    colours, faces = list(profile.colours), list(profile.faces)
    if len(tops.rects) == 0:
        return ()
    s = joint_scores(colour_p, ncc, profile.template_pairs, colours, faces, config)
    n = len(s)
    flat = s.reshape(n, -1)
    # an extra "face unreadable" entry: the best colour with a fixed NCC, so a face unlike every
    # template is reported unreadable rather than as its least bad match
    best_colour = colour_p.argmax(1)
    unreadable = np.log(np.clip(colour_p.max(1), 1e-12, 1.0)) + config.face_none_ncc / config.face_temperature
    flat = np.concatenate([flat, unreadable[:, None]], axis=1)
    flat = flat - flat.max(1, keepdims=True)
    p = np.exp(flat)
    p /= p.sum(1, keepdims=True)
    allowed = set(map(tuple, profile.allowed))
    colour_known = colour_p.sum(1)  # 1 - probability of "none of the enrolled colours"
    out = []
    for i in range(n):
        die_p = float(tops.scores[i]) * float(colour_known[i])  # a die, of an enrolled colour
        if die_p < config.min_confidence:
            continue
        j = int(p[i].argmax())
        c_best = colours[int(best_colour[i])]
        if j < flat.shape[1] - 1 and p[i, j] >= config.face_threshold:
            c, f = colours[j // len(faces)], faces[j % len(faces)]
            conf = float(p[i, j]) * die_p
        else:
            c, f, conf = c_best, None, 0.0
        if f is not None and (c, f) not in allowed:
            f = None  # game knowledge: this colour has no such face, so the read is not trusted
        if f is None:
            conf = min(float(colour_p[i, colours.index(c)]) * float(tops.scores[i]), config.confident_cap)
        obs = RollDieObservation(c, f, rect_box(tops.rects[i]), float(np.clip(conf, 0.0, 1.0)))
        out.append((die_p * (1.0 + float(f is not None)), i, obs))
    # one die per place: two dice cannot have centres closer than about a side, keep the surer one
    out.sort(key=lambda t: -t[0])
    side = np.sqrt(tops.rects[:, 2] * tops.rects[:, 3])
    kept: list[tuple[float, int, RollDieObservation]] = []
    for conf, i, obs in out:
        if all(np.hypot(*(tops.rects[i, :2] - tops.rects[j, :2])) > config.overlap_dist * min(side[i], side[j])
               for _, j, _ in kept):
            kept.append((conf, i, obs))
    return tuple(obs for _, _, obs in kept)


# --------------------------------------------------------------------------------------------
# Reader
# --------------------------------------------------------------------------------------------

def load_cnn(config: RollDiceConfig) -> cv2.dnn.Net | None:
    """The d6 CNN detector when ``config.cnn_candidates``, else None.

    Raises:
        VisionError: the model file is missing or unreadable (the message names it).
    """
    return _d6.load_net(config.cnn_config().detector_path) if config.cnn_candidates else None


def detect_tops(frame: np.ndarray, config: RollDiceConfig, timings: dict | None = None,
                net: cv2.dnn.Net | None = None) -> TopFaces:
    """Stages 2-5 on a validated ``uint8[H, W, 3]`` BGR frame (shared by reading and enrollment);
    ``net`` is the optional CNN candidate source (:func:`load_cnn`)."""
    timings = {} if timings is None else timings
    stage = functools.partial(timed_stage, timings)
    work, mask, scale = stage("foreground", foreground, frame, config)
    cands = stage("candidates", find_candidates, work, mask, scale, config)
    cands = stage("cnn", add_cnn_candidates, frame, cands, net, config)
    tops = stage("tops", extract_tops, frame, cands, config)
    return stage("dedupe", drop_duplicates, tops, config)


class RollDiceReader:
    """Finds Roll for the Galaxy dice in BGR frames and reads colour and face.

    Args:
        profile: an enrollment profile (:func:`vision.profiles.build_profile` / ``DiceProfile.load``).
        config: thresholds; ``RollDiceConfig()`` when None.
        allowed: optional (colour, face) pairs the dice can show (built by the caller from
            ``dice.json``); default: the profile's own ``allowed`` pairs.
    """

    def __init__(self, profile: DiceProfile, config: RollDiceConfig | None = None,
                 allowed: Iterable[tuple[str, str]] | None = None):
        self.config = config if config is not None else RollDiceConfig()
        if allowed is not None:
            profile = profile.with_allowed(allowed)
        self.profile = profile
        if int(profile.template_side) != int(self.config.template):
            raise VisionError(f"dice profile templates are {profile.template_side} px but the reader uses "
                              f"{self.config.template} px: enroll again with this reader's settings")
        self._protos = np.asarray(profile.colour_means, np.float64)
        tpl = np.asarray(profile.templates, np.float32).reshape(len(profile.template_pairs), -1)
        self._templates = rotated_templates(distinctive_templates(tpl, self.config), self.config)
        self._cnn = load_cnn(self.config)
        # ink polarity of each colour (majority of its templates): dark or light symbols
        pol = template_polarity(tpl, self.config)
        colours = list(profile.colours)
        self._colour_polarity = np.array([
            1.0 if sum(p for (c, _), p in zip(profile.template_pairs, pol) if c == name) >= 0 else -1.0
            for name in colours])

    @property
    def prototypes(self) -> np.ndarray:
        """Enrolled body colours ``float[C, 3]`` (log-RGB), in ``profile.colours`` order."""
        return self._protos

    @property
    def turned_templates(self) -> np.ndarray:
        """The templates at their four quarter turns, ``float32[4K, C*T*T]`` (:func:`rotated_templates`)."""
        return self._templates

    @property
    def colour_polarity(self) -> np.ndarray:
        """Ink polarity per colour ``float[C]``: -1 dark symbols, +1 light (from the templates)."""
        return self._colour_polarity

    def detect(self, frame: np.ndarray, timings: dict | None = None) -> TopFaces:
        """Stages 2-5 only (the die detector): top faces of every die candidate in ``frame``
        (``uint8[H, W, 3]`` BGR). Raises :class:`BadFrame` for a bad frame."""
        return detect_tops(validate_frame(frame), self.config, timings, self._cnn)

    def _match(self, frame: np.ndarray, tops: TopFaces, colour_p: np.ndarray) -> tuple[np.ndarray, TopFaces]:
        """(NCC ``[N, K]``, top faces): each die's ink, with the wrong-polarity brightness of its
        likeliest colour taken out (:func:`keep_ink_polarity`), against every template; the
        poorly matching dice looked at again a little around (:func:`relocate_faces`)."""
        pol = self._colour_polarity[colour_p.argmax(1)] if len(colour_p) else np.zeros(0)
        ncc = match_faces(keep_ink_polarity(tops.ink, pol, self.config), self._templates, self.config)
        todo = tops.scores * colour_p.sum(1) >= self.config.min_confidence  # dice that may be reported
        ncc, rects = relocate_faces(frame, tops, ncc, pol, self._templates, self.config, todo)
        return ncc, TopFaces(rects, tops.scores, tops.ink, tops.body)

    def read(self, frame: np.ndarray) -> RollDiceRead:
        """Read every die in ``frame`` (``uint8[H, W, 3]`` BGR).

        Returns a :class:`RollDiceRead` with per-stage timings (validate, foreground, candidates,
        cnn, tops, dedupe, colours, faces, assemble) in ms. Raises :class:`BadFrame` for a bad frame.
        """
        cfg = self.config
        timings: dict[str, float] = {}
        stage = functools.partial(timed_stage, timings)
        frame = stage("validate", validate_frame, frame)
        tops = detect_tops(frame, cfg, timings, self._cnn)
        _, colour_p = stage("colours", calibrate_colours, tops.body, self._protos, cfg)
        ncc, tops = stage("faces", self._match, frame, tops, colour_p)
        dice = stage("assemble", assemble, tops, colour_p, ncc, self.profile, cfg)
        return RollDiceRead(int(frame.shape[1]), int(frame.shape[0]), dice, timings)


# --------------------------------------------------------------------------------------------
# Entry points for the CLI
# --------------------------------------------------------------------------------------------

def read_image_file(path: str | Path) -> np.ndarray:
    """``cv2.imread`` that raises :class:`BadFrame` naming the file when it cannot be decoded."""
    img = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if img is None:
        raise BadFrame(f"cannot read image {path} (missing, not an image, or corrupt)")
    return img


def read_roll_dice(images: Sequence[str | Path], profile_path: str | Path,
                   allowed: Iterable[tuple[str, str]] | None = None,
                   config: RollDiceConfig | None = None) -> list[dict]:
    """Read each image file with the profile at ``profile_path``; one JSON dict per image:
    ``{"image": str, "width", "height", "dice": [{"kind": "roll", "colour", "face", "value": null, "box", "confidence"}]}``.

    Raises :class:`BadFrame` for an unreadable image, :class:`VisionError` for a bad profile.
    """
    from .profiles import DiceProfile

    reader = RollDiceReader(DiceProfile.load(profile_path), config, allowed)
    out = []
    for p in images:
        r = reader.read(read_image_file(p)).to_json()
        out.append({"image": str(p), **r})
    return out


def enroll_roll_dice(folder: str | Path, out_path: str | Path,
                     allowed: Iterable[tuple[str, str]] | None = None) -> Path:
    """Build a profile from ``folder/<colour>-<face>/*.jpg|png`` and save it to ``out_path``
    (``.json`` plus a sibling ``.npz``). Returns the JSON path."""
    from .profiles import build_profile

    return build_profile(folder, allowed=allowed).save(out_path)
