package linalg

import (
	"fmt"
	"testing"

	"rkhs/internal/testmat"
)

// jacobiBenchSizes are the orders for which EigenSymJacobi is meant (n up
// to a few hundred); the benchmark sizes of the dense kernels (benchSizes)
// would take minutes.
var jacobiBenchSizes = []int{100, 200, 400}

// jacobiBenchMatrix returns Q·diag(d)·Qᵀ with d uniform in [−1, 1): a
// random symmetric matrix with a typical, well-spread spectrum.
func jacobiBenchMatrix(n int) *Dense {
	rnd := testmat.NewRand(1)
	d := make([]float64, n)
	for i := range d {
		d[i] = 2*rnd.Float64() - 1
	}
	a := Dense(testmat.WithSpectrum(rnd, d, 0))
	return &a
}

// BenchmarkEigenSymJacobi: eigenvalues and eigenvectors. The sweeps metric
// is the number of sweeps, the last of which only checks.
func BenchmarkEigenSymJacobi(b *testing.B) { benchmarkEigenSymJacobi(b, true) }

// BenchmarkEigenSymJacobiValues: eigenvalues only.
func BenchmarkEigenSymJacobiValues(b *testing.B) { benchmarkEigenSymJacobi(b, false) }

func benchmarkEigenSymJacobi(b *testing.B, vectors bool) {
	for _, n := range jacobiBenchSizes {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			a := jacobiBenchMatrix(n)
			var e EigenSymJacobi
			b.ReportAllocs()
			for b.Loop() {
				if err := e.Factorize(a, vectors); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(e.sweeps), "sweeps")
		})
	}
}
