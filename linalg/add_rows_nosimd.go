//go:build !(goexperiment.simd && amd64)

package linalg

// addRows is addRowsScalar in this build; see add_rows_simd.go.
func addRows(y []float64, rows [][]float64) { addRowsScalar(y, rows) }
