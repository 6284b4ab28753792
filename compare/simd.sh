#!/usr/bin/env bash
# The side-by-side figures of BENCHMARKS.md's section on the SIMD build, measured in
# one session: rkhs in its SIMD build (GOEXPERIMENT=simd) and its default
# build, gonum, OpenBLAS through NumPy/SciPy and scikit-learn.
#
#   compare/simd.sh [outdir]          (default outdir: compare/results)
#
# Needs Go 1.26 on amd64, network access for gonum on the first run, and
# for the reference figures python3-numpy, python3-scipy, python3-sklearn and
# libopenblas0-pthread (Debian packages). PYTHON selects the interpreter
# (default python3; use /usr/bin/python3 where a pyenv shim hides Debian's).
# GOMAXPROCS (default 2) is also the OpenBLAS thread count.
set -euo pipefail
cd "$(dirname "$0")"
out=${1:-results}
py=${PYTHON:-python3}
export GOMAXPROCS=${GOMAXPROCS:-2}
export OPENBLAS_NUM_THREADS=$GOMAXPROCS
mkdir -p "$out"

{ date -u; go version; echo "GOMAXPROCS=$GOMAXPROCS"; lscpu; } > "$out/simd-machine.txt"

# rkhs (SIMD build) and gonum, side by side.
GOEXPERIMENT=simd go test -run XXX -bench 'Gemm|Cholesky|EigenSym' . | tee "$out/simd-bench-simd.txt"
# rkhs in the default build, for the speed-up the SIMD kernels give.
go test -run XXX -bench 'Gemm/rkhs|Cholesky/rkhs|EigenSym/rkhs' . | tee "$out/simd-bench-default.txt"
# Kernel RLS fit end to end (root module), both builds.
(cd .. && GOEXPERIMENT=simd go test -run XXX -bench 'RLSFit' -benchtime 2x .) | tee "$out/simd-rls-simd.txt"
(cd .. && go test -run XXX -bench 'RLSFit' -benchtime 2x .) | tee "$out/simd-rls-default.txt"
# OpenBLAS (GEMM, Cholesky, dsyevd) and scikit-learn's KernelRidge.
if "$py" -c 'import numpy, scipy, sklearn' 2>/dev/null; then
  "$py" reference.py gemm cholesky eigh kernelridge | tee "$out/simd-openblas.txt"
else
  echo "$py cannot import numpy, scipy and sklearn: no reference figures" >&2
fi
