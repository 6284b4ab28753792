package regress

import (
	"math"
	"testing"

	"rkhs/kernels"
)

// TestLinearPath: the SVD route equals the primal normal equations and
// the dual n×n fit, for every intercept mode and several λ, on a tall and
// a wide (n < d) problem. In the wide case XᵀX + nλI is singular but for
// nλ (condition about ‖X‖²/(nλ), 1e7 at λ = 1e-8), so the primal route is
// held to 1e-16 times that condition; the dual's n×n system stays well
// posed and is held to 1e-8. In the tall case it is the dual's turn: K = XXᵀ
// has rank d < n, and K (+ 11ᵀ) + nλI has condition (‖X‖² + n)/(nλ), 1e8 at
// λ = 1e-8, so the dual is held to 30·ε times that (and to 1e-8 at least).
func TestLinearPath(t *testing.T) {
	for _, sz := range []struct{ n, d int }{{120, 7}, {15, 40}} {
		x, y, xt := randDense(80, sz.n, sz.d), randDense(81, sz.n, 2), randDense(82, 9, sz.d)
		for _, ic := range intercepts {
			lp, err := NewLinearPath(x, y, ic)
			if err != nil {
				t.Fatal(err)
			}
			for _, lambda := range []float64{1e-8, 1e-3, 10} {
				got, err := lp.Fit(lambda)
				if err != nil {
					t.Fatal(err)
				}
				primal, _ := LinearRLS{Lambda: lambda, Intercept: ic}.Fit(x, y)
				dual, _ := RLS{Kernel: kernels.Linear{}, Lambda: lambda, Intercept: ic}.Fit(x, y)
				pg := predict(t, got, xt)
				tol := 1e-9
				if sz.d > sz.n {
					s := lp.s[0]
					tol = math.Max(tol, 1e-16*s*s/(float64(sz.n)*lambda))
				}
				if r := relDiff(pg, predict(t, primal, xt)); r > tol {
					t.Errorf("%dx%d %v λ=%g: SVD route and primal differ by %.3g", sz.n, sz.d, ic, lambda, r)
				}
				dualTol := 1e-8
				if sz.n > sz.d {
					s := lp.s[0]
					dualTol = math.Max(dualTol, 30*0x1p-52*(s*s+float64(sz.n))/(float64(sz.n)*lambda))
				}
				if r := relDiff(pg, predict(t, dual, xt)); r > dualTol {
					t.Errorf("%dx%d %v λ=%g: SVD route and dual differ by %.3g", sz.n, sz.d, ic, lambda, r)
				}
			}
		}
	}
}

// TestLinearFitAugmented: Tikhonov on [K 1] for the linear kernel from the SVD of X equals
// the same from the eigendecomposition of the n×n kernel matrix.
func TestLinearFitAugmented(t *testing.T) {
	x, y, xt := randDense(83, 70, 6), randDense(84, 70, 2), randDense(85, 8, 6)
	lp, err := NewLinearPath(x, y, NoIntercept)
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSpectral(kernels.Linear{}, x, y)
	if err != nil {
		t.Fatal(err)
	}
	for _, lambda := range []float64{1e-6, 1e-2, 1} {
		got, err := lp.FitAugmented(lambda)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := s.FitAugmented(lambda)
		if r := relDiff(predict(t, got, xt), predict(t, want, xt)); r > 1e-8 {
			t.Errorf("λ=%g: TIKH from the SVD and from the eigendecomposition differ by %.3g", lambda, r)
		}
	}
	free, _ := NewLinearPath(x, y, FreeIntercept)
	if _, err := free.FitAugmented(1); err == nil {
		t.Errorf("FitAugmented on a centred factorization did not fail")
	}
}
