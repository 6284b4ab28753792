#!/usr/bin/env bash
# One length scale per feature beside one σ, and beside scikit-learn's
# Gaussian process with one length scale per feature, on the same files:
# `rkhs fit|classify -method nystrom -centers M -sigma auto -lambdas …`
# (the grid: one σ), the same with -sigma ard (the grid, then the descent
# of the length scales by the leave-one-out gradient), both in the SIMD
# build, and compare/ard_sklearn.py (GaussianProcessRegressor with an ARD
# RBF kernel on the largest subset its time budget allows).
#
#   compare/ard.sh [-quick] JOB...      JOB: beijing, cal, skin (as compare/select.sh)
#
# Environment: M (centres, default 1000), LAMBDAS (default 1e-10:1e-2:25),
# RKHS_ARGS (more flags for both rkhs runs), BUDGET (the Gaussian
# process's seconds, default 600), RKHS_DATA, GOMAXPROCS (default 2;
# OPENBLAS_NUM_THREADS follows it), PYTHON (default /usr/bin/python3),
# GP (no: skip the Gaussian process, for timing the two rkhs runs alone),
# BIN (an rkhs binary to time instead of building the SIMD one).
# Prepared files go to ${TMPDIR:-/tmp}/rkhs-select, shared with select.sh.
# Each run prints its lines and /usr/bin/time's wall and CPU time and peak RSS.
set -euo pipefail
cd "$(dirname "$0")"
quick=
if [[ ${1:-} == -quick ]]; then
  quick=1
  shift
fi
source internal/prepare.sh
m=${M:-$([[ -n $quick ]] && echo 200 || echo 1000)}
lambdas=${LAMBDAS:-1e-10:1e-2:25}
budget=${BUDGET:-$([[ -n $quick ]] && echo 30 || echo 600)}
bin=$tmp/bin
rkhs=${BIN:-$bin/simd}
[[ -n ${BIN:-} ]] || (cd .. && GOEXPERIMENT=simd go build -o "$bin/simd" ./cmd/rkhs)
machine
echo "GOMAXPROCS=$GOMAXPROCS M=$m LAMBDAS=$lambdas BUDGET=$budget${RKHS_ARGS:+ RKHS_ARGS=$RKHS_ARGS}${quick:+ (quick)}"
compare() { # compare TRAIN TEST TARGET fit|classify
  local train=$1 test=$2 target=$3 cmd=$4 cls=
  [[ $cmd == classify ]] && cls=--classify
  for s in auto ard; do
    timed "rkhs -sigma $s" "$rkhs" "$cmd" -train "$train" -test "$test" -target "$target" -drop-missing \
      -method nystrom -centers "$m" -sigma "$s" -lambdas "$lambdas" ${RKHS_ARGS:-}
  done
  [[ ${GP:-} == no ]] || timed "scikit-learn GaussianProcessRegressor, ARD RBF" "$py" ard_sklearn.py run "$train" "$test" --target "$target" $cls --budget "$budget"
}
for job in "$@"; do
  echo "### $job"
  case $job in
  beijing) d=$(prepared beijing); compare "$d/beijing-train.csv" "$d/beijing-test.csv" PM2.5 fit ;;
  skin) d=$(prepared skin); compare "$d/skin-train.csv" "$d/skin-test.csv" label classify ;;
  cal) d=$(prepared cal); compare "$d/cal-train.csv" "$d/cal-test.csv" median_house_value fit ;;
  *) echo "unknown job $job" >&2; exit 2 ;;
  esac
done
