package linalg

import (
	"fmt"
	"testing"

	"rkhs/internal/testmat"
)

// BenchmarkEigenSym factors a random symmetric n×n matrix with
// eigenvectors; BenchmarkEigenSymValues computes the eigenvalues only.
func BenchmarkEigenSym(b *testing.B)       { benchEigenSym(b, true) }
func BenchmarkEigenSymValues(b *testing.B) { benchEigenSym(b, false) }

func benchEigenSym(b *testing.B, vectors bool) {
	for _, n := range []int{500, 1000, 2000, 4000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			a := Dense(symmetrize(testmat.Random(testmat.NewRand(1), n, n, 0)))
			var es EigenSym
			b.ReportAllocs()
			for b.Loop() {
				if err := es.Factorize(&a, vectors); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
