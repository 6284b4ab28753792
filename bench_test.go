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

	"rkhs/kernels"
	"rkhs/linalg"
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
				if err := kernels.GramTo(k, kernels.Gaussian{Sigma: 1}, x, false); err != nil {
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
