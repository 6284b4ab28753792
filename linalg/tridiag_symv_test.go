package linalg

import (
	"math"
	"testing"

	"rkhs/internal/testmat"
)

// TestSymvBounds: the row ranges of symvLower cover [0, m) in order, their
// starts are even (rows go in pairs), and each holds m²/(2u) elements of
// the triangle to within the rounding of its bounds (2m).
func TestSymvBounds(t *testing.T) {
	bounds := make([]int, symvUnits+1)
	for _, m := range []int{1, 2, 15, 16, 17, 100, 1000, 1001, 4000, 9999} {
		u := symvBounds(m, bounds)
		if u < 1 || u > symvUnits || bounds[0] != 0 || bounds[u] != m {
			t.Fatalf("m=%d: %d ranges, bounds %v", m, u, bounds[:u+1])
		}
		want := float64(m) * float64(m) / float64(2*u)
		for r := range u {
			lo, hi := bounds[r], bounds[r+1]
			if hi < lo || (r > 0 && lo%2 != 0) {
				t.Fatalf("m=%d: range %d is [%d, %d)", m, r, lo, hi)
			}
			if area := (float64(hi)*float64(hi) - float64(lo)*float64(lo)) / 2; math.Abs(area-want) > 2*float64(m)+2 {
				t.Errorf("m=%d: range %d [%d, %d) holds %g elements, %g wanted", m, r, lo, hi, area, want)
			}
		}
	}
}

// TestSymvLower: y = A[j:, j:]·v from the lower triangle agrees with the
// product of the full symmetric matrix to 30·m·ε·(|A|·|v|) elementwise
// (the upper triangle, NaN, is not read), and is bit-identical at
// GOMAXPROCS 1, 2 and 8, for orders below, at and above the sizes where
// the ranges and the final sum are split.
func TestSymvLower(t *testing.T) {
	rnd := testmat.NewRand(5)
	for _, n := range []int{1, 2, 17, 100, 1001, 2300} {
		for _, j := range []int{0, 3} {
			if j >= n {
				continue
			}
			a := testmat.Random(rnd, n, n, 1)
			for i := range n {
				for k := i + 1; k < n; k++ {
					a.Set(i, k, math.NaN())
				}
			}
			m := n - j
			v := make([]float64, m)
			for i := range v {
				v[i] = 2*rnd.Float64() - 1
			}
			var first []float64
			for _, procs := range []int{1, 2, 8} {
				sv := newSymvLower(n)
				y := make([]float64, m)
				for i := range y {
					y[i] = math.NaN() // overwritten, not added to
				}
				withProcs(t, procs, func() { sv.mul(Dense(a), j, v, y) })
				if first == nil {
					first = y
					continue
				}
				for i := range y {
					if math.Float64bits(y[i]) != math.Float64bits(first[i]) {
						t.Fatalf("n=%d j=%d: GOMAXPROCS=%d differs from 1 at %d", n, j, procs, i)
					}
				}
			}
			for i := range m {
				var s, bound float64
				for k := range m {
					aik := a.At(j+max(i, k), j+min(i, k))
					s += aik * v[k]
					bound += math.Abs(aik * v[k])
				}
				if e := math.Abs(first[i] - s); !(e <= 30*float64(m)*0x1p-52*bound) {
					t.Fatalf("n=%d j=%d: y[%d] = %v, the full product gives %v (bound %g)", n, j, i, first[i], s, bound)
				}
			}
		}
	}
}
