package linalg_test

import (
	"fmt"

	"rkhs/linalg"
)

func ExampleEigenSym() {
	// The second-difference matrix of order 3: eigenvalues 2 − √2, 2, 2 + √2.
	a := linalg.NewDense(3, 3, []float64{
		2, -1, 0,
		-1, 2, -1,
		0, -1, 2,
	})
	var es linalg.EigenSym
	if err := es.Factorize(a, true); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("values %.4f\n", es.Values(nil)) // ascending
	v := es.VectorsTo(nil)                      // column j belongs to value j
	// An eigenvector's sign is arbitrary: print it with v[0] > 0.
	s := 1.0
	if v.At(0, 0) < 0 {
		s = -1
	}
	fmt.Printf("first vector %.4f\n", []float64{s * v.At(0, 0), s * v.At(1, 0), s * v.At(2, 0)})
	// Output:
	// values [0.5858 2.0000 3.4142]
	// first vector [0.5000 0.7071 0.5000]
}

func ExampleEigenSym_Values() {
	// Values only: the tridiagonal QL/QR iteration, no vector work at all.
	a := linalg.NewDense(2, 2, []float64{
		4, 1,
		1, 4,
	})
	var es linalg.EigenSym
	if err := es.Factorize(a, false); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(es.Values(nil), es.Size())
	// Output:
	// [3 5] 2
}
