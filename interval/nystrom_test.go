package interval

import (
	"fmt"
	"testing"

	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

func nystromRefit(cfg regress.Nystrom, centers *linalg.Dense) refit {
	return func(t *testing.T, x, y *linalg.Dense, n int) predictor {
		c := cfg
		c.Lambda = cfg.Lambda * float64(n) / float64(x.Rows)
		c.Given = centers
		m, err := c.Fit(x, y)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
}

// TestNystromEqualsRefits: the jackknife+ ends and leave-one-out residuals
// of an in-memory Nyström fit equal those of n refits with the same
// centres, in every intercept mode; the model is regress.Nystrom's.
func TestNystromEqualsRefits(t *testing.T) {
	x, y, xt := problem(4, 40, 6, 2)
	for _, ic := range intercepts {
		t.Run(fmt.Sprint(ic), func(t *testing.T) {
			cfg := regress.Nystrom{Kernel: kernels.Gaussian{Sigma: 1}, Lambda: 1e-3, Centers: 9, Seed: 5, Intercept: ic}
			jk, err := Nystrom(cfg, x, y)
			if err != nil {
				t.Fatal(err)
			}
			got, err := jk.Predict(xt, 0.8)
			if err != nil {
				t.Fatal(err)
			}
			lo, hi, e := bruteIntervals(t, x, y, xt, singletons(x.Rows), 0.8, nystromRefit(cfg, jk.Model().Centers))
			if d := scaledDiff(jk.Residuals(), e); d > 1e-9 {
				t.Errorf("residuals differ from refits' by %.2g", d)
			}
			if d := scaledDiff(got.Lower, lo); d > 1e-9 {
				t.Errorf("lower ends differ from refits' by %.2g", d)
			}
			if d := scaledDiff(got.Upper, hi); d > 1e-9 {
				t.Errorf("upper ends differ from refits' by %.2g", d)
			}
			fit, err := cfg.Fit(x, y)
			if err != nil {
				t.Fatal(err)
			}
			want, err := fit.Predict(xt)
			if err != nil {
				t.Fatal(err)
			}
			if d := scaledDiff(got.Prediction, want); d > 1e-9 {
				t.Errorf("predictions differ from regress.Nystrom's by %.2g", d)
			}
			mine, err := jk.Model().Predict(xt)
			if err != nil {
				t.Fatal(err)
			}
			if d := scaledDiff(mine, want); d > 1e-9 {
				t.Errorf("the model's predictions differ from regress.Nystrom's by %.2g", d)
			}
		})
	}
}
