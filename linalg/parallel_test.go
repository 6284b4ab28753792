package linalg

import (
	"math"
	"testing"

	"rkhs/internal/testmat"
)

// TestSumPartials: the column-split sum of partial vectors of different
// lengths equals, bit for bit, the sum taken one partial after another in
// increasing order, at GOMAXPROCS 1, 2 and 8, for a size large enough to be
// split (and one that is not); y's previous content is overwritten.
func TestSumPartials(t *testing.T) {
	rnd := testmat.NewRand(13)
	for _, c := range []struct{ m, units int }{{100, 3}, {5000, 40}} {
		parts := make([][]float64, c.units)
		for r := range parts {
			parts[r] = make([]float64, c.m*(r+1)/c.units-r%3) // ragged, the last shorter than m
			for k := range parts[r] {
				parts[r][k] = 2*rnd.Float64() - 1
			}
		}
		want := make([]float64, c.m)
		for _, p := range parts {
			for k, v := range p {
				want[k] += v
			}
		}
		for _, procs := range []int{1, 2, 8} {
			y := make([]float64, c.m)
			for k := range y {
				y[k] = math.NaN()
			}
			split := false
			withProcs(t, procs, func() {
				split = teamSize(c.m, 2*float64(c.units)*float64(c.m)) > 1
				sumPartials(y, c.units, func(r int) []float64 { return parts[r] })
			})
			if c.m == 5000 && split != (procs > 1) {
				t.Fatalf("m=%d GOMAXPROCS=%d: split %v", c.m, procs, split)
			}
			for k := range y {
				if math.Float64bits(y[k]) != math.Float64bits(want[k]) {
					t.Fatalf("m=%d GOMAXPROCS=%d: y[%d] = %v, the sum in order gives %v", c.m, procs, k, y[k], want[k])
				}
			}
		}
	}
}
