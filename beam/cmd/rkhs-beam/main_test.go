package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"rkhs/dataset"
)

// TestMain runs the command itself when the test binary is started by
// rkhsBeam (flag.CommandLine can be parsed once per process, and Beam's
// flags are registered on it).
func TestMain(m *testing.M) {
	if args := os.Getenv("RKHS_BEAM_ARGS"); args != "" {
		os.Args = append([]string{"rkhs-beam"}, strings.Split(args, "\x1f")...)
		main()
		os.Exit(0)
	}
	code := m.Run()
	if rkhsBuild.dir != "" {
		os.RemoveAll(rkhsBuild.dir)
	}
	os.Exit(code)
}

// rkhsBuild is rkhs built from its source for the tests that compare the
// two commands, once per test binary.
var rkhsBuild struct {
	once      sync.Once
	dir, path string
	err       error
}

// rkhsCommand returns the path of rkhs built from its source by the go
// command; the test is skipped without one, and in -short mode.
func rkhsCommand(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds rkhs")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build rkhs with")
	}
	rkhsBuild.once.Do(func() {
		if rkhsBuild.dir, rkhsBuild.err = os.MkdirTemp("", "rkhs-beam-test-"); rkhsBuild.err != nil {
			return
		}
		rkhsBuild.path = filepath.Join(rkhsBuild.dir, "rkhs")
		if out, err := exec.Command(goTool, "build", "-o", rkhsBuild.path, "rkhs/cmd/rkhs").CombinedOutput(); err != nil {
			rkhsBuild.err = fmt.Errorf("go build rkhs/cmd/rkhs: %v\n%s", err, out)
		}
	})
	if rkhsBuild.err != nil {
		t.Fatal(rkhsBuild.err)
	}
	return rkhsBuild.path
}

// ran is what a run of a command wrote.
type ran struct{ stdout, stderr string }

// runBoth runs rkhs with rkhsArgs and rkhs-beam with beamArgs, both in
// dir, and returns what each wrote; either exiting other than 0 fails the
// test.
func runBoth(t *testing.T, dir string, rkhsArgs, beamArgs []string) (r, b ran) {
	t.Helper()
	cmd := exec.Command(rkhsCommand(t), rkhsArgs...)
	cmd.Dir = dir
	var outb, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &outb, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("rkhs %s: %v: %s", strings.Join(rkhsArgs, " "), err, errb.String())
	}
	code, stdout, stderr := rkhsBeamStreams(t, dir, beamArgs...)
	if code != 0 {
		t.Fatalf("rkhs-beam %s: exit %d: %s", strings.Join(beamArgs, " "), code, stderr)
	}
	return ran{outb.String(), errb.String()}, ran{stdout, stderr}
}

// rkhsBeam runs rkhs-beam with args in dir and returns its exit status
// and its output (standard error, then standard output).
func rkhsBeam(t *testing.T, dir string, args ...string) (int, string) {
	t.Helper()
	code, stdout, stderr := rkhsBeamStreams(t, dir, args...)
	return code, stderr + stdout
}

// rkhsBeamStreams runs rkhs-beam with args in dir and returns its exit
// status, its standard output and its standard error.
func rkhsBeamStreams(t *testing.T, dir string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "RKHS_BEAM_ARGS="+strings.Join(args, "\x1f"))
	var errb, outb bytes.Buffer
	cmd.Stderr, cmd.Stdout = &errb, &outb
	err = cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, outb.String(), errb.String()
}

// TestCommandLine: what the command says and its exit status, for a
// success and for each command line that cannot run; the latter are
// refused before any job, in one line (or a short usage), and create no
// file.
func TestCommandLine(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// y = x0 + 2·x1 in the last column, as rkhs reads CSV by default.
	var sb strings.Builder
	for i := 0; i < 40; i++ {
		x0, x1, x2 := float64(i%7)/7, float64(i%5)/5, float64(i%3)/3
		sb.WriteString(strings.Join([]string{f(x0), f(x1), f(x2), f(x0 + 2*x1)}, ",") + "\n")
	}
	write("train.csv", sb.String())
	write("narrow.csv", "0,1,2\n0,3,4\n")
	write("bad.csv", "a,b,c,d\n1,x,2,3\n")
	os.Mkdir(filepath.Join(dir, "out"), 0o755)
	fit := []string{"fit", "-input", "train.csv", "-format", "csv", "-kernel", "linear", "-lambda", "1e-9", "-centers", "10"}
	with := func(extra ...string) []string { return append(append([]string{}, fit...), extra...) }

	for _, tc := range []struct {
		name  string
		args  []string
		code  int
		first string
		lines int // at most
	}{
		{"success", with("-model", "m.json"), 0, "rkhs-beam fit: 40 rows read; model written to m.json", 1},
		{"unknown flag", with("-nosuch", "1"), 2, "flag provided but not defined: -nosuch", 3},
		{"extra argument", with("-model", "x.json", "extra"), 2, `rkhs-beam fit: unexpected argument "extra"`, 3},
		{"unknown runner", with("-model", "x.json", "-runner", "nosuch"), 2, `rkhs-beam fit: -runner "nosuch": want prism`, 1},
		{"model is a directory", with("-model", "out"), 2, "rkhs-beam fit: -model out: is a directory", 1},
		{"model in no directory", with("-model", "nodir/m.json"), 2, "rkhs-beam fit: -model nodir/m.json: the directory nodir does not exist", 1},
		{"no model", with(), 2, "rkhs-beam fit: -model is required", 1},
		{"bad comma", with("-model", "x.json", "-comma", ";;"), 2, `rkhs-beam fit: -comma ";;"`, 1},
		{"centres twice", with("-model", "x.json", "-centers-file", "narrow.csv"), 2, "rkhs-beam fit: rkhsbeam: invalid options: FitOptions: Centers: 10 with a centres file", 1},
		{"centres of another width", []string{"fit", "-input", "train.csv", "-format", "csv", "-sigma", "1", "-lambda", "1e-3", "-centers-file", "narrow.csv", "-model", "x.json"}, 1,
			"the centres file narrow.csv has 2 features, train.csv has 3", 1},
		{"every line malformed", []string{"fit", "-input", "bad.csv", "-format", "csv", "-header", "no", "-sigma", "1", "-lambda", "1e-3", "-centers", "1", "-dead-letter", "dead.txt", "-model", "x.json"}, 1,
			"rkhs-beam fit: no row could be read: 2 malformed lines, set aside in dead.txt; no model written", 1},
		{"solve without model", []string{"solve", "-stats", "s.bin", "-lambda", "1"}, 2, "rkhs-beam solve: -stats and -model are required", 1},
		{"predict into no directory", []string{"predict", "-input", "train.csv", "-format", "csv", "-model", "m.json", "-output", "nodir"}, 2, "rkhs-beam predict: -output nodir: not a directory", 1},
	} {
		code, out := rkhsBeam(t, dir, tc.args...)
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if code != tc.code || !strings.Contains(lines[0], tc.first) || len(lines) > tc.lines {
			t.Errorf("%s: exit %d, %d lines starting %q; want exit %d, at most %d lines, the first with %q", tc.name, code, len(lines), lines[0], tc.code, tc.lines, tc.first)
		}
	}
	for _, name := range []string{"x.json", "nodir"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			t.Errorf("a refused command line created %s", name)
		}
	}
	if b, err := os.ReadFile(filepath.Join(dir, "dead.txt")); err != nil || strings.Count(string(b), "\n") != 2 {
		t.Errorf("dead letters of a job of malformed lines: %q (%v)", b, err)
	}

	// The label is the last column by default, as in rkhs: the linear fit
	// recovers y = x0 + 2·x1 and predicts it, in rkhs predict's format.
	code, out := rkhsBeam(t, dir, "predict", "-input", "train.csv", "-format", "csv", "-model", "m.json", "-output", "out")
	if code != 0 || !strings.HasPrefix(out, "rkhs-beam predict: 40 rows read") {
		t.Fatalf("predict: exit %d: %s", code, out)
	}
	pred, _ := os.ReadFile(filepath.Join(dir, "out", "train.csv.pred"))
	data, err := dataset.ReadCSV(strings.NewReader(sb.String()), dataset.CSVOptions{LabelCol: -1})
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(strings.TrimSpace(string(pred)), "\n") {
		var v float64
		if _, err := fmt.Sscan(l, &v); err != nil || l != fmt.Sprintf("%.17g", v) {
			t.Fatalf("line %d: %q is not a %%.17g number", i+1, l)
		}
		if d := v - data.Y[i]; d > 1e-6 || d < -1e-6 {
			t.Fatalf("row %d: predicted %v, the last column is %v", i, v, data.Y[i])
		}
	}

	// -h shows the command's flags and the label's default, not Beam's.
	code, out = rkhsBeam(t, dir, "fit", "-h")
	if code != 0 || !strings.Contains(out, "(default -1)") || strings.Contains(out, "-environment_config") {
		t.Errorf("fit -h: exit %d:\n%s", code, out)
	}
}

// TestSelectCommand: rkhs-beam select on two files prints the table with
// the chosen pair starred, the same choice with -json, and writes the
// model; bad grids and criteria are refused before any job in one line,
// with exit status 2, and create no file.
func TestSelectCommand(t *testing.T) {
	dir := t.TempDir()
	// y = sin(3·x0) + x1² over two files, the label in the last column.
	for k, name := range []string{"a.csv", "b.csv"} {
		var sb strings.Builder
		for i := 0; i < 60; i++ {
			x0, x1 := float64((7*i+k)%61)/30-1, float64((11*i+3*k)%53)/26-1
			sb.WriteString(f(x0) + "," + f(x1) + "," + f(math.Sin(3*x0)+x1*x1) + "\n")
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(sb.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sel := []string{"select", "-input", "a.csv,b.csv", "-format", "csv", "-centers", "15", "-sigmas", "0.25:4:5", "-lambdas", "1e-8:1e-1:8"}
	with := func(extra ...string) []string { return append(append([]string{}, sel...), extra...) }

	code, out := rkhsBeam(t, dir, with("-model", "m.json")...)
	if code != 0 || !strings.Contains(out, "rkhs-beam select: 120 rows read; σ = ") || strings.Count(out, "*") != 1 || !strings.Contains(out, "chosen σ = ") {
		t.Fatalf("select: exit %d:\n%s", code, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "m.json")); err != nil {
		t.Errorf("no model written: %v", err)
	}
	code, js := rkhsBeam(t, dir, with("-model", "m2.json", "-json")...)
	var got struct {
		Sigma, Lambda float64
		LOOMSE        float64 `json:"loo_mse"`
		Table         struct{ Scores [][]float64 }
		Tables        map[string][][]float64
	}
	got.LOOMSE = math.NaN()
	if i := strings.Index(js, "{"); code != 0 || i < 0 || json.Unmarshal([]byte(js[i:]), &got) != nil || len(got.Table.Scores) != 5 || len(got.Table.Scores[0]) != 8 ||
		!(got.LOOMSE > 0) || len(got.Tables["gcv"]) != 5 || len(got.Tables["df"]) != 5 || len(got.Tables["loo_mse"]) != 5 {
		t.Errorf("select -json: exit %d:\n%s", code, js)
	} else if want := fmt.Sprintf("σ = %.4g, λ = %.4g", got.Sigma, got.Lambda); !strings.Contains(out, want) {
		t.Errorf("select -json chose %s, the table run:\n%s", want, out)
	}

	// σ around the median distance (standardized by default), classes:
	// the table of the error rate and a classifier that predict reads.
	var cb strings.Builder
	for i := 0; i < 90; i++ {
		x0, x1 := float64((7*i)%61)/30-1, float64((11*i)%53)/2.6-10
		label := "1"
		if x0*x0+x1*x1/100 > 0.5 {
			label = "2"
		}
		cb.WriteString(f(x0) + "," + f(x1) + "," + label + "\n")
	}
	if err := os.WriteFile(filepath.Join(dir, "c.csv"), []byte(cb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out = rkhsBeam(t, dir, "select", "-input", "c.csv", "-format", "csv", "-centers", "12", "-lambdas", "1e-8:1e-1:8", "-classes", "-model", "c.json")
	if code != 0 || !strings.Contains(out, "loo_error") || !strings.Contains(out, "(median distance ") || strings.Count(out, "*") != 1 {
		t.Errorf("select -classes without -sigmas: exit %d:\n%s", code, out)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "c.json")); err != nil || !strings.Contains(string(b), `"rkhs.classify.RLSModel"`) || !strings.Contains(string(b), `"standardization"`) {
		t.Errorf("select -classes: the model file is not a standardized classifier: %v\n%.300s", err, b)
	}
	os.Mkdir(filepath.Join(dir, "pred"), 0o755)
	if code, out := rkhsBeam(t, dir, "predict", "-input", "c.csv", "-format", "csv", "-model", "c.json", "-output", "pred"); code != 0 {
		t.Errorf("predict with the classifier select wrote: exit %d:\n%s", code, out)
	} else if b, err := os.ReadFile(filepath.Join(dir, "pred", "c.csv.pred")); err != nil || strings.Count(string(b), "\n") != 90 || strings.Trim(string(b), "12\n") != "" {
		t.Errorf("predict with the classifier select wrote: %v\n%.200s", err, b)
	}

	// Without -lambdas, rkhs's default λ grid: 51 values from 1e-10 to 1.
	code, out, _ = rkhsBeamStreams(t, dir, "select", "-input", "a.csv", "-format", "csv", "-centers", "5", "-model", "d.json", "-json")
	var dj struct{ Table struct{ Lambdas []float64 } }
	if err := json.Unmarshal([]byte(out), &dj); code != 0 || err != nil || len(dj.Table.Lambdas) != 51 || dj.Table.Lambdas[0] != 1e-10 || dj.Table.Lambdas[50] != 1 {
		t.Errorf("select without -lambdas: exit %d, %v, λ %v; want exit 0 and rkhs's 51 values from 1e-10 to 1:\n%.300s", code, err, dj.Table.Lambdas, out)
	}
	for _, tc := range []struct {
		name  string
		args  []string
		first string
	}{
		{"error rate without classes", with("-criterion", "loo_error", "-model", "x.json"), `-criterion "loo_error": want loo or gcv`},
		{"σ ≤ 0", with("-sigmas", "0:1:3", "-model", "x.json"), `rkhs-beam select: -sigmas "0:1:3": want 0 < MIN ≤ MAX ≤ 1e300 and a whole COUNT ≥ 1`},
		{"λ < 0", with("-lambdas", "-1:1:3", "-model", "x.json"), `rkhs-beam select: -lambdas "-1:1:3": want 0 < MIN`},
		{"λ grid of two parts", with("-lambdas", "1e-3:1", "-model", "x.json"), `rkhs-beam select: -lambdas "1e-3:1": want MIN:MAX:COUNT`},
		{"no count", with("-sigmas", "1:2:0", "-model", "x.json"), `rkhs-beam select: -sigmas "1:2:0"`},
		{"criterion", with("-criterion", "aic", "-model", "x.json"), `rkhs-beam select: -criterion "aic": want loo or gcv`},
		{"kernel", with("-kernel", "linear", "-model", "x.json"), `has no width σ to choose`},
		{"no model", with(), "rkhs-beam select: -model is required"},
	} {
		code, out := rkhsBeam(t, dir, tc.args...)
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if code != 2 || !strings.Contains(lines[0], tc.first) || len(lines) > 1 {
			t.Errorf("%s: exit %d, %d lines starting %q; want exit 2, one line with %q", tc.name, code, len(lines), lines[0], tc.first)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "x.json")); err == nil {
		t.Error("a refused command line created x.json")
	}
}

func f(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// TestHelpNamesVerbs: rkhs-beam -h lists the verbs with their usage,
// exit 0, and none of the runner's flags.
func TestHelpNamesVerbs(t *testing.T) {
	for _, h := range []string{"-h", "-help", "--help"} {
		code, out, _ := rkhsBeamStreams(t, t.TempDir(), h)
		if code != 0 || !strings.HasPrefix(out, "usage: rkhs-beam VERB") || strings.Contains(out, "-dataflow_endpoint") {
			t.Errorf("rkhs-beam %s: exit %d:\n%.300s\nwant exit 0, the verbs first and no runner flags", h, code, out)
		}
		for _, v := range verbs {
			if !strings.Contains(out, "rkhs-beam "+v.name+" ") {
				t.Errorf("rkhs-beam %s: the verb %s is not named:\n%s", h, v.name, out)
			}
		}
	}
}

// TestFitSigmaPointsToSelect: fit takes σ as a number; auto and ard are
// refused with the verb that chooses them.
func TestFitSigmaPointsToSelect(t *testing.T) {
	for _, c := range []struct{ sigma, want string }{{"ard", "select -sigma ard"}, {"auto", "rkhs-beam select chooses σ"}} {
		code, _, e := rkhsBeamStreams(t, t.TempDir(), "fit", "-input", "a.csv", "-format", "csv", "-sigma", c.sigma, "-lambda", "1e-3", "-centers", "5", "-model", "m.json")
		if code != 2 || !strings.Contains(e, c.want) {
			t.Errorf("fit -sigma %s: exit %d, %q; want 2 and %q", c.sigma, code, e, c.want)
		}
	}
}

// runBothJSON is runBoth for -json runs: it decodes rkhs's standard
// output into w and rkhs-beam's into g.
func runBothJSON(t *testing.T, dir string, rkhsArgs, beamArgs []string, w, g any) (r, b ran) {
	t.Helper()
	r, b = runBoth(t, dir, rkhsArgs, beamArgs)
	if err := json.Unmarshal([]byte(r.stdout), w); err != nil {
		t.Fatalf("rkhs %s: %v\n%s", strings.Join(rkhsArgs, " "), err, r.stdout)
	}
	if err := json.Unmarshal([]byte(b.stdout), g); err != nil {
		t.Fatalf("rkhs-beam %s: %v\n%s", strings.Join(beamArgs, " "), err, b.stdout)
	}
	return r, b
}
