package loo_test

import (
	"fmt"
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
	t.Format(os.Stdout, loo.Choice{Sigma: 1, Lambda: 1e-3, Score: 1.25})
	// Output:
	// loo_mse     σ=0.5         σ=1
	// λ=0.001     2.5           1.25*
	// λ=0.1       3             4
}

// The table chooses its pair, and says where the choice lies in its grids:
// here the largest σ and the smallest λ, so both grids should be widened
// (σ upwards, λ downwards).
func ExampleTable_Facts() {
	t := &loo.Table{
		Sigmas:  []float64{0.5, 1},
		Lambdas: []float64{1e-3, 1e-2, 1e-1},
		Scores:  [][]float64{{2.5, 3, 3.5}, {1.25, 4, 4.5}},
	}
	c, _ := t.Best()
	fmt.Printf("σ = %g, λ = %g, score %g\n", c.Sigma, c.Lambda, c.Score)
	fmt.Printf("%+v\n", t.Facts(c))
	// Output:
	// σ = 1, λ = 0.001, score 1.25
	// {SigmaEdge:1 LambdaEdge:-1 Flat:false}
}
