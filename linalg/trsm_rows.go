//go:build !(goexperiment.simd && amd64)

package linalg

// trsmRows8 does the substitution of trsmRightLowerTrans for rows of x
// eight at a time where a SIMD build has AVX-512 (trsm_rows_simd.go); in
// this build it leaves every row, from lo on, to the caller.
func trsmRows8(l, x Dense, lo, hi int) int { return lo }
