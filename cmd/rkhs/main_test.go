package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"rkhs/internal/cli"
	"strconv"
	"strings"
	"testing"

	"rkhs/datasets"
	"rkhs/linalg"
)

// splitHousing writes the housing data to train and test files in dir, rows
// i%3 == 2 to the test file (the split of regress/testdata/housing_ref.py).
func splitHousing(t *testing.T, dir string) (train, test string) {
	raw, err := datasets.Raw("housing")
	if err != nil {
		t.Fatal(err)
	}
	var tr, te strings.Builder
	for i, line := range strings.Split(strings.TrimRight(string(raw), "\n"), "\n") {
		if i%3 == 2 {
			te.WriteString(line + "\n")
		} else {
			tr.WriteString(line + "\n")
		}
	}
	train, test = filepath.Join(dir, "train"), filepath.Join(dir, "test")
	if err := os.WriteFile(train, []byte(tr.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(test, []byte(te.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return train, test
}

func runCmd(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = run(args, &o, &e)
	return code, o.String(), e.String()
}

// TestFitHousing: the test MSE of the three intercept modes matches the
// NumPy reference (regress/testdata/housing_ref.txt) to 1e-9 relative.
func TestFitHousing(t *testing.T) {
	dir := t.TempDir()
	train, test := splitHousing(t, dir)
	want := map[string]float64{"none": 19.255853858164045, "free": 16.346093354248719, "penalized": 16.366751619968575}
	for ic, ref := range want {
		code, out, errOut := runCmd("fit", "-train", train, "-test", test, "-kernel", "gaussian", "-sigma", "1", "-lambda", "1e-4", "-intercept", ic, "-method", "cholesky", "-json")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", ic, code, errOut)
		}
		var res map[string]any
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatalf("%s: %v in %q", ic, err, out)
		}
		for _, k := range []string{"n_train", "n_test", "lambda", "b", "train_mse", "test_mse", "fit_seconds"} {
			if _, ok := res[k]; !ok {
				t.Errorf("%s: JSON lacks %q: %s", ic, k, out)
			}
		}
		if got := res["test_mse"].(float64); math.Abs(got-ref) > 1e-9*ref {
			t.Errorf("%s: test_mse %v, NumPy reference %v", ic, got, ref)
		}
		if res["n_train"].(float64) != 338 || res["n_test"].(float64) != 168 {
			t.Errorf("%s: n_train %v n_test %v", ic, res["n_train"], res["n_test"])
		}
	}
}

// TestFitPredictRoundTrip: predictions written by fit equal those of
// predict on the saved model, bit for bit (%.17g is exact).
func TestFitPredictRoundTrip(t *testing.T) {
	dir := t.TempDir()
	train, test := splitHousing(t, dir)
	model, pfit, ppred := filepath.Join(dir, "m.json"), filepath.Join(dir, "p1"), filepath.Join(dir, "p2")
	for _, method := range [][]string{{"-method", "cholesky", "-kernel", "laplacian", "-sigma", "3"}, {"-method", "nystrom", "-centers", "50", "-kernel", "polynomial", "-degree", "3"}} {
		args := append([]string{"fit", "-train", train, "-test", test, "-lambda", "1e-3", "-model", model, "-predictions", pfit}, method...)
		if code, _, e := runCmd(args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", method, code, e)
		}
		if code, _, e := runCmd("predict", "-model", model, "-data", test, "-predictions", ppred); code != 0 {
			t.Fatalf("predict: exit %d: %s", code, e)
		}
		a, _ := os.ReadFile(pfit)
		b, _ := os.ReadFile(ppred)
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("%v: fit and predict wrote different predictions", method)
		}
		if lines := strings.Count(string(a), "\n"); lines != 168 {
			t.Errorf("%d prediction lines, want 168", lines)
		}
		first := strings.SplitN(string(a), "\n", 2)[0]
		if v, err := strconv.ParseFloat(first, 64); err != nil || strconv.FormatFloat(v, 'g', 17, 64) != first {
			t.Errorf("prediction %q is not %%.17g", first)
		}
	}
}

// invocation is a command line and a phrase its one-line error must
// contain ("" for any).
type invocation struct {
	args []string
	msg  string
}

// wantBadInput runs prefix + args of every invocation and requires exit
// status 2 and one line on standard error containing msg.
func wantBadInput(t *testing.T, prefix []string, cases []invocation) {
	t.Helper()
	for _, tc := range cases {
		code, _, e := runCmd(append(append([]string(nil), prefix...), tc.args...)...)
		if code != 2 {
			t.Errorf("%v: exit %d, want 2 (stderr %q)", tc.args, code, e)
		}
		if tc.msg != "" && (!strings.Contains(e, tc.msg) || strings.Count(e, "\n") != 1) {
			t.Errorf("%v: stderr %q, want one line containing %q", tc.args, e, tc.msg)
		}
	}
}

// badFile writes a LIBSVM file whose line 2 does not parse.
func badFile(t *testing.T, dir string) string {
	t.Helper()
	bad := filepath.Join(dir, "bad")
	if err := os.WriteFile(bad, []byte("1 1:0.5\n2 3:x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return bad
}

// TestBadInvocations: one-line errors, exit status 2, no output files.
func TestBadInvocations(t *testing.T) {
	dir := t.TempDir()
	train, test := splitHousing(t, dir)
	bad := badFile(t, dir)
	model := filepath.Join(dir, "never.json")
	wantBadInput(t, nil, []invocation{
		{[]string{}, ""},
		{[]string{"frobnicate"}, "unknown command"},
		{[]string{"fit"}, "-train is required"},
		{[]string{"fit", "-train", train, "-bogus"}, "not defined"},
		{[]string{"fit", "-train", filepath.Join(dir, "missing"), "-lambda", "1"}, filepath.Join(dir, "missing")}, // names the file; the OS wording varies
		{[]string{"fit", "-train", bad, "-lambda", "1"}, "line 2"},
		{[]string{"fit", "-train", train, "-lambda", "0", "-model", model}, "-lambda 0: want λ > 0"},
		{[]string{"fit", "-train", train, "-lambda", "1", "-kernel", "rbf"}, "unknown kernel"},
		{[]string{"fit", "-train", train, "-lambda", "1", "-sigma", "-2"}, "Sigma: -2"},
		{[]string{"fit", "-train", train, "-lambda", "1", "-intercept", "maybe"}, "-intercept"},
		{[]string{"fit", "-train", train, "-lambda", "1", "-method", "magic"}, "-method"},
		{[]string{"fit", "-train", train, "-lambda", "1", "-method", "nystrom", "-centers", "0"}, "-centers 0: must be between 1 and the 338 rows"},
		{[]string{"fit", "-train", train, "-lambda", "1", "-predictions", "p"}, "needs -test"},
		{[]string{"fit", "-train", train, "-test", bad, "-lambda", "1", "-model", model}, "line 2"},
		{[]string{"predict", "-model", train, "-data", test}, "model"},
	})
	if _, err := os.Stat(model); !os.IsNotExist(err) {
		t.Errorf("a failed fit wrote %s", model)
	}
}

// TestComputeFailure: an indefinite problem exits with status 1.
func TestComputeFailure(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "dup")
	// Two identical points and the linear kernel: K is singular, and a tiny
	// λ leaves K + nλI numerically indefinite.
	os.WriteFile(path, []byte("1 1:1e8\n2 1:1e8\n"), 0o644)
	code, _, e := runCmd("fit", "-train", path, "-kernel", "linear", "-lambda", "1e-300", "-intercept", "none")
	if code != 1 || !strings.Contains(e, "not positive definite") {
		t.Errorf("exit %d, stderr %q; want 1 and a positive-definiteness error", code, e)
	}
}

func TestCSVInput(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "d.csv")
	os.WriteFile(path, []byte("a,b,y\n0,0,1\n1,0,2\n0,1,3\n1,1,4\n"), 0o644)
	code, out, e := runCmd("fit", "-train", path, "-kernel", "linear", "-lambda", "1e-9", "-json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, e)
	}
	var res map[string]any
	json.Unmarshal([]byte(out), &res)
	if res["n_train"].(float64) != 4 || res["features"].(float64) != 2 || res["train_mse"].(float64) > 1e-12 {
		t.Errorf("CSV fit: %s", out)
	}
}

// TestExitStatus: cli.Status is the one mapping of errors to the exit
// status: 2 for bad flags, files and arguments, 1 for a computation that
// fails on valid input — here a λ at which the leave-one-out system is
// singular, which exited 2 before.
func TestExitStatus(t *testing.T) {
	dir := t.TempDir()
	train, _ := splitHousing(t, dir)
	bad := badFile(t, dir)
	zero := filepath.Join(dir, "zero")
	os.WriteFile(zero, []byte("1 1:0\n-2 1:0\n3 1:0\n"), 0o644)
	same := filepath.Join(dir, "same")
	os.WriteFile(same, []byte("1 1:1e8\n2 1:1e8\n"), 0o644)
	for _, tc := range []struct {
		name string
		args []string
		want int
	}{
		{"bad flag", []string{"fit", "-train", train, "-bogus"}, 2},
		{"bad flag value", []string{"loo", "-train", train, "-lambdas", "1:0:3"}, 2},
		{"missing file", []string{"loo", "-train", filepath.Join(dir, "missing")}, 2},
		{"bad file", []string{"fit", "-train", bad, "-lambda", "1"}, 2},
		{"argument the library rejects", []string{"fit", "-train", train, "-method", "cg", "-iters", "0"}, 2},
		{"singular leave-one-out system", []string{"loo", "-train", zero, "-kernel", "linear", "-lambdas", "1e-300:1e-300:1", "-intercept", "penalized"}, 1},
		{"singular fit", []string{"fit", "-train", same, "-kernel", "linear", "-lambda", "1e-300", "-intercept", "none"}, 1},
	} {
		if code, _, e := runCmd(tc.args...); code != tc.want {
			t.Errorf("%s: exit %d (%s), want %d", tc.name, code, strings.TrimSpace(e), tc.want)
		}
	}
	for _, tc := range []struct {
		err  error
		want int
	}{
		{nil, 0},
		{cli.ErrHelp, 0},
		{cli.BadInputf("-x"), 2},
		{fmt.Errorf("wrapped: %w", &linalg.InputError{Op: "Op", Arg: "a", Reason: "r"}), 2},
		{fmt.Errorf("wrapped: %w", linalg.ErrNotPositiveDefinite), 1},
		{fmt.Errorf("wrapped: %w", linalg.ErrNoConvergence), 1},
	} {
		if got := cli.Status(tc.err); got != tc.want {
			t.Errorf("cli.Status(%v) = %d, want %d", tc.err, got, tc.want)
		}
	}
}

// TestFalkonCommand: -method falkon fits and classifies, prints a progress
// line per iteration on stderr (with the validation error under -val),
// and rejects -val elsewhere and bad fractions.
func TestFalkonCommand(t *testing.T) {
	dir := t.TempDir()
	train := filepath.Join(dir, "train.csv")
	var b strings.Builder
	for i := range 400 {
		x := float64(i) / 400
		fmt.Fprintf(&b, "%g,%g\n", x, math.Sin(6*x))
	}
	if err := os.WriteFile(train, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	args := []string{"fit", "-train", train, "-kernel", "gaussian", "-sigma", "0.2", "-lambda", "1e-6", "-method", "falkon", "-centers", "30", "-iters", "4", "-val", "0.25", "-json"}
	if code := run(args, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	lines := strings.Split(strings.TrimSpace(errs.String()), "\n")
	if len(lines) != 4 || !strings.HasPrefix(lines[3], "iter   4") || !strings.Contains(lines[3], "validation MSE") {
		t.Errorf("progress lines %q, want 4 with the validation MSE", lines)
	}
	var res result
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatal(err)
	}
	if mse, ok := res.TrainMSE.(float64); res.Iterations != 4 || res.Centers != 30 || res.NVal != 100 || res.NTrain != 300 || !ok || mse > 0.01 {
		t.Errorf("result %+v", res)
	}
	for _, bad := range [][]string{
		{"fit", "-train", train, "-lambda", "1e-6", "-val", "0.2"},
		{"fit", "-train", train, "-lambda", "1e-6", "-method", "falkon", "-centers", "30", "-val", "1"},
		{"classify", "-train", train, "-method", "falkon", "-centers", "30"},
	} {
		errs.Reset()
		if code := run(bad, &out, &errs); code != 2 {
			t.Errorf("%q: exit %d, want 2 (%s)", bad, code, errs.String())
		}
	}
}
