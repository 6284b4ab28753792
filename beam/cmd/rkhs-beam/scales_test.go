package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestSelectARD: select -sigma ard prints the grid's table, a progress
// line per iteration on standard error and the features ranked by their
// scales under their names; -json adds the scales, the iterations and the
// history (its last value J at the scales, to the rounding of J/J(θ₀)
// times J(θ₀)); with -classes and -ard-rows 60 the descent is on the ±1
// codes of 60 of the 120 rows, the error rate at the scales over every
// row beside them, and the model written is a classifier that predict
// reads.
func TestSelectARD(t *testing.T) {
	dir := t.TempDir()
	writeRows(t, filepath.Join(dir, "s.csv"), "a,b,c,y", 120, 1, 1)
	sel := []string{"select", "-input", "s.csv", "-format", "csv", "-centers", "15", "-sigmas", "0.5:4:4", "-lambdas", "1e-6:1e-1:6",
		"-sigma", "ard", "-ard-iters", "3", "-model", "m.json"}
	code, stdout, stderr := rkhsBeamStreams(t, dir, sel...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"chosen σ = ", "ard from σ = ", "rank  feature", "chosen λ = "} {
		if !strings.Contains(stdout, want) {
			t.Errorf("the output has no %q:\n%s", want, stdout)
		}
	}
	rows := 0
	for _, l := range strings.Split(stdout, "\n") {
		if f := strings.Fields(l); len(f) == 3 && slices.Contains([]string{"a", "b", "c"}, f[1]) {
			rows++
		}
	}
	if n := strings.Count(stderr, "rkhs-beam select: ard iteration "); rows != 3 || n != 4 {
		t.Errorf("%d rows of scales, %d progress lines; want 3 features and the start with 3 iterations:\n%s%s", rows, n, stdout, stderr)
	}

	code, stdout, stderr = rkhsBeamStreams(t, dir, append(sel, "-json")...)
	var r struct {
		Lambda       float64
		Sigmas       []float64
		FeatureNames []string  `json:"feature_names"`
		Ranking      []int     `json:"ard_ranking"`
		Iterations   int       `json:"ard_iterations"`
		History      []float64 `json:"ard_history"`
		Objective    float64   `json:"ard_objective"`
		Start        float64   `json:"ard_start"`
		LOOError     *float64  `json:"ard_loo_error"`
		Criterion    string    `json:"ard_criterion"`
		FitRows      int       `json:"ard_rows"`
		LOORows      int       `json:"ard_loo_rows"`
		Classes      []float64
		// The top level is the model written; the grid's pair under grid_.
		Sigma      *float64 `json:"sigma"`
		LooMSE     *float64 `json:"loo_mse"`
		GridSigma  float64  `json:"grid_sigma"`
		GridLambda float64  `json:"grid_lambda"`
		GridLooMSE *float64 `json:"grid_loo_mse"`
		Table      struct{ Scores [][]*float64 }
	}
	if err := json.Unmarshal([]byte(stdout), &r); code != 0 || err != nil {
		t.Fatalf("-json: exit %d, %v:\n%s%s", code, err, stdout, stderr)
	}
	best := math.Inf(1)
	for _, row := range r.Table.Scores {
		for _, v := range row {
			if v != nil {
				best = min(best, *v)
			}
		}
	}
	if r.Sigma != nil || r.LooMSE == nil || *r.LooMSE != r.Objective || r.GridLooMSE == nil || *r.GridLooMSE != best || r.GridLambda == r.Lambda || !(r.GridSigma > 0) {
		t.Errorf("-json: sigma %v, loo_mse %v beside ard_objective %v; grid_loo_mse %v, want the table's minimum %v; grid_sigma %v, grid_lambda %v, lambda %v",
			r.Sigma, r.LooMSE, r.Objective, r.GridLooMSE, best, r.GridSigma, r.GridLambda, r.Lambda)
	}
	if len(r.Sigmas) != 3 || r.Iterations != 3 || len(r.History) != 3 || math.Abs(r.Objective-r.History[2]) > 1e-12*r.Objective || !(r.Objective < r.Start) ||
		!slices.Equal(r.FeatureNames, []string{"a", "b", "c"}) || len(r.Ranking) != 3 || r.Criterion != "loo_mse" || r.LOOError != nil {
		t.Errorf("-json: %+v", r)
	}

	// Classes: three labels.
	b, _ := os.ReadFile(filepath.Join(dir, "s.csv"))
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	var sb strings.Builder
	sb.WriteString(lines[0] + "\n")
	for _, l := range lines[1:] {
		f := strings.Split(l, ",")
		y, _ := strconv.ParseFloat(f[3], 64)
		f[3] = strconv.Itoa((int(math.Floor(y))%3 + 3) % 3)
		sb.WriteString(strings.Join(f, ",") + "\n")
	}
	os.WriteFile(filepath.Join(dir, "classes.csv"), []byte(sb.String()), 0o644)
	args := append(slices.Clone(sel), "-json", "-classes", "-ard-rows", "60")
	args[2] = "classes.csv"
	code, stdout, stderr = rkhsBeamStreams(t, dir, args...)
	r.LOOError = nil
	if err := json.Unmarshal([]byte(stdout), &r); code != 0 || err != nil {
		t.Fatalf("-classes -json: exit %d, %v:\n%s%s", code, err, stdout, stderr)
	}
	if r.LOOError == nil || *r.LOOError < 0 || *r.LOOError > 1 || len(r.Classes) != 3 || r.Criterion != "loo_mse" || r.FitRows != 60 || r.LOORows != 120 {
		t.Errorf("-classes -ard-rows 60: the error rate at the scales %v over %d rows, the descent on %d, classes %v, criterion %q", r.LOOError, r.LOORows, r.FitRows, r.Classes, r.Criterion)
	}
	m, _ := os.ReadFile(filepath.Join(dir, "m.json"))
	if !strings.Contains(string(m), `"rkhs.classify.RLSModel"`) || !strings.Contains(string(m), `"lambda":`+strconv.FormatFloat(r.Lambda, 'g', -1, 64)) {
		t.Errorf("-classes: the model is not the classifier at λ = %g: %.200s", r.Lambda, m)
	}
	os.Mkdir(filepath.Join(dir, "out"), 0o755)
	if code, out := rkhsBeam(t, dir, "predict", "-input", "classes.csv", "-format", "csv", "-model", "m.json", "-output", "out"); code != 0 {
		t.Errorf("predict with the classifier at the scales: exit %d: %s", code, out)
	}
	p, _ := os.ReadFile(filepath.Join(dir, "out", "classes.csv.pred"))
	if n := strings.Count(string(p), "\n"); n != 120 {
		t.Errorf("%d predictions, want 120", n)
	}
}

// TestSelectARDRefusals: -sigma ard where it cannot run is refused before
// any job, in one line that names the flags.
func TestSelectARDRefusals(t *testing.T) {
	dir := t.TempDir()
	writeRows(t, filepath.Join(dir, "s.csv"), "a,b,c,y", 30, 1, 1)
	sel := []string{"select", "-input", "s.csv", "-format", "csv", "-centers", "5", "-lambdas", "1e-6:1e-1:6", "-model", "m.json"}
	refused(t, dir, 2, []string{"-sigma ard", "gaussian", "laplacian"}, append(sel, "-sigma", "ard", "-kernel", "laplacian")...)
	refused(t, dir, 2, []string{`-sigma "auto"`, "-sigma ard"}, append(sel, "-sigma", "auto")...)
	refused(t, dir, 2, []string{"-ard-iters is for -sigma ard"}, append(sel, "-ard-iters", "3")...)
	refused(t, dir, 2, []string{"-ard-rows is for -sigma ard"}, append(sel, "-ard-rows", "10")...)
	refused(t, dir, 2, []string{"-ard-iters -1", "≥ 0"}, append(sel, "-sigma", "ard", "-ard-iters", "-1")...)
	refused(t, dir, 2, []string{"-ard-rows 1", "at least 2"}, append(sel, "-sigma", "ard", "-ard-rows", "1")...)
	if _, err := os.Stat(filepath.Join(dir, "m.json")); err == nil {
		t.Error("a refused selection wrote its model")
	}
}
