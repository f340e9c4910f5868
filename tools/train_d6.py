"""Train the two small CNNs of the d6 reader and export them to ONNX for ``cv2.dnn``.

Dev tool (needs PyTorch: ``pip install torch==2.13.0 onnx``); the reader itself runs on OpenCV + numpy.

Final model, trained on all byler photos, written into the package::

    python tools/train_d6.py --out vision/models

One cross-validation fold (photos in time order, 4 contiguous blocks as ``tools/d6_folds.sh`` uses, block K held
out)::

    python tools/train_d6.py --folds 4 --fold K --out /tmp/d6_folds/foldK

then ``python bench/d6_byler.py --folds /tmp/d6_folds`` scores each fold model on its held-out photos.

Everything is seeded (``--seed``, default 0); at most ``--threads`` (default 2) CPU threads are used.
Outputs in ``--out``: ``d6_detector.onnx``, ``d6_classifier.onnx``, ``d6_models.json`` (source, command,
date, held-out photos of a fold).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import math
import sys
import time
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tools.d6_augment import (
    LabelledImage,
    classifier_samples,
    detector_sample,
    detector_targets,
    fold_of,
    load_folder,
    synthetic_samples,
)
from vision.config import D6Config
from vision.d6 import (
    CLASS_VALUES,
    decode_detections,
    load_net,
    prepare_detector_input,
    run_net,
    to_blob,
)

#: Classifier patch side / labelled die box side at training time (jittered by 0.86-1.22 per patch). The
#: reader cuts at ``D6Config.patch_context`` (1.2 x the detector's box), inside that range.
TRAIN_PATCH_CONTEXT = 1.35
DEFAULT_DATA = ROOT.parent / "shared" / "datasets" / "byler_d6_dice" / "train"


def cbr(cin: int, cout: int, stride: int = 1, dilation: int = 1) -> nn.Sequential:
    """3x3 convolution + batch norm + ReLU."""
    return nn.Sequential(
        nn.Conv2d(
            cin, cout, 3, stride, padding=dilation, dilation=dilation, bias=False
        ),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


class DieDetector(nn.Module):
    """CenterNet-style die detector: input float[N, 3, H, W] in [0, 1] (H, W multiples of 32),
    output float[N, 5, H/4, W/4] = (centre heatmap sigmoid, log w, log h, offset x, offset y)."""

    def __init__(self) -> None:
        super().__init__()
        self.s1 = cbr(3, 16, 2)
        self.s2 = nn.Sequential(cbr(16, 24, 2), cbr(24, 24))
        self.s3 = nn.Sequential(cbr(24, 48, 2), cbr(48, 48))
        self.s4 = nn.Sequential(cbr(48, 64, 2), cbr(64, 64), cbr(64, 64, dilation=2))
        self.s5 = nn.Sequential(cbr(64, 96, 2), cbr(96, 96))
        self.lat4 = nn.Conv2d(64, 96, 1)
        self.up4 = cbr(96, 64)
        self.lat3 = nn.Conv2d(48, 64, 1)
        self.up3 = cbr(64, 48)
        self.lat2 = nn.Conv2d(24, 48, 1)
        self.up2 = cbr(48, 32)
        self.head = nn.Conv2d(32, 5, 1)
        with torch.no_grad():
            self.head.bias.zero_()
            self.head.bias[0] = -2.19
            self.head.bias[1] = self.head.bias[2] = math.log(30.0)
            self.head.bias[3] = self.head.bias[4] = 0.5

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x2 = self.s2(self.s1(x))
        x3 = self.s3(x2)
        x4 = self.s4(x3)
        x5 = self.s5(x4)
        y = self.up4(
            F.interpolate(x5, scale_factor=2.0, mode="nearest") + self.lat4(x4)
        )
        y = self.up3(F.interpolate(y, scale_factor=2.0, mode="nearest") + self.lat3(x3))
        y = self.up2(F.interpolate(y, scale_factor=2.0, mode="nearest") + self.lat2(x2))
        h = self.head(y)
        return torch.cat([torch.sigmoid(h[:, :1]), h[:, 1:]], dim=1)


class FaceClassifier(nn.Module):
    """Top-face classifier: input float[N, 3, 48, 48] in [0, 1], output softmax float[N, 7]
    over (one .. six, no die)."""

    def __init__(self, classes: int = len(CLASS_VALUES), width: float = 1.0) -> None:
        super().__init__()
        a, b, c, d = (max(8, round(n * width)) for n in (24, 32, 64, 96))
        self.features = nn.Sequential(
            cbr(3, a),
            cbr(a, b, 2),
            cbr(b, b),
            cbr(b, c, 2),
            cbr(c, c),
            cbr(c, d, 2),
            cbr(d, d),
            nn.AvgPool2d(2),
        )
        self.drop = nn.Dropout(0.2)
        self.fc = nn.Linear(d * 9, classes)

    def logits(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc(self.drop(torch.flatten(self.features(x), 1)))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.softmax(self.logits(x), dim=1)


def focal_loss(pred: torch.Tensor, gt: torch.Tensor) -> torch.Tensor:
    """CenterNet penalty-reduced focal loss on the heatmap (alpha 2, beta 4), per positive."""
    pred = pred.clamp(1e-4, 1 - 1e-4)
    pos = gt.eq(1).float()
    neg = 1 - pos
    pos_loss = torch.log(pred) * (1 - pred) ** 2 * pos
    neg_loss = torch.log(1 - pred) * pred**2 * (1 - gt) ** 4 * neg
    n = pos.sum().clamp(min=1)
    return -(pos_loss.sum() + neg_loss.sum()) / n


def train_detector(
    items: list[LabelledImage], args: argparse.Namespace, log
) -> DieDetector:
    rng = np.random.default_rng(args.seed + 1)
    model = DieDetector()
    steps = args.det_epochs * args.det_steps
    opt = torch.optim.AdamW(model.parameters(), lr=args.det_lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(
        opt, max_lr=args.det_lr, total_steps=steps, pct_start=0.1
    )
    model.train()
    t0 = time.time()
    for step in range(steps):
        views, heats, regs, masks = [], [], [], []
        for _ in range(args.det_batch):
            item = items[int(rng.integers(len(items)))]
            view, boxes = detector_sample(item, rng, args.crop)
            heat, reg, mask = detector_targets(boxes, args.crop)
            views.append(view)
            heats.append(heat)
            regs.append(reg)
            masks.append(mask)
        x = torch.from_numpy(to_blob(np.stack(views)))
        heat_t = torch.from_numpy(np.stack(heats))
        reg_t = torch.from_numpy(np.stack(regs))
        mask_t = torch.from_numpy(np.stack(masks))[:, None]
        out = model(x)
        l_heat = focal_loss(out[:, :1], heat_t)
        n = mask_t.sum().clamp(min=1)
        l_size = (
            F.l1_loss(out[:, 1:3], reg_t[:, :2], reduction="none") * mask_t
        ).sum() / n
        l_off = (
            F.l1_loss(out[:, 3:5], reg_t[:, 2:], reduction="none") * mask_t
        ).sum() / n
        loss = l_heat + l_size + l_off
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % args.det_steps == 0 or step == steps - 1:
            log(
                f"det step {step}/{steps} loss {loss.item():.3f} (heat {l_heat.item():.3f} size {l_size.item():.3f} "
                f"off {l_off.item():.3f}) {time.time() - t0:.0f}s"
            )
    model.eval()
    return model


def mine_hard_negatives(
    items: list[LabelledImage], detector_path: Path, log
) -> list[np.ndarray]:
    """Run the exported detector through the reader's own stages on each training photo (as is and
    0.6 and 1.6 times the size, low threshold) and return per photo float32[K, 3] (cx, cy, side) of candidates
    that are no labelled die (centre farther than 0.45 of a die side from every labelled centre)."""
    cfg = D6Config(models_dir=detector_path.parent, detection_threshold=0.15)
    net = load_net(detector_path)
    out = []
    total = 0
    for item in items:
        found = []
        centres = (item.boxes[:, :2] + item.boxes[:, 2:]) / 2
        sides = np.maximum(
            item.boxes[:, 2] - item.boxes[:, 0], item.boxes[:, 3] - item.boxes[:, 1]
        )
        for f in (0.6, 1.0, 1.6):
            img = (
                item.image
                if f == 1.0
                else cv2.resize(
                    item.image, None, fx=f, fy=f, interpolation=cv2.INTER_AREA
                )
            )
            c2 = replace(cfg, input_long_side=round(cfg.input_long_side * f / 32) * 32)
            blob, scale = prepare_detector_input(img, c2)
            cand = decode_detections(run_net(net, blob), scale, img.shape, c2)
            for x, y, w, h in cand.boxes / f:
                cx, cy = x + w / 2, y + h / 2
                if (
                    len(centres)
                    and (np.hypot(centres[:, 0] - cx, centres[:, 1] - cy) / sides).min()
                    < 0.45
                ):
                    continue
                found.append((cx, cy, max(w, h)))
        total += len(found)
        out.append(np.asarray(found, np.float32).reshape(-1, 3))
    log(f"mined {total} hard negatives on {len(items)} photos")
    return out


def train_classifier(
    items: list[LabelledImage],
    args: argparse.Namespace,
    log,
    hard: list[np.ndarray] | None = None,
) -> FaceClassifier:
    rng = np.random.default_rng(args.seed + 2)
    cfg = D6Config(patch_context=args.patch_context)
    model = FaceClassifier(width=args.cls_width)
    per_epoch = (
        sum(len(it.boxes) for it in items) * 1.85
        + args.synthetic
        + sum(min(len(h), 4) for h in hard or [])
    )
    steps_per_epoch = math.ceil(per_epoch / args.cls_batch)
    steps = args.cls_epochs * steps_per_epoch
    opt = torch.optim.AdamW(model.parameters(), lr=args.cls_lr, weight_decay=5e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(
        opt, max_lr=args.cls_lr, total_steps=steps, pct_start=0.1
    )
    t0 = time.time()
    step = 0
    for epoch in range(args.cls_epochs):
        model.train()
        samples = []
        for idx in rng.permutation(len(items)):
            samples.extend(
                classifier_samples(
                    items[idx], rng, cfg, hard_negatives=hard[idx] if hard else None
                )
            )
        samples.extend(synthetic_samples(args.synthetic, rng, cfg))
        order = rng.permutation(len(samples))
        correct = total = 0
        for b in range(steps_per_epoch):
            sel = order[b * args.cls_batch : (b + 1) * args.cls_batch]
            if len(sel) == 0:
                sel = order[: args.cls_batch]
            x = torch.from_numpy(to_blob(np.stack([samples[i][0] for i in sel])))
            y = torch.from_numpy(np.array([samples[i][1] for i in sel], np.int64))
            logits = model.logits(x)
            loss = F.cross_entropy(logits, y, label_smoothing=0.05)
            opt.zero_grad()
            loss.backward()
            opt.step()
            if step < steps - 1:
                sched.step()
            step += 1
            correct += int((logits.argmax(1) == y).sum())
            total += len(sel)
        log(
            f"cls epoch {epoch}/{args.cls_epochs} loss {loss.item():.3f} train acc {correct / total:.3f} "
            f"({len(samples)} patches) {time.time() - t0:.0f}s"
        )
    model.eval()
    return model


def export(model: nn.Module, example: torch.Tensor, path: Path, dynamic: dict) -> None:
    """Export to ONNX (legacy TorchScript exporter, opset 13) and check OpenCV reads it."""
    torch.onnx.export(
        model,
        example,
        str(path),
        input_names=["input"],
        output_names=["output"],
        dynamic_axes={"input": dynamic, "output": {0: "n"}},
        opset_version=13,
        dynamo=False,
    )
    net = cv2.dnn.readNetFromONNX(str(path))
    net.setInput(example.numpy())
    got = net.forward()
    with torch.no_grad():
        want = model(example).numpy()
    err = float(np.abs(got - want).max())
    if err > 1e-3:
        raise SystemExit(f"ONNX check failed for {path}: max abs diff {err}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument(
        "--data",
        type=Path,
        default=DEFAULT_DATA,
        help="YOLO folder (images/ + labels/)",
    )
    ap.add_argument(
        "--out", type=Path, required=True, help="output folder for the ONNX files"
    )
    ap.add_argument(
        "--folds",
        type=int,
        default=0,
        help="number of cross-validation folds (0 = train on all)",
    )
    ap.add_argument(
        "--fold", type=int, default=0, help="held-out fold index when --folds > 0"
    )
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument(
        "--crop", type=int, default=256, help="detector training view size (px)"
    )
    ap.add_argument("--det-epochs", type=int, default=30)
    ap.add_argument(
        "--det-steps", type=int, default=25, help="detector steps per epoch"
    )
    ap.add_argument("--det-batch", type=int, default=16)
    ap.add_argument("--det-lr", type=float, default=4e-3)
    ap.add_argument("--cls-epochs", type=int, default=35)
    ap.add_argument("--cls-batch", type=int, default=128)
    ap.add_argument("--cls-lr", type=float, default=3e-3)
    ap.add_argument(
        "--cls-width",
        type=float,
        default=1.0,
        help="classifier channel-width multiplier (1 = 24/32/64/96 channels)",
    )
    ap.add_argument(
        "--patch-context",
        type=float,
        default=TRAIN_PATCH_CONTEXT,
        help="classifier patch side / labelled die box side, before the random jitter of 0.86-1.22 "
        "(the reader's D6Config.patch_context must lie in that range)",
    )
    ap.add_argument(
        "--synthetic",
        type=int,
        default=300,
        help="rendered dice patches per classifier epoch",
    )
    ap.add_argument(
        "--no-mine",
        dest="mine",
        action="store_false",
        help="do not add the detector's false candidates on the training photos as 'no die' patches",
    )
    ap.add_argument(
        "--skip-detector",
        action="store_true",
        help="train only the classifier (keeps the detector already in --out)",
    )
    args = ap.parse_args(argv)

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    cv2.setNumThreads(1)
    cv2.setRNGSeed(args.seed)
    args.out.mkdir(parents=True, exist_ok=True)
    log_path = args.out / "train.log"

    def log(msg: str) -> None:
        line = f"{dt.datetime.now(dt.UTC):%H:%M:%S} {msg}"
        print(line, flush=True)
        with log_path.open("a") as fh:
            fh.write(line + "\n")

    items = load_folder(args.data)
    held_out: list[str] = []
    if args.folds:
        held_out = [
            it.name
            for i, it in enumerate(items)
            if fold_of(i, len(items), args.folds) == args.fold
        ]
        items = [
            it
            for i, it in enumerate(items)
            if fold_of(i, len(items), args.folds) != args.fold
        ]
    log(
        f"training on {len(items)} photos, {sum(len(it.boxes) for it in items)} dice; held out {len(held_out)}"
    )

    if not args.skip_detector:
        det = train_detector(items, args, log)
        export(
            det,
            torch.rand(1, 3, 256, 320),
            args.out / "d6_detector.onnx",
            {0: "n", 2: "h", 3: "w"},
        )
    hard = (
        mine_hard_negatives(items, args.out / "d6_detector.onnx", log)
        if args.mine
        else None
    )
    cls = train_classifier(items, args, log, hard)
    export(cls, torch.rand(4, 3, 48, 48), args.out / "d6_classifier.onnx", {0: "n"})

    meta = {
        "models": ["d6_detector.onnx", "d6_classifier.onnx"],
        "data": f"byler_d6_dice/train ({len(items)} photos used; github.com/nell-byler/dice_detection "
        "commit aa69c12b, BSD-3-Clause, Copyright (c) 2019 Nell Byler)",
        "licence_of_data": "BSD-3-Clause",
        "command": "python tools/train_d6.py "
        + " ".join(argv if argv is not None else sys.argv[1:]),
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d"),
        "seed": args.seed,
        "torch": torch.__version__,
        "folds": args.folds,
        "fold": args.fold if args.folds else None,
        "held_out": held_out,
        "classes": ["one", "two", "three", "four", "five", "six", "no die"],
    }
    (args.out / "d6_models.json").write_text(json.dumps(meta, indent=2) + "\n")
    log("done")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
