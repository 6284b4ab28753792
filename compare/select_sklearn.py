#!/usr/bin/env python3
"""scikit-learn's everyday way of choosing σ and λ for Nyström kernel ridge
regression, beside `rkhs fit|classify -method nystrom -sigma auto -lambda
auto` (compare/select.sh runs both on the same files).

The pipeline: StandardScaler on the training rows; σ from the median
heuristic (the median distance between rows of a seeded sample of 1000
standardized training rows) × {1/4, 1/2, 1, 2, 4}; for each σ,
Nystroem(kernel="rbf", gamma=1/(2σ²), n_components=m) and RidgeCV (or
RidgeClassifierCV) over the α grid by its efficient leave-one-out; the σ
with the best leave-one-out score wins, and its model predicts the test
file. Both score by their default, the mean squared leave-one-out
residual: of the target in regression (the criterion rkhs fit minimizes),
of the ±1 coding of the labels in classification (rkhs classify minimizes
the leave-one-out error rate and breaks ties by this). RidgeClassifierCV's
scoring="accuracy" is not used: with its efficient leave-one-out
(cv=None), scikit-learn 1.2.1 reports a best_score_ of 1.0 where brute
force gives 0.72 (60 rows, 5 features, α = 0.1), so its choice would be
meaningless.

The λ grid is rkhs's: λ in the K + nλI convention, whose Nyström system
is (K_nmᵀK_nm + nλK_mm)c = K_nmᵀy. Ridge on the Nystroem features
Φ = K_nm·K_mm^(−1/2) solves (ΦᵀΦ + αI)w = Φᵀy; with w = K_mm^(1/2)·c this
is K_mm^(−1/2)(K_nmᵀK_nm + αK_mm)c = K_mm^(−1/2)K_nmᵀy, the same system
for α = nλ (n = training rows), with the same free intercept (both centre
the features and the labels). The job `mapcheck` checks this on a small
case against the rkhs binary, with every row a centre so that both tools
use the same centres.

Jobs:

  select_sklearn.py prepare DATA OUTDIR [--quick]
      Writes OUTDIR/DATA-train.csv and OUTDIR/DATA-test.csv (header, the
      feature columns, the target last) from $RKHS_DATA (default
      ../shared/data/large beside the repository): DATA is beijing (the 12
      station files sorted by name, the first 8 the training file, the last
      4 the test file; PM10, SO2, NO2, CO, O3, TEMP, PRES, DEWP, RAIN, WSPM,
      month, hour → PM2.5, missing values kept as NA for both tools to
      drop), skin (B, G, R → label 1 or 2; a seeded fifth of the rows the
      test file) or cal (the 8 features → median_house_value; a seeded
      fifth the test file). --quick: beijing from 2 stations (the first
      and the last), and at most 10,000 training and 5,000 test rows of
      any set.

  select_sklearn.py run TRAIN TEST --target NAME [--classify] [--m 1000]
      [--lambdas 1e-10:1e-2:25] [--seed 0]
      The pipeline on two CSV files with a header (any files: the target
      column by name, every other column a feature; rows with a missing
      or non-numeric value dropped, as rkhs -drop-missing does). Prints
      the median distance, the leave-one-out score of every σ at its best
      α, the choice, the test MSE or accuracy, the seconds to read and to
      fit, and the peak resident size. Out of memory (MemoryError, as
      under `ulimit -v`), it prints where and after how long, and exits 3.

  select_sklearn.py info
      The versions and the OpenBLAS kernel that threadpoolctl reports.

  select_sklearn.py mapcheck RKHS_BINARY
      The α = nλ mapping on a small case: rkhs fit -method nystrom with
      every row a centre against Nystroem + Ridge(alpha = nλ); prints the
      largest relative difference of the predictions and exits 1 above
      1e-6.

Not a dependency of rkhs: it needs python3-numpy, python3-scipy,
python3-sklearn and python3-threadpoolctl (Debian packages).
"""
import csv
import glob
import gzip
import math
import os
import resource
import subprocess
import sys
import tempfile
import time

import numpy as np

RATIOS = (0.25, 0.5, 1.0, 2.0, 4.0)
BEIJING_FEATURES = ["PM10", "SO2", "NO2", "CO", "O3", "TEMP", "PRES", "DEWP", "RAIN", "WSPM", "month", "hour"]
MISSING = {"", "NA", "N/A", "#N/A", "NaN", "nan", "null", "None", "?"}


def geometric(spec):
    """MIN:MAX:COUNT, geometric, as rkhs's -lambdas (loo.Geometric)."""
    lo, hi, count = spec.split(":")
    lo, hi, count = float(lo), float(hi), int(count)
    a, b = math.log10(lo), math.log10(hi)
    out = []
    for j in range(count):
        e = a + (b - a) * j / (count - 1) if count > 1 else a
        r = round(e)
        out.append(10.0**r if abs(e - r) < 1e-9 and abs(r) < 300 else 10**e)
    return out


def peak_mib():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def data_dir():
    here = os.path.dirname(os.path.abspath(__file__))
    return os.environ.get("RKHS_DATA", os.path.join(here, "..", "..", "shared", "data", "large"))


# ---- prepare -------------------------------------------------------------


def write_csv(path, header, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)
    print(f"wrote {path}: {len(rows)} rows", flush=True)


def split_rows(rows, seed):
    """The rows in a seeded random order, the first fifth for the test
    file and the rest for training (the skin file is sorted by label, so
    file order would not do for a --quick subset)."""
    perm = np.random.default_rng(seed).permutation(len(rows))
    k = len(rows) // 5
    return [rows[i] for i in perm[k:]], [rows[i] for i in perm[:k]]


def prepare(name, out, quick):
    os.makedirs(out, exist_ok=True)
    src = data_dir()
    if name == "beijing":
        files = sorted(glob.glob(os.path.join(src, "beijing_air_quality", "PRSA_Data_*.csv.gz")))
        if len(files) != 12:
            sys.exit(f"prepare beijing: {len(files)} station files in {src}/beijing_air_quality, want 12")
        parts = ([files[0]], [files[-1]]) if quick else (files[:8], files[8:])
        header = BEIJING_FEATURES + ["PM2.5"]
        for part, files_ in zip(("train", "test"), parts):
            rows = []
            for fn in files_:
                with gzip.open(fn, "rt", newline="") as f:
                    r = csv.DictReader(f)
                    rows += [[rec[c] for c in header] for rec in r]
            if quick:
                rows = rows[: 10000 if part == "train" else 5000]
            write_csv(os.path.join(out, f"beijing-{part}.csv"), header, rows)
        return
    if name == "skin":
        with gzip.open(os.path.join(src, "skin", "Skin_NonSkin.txt.gz"), "rt") as f:
            rows = [line.split() for line in f if line.strip()]
        header = ["B", "G", "R", "label"]
    elif name == "cal":
        with open(os.path.join(src, "cal_housing.csv"), newline="") as f:
            r = csv.reader(f)
            header = next(r)
            rows = list(r)
        if header[-1] != "median_house_value" or len(header) != 9:
            sys.exit(f"prepare cal: columns {header}, want 8 features and median_house_value last")
    else:
        sys.exit(f"prepare: unknown data {name!r}: want beijing, skin or cal")
    train, test = split_rows(rows, seed=1)
    if quick:
        train, test = train[:10000], test[:5000]
    write_csv(os.path.join(out, f"{name}-train.csv"), header, train)
    write_csv(os.path.join(out, f"{name}-test.csv"), header, test)


# ---- run -----------------------------------------------------------------


def read_csv(path, target):
    """Features and target of a CSV file with a header; rows with a missing
    or non-numeric value in any column dropped."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", newline="") as f:
        r = csv.reader(f)
        header = next(r)
        if target not in header:
            sys.exit(f"{path}: no column {target!r} in {header}")
        t = header.index(target)
        keep, dropped = [], 0
        for rec in r:
            try:
                keep.append([float(v) for v in rec])
            except ValueError:
                dropped += 1
    a = np.array(keep, dtype=np.float64)
    if dropped:
        print(f"{path}: dropped {dropped} of {dropped + len(a)} rows with a missing value", flush=True)
    return np.delete(a, t, axis=1), a[:, t]


def median_distance(x, seed, rows=1000):
    from scipy.spatial.distance import pdist
    rng = np.random.default_rng(seed)
    s = x[rng.choice(len(x), rows, replace=False)] if len(x) > rows else x
    d = pdist(s)
    return float(np.median(d[d > 0]))


def run(args):
    import argparse
    p = argparse.ArgumentParser(prog="select_sklearn.py run")
    p.add_argument("train")
    p.add_argument("test")
    p.add_argument("--target", required=True)
    p.add_argument("--classify", action="store_true")
    p.add_argument("--m", type=int, default=1000)
    p.add_argument("--lambdas", default="1e-10:1e-2:25")
    p.add_argument("--seed", type=int, default=0)
    o = p.parse_args(args)
    from sklearn.kernel_approximation import Nystroem
    from sklearn.linear_model import RidgeClassifierCV, RidgeCV
    from sklearn.preprocessing import StandardScaler

    t0 = time.perf_counter()
    xtr, ytr = read_csv(o.train, o.target)
    xte, yte = read_csv(o.test, o.target)
    t_read = time.perf_counter() - t0
    n, d = xtr.shape
    lambdas = geometric(o.lambdas)
    alphas = [n * lam for lam in lambdas]
    kind = "RidgeClassifierCV (LOO MSE of the ±1 coding)" if o.classify else "RidgeCV (LOO MSE)"
    print(f"sklearn: n_train {n}, n_test {len(xte)}, d {d}, m {o.m}, {len(alphas)} α = n·λ for λ in {o.lambdas}, {kind}; "
          f"read {t_read:.2f} s, peak RSS {peak_mib():.0f} MiB", flush=True)
    t1 = time.perf_counter()
    stage = "StandardScaler"
    try:
        scaler = StandardScaler().fit(xtr)
        ztr = scaler.transform(xtr)
        stage = "median heuristic"
        med = median_distance(ztr, o.seed)
        print(f"median distance {med:.4g}", flush=True)
        best = None
        for r in RATIOS:
            sigma = r * med
            stage = f"σ = {sigma:.4g}: Nystroem"
            ny = Nystroem(kernel="rbf", gamma=1 / (2 * sigma**2), n_components=o.m, random_state=o.seed).fit(ztr)
            phi = ny.transform(ztr)
            stage = f"σ = {sigma:.4g}: {kind.split()[0]}"
            if o.classify:
                est = RidgeClassifierCV(alphas=alphas).fit(phi, ytr)
            else:
                est = RidgeCV(alphas=alphas).fit(phi, ytr)
            loo = -est.best_score_  # the LOO MSE (of the ±1 coding when classifying)
            del phi
            lam = est.alpha_ / n
            print(f"σ = {sigma:.4g} (median × {r:g}): best α = {est.alpha_:.4g} (λ = {lam:.4g}), "
                  f"LOO MSE {loo:.6g}, {time.perf_counter() - t1:.1f} s, peak RSS {peak_mib():.0f} MiB", flush=True)
            if best is None or loo < best[0]:
                best = (loo, sigma, lam, ny, est)
        stage = "prediction"
        loo, sigma, lam, ny, est = best
        t_fit = time.perf_counter() - t1
        pred = est.predict(ny.transform(scaler.transform(xte)))
    except MemoryError as e:
        print(f"sklearn: out of memory at {stage} after {time.perf_counter() - t1:.1f} s "
              f"(peak RSS {peak_mib():.0f} MiB): {type(e).__name__}: {e}", flush=True)
        sys.exit(3)
    if o.classify:
        err = f"test accuracy {np.mean(pred == yte):.6f}"
    else:
        err = f"test MSE {np.mean((pred - yte) ** 2):.6g}"
    print(f"sklearn chosen σ = {sigma:.4g}, λ = {lam:.4g} (α = {lam * n:.4g}): LOO MSE {loo:.6g}; "
          f"{err}; fit {t_fit:.2f} s (selection and final fit), read {t_read:.2f} s, peak RSS {peak_mib():.0f} MiB", flush=True)


# ---- mapcheck ------------------------------------------------------------


def mapcheck(rkhs):
    """rkhs Nyström at λ against Ridge(alpha = nλ) on Nystroem features,
    every row a centre, no standardization."""
    from sklearn.kernel_approximation import Nystroem
    from sklearn.linear_model import Ridge
    rng = np.random.default_rng(7)
    n, d, sigma = 80, 3, 1.3
    x = rng.uniform(-1, 1, (n, d))
    y = np.sin(3 * x[:, 0]) + x[:, 1] * x[:, 2] + 0.1 * rng.standard_normal(n)
    xt = rng.uniform(-1, 1, (40, d))
    worst = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        tr, te, pr = (os.path.join(tmp, f) for f in ("train.csv", "test.csv", "pred"))
        write = lambda path, a, b: np.savetxt(path, np.column_stack([a, b]), delimiter=",", fmt="%.17g",
                                             header="a,b,c,y", comments="")
        write(tr, x, y)
        write(te, xt, np.zeros(len(xt)))
        for lam in (1e-6, 1e-3, 1e-1):
            subprocess.run([rkhs, "fit", "-train", tr, "-test", te, "-method", "nystrom", "-centers", str(n),
                            "-sigma", repr(sigma), "-lambda", repr(lam), "-standardize=no", "-predictions", pr],
                           check=True, capture_output=True)
            got = np.loadtxt(pr)
            ny = Nystroem(kernel="rbf", gamma=1 / (2 * sigma**2), n_components=n, random_state=0).fit(x)
            want = Ridge(alpha=n * lam).fit(ny.transform(x), y).predict(ny.transform(xt))
            rel = np.max(np.abs(got - want)) / np.max(np.abs(want))
            print(f"λ = {lam:g}, α = nλ = {n * lam:g}: largest difference of the test predictions {rel:.2e} of the largest", flush=True)
            worst = max(worst, rel)
    print(f"mapcheck: {'ok' if worst < 1e-6 else 'FAILED'} (largest {worst:.2e}, want < 1e-6)")
    sys.exit(0 if worst < 1e-6 else 1)


def blas():
    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        return "threadpoolctl missing"
    for lib in threadpool_info():
        if lib.get("internal_api") == "openblas":
            return f"OpenBLAS {lib.get('version')}: kernel {lib.get('architecture')}, {lib.get('num_threads')} threads"
    return "no OpenBLAS loaded"


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    job, rest = sys.argv[1], sys.argv[2:]
    if job == "prepare" and len(rest) >= 2:
        prepare(rest[0], rest[1], "--quick" in rest[2:])
    elif job == "info":
        import scipy
        import sklearn
        unset = [v for v in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE") if v not in os.environ]
        print(f"numpy {np.__version__}, scipy {scipy.__version__}, scikit-learn {sklearn.__version__}; {blas()}"
              f"{' (' + ' and '.join(unset) + ' unset)' if unset else ''}", flush=True)
    elif job == "run":
        run(rest)
    elif job == "mapcheck" and len(rest) == 1:
        mapcheck(rest[0])
    else:
        sys.exit(__doc__)
