//go:build goexperiment.simd && amd64

package linalg

import (
	"simd/archsimd"

	"rkhs/internal/simdapi"
)

// The inner loop of the tridiagonal reduction's symmetric matrix-vector
// product with AVX-512: in the scalar build it is 40% of EigenSym's time at
// n=2000 (docs/notes/avx512-kernel.md, the symmetric eigensolver with the
// SIMD kernels).

// symvPair is symvPairScalar, eight elements of each row at a time. Each
// sum is kept in eight lanes and added across them at the end in a fixed
// order, so the result depends only on the inputs (not on the number of
// goroutines) but can differ in the last bits from the scalar build's.
func symvPair(r0, r1, v, p []float64, vi0, vi1 float64) (float64, float64) {
	if !hasAVX512 || len(r0) < 16 {
		return symvPairScalar(r0, r1, v, p, vi0, vi1)
	}
	n := len(r0) / 8 * 8
	var sums [2]float64
	symvPair8(r0[:n], r1[:n], v[:n], p[:n], vi0, vi1, &sums)
	t0, t1 := symvPairScalar(r0[n:], r1[n:len(r0)], v[n:len(r0)], p[n:len(r0)], vi0, vi1)
	return sums[0] + t0, sums[1] + t1
}

// symvPair8 is symvPair on lengths that are multiples of 8; it writes the
// two sums to sums (returning float64 values from a function that used
// vectors would leave the upper halves dirty for the caller's SSE code).
//
//go:noinline
func symvPair8(r0, r1, v, p []float64, vi0, vi1 float64, sums *[2]float64) {
	n := len(r0)
	r1, v, p = r1[:n], v[:n], p[:n]
	w0 := archsimd.BroadcastFloat64x8(vi0)
	w1 := archsimd.BroadcastFloat64x8(vi1)
	var s0, s1 archsimd.Float64x8
	for k := 0; k+8 <= n; k += 8 {
		a := simdapi.Load8(r0[k : k+8])
		b := simdapi.Load8(r1[k : k+8])
		vk := simdapi.Load8(v[k : k+8])
		s0 = a.MulAdd(vk, s0)
		s1 = b.MulAdd(vk, s1)
		pk := simdapi.Load8(p[k : k+8])
		simdapi.Store8(a.MulAdd(w0, b.MulAdd(w1, pk)), p[k:k+8])
	}
	storeLaneSums(s0, s1, sums) // in bidiag_pass_simd.go
	archsimd.ClearAVXUpperBits()
}

// symvQuad is symvQuadScalar, eight elements of each row at a time, with
// the lane sums of each row added in the fixed order of symvPair's.
func symvQuad(r0, r1, r2, r3, v, src, p []float64, vi *[4]float64) (sums [4]float64) {
	if !hasAVX512 || len(r0) < 16 {
		return symvQuadScalar(r0, r1, r2, r3, v, src, p, vi)
	}
	n, l := len(r0)/8*8, len(r0)
	symvQuad8(r0[:n], r1[:n], r2[:n], r3[:n], v[:n], src[:n], p[:n], vi, &sums)
	t := symvQuadScalar(r0[n:], r1[n:l], r2[n:l], r3[n:l], v[n:l], src[n:l], p[n:l], vi)
	for r := range sums {
		sums[r] += t[r]
	}
	return sums
}

// symvQuad8 is symvQuad on lengths that are multiples of 8: per eight
// elements, four loads of A, one of v and one of src, four FMAs into the
// sums and four into p (rows 0 and 1, then 2 and 3, as two symvPair8
// calls would add them), and one store.
//
//go:noinline
func symvQuad8(r0, r1, r2, r3, v, src, p []float64, vi *[4]float64, sums *[4]float64) {
	n := len(r0)
	r1, r2, r3, v, src, p = r1[:n], r2[:n], r3[:n], v[:n], src[:n], p[:n]
	w0 := archsimd.BroadcastFloat64x8(vi[0])
	w1 := archsimd.BroadcastFloat64x8(vi[1])
	w2 := archsimd.BroadcastFloat64x8(vi[2])
	w3 := archsimd.BroadcastFloat64x8(vi[3])
	var s0, s1, s2, s3 archsimd.Float64x8
	for k := 0; k+8 <= n; k += 8 {
		vk := simdapi.Load8(v[k : k+8])
		a := simdapi.Load8(r0[k : k+8])
		s0 = a.MulAdd(vk, s0)
		b := simdapi.Load8(r1[k : k+8])
		s1 = b.MulAdd(vk, s1)
		c := simdapi.Load8(r2[k : k+8])
		s2 = c.MulAdd(vk, s2)
		d := simdapi.Load8(r3[k : k+8])
		s3 = d.MulAdd(vk, s3)
		pk := simdapi.Load8(src[k : k+8])
		pk = a.MulAdd(w0, b.MulAdd(w1, pk)) // rows 0 and 1 as symvPair8 adds them
		simdapi.Store8(c.MulAdd(w2, d.MulAdd(w3, pk)), p[k:k+8])
	}
	storeLaneSums(s0, s1, (*[2]float64)(sums[0:2]))
	storeLaneSums(s2, s3, (*[2]float64)(sums[2:4]))
	archsimd.ClearAVXUpperBits()
}
