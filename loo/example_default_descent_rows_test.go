package loo_test

import (
	"fmt"

	"rkhs/loo"
)

// The rows a descent of the length scales fits on by default: every row
// of a small table (0), 50,000 of a large one, the leave-one-out subset
// among them.
func ExampleDefaultDescentRows() {
	for _, n := range []int{16_512, 256_525} {
		fmt.Printf("n = %d: descent on %d rows (0: every row), leave-one-out on %d (0: every row)\n",
			n, loo.DefaultDescentRows(n), loo.DefaultSubset(n))
	}
	// Output:
	// n = 16512: descent on 0 rows (0: every row), leave-one-out on 0 (0: every row)
	// n = 256525: descent on 50000 rows (0: every row), leave-one-out on 20000 (0: every row)
}
