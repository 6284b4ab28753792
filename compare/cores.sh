#!/usr/bin/env bash
# The choice of σ and λ at n = 10⁶ by cores: compare/selectscale (synthetic
# d = 10, m = 1000 centres, 5 σ × 50 λ, SIMD build) once per GOMAXPROCS,
# one process each, set in the environment (never `go test -cpu`). Each run
# prints its lines — the time and the peak resident size of each pass (the
# statistics of every σ; the leave-one-out residuals) — and /usr/bin/time's
# wall time and maximum resident size; the run at the largest GOMAXPROCS
# also writes a CPU profile.
#
#   compare/cores.sh build DIR          build the binary into DIR (needs Go 1.26)
#   compare/cores.sh run DIR OUT        run it (needs no Go), the profile to OUT
#
# The two steps exist so that the binary can be built on one machine and
# carried to a many-core one. CORES (default "2 4 8 16") lists the values of
# GOMAXPROCS; N (default 1000000) the training rows; LOO_ROWS (default
# 20000) the rows of the leave-one-out pass, 0 for every row. Afterwards,
# where Go is installed:
#   go tool pprof -top DIR/selectscale OUT/select-16.prof
# Run it on an otherwise idle machine: at n = 10⁶ each run takes minutes.
set -euo pipefail
cmd=${1:?build or run}
dir=${2:?directory}
case $cmd in
build)
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  cd "$(dirname "$0")"
  GOEXPERIMENT=simd go build -o "$dir/selectscale" ./selectscale
  git rev-parse --short HEAD >"$dir/commit"
  ;;
run)
  out=${3:?profile directory}
  mkdir -p "$out"
  cores=${CORES:-2 4 8 16}
  top=${cores##* }
  n=${N:-1000000}
  rows=${LOO_ROWS:-20000}
  date -u
  echo "commit $(cat "$dir/commit")"
  lscpu | grep -E 'Model name|^CPU\(s\)|^Model:|L2 cache|L3 cache' | sed 's/  */ /g'
  for p in $cores; do
    echo "== selectscale -n $n -loo-rows $rows  GOMAXPROCS=$p  (load average before: $(cut -d' ' -f1-3 /proc/loadavg))"
    prof=()
    [ "$p" = "$top" ] && prof=(-cpuprofile "$out/select-$p.prof")
    GOMAXPROCS=$p /usr/bin/time -f "wall %e s, max RSS %M KiB" \
      "$dir/selectscale" -n "$n" -loo-rows "$rows" "${prof[@]}" 2>&1
  done
  ;;
*)
  echo "usage: $0 build DIR | run DIR OUT" >&2
  exit 2
  ;;
esac
