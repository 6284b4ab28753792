//go:build goexperiment.simd && amd64

package avx

import (
	"math"
	"testing"

	"simd/archsimd"

	"rkhs/internal/simdapi"
)

var sink float64

// TestClearUpper checks, in the build where ClearUpper executes
// VZEROUPPER, that it leaves scalar arithmetic intact: float64 values live
// in the low halves of the vector registers across the call, with the
// upper halves dirtied by an AVX-512 store first, give bit-identical
// results to the same loop without the call (a VZEROALL, or a clear of
// the wrong bits, would zero them). In other builds ClearUpper does
// nothing, and there is nothing to test.
func TestClearUpper(t *testing.T) {
	run := func(clearUpper bool) (float64, float64) {
		x, y := 0.5, 0.25
		buf := make([]float64, 8)
		for i := 0; i < 100; i++ {
			if archsimd.X86.AVX512() {
				simdapi.Store8(archsimd.BroadcastFloat64x8(float64(i)), buf)
			}
			u, v := x*1.5, y+x
			if clearUpper {
				ClearUpper()
			}
			x, y = math.Exp(-u), math.Sqrt(v)
		}
		return x, y
	}
	x0, y0 := run(false)
	x1, y1 := run(true)
	if x0 != x1 || y0 != y1 {
		t.Errorf("with ClearUpper: %v, %v; without: %v, %v", x1, y1, x0, y0)
	}
	// The iteration x ← exp(−1.5x) converges to its fixed point.
	if r := x1 - math.Exp(-1.5*x1); math.Abs(r) > 1e-15 {
		t.Errorf("fixed point residual %g", r)
	}
}

// BenchmarkExpAfterAVX512 shows the cost that ClearUpper avoids: 1000
// calls of math.Exp (legacy SSE assembly) right after an AVX-512
// instruction has written a ZMM register, as asyncPreempt's restore does,
// with and without ClearUpper in between.
func BenchmarkExpAfterAVX512(b *testing.B) {
	if !archsimd.X86.AVX512() {
		b.Skip("no AVX-512")
	}
	buf := make([]float64, 8)
	for _, clear := range []bool{false, true} {
		name := "dirty"
		if clear {
			name = "cleared"
		}
		b.Run(name, func(b *testing.B) {
			s := 0.0
			for b.Loop() {
				simdapi.Store8(archsimd.BroadcastFloat64x8(s), buf)
				if clear {
					ClearUpper()
				}
				for i := range 1000 {
					s += math.Exp(-float64(i) * 1e-3)
				}
			}
			sink = s
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1000, "ns/exp")
		})
	}
}
