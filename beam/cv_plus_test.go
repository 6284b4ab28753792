package rkhsbeam

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"rkhs/interval"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/loo"
	"rkhs/regress"
)

// TestSelectCVPlusEqualsInterval: on Prism with three input files (one
// gzip), Select with Folds = 5 writes the CV+ of its model whose fold
// models, and whose intervals at 0.9 on rows of the input, equal those of
// package interval's streamed CV+ (FoldStats over the rows in memory,
// the folds drawn by StreamFold from the seed and each row's place) at
// the chosen σ and λ on the same centres to 1e-10 relative: the workers'
// shards, merged in the runner's order, change the sums by rounding only.
func TestSelectCVPlusEqualsInterval(t *testing.T) {
	files := []string{"testdata/train-0.csv", "testdata/train-1.csv", "testdata/train-2.csv.gz"}
	x, y := readAll(t, files...)
	const folds, seed = 5, 5
	for _, ic := range []regress.Intercept{regress.FreeIntercept, regress.NoIntercept} {
		out := filepath.Join(t.TempDir(), "model.json")
		sel, err := Select(context.Background(), SelectOptions{
			Input:  Input{Patterns: files, Format: "csv"},
			Kernel: kernels.Spec{Type: "gaussian"}, Sigmas: []float64{1, 4}, Lambdas: loo.Geometric(1e-6, 1e-2, 3),
			Intercept: ic, Criterion: loo.GCV, Centers: 12, Seed: seed, Folds: folds,
			Model: out, Scratch: t.TempDir(),
		}, prismRun)
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		var saved interval.CV
		if err := saved.UnmarshalJSON(b); err != nil {
			t.Fatalf("%v: the model file holds no CV+: %v", ic, err)
		}
		fs, err := interval.NewFoldStats([]kernels.Kernel{kernels.Gaussian{Sigma: sel.Sigma}}, sel.Model.Centers, folds, seed, 0)
		if err == nil {
			err = fs.Add(x, y)
		}
		var fits *interval.FoldFits
		if err == nil {
			fits, err = fs.Models(sel.Lambda, ic)
		}
		var pass *interval.CVPass
		if err == nil {
			pass, err = fits.Pass(0)
		}
		if err == nil {
			err = pass.Add(x, y)
		}
		var want *interval.CV
		if err == nil {
			want, err = pass.CV()
		}
		if err == nil {
			want, err = want.WithModel(sel.Model)
		}
		if err != nil {
			t.Fatal(err)
		}
		if saved.Rows() != x.Rows || len(saved.Models()) != folds {
			t.Fatalf("%v: a CV+ of %d rows and %d folds, want %d and %d", ic, saved.Rows(), len(saved.Models()), x.Rows, folds)
		}
		for k, m := range saved.Models() {
			if e := relDiff(m.Coef, want.Models()[k].Coef); e > 1e-10 {
				t.Errorf("%v: fold model %d's coefficients differ by %.2g relative", ic, k, e)
			}
		}
		xt := x.Slice(0, 30, 0, x.Cols)
		got, err := saved.Predict(xt, 0.9)
		if err != nil {
			t.Fatal(err)
		}
		ref, err := want.Predict(xt, 0.9)
		if err != nil {
			t.Fatal(err)
		}
		for name, p := range map[string][2]*linalg.Dense{"lower": {got.Lower, ref.Lower}, "upper": {got.Upper, ref.Upper}, "prediction": {got.Prediction, ref.Prediction}} {
			if e := relDiff(p[0], p[1]); e > 1e-10 {
				t.Errorf("%v: the %s ends differ from package interval's by %.2g relative", ic, name, e)
			}
		}
	}
}

// TestSelectFoldsRefused: Folds of 1, or with Classes or ARD, is an
// error of kind ErrOptions before any pipeline.
func TestSelectFoldsRefused(t *testing.T) {
	base := SelectOptions{Input: Input{Patterns: []string{"testdata/train-0.csv"}, Format: "csv"},
		Kernel: kernels.Spec{Type: "gaussian"}, Sigmas: []float64{1}, Lambdas: []float64{1e-3}, Centers: 4, Model: "m.json"}
	for name, f := range map[string]func(*SelectOptions){
		"one fold": func(o *SelectOptions) { o.Folds = 1 },
		"classes":  func(o *SelectOptions) { o.Folds, o.Classes = 5, true },
		"ard":      func(o *SelectOptions) { o.Folds, o.ARD = 5, true },
	} {
		o := base
		f(&o)
		if err := o.check(); !errors.Is(err, ErrOptions) {
			t.Errorf("%s: error %v, want ErrOptions", name, err)
		}
	}
	if err := base.check(); err != nil {
		t.Errorf("the base options: %v", err)
	}
}
