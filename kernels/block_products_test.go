package kernels

import (
	"math"
	"testing"

	"rkhs/internal/testmat"
)

// TestRowDotAxpy4 compares rowDot and axpy4 of this build (AVX-512 in a
// GOEXPERIMENT=simd build on such a CPU) with their scalar twins for every
// length up to 40 (vector bodies and tails): within the rounding of the
// sums, inputs unchanged.
func TestRowDotAxpy4(t *testing.T) {
	rng := testmat.NewRand(11)
	vec := func(n int) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = 2*rng.Float64() - 1
		}
		return v
	}
	for n := 0; n <= 40; n++ {
		a, b := vec(n), vec(n)
		var scale float64
		for j := range a {
			scale += math.Abs(a[j] * b[j])
		}
		if got, want := rowDot(a, b), rowDotScalar(a, b); !(math.Abs(got-want) <= float64(n)*0x1p-52*scale) {
			t.Errorf("n=%d: rowDot = %v, scalar %v", n, got, want)
		}
		k := [4][]float64{vec(n), vec(n), vec(n), vec(n)}
		k0 := [4][]float64{append([]float64(nil), k[0]...), append([]float64(nil), k[1]...), append([]float64(nil), k[2]...), append([]float64(nil), k[3]...)}
		y := vec(n)
		want := append([]float64(nil), y...)
		axpy4(0.5, -1.25, 2, 0.75, k[0], k[1], k[2], k[3], y)
		axpy4Scalar(0.5, -1.25, 2, 0.75, k[0], k[1], k[2], k[3], want)
		for j := range y {
			s := math.Abs(want[j]) + 0.5*math.Abs(k[0][j]) + 1.25*math.Abs(k[1][j]) + 2*math.Abs(k[2][j]) + 0.75*math.Abs(k[3][j])
			if !(math.Abs(y[j]-want[j]) <= 4*0x1p-52*s) {
				t.Errorf("n=%d: axpy4 y[%d] = %v, scalar %v", n, j, y[j], want[j])
			}
		}
		for i := range k {
			for j := range k[i] {
				if k[i][j] != k0[i][j] {
					t.Fatalf("n=%d: axpy4 modified k%d", n, i)
				}
			}
		}
	}
}
