package rkhs_test

import (
	"errors"
	"math"
	"runtime/debug"
	"testing"

	"rkhs/classify"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/loo"
	"rkhs/regress"
)

// TestTooLargeEverywhere: every method that forms an n×n (or n×m) matrix
// refuses, before allocating, a problem larger than the memory limit with
// a *linalg.MemoryError — not an InputError — for which
// errors.Is(err, linalg.ErrTooLarge) holds. The limit is lowered with
// debug.SetMemoryLimit to 1 MiB, below the 2.9 MB of one 600×600 matrix,
// so nothing large is ever allocated; a 12-point spectral decomposition
// built before the limit drops serves the loo paths, whose own work
// matrices are checked with a long λ list.
func TestTooLargeEverywhere(t *testing.T) {
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
	it := regress.Iterative{MaxIter: 3}
	calls := []struct {
		name string
		f    func() error
	}{
		{"kernels.Gram", func() error { return errOf(kernels.Gram(g, x)) }},
		{"kernels.Cross", func() error { return errOf(kernels.Cross(g, x, x)) }},
		{"regress.RLS", func() error { return errOf(regress.RLS{Kernel: g, Lambda: 1e-3}.Fit(x, y)) }},
		{"regress.NewSpectral", func() error { return errOf(regress.NewSpectral(g, x, y)) }},
		{"regress.CG", func() error { return errOf(regress.CG{Kernel: g, Lambda: 1e-3, Iterative: it}.Fit(x, y)) }},
		{"regress.CGLS", func() error { return errOf(regress.CGLS{Kernel: g, Iterative: it}.Fit(x, y)) }},
		{"regress.Landweber", func() error { return errOf(regress.Landweber{Kernel: g, Iterative: it}.Fit(x, y)) }},
		{"regress.NuMethod", func() error { return errOf(regress.NuMethod{Kernel: g, Iterative: it}.Fit(x, y)) }},
		{"regress.Nystrom", func() error { return errOf(regress.Nystrom{Kernel: g, Lambda: 1e-3, Centers: 300}.Fit(x, y)) }},
		{"loo.Nystrom", func() error {
			return errOf(loo.Nystrom(regress.Nystrom{Kernel: g, Lambda: 1e-3, Centers: 300}, x, y, []float64{1e-3}))
		}},
		{"loo.RLS", func() error { return errOf(loo.RLS(s, manyLambdas, regress.FreeIntercept)) }},
		{"loo.Augmented", func() error { return errOf(loo.Augmented(s, manyLambdas)) }},
		{"loo.Filters", func() error {
			fs := make([]regress.Filter, len(manyLambdas))
			for i, l := range manyLambdas {
				fs[i] = regress.TikhonovFilter{Lambda: l}
			}
			return errOf(loo.Filters(s, fs, regress.NoIntercept))
		}},
		{"classify.RLS", func() error { return errOf(classify.RLS{Kernel: g, Lambda: 1e-3}.Fit(x, labels)) }},
		{"classify.RLS (ChooseLambda)", func() error { return errOf(classify.RLS{Kernel: g, ChooseLambda: true}.Fit(x, labels)) }},
		{"classify.Perceptron", func() error { return errOf(classify.Perceptron{Kernel: g}.Fit(x, labels)) }},
		{"classify.Logistic", func() error { return errOf(classify.Logistic{Kernel: g, Lambda: 1e-3}.Fit(x, labels)) }},
		{"classify.SVM", func() error { return errOf(classify.SVM{Kernel: g, Lambda: 1e-3}.Fit(x, labels)) }},
	}
	old := debug.SetMemoryLimit(1 << 20)
	defer debug.SetMemoryLimit(old)
	for _, c := range calls {
		err := c.f()
		var me *linalg.MemoryError
		var ie *linalg.InputError
		switch {
		case !errors.Is(err, linalg.ErrTooLarge) || !errors.As(err, &me):
			t.Errorf("%s: got %v, want a *linalg.MemoryError", c.name, err)
		case errors.As(err, &ie):
			t.Errorf("%s: %v is inside an InputError", c.name, err)
		case me.Limit != 1<<20 || me.Need <= me.Limit || me.Source != "Go memory limit":
			t.Errorf("%s: %+v", c.name, *me)
		default:
			t.Logf("%-28s %v", c.name, err)
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
