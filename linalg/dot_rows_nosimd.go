//go:build !(goexperiment.simd && amd64)

package linalg

// dotRows is dotRowsScalar in this build; see dot_rows_simd.go.
func dotRows(out []float64, x, z Dense, off int, v []float64) { dotRowsScalar(out, x, z, off, v) }
