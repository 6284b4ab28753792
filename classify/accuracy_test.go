package classify

import (
	"testing"

	"rkhs/datasets"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

// TestAccuracySmoke: hold-out accuracy on the bundled sets with a fixed
// 70/30 split (seed 1) and hand-picked, untuned σ and λ. The thresholds sit
// a few points below what the methods reach, to catch a broken method
// rather than rank them; -short keeps only the quick ones.
func TestAccuracySmoke(t *testing.T) {
	type predictor interface {
		Predict(*linalg.Dense) ([]float64, error)
	}
	type fitter func(x *linalg.Dense, y []float64) (predictor, error)
	wrap := func(f func(x *linalg.Dense, y []float64) (predictor, error)) fitter { return f }
	gauss2 := kernels.Gaussian{Sigma: 2}
	for _, tc := range []struct {
		set, name string
		fit       fitter
		min       float64
		slow      bool
	}{
		{"heart", "RLS", wrap(func(x *linalg.Dense, y []float64) (predictor, error) {
			return RLS{Kernel: gauss2, Lambda: 1e-3, Intercept: regress.FreeIntercept}.Fit(x, y)
		}), 0.75, false},
		{"heart", "KNN", wrap(func(x *linalg.Dense, y []float64) (predictor, error) {
			return KNN{Kernel: gauss2, K: 7}.Fit(x, y)
		}), 0.75, false},
		{"heart", "Perceptron", wrap(func(x *linalg.Dense, y []float64) (predictor, error) {
			return Perceptron{Kernel: gauss2, Intercept: regress.FreeIntercept}.Fit(x, y)
		}), 0.70, false},
		{"heart", "Logistic", wrap(func(x *linalg.Dense, y []float64) (predictor, error) {
			return Logistic{Kernel: gauss2, Lambda: 1e-3, Intercept: regress.FreeIntercept}.Fit(x, y)
		}), 0.72, false},
		{"heart", "SVM", wrap(func(x *linalg.Dense, y []float64) (predictor, error) {
			return SVM{Kernel: gauss2, Lambda: 1e-3, Intercept: regress.PenalizedIntercept, MaxIter: 1000}.Fit(x, y)
		}), 0.72, false},
		{"breast-cancer", "RLS", wrap(func(x *linalg.Dense, y []float64) (predictor, error) {
			return RLS{Kernel: gauss2, Lambda: 1e-3}.Fit(x, y)
		}), 0.93, true},
		{"breast-cancer", "SVM", wrap(func(x *linalg.Dense, y []float64) (predictor, error) {
			return SVM{Kernel: gauss2, Lambda: 1e-3, Intercept: regress.PenalizedIntercept, MaxIter: 500}.Fit(x, y)
		}), 0.93, true},
		{"sonar", "RLS", wrap(func(x *linalg.Dense, y []float64) (predictor, error) {
			return RLS{Kernel: kernels.Gaussian{Sigma: 3}, Lambda: 1e-3}.Fit(x, y)
		}), 0.80, false},
		{"diabetes", "Logistic", wrap(func(x *linalg.Dense, y []float64) (predictor, error) {
			return Logistic{Kernel: gauss2, Lambda: 1e-3, Intercept: regress.FreeIntercept, MaxIter: 300}.Fit(x, y)
		}), 0.70, true},
		{"digits", "RLS one-vs-all", wrap(func(x *linalg.Dense, y []float64) (predictor, error) {
			return RLS{Kernel: kernels.Gaussian{Sigma: 30}, Lambda: 1e-4}.Fit(x, y)
		}), 0.95, true},
		{"digits", "KNN", wrap(func(x *linalg.Dense, y []float64) (predictor, error) {
			return KNN{Kernel: kernels.Gaussian{Sigma: 30}, K: 3}.Fit(x, y)
		}), 0.95, true},
	} {
		if tc.slow && testing.Short() {
			continue
		}
		train, test := datasets.MustLoad(tc.set).Split(0.7, 1)
		m, err := tc.fit(&train.X, train.Y)
		if err != nil {
			t.Fatalf("%s %s: %v", tc.set, tc.name, err)
		}
		acc := accuracy(mustPredict(t, m, &test.X), test.Y)
		t.Logf("%s %s: hold-out accuracy %.3f (%d test rows)", tc.set, tc.name, acc, len(test.Y))
		if acc <= tc.min {
			t.Errorf("%s %s: hold-out accuracy %.3f, want > %.2f", tc.set, tc.name, acc, tc.min)
		}
	}
}
