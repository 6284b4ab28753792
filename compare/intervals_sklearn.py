#!/usr/bin/env python3
"""Jackknife+ and CV+ by brute-force refits with scikit-learn, what MAPIE
does (MapieRegressor(method="plus", cv=-1) and cv=K), beside package
interval's closed forms (compare/intervals.sh runs both on the same rows).

    intervals_sklearn.py run DIR [--budget 600] [--max-mib 4096]

DIR is what `go run ./intervals -dump DIR` wrote: the standardized training
and test rows, the Nyström centres, the folds, σ and λ chosen by rkhs's
leave-one-out, and rkhs's jackknife+ ends at the middle level. The model is
rkhs's, in scikit-learn's terms: Nystroem(kernel="rbf", gamma=1/(2σ²))
fitted on rkhs's M centres themselves (n_components = M: every centre is a
component, so that both sides use the same features up to a rotation),
then Ridge(alpha=nλ, fit_intercept=True) — the same system as rkhs's
Nyström fit with a free intercept (compare/select_sklearn.py, job
mapcheck, checks α = nλ). Removing a row keeps α, the penalty nλ held
fixed, as rkhs's leave-one-out models hold it: so the intervals are the
same ones, and the job prints the largest difference of the jackknife+
ends from rkhs's, relative to their mean width.

Jackknife+: n refits of Ridge on the other n − 1 rows of the features
(computed once: MAPIE, refitting the whole pipeline, would also refit
Nystroem each time, so this is a lower bound on its time), each predicting
the test rows and its own row, an n×t matrix of leave-one-out predictions
as MAPIE keeps; then the ranks of Barber et al. (np.partition). Before the
loop it times the first refits (10 to 50, 5 s or more, after the first) and skips the rest, printing the estimate,
when n refits would take more than --budget seconds, and it runs nothing
when the features and the n×t predictions would pass --max-mib MiB. CV+: K refits on the
rows outside each fold. Classes (skin): the same refits on the ±1 coding
(+1 for the larger label), the score of package interval's Classes
(−f for the larger label, f for the smaller), label ℓ in the set at x when
fewer than level·(n+1) rows i have S(x, ℓ; f₋ᵢ) > Sᵢ.

Each phase prints its wall and CPU seconds (time.process_time) and the
peak resident size of the process so far (resource.getrusage). Needs
python3-numpy, python3-sklearn (Debian packages).
"""
import math
import os
import resource
import sys
import time

import numpy as np


def peak_mib():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def load(d, name):
    path = os.path.join(d, name + ".f64")
    if not os.path.exists(path):
        return None
    with open(os.path.join(d, name + ".shape")) as f:
        r, c = (int(v) for v in f.read().split())
    return np.fromfile(path, dtype="<f8").reshape(r, c)


def meta(d):
    out = {}
    with open(os.path.join(d, "meta.txt")) as f:
        for line in f:
            k, v = line.split(None, 1)
            out[k] = v.strip()
    return out


class Phase:
    def __init__(self, name):
        self.name = name
        self.t, self.c = time.perf_counter(), time.process_time()

    def done(self, extra=""):
        w, c = time.perf_counter() - self.t, time.process_time() - self.c
        print(f"{self.name}: {w:.2f} s wall, {c:.2f} s CPU, peak RSS {peak_mib():.0f} MiB{extra}", flush=True)
        return w, c


def intervals(p, r, levels):
    """Jackknife+/CV+ ends: p (n×t) the leave-out predictions at the test
    rows, r (n) the leave-out residuals |yᵢ − μ̂₋ᵢ(xᵢ)|."""
    n = p.shape[0]
    out = {}
    for lv in levels:
        a = 1 - lv
        lo_k, hi_k = math.floor(a * (n + 1) + 1e-12), math.ceil(lv * (n + 1) - 1e-12)
        lo = np.full(p.shape[1], -np.inf) if lo_k < 1 else np.partition(p - r[:, None], lo_k - 1, axis=0)[lo_k - 1]
        hi = np.full(p.shape[1], np.inf) if hi_k > n else np.partition(p + r[:, None], hi_k - 1, axis=0)[hi_k - 1]
        out[lv] = (lo, hi)
    return out


def sets(p, s, levels):
    """Label sets of two classes: p (n×t) the leave-out decision values f
    at the test rows, s (n) the rows' scores. Returns, per level, the
    membership of the larger label and of the smaller (t each)."""
    n = p.shape[0]
    out = {}
    for lv in levels:
        lim = lv * (n + 1)
        big = (np.sum(-p > s[:, None], axis=0) < lim)
        small = (np.sum(p > s[:, None], axis=0) < lim)
        out[lv] = (big, small)
    return out


def run(args):
    import argparse
    ap = argparse.ArgumentParser(prog="intervals_sklearn.py run")
    ap.add_argument("dir")
    ap.add_argument("--budget", type=float, default=600)
    ap.add_argument("--max-mib", type=float, default=4096)
    o = ap.parse_args(args)
    from sklearn.kernel_approximation import Nystroem
    from sklearn.linear_model import Ridge

    m = meta(o.dir)
    sigma, lam = float(m["sigma"]), float(m["lambda"])
    classify = m["classify"] == "true"
    levels = [float(v) for v in m["levels"].split(",")]
    middle = float(m["middle"])
    xtr, ytr, xte, yte = (load(o.dir, k) for k in ("xtr", "ytr", "xte", "yte"))
    centres, folds = load(o.dir, "centres"), load(o.dir, "folds")[:, 0].astype(int)
    if centres is None:
        sys.exit("intervals_sklearn.py: no centres: run the Go program with -method nystrom")
    ytr, yte = ytr[:, 0], yte[:, 0]
    n, t, mm = len(xtr), len(xte), len(centres)
    classes = np.unique(ytr)
    if classify:
        if len(classes) != 2:
            sys.exit("intervals_sklearn.py: label sets for two classes only")
        ytr_code = np.where(ytr == classes[1], 1.0, -1.0)
    else:
        ytr_code = ytr
    alpha = n * lam
    print(f"sklearn: n {n}, t {t}, d {xtr.shape[1]}, M {mm}, σ {sigma:.6g}, λ {lam:.6g} (α = nλ = {alpha:.6g}), "
          f"{'label sets' if classify else 'intervals'}, K = {folds.max() + 1}", flush=True)

    need = 8 * n * (2 * mm + 2 * t) / 2**20  # the features, a refit's copy of them, the n×t predictions and a partition's copy
    if need > o.max_mib:
        print(f"sklearn | - | skipped: about {need:.0f} MiB of features and leave-out predictions, over --max-mib {o.max_mib:.0f} | | |")
        return
    ph = Phase("features (Nystroem on rkhs's centres)")
    ny = Nystroem(kernel="rbf", gamma=1 / (2 * sigma**2), n_components=mm).fit(centres)
    phi, phit = ny.transform(xtr), ny.transform(xte)
    ph.done()

    def ridge(rows):
        return Ridge(alpha=alpha, fit_intercept=True).fit(phi[rows], ytr_code[rows])

    def summarize(name, p, lo_out, ph):
        """p: leave-out predictions n×t; lo_out: leave-out values at own
        rows; ph the phase, ended once the sets or intervals are known."""
        res = {}
        if classify:
            s = -np.where(ytr == classes[1], 1.0, -1.0) * lo_out
            for lv, (big, small) in sets(p, s, levels).items():
                inset = np.where(yte == classes[1], big, small)
                res[lv] = (inset.mean(), (big.astype(int) + small).mean())
        else:
            r = np.abs(ytr - lo_out)
            iv = intervals(p, r, levels)
            for lv, (lo, hi) in iv.items():
                res[lv] = (np.mean((lo <= yte) & (yte <= hi)), np.mean(hi - lo))
            rl = None
            if name.startswith("jackknife"):
                rl, ru = load(o.dir, "jack_lower"), load(o.dir, "jack_upper")
                if rl is not None:
                    lo, hi = iv[middle]
                    scale = np.mean(hi - lo)
                    dl, du = np.max(np.abs(lo - rl[:, 0])), np.max(np.abs(hi - ru[:, 0]))
                    check = (f"{name}: largest difference from rkhs's ends at {middle:g}: lower {dl / scale:.2e}, "
                             f"upper {du / scale:.2e} of the mean width")
        w, c = ph.done()
        if not classify and name.startswith("jackknife") and rl is not None:
            print(check, flush=True)
        for i, lv in enumerate(levels):
            tail = f" | {w:.2f} | {c:.2f} | {peak_mib():.0f}" if i == 0 else " | | |"
            print(f"sklearn {name} | {lv:g} | {res[lv][0]:.4f} | {res[lv][1]:.5g}{tail}", flush=True)

    print(f"method | level | coverage | mean {'set size' if classify else 'width'} | wall s | CPU s | peak RSS MiB")
    # Jackknife+: n refits, timed on the first few before committing.
    ph = Phase("jackknife+ refits")
    p = np.empty((n, t))
    own = np.empty(n)
    mask = np.ones(n, dtype=bool)
    skipped, probing, t1 = False, True, None
    for i in range(n):
        if i == 1:
            t1 = time.perf_counter()  # the first refit warms up; the estimate starts after it
        elapsed = time.perf_counter() - t1 if t1 else 0
        if probing and i >= 10 and (elapsed >= 5 or i == 50):
            probing = False
            est = (time.perf_counter() - ph.t) + elapsed / (i - 1) * (n - i)
            if est > o.budget:
                print(f"sklearn jackknife+ | - | skipped: {n} refits would take about {est:.0f} s "
                      f"(from the first {i}), over the budget of {o.budget:.0f} s | | |", flush=True)
                skipped = True
                break
        mask[i] = False
        f = ridge(mask)
        mask[i] = True
        p[i] = f.predict(phit)
        own[i] = f.predict(phi[i:i + 1])[0]
    if not skipped:
        summarize("jackknife+ (n refits)", p, own, ph)
    del p
    # CV+: K refits.
    ph = Phase("CV+ refits")
    k = folds.max() + 1
    p = np.empty((n, t))
    own = np.empty(n)
    for j in range(k):
        out = folds == j
        f = ridge(~out)
        p[out] = f.predict(phit)
        own[out] = f.predict(phi[out])
    summarize(f"CV+ (K = {k} refits)", p, own, ph)


def main():
    if len(sys.argv) < 2 or sys.argv[1] != "run":
        sys.exit(__doc__)
    run(sys.argv[2:])


if __name__ == "__main__":
    main()
