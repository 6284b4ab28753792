package linalg_test

import (
	"fmt"

	"rkhs/linalg"
)

func ExampleDot() {
	fmt.Println(linalg.Dot([]float64{1, 2, 3}, []float64{4, 5, 6}))
	// Output:
	// 32
}

func ExampleNrm2() {
	// The squares of these overflow float64; the norm does not.
	fmt.Printf("%.6g\n", linalg.Nrm2([]float64{3e200, 4e200}))
	// Output:
	// 5e+200
}
