package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"rkhs/interval"
	"rkhs/linalg"
)

// TestSelectIntervalEqualsRkhs: rkhs-beam select -interval 0.9 -folds 5
// and rkhs fit -method nystrom -interval 0.9 -interval-method cv+ -folds 5
// -model on the same rows, centres and seed write CV+ model files whose
// fold models and residuals agree to 1e-10, and whose intervals at 0.9 on
// rows agree to 1e-10, as do the intervals rkhs predict -interval 0.9
// writes from each file on test rows; with either criterion.
func TestSelectIntervalEqualsRkhs(t *testing.T) {
	for _, crit := range []string{"gcv", "loo"} {
		t.Run(crit, func(t *testing.T) { selectIntervalEqualsRkhs(t, crit) })
	}
}

func selectIntervalEqualsRkhs(t *testing.T, crit string) {
	rkhsCommand(t) // skips in -short mode, or without the go command
	dir := t.TempDir()
	const m, seed = 12, "7"
	writeRows(t, filepath.Join(dir, "train.csv"), "a,b,c,y", 150, 3, 1)
	grids := []string{"-sigmas", "0.5:4:4", "-lambdas", "1e-6:1e-2:5", "-seed", seed, "-centers", strconv.Itoa(m), "-criterion", crit}
	var rj, bj map[string]any
	runBothJSON(t, dir,
		append([]string{"fit", "-train", "train.csv", "-method", "nystrom", "-sigma", "auto", "-lambda", "auto",
			"-interval", "0.9", "-interval-method", "cv+", "-folds", "5", "-model", "r.json", "-json"}, grids...),
		append([]string{"select", "-input", "train.csv", "-format", "csv", "-interval", "0.9", "-folds", "5", "-model", "b.json", "-json"}, grids...),
		&rj, &bj)
	// -json names the intervals as rkhs does: the same keys, the same values.
	for key, want := range map[string]any{"interval_level": 0.9, "interval_method": "cv+", "interval_folds": 5.0, "interval_after_choice": true} {
		if rj[key] != want || bj[key] != want {
			t.Errorf("-json %s: rkhs %v, rkhs-beam %v; want %v in both", key, rj[key], bj[key], want)
		}
	}
	for key := range rj {
		if _, ok := bj[key]; strings.HasPrefix(key, "interval_") && !ok {
			t.Errorf("-json: rkhs prints %s, rkhs-beam does not", key)
		}
	}
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
	writeRows(t, filepath.Join(dir, "test.csv"), "a,b,c,y", 25, 9, 1)
	var outs [2][]string
	for i, name := range []string{"r.json", "b.json"} {
		cmd := exec.Command(rkhsCommand(t), "predict", "-model", name, "-data", "test.csv", "-interval", "0.9", "-predictions", name+".csv")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("rkhs predict -model %s: %v: %s", name, err, out)
		}
		outs[i] = strings.Split(strings.TrimSpace(readString(t, filepath.Join(dir, name+".csv"))), "\n")
	}
	if len(outs[0]) != 26 || len(outs[1]) != 26 || outs[0][0] != "prediction,lower,upper" || outs[1][0] != outs[0][0] {
		t.Fatalf("rkhs predict -interval wrote %d and %d lines, headers %q and %q", len(outs[0]), len(outs[1]), outs[0][0], outs[1][0])
	}
	for i := 1; i < 26; i++ {
		rf, bf := strings.Split(outs[0][i], ","), strings.Split(outs[1][i], ",")
		for j := range 3 {
			rv, err1 := strconv.ParseFloat(rf[j], 64)
			bv, err2 := strconv.ParseFloat(bf[j], 64)
			if err1 != nil || err2 != nil || abs(bv-rv) > 1e-10*max(1, abs(rv)) {
				t.Errorf("rkhs predict -interval, test row %d: rkhs-beam's model gives %s, rkhs's %s", i, outs[1][i], outs[0][i])
				break
			}
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

// TestSelectIntervalRefuses: another -interval-method, a level outside
// (0, 1) and -folds 1 are refused with the reason, before any pipeline; a
// level the 30 rows cannot reach (30/31 < 0.99) and more folds than rows,
// as rkhs fit -interval refuses them, once the first pass has counted the
// rows and before the CV+ pipelines.
func TestSelectIntervalRefuses(t *testing.T) {
	dir := t.TempDir()
	writeRows(t, filepath.Join(dir, "train.csv"), "a,b,c,y", 30, 3, 1)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-interval", "0.9", "-interval-method", "jackknife+"}, "cv+ alone"},
		{[]string{"-interval", "1.5"}, "interval"},
		{[]string{"-interval", "0.9", "-folds", "1"}, "K ≥ 2"},
		{[]string{"-interval", "0.99"}, "30 rows give finite intervals only up to level n/(n+1) = 0.9677; at 0.99 every interval is the whole line"},
		{[]string{"-interval", "0.9", "-folds", "31"}, "31, want 2 ≤ K ≤ n = 30 (CV+ leaves out one of K non-empty folds)"},
	} {
		code, out := rkhsBeam(t, dir, append([]string{"select", "-input", "train.csv", "-format", "csv", "-centers", "5", "-model", "m.json"}, tc.args...)...)
		if code == 0 || !strings.Contains(out, tc.want) {
			t.Errorf("%v: exit %d, %q; want an error saying %q", tc.args, code, out, tc.want)
		}
		if _, err := os.Stat(filepath.Join(dir, "m.json")); err == nil {
			t.Errorf("%v: a model file was written", tc.args)
		}
	}
}
