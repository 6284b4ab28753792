package loo

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/optimize"
	"rkhs/regress"
)

// relevanceData returns n rows of d standard normal features and one
// output that depends on the first three only,
// y = sin(2x₀) + x₁²/2 + x₀·cos(x₂) + 0.1·noise.
func relevanceData(n, d int) (x, y *linalg.Dense) {
	rnd := rand.New(rand.NewPCG(1, 2))
	x, y = linalg.NewDense(n, d, nil), linalg.NewDense(n, 1, nil)
	for i := range x.Data {
		x.Data[i] = rnd.NormFloat64()
	}
	for i := 0; i < n; i++ {
		r := x.Row(i)
		y.Set(i, 0, math.Sin(2*r[0])+0.5*r[1]*r[1]+math.Cos(r[2])*r[0]+0.1*rnd.NormFloat64())
	}
	return x, y
}

// TestSelectScalesRelevance: on a target that depends on 3 of 10
// features (n = 2000, m = 100), from the grid's isotropic choice
// (σ₀, λ₀) = (√10, 10^−4.5) (SelectNystrom on σ from 1 to 10 and λ from
// 10⁻⁸ to 10⁻¹), the descent gives the 7 noise features scales at least 10
// times those of the 3 signal features, ranks the signal features first,
// and lowers the leave-one-out MSE at least fivefold; the fit on every
// row is the one whose leave-one-out error the result states, and it
// predicts raw rows through the composed standardization.
func TestSelectScalesRelevance(t *testing.T) {
	x, y := relevanceData(2000, 10)
	c := x.Slice(0, 100, 0, 10).Clone()
	ss := SelectScales{
		Objective: ScaleObjective{Centers: c, Intercept: regress.FreeIntercept, Subset: 1000, Seed: 7},
		Sigma:     math.Sqrt(10), Lambda: math.Pow(10, -4.5), MaxIter: 40,
	}
	var calls []int
	ss.Progress = func(iter int, j, pg, secs float64) { calls = append(calls, iter) }
	sel, err := ss.Fit(x, y)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("σ %.3g, λ %.3g; J %.4g → %.4g ± %.2g in %d iterations, %d evaluations (%v); ranking %v",
		sel.Sigmas, sel.Lambda, sel.Start, sel.Objective, sel.StdErr, sel.Iterations, sel.Evaluations, sel.Stop, sel.Ranking())
	signal := slices.Max(sel.Sigmas[:3])
	if noise := slices.Min(sel.Sigmas[3:]); noise < 10*signal {
		t.Errorf("noise scales %.3g, signal scales %.3g: want the smallest noise scale ≥ 10× the largest signal scale", sel.Sigmas[3:], sel.Sigmas[:3])
	}
	if r := sel.Ranking(); !slices.Equal(slices.Sorted(slices.Values(r[:3])), []int{0, 1, 2}) {
		t.Errorf("ranking %v, want features 0, 1, 2 first", r)
	}
	if sel.Objective > sel.Start/5 {
		t.Errorf("J %.4g at the scales, %.4g at the start: want a fivefold decrease", sel.Objective, sel.Start)
	}
	if len(sel.History) != sel.Iterations || sel.Objective != sel.History[len(sel.History)-1] {
		t.Errorf("history %v of %d iterations: its last value is not the final J %v on the same rows", sel.History, sel.Iterations, sel.Objective)
	}
	if want := append([]int{0}, seq(1, sel.Iterations)...); !slices.Equal(calls, want) {
		t.Errorf("progress called at %v, want %v", calls, want)
	}
	if sel.LOORows != 1000 || sel.FitRows != 2000 || sel.StdErr <= 0 || !math.IsNaN(sel.ErrorRate) {
		t.Errorf("LOORows %d, FitRows %d, StdErr %g, ErrorRate %g", sel.LOORows, sel.FitRows, sel.StdErr, sel.ErrorRate)
	}
	// The fit predicts raw rows: equal to the fit of NystromPath on the
	// rows and centres divided by σ.
	theta := make([]float64, 11)
	for j, s := range sel.Sigmas {
		theta[j] = math.Log(s)
	}
	xs, cs := ardScale(x, theta), ardScale(c, theta)
	st, err := regress.NewNystromStats(kernels.Gaussian{Sigma: 1}, cs)
	if err == nil {
		err = st.Add(xs, y)
	}
	if err != nil {
		t.Fatal(err)
	}
	np, err := NewNystromPath(st, regress.FreeIntercept, []float64{sel.Lambda})
	if err != nil {
		t.Fatal(err)
	}
	want, err := np.Fit(0).Model.Predict(xs)
	if err != nil {
		t.Fatal(err)
	}
	got, err := sel.Fit.Model.Predict(x)
	if err != nil {
		t.Fatal(err)
	}
	if r := maxRel(got, want); r > 1e-9 {
		t.Errorf("the model's predictions on raw rows and NystromPath's fit on the scaled rows differ by %.2g", r)
	}
}

// seq returns lo, lo+1, …, hi.
func seq(lo, hi int) []int {
	var s []int
	for i := lo; i <= hi; i++ {
		s = append(s, i)
	}
	return s
}

// scaleSmall is a small problem of the descent's other tests: 300 rows of
// the relevance data with 5 features, 30 centres.
func scaleSmall() (x, y *linalg.Dense, ss SelectScales) {
	x, y = relevanceData(300, 5)
	ss = SelectScales{
		Objective: ScaleObjective{Centers: x.Slice(0, 30, 0, 5).Clone(), Intercept: regress.FreeIntercept},
		Sigma:     2, Lambda: 1e-4, MaxIter: 6,
	}
	return x, y, ss
}

// TestSelectScalesDeterminism: the descent gives the same scales, history
// and fit, bit for bit, at GOMAXPROCS 1, 2 and 8, with blocks small
// enough that every pass takes several, with every row and with Rows.
func TestSelectScalesDeterminism(t *testing.T) {
	defer func(e int) { passElems = e }(passElems)
	passElems = 64 * 30
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	x, y, ss := scaleSmall()
	for _, rows := range []int{0, 200} {
		ss.Rows = rows
		var first []float64
		for _, procs := range []int{1, 2, 8} {
			runtime.GOMAXPROCS(procs)
			sel, err := ss.Fit(x, y)
			if err != nil {
				t.Fatal(err)
			}
			got := append(append(append(slices.Clone(sel.Sigmas), sel.Lambda, sel.Objective), sel.History...), sel.Fit.Model.Coef.Data...)
			if first == nil {
				first = got
			} else if !sameBits(got, first) {
				t.Errorf("Rows %d: GOMAXPROCS=%d gives %v, 1 gives %v", rows, procs, got, first)
			}
		}
	}
}

// TestSelectScalesRows: with Rows, the descent fits on that many rows and
// the result on every row: FitRows says so, the final J is over every
// row, and the model is fitted on every row.
func TestSelectScalesRows(t *testing.T) {
	x, y, ss := scaleSmall()
	ss.Rows = 150
	sel, err := ss.Fit(x, y)
	if err != nil {
		t.Fatal(err)
	}
	if sel.FitRows != 150 || sel.LOORows != 300 {
		t.Errorf("FitRows %d, LOORows %d: want 150 and every row, 300", sel.FitRows, sel.LOORows)
	}
	theta := make([]float64, 6)
	for j, s := range sel.Sigmas {
		theta[j] = math.Log(s)
	}
	theta[5] = math.Log(sel.Lambda)
	ev, err := ss.Objective.Evaluate(x, y, theta)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(ev.Value-sel.Objective) > 1e-12*ev.Value {
		t.Errorf("final J %v, the objective on every row at the scales %v", sel.Objective, ev.Value)
	}
}

// TestSelectScalesCenters: with Centers 12 of the 30 centres, the descent
// is, bit for bit, the descent whose objective has only the first 12 (the
// same scales, λ, history and evaluations), and the final fit is on all
// 30: its model holds 30 centres and its J is the objective of all 30 at
// the scales, which differs from that of the 12.
func TestSelectScalesCenters(t *testing.T) {
	x, y, ss := scaleSmall()
	ss.Centers = 12
	sel, err := ss.Fit(x, y)
	if err != nil {
		t.Fatal(err)
	}
	few := ss
	few.Centers = 0
	few.Objective.Centers = ss.Objective.Centers.Slice(0, 12, 0, 5).Clone()
	want, err := few.Fit(x, y)
	if err != nil {
		t.Fatal(err)
	}
	g := append(append(slices.Clone(sel.Sigmas), sel.Lambda, sel.Start), sel.History...)
	w := append(append(slices.Clone(want.Sigmas), want.Lambda, want.Start), want.History...)
	if !slices.Equal(g, w) || sel.Evaluations != want.Evaluations || sel.Iterations != want.Iterations {
		t.Errorf("Centers 12: %v in %d evaluations; the objective of 12 centres: %v in %d", g, sel.Evaluations, w, want.Evaluations)
	}
	if m := sel.Fit.Model.Centers.Rows; m != 30 {
		t.Errorf("the final fit has %d centres, want 30", m)
	}
	theta := make([]float64, 6)
	for j, s := range sel.Sigmas {
		theta[j] = math.Log(s)
	}
	theta[5] = math.Log(sel.Lambda)
	ev, err := ss.Objective.Evaluate(x, y, theta)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(ev.Value-sel.Objective) > 1e-12*ev.Value || sel.Objective == want.Objective {
		t.Errorf("final J %v: want the objective of all 30 centres at the scales, %v (12 centres: %v)", sel.Objective, ev.Value, want.Objective)
	}
}

// TestSelectScalesConstant: a constant feature is kept at σ₀ and named;
// the others are learnt as without it.
func TestSelectScalesConstant(t *testing.T) {
	x, y, ss := scaleSmall()
	xc := linalg.NewDense(x.Rows, 6, nil)
	for i := 0; i < x.Rows; i++ {
		copy(xc.Row(i), x.Row(i)[:2])
		xc.Set(i, 2, 4.5)
		copy(xc.Row(i)[3:], x.Row(i)[2:])
	}
	ssc := ss
	ssc.Objective.Centers = xc.Slice(0, 30, 0, 6).Clone()
	sel, err := ssc.Fit(xc, y)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := ss.Fit(x, y)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(sel.Constant, []int{2}) || sel.Sigmas[2] != ss.Sigma {
		t.Errorf("Constant %v, σ₂ = %g: want [2] and σ₀ = %g", sel.Constant, sel.Sigmas[2], ss.Sigma)
	}
	if r := sel.Ranking(); r[len(r)-1] != 2 {
		t.Errorf("ranking %v: want the constant feature last", r)
	}
	others := append(slices.Clone(sel.Sigmas[:2]), sel.Sigmas[3:]...)
	if d := relDiff(others, ref.Sigmas); d > 1e-9 {
		t.Errorf("scales with a constant feature %v, without %v (rel %.2g)", others, ref.Sigmas, d)
	}
}

// TestSelectScalesErrors: bad arguments are InputErrors that wrap
// ErrInput and name the argument; NaN also wraps linalg.ErrNotFinite.
func TestSelectScalesErrors(t *testing.T) {
	x, y, ss := scaleSmall()
	nan := x.Clone()
	nan.Set(3, 1, math.NaN())
	mod := func(f func(*SelectScales)) SelectScales {
		s := ss
		f(&s)
		return s
	}
	for _, tc := range []struct {
		name, arg string
		ss        SelectScales
		x         *linalg.Dense
		finite    bool
	}{
		{"X NaN", "X", ss, nan, true},
		{"σ₀ = 0", "Sigma", mod(func(s *SelectScales) { s.Sigma = 0 }), x, false},
		{"σ₀ NaN", "Sigma", mod(func(s *SelectScales) { s.Sigma = math.NaN() }), x, true},
		{"λ₀ < 0", "Lambda", mod(func(s *SelectScales) { s.Lambda = -1 }), x, false},
		{"MaxIter < 0", "MaxIter", mod(func(s *SelectScales) { s.MaxIter = -1 }), x, false},
		{"Tol NaN", "Tol", mod(func(s *SelectScales) { s.Tol = math.NaN() }), x, true},
		{"Centers < 0", "Centers", mod(func(s *SelectScales) { s.Centers = -1 }), x, false},
		{"Rows 1", "Rows", mod(func(s *SelectScales) { s.Rows = 1 }), x, false},
		{"Rows below twice the centres", "Rows", mod(func(s *SelectScales) { s.Rows = 59 }), x, false},
		{"Rows 2", "Rows", mod(func(s *SelectScales) { s.Rows = 2 }), x, false},
		{"centres of 4 columns", "Centers", mod(func(s *SelectScales) { s.Objective.Centers = x.Slice(0, 30, 0, 4).Clone() }), x, false},
		{"no centres", "Centers", mod(func(s *SelectScales) { s.Objective.Centers = nil }), x, false},
		{"Subset 1", "Subset", mod(func(s *SelectScales) { s.Objective.Subset = 1 }), x, false},
		{"Subset with GCV", "Subset", mod(func(s *SelectScales) { s.Objective.Subset = 10; s.Objective.Criterion = GCV }), x, false},
		{"Criterion 9", "Criterion", mod(func(s *SelectScales) { s.Objective.Criterion = 9 }), x, false},
		{"Standardization of 3 features", "Standardization", mod(func(s *SelectScales) {
			s.Standardization = &kernels.Standardization{Mean: make([]float64, 3), Scale: []float64{1, 1, 1}}
		}), x, false},
		{"outputs not codes", "Y", mod(func(s *SelectScales) { s.Objective.Criterion = LOOErrorRate }), x, false},
	} {
		_, err := tc.ss.Fit(tc.x, y)
		var ie *linalg.InputError
		switch {
		case !errors.As(err, &ie) || !errors.Is(err, ErrInput):
			t.Errorf("%s: %v, want an InputError wrapping ErrInput", tc.name, err)
		case ie.Arg != tc.arg && !(tc.arg == "X" && ie.Arg == "X"):
			t.Errorf("%s: %v names %q, want %q", tc.name, err, ie.Arg, tc.arg)
		case tc.finite && !errors.Is(err, linalg.ErrNotFinite):
			t.Errorf("%s: %v, want it to wrap linalg.ErrNotFinite", tc.name, err)
		}
	}
	// A budget of 0 is the default, not an error; λ₀ at which the fit is
	// numerically singular is.
	zero := mod(func(s *SelectScales) { s.MaxIter = 0; s.Tol = 0.5 })
	if sel, err := zero.Fit(x, y); err != nil || sel.Iterations < 1 {
		t.Errorf("MaxIter 0: %v, want the default budget", err)
	}
	sing := mod(func(s *SelectScales) {
		s.Objective.Centers = x.Clone()
		s.Sigma, s.Lambda = 0.01, 1e-140
	})
	if _, err := sing.Fit(x, y); !errors.Is(err, linalg.ErrNotPositiveDefinite) {
		t.Errorf("λ₀ = 1e-140 with every row a centre: %v, want linalg.ErrNotPositiveDefinite", err)
	}
}

// TestSelectScalesStop: the descent reports why it stopped: its budget,
// or the relative decrease of its last three iterations below Tol
// (optimize.LBFGS's RelTol and RelTolIters).
func TestSelectScalesStop(t *testing.T) {
	x, y, ss := scaleSmall()
	ss.MaxIter = 2
	sel, err := ss.Fit(x, y)
	if err != nil {
		t.Fatal(err)
	}
	if sel.Stop != optimize.StopMaxIter || sel.Iterations != 2 {
		t.Errorf("MaxIter 2: stop %v after %d iterations", sel.Stop, sel.Iterations)
	}
	ss.MaxIter, ss.Tol = 50, 0.05
	if sel, err = ss.Fit(x, y); err != nil {
		t.Fatal(err)
	}
	// Stopped by optimize's relative tolerance over three iterations:
	// after the first iteration k ≥ 3 whose last three together decreased
	// J by at most Tol·J, or on a line search that could find no larger
	// decrease; never past such an iteration, nor on one short step.
	h := append([]float64{sel.Start}, sel.History...)
	if sel.Stop != optimize.StopRelTol {
		t.Errorf("Tol 0.05: stop %v with history %v, want %v", sel.Stop, h, optimize.StopRelTol)
	}
	short := false
	for k := 1; k < len(h)-1; k++ {
		short = short || h[k-1]-h[k] <= 0.05*h[k]
		if k >= scaleTolIters && h[k-scaleTolIters]-h[k] <= 0.05*h[k] {
			t.Errorf("Tol 0.05: iterations %d to %d decreased J from %v to %v, and the descent went on: %v", k-scaleTolIters+1, k, h[k-scaleTolIters], h[k], h)
		}
	}
	if !short {
		t.Errorf("Tol 0.05: no iteration before the last decreased J by at most Tol·J (%v): the window is not tested", h)
	}
}

// TestSelectScalesDescend: Descend on an evaluator that runs the passes
// in memory (ScaleObjective.Evaluate) is the descent of Fit, bit for bit:
// the same scales, λ, history, counts, stop and final J, with every
// criterion and a constant feature; evaluate is called once per
// evaluation (θ₀ once); a θ the evaluator finds singular counts as +Inf
// and the descent goes on.
func TestSelectScalesDescend(t *testing.T) {
	x, y, ss := scaleSmall()
	xc := x.Clone()
	for i := 0; i < xc.Rows; i++ {
		xc.Set(i, 3, 2.5)
	}
	codes := y.Clone()
	for i, v := range codes.Data {
		codes.Data[i] = math.Copysign(1, v-0.5)
	}
	for _, tc := range []struct {
		name string
		crit Criterion
		x, y *linalg.Dense
	}{
		{"LOO MSE", LOOMSE, x, y},
		{"GCV", GCV, x, y},
		{"±1 codes", LOOErrorRate, x, codes},
		{"a constant feature", LOOMSE, xc, y},
	} {
		s := ss
		s.Objective.Criterion = tc.crit
		s.Objective.Centers = tc.x.Slice(0, 30, 0, 5).Clone()
		want, err := s.Fit(tc.x, tc.y)
		if err != nil {
			t.Fatal(err)
		}
		calls := 0
		got, theta, err := s.Descend(5, want.Constant, func(theta []float64) (*ScaleEval, error) {
			calls++
			return s.Objective.Evaluate(tc.x, tc.y, theta)
		})
		if err != nil {
			t.Fatal(err)
		}
		g := append(append(slices.Clone(got.Sigmas), got.Lambda, got.Start, got.Objective, got.StdErr, got.ErrorRate), got.History...)
		w := append(append(slices.Clone(want.Sigmas), want.Lambda, want.Start, want.Objective, want.StdErr, want.ErrorRate), want.History...)
		if !sameBits(g, w) || got.Iterations != want.Iterations || got.Evaluations != want.Evaluations || got.Stop != want.Stop ||
			got.LOORows != want.LOORows || !slices.Equal(got.Constant, want.Constant) {
			t.Errorf("%s: Descend %v, %d iterations, %d evaluations, %v; Fit %v, %d, %d, %v", tc.name, g, got.Iterations, got.Evaluations, got.Stop, w, want.Iterations, want.Evaluations, want.Stop)
		}
		if calls != got.Evaluations {
			t.Errorf("%s: evaluate called %d times for %d evaluations", tc.name, calls, got.Evaluations)
		}
		if len(theta) != 6 || math.Exp(theta[5]) != got.Lambda || math.Exp(theta[0]) != got.Sigmas[0] || got.Fit != nil || got.FitRows != 0 {
			t.Errorf("%s: θ %v for σ %v, λ %g; Fit %v, FitRows %d", tc.name, theta, got.Sigmas, got.Lambda, got.Fit, got.FitRows)
		}
	}

	// A singular θ after the start: +Inf, and the descent goes on.
	calls := 0
	sel, _, err := ss.Descend(5, nil, func(theta []float64) (*ScaleEval, error) {
		if calls++; calls == 2 {
			return nil, fmt.Errorf("wrapped: %w", linalg.ErrNotPositiveDefinite)
		}
		return ss.Objective.Evaluate(x, y, theta)
	})
	if err != nil || sel.Iterations < 1 || sel.Objective >= sel.Start {
		t.Errorf("one singular θ: %v after %d iterations, J %v from %v; want a descent around it", err, sel.Iterations, sel.Objective, sel.Start)
	}
}

// TestDescentRowsErrors: a negative count of rows, and a subset below
// MinDescentRows of the centres (twice the centres, at least 30), are
// errors naming the argument, not a panic or a descent that stops at
// once.
func TestDescentRowsErrors(t *testing.T) {
	_, _, ss := scaleSmall() // 30 centres
	for _, tc := range []struct {
		name    string
		rows, n int
		arg     string
	}{
		{"n = −1", 0, -1, "n"},
		{"2 rows of 300", 2, 300, "Rows"},
		{"59 rows of 300, 30 centres", 59, 300, "Rows"},
		{"29 rows, no centres", 29, 300, "Rows"},
	} {
		s := ss
		s.Rows = tc.rows
		if tc.arg == "Rows" && tc.name == "29 rows, no centres" {
			s.Objective.Centers = nil
		}
		idx, err := s.DescentRows(tc.n)
		var ie *linalg.InputError
		if idx != nil || !errors.As(err, &ie) || !errors.Is(err, ErrInput) || ie.Arg != tc.arg {
			t.Errorf("%s: %d rows, %v; want an InputError naming %s", tc.name, len(idx), err, tc.arg)
		}
	}
	for _, tc := range []struct{ m, want int }{{0, 30}, {10, 30}, {15, 30}, {16, 32}, {1000, 2000}} {
		if got := MinDescentRows(tc.m); got != tc.want {
			t.Errorf("MinDescentRows(%d) = %d, want %d", tc.m, got, tc.want)
		}
	}
	ss.Rows = 60
	if idx, err := ss.DescentRows(300); err != nil || len(idx) != 60 {
		t.Errorf("60 rows of 300, 30 centres: %d rows, %v; want 60", len(idx), err)
	}
}

// TestSelectScalesSubsetOneValue: when the rows drawn for the descent
// hold one value of the output (for codes, one class) where the rows hold
// several, Fit says so and names Rows, not the outputs.
func TestSelectScalesSubsetOneValue(t *testing.T) {
	x, _, ss := scaleSmall()
	ss.Rows = 60
	idx, err := ss.DescentRows(x.Rows)
	if err != nil {
		t.Fatal(err)
	}
	drawn := make(map[int]bool)
	for _, i := range idx {
		drawn[i] = true
	}
	y := linalg.NewDense(x.Rows, 1, nil)
	rare := -1
	for i := 0; i < x.Rows; i++ {
		y.Set(i, 0, 1)
		if !drawn[i] && rare < 0 {
			rare = i
			y.Set(i, 0, -1)
		}
	}
	_, err = ss.Fit(x, y)
	var ie *linalg.InputError
	if !errors.As(err, &ie) || !errors.Is(err, ErrInput) || ie.Arg != "Rows" || !strings.Contains(err.Error(), "60 rows drawn") {
		t.Errorf("row %d the only −1, not among the 60 drawn: %v; want an InputError naming Rows and the 60 rows", rare, err)
	}
}

// TestSelectScalesDuplicateCentres: identical centres are an InputError
// naming Centers, whose message says "invalid input" and the call once.
func TestSelectScalesDuplicateCentres(t *testing.T) {
	x, y, ss := scaleSmall()
	c := ss.Objective.Centers.Clone()
	copy(c.Row(1), c.Row(0))
	ss.Objective.Centers = c
	_, err := ss.Fit(x, y)
	var ie *linalg.InputError
	if !errors.As(err, &ie) || ie.Arg != "Centers" || !errors.Is(err, ErrInput) || !errors.Is(err, regress.ErrInput) ||
		strings.Count(err.Error(), "invalid input") != 1 || strings.Count(err.Error(), "SelectScales.Fit") != 1 {
		t.Errorf("identical centres: %v; want an InputError naming Centers, with its prefix and call once", err)
	}
}

// TestDescendNonFiniteStart: an evaluate that returns NaN or 0 at the
// start is blamed, not Y, which Descend never sees.
func TestDescendNonFiniteStart(t *testing.T) {
	_, _, ss := scaleSmall()
	for _, v := range []float64{math.NaN(), math.Inf(1), 0} {
		_, _, err := ss.Descend(2, nil, func([]float64) (*ScaleEval, error) {
			return &ScaleEval{Value: v, Gradient: make([]float64, 3)}, nil
		})
		var ie *linalg.InputError
		if !errors.As(err, &ie) || !errors.Is(err, ErrInput) || ie.Arg != "evaluate" || strings.Contains(err.Error(), "Y:") {
			t.Errorf("J(θ₀) = %v: %v; want an InputError naming evaluate, not Y", v, err)
		}
	}
}

// TestSelectScalesDescentRows: the rows DescentRows gives are the rows
// Fit descends on: Descend on them in memory is Fit's descent with Rows,
// bit for bit; none (every row) for Rows 0 and Rows ≥ n, otherwise Rows
// distinct rows in ascending order.
func TestSelectScalesDescentRows(t *testing.T) {
	x, y, ss := scaleSmall()
	for _, rows := range []int{0, 300, 400} {
		ss.Rows = rows
		if idx, err := ss.DescentRows(300); idx != nil || err != nil {
			t.Errorf("Rows %d of 300: %d rows, %v; want nil (every row)", rows, len(idx), err)
		}
	}
	ss.Rows = 150
	idx, err := ss.DescentRows(300)
	if err != nil || len(idx) != 150 || !slices.IsSorted(idx) || len(slices.Compact(slices.Clone(idx))) != 150 || idx[0] < 0 || idx[149] >= 300 {
		t.Fatalf("Rows 150 of 300: %v", idx)
	}
	fx, fy := linalg.NewDense(150, 5, nil), linalg.NewDense(150, 1, nil)
	for r, i := range idx {
		copy(fx.Row(r), x.Row(i))
		copy(fy.Row(r), y.Row(i))
	}
	want, err := ss.Fit(x, y)
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := ss.Descend(5, nil, func(theta []float64) (*ScaleEval, error) { return ss.Objective.Evaluate(fx, fy, theta) })
	if err != nil {
		t.Fatal(err)
	}
	g := append(append(slices.Clone(got.Sigmas), got.Lambda, got.Start), got.History...)
	w := append(append(slices.Clone(want.Sigmas), want.Lambda, want.Start), want.History...)
	if !sameBits(g, w) || want.FitRows != 150 {
		t.Errorf("Descend on the rows of DescentRows: %v; Fit with Rows 150: %v (FitRows %d)", g, w, want.FitRows)
	}
}

// TestSelectScalesDescendErrors: bad arguments of Descend are
// InputErrors that wrap ErrInput and name the argument; the errors of
// evaluate are returned as they are, singular θ₀ included.
func TestSelectScalesDescendErrors(t *testing.T) {
	x, y, ss := scaleSmall()
	eval := func(theta []float64) (*ScaleEval, error) { return ss.Objective.Evaluate(x, y, theta) }
	short := func(theta []float64) (*ScaleEval, error) {
		ev, err := eval(theta)
		ev.Gradient = ev.Gradient[:5]
		return ev, err
	}
	zero := func(theta []float64) (*ScaleEval, error) {
		return &ScaleEval{Gradient: make([]float64, 6)}, nil
	}
	nan := ss
	nan.Sigma = math.NaN()
	for _, tc := range []struct {
		name, arg string
		ss        SelectScales
		d         int
		constant  []int
		eval      func([]float64) (*ScaleEval, error)
	}{
		{"d = 0", "d", ss, 0, nil, eval},
		{"constant out of range", "constant", ss, 5, []int{5}, eval},
		{"constant not ascending", "constant", ss, 5, []int{2, 1}, eval},
		{"nil evaluate", "evaluate", ss, 5, nil, nil},
		{"σ₀ NaN", "Sigma", nan, 5, nil, eval},
		{"a gradient of 5 entries", "evaluate", ss, 5, nil, short},
		{"J(θ₀) = 0", "evaluate", ss, 5, nil, zero},
	} {
		_, _, err := tc.ss.Descend(tc.d, tc.constant, tc.eval)
		var ie *linalg.InputError
		if !errors.As(err, &ie) || !errors.Is(err, ErrInput) || ie.Arg != tc.arg {
			t.Errorf("%s: %v, want an InputError wrapping ErrInput naming %q", tc.name, err, tc.arg)
		}
	}
	boom := errors.New("a worker failed")
	for _, want := range []error{boom, linalg.ErrNotPositiveDefinite} {
		_, _, err := ss.Descend(5, nil, func([]float64) (*ScaleEval, error) { return nil, want })
		if !errors.Is(err, want) {
			t.Errorf("evaluate fails at θ₀ with %v: Descend returns %v", want, err)
		}
	}
	calls := 0
	_, _, err := ss.Descend(5, nil, func(theta []float64) (*ScaleEval, error) {
		if calls++; calls == 3 {
			return nil, boom
		}
		return eval(theta)
	})
	if !errors.Is(err, boom) {
		t.Errorf("evaluate fails at its third call: Descend returns %v, want that error", err)
	}
}

// TestComposeScales: the composed standardization applied to raw rows
// gives the caller's standardization followed by the division by σ, to
// rounding; nil composes to Mean 0 and Scale σ; bad scales are errors.
func TestComposeScales(t *testing.T) {
	x, _ := relevanceData(20, 3)
	std, err := kernels.StandardizationOf(x)
	if err != nil {
		t.Fatal(err)
	}
	sigmas := []float64{0.5, 2, 30}
	c, err := ComposeScales(std, sigmas)
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.Apply(x)
	if err != nil {
		t.Fatal(err)
	}
	z, _ := std.Apply(x)
	want := z.Clone()
	for i := 0; i < want.Rows; i++ {
		for j, v := range want.Row(i) {
			want.Set(i, j, v/sigmas[j])
		}
	}
	if r := maxRel(got, want); r > 1e-15 {
		t.Errorf("composed standardization and the two in turn differ by %.2g", r)
	}
	// The training rows' standard deviations are kept, so that a row is
	// counted out in the same unit on the composed standardization as on
	// std; composing again keeps them.
	if !slices.Equal(c.TrainingScale, std.Scale) {
		t.Errorf("TrainingScale %v, want the training standard deviations %v", c.TrainingScale, std.Scale)
	}
	c2, err := ComposeScales(c, sigmas)
	if err != nil || !slices.Equal(c2.TrainingScale, std.Scale) {
		t.Errorf("composed twice: TrainingScale %v, %v; want %v", c2.TrainingScale, err, std.Scale)
	}
	far := x.Clone()
	far.Set(3, 1, std.Mean[1]+5e3*std.Scale[1])
	oStd, err1 := std.Outlying(far, kernels.DefaultOutlyingLimit)
	oC, err2 := c.Outlying(far, kernels.DefaultOutlyingLimit)
	if err1 != nil || err2 != nil || oStd != oC || oC.Rows != 1 {
		t.Errorf("Outlying: on the composed standardization %+v (%v), on the training one %+v (%v); want one report of 1 row", oC, err2, oStd, err1)
	}
	id, err := ComposeScales(nil, sigmas)
	if err != nil || !slices.Equal(id.Scale, sigmas) || slices.Max(id.Mean) != 0 || slices.Min(id.Mean) != 0 || id.TrainingScale != nil {
		t.Errorf("nil composed: %+v, %v", id, err)
	}
	for _, bad := range [][]float64{nil, {1, 0, 1}, {1, math.Inf(1), 1}, {1, 2}} {
		if _, err := ComposeScales(std, bad); !errors.Is(err, ErrInput) {
			t.Errorf("scales %v: %v, want ErrInput", bad, err)
		}
	}
}
