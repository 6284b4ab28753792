package loo

import (
	"errors"
	"math"
	"runtime"
	"slices"
	"testing"

	"rkhs/internal/testmat"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

// streamSetup summarises x, y with the first m rows of x as centres.
func streamSetup(t *testing.T, k kernels.Kernel, x, y *linalg.Dense, m int) (*regress.NystromStats, *linalg.Dense) {
	t.Helper()
	c := x.Slice(0, m, 0, x.Cols).Clone()
	s, err := regress.NewNystromStats(k, c)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Add(x, y); err != nil {
		t.Fatal(err)
	}
	return s, c
}

// streamAll adds the rows of x, y to p in blocks of b rows.
func streamAll(t *testing.T, p *NystromPath, x, y *linalg.Dense, b int) {
	t.Helper()
	for i := 0; i < x.Rows; i += b {
		j := min(i+b, x.Rows)
		if err := p.Add(x.Slice(i, j, 0, x.Cols), y.Slice(i, j, 0, y.Cols)); err != nil {
			t.Fatal(err)
		}
	}
}

// TestNystromPathMatchesInMemory: the streamed leave-one-out MSE equals
// the in-memory Nystrom path (which forms B) in every intercept mode, with
// two outputs, to 1e-9.
func TestNystromPathMatchesInMemory(t *testing.T) {
	x, y := housing(150)
	k := kernels.Gaussian{Sigma: 1.5}
	lambdas := Geometric(1e-5, 1, 6)
	s, c := streamSetup(t, k, x, y, 30)
	for _, ic := range intercepts {
		want, err := Nystrom(regress.Nystrom{Kernel: k, Given: c, Intercept: ic}, x, y, lambdas)
		if err != nil {
			t.Fatal(err)
		}
		p, err := NewNystromPath(s, ic, lambdas)
		if err != nil {
			t.Fatal(err)
		}
		streamAll(t, p, x, y, 37)
		got, err := p.MSE()
		if err != nil {
			t.Fatal(err)
		}
		for j := range lambdas {
			if r := math.Abs(got[j]-want.MSE[j]) / want.MSE[j]; r > 1e-9 {
				t.Errorf("%v λ=%g: streamed LOO MSE %.12g, in memory %.12g (rel %.2g)", ic, lambdas[j], got[j], want.MSE[j], r)
			}
		}
	}
}

// TestNystromPathGCVBruteForce: tr H, the training error and GCV equal
// the hat matrix formed column by column (the fit of each unit vector eᵢ,
// by NystromStats.Solve and Predict), in every intercept mode.
func TestNystromPathGCVBruteForce(t *testing.T) {
	x, y := housing(60)
	n := x.Rows
	k := kernels.Gaussian{Sigma: 2}
	lambdas := []float64{1e-4, 1e-2, 1}
	c := x.Slice(0, 15, 0, x.Cols).Clone()
	// Statistics of Y = [y | I]: the first two outputs are the data, the
	// other n give the columns of H.
	yi := linalg.NewDense(n, 2+n, nil)
	for i := 0; i < n; i++ {
		copy(yi.Row(i), y.Row(i))
		yi.Set(i, 2+i, 1)
	}
	sBig, err := regress.NewNystromStats(k, c)
	if err != nil {
		t.Fatal(err)
	}
	if err := sBig.Add(x, yi); err != nil {
		t.Fatal(err)
	}
	s, _ := streamSetup(t, k, x, y, 15)
	for _, ic := range intercepts {
		p, err := NewNystromPath(s, ic, lambdas)
		if err != nil {
			t.Fatal(err)
		}
		streamAll(t, p, x, y, n)
		train, err := p.TrainMSE()
		if err != nil {
			t.Fatal(err)
		}
		for j, l := range lambdas {
			fit, err := sBig.Solve(l, ic)
			if err != nil {
				t.Fatal(err)
			}
			pr, err := fit.Predict(x)
			if err != nil {
				t.Fatal(err)
			}
			var tr, gcv, mse float64
			for i := 0; i < n; i++ {
				tr += pr.At(i, 2+i)
			}
			for out := 0; out < 2; out++ {
				var rss float64
				for i := 0; i < n; i++ {
					r := y.At(i, out) - pr.At(i, out)
					rss += r * r
				}
				gcv += float64(n) * rss / ((float64(n) - tr) * (float64(n) - tr)) / 2
				mse += rss / float64(2*n)
			}
			for _, c := range []struct {
				what      string
				got, want float64
			}{{"tr H", p.DF[j], tr}, {"GCV", p.GCV[j], gcv}, {"training MSE", train[j], mse}} {
				if r := math.Abs(c.got-c.want) / c.want; r > 1e-8 {
					t.Errorf("%v λ=%g: %s %.12g, brute force %.12g (rel %.2g)", ic, l, c.what, c.got, c.want, r)
				}
			}
		}
	}
}

// TestNystromPathErrorRate: the classification error of the
// leave-one-out predictions, for ±1 labels and for one against all,
// equals what the in-memory residuals give.
func TestNystromPathErrorRate(t *testing.T) {
	x, y := housing(120)
	n := x.Rows
	k := kernels.Gaussian{Sigma: 1.5}
	lambdas := Geometric(1e-4, 1e-1, 4)
	bin := linalg.NewDense(n, 1, nil) // above or below 22
	ova := linalg.NewDense(n, 3, nil) // three bands of the target
	for i := 0; i < n; i++ {
		v := y.At(i, 0)
		bin.Set(i, 0, -1)
		if v > 22 {
			bin.Set(i, 0, 1)
		}
		cls := 0
		if v > 18 {
			cls = 1
		}
		if v > 25 {
			cls = 2
		}
		for j := 0; j < 3; j++ {
			ova.Set(i, j, -1)
		}
		ova.Set(i, cls, 1)
	}
	for _, labels := range []*linalg.Dense{bin, ova} {
		s, c := streamSetup(t, k, x, labels, 25)
		want, err := Nystrom(regress.Nystrom{Kernel: k, Given: c, Intercept: regress.FreeIntercept}, x, labels, lambdas)
		if err != nil {
			t.Fatal(err)
		}
		p, err := NewNystromPath(s, regress.FreeIntercept, lambdas)
		if err != nil {
			t.Fatal(err)
		}
		streamAll(t, p, x, labels, 50)
		got, err := p.ErrorRate()
		if err != nil {
			t.Fatal(err)
		}
		for j := range lambdas {
			pred := want.Predictions(j)
			wrong := 0
			for i := 0; i < n; i++ {
				if labels.Cols == 1 {
					if (pred.At(i, 0) > 0) != (labels.At(i, 0) > 0) {
						wrong++
					}
					continue
				}
				best := 0
				for o := 1; o < 3; o++ {
					if pred.At(i, o) > pred.At(i, best) {
						best = o
					}
				}
				if labels.At(i, best) != 1 {
					wrong++
				}
			}
			if w := float64(wrong) / float64(n); got[j] != w {
				t.Errorf("%d outputs, λ=%g: error rate %g, from the in-memory residuals %g", labels.Cols, lambdas[j], got[j], w)
			}
		}
	}
}

// TestNystromPathMergeAndProcs: two halves merged agree with one pass to
// rounding, and the results are bit-identical for GOMAXPROCS 1, 2 and 8.
func TestNystromPathMergeAndProcs(t *testing.T) {
	testmat.SkipSingleThreaded(t)
	x, y := housing(300)
	k := kernels.Gaussian{Sigma: 1.5}
	lambdas := Geometric(1e-5, 1, 5)
	s, _ := streamSetup(t, k, x, y, 120)
	run := func(procs int) ([]float64, []float64) {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		p, err := NewNystromPath(s, regress.FreeIntercept, lambdas)
		if err != nil {
			t.Fatal(err)
		}
		streamAll(t, p, x, y, x.Rows)
		mse, _ := p.MSE()
		return mse, p.GCV
	}
	mse1, gcv1 := run(1)
	for _, procs := range []int{2, 8} {
		mse, gcv := run(procs)
		for j := range lambdas {
			if math.Float64bits(mse[j]) != math.Float64bits(mse1[j]) || math.Float64bits(gcv[j]) != math.Float64bits(gcv1[j]) {
				t.Errorf("GOMAXPROCS %d, λ=%g: MSE %v GCV %v, at 1: %v %v", procs, lambdas[j], mse[j], gcv[j], mse1[j], gcv1[j])
			}
		}
	}
	a, _ := NewNystromPath(s, regress.FreeIntercept, lambdas)
	b, _ := NewNystromPath(s, regress.FreeIntercept, lambdas)
	streamAll(t, a, x.Slice(0, 170, 0, x.Cols), y.Slice(0, 170, 0, 2), 64)
	streamAll(t, b, x.Slice(170, 300, 0, x.Cols), y.Slice(170, 300, 0, 2), 64)
	if err := a.Merge(b); err != nil {
		t.Fatal(err)
	}
	merged, _ := a.MSE()
	for j := range lambdas {
		if r := math.Abs(merged[j]-mse1[j]) / mse1[j]; r > 1e-12 {
			t.Errorf("λ=%g: merged halves %.15g, one pass %.15g", lambdas[j], merged[j], mse1[j])
		}
	}
	if a.Rows() != 300 {
		t.Errorf("Rows after Merge = %d, want 300", a.Rows())
	}
}

// TestNystromPathBadInput: every misuse is an InputError, and a failed
// Add leaves the path as it was.
func TestNystromPathBadInput(t *testing.T) {
	x, y := housing(40)
	k := kernels.Gaussian{Sigma: 1.5}
	s, _ := streamSetup(t, k, x, y, 10)
	other, _ := streamSetup(t, k, x, y, 11)
	nan := x.Clone()
	nan.Set(3, 1, math.NaN())
	good := func() *NystromPath {
		p, err := NewNystromPath(s, regress.FreeIntercept, []float64{1e-3, 1e-1})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	fresh, _ := regress.NewNystromStats(k, x.Slice(0, 10, 0, x.Cols))
	ones := linalg.NewDense(40, 1, nil)
	for _, c := range []struct {
		name string
		run  func() error
		nf   bool
	}{
		{"λ = 0", func() error { _, err := NewNystromPath(s, regress.FreeIntercept, []float64{1, 0}); return err }, false},
		{"λ NaN", func() error { _, err := NewNystromPath(s, regress.FreeIntercept, []float64{math.NaN()}); return err }, true},
		{"no λ", func() error { _, err := NewNystromPath(s, regress.FreeIntercept, nil); return err }, false},
		{"bad intercept", func() error { _, err := NewNystromPath(s, regress.Intercept(7), []float64{1}); return err }, false},
		{"nil stats", func() error { _, err := NewNystromPath(nil, regress.FreeIntercept, []float64{1}); return err }, false},
		{"zero stats", func() error {
			_, err := NewNystromPath(new(regress.NystromStats), regress.FreeIntercept, []float64{1})
			return err
		}, false},
		{"no rows", func() error { _, err := NewNystromPath(fresh, regress.FreeIntercept, []float64{1}); return err }, false},
		{"NaN in X", func() error { return good().Add(nan, y) }, true},
		{"X columns", func() error { return good().Add(x.Slice(0, 40, 0, 2), y) }, false},
		{"Y outputs", func() error { return good().Add(x, ones) }, false},
		{"Y rows", func() error { return good().Add(x, y.Slice(0, 39, 0, 2)) }, false},
		{"too many rows", func() error {
			p := good()
			_ = p.Add(x, y)
			return p.Add(x.Slice(0, 1, 0, x.Cols), y.Slice(0, 1, 0, 2))
		}, false},
		{"MSE before Add", func() error { _, err := good().MSE(); return err }, false},
		{"zero path", func() error { return new(NystromPath).Add(x, y) }, false},
		{"merge other stats", func() error {
			o, _ := NewNystromPath(other, regress.FreeIntercept, []float64{1e-3, 1e-1})
			return good().Merge(o)
		}, false},
		{"merge other λ", func() error {
			o, _ := NewNystromPath(s, regress.FreeIntercept, []float64{1e-3, 1})
			return good().Merge(o)
		}, false},
	} {
		err := c.run()
		if !errors.Is(err, ErrInput) {
			t.Errorf("%s: err = %v, want ErrInput", c.name, err)
		}
		if c.nf && !errors.Is(err, linalg.ErrNotFinite) {
			t.Errorf("%s: err = %v, want linalg.ErrNotFinite too", c.name, err)
		}
	}
	// A failed Add changes nothing.
	p := good()
	if err := p.Add(nan, y); err == nil {
		t.Fatal("Add with NaN succeeded")
	}
	if p.Rows() != 0 {
		t.Errorf("Rows after a failed Add = %d, want 0", p.Rows())
	}
}

// TestNystromPathFit: the fit read from the path equals
// NystromStats.Solve's at every λ and intercept mode (the same model
// computed two ways: eigendecomposition of G, Cholesky of G + nλI), to a
// tolerance that follows the condition ‖G‖/(nλ); the model holds its own
// centres; an index outside the path panics.
func TestNystromPathFit(t *testing.T) {
	x, y := housing(200)
	c := x.Slice(0, 40, 0, x.Cols).Clone()
	lambdas := Geometric(1e-6, 1e-1, 6)
	for _, ic := range intercepts {
		stats, err := regress.NewNystromStats(kernels.Gaussian{Sigma: 1.5}, c)
		if err == nil {
			err = stats.Add(x, y)
		}
		if err != nil {
			t.Fatal(err)
		}
		p, err := NewNystromPath(stats, ic, lambdas)
		if err != nil {
			t.Fatal(err)
		}
		for j, l := range lambdas {
			got := p.Fit(j)
			want, err := stats.Solve(l, ic)
			if err != nil {
				t.Fatal(err)
			}
			tol := 1e-11 + 1e-15/l // about 5ε·‖G‖/(nλ) (‖G‖/n ≤ 1 for a Gaussian kernel), and a floor
			if e := maxRel(got.Coef, want.Coef); !(e <= tol) {
				t.Errorf("%v λ=%g: coefficients differ by %.2g relative, want ≤ %.2g", ic, l, e, tol)
			}
			pg, _ := got.Predict(x)
			pw, _ := want.Predict(x)
			if e := maxRel(pg, pw); !(e <= tol) {
				t.Errorf("%v λ=%g: predictions differ by %.2g relative, want ≤ %.2g", ic, l, e, tol)
			}
			if got.Jitter != want.Jitter || got.Centers == c || !slices.Equal(got.Centers.Data, c.Data) {
				t.Errorf("%v λ=%g: jitter %g (want %g), or the centres are not a copy", ic, l, got.Jitter, want.Jitter)
			}
		}
		for _, j := range []int{-1, len(lambdas)} {
			func() {
				defer func() {
					if recover() == nil {
						t.Errorf("%v: Fit(%d) did not panic", ic, j)
					}
				}()
				p.Fit(j)
			}()
		}
	}
}
