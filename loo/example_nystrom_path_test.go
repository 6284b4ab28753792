package loo_test

import (
	"fmt"

	"rkhs/kernels"
	"rkhs/loo"
	"rkhs/regress"
)

// The λ path of a Nyström fit from its statistics: GCV at once, exact
// leave-one-out after a second pass over the rows (here in two pieces, as
// two shards would send them), then the fit at the λ chosen.
func ExampleNewNystromPath() {
	x, y := housing(300)
	k := kernels.Gaussian{Sigma: 1.5}
	stats, err := regress.NewNystromStats(k, x.Slice(0, 50, 0, x.Cols))
	if err == nil {
		err = stats.Add(x, y)
	}
	if err != nil {
		fmt.Println(err)
		return
	}
	lambdas := loo.Geometric(1e-6, 1, 7)
	path, err := loo.NewNystromPath(stats, regress.FreeIntercept, lambdas)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, part := range [][2]int{{0, 150}, {150, 300}} {
		if err := path.Add(x.Slice(part[0], part[1], 0, x.Cols), y.Slice(part[0], part[1], 0, 1)); err != nil {
			fmt.Println(err)
			return
		}
	}
	mse, _ := path.MSE()
	best := 0
	for j := range lambdas {
		fmt.Printf("λ = %.0e  tr H = %5.1f  GCV %6.2f  LOO MSE %6.2f\n", lambdas[j], path.DF[j], path.GCV[j], mse[j])
		if mse[j] < mse[best] {
			best = j
		}
	}
	fit, err := stats.Solve(lambdas[best], regress.FreeIntercept)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("chosen λ = %.0e, %d centres\n", lambdas[best], fit.Model.Centers.Rows)
	// Output:
	// λ = 1e-06  tr H =  50.2  GCV  12.22  LOO MSE  14.66
	// λ = 1e-05  tr H =  45.8  GCV  11.96  LOO MSE  13.07
	// λ = 1e-04  tr H =  34.6  GCV  12.05  LOO MSE  12.20
	// λ = 1e-03  tr H =  20.5  GCV  14.39  LOO MSE  14.35
	// λ = 1e-02  tr H =   9.4  GCV  23.44  LOO MSE  23.57
	// λ = 1e-01  tr H =   3.3  GCV  51.52  LOO MSE  51.64
	// λ = 1e+00  tr H =   1.3  GCV  74.25  LOO MSE  74.27
	// chosen λ = 1e-04, 50 centres
}
