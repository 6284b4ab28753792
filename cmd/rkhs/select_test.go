package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"rkhs/internal/cli"
	"slices"
	"strings"
	"testing"

	"rkhs/dataset"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/loo"
	"rkhs/regress"
)

// runJSON runs rkhs with -json and decodes its one line of output.
func runJSON(t *testing.T, args ...string) (map[string]any, string) {
	t.Helper()
	code, out, e := runCmd(append(args, "-json")...)
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, e)
	}
	var res map[string]any
	if err := json.Unmarshal([]byte(out), &res); err != nil || strings.Count(out, "\n") != 1 {
		t.Fatalf("%v: %v in %q", args, err, out)
	}
	return res, e
}

// readData reads a data file as the command does.
func readData(t *testing.T, path string) *dataset.Data {
	t.Helper()
	var df dataFlags
	d, _, err := df.readData(path)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func gaussian(s float64) kernels.Kernel { return kernels.Gaussian{Sigma: s} }

// TestSelectionMatchesLibrary: the pair fit and classify choose, its score
// and the table are loo.SelectNystrom's (or loo.SelectRLS's, or the
// in-process classify.RLS loop's) on the same data, with the centres
// regress.Nystrom draws with the same seed and the σ grid the median
// heuristic × {1/4, …, 4}.
func TestSelectionMatchesLibrary(t *testing.T) {
	dir := t.TempDir()
	train, _ := splitHousing(t, dir)
	heart, _ := splitSet(t, dir, "heart", "", 0)
	lambdas := loo.Geometric(1e-7, 1e-1, 7)
	for _, c := range []struct {
		name  string
		args  []string
		train string
		crit  loo.Criterion
		exact bool // SelectRLS
	}{
		{"fit nystrom loo", []string{"fit", "-method", "nystrom", "-centers", "60", "-seed", "3"}, train, loo.LOOMSE, false},
		{"fit nystrom gcv", []string{"fit", "-method", "nystrom", "-centers", "60", "-criterion", "gcv"}, train, loo.GCV, false},
		{"fit nystrom loo-rows", []string{"fit", "-method", "nystrom", "-centers", "60", "-loo-rows", "100", "-intercept", "penalized"}, train, loo.LOOMSE, false},
		{"fit cholesky", []string{"fit", "-method", "cholesky"}, train, loo.LOOMSE, true},
		{"fit eigen none", []string{"fit", "-method", "eigen", "-intercept", "none"}, train, loo.LOOMSE, true},
		{"classify nystrom", []string{"classify", "-method", "nystrom", "-centers", "40"}, heart, loo.LOOErrorRate, false},
	} {
		args := append(append([]string(nil), c.args...), "-train", c.train, "-sigma", "auto", "-lambdas", "1e-7:1e-1:7")
		res, stderr := runJSON(t, args...)
		d := readData(t, c.train)
		// -sigma auto standardizes by default: the library sees the
		// standardized rows.
		if res["standardized"] != true {
			t.Errorf("%s: -sigma auto did not standardize: %v", c.name, res["standardized"])
		}
		st, err := kernels.StandardizationOf(&d.X)
		if err != nil {
			t.Fatal(err)
		}
		xs, err := st.Apply(&d.X)
		if err != nil {
			t.Fatal(err)
		}
		d.X = *xs
		median, err := loo.MedianDistance(&d.X, loo.L2, 0, 1)
		if err != nil {
			t.Fatal(err)
		}
		if got := res["median_distance"].(float64); got != median {
			t.Errorf("%s: median distance %v, want %v", c.name, got, median)
		}
		sigmas := []float64{median / 4, median / 2, median, 2 * median, 4 * median}
		ic, _ := cli.Intercept(flagOf(c.args, "-intercept", "free"))
		var want loo.Choice
		var table [][]float64
		if c.exact {
			var tb *loo.Table
			want, tb, err = loo.SelectRLS(gaussian, &d.X, d.Labels(), sigmas, lambdas, ic)
			if err != nil {
				t.Fatal(err)
			}
			table = tb.Scores
		} else {
			m := 0
			fmt.Sscan(flagOf(c.args, "-centers", "0"), &m)
			var seed uint64 = 1
			fmt.Sscan(flagOf(c.args, "-seed", "1"), &seed)
			y := d.Labels()
			if c.crit == loo.LOOErrorRate { // heart's labels are ±1: their own codes
				y = linalg.NewDense(len(d.Y), 1, slices.Clone(d.Y))
			}
			// The centres of regress.Nystrom with the same seed.
			ref, err := regress.Nystrom{Kernel: gaussian(1), Lambda: 1, Centers: m, Seed: seed}.Fit(&d.X, y)
			if err != nil {
				t.Fatal(err)
			}
			subset := 0
			fmt.Sscan(flagOf(c.args, "-loo-rows", "0"), &subset)
			s, err := loo.SelectNystrom{Kernel: gaussian, Centers: ref.Centers, Sigmas: sigmas, Lambdas: lambdas, Intercept: ic,
				Criterion: c.crit, Subset: subset, Seed: seed}.Fit(&d.X, y)
			if err != nil {
				t.Fatal(err)
			}
			want, table = s.Choice, s.Scores.Scores
			if c.crit != loo.GCV && res["loo_rows"].(float64) != float64(s.LOORows) {
				t.Errorf("%s: loo_rows %v, want %d", c.name, res["loo_rows"], s.LOORows)
			}
			// The standard error of the score at the pair: with a subset
			// the library's, otherwise (exact) not in the JSON.
			a, j := slices.Index(s.Scores.Sigmas, s.Sigma), slices.Index(s.Scores.Lambdas, s.Lambda)
			se, has := res["loo_stderr"].(float64)
			switch {
			case c.crit != loo.GCV && subset > 0 && (!has || se != s.StdErr[a][j] || !(se > 0)):
				t.Errorf("%s: loo_stderr %v, want the library's %v > 0", c.name, res["loo_stderr"], s.StdErr[a][j])
			case subset == 0 && has:
				t.Errorf("%s: loo_stderr %v with every row", c.name, se)
			}
		}
		if res["sigma"].(float64) != want.Sigma || res["lambda"].(float64) != want.Lambda {
			t.Errorf("%s: chose σ = %v, λ = %v; the library σ = %v, λ = %v", c.name, res["sigma"], res["lambda"], want.Sigma, want.Lambda)
		}
		key := map[loo.Criterion]string{loo.LOOMSE: "loo_mse", loo.GCV: "gcv", loo.LOOErrorRate: "loo_error"}[c.crit]
		if got, _ := res[key].(float64); got != want.Score {
			t.Errorf("%s: %s %v, the library's %v", c.name, key, res[key], want.Score)
		}
		scores := res["table"].(map[string]any)["scores"].([]any)
		for a := range table {
			for j, v := range table[a] {
				if got := scores[a].([]any)[j].(float64); got != v {
					t.Errorf("%s: table[%d][%d] = %v, the library's %v", c.name, a, j, got, v)
				}
			}
		}
		passes := 5 // SelectRLS: one a σ
		if !c.exact {
			passes = 2 // SelectNystrom: statistics and leave-one-out, for every σ at once
			if c.crit == loo.GCV {
				passes = 1
			}
		}
		// One line says the features were standardized, then one a pass,
		// then one for each grid whose edge the library's choice is on.
		f := (&loo.Table{Sigmas: sigmas, Lambdas: lambdas}).Facts(want)
		edges := min(1, f.SigmaEdge*f.SigmaEdge) + min(1, f.LambdaEdge*f.LambdaEdge)
		if n := strings.Count(stderr, "pass "); n != passes || strings.Count(stderr, "\n") != passes+1+edges ||
			strings.Count(stderr, "warning: the chosen") != edges || !strings.HasPrefix(stderr, "rkhs: features standardized") {
			t.Errorf("%s: %d progress lines in %q, want the standardization line, %d, %d edge warnings and nothing else", c.name, n, stderr, passes, edges)
		}
	}
}

// flagOf returns the value that follows name in args, or def.
func flagOf(args []string, name, def string) string {
	for i := 0; i+1 < len(args); i++ {
		if args[i] == name {
			return args[i+1]
		}
	}
	return def
}

func writeHousing(t *testing.T) string {
	train, _ := splitHousing(t, t.TempDir())
	return train
}

// TestDegenerateWarning: a σ given far below or far above the distances
// draws one warning line naming σ and the median distance, for exact and
// Nyström-type methods alike; a reasonable σ and -sigma auto draw none,
// and the results are those of a run without the check.
func TestDegenerateWarning(t *testing.T) {
	dir := t.TempDir()
	train, _ := splitHousing(t, dir)
	heart, _ := splitSet(t, dir, "heart", "", 0)
	for _, c := range []struct {
		args []string
		warn string // "" for none
	}{
		{[]string{"fit", "-train", train, "-lambda", "1e-3", "-sigma", "1e-4"}, "-sigma 0.0001 is far below the median distance between rows, 2.3"},
		{[]string{"fit", "-train", train, "-lambda", "1e-3", "-sigma", "1e6"}, "-sigma 1e+06 is far above the median distance between rows, 2.3"},
		{[]string{"fit", "-train", train, "-lambda", "1e-3", "-sigma", "1e6", "-method", "nystrom", "-centers", "40"}, "the kernel matrix of 40 centres is numerically all ones"},
		{[]string{"fit", "-train", train, "-lambda", "1e-3", "-sigma", "1e-4", "-method", "falkon", "-centers", "40"}, "the kernel matrix of 40 centres is numerically the identity"},
		{[]string{"fit", "-train", train, "-lambda", "auto", "-sigma", "1e-4", "-method", "nystrom", "-centers", "40"}, "-sigma 0.0001 is far below"},
		{[]string{"classify", "-train", heart, "-sigma", "1e-4"}, "-sigma 0.0001 is far below"},
		{[]string{"classify", "-train", heart, "-sigma", "1e6", "-method", "nystrom", "-centers", "30", "-lambda", "1e-3"}, "-sigma 1e+06 is far above"},
		{[]string{"fit", "-train", train, "-lambda", "1e-3", "-sigma", "2"}, ""},
		{[]string{"fit", "-train", train, "-lambda", "1e-3", "-sigma", "1e-4", "-kernel", "linear"}, ""},
		{[]string{"classify", "-train", heart, "-sigma", "auto", "-lambdas", "1e-4:1e-2:3"}, ""},
	} {
		code, _, e := runCmd(c.args...)
		warnings := strings.Count(e, "warning: -sigma")
		switch {
		case code != 0:
			t.Errorf("%v: exit %d: %s", c.args, code, e)
		case c.warn == "" && warnings != 0:
			t.Errorf("%v: %q, want no warning", c.args, e)
		case c.warn != "" && (warnings != 1 || !strings.Contains(e, c.warn) || !strings.Contains(e, "try -sigma auto or -standardize")):
			t.Errorf("%v: %q, want one warning containing %q", c.args, e, c.warn)
		}
	}
}

// TestEdgeWarning: a choice at the end of a grid draws one warning line on
// stderr naming the value, the side and the flag to widen; a choice inside
// both grids draws none, and neither does a σ that was given.
func TestEdgeWarning(t *testing.T) {
	dir := t.TempDir()
	train, _ := splitHousing(t, dir)
	heart, _ := splitSet(t, dir, "heart", "", 0)
	for _, c := range []struct {
		args []string
		want []string // texts of the warnings, in order; one warning per "warning:" among them
	}{
		{[]string{"fit", "-train", train, "-sigma", "3", "-lambda", "auto", "-lambdas", "1:100:3"},
			[]string{"rkhs fit: warning: the chosen λ = 1 is the smallest of its grid (1 to 100, 3 values): the best λ may lie below it; widen -lambdas"}},
		// Grids of two values: whatever is chosen lies on an edge of both.
		{[]string{"fit", "-train", train, "-method", "nystrom", "-centers", "50", "-sigmas", "2:4:2", "-lambda", "auto", "-lambdas", "1e-12:1e-11:2"},
			[]string{"warning: the chosen σ = ", "of its grid (2 to 4, 2 values)", "widen -sigmas", "warning: the chosen λ = ", "widen -lambdas"}},
		{[]string{"fit", "-train", train, "-sigma", "3", "-lambda", "auto", "-lambdas", "1e-12:1e4:9"}, nil},
		{[]string{"classify", "-train", heart, "-sigma", "3", "-lambda", "auto", "-lambdas", "10:1000:3"},
			[]string{"rkhs classify: warning: the chosen λ = 10 is the smallest of its grid"}},
	} {
		code, _, e := runCmd(c.args...)
		if code != 0 {
			t.Errorf("%v: exit %d: %s", c.args, code, e)
			continue
		}
		if got, want := strings.Count(e, "warning: the chosen"), strings.Count(strings.Join(c.want, " "), "warning:"); got != want {
			t.Errorf("%v: %d edge warnings in %q, want %d", c.args, got, e, want)
		}
		rest := e
		for _, w := range c.want {
			i := strings.Index(rest, w)
			if i < 0 {
				t.Errorf("%v: stderr %q lacks %q (in order)", c.args, e, w)
				break
			}
			rest = rest[i+len(w):]
		}
	}
}

// TestLOORowsAuto: -loo-rows auto runs the leave-one-out pass on every
// row up to loo.DefaultSubsetAbove rows and on loo.DefaultSubsetRows above (cli.LOORows); a number is taken
// as it is (0: every row); GCV makes no pass, so no subset.
func TestLOORowsAuto(t *testing.T) {
	for _, c := range []struct {
		flag, criterion string
		n, want         int
	}{
		{"auto", "loo", 16_512, 0},
		{"auto", "loo", loo.DefaultSubsetAbove, 0},
		{"auto", "loo", loo.DefaultSubsetAbove + 1, loo.DefaultSubsetRows},
		{"auto", "loo", 1_000_000, loo.DefaultSubsetRows},
		{"auto", "gcv", 1_000_000, 0},
		{"0", "loo", 1_000_000, 0},
		{"5000", "loo", 1_000_000, 5000},
		{"5000", "loo", 100, 5000}, // loo.SelectNystrom takes every row when Subset ≥ n
	} {
		var v cli.AutoValue
		if err := v.Set(c.flag); err != nil {
			t.Fatal(err)
		}
		got := cli.LOORows(v, c.n)
		if c.criterion == "gcv" {
			got = 0 // GCV makes no leave-one-out pass (see fitRun.streamed)
		}
		if got != c.want {
			t.Errorf("-loo-rows %s, -criterion %s, %d rows: subset %d, want %d", c.flag, c.criterion, c.n, got, c.want)
		}
	}
	fs := newFlagSet("fit")
	setupModel("fit")(fs)
	if err := fs.Parse(nil); err != nil || fs.Lookup("loo-rows").Value.String() != "auto" {
		t.Errorf("default -loo-rows %q (%v), want auto", fs.Lookup("loo-rows").Value.String(), err)
	}
}

// TestSelectionBadInput: bad grids and flags exit 2 with one line naming
// the flag, before any output is written.
func TestSelectionBadInput(t *testing.T) {
	dir := t.TempDir()
	train, _ := splitHousing(t, dir)
	model, plot := filepath.Join(dir, "m.json"), filepath.Join(dir, "p.svg")
	out := []string{"-train", train, "-model", model, "-plot", plot}
	nys := append([]string{"fit", "-method", "nystrom", "-centers", "20"}, out...)
	wantBadInput(t, nil, []invocation{
		{append(nys, "-sigma", "auto", "-lambdas", "0:1:3"), `-lambdas "0:1:3": want 0 < MIN ≤ MAX ≤ 1e300 and a whole COUNT ≥ 1`},
		{append(nys, "-lambda", "auto", "-sigmas", "-1:1:3"), `-sigmas "-1:1:3": want 0 < MIN`},
		{append(nys, "-lambda", "auto", "-sigmas", "0:1:3"), `-sigmas "0:1:3"`},
		{append(nys, "-sigma", "auto", "-lambdas", "1e-3:1:0"), `-lambdas "1e-3:1:0"`},
		{append(nys, "-sigma", "auto", "-lambdas", "1:1e-3:4"), `-lambdas "1:1e-3:4"`},
		{append(nys, "-sigma", "auto", "-lambdas", "1e-3:1"), `want MIN:MAX:COUNT`},
		{append(nys, "-sigma", "auto", "-lambdas", "a:1:3"), `-lambdas "a:1:3"`},
		{append(nys, "-sigma", "sometimes", "-lambda", "1"), `invalid value "sometimes" for flag -sigma: parse error`},
		{append(nys, "-sigma", "2", "-sigmas", "1:2:3", "-lambda", "1"), "-sigma 2 and -sigmas: give one"},
		{append(nys, "-lambda", "1", "-lambdas", "1:2:3"), "-lambda 1 and -lambdas: give one"},
		{append(nys, "-sigma", "auto", "-lambda", "auto", "-criterion", "aic"), `-criterion "aic": want loo or gcv`},
		{append(nys, "-sigma", "auto", "-lambda", "auto", "-criterion", "gcv", "-loo-rows", "5"), "not used by -criterion gcv"},
		{append(nys, "-sigma", "auto", "-lambda", "auto", "-loo-rows", "-5"), "-loo-rows -5"},
		{append(nys, "-sigma", "auto", "-lambda", "auto", "-loo-rows", "some"), `invalid value "some" for flag -loo-rows: parse error`},
		{append(nys, "-sigma", "auto", "-lambda", "auto", "-loo-rows", "2.5"), "-loo-rows 2.5: want a whole number"},
		{append(nys, "-sigma", "auto", "-lambda", "auto", "-loo-rows", "NaN"), "-loo-rows NaN: want a whole number"},
		{append(nys, "-lambda", "1", "-criterion", "gcv"), "give -sigma auto or -lambda auto"},
		{append(nys, "-lambda", "1"), "-plot is for a selection: give -sigma auto or -lambda auto"},
		{append(nys, "-sigma", "auto", "-lambda", "auto", "-kernel", "polynomial"), "the polynomial kernel has no width"},
		{append([]string{"fit", "-method", "tsvd", "-sigma", "auto", "-lambda", "1"}, "-train", train), "-sigma auto is offered by -method cholesky, eigen, nystrom and falkon"},
		{append([]string{"fit", "-method", "tikh", "-sigma", "1", "-lambda", "auto"}, "-train", train), "-lambda auto is offered by"},
		{append([]string{"classify", "-method", "svm", "-sigma", "auto", "-lambda", "1"}, "-train", train), "-sigma auto is offered by -method rls, nystrom and falkon"},
		{append([]string{"classify", "-method", "nystrom", "-sigma", "auto", "-lambda", "auto"}, "-train", train), "-centers is required by -method nystrom"},
		{append([]string{"classify", "-method", "nystrom", "-centers", "5"}, "-train", train), "-lambda is required by -method nystrom: λ of (K + nλI)c = y has no default; -sigma auto -lambda auto"},
		{append([]string{"loo", "-sigma", "auto"}, "-train", train), "-sigma auto: loo takes a number"},
		{append(nys, "-sigma", "auto", "-lambda", "auto", "-plot", model), "are the same file"},
	})
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("the refused runs left files behind: %v", entries)
	}
}

// TestSelectionOutputs: -sigma auto with a number for -lambda; the JSON
// fields of both commands; the text table; the plot, one curve per σ with
// the chosen point circled; the model, which rkhs predict reads back to
// the same predictions.
func TestSelectionOutputs(t *testing.T) {
	dir := t.TempDir()
	train, test := splitHousing(t, dir)
	heart, heartTest := splitSet(t, dir, "heart", "", 0)
	model, plot, pfit, ppred := filepath.Join(dir, "m.json"), filepath.Join(dir, "p.svg"), filepath.Join(dir, "p1"), filepath.Join(dir, "p2")
	for _, c := range []struct {
		args   []string
		fields []string
		sigmas int
	}{
		{[]string{"fit", "-train", train, "-test", test, "-method", "nystrom", "-centers", "50", "-sigma", "auto", "-lambda", "1e-4"},
			[]string{"sigma", "lambda", "loo_mse", "test_mse", "fit_seconds", "median_distance", "table"}, 5},
		{[]string{"fit", "-train", train, "-test", test, "-method", "cholesky", "-sigma", "3", "-lambda", "auto", "-lambdas", "1e-6:1e-2:5"},
			[]string{"sigma", "lambda", "loo_mse", "test_mse", "fit_seconds", "table"}, 1},
		{[]string{"classify", "-train", heart, "-test", heartTest, "-method", "nystrom", "-centers", "40", "-sigma", "auto", "-lambda", "auto"},
			[]string{"sigma", "lambda", "loo_error", "test_accuracy", "fit_seconds", "median_distance", "table"}, 5},
		{[]string{"classify", "-train", heart, "-test", heartTest, "-method", "rls", "-sigmas", "1:4:3", "-lambda", "auto"},
			[]string{"sigma", "lambda", "loo_error", "test_accuracy", "fit_seconds", "table"}, 3},
	} {
		args := append(append([]string(nil), c.args...), "-model", model, "-plot", plot, "-predictions", pfit)
		res, _ := runJSON(t, args...)
		for _, f := range c.fields {
			if v, ok := res[f]; !ok || v == nil {
				t.Errorf("%v: field %s missing in %v", c.args, f, res)
			}
		}
		if len(res["table"].(map[string]any)["sigmas"].([]any)) != c.sigmas {
			t.Errorf("%v: table of %v σ, want %d", c.args, res["table"].(map[string]any)["sigmas"], c.sigmas)
		}
		svg, _ := os.ReadFile(plot)
		if strings.Count(string(svg), "<polyline") != c.sigmas || strings.Count(string(svg), "<circle") != 1 {
			t.Errorf("%v: the plot has %d curves and %d circles, want %d and 1", c.args, strings.Count(string(svg), "<polyline"), strings.Count(string(svg), "<circle"), c.sigmas)
		}
		data := test
		if c.args[0] == "classify" {
			data = heartTest
		}
		if code, _, e := runCmd("predict", "-model", model, "-data", data, "-predictions", ppred); code != 0 {
			t.Fatalf("%v: predict: exit %d: %s", c.args, code, e)
		}
		a, _ := os.ReadFile(pfit)
		b, _ := os.ReadFile(ppred)
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("%v: the saved model predicts otherwise than the fit", c.args)
		}
		// The text form: a row per λ, a column per σ, one pair starred.
		code, out, e := runCmd(c.args...)
		lambdas := len(res["table"].(map[string]any)["lambdas"].([]any))
		if code != 0 || strings.Count(out, "\nλ=") != lambdas || strings.Count(out, "*") != 1 || !strings.Contains(out, "chosen σ = ") {
			t.Errorf("%v: exit %d (%s), text %q: want %d rows of λ and one starred pair", c.args, code, e, out, lambdas)
		}
	}
}
