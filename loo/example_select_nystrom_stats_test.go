package loo_test

import (
	"fmt"

	"rkhs/kernels"
	"rkhs/loo"
	"rkhs/regress"
)

// σ and λ chosen by GCV from statistics summed in two shards and merged,
// without another look at the rows.
func ExampleSelectNystrom_FitStats() {
	x, y := housing(300)
	centers := x.Slice(0, 40, 0, x.Cols)
	sigmas := []float64{1, 2, 4}
	stats := make([]*regress.NystromStats, len(sigmas))
	for s, sg := range sigmas {
		a, err := regress.NewNystromStats(kernels.Gaussian{Sigma: sg}, centers)
		if err != nil {
			fmt.Println(err)
			return
		}
		b, _ := regress.NewNystromStats(kernels.Gaussian{Sigma: sg}, centers)
		if err := a.Add(x.Slice(0, 150, 0, x.Cols), y.Slice(0, 150, 0, 1)); err != nil {
			fmt.Println(err)
			return
		}
		if err := b.Add(x.Slice(150, 300, 0, x.Cols), y.Slice(150, 300, 0, 1)); err != nil {
			fmt.Println(err)
			return
		}
		if err := a.Merge(b); err != nil {
			fmt.Println(err)
			return
		}
		stats[s] = a
	}
	sel, err := loo.SelectNystrom{Sigmas: sigmas, Lambdas: loo.Geometric(1e-8, 1e-2, 7), Intercept: regress.FreeIntercept, Criterion: loo.GCV}.FitStats(stats, nil, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("chosen σ = %g, λ = %.0e by GCV\n", sel.Sigma, sel.Lambda)
	// Output:
	// chosen σ = 4, λ = 1e-06 by GCV
}
