package kernels_test

import (
	"fmt"

	"rkhs/kernels"
	"rkhs/linalg"
)

// A Gaussian kernel with one length scale per feature: the blocks of
// K(X/σ, Z/σ), and the derivative of J = Σ_ik K_ik (the adjoint N all
// ones) in every log σ_j, Σ_ik K_ik·(x̃_ij − z̃_kj)² (checked by hand:
// 0.607 + 0.604 + 4·0.133 + 0.604 for the first feature). The second
// feature's scale is long, so its derivative is small.
func ExampleScaled() {
	x := linalg.NewDense(3, 2, []float64{0, 0, 1, 2, 2, -1})
	z := linalg.NewDense(2, 2, []float64{0, 1, 1, 0})
	s, err := kernels.NewScaled(kernels.Gaussian{Sigma: 1}, z, []float64{1, 10})
	if err != nil {
		fmt.Println(err)
		return
	}
	g, t := make([]float64, 2), make([]float64, 2)
	for b, err := range s.Blocks(x, 2, nil) {
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("rows %d…%d: K = %.3f\n", b.I0, b.I0+b.K.Rows-1, b.K.Data)
		n := linalg.NewDense(b.K.Rows, b.K.Cols, nil)
		for i := range n.Data {
			n.Data[i] = 1
		}
		s.AddGradient(g, t, b, n, nil)
	}
	s.EndGradient(g, t)
	fmt.Printf("∂J/∂log σ = %.3f\n", g)
	// Output:
	// rows 0…1: K = [0.995 0.607 0.604 0.980]
	// rows 2…2: K = [0.133 0.604]
	// ∂J/∂log σ = [2.344 0.067]
}
