package rkhsbeam

import (
	"context"
	"errors"
	"math"
	"path/filepath"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/loo"
	"rkhs/regress"
)

// TestSelectEqualsSelectNystrom: on Prism with three input files (one
// gzip), a free intercept and 12 centres drawn by the pipeline, the scores
// of every σ × λ pair (leave-one-out MSE, GCV and tr H) equal
// loo.SelectNystrom's on the same rows and centres to 1e-10 relative, the
// same pair is chosen (inside the grid: σ = 4, λ = 1e-5), and the model
// written is the fit there; with the GCV criterion too (no second pass).
func TestSelectEqualsSelectNystrom(t *testing.T) {
	files := []string{"testdata/train-0.csv", "testdata/train-1.csv", "testdata/train-2.csv.gz"}
	x, y := readAll(t, files...)
	sigmas := []float64{0.5, 1, 2, 4, 8}
	lambdas := loo.Geometric(1e-8, 1e-1, 8)
	for _, crit := range []loo.Criterion{loo.LOOMSE, loo.GCV} {
		out := filepath.Join(t.TempDir(), "model.json")
		sel, err := Select(context.Background(), SelectOptions{
			Input:  Input{Patterns: files, Format: "csv"},
			Kernel: kernels.Spec{Type: "gaussian"}, Sigmas: sigmas, Lambdas: lambdas,
			Intercept: regress.FreeIntercept, Criterion: crit, Centers: 12, Seed: 5,
			Model: out, Scratch: t.TempDir(),
		}, prismRun)
		if err != nil {
			t.Fatal(err)
		}
		if sel.Rows != x.Rows {
			t.Errorf("%v: %d rows, want %d", crit, sel.Rows, x.Rows)
		}
		model := readModel(t, out)
		want, err := loo.SelectNystrom{
			Kernel:  func(s float64) kernels.Kernel { return kernels.Gaussian{Sigma: s} },
			Centers: model.Centers, Sigmas: sigmas, Lambdas: lambdas,
			Intercept: regress.FreeIntercept, Criterion: crit,
		}.Fit(x, y)
		if err != nil {
			t.Fatal(err)
		}
		if sel.Sigma != want.Sigma || sel.Lambda != want.Lambda {
			t.Errorf("%v: chose σ = %g, λ = %g; SelectNystrom σ = %g, λ = %g", crit, sel.Sigma, sel.Lambda, want.Sigma, want.Lambda)
		}
		tables := map[string][2][][]float64{"GCV": {sel.GCV, want.GCV}, "DF": {sel.DF, want.DF}, "scores": {sel.Scores.Scores, want.Scores.Scores}}
		if crit == loo.LOOMSE {
			tables["LOO"] = [2][][]float64{sel.LOO, want.LOO}
		} else if sel.LOO != nil {
			t.Errorf("GCV: leave-one-out scores %v, want none", sel.LOO)
		}
		for name, tb := range tables {
			for a := range sigmas {
				for j := range lambdas {
					got, w := tb[0][a][j], tb[1][a][j]
					if r := math.Abs(got-w) / math.Abs(w); !(r <= 1e-10) {
						t.Errorf("%v: %s at σ = %g, λ = %g: %.15g, SelectNystrom %.15g", crit, name, sigmas[a], lambdas[j], got, w)
					}
				}
			}
		}
		if r := math.Abs(sel.Score-want.Score) / want.Score; r > 1e-10 {
			t.Errorf("%v: score %v, want %v", crit, sel.Score, want.Score)
		}
		if e := relDiff(model.Coef, want.Fit.Model.Coef); e > 1e-9 {
			t.Errorf("%v: the model's coefficients differ from the fit at the chosen pair by %.2g relative", crit, e)
		}
	}
}

// TestSelectRefuses: options that cannot run are errors of kind
// ErrOptions before any pipeline.
func TestSelectRefuses(t *testing.T) {
	ok := SelectOptions{
		Input: Input{Patterns: []string{"testdata/train-0.csv"}, Format: "csv"}, Kernel: kernels.Spec{Type: "gaussian"},
		Sigmas: []float64{1}, Lambdas: []float64{1e-3}, Centers: 5, Model: filepath.Join(t.TempDir(), "m.json"),
	}
	for _, tc := range []struct {
		name string
		edit func(o *SelectOptions)
	}{
		{"no σ", func(o *SelectOptions) { o.Sigmas = nil }},
		{"σ ≤ 0", func(o *SelectOptions) { o.Sigmas = []float64{1, 0} }},
		{"λ NaN", func(o *SelectOptions) { o.Lambdas = []float64{math.NaN()} }},
		{"λ < 0", func(o *SelectOptions) { o.Lambdas = []float64{-1} }},
		{"linear kernel", func(o *SelectOptions) { o.Kernel.Type = "linear" }},
		{"error rate", func(o *SelectOptions) { o.Criterion = loo.LOOErrorRate }},
		{"no centres", func(o *SelectOptions) { o.Centers = 0 }},
		{"no model", func(o *SelectOptions) { o.Model = "" }},
	} {
		o := ok
		tc.edit(&o)
		_, err := Select(context.Background(), o, func(context.Context, *beam.Pipeline) error {
			t.Fatalf("%s: a pipeline ran", tc.name)
			return nil
		})
		var ie *linalg.InputError
		if !errors.Is(err, ErrOptions) || !errors.As(err, &ie) {
			t.Errorf("%s: got %v, want an InputError of kind ErrOptions", tc.name, err)
		}
	}
}
