package interval

import (
	"errors"
	"math"
	"testing"

	"rkhs/classify"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

// TestRanks: the ranks of Barber et al. from exact integer arithmetic,
// for levels whose product with n + 1 is an integer in exact arithmetic
// but not in float64.
func TestRanks(t *testing.T) {
	for _, tc := range []struct {
		n      int
		level  float64
		lo, hi int
	}{
		{19, 0.9, 2, 18},  // 0.9·20 = 18 exactly
		{20, 0.9, 2, 19},  // 18.9 → 19, ⌊0.1·21⌋ = 2
		{9, 0.8, 2, 8},    // 0.8·10 = 8
		{99, 0.95, 5, 95}, // 0.95·100 = 95
		{20, 0.99, 0, 21}, // 20.79: unreachable
		{20, 0.95, 1, 20}, // 19.95 → 20 = n: the largest finite
		{1, 0.5, 1, 1},
	} {
		lo, hi := ranks(tc.n, tc.level)
		if lo != tc.lo || hi != tc.hi {
			t.Errorf("ranks(%d, %v) = %d, %d, want %d, %d", tc.n, tc.level, lo, hi, tc.lo, tc.hi)
		}
	}
	if got := MaxLevel(20); got != 20.0/21 {
		t.Errorf("MaxLevel(20) = %v, want 20/21", got)
	}
}

// TestUnreachableLevel: 20 rows at 0.99 give the whole line, flagged,
// and every label; at 0.95 they give finite intervals.
func TestUnreachableLevel(t *testing.T) {
	x, y, xt := problem(12, 20, 3, 1)
	jk, err := RLS(regress.RLS{Kernel: kernels.Gaussian{Sigma: 1}, Lambda: 1e-2}, x, y)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		level     float64
		unbounded bool
	}{{0.99, true}, {0.95, false}} {
		got, err := jk.Predict(xt, tc.level)
		if err != nil {
			t.Fatal(err)
		}
		if got.Unbounded != tc.unbounded {
			t.Errorf("level %g: Unbounded = %v, want %v", tc.level, got.Unbounded, tc.unbounded)
		}
		finite := !math.IsInf(got.Lower.At(0, 0), 0) && !math.IsInf(got.Upper.At(0, 0), 0)
		if finite == tc.unbounded {
			t.Errorf("level %g: interval (%v, %v), unbounded %v", tc.level, got.Lower.At(0, 0), got.Upper.At(0, 0), tc.unbounded)
		}
	}
	xc, labels, xtc := classProblem(13, 20, 4, 3)
	c, err := ClassifyRLS(classify.RLS{Kernel: kernels.Gaussian{Sigma: 1}, Lambda: 1e-2}, xc, labels)
	if err != nil {
		t.Fatal(err)
	}
	s, err := c.Predict(xtc, 0.99)
	if err != nil {
		t.Fatal(err)
	}
	if !s.Unbounded {
		t.Error("label sets at 0.99 from 20 rows: Unbounded false, want true")
	}
	for j, set := range s.Sets {
		if len(set) != 3 {
			t.Errorf("test row %d: set %v at an unreachable level, want every label", j, set)
		}
	}
}

// TestBadInput: every entry point refuses bad arguments with an
// InputError wrapping ErrInput (and linalg.ErrNotFinite for NaN).
func TestBadInput(t *testing.T) {
	x, y, xt := problem(14, 12, 3, 1)
	k := kernels.Gaussian{Sigma: 1}
	cfg := regress.RLS{Kernel: k, Lambda: 1e-2}
	jk, err := RLS(cfg, x, y)
	if err != nil {
		t.Fatal(err)
	}
	folds, _ := Folds(x.Rows, 3, 1)
	cv, err := RLSCV(cfg, x, y, folds)
	if err != nil {
		t.Fatal(err)
	}
	nan := xt.Clone()
	nan.Set(1, 0, math.NaN())
	wide := linalg.NewDense(2, 3, nil)
	one := linalg.NewDense(1, 2, []float64{1, 2})
	s, _ := regress.NewSpectral(k, x, y)
	for _, tc := range []struct {
		name   string
		err    error
		finite bool // also linalg.ErrNotFinite
	}{
		{"level 0", func() error { _, err := jk.Predict(xt, 0); return err }(), false},
		{"level 1", func() error { _, err := jk.Predict(xt, 1); return err }(), false},
		{"level 1.5", func() error { _, err := cv.Predict(xt, 1.5); return err }(), false},
		{"level NaN", func() error { _, err := jk.Predict(xt, math.NaN()); return err }(), true},
		{"test rows NaN", func() error { _, err := jk.Predict(nan, 0.9); return err }(), true},
		{"test rows too wide", func() error { _, err := cv.Predict(wide, 0.9); return err }(), false},
		{"training rows NaN", func() error { _, err := RLS(cfg, nan, linalg.NewDense(3, 1, nil)); return err }(), true},
		{"one training row", func() error { _, err := RLS(cfg, one, linalg.NewDense(1, 1, nil)); return err }(), false},
		{"λ = 0", func() error { _, err := RLS(regress.RLS{Kernel: k}, x, y); return err }(), false},
		{"nil Jackknife", func() error { var j *Jackknife; _, err := j.Predict(xt, 0.9); return err }(), false},
		{"K = 1", func() error { _, err := RLSCV(cfg, x, y, [][]int{{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}}); return err }(), false},
		{"K > n", func() error { _, err := Folds(x.Rows, 13, 1); return err }(), false},
		{"K < 2", func() error { _, err := Folds(x.Rows, 1, 1); return err }(), false},
		{"folds overlap", func() error {
			_, err := RLSCV(cfg, x, y, [][]int{{0, 1, 2, 3, 4, 5}, {5, 6, 7, 8, 9, 10, 11}})
			return err
		}(), false},
		{"folds miss a row", func() error {
			_, err := NystromCV(regress.Nystrom{Kernel: k, Lambda: 1e-2, Centers: 4}, x, y, [][]int{{0, 1, 2, 3, 4}, {6, 7, 8, 9, 10, 11}})
			return err
		}(), false},
		{"one fold model", func() error { _, err := NewCV([]*regress.Model{jk.Model()}, []*linalg.Dense{y}); return err }(), false},
		{"FoldModels of one fold", func() error { _, err := FoldModels(nil, 1e-2, regress.NoIntercept); return err }(), false},
		{"path λ NaN", func() error { _, err := NewPath(s, []float64{math.NaN()}, regress.NoIntercept); return err }(), true},
		{"nil Spectral", func() error { _, err := NewPath(nil, []float64{1e-2}, regress.NoIntercept); return err }(), false},
		{"Nyström λ < 0", func() error {
			_, err := Nystrom(regress.Nystrom{Kernel: k, Lambda: -1, Centers: 4}, x, y)
			return err
		}(), false},
		{"classes chosen λ", func() error {
			_, err := ClassifyRLS(classify.RLS{Kernel: k, ChooseLambda: true}, x, make([]float64, 12))
			return err
		}(), false},
		{"one class", func() error {
			_, err := ClassifyRLS(classify.RLS{Kernel: k, Lambda: 1e-2}, x, make([]float64, 12))
			return err
		}(), false},
	} {
		var ie *linalg.InputError
		switch {
		case tc.err == nil:
			t.Errorf("%s: no error", tc.name)
		case !errors.Is(tc.err, ErrInput) || !errors.As(tc.err, &ie):
			t.Errorf("%s: %v, want an InputError wrapping ErrInput", tc.name, tc.err)
		case tc.finite && !errors.Is(tc.err, linalg.ErrNotFinite):
			t.Errorf("%s: %v, want it to wrap linalg.ErrNotFinite", tc.name, tc.err)
		}
	}
}

// TestLabelSetErrorsNameTheCall: an argument error of the fit under
// ClassifyRLS or ClassifyNystrom names the call the caller made, not the
// RLS or Nystrom fit inside it, and still wraps ErrInput and
// linalg.ErrNotFinite.
func TestLabelSetErrorsNameTheCall(t *testing.T) {
	x, labels, _ := classProblem(15, 12, 2, 2)
	nan := x.Clone()
	nan.Set(3, 1, math.NaN())
	k := kernels.Gaussian{Sigma: 1}
	for _, tc := range []struct {
		op  string
		err error
	}{
		{"ClassifyRLS", func() error {
			_, err := ClassifyRLS(classify.RLS{Kernel: k, Lambda: 1e-2}, nan, labels)
			return err
		}()},
		{"ClassifyNystrom", func() error {
			_, err := ClassifyNystrom(regress.Nystrom{Kernel: k, Lambda: 1e-2, Centers: 4}, false, nan, labels)
			return err
		}()},
		{"ClassifyNystrom", func() error {
			_, err := ClassifyNystrom(regress.Nystrom{Kernel: k, Centers: 4}, false, x, labels)
			return err
		}()},
	} {
		var ie *linalg.InputError
		if !errors.As(tc.err, &ie) || ie.Op != tc.op || !errors.Is(tc.err, ErrInput) {
			t.Errorf("%v: want an InputError of %s wrapping ErrInput", tc.err, tc.op)
		}
	}
	_, err := ClassifyRLS(classify.RLS{Kernel: k, Lambda: 1e-2}, nan, labels)
	if !errors.Is(err, linalg.ErrNotFinite) {
		t.Errorf("%v: want it to wrap linalg.ErrNotFinite", err)
	}
}
