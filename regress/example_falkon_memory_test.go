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

// Before a long run: Falkon's work and memory on a million rows, and the
// most centres that fit in 16 GiB.
func ExampleFalkonCost() {
	c := regress.FalkonCost(1_000_000, 10, 10_000, 1, 0)
	fmt.Printf("%.3g flops, %s; at most %d centres in 16 GiB\n", c.Flops, linalg.FormatBytes(c.Bytes), regress.FalkonMaxCenters(1_000_000, 10, 1, 16<<30))
	// Output: 8.14e+12 flops, 1.62 GiB; at most 32620 centres in 16 GiB
}

// An exact fit's cost grows as n³: ten times the rows, a thousand times
// the work.
func ExampleExactCost() {
	for _, n := range []int{1000, 10_000} {
		c := regress.ExactCost(n, 10, true)
		fmt.Printf("n = %d: %.3g flops, %s\n", n, c.Flops, linalg.FormatBytes(c.Bytes))
	}
	// Output:
	// n = 1000: 6.01e+09 flops, 45.8 MiB
	// n = 10000: 6e+12 flops, 4.47 GiB
}
