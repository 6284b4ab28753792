package rkhsbeam

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"rkhs/classify"
	"rkhs/dataset"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

// TestPredict: the predictions written for each file are those of
// regress.Model.Predict on its rows, in order, whether the file is plain
// or gzip, and a file of another width is an error naming it.
func TestPredict(t *testing.T) {
	x, y := readAll(t, "testdata/train-0.csv")
	fit, err := regress.Nystrom{Kernel: kernels.Gaussian{Sigma: 1}, Lambda: 1e-3, Centers: 20, Seed: 1, Intercept: regress.FreeIntercept}.Fit(x, y)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	model := filepath.Join(dir, "model.json")
	js, _ := json.Marshal(fit.Model)
	if err := os.WriteFile(model, js, 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	err = run(t, func(s beam.Scope) error {
		_, err := Predict(s, PredictOptions{Input: Input{Patterns: []string{"testdata/train-*"}, Format: "csv"}, Model: model, Output: out})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"train-0.csv", "train-2.csv", "train-3.csv", "train-4.csv"} {
		src := "testdata/" + name
		if name == "train-2.csv" {
			src += ".gz"
		}
		b, err := os.ReadFile(filepath.Join(out, name+".pred"))
		if err != nil {
			t.Fatal(err)
		}
		xs, _ := readAll(t, src)
		lines := strings.Fields(string(b))
		if len(lines) != xs.Rows {
			t.Fatalf("%s: %d predictions for %d rows", name, len(lines), xs.Rows)
		}
		if xs.Rows == 0 {
			continue
		}
		want, _ := fit.Predict(xs)
		for i, l := range lines {
			v, err := strconv.ParseFloat(l, 64)
			if err != nil || v != want.At(i, 0) {
				t.Fatalf("%s row %d: %s, want %v", name, i, l, want.At(i, 0))
			}
		}
	}
	err = run(t, func(s beam.Scope) error {
		_, err := Predict(s, PredictOptions{Input: Input{Patterns: []string{"testdata/wide/b.csv"}, Format: "csv"}, Model: model, Output: out})
		return err
	})
	if err == nil || !strings.Contains(err.Error(), "testdata/wide/b.csv has 4 features, the model") {
		t.Errorf("rows of another width: got %v", err)
	}
}

// TestPredictOutputs: outputs that would collide are refused before the
// pipeline runs; with a dead-letter file each malformed row keeps its
// line (NaN), so line i stays row i; regression predictions are written as
// rkhs predict writes them (%.17g); a classifier's model and a CSV file
// without a label column are read.
func TestPredictOutputs(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	x, y := readAll(t, "testdata/train-0.csv")
	fit, err := regress.Nystrom{Kernel: kernels.Gaussian{Sigma: 1}, Lambda: 1e-3, Centers: 10, Seed: 1, Intercept: regress.FreeIntercept}.Fit(x, y)
	if err != nil {
		t.Fatal(err)
	}
	js, _ := json.Marshal(fit.Model)
	model := write("model.json", string(js))
	out := filepath.Join(dir, "out")
	os.Mkdir(out, 0o755)
	predict := func(o PredictOptions) error {
		o.Input.Format, o.Output = "csv", out
		if o.Model == "" {
			o.Model = model
		}
		return run(t, func(s beam.Scope) error { _, err := Predict(s, o); return err })
	}

	a, b := write("d1/x.csv", "1,2,3,4\n"), write("d2/x.csv", "5,6,7,8\n")
	gz := write("x.csv.gz", "")
	for _, pair := range [][]string{{a, b}, {filepath.Join(dir, "d1/x.csv"), gz}} {
		if err := predict(PredictOptions{Input: Input{Patterns: pair}}); err == nil || !strings.Contains(err.Error(), "would both write") {
			t.Errorf("%v: got %v, want a refusal naming both", pair, err)
		}
	}

	bad := write("bad.csv", "9,0.1,0.2,0.3\n9,abc,0.2,0.3\n9,0.4,0.5,0.6\n")
	if err := predict(PredictOptions{Input: Input{Patterns: []string{bad}}, DeadLetter: filepath.Join(dir, "dead.txt")}); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(filepath.Join(out, "bad.csv.pred"))
	p, _ := fit.Predict(linalg.NewDense(2, 3, []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6}))
	want := fmt.Sprintf("%.17g\nNaN\n%.17g\n", p.At(0, 0), p.At(1, 0))
	if string(got) != want {
		t.Errorf("predictions with a malformed row:\n%q\nwant\n%q", got, want)
	}

	unl := write("unl.csv", "0.1,0.2,0.3\n0.4,0.5,0.6\n")
	if err := predict(PredictOptions{Input: Input{Patterns: []string{unl}, CSV: dataset.CSVOptions{NoLabel: true}}}); err != nil {
		t.Fatal(err)
	}
	got, _ = os.ReadFile(filepath.Join(out, "unl.csv.pred"))
	if want := fmt.Sprintf("%.17g\n%.17g\n", p.At(0, 0), p.At(1, 0)); string(got) != want {
		t.Errorf("unlabelled rows: %q, want %q", got, want)
	}

	labels := make([]float64, y.Rows)
	for i := range labels {
		labels[i] = math.Copysign(1, y.At(i, 0))
	}
	knn, err := classify.KNN{Kernel: kernels.Gaussian{Sigma: 1}, K: 1}.Fit(x, labels)
	if err != nil {
		t.Fatal(err)
	}
	js, _ = json.Marshal(knn)
	if err := predict(PredictOptions{Input: Input{Patterns: []string{"testdata/train-0.csv"}}, Model: write("knn.json", string(js))}); err != nil {
		t.Fatal(err)
	}
	got, _ = os.ReadFile(filepath.Join(out, "train-0.csv.pred"))
	var sb strings.Builder
	for _, v := range labels {
		sb.WriteString(strconv.FormatFloat(v, 'g', -1, 64) + "\n")
	}
	if string(got) != sb.String() {
		t.Errorf("a 1-nearest-neighbour classifier on its training rows: %q, want their labels %q", got, sb.String())
	}
}
