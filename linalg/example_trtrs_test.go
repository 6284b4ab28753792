package linalg_test

import (
	"fmt"

	"rkhs/linalg"
)

func ExampleTrtrs() {
	// Solve L·X = B for the lower triangular L and two right-hand sides.
	l := linalg.NewDense(2, 2, []float64{
		2, 0,
		1, 4,
	})
	b := linalg.NewDense(2, 2, []float64{
		2, 4,
		9, 2,
	})
	linalg.Trtrs(linalg.Lower, linalg.NoTrans, l, b)
	fmt.Println(b.Row(0), b.Row(1))
	// Output:
	// [1 2] [2 0]
}
