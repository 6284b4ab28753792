package interval

import (
	"fmt"
	"testing"

	"rkhs/kernels"
	"rkhs/regress"
)

// TestPathEqualsRefits: every λ of a path from one eigendecomposition
// gives the jackknife+ ends of n refits, in every intercept mode, and the
// predictions and standard deviations of RLS by Cholesky at that λ.
func TestPathEqualsRefits(t *testing.T) {
	x, y, xt := problem(2, 25, 6, 2)
	k := kernels.Gaussian{Sigma: 1.2}
	s, err := regress.NewSpectral(k, x, y)
	if err != nil {
		t.Fatal(err)
	}
	lambdas := []float64{1e-4, 3e-3, 0.2}
	const level = 0.8
	for _, ic := range intercepts {
		p, err := NewPath(s, lambdas, ic)
		if err != nil {
			t.Fatal(err)
		}
		got, err := p.Predict(xt, level)
		if err != nil {
			t.Fatal(err)
		}
		for l, lambda := range lambdas {
			t.Run(fmt.Sprintf("%v/λ=%g", ic, lambda), func(t *testing.T) {
				cfg := regress.RLS{Kernel: k, Lambda: lambda, Intercept: ic}
				lo, hi, _ := bruteIntervals(t, x, y, xt, singletons(x.Rows), level, rlsRefit(cfg))
				if d := scaledDiff(got[l].Lower, lo); d > 1e-9 {
					t.Errorf("lower ends differ from refits' by %.2g", d)
				}
				if d := scaledDiff(got[l].Upper, hi); d > 1e-9 {
					t.Errorf("upper ends differ from refits' by %.2g", d)
				}
				jk, err := RLS(cfg, x, y)
				if err != nil {
					t.Fatal(err)
				}
				want, err := jk.Predict(xt, level)
				if err != nil {
					t.Fatal(err)
				}
				if d := scaledDiff(got[l].Prediction, want.Prediction); d > 1e-9 {
					t.Errorf("predictions differ from RLS's by %.2g", d)
				}
				if d := scaledDiff(vecDense(got[l].StdDev), vecDense(want.StdDev)); d > 1e-7 {
					t.Errorf("standard deviations differ from RLS's by %.2g", d)
				}
			})
		}
	}
}
