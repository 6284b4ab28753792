//go:build goexperiment.simd && amd64

package linalg

import (
	"simd/archsimd"

	"rkhs/internal/simdapi"
)

// The inner loops of the bidiagonal reduction's matrix–vector passes
// (bidiagPass) with AVX-512, eight elements at a time. Each sum is kept in
// eight lanes and added across them at the end in a fixed order, so the
// results depend only on the inputs (not on the number of goroutines) but
// can differ in the last bits from the scalar build's. hasAVX512 is
// declared in cpu_simd.go.

// dot2 is dot2Scalar, eight elements of each row at a time.
func dot2(r0, r1, u []float64) (float64, float64) {
	if !hasAVX512 || len(r0) < 16 {
		return dot2Scalar(r0, r1, u)
	}
	n := len(r0) / 8 * 8
	var sums [2]float64
	dot2x8(r0[:n], r1[:n], u[:n], &sums)
	t0, t1 := dot2Scalar(r0[n:], r1[n:len(r0)], u[n:len(r0)])
	return sums[0] + t0, sums[1] + t1
}

// dot2x8 is dot2 on lengths that are multiples of 8; it writes the two
// sums to sums (see symvPair8 for why).
//
//go:noinline
func dot2x8(r0, r1, u []float64, sums *[2]float64) {
	r1 = r1[:len(r0)]
	u = u[:len(r0)]
	var s0, s1 archsimd.Float64x8
	for len(r0) >= 8 && len(r1) >= 8 && len(u) >= 8 {
		uk := simdapi.Load8(u)
		s0 = simdapi.Load8(r0).MulAdd(uk, s0)
		s1 = simdapi.Load8(r1).MulAdd(uk, s1)
		r0, r1, u = r0[8:], r1[8:], u[8:]
	}
	storeLaneSums(s0, s1, sums)
	archsimd.ClearAVXUpperBits()
}

// storeLaneSums writes the sums of the eight lanes of s0 and of s1 to sums,
// adding across lanes without leaving the vector unit (a scalar addition
// here would be legacy SSE with the upper halves dirty): halves, then
// quarters, then the pair (VHADDPD), both sums at once, in a fixed order.
func storeLaneSums(s0, s1 archsimd.Float64x8, sums *[2]float64) {
	h0 := s0.GetLo().Add(s0.GetHi())
	h1 := s1.GetLo().Add(s1.GetHi())
	q0 := h0.GetLo().Add(h0.GetHi())
	q1 := h1.GetLo().Add(h1.GetHi())
	simdapi.Store2(simdapi.AddPairs(q0, q1), sums[:])
}

// axpy2 is axpy2Scalar, eight elements at a time.
func axpy2(c0, c1 float64, r0, r1, y []float64) {
	if !hasAVX512 || len(r0) < 16 {
		axpy2Scalar(c0, c1, r0, r1, y)
		return
	}
	n := len(r0) / 8 * 8
	axpy2x8(c0, c1, r0[:n], r1[:n], y[:n])
	axpy2Scalar(c0, c1, r0[n:], r1[n:len(r0)], y[n:len(r0)])
}

//go:noinline
func axpy2x8(c0, c1 float64, r0, r1, y []float64) {
	r1 = r1[:len(r0)]
	y = y[:len(r0)]
	w0 := archsimd.BroadcastFloat64x8(c0)
	w1 := archsimd.BroadcastFloat64x8(c1)
	for len(r0) >= 8 && len(r1) >= 8 && len(y) >= 8 {
		a := simdapi.Load8(r0)
		b := simdapi.Load8(r1)
		yk := simdapi.Load8(y)
		simdapi.Store8(a.MulAdd(w0, b.MulAdd(w1, yk)), y)
		r0, r1, y = r0[8:], r1[8:], y[8:]
	}
	archsimd.ClearAVXUpperBits()
}

// axpy2x2 is two calls of axpy2, the sums of axpy2x2Scalar in the same order.
func axpy2x2(c0, c1, c2, c3 float64, r0, r1, r2, r3, y []float64) {
	axpy2(c0, c1, r0, r1, y)
	axpy2(c2, c3, r2, r3, y)
}
