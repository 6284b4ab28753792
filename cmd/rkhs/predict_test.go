package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rkhs/classify"
	"rkhs/kernels"
	"rkhs/model"
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
	modelPath := filepath.Join(dir, "svm.json")
	if code, _, e := runCmd("classify", "-train", train, "-method", "svm", "-kernel", "gaussian", "-sigma", "2", "-lambda", "1e-3", "-iters", "50", "-model", modelPath); code != 0 {
		t.Fatalf("exit %d: %s", code, e)
	}
	raw, err := os.ReadFile(modelPath)
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
	loaded, err := model.Load(raw)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := loaded.Saved.(*classify.SVMModel); !ok || !loaded.Labels {
		t.Errorf("model.Load gave a %T (labels %v)", loaded.Saved, loaded.Labels)
	}
	if loaded.Width != d.X.Cols {
		t.Errorf("model.Load: width %d, want %d", loaded.Width, d.X.Cols)
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

// TestPredictModelFileWords: a damaged model file is reported in the
// file's words, the field and what is wrong with it, not in the names of
// Go types and methods (before: "json: cannot unmarshal array into Go
// value of type codec.Header").
func TestPredictModelFileWords(t *testing.T) {
	dir := t.TempDir()
	train, test := splitSet(t, dir, "heart", "", 0)
	model, rls := filepath.Join(dir, "m.json"), filepath.Join(dir, "rls.json")
	if code, _, e := runCmd("fit", "-train", train, "-lambda", "1e-2", "-model", model); code != 0 {
		t.Fatalf("exit %d: %s", code, e)
	}
	if code, _, e := runCmd("classify", "-train", train, "-lambda", "1e-2", "-model", rls); code != 0 {
		t.Fatalf("exit %d: %s", code, e)
	}
	raw, _ := os.ReadFile(model)
	rawRLS, _ := os.ReadFile(rls)
	for _, tc := range []struct{ name, file, want string }{
		{"array", "[1, 2]", `not a model file: a list, want a JSON object {"format": …, "version": …, …}`},
		{"truncated", string(raw[:40]), "not valid JSON: the text ends at byte 40, in the middle of the model (truncated?)"},
		{"Sigma", strings.Replace(string(raw), `"sigma":1`, `"sigma":1,"Sigma":7`, 1), `kernel.Sigma: unknown field: keys are case-sensitive, did you mean "sigma"?`},
		{"string sigma", strings.Replace(string(raw), `"sigma":1`, `"sigma":"1"`, 1), `kernel.sigma: the string "1", want a number`},
		{"bad sigma", strings.Replace(string(raw), `"sigma":1`, `"sigma":-1`, 1), "kernel.sigma: -1, must be positive and finite"},
		{"Format", strings.Replace(string(raw), `"format"`, `"Format"`, 1), `Format: unknown field: keys are case-sensitive, did you mean "format"?`},
		{"inner model", strings.Replace(string(rawRLS), `"sigma":1`, `"sigma":1,"gamma":2`, 1), "model.kernel.gamma: unknown field (the fields here are type, sigma, degree, offset)"},
	} {
		bad := filepath.Join(dir, "bad.json")
		os.WriteFile(bad, []byte(tc.file), 0o644)
		code, _, e := runCmd("predict", "-model", bad, "-data", test)
		if want := "rkhs predict: " + bad + ": " + tc.want + "\n"; code != 2 || e != want {
			t.Errorf("%s: exit %d, stderr\n%s\nwant 2 and\n%s", tc.name, code, e, want)
		}
	}
}

// TestPredictByName: a model fitted on a CSV file with a header stores
// the names of its columns, and rkhs predict finds them by name in a file
// laid out differently, refuses a file that lacks one and -features or
// -target that disagree with them, and reads a file without a header by
// position. Before, a permuted -features or a stray -target predicted from
// the wrong columns with exit status 0.
func TestPredictByName(t *testing.T) {
	dir := t.TempDir()
	rows := [][4]string{{"0.5", "-1", "2", "1.5"}, {"1", "0.25", "-0.5", "-2"}, {"-1.5", "2", "0", "3"}, {"0", "-0.75", "1", "0.5"},
		{"2", "1", "-1", "-1"}, {"-0.5", "-2", "0.5", "2"}, {"1.5", "0", "1.5", "1"}, {"-2", "0.5", "-1.5", "-3"}}
	csv := func(name, header string, order []int, n int) string {
		var b strings.Builder
		if header != "" {
			b.WriteString(header + "\n")
		}
		for _, r := range rows[:n] {
			f := make([]string, len(order))
			for i, j := range order {
				f[i] = r[j]
			}
			b.WriteString(strings.Join(f, ",") + "\n")
		}
		return write(t, dir, name, []byte(b.String()))
	}
	train := csv("train.csv", "x0,x1,x2,y", []int{0, 1, 2, 3}, 8)
	same := csv("same.csv", "x0,x1,x2,y", []int{0, 1, 2, 3}, 5)
	perm := csv("perm.csv", "y,x2,x0,x1", []int{3, 2, 0, 1}, 5)
	nolabel := csv("nolabel.csv", "x2,x0,x1", []int{2, 0, 1}, 5)
	noheader := csv("noheader.csv", "", []int{0, 1, 2, 3}, 5)
	lacking := csv("lacking.csv", "x0,x1,z,y", []int{0, 1, 2, 3}, 5)
	model, cmodel := filepath.Join(dir, "m.json"), filepath.Join(dir, "c.json")
	if code, _, e := runCmd("fit", "-train", train, "-method", "cholesky", "-lambda", "1e-2", "-model", model); code != 0 {
		t.Fatalf("fit: exit %d: %s", code, e)
	}
	if raw, _ := os.ReadFile(model); !bytes.Contains(raw, []byte(`"feature_names":["x0","x1","x2"],"target_name":"y"`)) {
		t.Fatalf("the model does not name its columns: %.200s", raw)
	}
	_, want, _ := runCmd("predict", "-model", model, "-data", same)
	if strings.Count(want, "\n") != 5 {
		t.Fatalf("predict wrote %q", want)
	}
	for _, c := range []struct {
		name string
		args []string
		code int
		msg  string // the start of the first line of standard error
	}{
		{"same layout", []string{"-data", same}, 0, ""},
		{"columns reordered", []string{"-data", perm}, 0, ""},
		{"no label column", []string{"-data", nolabel}, 0, ""},
		{"no label column, -unlabelled", []string{"-data", nolabel, "-unlabelled"}, 0, ""},
		{"no header: by position", []string{"-data", noheader}, 0, ""},
		{"-features as stored", []string{"-data", perm, "-features", "x0,x1,x2"}, 0, ""},
		{"-target as stored", []string{"-data", perm, "-target", "y"}, 0, ""},
		{"-features permuted", []string{"-data", same, "-features", "x2,x1,x0"}, 2, `rkhs predict: -features x2,x1,x0: the model was fitted on x0,x1,x2`},
		{"-target stray", []string{"-data", same, "-target", "x0"}, 2, `rkhs predict: -target x0: the model's target was y`},
		{"a name missing", []string{"-data", lacking}, 2, `rkhs predict: ` + lacking + `: dataset: line 1: feature "x2" is not a column of the header (x0, x1, z, y)`},
	} {
		code, out, e := runCmd(append([]string{"predict", "-model", model}, c.args...)...)
		if code != c.code || !strings.HasPrefix(e, c.msg) {
			t.Errorf("%s: exit %d, stderr %q; want %d, %q", c.name, code, e, c.code, c.msg)
		}
		if code == 0 && out != want {
			t.Errorf("%s: predictions\n%s\nwant\n%s", c.name, out, want)
		}
	}
	// A classifier finds its columns the same way.
	for i := range rows {
		rows[i][3] = map[bool]string{true: "1", false: "-1"}[!strings.HasPrefix(rows[i][3], "-")]
	}
	ctrain := csv("ctrain.csv", "x0,x1,x2,label", []int{0, 1, 2, 3}, 8)
	csame := csv("csame.csv", "x0,x1,x2,label", []int{0, 1, 2, 3}, 5)
	cperm := csv("cperm.csv", "x1,label,x2,x0", []int{1, 3, 2, 0}, 5)
	if code, _, e := runCmd("classify", "-train", ctrain, "-method", "knn", "-k", "3", "-model", cmodel); code != 0 {
		t.Fatalf("classify: exit %d: %s", code, e)
	}
	_, cwant, _ := runCmd("predict", "-model", cmodel, "-data", csame)
	if code, out, e := runCmd("predict", "-model", cmodel, "-data", cperm); code != 0 || out != cwant || cwant == "" {
		t.Errorf("classifier, columns reordered: exit %d (%s), labels %q, want %q", code, e, out, cwant)
	}
	if code, _, e := runCmd("predict", "-model", cmodel, "-data", csame, "-features", "x1,x0,x2"); code != 2 || !strings.Contains(e, "the model was fitted on x0,x1,x2") {
		t.Errorf("classifier, -features permuted: exit %d, %q", code, e)
	}

	// Every model either command saves names its columns.
	for _, args := range [][]string{
		{"fit", "-train", train, "-method", "nystrom", "-centers", "4", "-lambda", "1e-2"},
		{"fit", "-train", train, "-method", "falkon", "-centers", "4", "-lambda", "1e-2"},
		{"fit", "-train", train, "-method", "eigen", "-lambda", "1e-2"},
		{"fit", "-train", train, "-method", "cg", "-iters", "3"},
		{"classify", "-train", ctrain, "-method", "rls", "-lambda", "1e-2"},
		{"classify", "-train", ctrain, "-method", "perceptron"},
		{"classify", "-train", ctrain, "-method", "logistic", "-lambda", "1e-2"},
		{"classify", "-train", ctrain, "-method", "svm", "-lambda", "1e-2"},
		{"classify", "-train", ctrain, "-method", "falkon", "-centers", "4", "-lambda", "1e-2"},
	} {
		if code, _, e := runCmd(append(args, "-model", cmodel)...); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, e)
		}
		if raw, _ := os.ReadFile(cmodel); !bytes.Contains(raw, []byte(`"feature_names":["x0","x1","x2"]`)) {
			t.Errorf("%v: the model does not name its columns: %.120s", args, raw)
		}
	}
}

// TestFitAmbiguousName: a name that two columns of the header share picks
// no column: an error, where the first of them was read before.
func TestFitAmbiguousName(t *testing.T) {
	dir := t.TempDir()
	data := write(t, dir, "dup.csv", []byte("a,a,c,y\n1,2,3,4\n2,3,1,5\n3,1,2,6\n4,4,4,7\n"))
	for _, args := range [][]string{{"-features", "a,c"}, {"-target", "a"}} {
		code, _, e := runCmd(append([]string{"fit", "-train", data, "-lambda", "1e-2"}, args...)...)
		if code != 2 || !strings.Contains(e, `"a" is ambiguous: fields 1 and 2 of the header have that name`) {
			t.Errorf("fit %v: exit %d, %q; want 2 and an ambiguous name", args, code, e)
		}
	}
}
