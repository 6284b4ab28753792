package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"rkhs/classify"
	"rkhs/datasets"
	"rkhs/kernels"
	"rkhs/regress"
)

// splitSet writes the first rows lines of a bundled set (all when rows is
// 0) to train and test files in dir, with the given extension: lines
// i%3 == 2 to the test file, the others to the training file.
func splitSet(t *testing.T, dir, name, ext string, rows int) (train, test string) {
	t.Helper()
	raw, err := datasets.Raw(name)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(string(raw), "\n"), "\n")
	if rows > 0 {
		lines = lines[:rows]
	}
	var tr, te strings.Builder
	for i, line := range lines {
		if i%3 == 2 {
			te.WriteString(line + "\n")
		} else {
			tr.WriteString(line + "\n")
		}
	}
	train, test = filepath.Join(dir, name+"-train"+ext), filepath.Join(dir, name+"-test"+ext)
	if err := os.WriteFile(train, []byte(tr.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(test, []byte(te.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return train, test
}

// classifyJSON runs rkhs classify with -json and decodes its output.
func classifyJSON(t *testing.T, args ...string) map[string]any {
	t.Helper()
	code, out, errOut := runCmd(append(append([]string{"classify"}, args...), "-json")...)
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, errOut)
	}
	var res map[string]any
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v: %v in %q", args, err, out)
	}
	if strings.Count(out, "\n") != 1 {
		t.Errorf("%v: output is not one line: %q", args, out)
	}
	return res
}

// TestClassifyHeart: every method runs on heart split into files; the JSON
// has the contract's fields, accuracies are fractions, and rls without
// -lambda reports the λ that leave-one-out chose, the same λ and the same
// test accuracy as classify.RLS with Lambda 0 in process.
func TestClassifyHeart(t *testing.T) {
	dir := t.TempDir()
	train, test := splitSet(t, dir, "heart", "", 0)
	for _, tc := range []struct {
		args []string
		min  float64 // a floor on the test accuracy, to catch a broken method
	}{
		{[]string{"-method", "rls", "-sigma", "2"}, 0.75},
		{[]string{"-method", "rls", "-sigma", "2", "-lambda", "1e-3", "-intercept", "penalized"}, 0.75},
		{[]string{"-method", "perceptron", "-sigma", "2", "-iters", "20"}, 0.65},
		{[]string{"-method", "knn", "-sigma", "2", "-k", "7"}, 0.75},
		{[]string{"-method", "logistic", "-sigma", "2", "-lambda", "1e-3", "-iters", "200"}, 0.75},
		{[]string{"-method", "svm", "-kernel", "linear", "-lambda", "1e-2", "-iters", "200"}, 0.75},
	} {
		res := classifyJSON(t, append([]string{"-train", train, "-test", test}, tc.args...)...)
		for _, k := range []string{"method", "kernel", "n_train", "n_test", "features", "classes", "lambda", "train_accuracy", "test_accuracy", "fit_seconds"} {
			if _, ok := res[k]; !ok {
				t.Errorf("%v: JSON lacks %q", tc.args, k)
			}
		}
		if res["n_train"] != 180.0 || res["n_test"] != 90.0 || res["method"] != tc.args[1] {
			t.Errorf("%v: n_train %v, n_test %v, method %v; want 180, 90, %s", tc.args, res["n_train"], res["n_test"], res["method"], tc.args[1])
		}
		if c, _ := res["classes"].([]any); len(c) != 2 || c[0] != -1.0 || c[1] != 1.0 {
			t.Errorf("%v: classes %v, want [-1 1]", tc.args, res["classes"])
		}
		if a, ok := res["train_accuracy"].(float64); !ok || a < 0 || a > 1 {
			t.Errorf("%v: train_accuracy %v, want a fraction", tc.args, res["train_accuracy"])
		}
		if a, ok := res["test_accuracy"].(float64); !ok || a < 0 || a > 1 || math.Abs(a*90-math.Round(a*90)) > 1e-9 {
			t.Errorf("%v: test_accuracy %v, want a fraction of the 90 test rows", tc.args, res["test_accuracy"])
		}
		if a := res["test_accuracy"].(float64); a < tc.min {
			t.Errorf("%v: test accuracy %.3f, want ≥ %.2f", tc.args, a, tc.min)
		}
		wantLambda := tc.args[1] == "rls" || tc.args[1] == "logistic" || tc.args[1] == "svm"
		if _, isNum := res["lambda"].(float64); isNum != wantLambda {
			t.Errorf("%v: lambda %v", tc.args, res["lambda"])
		}
	}

	// rls without -lambda: the command reports the λ chosen in process.
	res := classifyJSON(t, "-train", train, "-test", test, "-method", "rls", "-sigma", "2")
	trd, _, _ := (&dataFlags{}).readData(train)
	ted, _, _ := (&dataFlags{}).readData(test)
	m, err := classify.RLS{Kernel: kernels.Gaussian{Sigma: 2}, ChooseLambda: true, Intercept: regress.FreeIntercept}.Fit(&trd.X, trd.Y)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := m.Predict(&ted.X)
	acc, _ := classify.Accuracy(ted.Y, p)
	if res["lambda"] != m.Lambda || res["lambda_by_loo"] != true || res["test_accuracy"] != acc {
		t.Errorf("rls without -lambda: λ %v (by LOO %v), test accuracy %v; in process λ %v, accuracy %v", res["lambda"], res["lambda_by_loo"], res["test_accuracy"], m.Lambda, acc)
	}
	if e, ok := res["loo_error"].(float64); !ok || e < 0 || e > 1 {
		t.Errorf("loo_error %v, want a fraction", res["loo_error"])
	}

	// The given grid is the one searched.
	res = classifyJSON(t, "-train", train, "-method", "rls", "-sigma", "2", "-lambdas", "1e-2:1e-1:2")
	if l := res["lambda"]; l != 1e-2 && l != 1e-1 {
		t.Errorf("-lambdas 1e-2:1e-1:2 chose λ = %v", l)
	}
	// Without -test: test_accuracy is null and n_test 0.
	if res["test_accuracy"] != nil || res["n_test"] != 0.0 {
		t.Errorf("without -test: test_accuracy %v, n_test %v; want null and 0", res["test_accuracy"], res["n_test"])
	}
}

// TestClassifyPredictions: -predictions writes one label per test row,
// and they give the reported test accuracy.
func TestClassifyPredictions(t *testing.T) {
	dir := t.TempDir()
	train, test := splitSet(t, dir, "heart", "", 0)
	out := filepath.Join(dir, "labels")
	res := classifyJSON(t, "-train", train, "-test", test, "-method", "knn", "-k", "3", "-predictions", out)
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var pred []float64
	for _, s := range strings.Fields(string(b)) {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatal(err)
		}
		pred = append(pred, v)
	}
	ted, _, _ := (&dataFlags{}).readData(test)
	acc, _ := classify.Accuracy(ted.Y, pred)
	if len(pred) != 90 || acc != res["test_accuracy"] {
		t.Errorf("%d predicted labels, accuracy %v; want 90 and %v", len(pred), acc, res["test_accuracy"])
	}
}

// TestClassifyMulticlass: rls is one-vs-all on digits (CSV, labels 0…9);
// the binary-only methods refuse ten classes with exit status 2.
func TestClassifyMulticlass(t *testing.T) {
	dir := t.TempDir()
	train, test := splitSet(t, dir, "digits", ".csv", 450)
	res := classifyJSON(t, "-train", train, "-test", test, "-method", "rls", "-sigma", "30")
	if c, _ := res["classes"].([]any); len(c) != 10 {
		t.Errorf("classes %v, want the ten digits", res["classes"])
	}
	if a := res["test_accuracy"].(float64); a < 0.9 {
		t.Errorf("digits (450 rows) rls test accuracy %.3f, want ≥ 0.9", a)
	}
	code, _, e := runCmd("classify", "-train", train, "-method", "svm", "-lambda", "1e-3")
	if code != 2 || !strings.Contains(e, "binary only") || strings.Count(e, "\n") != 1 {
		t.Errorf("svm on ten classes: exit %d, stderr %q; want 2 and one line saying binary only", code, e)
	}
}

// TestClassifyBadInvocations: one-line errors, exit status 2, no output
// file.
func TestClassifyBadInvocations(t *testing.T) {
	dir := t.TempDir()
	train, _ := splitSet(t, dir, "heart", "", 0)
	bad := badFile(t, dir)
	out := filepath.Join(dir, "never")
	wantBadInput(t, []string{"classify"}, []invocation{
		{[]string{}, "-train is required"},
		{[]string{"-train", train, "-bogus"}, "not defined"},
		{[]string{"-train", filepath.Join(dir, "missing")}, filepath.Join(dir, "missing")}, // the OS wording varies (js/wasm: "No such file")
		{[]string{"-train", bad}, "line 2"},
		{[]string{"-train", train, "-test", bad, "-predictions", out}, "line 2"},
		{[]string{"-train", train, "-method", "tree"}, "-method"},
		{[]string{"-train", train, "-kernel", "rbf"}, "unknown kernel"},
		{[]string{"-train", train, "-sigma", "0"}, "Sigma: 0"},
		{[]string{"-train", train, "-lambda", "-1"}, "want λ > 0"},
		{[]string{"-train", train, "-lambdas", "1:0:3"}, "-lambdas"},
		{[]string{"-train", train, "-lambda", "1", "-lambdas", "1:2:3"}, "give one"},
		{[]string{"-train", train, "-intercept", "maybe"}, "-intercept"},
		{[]string{"-train", train, "-method", "svm"}, "-lambda is required by -method svm"},
		{[]string{"-train", train, "-method", "knn", "-lambda", "1"}, "not used by -method knn"},
		{[]string{"-train", train, "-method", "rls", "-k", "3"}, "not used by -method rls"},
		{[]string{"-train", train, "-method", "knn", "-k", "180"}, "1 ≤ K < n"},
		{[]string{"-train", train, "-method", "knn", "-k", "180", "-model", out}, "1 ≤ K < n"},
		{[]string{"-train", train, "-method", "perceptron", "-iters", "-1"}, "-iters"},
		{[]string{"-train", train, "-predictions", out}, "needs -test"},
	})
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a failed classify wrote %s", out)
	}
}

// TestClassifyComputeFailure: K + nλI not positive definite exits with
// status 1 (-max-classes 2 says that two rows of two labels are classes).
func TestClassifyComputeFailure(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dup")
	os.WriteFile(path, []byte("1 1:1e8\n-1 1:1e8\n"), 0o644)
	code, _, e := runCmd("classify", "-train", path, "-kernel", "linear", "-lambda", "1e-300", "-intercept", "none", "-max-classes", "2")
	if code != 1 || !strings.Contains(e, "not positive definite") {
		t.Errorf("exit %d, stderr %q; want 1 and a positive-definiteness error", code, e)
	}
}
