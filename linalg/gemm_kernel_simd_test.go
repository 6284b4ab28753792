//go:build goexperiment.simd && (amd64 || (go1.27 && (arm64 || wasm)))

package linalg

import (
	"strings"
	"testing"

	"rkhs/internal/testmat"
)

// TestSIMDKernels checks each SIMD kernel the CPU supports against the
// plain reference, then runs the whole GEMM and SYRK suites with it in use
// (and with the scalar kernel, which a SIMD build otherwise never runs).
func TestSIMDKernels(t *testing.T) {
	kernels := simdKernels()
	t.Logf("chosen kernel: %s", kern.name)
	for _, k := range kernels {
		t.Run(k.name, func(t *testing.T) {
			checkMicroKernel(t, k)
			withKernel(k, func() {
				t.Run("Gemm", TestGemm)
				t.Run("Syrk", TestSyrk)
				t.Run("GemmDeterministic", TestGemmDeterministic)
				t.Run("Trsm", TestTrsm)
				t.Run("BlockEdges", TestGemmBlockEdges)
			})
		})
	}
}

// BenchmarkSIMDKernels measures each micro-kernel the CPU supports on
// packed panels in cache (kc = 256), as BenchmarkMicroKernel does for the
// one in use.
func BenchmarkSIMDKernels(b *testing.B) {
	kernels := simdKernels()
	const kc = 256
	for _, k := range kernels {
		b.Run(strings.ReplaceAll(k.name, " ", "_"), func(b *testing.B) {
			a := testmat.Random(testmat.NewRand(1), 1, kc*k.mr, 0).Data
			p := testmat.Random(testmat.NewRand(2), 1, kc*k.nr, 0).Data
			c := make([]float64, k.mr*k.nr)
			for b.Loop() {
				k.micro(kc, a, p, 1, 1, c, k.nr)
			}
			reportGFLOPs(b, 2*float64(kc*k.mr*k.nr))
		})
	}
}
