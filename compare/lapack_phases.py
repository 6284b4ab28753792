#!/usr/bin/env python3
"""LAPACK's phases of the symmetric eigensolver and of the SVD, timed one
by one, printed in the format of `go test -bench` beside rkhs's per-phase
benchmarks of the linalg package:

    rkhs (linalg)                    LAPACK
    Tridiagonalize/n=N               dsytrd  (reduction to tridiagonal form)
    TridiagDCDense/n=N               dstedc  (divide and conquer, COMPZ='I')
    TridiagQ/n=N                     dormtr  (back-transformation of n vectors)
    Bidiagonalize/n=N                dgebrd  (reduction to bidiagonal form)
    Bdsdc/n=N                        dbdsdc  (divide and conquer, COMPQ='I')
    BidiagQP/n=N                     dormbr  ('Q' on U, then 'P' on Vᵀ)

Each LAPACK line is named after the rkhs benchmark it stands beside, with
the routine as an extra level: BenchmarkTridiagonalize/dsytrd/n=2000.

    OPENBLAS_NUM_THREADS=2 python3 compare/lapack_phases.py [tridiag:1000,2000] [bidiag:1000]

SciPy exposes dsytrd but not dstedc, dormtr, dgebrd, dbdsdc or dormbr, so
the routines are called through ctypes from the LAPACK that NumPy's BLAS
library carries (OpenBLAS bundles it; threadpoolctl names the file). The
input of each phase is the output of the one before on the same random
matrix (uniform in [−1, 1), symmetrized for the eigensolver), as in the Go
benchmarks; every line is the best of `repeat` runs after one warm-up. The
first line names the OpenBLAS kernel and thread count that ran. Run it with
OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE unset (compare/phases.sh does), so
that OpenBLAS picks its own kernel.
"""
import ctypes
import sys
import time

import numpy as np
from threadpoolctl import threadpool_info

c_int_p = ctypes.POINTER(ctypes.c_int)


def lapack():
    info = [i for i in threadpool_info() if i.get("user_api") == "blas"]
    if not info:
        sys.exit("no BLAS library found by threadpoolctl")
    i = info[0]
    print(f"# {i.get('internal_api')} {i.get('version')} kernel={i.get('architecture')} "
          f"threads={i.get('num_threads')} file={i.get('filepath')}", flush=True)
    return ctypes.CDLL(i["filepath"])


LIB = lapack()


def ptr(x):
    return x.ctypes.data_as(ctypes.c_void_p)


def call(name, *args):
    """Calls the Fortran routine name_ with args: Python ints become
    INTEGER by reference, one-letter str CHARACTER (their hidden lengths
    appended at the end), NumPy arrays their data. Returns INFO, the last
    integer argument."""
    conv, lens, ints = [], [], []
    for a in args:
        if isinstance(a, str):
            conv.append(ctypes.c_char_p(a.encode()))
            lens.append(ctypes.c_size_t(1))
        elif isinstance(a, int):
            v = ctypes.c_int(a)
            ints.append(v)
            conv.append(ctypes.byref(v))
        else:
            conv.append(ptr(a))
    getattr(LIB, name + "_")(*conv, *lens)
    if ints[-1].value != 0:
        sys.exit(f"{name}: info = {ints[-1].value}")


def query(name, *args):
    """The optimal LWORK of name_ (a workspace query: LWORK = −1)."""
    w = np.zeros(1)
    call(name, *[w if a is WORK else (-1 if a is LWORK else a) for a in args])
    return int(w[0])


WORK, LWORK = object(), object()


def best(f, setup, repeat=3):
    """The least time of f() over repeat runs after one warm-up, each after
    an untimed setup()."""
    setup()
    f()
    ts = []
    for _ in range(repeat):
        setup()
        t = time.perf_counter()
        f()
        ts.append(time.perf_counter() - t)
    return min(ts)


def line(name, secs, flops=None):
    s = f"{name}\t1\t{secs * 1e9:.0f} ns/op"
    if flops:
        s += f"\t{flops / secs / 1e9:.2f} GFLOP/s"
    print(s, flush=True)


def tridiag(sizes=(1000, 2000, 4000)):
    for n in sizes:
        rng = np.random.default_rng(1)
        a0 = rng.uniform(-1, 1, (n, n))
        a0 = np.asfortranarray(a0 + a0.T)
        a = a0.copy(order="F")
        d, e, tau = np.zeros(n), np.zeros(n - 1), np.zeros(n - 1)
        lw = query("dsytrd", "L", n, a, n, d, e, tau, WORK, LWORK, 0)
        work = np.zeros(lw)
        t = best(lambda: call("dsytrd", "L", n, a, n, d, e, tau, work, lw, 0),
                 lambda: np.copyto(a, a0))
        line(f"BenchmarkTridiagonalize/dsytrd/n={n}", t, 4 * n**3 / 3)

        d0, e0 = d.copy(), e.copy()
        z = np.zeros((n, n), order="F")
        lw, liw = 1 + 4 * n + n * n, 3 + 5 * n
        work, iwork = np.zeros(lw), np.zeros(liw, dtype=np.int32)
        t = best(lambda: call("dstedc", "I", n, d, e, z, n, work, lw, iwork, liw, 0),
                 lambda: (np.copyto(d, d0), np.copyto(e, e0)))
        line(f"BenchmarkTridiagDCDense/dstedc/n={n}", t)

        c = np.zeros((n, n), order="F")
        lw = query("dormtr", "L", "L", "N", n, n, a, n, tau, c, n, WORK, LWORK, 0)
        work = np.zeros(lw)
        t = best(lambda: call("dormtr", "L", "L", "N", n, n, a, n, tau, c, n, work, lw, 0),
                 lambda: np.copyto(c, np.eye(n)))
        line(f"BenchmarkTridiagQ/dormtr/n={n}", t, 2 * n**3)


def bidiag(sizes=(1000, 2000)):
    for n in sizes:
        rng = np.random.default_rng(1)
        a0 = np.asfortranarray(rng.uniform(-1, 1, (n, n)))
        a = a0.copy(order="F")
        d, e = np.zeros(n), np.zeros(n - 1)
        tq, tp = np.zeros(n), np.zeros(n)
        lw = query("dgebrd", n, n, a, n, d, e, tq, tp, WORK, LWORK, 0)
        work = np.zeros(lw)
        t = best(lambda: call("dgebrd", n, n, a, n, d, e, tq, tp, work, lw, 0),
                 lambda: np.copyto(a, a0))
        line(f"BenchmarkBidiagonalize/dgebrd/n={n}", t, 8 * n**3 / 3)

        d0, e0 = d.copy(), e.copy()
        u, vt = np.zeros((n, n), order="F"), np.zeros((n, n), order="F")
        q, iq = np.zeros(1), np.zeros(1, dtype=np.int32)
        work, iwork = np.zeros(3 * n * n + 4 * n), np.zeros(8 * n, dtype=np.int32)
        t = best(lambda: call("dbdsdc", "U", "I", n, d, e, u, n, vt, n, q, iq, work, iwork, 0),
                 lambda: (np.copyto(d, d0), np.copyto(e, e0)))
        line(f"BenchmarkBdsdc/dbdsdc/n={n}", t)

        lq = query("dormbr", "Q", "L", "N", n, n, n, a, n, tq, u, n, WORK, LWORK, 0)
        lp = query("dormbr", "P", "R", "T", n, n, n, a, n, tp, vt, n, WORK, LWORK, 0)
        work = np.zeros(max(lq, lp))

        def both():
            call("dormbr", "Q", "L", "N", n, n, n, a, n, tq, u, n, work, len(work), 0)
            call("dormbr", "P", "R", "T", n, n, n, a, n, tp, vt, n, work, len(work), 0)

        t = best(both, lambda: (np.copyto(u, np.eye(n)), np.copyto(vt, np.eye(n))))
        line(f"BenchmarkBidiagQP/dormbr/n={n}", t, 4 * n**3)


def main(args):
    jobs = {"tridiag": tridiag, "bidiag": bidiag}
    for arg in args or ["tridiag", "bidiag"]:
        name, _, sizes = arg.partition(":")
        if name not in jobs:
            sys.exit(f"unknown job {name!r}: want one of {', '.join(jobs)}")
        if sizes:
            jobs[name](tuple(int(s) for s in sizes.split(",")))
        else:
            jobs[name]()


if __name__ == "__main__":
    main(sys.argv[1:])
