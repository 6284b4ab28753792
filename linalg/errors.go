package linalg

import (
	"errors"
	"fmt"
	"math"
)

// Sentinel errors. Routines return them wrapped in a struct that says where
// the failure happened; test for them with [errors.Is].
var (
	// ErrNotPositiveDefinite: a Cholesky pivot was not positive.
	ErrNotPositiveDefinite = errors.New("linalg: matrix is not positive definite")
	// ErrNotFinite: an input element is NaN or ±Inf.
	ErrNotFinite = errors.New("linalg: matrix has a NaN or infinite element")
	// ErrNoConvergence: an iterative algorithm reached its limit of
	// iterations or sweeps without converging.
	ErrNoConvergence = errors.New("linalg: no convergence")
)

// ConvergenceError reports which algorithm stopped without converging and
// how many iterations (or sweeps, for Jacobi methods) it had done. It wraps
// ErrNoConvergence.
type ConvergenceError struct {
	Algorithm  string // for example "tridiagonal QL" or "one-sided Jacobi"
	Iterations int
}

func (e *ConvergenceError) Error() string {
	return fmt.Sprintf("linalg: %s did not converge after %d iterations", e.Algorithm, e.Iterations)
}

// Unwrap returns ErrNoConvergence.
func (e *ConvergenceError) Unwrap() error { return ErrNoConvergence }

// PivotError reports the column at which a Cholesky factorization found a
// pivot that is not positive (or not a number). Col is 0-based; Value is the
// pivot a_jj − Σ_{k<j} l_jk² that was found. It wraps ErrNotPositiveDefinite.
type PivotError struct {
	Col   int
	Value float64
}

func (e *PivotError) Error() string {
	return fmt.Sprintf("linalg: matrix is not positive definite: pivot %g at column %d", e.Value, e.Col)
}

// Unwrap returns ErrNotPositiveDefinite.
func (e *PivotError) Unwrap() error { return ErrNotPositiveDefinite }

// NotFiniteError reports the first NaN or ±Inf element found in an input, by
// its 0-based row and column. It wraps ErrNotFinite.
type NotFiniteError struct {
	Row, Col int
	Value    float64
}

func (e *NotFiniteError) Error() string {
	return fmt.Sprintf("linalg: element (%d,%d) is %v", e.Row, e.Col, e.Value)
}

// Unwrap returns ErrNotFinite.
func (e *NotFiniteError) Unwrap() error { return ErrNotFinite }

// InputError says which argument of which call was rejected and why. It is
// the error every package of rkhs above linalg (kernels, regress, loo,
// classify) returns for an invalid argument: Kind is the sentinel of the
// package that rejected it (regress.ErrInput, kernels.ErrParameter, …), Err
// the cause when there is one — a [*NotFiniteError] for NaN or ±Inf data,
// [ErrNotFinite] itself for a non-finite parameter, or the error of another
// package (an invalid kernel parameter seen by regress). Both are reachable
// with [errors.Is], and [errors.As] finds the *InputError itself, so that
//
//	errors.Is(err, linalg.ErrNotFinite)
//
// holds for NaN or ±Inf input whichever package saw it. A bad element of a
// data matrix is named in Reason by its row and column counted from 1, as
// a data file counts them ("RLS.Fit: X: row 4, column 2 is NaN"); the
// NotFiniteError it wraps keeps the 0-based indices for a program.
//
// Package linalg itself does not return InputError: misuse of its routines
// panics (see the package documentation).
type InputError struct {
	Op     string // the call, for example "RLS.Fit", "Gram", "Model.Predict"
	Arg    string // the argument or field, for example "X", "Lambda", "labels[2]"
	Reason string // why it was rejected
	Kind   error  // the reporting package's sentinel
	Err    error  // the cause, or nil
}

// Error returns "Kind: Op: Arg: Reason" (without "Kind: " when Kind is nil).
func (e *InputError) Error() string {
	s := e.Op + ": " + e.Arg + ": " + e.Reason
	if e.Kind != nil {
		s = e.Kind.Error() + ": " + s
	}
	return s
}

// Unwrap returns Kind and Err, those that are not nil.
func (e *InputError) Unwrap() []error {
	var errs []error
	for _, err := range []error{e.Kind, e.Err} {
		if err != nil {
			errs = append(errs, err)
		}
	}
	return errs
}

// checkFinite returns a *NotFiniteError for the first element of a (row by
// row) that is NaN or ±Inf.
func checkFinite(a Dense) error {
	if a.IsEmpty() {
		return nil
	}
	for i := 0; i < a.Rows; i++ {
		for j, v := range a.Data[i*a.Stride : i*a.Stride+a.Cols] {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return &NotFiniteError{Row: i, Col: j, Value: v}
			}
		}
	}
	return nil
}

// checkFiniteLower returns a *NotFiniteError for the first element of the
// lower triangle of the square matrix a (row by row) that is NaN or ±Inf.
func checkFiniteLower(a *Dense) error {
	for i := 0; i < a.Rows; i++ {
		row := a.Data[i*a.Stride : i*a.Stride+i+1]
		for j, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return &NotFiniteError{Row: i, Col: j, Value: v}
			}
		}
	}
	return nil
}
