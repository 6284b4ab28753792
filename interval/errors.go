package interval

import (
	"errors"
	"fmt"
	"math"

	"rkhs/internal/check"
	"rkhs/linalg"
	"rkhs/loo"
	"rkhs/regress"
)

// ErrInput is wrapped by every error about the caller's arguments: a level
// outside (0, 1), folds that do not partition the rows or are fewer than
// 2, test rows of the wrong width, nil, malformed or non-finite data (NaN
// or ±Inf also wrap linalg.ErrNotFinite), fewer than 2 training rows, an
// invalid fit configuration (also regress.ErrInput or loo.ErrInput).
// They are *linalg.InputError values that name the call and the argument.
var ErrInput = errors.New("interval: invalid input")

func inputError(op, arg, format string, args ...any) error {
	return check.Input(ErrInput, op, arg, format, args...)
}

// fitError wraps an argument error of the fit (regress.ErrInput,
// loo.ErrInput) as an
// InputError of op on arg; other errors (a failed factorization, a
// problem too large for memory) are returned as they are.
func fitError(op, arg string, err error) error {
	if errors.Is(err, regress.ErrInput) || errors.Is(err, loo.ErrInput) {
		return check.Wrap(ErrInput, op, arg, err)
	}
	return err
}

// checkLevel requires 0 < level < 1.
func checkLevel(op string, level float64) error { return checkLevelArg(op, "level", level) }

// checkLevelArg is checkLevel for the argument arg; NaN and ±Inf also
// wrap linalg.ErrNotFinite.
func checkLevelArg(op, arg string, level float64) error {
	if level > 0 && level < 1 {
		return nil
	}
	var cause error
	if math.IsNaN(level) || math.IsInf(level, 0) {
		cause = linalg.ErrNotFinite
	}
	return &linalg.InputError{Op: op, Arg: arg, Reason: fmt.Sprintf("%v, must lie strictly between 0 and 1 (0.9 for 90 %% intervals)", level), Kind: ErrInput, Err: cause}
}
