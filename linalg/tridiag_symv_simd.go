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
	r1 = r1[:len(r0)]
	v = v[:len(r0)]
	p = p[:len(r0)]
	w0 := archsimd.BroadcastFloat64x8(vi0)
	w1 := archsimd.BroadcastFloat64x8(vi1)
	var s0, s1 archsimd.Float64x8
	for len(r0) >= 8 && len(r1) >= 8 && len(v) >= 8 && len(p) >= 8 {
		a := simdapi.Load8(r0)
		b := simdapi.Load8(r1)
		vk := simdapi.Load8(v)
		s0 = a.MulAdd(vk, s0)
		s1 = b.MulAdd(vk, s1)
		pk := simdapi.Load8(p)
		simdapi.Store8(a.MulAdd(w0, b.MulAdd(w1, pk)), p)
		r0, r1, v, p = r0[8:], r1[8:], v[8:], p[8:]
	}
	storeLaneSums(s0, s1, sums) // in bidiag_pass_simd.go
	archsimd.ClearAVXUpperBits()
}
