//go:build goexperiment.simd && amd64

package avx

import (
	"math"
	"testing"

	"simd/archsimd"

	"rkhs/internal/simdapi"
)

var sink float64

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
