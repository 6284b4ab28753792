package loo

import (
	"testing"

	"rkhs/kernels"
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
