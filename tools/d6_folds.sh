#!/usr/bin/env bash
# Cross-validate the d6 reader recipe on the byler photos: train 5 fold models (photos in time order,
# contiguous blocks; fold K held out), two at a time with one thread each, then score each fold model
# on its held-out photos.
#   usage: bash tools/d6_folds.sh [OUT_DIR=/tmp/d6_folds] [extra train_d6.py options...]
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-/tmp/d6_folds}"; shift || true
mkdir -p "$out"
train() { python tools/train_d6.py --folds 5 --fold "$1" --threads 1 --out "$out/fold$1" "${@:2}" > "$out/fold$1.log" 2>&1; }
(train 0 "$@"; train 2 "$@"; train 4 "$@") &
(train 1 "$@"; train 3 "$@") &
wait
python bench/d6_byler.py --folds "$out" --csv "$out/cv.csv" | tee "$out/cv.txt"
