package power

import (
	"math"
	"testing"
)

// TestLargest: on diagonal operators with a known spectrum the estimate is
// a lower bound within the tolerance's reach of λ_max, and 0 for A = 0.
func TestLargest(t *testing.T) {
	for _, tc := range []struct {
		name string
		d    []float64
		want float64
	}{
		{"clear gap", []float64{1, 2, 10}, 10},
		{"one", []float64{3}, 3},
		{"zero", []float64{0, 0, 0}, 0},
		{"many", func() []float64 {
			d := make([]float64, 50)
			for i := range d {
				d[i] = 1 / float64(i+1)
			}
			return d
		}(), 1},
	} {
		mul := func(dst, v []float64) {
			for i := range v {
				dst[i] = tc.d[i] * v[i]
			}
		}
		got := Largest(len(tc.d), mul, 1e-12, 1000)
		if got > tc.want*(1+1e-12) || math.Abs(got-tc.want) > 1e-6*tc.want {
			t.Errorf("%s: Largest = %v, want %v (from below)", tc.name, got, tc.want)
		}
		if again := Largest(len(tc.d), mul, 1e-12, 1000); again != got {
			t.Errorf("%s: not deterministic: %v then %v", tc.name, got, again)
		}
	}
}
