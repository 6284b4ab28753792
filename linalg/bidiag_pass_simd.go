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
	n := len(r0)
	r1, u = r1[:n], u[:n]
	var s0, s1 archsimd.Float64x8
	for k := 0; k+8 <= n; k += 8 {
		uk := simdapi.Load8(u[k : k+8])
		s0 = simdapi.Load8(r0[k:k+8]).MulAdd(uk, s0)
		s1 = simdapi.Load8(r1[k:k+8]).MulAdd(uk, s1)
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
	n := len(r0)
	r1, y = r1[:n], y[:n]
	w0 := archsimd.BroadcastFloat64x8(c0)
	w1 := archsimd.BroadcastFloat64x8(c1)
	for k := 0; k+8 <= n; k += 8 {
		a := simdapi.Load8(r0[k : k+8])
		b := simdapi.Load8(r1[k : k+8])
		yk := simdapi.Load8(y[k : k+8])
		simdapi.Store8(a.MulAdd(w0, b.MulAdd(w1, yk)), y[k:k+8])
	}
	archsimd.ClearAVXUpperBits()
}

// axpy2x2 is axpy2(c0, c1, r0, r1, y) followed by axpy2(c2, c3, r2, r3,
// y), to the bit, in one pass over y: the vector body and the scalar tail
// split at the same column as in the two calls (len(r0)/8·8; all four rows
// have r0's length), and each element takes the two updates in their
// order.
func axpy2x2(c0, c1, c2, c3 float64, r0, r1, r2, r3, y []float64) {
	if !hasAVX512 || len(r0) < 16 {
		axpy2Scalar(c0, c1, r0, r1, y)
		axpy2Scalar(c2, c3, r2, r3, y)
		return
	}
	n := len(r0) / 8 * 8
	axpy2x2x8(c0, c1, c2, c3, r0[:n], r1[:n], r2[:n], r3[:n], y[:n])
	m := len(r0)
	axpy2Scalar(c0, c1, r0[n:], r1[n:m], y[n:m])
	axpy2Scalar(c2, c3, r2[n:m], r3[n:m], y[n:m])
}

// axpy2x2x8 is axpy2x2 on lengths that are multiples of 8: per eight
// elements, four loads of rows, one of y, four FMAs and one store.
//
//go:noinline
func axpy2x2x8(c0, c1, c2, c3 float64, r0, r1, r2, r3, y []float64) {
	n := len(r0)
	r1, r2, r3, y = r1[:n], r2[:n], r3[:n], y[:n]
	w0 := archsimd.BroadcastFloat64x8(c0)
	w1 := archsimd.BroadcastFloat64x8(c1)
	w2 := archsimd.BroadcastFloat64x8(c2)
	w3 := archsimd.BroadcastFloat64x8(c3)
	for k := 0; k+8 <= n; k += 8 {
		yk := simdapi.Load8(y[k : k+8])
		yk = simdapi.Load8(r0[k:k+8]).MulAdd(w0, simdapi.Load8(r1[k:k+8]).MulAdd(w1, yk))
		yk = simdapi.Load8(r2[k:k+8]).MulAdd(w2, simdapi.Load8(r3[k:k+8]).MulAdd(w3, yk))
		simdapi.Store8(yk, y[k:k+8])
	}
	archsimd.ClearAVXUpperBits()
}

// fusedRows4 is fusedRows4Scalar, to the bit, with the four dot products
// in one pass (dot4x8): each element of u is loaded once for the four
// rows, and the four sums are four independent chains of fused
// multiply-adds where two dot2 calls have two each, waiting on the adder's
// latency. Each sum takes the same terms in the same order as in dot2, and
// the same tail.
func fusedRows4(a0, a1, a2, a3, u []float64, tau float64, h, c, x, part []float64) {
	n := len(a0)
	if !hasAVX512 || n < 16 {
		fusedRows4Scalar(a0, a1, a2, a3, u, tau, h, c, x, part)
		return
	}
	a1, a2, a3, u = a1[:n], a2[:n], a3[:n], u[:n]
	n8 := n / 8 * 8
	var s01, s23 [2]float64
	dot4x8(a0[:n8], a1[:n8], a2[:n8], a3[:n8], u[:n8], &s01, &s23)
	t0, t1 := dot2Scalar(a0[n8:], a1[n8:], u[n8:])
	t2, t3 := dot2Scalar(a2[n8:], a3[n8:], u[n8:])
	fusedRows4Update(a0, a1, a2, a3, s01[0]+t0, s01[1]+t1, s23[0]+t2, s23[1]+t3, tau, h, c, x, part)
}

// dot4x8 is two calls of dot2x8, (r0, r1) into s01 and (r2, r3) into s23,
// in one pass over u (lengths multiples of 8): per eight elements five
// loads and four fused multiply-adds on four separate sums.
//
//go:noinline
func dot4x8(r0, r1, r2, r3, u []float64, s01, s23 *[2]float64) {
	n := len(r0)
	r1, r2, r3, u = r1[:n], r2[:n], r3[:n], u[:n]
	var s0, s1, s2, s3 archsimd.Float64x8
	for k := 0; k+8 <= n; k += 8 {
		uk := simdapi.Load8(u[k : k+8])
		s0 = simdapi.Load8(r0[k:k+8]).MulAdd(uk, s0)
		s1 = simdapi.Load8(r1[k:k+8]).MulAdd(uk, s1)
		s2 = simdapi.Load8(r2[k:k+8]).MulAdd(uk, s2)
		s3 = simdapi.Load8(r3[k:k+8]).MulAdd(uk, s3)
	}
	storeLaneSums(s0, s1, s01)
	storeLaneSums(s2, s3, s23)
	archsimd.ClearAVXUpperBits()
}

// bidiagQRRatio is the default of svdQRRatio: 2 with the AVX-512 passes,
// whose reduction runs about 3× faster than the scalar one beside a QR
// that gains less, and 3 with the scalar ones (see svdQRRatio).
func bidiagQRRatio() float64 {
	if hasAVX512 {
		return 2
	}
	return 3
}
