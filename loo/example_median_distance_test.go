package loo_test

import (
	"fmt"

	"rkhs/kernels"
	"rkhs/loo"
)

// The median heuristic for a Gaussian kernel on the housing features,
// and the default grid of widths around it, as rkhs fit -sigma auto uses.
func ExampleMedianDistanceOf() {
	x, _ := housing(300)
	med, err := loo.MedianDistanceOf(kernels.Gaussian{}, x, 1) // all 300 rows: fewer than the default sample
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("median distance %.3f\n", med)
	fmt.Printf("grid %.3f\n", loo.DefaultSigmas(med))
	// Output:
	// median distance 1.882
	// grid [0.471 0.941 1.882 3.765 7.529]
}

// The Laplacian kernel exp(−‖x − z‖₁/σ) applies σ to the 1-norm distance,
// about √d times the Euclidean one on d features: its median heuristic is
// the median of that distance. NormOf picks the norm from the kernel.
func ExampleMedianDistance() {
	x, _ := housing(300)
	for _, k := range []kernels.Kernel{kernels.Gaussian{}, kernels.Laplacian{}} {
		norm, err := loo.NormOf(k)
		if err != nil {
			fmt.Println(err)
			return
		}
		med, err := loo.MedianDistance(x, norm, 0, 1)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%T: %v median %.3f\n", k, norm, med)
	}
	// Output:
	// kernels.Gaussian: L2 median 1.882
	// kernels.Laplacian: L1 median 4.380
}
