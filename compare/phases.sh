#!/usr/bin/env bash
# The phases of the symmetric eigensolver and of the SVD, rkhs's beside
# LAPACK's, in one run: the reduction, the divide and conquer and the
# back-transformation of each factorization, so that the next gap is
# visible by phase (docs/notes/eigen-svd.md).
#
#   compare/phases.sh [outdir]      (default outdir: compare/results)
#
#   rkhs (go test ./linalg)          LAPACK (lapack_phases.py, OpenBLAS)
#   Tridiagonalize/n=N               dsytrd
#   TridiagDCDense/n=N               dstedc
#   TridiagQ/n=N                     dormtr
#   Bidiagonalize/n=N                dgebrd
#   Bdsdc/n=N                        dbdsdc
#   BidiagQP/n=N                     dormbr
#
# rkhs runs in the default and the SIMD build (GOEXPERIMENT=simd), each
# test binary compiled first, BENCHTIME (default 2x) operations a line;
# -count (COUNT, default 5) repeats every
# benchmark so that benchstat can give the spread. SIZES (default
# "1000 2000") are the orders; the divide-and-conquer benchmarks of the
# Go side stop at 2000. Needs Go 1.26 or later on amd64 for the SIMD
# rows, and python3 with numpy and threadpoolctl (Debian:
# python3-numpy python3-threadpoolctl libopenblas0-pthread); PYTHON
# selects the interpreter (default /usr/bin/python3 when it imports
# them). GOMAXPROCS (default 2) is also the OpenBLAS thread count.
# Raw output, machine and load average go to OUTDIR/phases-YYYY-MM-DD.txt.
set -euo pipefail
cd "$(dirname "$0")"
out=${1:-results}
export GOMAXPROCS=${GOMAXPROCS:-2}
export OPENBLAS_NUM_THREADS=$GOMAXPROCS
count=${COUNT:-5}
benchtime=${BENCHTIME:-2x}
sizes=${SIZES:-1000 2000}
# OpenBLAS at its own choice of kernel: no inherited kernel or cache size.
unset OPENBLAS_CORETYPE OPENBLAS_L2_SIZE
py=${PYTHON:-}
if [ -z "$py" ]; then
  for p in /usr/bin/python3 python3; do
    if "$p" -c 'import numpy, threadpoolctl' 2>/dev/null; then
      py=$p
      break
    fi
  done
fi

mkdir -p "$out"
file=$out/phases-$(date -u +%Y-%m-%d).txt
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

alt=$(echo "$sizes" | tr ' ' '|')
pat="^Benchmark(Tridiagonalize|TridiagDCDense|TridiagQ|Bidiagonalize|Bdsdc|BidiagQP)\$/^n=($alt)\$"
{
  echo "# compare/phases.sh"
  date -u
  lscpu | grep -E '^Model name|^CPU\(s\)|^ *L1d|^ *L2|^ *L3' | sed 's/^ *//; s/  */ /g'
  go version
  echo "GOMAXPROCS=$GOMAXPROCS OPENBLAS_NUM_THREADS=$OPENBLAS_NUM_THREADS count=$count"
  builds=(default)
  (cd .. && go test -c -o "$tmp/default.test" ./linalg)
  if (cd .. && GOEXPERIMENT=simd go test -c -o "$tmp/simd.test" ./linalg); then
    builds+=(simd)
  else
    echo "warning: the GOEXPERIMENT=simd build failed: no SIMD rows" >&2
  fi
  for b in "${builds[@]}"; do
    echo "== rkhs $b build (load average $(cut -d' ' -f1-3 /proc/loadavg))"
    "$tmp/$b.test" -test.run XXX -test.bench "$pat" -test.benchtime "$benchtime" -test.count "$count"
  done
  echo "== LAPACK (load average $(cut -d' ' -f1-3 /proc/loadavg))"
  if [ -n "$py" ]; then
    csv=$(echo "$sizes" | tr ' ' ',')
    for _ in $(seq "$count"); do
      "$py" lapack_phases.py "tridiag:$csv" "bidiag:$csv"
    done
  else
    echo "warning: no python3 with numpy and threadpoolctl: no LAPACK rows" >&2
  fi
} 2>&1 | tee "$file"
