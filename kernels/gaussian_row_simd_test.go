//go:build goexperiment.simd && amd64

package kernels

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestExp8 compares exp8 with math.Exp on random arguments over its whole
// range and on the edges: at most 2 ulps apart, and the same at the
// overflow, the underflow and ±Inf; NaN stays NaN.
func TestExp8(t *testing.T) {
	if !hasAVX512 {
		t.Skip("no AVX-512")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	xs := []float64{0, math.Copysign(0, -1), 1, -1, 0.5 * math.Ln2, -0.5 * math.Ln2,
		709.78, 709.79, 710, 1000, math.Inf(1), -708.39, -708.4, -744, -745.1, -745.2, -746, -1000, math.Inf(-1),
		1e-300, -1e-300, 1e-17}
	for len(xs) < 1<<16 {
		switch len(xs) % 3 {
		case 0:
			xs = append(xs, -746*rng.Float64())
		case 1:
			xs = append(xs, 710*rng.Float64())
		default:
			xs = append(xs, -4*rng.Float64()) // where Gaussian kernel values live
		}
	}
	worst := 0.0
	xs = xs[:len(xs)/8*8]
	got := append([]float64(nil), xs...)
	exp8(got)
	for i, got := range got {
		x, want := xs[i], math.Exp(xs[i])
		if x > 709 && x < math.Log(math.MaxFloat64) {
			// math.Exp on amd64 (assembly) overflows to +Inf from about
			// 709.7 on, below the true threshold 709.7827; compare
			// there with e^(x−2)·e² instead.
			want = math.Exp(x-2) * math.E * math.E
			if r := math.Abs(got/want - 1); r > 1e-15 || math.IsInf(got, 0) {
				t.Errorf("exp8(%v) = %v, want %v", x, got, want)
			}
			continue
		}
		u := ulps(got, want)
		if u > 2 {
			t.Errorf("exp8(%v) = %v, math.Exp = %v (%v ulps)", x, got, want, u)
		}
		worst = max(worst, u)
	}
	t.Logf("worst: %v ulps over %d arguments", worst, len(xs))
	nan := []float64{1, math.NaN(), -1, 0, 0, 0, 0, 0}
	if exp8(nan); !math.IsNaN(nan[1]) {
		t.Errorf("exp8(NaN) = %v", nan[1])
	}
}
