package main

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"rkhs/kernels"
	"rkhs/regress"
)

// knownScales writes n rows of five features a … e, uniform on [−2, 2],
// and y = sin(2b) + sin(2d) + noise of standard deviation 0.05, as CSV with
// a header: the target depends on b and d only.
func knownScales(t *testing.T, dir, name string, n int, seed uint64) string {
	t.Helper()
	rnd := rand.New(rand.NewPCG(seed, 2))
	var b strings.Builder
	b.WriteString("a,b,c,d,e,y\n")
	for range n {
		var x [5]float64
		for j := range x {
			x[j] = 4*rnd.Float64() - 2
			fmt.Fprintf(&b, "%.6f,", x[j])
		}
		fmt.Fprintf(&b, "%.6f\n", math.Sin(2*x[1])+math.Sin(2*x[3])+0.05*rnd.NormFloat64())
	}
	return write(t, dir, name, []byte(b.String()))
}

// floats returns the JSON array v as float64s.
func floats(v any) []float64 {
	a, _ := v.([]any)
	out := make([]float64, len(a))
	for i, x := range a {
		out[i], _ = x.(float64)
	}
	return out
}

// TestARDKnownScales: the target depends on 2 of 5 features. The table
// ranks them first; the scales of the 3 others come out at least 10×
// theirs; the model, Gaussian σ = 1 with the training standardization
// composed with the scales, predicts raw test rows to about the noise's
// variance (an isotropic σ cannot: its leave-one-out MSE is over 0.3).
func TestARDKnownScales(t *testing.T) {
	dir := t.TempDir()
	train, test := knownScales(t, dir, "train.csv", 300, 1), knownScales(t, dir, "test.csv", 100, 7)
	model := filepath.Join(dir, "m.json")
	args := []string{"fit", "-train", train, "-test", test, "-method", "nystrom", "-centers", "40", "-sigma", "ard", "-lambda", "auto"}
	code, out, e := runCmd(args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, e)
	}
	table := out[strings.Index(out, "rank  feature"):]
	var top []string
	for _, line := range strings.Split(table, "\n")[1:3] {
		top = append(top, strings.Fields(line)[1])
	}
	if slices.Sort(top); !slices.Equal(top, []string{"b", "d"}) {
		t.Errorf("ranked first: %v, want b and d:\n%s", top, out)
	}
	res, _ := runJSON(t, append(args, "-model", model)...)
	s := floats(res["sigmas"])
	if len(s) != 5 || min(s[0], s[2], s[4]) < 10*max(s[1], s[3]) {
		t.Errorf("scales %v: want those of a, c and e at least 10× those of b and d", s)
	}
	if mse := res["test_mse"].(float64); !(mse < 0.01) {
		t.Errorf("test MSE %v, want below 0.01 (the noise's variance is 0.0025)", mse)
	}
	if loo := res["grid_loo_mse"].(float64); !(loo > 0.3) {
		t.Errorf("the grid's leave-one-out MSE %v: the isotropic start should be poor", loo)
	}
	m := readModel(t, model)
	std, err := kernels.StandardizationOf(&readData(t, train).X)
	if err != nil {
		t.Fatal(err)
	}
	if m.Kernel != (kernels.Gaussian{Sigma: 1}) {
		t.Errorf("model kernel %v, want the Gaussian of width 1", m.Kernel)
	}
	for j, sj := range s {
		if got, want := m.Standardization.Scale[j], std.Scale[j]*sj; math.Abs(got-want) > 1e-12*want || m.Standardization.Mean[j] != std.Mean[j] {
			t.Errorf("feature %d: the model's scale %v, mean %v; want sd × σ_j = %v, mean %v", j, got, m.Standardization.Mean[j], want, std.Mean[j])
		}
	}
}

// TestARDTopLevelIsTheSavedModel: with -sigma ard the top level of -json
// describes the model saved — its λ, its criterion on every row (the
// descent's final objective, its error rate for classes), no single σ —
// and the grid's choice where the descent began is under grid_: its pair
// is the table's minimum and its score that minimum.
func TestARDTopLevelIsTheSavedModel(t *testing.T) {
	dir := t.TempDir()
	train := knownScales(t, dir, "train.csv", 200, 5)
	heart, _ := splitSet(t, dir, "heart", "", 150)
	for _, c := range []struct {
		name, verb, train, score string
		args                     []string
		// final is the top-level field of the criterion and the ard_
		// field it must equal.
		final, ard string
	}{
		{"loo_mse", "fit", train, "loo_mse", nil, "loo_mse", "ard_objective"},
		{"gcv", "fit", train, "gcv", []string{"-criterion", "gcv"}, "gcv", "ard_objective"},
		{"classify", "classify", heart, "loo_error", nil, "loo_error", "ard_loo_error"},
	} {
		args := append([]string{c.verb, "-train", c.train, "-method", "nystrom", "-centers", "25", "-sigma", "ard", "-lambda", "auto", "-ard-iters", "6"}, c.args...)
		res, _ := runJSON(t, args...)
		if got, want := res[c.final], res[c.ard]; got == nil || got != want {
			t.Errorf("%s: top-level %s %v, want the descent's %s %v", c.name, c.final, got, c.ard, want)
		}
		if c.verb == "classify" && res["loo_mse"] != res["ard_objective"] {
			t.Errorf("%s: top-level loo_mse %v, want the descent's ard_objective %v", c.name, res["loo_mse"], res["ard_objective"])
		}
		if sigma, ok := res["sigma"]; ok {
			t.Errorf("%s: a top-level sigma %v beside one σ per feature", c.name, sigma)
		}
		table := res["table"].(map[string]any)
		sigmas, lambdas := floats(table["sigmas"]), floats(table["lambdas"])
		best, at := math.Inf(1), math.NaN()
		for a, row := range table["scores"].([]any) {
			for j, v := range row.([]any) {
				if v, ok := v.(float64); ok {
					best = min(best, v)
					if sigmas[a] == res["grid_sigma"] && lambdas[j] == res["grid_lambda"] {
						at = v
					}
				}
			}
		}
		if got := res["grid_"+c.score]; got != best || at != best {
			t.Errorf("%s: grid_%s %v, the table's score at grid_sigma %v, grid_lambda %v is %v; want the table's minimum %v",
				c.name, c.score, got, res["grid_sigma"], res["grid_lambda"], at, best)
		}
		own := map[string]string{"classify": "loo_mse"}[c.name] // error rates of 150 rows may tie
		if own == "" {
			own = c.final
		}
		if res["lambda"] == res["grid_lambda"] || res[own] == res["grid_"+own] {
			t.Errorf("%s: λ %v and %s %v, the grid's %v and %v: want the descent's own", c.name, res["lambda"], own, res[own], res["grid_lambda"], res["grid_"+own])
		}
	}
}

// TestARDLaplacian: -kernel laplacian -sigma ard learns the Laplacian's
// scales on the data of TestARDKnownScales: b and d ranked first, the
// model the Laplacian of width 1 on the rows divided by the scales, and a
// leave-one-out MSE below the isotropic start's.
func TestARDLaplacian(t *testing.T) {
	dir := t.TempDir()
	train := knownScales(t, dir, "train.csv", 300, 1)
	model := filepath.Join(dir, "m.json")
	res, _ := runJSON(t, "fit", "-train", train, "-method", "nystrom", "-centers", "40", "-kernel", "laplacian",
		"-sigma", "ard", "-lambda", "auto", "-ard-iters", "15", "-model", model)
	s := floats(res["sigmas"])
	if len(s) != 5 || min(s[0], s[2], s[4]) < max(s[1], s[3]) {
		t.Errorf("scales %v: want those of a, c and e above those of b and d", s)
	}
	m := readModel(t, model)
	if m.Kernel != (kernels.Laplacian{Sigma: 1}) {
		t.Errorf("model kernel %v, want the Laplacian of width 1", m.Kernel)
	}
}

// readModel returns the model of the file path.
func readModel(t *testing.T, path string) *regress.Model {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m regress.Model
	if err := m.UnmarshalJSON(raw); err != nil {
		t.Fatal(err)
	}
	return &m
}

// TestARDDeterminism: the same command at GOMAXPROCS 1 and 2 prints the
// same JSON but for fit_seconds, with subsets for the descent and the
// leave-one-out mean.
func TestARDDeterminism(t *testing.T) {
	dir := t.TempDir()
	train := knownScales(t, dir, "train.csv", 200, 3)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	var got [2]string
	for i, procs := range []int{1, 2} {
		runtime.GOMAXPROCS(procs)
		res, _ := runJSON(t, "fit", "-train", train, "-method", "nystrom", "-centers", "30", "-sigma", "ard", "-lambda", "auto", "-ard-rows", "150", "-loo-rows", "100")
		delete(res, "fit_seconds")
		b, _ := json.Marshal(res)
		got[i] = string(b)
	}
	if got[0] != got[1] {
		t.Errorf("GOMAXPROCS 1:\n%s\nGOMAXPROCS 2:\n%s", got[0], got[1])
	}
}

// TestARDFields: the fields of -json, the progress lines, the plot and
// the text of each criterion: a leave-one-out mean over a subset has a
// standard error, GCV none; classify reports the error rate.
func TestARDFields(t *testing.T) {
	dir := t.TempDir()
	train := knownScales(t, dir, "train.csv", 240, 5)
	heart, _ := splitSet(t, dir, "heart", "", 150)
	plot := filepath.Join(dir, "p.svg")
	for _, c := range []struct {
		name string
		args []string
		want map[string]any // fields and their values; nil: absent
	}{
		{"subsets", []string{"fit", "-train", train, "-ard-rows", "200", "-loo-rows", "100", "-ard-iters", "4", "-plot", plot},
			map[string]any{"ard_rows": 200.0, "ard_loo_rows": 100.0, "ard_criterion": "loo_mse", "n_train": 240.0, "ard_loo_error": nil,
				"feature_names": []any{"a", "b", "c", "d", "e"}}},
		{"gcv", []string{"fit", "-train", train, "-criterion", "gcv"},
			map[string]any{"ard_rows": 240.0, "ard_criterion": "gcv", "ard_stderr": nil, "ard_loo_rows": nil}},
		{"classify", []string{"classify", "-train", heart, "-ard-iters", "5"},
			map[string]any{"ard_rows": 100.0, "ard_loo_rows": 100.0, "ard_criterion": "loo_mse", "ard_stderr": nil, "feature_names": nil}},
	} {
		args := append(c.args, "-method", "nystrom", "-centers", "30", "-sigma", "ard", "-lambda", "auto")
		res, stderr := runJSON(t, args...)
		for k, v := range c.want {
			if got, ok := res[k]; v == nil && ok || v != nil && fmt.Sprint(got) != fmt.Sprint(v) {
				t.Errorf("%s: %s = %v, want %v", c.name, k, got, v)
			}
		}
		iters, evals := int(res["ard_iterations"].(float64)), int(res["ard_evaluations"].(float64))
		hist, start, obj := floats(res["ard_history"]), res["ard_start"].(float64), res["ard_objective"].(float64)
		if len(hist) != iters || iters < 1 || evals < iters || len(floats(res["sigmas"])) != int(res["features"].(float64)) ||
			len(floats(res["ard_ranking"])) != len(floats(res["sigmas"])) || !(hist[len(hist)-1] < start) || !(obj > 0) || res["ard_stop"] == nil {
			t.Errorf("%s: %d iterations, %d evaluations, history %v from %v, objective %v, sigmas %v, ranking %v, stop %v",
				c.name, iters, evals, hist, start, obj, res["sigmas"], res["ard_ranking"], res["ard_stop"])
		}
		if strings.Contains(stderr, "warning: the chosen") {
			t.Errorf("%s: an edge of the grid warned about, though the descent goes beyond it:\n%s", c.name, stderr)
		}
		if n := strings.Count(stderr, ": ard iteration "); n != iters+1 {
			t.Errorf("%s: %d progress lines, want %d (the start and each iteration):\n%s", c.name, n, iters+1, stderr)
		}
		if se, ok := res["ard_stderr"].(float64); c.name == "subsets" && !(se > 0) || c.name == "subsets" && !ok {
			t.Errorf("%s: ard_stderr %v, want a positive standard error", c.name, res["ard_stderr"])
		}
		if rate, ok := res["ard_loo_error"].(float64); c.name == "classify" && (!ok || !(rate > 0 && rate < 0.5)) {
			t.Errorf("%s: ard_loo_error %v", c.name, res["ard_loo_error"])
		}
	}
	svg, err := os.ReadFile(plot)
	if err != nil || strings.Count(string(svg), "<polyline") != 1 || !strings.Contains(string(svg), "L-BFGS iteration") {
		t.Errorf("-plot with -sigma ard: want one curve against the iteration (%v):\n%s", err, svg)
	}
	code, out, e := runCmd("classify", "-train", heart, "-method", "nystrom", "-centers", "30", "-sigma", "ard", "-lambda", "auto", "-ard-iters", "10")
	if code != 0 || !strings.Contains(out, "σ one per feature (above), λ = ") || !strings.Contains(out, "σ_j and λ chosen by leave-one-out (LOO error 0.") ||
		!strings.Contains(out, ", loo_error 0.") {
		t.Errorf("classify text: exit %d, %s (%s)", code, out, e)
	}
}

// TestARDFalkon: falkon descends on the selection's centres — on M
// centres when M ≤ -select-centers, where its model is nystrom's on the
// same M, bit for bit; on the first -select-centers of its M otherwise,
// the scales then those of nystrom on that many, and falkon fits on all
// M at them, predicting as the library's Nyström fit on M centres at the
// scales does, to 10⁻⁹ once falkon has converged (-iters 300: it stops
// at the library's tolerance, after about 40).
func TestARDFalkon(t *testing.T) {
	dir := t.TempDir()
	train, test := knownScales(t, dir, "train.csv", 200, 11), knownScales(t, dir, "test.csv", 50, 12)
	ard := []string{"-train", train, "-test", test, "-sigma", "ard", "-lambdas", "1e-6:1e-2:5", "-ard-iters", "8"}
	run := func(name string, args ...string) (map[string]any, []float64) {
		p := filepath.Join(dir, name)
		res, _ := runJSON(t, append(append([]string{"fit", "-predictions", p}, ard...), args...)...)
		return res, predictions(t, p)
	}
	ny, nyP := run("ny", "-method", "nystrom", "-centers", "25")
	fa, faP := run("fa", "-method", "falkon", "-centers", "25")
	if fmt.Sprint(ny["sigmas"], ny["lambda"]) != fmt.Sprint(fa["sigmas"], fa["lambda"]) || !slices.Equal(nyP, faP) {
		t.Errorf("falkon on its M centres: scales %v λ %v, nystrom's %v λ %v; same predictions: %v", fa["sigmas"], fa["lambda"], ny["sigmas"], ny["lambda"], slices.Equal(nyP, faP))
	}
	fm, fmP := run("fm", "-method", "falkon", "-centers", "60", "-select-centers", "25", "-iters", "300")
	if fmt.Sprint(ny["sigmas"], ny["lambda"]) != fmt.Sprint(fm["sigmas"], fm["lambda"]) || fm["centers"].(float64) != 60 {
		t.Errorf("falkon on 25 of its 60 centres: scales %v λ %v, centres %v; want nystrom's on 25, %v λ %v", fm["sigmas"], fm["lambda"], fm["centers"], ny["sigmas"], ny["lambda"])
	}
	// The Nyström fit on the 60 centres at the scales, from the library.
	d, td := readData(t, train), readData(t, test)
	std, _ := kernels.StandardizationOf(&d.X)
	s := floats(fm["sigmas"])
	for j := range s {
		std.Scale[j] *= s[j]
	}
	z, _ := std.Apply(&d.X)
	fit, err := regress.Nystrom{Kernel: kernels.Gaussian{Sigma: 1}, Lambda: fm["lambda"].(float64), Centers: 60, Seed: 1, Intercept: regress.FreeIntercept}.Fit(z, d.Labels())
	if err != nil {
		t.Fatal(err)
	}
	zt, _ := std.Apply(&td.X)
	want, _ := fit.Model.Predict(zt)
	for i, p := range fmP {
		if math.Abs(p-want.Data[i]) > 1e-9 {
			t.Fatalf("test row %d: falkon at the scales predicts %v, the Nyström fit %v", i, p, want.Data[i])
		}
	}
}

// TestARDRefusals: -sigma ard where a method does not stream, with
// another kernel, with a λ given (without one, -sigma ard learns it: accepted), -ard-rows 1, a negative -ard-iters,
// the descent's flags without -sigma ard or with a method that does not
// read them, and loo, which takes a number; -sigmas is the grid of the
// start, allowed.
func TestARDRefusals(t *testing.T) {
	dir := t.TempDir()
	train := knownScales(t, dir, "train.csv", 60, 1)
	ny := []string{"-method", "nystrom", "-centers", "10"}
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"fit", "-method", "cholesky", "-sigma", "ard", "-lambda", "auto"}, "-sigma ard is offered by -method nystrom and falkon, not cholesky"},
		{[]string{"fit", "-method", "eigen", "-sigma", "ard", "-lambda", "auto"}, "not eigen"},
		{[]string{"classify", "-method", "rls", "-sigma", "ard"}, "-sigma ard is offered by -method nystrom and falkon, not rls"},
		{append([]string{"fit", "-sigma", "ard", "-lambda", "auto", "-kernel", "polynomial"}, ny...), "-sigma ard: one length scale per feature is learnt for the gaussian and laplacian kernels, not polynomial"},
		{append([]string{"fit", "-sigma", "ard", "-lambda", "auto", "-kernel", "linear"}, ny...), "for the gaussian and laplacian kernels, not linear"},
		{append([]string{"fit", "-sigma", "ard", "-lambda", "1e-3"}, ny...), "-sigma ard learns λ with the scales: give no -lambda, or -lambda auto"},
		{append([]string{"fit", "-sigma", "ard", "-lambda", "auto", "-ard-rows", "1"}, ny...), "-ard-rows 1: want 0 (every row), auto, or at least 2"},
		{append([]string{"fit", "-sigma", "ard", "-lambda", "auto", "-ard-rows", "-5"}, ny...), "-ard-rows -5: want a whole number"},
		{append([]string{"fit", "-sigma", "ard", "-lambda", "auto", "-ard-iters", "-1"}, ny...), "-ard-iters -1: want ≥ 0"},
		{append([]string{"fit", "-sigma", "auto", "-lambda", "auto", "-ard-rows", "50"}, ny...), "-ard-rows is for -sigma ard"},
		{append([]string{"fit", "-sigma", "2", "-lambda", "1e-3", "-ard-iters", "5"}, ny...), "-ard-iters is for -sigma ard"},
		{[]string{"fit", "-method", "cholesky", "-sigma", "1", "-lambda", "1", "-ard-iters", "5"}, "-ard-iters is not used by -method cholesky"},
		{[]string{"loo", "-sigma", "ard"}, "-sigma ard: loo takes a number"},
		{append([]string{"fit", "-sigma", "ard", "-lambda", "auto", "-standardize=no"}, ny...), "-sigma ard -standardize=no: the descent starts every feature at the grid's one σ"},
	} {
		code, _, e := runCmd(append(c.args, "-train", train)...)
		if code != 2 || !strings.Contains(e, c.msg) || strings.Count(e, "\n") != 1 {
			t.Errorf("%v: exit %d, %q; want 2 and %q", c.args, code, e, c.msg)
		}
	}
	// -sigma ard learns λ with the scales: no -lambda needed.
	if code, _, e := runCmd(append([]string{"fit", "-sigma", "ard", "-ard-iters", "2", "-train", train}, ny...)...); code != 0 {
		t.Errorf("fit -sigma ard without -lambda: exit %d, %q; want 0 (λ is learnt)", code, e)
	}
	res, _ := runJSON(t, append([]string{"fit", "-train", train, "-sigma", "ard", "-sigmas", "1:4:3", "-lambda", "auto", "-ard-iters", "2"}, ny...)...)
	if g := floats(res["table"].(map[string]any)["sigmas"]); len(g) != 3 || g[0] != 1 || g[2] != 4 || len(floats(res["sigmas"])) != 5 {
		t.Errorf("-sigma ard -sigmas 1:4:3: grid %v, scales %v", res["table"], res["sigmas"])
	}
}

// TestARDRowsRefusals: a descent subset below twice the centres (and 30)
// is refused, naming -ard-rows, instead of a descent that "converges" at
// once or saves scales worse than the grid's; a subset that holds one
// class is refused in the words of -ard-rows, not blamed on the labels.
func TestARDRowsRefusals(t *testing.T) {
	dir := t.TempDir()
	train := knownScales(t, dir, "train.csv", 60, 1)
	ny := []string{"-method", "nystrom", "-centers", "20", "-sigma", "ard", "-lambda", "auto", "-train", train}
	for _, c := range []struct {
		rows, msg string
	}{
		{"2", "-ard-rows 2: below 40, twice the 20 centres"},
		{"39", "-ard-rows 39: below 40, twice the 20 centres"},
	} {
		code, _, e := runCmd(append([]string{"fit", "-ard-rows", c.rows}, ny...)...)
		if code != 2 || !strings.Contains(e, c.msg) {
			t.Errorf("-ard-rows %s: exit %d, %q; want 2 and %q", c.rows, code, e, c.msg)
		}
	}

	// 198 rows of one class and 2 of another: the 30 rows drawn with
	// -seed 1 hold neither of the 2.
	rnd := rand.New(rand.NewPCG(7, 7))
	var b strings.Builder
	b.WriteString("a,b,label\n")
	for i := range 200 {
		label := "1"
		if i == 17 || i == 124 {
			label = "2"
		}
		fmt.Fprintf(&b, "%.6f,%.6f,%s\n", rnd.NormFloat64(), rnd.NormFloat64(), label)
	}
	rare := write(t, dir, "rare.csv", []byte(b.String()))
	code, _, e := runCmd("classify", "-train", rare, "-method", "nystrom", "-centers", "10", "-sigma", "ard", "-lambda", "auto", "-ard-rows", "30", "-seed", "1")
	if code != 2 || !strings.Contains(e, "-ard-rows 30: the 30 rows drawn at random (-seed) for the descent hold one class") || strings.Contains(e, "Y:") {
		t.Errorf("a subset of one class: exit %d, %q; want 2 and a message about -ard-rows", code, e)
	}
}
