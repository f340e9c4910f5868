#!/usr/bin/env bash
# Train the shipped d6 models and cross-validate the same recipe on the byler photos.
# Fold K: photos in time order split into FOLDS contiguous blocks, block K held out.
# Jobs run one at a time, one thread each, under `nice -n 10` (the machine's cores are shared);
# logs in OUT/*.log.
#   usage: FOLDS=4 bash tools/d6_folds.sh [OUT_DIR=/tmp/d6_cv]
# Results: OUT/all (models trained on all photos; copy its ONNX files into vision/models),
# OUT/folds/foldK, OUT/cv.txt (cross-validated figures from bench/d6_byler.py --folds).
# Environment:
#   CLS_ARGS       classifier options, default the shipped recipe "--cls-epochs 80 --synthetic 600"
#                  (vision/models/d6_models.json); pass other options to compare recipes.
#   DETECTOR=copy  train classifiers only and copy the shipped detector into each fold (about a third of
#                  the training time saved; the shipped detector saw every photo, so the folds' found and
#                  false figures are optimistic; values are counted over the dice found).
#   FOLD_LIST      the folds to train, default all of 0 .. FOLDS-1 (a fold with a classifier is kept).
#   SKIP_ALL=1     train only the folds.
#   PYTHON         the interpreter with PyTorch (default python).
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-/tmp/d6_cv}"
folds="${FOLDS:-4}"
cls_args="${CLS_ARGS:---cls-epochs 80 --synthetic 600}"
py="${PYTHON:-python}"
mkdir -p "$out/folds"
jobs_list=()
[ "${SKIP_ALL:-0}" = 1 ] || jobs_list+=("all")
for k in ${FOLD_LIST:-$(seq 0 $((folds - 1)))}; do
  [ -f "$out/folds/fold$k/d6_classifier.onnx" ] || jobs_list+=("$k")
done
train() {  # train DIR LOG [fold options]
  local dir="$1" log="$2"
  shift 2
  local det=()
  if [ "${DETECTOR:-train}" = copy ]; then
    mkdir -p "$dir"
    cp vision/models/d6_detector.onnx "$dir/"
    det=(--skip-detector)
  fi
  # shellcheck disable=SC2086  # CLS_ARGS is a list of options
  nice -n 10 "$py" tools/train_d6.py --threads 1 "${det[@]}" $cls_args "$@" --out "$dir" > "$log" 2>&1
}
for job in "${jobs_list[@]}"; do
  if [ "$job" = all ]; then train "$out/all" "$out/all.log"
  else train "$out/folds/fold$job" "$out/fold$job.log" --folds "$folds" --fold "$job"
  fi
done
"$py" bench/d6_byler.py --folds "$out/folds" --no-timing --dice-csv "$out/cv_dice.csv" | tee "$out/cv.txt"
