//go:build goexperiment.simd && amd64

package kernels

import (
	"math"
	"testing"
)

// TestGaussianRow8 measures the exp of gaussianRow8 against the 200-bit
// oracle, through rows whose argument is exact (ni = 0, row = 0, c = 1,
// so that the argument is −nz[j]): at most 0.53 ulp where the result is
// normal and 1 ulp where it is subnormal (or 0); exactly 1 at 0 and 0 at
// +Inf.
func TestGaussianRow8(t *testing.T) {
	if !hasAVX512 {
		t.Skip("no AVX-512")
	}
	n := 1 << 15
	if testing.Short() {
		n = 1 << 11
	}
	xs := expCases(n)
	for i, x := range xs {
		if math.IsNaN(x) {
			xs[i] = -1
		}
	}
	xs = append(xs[:len(xs)/8*8], 0, math.Copysign(0, -1), -0x1p-1074, -1e-17, math.Inf(-1), -746, -1e300, -745.1)
	nz := make([]float64, len(xs))
	for i, x := range xs {
		nz[i] = -x
	}
	got := make([]float64, len(xs))
	gaussianRow8(got, nz, 0, 1)
	worst, worstSub := checkExpRef(t, "gaussianRow8: e^", xs, got, 0.53)
	t.Logf("worst over %d arguments: %.4f ulps (normal), %.4f ulps (subnormal)", len(xs), worst, worstSub)
	edge := got[len(got)-8:]
	for i, want := range []float64{1, 1, 1, 1, 0, 0, 0} {
		if edge[i] != want || math.Signbit(edge[i]) {
			t.Errorf("e^%v = %v, want %v", xs[len(xs)-8+i], edge[i], want)
		}
	}
}
