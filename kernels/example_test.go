package kernels_test

import (
	"errors"
	"fmt"
	"math"

	"rkhs/kernels"
	"rkhs/linalg"
)

func ExampleGram() {
	// Three points on a line, one per row.
	x := linalg.NewDense(3, 1, []float64{0, 1, 3})
	k, err := kernels.Gram(kernels.Gaussian{Sigma: 1}, x)
	if err != nil {
		fmt.Println(err)
		return
	}
	for i := 0; i < 3; i++ {
		fmt.Printf("%.4f\n", k.Row(i))
	}
	// Output:
	// [1.0000 0.6065 0.0111]
	// [0.6065 1.0000 0.1353]
	// [0.0111 0.1353 1.0000]
}

func ExampleGramTo() {
	x := linalg.NewDense(2, 2, []float64{1, 2, 3, 4})
	k := linalg.NewDense(2, 2, nil)
	// Lower triangle only: what linalg.Cholesky reads.
	if _, err := kernels.GramTo(k, kernels.Linear{}, x, linalg.Lower); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(k.Data)
	// An empty destination is allocated and returned.
	full, _ := kernels.GramTo(nil, kernels.Linear{}, x, linalg.All)
	fmt.Println(full.Data)
	// Output:
	// [5 0 11 25]
	// [5 11 11 25]
}

func ExampleCross() {
	train := linalg.NewDense(2, 2, []float64{0, 0, 1, 1})
	test := linalg.NewDense(1, 2, []float64{1, 0})
	k, err := kernels.Cross(kernels.Polynomial{Degree: 2, Offset: 1}, test, train)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(k.Data) // (xᵀz + 1)²
	// Output:
	// [1 4]
}

func ExampleNewRows() {
	x := linalg.NewDense(4, 1, []float64{0, 1, 2, 3})
	r, err := kernels.NewRows(kernels.Laplacian{Sigma: 1}, x, x)
	if err != nil {
		fmt.Println(err)
		return
	}
	// Rows 1 and 2 of K, then K·1 (row sums) and Kᵀe₀ (column 0) without
	// forming K.
	fmt.Printf("%.4f\n", r.BlockTo(nil, 1, 3).Data)
	fmt.Printf("%.4f\n", r.MulVecTo(nil, []float64{1, 1, 1, 1}))
	fmt.Printf("%.4f\n", r.MulTransTo(nil, linalg.NewDense(4, 1, []float64{1, 0, 0, 0})).Data)
	// Output:
	// [0.3679 1.0000 0.3679 0.1353 0.1353 0.3679 1.0000 0.3679]
	// [1.5530 1.8711 1.8711 1.5530]
	// [1.0000 0.3679 0.1353 0.0498]
}

// angle is a user-defined kernel: anything with an Eval method works.
type angle struct{}

func (angle) Eval(x, z []float64) float64 {
	var xz, xx, zz float64
	for i := range x {
		xz += x[i] * z[i]
		xx += x[i] * x[i]
		zz += z[i] * z[i]
	}
	return xz / math.Sqrt(xx*zz)
}

func ExampleKernel() {
	x := linalg.NewDense(2, 2, []float64{1, 0, 1, 1})
	k, err := kernels.Gram(angle{}, x)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%.4f\n", k.Data)
	// Output:
	// [1.0000 0.7071 0.7071 1.0000]
}

func ExampleGaussian_Validate() {
	fmt.Println(kernels.Gaussian{Sigma: 0}.Validate())
	// Output:
	// kernels: invalid kernel parameter: Gaussian.Validate: Sigma: 0, must be positive and finite
}

func ExampleLinear() {
	fmt.Println(kernels.Linear{}.Eval([]float64{1, 2}, []float64{3, 4}))
	// Output:
	// 11
}

func ExamplePolynomial() {
	fmt.Println(kernels.Polynomial{Degree: 3, Offset: 1}.Eval([]float64{1}, []float64{1}))
	// Output:
	// 8
}

func ExampleGaussian() {
	fmt.Printf("%.4f\n", kernels.Gaussian{Sigma: 2}.Eval([]float64{0, 0}, []float64{2, 0}))
	// Output:
	// 0.6065
}

func ExampleLaplacian() {
	fmt.Printf("%.4f\n", kernels.Laplacian{Sigma: 2}.Eval([]float64{0, 0}, []float64{1, 1}))
	// Output:
	// 0.3679
}

func ExampleSpec() {
	k, err := kernels.Spec{Type: "gaussian", Sigma: 0.5}.Kernel()
	if err != nil {
		fmt.Println(err)
		return
	}
	s, _ := kernels.SpecOf(k)
	fmt.Printf("%#v %+v\n", k, s)
	// Output:
	// kernels.Gaussian{Sigma:0.5} {Type:gaussian Sigma:0.5 Degree:0 Offset:0}
}

func ExampleCrossTo() {
	train := linalg.NewDense(2, 1, []float64{0, 2})
	test := linalg.NewDense(2, 1, []float64{1, 3})
	k := linalg.NewDense(2, 2, nil) // caller storage, reused across calls
	if _, err := kernels.CrossTo(k, kernels.Laplacian{Sigma: 1}, test, train); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%.4f\n", k.Data)
	// Output:
	// [0.3679 0.3679 0.0498 0.3679]
}

func ExampleRows_MulTo() {
	x := linalg.NewDense(3, 1, []float64{0, 1, 2})
	r, _ := kernels.NewRows(kernels.Linear{}, x, x)
	// K·V for two vectors at once, without storing K.
	v := linalg.NewDense(3, 2, []float64{1, 0, 1, 0, 1, 1})
	fmt.Println(r.MulTo(nil, v).Data)
	// Output:
	// [0 0 3 2 6 4]
}

func ExampleCheckDegenerate() {
	// Three points 1 and 2 apart: σ = 0.01 sees each alone, σ = 10⁴ sees
	// them as one.
	x := linalg.NewDense(3, 1, []float64{0, 1, 3})
	for _, s := range []float64{0.01, 1, 1e4} {
		err := kernels.CheckDegenerate(kernels.Gaussian{Sigma: s}, x)
		var de *kernels.DegenerateError
		if errors.As(err, &de) {
			fmt.Printf("σ = %g: %v\n", s, de.Kind)
		} else {
			fmt.Printf("σ = %g: %v\n", s, err)
		}
	}
	// Output:
	// σ = 0.01: near identity
	// σ = 1: <nil>
	// σ = 10000: near all ones
}
