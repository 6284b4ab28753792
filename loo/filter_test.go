package loo

import (
	"errors"
	"math"
	"testing"

	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

// TestFiltersTikhonovExact: the hat-matrix path of the Tikhonov filter is
// the exact RLS path.
func TestFiltersTikhonovExact(t *testing.T) {
	x, y := housing(100)
	s, err := regress.NewSpectral(kernels.Gaussian{Sigma: 2}, x, y)
	if err != nil {
		t.Fatal(err)
	}
	lambdas := []float64{1e-6, 1e-3, 1}
	fs := make([]regress.Filter, len(lambdas))
	for j, l := range lambdas {
		fs[j] = regress.TikhonovFilter{Lambda: l}
	}
	for _, ic := range []regress.Intercept{regress.NoIntercept, regress.FreeIntercept} {
		exact, _ := RLS(s, lambdas, ic)
		hat, err := Filters(s, fs, ic)
		if err != nil {
			t.Fatal(err)
		}
		for j := range lambdas {
			if r := maxRel(hat.Residuals[j], exact.Residuals[j]); r > 1e-9 {
				t.Errorf("%v λ=%g: hat-matrix and closed-form residuals differ by %.3g", ic, lambdas[j], r)
			}
		}
	}
}

// TestFiltersAgainstExplicitHat: for every filter, LOO residuals and GCV
// equal their definitions computed from the explicit n×n hat matrix
// (H = K·C where column i of C is the fit to the unit vector eᵢ).
func TestFiltersAgainstExplicitHat(t *testing.T) {
	x, y := housing(60)
	k := kernels.Gaussian{Sigma: 1.5}
	s, err := regress.NewSpectral(k, x, y)
	if err != nil {
		t.Fatal(err)
	}
	fs := []regress.Filter{regress.TikhonovFilter{Lambda: 1e-3}, regress.TruncatedSVDFilter{Lambda: 1e-3}, regress.LandweberFilter{Steps: 30}, regress.NuFilter{Steps: 6}, regress.IteratedTikhonovFilter{Lambda: 1e-2, Steps: 3}}
	n := x.Rows
	for _, ic := range []regress.Intercept{regress.NoIntercept, regress.FreeIntercept} {
		p, err := Filters(s, fs, ic)
		if err != nil {
			t.Fatal(err)
		}
		for j, f := range fs {
			// H column by column: the fit to eᵢ, predicted at the training
			// points (the model is linear in y).
			e := linalg.NewDense(n, n, nil)
			for i := 0; i < n; i++ {
				e.Set(i, i, 1)
			}
			se, err := regress.NewSpectral(k, x, e)
			if err != nil {
				t.Fatal(err)
			}
			m, err := se.Fit(f, ic)
			if err != nil {
				t.Fatal(err)
			}
			h, _ := m.Predict(x) // h[r][i] = H_ri
			var gcv float64
			for out := 0; out < 2; out++ {
				var rr, tr float64
				for i := 0; i < n; i++ {
					yhat := 0.0
					for c := 0; c < n; c++ {
						yhat += h.At(i, c) * y.At(c, out)
					}
					r := y.At(i, out) - yhat
					rr += r * r
					tr += 1 - h.At(i, i)
					want := r / (1 - h.At(i, i))
					if got := p.Residuals[j].At(i, out); math.Abs(got-want) > 1e-8*(1+math.Abs(want)) {
						t.Fatalf("%v %v point %d: residual %v, explicit hat matrix %v", ic, f, i, got, want)
					}
				}
				gcv += float64(n) * rr / (tr * tr) / 2 // mean over the two outputs
			}
			if math.Abs(p.GCV[j]-gcv) > 1e-8*gcv {
				t.Errorf("%v %v: GCV %v, from its definition %v", ic, f, p.GCV[j], gcv)
			}
		}
	}
	if _, err := Filters(s, fs, regress.PenalizedIntercept); !errors.Is(err, ErrInput) {
		t.Errorf("penalized intercept: %v", err)
	}
	if _, err := Filters(s, nil, regress.NoIntercept); !errors.Is(err, ErrInput) {
		t.Errorf("no filters: %v", err)
	}
}
