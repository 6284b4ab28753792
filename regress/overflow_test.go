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
	want("Model.Predict", err, "prediction: row 1, column 1 is +Inf from finite input")
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

// TestPredictFarRow: a row with one value of 1.5e308, infinitely far (in
// float64) from every centre, is predicted as the intercept alone — its
// Gaussian kernel values are 0 — and the other rows as without it, bit
// for bit; so it is with standardized features whose scale keeps the row
// finite (a scale below 0.84 sends it beyond the float64 range, which
// Standardization.Apply reports). A model whose kernel
// overflows on such a row (a polynomial) is still an error, which names
// the row 1-based.
func TestPredictFarRow(t *testing.T) {
	x := randDense(11, 40, 3)
	for i := range x.Data {
		x.Data[i] *= 10 // standard deviations about 5.8
	}
	y := randDense(12, 40, 1)
	test := randDense(13, 6, 3)
	far := test.Clone()
	far.Set(4, 2, 1.5e308)
	s, err := kernels.StandardizationOf(x)
	if err != nil {
		t.Fatal(err)
	}
	xs, _ := s.Apply(x)
	m, err := Nystrom{Kernel: kernels.Gaussian{Sigma: 1.5}, Lambda: 1e-3, Centers: 10, Seed: 3, Intercept: FreeIntercept}.Fit(xs, y)
	if err != nil {
		t.Fatal(err)
	}
	for _, std := range []*kernels.Standardization{nil, s} {
		m.Standardization = std
		want, err := m.Predict(test)
		if err != nil {
			t.Fatal(err)
		}
		got, err := m.Predict(far)
		if err != nil {
			t.Fatalf("standardized %v: %v", std != nil, err)
		}
		want.Set(4, 0, m.Intercept[0])
		for i := range got.Rows {
			if math.Float64bits(got.At(i, 0)) != math.Float64bits(want.At(i, 0)) {
				t.Errorf("standardized %v: prediction %d = %v, want %v", std != nil, i, got.At(i, 0), want.At(i, 0))
			}
		}
	}
	poly := &Model{Kernel: kernels.Polynomial{Degree: 2}, Centers: test.Clone(), Coef: linalg.NewDense(6, 1, nil), Intercept: []float64{0}}
	_, err = poly.Predict(far)
	if !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), "row 5 of X") {
		t.Errorf("polynomial: %v, want ErrInput naming row 5 of X", err)
	}
}
