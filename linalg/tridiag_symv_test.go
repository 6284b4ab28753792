package linalg

import (
	"math"
	"math/rand/v2"
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
				withProcs(t, procs, func() { sv.mul(Dense(a), j, v, y, symvJoin{}) })
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

// TestSymvQuadScalarBits: symvQuadScalar gives the sums and the updated p
// of symvPairScalar on rows 0 and 1 followed by symvPairScalar on rows 2
// and 3, to the bit, for every length up to 40 — the default build's
// tridiagonal reduction took its rows in pairs and keeps their results.
func TestSymvQuadScalarBits(t *testing.T) {
	rng := testmat.NewRand(7)
	vi := [4]float64{0.75, -1.25, 2.5, -0.125}
	for n := 0; n <= 40; n++ {
		r, v, _, pw, pg := quadFixture(rng, n)
		w0, w1 := symvPairScalar(r[0], r[1], v, pw, vi[0], vi[1])
		w2, w3 := symvPairScalar(r[2], r[3], v, pw, vi[2], vi[3])
		want := [4]float64{w0, w1, w2, w3}
		got := symvQuadScalar(r[0], r[1], r[2], r[3], v, pg, pg, &vi)
		for q := range want {
			if math.Float64bits(got[q]) != math.Float64bits(want[q]) {
				t.Errorf("n=%d: sum %d = %v, two pairs give %v", n, q, got[q], want[q])
			}
		}
		for k := range pg {
			if math.Float64bits(pg[k]) != math.Float64bits(pw[k]) {
				t.Errorf("n=%d: p[%d] = %v, two pairs give %v", n, k, pg[k], pw[k])
			}
		}
	}
}

// quadFixture returns four random rows of length n, v, p and two copies of
// p, the inputs of the four-row symmetric product's tests.
func quadFixture(rng *rand.Rand, n int) (r [4][]float64, v, p, pw, pg []float64) {
	d := testmat.Random(rng, 6, n, 0).Data
	r = [4][]float64{d[:n], d[n : 2*n], d[2*n : 3*n], d[3*n : 4*n]}
	v, p = d[4*n:5*n], d[5*n:6*n]
	return r, v, p, append([]float64(nil), p...), append([]float64(nil), p...)
}

// TestSymvQuadSrc: symvQuad (AVX-512 in a GOEXPERIMENT=simd build) with src
// a vector of zeros and p holding anything sets p to what it gives on a
// cleared p, to the bit, and leaves src as it was — the first rows of a
// range of the symmetric product rely on it instead of clearing.
func TestSymvQuadSrc(t *testing.T) {
	rng := testmat.NewRand(11)
	vi := [4]float64{0.75, -1.25, 2.5, -0.125}
	for _, n := range []int{0, 3, 8, 15, 16, 17, 40, 100} {
		r, v, p, _, pg := quadFixture(rng, n)
		pw := make([]float64, n)
		want := symvQuad(r[0], r[1], r[2], r[3], v, pw, pw, &vi)
		zero := make([]float64, n)
		got := symvQuad(r[0], r[1], r[2], r[3], v, zero, pg, &vi)
		for q := range want {
			if math.Float64bits(got[q]) != math.Float64bits(want[q]) {
				t.Errorf("n=%d: sum %d = %v, on a cleared p %v", n, q, got[q], want[q])
			}
		}
		for k := range pg {
			if math.Float64bits(pg[k]) != math.Float64bits(pw[k]) || zero[k] != 0 {
				t.Errorf("n=%d: p[%d] = %v, on a cleared p %v (p was %v)", n, k, pg[k], pw[k], p[k])
			}
		}
	}
}
