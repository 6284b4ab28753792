package rkhs_test

// End-to-end benchmarks of the public API, one per main job of the module,
// named so that benchstat can compare runs:
//
//	go test -run XXX -bench . -benchtime 3x
//
// Sizes go up to n=4096 (three 4096×4096 matrices are 400 MB); BENCHMARKS.md
// records the results and the machine.

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"rkhs/datasets"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/loo"
	"rkhs/regress"
)

var benchSizes = []int{512, 1024, 2048, 4096}

func randomDense(rnd *rand.Rand, r, c int) *linalg.Dense {
	m := linalg.NewDense(r, c, nil)
	for i := range m.Data {
		m.Data[i] = 2*rnd.Float64() - 1
	}
	return m
}

func reportGFLOPs(b *testing.B, flops float64) {
	b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}

func BenchmarkGemm(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			rnd := rand.New(rand.NewPCG(1, 2))
			x, y := randomDense(rnd, n, n), randomDense(rnd, n, n)
			z := linalg.NewDense(n, n, nil)
			b.ReportAllocs()
			for b.Loop() {
				linalg.Gemm(linalg.NoTrans, linalg.NoTrans, 1, x, y, 0, z)
			}
			reportGFLOPs(b, 2*float64(n)*float64(n)*float64(n))
		})
	}
}

func BenchmarkSyrk(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			x := randomDense(rand.New(rand.NewPCG(1, 2)), n, n)
			z := linalg.NewDense(n, n, nil)
			b.ReportAllocs()
			for b.Loop() {
				linalg.Syrk(linalg.Lower, linalg.NoTrans, 1, x, 0, z)
			}
			reportGFLOPs(b, float64(n)*float64(n+1)*float64(n))
		})
	}
}

// BenchmarkCholesky factors B·Bᵀ/n + I and solves with one right-hand side,
// the work of one kernel RLS fit once the Gram matrix exists.
func BenchmarkCholesky(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			rnd := rand.New(rand.NewPCG(1, 2))
			x := randomDense(rnd, n, n)
			a := linalg.NewDense(n, n, nil)
			linalg.Syrk(linalg.Lower, linalg.NoTrans, 1/float64(n), x, 0, a)
			for i := 0; i < n; i++ {
				a.Set(i, i, a.At(i, i)+1)
			}
			y := make([]float64, n)
			for i := range y {
				y[i] = rnd.NormFloat64()
			}
			c := make([]float64, n)
			var ch linalg.Cholesky
			b.ReportAllocs()
			for b.Loop() {
				if err := ch.Factorize(a); err != nil {
					b.Fatal(err)
				}
				ch.SolveVecTo(c, y)
			}
			reportGFLOPs(b, float64(n)*float64(n)*float64(n)/3+2*float64(n)*float64(n))
		})
	}
}

// gaussianData returns n points in d dimensions (uniform in [−1, 1)) and a
// smooth target with noise.
func gaussianData(n, d int) (x, y *linalg.Dense) {
	rnd := rand.New(rand.NewPCG(3, 4))
	x = randomDense(rnd, n, d)
	y = linalg.NewDense(n, 1, nil)
	for i := 0; i < n; i++ {
		var s float64
		for _, v := range x.Row(i) {
			s += math.Sin(3 * v)
		}
		y.Set(i, 0, s+0.1*rnd.NormFloat64())
	}
	return x, y
}

// BenchmarkGram builds the full Gaussian Gram matrix of n points with d = 8.
func BenchmarkGram(b *testing.B) {
	for _, n := range []int{1000, 2000, 4000} {
		b.Run(fmt.Sprintf("gaussian/n=%d", n), func(b *testing.B) {
			x, _ := gaussianData(n, 8)
			k := linalg.NewDense(n, n, nil)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := kernels.GramTo(k, kernels.Gaussian{Sigma: 1}, x, linalg.All); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkRLSFit is one kernel RLS fit end to end (Gaussian, d = 8, free
// intercept): Gram matrix, Cholesky factorization, solves.
func BenchmarkRLSFit(b *testing.B) {
	for _, n := range []int{2000, 4000, 8000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			x, y := gaussianData(n, 8)
			r := regress.RLS{Kernel: kernels.Gaussian{Sigma: 1}, Lambda: 1e-4, Intercept: regress.FreeIntercept}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := r.Fit(x, y); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkNystrom is a subset-of-regressors fit with m centres on n points
// (Gaussian, d = 8): memory O(nm), never n×n.
func BenchmarkNystrom(b *testing.B) {
	for _, c := range []struct{ n, m int }{{20000, 500}, {100000, 1000}} {
		b.Run(fmt.Sprintf("n=%d/m=%d", c.n, c.m), func(b *testing.B) {
			x, y := gaussianData(c.n, 8)
			s := regress.Nystrom{Kernel: kernels.Gaussian{Sigma: 1}, Lambda: 1e-6, Centers: c.m, Seed: 1, Intercept: regress.FreeIntercept}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := s.Fit(x, y); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// cpusmall returns the first n rows of the cpusmall data (Delve comp-activ,
// 8192×12, features scaled to [−1, 1]), the set of the Prato–Zanni
// experiment on which "CG is always the faster".
func cpusmall(n int) (x, y *linalg.Dense) {
	d := datasets.MustLoad("cpusmall")
	n = min(n, d.X.Rows)
	return d.X.Slice(0, n, 0, d.X.Cols).Clone(), linalg.NewDense(n, 1, append([]float64(nil), d.Y[:n]...))
}

// BenchmarkCG runs 50 iterations of CGLS on [K 1] (Prato and Zanni's CG,
// eq. 9, free intercept), Gram matrix included; BenchmarkCG/cholesky is one Cholesky
// fit of kernel RLS on the same K in the same run, for the ratio.
func BenchmarkCG(b *testing.B) {
	x, y := cpusmall(8192)
	k := kernels.Gaussian{Sigma: 1}
	b.Run("n=8192/iters=50", func(b *testing.B) {
		for b.Loop() {
			if _, err := (regress.CGLS{Kernel: k, Intercept: regress.FreeIntercept, Iterative: regress.Iterative{MaxIter: 50}}).Fit(x, y); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("n=8192/cholesky", func(b *testing.B) {
		for b.Loop() {
			if _, err := (regress.RLS{Kernel: k, Lambda: 1e-6, Intercept: regress.FreeIntercept}).Fit(x, y); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkLandweber runs 50 Landweber iterations (automatic step, power
// iteration included), Gram matrix included.
func BenchmarkLandweber(b *testing.B) {
	x, y := cpusmall(8192)
	b.Run("n=8192/iters=50", func(b *testing.B) {
		for b.Loop() {
			if _, err := (regress.Landweber{Kernel: kernels.Gaussian{Sigma: 1}, Iterative: regress.Iterative{MaxIter: 50}}).Fit(x, y); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkPath: coefficients of a 100-value Tikhonov path from one
// eigendecomposition (built outside the loop), free intercept; the
// eigendecomposition itself is BenchmarkSpectral in the same run.
func BenchmarkPath(b *testing.B) {
	x, y := gaussianData(4000, 8)
	k := kernels.Gaussian{Sigma: 1}
	s, err := regress.NewSpectral(k, x, y)
	if err != nil {
		b.Fatal(err)
	}
	path := make([]regress.PathPoint, 100)
	for j, l := range loo.Geometric(1e-10, 1e5, 100) {
		path[j] = regress.PathPoint{Filter: regress.TikhonovFilter{Lambda: l}}
	}
	b.Run("tikhonov/n=4000/lambdas=100", func(b *testing.B) {
		for b.Loop() {
			if _, err := s.FitPath(path, regress.FreeIntercept); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("decomposition/n=4000", func(b *testing.B) {
		for b.Loop() {
			if _, err := regress.NewSpectral(k, x, y); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkLOOPath: exact leave-one-out MSE for 100 λ with a free
// intercept, with and without the eigendecomposition; and, at n = 2000, the
// usual alternative — 5-fold cross-validation over the same 100 λ by
// Cholesky refits — in the same run.
func BenchmarkLOOPath(b *testing.B) {
	k := kernels.Gaussian{Sigma: 1}
	lambdas := loo.Geometric(1e-10, 1e5, 100)
	for _, n := range []int{2000, 4000} {
		x, y := gaussianData(n, 8)
		s, err := regress.NewSpectral(k, x, y)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("n=%d/lambdas=100/path-only", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := loo.RLS(s, lambdas, regress.FreeIntercept); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("n=%d/lambdas=100/with-decomposition", n), func(b *testing.B) {
			for b.Loop() {
				s, err := regress.NewSpectral(k, x, y)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := loo.RLS(s, lambdas, regress.FreeIntercept); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	// At a small n, the same selection by brute force: n refits without one
	// point each (penalty nλ kept), for every λ.
	xs, ys := gaussianData(200, 8)
	b.Run("n=200/lambdas=100/with-decomposition", func(b *testing.B) {
		for b.Loop() {
			s, err := regress.NewSpectral(k, xs, ys)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := loo.RLS(s, lambdas, regress.FreeIntercept); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("n=200/lambdas=100/brute-force", func(b *testing.B) {
		for b.Loop() {
			for i := 0; i < 200; i++ {
				rest := loo.Complement(200, []int{i})
				xt, yt := rowsOf(xs, rest), rowsOf(ys, rest)
				for _, l := range lambdas {
					// Tiny λ can make K + nλI numerically singular: skipped,
					// as in the cross-validation below.
					_, _ = (regress.RLS{Kernel: k, Lambda: l * 200 / 199, Intercept: regress.FreeIntercept}).Fit(xt, yt)
				}
			}
		}
	})
	x, y := gaussianData(2000, 8)
	b.Run("n=2000/lambdas=100/5-fold-cholesky", func(b *testing.B) {
		folds := loo.KFold(2000, 5, 1)
		for b.Loop() {
			for _, test := range folds {
				train := loo.Complement(2000, test)
				xt, yt := rowsOf(x, train), rowsOf(y, train)
				for _, l := range lambdas {
					if _, err := (regress.RLS{Kernel: k, Lambda: l, Intercept: regress.FreeIntercept}).Fit(xt, yt); err != nil {
						// Tiny λ can make K + nλI numerically singular; a CV
						// loop skips such grid points, as a user's would.
						continue
					}
				}
			}
		}
	})
}

func rowsOf(m *linalg.Dense, rows []int) *linalg.Dense {
	out := linalg.NewDense(len(rows), m.Cols, nil)
	for k, i := range rows {
		copy(out.Row(k), m.Row(i))
	}
	return out
}

// BenchmarkLinearLOO is the linear-kernel leave-one-out path on a
// 100000×50 matrix for 50 λ with a free intercept, thin SVD included: the
// job of scikit-learn's RidgeCV (compare/reference.py ridgecv times it on
// the same data shape).
func BenchmarkLinearLOO(b *testing.B) {
	x, y := gaussianData(100000, 50)
	lambdas := loo.Geometric(1e-8, 1e2, 50)
	b.Run("100000x50/lambdas=50", func(b *testing.B) {
		for b.Loop() {
			lp, err := regress.NewLinearPath(x, y, regress.FreeIntercept)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := loo.Linear(lp, lambdas); err != nil {
				b.Fatal(err)
			}
		}
	})
}
