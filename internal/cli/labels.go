package cli

import (
	"rkhs/linalg"
	"rkhs/regress"
)

// MSE returns the mean squared difference between y and column 0 of p
// (regress.MSE).
func MSE(y []float64, p *linalg.Dense) (float64, error) {
	return regress.MSE(linalg.NewDense(len(y), 1, y), p.Slice(0, p.Rows, 0, 1))
}
