package regress_test

import (
	"fmt"

	"rkhs/regress"
)

// A Cost's Flops become seconds at a measured rate: an exact fit of 4,000
// rows of 10 features (n²d + n³/3 flops) at 10¹⁰ flops a second. GemmRate
// measures the rate of this machine (it varies with the machine and its
// load, so the example prints only that it is positive).
func ExampleCost_Duration() {
	c := regress.ExactCost(4000, 10, false)
	fmt.Printf("%.4g flops: %v at 1e10 flops/s\n", c.Flops, c.Duration(1e10))
	fmt.Println(regress.GemmRate() > 0)
	// Output:
	// 2.149e+10 flops: 2.149333333s at 1e10 flops/s
	// true
}
