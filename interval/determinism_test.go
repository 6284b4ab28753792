package interval

import (
	"runtime"
	"slices"
	"testing"

	"rkhs/internal/parallel"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/loo"
	"rkhs/regress"
)

// TestDeterminism: intervals and label sets (CV+ also with each fold's
// own choice, in memory and streamed) are bit-identical for
// GOMAXPROCS 1 and 4, and the work was in fact split.
func TestDeterminism(t *testing.T) {
	x, y, _ := problem(20, 300, 0, 1)
	_, _, xt := problem(21, 1, 200, 1)
	cfg := regress.RLS{Kernel: kernels.Gaussian{Sigma: 1}, Lambda: 1e-3, Intercept: regress.FreeIntercept}
	folds, _ := Folds(x.Rows, 10, 1)
	run := func() []*linalg.Dense {
		jk, err := RLS(cfg, x, y)
		if err != nil {
			t.Fatal(err)
		}
		a, err := jk.Predict(xt, 0.9)
		if err != nil {
			t.Fatal(err)
		}
		cv, err := RLSCV(cfg, x, y, folds)
		if err != nil {
			t.Fatal(err)
		}
		b, err := cv.Predict(xt, 0.9)
		if err != nil {
			t.Fatal(err)
		}
		out := []*linalg.Dense{a.Lower, a.Upper, vecDense(a.StdDev), b.Lower, b.Upper}
		gauss := func(s float64) kernels.Kernel { return kernels.Gaussian{Sigma: s} }
		lambdas := loo.Geometric(1e-6, 1e-1, 4)
		ch, err := RLSCVChosen(gauss, []float64{0.7, 1.4}, lambdas, regress.FreeIntercept, x, y, folds)
		if err != nil {
			t.Fatal(err)
		}
		centers := x.Slice(0, 40, 0, x.Cols).Clone()
		sn := loo.SelectNystrom{Kernel: gauss, Centers: centers, Sigmas: []float64{0.7, 1.4}, Lambdas: lambdas, Intercept: regress.FreeIntercept}
		nc, err := NystromCVChosen(sn, x, y, folds)
		if err != nil {
			t.Fatal(err)
		}
		fs, err := NewFoldStats([]kernels.Kernel{gauss(0.7), gauss(1.4)}, centers, 5, 3, 0)
		if err != nil {
			t.Fatal(err)
		}
		if err := fs.Add(x, y); err != nil {
			t.Fatal(err)
		}
		sn.Criterion = loo.GCV
		fits, err := fs.Choose(sn)
		if err != nil {
			t.Fatal(err)
		}
		pass, err := fits.Pass(0)
		if err == nil {
			err = pass.Add(x, y)
		}
		var sc *CV
		if err == nil {
			sc, err = pass.CV()
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []*CV{ch, nc, sc} {
			iv, err := c.Predict(xt, 0.9)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, iv.Prediction, iv.Lower, iv.Upper)
		}
		return out
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	one := run()
	runtime.GOMAXPROCS(4)
	before := parallel.Splits()
	four := run()
	if parallel.Splits() == before {
		t.Log("no loop was split (one core?): the comparison is weaker")
	}
	for k := range one {
		if !slices.Equal(one[k].Data, four[k].Data) {
			t.Errorf("result %d differs between GOMAXPROCS 1 and 4", k)
		}
	}
}
