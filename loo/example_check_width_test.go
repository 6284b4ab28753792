package loo_test

import (
	"fmt"

	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/loo"
)

// A Gaussian width given far below the distances between rows: its kernel
// matrix is numerically the identity, and the median distance says which
// width the default grid would start from.
func ExampleCheckWidth() {
	x := linalg.NewDense(6, 1, []float64{0, 1, 2, 3, 4, 5})
	c, err := loo.CheckWidth(kernels.Gaussian{Sigma: 1e-3}, x, 0, 1)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%v on %d of %d rows; median distance %.4g\n", c.Degenerate.Kind, c.Checked, c.Of, c.Median)
	c, err = loo.CheckWidth(kernels.Gaussian{Sigma: c.Median}, x, 0, 1)
	fmt.Println(c == nil, err)
	// Output:
	// near identity on 6 of 6 rows; median distance 2
	// true <nil>
}
