package regress_test

import (
	"encoding/json"
	"fmt"

	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

func ExampleNewSpectral() {
	x, y := sample()
	// One eigendecomposition of K serves every filter and parameter value.
	s, err := regress.NewSpectral(kernels.Gaussian{Sigma: 0.5}, x, y)
	if err != nil {
		fmt.Println(err)
		return
	}
	at := linalg.NewDense(1, 1, []float64{0.4})
	for _, f := range []regress.Filter{
		regress.TikhonovFilter{Lambda: 1e-6},
		regress.TruncatedSVDFilter{Lambda: 1e-3},
		regress.LandweberFilter{Steps: 100},
		regress.NuFilter{Steps: 10},
		regress.IteratedTikhonovFilter{Lambda: 1e-3, Steps: 3},
	} {
		m, err := s.Fit(f, regress.FreeIntercept)
		if err != nil {
			fmt.Println(err)
			return
		}
		p, _ := m.Predict(at)
		fmt.Printf("%-34v f(0.4) = %.3f\n", f, p.At(0, 0))
	}
	// Output:
	// tikhonov(λ=1e-06)                  f(0.4) = 1.139
	// tsvd(λ=0.001)                      f(0.4) = 1.139
	// landweber(t=100, η=0)              f(0.4) = 1.141
	// nu-method(t=10, ν=0, η=0)          f(0.4) = 1.143
	// iterated-tikhonov(λ=0.001, t=3)    f(0.4) = 1.139
}

func ExampleSpectral_FitAugmented() {
	x, y := sample()
	s, _ := regress.NewSpectral(kernels.Gaussian{Sigma: 0.5}, x, y)
	// Tikhonov on the augmented system [K 1]·(c, b) = y: b comes with it.
	m, err := s.FitAugmented(1e-4)
	if err != nil {
		fmt.Println(err)
		return
	}
	p, _ := m.Predict(linalg.NewDense(1, 1, []float64{0.4}))
	fmt.Printf("f(0.4) = %.3f, b = %.3f\n", p.At(0, 0), m.Intercept[0])
	// Output:
	// f(0.4) = 1.145, b = 2.058
}

func ExampleSpectral_PredictPath() {
	x, y := sample()
	s, _ := regress.NewSpectral(kernels.Gaussian{Sigma: 0.5}, x, y)
	var path []regress.PathPoint
	for _, l := range []float64{1e-6, 1e-3, 1} {
		path = append(path, regress.PathPoint{Filter: regress.TikhonovFilter{Lambda: l}})
	}
	// Predictions for the whole path from one product K(x, X)·Q.
	preds, err := s.PredictPath(path, regress.FreeIntercept, linalg.NewDense(1, 1, []float64{0.4}))
	if err != nil {
		fmt.Println(err)
		return
	}
	for j, p := range preds {
		fmt.Printf("%v: %.3f\n", path[j].Filter, p.At(0, 0))
	}
	// Output:
	// tikhonov(λ=1e-06): 1.139
	// tikhonov(λ=0.001): 1.144
	// tikhonov(λ=1): 1.427
}

func ExampleSpectral_FitPath() {
	x, y := sample()
	s, _ := regress.NewSpectral(kernels.Gaussian{Sigma: 0.5}, x, y)
	models, err := s.FitPath([]regress.PathPoint{{Filter: regress.TikhonovFilter{Lambda: 1e-6}}, {Augmented: 1e-4}}, regress.FreeIntercept)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("b: %.3f %.3f\n", models[0].Intercept[0], models[1].Intercept[0])
	// Output:
	// b: 1.733 2.058
}

func ExampleCGLS_Fit() {
	x, y := sample()
	// CG on [K 1] (Prato and Zanni 2012, eq. 9): the number of iterations
	// regularizes.
	fit, err := regress.CGLS{Kernel: kernels.Gaussian{Sigma: 0.5}, Intercept: regress.FreeIntercept,
		Iterative: regress.Iterative{MaxIter: 4}}.Fit(x, y)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d iterations (%s), residual ‖y‖ = %.3f down to below 1e-3: %v\n",
		fit.Iterations, fit.Stopped, fit.Residuals[0], fit.Residuals[fit.Iterations] < 1e-3)
	// Output:
	// 4 iterations (iterations), residual ‖y‖ = 3.723 down to below 1e-3: true
}

func ExampleCG_Fit() {
	x, y := sample()
	// CG on (K + nλI)c = y until the residual is 1e-12 of ‖y‖.
	fit, err := regress.CG{Kernel: kernels.Gaussian{Sigma: 0.5}, Lambda: 1e-3, Intercept: regress.FreeIntercept,
		Iterative: regress.Iterative{MaxIter: 100, Tol: 1e-12}}.Fit(x, y)
	if err != nil {
		fmt.Println(err)
		return
	}
	direct, _ := regress.RLS{Kernel: kernels.Gaussian{Sigma: 0.5}, Lambda: 1e-3, Intercept: regress.FreeIntercept}.Fit(x, y)
	fmt.Printf("stopped by %s; b = %.6f, Cholesky gives %.6f\n", fit.Stopped, fit.Intercept[0], direct.Intercept[0])
	// Output:
	// stopped by tolerance; b = 1.726000, Cholesky gives 1.726000
}

func ExampleLandweber_Fit() {
	x, y := sample()
	calls := 0
	fit, err := regress.Landweber{Kernel: kernels.Gaussian{Sigma: 0.5}, Intercept: regress.FreeIntercept,
		Iterative: regress.Iterative{MaxIter: 1000, Callback: func(it int, res float64, _ *regress.Model) bool {
			calls++
			return res > 0.01 // stop once the residual is below 0.01
		}}}.Fit(x, y)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("stopped by %s after %d iterations (%d callbacks), η = %.4f\n", fit.Stopped, fit.Iterations, calls, fit.Eta)
	// Output:
	// stopped by callback after 106 iterations (106 callbacks), η = 0.3474
}

func ExampleNuMethod_Fit() {
	x, y := sample()
	fit, err := regress.NuMethod{Kernel: kernels.Gaussian{Sigma: 0.5}, Intercept: regress.FreeIntercept,
		Iterative: regress.Iterative{MaxIter: 10}}.Fit(x, y)
	if err != nil {
		fmt.Println(err)
		return
	}
	p, _ := fit.Predict(linalg.NewDense(1, 1, []float64{0.4}))
	fmt.Printf("f(0.4) = %.3f after %d iterations\n", p.At(0, 0), fit.Iterations)
	// Output:
	// f(0.4) = 1.141 after 10 iterations
}

func ExampleNewLinearPath() {
	// y = 2x₁ − x₂ + 3 with a little noise; many λ from one thin SVD.
	x := linalg.NewDense(5, 2, []float64{0, 0, 1, 0, 0, 1, 1, 1, 2, 1})
	y := linalg.NewDense(5, 1, []float64{3.01, 4.99, 2.0, 4.02, 5.99})
	lp, err := regress.NewLinearPath(x, y, regress.FreeIntercept)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, l := range []float64{1e-8, 1e-1} {
		m, _ := lp.Fit(l)
		fmt.Printf("λ=%g: w = [%.3f %.3f], b = %.3f\n", l, m.Weights.At(0, 0), m.Weights.At(1, 0), m.Intercept[0])
	}
	// Output:
	// λ=1e-08: w = [1.992 -0.993], b = 3.004
	// λ=0.1: w = [1.613 -0.567], b = 3.052
}

func ExampleLinearPath_FitAugmented() {
	x := linalg.NewDense(5, 2, []float64{0, 0, 1, 0, 0, 1, 1, 1, 2, 1})
	y := linalg.NewDense(5, 1, []float64{3.01, 4.99, 2.0, 4.02, 5.99})
	lp, _ := regress.NewLinearPath(x, y, regress.NoIntercept) // Tikhonov on [K 1] needs the uncentred SVD
	m, err := lp.FitAugmented(1e-6)
	if err != nil {
		fmt.Println(err)
		return
	}
	p, _ := m.Predict(linalg.NewDense(1, 2, []float64{1, 1}))
	fmt.Printf("f(1, 1) = %.2f\n", p.At(0, 0))
	// Output:
	// f(1, 1) = 4.00
}

func ExampleModel_MarshalJSON() {
	x, y := sample()
	m, _ := regress.RLS{Kernel: kernels.Gaussian{Sigma: 0.5}, Lambda: 1e-3}.Fit(x, y)
	b, err := json.Marshal(m)
	if err != nil {
		fmt.Println(err)
		return
	}
	format, _ := regress.FormatOf(b)
	var back regress.Model
	if err := json.Unmarshal(b, &back); err != nil {
		fmt.Println(err)
		return
	}
	at := linalg.NewDense(1, 1, []float64{0.4})
	p1, _ := m.Predict(at)
	p2, _ := back.Predict(at)
	fmt.Println(format, p1.At(0, 0) == p2.At(0, 0))
	// Output:
	// rkhs.regress.Model true
}

func ExampleSpectral_RoundingMiss() {
	// A cubic kernel on features near 50: ‖K‖ reaches 5·10¹², and at
	// nλ = 0.02 rounding alone leaves the minimum of Tikhonov on [K 1]
	// uncertain by a relative 2·10⁻⁵; on the same features centred the
	// miss is the rounding of the objective itself.
	const n = 40
	raw, centred := linalg.NewDense(n, 2, nil), linalg.NewDense(n, 2, nil)
	y := linalg.NewDense(n, 1, nil)
	for i := 0; i < n; i++ {
		u, v := float64(i%7)/7, float64(i%5)/5
		raw.Set(i, 0, 50+u)
		raw.Set(i, 1, 50+v)
		centred.Set(i, 0, u-0.5)
		centred.Set(i, 1, v-0.5)
		y.Set(i, 0, u*v)
	}
	k := kernels.Polynomial{Degree: 3, Offset: 1}
	for _, x := range []*linalg.Dense{raw, centred} {
		s, err := regress.NewSpectral(k, x, y)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("ε‖K‖ = %.0e, miss ≤ %.0e\n", s.RoundingLevel(), s.RoundingMiss(5e-4))
	}
	// Output:
	// ε‖K‖ = 6e-04, miss ≤ 2e-05
	// ε‖K‖ = 5e-15, miss ≤ 1e-16
}
