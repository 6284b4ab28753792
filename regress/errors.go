package regress

import (
	"errors"
	"fmt"
	"math"

	"rkhs/linalg"
)

// ErrInput is wrapped by every error about the caller's data or parameters:
// empty data, mismatched sizes, NaN or ±Inf, λ ≤ 0, more centres than
// points. The message says which argument and why.
var ErrInput = errors.New("regress: invalid input")

func inputError(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrInput}, args...)...)
}

// checkXY validates training data: X n×d with n ≥ 1, Y n×q with q ≥ 1, all
// finite.
func checkXY(x, y *linalg.Dense) error {
	if x == nil || y == nil {
		return inputError("X and Y must not be nil")
	}
	if x.Rows == 0 {
		return inputError("X has no rows")
	}
	if y.Rows != x.Rows {
		return inputError("Y has %d rows, X has %d", y.Rows, x.Rows)
	}
	if y.Cols == 0 {
		return inputError("Y has no columns")
	}
	if err := checkFinite(x, "X"); err != nil {
		return err
	}
	return checkFinite(y, "Y")
}

func checkFinite(m *linalg.Dense, name string) error {
	for i := 0; i < m.Rows; i++ {
		for j, v := range m.Row(i) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return inputError("%s[%d][%d] is %v", name, i, j, v)
			}
		}
	}
	return nil
}

func checkLambda(lambda float64) error {
	if !(lambda > 0) || math.IsInf(lambda, 0) {
		return inputError("lambda is %v, must be positive and finite", lambda)
	}
	return nil
}
