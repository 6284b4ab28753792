package loo_test

import (
	"fmt"

	"rkhs/loo"
)

// The centres a descent of the length scales runs on by default: every
// centre of a small fit, 2/5 of a large one and at least 400; the final
// fit uses them all.
func ExampleDefaultDescentCenters() {
	for _, m := range []int{100, 1000, 4000} {
		fmt.Printf("m = %d: descent on %d centres\n", m, loo.DefaultDescentCenters(m))
	}
	// Output:
	// m = 100: descent on 100 centres
	// m = 1000: descent on 400 centres
	// m = 4000: descent on 1600 centres
}

// DescentCenters: the Centers of a SelectScales, at most m, or the default
// when it is 0.
func ExampleSelectScales_DescentCenters() {
	for _, c := range []int{0, 250, 5000} {
		fmt.Printf("Centers %d of 1000: descent on %d\n", c, loo.SelectScales{Centers: c}.DescentCenters(1000))
	}
	// Output:
	// Centers 0 of 1000: descent on 400
	// Centers 250 of 1000: descent on 250
	// Centers 5000 of 1000: descent on 1000
}
