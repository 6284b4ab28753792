package cli

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"rkhs/loo"
	"rkhs/optimize"
)

// TestSigmaValue: -sigma reads a number, auto and ard; ard implies auto,
// and a later number clears both.
func TestSigmaValue(t *testing.T) {
	for _, c := range []struct {
		in        string
		auto, ard bool
		v         float64
		err       bool
	}{
		{"ard", true, true, 0, false},
		{"auto", true, false, 0, false},
		{"2.5", false, false, 2.5, false},
		{"ARD", false, false, 0, true},
		{"x", false, false, 0, true},
	} {
		var s SigmaValue
		s.Set("ard") // a value set before is replaced
		err := s.Set(c.in)
		if (err != nil) != c.err {
			t.Errorf("%q: error %v, want error %v", c.in, err, c.err)
			continue
		}
		if err == nil && (s.Auto != c.auto || s.ARD != c.ard || s.V != c.v) {
			t.Errorf("%q: auto %v ard %v v %v, want %v %v %v", c.in, s.Auto, s.ARD, s.V, c.auto, c.ard, c.v)
		}
		if err == nil && s.String() != strings.ToLower(c.in) {
			t.Errorf("%q: String %q", c.in, s.String())
		}
	}
}

// TestARDFlags: the refusals of -ard-rows and -ard-iters, and the rows
// of -ard-rows auto on each side of AutoARDAbove.
func TestARDFlags(t *testing.T) {
	for _, c := range []struct {
		rows  AutoValue
		iters int
		err   string
	}{
		{AutoValue{Auto: true}, 0, ""},
		{AutoValue{V: 0}, 10, ""},
		{AutoValue{V: 2}, 0, ""},
		{AutoValue{V: 1}, 0, "-ard-rows 1: want 0 (every row), auto, or at least 2"},
		{AutoValue{V: 2.5}, 0, "-ard-rows 2.5: want a whole number"},
		{AutoValue{V: -3}, 0, "-ard-rows -3"},
		{AutoValue{Auto: true}, -1, "-ard-iters -1: want ≥ 0"},
	} {
		err := CheckARD(c.rows, c.iters)
		if got := errString(err); c.err == "" && err != nil || c.err != "" && !strings.Contains(got, c.err) {
			t.Errorf("%v, %d: %q, want %q", c.rows, c.iters, got, c.err)
		}
	}
	for _, c := range []struct {
		v       AutoValue
		n, want int
	}{
		{AutoValue{Auto: true}, AutoARDAbove, 0},
		{AutoValue{Auto: true}, AutoARDAbove + 1, AutoARDRows},
		{AutoValue{V: 300}, 1000, 300},
		{AutoValue{V: 0}, 10 * AutoARDAbove, 0},
	} {
		if got := ARDRows(c.v, c.n); got != c.want {
			t.Errorf("ARDRows(%v, %d) = %d, want %d", c.v, c.n, got, c.want)
		}
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestScalesReport: the table ranks the features by their scale, the
// constant one last and marked, by name or by position; the fields carry
// the scales in column order and the descent; the plot has one curve
// through the start and every iteration.
func TestScalesReport(t *testing.T) {
	sel := &loo.ScaleSelection{Sigmas: []float64{900, 1.5, 2, 3.25}, Lambda: 1e-4, Objective: 0.25, StdErr: 0.01,
		ErrorRate: 0.1, ErrorRateStdErr: 0.02, LOORows: 50, Start: 0.5, History: []float64{0.4, 0.3, 0.26},
		Iterations: 3, Evaluations: 4, Stop: optimize.StopTol, Constant: []int{3}, FitRows: 80}
	s := &Scales{Sel: sel, Criterion: loo.LOOErrorRate, Sigma: 2, Lambda: 1e-3, Names: []string{"a", "b", "c", "d"}, Rows: 100, Standardized: true}
	var b bytes.Buffer
	s.PrintTable(&b)
	out := b.String()
	for _, want := range []string{
		"ard from σ = 2, λ = 0.001: loo_mse 0.5 → 0.26 on 80 of the 100 rows, drawn at random in 3 iterations (4 evaluations; stopped by tolerance)",
		"   1  b                1.5\n   2  c                2\n   3  a                900\n   4  d                constant",
		"σ_j (standard deviations)",
		"chosen λ = 0.0001 with these scales: loo_mse 0.25 ± 0.01 (one standard error of the estimate) over 50 of the 100 rows, drawn at random, loo_error 0.1000 ± 0.02",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the table lacks %q:\n%s", want, out)
		}
	}
	s.Names, s.Standardized = nil, false
	b.Reset()
	s.PrintTable(&b)
	if out := b.String(); !strings.Contains(out, "   1  2                1.5") || !strings.Contains(out, "units of the feature") {
		t.Errorf("by position:\n%s", out)
	}
	raw, err := json.Marshal(s.Fields())
	if err != nil {
		t.Fatal(err)
	}
	want := `{"sigmas":[900,1.5,2,3.25],"ard_ranking":[1,2,0,3],"ard_constant":[3],"ard_criterion":"loo_mse","ard_objective":0.25,"ard_stderr":0.01,"ard_loo_rows":50,"ard_loo_error":0.1,"ard_loo_error_stderr":0.02,"ard_rows":80,"ard_start":0.5,"ard_history":[0.4,0.3,0.26],"ard_iterations":3,"ard_evaluations":4,"ard_stop":"tolerance"}`
	if string(raw) != want {
		t.Errorf("fields\n%s, want\n%s", raw, want)
	}
	if (*Scales)(nil).Fields() != nil {
		t.Error("a nil report has fields")
	}
	svg := string(s.Plot("t"))
	if strings.Count(svg, "<polyline") != 1 || strings.Count(svg, "<circle") != 1 || !strings.Contains(svg, "L-BFGS iteration") {
		t.Errorf("plot: want one curve, its last point circled:\n%s", svg)
	}
	if pts := svg[strings.Index(svg, `points="`):]; strings.Count(pts[:strings.Index(pts, `"/>`)], ",") != 4 {
		t.Errorf("plot: want 4 points (the start and 3 iterations): %s", pts[:strings.Index(pts, `"/>`)])
	}
}
