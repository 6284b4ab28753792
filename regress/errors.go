package regress

import (
	"errors"

	"rkhs/internal/check"
	"rkhs/kernels"
	"rkhs/linalg"
)

// ErrInput is wrapped by every error about the caller's arguments: nil,
// empty or malformed matrices, mismatched sizes, NaN or ±Inf (which also
// wrap linalg.ErrNotFinite), λ ≤ 0, an option out of range, an invalid
// kernel (which also wraps kernels.ErrParameter), a nil or zero-value model
// or decomposition. They are *linalg.InputError values naming the call and
// the argument.
var ErrInput = errors.New("regress: invalid input")

func inputError(op, arg, format string, args ...any) error {
	return check.Input(ErrInput, op, arg, format, args...)
}

// checkXY validates training data: X n×d with n ≥ 1 and d ≥ 1, Y n×q with
// q ≥ 1, both valid views with finite elements.
func checkXY(op string, x, y *linalg.Dense) error {
	return check.XY(ErrInput, op, x, y, 1)
}

// checkFit validates what every kernel fit takes: the kernel, then X and Y.
func checkFit(op string, k kernels.Kernel, x, y *linalg.Dense) error {
	if err := checkKernel(op, k); err != nil {
		return err
	}
	return checkXY(op, x, y)
}

// checkRegularized validates the arguments of a fit regularized by λ: the
// kernel, X and Y, λ and the intercept mode.
func checkRegularized(op string, k kernels.Kernel, x, y *linalg.Dense, lambda float64, ic Intercept) error {
	if err := checkFit(op, k, x, y); err != nil {
		return err
	}
	if err := checkLambda(op, "Lambda", lambda); err != nil {
		return err
	}
	return ic.check(op)
}

// checkKernel rejects a nil kernel or invalid kernel parameters (which also
// wrap kernels.ErrParameter).
func checkKernel(op string, k kernels.Kernel) error { return check.Kernel(ErrInput, op, "Kernel", k) }

// Overflow messages: what a non-finite result from finite input means.
const (
	predictionOverflow = "the model's values overflow float64 at these points (coefficients or kernel values too large)"
	coefOverflow       = "the coefficients overflow float64: scale the labels, or raise λ"
)

// checkModel reports coefficients or intercepts that came out NaN or ±Inf
// from finite data.
func checkModel(op string, coef *linalg.Dense, b []float64) error {
	if err := check.Result(ErrInput, op, "Coef", coef, coefOverflow); err != nil {
		return err
	}
	return check.Result(ErrInput, op, "Intercept", linalg.NewDense(1, len(b), b), coefOverflow)
}

// kernelError wraps an error of package kernels met after the kernel and
// the data were validated: kernel values that overflow on data this large
// (kernels.ErrData).
func kernelError(op, arg string, err error) error { return check.Wrap(ErrInput, op, arg, err) }

// checkLambda requires 0 < λ < ∞; λ has no default (see package rkhs).
func checkLambda(op, name string, lambda float64) error {
	return check.Positive(ErrInput, op, name, lambda)
}

// checkPoints validates the points a model or a path predicts at: a valid
// finite matrix (zero rows allowed) with cols columns.
func checkPoints(op string, x *linalg.Dense, cols int) error {
	return check.Points(ErrInput, op, "X", x, cols)
}
