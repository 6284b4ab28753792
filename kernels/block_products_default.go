//go:build !(goexperiment.simd && amd64)

package kernels

// rowDot and axpy4 are the scalar versions in this build; a
// GOEXPERIMENT=simd build on amd64 uses AVX-512 when the CPU has it
// (block_products_simd.go).

func rowDot(a, b []float64) float64 { return rowDotScalar(a, b) }

func axpy4(w0, w1, w2, w3 float64, k0, k1, k2, k3, y []float64) {
	axpy4Scalar(w0, w1, w2, w3, k0, k1, k2, k3, y)
}
