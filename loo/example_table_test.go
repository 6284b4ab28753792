package loo_test

import (
	"os"

	"rkhs/loo"
)

// A selection's table as text, the chosen pair starred.
func ExampleTable_Format() {
	t := &loo.Table{
		Sigmas:  []float64{0.5, 1},
		Lambdas: []float64{1e-3, 1e-1},
		Scores:  [][]float64{{2.5, 3}, {1.25, 4}},
	}
	t.Format(os.Stdout, "loo_mse", loo.Choice{Sigma: 1, Lambda: 1e-3, Score: 1.25})
	// Output:
	// loo_mse     σ=0.5         σ=1
	// λ=0.001     2.5           1.25*
	// λ=0.1       3             4
}
