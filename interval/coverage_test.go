package interval

import (
	"fmt"
	"math"
	"testing"

	"rkhs/internal/testmat"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

// TestCoverage: on data with known Gaussian noise, the jackknife+ and CV+
// intervals of exact RLS over many seeded draws cover a new target with
// the frequency of their rank, ⌈(1−α)(n+1)⌉/(n+1) (exchangeable residuals
// of a stable fit), within three standard errors of the draws' mean, and
// never below the guarantee 1 − 2α by more.
func TestCoverage(t *testing.T) {
	draws := 1000
	if testing.Short() {
		draws = 200
	}
	const n, tests, level = 39, 10, 0.8
	k := kernels.Gaussian{Sigma: 0.8}
	for _, method := range []string{"jackknife+", "cv+"} {
		t.Run(method, func(t *testing.T) {
			per := make([]float64, draws)
			for dr := range per {
				rnd := testmat.NewRand(uint64(1000 + dr))
				gen := func(rows int) (*linalg.Dense, *linalg.Dense) {
					x, y := linalg.NewDense(rows, 1, nil), linalg.NewDense(rows, 1, nil)
					for i := 0; i < rows; i++ {
						v := 6*rnd.Float64() - 3
						x.Set(i, 0, v)
						y.Set(i, 0, math.Sin(v)+0.3*rnd.NormFloat64())
					}
					return x, y
				}
				x, y := gen(n)
				xt, yt := gen(tests)
				cfg := regress.RLS{Kernel: k, Lambda: 1e-3, Intercept: regress.FreeIntercept}
				var iv *Intervals
				var err error
				if method == "jackknife+" {
					var jk *Jackknife
					if jk, err = RLS(cfg, x, y); err == nil {
						iv, err = jk.Predict(xt, level)
					}
				} else {
					folds, _ := Folds(n, 13, uint64(dr))
					var cv *CV
					if cv, err = RLSCV(cfg, x, y, folds); err == nil {
						iv, err = cv.Predict(xt, level)
					}
				}
				if err != nil {
					t.Fatal(err)
				}
				in := 0
				for j := 0; j < tests; j++ {
					if v := yt.At(j, 0); iv.Lower.At(j, 0) <= v && v <= iv.Upper.At(j, 0) {
						in++
					}
				}
				per[dr] = float64(in) / tests
				if c, _ := iv.Coverage(yt); c != per[dr] {
					t.Fatalf("Intervals.Coverage %v, counted %v", c, per[dr])
				}
			}
			var mean, ss float64
			for _, v := range per {
				mean += v
			}
			mean /= float64(draws)
			for _, v := range per {
				ss += (v - mean) * (v - mean)
			}
			se := math.Sqrt(ss / float64(draws-1) / float64(draws))
			_, hi := ranks(n, level)
			want := float64(hi) / float64(n+1)
			msg := fmt.Sprintf("coverage %.4f ± %.4f over %d draws, want %.4f", mean, se, draws, want)
			t.Log(msg)
			if math.Abs(mean-want) > 3*se {
				t.Errorf("%s: more than three standard errors away", msg)
			}
			if mean < 1-2*(1-level)-3*se {
				t.Errorf("%s: below the guarantee %.2f", msg, 1-2*(1-level))
			}
		})
	}
}
