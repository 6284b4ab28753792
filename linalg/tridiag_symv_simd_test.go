//go:build goexperiment.simd && amd64

package linalg

import (
	"math"
	"testing"

	"rkhs/internal/testmat"
)

// TestSymvPairSIMD compares the AVX-512 symvPair with symvPairScalar for
// every length up to 70 (vector body and scalar tail): both sums and the
// updated p agree to rounding (relative 1e-14 of the sum of magnitudes).
func TestSymvPairSIMD(t *testing.T) {
	if !hasAVX512 {
		t.Skip("no AVX-512")
	}
	rng := testmat.NewRand(5)
	for n := 0; n <= 70; n++ {
		d := testmat.Random(rng, 5, n, 0).Data
		r0, r1, v, p := d[:n], d[n:2*n], d[2*n:3*n], d[3*n:4*n]
		vi1 := -1.25
		if n > 0 {
			vi1 = d[4*n]
		}
		pw, pg := append([]float64(nil), p...), append([]float64(nil), p...)
		w0, w1 := symvPairScalar(r0, r1, v, pw, 0.75, vi1)
		g0, g1 := symvPair(r0, r1, v, pg, 0.75, vi1)
		var m0, m1 float64
		for k := range r0 {
			m0 += math.Abs(r0[k] * v[k])
			m1 += math.Abs(r1[k] * v[k])
		}
		if math.Abs(g0-w0) > 1e-14*m0 || math.Abs(g1-w1) > 1e-14*m1 {
			t.Errorf("n=%d: sums %v, %v; scalar %v, %v", n, g0, g1, w0, w1)
		}
		for k := range pg {
			if math.Abs(pg[k]-pw[k]) > 1e-14*(math.Abs(p[k])+math.Abs(r0[k])+math.Abs(r1[k])) {
				t.Errorf("n=%d: p[%d] = %v, scalar %v", n, k, pg[k], pw[k])
			}
		}
	}
}

// TestSymvQuadSIMD compares the AVX-512 symvQuad with symvQuadScalar for
// every length up to 70: the four sums and the updated p agree to rounding
// (relative 1e-14 of the sums of magnitudes).
func TestSymvQuadSIMD(t *testing.T) {
	if !hasAVX512 {
		t.Skip("no AVX-512")
	}
	rng := testmat.NewRand(6)
	vi := [4]float64{0.75, -1.25, 2.5, -0.125}
	for n := 0; n <= 70; n++ {
		r, v, p, pw, pg := quadFixture(rng, n)
		want := symvQuadScalar(r[0], r[1], r[2], r[3], v, pw, pw, &vi)
		got := symvQuad(r[0], r[1], r[2], r[3], v, pg, pg, &vi)
		for q := range r {
			var mag float64
			for k := range v {
				mag += math.Abs(r[q][k] * v[k])
			}
			if math.Abs(got[q]-want[q]) > 1e-14*mag {
				t.Errorf("n=%d: sum %d = %v, scalar %v", n, q, got[q], want[q])
			}
		}
		for k := range pg {
			mag := math.Abs(p[k])
			for q := range r {
				mag += math.Abs(vi[q] * r[q][k])
			}
			if math.Abs(pg[k]-pw[k]) > 1e-14*mag {
				t.Errorf("n=%d: p[%d] = %v, scalar %v", n, k, pg[k], pw[k])
			}
		}
	}
}
