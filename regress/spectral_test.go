package regress

import (
	"errors"
	"math"
	"testing"

	"rkhs/kernels"
	"rkhs/linalg"
)

// TestSpectralTikhonovIsRLS: the Tikhonov filter from one
// eigendecomposition equals the Cholesky fit, in all three intercept modes
// (the penalized one by Sherman–Morrison in the eigenbasis).
func TestSpectralTikhonovIsRLS(t *testing.T) {
	x, y, xt := randDense(40, 90, 4), randDense(41, 90, 2), randDense(42, 20, 4)
	k := kernels.Gaussian{Sigma: 1.2}
	s, err := NewSpectral(k, x, y)
	if err != nil {
		t.Fatal(err)
	}
	for _, lambda := range []float64{1e-6, 1e-3, 1} {
		for _, ic := range intercepts {
			want, err := RLS{Kernel: k, Lambda: lambda, Intercept: ic}.Fit(x, y)
			if err != nil {
				t.Fatal(err)
			}
			got, err := s.Fit(TikhonovFilter{Lambda: lambda}, ic)
			if err != nil {
				t.Fatal(err)
			}
			if r := relDiff(predict(t, got, xt), predict(t, want, xt)); r > 1e-9 {
				t.Errorf("λ=%g %v: eigen route and Cholesky differ by %.3g relative", lambda, ic, r)
			}
			for k := range want.Intercept {
				if math.Abs(got.Intercept[k]-want.Intercept[k]) > 1e-9*(1+math.Abs(want.Intercept[k])) {
					t.Errorf("λ=%g %v: b = %v, Cholesky gives %v", lambda, ic, got.Intercept[k], want.Intercept[k])
				}
			}
		}
	}
}

// TestTruncatedSVDAllComponents: keeping every eigenvalue of an invertible
// K gives K⁻¹y, here computed by a Cholesky solve with K itself.
func TestTruncatedSVDAllComponents(t *testing.T) {
	x, y := randDense(43, 40, 3), randDense(44, 40, 1)
	k := kernels.Laplacian{Sigma: 0.5} // well conditioned on spread points
	s, err := NewSpectral(k, x, y)
	if err != nil {
		t.Fatal(err)
	}
	vals := s.Values()
	lambda := vals[0] / 2 / 40 // nλ below the smallest eigenvalue
	m, err := s.Fit(TruncatedSVDFilter{Lambda: lambda}, NoIntercept)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := kernels.Gram(k, x)
	var ch linalg.Cholesky
	if err := ch.Factorize(g); err != nil {
		t.Fatal(err)
	}
	want := ch.SolveTo(nil, y)
	if r := relDiff(m.Coef, want); r > 1e-10*vals[len(vals)-1]/vals[0] {
		t.Errorf("TSVD with all components differs from K⁻¹y by %.3g relative (condition %.3g)", r, vals[len(vals)-1]/vals[0])
	}
	// Dropping the top half of the threshold range leaves fewer components:
	// the coefficients must change.
	m2, _ := s.Fit(TruncatedSVDFilter{Lambda: vals[20] / 40}, NoIntercept)
	if relDiff(m2.Coef, want) < 1e-3 {
		t.Errorf("a cut-off in the middle of the spectrum did not change the fit")
	}
}

// TestFilterLimits: t = 1 iterated Tikhonov is Tikhonov; every filter tends
// to 1/σ as its parameter goes to the unregularized limit; Landweber's and
// the ν-method's closed forms agree with running their scalar iterations.
func TestFilterLimits(t *testing.T) {
	sigma := []float64{1e-3, 0.1, 1, 5, 10}
	n := 50
	sigmaMax := 10.0
	vals := func(f Filter) []float64 {
		g := make([]float64, len(sigma))
		if err := f.values("test", g, sigma, n, sigmaMax); err != nil {
			t.Fatal(err)
		}
		return g
	}
	a, b := vals(IteratedTikhonovFilter{Lambda: 0.01, Steps: 1}), vals(TikhonovFilter{Lambda: 0.01})
	for i := range a {
		if math.Abs(a[i]-b[i]) > 1e-14*b[i] {
			t.Errorf("iterated Tikhonov t=1 at σ=%v: %v, Tikhonov %v", sigma[i], a[i], b[i])
		}
	}
	// The ν-method's residual polynomial decays like (ησt²)^(−ν), so at
	// ησ = 10⁻⁴ and t = 20000 it is only down to about 10⁻⁵.
	for _, tc := range []struct {
		f   Filter
		tol float64
	}{{TikhonovFilter{Lambda: 1e-14}, 1e-9}, {TruncatedSVDFilter{Lambda: 1e-14}, 1e-15}, {IteratedTikhonovFilter{Lambda: 1e-6, Steps: 50}, 1e-9}, {LandweberFilter{Steps: 200000}, 1e-8}, {NuFilter{Steps: 20000}, 3e-5}} {
		f := tc.f
		for i, g := range vals(f) {
			if math.Abs(g*sigma[i]-1) > tc.tol {
				t.Errorf("%v at σ=%v: σ·g(σ) = %v, want → 1", f, sigma[i], g*sigma[i])
			}
		}
	}
	// Landweber: the closed form against t explicit steps on σc = 1.
	for _, steps := range []int{1, 2, 7, 100} {
		g := vals(LandweberFilter{Steps: steps, Eta: 0.05})
		for i, s := range sigma {
			var c float64
			for k := 0; k < steps; k++ {
				c += 0.05 * (1 - s*c)
			}
			if math.Abs(g[i]-c) > 1e-12*math.Abs(c) {
				t.Errorf("Landweber t=%d σ=%v: filter %v, iteration %v", steps, s, g[i], c)
			}
		}
	}
	// The ν-method at t=1 is one step of ω₁·η.
	g := vals(NuFilter{Steps: 1, Nu: 1, Eta: 0.1})
	for i := range g {
		if want := 0.1 * 6.0 / 5.0; math.Abs(g[i]-want) > 1e-15 {
			t.Errorf("ν-method t=1: %v, want ω₁η = %v", g[i], want)
		}
	}
}

// TestFitAugmented: Tikhonov on [K 1] from the eigendecomposition equals the
// (n+1)×(n+1) system (K̃ᵀK̃ + nλI)c̃ = K̃ᵀy solved by Cholesky.
func TestFitAugmented(t *testing.T) {
	x, y, xt := randDense(45, 60, 3), randDense(46, 60, 1), randDense(47, 10, 3)
	k := kernels.Gaussian{Sigma: 0.8}
	s, err := NewSpectral(k, x, y)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := kernels.Gram(k, x)
	n := 60
	kt := linalg.NewDense(n, n+1, nil) // K̃ = [K 1]
	kt.Slice(0, n, 0, n).Copy(g)
	for i := 0; i < n; i++ {
		kt.Set(i, n, 1)
	}
	for _, lambda := range []float64{1e-8, 1e-4, 1e-1} {
		a := linalg.NewDense(n+1, n+1, nil)
		linalg.Syrk(linalg.Lower, linalg.Trans, 1, kt, 0, a)
		for i := 0; i <= n; i++ {
			a.Set(i, i, a.At(i, i)+float64(n)*lambda)
		}
		rhs := linalg.NewDense(n+1, 1, nil)
		linalg.Gemm(linalg.Trans, linalg.NoTrans, 1, kt, y, 0, rhs)
		var ch linalg.Cholesky
		if err := ch.Factorize(a); err != nil {
			t.Fatal(err)
		}
		ct := ch.SolveTo(nil, rhs)
		want := &Model{Kernel: k, Centers: x, Coef: ct.Slice(0, n, 0, 1), Intercept: []float64{ct.At(n, 0)}}
		got, err := s.FitAugmented(lambda)
		if err != nil {
			t.Fatal(err)
		}
		if r := relDiff(predict(t, got, xt), predict(t, want, xt)); r > 1e-8 {
			t.Errorf("λ=%g: TIKH from the eigendecomposition differs from the normal equations by %.3g", lambda, r)
		}
	}
}

// TestPredictPath: a path of predictions equals fitting and predicting
// each point, for several filters and for TIKH.
func TestPredictPath(t *testing.T) {
	x, y, xt := randDense(48, 50, 2), randDense(49, 50, 2), randDense(50, 7, 2)
	s, err := NewSpectral(kernels.Gaussian{Sigma: 1}, x, y)
	if err != nil {
		t.Fatal(err)
	}
	path := []PathPoint{{Filter: TikhonovFilter{Lambda: 1e-3}}, {Filter: TruncatedSVDFilter{Lambda: 1e-3}}, {Filter: LandweberFilter{Steps: 20}}, {Filter: NuFilter{Steps: 8}}, {Filter: IteratedTikhonovFilter{Lambda: 1e-2, Steps: 3}}, {Augmented: 1e-3}}
	for _, ic := range []Intercept{NoIntercept, FreeIntercept} {
		preds, err := s.PredictPath(path, ic, xt)
		if err != nil {
			t.Fatal(err)
		}
		models, err := s.FitPath(path, ic)
		if err != nil {
			t.Fatal(err)
		}
		for j, pt := range path {
			var m *Model
			if pt.Filter == nil {
				m, err = s.FitAugmented(pt.Augmented)
			} else {
				m, err = s.Fit(pt.Filter, ic)
			}
			if err != nil {
				t.Fatal(err)
			}
			if r := relDiff(preds[j], predict(t, m, xt)); r > 1e-12 {
				t.Errorf("%v point %d: path and fit differ by %.3g", ic, j, r)
			}
			if r := relDiff(models[j].Coef, m.Coef); r > 1e-12 || models[j].Intercept[0] != m.Intercept[0] {
				t.Errorf("%v point %d: FitPath and Fit differ by %.3g", ic, j, r)
			}
		}
	}
	if _, err := s.Fit(LandweberFilter{Steps: 5}, PenalizedIntercept); !errors.Is(err, ErrInput) {
		t.Errorf("penalized intercept with Landweber: %v", err)
	}
	for _, f := range []Filter{TikhonovFilter{}, LandweberFilter{}, NuFilter{Steps: 1, Nu: -1}, IteratedTikhonovFilter{Lambda: 1}, LandweberFilter{Steps: 1, Eta: math.Inf(1)}} {
		if _, err := s.Fit(f, NoIntercept); !errors.Is(err, ErrInput) {
			t.Errorf("%v: err = %v, want ErrInput", f, err)
		}
	}
}
