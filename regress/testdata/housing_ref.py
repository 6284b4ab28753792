"""Reference predictions of kernel RLS on housing, computed independently of
rkhs with NumPy (LAPACK LU solves, distances by explicit differences).

Split: rows i with i % 3 == 2 are the test set, the others the training set
(2/3 and 1/3). Kernel: Gaussian exp(-|x-z|^2 / (2 sigma^2)), sigma = 1.
lambda = 1e-4 in the K + n*lambda*I convention (n = training rows).
The free intercept solves the bordered system [K+nlI 1; 1' 0][c; b] = [y; 0]
directly (an indefinite LU solve, unlike rkhs, which uses two SPD solves).

Regenerate with:  python3 housing_ref.py > housing_ref.txt
(needs python3-numpy; the file is read from ../../datasets/regression).
"""
import numpy as np

rows = []
for line in open("../../datasets/regression/housing_scale"):
    f = line.split()
    y = float(f[0])
    x = np.zeros(13)
    for t in f[1:]:
        i, v = t.split(":")
        x[int(i) - 1] = float(v)
    rows.append((x, y))
X = np.array([r[0] for r in rows])
Y = np.array([r[1] for r in rows])
test = np.arange(len(Y)) % 3 == 2
Xtr, Ytr, Xte, Yte = X[~test], Y[~test], X[test], Y[test]
n = len(Ytr)
sigma, lam = 1.0, 1e-4

def gauss(A, B):
    d = A[:, None, :] - B[None, :, :]
    return np.exp(-np.sum(d * d, axis=2) / (2 * sigma * sigma))

K = gauss(Xtr, Xtr)
Kte = gauss(Xte, Xtr)
G = K + n * lam * np.eye(n)

c0 = np.linalg.solve(G, Ytr)
p0 = Kte @ c0

B = np.zeros((n + 1, n + 1))
B[:n, :n] = G
B[:n, n] = 1
B[n, :n] = 1
sol = np.linalg.solve(B, np.concatenate([Ytr, [0.0]]))
c1, b1 = sol[:n], sol[n]
p1 = Kte @ c1 + b1

c2 = np.linalg.solve(G + 1.0, Ytr)
b2 = c2.sum()
p2 = Kte @ c2 + b2

print("# housing, Gaussian sigma=1, lambda=1e-4, train rows i%%3!=2 (n=%d), test rows i%%3==2 (%d)" % (n, len(Yte)))
print("# intercept b: none 0, free %.17g, penalized %.17g" % (b1, b2))
print("# test MSE: none %.17g, free %.17g, penalized %.17g" % tuple(np.mean((p - Yte) ** 2) for p in (p0, p1, p2)))
print("# columns: prediction with intercept none, free, penalized")
for a, b, c in zip(p0, p1, p2):
    print("%.17g %.17g %.17g" % (a, b, c))
