package interval

import (
	"runtime"
	"slices"
	"testing"

	"rkhs/internal/parallel"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

// TestDeterminism: intervals and label sets are bit-identical for
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
		return []*linalg.Dense{a.Lower, a.Upper, vecDense(a.StdDev), b.Lower, b.Upper}
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
