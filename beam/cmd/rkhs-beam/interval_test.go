package main

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"rkhs/interval"
	"rkhs/linalg"
)

// TestSelectIntervalEqualsRkhs: rkhs-beam select -interval 0.9 -folds 5
// and rkhs fit -method nystrom -interval 0.9 -interval-method cv+ -folds 5
// -model on the same rows, centres and seed write CV+ model files whose
// fold models and residuals agree to 1e-10, and whose intervals at 0.9 on
// rows agree to 1e-10.
func TestSelectIntervalEqualsRkhs(t *testing.T) {
	rkhsCommand(t) // skips in -short mode, or without the go command
	dir := t.TempDir()
	const m, seed = 12, "7"
	writeRows(t, filepath.Join(dir, "train.csv"), "a,b,c,y", 150, 3, 1)
	grids := []string{"-sigmas", "0.5:4:4", "-lambdas", "1e-6:1e-2:5", "-seed", seed, "-centers", strconv.Itoa(m), "-criterion", "gcv"}
	runBoth(t, dir,
		append([]string{"fit", "-train", "train.csv", "-method", "nystrom", "-sigma", "auto", "-lambda", "auto",
			"-interval", "0.9", "-interval-method", "cv+", "-folds", "5", "-model", "r.json"}, grids...),
		append([]string{"select", "-input", "train.csv", "-format", "csv", "-interval", "0.9", "-folds", "5", "-model", "b.json"}, grids...))
	var cvs [2]interval.CV
	for i, name := range []string{"r.json", "b.json"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := cvs[i].UnmarshalJSON(b); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	r, b := &cvs[0], &cvs[1]
	if len(r.Models()) != 5 || len(b.Models()) != 5 || r.Rows() != b.Rows() {
		t.Fatalf("rkhs: %d fold models of %d rows; rkhs-beam %d of %d", len(r.Models()), r.Rows(), len(b.Models()), b.Rows())
	}
	for k := range r.Models() {
		if e := maxRel(b.Models()[k].Coef, r.Models()[k].Coef); e > 1e-10 {
			t.Errorf("fold model %d's coefficients differ by %.2g relative", k, e)
		}
	}
	x := r.Models()[0].Centers // rows the models take (raw: the standardization is the model's)
	gi, err := b.Predict(x, 0.9)
	if err != nil {
		t.Fatal(err)
	}
	ri, err := r.Predict(x, 0.9)
	if err != nil {
		t.Fatal(err)
	}
	for name, p := range map[string][2]*linalg.Dense{"lower": {gi.Lower, ri.Lower}, "upper": {gi.Upper, ri.Upper}, "prediction": {gi.Prediction, ri.Prediction}} {
		if e := maxRel(p[0], p[1]); e > 1e-10 {
			t.Errorf("the %s ends differ from rkhs's by %.2g relative", name, e)
		}
	}
}

// maxRel is the largest |a − b| over the largest |b|.
func maxRel(a, b *linalg.Dense) float64 {
	if a.Rows != b.Rows || a.Cols != b.Cols {
		return 1
	}
	d, s := 0.0, 0.0
	for i, v := range b.Data {
		d, s = max(d, abs(a.Data[i]-v)), max(s, abs(v))
	}
	return d / s
}

func abs(v float64) float64 { return max(v, -v) }
