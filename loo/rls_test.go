package loo

import (
	"errors"
	"math"
	"testing"

	"rkhs/datasets"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

var intercepts = []regress.Intercept{regress.NoIntercept, regress.FreeIntercept, regress.PenalizedIntercept}

// housing returns the first n rows of the housing data, targets as a
// column, plus a second synthetic output (a sine of the first feature) to
// exercise several outputs.
func housing(n int) (x, y *linalg.Dense) {
	d := datasets.MustLoad("housing")
	x = d.X.Slice(0, n, 0, d.X.Cols).Clone()
	y = linalg.NewDense(n, 2, nil)
	for i := 0; i < n; i++ {
		y.Set(i, 0, d.Y[i])
		y.Set(i, 1, math.Sin(3*x.At(i, 0)))
	}
	return x, y
}

// without returns x and y with row i removed.
func without(x, y *linalg.Dense, i int) (*linalg.Dense, *linalg.Dense) {
	n := x.Rows
	xr, yr := linalg.NewDense(n-1, x.Cols, nil), linalg.NewDense(n-1, y.Cols, nil)
	for r, k := 0, 0; r < n; r++ {
		if r == i {
			continue
		}
		copy(xr.Row(k), x.Row(r))
		copy(yr.Row(k), y.Row(r))
		k++
	}
	return xr, yr
}

// bruteRLS refits n times without one point, keeping the penalty nλ (so λ
// becomes nλ/(n−1) for n−1 points), and returns the residuals.
func bruteRLS(t *testing.T, k kernels.Kernel, x, y *linalg.Dense, lambda float64, ic regress.Intercept) *linalg.Dense {
	n := x.Rows
	res := linalg.NewDense(n, y.Cols, nil)
	for i := 0; i < n; i++ {
		xr, yr := without(x, y, i)
		m, err := regress.RLS{Kernel: k, Lambda: lambda * float64(n) / float64(n-1), Intercept: ic}.Fit(xr, yr)
		if err != nil {
			t.Fatal(err)
		}
		p, err := m.Predict(x.Slice(i, i+1, 0, x.Cols))
		if err != nil {
			t.Fatal(err)
		}
		for out := 0; out < y.Cols; out++ {
			res.Set(i, out, y.At(i, out)-p.At(0, out))
		}
	}
	return res
}

func maxRel(a, b *linalg.Dense) float64 {
	var num, den float64
	for i := range a.Data {
		num = math.Max(num, math.Abs(a.Data[i]-b.Data[i]))
		den = math.Max(den, math.Abs(b.Data[i]))
	}
	return num / den
}

// TestRLSBruteForce: the closed-form residuals equal n refits, for all
// three intercept modes, two outputs and several λ, on real data.
func TestRLSBruteForce(t *testing.T) {
	x, y := housing(120)
	k := kernels.Gaussian{Sigma: 1.5}
	s, err := regress.NewSpectral(k, x, y)
	if err != nil {
		t.Fatal(err)
	}
	lambdas := []float64{1e-5, 1e-3, 1e-1}
	for _, ic := range intercepts {
		p, err := RLS(s, lambdas, ic)
		if err != nil {
			t.Fatal(err)
		}
		for j, l := range lambdas {
			want := bruteRLS(t, k, x, y, l, ic)
			if r := maxRel(p.Residuals[j], want); r > 1e-9 {
				t.Errorf("%v λ=%g: closed form and refits differ by %.3g relative", ic, l, r)
			}
			if math.Abs(p.MSE[j]-meanSquare(want)) > 1e-9*meanSquare(want) {
				t.Errorf("%v λ=%g: MSE %v, refits %v", ic, l, p.MSE[j], meanSquare(want))
			}
		}
	}
}

func TestPathHelpers(t *testing.T) {
	x, y := housing(40)
	s, _ := regress.NewSpectral(kernels.Laplacian{Sigma: 2}, x, y)
	p, err := RLS(s, []float64{1e-4, 1e-2, 1}, regress.FreeIntercept)
	if err != nil {
		t.Fatal(err)
	}
	b := p.Best()
	for j := range p.MSE {
		if p.MSE[j] < p.MSE[b] {
			t.Errorf("Best() = %d but MSE[%d] = %v < %v", b, j, p.MSE[j], p.MSE[b])
		}
	}
	// Score with the mean squared error is MSE.
	sc := p.Score(func(y, pred *linalg.Dense) float64 {
		var s float64
		for i := range y.Data {
			d := y.Data[i] - pred.Data[i]
			s += d * d
		}
		return s / float64(len(y.Data))
	})
	for j := range sc {
		if math.Abs(sc[j]-p.MSE[j]) > 1e-12*p.MSE[j] {
			t.Errorf("Score(MSE)[%d] = %v, MSE %v", j, sc[j], p.MSE[j])
		}
	}
	for _, bad := range [][]float64{nil, {0}, {-1}, {math.NaN()}, {1, math.Inf(1)}} {
		if _, err := RLS(s, bad, regress.NoIntercept); !errors.Is(err, ErrInput) {
			t.Errorf("lambdas %v: %v", bad, err)
		}
	}
	if _, err := RLS(s, []float64{1}, regress.Intercept(9)); !errors.Is(err, ErrInput) {
		t.Errorf("bad intercept: %v", err)
	}
}

// TestAugmentedAgainstExplicitHat: the residuals of Tikhonov on [K 1] equal (yᵢ − ŷᵢ)/(1 − Hᵢᵢ)
// with H formed column by column from FitAugmented on unit vectors.
func TestAugmentedAgainstExplicitHat(t *testing.T) {
	x, y := housing(50)
	k := kernels.Gaussian{Sigma: 1.5}
	s, _ := regress.NewSpectral(k, x, y)
	n := x.Rows
	e := linalg.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		e.Set(i, i, 1)
	}
	se, _ := regress.NewSpectral(k, x, e)
	for _, l := range []float64{1e-4, 1e-1} {
		p, err := Augmented(s, []float64{l})
		if err != nil {
			t.Fatal(err)
		}
		m, _ := se.FitAugmented(l)
		h, _ := m.Predict(x)
		for i := 0; i < n; i++ {
			var yhat float64
			for c := 0; c < n; c++ {
				yhat += h.At(i, c) * y.At(c, 0)
			}
			want := (y.At(i, 0) - yhat) / (1 - h.At(i, i))
			if got := p.Residuals[0].At(i, 0); math.Abs(got-want) > 1e-8*(1+math.Abs(want)) {
				t.Fatalf("λ=%g point %d: %v, explicit hat %v", l, i, got, want)
			}
		}
	}
}
