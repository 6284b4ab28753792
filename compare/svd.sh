#!/usr/bin/env bash
# The side-by-side SVD figures of BENCHMARKS.md ("Eigendecomposition and SVD"), measured
# in one session: rkhs in its SIMD build (GOEXPERIMENT=simd) beside gonum,
# rkhs in its default build, and LAPACK's dgesdd through SciPy/OpenBLAS at
# each OpenBLAS kernel the CPU can run (the report takes the fastest).
#
#   compare/svd.sh [outdir]          (default outdir: compare/results)
#
# Needs Go 1.26 on amd64, network access for gonum on the first run, and
# python3-numpy, python3-scipy, python3-threadpoolctl and
# libopenblas0-pthread (Debian packages) for the reference. PYTHON selects
# the interpreter (default python3). GOMAXPROCS (default 2) is also the
# OpenBLAS thread count. OpenBLAS 0.3.21 picks its slow generic "Prescott"
# kernel on some recent Intel CPUs, so the kernel is set explicitly with
# OPENBLAS_CORETYPE, and the one threadpoolctl reports is printed.
set -euo pipefail
cd "$(dirname "$0")"
out=${1:-results}
py=${PYTHON:-python3}
export GOMAXPROCS=${GOMAXPROCS:-2}
export OPENBLAS_NUM_THREADS=$GOMAXPROCS
mkdir -p "$out"

{ date -u; go version; echo "GOMAXPROCS=$GOMAXPROCS"; lscpu; } > "$out/svd-machine.txt"

GOEXPERIMENT=simd go test -run XXX -bench 'SVD' -benchtime 3x . | tee "$out/svd-simd.txt"
go test -run XXX -bench 'SVD/rkhs|SVDValues/rkhs' -benchtime 3x . | tee "$out/svd-default.txt"
for core in Haswell SkylakeX Cooperlake; do
	OPENBLAS_CORETYPE=$core "$py" -c 'import numpy; from threadpoolctl import threadpool_info as t; print("# OPENBLAS_CORETYPE='$core':", [(i.get("internal_api"), i.get("architecture"), i.get("num_threads"), i.get("version")) for i in t()])'
	OPENBLAS_CORETYPE=$core "$py" reference.py svd
done | tee "$out/svd-openblas.txt"
