package loo

import (
	"testing"

	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

// TestLinearMatchesKernelPath: the O(nd)-per-λ linear LOO from the thin SVD
// equals the general kernel LOO (from the n×n eigendecomposition of XXᵀ,
// itself checked against refits), in every intercept mode.
func TestLinearMatchesKernelPath(t *testing.T) {
	x, y := housing(150)
	lambdas := []float64{1e-6, 1e-3, 1e-1}
	s, err := regress.NewSpectral(kernels.Linear{}, x, y)
	if err != nil {
		t.Fatal(err)
	}
	for _, ic := range intercepts {
		lp, err := regress.NewLinearPath(x, y, ic)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Linear(lp, lambdas)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := RLS(s, lambdas, ic)
		for j := range lambdas {
			if r := maxRel(got.Residuals[j], want.Residuals[j]); r > 1e-8 {
				t.Errorf("%v λ=%g: linear and kernel LOO differ by %.3g", ic, lambdas[j], r)
			}
		}
		pred := got.Predictions(1)
		for i := 0; i < 5; i++ {
			if d := pred.At(i, 0) + got.Residuals[1].At(i, 0) - y.At(i, 0); d*d > 1e-20 {
				t.Errorf("%v: prediction + residual ≠ y at %d", ic, i)
			}
		}
	}
}

// TestLinearBruteForce: the linear-kernel LOO from the thin SVD equals n
// primal refits without one point each (penalty nλ kept), in every
// intercept mode.
func TestLinearBruteForce(t *testing.T) {
	x, y := housing(80)
	n := x.Rows
	lambdas := []float64{1e-6, 1e-2}
	for _, ic := range intercepts {
		lp, err := regress.NewLinearPath(x, y, ic)
		if err != nil {
			t.Fatal(err)
		}
		p, err := Linear(lp, lambdas)
		if err != nil {
			t.Fatal(err)
		}
		for j, l := range lambdas {
			want := linalg.NewDense(n, y.Cols, nil)
			for i := 0; i < n; i++ {
				xr, yr := without(x, y, i)
				m, err := regress.LinearRLS{Lambda: l * float64(n) / float64(n-1), Intercept: ic}.Fit(xr, yr)
				if err != nil {
					t.Fatal(err)
				}
				pr, _ := m.Predict(x.Slice(i, i+1, 0, x.Cols))
				for out := 0; out < y.Cols; out++ {
					want.Set(i, out, y.At(i, out)-pr.At(0, out))
				}
			}
			if r := maxRel(p.Residuals[j], want); r > 1e-9 {
				t.Errorf("%v λ=%g: linear LOO and refits differ by %.3g", ic, l, r)
			}
		}
	}
}
