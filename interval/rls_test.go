package interval

import (
	"fmt"
	"testing"

	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

func rlsRefit(cfg regress.RLS) refit {
	return func(t *testing.T, x, y *linalg.Dense, n int) predictor {
		c := cfg
		c.Lambda = cfg.Lambda * float64(n) / float64(x.Rows)
		m, err := c.Fit(x, y)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
}

// TestRLSEqualsRefits: the jackknife+ ends and the leave-one-out residuals
// of exact RLS equal those of n refits, in every intercept mode, for
// several levels and two outputs.
func TestRLSEqualsRefits(t *testing.T) {
	x, y, xt := problem(1, 30, 7, 2)
	for _, ic := range intercepts {
		for _, lambda := range []float64{1e-3, 0.1} {
			cfg := regress.RLS{Kernel: kernels.Gaussian{Sigma: 1}, Lambda: lambda, Intercept: ic}
			jk, err := RLS(cfg, x, y)
			if err != nil {
				t.Fatal(err)
			}
			for _, level := range []float64{0.5, 0.8, 0.9} {
				t.Run(fmt.Sprintf("%v/λ=%g/level=%g", ic, lambda, level), func(t *testing.T) {
					got, err := jk.Predict(xt, level)
					if err != nil {
						t.Fatal(err)
					}
					lo, hi, e := bruteIntervals(t, x, y, xt, singletons(x.Rows), level, rlsRefit(cfg))
					if d := scaledDiff(jk.Residuals(), e); d > 1e-9 {
						t.Errorf("residuals differ from refits' by %.2g", d)
					}
					if d := scaledDiff(got.Lower, lo); d > 1e-9 {
						t.Errorf("lower ends differ from refits' by %.2g", d)
					}
					if d := scaledDiff(got.Upper, hi); d > 1e-9 {
						t.Errorf("upper ends differ from refits' by %.2g", d)
					}
					full, err := jk.Model().Predict(xt)
					if err != nil {
						t.Fatal(err)
					}
					if d := scaledDiff(got.Prediction, full); d > 1e-12 {
						t.Errorf("prediction differs from the model's by %.2g", d)
					}
				})
			}
		}
	}
}
