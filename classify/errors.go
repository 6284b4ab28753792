package classify

import (
	"errors"
	"fmt"
	"math"

	"rkhs/kernels"
	"rkhs/linalg"
)

// ErrInput is wrapped by every error about the caller's data or
// parameters: empty or malformed X, NaN or ±Inf, labels of the wrong
// length, one class only, three classes given to a binary-only method,
// λ ≤ 0, k out of range, invalid kernel parameters. Use errors.Is to test
// for it and errors.As with *InputError to read which argument was wrong.
var ErrInput = errors.New("classify: invalid input")

// InputError says which argument of which call was rejected and why. It
// unwraps to ErrInput and, when the cause came from another package (an
// invalid kernel parameter, kernels.ErrParameter), to that cause as well.
type InputError struct {
	Op     string // the call, e.g. "KNN.Fit"
	Arg    string // the argument or field, e.g. "labels", "K", "X[3][1]"
	Reason string // why it was rejected
	Err    error  // underlying cause, or nil
}

// Error returns "classify: invalid input: Op: Arg: Reason".
func (e *InputError) Error() string {
	return fmt.Sprintf("%v: %s: %s: %s", ErrInput, e.Op, e.Arg, e.Reason)
}

// Unwrap returns ErrInput and the underlying cause, if any.
func (e *InputError) Unwrap() []error {
	if e.Err != nil {
		return []error{ErrInput, e.Err}
	}
	return []error{ErrInput}
}

func inputError(op, arg, format string, args ...any) error {
	return &InputError{Op: op, Arg: arg, Reason: fmt.Sprintf(format, args...)}
}

// kernelError wraps an error of package kernels as an InputError: on the
// Kernel field for an invalid parameter (or a Validate of a user kernel),
// on X for a data error (kernels.ErrData: kernel values that overflow).
func kernelError(op string, err error) error {
	arg := "Kernel"
	if errors.Is(err, kernels.ErrData) {
		arg = "X"
	}
	return &InputError{Op: op, Arg: arg, Reason: err.Error(), Err: err}
}

// checkKernel rejects a nil kernel and returns the kernel's own Validate
// error, wrapped, for invalid parameters.
func checkKernel(op string, k kernels.Kernel) error {
	if k == nil {
		return inputError(op, "Kernel", "nil kernel")
	}
	if v, ok := k.(kernels.Validator); ok {
		if err := v.Validate(); err != nil {
			return kernelError(op, err)
		}
	}
	return nil
}

// checkMatrix validates a data matrix: not nil, a valid row-major view
// (so that no later routine panics on it), at least one column and, if
// nonEmpty, one row; every element finite.
func checkMatrix(op, name string, x *linalg.Dense, nonEmpty bool) error {
	if x == nil {
		return inputError(op, name, "nil matrix")
	}
	if x.Rows < 0 || x.Cols < 0 {
		return inputError(op, name, "negative dimension %d×%d", x.Rows, x.Cols)
	}
	if nonEmpty && x.Rows == 0 {
		return inputError(op, name, "no rows")
	}
	if x.Cols == 0 && x.Rows > 0 {
		return inputError(op, name, "no columns")
	}
	if x.Rows > 0 {
		if x.Stride < x.Cols {
			return inputError(op, name, "stride %d smaller than %d columns", x.Stride, x.Cols)
		}
		if x.Rows-1 > (math.MaxInt-x.Cols)/x.Stride || len(x.Data) < (x.Rows-1)*x.Stride+x.Cols {
			return inputError(op, name, "data of length %d too short for %d×%d with stride %d", len(x.Data), x.Rows, x.Cols, x.Stride)
		}
	}
	for i := 0; i < x.Rows; i++ {
		for j, v := range x.Row(i) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return inputError(op, fmt.Sprintf("%s[%d][%d]", name, i, j), "is %v", v)
			}
		}
	}
	return nil
}

// checkTrain validates training data: X n×d with n ≥ 1, d ≥ 1, finite,
// and n finite labels.
func checkTrain(op string, x *linalg.Dense, labels []float64) error {
	if err := checkMatrix(op, "X", x, true); err != nil {
		return err
	}
	if len(labels) != x.Rows {
		return inputError(op, "labels", "%d labels for %d rows of X", len(labels), x.Rows)
	}
	for i, v := range labels {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return inputError(op, fmt.Sprintf("labels[%d]", i), "is %v", v)
		}
	}
	return nil
}

// checkPredict validates the points a fitted model is asked about: a valid
// finite matrix (zero rows allowed) with the training number of columns.
func checkPredict(op string, x *linalg.Dense, cols int) error {
	if err := checkMatrix(op, "X", x, false); err != nil {
		return err
	}
	if x.Rows > 0 && x.Cols != cols {
		return inputError(op, "X", "%d columns, the model was fitted on %d", x.Cols, cols)
	}
	return nil
}

// checkLambda requires 0 < λ < ∞.
func checkLambda(op string, lambda float64) error {
	if !(lambda > 0) || math.IsInf(lambda, 0) {
		return inputError(op, "Lambda", "%v, must be positive and finite", lambda)
	}
	return nil
}

// checkCount requires a non-negative iteration or pass limit (0 selects
// the default).
func checkCount(op, name string, v int) error {
	if v < 0 {
		return inputError(op, name, "%d, must be ≥ 0 (0 selects the default)", v)
	}
	return nil
}
