//go:build goexperiment.simd && amd64

package linalg

import (
	"math"
	"slices"
	"testing"

	"rkhs/internal/testmat"
)

// TestBidiagPassSIMD compares the AVX-512 dot2 and axpy2 with their scalar
// twins for every length up to 70 (vector body and scalar tail): they agree
// to rounding (relative 1e-14 of the sum of magnitudes).
func TestBidiagPassSIMD(t *testing.T) {
	if !hasAVX512 {
		t.Skip("no AVX-512")
	}
	rng := testmat.NewRand(6)
	for n := 0; n <= 70; n++ {
		d := testmat.Random(rng, 4, n, 0).Data
		r0, r1, u, y := d[:n], d[n:2*n], d[2*n:3*n], d[3*n:4*n]
		w0, w1 := dot2Scalar(r0, r1, u)
		g0, g1 := dot2(r0, r1, u)
		var m0, m1 float64
		for k := range r0 {
			m0 += math.Abs(r0[k] * u[k])
			m1 += math.Abs(r1[k] * u[k])
		}
		if math.Abs(g0-w0) > 1e-14*m0 || math.Abs(g1-w1) > 1e-14*m1 {
			t.Errorf("n=%d: dot2 %v, %v; scalar %v, %v", n, g0, g1, w0, w1)
		}
		yw, yg := append([]float64(nil), y...), append([]float64(nil), y...)
		axpy2Scalar(0.75, -1.5, r0, r1, yw)
		axpy2(0.75, -1.5, r0, r1, yg)
		for k := range yg {
			if math.Abs(yg[k]-yw[k]) > 1e-14*(math.Abs(y[k])+math.Abs(r0[k])+2*math.Abs(r1[k])) {
				t.Errorf("n=%d: axpy2 y[%d] = %v, scalar %v", n, k, yg[k], yw[k])
			}
		}
	}
}

// TestFusedRows4SIMD: the four-row step of the fused pass with its four dot
// products in one pass (dot4x8) gives, to the bit, what the two dot2 calls
// of fusedRows4Scalar give, for every length through the vector body and
// the scalar tail.
func TestFusedRows4SIMD(t *testing.T) {
	if !hasAVX512 {
		t.Skip("no AVX-512")
	}
	rng := testmat.NewRand(7)
	for n := 1; n <= 70; n++ {
		d := testmat.Random(rng, 6, n, 0).Data
		a0, a1, a2, a3, u, part := d[:n], d[n:2*n], d[2*n:3*n], d[3*n:4*n], d[4*n:5*n], d[5*n:6*n-1]
		h := []float64{0.5, -0.25, 1, 2}
		var c, x [2][4]float64
		var p [2][]float64
		for w, f := range []func(a0, a1, a2, a3, u []float64, tau float64, h, c, x, part []float64){fusedRows4Scalar, fusedRows4} {
			c[w] = [4]float64{1, -3, 0.125, 7}
			p[w] = append([]float64(nil), part...)
			f(a0, a1, a2, a3, u, 1.25, h, c[w][:], x[w][:], p[w])
		}
		if c[0] != c[1] || x[0] != x[1] || !slices.Equal(p[0], p[1]) {
			t.Errorf("n=%d: fusedRows4 gives x %v, c %v; fusedRows4Scalar x %v, c %v (or the sums differ)", n, x[1], c[1], x[0], c[0])
		}
	}
}
