package optimize

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"rkhs/internal/check"
	"rkhs/linalg"
)

// ErrInput is wrapped by every error about the caller's arguments: a nil
// objective, no variables, bounds of the wrong length or crossed, NaN or
// ±Inf where they are not allowed (which also wrap linalg.ErrNotFinite),
// an option out of range, an objective that is not finite at the start.
// They are *linalg.InputError values naming the call and the argument.
var ErrInput = errors.New("optimize: invalid input")

// Defaults of the zero-value options of LBFGS.
const (
	defaultM             = 10
	defaultMaxIter       = 1000
	defaultTol           = 1e-9 // near L-BFGS-B's factr = 10⁷ times the machine epsilon
	defaultGradTol       = 1e-5 // L-BFGS-B's pgtol
	defaultC1            = 1e-4 // Nocedal and Wright, section 3.1
	defaultC2            = 0.9  // the same, for quasi-Newton methods
	defaultMaxLineSearch = 20
	defaultRelTolIters   = 1
)

// settings are the options of an LBFGS with the defaults filled in.
type settings struct {
	m, maxIter, maxLS int
	relIters          int
	tol, relTol       float64
	gradTol           float64
	c1, c2            float64
	callback          Callback
}

// settings validates the options for op and fills in the defaults.
func (lb LBFGS) settings(op string) (settings, error) {
	s := settings{callback: lb.Callback}
	var errs [9]error
	s.m, errs[0] = option(op, "M", lb.M, defaultM)
	s.maxIter, errs[1] = option(op, "MaxIter", lb.MaxIter, defaultMaxIter)
	s.tol, errs[2] = option(op, "Tol", lb.Tol, defaultTol)
	s.gradTol, errs[3] = option(op, "GradTol", lb.GradTol, defaultGradTol)
	s.c1, errs[4] = option(op, "C1", lb.C1, defaultC1)
	s.c2, errs[5] = option(op, "C2", lb.C2, defaultC2)
	s.maxLS, errs[6] = option(op, "MaxLineSearch", lb.MaxLineSearch, defaultMaxLineSearch)
	s.relTol, errs[7] = lb.RelTol, check.Option(ErrInput, op, "RelTol", lb.RelTol, "no relative test")
	s.relIters, errs[8] = option(op, "RelTolIters", lb.RelTolIters, defaultRelTolIters)
	switch {
	case cmp.Or(errs[:]...) != nil:
		return s, cmp.Or(errs[:]...)
	case s.c1 >= 1:
		return s, check.Input(ErrInput, op, "C1", "%v, must be below 1", s.c1)
	case s.c2 >= 1 || s.c2 <= s.c1:
		return s, check.Input(ErrInput, op, "C2", "%v, must lie between C1 = %v and 1", s.c2, s.c1)
	case s.relTol >= 1:
		return s, check.Input(ErrInput, op, "RelTol", "%v, must be below 1", s.relTol)
	}
	return s, nil
}

// option validates a count or a tolerance whose zero value selects def,
// and returns it with the default filled in.
func option[T int | float64](op, name string, v, def T) (T, error) {
	var err error
	switch x := any(v).(type) {
	case int:
		err = check.OptionCount(ErrInput, op, name, x, fmt.Sprint(def))
	case float64:
		err = check.Option(ErrInput, op, name, x, fmt.Sprint(def))
	}
	if v == 0 {
		v = def
	}
	return v, err
}

// checkProblem validates the objective, the starting point and the box:
// x0 finite and not empty; lo and hi nil or of x0's length, lo[i] in
// [−Inf, ∞), hi[i] in (−∞, +Inf], lo[i] ≤ hi[i].
func checkProblem(op string, f Objective, x0, lo, hi []float64) error {
	if f == nil {
		return check.Input(ErrInput, op, "f", "nil objective")
	}
	if len(x0) == 0 {
		return check.Input(ErrInput, op, "x0", "no variables")
	}
	if err := check.Vector(ErrInput, op, "x0", x0); err != nil {
		return err
	}
	for _, b := range []struct {
		name string
		v    []float64
		bad  float64 // the infinity this side may not be
	}{{"lo", lo, math.Inf(1)}, {"hi", hi, math.Inf(-1)}} {
		if b.v != nil && len(b.v) != len(x0) {
			return check.Input(ErrInput, op, b.name, "length %d, x0 has %d", len(b.v), len(x0))
		}
		for i, v := range b.v {
			if math.IsNaN(v) || v == b.bad {
				return &linalg.InputError{Op: op, Arg: fmt.Sprintf("%s[%d]", b.name, i),
					Reason: fmt.Sprintf("is %v (an infinite bound may only be %v)", v, -b.bad),
					Kind:   ErrInput, Err: &linalg.NotFiniteError{Row: i, Value: v}}
			}
		}
	}
	if lo != nil && hi != nil {
		for i := range lo {
			if lo[i] > hi[i] {
				return check.Input(ErrInput, op, fmt.Sprintf("lo[%d]", i), "%v, above hi[%d] = %v", lo[i], i, hi[i])
			}
		}
	}
	return nil
}

// startError reports an objective whose value fx or gradient g is NaN or
// ±Inf at the starting point (x0 projected onto the box).
func startError(op string, fx float64, g []float64) error {
	what, err := fmt.Sprintf("value %v", fx), linalg.ErrNotFinite
	if !math.IsNaN(fx) && !math.IsInf(fx, 0) {
		i := slices.IndexFunc(g, func(v float64) bool { return math.IsNaN(v) || math.IsInf(v, 0) })
		what, err = fmt.Sprintf("gradient[%d] = %v", i, g[i]), &linalg.NotFiniteError{Row: i, Value: g[i]}
	}
	return &linalg.InputError{Op: op, Arg: "f", Reason: what + " at x0: the objective must be finite where the search starts",
		Kind: ErrInput, Err: err}
}
