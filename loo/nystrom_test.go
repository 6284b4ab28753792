package loo

import (
	"rkhs/internal/decomp"
	"testing"

	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

// TestNystromBruteForce: the closed-form residuals equal refitting without
// each point with the same centres and penalty, in all intercept modes.
func TestNystromBruteForce(t *testing.T) {
	x, y := housing(90)
	k := kernels.Gaussian{Sigma: 1.5}
	lambdas := []float64{1e-4, 1e-2}
	for _, ic := range intercepts {
		cfg := regress.Nystrom{Kernel: k, Centers: 25, Seed: 4, Intercept: ic}
		p, err := Nystrom(cfg, x, y, lambdas)
		if err != nil {
			t.Fatal(err)
		}
		feat, _ := decomp.Features(cfg, "test", x)
		n := x.Rows
		for j, l := range lambdas {
			want := linalg.NewDense(n, 2, nil)
			for i := 0; i < n; i++ {
				xr, yr := without(x, y, i)
				fit, err := regress.Nystrom{Kernel: k, Given: feat.Centers, Lambda: l * float64(n) / float64(n-1), Intercept: ic}.Fit(xr, yr)
				if err != nil {
					t.Fatal(err)
				}
				pr, _ := fit.Predict(x.Slice(i, i+1, 0, x.Cols))
				for out := 0; out < 2; out++ {
					want.Set(i, out, y.At(i, out)-pr.At(0, out))
				}
			}
			if r := maxRel(p.Residuals[j], want); r > 1e-9 {
				t.Errorf("%v λ=%g: Nyström closed form and refits differ by %.3g", ic, l, r)
			}
		}
	}
}
