//go:build !(goexperiment.simd && amd64)

package linalg

// dot2 is dot2Scalar in this build; see bidiag_pass_simd.go for the
// AVX-512 version.
func dot2(r0, r1, u []float64) (float64, float64) { return dot2Scalar(r0, r1, u) }

// axpy2 is axpy2Scalar in this build; see bidiag_pass_simd.go.
func axpy2(c0, c1 float64, r0, r1, y []float64) { axpy2Scalar(c0, c1, r0, r1, y) }

// axpy2x2 is axpy2x2Scalar in this build; see bidiag_pass_simd.go.
func axpy2x2(c0, c1, c2, c3 float64, r0, r1, r2, r3, y []float64) {
	axpy2x2Scalar(c0, c1, c2, c3, r0, r1, r2, r3, y)
}

// fusedRows4 is fusedRows4Scalar in this build; see bidiag_pass_simd.go.
func fusedRows4(a0, a1, a2, a3, u []float64, tau float64, h, c, x, part []float64) {
	fusedRows4Scalar(a0, a1, a2, a3, u, tau, h, c, x, part)
}

// bidiagQRRatio is the default of svdQRRatio in this build: with the
// scalar passes the QR first pays from M = 3N on (see svdQRRatio).
func bidiagQRRatio() float64 { return 3 }
