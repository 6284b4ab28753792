package regress_test

import (
	"encoding/json"
	"fmt"

	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

func ExampleAlphaFromLambda() {
	// scikit-learn's alpha = 0.5 on 100 points is λ = 0.005, and back.
	l := regress.LambdaFromAlpha(0.5, 100)
	fmt.Println(l, regress.AlphaFromLambda(l, 100))
	// Output:
	// 0.005 0.5
}

func ExampleFormatOf() {
	x, y := sample()
	m, _ := regress.LinearRLS{Lambda: 1e-3}.Fit(x, y)
	b, _ := json.Marshal(m)
	f, _ := regress.FormatOf(b) // choose the type to decode into
	fmt.Println(f)
	// Output:
	// rkhs.regress.LinearModel
}

func ExampleMSE() {
	y := linalg.NewDense(3, 1, []float64{1, 2, 3})
	p := linalg.NewDense(3, 1, []float64{1, 2, 6})
	mse, _ := regress.MSE(y, p)
	fmt.Println(mse)
	// Output:
	// 3
}

func ExamplePredictAll() {
	x, y := sample()
	s, _ := regress.NewSpectral(kernels.Gaussian{Sigma: 0.5}, x, y)
	path := []regress.PathPoint{{Filter: regress.TikhonovFilter{Lambda: 1e-6}}, {Filter: regress.TikhonovFilter{Lambda: 1e-2}}}
	models, _ := s.FitPath(path, regress.FreeIntercept)
	// One cross-kernel matrix for every model of the path.
	p, err := regress.PredictAll(models, linalg.NewDense(1, 1, []float64{0.4}))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%.3f %.3f\n", p[0].At(0, 0), p[1].At(0, 0))
	// Output:
	// 1.139 1.177
}

func ExampleSpectral_Fit() {
	x, y := sample()
	s, _ := regress.NewSpectral(kernels.Gaussian{Sigma: 0.5}, x, y)
	at := linalg.NewDense(1, 1, []float64{0.4})
	for _, f := range []regress.Filter{regress.TikhonovFilter{Lambda: 1e-6}, regress.TruncatedSVDFilter{Lambda: 0.05}, regress.LandweberFilter{Steps: 3}} {
		m, err := s.Fit(f, regress.FreeIntercept)
		if err != nil {
			fmt.Println(err)
			return
		}
		p, _ := m.Predict(at)
		fmt.Printf("%-28v f(0.4) = %.3f\n", f, p.At(0, 0))
	}
	// Output:
	// tikhonov(λ=1e-06)            f(0.4) = 1.139
	// tsvd(λ=0.05)                 f(0.4) = 1.203
	// landweber(t=3, η=0)          f(0.4) = 1.238
}

func ExampleSpectral_FilterValues() {
	x, y := sample()
	s, _ := regress.NewSpectral(kernels.Linear{}, x, y) // rank 1: one eigenvalue is not 0
	g, _ := s.FilterValues(regress.TruncatedSVDFilter{Lambda: 0.1})
	fmt.Printf("%.4g\n", g)
	// Output:
	// [0 0 0 0 0 0.3571]
}

func ExampleLinearPath_Fit() {
	x, _ := sample()
	y := linalg.NewDense(6, 1, nil)
	for i := range y.Data {
		y.Data[i] = 2*x.Data[i] + 1 // y = 2x + 1
	}
	lp, _ := regress.NewLinearPath(x, y, regress.FreeIntercept)
	for _, l := range []float64{1e-3, 1} { // every λ from one SVD
		m, _ := lp.Fit(l)
		fmt.Printf("λ = %g: w = %.4f, b = %.4f\n", l, m.Weights.At(0, 0), m.Intercept[0])
	}
	// Output:
	// λ = 0.001: w = 1.9957, b = 1.0000
	// λ = 1: w = 0.6364, b = 1.0000
}
