package kernels

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestGaussianRow compares the row pass of this build (gaussianRow) and
// the pure-Go one (gaussianRowScalar) with the math.Exp oracle
// (gaussianRowRef) for lengths on both sides of clearEvery and of the
// eight-entry vectors: at most 2 ulps apart, exactly 1 at distance 0 or
// below (rounding), 0 at distance +Inf, NaN at ∞ − ∞, and right where
// values underflow (σ small against the distances).
func TestGaussianRow(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{0, 1, 7, 8, 9, 40, clearEvery - 1, clearEvery, clearEvery + 1, 3*clearEvery + 5} {
		for _, c := range []float64{1 / 0.7, 500} { // 500: most values below 2⁻¹⁰²², many 0
			g, nz := make([]float64, n), make([]float64, n)
			for j := range g {
				nz[j] = 3 * rng.Float64()
				g[j] = rng.NormFloat64()
			}
			ni := 2.5
			if n > 10 {
				nz[3], g[3] = math.Inf(1), math.Inf(1) // ∞ − ∞: NaN
				nz[9] = math.Inf(1)                    // distance +Inf: 0
				g[5] = (ni + nz[5]) / 2                // distance 0: 1
				g[6] = (ni+nz[6])/2 + 1e-9             // negative distance: 1
			}
			want := append([]float64(nil), g...)
			gaussianRowRef(want, nz, ni, c)
			for _, f := range []struct {
				name string
				row  func(row, nz []float64, ni, c float64)
			}{{"gaussianRow", gaussianRow}, {"gaussianRowScalar", gaussianRowScalar}} {
				got := append([]float64(nil), g...)
				f.row(got, nz, ni, c)
				for j := range got {
					if math.IsNaN(want[j]) != math.IsNaN(got[j]) || (!math.IsNaN(want[j]) && ulps(got[j], want[j]) > 2) {
						t.Errorf("%s, n=%d, c=%v: entry %d = %v, math.Exp gives %v", f.name, n, c, j, got[j], want[j])
					}
				}
				if n > 10 && (got[5] != 1 || got[6] != 1 || got[9] != 0) {
					t.Errorf("%s, n=%d, c=%v: entries 5, 6, 9 = %v, %v, %v, want 1, 1, 0", f.name, n, c, got[5], got[6], got[9])
				}
			}
		}
	}
}

// BenchmarkGaussianRow is the elementwise pass of the Gaussian Gram matrix
// over one row: distance from inner product and norms, then exp. In a
// GOEXPERIMENT=simd build on an AVX-512 CPU it runs eight entries at a
// time. BenchmarkGaussianRowRef is the same pass with math.Exp.
func BenchmarkGaussianRow(b *testing.B) { benchmarkGaussianRow(b, gaussianRow) }

func BenchmarkGaussianRowRef(b *testing.B) { benchmarkGaussianRow(b, gaussianRowRef) }

func benchmarkGaussianRow(b *testing.B, pass func(row, nz []float64, ni, c float64)) {
	for _, n := range []int{4096} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 1))
			g, nz, row := make([]float64, n), make([]float64, n), make([]float64, n)
			for j := range g {
				g[j], nz[j] = rng.NormFloat64(), 2+rng.Float64()
			}
			for b.Loop() {
				copy(row, g)
				pass(row, nz, 2.5, 0.5)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/entry")
		})
	}
}
