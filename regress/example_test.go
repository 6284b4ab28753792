package regress_test

import (
	"fmt"

	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

// Six points of y = x² + 1 on [−1, 1].
func sample() (x, y *linalg.Dense) {
	x = linalg.NewDense(6, 1, []float64{-1, -0.6, -0.2, 0.2, 0.6, 1})
	y = linalg.NewDense(6, 1, nil)
	for i := 0; i < 6; i++ {
		v := x.At(i, 0)
		y.Set(i, 0, v*v+1)
	}
	return x, y
}

func ExampleRLS_Fit() {
	// The true value is f(0.4) = 1.16; the intercept modes differ in how
	// much of the mean of y the kernel expansion has to carry.
	x, y := sample()
	for _, ic := range []regress.Intercept{regress.NoIntercept, regress.FreeIntercept, regress.PenalizedIntercept} {
		m, err := regress.RLS{Kernel: kernels.Gaussian{Sigma: 0.5}, Lambda: 1e-6, Intercept: ic}.Fit(x, y)
		if err != nil {
			fmt.Println(err)
			return
		}
		p, _ := m.Predict(linalg.NewDense(1, 1, []float64{0.4}))
		fmt.Printf("%-9v f(0.4) = %.3f, b = %.3f\n", ic, p.At(0, 0), m.Intercept[0])
	}
	// Output:
	// none      f(0.4) = 1.121, b = 0.000
	// free      f(0.4) = 1.139, b = 1.733
	// penalized f(0.4) = 1.134, b = 1.248
}

func ExampleLinearRLS_Fit() {
	// y = 2x₁ − x₂ + 3, fitted with a free intercept.
	x := linalg.NewDense(4, 2, []float64{0, 0, 1, 0, 0, 1, 1, 1})
	y := linalg.NewDense(4, 1, []float64{3, 5, 2, 4})
	m, err := regress.LinearRLS{Lambda: 1e-9, Intercept: regress.FreeIntercept}.Fit(x, y)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("w = [%.3f %.3f], b = %.3f\n", m.Weights.At(0, 0), m.Weights.At(1, 0), m.Intercept[0])
	// Output:
	// w = [2.000 -1.000], b = 3.000
}

func ExampleNystrom_Fit() {
	x, y := sample()
	fit, err := regress.Nystrom{Kernel: kernels.Gaussian{Sigma: 0.5}, Lambda: 1e-6, Centers: 4, Seed: 1, Intercept: regress.FreeIntercept}.Fit(x, y)
	if err != nil {
		fmt.Println(err)
		return
	}
	p, _ := fit.Predict(linalg.NewDense(1, 1, []float64{0.4}))
	fmt.Printf("centres %v, jitter %g, f(0.4) = %.2f\n", fit.Indices, fit.Jitter, p.At(0, 0))
	// Output:
	// centres [0 2 3 5], jitter 0, f(0.4) = 1.19
}

func ExampleModel_Predict() {
	x, y := sample()
	m, err := regress.RLS{Kernel: kernels.Polynomial{Degree: 2, Offset: 1}, Lambda: 1e-9}.Fit(x, y)
	if err != nil {
		fmt.Println(err)
		return
	}
	p, err := m.Predict(linalg.NewDense(2, 1, []float64{0, 0.5}))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%.4f\n", p.Data) // the degree-2 kernel reproduces x² + 1
	// Output:
	// [1.0000 1.2500]
}

func ExampleLinearModel_Predict() {
	m := &regress.LinearModel{Weights: linalg.NewDense(2, 1, []float64{2, -1}), Intercept: []float64{3}}
	p, _ := m.Predict(linalg.NewDense(1, 2, []float64{1, 1}))
	fmt.Println(p.Data)
	// Output:
	// [4]
}

func ExampleLambdaFromAlpha() {
	// scikit-learn's KernelRidge(alpha=0.5) on 200 points is λ = 0.0025 here.
	fmt.Println(regress.LambdaFromAlpha(0.5, 200), regress.AlphaFromLambda(0.0025, 200))
	// Output:
	// 0.0025 0.5
}

func ExampleLambdaFromC() {
	// LIBSVM's C = 10 on 500 points weighs the loss like λ = 1/(2·500·10).
	fmt.Println(regress.LambdaFromC(10, 500))
	// Output:
	// 0.0001
}

func ExampleIntercept_String() {
	fmt.Println(regress.NoIntercept, regress.FreeIntercept, regress.PenalizedIntercept)
	// Output:
	// none free penalized
}
