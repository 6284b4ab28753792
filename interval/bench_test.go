package interval

import (
	"fmt"
	"testing"

	"rkhs/kernels"
	"rkhs/regress"
)

// BenchmarkRLS compares the fit (with what jackknife+ keeps) to the
// intervals at 1000 test rows, per test row (metric ns/test-row).
func BenchmarkRLS(b *testing.B) {
	for _, n := range []int{500, 2000} {
		x, y, xt := problem(30, n, 1000, 1)
		cfg := regress.RLS{Kernel: kernels.Gaussian{Sigma: 1}, Lambda: 1e-3, Intercept: regress.FreeIntercept}
		b.Run(fmt.Sprintf("n=%d/fit", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := RLS(cfg, x, y); err != nil {
					b.Fatal(err)
				}
			}
		})
		jk, err := RLS(cfg, x, y)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("n=%d/jackknife+", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := jk.Predict(xt, 0.9); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(xt.Rows), "ns/test-row")
		})
	}
}

// BenchmarkNystromCV compares the CV+ construction (K = 10 fold
// statistics, models and residuals) to the intervals at 1000 test rows.
func BenchmarkNystromCV(b *testing.B) {
	for _, n := range []int{10000, 40000} {
		x, y, xt := problem(31, n, 1000, 1)
		cfg := regress.Nystrom{Kernel: kernels.Gaussian{Sigma: 1}, Lambda: 1e-4, Centers: 200, Seed: 1, Intercept: regress.FreeIntercept}
		folds, _ := Folds(n, 10, 1)
		b.Run(fmt.Sprintf("n=%d/fit", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := cfg.Fit(x, y); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("n=%d/cv+-build", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := NystromCV(cfg, x, y, folds); err != nil {
					b.Fatal(err)
				}
			}
		})
		cv, err := NystromCV(cfg, x, y, folds)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("n=%d/cv+", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := cv.Predict(xt, 0.9); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(xt.Rows), "ns/test-row")
		})
	}
}

// BenchmarkStreamedCV compares the fit's own pass (regress.NystromStats.Add
// over every row and Solve) with the streamed CV+ built beside it: the
// first pass into K = 10 fold statistics, the fold models, and the second
// pass of held-out residuals (m = 200, d = 2, one output):
//
//	go test ./interval -run XXX -bench StreamedCV
func BenchmarkStreamedCV(b *testing.B) {
	for _, n := range []int{20000, 100000} {
		x, y, _ := problem(32, n, 0, 1)
		centers := x.Slice(0, 200, 0, 2).Clone()
		k := kernels.Gaussian{Sigma: 1}
		b.Run(fmt.Sprintf("n=%d/fit", n), func(b *testing.B) {
			for b.Loop() {
				st, err := regress.NewNystromStats(k, centers)
				if err == nil {
					err = st.Add(x, y)
				}
				if err == nil {
					_, err = st.Solve(1e-4, regress.FreeIntercept)
				}
				if err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("n=%d/cv+", n), func(b *testing.B) {
			for b.Loop() {
				fs, err := NewFoldStats([]kernels.Kernel{k}, centers, 10, 1, 0)
				if err == nil {
					err = fs.Add(x, y)
				}
				var fits *FoldFits
				if err == nil {
					fits, err = fs.Models(1e-4, regress.FreeIntercept)
				}
				var p *CVPass
				if err == nil {
					p, err = fits.Pass(0)
				}
				if err == nil {
					err = p.Add(x, y)
				}
				if err == nil {
					_, err = p.CV()
				}
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
