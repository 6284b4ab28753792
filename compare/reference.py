#!/usr/bin/env python3
"""Reference timings from NumPy/SciPy (LAPACK and BLAS, OpenBLAS when it is
the system BLAS) and scikit-learn, for the operations that rkhs benchmarks,
printed in the format of `go test -bench` so they can stand beside rkhs's
and gonum's figures in BENCHMARKS.md.

Not a dependency of rkhs: it needs python3-numpy, python3-scipy and
python3-sklearn (Debian packages) and, for tuned BLAS speed,
libopenblas0-pthread. Run it with the thread count of the Go runs:

    OPENBLAS_NUM_THREADS=2 python3 compare/reference.py [gemm cholesky eigh svd ridgecv kernelridge loopath nystroem:PREFIX,…]

(gemm, cholesky, eigh, kernelridge and loopath take sizes, e.g. gemm:2048
cholesky:4096, and svd shapes, e.g. svd:1000,2000x500).

Each line reports the best of `repeat` runs after one warm-up, in the
same units as the Go benchmarks (ns/op, and GFLOP/s where the Go benchmark
reports it).

OpenBLAS at its best: the environment may set OPENBLAS_CORETYPE or
OPENBLAS_L2_SIZE, which force an older, slower kernel, and OpenBLAS 0.3.21
autodetects the ancient "Prescott" kernel on CPUs newer than it knows
(Intel family 6 model 207). So the script first removes both variables,
times a 2048×2048 GEMM with the autodetected kernel and with each kernel
the CPU can run (SkylakeX and Cooperlake with AVX-512, Haswell with AVX2,
Zen on AMD), restarts itself with the fastest, and prints the kernel that
ran (threadpoolctl) in its first lines. Set RKHS_OPENBLAS_CORETYPE to skip
the search and use one kernel.
"""
import os
import subprocess
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


def gemm(sizes=(512, 1024, 2048, 4096)):
    for n in sizes:
        rng = np.random.default_rng(1)
        a, b = rng.uniform(-1, 1, (n, n)), rng.uniform(-1, 1, (n, n))
        line(f"BenchmarkGemm/openblas/n={n}", best(lambda: a @ b), 2.0 * n**3)


def cholesky(sizes=(512, 1024, 2048, 4096)):
    for n in sizes:
        rng = np.random.default_rng(1)
        b = rng.uniform(-1, 1, (n, n))
        a = b @ b.T / n + np.eye(n)
        line(f"BenchmarkCholesky/openblas/n={n}",
             best(lambda: sla.cholesky(a, lower=True, check_finite=False)), n**3 / 3.0)


def eigh(sizes=(500, 1000, 2000)):
    # dsyevd: Householder tridiagonalization, divide and conquer, back-transformation.
    for n in sizes:
        rng = np.random.default_rng(1)
        b = rng.uniform(-1, 1, (n, n))
        a = (b + b.T) / 2
        line(f"BenchmarkEigenSym/openblas-dsyevd/n={n}",
             best(lambda: sla.eigh(a, driver="evd", check_finite=False)))
        line(f"BenchmarkEigenSymValues/openblas-dsyevd/n={n}",
             best(lambda: sla.eigh(a, eigvals_only=True, driver="evd", check_finite=False)))


def svd(shapes=None):
    # The shapes of compare's BenchmarkSVD and BenchmarkSVDValues; dgesdd
    # is what scipy.linalg.svd calls by default (lapack_driver="gesdd").
    # shapes: thin SVDs only, "N" (square) or "MxN", named as in BenchmarkSVD.
    if shapes is not None:
        for sh in shapes:
            m, _, n = sh.partition("x")
            m, n = int(m), int(n or m)
            a = np.random.default_rng(1).uniform(-1, 1, (m, n))
            name = f"n={m}" if m == n else f"{m}x{n}"
            line(f"BenchmarkSVD/openblas-dgesdd/{name}",
                 best(lambda: sla.svd(a, full_matrices=False, check_finite=False)))
        return
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


def kernelridge(sizes=(2000, 4000, 8000)):
    # The job of BenchmarkRLSFit: Gaussian kernel, d = 8, one fit end to end.
    from sklearn.kernel_ridge import KernelRidge
    for n in sizes:
        rng = np.random.default_rng(3)
        x = rng.uniform(-1, 1, (n, 8))
        y = np.sin(3 * x).sum(axis=1) + 0.1 * rng.standard_normal(n)
        sigma, lam = 1.0, 1e-4
        m = KernelRidge(alpha=n * lam, kernel="rbf", gamma=1 / (2 * sigma**2))
        line(f"BenchmarkRLSFit/sklearn-KernelRidge/n={n}", best(lambda: m.fit(x, y), repeat=2))


def loopath(sizes=(2000,)):
    """The job of BenchmarkLOOPath/n=N/lambdas=100/with-decomposition in
    NumPy, since no library has a kernel leave-one-out path: the Gaussian
    Gram matrix (σ = 1, d = 8), one eigendecomposition K = QΛQᵀ (dsyevd),
    then for each of 100 λ in [1e-10, 1e5] the closed form of exact
    leave-one-out, residual (y − Hy)ᵢ/(1 − Hᵢᵢ) with H = QΛ(Λ + nλI)⁻¹Qᵀ.
    Without an intercept (rkhs's benchmark has a free one: the same
    decomposition, a little more per λ)."""
    for n in sizes:
        rng = np.random.default_rng(3)
        x = rng.uniform(-1, 1, (n, 8))
        y = np.sin(3 * x).sum(axis=1) + 0.1 * rng.standard_normal(n)
        lambdas = np.geomspace(1e-10, 1e5, 100)

        def run():
            sq = (x * x).sum(axis=1)
            k = np.exp(-np.maximum(sq[:, None] + sq[None, :] - 2 * x @ x.T, 0) / 2)
            w, q = sla.eigh(k, driver="evd", check_finite=False)
            qy, q2 = q.T @ y, q * q
            mse = []
            for lam in lambdas:
                g = w / (w + n * lam)
                mse.append(np.mean(((y - q @ (g * qy)) / (1 - q2 @ g)) ** 2))
            return mse

        line(f"BenchmarkLOOPath/numpy-eigh/n={n}/lambdas=100/with-decomposition", best(run, repeat=2))


def nystroem(prefix):
    """scikit-learn's Nystroem + Ridge on the data and centres that
    compare/falkon wrote with -dump PREFIX (raw float64 files
    PREFIX.{xtr,ytr,xte,yte,centres}.f64), the same problem as
    regress.Falkon: Ridge on K_nm·K_mm^(-1/2) with alpha = nλ is
    (1/n)‖K_nm·c + b − y‖² + λ·cᵀK_mm·c. The centres are the ones Falkon
    drew: Nystroem fitted on them alone with n_components = m uses every
    one. One timed run (fit: Nystroem fit and transform, Ridge fit), the
    test MSE (or accuracy with labels, the sign of the ±1 coding), and the
    peak resident size of the process. Arguments after the prefix:
    sigma=, lambda=, d=, classes (labels 1/2 coded ±1)."""
    import resource
    from sklearn.kernel_approximation import Nystroem
    from sklearn.linear_model import Ridge
    path, *opts = prefix.split(",")
    o = dict(kv.split("=") if "=" in kv else (kv, "1") for kv in opts)
    d, sigma, lam = int(o["d"]), float(o["sigma"]), float(o["lambda"])
    load = lambda name, cols: np.fromfile(f"{path}.{name}.f64").reshape(-1, cols)
    xtr, ytr, xte, yte, c = load("xtr", d), load("ytr", 1)[:, 0], load("xte", d), load("yte", 1)[:, 0], load("centres", d)
    n, m = xtr.shape[0], c.shape[0]
    classes = "classes" in o
    if classes:
        lo = min(ytr)
        ytr = np.where(ytr == lo, -1.0, 1.0)
    rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    t = time.perf_counter()
    ny = Nystroem(kernel="rbf", gamma=1 / (2 * sigma**2), n_components=m, random_state=0).fit(c)
    feats = ny.transform(xtr)
    model = Ridge(alpha=n * lam, fit_intercept=True).fit(feats, ytr)
    secs = time.perf_counter() - t
    del feats
    p = model.predict(ny.transform(xte))
    if classes:
        err = f"accuracy={np.mean(np.where(p > 0, max(yte), min(yte)) == yte):.5f}"
    else:
        err = f"test_mse={np.mean((p - yte) ** 2):.6g}"
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"sklearn Nystroem+Ridge: n={n} m={m} d={d} sigma={sigma} lambda={lam} fit {secs:.2f}s {err} "
          f"rss_data {rss0:.0f} MiB peak_rss {peak:.0f} MiB", flush=True)


# The environment variables that force an OpenBLAS kernel or cache size.
FORCING = ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")


def openblas_info():
    """The kernel ("architecture"), version and threads of the loaded OpenBLAS."""
    from threadpoolctl import threadpool_info
    for lib in threadpool_info():
        if lib.get("internal_api") == "openblas":
            return lib
    return None


def candidates():
    """OpenBLAS core types this CPU can run, best first (x86 Linux only)."""
    try:
        text = open("/proc/cpuinfo").read()
    except OSError:
        return []
    flags = set()
    vendor = ""
    for line in text.splitlines():
        if line.startswith("flags") and not flags:
            flags = set(line.split(":", 1)[1].split())
        if line.startswith("vendor_id") and not vendor:
            vendor = line.split(":", 1)[1].strip()
    out = []
    if {"avx512f", "avx512dq", "avx512bw", "avx512vl"} <= flags:
        if "avx512_bf16" in flags:
            out.append("Cooperlake")
        out.append("SkylakeX")
    if {"avx2", "fma"} <= flags:
        out.append("Zen" if vendor == "AuthenticAMD" else "Haswell")
    return out


def probe():
    """Run in a child: print the kernel that loaded and its GEMM speed."""
    import numpy as np
    n = 2048
    rng = np.random.default_rng(1)
    a, b = rng.uniform(-1, 1, (n, n)), rng.uniform(-1, 1, (n, n))
    info = openblas_info() or {}
    print(info.get("architecture", "?"), 2.0 * n**3 / best(lambda: a @ b) / 1e9)


def choose_kernel():
    """Restart this script with the fastest OpenBLAS kernel this CPU runs."""
    env = {k: v for k, v in os.environ.items() if k not in FORCING}
    inherited = {k: os.environ[k] for k in FORCING if k in os.environ}
    if inherited:
        print(f"# ignoring inherited {inherited}", flush=True)
    forced = os.environ.get("RKHS_OPENBLAS_CORETYPE")
    choice = None
    if forced:
        choice = forced
    else:
        results = []
        for core in candidates() + [None]:
            e = dict(env)
            if core:
                e["OPENBLAS_CORETYPE"] = core
            r = subprocess.run([sys.executable, __file__, "--probe"], env=e,
                               capture_output=True, text=True)
            if r.returncode != 0 or not r.stdout.split():
                continue
            arch, rate = r.stdout.split()[0], float(r.stdout.split()[1])
            # A core type OpenBLAS does not know leaves another kernel loaded.
            if core and arch.lower() != core.lower():
                continue
            label = core or f"autodetected ({arch})"
            print(f"# probe: GEMM n=2048 with {label}: {rate:.1f} GFLOP/s", flush=True)
            results.append((rate, core))
        if results:
            # The first (the newest kernel) within 5% of the fastest: the
            # probes are short, and a close race is noise.
            top = max(r[0] for r in results)
            choice = next(core for rate, core in results if rate >= 0.95 * top)
    if choice:
        env["OPENBLAS_CORETYPE"] = choice
    env["RKHS_OPENBLAS_CHOSEN"] = choice or "autodetected"
    os.execve(sys.executable, [sys.executable, __file__] + sys.argv[1:], env)


if __name__ == "__main__":
    if sys.argv[1:] == ["--probe"]:
        probe()
        sys.exit(0)
    if "RKHS_OPENBLAS_CHOSEN" not in os.environ:
        choose_kernel()
    jobs = {"gemm": gemm, "cholesky": cholesky, "eigh": eigh, "svd": svd,
            "ridgecv": ridgecv, "kernelridge": kernelridge, "loopath": loopath, "nystroem": nystroem}
    names = sys.argv[1:] or list(jobs)
    import scipy
    info = openblas_info() or {}
    print(f"# numpy {np.__version__}, scipy {scipy.__version__}", flush=True)
    print(f"# OpenBLAS {info.get('version', '?')}: kernel {info.get('architecture', '?')} "
          f"({os.environ['RKHS_OPENBLAS_CHOSEN']}), {info.get('num_threads', '?')} threads", flush=True)
    for name in names:
        # "gemm:2048,4096" runs the gemm job at those sizes only.
        job, _, sizes = name.partition(":")
        if job == "nystroem":  # nystroem:PREFIX,d=10,sigma=2,lambda=1e-6
            nystroem(sizes)
        elif sizes and job == "svd":
            svd(sizes.split(","))
        elif sizes:
            jobs[job](tuple(int(n) for n in sizes.split(",")))
        else:
            jobs[job]()
