// Package check validates the arguments of rkhs's public entry points, once
// for every package: matrices (not nil, a well-formed view, shape, finite
// elements), vectors, positive parameters, counts and kernels. Each
// function returns nil or a *linalg.InputError whose Kind is the sentinel
// the caller passes (regress.ErrInput, kernels.ErrData, …) and whose Err,
// for NaN or ±Inf, wraps linalg.ErrNotFinite: a *linalg.NotFiniteError
// naming the element of a matrix or vector, linalg.ErrNotFinite itself for
// a scalar parameter.
//
// Validating a view here is what lets the packages above linalg keep their
// promise of an error, never a panic, for a malformed *linalg.Dense: linalg
// itself panics on one.
package check

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"rkhs/linalg"
)

// Input returns an InputError with a formatted reason.
func Input(kind error, op, arg, format string, args ...any) error {
	return &linalg.InputError{Op: op, Arg: arg, Reason: fmt.Sprintf(format, args...), Kind: kind}
}

// Wrap returns an InputError for err, an error another package returned
// about the argument arg: the reason is err's message and err stays
// reachable by errors.Is and errors.As. When err is itself an InputError
// the reason is its own, without its kind's prefix, and without its call
// and argument where they are op's and arg's (in any case), so that a
// message names each once. A *linalg.MemoryError (a problem too large,
// which no argument is to blame for) is returned as it is.
func Wrap(kind error, op, arg string, err error) error {
	if errors.Is(err, linalg.ErrTooLarge) {
		return err
	}
	reason := err.Error()
	if ie, ok := err.(*linalg.InputError); ok {
		reason = ie.Reason
		if !strings.EqualFold(ie.Arg, arg) {
			reason = ie.Arg + ": " + reason
		}
		if ie.Op != op {
			reason = ie.Op + ": " + reason
		}
	}
	return &linalg.InputError{Op: op, Arg: arg, Reason: reason, Kind: kind, Err: err}
}

// View reports a matrix that is nil or not a valid row-major view: negative
// dimensions, a Stride smaller than Cols, or Data too short for the last row
// (the length needed is computed without overflow).
func View(kind error, op, name string, m *linalg.Dense) error {
	switch {
	case m == nil:
		return Input(kind, op, name, "nil matrix")
	case m.Rows < 0 || m.Cols < 0:
		return Input(kind, op, name, "negative dimension %d×%d", m.Rows, m.Cols)
	case m.Rows == 0 || m.Cols == 0:
		return nil
	case m.Stride < m.Cols:
		return Input(kind, op, name, "stride %d smaller than %d columns", m.Stride, m.Cols)
	case m.Rows-1 > (math.MaxInt-m.Cols)/m.Stride || len(m.Data) < (m.Rows-1)*m.Stride+m.Cols:
		return Input(kind, op, name, "data of length %d too short for %d×%d with stride %d", len(m.Data), m.Rows, m.Cols, m.Stride)
	}
	return nil
}

// Finite reports the first NaN or ±Inf element of the valid view m, row by
// row, on the argument name with the reason "row i+1, column j+1 is NaN":
// rows and columns counted from 1, as a data file counts its lines and
// fields, wrapping a *linalg.NotFiniteError (whose Row and Col are the
// 0-based indices, for a program).
func Finite(kind error, op, name string, m *linalg.Dense) error {
	if m.Rows == 0 || m.Cols == 0 {
		return nil
	}
	for i := 0; i < m.Rows; i++ {
		for j, v := range m.Row(i) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return &linalg.InputError{Op: op, Arg: name, Reason: fmt.Sprintf("%s is %v", Cell(i, j), v),
					Kind: kind, Err: &linalg.NotFiniteError{Row: i, Col: j, Value: v}}
			}
		}
	}
	return nil
}

// Cell names element (i, j) (0-based) of a data matrix for a message, as
// "row i+1, column j+1": every package reports a data row as a file
// counts it.
func Cell(i, j int) string { return fmt.Sprintf("row %d, column %d", i+1, j+1) }

// Data validates a data matrix: a valid view (see View) with at least
// minRows rows, at least one column when it has rows, and finite elements.
func Data(kind error, op, name string, m *linalg.Dense, minRows int) error {
	if err := View(kind, op, name, m); err != nil {
		return err
	}
	switch {
	case m.Rows < minRows && m.Rows == 0:
		return Input(kind, op, name, "no rows")
	case m.Rows < minRows:
		return Input(kind, op, name, "%d rows, needs at least %d", m.Rows, minRows)
	case m.Rows > 0 && m.Cols == 0:
		return Input(kind, op, name, "no columns")
	}
	return Finite(kind, op, name, m)
}

// XY validates the training data of a fit: X n×d with n ≥ minRows, Y
// n×q, both valid views (Y's shape is checked before its values, so that
// a Y of the wrong length is said so) with finite elements.
func XY(kind error, op string, x, y *linalg.Dense, minRows int) error {
	if err := Data(kind, op, "X", x, minRows); err != nil {
		return err
	}
	if err := View(kind, op, "Y", y); err != nil {
		return err
	}
	if y.Rows != x.Rows {
		return Input(kind, op, "Y", "%d rows, X has %d", y.Rows, x.Rows)
	}
	return Data(kind, op, "Y", y, minRows)
}

// Points validates points to evaluate a fitted function at: a valid finite
// view (zero rows allowed) with cols columns when it has rows.
func Points(kind error, op, name string, m *linalg.Dense, cols int) error {
	if err := Data(kind, op, name, m, 0); err != nil {
		return err
	}
	if m.Rows > 0 && m.Cols != cols {
		return Input(kind, op, name, "%d columns, the model was fitted on %d", m.Cols, cols)
	}
	return nil
}

// Vector reports the first NaN or ±Inf of v as name[i], wrapping a
// *linalg.NotFiniteError (row i, column 0).
func Vector(kind error, op, name string, v []float64) error {
	for i, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return &linalg.InputError{Op: op, Arg: fmt.Sprintf("%s[%d]", name, i), Reason: fmt.Sprintf("is %v", x),
				Kind: kind, Err: &linalg.NotFiniteError{Row: i, Value: x}}
		}
	}
	return nil
}

// notFinite is the error of a scalar parameter that is NaN or ±Inf.
func notFinite(kind error, op, name string, v float64, want string) error {
	return &linalg.InputError{Op: op, Arg: name, Reason: fmt.Sprintf("%v, must be %s", v, want), Kind: kind, Err: linalg.ErrNotFinite}
}

// Positive requires 0 < v < ∞: a regularization parameter λ, a kernel
// width σ. NaN and ±Inf wrap linalg.ErrNotFinite.
func Positive(kind error, op, name string, v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return notFinite(kind, op, name, v, "positive and finite")
	}
	if v <= 0 {
		return Input(kind, op, name, "%v, must be positive and finite", v)
	}
	return nil
}

// Option requires 0 ≤ v < ∞ for an option whose zero value means its
// documented default (a tolerance, a step size); def says what 0 selects.
// NaN and ±Inf wrap linalg.ErrNotFinite.
func Option(kind error, op, name string, v float64, def string) error {
	want := "≥ 0 and finite (0 selects " + def + ")"
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return notFinite(kind, op, name, v, want)
	}
	if v < 0 {
		return Input(kind, op, name, "%v, must be %s", v, want)
	}
	return nil
}

// Finite1 requires a finite scalar (any sign), wrapping linalg.ErrNotFinite.
func Finite1(kind error, op, name string, v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return notFinite(kind, op, name, v, "finite")
	}
	return nil
}

// Count requires an integer parameter of at least min.
func Count(kind error, op, name string, v, min int) error {
	if v < min {
		return Input(kind, op, name, "%d, must be at least %d", v, min)
	}
	return nil
}

// OptionCount requires a non-negative count whose zero value selects def.
func OptionCount(kind error, op, name string, v int, def string) error {
	if v < 0 {
		return Input(kind, op, name, "%d, must be ≥ 0 (0 selects %s)", v, def)
	}
	return nil
}

// Kernel rejects a nil kernel and returns the kernel's own Validate error,
// wrapped, for invalid parameters. A Validate error that is itself an
// InputError (those of package kernels) is reported on the field, as
// "Kernel.Sigma: -1, must be positive and finite", and stays reachable by
// errors.Is (kernels.ErrParameter, linalg.ErrNotFinite); with an empty
// name the field alone is named. The interfaces
// are spelled out here because package kernels imports this one.
func Kernel(kind error, op, name string, k interface{ Eval(x, z []float64) float64 }) error {
	if k == nil {
		return Input(kind, op, name, "nil kernel")
	}
	v, ok := k.(interface{ Validate() error })
	if !ok {
		return nil
	}
	return Field(kind, op, name, v.Validate())
}

// Field re-reports err, the Validate error of a value that names its own
// fields (a kernel, a kernels.Standardization), on the caller's op and
// name: an InputError about the field, as "Kernel.Sigma" ("Sigma" alone
// with an empty name), with the inner reason, that wraps err. A nil err
// is nil.
func Field(kind error, op, name string, err error) error {
	if err == nil {
		return nil
	}
	var ie *linalg.InputError
	if errors.As(err, &ie) {
		arg := ie.Arg
		if name != "" {
			arg = name + "." + arg
		}
		return &linalg.InputError{Op: op, Arg: arg, Reason: ie.Reason, Kind: kind, Err: err}
	}
	return Wrap(kind, op, name, err)
}

// Valid re-reports the Validate error of v, a value the caller was given
// as the argument or field name that validates itself as a whole (a
// regress.Intercept): an InputError on the caller's op and name, with v's
// reason, that wraps v's error, so that errors.Is finds both kind and the
// sentinel of v's package. Kernel does the same for kernels, whose errors
// name a field of the kernel.
func Valid(kind error, op, name string, v interface{ Validate() error }) error {
	err := v.Validate()
	if err == nil {
		return nil
	}
	var ie *linalg.InputError
	if errors.As(err, &ie) {
		return &linalg.InputError{Op: op, Arg: name, Reason: ie.Reason, Kind: kind, Err: err}
	}
	return Wrap(kind, op, name, err)
}

// Result reports the first NaN or ±Inf of m, a result computed from
// finite input (predictions, coefficients), on the argument name with the
// reason "row i+1, column j+1 is +Inf from finite input: why" (see Cell),
// why saying what overflowed and what to do. It does not wrap
// linalg.ErrNotFinite, which is about input: the input was finite.
func Result(kind error, op, name string, m *linalg.Dense, why string) error {
	for i := 0; i < m.Rows; i++ {
		for j, v := range m.Row(i) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return Input(kind, op, name, "%s is %v from finite input: %s", Cell(i, j), v, why)
			}
		}
	}
	return nil
}

// SquareLimit bounds the magnitude of targets whose squared residuals a
// selection sums (Squarable): (2·10¹⁵⁰)² summed over 10⁶ rows is
// 4·10³⁰⁶, inside float64's range, and (10⁻¹⁵⁰)² = 10⁻³⁰⁰ is still a
// normal number.
const SquareLimit = 1e150

// Squarable reports targets m (a valid, finite view) whose squared
// residuals a criterion cannot sum in float64: a value larger than
// SquareLimit in magnitude (the squares overflow: NotHuge), or every value
// smaller than 1/SquareLimit and not all zero (the squares underflow,
// every score comes out 0 and no parameter can be told from another).
// Either way the cure is to scale the targets, which the message says.
func Squarable(kind error, op, name string, m *linalg.Dense) error {
	if err := NotHuge(kind, op, name, m); err != nil {
		return err
	}
	if big := largest(m); big > 0 && big < 1/SquareLimit {
		return Input(kind, op, name, "every value below %g in magnitude (the largest %.3g): their squared residuals underflow to 0 and no score can tell the parameters apart; scale them (multiply by a power of ten)", 1/SquareLimit, big)
	}
	return nil
}

// NotHuge reports targets m (a valid, finite view) with a value larger
// than SquareLimit in magnitude, whose squares (sums of squares in
// statistics, squared residuals in a criterion) overflow float64: the
// half of Squarable that a block of rows can judge alone.
func NotHuge(kind error, op, name string, m *linalg.Dense) error {
	if big := largest(m); big > SquareLimit {
		return Input(kind, op, name, "values up to %.3g in magnitude: their squared residuals overflow float64; scale them (divide by a power of ten) below %g", big, SquareLimit)
	}
	return nil
}

// largest returns the largest magnitude of an element of m.
func largest(m *linalg.Dense) float64 {
	big := 0.0
	for i := 0; i < m.Rows; i++ {
		for _, v := range m.Row(i) {
			big = max(big, math.Abs(v))
		}
	}
	return big
}
