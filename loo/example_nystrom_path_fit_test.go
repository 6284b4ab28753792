package loo_test

import (
	"fmt"

	"rkhs/kernels"
	"rkhs/loo"
	"rkhs/regress"
)

// The fit at the λ a path chose, read from the path itself: the model
// whose leave-one-out residuals were scored, with no second factorization.
// It agrees with NystromStats.Solve at that λ to rounding.
func ExampleNystromPath_Fit() {
	x, y := housing(300)
	stats, err := regress.NewNystromStats(kernels.Gaussian{Sigma: 1.5}, x.Slice(0, 50, 0, x.Cols))
	if err == nil {
		err = stats.Add(x, y)
	}
	if err != nil {
		fmt.Println(err)
		return
	}
	lambdas := loo.Geometric(1e-6, 1, 7)
	path, err := loo.NewNystromPath(stats, regress.FreeIntercept, lambdas)
	if err == nil {
		err = path.Add(x, y)
	}
	if err != nil {
		fmt.Println(err)
		return
	}
	mse, _ := path.MSE()
	best := 0
	for j := range mse {
		if mse[j] < mse[best] {
			best = j
		}
	}
	fit := path.Fit(best)
	solved, err := stats.Solve(lambdas[best], regress.FreeIntercept)
	if err != nil {
		fmt.Println(err)
		return
	}
	a, _ := fit.Predict(x.Slice(0, 3, 0, x.Cols))
	b, _ := solved.Predict(x.Slice(0, 3, 0, x.Cols))
	fmt.Printf("λ = %.0e, LOO MSE %.2f\n", lambdas[best], mse[best])
	for i := range 3 {
		fmt.Printf("row %d: y %5.1f, from the path %7.3f, from Solve %7.3f\n", i, y.At(i, 0), a.At(i, 0), b.At(i, 0))
	}
	// Output:
	// λ = 1e-04, LOO MSE 12.20
	// row 0: y  24.0, from the path  27.775, from Solve  27.775
	// row 1: y  21.6, from the path  24.195, from Solve  24.195
	// row 2: y  34.7, from the path  34.763, from Solve  34.763
}
