package loo_test

import (
	"fmt"
	"math/rand/v2"

	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/loo"
	"rkhs/regress"
)

// The leave-one-out MSE of a λ path estimated from 100 of 500 rows drawn
// at random, with its standard error, beside its value over every row:
// each estimate lies within 1.2 standard errors of it (the squared
// residuals of these house prices have a long tail, hence the wide
// errors; the rows' errors of neighbouring λ are strongly correlated, so
// that two λ compare far better than their errors suggest).
func ExampleNystromPath_MSEStdErr() {
	x, y := housing(500)
	stats, err := regress.NewNystromStats(kernels.Gaussian{Sigma: 1.5}, x.Slice(0, 50, 0, x.Cols))
	if err == nil {
		err = stats.Add(x, y)
	}
	if err != nil {
		fmt.Println(err)
		return
	}
	lambdas := []float64{1e-5, 1e-3, 1e-1}
	every, err := loo.NewNystromPath(stats, regress.FreeIntercept, lambdas)
	if err != nil {
		fmt.Println(err)
		return
	}
	sample, _ := loo.NewNystromPath(stats, regress.FreeIntercept, lambdas)
	const r = 100
	sx, sy := linalg.NewDense(r, x.Cols, nil), linalg.NewDense(r, 1, nil)
	for k, i := range rand.New(rand.NewPCG(1, 2)).Perm(x.Rows)[:r] {
		copy(sx.Row(k), x.Row(i))
		copy(sy.Row(k), y.Row(i))
	}
	if err := every.Add(x, y); err != nil {
		fmt.Println(err)
		return
	}
	if err := sample.Add(sx, sy); err != nil {
		fmt.Println(err)
		return
	}
	all, _ := every.MSE()
	est, _ := sample.MSE()
	se, _ := sample.MSEStdErr()
	zero, _ := every.MSEStdErr()
	for j, l := range lambdas {
		fmt.Printf("λ = %.0e  every row %6.2f  %d rows %6.2f ± %4.2f\n", l, all[j], r, est[j], se[j])
	}
	fmt.Println("standard error with every row:", zero[0])
	// Output:
	// λ = 1e-05  every row  24.61  100 rows  25.36 ± 6.57
	// λ = 1e-03  every row  25.57  100 rows  26.41 ± 7.85
	// λ = 1e-01  every row  61.61  100 rows  49.01 ± 10.45
	// standard error with every row: 0
}
