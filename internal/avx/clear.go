//go:build !(goexperiment.simd && amd64)

package avx

// ClearUpper clears the upper halves of the vector registers (VZEROUPPER)
// in a GOEXPERIMENT=simd build on a CPU with AVX; in this build it does
// nothing.
func ClearUpper() {}
