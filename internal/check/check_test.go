package check

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"rkhs/linalg"
)

var errKind = errors.New("test: invalid input")

type badKernel struct{}

func (badKernel) Eval(x, z []float64) float64 { return 0 }
func (badKernel) Validate() error             { return errors.New("always invalid") }

// mode validates itself as a whole, as regress.Intercept does.
type mode int

func (m mode) Validate() error {
	if m != 0 {
		return &linalg.InputError{Op: "mode.Validate", Arg: "mode", Reason: "unknown mode", Kind: errOther}
	}
	return nil
}

var errOther = errors.New("other: invalid input")

type plainKernel struct{}

func (plainKernel) Eval(x, z []float64) float64 { return 0 }

func TestCheck(t *testing.T) {
	nan := math.NaN()
	ok := linalg.NewDense(2, 2, []float64{1, 2, 3, 4})
	for _, tc := range []struct {
		name      string
		err       error
		arg       string // want the InputError's Arg ("" for no error)
		notFinite bool   // want errors.Is(err, linalg.ErrNotFinite)
	}{
		{"valid data", Data(errKind, "Op", "X", ok, 1), "", false},
		{"nil", Data(errKind, "Op", "X", nil, 1), "X", false},
		{"negative", Data(errKind, "Op", "X", &linalg.Dense{Rows: -1, Cols: 2}, 0), "X", false},
		{"stride", Data(errKind, "Op", "X", &linalg.Dense{Rows: 2, Cols: 2, Stride: 1, Data: make([]float64, 4)}, 1), "X", false},
		{"short data", Data(errKind, "Op", "X", &linalg.Dense{Rows: 2, Cols: 2, Stride: 2, Data: make([]float64, 3)}, 1), "X", false},
		{"huge stride", Data(errKind, "Op", "X", &linalg.Dense{Rows: 3, Cols: 1, Stride: math.MaxInt / 2, Data: make([]float64, 1)}, 1), "X", false},
		{"no rows", Data(errKind, "Op", "X", &linalg.Dense{}, 1), "X", false},
		{"too few rows", Data(errKind, "Op", "X", ok, 3), "X", false},
		{"no columns", Data(errKind, "Op", "X", &linalg.Dense{Rows: 2}, 1), "X", false},
		{"NaN", Data(errKind, "Op", "X", linalg.NewDense(1, 2, []float64{0, nan}), 1), "X", true},
		{"points, empty", Points(errKind, "Op", "X", &linalg.Dense{}, 5), "", false},
		{"points, columns", Points(errKind, "Op", "X", ok, 3), "X", false},
		{"vector Inf", Vector(errKind, "Op", "y", []float64{1, math.Inf(-1)}), "y[1]", true},
		{"positive", Positive(errKind, "Op", "Lambda", 1e-3), "", false},
		{"positive 0", Positive(errKind, "Op", "Lambda", 0), "Lambda", false},
		{"positive NaN", Positive(errKind, "Op", "Lambda", nan), "Lambda", true},
		{"positive +Inf", Positive(errKind, "Op", "Lambda", math.Inf(1)), "Lambda", true},
		{"option 0", Option(errKind, "Op", "Tol", 0, "1e-5"), "", false},
		{"option negative", Option(errKind, "Op", "Tol", -1, "1e-5"), "Tol", false},
		{"option NaN", Option(errKind, "Op", "Tol", nan, "1e-5"), "Tol", true},
		{"finite", Finite1(errKind, "Op", "Offset", -3), "", false},
		{"finite Inf", Finite1(errKind, "Op", "Offset", math.Inf(1)), "Offset", true},
		{"count", Count(errKind, "Op", "MaxIter", 0, 1), "MaxIter", false},
		{"option count", OptionCount(errKind, "Op", "MaxIter", -1, "100"), "MaxIter", false},
		{"kernel nil", Kernel(errKind, "Op", "Kernel", nil), "Kernel", false},
		{"kernel invalid", Kernel(errKind, "Op", "Kernel", badKernel{}), "Kernel", false},
		{"kernel without Validate", Kernel(errKind, "Op", "Kernel", plainKernel{}), "", false},
		{"valid value", Valid(errKind, "Op", "ic", mode(0)), "", false},
		{"invalid value", Valid(errKind, "Op", "ic", mode(3)), "ic", false},
		{"invalid value, plain error", Valid(errKind, "Op", "Kernel", badKernel{}), "Kernel", false},
	} {
		if tc.arg == "" {
			if tc.err != nil {
				t.Errorf("%s: %v, want nil", tc.name, tc.err)
			}
			continue
		}
		var ie *linalg.InputError
		if !errors.As(tc.err, &ie) || ie.Arg != tc.arg || !errors.Is(tc.err, errKind) {
			t.Errorf("%s: %v, want an InputError on %s wrapping the kind", tc.name, tc.err, tc.arg)
			continue
		}
		if got := errors.Is(tc.err, linalg.ErrNotFinite); got != tc.notFinite {
			t.Errorf("%s: errors.Is(err, ErrNotFinite) = %v, want %v", tc.name, got, tc.notFinite)
		}
		if !strings.HasPrefix(tc.err.Error(), "test: invalid input: Op: "+tc.arg+": ") {
			t.Errorf("%s: message %q", tc.name, tc.err)
		}
		if tc.name == "invalid value" && (tc.err.Error() != "test: invalid input: Op: ic: unknown mode" || !errors.Is(tc.err, errOther)) {
			t.Errorf("%s: %q, want the value's reason on ic, wrapping the value's own sentinel too", tc.name, tc.err)
		}
	}
}

// TestCellsCountFromOne: a non-finite element or result is named by its
// row and column counted from 1, as a data file counts them, while the
// wrapped *linalg.NotFiniteError keeps the 0-based indices.
func TestCellsCountFromOne(t *testing.T) {
	m := linalg.NewDense(5, 3, nil)
	m.Set(4, 1, math.Inf(1))
	err := Data(errKind, "Op", "X", m, 1)
	var nf *linalg.NotFiniteError
	if want := "Op: X: row 5, column 2 is +Inf"; !strings.Contains(fmt.Sprint(err), want) || !errors.As(err, &nf) || nf.Row != 4 || nf.Col != 1 {
		t.Errorf("Data: %v, want %q wrapping element (4,1)", err, want)
	}
	if err, want := Result(errKind, "Op", "prediction", m, "why"), "Op: prediction: row 5, column 2 is +Inf from finite input: why"; !strings.Contains(fmt.Sprint(err), want) {
		t.Errorf("Result: %v, want %q", err, want)
	}
}

// TestWrapNamesOnce: wrapping another package's InputError keeps its
// reason, its call and argument only where they differ from the
// wrapper's, and not its kind's prefix, so that the message names each
// once; errors.Is still reaches both kinds.
func TestWrapNamesOnce(t *testing.T) {
	inner := errors.New("inner: invalid input")
	outer := errors.New("outer: invalid input")
	for _, tc := range []struct {
		op, arg string
		want    string
	}{
		{"Fit", "Centers", "outer: invalid input: Fit: Centers: rows 0 and 1 are identical"},
		{"Fit", "X", "outer: invalid input: Fit: X: centers: rows 0 and 1 are identical"},
		{"Select", "Centers", "outer: invalid input: Select: Centers: Fit: rows 0 and 1 are identical"},
	} {
		in := &linalg.InputError{Op: "Fit", Arg: "centers", Reason: "rows 0 and 1 are identical", Kind: inner}
		err := Wrap(outer, tc.op, tc.arg, in)
		if got := err.Error(); got != tc.want {
			t.Errorf("Wrap(%s, %s): %q, want %q", tc.op, tc.arg, got, tc.want)
		}
		if !errors.Is(err, inner) || !errors.Is(err, outer) {
			t.Errorf("Wrap(%s, %s): %v does not reach both kinds", tc.op, tc.arg, err)
		}
	}
}

// TestXY: the training data's checks in their order — X's rows first,
// then Y's shape (its length before its values), then Y's values — each
// naming the argument at fault.
func TestXY(t *testing.T) {
	x := linalg.NewDense(3, 2, []float64{1, 2, 3, 4, 5, 6})
	y := linalg.NewDense(3, 1, []float64{1, 2, 3})
	short := linalg.NewDense(2, 1, []float64{math.NaN(), 1})
	nan := linalg.NewDense(3, 1, []float64{1, math.NaN(), 3})
	for _, c := range []struct {
		name      string
		x, y      *linalg.Dense
		min       int
		want      string // "" for no error
		notFinite bool
	}{
		{"valid", x, y, 2, "", false},
		{"too few rows", x, y, 4, "X: 3 rows, needs at least 4", false},
		{"nil Y", x, nil, 2, "Y", false},
		{"Y of another length, its NaN unread", x, short, 1, "Y: 2 rows, X has 3", false},
		{"NaN in Y", x, nan, 2, "Y", true},
	} {
		err := XY(errKind, "Fit", c.x, c.y, c.min)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v, want nil", c.name, err)
		case c.want != "" && (err == nil || !errors.Is(err, errKind) || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: %v, want an error of errKind containing %q", c.name, err, c.want)
		case c.notFinite && !errors.Is(err, linalg.ErrNotFinite):
			t.Errorf("%s: %v, want it to wrap linalg.ErrNotFinite", c.name, err)
		}
	}
}
