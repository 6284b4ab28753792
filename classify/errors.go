package classify

import (
	"errors"

	"rkhs/internal/check"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

// ErrInput is wrapped by every error about the caller's data or
// parameters: nil, empty or malformed X, NaN or ±Inf (which also wrap
// linalg.ErrNotFinite), labels of the wrong length, one class only, three
// classes given to a binary-only method, λ ≤ 0, k out of range, an
// intercept mode the method does not have, invalid kernel parameters
// (which also wrap kernels.ErrParameter), a nil or zero-value model. They
// are *linalg.InputError values; use errors.As to read which call and
// which argument.
var ErrInput = errors.New("classify: invalid input")

func inputError(op, arg, format string, args ...any) error {
	return check.Input(ErrInput, op, arg, format, args...)
}

// kernelError wraps an error of package kernels met after the kernel and
// the data were validated — kernel values that overflow on data this large
// (kernels.ErrData) — as an InputError on X.
func kernelError(op string, err error) error { return check.Wrap(ErrInput, op, "X", err) }

// checkKernel rejects a nil kernel and returns the kernel's own Validate
// error, wrapped, for invalid parameters.
func checkKernel(op, name string, k kernels.Kernel) error {
	return check.Kernel(ErrInput, op, name, k)
}

// checkIntercept rejects an unknown intercept mode
// (regress.Intercept.Validate); the modes a method does not have it
// rejects itself.
func checkIntercept(op string, ic regress.Intercept) error {
	return check.Valid(ErrInput, op, "Intercept", ic)
}

// checkFit validates what every Fit takes: the kernel, then the training
// data (see checkTrain).
func checkFit(op string, k kernels.Kernel, x *linalg.Dense, labels []float64) error {
	if err := checkKernel(op, "Kernel", k); err != nil {
		return err
	}
	return checkTrain(op, x, labels)
}

// checkTrain validates training data: X n×d with n ≥ 1, d ≥ 1, a valid
// view with finite elements, and n finite labels.
func checkTrain(op string, x *linalg.Dense, labels []float64) error {
	if err := check.Data(ErrInput, op, "X", x, 1); err != nil {
		return err
	}
	if len(labels) != x.Rows {
		return inputError(op, "labels", "%d labels for %d rows of X", len(labels), x.Rows)
	}
	return check.Vector(ErrInput, op, "labels", labels)
}

// checkPredict validates the points a fitted model is asked about: a valid
// finite matrix (zero rows allowed) with the training number of columns.
func checkPredict(op string, x *linalg.Dense, cols int) error {
	return check.Points(ErrInput, op, "X", x, cols)
}

// checkLambda requires 0 < λ < ∞ (λ has no default).
func checkLambda(op string, lambda float64) error {
	return check.Positive(ErrInput, op, "Lambda", lambda)
}

// checkCount requires a non-negative iteration or pass limit; def is what
// 0 selects.
func checkCount(op, name string, v int, def string) error {
	return check.OptionCount(ErrInput, op, name, v, def)
}
