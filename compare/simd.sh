#!/usr/bin/env bash
# Side-by-side figures for the SIMD build (GOEXPERIMENT=simd): rkhs beside
# gonum and OpenBLAS (through NumPy/SciPy) and scikit-learn, measured in one
# session so that the ratios compare like with like.
#
#   compare/simd.sh [-quick] [outdir]       (default outdir: compare/results)
#
# Full run: GEMM, Cholesky and EigenSym for rkhs (SIMD build with the Go on
# PATH and, if the module proxy can fetch it, with Go $GO127, and the
# default build), gonum, OpenBLAS and scikit-learn's KernelRidge; the RLS
# fit of the root module in both builds. -quick: GEMM n=2048 and Cholesky
# n=4096 only, rkhs's SIMD build with both toolchains and OpenBLAS, each
# figure twice, alternating (about two minutes).
#
# OpenBLAS runs at its best: reference.py drops any inherited
# OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE, picks the fastest kernel the CPU
# runs and prints the one that ran (threadpoolctl).
#
# Needs Go 1.26 or later on amd64, network access for gonum and Go $GO127
# on the first run, and for the reference figures python3-numpy,
# python3-scipy, python3-sklearn, python3-threadpoolctl and
# libopenblas0-pthread (Debian packages). PYTHON selects the interpreter
# (default python3; use /usr/bin/python3 where a pyenv shim hides Debian's).
# GOMAXPROCS (default 2) is also the OpenBLAS thread count. Run it on an
# otherwise idle machine.
set -euo pipefail
cd "$(dirname "$0")"
quick=
if [ "${1:-}" = -quick ]; then
  quick=1
  shift
fi
out=${1:-results}
py=${PYTHON:-python3}
GO127=${GO127:-go1.27.3}
export GOMAXPROCS=${GOMAXPROCS:-2}
export OPENBLAS_NUM_THREADS=$GOMAXPROCS
mkdir -p "$out"
tag=simd
[ -n "$quick" ] && tag=simd-quick

# The toolchains: the Go on PATH, and Go 1.27 if it can be fetched.
toolchains=(local)
if GOTOOLCHAIN=$GO127 go version >/dev/null 2>&1; then
  toolchains+=("$GO127")
else
  echo "warning: $GO127 could not be fetched; the SIMD build runs with $(go version) only" >&2
fi

{ date -u; for t in "${toolchains[@]}"; do GOTOOLCHAIN=$t go version; done
  echo "GOMAXPROCS=$GOMAXPROCS"; lscpu; } > "$out/$tag-machine.txt"

openblas() {
  if "$py" -c 'import numpy, scipy, threadpoolctl' 2>/dev/null; then
    "$py" reference.py "$@"
  else
    echo "$py cannot import numpy, scipy and threadpoolctl: no OpenBLAS figures" >&2
  fi
}

if [ -n "$quick" ]; then
  for t in "${toolchains[@]}"; do
    GOTOOLCHAIN=$t GOEXPERIMENT=simd go test -c -o "$out/.rkhs-$t.test" .
  done
  for round in 1 2; do
    for t in "${toolchains[@]}"; do
      echo "# rkhs SIMD build, $(GOTOOLCHAIN=$t go version), round $round"
      "$out/.rkhs-$t.test" -test.run XXX -test.bench 'Gemm/rkhs/n=2048$' -test.benchtime 4x
      "$out/.rkhs-$t.test" -test.run XXX -test.bench 'Cholesky/rkhs/n=4096$' -test.benchtime 2x
    done
    echo "# OpenBLAS, round $round"
    openblas gemm:2048 cholesky:4096
  done | tee "$out/$tag.txt"
  rm -f "$out"/.rkhs-*.test
  exit 0
fi

# rkhs (SIMD build, each toolchain) and gonum, side by side.
for t in "${toolchains[@]}"; do
  GOTOOLCHAIN=$t GOEXPERIMENT=simd go test -run XXX -bench 'Gemm|Cholesky|EigenSym' . | tee "$out/$tag-$t.txt"
done
# rkhs in the default build, for the speed-up the SIMD kernels give.
go test -run XXX -bench 'Gemm/rkhs|Cholesky/rkhs|EigenSym/rkhs' . | tee "$out/$tag-default.txt"
# Kernel RLS fit end to end (root module), both builds.
(cd .. && GOEXPERIMENT=simd go test -run XXX -bench 'RLSFit' -benchtime 2x .) | tee "$out/$tag-rls-simd.txt"
(cd .. && go test -run XXX -bench 'RLSFit' -benchtime 2x .) | tee "$out/$tag-rls-default.txt"
# OpenBLAS (GEMM, Cholesky, dsyevd) and scikit-learn's KernelRidge.
openblas gemm cholesky eigh kernelridge | tee "$out/$tag-openblas.txt"
