package loo_test

import (
	"fmt"

	"rkhs/loo"
)

// The median heuristic on the housing features, and a grid of widths
// around it with ratios 2 apart, as rkhs fit -sigma auto uses.
func ExampleMedianSigma() {
	x, _ := housing(300)
	med, err := loo.MedianSigma(x, 0, 1) // all 300 rows: fewer than the default sample
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("median distance %.3f\n", med)
	fmt.Printf("grid %.3f\n", []float64{med / 4, med / 2, med, 2 * med, 4 * med})
	// Output:
	// median distance 1.882
	// grid [0.471 0.941 1.882 3.765 7.529]
}
