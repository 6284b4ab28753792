package loo_test

import (
	"fmt"

	"rkhs/linalg"
	"rkhs/loo"
)

// Before a selection: its work and memory on a million rows, the default
// grids (5 σ × 51 λ) and the leave-one-out subset of loo.DefaultSubset.
func ExampleSelectNystromCost() {
	n := 1_000_000
	c := loo.SelectNystromCost(n, 10, 1, 1000, 5, len(loo.DefaultLambdas()), loo.DefaultSubset(n))
	fmt.Printf("%.3g flops, %s\n", c.Flops, linalg.FormatBytes(c.Bytes))
	// Output: 5.23e+12 flops, 119 MiB
}
