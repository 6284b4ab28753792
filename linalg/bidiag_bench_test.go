package linalg

import (
	"fmt"
	"slices"
	"testing"

	"rkhs/internal/testmat"
)

// BenchmarkBidiagonalize measures the reduction of a random square matrix
// to bidiagonal form alone (8n³/3 flops), BenchmarkBidiagQP the two
// back-transformations of n vectors each (4n³ flops), and BenchmarkBdsdc
// the divide and conquer with vectors on the bidiagonal matrix that
// reduction gives.
func BenchmarkBidiagonalize(b *testing.B) {
	for _, n := range []int{500, 1000, 2000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			a := testmat.Random(testmat.NewRand(1), n, n, 0)
			w := Dense(a.Clone())
			d, e := make([]float64, n), make([]float64, n-1)
			tq, tp := make([]float64, n), make([]float64, n-1)
			for b.Loop() {
				copy(w.Data, a.Data)
				bidiagonalize(w, d, e, tq, tp)
			}
			reportGFLOPs(b, 8*float64(n)*float64(n)*float64(n)/3)
		})
	}
}

func BenchmarkBidiagQP(b *testing.B) {
	for _, n := range []int{500, 1000, 2000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			w := Dense(testmat.Random(testmat.NewRand(1), n, n, 0))
			d, e := make([]float64, n), make([]float64, n-1)
			tq, tp := make([]float64, n), make([]float64, n-1)
			bidiagonalize(w, d, e, tq, tp)
			u, v := Dense(testmat.Identity(n)), Dense(testmat.Identity(n))
			for b.Loop() {
				applyBidiagQ(w, tq, u)
				applyRowReflectors(w, tp, v)
			}
			reportGFLOPs(b, 4*float64(n)*float64(n)*float64(n))
		})
	}
}

func BenchmarkBdsdc(b *testing.B) {
	for _, n := range []int{500, 1000, 2000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			w := Dense(testmat.Random(testmat.NewRand(1), n, n, 0))
			d0, e0 := make([]float64, n), make([]float64, n-1)
			bidiagonalize(w, d0, e0, make([]float64, n), make([]float64, n-1))
			u, v := NewDense(n, n, nil), NewDense(n, n, nil)
			for b.Loop() {
				d, e := slices.Clone(d0), slices.Clone(e0)
				if err := bdsdc(d, e, *u, *v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
