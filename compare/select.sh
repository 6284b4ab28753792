#!/usr/bin/env bash
# Choosing σ and λ at scale, rkhs beside scikit-learn: `rkhs fit|classify
# -method nystrom -centers M -sigma auto -lambdas …` in the default and the
# SIMD build, and scikit-learn's pipeline (compare/select_sklearn.py:
# StandardScaler, the median heuristic × {1/4, 1/2, 1, 2, 4},
# Nystroem(M) + RidgeCV or RidgeClassifierCV over the same λ grid as
# α = nλ, the best leave-one-out score wins), on the same files.
#
#   compare/select.sh [-quick] JOB...
#
#   mapcheck                 α = nλ checked against the rkhs binary (seconds)
#   beijing                  12 stations: train on the first 8 by name, test on the last 4
#   skin                     Skin_NonSkin, a seeded fifth the test set; classification
#   cal                      cal_housing, a seeded fifth the test set
#   csv:TRAIN,TEST,TARGET[,classify]
#                            any CSV pair with a header (the synthetic n = 10⁶ files, say)
#
# -quick prepares small sets (beijing from 2 stations; at most 10,000
# training and 5,000 test rows) and uses M = 200, to try the script.
# Environment: M (centres, default 1000), LAMBDAS (the λ grid MIN:MAX:COUNT,
# default 1e-10:1e-2:25, three values a decade), RKHS_ARGS (more flags for
# both rkhs runs, e.g. "-loo-rows 20000"), RKHS_DATA (default
# ../shared/data/large beside the repository's root), GOMAXPROCS (default
# 2; OPENBLAS_NUM_THREADS follows it), PYTHON (default /usr/bin/python3).
# The prepared files go to ${TMPDIR:-/tmp}/rkhs-select.
#
# Each run prints its own lines (rkhs: the progress lines, the σ × λ table,
# the choice, the test error and the fit time; scikit-learn: each σ's best
# α and leave-one-out score, the choice, the test error) and /usr/bin/time's
# wall and CPU time and maximum resident size. Run it on an otherwise idle machine,
# one job at a time. To see how scikit-learn fails at n = 10⁶, set
# SKLEARN_VMEM_KIB: its run alone gets that address space (ulimit -v), so
# that numpy raises MemoryError, which select_sklearn.py reports with the
# stage and the time and exits 3; a cgroup cap (systemd-run -p
# MemoryMax=…) kills it instead (exit status 137, SIGKILL).
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
bin=$tmp/bin
(cd .. && go build -o "$bin/default" ./cmd/rkhs && GOEXPERIMENT=simd go build -o "$bin/simd" ./cmd/rkhs)
machine
echo "GOMAXPROCS=$GOMAXPROCS OPENBLAS_NUM_THREADS=$OPENBLAS_NUM_THREADS M=$m LAMBDAS=$lambdas${RKHS_ARGS:+ RKHS_ARGS=$RKHS_ARGS}${quick:+ (quick)}"
compare() { # compare TRAIN TEST TARGET fit|classify
  local train=$1 test=$2 target=$3 cmd=$4 cls=
  [[ $cmd == classify ]] && cls=--classify
  for b in default simd; do
    timed "rkhs $b build" "$bin/$b" "$cmd" -train "$train" -test "$test" -target "$target" -drop-missing \
      -method nystrom -centers "$m" -sigma auto -lambdas "$lambdas" ${RKHS_ARGS:-}
  done
  local cap=()
  [[ -n ${SKLEARN_VMEM_KIB:-} ]] && cap=(bash -c 'ulimit -v "$0" && exec "$@"' "$SKLEARN_VMEM_KIB")
  timed "scikit-learn${SKLEARN_VMEM_KIB:+ (address space capped at $SKLEARN_VMEM_KIB KiB)}" "${cap[@]}" \
    "$py" select_sklearn.py run "$train" "$test" --target "$target" $cls --m "$m" --lambdas "$lambdas"
}
for job in "$@"; do
  echo "### $job"
  case $job in
  mapcheck) "$py" select_sklearn.py mapcheck "$bin/default" ;;
  beijing)
    d=$(prepared beijing)
    compare "$d/beijing-train.csv" "$d/beijing-test.csv" PM2.5 fit ;;
  skin)
    d=$(prepared skin)
    compare "$d/skin-train.csv" "$d/skin-test.csv" label classify ;;
  cal)
    d=$(prepared cal)
    compare "$d/cal-train.csv" "$d/cal-test.csv" median_house_value fit ;;
  csv:*)
    IFS=, read -r train test target cmd <<<"${job#csv:}"
    compare "$train" "$test" "$target" "${cmd:-fit}" ;;
  *) echo "unknown job $job" >&2; exit 2 ;;
  esac
done
