package loo_test

import (
	"fmt"

	"rkhs/kernels"
	"rkhs/loo"
	"rkhs/regress"
)

// σ and λ of a Nyström fit chosen together by exact leave-one-out, the rows
// streamed: widths around the median distance between rows
// (MedianDistanceOf), a λ grid, the same 40 centres for every σ.
func ExampleSelectNystrom() {
	x, y := housing(300)
	med, err := loo.MedianDistanceOf(kernels.Gaussian{}, x, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	sel, err := loo.SelectNystrom{
		Kernel:    func(s float64) kernels.Kernel { return kernels.Gaussian{Sigma: s} },
		Centers:   x.Slice(0, 40, 0, x.Cols),
		Sigmas:    []float64{med / 4, med / 2, med, 2 * med},
		Lambdas:   loo.Geometric(1e-10, 1, 11),
		Intercept: regress.FreeIntercept,
	}.Fit(x, y)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("median distance %.3f\n", med)
	fmt.Printf("chosen σ = %.3f, λ = %.0e: LOO MSE %.2f (tr H = %.1f)\n", sel.Sigma, sel.Lambda, sel.Score,
		sel.DF[indexOf(sel.Scores.Sigmas, sel.Sigma)][indexOf(sel.Scores.Lambdas, sel.Lambda)])
	// Output:
	// median distance 1.882
	// chosen σ = 3.765, λ = 1e-06: LOO MSE 7.25 (tr H = 36.7)
}

func indexOf(v []float64, x float64) int {
	for i, w := range v {
		if w == x {
			return i
		}
	}
	return -1
}

// The rows of a selection's leave-one-out pass on a subset: a caller whose
// rows are elsewhere adds these rows, by their place, to the leave-one-out
// sums and gets the scores of Fit with the same Subset and Seed.
func ExampleSelectNystrom_SubsetRows() {
	fmt.Println(loo.SelectNystrom{Subset: 4, Seed: 1}.SubsetRows(10))
	fmt.Println(loo.SelectNystrom{Subset: loo.DefaultSubset(10), Seed: 1}.SubsetRows(10)) // every row
	// Output:
	// [4 5 7 9]
	// []
}
