package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rkhs/classify"
	"rkhs/kernels"
	"rkhs/regress"
)

// TestClassifyPredictRoundTrip: for every method, the labels rkhs predict
// gives with the model saved by rkhs classify -model are those classify
// -predictions wrote, byte for byte, to a file or to standard output.
func TestClassifyPredictRoundTrip(t *testing.T) {
	dir := t.TempDir()
	heartTrain, heartTest := splitSet(t, dir, "heart", "", 0)
	digitsTrain, digitsTest := splitSet(t, dir, "digits", ".csv", 150)
	// Labels that print differently as %.17g and as the shortest decimal.
	fracTrain, fracTest := relabel(t, heartTrain, "0.1", "0.7"), relabel(t, heartTest, "0.1", "0.7")
	model, pcls, ppred := filepath.Join(dir, "m.json"), filepath.Join(dir, "p1"), filepath.Join(dir, "p2")
	for _, tc := range []struct {
		train, test string
		args        []string
		lines       int
	}{
		{heartTrain, heartTest, []string{"-method", "rls", "-sigma", "2"}, 90},
		{heartTrain, heartTest, []string{"-method", "perceptron", "-kernel", "polynomial", "-degree", "3", "-iters", "20"}, 90},
		{heartTrain, heartTest, []string{"-method", "knn", "-kernel", "laplacian", "-sigma", "2", "-k", "7"}, 90},
		{heartTrain, heartTest, []string{"-method", "logistic", "-sigma", "2", "-lambda", "1e-3", "-iters", "100"}, 90},
		{heartTrain, heartTest, []string{"-method", "svm", "-kernel", "linear", "-lambda", "1e-2", "-iters", "200"}, 90},
		{digitsTrain, digitsTest, []string{"-method", "rls", "-sigma", "30", "-lambda", "1e-4"}, 50},
		{fracTrain, fracTest, []string{"-method", "knn", "-sigma", "2", "-k", "5"}, 90},
	} {
		args := append([]string{"classify", "-train", tc.train, "-test", tc.test, "-model", model, "-predictions", pcls}, tc.args...)
		if code, _, e := runCmd(args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", tc.args, code, e)
		}
		if code, _, e := runCmd("predict", "-model", model, "-data", tc.test, "-predictions", ppred); code != 0 {
			t.Fatalf("%v: predict: exit %d: %s", tc.args, code, e)
		}
		want, _ := os.ReadFile(pcls)
		got, _ := os.ReadFile(ppred)
		if n := bytes.Count(want, []byte("\n")); n != tc.lines {
			t.Fatalf("%v: classify wrote %d labels, want %d", tc.args, n, tc.lines)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%v: predict wrote\n%s\nclassify -predictions wrote\n%s", tc.args, head(got), head(want))
		}
		code, out, e := runCmd("predict", "-model", model, "-data", tc.test)
		if code != 0 || out != string(want) {
			t.Errorf("%v: predict to standard output: exit %d (%s), labels equal: %v", tc.args, code, e, out == string(want))
		}
	}
}

// relabel writes a copy of the LIBSVM file path with the labels +1 and −1
// replaced by pos and neg, and returns its name.
func relabel(t *testing.T, path, pos, neg string) string {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(string(raw), "\n"), "\n")
	for i, line := range lines {
		label, rest, _ := strings.Cut(line, " ")
		switch label {
		case "+1", "1":
			label = pos
		case "-1":
			label = neg
		default:
			t.Fatalf("%s:%d: label %q, want ±1", path, i+1, label)
		}
		lines[i] = label + " " + rest
	}
	out := path + "-relabelled"
	if err := os.WriteFile(out, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// head returns the first five lines of b, for messages.
func head(b []byte) string {
	lines := strings.SplitAfterN(string(b), "\n", 6)
	return strings.Join(lines[:min(5, len(lines))], "")
}

// TestClassifyModelFile: the file classify -model writes is the model
// package classify fits in process, in its format, and loads back to it.
func TestClassifyModelFile(t *testing.T) {
	dir := t.TempDir()
	train, _ := splitSet(t, dir, "heart", "", 0)
	model := filepath.Join(dir, "svm.json")
	if code, _, e := runCmd("classify", "-train", train, "-method", "svm", "-kernel", "gaussian", "-sigma", "2", "-lambda", "1e-3", "-iters", "50", "-model", model); code != 0 {
		t.Fatalf("exit %d: %s", code, e)
	}
	raw, err := os.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	d, _, _ := (&dataFlags{}).readData(train)
	m, err := classify.SVM{Kernel: kernels.Gaussian{Sigma: 2}, Lambda: 1e-3, Intercept: regress.PenalizedIntercept, MaxIter: 50}.Fit(&d.X, d.Y)
	if err != nil {
		t.Fatal(err)
	}
	want, err := m.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(raw, append(want, '\n')) {
		t.Errorf("classify -model wrote\n%.200s…\nin process the model saves as\n%.200s…", raw, want)
	}
	loaded, err := loadModel(raw)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := loaded.(labelModel).labelPredictor.(*classify.SVMModel); !ok {
		t.Errorf("loadModel gave a %T", loaded)
	}
	if w := modelWidth(loaded); w != d.X.Cols {
		t.Errorf("modelWidth = %d, want %d", w, d.X.Cols)
	}
}

// TestPredictBadClassifier: a damaged classifier file is a one-line error
// with exit status 2 and no output file.
func TestPredictBadClassifier(t *testing.T) {
	dir := t.TempDir()
	train, test := splitSet(t, dir, "heart", "", 0)
	model, out := filepath.Join(dir, "knn.json"), filepath.Join(dir, "never")
	if code, _, e := runCmd("classify", "-train", train, "-method", "knn", "-k", "3", "-model", model); code != 0 {
		t.Fatalf("exit %d: %s", code, e)
	}
	raw, _ := os.ReadFile(model)
	for _, tc := range []struct{ name, from, to, msg string }{
		{"future version", `"version":1`, `"version":2`, "version 2"},
		{"k too large", `"k":3`, `"k":1000`, "1 ≤ k < n"},
		{"unknown format", `"rkhs.classify.KNNModel"`, `"rkhs.classify.TreeModel"`, "unknown model format"},
	} {
		bad := filepath.Join(dir, "bad.json")
		os.WriteFile(bad, []byte(strings.Replace(string(raw), tc.from, tc.to, 1)), 0o644)
		code, _, e := runCmd("predict", "-model", bad, "-data", test, "-predictions", out)
		if code != 2 || !strings.Contains(e, tc.msg) || strings.Count(e, "\n") != 1 {
			t.Errorf("%s: exit %d, stderr %q; want 2 and one line containing %q", tc.name, code, e, tc.msg)
		}
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a failed predict wrote %s", out)
	}
}
