#!/usr/bin/env bash
# Train the shipped d6 models and cross-validate the same recipe on the byler photos.
# Fold K: photos in time order split into FOLDS contiguous blocks, block K held out.
# Jobs run at most two at a time (the machine has 2 cores), one thread each; logs in OUT/*.log.
#   usage: FOLDS=4 bash tools/d6_folds.sh [OUT_DIR=/tmp/d6_cv]
# Results: OUT/all (model trained on all photos; copy its ONNX files into vision/models),
# OUT/folds/foldK, OUT/cv.txt (cross-validated figures from bench/d6_byler.py --folds).
# Set SKIP_ALL=1 to train only the folds.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-/tmp/d6_cv}"
folds="${FOLDS:-4}"
mkdir -p "$out/folds"
jobs_list=()
[ "${SKIP_ALL:-0}" = 1 ] || jobs_list+=("all")
for k in $(seq 0 $((folds - 1))); do [ -f "$out/folds/fold$k/d6_classifier.onnx" ] || jobs_list+=("$k"); done
run() {
  if [ "$1" = all ]; then python tools/train_d6.py --threads 1 --out "$out/all" > "$out/all.log" 2>&1
  else python tools/train_d6.py --folds "$folds" --fold "$1" --threads 1 --out "$out/folds/fold$1" > "$out/fold$1.log" 2>&1
  fi
}
for job in "${jobs_list[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge 2 ]; do wait -n; done
  run "$job" &
done
wait
python bench/d6_byler.py --folds "$out/folds" --csv "$out/cv.csv" | tee "$out/cv.txt"
