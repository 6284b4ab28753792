#!/usr/bin/env bash
# Figures of loo.SelectNystrom at scale (compare/selectscale): σ and λ of a
# Nyström fit chosen by exact leave-one-out over every row — synthetic
# n = 10⁶, d = 10, m = 1000 centres, 5 σ × 50 λ — then the fit and its test
# error, in the default and the SIMD build.
#
#   compare/selectscale.sh [N]      N training rows, 1000000 by default
#
# Prints the machine, then for each build the program's lines (a line per
# pass, the choice, fit time, test MSE, resident memory before and at the
# peak) and /usr/bin/time's wall time and maximum resident size. Run it on
# an otherwise idle machine (the default build takes minutes at n = 10⁶).
# Needs Go 1.26 or later (SIMD build) and /usr/bin/time. To run
# scikit-learn on the same data, write it with
#   go run ./selectscale -n N -csv PREFIX
# (PREFIX.train.csv and PREFIX.test.csv, columns x1…x10 and y).
set -euo pipefail
cd "$(dirname "$0")"
export GOMAXPROCS=${GOMAXPROCS:-2}
n=${1:-1000000}
bin=${TMPDIR:-/tmp}/rkhs-selectscale
mkdir -p "$bin"
go build -o "$bin/default" ./selectscale
GOEXPERIMENT=simd go build -o "$bin/simd" ./selectscale
date -u
lscpu | grep -E 'Model name|^CPU\(s\)|^Model:|L2 cache' | sed 's/  */ /g'
go version
for b in simd default; do
  echo "== $b: selectscale -n $n  (GOMAXPROCS=$GOMAXPROCS, load average before: $(cut -d' ' -f1-3 /proc/loadavg))"
  /usr/bin/time -f "wall %e s, max RSS %M KiB" "$bin/$b" -n "$n" 2>&1
  echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
done
