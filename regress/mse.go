package regress

import (
	"math"

	"rkhs/internal/check"
	"rkhs/linalg"
)

// MSE returns the mean squared error (1/(nq))·Σᵢₖ (Y[i][k] − P[i][k])² of
// the predictions p against the targets y, both n×q with n, q ≥ 1: the
// score rkhs fit and rkhs paper report. It sums in row order, so the
// result depends only on y and p. Predictions that are NaN or ±Inf (a
// model evaluated where it overflows) give a NaN or +Inf score, not an
// error: they are results to compare, while y is data. But finite
// predictions whose squared errors overflow (labels near 1e300) are an
// error, not a score of +Inf.
//
// Errors (InputErrors wrapping ErrInput): y or p nil, malformed, empty or
// of different shapes; y holding NaN or ±Inf (also linalg.ErrNotFinite);
// a mean squared error that overflows float64 from finite y and p.
func MSE(y, p *linalg.Dense) (float64, error) {
	const op = "MSE"
	if err := check.Data(ErrInput, op, "Y", y, 1); err != nil {
		return 0, err
	}
	if err := check.View(ErrInput, op, "P", p); err != nil {
		return 0, err
	}
	if p.Rows != y.Rows || p.Cols != y.Cols {
		return 0, inputError(op, "P", "%d×%d predictions for %d×%d targets", p.Rows, p.Cols, y.Rows, y.Cols)
	}
	var s, worst float64
	finite := true
	for i := 0; i < y.Rows; i++ {
		pr := p.Row(i)
		for k, v := range y.Row(i) {
			d := pr[k] - v
			s += d * d
			finite = finite && !math.IsNaN(pr[k]) && !math.IsInf(pr[k], 0)
			worst = max(worst, math.Abs(d))
		}
	}
	mse := s / float64(y.Rows*y.Cols)
	if finite && math.IsInf(mse, 0) {
		return 0, inputError(op, "Y", "the mean squared error overflows float64 (a residual of %.3g): scale the labels", worst)
	}
	return mse, nil
}
