package regress_test

import (
	"fmt"

	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

// The centres drawn once and shared: NystromCenters gives the rows that
// Nystrom draws with the same seed, so that fits at several σ (or a
// selection, loo.SelectNystrom) use the centres one fit would.
func ExampleNystromCenters() {
	x := linalg.NewDense(8, 1, []float64{0, 1, 2, 3, 4, 5, 6, 7})
	y := linalg.NewDense(8, 1, []float64{0, 1, 4, 9, 16, 25, 36, 49})
	c, err := regress.NystromCenters(x, 3, 7)
	if err != nil {
		panic(err)
	}
	fit, err := regress.Nystrom{Kernel: kernels.Gaussian{Sigma: 2}, Lambda: 1e-3, Centers: 3, Seed: 7}.Fit(x, y)
	if err != nil {
		panic(err)
	}
	fmt.Println("drawn:", c.Data)
	fmt.Println("Nystrom's:", fit.Centers.Data)
	_, err = regress.NystromCenters(x, 9, 7)
	fmt.Println(err)
	// Output:
	// drawn: [1 5 6]
	// Nystrom's: [1 5 6]
	// regress: invalid input: NystromCenters: Centers: 9, must be between 1 and the 8 rows of X
}
