package regress

import (
	"rkhs/kernels"
	"rkhs/linalg"
)

// NystromOperator is the data side of a Nyström fit with fixed centres C
// (m×d) and kernel k: the sums over the n training rows that the solvers
// need, with K_nm[i][j] = k(xᵢ, cⱼ). A driver may compute each sum
// elsewhere (other goroutines, other machines) and merge the partial sums;
// Falkon.FitOperator does every pass over the data through it.
//
// Summary is called once, before the iteration; NormalMul once per
// iteration. An error from either stops the fit and is returned, wrapped.
type NystromOperator interface {
	// Summary returns n, K_nmᵀY (m×q), K_nmᵀ1 (length m) and 1ᵀY (length q).
	Summary() (n int, kty *linalg.Dense, kt1, sumY []float64, err error)
	// NormalMul sets dst (m×q) = K_nmᵀ(K_nm·V) for V (m×q).
	NormalMul(dst, v *linalg.Dense) error
}

// rowsOperator is the NystromOperator of Falkon.Fit: the training rows in
// memory, K_nm streamed in row blocks by kernels.Rows and never stored.
// Both sums are bit-identical for any GOMAXPROCS (a fixed partition of the
// rows and a fixed order of the partial sums, see kernels.Rows.EachBlock).
type rowsOperator struct {
	rows *kernels.Rows // K(X, C)
	y    *linalg.Dense // n×q
}

var _ NystromOperator = (*rowsOperator)(nil)

// Summary computes K_nmᵀ[Y 1] in one streamed pass (kernels.Rows.MulTransTo
// on a copy of Y with a column of ones appended, n×(q+1) doubles) and 1ᵀY
// by summing the rows of Y in order.
func (o *rowsOperator) Summary() (int, *linalg.Dense, []float64, []float64, error) {
	n, m := o.rows.Dims()
	q := o.y.Cols
	kt := o.rows.MulTransTo(nil, appendOnes(o.y)) // m×(q+1)
	kt1 := make([]float64, m)
	for j := range kt1 {
		kt1[j] = kt.At(j, q)
	}
	return n, kt.Slice(0, m, 0, q), kt1, colSums(o.y), nil
}

// NormalMul is kernels.Rows.NormalMulTo.
func (o *rowsOperator) NormalMul(dst, v *linalg.Dense) error {
	o.rows.NormalMulTo(dst, v)
	return nil
}
