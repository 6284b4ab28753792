package kernels_test

import (
	"fmt"

	"rkhs/kernels"
	"rkhs/linalg"
)

func ExampleSpecOf() {
	s, _ := kernels.SpecOf(kernels.Polynomial{Degree: 3, Offset: 1})
	fmt.Printf("%+v\n", s)
	_, err := kernels.SpecOf(kernels.Kernel(nil))
	fmt.Println(err)
	// Output:
	// {Type:polynomial Sigma:0 Degree:3 Offset:1}
	// kernels: invalid kernel parameter: SpecOf: k: kernel of type <nil> has no Spec (only this package's kernels do)
}

func ExampleRows_MulVecTo() {
	x := linalg.NewDense(3, 1, []float64{0, 1, 2})
	r, _ := kernels.NewRows(kernels.Linear{}, x, x)
	fmt.Println(r.MulVecTo(nil, []float64{1, 1, 1})) // K·v without storing K
	// Output:
	// [0 3 6]
}

func ExampleRows_MulTransTo() {
	x := linalg.NewDense(2, 1, []float64{1, 2})
	z := linalg.NewDense(3, 1, []float64{0, 1, 3})
	r, _ := kernels.NewRows(kernels.Linear{}, x, z) // K is 2×3
	y := linalg.NewDense(2, 1, []float64{1, -1})
	fmt.Println(r.MulTransTo(nil, y).Data) // Kᵀ·y without storing K
	// Output:
	// [0 -1 -3]
}

func ExampleRows_BlockTo() {
	x := linalg.NewDense(4, 1, []float64{0, 1, 2, 3})
	r, _ := kernels.NewRows(kernels.Laplacian{Sigma: 1}, x, x)
	b := r.BlockTo(nil, 1, 3) // rows 1 and 2 of K only
	fmt.Printf("%.4f\n", b.Data)
	// Output:
	// [0.3679 1.0000 0.3679 0.1353 0.1353 0.3679 1.0000 0.3679]
}

func ExampleNewWidths() {
	x := linalg.NewDense(3, 1, []float64{0, 1, 2})
	z := linalg.NewDense(2, 1, []float64{0, 2})
	ks := []kernels.Kernel{kernels.Gaussian{Sigma: 0.5}, kernels.Gaussian{Sigma: 2}}
	w, _ := kernels.NewWidths(ks, x, z)
	shared := w.SharedTo(nil, 1, 3) // rows 1 and 2: their distances, once
	for s := range w.Len() {
		fmt.Printf("σ = %g: %.4f\n", ks[s].(kernels.Gaussian).Sigma, w.KernelTo(nil, shared, s, 1).Data)
	}
	// Output:
	// σ = 0.5: [0.1353 0.1353 0.0003 1.0000]
	// σ = 2: [0.8825 0.8825 0.6065 1.0000]
}

// Which kernel lists share their distances: one family of radial kernels.
func ExampleSharesWidths() {
	g, l := kernels.Gaussian{Sigma: 1}, kernels.Laplacian{Sigma: 1}
	fmt.Println(kernels.SharesWidths([]kernels.Kernel{g, kernels.Gaussian{Sigma: 4}}))
	fmt.Println(kernels.SharesWidths([]kernels.Kernel{l, l}))
	fmt.Println(kernels.SharesWidths([]kernels.Kernel{g, l}))
	fmt.Println(kernels.SharesWidths([]kernels.Kernel{kernels.Linear{}}))
	fmt.Println(kernels.SharesWidths(nil))
	// Output:
	// true
	// true
	// false
	// false
	// false
}
