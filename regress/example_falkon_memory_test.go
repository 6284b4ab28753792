package regress_test

import (
	"fmt"

	"rkhs/linalg"
	"rkhs/regress"
)

// The memory of Falkon on a million rows of 10 features with many
// centres, where the two m×m matrices (16m² bytes) dominate.
func ExampleFalkonMemory() {
	for _, m := range []int{100_000, 200_000} {
		fmt.Printf("m = %d: %s\n", m, linalg.FormatBytes(regress.FalkonMemory(1_000_000, m, 10, 1)))
	}
	// Output:
	// m = 100000: 149 GiB
	// m = 200000: 596 GiB
}
