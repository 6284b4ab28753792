package regress

import (
	"errors"
	"math"
	"testing"
	"time"

	"rkhs/kernels"
	"rkhs/linalg"
)

// TestNystromZeroKernel: with K_mm = 0 (the linear kernel on all-zero data)
// no jitter can be scaled to the mean diagonal; Fit must fail at once with
// ErrNotPositiveDefinite instead of looping.
func TestNystromZeroKernel(t *testing.T) {
	x := linalg.NewDense(12, 3, nil)
	y := randDense(90, 12, 1)
	done := make(chan error, 1)
	go func() {
		_, err := Nystrom{Kernel: kernels.Linear{}, Lambda: 1e-3, Centers: 1}.Fit(x, y) // the one distinct row
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, linalg.ErrNotPositiveDefinite) {
			t.Errorf("Fit on a zero kernel matrix: %v, want ErrNotPositiveDefinite", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Fit on a zero kernel matrix did not return in 10 s")
	}
}

// TestSpectralFreeInterceptNothingKept: a truncated SVD that keeps no
// eigendirection leaves c = 0, and the free intercept is then the mean of y
// (the least-squares constant), not 0/0.
func TestSpectralFreeInterceptNothingKept(t *testing.T) {
	x, y, xt := randDense(91, 12, 2), randDense(92, 12, 2), randDense(93, 5, 2)
	s, err := NewSpectral(kernels.Gaussian{Sigma: 1}, x, y)
	if err != nil {
		t.Fatal(err)
	}
	m, err := s.Fit(TruncatedSVDFilter{Lambda: 10}, FreeIntercept) // nλ = 120 > σ_max ≤ 12
	if err != nil {
		t.Fatal(err)
	}
	p := predict(t, m, xt)
	for k := 0; k < y.Cols; k++ {
		var mean float64
		for i := 0; i < y.Rows; i++ {
			mean += y.At(i, k)
		}
		mean /= float64(y.Rows)
		if !(math.Abs(m.Intercept[k]-mean) <= 1e-14) { // NaN fails too
			t.Errorf("output %d: b = %v, want the mean of y %v", k, m.Intercept[k], mean)
		}
		for i := 0; i < p.Rows; i++ {
			if !(math.Abs(p.At(i, k)-mean) <= 1e-14) {
				t.Errorf("output %d: prediction %v, want %v", k, p.At(i, k), mean)
			}
		}
	}
}

// TestIterativeHugeY: the iterations are linear in y, so y·2⁹⁹⁰ must give
// the coefficients of y times 2⁹⁹⁰ exactly (scaling by a power of two is
// exact) instead of overflowing in the squared norms.
func TestIterativeHugeY(t *testing.T) {
	x, y := randDense(94, 30, 3), randDense(95, 30, 2)
	big := y.Clone()
	const e = 990
	for i := range big.Data {
		big.Data[i] = math.Ldexp(big.Data[i], e)
	}
	opt := Iterative{MaxIter: 8}
	k := kernels.Gaussian{Sigma: 1}
	for _, ic := range intercepts {
		for name, fit := range map[string]func(y *linalg.Dense) (*IterFit, error){
			"CGLS": func(y *linalg.Dense) (*IterFit, error) {
				return CGLS{Kernel: k, Intercept: ic, Iterative: opt}.Fit(x, y)
			},
			"Landweber": func(y *linalg.Dense) (*IterFit, error) {
				return Landweber{Kernel: k, Intercept: ic, Iterative: opt}.Fit(x, y)
			},
			"Nu": func(y *linalg.Dense) (*IterFit, error) {
				return NuMethod{Kernel: k, Intercept: ic, Iterative: opt}.Fit(x, y)
			},
		} {
			small, err := fit(y)
			if err != nil {
				t.Fatalf("%s %v: %v", name, ic, err)
			}
			huge, err := fit(big)
			if err != nil {
				t.Fatalf("%s %v on y·2^%d: %v", name, ic, e, err)
			}
			for i, v := range huge.Coef.Data {
				if want := math.Ldexp(small.Coef.Data[i], e); v != want {
					t.Fatalf("%s %v: coefficient %d is %v, want %v", name, ic, i, v, want)
				}
			}
			for k, v := range huge.Intercept {
				if want := math.Ldexp(small.Intercept[k], e); v != want {
					t.Errorf("%s %v: intercept %d is %v, want %v", name, ic, k, v, want)
				}
			}
			if r, want := huge.Residuals[len(huge.Residuals)-1], math.Ldexp(small.Residuals[len(small.Residuals)-1], e); r != want {
				t.Errorf("%s %v: last residual %v, want %v", name, ic, r, want)
			}
		}
	}
}

// TestIterativeDiverges: a given step far above 2/σ_max makes Landweber and
// the ν-method diverge; that is an error, not a NaN model. An infinite ν is
// rejected up front.
func TestIterativeDiverges(t *testing.T) {
	x, y := randDense(96, 20, 3), randDense(97, 20, 1)
	k := kernels.Gaussian{Sigma: 1}
	opt := Iterative{MaxIter: 2000}
	if _, err := (Landweber{Kernel: k, Eta: 1e300, Iterative: opt}).Fit(x, y); !errors.Is(err, linalg.ErrNoConvergence) {
		t.Errorf("Landweber with η = 1e300: %v, want ErrNoConvergence", err)
	}
	if _, err := (NuMethod{Kernel: k, Eta: 1e300, Iterative: opt}).Fit(x, y); !errors.Is(err, linalg.ErrNoConvergence) {
		t.Errorf("ν-method with η = 1e300: %v, want ErrNoConvergence", err)
	}
	if _, err := (NuMethod{Kernel: k, Nu: math.Inf(1), Iterative: opt}).Fit(x, y); !errors.Is(err, ErrInput) {
		t.Errorf("ν = +Inf: %v, want ErrInput", err)
	}
}

// TestNilArguments: a nil filter or a nil X is an ErrInput error, not a
// nil-pointer panic.
func TestNilArguments(t *testing.T) {
	x, y := randDense(98, 10, 2), randDense(99, 10, 1)
	s, err := NewSpectral(kernels.Gaussian{Sigma: 1}, x, y)
	if err != nil {
		t.Fatal(err)
	}
	m, err := s.Fit(TikhonovFilter{Lambda: 1e-3}, FreeIntercept)
	if err != nil {
		t.Fatal(err)
	}
	lm, err := LinearRLS{Lambda: 1e-3}.Fit(x, y)
	if err != nil {
		t.Fatal(err)
	}
	for name, f := range map[string]func() error{
		"Spectral.Fit(nil)":          func() error { _, err := s.Fit(nil, FreeIntercept); return err },
		"Spectral.FilterValues(nil)": func() error { _, err := s.FilterValues(nil); return err },
		"Spectral.PredictPath(nil filter)": func() error {
			_, err := s.PredictPath([]PathPoint{{}}, NoIntercept, x)
			return err
		},
		"Spectral.PredictPath(nil X)": func() error { _, err := s.PredictPath(nil, NoIntercept, nil); return err },
		"Model.Predict(nil)":          func() error { _, err := m.Predict(nil); return err },
		"LinearModel.Predict(nil)":    func() error { _, err := lm.Predict(nil); return err },
	} {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("%s panicked: %v", name, r)
				}
			}()
			if err := f(); !errors.Is(err, ErrInput) {
				t.Errorf("%s: %v, want ErrInput", name, err)
			}
		}()
	}
}
