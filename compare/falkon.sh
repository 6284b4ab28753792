#!/usr/bin/env bash
# Figures of the "Large data" section of BENCHMARKS.md: regress.Falkon in
# the default and the SIMD build (compare/falkon), beside scikit-learn's
# Nystroem + Ridge (compare/reference.py, job nystroem) and exact RLS.
#
#   compare/falkon.sh JOB...      JOB: scale, simd-1e6, default-1e6, sklearn, cal, beijing, skin, crossover
#
# Each job prints the machine, then one block per run: the program's own
# lines (fit time, test error, resident memory before and at the peak of
# the fit) and /usr/bin/time's wall time and maximum resident size. Run it
# under the exclusive CPU lock on an otherwise idle machine, one job at a
# time (the n = 10⁶ runs take minutes). Needs Go 1.26 or later (SIMD
# build), /usr/bin/time, and for sklearn and the real sets python3-numpy,
# python3-scipy, python3-sklearn, python3-threadpoolctl; the real sets are
# read from $RKHS_DATA (see compare/falkon/main.go).
set -euo pipefail
cd "$(dirname "$0")"
export GOMAXPROCS=${GOMAXPROCS:-2}
export OPENBLAS_NUM_THREADS=$GOMAXPROCS
py=${PYTHON:-/usr/bin/python3}
bin=${TMPDIR:-/tmp}/rkhs-falkon
mkdir -p "$bin"
go build -o "$bin/default" ./falkon
GOEXPERIMENT=simd go build -o "$bin/simd" ./falkon
# The large sets: RKHS_DATA, by default ../shared/data/large beside the
# repository's root.
data=${RKHS_DATA:-$(cd .. && pwd)/../shared/data/large}
date -u
lscpu | grep -E 'Model name|^CPU\(s\)|^Model:|L2 cache' | sed 's/  */ /g'
go version
run() { # run BUILD ARGS...: one fit, timed
  local b=$1; shift
  echo "== $b: falkon $*  (load average before: $(cut -d' ' -f1-3 /proc/loadavg))"
  /usr/bin/time -f "wall %e s, max RSS %M KiB" "$bin/$b" -dir "$data" "$@" 2>&1
  echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
}
sk() { # sk PREFIX OPTIONS: scikit-learn's Nystroem + Ridge on a dump
  echo "== scikit-learn Nystroem + Ridge, the same data and centres  (load average before: $(cut -d' ' -f1-3 /proc/loadavg))"
  /usr/bin/time -f "wall %e s, max RSS %M KiB" "$py" reference.py "nystroem:$1,$2" 2>&1
}
for job in "$@"; do
  echo "### $job"
  case $job in
  scale)
    for n in 10000 100000; do
      for b in default simd; do run $b -data synth -n $n -m 4000 -iters 20; done
    done ;;
  simd-1e6 | default-1e6)
    run ${job%-1e6} -data synth -n 1000000 -m 4000 -iters 20 -v ;;
  sklearn)
    dump=${TMPDIR:-/tmp}/rkhs-falkon/synth200k
    run simd -data synth -n 200000 -m 4000 -iters 20 -dump "$dump"
    run default -data synth -n 200000 -m 4000 -iters 20
    sk "$dump" d=10,sigma=2,lambda=1e-6 ;;
  cal)
    run simd -data cal -m 4000 -iters 20
    run default -data cal -m 4000 -iters 20
    run simd -data cal -method rls
    run default -data cal -method rls ;;
  beijing)
    dump=${TMPDIR:-/tmp}/rkhs-falkon/beijing
    run simd -data beijing -m 2000 -iters 20 -dump "$dump"
    run default -data beijing -m 2000 -iters 20
    sk "$dump" d=13,sigma=3,lambda=1e-5 ;;
  skin)
    dump=${TMPDIR:-/tmp}/rkhs-falkon/skin
    run simd -data skin -m 2000 -iters 20 -dump "$dump"
    run default -data skin -m 2000 -iters 20
    sk "$dump" d=3,sigma=0.5,lambda=1e-5,classes ;;
  crossover)
    for m in 500 1000 2000; do
      for b in default simd; do
        run $b -data synth -n 100000 -m $m -iters 20
        run $b -data synth -n 100000 -m $m -method nystrom
      done
    done ;;
  *) echo "unknown job $job" >&2; exit 2 ;;
  esac
done
