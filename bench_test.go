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
	"math/rand/v2"
	"testing"

	"rkhs/linalg"
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
