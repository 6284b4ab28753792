# What compare/select.sh, compare/ard.sh and compare/intervals.sh share:
# their environment, the machine lines they print, the timing of one run,
# and the prepared files of the real sets. Each script sources it from
# compare/ (after `cd "$(dirname "$0")"`), having set quick (1 for
# -quick, empty otherwise):
#
#   source internal/prepare.sh
#
# Environment: GOMAXPROCS (default 2; OPENBLAS_NUM_THREADS follows it;
# OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE are unset, so that OpenBLAS
# chooses its kernel itself), PYTHON (default /usr/bin/python3, set as py),
# RKHS_DATA (default ../shared/data/large beside the repository's root).
# tmp is ${TMPDIR:-/tmp}/rkhs-select, where the prepared files and the
# binaries go, shared by the three scripts.
export GOMAXPROCS=${GOMAXPROCS:-2}
export OPENBLAS_NUM_THREADS=$GOMAXPROCS
unset OPENBLAS_CORETYPE OPENBLAS_L2_SIZE
py=${PYTHON:-/usr/bin/python3}
export RKHS_DATA=${RKHS_DATA:-$(cd .. && pwd)/../shared/data/large}
tmp=${TMPDIR:-/tmp}/rkhs-select
mkdir -p "$tmp/bin"

machine() { # machine: the date, the CPU, the load, Go, the Python side's libraries, the commit
  date -u
  lscpu | grep -E 'Model name|^CPU\(s\)|^Model:|L2 cache' | sed 's/  */ /g'
  echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
  go version
  "$py" select_sklearn.py info
  git -C .. log -1 --format='commit %h %s'
}

timed() { # timed LABEL CMD...: one run under /usr/bin/time, with the load before and after
  local label=$1
  shift
  echo "== $label  (load average before: $(cut -d' ' -f1-3 /proc/loadavg))"
  echo "\$ $*"
  local rc=0
  /usr/bin/time -f "wall %e s, user %U s, system %S s, max RSS %M KiB" "$@" 2>&1 || rc=$?
  [[ $rc == 0 ]] || echo "exit status $rc"
  echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
}

prepared() { # prepared DATA: the directory of DATA's files (beijing, cal, skin), written once by select_sklearn.py prepare
  local dir=$tmp/data${quick:+-quick}
  if [[ ! -s $dir/$1-test.csv ]]; then
    "$py" select_sklearn.py prepare "$1" "$dir" ${quick:+--quick} >&2
  fi
  echo "$dir"
}
