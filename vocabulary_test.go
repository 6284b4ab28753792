package rkhs_test

// The conventions every package shares (see the package documentation):
// one error shape for invalid arguments, NaN or ±Inf testable one way, no
// panic on nil or zero-value arguments.

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"rkhs/classify"
	"rkhs/dataset"
	"rkhs/interval"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/loo"
	"rkhs/model"
	"rkhs/optimize"
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

// apiRow is one row of a convention table: api is the exported function
// or method the row exercises, spelled as go doc spells it — pkg.Func or
// pkg.Type.Method — so that TestEveryEntryPointHasARow can match the
// tables against the packages' exported API; bad says what is wrong with
// the arguments; call makes the call.
type apiRow struct {
	api, bad string
	call     func() error
}

func (r apiRow) String() string { return r.api + "(" + r.bad + ")" }

// run makes the call, turning a panic into an error that names it.
func (r apiRow) run() (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	return r.call()
}

// pkgOf returns the package of an api name: "regress" for
// "regress.RLS.Fit".
func pkgOf(api string) string {
	pkg, _, _ := strings.Cut(api, ".")
	return pkg
}

// zeroOperator is a regress.NystromOperator of one row of zeros with m
// centres: it serves the rows of Falkon.FitOperator that must fail before
// any product.
type zeroOperator struct{ m int }

func (o zeroOperator) Summary() (int, *linalg.Dense, []float64, []float64, error) {
	return 1, linalg.NewDense(o.m, 1, nil), make([]float64, o.m), make([]float64, 1), nil
}

func (o zeroOperator) NormalMul(dst, v *linalg.Dense) error {
	dst.Zero()
	return nil
}

// vocabStats returns Nyström statistics of (x, y) for the first 4 rows of
// x as centres.
func vocabStats(t testing.TB, k kernels.Kernel, x, y *linalg.Dense) *regress.NystromStats {
	t.Helper()
	st, err := regress.NewNystromStats(k, x.Slice(0, 4, 0, x.Cols))
	if err == nil {
		err = st.Add(x, y)
	}
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// notFiniteRows is the table of TestNotFiniteEverywhere: NaN or ±Inf, in
// the data or in a numeric parameter, given to each entry point that takes
// numbers.
func notFiniteRows(t testing.TB) []apiRow {
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
	fitted, _ := regress.RLS{Kernel: g, Lambda: 1e-2}.Fit(x, y)
	linear, _ := regress.LinearRLS{Lambda: 1e-2}.Fit(x, y)
	perc, _ := classify.Perceptron{Kernel: g}.Fit(x, labels)
	knn, _ := classify.KNN{Kernel: g, K: 3}.Fit(x, labels)
	rls, _ := classify.RLS{Kernel: g, Lambda: 1e-2}.Fit(x, labels)
	logi, _ := classify.Logistic{Kernel: g, Lambda: 1e-2, MaxIter: 5}.Fit(x, labels)
	svm, _ := classify.SVM{Kernel: g, Lambda: 1e-2, MaxIter: 5}.Fit(x, labels)
	st := vocabStats(t, g, x, y)
	falkon := regress.Falkon{Kernel: g, Lambda: 1e-2, Centers: 4, MaxIter: 3}
	it := regress.Iterative{MaxIter: 3}
	nanf := math.NaN()
	sym := linalg.NewDense(2, 2, []float64{2, 1, nanf, 2}) // NaN in the lower triangle, which the symmetric routines read
	nanData := &dataset.Data{X: *nan, Y: labels}
	infLabel := &dataset.Data{X: *x, Y: nanLabels}
	folds, err := interval.Folds(x.Rows, 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	jk, err := interval.RLS(regress.RLS{Kernel: g, Lambda: 1e-2}, x, y)
	if err != nil {
		t.Fatal(err)
	}
	ipath, err := interval.NewPath(s, []float64{1e-2}, regress.FreeIntercept)
	if err != nil {
		t.Fatal(err)
	}
	cv, err := interval.RLSCV(regress.RLS{Kernel: g, Lambda: 1e-2}, x, y, folds)
	if err != nil {
		t.Fatal(err)
	}
	sets, err := interval.ClassifyRLS(classify.RLS{Kernel: g, Lambda: 1e-2}, x, labels)
	if err != nil {
		t.Fatal(err)
	}
	return append(scaleNotFiniteRows(t), []apiRow{
		{"kernels.Gram", "X NaN", func() error { return errOf(kernels.Gram(g, nan)) }},
		{"kernels.Gram", "σ NaN", func() error { return errOf(kernels.Gram(kernels.Gaussian{Sigma: nanf}, x)) }},
		{"kernels.GramTo", "X NaN", func() error { return errOf(kernels.GramTo(nil, g, nan, linalg.Lower)) }},
		{"kernels.Cross", "X NaN", func() error { return errOf(kernels.Cross(g, nan, x)) }},
		{"kernels.CrossTo", "Z NaN", func() error { return errOf(kernels.CrossTo(nil, kernels.Linear{}, x, nan)) }},
		{"kernels.NewRows", "X NaN", func() error { return errOf(kernels.NewRows(kernels.Polynomial{Degree: 2}, nan, x)) }},
		{"kernels.NewWidths", "X NaN", func() error {
			return errOf(kernels.NewWidths([]kernels.Kernel{kernels.Gaussian{Sigma: 1}}, nan, x))
		}},
		{"kernels.Gaussian.Validate", "σ NaN", func() error { return kernels.Gaussian{Sigma: nanf}.Validate() }},
		{"kernels.Laplacian.Validate", "σ Inf", func() error { return kernels.Laplacian{Sigma: math.Inf(1)}.Validate() }},
		{"kernels.Polynomial.Validate", "offset NaN", func() error { return kernels.Polynomial{Degree: 2, Offset: nanf}.Validate() }},
		{"kernels.StandardizationOf", "X NaN", func() error { return errOf(kernels.StandardizationOf(nan)) }},
		{"kernels.Standardization.Apply", "X NaN", func() error {
			return errOf((&kernels.Standardization{Mean: []float64{0, 0}, Scale: []float64{1, 1}}).Apply(nan))
		}},
		{"kernels.Standardization.Validate", "Mean NaN", func() error { return (&kernels.Standardization{Mean: []float64{nanf}, Scale: []float64{1}}).Validate() }},
		{"kernels.Standardization.Outlying", "X NaN", func() error {
			return errOf((&kernels.Standardization{Mean: []float64{0, 0}, Scale: []float64{1, 1}}).Outlying(nan, kernels.DefaultOutlyingLimit))
		}},
		{"kernels.Standardization.Outlying", "limit NaN", func() error {
			return errOf((&kernels.Standardization{Mean: []float64{0, 0}, Scale: []float64{1, 1}}).Outlying(x, nanf))
		}},
		{"kernels.Standardization.OffConstant", "X NaN", func() error {
			return errOf((&kernels.Standardization{Mean: []float64{0, 0}, Scale: []float64{1, 1}, Constant: []int{1}}).OffConstant(nan))
		}},
		{"kernels.FarRows.Add", "X NaN", func() error {
			return new(kernels.FarRows).Add(&kernels.Standardization{Mean: []float64{0, 0}, Scale: []float64{1, 1}, Constant: []int{1}}, nan)
		}},
		{"kernels.Moments.Add", "X NaN", func() error { return new(kernels.Moments).Add(nan) }},
		{"kernels.Moments.Merge", "o.Mean NaN", func() error {
			return new(kernels.Moments).Merge(&kernels.Moments{N: 1, Mean: []float64{nanf}, SumSq: []float64{0}})
		}},
		{"kernels.Moments.Standardization", "SumSq Inf", func() error {
			return errOf((&kernels.Moments{N: 1, Mean: []float64{0}, SumSq: []float64{math.Inf(1)}}).Standardization())
		}},
		{"regress.RLS.Fit", "X NaN", func() error { return errOf(regress.RLS{Kernel: g, Lambda: 1e-2}.Fit(nan, y)) }},
		{"regress.RLS.Fit", "λ NaN", func() error { return errOf(regress.RLS{Kernel: g, Lambda: nanf}.Fit(x, y)) }},
		{"regress.LinearRLS.Fit", "Y Inf", func() error { return errOf(regress.LinearRLS{Lambda: 1e-2}.Fit(x, nanY)) }},
		{"regress.Nystrom.Fit", "X NaN", func() error { return errOf(regress.Nystrom{Kernel: g, Lambda: 1e-2, Centers: 4}.Fit(nan, y)) }},
		{"regress.Falkon.Fit", "X NaN", func() error { return errOf(falkon.Fit(nan, y)) }},
		{"regress.Falkon.Fit", "λ NaN", func() error {
			return errOf(regress.Falkon{Kernel: g, Lambda: nanf, Centers: 4}.Fit(x, y))
		}},
		{"regress.Falkon.FitOperator", "centres NaN", func() error { return errOf(falkon.FitOperator(nan.Slice(0, 6, 0, 2), zeroOperator{m: 6})) }},
		{"regress.NewNystromStats", "centres NaN", func() error { return errOf(regress.NewNystromStats(g, nan)) }},
		{"regress.NystromStats.Add", "X NaN", func() error { return vocabStats(t, g, x, y).Add(nan, y) }},
		{"regress.NystromStats.Add", "Y Inf", func() error { return vocabStats(t, g, x, y).Add(x, nanY) }},
		{"regress.NystromStats.AddKernelRows", "kb NaN", func() error {
			kb := linalg.NewDense(y.Rows, 4, nil) // the statistics have 4 centres
			kb.Set(1, 2, nanf)
			return vocabStats(t, g, x, y).AddKernelRows(kb, y, nil)
		}},
		{"regress.NystromStats.AddKernelRows", "yb Inf", func() error {
			return vocabStats(t, g, x, y).AddKernelRows(linalg.NewDense(y.Rows, 4, nil), nanY, nil)
		}},
		{"regress.NystromStats.Solve", "λ NaN", func() error { return errOf(st.Solve(nanf, regress.NoIntercept)) }},
		{"regress.CG.Fit", "X NaN", func() error { return errOf(regress.CG{Kernel: g, Lambda: 1e-2, Iterative: it}.Fit(nan, y)) }},
		{"regress.CGLS.Fit", "Tol NaN", func() error {
			return errOf(regress.CGLS{Kernel: g, Iterative: regress.Iterative{MaxIter: 3, Tol: nanf}}.Fit(x, y))
		}},
		{"regress.Landweber.Fit", "η Inf", func() error {
			return errOf(regress.Landweber{Kernel: g, Eta: math.Inf(1), Iterative: it}.Fit(x, y))
		}},
		{"regress.NuMethod.Fit", "ν NaN", func() error { return errOf(regress.NuMethod{Kernel: g, Nu: nanf, Iterative: it}.Fit(x, y)) }},
		{"regress.NewSpectral", "X NaN", func() error { return errOf(regress.NewSpectral(g, nan, y)) }},
		{"regress.Spectral.Fit", "λ NaN", func() error { return errOf(s.Fit(regress.TikhonovFilter{Lambda: nanf}, regress.FreeIntercept)) }},
		{"regress.Spectral.FitAugmented", "λ Inf", func() error { return errOf(s.FitAugmented(math.Inf(1))) }},
		{"regress.Spectral.FitPath", "λ NaN", func() error {
			return errOf(s.FitPath([]regress.PathPoint{{Augmented: nanf}}, regress.NoIntercept))
		}},
		{"regress.Spectral.PredictPath", "X NaN", func() error {
			return errOf(s.PredictPath([]regress.PathPoint{{Augmented: 1}}, regress.NoIntercept, nan))
		}},
		{"regress.Spectral.FilterValues", "η NaN", func() error {
			return errOf(s.FilterValues(regress.LandweberFilter{Steps: 3, Eta: nanf}))
		}},
		{"regress.NewLinearPath", "X NaN", func() error { return errOf(regress.NewLinearPath(nan, y, regress.FreeIntercept)) }},
		{"regress.LinearPath.Fit", "λ NaN", func() error { return errOf(lp.Fit(nanf)) }},
		{"regress.LinearPath.FitAugmented", "λ NaN", func() error { return errOf(lp.FitAugmented(nanf)) }},
		{"regress.Model.Predict", "X NaN", func() error { return errOf(fitted.Predict(nan)) }},
		{"loo.CheckWidth", "X NaN", func() error { return errOf(loo.CheckWidth(g, nan, 0, 1)) }},
		{"model.Model.Predict", "X NaN", func() error { return errOf(model.Of(fitted).Predict(nan)) }},
		{"regress.LinearModel.Predict", "X NaN", func() error { return errOf(linear.Predict(nan)) }},
		{"regress.PredictAll", "X NaN", func() error { return errOf(regress.PredictAll([]*regress.Model{fitted}, nan)) }},
		{"regress.MSE", "Y Inf", func() error { return errOf(regress.MSE(nanY, y)) }},
		{"loo.RLS", "λ NaN", func() error { return errOf(loo.RLS(s, []float64{1e-2, nanf}, regress.FreeIntercept)) }},
		{"loo.Augmented", "λ Inf", func() error { return errOf(loo.Augmented(s, []float64{math.Inf(1)})) }},
		{"loo.Filters", "λ NaN", func() error {
			return errOf(loo.Filters(s, []regress.Filter{regress.TruncatedSVDFilter{Lambda: nanf}}, regress.NoIntercept))
		}},
		{"loo.Linear", "λ NaN", func() error { return errOf(loo.Linear(lp, []float64{nanf})) }},
		{"loo.Nystrom", "X NaN", func() error {
			return errOf(loo.Nystrom(regress.Nystrom{Kernel: g, Centers: 4}, nan, y, []float64{1e-2}))
		}},
		{"loo.NewNystromPath", "λ NaN", func() error {
			return errOf(loo.NewNystromPath(vocabStats(t, g, x, y), regress.FreeIntercept, []float64{1e-2, nanf}))
		}},
		{"loo.UsableNystromPath", "λ NaN", func() error {
			return errOf3(loo.UsableNystromPath(vocabStats(t, g, x, y), regress.FreeIntercept, []float64{1e-2, nanf}))
		}},
		{"loo.NystromPath.Add", "X NaN", func() error {
			p, err := loo.NewNystromPath(vocabStats(t, g, x, y), regress.FreeIntercept, []float64{1e-2})
			if err != nil {
				t.Fatal(err)
			}
			return p.Add(nan, y)
		}},
		{"loo.SelectNystrom.Fit", "X NaN", func() error {
			return errOf(loo.SelectNystrom{Kernel: func(s float64) kernels.Kernel { return kernels.Gaussian{Sigma: s} },
				Centers: x.Slice(0, 4, 0, x.Cols), Sigmas: []float64{1}, Lambdas: []float64{1e-2}}.Fit(nan, y))
		}},
		{"loo.SelectNystrom.Fit", "λ NaN", func() error {
			return errOf(loo.SelectNystrom{Kernel: func(s float64) kernels.Kernel { return kernels.Gaussian{Sigma: s} },
				Centers: x.Slice(0, 4, 0, x.Cols), Sigmas: []float64{1}, Lambdas: []float64{nanf}}.Fit(x, y))
		}},
		{"loo.DistanceQuantiles", "X NaN", func() error { return errOf(loo.DistanceQuantiles(nan, []float64{0.5}, 0, 1)) }},
		{"loo.MedianDistanceOf", "X NaN", func() error { return errOf(loo.MedianDistanceOf(kernels.Gaussian{}, nan, 1)) }},
		{"loo.MedianDistance", "X NaN", func() error { return errOf(loo.MedianDistance(nan, loo.L1, 0, 1)) }},
		{"regress.NystromCenters", "X NaN", func() error { return errOf(regress.NystromCenters(nan, 2, 1)) }},
		{"kernels.CheckDegenerate", "X NaN", func() error { return kernels.CheckDegenerate(g, nan) }},
		{"loo.SelectRLS", "Y Inf", func() error {
			return errOf3(loo.SelectRLS(func(s float64) kernels.Kernel { return kernels.Gaussian{Sigma: s} }, x, nanY, []float64{1}, []float64{1e-2}, regress.NoIntercept))
		}},
		{"loo.SelectRLS", "σ NaN", func() error {
			return errOf3(loo.SelectRLS(func(s float64) kernels.Kernel { return kernels.Gaussian{Sigma: s} }, x, y, []float64{nanf}, []float64{1e-2}, regress.NoIntercept))
		}},
		{"interval.RLS", "X NaN", func() error { return errOf(interval.RLS(regress.RLS{Kernel: g, Lambda: 1e-2}, nan, y)) }},
		{"interval.RLS", "λ NaN", func() error { return errOf(interval.RLS(regress.RLS{Kernel: g, Lambda: nanf}, x, y)) }},
		{"interval.Nystrom", "Y Inf", func() error {
			return errOf(interval.Nystrom(regress.Nystrom{Kernel: g, Lambda: 1e-2, Centers: 4}, x, nanY))
		}},
		{"interval.NewPath", "λ NaN", func() error { return errOf(interval.NewPath(s, []float64{1e-2, nanf}, regress.FreeIntercept)) }},
		{"interval.RLSCV", "X NaN", func() error { return errOf(interval.RLSCV(regress.RLS{Kernel: g, Lambda: 1e-2}, nan, y, folds)) }},
		{"interval.RLSCV", "Y Inf", func() error { return errOf(interval.RLSCV(regress.RLS{Kernel: g, Lambda: 1e-2}, x, nanY, folds)) }},
		{"interval.NystromCV", "X NaN", func() error {
			return errOf(interval.NystromCV(regress.Nystrom{Kernel: g, Lambda: 1e-2, Centers: 4}, nan, y, folds))
		}},
		{"interval.NystromCV", "λ Inf", func() error {
			return errOf(interval.NystromCV(regress.Nystrom{Kernel: g, Lambda: math.Inf(1), Centers: 4}, x, y, folds))
		}},
		{"interval.FoldModels", "λ NaN", func() error {
			return errOf(interval.FoldModels([]*regress.NystromStats{st, vocabStats(t, g, x, y)}, nanf, regress.FreeIntercept))
		}},
		{"interval.NewCV", "residuals Inf", func() error {
			return errOf(interval.NewCV([]*regress.Model{fitted, fitted}, []*linalg.Dense{y, nanY}))
		}},
		{"interval.ClassifyRLS", "labels NaN", func() error {
			return errOf(interval.ClassifyRLS(classify.RLS{Kernel: g, Lambda: 1e-2}, x, nanLabels))
		}},
		{"interval.ClassifyNystrom", "X NaN", func() error {
			return errOf(interval.ClassifyNystrom(regress.Nystrom{Kernel: g, Lambda: 1e-2, Centers: 4}, false, nan, labels))
		}},
		{"interval.Jackknife.Predict", "X NaN", func() error { return errOf(jk.Predict(nan, 0.8)) }},
		{"interval.Jackknife.Predict", "level NaN", func() error { return errOf(jk.Predict(x, nanf)) }},
		{"interval.Path.Predict", "X NaN", func() error { return errOf(ipath.Predict(nan, 0.8)) }},
		{"interval.Path.Predict", "level Inf", func() error { return errOf(ipath.Predict(x, math.Inf(1))) }},
		{"interval.CV.Predict", "X NaN", func() error { return errOf(cv.Predict(nan, 0.8)) }},
		{"interval.CV.Predict", "level NaN", func() error { return errOf(cv.Predict(x, nanf)) }},
		{"interval.Classes.Predict", "X NaN", func() error { return errOf(sets.Predict(nan, 0.8)) }},
		{"interval.Classes.Predict", "level NaN", func() error { return errOf(sets.Predict(x, nanf)) }},
		{"interval.ClassifyRLSCV", "labels NaN", func() error {
			return errOf(interval.ClassifyRLSCV(classify.RLS{Kernel: g, Lambda: 1e-2}, x, nanLabels, folds))
		}},
		{"interval.ClassifyNystromCV", "X NaN", func() error {
			return errOf(interval.ClassifyNystromCV(regress.Nystrom{Kernel: g, Lambda: 1e-2, Centers: 4}, false, nan, labels, folds))
		}},
		{"interval.CheckLevel", "NaN", func() error { return interval.CheckLevel(nanf) }},
		{"interval.Reach", "level NaN", func() error { return interval.Reach(nanf, 10) }},
		{"interval.Spec.Build", "Level NaN", func() error {
			return errOf(interval.Spec{Method: interval.JackknifePlus, Level: nanf, Kernel: g, Lambda: 1e-2}.Build(x, labels))
		}},
		{"interval.Spec.Build", "X NaN", func() error {
			return errOf(interval.Spec{Method: interval.CVPlus, Level: 0.5, Folds: 3, Kernel: g, Lambda: 1e-2}.Build(nan, labels))
		}},
		{"interval.Fitted.Predict", "level NaN", func() error {
			f, err := interval.Spec{Method: interval.JackknifePlus, Level: 0.5, Kernel: g, Lambda: 1e-2}.Build(x, labels)
			if err != nil {
				return err
			}
			_, _, err = f.Predict(x, nanf)
			return err
		}},
		{"classify.Perceptron.Fit", "X NaN", func() error { return errOf(classify.Perceptron{Kernel: g}.Fit(nan, labels)) }},
		{"classify.KNN.Fit", "labels NaN", func() error { return errOf(classify.KNN{Kernel: g, K: 3}.Fit(x, nanLabels)) }},
		{"classify.RLS.Fit", "X NaN", func() error { return errOf(classify.RLS{Kernel: g, Lambda: 1e-2}.Fit(nan, labels)) }},
		{"classify.SelectRLS.Fit", "X NaN", func() error {
			return errOf(classify.SelectRLS{Kernel: func(s float64) kernels.Kernel { return kernels.Gaussian{Sigma: s} },
				Sigmas: []float64{1}, Lambdas: []float64{1e-2}}.Fit(nan, labels))
		}},
		{"classify.SelectRLS.Fit", "σ NaN", func() error {
			return errOf(classify.SelectRLS{Kernel: func(s float64) kernels.Kernel { return kernels.Gaussian{Sigma: s} },
				Sigmas: []float64{nanf}, Lambdas: []float64{1e-2}}.Fit(x, labels))
		}},
		{"classify.SelectNystrom.Fit", "X NaN", func() error {
			return errOf(classify.SelectNystrom{Selection: loo.SelectNystrom{Kernel: func(s float64) kernels.Kernel { return kernels.Gaussian{Sigma: s} },
				Centers: x.Slice(0, 2, 0, x.Cols), Sigmas: []float64{1}, Lambdas: []float64{1e-2}}}.Fit(nan, labels))
		}},
		{"classify.RLS.Fit", "Lambdas NaN", func() error {
			return errOf(classify.RLS{Kernel: g, ChooseLambda: true, Lambdas: []float64{nanf}}.Fit(x, labels))
		}},
		{"classify.Falkon.Fit", "X NaN", func() error {
			return errOf(classify.Falkon{Kernel: g, Lambda: 1e-2, Centers: 4, MaxIter: 3}.Fit(nan, labels))
		}},
		{"classify.Falkon.Fit", "labels NaN", func() error {
			return errOf(classify.Falkon{Kernel: g, Lambda: 1e-2, Centers: 4, MaxIter: 3}.Fit(x, nanLabels))
		}},
		{"classify.Logistic.Fit", "λ NaN", func() error { return errOf(classify.Logistic{Kernel: g, Lambda: nanf}.Fit(x, labels)) }},
		{"classify.SVM.Fit", "X NaN", func() error { return errOf(classify.SVM{Kernel: g, Lambda: 1e-2}.Fit(nan, labels)) }},
		{"classify.PerceptronModel.Predict", "X NaN", func() error { return errOf(perc.Predict(nan)) }},
		{"classify.PerceptronModel.Scores", "X NaN", func() error { return errOf(perc.Scores(nan)) }},
		{"classify.KNNModel.Predict", "X NaN", func() error { return errOf(knn.Predict(nan)) }},
		{"classify.KNNModel.Mean", "X NaN", func() error { return errOf(knn.Mean(nan)) }},
		{"classify.RLSModel.Predict", "X NaN", func() error { return errOf(rls.Predict(nan)) }},
		{"classify.RLSModel.Scores", "X NaN", func() error { return errOf(rls.Scores(nan)) }},
		{"classify.LogisticModel.Predict", "X NaN", func() error { return errOf(logi.Predict(nan)) }},
		{"classify.LogisticModel.Scores", "X NaN", func() error { return errOf(logi.Scores(nan)) }},
		{"classify.LogisticModel.Probabilities", "X NaN", func() error { return errOf(logi.Probabilities(nan)) }},
		{"classify.SVMModel.Predict", "X NaN", func() error { return errOf(svm.Predict(nan)) }},
		{"classify.SVMModel.Scores", "X NaN", func() error { return errOf(svm.Scores(nan)) }},
		{"classify.Accuracy", "labels NaN", func() error { return errOf(classify.Accuracy(nanLabels, labels)) }},
		{"dataset.WriteCSV", "X NaN", func() error { return dataset.WriteCSV(new(bytes.Buffer), nanData, dataset.CSVOptions{}) }},
		{"dataset.WriteLIBSVM", "label NaN", func() error { return dataset.WriteLIBSVM(new(bytes.Buffer), infLabel) }},
		{"linalg.Cholesky.Factorize", "A NaN", func() error { return new(linalg.Cholesky).Factorize(sym) }},
		{"linalg.Cholesky.FactorizeInPlace", "A NaN", func() error { return new(linalg.Cholesky).FactorizeInPlace(sym.Clone()) }},
		{"linalg.EigenSym.Factorize", "A NaN", func() error { return new(linalg.EigenSym).Factorize(sym, true) }},
		{"linalg.EigenSymJacobi.Factorize", "A NaN", func() error { return new(linalg.EigenSymJacobi).Factorize(sym, true) }},
		{"linalg.QR.Factorize", "A NaN", func() error { return new(linalg.QR).Factorize(sym) }},
		{"linalg.SVD.Factorize", "A NaN", func() error { return new(linalg.SVD).Factorize(sym, linalg.SVDThin) }},
		{"optimize.LBFGS.Minimize", "x0 NaN", func() error {
			return errOf(optimize.LBFGS{}.Minimize(quarter, []float64{0, nanf}, nil, nil))
		}},
		{"optimize.LBFGS.Minimize", "lo NaN", func() error {
			return errOf(optimize.LBFGS{}.Minimize(quarter, []float64{0, 0}, []float64{nanf, 0}, nil))
		}},
		{"optimize.LBFGS.Minimize", "GradTol Inf", func() error {
			return errOf(optimize.LBFGS{GradTol: math.Inf(1)}.Minimize(quarter, []float64{0, 0}, nil, nil))
		}},
		{"optimize.LBFGS.Minimize", "f(x0) NaN", func() error {
			return errOf(optimize.LBFGS{}.Minimize(func(x, g []float64) float64 { return nanf }, []float64{0, 0}, nil, nil))
		}},
	}...)
}

// quarter is ¼‖x − 1‖², an objective for the rows of package optimize.
func quarter(x, g []float64) float64 {
	f := 0.0
	for i, v := range x {
		g[i] = (v - 1) / 2
		f += (v - 1) * (v - 1) / 4
	}
	return f
}

// TestNotFiniteEverywhere: NaN or ±Inf given to any public entry point —
// in the data or in a numeric parameter — is an error for which
// errors.Is(err, linalg.ErrNotFinite) holds, whatever package-level
// sentinel it also wraps: a *linalg.InputError from kernels, regress, loo
// and classify, a *dataset.DataError from dataset's writers, a
// *linalg.NotFiniteError from linalg's factorizations. Run with -v for
// the table.
func TestNotFiniteEverywhere(t *testing.T) {
	for _, r := range notFiniteRows(t) {
		err := r.run()
		isNF := errors.Is(err, linalg.ErrNotFinite)
		t.Logf("| %-48s | %-5v |", r, isNF)
		var (
			ie   *linalg.InputError
			de   *dataset.DataError
			nf   *linalg.NotFiniteError
			kind string
			ok   bool
		)
		switch pkgOf(r.api) {
		case "linalg":
			kind, ok = "*linalg.NotFiniteError", errors.As(err, &nf) && !errors.As(err, &ie)
		case "dataset":
			kind, ok = "*dataset.DataError", errors.As(err, &de)
		default:
			kind, ok = "*linalg.InputError", errors.As(err, &ie)
		}
		if !isNF || !ok {
			t.Errorf("%s: %v; want a %s wrapping linalg.ErrNotFinite", r, err, kind)
		}
	}
}

// noPanicRows is the table of TestNoPanicOnNilOrZero: nil data, zero-value
// models, decompositions, paths and statistics, empty or malformed files.
func noPanicRows(t testing.TB) []apiRow {
	x, y, _, labels := vocabData()
	g := kernels.Gaussian{Sigma: 1}
	var (
		spectral *regress.Spectral
		path     *regress.LinearPath
		nilModel *regress.Model
		stats    regress.NystromStats
	)
	short := &linalg.Dense{Rows: 12, Cols: 2, Stride: 2, Data: make([]float64, 20)}
	rows := append(scaleNoPanicRows(t), []apiRow{
		{"kernels.Gram", "k, nil", func() error { return errOf(kernels.Gram(g, nil)) }},
		{"kernels.Gram", "nil, X", func() error { return errOf(kernels.Gram(nil, x)) }},
		{"kernels.Cross", "k, X, nil", func() error { return errOf(kernels.Cross(g, x, nil)) }},
		{"kernels.CrossTo", "nil, nil, X, X", func() error { return errOf(kernels.CrossTo(nil, nil, x, x)) }},
		{"kernels.NewRows", "k, nil, X", func() error { return errOf(kernels.NewRows(g, nil, x)) }},
		{"kernels.NewWidths", "nil, X, X", func() error { return errOf(kernels.NewWidths(nil, x, x)) }},
		{"kernels.NewWidths", "{k}, nil, X", func() error { return errOf(kernels.NewWidths([]kernels.Kernel{g}, nil, x)) }},
		{"kernels.GramTo", "nil, k, short, …", func() error { return errOf(kernels.GramTo(nil, g, short, linalg.All)) }},
		{"kernels.SpecOf", "nil", func() error { return errOf(kernels.SpecOf(nil)) }},
		{"kernels.Spec.Kernel", "Spec{}", func() error { return errOf(kernels.Spec{}.Kernel()) }},
		{"kernels.StandardizationOf", "nil", func() error { return errOf(kernels.StandardizationOf(nil)) }},
		{"kernels.StandardizationOf", "short", func() error { return errOf(kernels.StandardizationOf(short)) }},
		{"kernels.Standardization.Apply", "Standardization{}, X", func() error { return errOf(new(kernels.Standardization).Apply(x)) }},
		{"kernels.Standardization.Apply", "s, nil", func() error {
			return errOf((&kernels.Standardization{Mean: []float64{0, 0}, Scale: []float64{1, 1}}).Apply(nil))
		}},
		{"kernels.Standardization.Validate", "Standardization{}", func() error { return new(kernels.Standardization).Validate() }},
		{"kernels.Standardization.Outlying", "Standardization{}, X", func() error {
			return errOf(new(kernels.Standardization).Outlying(x, kernels.DefaultOutlyingLimit))
		}},
		{"kernels.Standardization.Outlying", "s, nil", func() error {
			return errOf((&kernels.Standardization{Mean: []float64{0, 0}, Scale: []float64{1, 1}}).Outlying(nil, kernels.DefaultOutlyingLimit))
		}},
		{"kernels.Standardization.OffConstant", "Standardization{}, X", func() error {
			return errOf(new(kernels.Standardization).OffConstant(x))
		}},
		{"kernels.Standardization.OffConstant", "s, nil", func() error {
			return errOf((&kernels.Standardization{Mean: []float64{0, 0}, Scale: []float64{1, 1}}).OffConstant(nil))
		}},
		{"kernels.Standardization.OffConstant", "Constant out of range", func() error {
			return errOf((&kernels.Standardization{Mean: []float64{0, 0}, Scale: []float64{1, 1}, Constant: []int{2}}).OffConstant(x))
		}},
		{"kernels.FarRows.Add", "Standardization{}, X", func() error { return new(kernels.FarRows).Add(new(kernels.Standardization), x) }},
		{"kernels.FarRows.Add", "s, nil", func() error {
			return new(kernels.FarRows).Add(&kernels.Standardization{Mean: []float64{0, 0}, Scale: []float64{1, 1}}, nil)
		}},
		{"kernels.Moments.Add", "nil", func() error { return new(kernels.Moments).Add(nil) }},
		{"kernels.Moments.Add", "nil receiver", func() error { var m *kernels.Moments; return m.Add(x) }},
		{"kernels.Moments.Merge", "nil", func() error { return new(kernels.Moments).Merge(nil) }},
		{"kernels.Moments.Merge", "malformed", func() error { return new(kernels.Moments).Merge(&kernels.Moments{N: 3}) }},
		{"kernels.Moments.Standardization", "Moments{}", func() error { return errOf(new(kernels.Moments).Standardization()) }},
		{"regress.RLS.Fit", "RLS{}", func() error { return errOf(regress.RLS{}.Fit(x, y)) }},
		{"regress.RLS.Fit", "short X", func() error { return errOf(regress.RLS{Kernel: g, Lambda: 1}.Fit(short, y)) }},
		{"regress.Falkon.Fit", "Falkon{}", func() error { return errOf(regress.Falkon{}.Fit(x, y)) }},
		{"regress.Falkon.FitOperator", "nil, nil", func() error {
			return errOf(regress.Falkon{Kernel: g, Lambda: 1}.FitOperator(nil, nil))
		}},
		{"regress.Falkon.FitOperator", "C, nil operator", func() error {
			return errOf(regress.Falkon{Kernel: g, Lambda: 1}.FitOperator(x, nil))
		}},
		{"regress.NewNystromStats", "k, nil", func() error { return errOf(regress.NewNystromStats(g, nil)) }},
		{"regress.NystromStats.Add", "zero value", func() error { return stats.Add(x, y) }},
		{"regress.NystromStats.Add", "nil, nil", func() error { return vocabStats(t, g, x, y).Add(nil, nil) }},
		{"regress.NystromStats.Merge", "zero value", func() error { return stats.Merge(vocabStats(t, g, x, y)) }},
		{"regress.NystromStats.Merge", "nil", func() error { return vocabStats(t, g, x, y).Merge(nil) }},
		{"regress.NystromStats.Solve", "zero value", func() error { return errOf(stats.Solve(1, regress.NoIntercept)) }},
		{"regress.NystromStats.AddKernelRows", "zero value", func() error { return stats.AddKernelRows(x, y, nil) }},
		{"regress.NystromStats.AddKernelRows", "nil, nil", func() error { return vocabStats(t, g, x, y).AddKernelRows(nil, nil, nil) }},
		{"regress.NystromStats.Gram", "zero value", func() error { return errOf(stats.Gram(regress.FreeIntercept)) }},
		{"regress.NystromStats.GramInPlace", "zero value", func() error { return errOf(stats.GramInPlace(regress.FreeIntercept)) }},
		{"loo.NewNystromPath", "nil", func() error { return errOf(loo.NewNystromPath(nil, regress.FreeIntercept, []float64{1})) }},
		{"loo.UsableNystromPath", "nil", func() error {
			return errOf3(loo.UsableNystromPath(nil, regress.FreeIntercept, []float64{1}))
		}},
		{"loo.NewNystromPath", "zero NystromStats", func() error {
			return errOf(loo.NewNystromPath(&stats, regress.FreeIntercept, []float64{1}))
		}},
		{"loo.NystromPath.Add", "zero value", func() error { return new(loo.NystromPath).Add(x, y) }},
		{"loo.NystromPath.Add", "nil, nil", func() error {
			p, err := loo.NewNystromPath(vocabStats(t, g, x, y), regress.FreeIntercept, []float64{1})
			if err != nil {
				t.Fatal(err)
			}
			return p.Add(nil, nil)
		}},
		{"loo.SelectNystrom.Fit", "zero value", func() error { return errOf(loo.SelectNystrom{}.Fit(x, y)) }},
		{"loo.SelectNystrom.Fit", "nil, nil", func() error {
			return errOf(loo.SelectNystrom{Kernel: func(s float64) kernels.Kernel { return kernels.Gaussian{Sigma: s} },
				Centers: x.Slice(0, 4, 0, x.Cols), Sigmas: []float64{1}, Lambdas: []float64{1}}.Fit(nil, nil))
		}},
		{"loo.NystromPath.Merge", "zero value, nil", func() error { return new(loo.NystromPath).Merge(nil) }},
		{"loo.NystromPath.MSE", "zero value", func() error { return errOf(new(loo.NystromPath).MSE()) }},
		{"loo.NystromPath.TrainMSE", "zero value", func() error { return errOf(new(loo.NystromPath).TrainMSE()) }},
		{"loo.NystromPath.ErrorRate", "zero value", func() error { return errOf(new(loo.NystromPath).ErrorRate()) }},
		{"loo.NystromPath.MSEStdErr", "zero value", func() error { return errOf(new(loo.NystromPath).MSEStdErr()) }},
		{"loo.NystromPath.ErrorRateStdErr", "no rows added", func() error {
			p, err := loo.NewNystromPath(vocabStats(t, g, x, y), regress.FreeIntercept, []float64{1})
			if err != nil {
				return err
			}
			return errOf(p.ErrorRateStdErr())
		}},
		{"loo.NystromPath.MarshalBinary", "zero value", func() error { return errOf(new(loo.NystromPath).MarshalBinary()) }},
		{"loo.NystromPath.UnmarshalBinary", "zero value, nil", func() error { return new(loo.NystromPath).UnmarshalBinary(nil) }},
		{"regress.NystromStats.MarshalBinary", "zero value", func() error { return errOf(stats.MarshalBinary()) }},
		{"regress.NystromStats.UnmarshalBinary", "nil", func() error { return new(regress.NystromStats).UnmarshalBinary(nil) }},
		{"regress.Intercept.Validate", "Intercept(7)", func() error { return regress.Intercept(7).Validate() }},
		{"regress.NewSpectral", "k, nil, nil", func() error { return errOf(regress.NewSpectral(g, nil, nil)) }},
		{"regress.Spectral.Fit", "nil *Spectral", func() error { return errOf(spectral.Fit(regress.TikhonovFilter{Lambda: 1}, 0)) }},
		{"regress.Spectral.FitAugmented", "Spectral{}", func() error { return errOf((&regress.Spectral{}).FitAugmented(1)) }},
		{"regress.LinearPath.Fit", "nil *LinearPath", func() error { return errOf(path.Fit(1)) }},
		{"regress.Model.Predict", "nil *Model", func() error { return errOf(nilModel.Predict(x)) }},
		{"regress.Model.Predict", "Model{}", func() error { return errOf((&regress.Model{}).Predict(x)) }},
		{"regress.LinearModel.Predict", "LinearModel{}", func() error { return errOf((&regress.LinearModel{}).Predict(x)) }},
		{"regress.FormatOf", "nil", func() error { return errOf(regress.FormatOf(nil)) }},
		{"loo.CheckWidth", "k, nil, 0, 1", func() error { return errOf(loo.CheckWidth(g, nil, 0, 1)) }},
		{"loo.CheckWidth", "nil, X, 0, 1", func() error { return errOf(loo.CheckWidth(nil, x, 0, 1)) }},
		{"model.Load", "nil", func() error { return errOf(model.Load(nil)) }},
		{"model.Load", "an unknown format", func() error { return errOf(model.Load([]byte(`{"format":"rkhs.other.Model","version":1}`))) }},
		{"model.Load", "a CV+ without its model", func() error {
			return errOf(model.Load([]byte(`{"format":"rkhs.interval.CV","version":1,"models":[],"residuals":[]}`)))
		}},
		{"model.Model.Predict", "nil *Model", func() error { return errOf((*model.Model)(nil).Predict(x)) }},
		{"model.Model.Predict", "Model{}", func() error { return errOf((&model.Model{}).Predict(x)) }},
		{"loo.RLS", "nil, …", func() error { return errOf(loo.RLS(nil, []float64{1}, 0)) }},
		{"loo.Augmented", "nil, …", func() error { return errOf(loo.Augmented(nil, []float64{1})) }},
		{"loo.Filters", "Spectral{}, …", func() error { return errOf(loo.Filters(&regress.Spectral{}, nil, 0)) }},
		{"loo.Linear", "nil, …", func() error { return errOf(loo.Linear(nil, []float64{1})) }},
		{"loo.LambdaGrid", "nil, 5", func() error { return errOf(loo.LambdaGrid(nil, 5)) }},
		{"loo.Nystrom", "Nystrom{}, nil, nil, …", func() error { return errOf(loo.Nystrom(regress.Nystrom{}, nil, nil, []float64{1})) }},
		{"loo.DistanceQuantiles", "nil, …", func() error { return errOf(loo.DistanceQuantiles(nil, nil, 0, 1)) }},
		{"loo.MedianDistanceOf", "nil, …", func() error { return errOf(loo.MedianDistanceOf(kernels.Gaussian{}, nil, 1)) }},
		{"loo.MedianDistanceOf", "short, …", func() error { return errOf(loo.MedianDistanceOf(kernels.Gaussian{}, short, 1)) }},
		{"loo.MedianDistance", "nil, …", func() error { return errOf(loo.MedianDistance(nil, loo.L2, 0, 1)) }},
		{"loo.MedianDistance", "X, Norm(9), …", func() error { return errOf(loo.MedianDistance(x, loo.Norm(9), 0, 1)) }},
		{"interval.RLS", "RLS{}, nil, nil", func() error { return errOf(interval.RLS(regress.RLS{}, nil, nil)) }},
		{"interval.RLS", "short X", func() error { return errOf(interval.RLS(regress.RLS{Kernel: g, Lambda: 1}, short, y)) }},
		{"interval.Nystrom", "Nystrom{}, nil, nil", func() error { return errOf(interval.Nystrom(regress.Nystrom{}, nil, nil)) }},
		{"interval.NewPath", "nil, …", func() error { return errOf(interval.NewPath(nil, []float64{1}, regress.FreeIntercept)) }},
		{"interval.NewPath", "Spectral{}, …", func() error {
			return errOf(interval.NewPath(&regress.Spectral{}, []float64{1}, regress.FreeIntercept))
		}},
		{"interval.RLSCV", "RLS{}, nil, nil, nil", func() error { return errOf(interval.RLSCV(regress.RLS{}, nil, nil, nil)) }},
		{"interval.RLSCV", "nil folds", func() error { return errOf(interval.RLSCV(regress.RLS{Kernel: g, Lambda: 1}, x, y, nil)) }},
		{"interval.NystromCV", "Nystrom{}, nil, nil, nil", func() error {
			return errOf(interval.NystromCV(regress.Nystrom{}, nil, nil, nil))
		}},
		{"interval.NystromCV", "folds with a nil fold", func() error {
			return errOf(interval.NystromCV(regress.Nystrom{Kernel: g, Lambda: 1, Centers: 4}, x, y, [][]int{{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, nil}))
		}},
		{"interval.FoldModels", "nil", func() error { return errOf(interval.FoldModels(nil, 1, regress.FreeIntercept)) }},
		{"interval.NewFoldStats", "nil, nil, …", func() error { return errOf(interval.NewFoldStats(nil, nil, 2, 1, 0)) }},
		{"interval.NewFoldStats", "nil centres", func() error { return errOf(interval.NewFoldStats([]kernels.Kernel{g}, nil, 2, 1, 0)) }},
		{"interval.FoldStats.Add", "nil *FoldStats", func() error { return (*interval.FoldStats)(nil).Add(x, y) }},
		{"interval.FoldStats.Add", "FoldStats{}", func() error { return (&interval.FoldStats{}).Add(x, y) }},
		{"interval.FoldStats.Merge", "nil, nil", func() error { return (*interval.FoldStats)(nil).Merge(nil) }},
		{"interval.FoldStats.Stats", "nil *FoldStats", func() error { return errOf((*interval.FoldStats)(nil).Stats(0)) }},
		{"interval.FoldStats.Models", "FoldStats{}", func() error { return errOf((&interval.FoldStats{}).Models(1, regress.FreeIntercept)) }},
		{"interval.FoldStats.Choose", "nil *FoldStats", func() error { return errOf((*interval.FoldStats)(nil).Choose(loo.SelectNystrom{})) }},
		{"interval.FoldFits.Pass", "nil *FoldFits", func() error { return errOf((*interval.FoldFits)(nil).Pass(0)) }},
		{"interval.FoldFits.Pass", "FoldFits{}", func() error { return errOf((&interval.FoldFits{}).Pass(0)) }},
		{"interval.CVPass.Add", "nil *CVPass", func() error { return (*interval.CVPass)(nil).Add(x, y) }},
		{"interval.CVPass.Add", "CVPass{}", func() error { return (&interval.CVPass{}).Add(x, y) }},
		{"interval.CVPass.Merge", "nil, nil", func() error { return (*interval.CVPass)(nil).Merge(nil) }},
		{"interval.CVPass.CV", "CVPass{}", func() error { return errOf((&interval.CVPass{}).CV()) }},
		{"interval.CVPass.MarshalBinary", "CVPass{}", func() error { return errOf((&interval.CVPass{}).MarshalBinary()) }},
		{"interval.CVPass.UnmarshalBinary", "nil *CVPass, garbage", func() error { return (*interval.CVPass)(nil).UnmarshalBinary([]byte("rkhsCVP1")) }},
		{"interval.CVPass.UnmarshalBinary", "CVPass{}, nil", func() error { return (&interval.CVPass{}).UnmarshalBinary(nil) }},
		{"interval.FoldStats.MarshalBinary", "FoldStats{}", func() error { return errOf((&interval.FoldStats{}).MarshalBinary()) }},
		{"interval.FoldStats.UnmarshalBinary", "nil", func() error { return new(interval.FoldStats).UnmarshalBinary(nil) }},
		{"interval.FoldStats.UnmarshalBinary", "magic, then short", func() error { return new(interval.FoldStats).UnmarshalBinary([]byte("rkhsFLD1\x02")) }},
		{"interval.RLSCVChosen", "nil, …", func() error { return errOf(interval.RLSCVChosen(nil, nil, nil, 0, nil, nil, nil)) }},
		{"interval.RLSCVChosen", "nil X", func() error {
			return errOf(interval.RLSCVChosen(func(s float64) kernels.Kernel { return kernels.Gaussian{Sigma: s} }, []float64{1}, []float64{1}, 0, nil, nil, nil))
		}},
		{"interval.NystromCVChosen", "SelectNystrom{}, nil, nil, nil", func() error { return errOf(interval.NystromCVChosen(loo.SelectNystrom{}, nil, nil, nil)) }},
		{"loo.SelectNystrom.FitStats", "nil, nil, nil", func() error { return errOf(loo.SelectNystrom{}.FitStats(nil, nil, nil)) }},
		{"loo.SelectNystrom.FitStats", "nil statistics", func() error {
			return errOf(loo.SelectNystrom{Sigmas: []float64{1}, Criterion: loo.GCV}.FitStats([]*regress.NystromStats{nil}, nil, nil))
		}},
		{"interval.FoldModels", "nil, nil", func() error {
			return errOf(interval.FoldModels([]*regress.NystromStats{nil, nil}, 1, regress.FreeIntercept))
		}},
		{"interval.FoldModels", "zero NystromStats", func() error {
			return errOf(interval.FoldModels([]*regress.NystromStats{&stats, &stats}, 1, regress.FreeIntercept))
		}},
		{"interval.NewCV", "nil, nil", func() error { return errOf(interval.NewCV(nil, nil)) }},
		{"interval.NewCV", "nil models", func() error { return errOf(interval.NewCV(make([]*regress.Model, 2), []*linalg.Dense{y, y})) }},
		{"interval.NewCV", "Model{}", func() error {
			return errOf(interval.NewCV([]*regress.Model{{}, {}}, []*linalg.Dense{y, y}))
		}},
		{"interval.NewCV", "nil residuals", func() error {
			m, err := regress.RLS{Kernel: g, Lambda: 1}.Fit(x, y)
			if err != nil {
				t.Fatal(err)
			}
			return errOf(interval.NewCV([]*regress.Model{m, m}, make([]*linalg.Dense, 2)))
		}},
		{"interval.Folds", "k = 1", func() error { return errOf(interval.Folds(12, 1, 1)) }},
		{"interval.ClassifyRLSCV", "RLS{}, nil, nil, nil", func() error { return errOf(interval.ClassifyRLSCV(classify.RLS{}, nil, nil, nil)) }},
		{"interval.ClassifyRLSCV", "nil folds", func() error { return errOf(interval.ClassifyRLSCV(classify.RLS{Kernel: g, Lambda: 1}, x, labels, nil)) }},
		{"interval.ClassifyNystromCV", "Nystrom{}, nil, nil, nil", func() error {
			return errOf(interval.ClassifyNystromCV(regress.Nystrom{}, false, nil, nil, nil))
		}},
		{"interval.Spec.Build", "Spec{}, nil, nil", func() error { return errOf(interval.Spec{}.Build(nil, nil)) }},
		{"interval.Spec.Build", "cv+fold without Choose", func() error {
			return errOf(interval.Spec{Method: interval.CVPlusFold, Level: 0.5, Folds: 3, Kernel: g, Lambda: 1}.Build(x, labels))
		}},
		{"interval.Spec.Build", "short y", func() error {
			return errOf(interval.Spec{Method: interval.JackknifePlus, Level: 0.5, Kernel: g, Lambda: 1}.Build(x, labels[:3]))
		}},
		{"interval.Fitted.Predict", "nil *Fitted", func() error { _, _, err := (*interval.Fitted)(nil).Predict(x, 0.5); return err }},
		{"interval.Fitted.Predict", "Fitted{}", func() error { _, _, err := (&interval.Fitted{}).Predict(x, 0.5); return err }},
		{"interval.Fitted.WithModel", "nil, nil", func() error { return errOf((*interval.Fitted)(nil).WithModel(nil)) }},
		{"interval.Folds", "k > n", func() error { return errOf(interval.Folds(2, 3, 1)) }},
		{"interval.Folds", "n < 0", func() error { return errOf(interval.Folds(-4, 2, 1)) }},
		{"interval.CheckFolds", "k = 1", func() error { return interval.CheckFolds(1, 12) }},
		{"interval.CheckFolds", "k > n", func() error { return interval.CheckFolds(3, 2) }},
		{"interval.ClassifyRLS", "RLS{}, nil, nil", func() error { return errOf(interval.ClassifyRLS(classify.RLS{}, nil, nil)) }},
		{"interval.ClassifyRLS", "short labels", func() error {
			return errOf(interval.ClassifyRLS(classify.RLS{Kernel: g, Lambda: 1}, x, labels[:3]))
		}},
		{"interval.ClassifyNystrom", "Nystrom{}, nil, nil", func() error {
			return errOf(interval.ClassifyNystrom(regress.Nystrom{}, false, nil, nil))
		}},
		{"interval.ClassifyNystrom", "Nystrom{}", func() error {
			return errOf(interval.ClassifyNystrom(regress.Nystrom{}, true, x, labels))
		}},
		{"interval.Jackknife.Predict", "nil *Jackknife", func() error { var j *interval.Jackknife; return errOf(j.Predict(x, 0.8)) }},
		{"interval.Jackknife.Predict", "Jackknife{}", func() error { return errOf((&interval.Jackknife{}).Predict(x, 0.8)) }},
		{"interval.Jackknife.Predict", "nil X", func() error {
			jk, err := interval.RLS(regress.RLS{Kernel: g, Lambda: 1}, x, y)
			if err != nil {
				t.Fatal(err)
			}
			return errOf(jk.Predict(nil, 0.8))
		}},
		{"interval.Path.Predict", "nil *Path", func() error { var p *interval.Path; return errOf(p.Predict(x, 0.8)) }},
		{"interval.Path.Predict", "Path{}", func() error { return errOf((&interval.Path{}).Predict(x, 0.8)) }},
		{"interval.CV.Predict", "nil *CV", func() error { var c *interval.CV; return errOf(c.Predict(x, 0.8)) }},
		{"interval.CV.Predict", "CV{}", func() error { return errOf((&interval.CV{}).Predict(x, 0.8)) }},
		{"interval.CV.Predict", "short X", func() error {
			folds, err := interval.Folds(x.Rows, 3, 1)
			if err != nil {
				t.Fatal(err)
			}
			cv, err := interval.RLSCV(regress.RLS{Kernel: g, Lambda: 1}, x, y, folds)
			if err != nil {
				t.Fatal(err)
			}
			return errOf(cv.Predict(short, 0.8))
		}},
		{"interval.CV.WithModel", "nil *CV", func() error { var c *interval.CV; return errOf(c.WithModel(&regress.Model{})) }},
		{"interval.CV.WithModel", "CV{}, Model{}", func() error { return errOf((&interval.CV{}).WithModel(&regress.Model{})) }},
		{"interval.Classes.Predict", "nil *Classes", func() error { var c *interval.Classes; return errOf(c.Predict(x, 0.8)) }},
		{"interval.Classes.Predict", "Classes{}", func() error { return errOf((&interval.Classes{}).Predict(x, 0.8)) }},
		{"interval.Classes.Predict", "X of another width", func() error {
			c, err := interval.ClassifyRLS(classify.RLS{Kernel: g, Lambda: 1}, x, labels)
			if err != nil {
				t.Fatal(err)
			}
			return errOf(c.Predict(linalg.NewDense(2, 3, nil), 0.8))
		}},
		{"loo.NormOf", "nil", func() error { return errOf(loo.NormOf(nil)) }},
		{"regress.NystromCenters", "nil, 1, 1", func() error { return errOf(regress.NystromCenters(nil, 1, 1)) }},
		{"regress.NystromCenters", "X, 0, 1", func() error { return errOf(regress.NystromCenters(x, 0, 1)) }},
		{"regress.NystromCenters", "X, more than its rows, 1", func() error { return errOf(regress.NystromCenters(x, x.Rows+1, 1)) }},
		{"kernels.CheckDegenerate", "nil, X", func() error { return kernels.CheckDegenerate(nil, x) }},
		{"kernels.CheckDegenerate", "k, short", func() error { return kernels.CheckDegenerate(g, short) }},
		{"loo.SelectRLS", "nil kernel function", func() error {
			return errOf3(loo.SelectRLS(nil, x, y, []float64{1}, []float64{1}, regress.NoIntercept))
		}},
		{"classify.KNN.Fit", "KNN{}", func() error { return errOf(classify.KNN{}.Fit(x, labels)) }},
		{"classify.Falkon.Fit", "Falkon{}", func() error { return errOf(classify.Falkon{}.Fit(x, labels)) }},
		{"classify.Perceptron.Fit", "nil, nil", func() error { return errOf(classify.Perceptron{Kernel: g}.Fit(nil, nil)) }},
		{"classify.KNNModel.Predict", "KNNModel{}", func() error { return errOf((&classify.KNNModel{}).Predict(x)) }},
		{"classify.RLSModel.Predict", "RLSModel{}", func() error { return errOf((&classify.RLSModel{}).Predict(x)) }},
		{"classify.SVMModel.Predict", "SVMModel{}", func() error { return errOf((&classify.SVMModel{}).Predict(x)) }},
		{"classify.PerceptronModel.Scores", "PerceptronModel{}", func() error { return errOf((&classify.PerceptronModel{}).Scores(x)) }},
		{"classify.LogisticModel.Probabilities", "LogisticModel{}", func() error {
			return errOf((&classify.LogisticModel{}).Probabilities(x))
		}},
		{"dataset.ReadFile", "format json", func() error { return errOf3(dataset.ReadFile("x", "json", dataset.CSVOptions{})) }},
		{"dataset.Decompress", "nil", func() error { return errOf(dataset.Decompress(nil)) }},
		{"dataset.ReadCSV", "empty", func() error { return errOf(dataset.ReadCSV(strings.NewReader(""), dataset.CSVOptions{})) }},
		{"dataset.ReadCSVInfo", "empty", func() error {
			return errOf3(dataset.ReadCSVInfo(strings.NewReader(""), dataset.CSVOptions{}))
		}},
		{"dataset.ReadLIBSVM", "empty", func() error { return errOf(dataset.ReadLIBSVM(strings.NewReader(""), 0)) }},
		{"dataset.ParseCSVLine", "nil x", func() error {
			return errOf3(dataset.ParseCSVLine("1,2", 1, dataset.CSVOptions{}, nil))
		}},
		{"dataset.ParseLIBSVMLine", "nil x", func() error { return errOf3(dataset.ParseLIBSVMLine("1 1:2", 1, nil)) }},
		{"dataset.NewCSVLines", "blank first line", func() error { return errOf3(dataset.NewCSVLines(" ", 1, dataset.CSVOptions{})) }},
		{"dataset.CSVLines.Parse", "CSVLines{}, nil x", func() error { return errOf3((&dataset.CSVLines{}).Parse("1,2", 1, nil)) }},
		{"dataset.CSVLines.Parse", "x of another length", func() error {
			c, _, err := dataset.NewCSVLines("a,y", 1, dataset.CSVOptions{Header: true, LabelCol: -1})
			if err != nil {
				return nil
			}
			return errOf3(c.Parse("1,2", 2, nil))
		}},
		{"dataset.WriteCSV", "nil Data", func() error { return dataset.WriteCSV(new(bytes.Buffer), nil, dataset.CSVOptions{}) }},
		{"dataset.WriteLIBSVM", "nil Data", func() error { return dataset.WriteLIBSVM(new(bytes.Buffer), nil) }},
		{"optimize.LBFGS.Minimize", "nil f", func() error { return errOf(optimize.LBFGS{}.Minimize(nil, []float64{0}, nil, nil)) }},
		{"optimize.LBFGS.Minimize", "f, nil x0", func() error { return errOf(optimize.LBFGS{}.Minimize(quarter, nil, nil, nil)) }},
		{"optimize.LBFGS.Minimize", "lo of the wrong length", func() error {
			return errOf(optimize.LBFGS{}.Minimize(quarter, []float64{0, 0}, []float64{0}, nil))
		}},
	}...)
	// The model files: the zero value cannot be written, and an empty
	// object is not a model file.
	files := []struct {
		typ string
		m   interface {
			MarshalJSON() ([]byte, error)
			UnmarshalJSON([]byte) error
		}
	}{
		{"regress.Model", &regress.Model{}},
		{"regress.LinearModel", &regress.LinearModel{}},
		{"classify.KNNModel", &classify.KNNModel{}},
		{"classify.LogisticModel", &classify.LogisticModel{}},
		{"classify.PerceptronModel", &classify.PerceptronModel{}},
		{"classify.RLSModel", &classify.RLSModel{}},
		{"classify.SVMModel", &classify.SVMModel{}},
		{"interval.CV", &interval.CV{}},
	}
	for _, f := range files {
		rows = append(rows,
			apiRow{f.typ + ".MarshalJSON", "zero value", func() error { return errOf(f.m.MarshalJSON()) }},
			apiRow{f.typ + ".UnmarshalJSON", "{}", func() error { return f.m.UnmarshalJSON([]byte("{}")) }})
	}
	return rows
}

// TestNoPanicOnNilOrZero: nil data and zero-value models, decompositions,
// paths and statistics are InputErrors of their package, never a panic;
// dataset's readers and writers return their *ParseError or *DataError.
func TestNoPanicOnNilOrZero(t *testing.T) {
	for _, r := range noPanicRows(t) {
		err := r.run()
		var (
			ie   *linalg.InputError
			pe   *dataset.ParseError
			de   *dataset.DataError
			kind = "*linalg.InputError"
			ok   = errors.As(err, &ie)
		)
		if pkgOf(r.api) == "dataset" {
			kind, ok = "*dataset.ParseError or *dataset.DataError", errors.As(err, &pe) || errors.As(err, &de)
		}
		if !ok {
			t.Errorf("%s: %v, want a %s", r, err, kind)
		}
	}
}

// TestInterceptOneCheck: an unknown intercept mode is reported the same
// way by every package, through regress.Intercept.Validate: an InputError
// on the call and the argument that held it, wrapping the package's own
// sentinel and regress.ErrInput.
func TestInterceptOneCheck(t *testing.T) {
	x, y, _, labels := vocabData()
	g := kernels.Gaussian{Sigma: 1}
	s, err := regress.NewSpectral(g, x, y)
	if err != nil {
		t.Fatal(err)
	}
	bad := regress.Intercept(7)
	for _, c := range []struct {
		err     error
		kind    error
		op, arg string
	}{
		{regress.Intercept(-1).Validate(), regress.ErrInput, "Intercept.Validate", "Intercept"},
		{errOf(regress.RLS{Kernel: g, Lambda: 1, Intercept: bad}.Fit(x, y)), regress.ErrInput, "RLS.Fit", "Intercept"},
		{errOf(regress.NewLinearPath(x, y, bad)), regress.ErrInput, "NewLinearPath", "Intercept"},
		{errOf(loo.RLS(s, []float64{1}, bad)), loo.ErrInput, "RLS", "ic"},
		{errOf3(loo.SelectRLS(func(s float64) kernels.Kernel { return kernels.Gaussian{Sigma: s} }, x, y, []float64{1}, []float64{1}, bad)), loo.ErrInput, "SelectRLS", "ic"},
		{errOf(classify.RLS{Kernel: g, Lambda: 1, Intercept: bad}.Fit(x, labels)), classify.ErrInput, "RLS.Fit", "Intercept"},
		{errOf(classify.Perceptron{Kernel: g, Intercept: bad}.Fit(x, labels)), classify.ErrInput, "Perceptron.Fit", "Intercept"},
		{errOf(classify.Logistic{Kernel: g, Lambda: 1, Intercept: bad}.Fit(x, labels)), classify.ErrInput, "Logistic.Fit", "Intercept"},
		{errOf(classify.SVM{Kernel: g, Lambda: 1, Intercept: bad}.Fit(x, labels)), classify.ErrInput, "SVM.Fit", "Intercept"},
	} {
		var ie *linalg.InputError
		switch {
		case !errors.As(c.err, &ie) || ie.Op != c.op || ie.Arg != c.arg:
			t.Errorf("%v: want an InputError on %s, argument %s", c.err, c.op, c.arg)
		case !strings.HasPrefix(ie.Reason, "unknown mode "):
			t.Errorf("%v: reason %q, want Intercept.Validate's", c.err, ie.Reason)
		case !errors.Is(c.err, c.kind) || !errors.Is(c.err, regress.ErrInput):
			t.Errorf("%v: want it to wrap %v and %v", c.err, c.kind, regress.ErrInput)
		}
	}
	for _, ic := range []regress.Intercept{regress.NoIntercept, regress.FreeIntercept, regress.PenalizedIntercept} {
		if err := ic.Validate(); err != nil {
			t.Errorf("%v.Validate() = %v, want nil", ic, err)
		}
	}
}
