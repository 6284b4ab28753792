package cli

import (
	"rkhs/linalg"
	"rkhs/regress"
)

// Column returns labels y as an n×1 matrix sharing their storage, as the
// library's fits take them.
func Column(y []float64) *linalg.Dense { return linalg.NewDense(len(y), 1, y) }

// MSE returns the mean squared difference between y and column 0 of p
// (regress.MSE).
func MSE(y []float64, p *linalg.Dense) (float64, error) {
	return regress.MSE(Column(y), p.Slice(0, p.Rows, 0, 1))
}
