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

// The centres of rows held elsewhere: CenterOrder gives the order in
// which NystromCenters takes rows, FirstDistinct the first distinct rows
// in it, so that a caller who gathers the rows at the first places of the
// order (a pipeline over files) holds the centres NystromCenters draws.
func ExampleCenterOrder() {
	x := linalg.NewDense(8, 1, []float64{0, 1, 1, 1, 4, 5, 5, 7})
	order := regress.CenterOrder(x.Rows, 7)
	inOrder := linalg.NewDense(x.Rows, 1, nil) // the rows gathered, in the order
	for i, r := range order {
		copy(inOrder.Row(i), x.Row(r))
	}
	var at []float64
	for _, i := range regress.FirstDistinct(inOrder, 3) {
		at = append(at, float64(order[i]))
	}
	c, err := regress.NystromCenters(x, 3, 7)
	if err != nil {
		panic(err)
	}
	fmt.Println("order:", order)
	fmt.Println("the first 3 distinct, at the rows:", at)
	fmt.Println("NystromCenters, in row order:", c.Data)
	// Output:
	// order: [6 1 5 4 3 7 0 2]
	// the first 3 distinct, at the rows: [6 1 4]
	// NystromCenters, in row order: [1 4 5]
}
