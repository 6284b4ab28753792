//go:build !(goexperiment.simd && amd64)

package linalg

// substCols8 does substCols's work on the columns of row i eight at a time
// where a SIMD build has AVX-512 (trsm_subst_simd.go); in this build it
// leaves every column, from 0 on, to substCols.
func substCols8(coef []float64, b Dense, jlo, i int, d float64) int { return 0 }
