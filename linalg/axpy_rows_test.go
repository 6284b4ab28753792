package linalg

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"rkhs/internal/testmat"
)

// TestAxpyRowsKernel checks the axpyRows of the build (AVX-512 in a
// GOEXPERIMENT=simd build) against axpyRowsScalar, to rounding: each
// element within 4ε of the sum of the magnitudes of its terms.
func TestAxpyRowsKernel(t *testing.T) {
	rnd := testmat.NewRand(8)
	for _, pair := range []bool{false, true} {
		for _, n := range []int{15, 16, 17, 31, 32, 33, 40, 71, 100, 257} {
			for _, k := range []int{1, 3, 16} {
				t.Run(fmt.Sprintf("pair=%v/n=%d/k=%d", pair, n, k), func(t *testing.T) {
					off, w := 5, n+9
					x, z, terms := panelFixture(rnd, pair, k, w)
					c := testmat.Random(rnd, 1, terms, 0).Data
					y0 := testmat.Random(rnd, 1, n, 0).Data
					want := append([]float64(nil), y0...)
					axpyRowsScalar(want, x, z, off, c)
					got := append([]float64(nil), y0...)
					axpyRows(got, x, z, off, c)
					for i := range want {
						bound := math.Abs(y0[i])
						for q := range terms {
							r := x
							row := q
							if pair {
								row = q / 2
								if q%2 == 1 {
									r = z
								}
							}
							bound += math.Abs(c[q] * r.Data[row*w+off+i])
						}
						if d := math.Abs(got[i] - want[i]); d > 4*float64(terms+1)*0x1p-52*bound {
							t.Fatalf("y[%d] = %v, the scalar kernel gives %v", i, got[i], want[i])
						}
					}
				})
			}
		}
	}
}

// TestDotRows checks dotRowsScalar against dot, bit for bit, and the
// dotRows of the build (AVX-512 in a GOEXPERIMENT=simd build) against
// it to rounding: within 2·len(v)·ε of Σ|R_t[i]·v[i]|.
func TestDotRows(t *testing.T) {
	rnd := testmat.NewRand(9)
	for _, pair := range []bool{false, true} {
		for _, n := range []int{0, 1, 15, 16, 17, 40, 257} {
			for _, k := range []int{1, 2, 3, 7} {
				t.Run(fmt.Sprintf("pair=%v/n=%d/k=%d", pair, n, k), func(t *testing.T) {
					off, w := 2, n+6
					x, z, terms := panelFixture(rnd, pair, k, w)
					v := testmat.Random(rnd, 1, n, 0).Data
					want, got := make([]float64, terms), make([]float64, terms)
					dotRowsScalar(want, x, z, off, v)
					dotRows(got, x, z, off, v)
					for q := range terms {
						r := panelRow(x, z, off, q, n)
						if d := dot(r, v); math.Float64bits(d) != math.Float64bits(want[q]) {
							t.Fatalf("scalar out[%d] = %v, dot gives %v", q, want[q], d)
						}
						var bound float64
						for i := range v {
							bound += math.Abs(r[i] * v[i])
						}
						if d := math.Abs(got[q] - want[q]); d > 2*float64(n+1)*0x1p-52*bound {
							t.Fatalf("out[%d] = %v, the scalar kernel gives %v", q, got[q], want[q])
						}
					}
				})
			}
		}
	}
}

// panelFixture returns random panels of k rows of width w for the tests of
// axpyRows and dotRows: x, and z too when pair, with the number of rows
// R_t they make.
func panelFixture(rnd *rand.Rand, pair bool, k, w int) (x, z Dense, terms int) {
	x = Dense(testmat.Random(rnd, k, w, 0))
	if !pair {
		return x, Dense{}, k
	}
	return x, Dense(testmat.Random(rnd, k, w, 0)), 2 * k
}
