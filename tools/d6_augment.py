"""Training data for the d6 reader: YOLO label loading, folds, augmentation, detector and classifier samples.

Dev tool used by ``tools/train_d6.py`` (never imported by ``vision``). Every random choice takes a
``numpy.random.Generator`` so runs are reproducible from one seed. Patches are cut with
``vision.d6.extract_patch`` -- the same code the reader uses at run time.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.config import D6Config
from vision.d6 import DETECTOR_STRIDE, NO_DIE, extract_patch, patch_side

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp")
#: Strength of the photometric changes on classifier patches (pips must stay countable).
CLASSIFIER_PHOTOMETRIC = 0.6


@dataclass
class LabelledImage:
    """One photo: ``image`` uint8[H, W, 3] BGR, ``boxes`` float32[N, 4] x0, y0, x1, y1 px, ``values`` int[N] 1..6."""

    name: str
    image: np.ndarray
    boxes: np.ndarray
    values: np.ndarray


def find_yolo_pairs(folder: Path) -> list[tuple[Path, Path]]:
    """(image, label) paths of a YOLO folder: ``images/`` + ``labels/``, or both side by side, sorted by name."""
    folder = Path(folder)
    img_dir = folder / "images" if (folder / "images").is_dir() else folder
    lab_dir = folder / "labels" if (folder / "labels").is_dir() else folder
    pairs = []
    for p in sorted(img_dir.iterdir()):
        if p.suffix.lower() in IMAGE_SUFFIXES:
            pairs.append((p, lab_dir / (p.stem + ".txt")))
    return pairs


def read_yolo_labels(
    path: Path, width: int, height: int
) -> tuple[np.ndarray, np.ndarray]:
    """YOLO ``class cx cy w h`` (normalised, class 0 = one) -> (boxes float32[N, 4] x0 y0 x1 y1 px, values int[N])."""
    rows = []
    if path.is_file():
        for line in path.read_text().splitlines():
            parts = line.split()
            if len(parts) >= 5:
                rows.append([float(v) for v in parts[:5]])
    if not rows:
        return np.zeros((0, 4), np.float32), np.zeros((0,), np.int64)
    a = np.asarray(rows, np.float64)
    cx, cy, w, h = a[:, 1] * width, a[:, 2] * height, a[:, 3] * width, a[:, 4] * height
    boxes = np.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], 1).astype(
        np.float32
    )
    return boxes, a[:, 0].astype(np.int64) + 1


def load_folder(folder: Path) -> list[LabelledImage]:
    """Load every labelled photo of a YOLO folder."""
    out = []
    for img_path, lab_path in find_yolo_pairs(folder):
        image = cv2.imread(str(img_path), cv2.IMREAD_COLOR)
        boxes, values = read_yolo_labels(lab_path, image.shape[1], image.shape[0])
        out.append(LabelledImage(img_path.name, image, boxes, values))
    return out


def fold_of(index: int, count: int, folds: int) -> int:
    """Fold of the ``index``-th photo (sorted by name = time order): contiguous blocks, so a held-out
    fold holds whole shooting sessions rather than near-duplicate neighbours of training photos."""
    return index * folds // count


# ---------------------------------------------------------------- photometric augmentation


def photometric(
    img: np.ndarray, rng: np.random.Generator, strength: float = 1.0
) -> np.ndarray:
    """Random colour / white balance / exposure / blur / noise / JPEG changes of a uint8 BGR image.

    ``strength`` (0..1) scales the destructive parts (white balance, brightness, blur, noise, JPEG)."""
    out = img.astype(np.float32)
    if rng.random() < 0.5:  # hue rotation and saturation change
        hsv = cv2.cvtColor(
            np.clip(out, 0, 255).astype(np.uint8), cv2.COLOR_BGR2HSV
        ).astype(np.float32)
        hsv[..., 0] = (hsv[..., 0] + rng.uniform(0, 180)) % 180
        hsv[..., 1] = np.clip(hsv[..., 1] * rng.uniform(0.4, 1.5), 0, 255)
        out = cv2.cvtColor(hsv.astype(np.uint8), cv2.COLOR_HSV2BGR).astype(np.float32)
    if rng.random() < 0.2:  # channel shuffle
        out = out[..., rng.permutation(3)]
    if rng.random() < 0.1:  # grey
        g = out.mean(axis=2, keepdims=True)
        out = np.repeat(g, 3, axis=2)
    gain = rng.uniform(0.8, 1.2, size=3).astype(np.float32) ** strength  # white balance
    out = out * (gain * np.float32(rng.uniform(0.6, 1.4))) + np.float32(
        rng.uniform(-40, 40) * strength
    )
    np.clip(out, 0, 255, out=out)
    if rng.random() < 0.3:  # gamma
        out = np.float32(255.0) * (out * np.float32(1 / 255.0)) ** np.float32(
            rng.uniform(0.6, 1.6)
        )
    if rng.random() < 0.3:  # illumination gradient (lamp at one side)
        h, w = out.shape[:2]
        gx, gy = rng.uniform(-1, 1, 2)
        xs = (np.arange(w, dtype=np.float32) / w - 0.5) * np.float32(0.35 * gx)
        ys = (np.arange(h, dtype=np.float32) / h - 0.5) * np.float32(0.35 * gy)
        out = out * (1.0 + ys[:, None] + xs[None, :])[..., None]
    out = np.clip(out, 0, 255).astype(np.uint8)
    r = rng.random()
    if r < 0.25:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.4, 0.4 + 1.2 * strength))
    elif r < 0.35:  # motion blur
        k = int(rng.integers(3, 8))
        kern = np.zeros((k, k), np.float32)
        kern[k // 2, :] = 1.0 / k
        kern = cv2.warpAffine(
            kern,
            cv2.getRotationMatrix2D(
                ((k - 1) / 2, (k - 1) / 2), rng.uniform(0, 180), 1.0
            ),
            (k, k),
        )
        kern /= max(kern.sum(), 1e-6)
        out = cv2.filter2D(out, -1, kern)
    if rng.random() < 0.4:
        noise = rng.standard_normal(out.shape, dtype=np.float32) * np.float32(
            rng.uniform(2, 2 + 10 * strength)
        )
        out = np.clip(out.astype(np.float32) + noise, 0, 255).astype(np.uint8)
    if rng.random() < 0.5:
        _ok, enc = cv2.imencode(
            ".jpg",
            out,
            [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(int(95 - 65 * strength), 96))],
        )
        out = cv2.imdecode(enc, cv2.IMREAD_COLOR)
    return out


def synthetic_background(h: int, w: int, rng: np.random.Generator) -> np.ndarray:
    """A random table surface uint8[h, w, 3]: flat colour + smooth blotches, or wood-like stripes."""
    base = rng.uniform(0, 255, 3).astype(np.float32)
    kind = rng.integers(0, 3)
    if kind == 0:  # smooth blotches
        small = rng.standard_normal(
            (max(2, h // 32), max(2, w // 32), 3), dtype=np.float32
        )
        tex = cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC) * rng.uniform(
            5, 40
        )
    elif kind == 1:  # wood grain: stretched noise along a random direction
        small = rng.standard_normal((max(2, h // 4), max(2, w // 64)), dtype=np.float32)
        tex = cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)
        if rng.random() < 0.5:
            tex = tex.T.copy() if h == w else cv2.resize(tex.T.copy(), (w, h))
        tex = (tex * rng.uniform(8, 30))[..., None] * rng.uniform(0.5, 1.0, 3).astype(
            np.float32
        )
    else:  # cloth: fine noise
        tex = rng.standard_normal((h, w, 3), dtype=np.float32) * np.float32(
            rng.uniform(3, 15)
        )
        tex = cv2.GaussianBlur(tex, (0, 0), 0.8)
    return np.clip(tex + base, 0, 255).astype(np.uint8)


def paste_boxes(
    image: np.ndarray, boxes: np.ndarray, background: np.ndarray
) -> np.ndarray:
    """Copy the dice of ``image`` (boxes float[N, 4] cx, cy, w, h, plus a thin soft-edged margin)
    onto ``background`` of the same size."""
    h, w = image.shape[:2]
    mask = np.zeros((h, w), np.float32)
    for cx, cy, bw, bh in boxes:
        r = 0.62 * max(bw, bh)
        cv2.rectangle(
            mask, (int(cx - r), int(cy - r)), (int(cx + r), int(cy + r)), 1.0, -1
        )
    mask = cv2.GaussianBlur(mask, (0, 0), 2.0)[..., None]
    bgf = background.astype(np.float32)
    return (bgf + (image.astype(np.float32) - bgf) * mask).astype(np.uint8)


def paste_on_background(item: LabelledImage, rng: np.random.Generator) -> np.ndarray:
    """The photo's dice copied onto a synthetic table of the photo's size."""
    h, w = item.image.shape[:2]
    centres = (item.boxes[:, :2] + item.boxes[:, 2:]) / 2
    boxes = np.concatenate([centres, item.boxes[:, 2:] - item.boxes[:, :2]], axis=1)
    return paste_boxes(item.image, boxes, synthetic_background(h, w, rng))


# ---------------------------------------------------------------- detector samples


def detector_sample(
    item: LabelledImage, rng: np.random.Generator, crop: int
) -> tuple[np.ndarray, np.ndarray]:
    """A random ``crop`` x ``crop`` training view of one photo and its die boxes (float32[N, 4] cx, cy, w, h).

    Scale (dice 12..96 px), 90-degree turns + small rotation, flips, translation, synthetic table
    background (25 %), then photometric changes.
    """
    src = item.image
    h, w = src.shape[:2]
    sides = (
        np.maximum(
            item.boxes[:, 2] - item.boxes[:, 0], item.boxes[:, 3] - item.boxes[:, 1]
        )
        if len(item.boxes)
        else np.array([40.0])
    )
    target = math.exp(rng.uniform(math.log(12), math.log(96)))
    s = target / float(np.median(sides))
    quarter = int(rng.integers(0, 4))
    angle = 90.0 * quarter + rng.uniform(-12, 12)
    if len(item.boxes) and rng.random() < 0.75:
        j = int(rng.integers(len(item.boxes)))
        c = (item.boxes[j, :2] + item.boxes[j, 2:]) / 2 + rng.uniform(
            -0.35, 0.35, 2
        ) * crop / s
    else:
        c = np.array([rng.uniform(0, w), rng.uniform(0, h)])
    m = cv2.getRotationMatrix2D((float(c[0]), float(c[1])), angle, s)
    if rng.random() < 0.5:  # mirror
        m = np.array([[-1.0, 0, 0], [0, 1.0, 0]]) @ np.vstack([m, [0, 0, 1]])
    mc = m[:, :2] @ c + m[:, 2]  # translate so that c lands on the crop centre
    m[:, 2] += np.array([crop / 2.0, crop / 2.0]) - mc
    fill = tuple(int(v) for v in rng.uniform(0, 255, 3))
    view = cv2.warpAffine(
        src,
        m,
        (crop, crop),
        flags=cv2.INTER_LINEAR if s > 0.6 else cv2.INTER_AREA,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=fill,
    )
    if len(item.boxes):
        centres = (item.boxes[:, :2] + item.boxes[:, 2:]) / 2
        cc = centres @ m[:, :2].T + m[:, 2]
        bw = (item.boxes[:, 2] - item.boxes[:, 0]) * s
        bh = (item.boxes[:, 3] - item.boxes[:, 1]) * s
        if quarter % 2 == 1:
            bw, bh = bh, bw
        boxes = np.stack([cc[:, 0], cc[:, 1], bw, bh], 1).astype(np.float32)
    else:
        boxes = np.zeros((0, 4), np.float32)
    if len(boxes) and rng.random() < 0.25:  # the dice on a synthetic table
        view = paste_boxes(view, boxes, synthetic_background(crop, crop, rng))
    return photometric(view, rng), boxes


def detector_targets(
    boxes: np.ndarray, crop: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """CenterNet targets for one view: heat float32[1, S, S] (Gaussian per centre), reg float32[4, S, S]
    (log w, log h, offset x, offset y at the centre cell) and mask float32[S, S] (1 at centre cells)."""
    size = crop // DETECTOR_STRIDE
    heat = np.zeros((size, size), np.float32)
    reg = np.zeros((4, size, size), np.float32)
    mask = np.zeros((size, size), np.float32)
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32)
    for cx, cy, bw, bh in boxes:
        gx, gy = cx / DETECTOR_STRIDE, cy / DETECTOR_STRIDE
        ix, iy = math.floor(gx), math.floor(gy)
        if not (0 <= ix < size and 0 <= iy < size):
            continue
        sigma = max(0.6, 0.12 * max(bw, bh) / DETECTOR_STRIDE)
        g = np.exp(-((xx - ix) ** 2 + (yy - iy) ** 2) / (2 * sigma * sigma))
        np.maximum(heat, g, out=heat)
        reg[:, iy, ix] = (
            math.log(max(bw, 1.0)),
            math.log(max(bh, 1.0)),
            gx - ix,
            gy - iy,
        )
        mask[iy, ix] = 1.0
    return heat[None], reg, mask


# ---------------------------------------------------------------- classifier samples


def degrade_resolution(patch: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Simulate a small die in the frame: shrink the patch and enlarge it back."""
    p = patch.shape[0]
    r = round(p * rng.uniform(0.5, 0.9))
    small = cv2.resize(patch, (r, r), interpolation=cv2.INTER_AREA)
    return cv2.resize(small, (p, p), interpolation=cv2.INTER_LINEAR)


def classifier_samples(
    item: LabelledImage,
    rng: np.random.Generator,
    cfg: D6Config,
    negatives_per_die: float = 0.6,
    hard_negatives: np.ndarray | None = None,
    max_hard: int = 4,
) -> list[tuple[np.ndarray, int]]:
    """Patches of one photo: each die (jittered centre, side, any angle, flips) labelled 0..5 (value - 1),
    plus "no die" patches (class 6): empty table, off-centre views between dice, single pips / pip
    groups inside a die, and up to ``max_hard`` of ``hard_negatives`` (float[K, 3] cx, cy, side: the
    detector's false candidates on this photo)."""
    out: list[tuple[np.ndarray, int]] = []
    src = (
        paste_on_background(item, rng)
        if (rng.random() < 0.2 and len(item.boxes))
        else item.image
    )
    h, w = src.shape[:2]
    p = cfg.patch_size
    centres = (
        (item.boxes[:, :2] + item.boxes[:, 2:]) / 2
        if len(item.boxes)
        else np.zeros((0, 2))
    )
    sides = (
        np.maximum(
            item.boxes[:, 2] - item.boxes[:, 0], item.boxes[:, 3] - item.boxes[:, 1]
        )
        if len(item.boxes)
        else np.array([40.0])
    )

    def finish(patch: np.ndarray) -> np.ndarray:
        if rng.random() < 0.5:
            patch = patch[:, ::-1]
        if rng.random() < 0.25:
            patch = degrade_resolution(patch, rng)
        return photometric(np.ascontiguousarray(patch), rng, CLASSIFIER_PHOTOMETRIC)

    for (x0, y0, x1, y1), v in zip(item.boxes, item.values, strict=True):
        bw, bh = x1 - x0, y1 - y0
        side = max(bw, bh)
        cx = (x0 + x1) / 2 + rng.uniform(-0.12, 0.12) * side
        cy = (y0 + y1) / 2 + rng.uniform(-0.12, 0.12) * side
        k = math.exp(rng.uniform(-0.15, 0.2))
        patch = extract_patch(
            src, cx, cy, patch_side(bw * k, bh * k, cfg), p, rng.uniform(0, 360)
        )
        out.append((finish(patch), int(v) - 1))
    n_neg = round(negatives_per_die * max(len(item.boxes), 2))
    for _ in range(n_neg):
        side = float(rng.choice(sides)) * math.exp(rng.uniform(-0.3, 0.3))
        if (
            len(centres) and rng.random() < 0.5
        ):  # off-centre view of a die / between dice
            j = int(rng.integers(len(centres)))
            a = rng.uniform(0, 2 * math.pi)
            d = rng.uniform(0.6, 1.1) * sides[j]
            cx, cy = centres[j, 0] + d * math.cos(a), centres[j, 1] + d * math.sin(a)
        else:
            cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        if len(centres):
            dist = np.hypot(centres[:, 0] - cx, centres[:, 1] - cy) / sides
            if dist.min() < 0.45:
                continue
        patch = extract_patch(
            src, cx, cy, side * cfg.patch_context, p, rng.uniform(0, 360)
        )
        out.append((finish(patch), NO_DIE))
    for j in range(len(centres)):  # a pip or pip group seen as a small die
        if rng.random() < 0.25:
            side = sides[j] * rng.uniform(0.15, 0.45)
            cx, cy = centres[j] + rng.uniform(-0.35, 0.35, 2) * sides[j]
            patch = extract_patch(
                src, cx, cy, side * cfg.patch_context, p, rng.uniform(0, 360)
            )
            out.append((finish(patch), NO_DIE))
    if hard_negatives is not None and len(hard_negatives):
        pick = rng.permutation(len(hard_negatives))[:max_hard]
        for cx, cy, side in hard_negatives[pick]:
            j = rng.uniform(-0.1, 0.1, 2) * side
            k = math.exp(rng.uniform(-0.15, 0.15))
            patch = extract_patch(
                src,
                cx + j[0],
                cy + j[1],
                side * k * cfg.patch_context,
                p,
                rng.uniform(0, 360),
            )
            out.append((finish(patch), NO_DIE))
    return out


# ---------------------------------------------------------------- synthetic dice

PIP_LAYOUTS = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)],
}


def draw_side_pips(img: np.ndarray, square: np.ndarray, shift: np.ndarray, value: int, side: float,
                   rng: np.random.Generator, poly, colour: np.ndarray) -> None:
    """Pips on each visible side face of a die whose top ``square`` (float[4, 2], before ``poly``'s
    rotation) is extruded by ``shift``: each face is the parallelogram between one top edge and the same
    edge moved by ``shift``, visible when ``shift`` points out of that edge. A side face shows a value
    adjacent to the top ``value`` (never the same or the opposite, 7 - value)."""
    centre = square.mean(axis=0)
    choices = [v for v in range(1, 7) if v not in (value, 7 - value)]
    spacing = rng.uniform(0.24, 0.3)
    radius = rng.uniform(0.07, 0.115)
    for a in range(4):
        pa, pb = square[a], square[(a + 1) % 4]
        mid = (pa + pb) / 2
        out = mid - centre
        depth = float(np.dot(shift, out / np.linalg.norm(out)))  # visible depth of that face, px
        if depth < 0.08 * side:
            continue
        shown = int(rng.choice(choices))
        along = (pb - pa) / side  # unit vector along the edge
        for gx, gy in PIP_LAYOUTS[shown]:
            u = 0.5 + gx * spacing
            v = 0.5 + gy * spacing
            ctr = pa + along * (u * side) + shift * v
            # a circle on the face, squashed along the extrusion: an ellipse of 16 points
            t = np.linspace(0, 2 * np.pi, 16, endpoint=False)
            pts = (ctr + np.outer(np.cos(t), along) * radius * side
                   + np.outer(np.sin(t), shift) * radius * side / max(np.linalg.norm(shift), 1e-6) * (depth / side))
            cv2.fillConvexPoly(img, poly(pts), tuple(float(c) for c in colour), cv2.LINE_AA)


def render_die(
    value: int, rng: np.random.Generator, canvas: int = 112
) -> tuple[np.ndarray, float]:
    """Draw a synthetic die showing ``value`` centred on a random table, at 3x and downsampled.

    Random face and pip colours (dark-on-light, light-on-dark or coloured), pip size and spacing,
    rounded corners, a visible side face (tilt), marbling, shading. Returns (uint8[canvas, canvas, 3],
    face side in pixels).
    """
    k = 3
    big = canvas * k
    img = synthetic_background(big, big, rng)
    side = rng.uniform(0.28, 0.42) * big
    c = big / 2.0
    face = rng.uniform(0, 255, 3)
    if rng.random() < 0.5:  # dark pips on light face or light pips on dark face
        light, dark = rng.uniform(170, 255, 3), rng.uniform(0, 80, 3)
        face, pip = (light, dark) if rng.random() < 0.5 else (dark, light)
    else:
        pip = np.where(
            face > 127, face - rng.uniform(90, 200), face + rng.uniform(90, 200)
        ).clip(0, 255)
    angle = rng.uniform(0, 90)
    rot = cv2.getRotationMatrix2D((c, c), angle, 1.0)

    def poly(points: np.ndarray) -> np.ndarray:
        return (points @ rot[:, :2].T + rot[:, 2]).astype(np.int32)

    half = side / 2
    square = np.array(
        [
            [c - half, c - half],
            [c + half, c - half],
            [c + half, c + half],
            [c - half, c + half],
        ]
    )
    # side faces: the body of the die extruded toward a random direction (camera not straight above);
    # real side faces show their own pips, foreshortened, which must not change the value read
    shift = rng.uniform(-0.32, 0.32, 2) * side
    body = np.vstack([square, square + shift])
    hull = cv2.convexHull(poly(body).astype(np.float32)).astype(np.int32)
    side_shade = rng.uniform(0.45, 0.8)
    cv2.fillConvexPoly(
        img, hull, tuple(float(v) for v in face * side_shade), cv2.LINE_AA
    )
    if rng.random() < 0.7:
        draw_side_pips(img, square, shift, value, side, rng, poly, pip * side_shade + face * (1 - side_shade) * 0.3)
    cv2.fillConvexPoly(img, poly(square), tuple(float(v) for v in face), cv2.LINE_AA)
    if rng.random() < 0.3:  # marbling inside the face
        tex = synthetic_background(big, big, rng).astype(np.float32) - 128
        mask = np.zeros((big, big), np.uint8)
        cv2.fillConvexPoly(mask, poly(square), 255)
        img = np.where(
            mask[..., None] > 0, np.clip(img + 0.5 * tex, 0, 255), img
        ).astype(np.uint8)
    spacing = rng.uniform(0.24, 0.3) * side
    radius = rng.uniform(0.07, 0.115) * side
    for gx, gy in PIP_LAYOUTS[value]:
        centre = poly(np.array([[c + gx * spacing, c + gy * spacing]]))[0]
        cv2.circle(
            img,
            (int(centre[0]), int(centre[1])),
            int(radius),
            tuple(float(v) for v in pip),
            -1,
            cv2.LINE_AA,
        )
    if rng.random() < 0.5:  # soft light from one side
        yy, xx = np.mgrid[0:big, 0:big].astype(np.float32) / big - 0.5
        gx, gy = rng.uniform(-1, 1, 2)
        img = np.clip(img * (1 + 0.3 * (gx * xx + gy * yy))[..., None], 0, 255).astype(
            np.uint8
        )
    img = cv2.resize(img, (canvas, canvas), interpolation=cv2.INTER_AREA)
    face_px = (
        side
        / k
        * (abs(math.cos(math.radians(angle))) + abs(math.sin(math.radians(angle))))
    )
    return img, face_px


def synthetic_samples(
    count: int, rng: np.random.Generator, cfg: D6Config
) -> list[tuple[np.ndarray, int]]:
    """``count`` classifier patches of rendered dice (classes 0..5), cut like real ones."""
    out = []
    for _ in range(count):
        value = int(rng.integers(1, 7))
        img, side = render_die(value, rng)
        c = img.shape[0] / 2 + rng.uniform(-0.1, 0.1, 2) * side
        patch = extract_patch(
            img,
            c[0],
            c[1],
            side * cfg.patch_context * math.exp(rng.uniform(-0.1, 0.15)),
            cfg.patch_size,
            rng.uniform(0, 360),
        )
        if rng.random() < 0.25:
            patch = degrade_resolution(patch, rng)
        out.append((photometric(patch, rng, CLASSIFIER_PHOTOMETRIC), value - 1))
    return out
