package linalg

import (
	"fmt"
	"math"
	"testing"

	"rkhs/internal/testmat"
)

// TestAddRows checks addRows (AVX-512 in a GOEXPERIMENT=simd build) and
// addRowsScalar against the axpy(1, row, y) calls they replace, bit for
// bit, with rows that end before, inside and after every block of y, and a
// negative zero in y (which y + 0 would turn positive).
func TestAddRows(t *testing.T) {
	rnd := testmat.NewRand(10)
	for _, n := range []int{0, 1, 5, 15, 16, 17, 33, 40, 71, 256} {
		for _, k := range []int{0, 1, 3, 33, 40} {
			t.Run(fmt.Sprintf("n=%d/rows=%d", n, k), func(t *testing.T) {
				rows := make([][]float64, k)
				for r := range rows {
					l := rnd.IntN(n + 9)
					if r%3 == 0 {
						l = n
					}
					rows[r] = testmat.Random(rnd, 1, l+1, 0).Data[:l]
				}
				y0 := testmat.Random(rnd, 1, n, 0).Data[:n]
				if n > 2 {
					y0[2] = math.Copysign(0, -1)
				}
				want := append([]float64(nil), y0...)
				for _, r := range rows {
					l := min(len(r), n)
					axpy(1, r[:l], want[:l])
				}
				for name, f := range map[string]func([]float64, [][]float64){"addRows": addRows, "addRowsScalar": addRowsScalar} {
					got := append([]float64(nil), y0...)
					f(got, rows)
					for i := range want {
						if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
							t.Fatalf("%s: y[%d] = %v, the axpy calls give %v", name, i, got[i], want[i])
						}
					}
				}
			})
		}
	}
}
