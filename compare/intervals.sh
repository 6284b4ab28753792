#!/usr/bin/env bash
# Prediction intervals measured against the field: package interval's
# jackknife+ and CV+ (K = 10) at the σ and λ rkhs's leave-one-out chooses,
# beside split conformal with a 20 % calibration part at the same pair
# (compare/intervals, a Go program), and beside the same jackknife+ and CV+
# by brute-force refits with scikit-learn, what MAPIE does
# (compare/intervals_sklearn.py, on the rows, centres, folds and pair the
# Go program dumps), on the same files: coverage and mean width (for skin,
# label sets: coverage and mean set size) at 0.8, 0.9 and 0.95, with the
# time and peak memory of each.
#
#   compare/intervals.sh JOB...     JOB: beijing, cal, skin (the files of
#                                   compare/select.sh: Beijing's first 8
#                                   stations the training file, the last 4
#                                   the test file; a seeded fifth of
#                                   cal_housing and skin the test file)
#
# Each job runs once per training size in NS (default "5000:200
# 20000:1000": N:M, a seeded subset of N training rows with M Nyström
# centres; N = 0 for every row), on TEST_ROWS seeded test rows (default
# 2000). scikit-learn runs beside each, and skips a jackknife+ whose n
# refits it estimates (from the first 10) at more than BUDGET seconds
# (default 600), or features and leave-out predictions over SKLEARN_MIB
# MiB (default 4096). PER_FOLD (default yes up to 5000 rows) adds CV+
# with σ and λ re-chosen in each fold, by K selections (the honest
# variant; see compare/intervals). INTERVAL_ARGS adds flags to the Go
# program. Environment as compare/select.sh: RKHS_DATA, GOMAXPROCS
# (default 2; OPENBLAS_NUM_THREADS follows it), PYTHON (default
# /usr/bin/python3); the Go program is built with GOEXPERIMENT=simd unless
# SIMD=no. Prepared files go to ${TMPDIR:-/tmp}/rkhs-select, shared with
# select.sh; the dumps to ${TMPDIR:-/tmp}/rkhs-intervals.
set -euo pipefail
cd "$(dirname "$0")"
quick=
source internal/prepare.sh
ns=${NS:-5000:200 20000:1000}
test_rows=${TEST_ROWS:-2000}
budget=${BUDGET:-600}
out=${TMPDIR:-/tmp}/rkhs-intervals
mkdir -p "$out"
bin=$tmp/bin/intervals
if [[ ${SIMD:-yes} == no ]]; then
  go build -o "$bin" ./intervals
else
  GOEXPERIMENT=simd go build -o "$bin" ./intervals
fi
machine
echo "GOMAXPROCS=$GOMAXPROCS NS=$ns TEST_ROWS=$test_rows BUDGET=$budget SIMD=${SIMD:-yes}${INTERVAL_ARGS:+ INTERVAL_ARGS=$INTERVAL_ARGS}"
measure() { # measure NAME TARGET [-classify]
  local name=$1 target=$2 cls=${3:-} d
  d=$(prepared "$name")
  for nm in $ns; do
    local n=${nm%%:*} m=${nm##*:} pf=
    local dir=$out/$name-$n-$m
    if [[ ${PER_FOLD:-auto} == yes || (${PER_FOLD:-auto} == auto && $n -gt 0 && $n -le 5000) ]]; then
      pf=-per-fold
    fi
    timed "rkhs: $name, n = $n, M = $m" "$bin" -train "$d/$name-train.csv" -test "$d/$name-test.csv" -target "$target" $cls \
      -n "$n" -centers "$m" -test-rows "$test_rows" $pf -dump "$dir" ${INTERVAL_ARGS:-}
    timed "scikit-learn: $name, n = $n, M = $m" "$py" intervals_sklearn.py run "$dir" --budget "$budget" --max-mib "${SKLEARN_MIB:-4096}"
  done
}
for job in "$@"; do
  echo "### $job"
  case $job in
  beijing) measure beijing PM2.5 ;;
  cal) measure cal median_house_value ;;
  skin) measure skin label -classify ;;
  *) echo "unknown job $job" >&2; exit 2 ;;
  esac
done
