package linalg

import (
	"fmt"
	"testing"

	"rkhs/internal/testmat"
)

// BenchmarkTridiagonalize measures the reduction to tridiagonal form alone
// (4n³/3 flops), and BenchmarkTridiagQ the back-transformation of n vectors
// (2n³ flops); n = 4000 is EigenSym's size in the scaling runs of
// compare/scaling.sh.
func BenchmarkTridiagonalize(b *testing.B) {
	for _, n := range []int{500, 1000, 2000, 4000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			a := symmetrize(testmat.Random(testmat.NewRand(1), n, n, 0))
			w := Dense(a.Clone())
			d, e, tau := make([]float64, n), make([]float64, n-1), make([]float64, n-1)
			for b.Loop() {
				copy(w.Data, a.Data)
				tridiagonalize(w, d, e, tau)
			}
			reportGFLOPs(b, 4*float64(n)*float64(n)*float64(n)/3)
		})
	}
}

func BenchmarkTridiagQ(b *testing.B) {
	for _, n := range []int{500, 1000, 2000, 4000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			a := symmetrize(testmat.Random(testmat.NewRand(1), n, n, 0))
			w := Dense(a)
			d, e, tau := make([]float64, n), make([]float64, n-1), make([]float64, n-1)
			tridiagonalize(w, d, e, tau)
			z := Dense(testmat.Identity(n))
			for b.Loop() {
				applyRowReflectors(w, tau, z)
			}
			reportGFLOPs(b, 2*float64(n)*float64(n)*float64(n))
		})
	}
}
