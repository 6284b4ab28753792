package linalg

import "math"

// potf2 factors the symmetric positive definite n×n matrix held in the lower
// triangle of a as L·Lᵀ, overwriting that triangle with L; the strict upper
// triangle is neither read nor written. It is the unblocked companion of
// potrf, used for the diagonal blocks.
//
// Row-major storage makes the rows of L contiguous, so the algorithm is the
// dot-product (Cholesky–Crout) form: column j of L is computed from the
// columns before it,
//
//	l_jj = √(a_jj − Σ_{k<j} l_jk²),
//	l_ij = (a_ij − Σ_{k<j} l_ik·l_jk) / l_jj   for i > j,
//
// each sum a dot product of two row prefixes. The cost is n³/3 flops.
//
// If a pivot a_jj − Σ l_jk² is not positive (or is NaN), potf2 returns a
// *PivotError with Col = off + j; columns before j then hold L and the rest of
// the triangle is partly updated.
func potf2(a Dense, off int) error {
	n := a.Rows
	for j := 0; j < n; j++ {
		rj := a.Data[j*a.Stride : j*a.Stride+j+1]
		d := rj[j] - dot(rj[:j], rj[:j])
		if !(d > 0) || math.IsInf(d, 0) {
			return &PivotError{Col: off + j, Value: d}
		}
		ljj := math.Sqrt(d)
		rj[j] = ljj
		for i := j + 1; i < n; i++ {
			ri := a.Data[i*a.Stride : i*a.Stride+j+1]
			ri[j] = (ri[j] - dot(ri[:j], rj[:j])) / ljj
		}
	}
	return nil
}
