package rkhs_test

// The conventions every package shares (see the package documentation):
// one error shape for invalid arguments, NaN or ±Inf testable one way, no
// panic on nil or zero-value arguments.

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"rkhs/classify"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/loo"
	"rkhs/regress"
)

// vocabData returns a small well-conditioned regression problem, a copy
// of x with a NaN, and binary labels.
func vocabData() (x, y, nan *linalg.Dense, labels []float64) {
	x = linalg.NewDense(12, 2, nil)
	y = linalg.NewDense(12, 1, nil)
	labels = make([]float64, 12)
	for i := 0; i < 12; i++ {
		x.Set(i, 0, math.Sin(float64(i)))
		x.Set(i, 1, math.Cos(float64(3*i)))
		y.Set(i, 0, x.At(i, 0)+0.1*float64(i%3))
		labels[i] = float64(i % 2)
	}
	nan = x.Clone()
	nan.Set(4, 1, math.NaN())
	return x, y, nan, labels
}

func errOf[T any](_ T, err error) error { return err }

func errOf3[A, B any](_ A, _ B, err error) error { return err }

// TestNotFiniteEverywhere: NaN or ±Inf given to any public Fit, Predict,
// Scores, Probabilities, Mean, Gram, Cross, NewRows, path or selection
// function — in the data or in a numeric parameter — is a
// *linalg.InputError for which errors.Is(err, linalg.ErrNotFinite) holds,
// whatever package-level sentinel it also wraps. Run with -v for the table.
func TestNotFiniteEverywhere(t *testing.T) {
	x, y, nan, labels := vocabData()
	nanY := y.Clone()
	nanY.Set(2, 0, math.Inf(1))
	nanLabels := append([]float64(nil), labels...)
	nanLabels[3] = math.NaN()
	g := kernels.Gaussian{Sigma: 1}
	s, err := regress.NewSpectral(g, x, y)
	if err != nil {
		t.Fatal(err)
	}
	lp, _ := regress.NewLinearPath(x, y, regress.NoIntercept)
	model, _ := regress.RLS{Kernel: g, Lambda: 1e-2}.Fit(x, y)
	linear, _ := regress.LinearRLS{Lambda: 1e-2}.Fit(x, y)
	perc, _ := classify.Perceptron{Kernel: g}.Fit(x, labels)
	knn, _ := classify.KNN{Kernel: g, K: 3}.Fit(x, labels)
	rls, _ := classify.RLS{Kernel: g, Lambda: 1e-2}.Fit(x, labels)
	logi, _ := classify.Logistic{Kernel: g, Lambda: 1e-2, MaxIter: 5}.Fit(x, labels)
	svm, _ := classify.SVM{Kernel: g, Lambda: 1e-2, MaxIter: 5}.Fit(x, labels)
	it := regress.Iterative{MaxIter: 3}
	nanf := math.NaN()
	cases := []struct {
		name string
		err  error
	}{
		{"kernels.Gram(X NaN)", errOf(kernels.Gram(g, nan))},
		{"kernels.Gram(σ NaN)", errOf(kernels.Gram(kernels.Gaussian{Sigma: nanf}, x))},
		{"kernels.GramTo(X NaN)", errOf(kernels.GramTo(nil, g, nan, linalg.Lower))},
		{"kernels.Cross(X NaN)", errOf(kernels.Cross(g, nan, x))},
		{"kernels.CrossTo(Z NaN)", errOf(kernels.CrossTo(nil, kernels.Linear{}, x, nan))},
		{"kernels.NewRows(X NaN)", errOf(kernels.NewRows(kernels.Polynomial{Degree: 2}, nan, x))},
		{"regress.RLS.Fit(X NaN)", errOf(regress.RLS{Kernel: g, Lambda: 1e-2}.Fit(nan, y))},
		{"regress.RLS.Fit(λ NaN)", errOf(regress.RLS{Kernel: g, Lambda: nanf}.Fit(x, y))},
		{"regress.LinearRLS.Fit(Y Inf)", errOf(regress.LinearRLS{Lambda: 1e-2}.Fit(x, nanY))},
		{"regress.Nystrom.Fit(X NaN)", errOf(regress.Nystrom{Kernel: g, Lambda: 1e-2, Centers: 4}.Fit(nan, y))},
		{"regress.CG.Fit(X NaN)", errOf(regress.CG{Kernel: g, Lambda: 1e-2, Iterative: it}.Fit(nan, y))},
		{"regress.CGLS.Fit(Tol NaN)", errOf(regress.CGLS{Kernel: g, Iterative: regress.Iterative{MaxIter: 3, Tol: nanf}}.Fit(x, y))},
		{"regress.Landweber.Fit(η Inf)", errOf(regress.Landweber{Kernel: g, Eta: math.Inf(1), Iterative: it}.Fit(x, y))},
		{"regress.NuMethod.Fit(ν NaN)", errOf(regress.NuMethod{Kernel: g, Nu: nanf, Iterative: it}.Fit(x, y))},
		{"regress.NewSpectral(X NaN)", errOf(regress.NewSpectral(g, nan, y))},
		{"regress.Spectral.Fit(λ NaN)", errOf(s.Fit(regress.TikhonovFilter{Lambda: nanf}, regress.FreeIntercept))},
		{"regress.Spectral.FitAugmented(λ Inf)", errOf(s.FitAugmented(math.Inf(1)))},
		{"regress.Spectral.FitPath(λ NaN)", errOf(s.FitPath([]regress.PathPoint{{Augmented: nanf}}, regress.NoIntercept))},
		{"regress.Spectral.PredictPath(X NaN)", errOf(s.PredictPath([]regress.PathPoint{{Augmented: 1}}, regress.NoIntercept, nan))},
		{"regress.Spectral.FilterValues(η NaN)", errOf(s.FilterValues(regress.LandweberFilter{Steps: 3, Eta: nanf}))},
		{"regress.NewLinearPath(X NaN)", errOf(regress.NewLinearPath(nan, y, regress.FreeIntercept))},
		{"regress.LinearPath.Fit(λ NaN)", errOf(lp.Fit(nanf))},
		{"regress.LinearPath.FitAugmented(λ NaN)", errOf(lp.FitAugmented(nanf))},
		{"regress.Model.Predict(X NaN)", errOf(model.Predict(nan))},
		{"regress.LinearModel.Predict(X NaN)", errOf(linear.Predict(nan))},
		{"regress.PredictAll(X NaN)", errOf(regress.PredictAll([]*regress.Model{model}, nan))},
		{"regress.MSE(Y Inf)", errOf(regress.MSE(nanY, y))},
		{"loo.RLS(λ NaN)", errOf(loo.RLS(s, []float64{1e-2, nanf}, regress.FreeIntercept))},
		{"loo.Augmented(λ Inf)", errOf(loo.Augmented(s, []float64{math.Inf(1)}))},
		{"loo.Filters(λ NaN)", errOf(loo.Filters(s, []regress.Filter{regress.TruncatedSVDFilter{Lambda: nanf}}, regress.NoIntercept))},
		{"loo.Linear(λ NaN)", errOf(loo.Linear(lp, []float64{nanf}))},
		{"loo.Nystrom(X NaN)", errOf(loo.Nystrom(regress.Nystrom{Kernel: g, Centers: 4}, nan, y, []float64{1e-2}))},
		{"loo.SigmaGrid(X NaN)", errOf(loo.SigmaGrid(nan, []float64{0.5}, 0, 1))},
		{"loo.SelectRLS(Y Inf)", errOf3(loo.SelectRLS(func(s float64) kernels.Kernel { return kernels.Gaussian{Sigma: s} }, x, nanY, []float64{1}, []float64{1e-2}, regress.NoIntercept))},
		{"loo.SelectRLS(σ NaN)", errOf3(loo.SelectRLS(func(s float64) kernels.Kernel { return kernels.Gaussian{Sigma: s} }, x, y, []float64{nanf}, []float64{1e-2}, regress.NoIntercept))},
		{"classify.Perceptron.Fit(X NaN)", errOf(classify.Perceptron{Kernel: g}.Fit(nan, labels))},
		{"classify.KNN.Fit(labels NaN)", errOf(classify.KNN{Kernel: g, K: 3}.Fit(x, nanLabels))},
		{"classify.RLS.Fit(X NaN)", errOf(classify.RLS{Kernel: g, Lambda: 1e-2}.Fit(nan, labels))},
		{"classify.RLS.Fit(Lambdas NaN)", errOf(classify.RLS{Kernel: g, ChooseLambda: true, Lambdas: []float64{nanf}}.Fit(x, labels))},
		{"classify.Logistic.Fit(λ NaN)", errOf(classify.Logistic{Kernel: g, Lambda: nanf}.Fit(x, labels))},
		{"classify.SVM.Fit(X NaN)", errOf(classify.SVM{Kernel: g, Lambda: 1e-2}.Fit(nan, labels))},
		{"classify.PerceptronModel.Predict(X NaN)", errOf(perc.Predict(nan))},
		{"classify.KNNModel.Predict(X NaN)", errOf(knn.Predict(nan))},
		{"classify.KNNModel.Mean(X NaN)", errOf(knn.Mean(nan))},
		{"classify.RLSModel.Scores(X NaN)", errOf(rls.Scores(nan))},
		{"classify.LogisticModel.Probabilities(X NaN)", errOf(logi.Probabilities(nan))},
		{"classify.SVMModel.Scores(X NaN)", errOf(svm.Scores(nan))},
		{"classify.Accuracy(labels NaN)", errOf(classify.Accuracy(nanLabels, labels))},
	}
	for _, c := range cases {
		var ie *linalg.InputError
		isNF := errors.Is(c.err, linalg.ErrNotFinite)
		t.Logf("| %-44s | %-5v |", c.name, isNF)
		if !isNF || !errors.As(c.err, &ie) {
			t.Errorf("%s: %v; want a *linalg.InputError wrapping linalg.ErrNotFinite", c.name, c.err)
		}
	}
}

// TestNoPanicOnNilOrZero: nil data and zero-value models, decompositions
// and paths are InputErrors of their package, never a panic.
func TestNoPanicOnNilOrZero(t *testing.T) {
	x, y, _, labels := vocabData()
	g := kernels.Gaussian{Sigma: 1}
	var (
		spectral *regress.Spectral
		path     *regress.LinearPath
		model    *regress.Model
	)
	short := &linalg.Dense{Rows: 12, Cols: 2, Stride: 2, Data: make([]float64, 20)}
	calls := map[string]func() error{
		"kernels.Gram(k, nil)":              func() error { return errOf(kernels.Gram(g, nil)) },
		"kernels.Gram(nil, X)":              func() error { return errOf(kernels.Gram(nil, x)) },
		"kernels.Cross(k, X, nil)":          func() error { return errOf(kernels.Cross(g, x, nil)) },
		"kernels.NewRows(k, nil, X)":        func() error { return errOf(kernels.NewRows(g, nil, x)) },
		"kernels.GramTo(nil, k, short, …)":  func() error { return errOf(kernels.GramTo(nil, g, short, linalg.All)) },
		"regress.RLS{}.Fit":                 func() error { return errOf(regress.RLS{}.Fit(x, y)) },
		"regress.RLS.Fit(short X)":          func() error { return errOf(regress.RLS{Kernel: g, Lambda: 1}.Fit(short, y)) },
		"regress.NewSpectral(k, nil, nil)":  func() error { return errOf(regress.NewSpectral(g, nil, nil)) },
		"(*regress.Spectral)(nil).Fit":      func() error { return errOf(spectral.Fit(regress.TikhonovFilter{Lambda: 1}, 0)) },
		"regress.Spectral{}.FitAugmented":   func() error { return errOf((&regress.Spectral{}).FitAugmented(1)) },
		"(*regress.LinearPath)(nil).Fit":    func() error { return errOf(path.Fit(1)) },
		"(*regress.Model)(nil).Predict":     func() error { return errOf(model.Predict(x)) },
		"regress.Model{}.Predict":           func() error { return errOf((&regress.Model{}).Predict(x)) },
		"regress.LinearModel{}.Predict":     func() error { return errOf((&regress.LinearModel{}).Predict(x)) },
		"loo.RLS(nil, …)":                   func() error { return errOf(loo.RLS(nil, []float64{1}, 0)) },
		"loo.Augmented(nil, …)":             func() error { return errOf(loo.Augmented(nil, []float64{1})) },
		"loo.Filters(zero, …)":              func() error { return errOf(loo.Filters(&regress.Spectral{}, nil, 0)) },
		"loo.Linear(nil, …)":                func() error { return errOf(loo.Linear(nil, []float64{1})) },
		"loo.LambdaGrid(nil, 5)":            func() error { return errOf(loo.LambdaGrid(nil, 5)) },
		"loo.Nystrom(…, nil, nil, …)":       func() error { return errOf(loo.Nystrom(regress.Nystrom{}, nil, nil, []float64{1})) },
		"loo.SigmaGrid(nil, …)":             func() error { return errOf(loo.SigmaGrid(nil, nil, 0, 1)) },
		"classify.KNN{}.Fit":                func() error { return errOf(classify.KNN{}.Fit(x, labels)) },
		"classify.KNNModel{}.Predict":       func() error { return errOf((&classify.KNNModel{}).Predict(x)) },
		"classify.RLSModel{}.Predict":       func() error { return errOf((&classify.RLSModel{}).Predict(x)) },
		"classify.SVMModel{}.Predict":       func() error { return errOf((&classify.SVMModel{}).Predict(x)) },
		"classify.PerceptronModel{}.Scores": func() error { return errOf((&classify.PerceptronModel{}).Scores(x)) },
		"classify.LogisticModel{}.Probs":    func() error { return errOf((&classify.LogisticModel{}).Probabilities(x)) },
		"classify.Perceptron.Fit(nil)":      func() error { return errOf(classify.Perceptron{Kernel: g}.Fit(nil, nil)) },
	}
	for name, call := range calls {
		err := func() (err error) {
			defer func() {
				if r := recover(); r != nil {
					err = fmt.Errorf("panic: %v", r)
				}
			}()
			return call()
		}()
		var ie *linalg.InputError
		if !errors.As(err, &ie) {
			t.Errorf("%s: %v, want a *linalg.InputError", name, err)
		}
	}
}
