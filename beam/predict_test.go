package rkhsbeam

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"rkhs/kernels"
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
	if err == nil || !strings.Contains(err.Error(), "testdata/wide/b.csv:1: 5 fields, want 4") {
		t.Errorf("rows of another width: got %v", err)
	}
}
