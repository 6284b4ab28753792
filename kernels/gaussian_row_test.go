package kernels

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkGaussianRow is the elementwise pass of the Gaussian Gram matrix
// over one row: distance from inner product and norms, then exp. In a
// GOEXPERIMENT=simd build on an AVX-512 CPU it runs eight entries at a
// time.
func BenchmarkGaussianRow(b *testing.B) {
	for _, n := range []int{4096} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 1))
			g, nz, row := make([]float64, n), make([]float64, n), make([]float64, n)
			for j := range g {
				g[j], nz[j] = rng.NormFloat64(), 2+rng.Float64()
			}
			for b.Loop() {
				copy(row, g)
				gaussianRow(row, nz, 2.5, 2)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/entry")
		})
	}
}
