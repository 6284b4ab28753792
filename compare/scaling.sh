#!/usr/bin/env bash
# Parallel scaling by cores, one process per GOMAXPROCS set in the
# environment (never `go test -cpu`): GEMM n = 4096, EigenSym n = 4000 with
# vectors, Falkon (n = 2·10⁵, d = 10, m = 4000, 20 iterations) and the
# choice of σ and λ by exact leave-one-out (compare/selectscale,
# n = 2·10⁵, m = 1000, 5 σ × 50 λ), all in the SIMD build; and, where
# python3 has numpy, OpenBLAS's dgemm and dsyevd at the same sizes. First,
# the machine's own ceiling: one-core GEMM n = 2048 and Gaussian kernel
# blocks (n = 4000) alone and as one independent process per core at once.
#
#   compare/scaling.sh build DIR    build the binaries into DIR (needs Go)
#   compare/scaling.sh run DIR OUT  run them (needs no Go), profiles to OUT
#
# The two steps exist so that the binaries can be built on one machine and
# carried to a many-core one. CORES (default "1 2 4 8 16") lists the values
# of GOMAXPROCS for GEMM and OpenBLAS's dgemm, and from 2 up for EigenSym,
# dsyevd and Falkon (CPU profiles at 2 and at the largest); the selection
# runs at 2 and at the largest.
set -euo pipefail
cmd=${1:?build or run}
dir=${2:?directory}
case $cmd in
build)
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd) # the falkon and selectscale builds run in compare/
  cd "$(dirname "$0")/.."
  GOEXPERIMENT=simd go test -c -o "$dir/linalg.test" ./linalg
  GOEXPERIMENT=simd go test -c -o "$dir/kernels.test" ./kernels
  (cd compare && GOEXPERIMENT=simd go build -o "$dir/falkon" ./falkon &&
    GOEXPERIMENT=simd go build -o "$dir/selectscale" ./selectscale)
  git rev-parse --short HEAD >"$dir/commit"
  ;;
run)
  out=${3:?profile directory}
  mkdir -p "$out"
  cores=${CORES:-1 2 4 8 16}
  top=${cores##* }
  unset OPENBLAS_CORETYPE OPENBLAS_L2_SIZE
  date -u
  echo "commit $(cat "$dir/commit")"
  lscpu | grep -E 'Model name|^CPU\(s\)|^Model:|L2 cache|L3 cache' | sed 's/  */ /g'
  # ceiling BINARY BENCH TIMES: the benchmark on one core alone, then as
  # $top independent one-core processes at once.
  ceiling() {
    GOMAXPROCS=1 "$dir/$1" -test.run '^$' -test.bench "$2" -test.benchtime "$3" | grep Benchmark
    for _ in $(seq "$top"); do
      GOMAXPROCS=1 "$dir/$1" -test.run '^$' -test.bench "$2" -test.benchtime "$3" | grep Benchmark &
    done
    wait
  }
  # profile FLAG NAME P: the CPU-profile arguments for a run at P, at 2 and
  # at the largest value only.
  profile() {
    if [ "$3" = 2 ] || [ "$3" = "$top" ]; then echo "$1" "$out/$2-$3.prof"; fi
  }
  echo "== ceiling: one-core processes, alone and $top at once"
  ceiling linalg.test 'Gemm/n=2048$' 5x
  ceiling kernels.test 'GaussianCross/n=4000$' 10x
  for p in $cores; do
    GOMAXPROCS=$p "$dir/linalg.test" -test.run '^$' -test.bench 'Gemm/n=4096$' -test.benchtime 2x |
      grep Benchmark | sed "s/^/GOMAXPROCS=$p /"
  done
  for p in $cores; do
    [ "$p" = 1 ] && continue
    # shellcheck disable=SC2046 # profile's words are meant to split
    GOMAXPROCS=$p "$dir/linalg.test" -test.run '^$' -test.bench '^BenchmarkEigenSym$/n=4000$' -test.benchtime 1x \
      $(profile -test.cpuprofile eigensym "$p") | grep Benchmark | sed "s/^/GOMAXPROCS=$p /"
  done
  for p in $cores; do
    [ "$p" = 1 ] && continue
    echo "== falkon GOMAXPROCS=$p"
    # shellcheck disable=SC2046
    GOMAXPROCS=$p "$dir/falkon" -data synth -n 200000 -m 4000 -iters 20 $(profile -cpuprofile falkon "$p")
  done
  for p in 2 "$top"; do
    echo "== selectscale GOMAXPROCS=$p"
    GOMAXPROCS=$p "$dir/selectscale" -n 200000 -cpuprofile "$out/select-$p.prof"
  done
  if python3 -c 'import numpy' 2>/dev/null; then
    for p in $cores; do
      OPENBLAS_NUM_THREADS=$p OMP_NUM_THREADS=$p python3 - "$p" <<'PY'
import sys, time, numpy as np
p = int(sys.argv[1])
rng = np.random.default_rng(1)
a = rng.standard_normal((4096, 4096)); b = rng.standard_normal((4096, 4096))
a @ b
t = time.perf_counter(); a @ b; t = time.perf_counter() - t
print(f"threads={p} OpenBLAS dgemm n=4096: {2*4096**3/t/1e9:.1f} GFLOP/s")
if p > 1:
    x = rng.standard_normal((4000, 4000)); s = x @ x.T / 4000 + np.eye(4000)
    t = time.perf_counter(); np.linalg.eigh(s); t = time.perf_counter() - t
    print(f"threads={p} dsyevd (numpy.linalg.eigh) n=4000 with vectors: {t:.2f} s")
try:
    import threadpoolctl
    if p == 1:
        print(threadpoolctl.threadpool_info())
except ImportError:
    pass
PY
    done
    python3 -c 'import numpy; numpy.show_config()' 2>&1 | grep -iE 'openblas|version' | head -5 || true
  else
    echo "python3 with numpy: not on this machine"
  fi
  ;;
*)
  echo "usage: $0 build DIR | run DIR OUT" >&2
  exit 2
  ;;
esac
