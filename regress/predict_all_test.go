package regress

import (
	"errors"
	"math"
	"testing"

	"rkhs/kernels"
	"rkhs/linalg"
)

// TestPredictAll: the predictions of every model of a path from one
// cross-kernel matrix equal those of Model.Predict, and models that do not
// share kernel and centres are refused.
func TestPredictAll(t *testing.T) {
	x, y := randDense(71, 40, 3), randDense(72, 40, 2)
	xt := randDense(73, 25, 3)
	k := kernels.Gaussian{Sigma: 1.3}
	s, err := NewSpectral(k, x, y)
	if err != nil {
		t.Fatal(err)
	}
	path := []PathPoint{{Filter: TikhonovFilter{Lambda: 1e-3}}, {Augmented: 1e-2}, {Filter: LandweberFilter{Steps: 20}}}
	models, err := s.FitPath(path, FreeIntercept)
	if err != nil {
		t.Fatal(err)
	}
	all, err := PredictAll(models, xt)
	if err != nil {
		t.Fatal(err)
	}
	for j, m := range models {
		want, _ := m.Predict(xt)
		for i, v := range want.Data {
			if math.Abs(all[j].Data[i]-v) > 1e-12*(1+math.Abs(v)) {
				t.Fatalf("model %d, value %d: PredictAll %v, Predict %v", j, i, all[j].Data[i], v)
			}
		}
	}
	other, _ := RLS{Kernel: kernels.Gaussian{Sigma: 2}, Lambda: 1e-3}.Fit(x, y)
	moved, _ := RLS{Kernel: k, Lambda: 1e-3}.Fit(xt, randDense(74, 25, 2))
	for name, ms := range map[string][]*Model{
		"no models":     nil,
		"other kernel":  {models[0], other},
		"other centres": {models[0], moved},
		"nil model":     {models[0], nil},
	} {
		if _, err := PredictAll(ms, xt); !errors.Is(err, ErrInput) {
			t.Errorf("%s: %v, want ErrInput", name, err)
		}
	}
	if _, err := PredictAll(models, randDense(75, 2, 4)); !errors.Is(err, ErrInput) {
		t.Errorf("points of the wrong width: %v", err)
	}
}

func TestMSE(t *testing.T) {
	y := linalg.NewDense(2, 2, []float64{1, 2, 3, 4})
	p := linalg.NewDense(2, 2, []float64{1, 0, 3, 5})
	if got, err := MSE(y, p); err != nil || got != 5.0/4 {
		t.Errorf("MSE = %v, %v; want 1.25", got, err)
	}
	nan := linalg.NewDense(2, 2, []float64{1, math.NaN(), 3, 4})
	for name, err := range map[string]error{
		"shapes":   errOnly(MSE(y, linalg.NewDense(2, 1, nil))),
		"nil":      errOnly(MSE(nil, p)),
		"nil P":    errOnly(MSE(y, nil)),
		"empty":    errOnly(MSE(&linalg.Dense{}, &linalg.Dense{})),
		"NaN in Y": errOnly(MSE(nan, p)),
	} {
		if !errors.Is(err, ErrInput) {
			t.Errorf("%s: %v, want ErrInput", name, err)
		}
	}
	if !errors.Is(errOnly(MSE(nan, y)), linalg.ErrNotFinite) {
		t.Error("MSE with NaN in Y does not wrap linalg.ErrNotFinite")
	}
	if got, err := MSE(y, nan); err != nil || !math.IsNaN(got) {
		t.Errorf("MSE of a NaN prediction = %v, %v; want NaN, no error", got, err)
	}
}

func errOnly(_ float64, err error) error { return err }
