package linalg

import (
	"fmt"
	"slices"
	"testing"

	"rkhs/internal/testmat"
)

// tridiagBenchSizes are the orders of the tridiagonal benchmarks.
var tridiagBenchSizes = []int{500, 1000, 2000}

// BenchmarkTridiagQL times steqr on a random tridiagonal matrix (entries
// uniform in [−1, 1), fixed seed), for the eigenvalues alone (the
// root-free sterf) and with the eigenvectors.
func BenchmarkTridiagQL(b *testing.B) {
	for _, vectors := range []bool{false, true} {
		kind := "values"
		if vectors {
			kind = "vectors"
		}
		for _, n := range tridiagBenchSizes {
			b.Run(fmt.Sprintf("%s/n=%d", kind, n), func(b *testing.B) {
				d0, e0 := testmat.RandomTridiagonal(testmat.NewRand(1), n)
				d, e := make([]float64, n), make([]float64, n-1)
				var z Dense
				if vectors {
					z = *NewDense(n, n, nil)
				}
				b.ReportAllocs()
				for b.Loop() {
					copy(d, d0)
					copy(e, e0)
					if err := steqr(d, e, z); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkTridiagDC times stedc with eigenvectors on a random tridiagonal
// matrix (entries uniform in [−1, 1), fixed seed), whose eigenvectors are
// localized, so that divide and conquer deflates much.
func BenchmarkTridiagDC(b *testing.B) {
	for _, n := range tridiagBenchSizes {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			d, e := testmat.RandomTridiagonal(testmat.NewRand(1), n)
			benchStedc(b, d, e)
		})
	}
}

// BenchmarkTridiagDCDense times stedc with eigenvectors on a tridiagonal
// matrix distributed as the Householder form of a random dense symmetric
// matrix (see denseTridiagonal): little deflation, the case of the dense
// symmetric eigensolver, and the slow one.
func BenchmarkTridiagDCDense(b *testing.B) {
	for _, n := range tridiagBenchSizes {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			d, e := denseTridiagonal(testmat.NewRand(1), n)
			benchStedc(b, d, e)
		})
	}
}

func benchStedc(b *testing.B, d0, e0 []float64) {
	n := len(d0)
	d, e := slices.Clone(d0), slices.Clone(e0)
	z := NewDense(n, n, nil)
	b.ReportAllocs()
	for b.Loop() {
		copy(d, d0)
		copy(e, e0)
		if err := stedc(d, e, *z); err != nil {
			b.Fatal(err)
		}
	}
}
