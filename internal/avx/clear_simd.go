//go:build goexperiment.simd && amd64

package avx

import "simd/archsimd"

// hasAVX guards VZEROUPPER, which faults on a CPU without AVX.
var hasAVX = archsimd.X86.AVX()

// ClearUpper clears the upper halves of the vector registers (VZEROUPPER)
// if the CPU has AVX, so that legacy SSE code after it runs at full speed
// (see the package documentation). It costs about a cycle.
func ClearUpper() {
	if hasAVX {
		archsimd.ClearAVXUpperBits()
	}
}
