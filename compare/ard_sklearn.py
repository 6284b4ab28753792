#!/usr/bin/env python3
"""scikit-learn's Gaussian process with one length scale per feature (an ARD
RBF kernel, its hyper-parameters fitted by the marginal likelihood with
L-BFGS-B), beside `rkhs fit -sigma ard` (compare/ard.sh runs both on the
same files).

The Gaussian process costs O(n³) a step of its optimizer, so it is fitted
on the largest seeded subset of the training rows that fits a time budget
(default 10 minutes): fits at 500 and 1000 rows time the cube law, which
gives the n that the budget allows; the fit at that n is the one reported
(if it overruns the budget, it is reported as it is, with its time). The
features are standardized by the training rows (StandardScaler), the
kernel is ConstantKernel · RBF(length_scale = one per feature) +
WhiteKernel, normalize_y=True; for classes (--classify) the labels are
coded ±1 (the larger label +1), regressed, and the sign predicts the
class, as rkhs's RLS classification does.

  ard_sklearn.py run TRAIN TEST --target NAME [--classify] [--budget 600]
      [--seed 0] [--rows N]
      --rows N fits on N rows instead of the budget's n. Prints the rows
      fitted, the length scales (in standard deviations of the features,
      ranked), the test MSE or accuracy, the seconds of the timing fits and
      of the fit, and the peak resident size.

The data files are compare/select_sklearn.py's (its prepare job).
Not a dependency of rkhs: it needs python3-numpy, python3-scipy and
python3-sklearn (Debian packages).
"""
import argparse
import sys
import time

import numpy as np

import select_sklearn as sel


def fit_gp(x, y, seed):
    from sklearn.gaussian_process import GaussianProcessRegressor
    from sklearn.gaussian_process.kernels import RBF, ConstantKernel, WhiteKernel
    d = x.shape[1]
    kernel = ConstantKernel(1.0, (1e-3, 1e3)) * RBF(length_scale=np.ones(d), length_scale_bounds=(1e-2, 1e3)) + WhiteKernel(
        1e-2, (1e-8, 1e1))
    gp = GaussianProcessRegressor(kernel=kernel, normalize_y=True, random_state=seed)
    start = time.time()
    gp.fit(x, y)
    return gp, time.time() - start


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("job")
    ap.add_argument("train")
    ap.add_argument("test")
    ap.add_argument("--target", required=True)
    ap.add_argument("--classify", action="store_true")
    ap.add_argument("--budget", type=float, default=600)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--rows", type=int, default=0)
    a = ap.parse_args()
    if a.job != "run":
        sys.exit(f"unknown job {a.job!r}: want run")
    from sklearn.preprocessing import StandardScaler
    x, y = sel.read_csv(a.train, a.target)
    xt, yt = sel.read_csv(a.test, a.target)
    names = [c for c in open(a.train).readline().strip().split(",") if c != a.target]
    classes = None
    if a.classify:
        classes = np.unique(y)
        if len(classes) != 2:
            sys.exit(f"--classify: {len(classes)} classes, this script codes two")
        y = np.where(y == classes[1], 1.0, -1.0)
    scaler = StandardScaler().fit(x)
    x, xt = scaler.transform(x), scaler.transform(xt)
    rng = np.random.default_rng(a.seed)
    perm = rng.permutation(len(x))
    n = a.rows
    timing = []
    if n == 0:
        for n0 in (500, 1000):
            idx = perm[:n0]
            _, t = fit_gp(x[idx], y[idx], a.seed)
            timing.append((n0, t))
            print(f"timing fit: {n0} rows, {t:.1f} s", flush=True)
        n0, t0 = timing[-1]
        n = int(n0 * (a.budget / max(t0, 1e-3)) ** (1 / 3)) // 500 * 500
        n = max(1000, min(n, len(x)))
        print(f"the cube law from {n0} rows in {t0:.1f} s gives {n} rows in {a.budget:.0f} s", flush=True)
    idx = perm[:n]
    gp, t = fit_gp(x[idx], y[idx], a.seed)
    start = time.time()
    p = gp.predict(xt)
    tp = time.time() - start
    ls = gp.kernel_.k1.k2.length_scale
    order = np.argsort(ls)
    print(f"fitted on {n} of the {len(x)} training rows in {t:.1f} s (predict {tp:.1f} s); kernel {gp.kernel_}", flush=True)
    print("length scales (standard deviations), ranked:", ", ".join(f"{names[j]} {ls[j]:.3g}" for j in order))
    if a.classify:
        acc = np.mean(np.where(p > 0, classes[1], classes[0]) == yt)
        print(f"n_test {len(yt)}, test accuracy {acc:.6f}, test error {1 - acc:.6f}")
    else:
        print(f"n_test {len(yt)}, test MSE {np.mean((p - yt) ** 2):.6g}")
    print(f"peak RSS {sel.peak_mib():.0f} MiB")


if __name__ == "__main__":
    main()
