package loo_test

import (
	"fmt"

	"rkhs/kernels"
	"rkhs/loo"
	"rkhs/regress"
)

func ExampleComplement() {
	fmt.Println(loo.Complement(6, []int{1, 4}))
	// Output:
	// [0 2 3 5]
}

func ExamplePath_Best() {
	x, y := housing(100)
	s, _ := regress.NewSpectral(kernels.Gaussian{Sigma: 1.5}, x, y)
	p, _ := loo.RLS(s, []float64{1e-6, 1e-4, 1e-2}, regress.FreeIntercept)
	fmt.Printf("best of %d: λ = %g\n", p.Len(), p.Params[p.Best()])
	// Output:
	// best of 3: λ = 0.0001
}

func ExamplePath_Predictions() {
	x, y := housing(100)
	s, _ := regress.NewSpectral(kernels.Gaussian{Sigma: 1.5}, x, y)
	p, _ := loo.RLS(s, []float64{1e-4}, regress.FreeIntercept)
	pred := p.Predictions(0) // f⁻ⁱ(xᵢ): each point predicted without itself
	fmt.Printf("y₀ = %.1f, predicted without it: %.2f\n", y.At(0, 0), pred.At(0, 0))
	// Output:
	// y₀ = 24.0, predicted without it: 26.18
}
