#!/usr/bin/env python3
"""Reference timings from NumPy/SciPy (LAPACK and BLAS, OpenBLAS when it is
the system BLAS) and scikit-learn, for the operations that rkhs benchmarks,
printed in the format of `go test -bench` so they can stand beside rkhs's
and gonum's figures in BENCHMARKS.md.

Not a dependency of rkhs: it needs python3-numpy, python3-scipy and
python3-sklearn (Debian packages) and, for tuned BLAS speed,
libopenblas0-pthread. Run it with the thread count of the Go runs:

    OPENBLAS_NUM_THREADS=2 python3 compare/reference.py [gemm cholesky eigh svd ridgecv kernelridge]

Each line reports the best of `repeat` runs after one warm-up, in the
same units as the Go benchmarks (ns/op, and GFLOP/s where the Go benchmark
reports it).
"""
import sys
import time

import numpy as np
import scipy.linalg as sla


def best(f, repeat=3):
    f()
    ts = []
    for _ in range(repeat):
        t = time.perf_counter()
        f()
        ts.append(time.perf_counter() - t)
    return min(ts)


def line(name, secs, flops=None):
    s = f"{name}\t1\t{secs * 1e9:.0f} ns/op"
    if flops:
        s += f"\t{flops / secs / 1e9:.2f} GFLOP/s"
    print(s, flush=True)


def gemm():
    for n in (512, 1024, 2048, 4096):
        rng = np.random.default_rng(1)
        a, b = rng.uniform(-1, 1, (n, n)), rng.uniform(-1, 1, (n, n))
        line(f"BenchmarkGemm/openblas/n={n}", best(lambda: a @ b), 2.0 * n**3)


def cholesky():
    for n in (512, 1024, 2048, 4096):
        rng = np.random.default_rng(1)
        b = rng.uniform(-1, 1, (n, n))
        a = b @ b.T / n + np.eye(n)
        line(f"BenchmarkCholesky/openblas/n={n}",
             best(lambda: sla.cholesky(a, lower=True, check_finite=False)), n**3 / 3.0)


def eigh():
    # dsyevd: Householder tridiagonalization, divide and conquer, back-transformation.
    for n in (500, 1000, 2000):
        rng = np.random.default_rng(1)
        b = rng.uniform(-1, 1, (n, n))
        a = (b + b.T) / 2
        line(f"BenchmarkEigenSym/openblas-dsyevd/n={n}",
             best(lambda: sla.eigh(a, driver="evd", check_finite=False)))
        line(f"BenchmarkEigenSymValues/openblas-dsyevd/n={n}",
             best(lambda: sla.eigh(a, eigvals_only=True, driver="evd", check_finite=False)))


def svd():
    # The shapes of compare's BenchmarkSVD and BenchmarkSVDValues; dgesdd
    # is what scipy.linalg.svd calls by default (lapack_driver="gesdd").
    rng = np.random.default_rng(1)
    a = rng.uniform(-1, 1, (1000, 1000))
    line("BenchmarkSVD/openblas-dgesdd/n=1000",
         best(lambda: sla.svd(a, full_matrices=False, check_finite=False)))
    m = rng.uniform(-1, 1, (2000, 500))
    line("BenchmarkSVD/openblas-dgesdd/2000x500",
         best(lambda: sla.svd(m, full_matrices=False, check_finite=False)))
    t = rng.uniform(-1, 1, (100000, 50))
    line("BenchmarkSVD/openblas-dgesdd/100000x50",
         best(lambda: sla.svd(t, full_matrices=False, check_finite=False)))
    b = rng.uniform(-1, 1, (2000, 2000))
    line("BenchmarkSVDValues/openblas-dgesdd/n=2000",
         best(lambda: sla.svd(b, compute_uv=False, check_finite=False)))


def ridgecv():
    # The job of BenchmarkLinearLOO: 100000×50, 50 values of λ, free
    # intercept, leave-one-out (scikit-learn's efficient GCV/LOO mode).
    from sklearn.linear_model import RidgeCV
    n, d = 100000, 50
    rng = np.random.default_rng(3)
    x = rng.uniform(-1, 1, (n, d))
    y = np.sin(3 * x).sum(axis=1) + 0.1 * rng.standard_normal(n)
    lambdas = np.geomspace(1e-8, 1e2, 50)
    alphas = n * lambdas  # scikit-learn's alpha = nλ
    line("BenchmarkLinearLOO/sklearn-RidgeCV/100000x50/lambdas=50",
         best(lambda: RidgeCV(alphas=alphas, fit_intercept=True).fit(x, y), repeat=3))


def kernelridge():
    # The job of BenchmarkRLSFit: Gaussian kernel, d = 8, one fit end to end.
    from sklearn.kernel_ridge import KernelRidge
    for n in (2000, 4000, 8000):
        rng = np.random.default_rng(3)
        x = rng.uniform(-1, 1, (n, 8))
        y = np.sin(3 * x).sum(axis=1) + 0.1 * rng.standard_normal(n)
        sigma, lam = 1.0, 1e-4
        m = KernelRidge(alpha=n * lam, kernel="rbf", gamma=1 / (2 * sigma**2))
        line(f"BenchmarkRLSFit/sklearn-KernelRidge/n={n}", best(lambda: m.fit(x, y), repeat=2))


if __name__ == "__main__":
    jobs = {"gemm": gemm, "cholesky": cholesky, "eigh": eigh, "svd": svd,
            "ridgecv": ridgecv, "kernelridge": kernelridge}
    names = sys.argv[1:] or list(jobs)
    print(f"# numpy {np.__version__}, scipy {__import__('scipy').__version__}", flush=True)
    for name in names:
        jobs[name]()
