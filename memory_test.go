package rkhs_test

import (
	"errors"
	"math"
	"runtime/debug"
	"testing"

	"rkhs/classify"
	"rkhs/interval"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/loo"
	"rkhs/regress"
)

// tooLargeRows is the table of TestTooLargeEverywhere: 600 points, whose
// n×n matrix (2.9 MB) is over the 1 MiB limit the test sets, and centre
// sets whose m×m matrices are; what the calls need besides is built here,
// before the limit drops. A 12-point spectral decomposition serves the loo
// paths, whose own work matrices are checked with a long λ list, and
// statistics of 400 centres serve NystromStats.Solve, Gram, UnmarshalBinary
// and loo.NewNystromPath, and 400 centres Falkon.FitOperator.
// NystromStats.Add, AddKernelRows and Merge have no row: they add into the
// m×m matrices that NewNystromStats (which has one) allocated; nor has
// GramInPlace, which forms G in them.
func tooLargeRows(t testing.TB) []apiRow {
	const n = 600
	x := linalg.NewDense(n, 1, nil)
	y := linalg.NewDense(n, 1, nil)
	labels := make([]float64, n)
	for i := range n {
		x.Set(i, 0, float64(i)/n)
		y.Set(i, 0, math.Sin(float64(i)))
		labels[i] = float64(i % 2)
	}
	g := kernels.Gaussian{Sigma: 1}
	sx, sy, _, _ := vocabData()
	s, err := regress.NewSpectral(g, sx, sy)
	if err != nil {
		t.Fatal(err)
	}
	manyLambdas := make([]float64, 20000) // 12×20000×(1+1)×4 floats = 15 MB of work
	for i := range manyLambdas {
		manyLambdas[i] = 1e-3 * float64(i+1)
	}
	const m = 400 // M and L of the statistics: 2×400² floats = 2.4 MiB
	centers := linalg.NewDense(m, 1, nil)
	for i := range m {
		centers.Set(i, 0, float64(i)/m)
	}
	stats, err := regress.NewNystromStats(g, centers)
	if err == nil {
		err = stats.Add(x, y)
	}
	if err != nil {
		t.Fatal(err)
	}
	file, err := stats.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	it := regress.Iterative{MaxIter: 3}
	// The predictions: fits on the 12 points, so that what is too large is
	// the test rows' work (the jackknife's weights, the path's five
	// blocks, CV+'s K predictions), not the fit.
	folds, err := interval.Folds(n, 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	sfolds, err := interval.Folds(sx.Rows, 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	jk, err := interval.RLS(regress.RLS{Kernel: g, Lambda: 1e-2}, sx, sy)
	if err != nil {
		t.Fatal(err)
	}
	ipath, err := interval.NewPath(s, []float64{1e-2}, regress.FreeIntercept)
	if err != nil {
		t.Fatal(err)
	}
	cv, err := interval.RLSCV(regress.RLS{Kernel: g, Lambda: 1e-2}, sx, sy, sfolds)
	if err != nil {
		t.Fatal(err)
	}
	_, _, _, slabels := vocabData()
	sets, err := interval.ClassifyRLS(classify.RLS{Kernel: g, Lambda: 1e-2}, sx, slabels)
	if err != nil {
		t.Fatal(err)
	}
	const tt = 40000 // test rows: 40000×2 floats = 640 KB, their work several MB
	xt := linalg.NewDense(tt, sx.Cols, nil)
	other, err := regress.NewNystromStats(g, centers)
	if err == nil {
		err = other.Add(x, y)
	}
	if err != nil {
		t.Fatal(err)
	}
	return append(scaleTooLargeRows(t, x, y, centers), []apiRow{
		{"kernels.Gram", "n = 600", func() error { return errOf(kernels.Gram(g, x)) }},
		{"kernels.CheckDegenerate", "n = 600", func() error { return kernels.CheckDegenerate(g, x) }},
		{"kernels.GramTo", "n = 600", func() error { return errOf(kernels.GramTo(nil, g, x, linalg.Lower)) }},
		{"kernels.Cross", "n = 600", func() error { return errOf(kernels.Cross(g, x, x)) }},
		{"kernels.CrossTo", "n = 600", func() error { return errOf(kernels.CrossTo(nil, g, x, x)) }},
		{"regress.RLS.Fit", "n = 600", func() error { return errOf(regress.RLS{Kernel: g, Lambda: 1e-3}.Fit(x, y)) }},
		{"regress.NewSpectral", "n = 600", func() error { return errOf(regress.NewSpectral(g, x, y)) }},
		{"regress.CG.Fit", "n = 600", func() error { return errOf(regress.CG{Kernel: g, Lambda: 1e-3, Iterative: it}.Fit(x, y)) }},
		{"regress.CGLS.Fit", "n = 600", func() error { return errOf(regress.CGLS{Kernel: g, Iterative: it}.Fit(x, y)) }},
		{"regress.Landweber.Fit", "n = 600", func() error { return errOf(regress.Landweber{Kernel: g, Iterative: it}.Fit(x, y)) }},
		{"regress.NuMethod.Fit", "n = 600", func() error { return errOf(regress.NuMethod{Kernel: g, Iterative: it}.Fit(x, y)) }},
		{"regress.Nystrom.Fit", "m = 300", func() error {
			return errOf(regress.Nystrom{Kernel: g, Lambda: 1e-3, Centers: 300}.Fit(x, y))
		}},
		{"regress.Falkon.Fit", "m = 300", func() error {
			return errOf(regress.Falkon{Kernel: g, Lambda: 1e-3, Centers: 300}.Fit(x, y))
		}},
		{"regress.Falkon.FitOperator", "m = 400", func() error {
			return errOf(regress.Falkon{Kernel: g, Lambda: 1e-3}.FitOperator(centers, zeroOperator{m: m}))
		}},
		{"regress.NewNystromStats", "m = 600", func() error { return errOf(regress.NewNystromStats(g, x)) }},
		{"regress.NystromStats.Solve", "m = 400", func() error { return errOf(stats.Solve(1e-3, regress.FreeIntercept)) }},
		{"regress.NystromStats.Gram", "m = 400", func() error { return errOf(stats.Gram(regress.FreeIntercept)) }},
		{"loo.NewNystromPath", "m = 400", func() error {
			return errOf(loo.NewNystromPath(stats, regress.FreeIntercept, []float64{1e-3}))
		}},
		{"loo.UsableNystromPath", "m = 400", func() error {
			return errOf3(loo.UsableNystromPath(stats, regress.FreeIntercept, []float64{1e-3}))
		}},
		{"loo.SelectNystrom.Fit", "m = 400", func() error {
			return errOf(loo.SelectNystrom{Kernel: func(s float64) kernels.Kernel { return kernels.Gaussian{Sigma: s} },
				Centers: centers, Sigmas: []float64{1}, Lambdas: []float64{1e-3}}.Fit(x, y))
		}},
		{"regress.NystromStats.UnmarshalBinary", "m = 400", func() error { return new(regress.NystromStats).UnmarshalBinary(file) }},
		{"loo.Nystrom", "m = 300", func() error {
			return errOf(loo.Nystrom(regress.Nystrom{Kernel: g, Lambda: 1e-3, Centers: 300}, x, y, []float64{1e-3}))
		}},
		{"loo.SelectRLS", "n = 600", func() error {
			return errOf3(loo.SelectRLS(func(s float64) kernels.Kernel { return kernels.Gaussian{Sigma: s} }, x, y, []float64{1}, []float64{1e-3}, regress.NoIntercept))
		}},
		{"loo.RLS", "20000 λ", func() error { return errOf(loo.RLS(s, manyLambdas, regress.FreeIntercept)) }},
		{"loo.Augmented", "20000 λ", func() error { return errOf(loo.Augmented(s, manyLambdas)) }},
		{"loo.Filters", "20000 filters", func() error {
			fs := make([]regress.Filter, len(manyLambdas))
			for i, l := range manyLambdas {
				fs[i] = regress.TikhonovFilter{Lambda: l}
			}
			return errOf(loo.Filters(s, fs, regress.NoIntercept))
		}},
		{"interval.RLS", "n = 600", func() error { return errOf(interval.RLS(regress.RLS{Kernel: g, Lambda: 1e-3}, x, y)) }},
		{"interval.RLSCV", "n = 600", func() error { return errOf(interval.RLSCV(regress.RLS{Kernel: g, Lambda: 1e-3}, x, y, folds)) }},
		{"interval.NewPath", "20000 λ", func() error { return errOf(interval.NewPath(s, manyLambdas, regress.FreeIntercept)) }},
		{"interval.Nystrom", "m = 300", func() error {
			return errOf(interval.Nystrom(regress.Nystrom{Kernel: g, Lambda: 1e-3, Centers: 300}, x, y))
		}},
		{"interval.NystromCV", "m = 300", func() error {
			return errOf(interval.NystromCV(regress.Nystrom{Kernel: g, Lambda: 1e-3, Centers: 300}, x, y, folds))
		}},
		{"interval.FoldModels", "m = 400", func() error {
			return errOf(interval.FoldModels([]*regress.NystromStats{stats, other}, 1e-3, regress.FreeIntercept))
		}},
		{"interval.ClassifyRLS", "n = 600", func() error {
			return errOf(interval.ClassifyRLS(classify.RLS{Kernel: g, Lambda: 1e-3}, x, labels))
		}},
		{"interval.ClassifyNystrom", "m = 300", func() error {
			return errOf(interval.ClassifyNystrom(regress.Nystrom{Kernel: g, Lambda: 1e-3, Centers: 300}, false, x, labels))
		}},
		{"interval.Jackknife.Predict", "40000 test rows", func() error { return errOf(jk.Predict(xt, 0.8)) }},
		{"interval.Path.Predict", "40000 test rows", func() error { return errOf(ipath.Predict(xt, 0.8)) }},
		{"interval.CV.Predict", "40000 test rows", func() error { return errOf(cv.Predict(xt, 0.8)) }},
		{"interval.Classes.Predict", "40000 test rows", func() error { return errOf(sets.Predict(xt, 0.8)) }},
		{"classify.RLS.Fit", "n = 600", func() error { return errOf(classify.RLS{Kernel: g, Lambda: 1e-3}.Fit(x, labels)) }},
		{"classify.RLS.Fit", "n = 600, ChooseLambda", func() error {
			return errOf(classify.RLS{Kernel: g, ChooseLambda: true}.Fit(x, labels))
		}},
		{"classify.SelectRLS.Fit", "n = 600", func() error {
			return errOf(classify.SelectRLS{Kernel: func(s float64) kernels.Kernel { return kernels.Gaussian{Sigma: s} },
				Sigmas: []float64{1}, Lambdas: []float64{1e-3}}.Fit(x, labels))
		}},
		{"classify.SelectNystrom.Fit", "m = 400", func() error {
			return errOf(classify.SelectNystrom{Selection: loo.SelectNystrom{Kernel: func(s float64) kernels.Kernel { return kernels.Gaussian{Sigma: s} },
				Centers: centers, Sigmas: []float64{1}, Lambdas: []float64{1e-3}}}.Fit(x, labels))
		}},
		{"classify.SelectScales.Fit", "m = 400", func() error {
			return errOf(classify.SelectScales{Selection: loo.SelectScales{Objective: loo.ScaleObjective{Centers: centers}, Sigma: 1, Lambda: 1e-3}}.Fit(x, labels))
		}},
		{"classify.Falkon.Fit", "m = 300", func() error {
			return errOf(classify.Falkon{Kernel: g, Lambda: 1e-3, Centers: 300}.Fit(x, labels))
		}},
		{"classify.Perceptron.Fit", "n = 600", func() error { return errOf(classify.Perceptron{Kernel: g}.Fit(x, labels)) }},
		{"classify.Logistic.Fit", "n = 600", func() error { return errOf(classify.Logistic{Kernel: g, Lambda: 1e-3}.Fit(x, labels)) }},
		{"classify.SVM.Fit", "n = 600", func() error { return errOf(classify.SVM{Kernel: g, Lambda: 1e-3}.Fit(x, labels)) }},
	}...)
}

// TestTooLargeEverywhere: every method that forms an n×n, n×m or m×m
// matrix refuses, before allocating, a problem larger than the memory
// limit with a *linalg.MemoryError — not an InputError — for which
// errors.Is(err, linalg.ErrTooLarge) holds. The limit is lowered with
// debug.SetMemoryLimit to 1 MiB, below the matrices of tooLargeRows, so
// nothing large is ever allocated.
func TestTooLargeEverywhere(t *testing.T) {
	rows := tooLargeRows(t)
	old := debug.SetMemoryLimit(1 << 20)
	defer debug.SetMemoryLimit(old)
	for _, r := range rows {
		err := r.run()
		var me *linalg.MemoryError
		var ie *linalg.InputError
		switch {
		case !errors.Is(err, linalg.ErrTooLarge) || !errors.As(err, &me):
			t.Errorf("%s: got %v, want a *linalg.MemoryError", r, err)
		case errors.As(err, &ie):
			t.Errorf("%s: %v is inside an InputError", r, err)
		case me.Limit != 1<<20 || me.Need <= me.Limit || me.Source != "Go memory limit":
			t.Errorf("%s: %+v", r, *me)
		default:
			t.Logf("%-44s %v", r, err)
		}
	}
}

// TestTooLargeOverflow: on 32-bit targets, 65536 points need an n×n matrix
// of 2³² elements, which overflows int: refused whatever the limits, with
// nothing allocated but the 512 KiB of data. (On 64-bit targets no n that
// fits in memory overflows; the limit test above covers them.)
func TestTooLargeOverflow(t *testing.T) {
	if math.MaxInt != math.MaxInt32 {
		t.Skip("n² overflows int only on 32-bit targets at sizes a test can hold")
	}
	const n = 1 << 16
	x := linalg.NewDense(n, 1, nil)
	y := linalg.NewDense(n, 1, nil)
	for i := range n {
		x.Set(i, 0, float64(i))
	}
	_, err := regress.RLS{Kernel: kernels.Linear{}, Lambda: 1}.Fit(x, y)
	if !errors.Is(err, linalg.ErrTooLarge) {
		t.Fatalf("RLS on %d points: %v, want ErrTooLarge", n, err)
	}
}
