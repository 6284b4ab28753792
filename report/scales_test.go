package report

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"rkhs/loo"
	"rkhs/optimize"
)

// TestScalesReport: the table ranks the features by their scale, the
// constant one last and marked, by name or by position; the plot has one
// curve through the start and every iteration.
func TestScalesReport(t *testing.T) {
	sel := &loo.ScaleSelection{Sigmas: []float64{900, 1.5, 2, 3.25}, Lambda: 1e-4, Objective: 0.25, StdErr: 0.01,
		ErrorRate: 0.1, ErrorRateStdErr: 0.02, LOORows: 50, Start: 0.5, History: []float64{0.4, 0.3, 0.26},
		Iterations: 3, Evaluations: 4, Stop: optimize.StopRelTol, Constant: []int{3}, FitRows: 80}
	s := &Scales{Sel: sel, Criterion: loo.LOOErrorRate, Sigma: 2, Lambda: 1e-3, Names: []string{"a", "b", "c", "d"}, Rows: 100, Standardized: true}
	var b bytes.Buffer
	s.PrintTable(&b)
	out := b.String()
	for _, want := range []string{
		"ard from σ = 2, λ = 0.001: loo_mse 0.5 → 0.26 on 80 of the 100 rows, drawn at random in 3 iterations (4 evaluations); stopped: converged (a decrease below the tolerance)",
		"   1  b                1.5\n   2  c                2\n   3  a                900\n   4  d                constant",
		"σ_j (standard deviations)",
		"chosen λ = 0.0001 with these scales: loo_mse 0.25 ± 0.01 (one standard error of the estimate) over 50 of the 100 rows, drawn at random, loo_error 0.1000 ± 0.02",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the table lacks %q:\n%s", want, out)
		}
	}
	s.Names = []string{"a", "housing_median_age_of_the_block", "c", "d"} // longer than the column
	b.Reset()
	s.PrintTable(&b)
	if out := b.String(); !strings.Contains(out, "rank  feature                         σ_j") ||
		!strings.Contains(out, "   1  housing_median_age_of_the_block 1.5\n   2  c                               2\n") {
		t.Errorf("a long name must widen the column:\n%s", out)
	}
	s.Names, s.Standardized = nil, false
	b.Reset()
	s.PrintTable(&b)
	if out := b.String(); !strings.Contains(out, "   1  2                1.5") || !strings.Contains(out, "units of the feature") {
		t.Errorf("by position:\n%s", out)
	}
	svg := string(s.Plot("t"))
	if strings.Count(svg, "<polyline") != 1 || strings.Count(svg, "<circle") != 1 || !strings.Contains(svg, "L-BFGS iteration") {
		t.Errorf("plot: want one curve, its last point circled:\n%s", svg)
	}
	if pts := svg[strings.Index(svg, `points="`):]; strings.Count(pts[:strings.Index(pts, `"/>`)], ",") != 4 {
		t.Errorf("plot: want 4 points (the start and 3 iterations): %s", pts[:strings.Index(pts, `"/>`)])
	}
}

// TestScalesWorse: the descent's model is worse than the grid's when its
// objective on every row is above the grid's (loo.ScaleSelection.Worse);
// a tie keeps the descent's.
// The warning names both figures and the rows of -ard-rows.
func TestScalesWorse(t *testing.T) {
	for _, tc := range []struct {
		crit    loo.Criterion
		obj     float64
		grid    float64
		worse   bool
		figures string
	}{
		{loo.LOOMSE, 0.0625, 0.0515, true, "loo_mse 0.0625 against 0.0515"},
		{loo.LOOMSE, 0.0515, 0.0515, false, ""},
		{loo.GCV, 0.04, 0.05, false, ""},
		{loo.GCV, 0.06, 0.05, true, "gcv 0.06 against 0.05"},
		{loo.LOOErrorRate, 0.7, 0.4, true, "loo_mse 0.7 against 0.4"},
		{loo.LOOErrorRate, 0.3, 0.4, false, ""},
	} {
		s := &Scales{Sel: &loo.ScaleSelection{Objective: tc.obj, ErrorRate: math.NaN(), FitRows: 51}, Criterion: tc.crit, Sigma: 5.456, Lambda: 3e-9, Rows: 200}
		if got := s.Sel.Worse(tc.grid); got != tc.worse {
			t.Errorf("%v, objective %v, grid %v: Worse %v, want %v", tc.crit, tc.obj, tc.grid, got, tc.worse)
		}
		if tc.worse {
			w := s.WorseWarning(tc.grid)
			if !strings.Contains(w, tc.figures) || !strings.Contains(w, "51 of the 200 rows (-ard-rows)") || !strings.Contains(w, "the model saved is the grid's") {
				t.Errorf("%v: warning %q, want %q, the rows and the model kept", tc.crit, w, tc.figures)
			}
		}
	}
	if (*loo.ScaleSelection)(nil).Worse(1) {
		t.Errorf("nil ScaleSelection: Worse true, want false")
	}
}
