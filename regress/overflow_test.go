package regress

import (
	"errors"
	"math"
	"strings"
	"testing"

	"rkhs/kernels"
	"rkhs/linalg"
)

// TestOverflowIsAnError: a non-finite result from finite input — the MSE
// of labels near 1e300, the predictions of a model with huge coefficients,
// coefficients that overflow — is an InputError that says what overflowed,
// never a score or prediction of ±Inf returned as a result.
func TestOverflowIsAnError(t *testing.T) {
	x := linalg.NewDense(4, 1, []float64{0.1, 0.5, 0.9, 0.3})
	y := linalg.NewDense(4, 1, []float64{1e300, 1, 2, 0})
	g := kernels.Gaussian{Sigma: 1}
	want := func(name string, err error, text string) {
		t.Helper()
		var ie *linalg.InputError
		if !errors.Is(err, ErrInput) || !errors.As(err, &ie) || !strings.Contains(err.Error(), text) {
			t.Errorf("%s: %v, want an InputError saying %q", name, err, text)
		}
	}
	m, err := RLS{Kernel: g, Lambda: 1e-3, Intercept: FreeIntercept}.Fit(x, y)
	if err != nil {
		t.Fatal(err)
	}
	p, err := m.Predict(x)
	if err != nil {
		t.Fatal(err)
	}
	_, err = MSE(y, p)
	want("MSE of labels near 1e300", err, "the mean squared error overflows")

	huge := &Model{Kernel: g, Centers: x.Clone(), Coef: linalg.NewDense(4, 1, []float64{1e308, 1e308, 1e308, 1e308}), Intercept: []float64{0}}
	_, err = huge.Predict(x)
	want("Model.Predict", err, "prediction[0][0]: is +Inf from finite input")
	_, err = PredictAll([]*Model{huge}, x)
	want("PredictAll", err, "is +Inf from finite input")
	lin := &LinearModel{Weights: linalg.NewDense(1, 1, []float64{1e308}), Intercept: []float64{1e308}}
	_, err = lin.Predict(linalg.NewDense(1, 1, []float64{2}))
	want("LinearModel.Predict", err, "is +Inf from finite input")

	// Labels at the top of the range and a small λ: c = (K + nλI)⁻¹y overflows.
	big := linalg.NewDense(4, 1, []float64{math.MaxFloat64, -math.MaxFloat64, math.MaxFloat64, -math.MaxFloat64})
	_, err = RLS{Kernel: g, Lambda: 1e-12}.Fit(x, big)
	want("RLS.Fit", err, "the coefficients overflow")
	s, err := NewSpectral(g, x, big)
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Fit(TikhonovFilter{Lambda: 1e-12}, NoIntercept)
	want("Spectral.Fit", err, "the coefficients overflow")
}
