package interval

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"rkhs/internal/testmat"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/loo"
	"rkhs/regress"
)

// TestCoverage: on data with known Gaussian noise, the jackknife+ and CV+
// intervals of exact RLS over many seeded draws cover a new target with
// the frequency of their rank, ⌈(1−α)(n+1)⌉/(n+1) (exchangeable residuals
// of a stable fit), within three standard errors of the draws' mean, and
// never below the guarantee 1 − 2α by more: at a fixed λ, at a λ chosen
// by leave-one-out on all rows (outside the theorem), and with λ chosen
// inside each fold (RLSCVChosen, inside it).
func TestCoverage(t *testing.T) {
	draws := 1000
	if testing.Short() {
		draws = 200
	}
	const n, tests, level = 39, 10, 0.8
	k := kernels.Gaussian{Sigma: 0.8}
	gauss := func(s float64) kernels.Kernel { return kernels.Gaussian{Sigma: s} }
	sigmas, lambdas := []float64{0.8}, loo.Geometric(1e-6, 1, 7)
	for _, method := range []string{"jackknife+", "cv+", "cv+ chosen λ", "cv+ λ per fold"} {
		t.Run(method, func(t *testing.T) {
			per := make([]float64, draws)
			if strings.Contains(method, "chosen") || strings.Contains(method, "per fold") {
				per = per[:draws/4] // 14 eigendecompositions a draw
			}
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
				folds, _ := Folds(n, 13, uint64(dr))
				var iv *Intervals
				var err error
				var cv *CV
				switch method {
				case "jackknife+":
					var jk *Jackknife
					if jk, err = RLS(cfg, x, y); err == nil {
						iv, err = jk.Predict(xt, level)
					}
				case "cv+":
					cv, err = RLSCV(cfg, x, y, folds)
				case "cv+ chosen λ": // λ chosen on all rows, then CV+ at it
					var c loo.Choice
					if c, _, err = loo.SelectRLS(gauss, x, y, sigmas, lambdas, cfg.Intercept); err == nil {
						cfg.Lambda = c.Lambda
						cv, err = RLSCV(cfg, x, y, folds)
					}
				case "cv+ λ per fold":
					cv, err = RLSCVChosen(gauss, sigmas, lambdas, cfg.Intercept, x, y, folds)
				}
				if err == nil && cv != nil {
					iv, err = cv.Predict(xt, level)
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
			mean /= float64(len(per))
			for _, v := range per {
				ss += (v - mean) * (v - mean)
			}
			se := math.Sqrt(ss / float64(len(per)-1) / float64(len(per)))
			_, hi := ranks(n, level)
			want := float64(hi) / float64(n+1)
			msg := fmt.Sprintf("coverage %.4f ± %.4f over %d draws, want %.4f", mean, se, len(per), want)
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

// TestStreamedCoverage: the streamed Nyström CV+ (random folds of
// StreamFold), at a λ chosen by GCV on all rows and with λ chosen by each
// fold's own GCV (FoldStats.Choose), covers new targets of data whose
// Gaussian noise grows with the feature at the frequency of its rank,
// within three standard errors over many seeded draws.
func TestStreamedCoverage(t *testing.T) {
	draws := 300
	if testing.Short() {
		draws = 60
	}
	const n, tests, level, m = 399, 20, 0.9, 20
	gauss := func(s float64) kernels.Kernel { return kernels.Gaussian{Sigma: s} }
	lambdas := loo.Geometric(1e-7, 1e-1, 7)
	for _, method := range []string{"chosen λ", "λ per fold"} {
		t.Run(method, func(t *testing.T) {
			per := make([]float64, draws)
			for dr := range per {
				rnd := testmat.NewRand(uint64(5000 + dr))
				gen := func(rows int) (*linalg.Dense, *linalg.Dense) {
					x, y := linalg.NewDense(rows, 1, nil), linalg.NewDense(rows, 1, nil)
					for i := 0; i < rows; i++ {
						v := 6*rnd.Float64() - 3
						x.Set(i, 0, v)
						y.Set(i, 0, math.Sin(v)+(0.1+0.1*(v+3))*rnd.NormFloat64())
					}
					return x, y
				}
				x, y := gen(n)
				xt, yt := gen(tests)
				centers := x.Slice(0, m, 0, 1).Clone()
				sn := loo.SelectNystrom{Kernel: gauss, Centers: centers, Sigmas: []float64{1}, Lambdas: lambdas, Intercept: regress.FreeIntercept, Criterion: loo.GCV}
				fs, err := NewFoldStats([]kernels.Kernel{gauss(1)}, centers, 10, uint64(dr), 0)
				if err != nil {
					t.Fatal(err)
				}
				if err := fs.Add(x, y); err != nil {
					t.Fatal(err)
				}
				var fits *FoldFits
				if method == "chosen λ" {
					sel, err := sn.Fit(x, y)
					if err != nil {
						t.Fatal(err)
					}
					fits, err = fs.Models(sel.Lambda, sn.Intercept)
				} else {
					fits, err = fs.Choose(sn)
				}
				if err != nil {
					t.Fatal(err)
				}
				p, err := fits.Pass(0)
				if err == nil {
					err = p.Add(x, y)
				}
				var cv *CV
				if err == nil {
					cv, err = p.CV()
				}
				var iv *Intervals
				if err == nil {
					iv, err = cv.Predict(xt, level)
				}
				if err != nil {
					t.Fatal(err)
				}
				per[dr], _ = iv.Coverage(yt)
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
		})
	}
}
