#!/usr/bin/env bash
# The headline table of BENCHMARKS.md: every main job of rkhs in one run on
# one machine — rkhs in the default and the SIMD build, gonum, and the
# native peer (OpenBLAS through NumPy/SciPy, or scikit-learn).
#
#   compare/headline.sh [-tiny] [outdir]      (default outdir: compare/results)
#
# Rows (the benchmark names of the test files in compare/ and of the root bench_test.go):
#
#   GEMM n=2048              compare  Gemm/{rkhs,gonum}/n=2048        reference.py gemm
#   Cholesky n=4096          compare  Cholesky/{rkhs,gonum}/n=4096    reference.py cholesky (dpotrf)
#   EigenSym vectors n=2000  compare  EigenSym/{rkhs,gonum}/n=2000    reference.py eigh (dsyevd)
#   thin SVD 1000×1000       compare  SVD/{rkhs,gonum}/n=1000         reference.py svd (dgesdd)
#   exact RLS fit n=4000     root     RLSFit/n=4000                   reference.py kernelridge
#   LOO path n=2000, 100 λ   root     LOOPath/n=2000/lambdas=100/with-decomposition
#                                                                     reference.py loopath (NumPy, dsyevd)
#   linear LOO 100000×50     root     LinearLOO/100000x50/lambdas=50  reference.py ridgecv
#   Falkon n=1e5 m=2000      compare/falkon -data synth, 20 iterations
#                                                                     reference.py nystroem (same data, same centres)
#
# gonum runs once (GOEXPERIMENT does not change it); the rkhs rows run in
# both builds from test binaries compiled first. All raw output, with the
# machine, the toolchain, the load average and the OpenBLAS kernel that ran
# (threadpoolctl), goes to OUTDIR/headline-YYYY-MM-DD.txt, and a summary of
# seconds per operation closes it. The sizes and -benchtime are chosen to
# finish within 10 minutes on 2 idle cores, estimated from earlier figures
# of each row; gonum's EigenSym at n=2000 (39 s on the model 167 machine)
# and the LOO benchmark's set-up (it decomposes n=4000 as well) are the
# longest single items. -tiny runs every row at small sizes to check the
# plumbing (file headline-YYYY-MM-DD-tiny.txt; not figures to report; the
# LOO set-up still decomposes n=2000 and n=4000).
#
# Needs Go 1.26 or later on amd64 (the SIMD build; without it the SIMD rows
# are skipped with a warning), network access for gonum on the first run,
# /usr/bin/time, and for the peers python3 with numpy, scipy, sklearn and
# threadpoolctl (Debian: python3-numpy python3-scipy python3-sklearn
# python3-threadpoolctl libopenblas0-pthread). PYTHON selects the
# interpreter (default: the first of /usr/bin/python3 and python3 that
# imports them). GOMAXPROCS (default 2) is also the OpenBLAS thread count.
# Run it on an otherwise idle machine.
set -euo pipefail
cd "$(dirname "$0")"
tiny=
case ${1:-} in
-tiny) tiny=1 && shift ;;
esac
out=${1:-results}
export GOMAXPROCS=${GOMAXPROCS:-2}
export OPENBLAS_NUM_THREADS=$GOMAXPROCS
# OpenBLAS at its best: no inherited kernel or cache size (reference.py
# also drops them, probes the kernels the CPU runs and keeps the fastest).
unset OPENBLAS_CORETYPE OPENBLAS_L2_SIZE

py=${PYTHON:-}
if [ -z "$py" ]; then
  for p in /usr/bin/python3 python3; do
    if "$p" -c 'import numpy, scipy, sklearn, threadpoolctl' 2>/dev/null; then
      py=$p
      break
    fi
  done
fi

# Sizes and -benchtime per row: Go benchmarks use b.Loop, so Nx is exactly
# N timed operations after a set-up run once.
if [ -n "$tiny" ]; then
  gemm=512 chol=512 eig=500 svd=2000x500 rls=2000 loo=200 fn=10000 fm=200
  suffix=-tiny
else
  gemm=2048 chol=4096 eig=2000 svd=n=1000 rls=4000 loo=2000 fn=100000 fm=2000
  suffix=
fi
svdpy=${svd#n=}

mkdir -p "$out"
file=$out/headline-$(date -u +%Y-%m-%d)$suffix.txt
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# bench TAG BINARY PATTERN BENCHTIME: one go test binary run, raw output
# kept, and "TAG NAME SECONDS" appended to the summary.
bench() {
  local tag=$1 bin=$2 pat=$3 bt=$4
  echo "== $tag: $(basename "$bin") -test.bench '$pat' -test.benchtime $bt  (load average $(cut -d' ' -f1-3 /proc/loadavg))"
  "$bin" -test.run XXX -test.bench "$pat" -test.benchtime "$bt" | tee "$tmp/run"
  awk -v t="$tag" '/^Benchmark/ { for (i = 1; i < NF; i++) if ($(i+1) == "ns/op") printf "%s %s %.4g\n", t, $1, $i / 1e9 }' "$tmp/run" >> "$tmp/summary"
}

{
  echo "# compare/headline.sh${tiny:+ -tiny}"
  date -u
  lscpu | grep -E '^Model name|^CPU family|^Model:|^CPU\(s\)|^ *L1d|^ *L2' | sed 's/^ *//; s/  */ /g'
  echo "Caches (cpu0): $(for d in /sys/devices/system/cpu/cpu0/cache/index*; do [ -r "$d/size" ] || continue; printf 'L%s %s %s; ' "$(cat "$d/level")" "$(cat "$d/type")" "$(cat "$d/size")"; done 2>/dev/null)"
  echo "Vector flags: $(grep -m1 '^flags' /proc/cpuinfo | tr ' ' '\n' | grep -xE 'fma|avx2|avx512f|avx512dq|avx512bw|avx512vl|avx512_bf16' | tr '\n' ' ')"
  go version
  echo "GOMAXPROCS=$GOMAXPROCS OPENBLAS_NUM_THREADS=$OPENBLAS_NUM_THREADS"

  builds=(default)
  go test -c -o "$tmp/compare-default.test" .
  (cd .. && go test -c -o "$tmp/root-default.test" .)
  go build -o "$tmp/falkon-default" ./falkon
  if GOEXPERIMENT=simd go test -c -o "$tmp/compare-simd.test" . &&
     (cd .. && GOEXPERIMENT=simd go test -c -o "$tmp/root-simd.test" .) &&
     GOEXPERIMENT=simd go build -o "$tmp/falkon-simd" ./falkon; then
    builds+=(simd)
  else
    echo "warning: the GOEXPERIMENT=simd build failed with $(go version): no SIMD rows" >&2
  fi

  for b in "${builds[@]}"; do
    bench "$b" "$tmp/compare-$b.test" "Gemm$/rkhs/n=$gemm\$" 3x
    bench "$b" "$tmp/compare-$b.test" "Cholesky$/rkhs/n=$chol\$" 2x
    bench "$b" "$tmp/compare-$b.test" "EigenSym$/rkhs/n=$eig\$" 1x
    bench "$b" "$tmp/compare-$b.test" "SVD$/rkhs/$svd\$" 2x
    bench "$b" "$tmp/root-$b.test" "RLSFit/n=$rls\$" 2x
    bench "$b" "$tmp/root-$b.test" "LOOPath/^n=$loo/lambdas=100/with-decomposition\$" 2x
    bench "$b" "$tmp/root-$b.test" "LinearLOO/100000x50/lambdas=50\$" 3x
  done
  bench gonum "$tmp/compare-default.test" "Gemm$/gonum/n=$gemm\$" 3x
  bench gonum "$tmp/compare-default.test" "Cholesky$/gonum/n=$chol\$" 2x
  bench gonum "$tmp/compare-default.test" "EigenSym$/gonum/n=$eig\$" 1x
  bench gonum "$tmp/compare-default.test" "SVD$/gonum/$svd\$" 2x

  # Falkon on the synthetic problem of compare/falkon (σ = 2, λ = 1e-6, free
  # intercept); the SIMD run writes the data and centres for the peer.
  for b in "${builds[@]}"; do
    dump=()
    [ "$b" = "${builds[-1]}" ] && dump=(-dump "$tmp/synth")
    echo "== $b: falkon -data synth -n $fn -m $fm -iters 20  (load average $(cut -d' ' -f1-3 /proc/loadavg))"
    /usr/bin/time -f "wall %e s, max RSS %M KiB" "$tmp/falkon-$b" -data synth -n "$fn" -m "$fm" -iters 20 "${dump[@]}" 2>&1 | tee "$tmp/run"
    awk -v t="$b" -v n="$fn" -v m="$fm" '/^fit [0-9.]+s/ { sub(/s$/, "", $2); printf "%s Falkon/synth/n=%s/m=%s %s\n", t, n, m, $2 }' "$tmp/run" >> "$tmp/summary"
  done

  if [ -n "$py" ]; then
    echo "== peers: $py reference.py  (load average $(cut -d' ' -f1-3 /proc/loadavg))"
    "$py" reference.py "gemm:$gemm" "cholesky:$chol" "eigh:$eig" "svd:$svdpy" "kernelridge:$rls" "loopath:$loo" ridgecv \
      "nystroem:$tmp/synth,d=10,sigma=2,lambda=1e-6" | tee "$tmp/run"
    awk '/^Benchmark/ { for (i = 1; i < NF; i++) if ($(i+1) == "ns/op") printf "peer %s %.4g\n", $1, $i / 1e9 }
         /^sklearn Nystroem\+Ridge/ { for (i = 1; i <= NF; i++) if ($i == "fit") { s = $(i+1); sub(/s$/, "", s); printf "peer sklearn-Nystroem+Ridge %s\n", s } }' "$tmp/run" >> "$tmp/summary"
  else
    echo "warning: no python3 imports numpy, scipy, sklearn and threadpoolctl: no peer figures" >&2
  fi

  echo "== summary: seconds per operation (build or library, benchmark, seconds)"
  cat "$tmp/summary"
  echo "== end $(date -u)"
} 2>&1 | tee "$file"
echo "wrote $file" >&2
