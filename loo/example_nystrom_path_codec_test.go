package loo_test

import (
	"fmt"

	"rkhs/kernels"
	"rkhs/loo"
	"rkhs/regress"
)

// The leave-one-out pass split over two workers: each builds the path
// from the same statistics, adds its rows and ships its encoded sums; the
// driver decodes them into paths of its own and merges.
func ExampleNystromPath_MarshalBinary() {
	x, y := housing(300)
	stats, err := regress.NewNystromStats(kernels.Gaussian{Sigma: 1.5}, x.Slice(0, 50, 0, x.Cols))
	if err == nil {
		err = stats.Add(x, y)
	}
	if err != nil {
		fmt.Println(err)
		return
	}
	lambdas := loo.Geometric(1e-5, 1e-3, 3)
	var sums [][]byte
	for _, part := range [][2]int{{0, 150}, {150, 300}} { // on two workers
		w, err := loo.NewNystromPath(stats, regress.FreeIntercept, lambdas)
		if err == nil {
			err = w.Add(x.Slice(part[0], part[1], 0, x.Cols), y.Slice(part[0], part[1], 0, 1))
		}
		if err != nil {
			fmt.Println(err)
			return
		}
		b, _ := w.MarshalBinary()
		sums = append(sums, b)
	}
	total, _ := loo.NewNystromPath(stats, regress.FreeIntercept, lambdas)
	part, _ := loo.NewNystromPath(stats, regress.FreeIntercept, lambdas)
	if err := total.UnmarshalBinary(sums[0]); err != nil {
		fmt.Println(err)
		return
	}
	if err := part.UnmarshalBinary(sums[1]); err == nil {
		err = total.Merge(part)
	}
	mse, err := total.MSE()
	if err != nil {
		fmt.Println(err)
		return
	}
	for j, l := range lambdas {
		fmt.Printf("λ = %.0e  LOO MSE %6.2f over %d rows\n", l, mse[j], total.Rows())
	}
	// Output:
	// λ = 1e-05  LOO MSE  13.07 over 300 rows
	// λ = 1e-04  LOO MSE  12.20 over 300 rows
	// λ = 1e-03  LOO MSE  14.35 over 300 rows
}
