package linalg_test

import (
	"fmt"

	"rkhs/linalg"
)

func ExampleLauum() {
	// L lower triangular (its strict upper triangle zero); C = LᵀL in
	// C's lower triangle.
	l := linalg.NewDense(2, 2, []float64{
		1, 0,
		2, 3,
	})
	c := linalg.NewDense(2, 2, nil)
	linalg.Lauum(linalg.Lower, 1, l, c)
	fmt.Println(c.Row(0), c.Row(1))
	// Output:
	// [5 0] [6 9]
}
