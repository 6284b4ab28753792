//go:build !(goexperiment.simd && amd64)

package linalg

// axpyRows is axpyRowsScalar in this build; see axpy_rows_simd.go for the
// AVX-512 version of a GOEXPERIMENT=simd build.
func axpyRows(y []float64, x, z Dense, off int, c []float64) { axpyRowsScalar(y, x, z, off, c) }
